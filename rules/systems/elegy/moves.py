"""The ``move`` roll kind of elegy: resolves any move of the optional moves chapter.

Move text is data (rules/data/elegy/moves.yaml); what a move does to the numbers is here.
Dice order: see ``MOVE_DICE_ORDER``.
"""

from __future__ import annotations

from typing import Any

from rules.catalog import Move, load_moves, load_tables
from rules.dice import DiceSource
from rules.errors import InvalidParameter, UnknownError
from rules.models import Die, Resolution
from rules.progress import MAX_TICKS, TICKS_PER_BOX
from rules.systems.elegy import options as o
from rules.systems.elegy.mechanics import (
    CHAINS,
    RANK_TICKS,
    RANKS,
    Changes,
    lose,
    rank_up,
    roll_action,
    roll_conclusion,
)
from rules.systems.elegy.params import MoveParams
from rules.tables import TableResult, roll_table, rolled_on

MOVES: dict[str, Move] = {m.id: m for m in load_moves("elegy")}
TABLES = load_tables("elegy")

MOVE_DICE_ORDER = (
    "Action moves: challenge d10, challenge d10, then with negative focus one reroll d10 for each "
    "challenge die below |focus| (the first die's first). Conclusion moves (Fulfill Your Elegy, "
    "End the Fight, Form a Bond): challenge d10, challenge d10 (no rerolls); Form a Bond on a miss "
    "with recommit=true: two more d10. Then the move's own table when its outcome rolls it "
    "(Perform Ritual miss: ritual_miss d100; Endure Harm/Hunger/Stress miss at 0 with both "
    "impacts of the chain marked: its d100 table). Last, with pay_the_price=true and an outcome "
    "that says Pay the Price: the pay_the_price d100 (96-100 rolls it twice more). Moves without "
    "a roll use no dice, except Pay the Price itself (one d100 on its table)."
)

# Focus a move's outcome gives or takes (the move replaces the Action Roll's +1 focus).
FOCUS: dict[tuple[str, str], int] = {
    ("face_danger", "strong_hit"): 1,
    ("secure_an_advantage", "strong_hit"): 2,
    ("gather_information", "strong_hit"): 2,
    ("gather_information", "weak_hit"): 1,
    ("compel", "strong_hit"): 1,
    ("use_power", "strong_hit"): 1,
    ("perform_ritual", "strong_hit"): 1,
    ("rest", "strong_hit"): 2,
    ("respite", "weak_hit"): -1,
    ("feed", "strong_hit"): 1,
    ("feed", "weak_hit"): -1,
    ("sing_an_elegy", "strong_hit"): 2,
    ("sing_an_elegy", "weak_hit"): 1,
    ("enter_the_fray", "strong_hit"): 2,
    ("enter_the_fray", "weak_hit"): 1,
    ("enter_the_fray", "miss"): -1,
    ("battle", "strong_hit"): 2,
    ("endure_harm", "miss"): -1,
    ("endure_hunger", "miss"): -1,
    ("endure_stress", "miss"): -1,
}
# Blood a move's outcome spends (through the hunger chain when the current blood is given).
BLOOD: dict[tuple[str, str], int] = {
    ("use_power", "weak_hit"): 1,
    ("use_power", "miss"): 1,
    ("perform_ritual", "weak_hit"): 1,
    ("perform_ritual", "miss"): 1,
    ("heal", "strong_hit"): 1,
}
# Times progress is marked.
PROGRESS: dict[tuple[str, str], int] = {
    ("clash", "strong_hit"): 2,
    ("clash", "weak_hit"): 1,
    ("test_your_relationship", "strong_hit"): 1,
    ("test_your_relationship", "weak_hit"): 1,
}
# Choices the player makes (not applied).
CHOICES: dict[tuple[str, str], list[str]] = {
    ("secure_an_advantage", "weak_hit"): ["+2 focus", "+1 on your next roll (not a Conclusion)"],
    ("rest", "weak_hit"): ["restore 1 health", "+2 focus"],
    ("rest", "miss"): ["lose 1 blood", "lose 1 focus"],
    ("heal", "weak_hit"): ["lose 2 focus and spend 1 blood", "spend 2 blood"],
    ("feed", "strong_hit"): ["+2 blood, the victim lives", "+4 blood, kill the victim, -3 spirit"],
    ("feed", "weak_hit"): ["+2 blood, the victim lives", "+4 blood, kill the victim, -3 spirit"],
}
ENDURE = {"endure_harm": "health", "endure_stress": "spirit", "endure_hunger": "blood"}
# The meter params.meter_value holds for a move: the one it suffers, spends or may lose.
METER_OF = {**ENDURE, "use_power": "blood", "perform_ritual": "blood", "heal": "blood"}
METER_OF |= {"rest": "blood", "feed": "spirit"}
BANDS = ("strong_hit", "weak_hit", "miss")
BLOOD_MOVES = {"use_power", "perform_ritual", "heal"}


