"""The journal as a whole: each entry as the API shows it, the Markdown export (with Iron
Vault's `iron-vault-mechanics` blocks for the Ironsworn-family systems: iron_vault.py) and the
replay check.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from rules.errors import InvalidParameter
from rules.models import Resolution
from rules.registry import GameSystem, get_system, resolve_roll
from service.narrator import facts
from service.sessions import play
from service.sessions.errors import SessionError
from service.sessions.iron_vault import iron_vault_nodes
from service.sessions.models import SessionRow, TurnRow
from service.sessions.turn_models import TurnOut


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
        out += ["```iron-vault-mechanics", *iron_vault_nodes(system.id, turn), "```", ""]
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
