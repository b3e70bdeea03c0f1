"""Sundered Isles moves as a roll kind: the move's roll, its outcome text, and its tables.

Helper of ``system.py``. Move text and tables are data
(rules/data/sundered_isles/); this module only resolves them.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.catalog import Move, load_moves, load_tables
from rules.dice import DiceSource
from rules.errors import InvalidParameter, UnknownError
from rules.ironsworn import MOMENTUM_MIN, Band, momentum_max
from rules.models import Die, Resolution, Ruling, StateChange
from rules.progress import BOXES, IRONSWORN_RANK_TICKS, MAX_TICKS, TICKS_PER_BOX, Clock
from rules.systems.sundered_isles.core import (
    AddsField,
    BurnField,
    ImpactsField,
    MomentumField,
    Odds,
    ask_oracle,
    cite,
    progress_score,
    roll_action,
    roll_progress,
)
from rules.systems.sundered_isles.outcomes import (
    Option,
    OptionSet,
    both_options,
    offered_options,
    option_changes,
    option_momentum,
    position_changes,
    progress_changes,
    recommits,
)
from rules.tables import roll_table, rolled_on

SYSTEM_ID = "sundered_isles"
MOVES: dict[str, Move] = {m.id: m for m in load_moves(SYSTEM_ID)}
TABLES = load_tables(SYSTEM_ID)
RANKS = list(IRONSWORN_RANK_TICKS)
Rank = Literal["troublesome", "dangerous", "formidable", "extreme", "epic"]
SCENE_CLOCK_SEGMENTS = 4

MOVE_RULINGS = [
    Ruling(
        id="move_outcome_text",
        text=(
            "A move's outcome text is its band's paragraph, preceded by its 'On a hit' paragraph "
            "on a strong or weak hit, and followed by its 'with a match' paragraph on a match."
        ),
        quote="On a hit, you succeed. On a strong hit, take both.",
        citation=cite("ADVENTURE MOVES > SECURE AN ADVANTAGE"),
    ),
    Ruling(
        id="move_tables_on_request",
        text=(
            "The move kind rolls a table only when the caller sets roll_tables: then it rolls "
            "each table the outcome text names (Pay the Price, Make a Discovery, Confront Chaos, "
            "'the table below'), in the order named, after the move's own dice. Conditions the "
            "text puts on a table (e.g. 'If your health is 0') are applied by the suffer kinds "
            "(endure_harm, ...), not by the move kind."
        ),
        quote="Roll on the table below. If the result doesn’t fit the situation, roll again.",
        citation=cite("FATE MOVES > PAY THE PRICE"),
    ),
    Ruling(
        id="decisive_action_bad_spot",
        text=(
            "Take Decisive Action from a bad spot: a strong hit without a match becomes a weak "
            "hit, a weak hit becomes a miss; a strong hit with a match stays a strong hit, and a "
            "miss stays a miss."
        ),
        quote=(
            "If you are in a bad spot, count a strong hit without a match as a weak hit, and a "
            "weak hit as a miss."
        ),
        citation=cite("COMBAT MOVES > TAKE DECISIVE ACTION"),
    ),
    Ruling(
        id="scene_challenge_changes",
        text=(
            "Scene challenge moves report their progress and 4-segment tension clock effects as "
            "state changes: progress in ticks per the scene's rank (troublesome 12, dangerous 8, "
            "formidable 4) when the rank is given, otherwise as 'progress_marks'; clock segments "
            "as 'tension_clock'. With clock_filled given, a full clock is flagged for Finish a "
            "Scene."
        ),
        quote=(
            "Scene challenges use a troublesome, dangerous, or formidable progress track "
            "countered by a tension clock with four segments."
        ),
        citation=cite("SCENE CHALLENGES"),
    ),
    Ruling(
        id="progress_move_legacy_reward",
        text=(
            "Fulfill Your Vow, Forge a Bond and Finish an Expedition report their legacy reward "
            "as a state change on the legacy track when the rank is given (troublesome 1 tick, "
            "dangerous 2, formidable 1 box, extreme 2 boxes, epic 3 boxes). On a weak hit the "
            "vow and expedition reward is one rank lower (none for troublesome) and the bond "
            "reward waits on the connection's request; the notes say so."
        ),
        quote=(
            "Mark a reward on your quests legacy track per the vow’s rank: troublesome=1 tick; "
            "dangerous=2 ticks; formidable=1 box; extreme=2 boxes; epic=3 boxes."
        ),
        citation=cite("QUEST MOVES > FULFILL YOUR VOW"),
    ),
    Ruling(
        id="momentum_from_outcome_text",
        text=(
            "The move kind reports the momentum an outcome gives or takes unconditionally "
            "('Take +1 momentum.', 'Then, LOSE MOMENTUM (-1).'; on a strong hit that says 'take "
            "both', the weak hit's 'Take +2 momentum' option) as state changes, kept within -6 and "
            "the max momentum and after any burn. Sentences that are choices or conditions ('if', "
            "'or', 'choose', 'whenever', 'instead', bulleted options) are left to the player, and "
            "'as above' on a weak hit is not expanded here (the recover kinds do apply it)."
        ),
        quote="On a strong hit, you are successful. Take +1 momentum.",
        citation=cite("ADVENTURE MOVES > FACE DANGER"),
    ),
]


class MoveParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: str = Field(description="move id, as listed by GET /v1/systems/sundered_isles/moves")
    stat: str | None = Field(None, description="action moves: the stat or meter rolled")
    stat_value: int | None = Field(None, ge=0, le=5, description="its value")
    stats: dict[str, int] | None = Field(
        None, description="'whichever is higher/lower' options: every stat of the option -> value"
    )
    adds: int = AddsField
    momentum: int = MomentumField
    impacts: int = ImpactsField
    burn_momentum: bool = BurnField
    progress_score: int | None = Field(None, ge=0, le=BOXES, description="progress moves")
    progress_ticks: int | None = Field(None, ge=0, le=MAX_TICKS, description="or the ticks")
    legacy_cleared: bool = Field(False, description="progress roll against a cleared legacy track")
    position: Literal["in_control", "bad_spot"] = Field(
        "in_control", description="Take Decisive Action: your position in the fight"
    )
    rank: Rank | None = Field(
        None, description="rank of the challenge: scene challenge progress, legacy rewards"
    )
    clock_filled: int | None = Field(
        None, ge=0, le=SCENE_CLOCK_SEGMENTS, description="scene challenge: segments filled"
    )
    odds: Odds = Field("50_50", description="Ask the Oracle: the odds of a yes")
    aspects: int = Field(1, ge=1, le=3, description="Confront Chaos: number of aspects rolled")
    roll_tables: bool = Field(
        False, description="also roll the tables the outcome names (e.g. Pay the Price)"
    )
    options: list[str] | None = Field(
        None,
        max_length=2,
        description="the outcome's 'choose one' (or 'choose two') options, by id, as the "
        "resolution's details.options lists them",
    )


def get_move(move_id: str) -> Move:
    if move_id not in MOVES:
        raise UnknownError("move", move_id, list(MOVES), field="params.move")
    return MOVES[move_id]


def choose_stat(
    move: Move, stat: str | None, stat_value: int | None, stats: dict[str, int] | None
) -> tuple[str, int]:
    """The stat (and value) rolled, validated against the move's roll options."""
    singles = [o.using[0] for o in move.options if o.method == "single"]
    multi = [o for o in move.options if o.method in ("highest", "lowest")]
    if stats is not None:
        for option in multi:
            if set(stats) == set(option.using):
                for name, value in stats.items():
                    if not 0 <= value <= 5:
                        raise InvalidParameter(
                            f"{name} = {value} must be between 0 and 5", f"params.stats.{name}"
                        )
                pick = max if option.method == "highest" else min
                name = pick(option.using, key=lambda s: stats[s])
                return name, stats[name]
        known = [" + ".join(o.using) for o in multi] or ["(none: give stat and stat_value)"]
        raise UnknownError(
            f"stat combination for {move.id}", "+".join(sorted(stats)), known, "params.stats"
        )
    if stat is None:
        raise InvalidParameter(
            f"{move.id} is rolled with one of: {', '.join(singles + [' / '.join(o.using) for o in multi])}",
            "params.stat",
        )
    if stat not in singles:
        if any(stat in o.using for o in multi):
            raise InvalidParameter(
                f"{move.id} rolls {stat} as 'whichever is higher/lower': give stats with the "
                "value of each",
                "params.stats",
            )
        raise UnknownError(f"stat for {move.id}", stat, singles, field="params.stat")
    if stat_value is None:
        raise InvalidParameter(f"give the value of {stat}", "params.stat_value")
    return stat, stat_value


