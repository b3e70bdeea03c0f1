"""The journal as a whole: each entry as the API shows it, the Markdown export (with Iron
Vault's `iron-vault-mechanics` blocks for the Ironsworn-family systems) and the replay check.

Iron Vault (the Obsidian plugin) reads KDL nodes in a fenced `iron-vault-mechanics` block:
`move "Name" { roll "stat" action=.. stat=.. adds=.. vs1=.. vs2=.. }`, `progress-roll`,
`burn from=.. to=..`, `meter "name" from=.. to=..`, `impact "name" true`, `xp from=.. to=..`,
`oracle "name" roll=.. result=".."`, `track "name" status="added"`, `progress "name" from=..
rank=".." steps=..`, `clock "name" from=.. to=.. out-of=..`, and `- "text"`.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, Field

from rules.errors import InvalidParameter
from rules.models import Resolution
from rules.registry import GameSystem, get_system, resolve_roll
from service.narrator import facts
from service.sessions import play
from service.sessions.errors import SessionError
from service.sessions.models import SessionRow, TurnRow
from service.sessions.turn_models import TurnOut

IRON_VAULT_SYSTEMS = ("sundered_isles", "elegy")


def turn_out(turn: TurnRow) -> TurnOut:
    return TurnOut(
        number=turn.number, kind=turn.kind, status=turn.status,  # type: ignore[arg-type]
        words=turn.words, proposal=turn.proposal, resolution=turn.resolution,
        choices=turn.choices or [], chosen=turn.chosen or {}, changes=turn.changes or [],
        narration=turn.narration or "", narrator=turn.narrator,
        narration_status=turn.narration_status or "none",  # type: ignore[arg-type]
        narrated=turn.narrated, created_at=turn.created_at,
    )  # fmt: skip


# --- replay -----------------------------------------------------------------------------------


class Mismatch(BaseModel):
    turn: int
    what: str


class ReplayReport(BaseModel):
    ok: bool
    turns: int = Field(description="turns replayed (resolved ones; undone turns changed nothing)")
    mismatches: list[Mismatch]


def replay_session(row: SessionRow, turns: list[TurnRow]) -> ReplayReport:
    """Every resolved turn re-resolved from its recorded parameters and dice and applied to the
    state the previous one left: each must reach its recorded state, and the last the session's."""
    system = get_system(row.system)
    state: dict[str, Any] = row.initial_state
    mismatches: list[Mismatch] = []
    replayed = 0
    for turn in turns:
        if turn.status != "resolved":
            continue
        replayed += 1
        try:
            applied = _replay_turn(system, state, turn)
        except Exception as exc:  # a turn that no longer resolves is a mismatch, not a crash
            mismatches.append(Mismatch(turn=turn.number, what=f"does not replay: {exc}"))
            continue
        if applied.state != turn.state_after:
            mismatches.append(Mismatch(turn=turn.number, what="a different state after the turn"))
        state = turn.state_after or applied.state
    if state != row.state:
        mismatches.append(Mismatch(turn=0, what="the session's state is not the journal's"))
    return ReplayReport(ok=not mismatches, turns=replayed, mismatches=mismatches)


def _replay_turn(system: GameSystem, state: dict[str, Any], turn: TurnRow) -> play.Applied:
    request = turn.request or {}
    if turn.resolution is None:
        return play.apply_op(system, state, request)
    recorded = Resolution.model_validate(turn.resolution)
    again = resolve_roll(system.id, recorded.kind, dict(recorded.params),
                         dice=recorded.dice_values())  # fmt: skip
    if again.model_dump(exclude={"seed"}) != recorded.model_dump(exclude={"seed"}):
        raise InvalidParameter("the dice give a different resolution", "resolution")
    return play.apply_resolution(
        system, state, again, track=request.get("track"), clock=request.get("clock")
    )


# --- Markdown ---------------------------------------------------------------------------------