def find_move(move_id: str) -> Move:
    if move_id not in MOVES:
        raise UnknownError("move", move_id, list(MOVES), field="params.move")
    return MOVES[move_id]


def allowed_stats(move: Move) -> list[str]:
    return list(dict.fromkeys(s for option in move.options for s in option.using))


def _stat(move: Move, stat: str | None) -> str:
    allowed = allowed_stats(move)
    if stat is None:
        if len(allowed) == 1:
            return allowed[0]
        raise InvalidParameter(
            f"{move.name} is rolled with one of {', '.join(allowed)}: give params.stat",
            "params.stat",
        )
    if stat not in allowed:
        raise InvalidParameter(
            f"{move.name} is not rolled with {stat}; it allows {', '.join(allowed)}",
            "params.stat",
        )
    return stat


def _mark_progress(
    changes: Changes, params: MoveParams, times: int, details: dict[str, Any]
) -> None:
    if params.rank is None:
        details["mark_progress"] = f"mark progress {times}x (give rank to compute the ticks)"
        return
    new = min(MAX_TICKS, params.ticks + RANK_TICKS[params.rank] * times)
    changes.add("progress", new - params.ticks, f"mark progress {times}x ({params.rank})")


def _roll_on(table_id: str, source: DiceSource, dice: list[Die]) -> TableResult:
    result = roll_table(TABLES[table_id], source, TABLES)
    dice.extend(result.dice)
    return result


def _roll_on_for_move(
    table_id: str, source: DiceSource, dice: list[Die], details: dict[str, Any]
) -> None:
    """A table a rolled move sends you to (Pay the Price, the ritual's miss, an Endure table):
    its rows under the table's id, and in ``tables_rolled`` as every system records them, so
    the narrator's brief and the Iron Vault export carry the price (they read only that)."""
    result = _roll_on(table_id, source, dice)
    details[table_id] = result.texts()
    details.setdefault("tables_rolled", []).append(rolled_on(TABLES[table_id], result))


def _pay_the_price(
    text: str | None,
    params: MoveParams,
    source: DiceSource,
    dice: list[Die],
    details: dict[str, Any],
    priced: bool = True,
) -> None:
    prompted = priced and bool(text) and "pay the price" in (text or "").lower()
    details["pays_the_price"] = prompted
    if prompted and params.pay_the_price:
        _roll_on_for_move("pay_the_price", source, dice, details)


def chosen(params: MoveParams, band: str) -> str | None:
    """The option params sets for this band (strong_hit_choice, weak_hit_choice, miss_choice)."""
    value: str | None = getattr(params, f"{band}_choice")
    return value


def _check_choices(move: Move, params: MoveParams) -> None:
    """A band's choice must be one of the options the move gives for that band."""
    for band in BANDS:
        value = chosen(params, band)
        offered = [option.id for option in o.move_options(move.id, band)]
        if value is not None and value not in offered:
            names = ", ".join(offered) or "none"
            raise InvalidParameter(
                f"{move.name} offers no {band.replace('_', ' ')} option {value!r} (it offers: "
                f"{names})",
                f"params.{band}_choice",
            )


def _take(changes: Changes, move: Move, option: o.Option, params: MoveParams) -> None:
    """Apply a move's option; a loss uses params.meter_value as the meter's current value."""
    meter = METER_OF.get(move.id)
    values: dict[str, int | None] = {meter: params.meter_value} if meter else {}
    meters, impacts = o.current(changes, values, params.impacts)
    o.apply_effects(
        changes, option, meters=meters, impacts=impacts, note=f"{move.name}: {option.label}"
    )


