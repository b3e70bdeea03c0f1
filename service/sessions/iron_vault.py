"""Iron Vault's `iron-vault-mechanics` blocks for a journal entry (Sundered Isles and Elegy).

Iron Vault (the Obsidian plugin, docs/Blocks/Mechanics Blocks.md) reads KDL v1 nodes:
`move "[Name](datasworn:<id>)" { roll "stat" action=.. stat=.. adds=.. vs1=.. vs2=.. }`,
`reroll vs1=..`, `progress-roll name=".." score=.. vs1=.. vs2=..`, `burn from=.. to=..`,
`meter "name" from=.. to=..`, `impact "name" true`, `xp from=.. to=..`, `position from=.. to=..`,
`oracle name=".." roll=.. result=".."`, `track name=".." status="added"` (``track`` and
``progress`` are "not BOA": their name is a property), `clock "name" from=.. to=.. out-of=..`,
and `- "text"`.

Choices made here, as Iron Vault itself writes them:
- a cancelled action die (negative momentum) is `action=0`, so the score is the engine's;
- Elegy rolls no action die: `action=0`, and a challenge die rerolled by negative focus is the
  roll as first rolled, then `reroll vs<n>=<new>`;
- a burn is its `burn` node alone (no `meter "momentum"` beside it);
- only the sheet's meters are meters: legacy tracks are tracks, held adds and the like are not
  written; impacts are `impact` nodes; the combat position is a `position` node;
- an undone turn is a dash that says so, never a roll Iron Vault would count.
"""

from __future__ import annotations

from typing import Any

from rules.models import Resolution
from rules.registry import GameSystem, get_system
from service.narrator import facts
from service.sessions.models import TurnRow

# Sundered Isles' moves that replace Starforged's in Datasworn (the rest are Starforged's own),
# and our ids Datasworn spells otherwise (generated-datasworn/sundered_isles.json).
SUNDERED_ISLES_MOVES = frozenset({
    "enter_the_fray", "confront_chaos", "make_a_discovery", "set_a_course",
    "undertake_an_expedition", "repair", "resupply", "withstand_damage",
})  # fmt: skip
DATASWORN_NAMES = {
    "begin_a_scene": "begin_the_scene",
    "finish_a_scene": "finish_the_scene",
    "face_danger_scene_challenge": "face_danger",
    "secure_an_advantage_scene_challenge": "secure_an_advantage",
}
POSITIONS = {"in_control": "in control", "bad_spot": "in a bad spot", None: "out of combat"}
TRACK_STATUS = {"completed": "completed", "abandoned": "removed", "forsaken": "removed"}
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b",
            "\f": "\\f"}  # fmt: skip


def kdl_string(text: Any) -> str:
    """A KDL v1 string: its escapes (JSON's ``\\u0007`` is not one: ``\\u{7}`` is)."""
    out = []
    for char in str(text):
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{{{ord(char):x}}}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def datasworn_id(system: GameSystem, move_id: str) -> str | None:
    """The Datasworn id of a Sundered Isles move (``move:starforged/adventure/face_danger``)."""
    if system.id != "sundered_isles":
        return None
    move = system.move(move_id)
    package = "sundered_isles" if move.id in SUNDERED_ISLES_MOVES else "starforged"
    return f"move:{package}/{move.category}/{DATASWORN_NAMES.get(move.id, move.id)}"


def move_label(system: GameSystem, r: Resolution) -> str:
    name = facts.title(r)
    move_id = r.params.get("move") or r.details.get("move")
    ident = datasworn_id(system, move_id) if isinstance(move_id, str) else None
    return f"[{name}](datasworn:{ident})" if ident else name


def _dice(r: Resolution, role: str) -> list[Any]:
    return [d for d in r.dice if d.role == role]


def roll_nodes(r: Resolution, track_name: str | None) -> list[str]:
    if r.kind == "oracle" or any(d.role == "oracle" for d in r.dice):
        roll = next((d.value for d in r.dice if d.role == "oracle"), 0)
        return [f"oracle name={kdl_string(facts.title(r))} roll={roll} "
                f"result={kdl_string(r.outcome)}"]  # fmt: skip
    nodes = []
    challenge = _dice(r, "challenge")[:2]
    if len(challenge) == 2 and "action_score" in r.scores:
        nodes += _action_roll(r, challenge)
    elif len(challenge) == 2:
        score = next(
            (r.scores[k] for k in ("progress_score", "score", "progress") if k in r.scores), None
        )
        if score is not None:
            name = track_name or facts.title(r)
            nodes.append(f"progress-roll name={kdl_string(name)} score={score} "
                         f"vs1={challenge[0].value} vs2={challenge[1].value}")  # fmt: skip
    if before := r.details.get("band_before_position"):
        told = f"in a bad spot: the {str(before).replace('_', ' ')} counts as a " + r.outcome
        nodes.append(f"- {kdl_string(told.replace('_', ' '))}")
    for table in r.details.get("tables_rolled", []) or []:
        if isinstance(table, dict):
            name = table.get("name") or str(table.get("table", "table")).replace("_", " ")
            nodes += _oracle_nodes(name, table.get("results", []), table.get("rolls"),
                                   table.get("roll", 0))  # fmt: skip
    if r.kind == "table":
        first = r.dice[0].value if r.dice else 0
        nodes += _oracle_nodes(facts.title(r), facts.table_rows(r), r.details.get("rolls"), first)
    return nodes