def export_markdown(
    row: SessionRow,
    turns: list[TurnRow],
    fmt: str,
    *,
    span: tuple[int, int] | None = None,
    max_bytes: int | None = None,
) -> str:
    """The journal as Markdown; ``span``: the (first, last) turn numbers ``turns`` were chosen
    by, said under the title. Over ``max_bytes`` (UTF-8) is a 413 saying which range fits,
    raised as soon as the text grows past it."""
    if fmt == "iron_vault" and row.system not in IRON_VAULT_SYSTEMS:
        raise SessionError(
            409,
            f"Iron Vault's blocks are for {' and '.join(IRON_VAULT_SYSTEMS)}; export "
            f"{row.system} as format=markdown",
            "format",
        )
    system = get_system(row.system)
    sheet = (row.initial_state or {}).get("sheet", {})
    lines = [f"# {row.name}", "", f"*{system.name}: {sheet.get('name', 'a character')}*", ""]
    if span is not None:
        lines += [f"*Turns {span[0]} to {span[1]}*", ""]
    size = sum(len(line.encode()) + 1 for line in lines)
    fitted: int | None = None  # the last turn whose entry fits
    for turn in turns:
        if turn.status in ("proposed",):
            continue
        entry = _entry(system, turn, fmt)
        size += sum(len(line.encode()) + 1 for line in entry)
        if max_bytes is not None and size > max_bytes:
            raise _too_large(max_bytes, turns[0].number, turn.number, fitted)
        lines += entry
        fitted = turn.number
    return "\n".join(lines).rstrip() + "\n"


def _too_large(max_bytes: int, first: int, over: int, fitted: int | None) -> SessionError:
    hint = (
        f"turns {first} to {fitted} fit: export a range, e.g. from_turn={first}&to_turn={fitted}, "
        f"then from_turn={fitted + 1}"
        if fitted is not None
        else f"turn {over} alone is over it: export from_turn={over + 1}"
    )
    return SessionError(
        413,
        f"the export is over the limit of {max_bytes} bytes (max_export_bytes); {hint}",
        "to_turn",
    )


def _entry(system: GameSystem, turn: TurnRow, fmt: str) -> list[str]:
    heading = f"## Turn {turn.number}" + (" (undone)" if turn.status == "undone" else "")
    out = [heading, "", f"> {' '.join(turn.words.split())}", ""]
    if fmt == "iron_vault":
        out += ["```iron-vault-mechanics", *iron_vault_nodes(turn), "```", ""]
    else:
        out += _plain_mechanics(turn)
    if turn.status == "awaiting_choice":
        out += ["*Awaiting the player's choice.*", ""]
    if turn.narration:
        marker = (
            " *(offline narration, pending a new one)*"
            if turn.narration_status == "pending"
            else ""
        )
        out += [turn.narration + marker, ""]
    return out


def _plain_mechanics(turn: TurnRow) -> list[str]:
    out = []
    if turn.resolution is not None:
        r = Resolution.model_validate(turn.resolution)
        dice = ", ".join(f"{d.role} d{d.sides} {d.value}" for d in r.dice)
        out.append(
            f"**{facts.title(r)}**: {facts.outcome_words(r)}" + (" (match)" if r.match else "")
        )
        if dice:
            out.append(f"Dice: {dice}")
        if r.scores:
            out.append("Scores: " + ", ".join(f"{k} {v}" for k, v in r.scores.items()))
    changes = [c for c in turn.changes or [] if c.get("applied", True)]
    if changes:
        out.append("Changes: " + "; ".join(change_words(c) for c in changes))
    return [*(f"- {line}" for line in out), ""] if out else []


def change_words(change: dict[str, Any]) -> str:
    if change.get("delta") is not None:
        told = f"{change['target']} {change['delta']:+d}"
    elif change.get("set_to") is not None:
        told = f"{change['target']} = {change['set_to']}"
    else:
        told = str(change["target"])
    return f"{told} ({change['note']})" if change.get("note") else told


# --- Iron Vault's mechanics blocks ----------------------------------------------------------------


def kdl_string(text: Any) -> str:
    """A KDL string: JSON's escapes are KDL's (quotes, backslashes, control characters)."""
    return json.dumps(str(text), ensure_ascii=False)


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out |= _flat(v, f"{prefix}{k}.")
        return out
    return {prefix[:-1]: value}


