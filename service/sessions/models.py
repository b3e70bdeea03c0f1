"""The tables: a session holds its whole game state as one JSON document; a turn records a change.

``state = {"sheet": {...}, "tracks": {id: {...}}, "clocks": {id: {...}}}`` lives on the session
row; every change to it happens through a turn, which keeps the state before and after it.

JSON columns do not see changes made inside their value: assign a new value
(``row.state = {**row.state, "tracks": tracks}``), never mutate the one loaded.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Dialect,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

# Named constraints, so that later migrations (SQLite's batch mode included) can refer to them.
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_name)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every database (SQLite keeps no zone: stored as UTC)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("a naive datetime: give its time zone")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


NULLABLE_JSON = JSON(none_as_null=True)  # None is SQL NULL, not the JSON value null


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class SessionRow(Base):
    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64), index=True)
    system: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(  # active | ended
        String(16), default="active", server_default="active"
    )
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    initial_state: Mapped[dict[str, Any]] = mapped_column(JSON)
    summary: Mapped[str] = mapped_column(Text, default="", server_default="")
    turn_count: Mapped[int] = mapped_column(
        Integer, default=0, server_default="0", doc="the last turn number used"
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    turns: Mapped[list[TurnRow]] = relationship(
        back_populates="session",
        cascade="all, delete-orphan",
        passive_deletes=True,  # the database deletes them (ON DELETE CASCADE)
        order_by="TurnRow.number",
    )


class TurnRow(Base):
    __tablename__ = "turns"
    __table_args__ = (UniqueConstraint("session_id", "number", name="uq_turns_session_id_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    session_id: Mapped[str] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    # move | roll | oracle | table | progress | track | clock | sheet
    kind: Mapped[str] = mapped_column(String(16))
    # proposed | awaiting_choice | resolved | undone
    status: Mapped[str] = mapped_column(String(20))
    words: Mapped[str] = mapped_column(Text, default="", server_default="")
    request: Mapped[dict[str, Any]] = mapped_column(JSON)
    proposal: Mapped[dict[str, Any] | None] = mapped_column(NULLABLE_JSON, nullable=True)
    resolution: Mapped[dict[str, Any] | None] = mapped_column(NULLABLE_JSON, nullable=True)
    choices: Mapped[list[Any]] = mapped_column(JSON, default=list)
    chosen: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    changes: Mapped[list[Any]] = mapped_column(JSON, default=list)
    state_before: Mapped[dict[str, Any] | None] = mapped_column(NULLABLE_JSON, nullable=True)
    state_after: Mapped[dict[str, Any] | None] = mapped_column(NULLABLE_JSON, nullable=True)
    narration: Mapped[str] = mapped_column(Text, default="", server_default="")
    narrator: Mapped[str | None] = mapped_column(String(16), nullable=True)
    narrated: Mapped[dict[str, Any] | None] = mapped_column(NULLABLE_JSON, nullable=True)
    # none | done | pending
    narration_status: Mapped[str] = mapped_column(String(16), default="none", server_default="none")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    session: Mapped[SessionRow] = relationship(back_populates="turns")


class IdempotencyRow(Base):
    """A request made with an ``Idempotency-Key``: what it did (the session and turn it wrote)
    and, once answered, its response, which a retry with the same key gets again."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (UniqueConstraint("owner", "key", name="uq_idempotency_keys_owner_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    owner: Mapped[str] = mapped_column(String(64))
    key: Mapped[str] = mapped_column(String(255))
    # what the key was used for: method and path, and a hash of the body
    request: Mapped[str] = mapped_column(String(300))
    fingerprint: Mapped[str] = mapped_column(String(64))
    session_id: Mapped[str] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"))
    turn_id: Mapped[int | None] = mapped_column(
        ForeignKey("turns.id", ondelete="CASCADE"), nullable=True
    )
    status_code: Mapped[int | None] = mapped_column(Integer, nullable=True)
    response: Mapped[Any | None] = mapped_column(NULLABLE_JSON, nullable=True)
    # the process answering it (``process.identity``): a retry need not wait for one that is gone
    holder: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)
