"""fateweaver's yes/no oracle for the systems whose texts have none (rules/oracle.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.oracle import ODDS
from rules.registry import get_system, resolve_roll

WITHOUT_ORACLE = ["go_forth", "storyteller", "roll_under"]


@pytest.mark.parametrize("system", WITHOUT_ORACLE)
def test_ruling_fateweaver_oracle(system: str) -> None:
    # Ours, labelled as ours: "d100 at most the odds is a yes; 11, 22 ... 99 or 100 a match".
    likely = resolve_roll(system, "oracle", {"odds": "likely"}, dice=[75])
    assert likely.outcome == "yes" and not likely.match
    assert resolve_roll(system, "oracle", {"odds": "likely"}, dice=[76]).outcome == "no"
    twist = resolve_roll(system, "oracle", {"odds": "unlikely"}, dice=[22])
    assert twist.outcome == "yes" and twist.match
    assert likely.citation.source == "fateweaver" and likely.rulings == ["fateweaver_oracle"]
    ruling = next(r for r in get_system(system).rulings if r.id == "fateweaver_oracle")
    assert "labelled as ours" in ruling.text and ruling.citation.source == get_system(system).source


@given(st.sampled_from(WITHOUT_ORACLE), st.sampled_from(list(ODDS)), st.integers(1, 100))
def test_a_yes_is_a_roll_within_the_odds(system: str, odds: str, roll: int) -> None:
    r = resolve_roll(system, "oracle", {"odds": odds}, dice=[roll])
    assert (r.outcome == "yes") == (roll <= ODDS[odds])
    assert bool(r.match) == (roll == 100 or roll % 11 == 0)