def _sheet_nodes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Meters, impacts and experience that changed, as Iron Vault nodes."""
    old, new = _flat(before.get("sheet", {})), _flat(after.get("sheet", {}))
    nodes = []
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        name = key.rsplit(".", 1)[-1]
        if isinstance(b, bool) or isinstance(a, bool):
            nodes.append(f"impact {kdl_string(name.replace('_', ' '))} {str(bool(b)).lower()}")
        elif isinstance(a, int) and isinstance(b, int):
            if "experience" in key or name == "xp":
                nodes.append(f"xp from={a} to={b}")
            else:
                nodes.append(f"meter {kdl_string(name)} from={a} to={b}")
    return nodes


def _track_nodes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    nodes = []
    old_tracks, new_tracks = before.get("tracks", {}), after.get("tracks", {})
    for tid, track in new_tracks.items():
        prior = old_tracks.get(tid)
        name = kdl_string(track["name"])
        if prior is None:
            nodes.append(f'track {name} status="added"')
        elif track.get("status") != prior.get("status") and track.get("status") == "completed":
            nodes.append(f'track {name} status="completed"')
        elif track["ticks"] != prior["ticks"]:
            nodes.append(f"track {name} from={prior['ticks']} to={track['ticks']}")
    old_clocks, new_clocks = before.get("clocks", {}), after.get("clocks", {})
    for cid, clock in new_clocks.items():
        prior = old_clocks.get(cid)
        name = kdl_string(clock["name"])
        if prior is None:
            nodes.append(f'clock {name} status="added"')
        elif clock["filled"] != prior["filled"]:
            nodes.append(
                f"clock {name} from={prior['filled']} to={clock['filled']} "
                f"out-of={clock['segments']}"
            )
    return nodes


def _roll_nodes(r: Resolution) -> list[str]:
    challenge = [d.value for d in r.dice if d.role == "challenge" and d.kept and not d.rerolled]
    action = [d for d in r.dice if d.role == "action" and not d.rerolled]
    if r.kind == "oracle" or any(d.role == "oracle" for d in r.dice):
        roll = next((d.value for d in r.dice if d.role == "oracle"), 0)
        return [f"oracle {kdl_string(facts.title(r))} roll={roll} result={kdl_string(r.outcome)}"]
    nodes = []
    stat = r.params.get("stat") or r.details.get("stat") or ""
    label = f"{kdl_string(stat)} " if stat else ""
    if len(challenge) >= 2 and "action_score" in r.scores:
        # Elegy rolls no action die (stat + adds against the challenge dice): action=0 keeps
        # Iron Vault's score (action + stat + adds) the engine's.
        action_value = action[0].value if action else 0
        stat_value = r.scores.get("stat", r.params.get("stat_value", 0))
        adds = (
            r.scores.get("action_score", 0) - action_value - stat_value
            if not action
            else (r.scores.get("adds", 0))
        )
        nodes.append(
            f"roll {label}action={action_value} stat={stat_value} adds={adds} "
            f"vs1={challenge[0]} vs2={challenge[1]}"
        )
    elif len(challenge) >= 2:
        score = r.scores.get("progress_score", r.scores.get("score"))
        if score is not None:
            nodes.append(f"progress-roll score={score} vs1={challenge[0]} vs2={challenge[1]}")
    for table in r.details.get("tables_rolled", []) or []:
        if isinstance(table, dict):
            name = table.get("name") or str(table.get("table", "table")).replace("_", " ")
            for text in table.get("results", []):
                nodes.append(
                    f"oracle {kdl_string(name)} roll={table.get('roll', 0)} "
                    f"result={kdl_string(text)}"
                )
    if r.kind == "table":
        roll = r.dice[0].value if r.dice else 0
        for text in facts.table_rows(r):
            nodes.append(
                f"oracle {kdl_string(facts.title(r))} roll={roll} result={kdl_string(text)}"
            )
    return nodes


def iron_vault_nodes(turn: TurnRow) -> list[str]:
    before, after = turn.state_before or {}, turn.state_after or {}
    body: list[str] = []
    if turn.resolution is not None:
        r = Resolution.model_validate(turn.resolution)
        body += _roll_nodes(r)
        if r.details.get("burned_momentum") or r.details.get("burned_focus"):
            old = before.get("sheet", {})
            new = after.get("sheet", {})
            key = "momentum" if "momentum" in _flat(old) else "focus"
            a = _flat(old).get(key)
            b = _flat(new).get(key)
            if isinstance(a, int) and isinstance(b, int):
                body.append(f"burn from={a} to={b}")
    if turn.status == "resolved":
        body += _sheet_nodes(before, after) + _track_nodes(before, after)
    if turn.status == "undone":
        body.append('- "undone"')
    if turn.resolution is not None and Resolution.model_validate(turn.resolution).kind in (
        "move",
        "action",
        "progress",
    ):
        r = Resolution.model_validate(turn.resolution)
        return [f"move {kdl_string(facts.title(r))} {{", *(f"    {n}" for n in body), "}"]
    return body or [f"- {kdl_string(turn.words)}"]