def _choose(
    changes: Changes, move: Move, band: str, params: MoveParams, details: dict[str, Any]
) -> None:
    option = o.find_option(o.move_options(move.id, band), chosen(params, band) or "")
    if option is None:
        return
    details["chosen"] = option.label
    meter = ENDURE.get(move.id)
    if option.id == "shake_it_off" and meter is not None and params.meter_value is not None:
        # "If your health is greater than 0": the meter after the harm suffered first.
        after, _ = o.current(changes, {meter: params.meter_value}, params.impacts)
        if not after[meter]:
            details["chosen"] = f"{option.label} (not taken: your {meter} is 0)"
            return
    _take(changes, move, option, params)


def _action_move(move: Move, params: MoveParams, source: DiceSource) -> Resolution:
    stat = _stat(move, params.stat)
    changes = Changes(focus=params.focus)
    details: dict[str, Any] = {"move": move.id, "stat": stat}
    rulings: list[str] = []
    meter = ENDURE.get(move.id)
    at_zero: bool | None = None
    if meter is not None:
        rulings.append("endure_sequence")
        value = params.meter_value
        if params.amount:
            if value is None:
                changes.add(meter, -params.amount, f"{move.name}: suffer -{meter}")
            else:
                if min(value, params.amount):
                    changes.add(meter, -min(value, params.amount), f"{move.name}: suffer -{meter}")
                if params.amount > value:
                    changes.change_focus(value - params.amount, f"-{meter} beyond 0 is -focus")
        if value is not None:
            at_zero = value - params.amount <= 0
    outcome = roll_action(
        source,
        stat_value=params.stat_value,
        adds=params.adds,
        focus=changes.focus,
        impacts=len(params.impacts),
        burn_focus=params.burn_focus,
    )
    rulings += outcome.rulings
    if outcome.burned:
        changes.reset_focus(outcome.reset)
    band = outcome.band
    key = (move.id, band)
    text = move.outcomes.get(f"{band}_match") if outcome.match else None
    text = text or move.outcomes.get(band)
    if key in FOCUS:
        changes.change_focus(FOCUS[key], f"{move.name}: {band.replace('_', ' ')}")
    if key == ("secure_an_advantage", "strong_hit"):
        changes.add("next_roll_adds", 1, "add +1 on your next roll (not a Conclusion Roll)")
    if key in BLOOD:
        lose(changes, "blood", BLOOD[key], params.meter_value, params.impacts, f"{move.name}")
    if move.id == "heal" and band != "miss":
        if "wounded" in params.impacts:
            changes.clear("wounded", "Heal: clear the Wounded impact")
            changes.add("health", 2, "Heal: +2 health")
        else:
            changes.add("health", 3, "Heal: +3 health")
    if move.id == "rest" and band == "strong_hit":
        changes.add("health", 1, "Rest: restore 1 health")
    if move.id == "respite" and band != "miss":
        if "shaken" in params.impacts:
            changes.clear("shaken", "Respite: clear the Shaken impact")
            changes.add("spirit", 1, "Respite: +1 spirit")
        else:
            changes.add("spirit", 2, "Respite: +2 spirit")
    if key in PROGRESS:
        _mark_progress(changes, params, PROGRESS[key], details)
    if key in CHOICES:
        details["choose"] = CHOICES[key]
    if move.id == "rest" and band == "miss" and outcome.match:
        details["choose"] = ["both: lose 1 blood and lose 1 focus"]
        for option in o.move_options(move.id, band):  # "On a match, pick both"
            _take(changes, move, option, params)
    else:
        _choose(changes, move, band, params, details)
    dice = list(outcome.roll.dice)
    if move.id == "perform_ritual" and band == "miss":
        _roll_on_for_move("ritual_miss", source, dice, details)
    if meter is not None and band == "miss" and at_zero:
        first, second, _ = CHAINS[meter]
        if first not in params.impacts or second not in params.impacts:
            step = first if first not in params.impacts else second
            changes.mark(step, f"{move.name}: mark {step.replace('_', ' ')}")
            details["impact"] = step
        else:
            rulings.append("endure_table_when_both_marked")
            _roll_on_for_move(move.tables[0], source, dice, details)  # its id is the move's
    priced = (move.id, band, chosen(params, band)) not in o.NO_PRICE
    _pay_the_price(text, params, source, dice, details, priced)
    if changes.setback:
        rulings.append("face_a_setback")
        details["face_a_setback"] = changes.setback
    details["burned_focus"] = outcome.burned
    details["burn_would_improve"] = outcome.burn_would_improve
    details["rerolled"] = outcome.roll.rerolled
    return Resolution(
        outcome=band,
        text=text,
        match=outcome.match,
        scores={
            "action_score": outcome.score,
            "focus": params.focus,
            "challenge_1": outcome.roll.challenge[0],
            "challenge_2": outcome.roll.challenge[1],
        },
        dice=dice,
        changes=changes.items,
        citation=move.citation,
        rulings=rulings,
        details=details,
    )


