"""Go Forth recovery (rules/systems/go_forth/rest.py): Short Rest, Long Rest, Vicious Wounds'
sessions."""

from __future__ import annotations

from typing import Any

from rules.sheets import rest
from tests.rules.systems.go_forth.test_sheet import RULES, sheet


def wound(severity: str, **more: Any) -> dict[str, Any]:
    return {"severity": severity, "defense": "body", "roll": 3, **more}


def test_a_short_rest_gathers_momentum_and_heals_flesh_wounds() -> None:
    # "Short Rest / After every Encounter: Move all Momentum to Stamina; Flesh Wounds disappear"
    hurt = sheet(wounds=[wound("flesh"), wound("shallow")])
    after = rest(RULES, hurt, "short").sheet
    assert [w.severity for w in after.wounds] == ["shallow"]


def test_ruling_long_rest_one_shallow_wound() -> None:
    # "Long Rest / 24 hours of uninterrupted downtime. / Remove a Shallow Wound"
    hurt = sheet(wounds=[wound("vicious", sessions=2), wound("shallow"), wound("shallow")])
    once = rest(RULES, hurt, "long")
    assert [w.severity for w in once.sheet.wounds] == ["vicious", "shallow"]
    assert once.applied[0].target == "wounds" and once.applied[0].delta == -1
    twice = rest(RULES, once.sheet, "long").sheet
    assert [w.severity for w in twice.wounds] == ["vicious"]
    assert rest(RULES, twice, "long").applied == []  # no Shallow Wound left: nothing to remove


def test_ruling_vicious_wound_sessions() -> None:
    # "1 – 5 Vicious Wound (d4 sessions)": one session less at each session's end, then gone.
    hurt = sheet(wounds=[wound("vicious", sessions=2), wound("vicious")])
    one = rest(RULES, hurt, "session_end").sheet
    assert [w.sessions for w in one.wounds] == [1, None]
    two = rest(RULES, one, "session_end").sheet
    assert [w.sessions for w in two.wounds] == [None]  # the unrecorded d4 stays for the player
