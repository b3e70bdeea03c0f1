"""Requests and responses of the turn routes (a session's play), and the journal's entries."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from rules.sheets import SheetEdit
from service.schemas import DICE_OR_SEED, MAX_PARAMS, NOT_BLANK, StrictRequest

Words = Annotated[str, Field(min_length=1, max_length=2_000, pattern=NOT_BLANK)]
Name = Annotated[str, Field(min_length=1, max_length=200, pattern=NOT_BLANK)]
Die = Annotated[int, Field(ge=1, le=100)]


class StateOp(NamedTuple):
    """A turn that changes the state without dice: its kind, its words in the journal, and the
    operation (``play.apply_op``), recorded as the turn's request so that replay repeats it."""

    kind: str
    words: str
    op: dict[str, Any]


class _Request(StrictRequest):
    """Strict: what the JSON schema says, nothing coerced (service.schemas.StrictRequest)."""


class TurnRequest(_Request):
    """The player's words, and optionally what to roll. With neither `move`, `kind` nor `track`
    the turn proposes a move (and a game master's parameters) and rolls nothing: accept it with
    `POST .../turns/{n}/accept`, or post the turn again naming the move."""

    model_config = ConfigDict(json_schema_extra=DICE_OR_SEED)
    words: Words = Field(examples=["I swing my cutlass at the bosun"])
    move: str | None = Field(None, max_length=80, description="a move id of the system")
    kind: str | None = Field(None, max_length=80, description="a roll kind id (oracle, table...)")
    params: dict[str, Any] = Field(
        default_factory=dict,
        max_length=MAX_PARAMS,
        description="the player's parameters: the stat rolled, adds, odds, table... (values the "
        "character sheet holds come from the sheet)",
    )
    track: str | None = Field(None, max_length=40, description="a track id: its progress roll")
    clock: str | None = Field(None, max_length=40, description="a clock the outcome advances")
    dice: list[Die] | None = Field(None, min_length=1, max_length=200)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)


class AcceptRequest(_Request):
    """Accept a proposed turn, overriding any of its parts."""

    model_config = ConfigDict(json_schema_extra=DICE_OR_SEED)

    move: str | None = Field(None, max_length=80)
    kind: str | None = Field(None, max_length=80)
    params: dict[str, Any] = Field(default_factory=dict, max_length=MAX_PARAMS)
    track: str | None = Field(None, max_length=40)
    dice: list[Die] | None = Field(None, min_length=1, max_length=200)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)


class ChooseRequest(_Request):
    choices: dict[str, Any] = Field(
        min_length=1,
        max_length=20,
        description="each offered choice's parameter -> one of its option values",
    )
    dice: list[Die] | None = Field(
        None, min_length=1, max_length=200, description="more dice, when an option rolls them"
    )


def _track_words() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Every system's track types and ranks (which are the session's is the engine's check)."""
    from rules.registry import all_systems

    specs = [t for s in all_systems() if s.sheet for t in s.sheet.track_types]
    return tuple(sorted({t.id for t in specs})), tuple(sorted({r for t in specs for r in t.ranks}))


_TYPES, _RANKS = _track_words()
TrackTypeId = Literal[_TYPES]  # type: ignore[valid-type]
RankId = Literal[_RANKS]  # type: ignore[valid-type]


class TrackRequest(_Request):
    type: TrackTypeId = Field(
        description="one of the session's system's track types", examples=["vow"]
    )
    name: Name
    rank: RankId | None = Field(None, description="for a ranked track", examples=["dangerous"])
    target: int | None = Field(
        None, ge=1, le=1000, description="for a counted track: how many it takes (a goal)"
    )
    hearts: int | None = Field(
        None, ge=1, le=100, description="Go Forth heart track: the target's Hearts (default 1)"
    )

    def state_op(self) -> StateOp:
        op = {"op": "open_track", "type": self.type, "name": self.name, "rank": self.rank,
              "target": self.target}  # fmt: skip
        if self.hearts is not None:
            op["hearts"] = self.hearts
        return StateOp("track", f"open {self.type}: {self.name}", op)


class SheetEditRequest(_Request):
    edits: list[SheetEdit] = Field(min_length=1, max_length=20)
    words: Words | None = Field(None, description="why, for the journal")

    def state_op(self) -> StateOp:
        told = "; ".join(
            f"{e.field} {e.delta:+d}" if e.delta is not None
            else f"{e.field} = {e.set_to}" if e.set_to is not None
            else f"{e.field} + {e.add}" if e.add is not None
            else f"{e.field} - {e.remove}"
            for e in self.edits
        )  # fmt: skip
        edits = [e.model_dump(exclude_none=True) for e in self.edits]
        return StateOp(
            "sheet", self.words or f"by hand: {told}", {"op": "edit_sheet", "edits": edits}
        )


class RestRequest(_Request):
    kind: str = Field(
        max_length=40,
        pattern=r"^[a-z0-9_]+$",
        description="one of the system's rests (GET /v1/systems: rests)",
        examples=["short"],
    )
    words: Words | None = Field(None, description="what the character does, for the journal")

    def state_op(self) -> StateOp:
        return StateOp(
            "rest", self.words or f"rest: {self.kind}", {"op": "rest", "kind": self.kind}
        )


class MarkRequest(_Request):
    times: int = Field(1, ge=1, le=40, description="marks of progress (or units)")

    def state_op(self, track: str) -> StateOp:
        return StateOp(
            "progress", f"mark progress on {track} x{self.times}",
            {"op": "mark_track", "track": track, "times": self.times},
        )  # fmt: skip


class CloseTrackRequest(_Request):
    status: Literal["completed", "abandoned"] = "completed"

    def state_op(self, track: str) -> StateOp:
        return StateOp(
            "track", f"{self.status}: {track}",
            {"op": "close_track", "track": track, "status": self.status},
        )  # fmt: skip


class ClockRequest(_Request):
    name: Name
    segments: Literal[4, 6, 8, 10] = 4

    def state_op(self) -> StateOp:
        return StateOp(
            "clock", f"clock: {self.name}",
            {"op": "open_clock", "name": self.name, "segments": self.segments},
        )  # fmt: skip


class AdvanceRequest(_Request):
    by: int = Field(1, ge=1, le=10)

    def state_op(self, clock: str) -> StateOp:
        return StateOp(
            "clock", f"advance {clock} by {self.by}",
            {"op": "advance_clock", "clock": clock, "by": self.by},
        )  # fmt: skip


class TurnOut(BaseModel):
    number: int
    kind: str
    status: Literal["proposed", "awaiting_choice", "resolved", "undone"]
    words: str
    proposal: dict[str, Any] | None = None
    resolution: dict[str, Any] | None = Field(None, description="the engine's, every die in it")
    choices: list[dict[str, Any]] = Field(default_factory=list, description="awaiting the player")
    chosen: dict[str, Any] = Field(default_factory=dict)
    changes: list[dict[str, Any]] = Field(default_factory=list)
    narration: str = ""
    narrator: str | None = None
    narration_status: Literal["none", "done", "pending"] = "none"
    narrated: dict[str, Any] | None = None
    created_at: datetime | None = None