def outcome_parts(move: Move, band: str, match: bool) -> list[str]:
    parts = []
    if band in ("strong_hit", "weak_hit") and "hit" in move.outcomes:
        parts.append(move.outcomes["hit"])
    if band in move.outcomes:
        parts.append(move.outcomes[band])
    if match and f"{band}_match" in move.outcomes:
        parts.append(move.outcomes[f"{band}_match"])
    return parts


_TABLE_REFERENCES = [
    ("pay the price", "pay_the_price"),
    ("make a discovery", "make_a_discovery"),
    ("confront chaos", "confront_chaos"),
]


def roll_named_tables(
    to_roll: list[str], source: DiceSource
) -> tuple[list[Die], list[dict[str, Any]], list[str]]:
    """Roll each table (an outcome's Pay the Price...): its dice, its results, its texts."""
    dice: list[Die] = []
    results: list[dict[str, Any]] = []
    texts: list[str] = []
    for table_id in to_roll:
        result = roll_table(TABLES[table_id], source, TABLES)
        dice += result.dice
        results.append(rolled_on(TABLES[table_id], result))
        texts.append(f"{TABLES[table_id].name}: {'; '.join(result.texts())}")
    return dice, results, texts


def tables_named(move: Move, texts: list[str]) -> list[str]:
    """Tables the outcome text names, in the order it names them."""
    found: list[tuple[int, str]] = []
    joined = "\n".join(texts).lower()
    for phrase, table_id in _TABLE_REFERENCES:
        at = joined.find(phrase)
        if at >= 0:
            found.append((at, table_id))
    at = joined.find("table below")
    if at >= 0 and move.id in TABLES:
        found.append((at, move.id))
    ordered: list[str] = []
    for _, table_id in sorted(found):
        if table_id not in ordered:
            ordered.append(table_id)
    return ordered


