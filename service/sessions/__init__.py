"""Solo sessions: the persistent store, the owners (API keys) and the session records.

db.py        the engine (SQLite by default, PostgreSQL by ``DATABASE_URL``), transactions,
             schema migrations (Alembic, ``migrations/``) at start-up and on first use
models.py    the tables: ``sessions`` and ``turns`` (SQLAlchemy 2 declarative)
store.py     typed repository functions over a SQLAlchemy ``Session``
owners.py    who is asking: an API key's owner, or the one implicit owner ``local``
schemas.py   request and response models of the session routes
errors.py    SessionError (401, 404, 409) and its handler
"""

from __future__ import annotations

from service.sessions.errors import (
    NotFound,
    ReadOnly,
    SessionError,
    Unauthorized,
    install_session_errors,
)

__all__ = ["NotFound", "ReadOnly", "SessionError", "Unauthorized", "install_session_errors"]
