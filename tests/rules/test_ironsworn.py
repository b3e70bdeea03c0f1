"""The Ironsworn-family mechanics both sundered_isles and elegy call (and nothing else computes)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.ironsworn import (
    band_rank,
    burn_band,
    is_oracle_match,
    momentum_max,
    momentum_reset,
    outcome_band,
)

d10 = st.integers(1, 10)


# elegy.md: "Strong Hit: Your action score beats (ties don't count) the value of both challenge
# dice." / "Weak Hit: Your action score beats only one of the challenge dice." / "Miss: Your
# action score doesn't beat either challenge die."
@pytest.mark.parametrize(
    ("score", "challenge", "band"),
    [
        (6, (5, 2), "strong_hit"),
        (5, (5, 2), "weak_hit"),
        (5, (5, 5), "miss"),
        (10, (9, 10), "weak_hit"),
    ],
)
def test_outcome_band(score: int, challenge: tuple[int, int], band: str) -> None:
    assert outcome_band(score, challenge) == band


# elegy.md: "When you have positive focus, after you make an Action Roll, you may replace your
# action score with your current focus value." (Starforged's momentum burn works the same way.)
def test_burn_only_when_positive_and_better() -> None:
    assert burn_band(7, "miss", (6, 8)) == "weak_hit"
    assert burn_band(9, "weak_hit", (6, 8)) == "strong_hit"
    assert burn_band(5, "miss", (6, 8)) is None  # no better
    assert burn_band(-3, "miss", (1, 1)) is None  # negative: nothing to burn
    assert burn_band(0, "miss", (1, 1)) is None


@given(st.integers(-6, 10), st.integers(0, 10), d10, d10)
def test_burn_never_worsens(meter: int, score: int, c1: int, c2: int) -> None:
    band = outcome_band(score, (c1, c2))
    better = burn_band(meter, band, (c1, c2))
    assert better is None or band_rank(better) > band_rank(band)


# elegy.md: "The default reset is +2. ... If you have one impact marked, your focus reset is +1.
# If you have more than one impact marked, your focus reset is 0."
@pytest.mark.parametrize(("impacts", "reset"), [(0, 2), (1, 1), (2, 0), (5, 0)])
def test_reset_by_impacts(impacts: int, reset: int) -> None:
    assert momentum_reset(impacts) == reset


def test_max_momentum_drops_per_impact() -> None:
    # Starforged core rule: max momentum is 10, less 1 for each marked impact.
    assert [momentum_max(i) for i in range(3)] == [10, 9, 8]


def test_oracle_match_on_doubles() -> None:
    # Starforged core rule: an oracle roll of 11, 22, ... 99 or 100 is a match.
    assert [r for r in range(1, 101) if is_oracle_match(r)] == [
        11,
        22,
        33,
        44,
        55,
        66,
        77,
        88,
        99,
        100,
    ]
