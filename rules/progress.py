"""Progress tracks, legacy tracks and clocks: immutable values whose methods return new ones.

A track has 10 boxes of 4 ticks (40 ticks); its progress score is the number of full boxes.
How many ticks a rank marks is the system's business (``ticks_per_mark``).
"""

from __future__ import annotations

from pydantic import Field, model_validator

from rules.errors import InvalidParameter
from rules.models import Frozen

TICKS_PER_BOX = 4
BOXES = 10
MAX_TICKS = TICKS_PER_BOX * BOXES

# Starforged / Sundered Isles: "troublesome (3 boxes), dangerous (2), formidable (1), extreme
# (2 ticks), epic (1 tick)" per mark of progress.
IRONSWORN_RANK_TICKS: dict[str, int] = {
    "troublesome": 12,
    "dangerous": 8,
    "formidable": 4,
    "extreme": 2,
    "epic": 1,
}


class ProgressTrack(Frozen):
    rank: str
    ticks: int = Field(0, ge=0, le=MAX_TICKS)

    @property
    def score(self) -> int:
        return self.ticks // TICKS_PER_BOX

    @property
    def boxes(self) -> list[int]:
        return [min(TICKS_PER_BOX, max(0, self.ticks - i * TICKS_PER_BOX)) for i in range(BOXES)]

    def mark(self, ticks_per_mark: int, times: int = 1) -> ProgressTrack:
        if times < 0:
            raise InvalidParameter(
                "progress can only be marked a positive number of times", "times"
            )
        return self.model_copy(
            update={"ticks": min(MAX_TICKS, self.ticks + ticks_per_mark * times)}
        )

    def clear_boxes(self, boxes: int) -> ProgressTrack:
        return self.model_copy(update={"ticks": max(0, self.ticks - boxes * TICKS_PER_BOX)})


class LegacyTrack(Frozen):
    """Ironsworn-family legacy track: experience for each filled box, less after it is cleared."""

    ticks: int = Field(0, ge=0, le=MAX_TICKS)
    cleared: int = Field(0, ge=0, description="times the track has been filled and cleared")

    @property
    def score(self) -> int:
        return self.ticks // TICKS_PER_BOX

    @property
    def xp_per_box(self) -> int:
        # "mark 2 experience for each filled box ... once the track is cleared, 1 for each box"
        return 2 if self.cleared == 0 else 1

    def mark(self, ticks: int) -> tuple[LegacyTrack, int]:
        """Mark ``ticks``; returns the new track and the experience earned by boxes it filled."""
        if ticks < 0:
            raise InvalidParameter("ticks must not be negative", "ticks")
        track, xp, remaining = self, 0, ticks
        while remaining:
            room = MAX_TICKS - track.ticks
            step = min(room, remaining)
            new_ticks = track.ticks + step
            filled = new_ticks // TICKS_PER_BOX - track.score
            xp += filled * track.xp_per_box
            remaining -= step
            if new_ticks == MAX_TICKS:
                # A full track is cleared and counts on at the lower rate.
                track = LegacyTrack(ticks=0, cleared=track.cleared + 1)
            else:
                track = track.model_copy(update={"ticks": new_ticks})
        return track, xp


class Clock(Frozen):
    segments: int = Field(ge=2, le=12)
    filled: int = Field(0, ge=0)

    @model_validator(mode="after")
    def _not_overfilled(self) -> Clock:
        if self.filled > self.segments:
            raise ValueError(f"filled ({self.filled}) exceeds segments ({self.segments})")
        return self

    @property
    def complete(self) -> bool:
        return self.filled >= self.segments

    def advance(self, segments: int = 1) -> Clock:
        return self.model_copy(update={"filled": min(self.segments, self.filled + segments)})
