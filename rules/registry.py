"""Game systems and their roll kinds, and the one entry point that resolves any roll.

Each package ``rules/systems/<id>/`` defines ``SYSTEM: GameSystem`` in its ``system.py``.
``resolve_roll`` validates the parameters against the roll kind's model, builds the dice source
(seed or given dice), resolves, checks every given die was used, and stamps system, kind, seed
and parameters on the record.
"""

from __future__ import annotations

import importlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from rules.catalog import Move, load_moves, load_tables
from rules.dice import DiceSource, GivenDice, SeededDice
from rules.errors import InvalidParameter, UnknownError
from rules.models import Frozen, Resolution, Ruling
from rules.sheets import SheetRules
from rules.tables import ROLL_TWICE_RULING, Table, roll_table, table_resolution

_ORDER = ("sundered_isles", "elegy", "go_forth", "storyteller", "roll_under")
# One package per system under rules/systems/ (SYSTEM in its system.py); in DESIGN.md's order.
SYSTEM_IDS = tuple(
    s for s in _ORDER if (resources.files("rules") / "systems" / s / "system.py").is_file()
)
MAX_SEED = 2**63 - 1


class MeterSpec(Frozen):
    id: str
    name: str
    min: int
    max: int
    start: int | None = None
    note: str | None = None


@dataclass(frozen=True)
class RollKind:
    """One kind of roll: its parameter model, its resolver and how it consumes dice."""

    id: str
    summary: str
    params: type[BaseModel]
    resolve: Callable[[Any, DiceSource], Resolution]
    dice_order: str
    examples: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class GameSystem:
    id: str
    name: str
    source: str
    summary: str
    stats: list[str]
    meters: list[MeterSpec]
    roll_kinds: dict[str, RollKind]
    rulings: list[Ruling]
    tables: dict[str, Table] = field(default_factory=dict)
    moves: tuple[Move, ...] = ()
    sheet: SheetRules | None = None  # the character sheet a session keeps (rules/sheets.py)

    def roll_kind(self, kind: str) -> RollKind:
        if kind not in self.roll_kinds:
            raise UnknownError("roll kind", kind, list(self.roll_kinds), field="kind")
        return self.roll_kinds[kind]

    def table(self, table_id: str) -> Table:
        if table_id not in self.tables:
            raise UnknownError("table", table_id, list(self.tables), field="table")
        return self.tables[table_id]

    def move(self, move_id: str) -> Move:
        for move in self.moves:
            if move.id == move_id:
                return move
        raise UnknownError("move", move_id, [m.id for m in self.moves], field="move")

    def stat(self, name: str, field_name: str = "params.stat") -> str:
        if name not in self.stats:
            raise UnknownError("stat", name, self.stats, field=field_name)
        return name


# --- roll kinds every system has -------------------------------------------------------------


class TableParams(BaseModel):
    model_config = {"extra": "forbid"}
    table: str = Field(description="table id, as listed by GET /v1/systems/{id}/tables")


class ExpressionParams(BaseModel):
    model_config = {"extra": "forbid"}
    expression: str = Field(
        min_length=1, max_length=100, description="dice notation: 2d6+1, 10+2d8, 4d6h3"
    )


def _table_kind(tables: dict[str, Table]) -> RollKind:
    def resolve(params: TableParams, source: DiceSource) -> Resolution:
        if params.table not in tables:
            raise UnknownError("table", params.table, list(tables), field="params.table")
        table = tables[params.table]
        return table_resolution(table, roll_table(table, source, tables))

    example = next(iter(tables))
    return RollKind(
        id="table",
        summary="Roll on one of the system's random tables.",
        params=TableParams,
        resolve=resolve,
        dice_order=(
            "The table's dice (e.g. one d100); a 'roll twice' row then consumes two more rolls "
            "of the same dice (more when one is rerolled); a 'roll on' row then rolls that table."
        ),
        examples=[{"table": example}],
    )


def _expression_kind() -> RollKind:
    from rules.expression import resolve_expression

    return RollKind(
        id="expression",
        summary="Free-form dice notation, evaluated by the `dice` package.",
        params=ExpressionParams,
        resolve=lambda params, source: resolve_expression(params.expression, source),
        dice_order="Each die in the order the expression rolls them, left to right.",
        examples=[{"expression": "2d6+1"}],
    )


def build_system(
    *,
    id: str,
    name: str,
    source: str,
    summary: str,
    stats: list[str],
    meters: list[MeterSpec],
    roll_kinds: list[RollKind],
    rulings: list[Ruling],
    sheet: SheetRules | None = None,
) -> GameSystem:
    """Assemble a system with its data files and the shared ``table``/``expression`` kinds."""
    tables = load_tables(id)
    kinds = {k.id: k for k in roll_kinds}
    if tables:
        kinds.setdefault("table", _table_kind(tables))
    kinds.setdefault("expression", _expression_kind())
    all_rulings = list(rulings)
    if any(r.roll_twice for t in tables.values() for r in t.rows):
        all_rulings.append(ROLL_TWICE_RULING)
    return GameSystem(
        id=id,
        name=name,
        source=source,
        summary=summary,
        stats=stats,
        meters=meters,
        roll_kinds=kinds,
        rulings=all_rulings,
        tables=tables,
        moves=load_moves(id),
        sheet=sheet,
    )


@cache
def get_system(system_id: str) -> GameSystem:
    if system_id not in SYSTEM_IDS:
        raise UnknownError("system", system_id, list(SYSTEM_IDS), field="system")
    module = importlib.import_module(f"rules.systems.{system_id}.system")
    system: GameSystem = module.SYSTEM
    return system


def all_systems() -> list[GameSystem]:
    return [get_system(s) for s in SYSTEM_IDS]


def validate_params(kind: RollKind, params: dict[str, Any]) -> BaseModel:
    try:
        return kind.params.model_validate(params)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        messages = "; ".join(
            f"params.{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
        )
        raise InvalidParameter(messages, f"params.{where}" if where else "params") from None


def resolve_roll(
    system_id: str,
    kind_id: str,
    params: dict[str, Any] | None = None,
    *,
    dice: list[int] | None = None,
    seed: int | None = None,
) -> Resolution:
    """Resolve one roll. With neither ``dice`` nor ``seed``, a fresh seed is drawn and reported."""
    system = get_system(system_id)
    kind = system.roll_kind(kind_id)
    validated = validate_params(kind, params or {})
    if dice is not None and seed is not None:
        raise InvalidParameter("give either dice or seed, not both", "dice")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise InvalidParameter(f"seed must be between 0 and {MAX_SEED}", "seed")
    source: DiceSource
    if dice is not None:
        source = GivenDice(dice)
    else:
        seed = secrets.randbits(63) if seed is None else seed
        source = SeededDice(seed)
    resolution = kind.resolve(validated, source)
    source.finish()
    return resolution.model_copy(
        update={
            "system": system.id,
            "kind": kind.id,
            "seed": seed if dice is None else None,
            "params": validated.model_dump(mode="json"),
        }
    )
