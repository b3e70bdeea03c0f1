"""Request and response models of the HTTP API (the engine's own models are reused as they are)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.catalog import Move
from rules.models import Ruling
from rules.registry import MAX_SEED, GameSystem, MeterSpec, RollKind
from rules.sheets import RestKind, TrackType, rest_kinds
from rules.tables import Table

MAX_DICE = 200
MAX_ID = 80  # a system, roll kind, move or table id
MAX_PARAMS = 50  # parameters of one roll (a kind takes a dozen at most)


def whole_numbers(value: Any) -> Any:
    """JSON numbers without a fractional part (``2.0``, ``1e2``) as ``int``, everywhere in a value.

    JSON Schema counts them as integers; strict validation (which refuses ``"2"`` and ``true``
    where the schema says integer) would refuse them too without this."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [whole_numbers(v) for v in value]
    if isinstance(value, dict):
        return {k: whole_numbers(v) for k, v in value.items()}
    return value


# A request with `dice` or `seed`, not both (the engine refuses both), as a JSON schema.
DICE_OR_SEED: dict[str, Any] = {
    "anyOf": [
        {"properties": {"dice": {"type": "null"}}},
        {"properties": {"seed": {"type": "null"}}},
    ]
}


# A character that is not a space by either reading of ``\s``: Python's (the server's) counts
# \x1c-\x1f and \x85 as spaces, the ECMAScript regexes of JSON Schema (the clients') count
# \ufeff, and ``\w`` differs more (ASCII only in ECMAScript). Written out, so that the schema and
# the server accept the same strings, in any language.
SPACES = r"\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
# Text: a character other than a space, and no NUL (PostgreSQL's text cannot hold it).
NOT_BLANK = rf"^[^\x00]*[^{SPACES}\x00][^\x00]*$"
# An id in a URL: anything but NUL (a NUL reached PostgreSQL, which refused the query: a 500).
ID_IN_URL = r"^[^\x00]+$"


class StrictRequest(BaseModel):
    """A request body that takes what its JSON schema says, and nothing coerced into it.

    No ``"2"`` for 2, no ``true`` for 1, no unknown field; a whole number written ``2.0`` is
    an integer, as in JSON Schema. (Lax validation would accept what the document refuses.)
    FastAPI validates the parsed body in Python mode: declare arrays as ``list``, since a strict
    ``tuple`` refuses a list."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @model_validator(mode="before")
    @classmethod
    def _whole_numbers(cls, data: Any) -> Any:
        return whole_numbers(data)


class RollRequest(StrictRequest):
    """One roll. Its OpenAPI schema is one request schema per (system, roll kind), see
    ``service.openapi``; the engine checks ``system``, ``kind`` and ``params`` and names the
    field that is wrong (``routers.rolls.check_params`` holds ``params`` to strict types too)."""

    system: str = Field(max_length=MAX_ID, description="system id", examples=["sundered_isles"])
    kind: str = Field(
        max_length=MAX_ID, description="roll kind id of that system", examples=["action"]
    )
    params: dict[str, Any] = Field(
        default_factory=dict, max_length=MAX_PARAMS, description="the roll kind's parameters"
    )
    dice: list[int] | None = Field(
        None,
        max_length=MAX_DICE,
        description="dice rolled by hand, consumed in the roll kind's documented order "
        "(not with `seed`)",
    )
    seed: int | None = Field(
        None,
        ge=0,
        le=MAX_SEED,
        description="seed for the engine's RNG (not with `dice`; one is drawn and reported when "
        "both are omitted)",
    )


class ErrorDetail(BaseModel):
    message: str = Field(description="what is wrong, and how to fix it")
    field: str | None = Field(
        description="the offending field, e.g. `params.stat`, `dice[2]`, `q`, `path.system_id`"
    )


class ErrorResponse(BaseModel):
    """Every error answer: 404 (an unknown id in the URL), 422 (bad input), 503 (unavailable)."""

    error: ErrorDetail


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
    track_types: list[TrackType] = Field(
        default_factory=list, description="the progress tracks a session of this system opens"
    )
    rests: list[RestKind] = Field(
        default_factory=list,
        description="the rests and recoveries the text gives: POST /v1/sessions/{id}/rest",
    )
    sheet_schema: dict[str, Any] | None = Field(
        None,
        description="the JSON schema of a character sheet (`sheet` of POST /v1/sessions), with "
        "each field's range and description; null for a system without sessions",
    )

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
            track_types=system.sheet.track_types if system.sheet else [],
            rests=rest_kinds(system.sheet) if system.sheet else [],
            sheet_schema=system.sheet.model.model_json_schema() if system.sheet else None,
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


__all__ = [
    "ErrorDetail",
    "ErrorResponse",
    "Move",
    "RollKindInfo",
    "RollRequest",
    "StrictRequest",
    "SystemInfo",
    "Table",
    "TableSummary",
    "whole_numbers",
]