def _oracle_nodes(name: str, results: list[Any], rolls: list[Any] | None, roll: Any) -> list[str]:
    """A table's results as oracle nodes, each with the roll it came from (a "roll twice" row's
    two rolls); a record written before "rolls" was kept gives the table's ``roll`` to each."""
    each = rolls or [roll] * len(results)
    return [f"oracle name={kdl_string(name)} roll={value} result={kdl_string(text)}"
            for text, value in zip(results, each, strict=False)]  # fmt: skip


def _action_roll(r: Resolution, challenge: list[Any]) -> list[str]:
    action = _dice(r, "action")
    # A cancelled action die (negative momentum) counts 0, as Iron Vault writes it.
    action_value = action[0].value if action and not action[0].cancelled else 0
    stat_value = r.scores.get("stat", r.params.get("stat_value", 0))
    adds = r.scores.get("adds")
    if adds is None or not action:  # Elegy: stat + adds, no action die
        adds = r.scores.get("action_score", 0) - action_value - stat_value
    stat = r.params.get("stat") or r.details.get("stat") or ""
    label = f"{kdl_string(stat)} " if stat else ""
    nodes = [f"roll {label}action={action_value} stat={stat_value} adds={adds} "
             f"vs1={challenge[0].value} vs2={challenge[1].value}"]  # fmt: skip
    for die in r.dice:  # Elegy's negative focus: "challenge_2_reroll" rerolls vs2
        if die.role.startswith("challenge_") and die.role.endswith("_reroll"):
            nodes.append(f"reroll vs{die.role.split('_')[1]}={die.value}")
    return nodes


def _sheet_nodes(system: GameSystem, before: dict[str, Any], after: dict[str, Any],
                 burned: bool) -> list[str]:  # fmt: skip
    old, new = before.get("sheet", {}), after.get("sheet", {})
    meters = {m.id for m in system.meters}
    nodes = []
    for name in sorted(meters - ({"momentum", "focus"} if burned else set())):
        a, b = _meter(old, name), _meter(new, name)
        if a != b and isinstance(a, int) and isinstance(b, int):
            nodes.append(f"meter {kdl_string(name)} from={a} to={b}")
    if old.get("experience") != new.get("experience"):
        nodes.append(f"xp from={old.get('experience', 0)} to={new.get('experience', 0)}")
    was, now = set(old.get("impacts") or []), set(new.get("impacts") or [])
    for impact in sorted(now - was):
        nodes.append(f"impact {kdl_string(impact.replace('_', ' '))} true")
    for impact in sorted(was - now):
        nodes.append(f"impact {kdl_string(impact.replace('_', ' '))} false")
    if old.get("position") != new.get("position"):
        nodes.append(f"position from={kdl_string(POSITIONS.get(old.get('position')))} "
                     f"to={kdl_string(POSITIONS.get(new.get('position')))}")  # fmt: skip
    for legacy, track in (new.get("legacy") or {}).items():
        a = ((old.get("legacy") or {}).get(legacy) or {}).get("ticks")
        b = track.get("ticks") if isinstance(track, dict) else None
        if a != b and isinstance(a, int) and isinstance(b, int):
            nodes.append(f"track name={kdl_string(legacy.title() + ' legacy')} from={a} to={b}")
    return nodes


def _meter(sheet: dict[str, Any], name: str) -> Any:
    """A meter where a sheet keeps it: at the top (Sundered Isles) or under ``meters``."""
    return sheet.get(name, (sheet.get("meters") or {}).get(name))


def _track_nodes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    nodes = []
    old_tracks, new_tracks = before.get("tracks", {}), after.get("tracks", {})
    for tid, track in new_tracks.items():
        prior = old_tracks.get(tid)
        name = kdl_string(track["name"])
        if prior is None:
            nodes.append(f'track name={name} status="added"')
            continue
        if track["ticks"] != prior["ticks"]:
            nodes.append(f"track name={name} from={prior['ticks']} to={track['ticks']}")
        if track.get("counted") and track.get("units") != prior.get("units"):
            # a count of its own (Go Forth's Effort on a Heart, Storyteller's successes), not
            # Iron Vault's ticks: said in words
            told = f"{track['name']}: {track.get('units')} of {track.get('target')}"
            if "hearts" in track:
                told += f", {track['hearts']} Heart(s) left"
            nodes.append(f"- {kdl_string(told)}")
        status = TRACK_STATUS.get(track.get("status"))
        if track.get("status") != prior.get("status") and status:
            nodes.append(f"track name={name} status={kdl_string(status)}")
        elif prior.get("status") != "open" and track.get("status") == "open":
            nodes.append(f'track name={name} status="reopened"')
    old_clocks, new_clocks = before.get("clocks", {}), after.get("clocks", {})
    for cid, clock in new_clocks.items():
        prior = old_clocks.get(cid)
        name = kdl_string(clock["name"])
        if prior is None:
            nodes.append(f'clock name={name} status="added"')
        elif clock["filled"] != prior["filled"]:
            nodes.append(f"clock name={name} from={prior['filled']} to={clock['filled']} "
                         f"out-of={clock['segments']}")  # fmt: skip
    return nodes


