from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from rules.registry import all_systems
from service.deps import SystemDep
from service.errors import UnknownInUrl, error_responses
from service.schemas import Move, SystemInfo, Table, TableSummary

router = APIRouter(prefix="/v1/systems", tags=["systems"])

NOT_FOUND = error_responses(404)


@router.get("")
def list_systems() -> list[SystemInfo]:
    """Every game system with its stats, meters, roll kinds (parameters, dice order) and rulings."""
    return [SystemInfo.of(s) for s in all_systems()]


@router.get("/{system_id}", responses=NOT_FOUND)
def get_system(system: SystemDep) -> SystemInfo:
    return SystemInfo.of(system)


@router.get("/{system_id}/moves", responses=NOT_FOUND)
def list_moves(system: SystemDep) -> list[Move]:
    return list(system.moves)


@router.get("/{system_id}/tables", responses=NOT_FOUND)
def list_tables(system: SystemDep) -> list[TableSummary]:
    return [TableSummary.of(t) for t in system.tables.values()]


@router.get("/{system_id}/tables/{table_id}", responses=NOT_FOUND)
def get_table(
    system: SystemDep,
    table_id: Annotated[
        str,
        Path(
            description="table id, as listed by GET /v1/systems/{system_id}/tables; any other "
            "answers 404"
        ),
    ],
) -> Table:
    if table_id not in system.tables:
        raise UnknownInUrl("table", table_id, list(system.tables), field="path.table_id")
    return system.tables[table_id]
