"""The errors of the session store, answered as ``{"error": {"message", "field"}}``:

    SessionError       base: an HTTP status, a message and the offending field
    ├── Unauthorized   401: no API key, or an unknown one (``WWW-Authenticate: Bearer``)
    ├── NotFound       404: an unknown session or turn, or another owner's (the same answer)
    └── ReadOnly       409: the session has ended

``install_session_errors(app)`` installs their handler, and answers the database's faults 503
with ``Retry-After``: a lock held longer than ``database_lock_timeout`` (SQLite's "database is
locked", PostgreSQL's ``lock_timeout``), a server that cannot be reached or dropped the connection
(SQLAlchemy's ``OperationalError``, a disconnect included), no pooled connection free in time.
The failed transaction is rolled back (or never began), so none of its changes is applied; a
commit whose reply was lost with the connection is the one case the client cannot know of:
retried with its ``Idempotency-Key``, the request answers what it did.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError, DisconnectionError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

log = logging.getLogger(__name__)
RETRY_AFTER = "2"  # seconds: a lock is held for milliseconds; a restarting server takes longer
LOCKED_SQLSTATES = frozenset({"55P03", "57014"})  # lock_not_available, query_canceled


class SessionError(Exception):
    def __init__(
        self,
        status: int,
        message: str,
        field: str | None = None,
        *,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.field = field
        self.headers = headers


class Unauthorized(SessionError):
    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(401, message, field, headers={"WWW-Authenticate": "Bearer"})


class NotFound(SessionError):
    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(404, message, field)


class ReadOnly(SessionError):
    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(409, message, field)


async def _session_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, SessionError)
    return JSONResponse(
        {"error": {"message": exc.message, "field": exc.field}},
        status_code=exc.status,
        headers=exc.headers,
    )


def _busy(exc: Exception) -> bool:
    """A lock held by another transaction past the timeout (not the server gone)."""
    orig = exc.orig if isinstance(exc, DBAPIError) else None
    return getattr(orig, "sqlstate", None) in LOCKED_SQLSTATES or "locked" in str(orig)


async def _database_fault(_: Request, exc: Exception) -> JSONResponse:
    busy = _busy(exc)
    # The driver's message, not SQLAlchemy's: that one quotes the statement's parameters.
    cause = exc.orig if isinstance(exc, DBAPIError) else exc
    first_line = next(iter(str(cause).strip().splitlines()), "")
    log.warning("database %s: %s: %s", "busy" if busy else "unavailable",
                type(cause).__name__, first_line)  # fmt: skip
    message = (
        "the database is busy (another request holds its lock): retry in a moment"
        if busy
        else "the database is unavailable for a moment: retry in a moment"
    )
    return JSONResponse(
        {"error": {"message": message, "field": None}},
        status_code=503,
        headers={"Retry-After": RETRY_AFTER},
    )


def install_session_errors(app: FastAPI) -> None:
    app.add_exception_handler(SessionError, _session_error)
    for fault in (OperationalError, DisconnectionError, PoolTimeout):
        app.add_exception_handler(fault, _database_fault)