def _conclusion_move(move: Move, params: MoveParams, source: DiceSource) -> Resolution:
    if move.experience and params.rank is None:
        raise InvalidParameter(f"{move.name} needs the track's rank", "params.rank")
    score = params.ticks // TICKS_PER_BOX
    band, roll = roll_conclusion(source, score)
    changes = Changes(focus=params.focus)
    details: dict[str, Any] = {"move": move.id, "progress": score}
    dice = list(roll.dice)
    text = move.outcomes.get(band)
    xp = move.experience.get(f"{band}.{params.rank}", 0)
    if xp:
        changes.add("experience", xp, f"{move.name}: {params.rank}")
    rulings = ["conclusion_ignores_focus"]
    if move.id == "form_a_bond" and band != "miss":
        rulings.append("form_a_bond_experience")
    if band == "miss" and params.recommit and params.rank is not None:
        if move.id == "fulfill_your_elegy":
            rulings.append("recommit_all_but_one")
            kept = min(params.ticks, TICKS_PER_BOX)
            changes.add("progress", kept - params.ticks, "recommit: clear all but one box")
        elif move.id == "form_a_bond":
            extra = [source.roll(10, "recommit"), source.roll(10, "recommit")]
            dice.extend(extra)
            lower = min(d.value for d in extra)
            kept = max(0, params.ticks - lower * TICKS_PER_BOX)
            details["cleared_boxes"] = lower
            changes.add("progress", kept - params.ticks, f"recommit: clear {lower} boxes")
        if move.id in {"fulfill_your_elegy", "form_a_bond"} and params.rank != RANKS[-1]:
            changes.add("rank", 1, f"{params.rank} -> {rank_up(params.rank)}")
    if move.id == "fulfill_your_elegy" and band == "weak_hit" and params.set_things_right:
        # "You may Sing an Elegy to set things right. If you do, add +1." (to that roll)
        changes.add("next_roll_adds", 1, "Sing an Elegy to set things right: add +1")
    option = o.find_option(o.move_options(move.id, band), chosen(params, band) or "")
    if option is not None:
        details["chosen"] = option.label
    _pay_the_price(text, params, source, dice, details)
    return Resolution(
        outcome=band,
        text=text,
        match=roll.match,
        scores={
            "progress": score,
            "challenge_1": roll.challenge[0],
            "challenge_2": roll.challenge[1],
        },
        dice=dice,
        changes=changes.items,
        citation=move.citation,
        rulings=rulings,
        details=details,
    )


def _no_roll_move(move: Move, params: MoveParams, source: DiceSource) -> Resolution:
    changes = Changes(focus=params.focus)
    details: dict[str, Any] = {"move": move.id}
    dice: list[Die] = []
    outcome = "no_roll"
    text = move.text or move.trigger
    if move.tables:
        texts = _roll_on(move.tables[0], source, dice).texts()
        outcome, text = "table", "; ".join(texts)
        details["results"] = texts
    if move.id in {"reach_a_milestone", "develop_a_relationship"}:
        outcome = "progress"
        _mark_progress(changes, params, 1, details)
    return Resolution(
        outcome=outcome,
        text=text,
        dice=dice,
        changes=changes.items,
        citation=move.citation,
        details=details,
    )


def resolve_move(params: MoveParams, source: DiceSource) -> Resolution:
    move = find_move(params.move)
    _check_choices(move, params)
    if move.roll == "action":
        return _action_move(move, params, source)
    if move.roll == "conclusion":
        return _conclusion_move(move, params, source)
    return _no_roll_move(move, params, source)
