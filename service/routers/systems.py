from __future__ import annotations

from fastapi import APIRouter

from rules.errors import UnknownError
from rules.registry import all_systems
from service.deps import SystemDep
from service.schemas import Move, SystemInfo, Table, TableSummary

router = APIRouter(prefix="/v1/systems", tags=["systems"])


@router.get("")
def list_systems() -> list[SystemInfo]:
    """Every game system with its stats, meters, roll kinds (parameters, dice order) and rulings."""
    return [SystemInfo.of(s) for s in all_systems()]


@router.get("/{system_id}")
def get_system(system: SystemDep) -> SystemInfo:
    return SystemInfo.of(system)


@router.get("/{system_id}/moves")
def list_moves(system: SystemDep) -> list[Move]:
    return list(system.moves)


@router.get("/{system_id}/tables")
def list_tables(system: SystemDep) -> list[TableSummary]:
    return [TableSummary.of(t) for t in system.tables.values()]


@router.get("/{system_id}/tables/{table_id}")
def get_table(system: SystemDep, table_id: str) -> Table:
    if table_id not in system.tables:
        raise UnknownError("table", table_id, list(system.tables), field="path.table_id")
    return system.tables[table_id]