def bad_spot_band(band: Band, match: bool) -> Band:
    """Take Decisive Action from a bad spot."""
    if band == "strong_hit" and not match:
        return "weak_hit"
    if band == "weak_hit":
        return "miss"
    return band


def _scene_changes(params: MoveParams, move: Move, band: str, match: bool) -> list[StateChange]:
    marks, segments = 0, 0
    if move.id == "face_danger_scene_challenge":
        marks = {"strong_hit": 2 if match else 1, "weak_hit": 1, "miss": 0}[band]
        segments = {"strong_hit": 0, "weak_hit": 1, "miss": 2 if match else 1}[band]
    elif move.id == "secure_an_advantage_scene_challenge":
        marks = 1 if band == "strong_hit" and match else 0
        segments = (2 if match else 1) if band == "miss" else 0
    changes = []
    if marks:
        if params.rank is not None:
            if params.rank not in ("troublesome", "dangerous", "formidable"):
                raise InvalidParameter(
                    "a scene challenge is troublesome, dangerous or formidable", "params.rank"
                )
            ticks = IRONSWORN_RANK_TICKS[params.rank] * marks
            changes.append(
                StateChange(target="progress", delta=ticks, note=f"mark progress x{marks}")
            )
        else:
            changes.append(StateChange(target="progress_marks", delta=marks, note="mark progress"))
    if segments:
        note = f"fill {segments} clock segment(s)"
        if params.clock_filled is not None:
            clock = Clock(segments=SCENE_CLOCK_SEGMENTS, filled=params.clock_filled)
            after = clock.advance(segments)
            if after.complete:
                note += "; the tension clock is filled: Finish a Scene"
            segments = after.filled - clock.filled
        changes.append(StateChange(target="tension_clock", delta=segments, note=note))
    return changes


_LEGACY_TRACK = {
    "fulfill_your_vow": "legacy:quests",
    "forge_a_bond": "legacy:bonds",
    "finish_an_expedition": "legacy:discoveries",
}


def _legacy_reward(move: Move, rank: str | None, band: str) -> list[StateChange]:
    if move.id not in _LEGACY_TRACK or rank is None or band == "miss":
        return []
    target = _LEGACY_TRACK[move.id]
    if band == "strong_hit":
        return [StateChange(target=target, delta=move.experience[rank], note="legacy reward")]
    if move.id == "forge_a_bond":
        return [
            StateChange(
                target=target,
                delta=move.experience[rank],
                note="legacy reward, once you do what they ask (or swear a vow to)",
            )
        ]
    index = RANKS.index(rank)  # ranks are listed troublesome first
    if index == 0:
        return []
    note = "legacy reward one rank lower"
    if move.id == "fulfill_your_vow":
        note += " (full reward if you Swear an Iron Vow to set things right)"
    return [StateChange(target=target, delta=move.experience[RANKS[index - 1]], note=note)]


