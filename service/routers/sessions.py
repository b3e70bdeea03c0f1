"""Solo sessions: create, list, get, rename, end (read-only from then on) and delete.

Every route is scoped to the request's owner (an API key, or ``local`` without keys): another
owner's session answers 404, as an unknown one does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Response
from sqlalchemy.orm import Session as Db

from service.errors import error_responses
from service.schemas import ID_IN_URL
from service.sessions import store, turns
from service.sessions.db import Database, DatabaseDep, DbDep, transaction
from service.sessions.idempotency import KeyedDep
from service.sessions.models import SessionRow
from service.sessions.owners import OwnerDep, document_auth
from service.sessions.schemas import SessionCreate, SessionOut, SessionRename
from service.settings import Settings

_DESCRIPTIONS = {
    401: "Unauthorized: no API key, or an unknown one (only when API keys are configured)",
    404: "Not found: no such session for this API key",
    409: "Conflict: the session has ended (it is read-only), a turn awaits a choice, or the "
    "Idempotency-Key was used for another request",
}
ERROR_RESPONSE = "#/components/schemas/ErrorResponse"


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a session route that can answer these error statuses."""
    return {
        s: {
            "description": _DESCRIPTIONS.get(s) or error_responses(s)[s]["description"],
            # JSON whatever a success is (a `model` would take the route's media type)
            "content": {"application/json": {"schema": {"$ref": ERROR_RESPONSE}}},
        }
        for s in statuses
    }


SessionId = Annotated[
    str,
    Path(
        max_length=64,
        pattern=ID_IN_URL,
        description="a session id, as `POST /v1/sessions` answered",
    ),
]


def load_session(session_id: SessionId, owner: OwnerDep, db: DbDep) -> SessionRow:
    return store.get_session(db, owner, session_id)


# The owner's session in the route's (read) transaction, or 404 naming `path.session_id`.
SessionDep = Annotated[SessionRow, Depends(load_session)]


def _change(
    database: Database, owner: str, session_id: str, change: Callable[[Db, SessionRow], Any]
) -> Any:
    """``change`` on the owner's session, locked, in one write transaction.

    A write transaction runs whole in one call (one worker thread), never across FastAPI's
    dependency and route calls: a writer holding the database's lock must not wait for a
    worker thread that writers waiting for that lock hold."""
    with transaction(database) as db:
        return change(db, store.get_session(db, owner, session_id, for_update=True))


def build_router(settings: Settings) -> APIRouter:
    """Built per app: without API keys, its OpenAPI says that none is needed."""
    router = APIRouter(prefix="/v1/sessions", tags=["sessions"])

    @router.post("", status_code=201, responses=responses(401, 409, 422))
    def create_session(
        body: SessionCreate, owner: OwnerDep, database: DatabaseDep, keyed: KeyedDep
    ) -> SessionOut:
        """Start a session for a system with a character sheet, validated against that
        system's rules (422 naming `sheet.<field>` when it is not a valid sheet)."""
        return turns.create_session(database, owner, body, keyed)

    @router.get("", responses=responses(401))
    def list_sessions(owner: OwnerDep, db: DbDep) -> list[SessionOut]:
        """Your sessions, the most recently changed first."""
        return [SessionOut.of(row) for row in store.list_sessions(db, owner)]

    @router.get("/{session_id}", responses=responses(401, 404))
    def get_session(session: SessionDep) -> SessionOut:
        return SessionOut.of(session)

    @router.patch("/{session_id}", responses=responses(401, 404, 409, 422))
    def rename_session(
        session_id: SessionId, body: SessionRename, owner: OwnerDep, database: DatabaseDep
    ) -> SessionOut:
        """Rename a session (not an ended one)."""
        return _change(
            database, owner, session_id, lambda _, row: SessionOut.of(store.rename(row, body.name))
        )

    @router.post("/{session_id}/end", responses=responses(401, 404, 409))
    def end_session(session_id: SessionId, owner: OwnerDep, database: DatabaseDep) -> SessionOut:
        """End a session: from then on it is read-only (it can still be read and deleted)."""
        return _change(database, owner, session_id, lambda _, row: SessionOut.of(store.end(row)))

    @router.delete("/{session_id}", status_code=204, responses=responses(401, 404))
    def delete_session(session_id: SessionId, owner: OwnerDep, database: DatabaseDep) -> Response:
        """Delete a session and its journal, ended or not."""
        _change(database, owner, session_id, store.delete)
        return Response(status_code=204)

    return document_auth(router, settings)
