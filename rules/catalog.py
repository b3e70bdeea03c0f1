"""Moves and tables of a system, loaded from ``rules/data/<system>/*.yaml`` through strict models.

Game text is data (with its source heading); mechanics are code in ``rules/systems/``.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

from rules.models import Citation, Frozen
from rules.tables import Table


class RollOption(Frozen):
    """One way a move is rolled: a stat or meter, or the best (or worst) of several."""

    using: list[str] = Field(description="stats, meters or progress tracks rolled with")
    method: Literal["single", "highest", "lowest", "choose"] = "single"
    when: str | None = Field(None, description="the fictional condition for this option")


class Correction(Frozen):
    """Where a move's data departs from the wording of its source text, which is kept as printed."""

    printed: str = Field(description="the source text's wording")
    reads: str = Field(description="what the move's data says instead")
    why: str


class Move(Frozen):
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    category: str
    heading: str
    source: str = ""
    trigger: str
    roll: Literal["action", "progress", "conclusion", "oracle", "none"] = "none"
    options: list[RollOption] = Field(default_factory=list)
    progress_track: str | None = Field(None, description="for progress moves: the track rolled")
    outcomes: dict[str, str] = Field(default_factory=dict, description="band -> outcome text")
    tables: list[str] = Field(default_factory=list, description="ids of tables this move uses")
    experience: dict[str, int] = Field(
        default_factory=dict, description="experience awarded, by rank or outcome"
    )
    text: str = Field("", description="the remaining text of the move, verbatim")
    corrections: list[Correction] = Field(
        default_factory=list,
        description="typos of the source text this data corrects (the source keeps them)",
    )

    @property
    def citation(self) -> Citation:
        return Citation(source=self.source, heading=self.heading)


class _MovesFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    source: str
    moves: list[Move]


class _TablesFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    source: str
    tables: list[Table]


def _read(system_id: str, name: str) -> Any:
    path = resources.files("rules") / "data" / system_id / name
    if not path.is_file():
        return None
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@cache
def load_moves(system_id: str) -> tuple[Move, ...]:
    raw = _read(system_id, "moves.yaml")
    if raw is None:
        return ()
    parsed = _MovesFile.model_validate(raw)
    return tuple(
        m if m.source else m.model_copy(update={"source": parsed.source}) for m in parsed.moves
    )


@cache
def load_tables(system_id: str) -> dict[str, Table]:
    raw = _read(system_id, "tables.yaml")
    if raw is None:
        return {}
    parsed = _TablesFile.model_validate(raw)
    tables = [
        t if t.source else t.model_copy(update={"source": parsed.source}) for t in parsed.tables
    ]
    return {t.id: t for t in tables}


class MoveCues(BaseModel):
    """fateweaver's own cue words (not source text) for proposing a move, a stat and a game
    master's parameters offline."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    default: str | None = Field(None, description="the move proposed when no cue matches")
    moves: dict[str, list[str]] = Field(default_factory=dict)
    stats: dict[str, list[str]] = Field(default_factory=dict)
    gm: dict[str, dict[str, list[str]]] = Field(
        default_factory=dict, description="a game master's parameter -> value -> cue words"
    )
    proposal: dict[str, Any] = Field(
        default_factory=dict, description="parameters every offline proposal starts from"
    )


@cache
def load_move_cues(system_id: str) -> MoveCues | None:
    raw = _read(system_id, "move_cues.yaml")
    return None if raw is None else MoveCues.model_validate(raw)
