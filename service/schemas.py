"""Request and response models of the HTTP API (the engine's own models are reused as they are)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from rules.catalog import Move
from rules.models import Ruling
from rules.registry import GameSystem, MeterSpec, RollKind
from rules.tables import Table


class RollRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    system: str = Field(description="system id", examples=["sundered_isles"])
    kind: str = Field(description="roll kind id of that system", examples=["action"])
    params: dict[str, Any] = Field(default_factory=dict, description="the roll kind's parameters")
    dice: list[int] | None = Field(
        None,
        max_length=200,
        description="dice rolled by hand, consumed in the roll kind's documented order",
    )
    seed: int | None = Field(None, description="seed for the engine's RNG (reported when omitted)")


class RollKindInfo(BaseModel):
    id: str
    summary: str
    dice_order: str
    params_schema: dict[str, Any]
    examples: list[dict[str, Any]]

    @classmethod
    def of(cls, kind: RollKind) -> RollKindInfo:
        return cls(
            id=kind.id,
            summary=kind.summary,
            dice_order=kind.dice_order,
            params_schema=kind.params.model_json_schema(),
            examples=kind.examples,
        )


class SystemInfo(BaseModel):
    id: str
    name: str
    source: str
    summary: str
    stats: list[str]
    meters: list[MeterSpec]
    roll_kinds: list[RollKindInfo]
    rulings: list[Ruling]
    moves: int
    tables: int

    @classmethod
    def of(cls, system: GameSystem) -> SystemInfo:
        return cls(
            id=system.id,
            name=system.name,
            source=system.source,
            summary=system.summary,
            stats=system.stats,
            meters=system.meters,
            roll_kinds=[RollKindInfo.of(k) for k in system.roll_kinds.values()],
            rulings=system.rulings,
            moves=len(system.moves),
            tables=len(system.tables),
        )


class TableSummary(BaseModel):
    id: str
    name: str
    dice: str
    rows: int
    heading: str
    source: str

    @classmethod
    def of(cls, table: Table) -> TableSummary:
        return cls(
            id=table.id,
            name=table.name,
            dice=table.dice,
            rows=len(table.rows),
            heading=table.heading,
            source=table.source,
        )


__all__ = ["Move", "RollKindInfo", "RollRequest", "SystemInfo", "Table", "TableSummary"]
