from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.progress import IRONSWORN_RANK_TICKS, MAX_TICKS, Clock, LegacyTrack, ProgressTrack


@pytest.mark.parametrize(
    ("rank", "ticks"),
    [("troublesome", 12), ("dangerous", 8), ("formidable", 4), ("extreme", 2), ("epic", 1)],
)
def test_rank_ticks(rank: str, ticks: int) -> None:
    # Starforged: troublesome marks 3 boxes, dangerous 2, formidable 1, extreme 2 ticks, epic 1 tick.
    assert IRONSWORN_RANK_TICKS[rank] == ticks


def test_progress_score_counts_only_full_boxes() -> None:
    # "tally the number of filled boxes on your progress track as your progress score. Only add
    # fully filled boxes (those with four ticks)."
    track = ProgressTrack(rank="extreme").mark(IRONSWORN_RANK_TICKS["extreme"], times=5)
    assert track.ticks == 10
    assert track.score == 2


def test_mark_progress_twice_doubles() -> None:
    # "marking progress twice on a troublesome challenge would mean marking 6 boxes (instead of 3)"
    track = ProgressTrack(rank="troublesome").mark(IRONSWORN_RANK_TICKS["troublesome"], times=2)
    assert track.score == 6


@given(st.sampled_from(list(IRONSWORN_RANK_TICKS)), st.integers(min_value=0, max_value=60))
def test_progress_never_exceeds_forty_ticks(rank: str, times: int) -> None:
    track = ProgressTrack(rank=rank).mark(IRONSWORN_RANK_TICKS[rank], times=times)
    assert 0 <= track.ticks <= MAX_TICKS
    assert track.score == min(10, IRONSWORN_RANK_TICKS[rank] * times // 4)


def test_legacy_track_two_xp_per_box_then_one_after_clearing() -> None:
    track, xp = LegacyTrack().mark(40)
    assert xp == 20
    assert track.cleared == 1 and track.ticks == 0
    track, xp = track.mark(8)
    assert xp == 2


@given(st.lists(st.integers(min_value=0, max_value=12), max_size=20))
def test_legacy_xp_is_additive(marks: list[int]) -> None:
    one_by_one, total = LegacyTrack(), 0
    for ticks in marks:
        one_by_one, xp = one_by_one.mark(ticks)
        total += xp
    at_once, xp_once = LegacyTrack().mark(sum(marks))
    assert (one_by_one, total) == (at_once, xp_once)


def test_clock_fills_and_stops() -> None:
    clock = Clock(segments=4).advance(3).advance(2)
    assert clock.filled == 4 and clock.complete
