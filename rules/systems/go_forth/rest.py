"""Go Forth: recovery (source: go_forth.txt, "Momentum > Wounds > Recovery" and the Severity
table).

    short        "Short Rest / After every Encounter: Move all Momentum to Stamina; Flesh Wounds
                 disappear" (the momentum kind's short_rest, applied as it does)
    long         "Long Rest / 24 hours of uninterrupted downtime. Remove a Shallow Wound"
    session_end  "Vicious Wound (d4 sessions)": each Vicious Wound has one session less; at 0 it
                 fades ("Wounds have timers. Check the duration to know when it fades.")

Rulings (``REST_RULINGS``): a Long Rest removes one Shallow Wound (the oldest), as the text says
"a"; a Vicious Wound whose d4 was not recorded is left for the player to settle.
"""

from __future__ import annotations

from typing import Any

from rules.models import Ruling, StateChange
from rules.sheets import RestKind, SheetUpdate
from rules.systems.go_forth.momentum import cite

RECOVERY = cite("Momentum > Wounds > Recovery")

REST_KINDS = [
    RestKind(
        id="short",
        name="Short Rest (after every Encounter)",
        text="Move all Momentum to Stamina; Flesh Wounds disappear",
        citation=cite("Momentum > Wounds > Recovery > Short Rest"),
    ),
    RestKind(
        id="long",
        name="Long Rest (24 hours of uninterrupted downtime)",
        text="Remove a Shallow Wound",
        citation=cite("Momentum > Wounds > Recovery > Long Rest"),
    ),
    RestKind(
        id="session_end",
        name="The end of a session (Vicious Wounds count down)",
        text="1 – 5Vicious Wound (d4 sessions)",
        citation=cite("Momentum > Wounds > Severity Table"),
    ),
]

REST_RULINGS = [
    Ruling(
        id="long_rest_one_shallow_wound",
        text="A Long Rest removes one Shallow Wound, the oldest; others wait for the next.",
        quote="Remove a Shallow Wound",
        citation=cite("Momentum > Wounds > Recovery > Long Rest"),
    ),
    Ruling(
        id="vicious_wound_sessions",
        text=(
            "At the end of each session every Vicious Wound has one session less; it fades when "
            "none is left. A Vicious Wound recorded without its d4 is left as it is."
        ),
        quote="Wounds have timers. Check the duration to know when it fades.",
        citation=RECOVERY,
    ),
]


def long_rest(wounds: list[Any]) -> tuple[list[Any], list[StateChange]]:
    for i, wound in enumerate(wounds):
        if wound.severity == "shallow":
            note = "Long Rest: a Shallow Wound removed"
            return wounds[:i] + wounds[i + 1 :], [StateChange(target="wounds", delta=-1, note=note)]
    return wounds, []


def session_end(wounds: list[Any]) -> tuple[list[Any], list[StateChange]]:
    kept, changes = [], []
    for wound in wounds:
        if wound.severity != "vicious" or wound.sessions is None:
            kept.append(wound)
        elif wound.sessions > 1:
            kept.append(wound.model_copy(update={"sessions": wound.sessions - 1}))
            changes.append(
                StateChange(target="wounds.vicious", delta=-1, note=f"{wound.sessions - 1} left")
            )
        else:
            changes.append(StateChange(target="wounds", delta=-1, note="a Vicious Wound fades"))
    return kept, changes


def rest_update(sheet: Any, kind: str, short: SheetUpdate | None) -> SheetUpdate:
    """``short``: the momentum kind's short_rest already applied (see sheet.py)."""
    if kind == "short":
        assert short is not None
        return short
    step = long_rest if kind == "long" else session_end
    wounds, changes = step(list(sheet.wounds))
    return SheetUpdate(sheet=sheet.model_copy(update={"wounds": wounds}), applied=changes)
