"""Sundered Isles progress tracks and clocks, without dice: mark progress by rank, fill a clock.

Helper of ``system.py``. The arithmetic is ``rules.progress``'s; this module
gives it parameters, a citation and StateChanges so a client can keep its sheet with the engine.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.dice import DiceSource
from rules.models import Resolution
from rules.models import StateChange as Change
from rules.progress import IRONSWORN_RANK_TICKS, MAX_TICKS, Clock, ProgressTrack
from rules.registry import RollKind
from rules.systems.sundered_isles.core import cite
from rules.systems.sundered_isles.moves import Rank

MARK_PROGRESS = cite("QUICK REFERENCE")
SCENE_CHALLENGES = cite("SCENE CHALLENGES")


class MarkProgressParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rank: Rank = Field(description="the challenge's rank")
    ticks: int = Field(0, ge=0, le=MAX_TICKS, description="ticks already on the track (0..40)")
    times: int = Field(1, ge=1, le=10, description="how many times to mark (2 for 'twice')")


class ClockParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    segments: int = Field(4, ge=2, le=12, description="the clock's size (scene challenge: 4)")
    filled: int = Field(0, ge=0, le=12, description="segments already filled")
    fill: int = Field(1, ge=1, le=12, description="segments to fill now")

    @model_validator(mode="after")
    def _filled_fits(self) -> ClockParams:
        if self.filled > self.segments:
            raise ValueError(f"filled ({self.filled}) exceeds segments ({self.segments})")
        return self


def resolve_mark_progress(params: MarkProgressParams, source: DiceSource) -> Resolution:
    before = ProgressTrack(rank=params.rank, ticks=params.ticks)
    after = before.mark(IRONSWORN_RANK_TICKS[params.rank], params.times)
    return Resolution(
        outcome="complete" if after.ticks == MAX_TICKS else "marked",
        scores={"ticks": after.ticks, "progress_score": after.score},
        changes=[Change(target="progress", delta=after.ticks - before.ticks, set_to=after.ticks)],
        citation=MARK_PROGRESS,
        details={"boxes": after.boxes, "ticks_per_mark": IRONSWORN_RANK_TICKS[params.rank]},
    )


def resolve_clock(params: ClockParams, source: DiceSource) -> Resolution:
    before = Clock(segments=params.segments, filled=params.filled)
    after = before.advance(params.fill)
    return Resolution(
        outcome="complete" if after.complete else "advanced",
        scores={"filled": after.filled, "segments": after.segments},
        changes=[Change(target="clock", delta=after.filled - before.filled, set_to=after.filled)],
        citation=SCENE_CHALLENGES,
    )


TRACK_KINDS = [
    RollKind(
        id="mark_progress",
        summary="Mark progress on a track by its rank (troublesome 3 boxes ... epic 1 tick).",
        params=MarkProgressParams,
        resolve=resolve_mark_progress,
        dice_order="none",
        examples=[{"rank": "dangerous", "ticks": 8}, {"rank": "troublesome", "times": 2}],
    ),
    RollKind(
        id="clock",
        summary="Fill segments of a clock (a scene challenge's tension clock has 4).",
        params=ClockParams,
        resolve=resolve_clock,
        dice_order="none",
        examples=[{"segments": 4, "filled": 2, "fill": 2}],
    ),
]