_TAKE = re.compile(r"\btake \+(\d+) momentum", re.IGNORECASE)
_LOSE = re.compile(r"\blose momentum \(-(\d+)\)", re.IGNORECASE)
_CONDITIONAL = ("if ", "whenever", "choose", " or ", "instead", "on a hit")


def momentum_in_text(move: Move, parts: list[str]) -> list[int]:
    """Unconditional momentum gains and losses the outcome text states, in order."""
    found: list[int] = []
    took_both = False
    for part in parts:
        lines = part.split("\n")
        if "take both" in part.lower() and not took_both:
            took_both = True
            lines += [
                line
                for line in move.outcomes.get("weak_hit", "").split("\n")
                if line.lstrip().startswith("-")
            ]
        for line in lines:
            bullet = line.lstrip().startswith("-")
            if bullet and line not in part.split("\n"):
                found += [int(n) for n in _TAKE.findall(line)]
                continue
            if bullet:
                continue
            for sentence in re.split(r"(?<=[.!])\s+", line):
                low = sentence.lower()
                if any(word in low for word in _CONDITIONAL):
                    continue
                for match in re.finditer(f"{_TAKE.pattern}|{_LOSE.pattern}", sentence, re.I):
                    found.append(int(match.group(1)) if match.group(1) else -int(match.group(2)))
    return found


def momentum_changes(start: int, impacts: int, amounts: list[int]) -> list[StateChange]:
    changes, momentum = [], start
    for amount in amounts:
        new = max(MOMENTUM_MIN, min(momentum_max(impacts), momentum + amount))
        label = f"take +{amount} momentum" if amount > 0 else f"Lose Momentum ({amount})"
        if new != momentum:
            changes.append(StateChange(target="momentum", delta=new - momentum, note=label))
        else:
            changes.append(StateChange(target="momentum", delta=0, note=f"{label}: at its limit"))
        momentum = new
    return changes


def _chosen(params: MoveParams, offered: OptionSet | None) -> list[Option]:
    """The options the player chose, checked against what the outcome offers."""
    if params.options is None:
        return []
    if offered is None:
        raise InvalidParameter(
            "this outcome offers no options to choose: leave options out", "params.options"
        )
    if sorted(params.options) not in [sorted(p) for p in offered.picks()]:
        raise InvalidParameter(
            f"choose {offered.count} of {', '.join(offered.ids)}, not {params.options}",
            "params.options",
        )
    return [o for o in offered.options if o.id in params.options]


def _declines_control(offered: OptionSet, chosen: list[Option]) -> bool:
    """Enter the Fray's weak hit: not choosing 'You are in control' leaves you in a bad spot."""
    control = [o for o in offered.options if "you are in control" in o.label.lower()]
    return bool(control) and not set(control) & set(chosen)


def _recommit(params: MoveParams, source: DiceSource) -> tuple[list[Die], list[StateChange]]:
    """'Roll both challenge dice, take the lowest value, and clear that number of progress
    boxes. Then, raise the vow's rank by one (if not already epic)'."""
    dice = [source.roll(10, "challenge"), source.roll(10, "challenge")]
    lowest = min(d.value for d in dice)
    ticks = params.progress_ticks
    if ticks is None:
        ticks = (params.progress_score or 0) * TICKS_PER_BOX
    cleared = min(ticks, lowest * TICKS_PER_BOX)
    changes = [StateChange(target="progress", delta=-cleared, note=f"clear {lowest} boxes")]
    if params.rank is not None and params.rank != RANKS[-1]:
        raised = RANKS[RANKS.index(params.rank) + 1]
        changes.append(StateChange(target="rank", note=raised))
    return dice, changes


def _options_detail(offered: OptionSet | None) -> dict[str, object]:
    if offered is None:
        return {}
    return {
        "options": {
            "count": offered.count,
            "picks": offered.picks(),
            "labels": {o.id: o.label for o in offered.options},
        }
    }


def _reject(params: MoveParams, names: list[str], why: str) -> None:
    for name in names:
        if getattr(params, name) is not None:
            raise InvalidParameter(f"{name} does not apply: {why}", f"params.{name}")


def _without(text: str, labels: list[str]) -> str:
    for label in labels:
        text = text.replace(label, "")
    return text


