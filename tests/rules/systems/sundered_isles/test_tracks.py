"""Marking progress and filling clocks in Sundered Isles (no dice)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import InvalidParameter
from rules.registry import resolve_roll


def mark(rank: str, ticks: int = 0, times: int = 1) -> int:
    return resolve_roll(
        "sundered_isles", "mark_progress", {"rank": rank, "ticks": ticks, "times": times}
    ).scores["ticks"]


@pytest.mark.parametrize(
    ("rank", "ticks"),
    [("troublesome", 12), ("dangerous", 8), ("formidable", 4), ("extreme", 2), ("epic", 1)],
)
def test_mark_progress_by_rank(rank: str, ticks: int) -> None:
    # "clear 1 unit of progress on that track per its rank: troublesome=3 boxes; dangerous=2
    # boxes; formidable=1 box; extreme=2 ticks; epic=1 tick." (LOSE MOMENTUM: the unit of progress)
    assert mark(rank) == ticks


def test_mark_progress_twice() -> None:
    # "marking progress twice on a troublesome challenge would mean marking 6 boxes (instead of 3)"
    result = resolve_roll("sundered_isles", "mark_progress", {"rank": "troublesome", "times": 2})
    assert result.scores["progress_score"] == 6


def test_progress_stops_at_ten_boxes() -> None:
    result = resolve_roll("sundered_isles", "mark_progress", {"rank": "troublesome", "ticks": 36})
    assert result.scores["ticks"] == 40 and result.outcome == "complete"
    assert result.changes[0].delta == 4


@given(
    st.sampled_from(["troublesome", "dangerous", "formidable", "extreme", "epic"]),
    st.integers(0, 40),
    st.integers(1, 10),
)
def test_marking_never_loses_progress(rank: str, ticks: int, times: int) -> None:
    assert ticks <= mark(rank, ticks, times) <= 40


def test_scene_challenge_clock_fills() -> None:
    # "Scene challenges use a troublesome, dangerous, or formidable progress track countered by a
    # tension clock with four segments." ... "On a miss with a match, fill two segments"
    result = resolve_roll("sundered_isles", "clock", {"segments": 4, "filled": 3, "fill": 2})
    assert result.outcome == "complete" and result.scores["filled"] == 4


def test_clock_overfilled_is_rejected() -> None:
    with pytest.raises(InvalidParameter) as err:
        resolve_roll("sundered_isles", "clock", {"segments": 4, "filled": 6})
    assert err.value.field == "params"
