"""Typed repository functions over a SQLAlchemy ``Session`` (one transaction: ``db.transaction``).

Every read of a session is scoped to its owner: another owner's session is not found, with the
same answer as one that does not exist. None of these commit; the caller's transaction does.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.sessions.errors import NotFound, ReadOnly
from service.sessions.models import SessionRow, TurnRow, utcnow

__all__ = [
    "SessionRow",
    "TurnRow",
    "add_turn",
    "create_session",
    "delete",
    "end",
    "get_session",
    "get_turn",
    "last_turn",
    "list_sessions",
    "list_turns",
    "next_turn_number",
    "rename",
    "require_active",
    "set_state",
    "touch",
    "turn_by_id",
]


def create_session(
    db: Session, owner: str, system: str, name: str, state: dict[str, Any]
) -> SessionRow:
    """A new active session; ``state`` is also kept as its ``initial_state``."""
    now = utcnow()
    row = SessionRow(
        id=uuid.uuid4().hex,
        owner=owner,
        system=system,
        name=name,
        status="active",
        state=state,
        initial_state=state,
        summary="",
        turn_count=0,
        created_at=now,
        updated_at=now,
    )
    db.add(row)
    db.flush()
    return row


def get_session(db: Session, owner: str, id: str, *, for_update: bool = False) -> SessionRow:
    """The owner's session, or NotFound naming ``path.session_id``.

    ``for_update``: lock the row until the transaction ends (``SELECT … FOR UPDATE`` on
    PostgreSQL; SQLite's writing transactions hold the whole database already)."""
    query = select(SessionRow).where(SessionRow.id == id, SessionRow.owner == owner)
    if for_update:
        query = query.with_for_update().execution_options(populate_existing=True)
    row = db.scalars(query).one_or_none()
    if row is None:
        raise NotFound(f"no session {id!r}", "path.session_id")
    return row


def list_sessions(db: Session, owner: str) -> Sequence[SessionRow]:
    """The owner's sessions, the most recently changed first."""
    query = (
        select(SessionRow)
        .where(SessionRow.owner == owner)
        .order_by(SessionRow.updated_at.desc(), SessionRow.id)
    )
    return db.scalars(query).all()


def require_active(row: SessionRow) -> None:
    if row.status != "active":
        raise ReadOnly("the session has ended; it is read-only", "path.session_id")


def touch(row: SessionRow) -> None:
    row.updated_at = utcnow()


def rename(row: SessionRow, name: str) -> SessionRow:
    require_active(row)
    row.name = name
    touch(row)
    return row


def end(row: SessionRow) -> SessionRow:
    require_active(row)
    row.status = "ended"
    touch(row)
    return row


def delete(db: Session, row: SessionRow) -> None:
    """The session and (the database cascades) its turns; an ended session too."""
    db.delete(row)
    db.flush()


def set_state(row: SessionRow, state: dict[str, Any]) -> None:
    """A new game state (a new value: changes inside the loaded one would not be saved)."""
    row.state = state
    touch(row)


def next_turn_number(row: SessionRow) -> int:
    """The next turn number, taken: load the row ``for_update`` first."""
    row.turn_count += 1
    touch(row)
    return row.turn_count


def add_turn(db: Session, row: SessionRow, *, number: int | None = None, **fields: Any) -> TurnRow:
    """A new turn of an active session (ReadOnly when ended), numbered by ``next_turn_number``
    unless ``number`` is given; flushed, so a duplicate number raises IntegrityError here."""
    require_active(row)
    if number is None:
        number = next_turn_number(row)
    now = utcnow()
    turn = TurnRow(session_id=row.id, number=number, created_at=now, updated_at=now, **fields)
    db.add(turn)
    db.flush()
    return turn


def get_turn(db: Session, row: SessionRow, number: int) -> TurnRow:
    """The session's turn of this number, or NotFound naming ``path.number``."""
    query = select(TurnRow).where(TurnRow.session_id == row.id, TurnRow.number == number)
    turn = db.scalars(query).one_or_none()
    if turn is None:
        raise NotFound(f"session {row.id!r} has no turn {number}", "path.number")
    return turn


def turn_by_id(db: Session, row: SessionRow, turn_id: int) -> TurnRow:
    """The session's turn with this row id, or NotFound naming ``turn_id``."""
    turn = db.get(TurnRow, turn_id)
    if turn is None or turn.session_id != row.id:
        raise NotFound(f"session {row.id!r} has no turn with id {turn_id}", "turn_id")
    return turn


def list_turns(
    db: Session, row: SessionRow, *, first: int | None = None, last: int | None = None
) -> Sequence[TurnRow]:
    """The session's turns, oldest first; only numbers ``first`` to ``last`` when given."""
    query = select(TurnRow).where(TurnRow.session_id == row.id).order_by(TurnRow.number)
    if first is not None:
        query = query.where(TurnRow.number >= first)
    if last is not None:
        query = query.where(TurnRow.number <= last)
    return db.scalars(query).all()


def last_turn(
    db: Session, row: SessionRow, statuses: Iterable[str] | None = None
) -> TurnRow | None:
    """The session's latest turn (of one of these statuses), or None."""
    query = select(TurnRow).where(TurnRow.session_id == row.id)
    if statuses is not None:
        query = query.where(TurnRow.status.in_(list(statuses)))
    return db.scalars(query.order_by(TurnRow.number.desc()).limit(1)).first()