def resolve_move(params: MoveParams, source: DiceSource) -> Resolution:
    move = get_move(params.move)
    rulings: list[str] = []
    if move.roll == "action":
        _reject(params, ["progress_score", "progress_ticks"], f"{move.id} is an action roll")
        stat, value = choose_stat(move, params.stat, params.stat_value, params.stats)
        result = roll_action(
            source,
            stat_value=value,
            adds=params.adds,
            momentum=params.momentum,
            impacts=params.impacts,
            burn_momentum=params.burn_momentum,
            citation=move.citation,
            stat=stat,
        )
    elif move.roll == "progress":
        _reject(params, ["stat", "stat_value", "stats"], f"{move.id} is a progress move")
        score, extra = progress_score(
            params.progress_score, params.progress_ticks, params.legacy_cleared, "params.progress_"
        )
        result = roll_progress(source, score, move.citation, tuple(extra))
        if move.id == "take_decisive_action" and params.position == "bad_spot":
            adjusted = bad_spot_band(result.outcome, bool(result.match))  # type: ignore[arg-type]
            result = result.model_copy(
                update={
                    "outcome": adjusted,
                    "rulings": [*result.rulings, "decisive_action_bad_spot"],
                    "details": {"band_before_position": result.outcome},
                }
            )
    elif move.roll == "oracle":
        result = ask_oracle(params.odds, source).model_copy(update={"citation": move.citation})
    else:
        result = Resolution(outcome="no_roll", citation=move.citation)
        if move.id == "reach_a_milestone":
            # "When you make headway in your quest ... you may mark progress per the rank of
            # the vow": one mark on the vow the turn names.
            mark = StateChange(target="progress_marks", delta=1, note="mark progress")
            result = result.model_copy(update={"changes": [mark]})
    band = result.outcome
    match = bool(result.match)
    parts = outcome_parts(move, band, match) if move.roll in ("action", "progress") else []
    changes = list(result.changes)
    if move.category == "scene_challenge" and move.roll == "action":
        changes += _scene_changes(params, move, band, match)
        rulings.append("scene_challenge_changes")
    offered = offered_options(move, band, match) if parts else None
    chosen = _chosen(params, offered)
    amounts = momentum_in_text(move, parts)
    amounts += [n for option in chosen for n in option_momentum(option)]
    if amounts:
        burned = [c.set_to for c in result.changes if c.target == "momentum"]
        start = burned[-1] if burned and burned[-1] is not None else params.momentum
        changes += momentum_changes(start, params.impacts, amounts)
        rulings.append("momentum_from_outcome_text")
    changes += position_changes(move, parts) + progress_changes(move, band, parts)
    for option in (*both_options(move, band), *chosen):
        changes += option_changes(option)
    if offered is not None and chosen and _declines_control(offered, chosen):
        changes.append(StateChange(target="position", note="bad_spot"))
    if chosen or both_options(move, band):
        rulings.append("choose_one_options")
    recommit_dice: list[Die] = []
    if any(recommits(option) for option in chosen):
        recommit_dice, recommit_changes = _recommit(params, source)
        changes += recommit_changes
    legacy = _legacy_reward(move, params.rank, band)
    if legacy:
        changes += legacy
        rulings.append("progress_move_legacy_reward")
    if parts:
        rulings.append("move_outcome_text")
    # tables, after the move's own dice
    if move.roll == "none":
        times = params.aspects if move.id == "confront_chaos" else 1
        to_roll = [move.id] * times if move.id in TABLES else tables_named(move, [move.text])
    elif offered is not None and chosen:
        # A table only an option names (Sojourn's miss: "You find no relief ... PAY THE PRICE")
        # is rolled only when that option was chosen.
        unchosen = [o.label for o in offered.options if o not in chosen]
        to_roll = tables_named(move, [_without(p, unchosen) for p in parts])
    else:
        to_roll = tables_named(move, parts)
    dice = [*result.dice, *recommit_dice]
    table_results: list[dict[str, Any]] = []
    if params.roll_tables and to_roll:
        rulings.append("move_tables_on_request")
        table_dice, table_results, table_texts = roll_named_tables(to_roll, source)
        dice += table_dice
        parts += table_texts
    text = "\n\n".join(parts) if parts else move.text
    return result.model_copy(
        update={
            "text": text,
            "dice": dice,
            "changes": changes,
            "rulings": [*result.rulings, *rulings],
            "details": {
                **result.details,
                "move": move.id,
                "name": move.name,
                "tables_named": to_roll,
                "tables_rolled": table_results,
                **_options_detail(offered),
            },
        }
    )
