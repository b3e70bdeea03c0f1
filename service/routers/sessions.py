"""Solo sessions: create, list, get, rename, end (read-only from then on) and delete.

Every route is scoped to the request's owner (an API key, or ``local`` without keys): another
owner's session answers 404, as an unknown one does.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response

from service.errors import error_responses
from service.sessions import idempotency, store
from service.sessions.db import DatabaseDep, DbDep
from service.sessions.idempotency import IdempotencyKey
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


SessionId = Annotated[str, Path(description="a session id, as `POST /v1/sessions` answered")]


def load_session(session_id: SessionId, owner: OwnerDep, db: DbDep) -> SessionRow:
    return store.get_session(db, owner, session_id)


def load_session_for_update(session_id: SessionId, owner: OwnerDep, db: DbDep) -> SessionRow:
    return store.get_session(db, owner, session_id, for_update=True)


# The owner's session in the route's transaction (DbDep), or 404 naming `path.session_id`.
SessionDep = Annotated[SessionRow, Depends(load_session)]
# The same, locked until the transaction ends: for a route that changes it (a turn).
LockedSessionDep = Annotated[SessionRow, Depends(load_session_for_update)]


def build_router(settings: Settings) -> APIRouter:
    """Built per app: without API keys, its OpenAPI says that none is needed."""
    router = APIRouter(prefix="/v1/sessions", tags=["sessions"])

    @router.post("", status_code=201, responses=responses(401, 409, 422))
    def create_session(
        body: SessionCreate, request: Request, owner: OwnerDep, db: DbDep, database: DatabaseDep,
        key: IdempotencyKey = None,
    ) -> SessionOut:  # fmt: skip
        """Start a session for a system with a character sheet, validated against that
        system's rules (422 naming `sheet.<field>` when it is not a valid sheet)."""
        keyed = idempotency.keyed(owner, key, request, body)
        idempotency.check(database, keyed)
        state = body.initial_state()
        row = store.create_session(db, owner, body.system, body.name, state)
        created = SessionOut.of(row)
        kept = idempotency.record(db, keyed, row.id, status=201)
        if kept is not None:  # in this transaction: the session and its answer together
            kept.response = created.model_dump(mode="json")
        return created

    @router.get("", responses=responses(401))
    def list_sessions(owner: OwnerDep, db: DbDep) -> list[SessionOut]:
        """Your sessions, the most recently changed first."""
        return [SessionOut.of(row) for row in store.list_sessions(db, owner)]

    @router.get("/{session_id}", responses=responses(401, 404))
    def get_session(session: SessionDep) -> SessionOut:
        return SessionOut.of(session)

    @router.patch("/{session_id}", responses=responses(401, 404, 409, 422))
    def rename_session(body: SessionRename, session: LockedSessionDep) -> SessionOut:
        """Rename a session (not an ended one)."""
        return SessionOut.of(store.rename(session, body.name))

    @router.post("/{session_id}/end", responses=responses(401, 404, 409))
    def end_session(session: LockedSessionDep) -> SessionOut:
        """End a session: from then on it is read-only (it can still be read and deleted)."""
        return SessionOut.of(store.end(session))

    @router.delete("/{session_id}", status_code=204, responses=responses(401, 404))
    def delete_session(session: LockedSessionDep, db: DbDep) -> Response:
        """Delete a session and its journal, ended or not."""
        store.delete(db, session)
        return Response(status_code=204)

    return document_auth(router, settings)