def _burn_nodes(r: Resolution, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    if not (r.details.get("burned_momentum") or r.details.get("burned_focus")):
        return []
    key = "focus" if r.details.get("burned_focus") else "momentum"
    a, b = _meter(before.get("sheet", {}), key), _meter(after.get("sheet", {}), key)
    burned = [c.set_to for c in r.changes if c.target == key and c.set_to is not None]
    if isinstance(a, int) and burned:
        return [f"burn from={a} to={burned[0]}"]
    return [f"burn from={a} to={b}"] if isinstance(a, int) and isinstance(b, int) else []


MOVE_KINDS = ("move", "action", "progress", "conclusion")


def _own_kind_move(system: GameSystem, r: Resolution) -> bool:
    """A move resolved by a roll kind of its own (Heal, Endure Harm, Lose Momentum...)."""
    return r.details.get("move") == r.kind and any(m.id == r.kind for m in system.moves)


IRONSWORN_FAMILY = ("sundered_isles", "elegy")


def dice_expr_nodes(r: Resolution) -> list[str]:
    """A roll of a game Iron Vault has no moves for (Go Forth, Storyteller, Roll Under): the
    node of Iron Vault's own Roll dice command, ``dice-expr expr=".." result=.. { rolls ..
    dice="NdS" }``, every die by its size (the result is their sum), then the outcome as a
    comment."""
    groups: dict[int, list[int]] = {}
    for die in r.dice:
        groups.setdefault(die.sides, []).append(die.value)
    nodes = []
    if groups:
        expr = " + ".join(f"{len(v)}d{sides}" for sides, v in groups.items())
        total = sum(sum(v) for v in groups.values())
        rolls = [f"    rolls {' '.join(map(str, v))} dice=\"{len(v)}d{sides}\""
                 for sides, v in groups.items()]  # fmt: skip
        nodes += [f"dice-expr expr={kdl_string(expr)} result={total} {{", *rolls, "}"]
    told = f"{facts.title(r)}: {str(r.outcome).replace('_', ' ')}"
    return [*nodes, f"- {kdl_string(told)}"]


def _numbers(sheet: dict[str, Any]) -> dict[str, int]:
    """A sheet's whole numbers by name, at its top and one level down (abilities.brawn is
    "brawn", Go Forth's momentum.stamina "stamina")."""
    out: dict[str, int] = {}
    for key, value in sheet.items():
        if isinstance(value, int) and not isinstance(value, bool):
            out[key] = value
        elif isinstance(value, dict):
            for sub, inner in value.items():
                if isinstance(inner, int) and not isinstance(inner, bool):
                    out.setdefault(sub, inner)
    return out


def _number_nodes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    old, new = _numbers(before.get("sheet", {})), _numbers(after.get("sheet", {}))
    return [f"meter {kdl_string(name)} from={old[name]} to={value}"
            for name, value in new.items() if name in old and old[name] != value]  # fmt: skip


def _other_game_nodes(turn: TurnRow, r: Resolution | None) -> list[str]:
    before, after = turn.state_before or {}, turn.state_after or {}
    body: list[str] = []
    if r is not None:
        oracle = r.kind in ("oracle", "table") or any(d.role == "oracle" for d in r.dice)
        body += roll_nodes(r, None) if oracle else dice_expr_nodes(r)
    if turn.status == "resolved":
        body += _number_nodes(before, after) + _track_nodes(before, after)
    return body or [f"- {kdl_string(turn.words)}"]


def iron_vault_nodes(system_id: str, turn: TurnRow) -> list[str]:
    """The nodes of one journal entry."""
    system = get_system(system_id)
    before, after = turn.state_before or {}, turn.state_after or {}
    r = Resolution.model_validate(turn.resolution) if turn.resolution is not None else None
    if turn.status == "undone":
        told = f"undone: {facts.title(r)}" if r is not None else "undone"
        return [f"- {kdl_string(told)}"]
    if system_id not in IRONSWORN_FAMILY:
        return _other_game_nodes(turn, r)
    track_id = (turn.request or {}).get("track")
    track_name = (before.get("tracks") or {}).get(track_id, {}).get("name") if track_id else None
    body: list[str] = []
    burned = False
    if r is not None:
        body += roll_nodes(r, track_name)
        burns = _burn_nodes(r, before, after) if turn.status == "resolved" else []
        burned = bool(burns)
        body += burns
    if turn.status == "resolved":
        body += _sheet_nodes(system, before, after, burned) + _track_nodes(before, after)
    if r is not None and (r.kind in MOVE_KINDS or _own_kind_move(system, r)):
        return [f"move {kdl_string(move_label(system, r))} {{", *(f"    {n}" for n in body), "}"]
    return body or [f"- {kdl_string(turn.words)}"]
