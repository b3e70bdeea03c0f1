"""``Idempotency-Key``: a request retried with the same key gets the original response, and
nothing is rolled, applied or narrated again, whichever worker process answers the retry.

How: the key is recorded *in the transaction that commits the request's work* (the turn, the
choice, the undo...), under a unique (owner, key) constraint. Two requests with one key cannot
both commit: the second one's transaction fails on the constraint, rolls back whole, and answers
what the first did. Once answered, the response is stored with the key; a retry that arrives
before that (the first is still narrating) waits for it a moment, then gets the turn as it is; it
does not wait for a process on this host that is gone (``process.gone``: killed after its commit).

Rulings (choices where no standard decides; IETF's draft "The Idempotency-Key HTTP Header Field"
and Stripe's API are the models):
- A key belongs to its owner (API key): another owner's identical key is another key.
- The same key with another method, path or body is a 409 naming ``header.Idempotency-Key``
  (the draft suggests 422; 409, a conflict with what the key already stands for, keeps 422 for
  a request that is malformed in itself, which a retry of it would also be).
- A request that failed (4xx) recorded nothing, so its retry runs again: it changed nothing.
- Keys live as long as their session (deleting a session deletes its keys).
- A retry may ask for the other format: the stored response is a turn, sent as JSON, or as the
  ``mechanics`` and ``final`` events when ``Accept: text/event-stream``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as Db
from starlette.concurrency import run_in_threadpool

from service.routers.narrator import sse_event
from service.sessions import process, store
from service.sessions.db import Database, DatabaseDep, database_of, transaction
from service.sessions.errors import SessionError
from service.sessions.journal import turn_out
from service.sessions.models import IdempotencyRow, TurnRow
from service.sessions.owners import OwnerDep
from service.sessions.schemas import SessionOut

HEADER = "Idempotency-Key"
FIELD = "header.Idempotency-Key"
REPLAYED = "Idempotent-Replayed"  # on a response that a retry got again
WAIT_FOR_FIRST = 15.0  # seconds a retry waits for the first request's response
THIS_PROCESS = process.identity()

IdempotencyKey = Annotated[
    str | None,
    Header(
        alias=HEADER,
        min_length=1,
        max_length=255,
        pattern=r"^[\x21-\x7e]+$",
        description="Any unique string (a UUID, say), 1-255 printable ASCII characters: "
        "a retry with the same key gets the original response and rolls nothing again.",
    ),
]


@dataclass(frozen=True)
class Keyed:
    """A request made with a key: who, which key, and what it asked."""

    owner: str
    key: str
    request: str  # "POST /v1/sessions/…/turns"
    fingerprint: str  # sha256 of the method, path and body


class Replay(Exception):  # not an error: the answer is the first request's
    """The key was used already: answer what the first request answered."""

    def __init__(self, keyed: Keyed) -> None:
        super().__init__(keyed.key)
        self.keyed = keyed


def keyed(owner: str, key: str | None, request: Request, body: Any = None) -> Keyed | None:
    """The request's key and fingerprint (of its method, path and JSON body), or None."""
    if key is None:
        return None
    return operation(owner, key, f"{request.method} {request.url.path}", body)


def operation(owner: str, key: str, what: str, body: Any = None) -> Keyed:
    """A keyed operation that did not come as an HTTP request (an MCP tool's ``operation_id``,
    say): ``what`` names it as a request line does, e.g. ``MCP take_turn <session>``."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
    fingerprint = hashlib.sha256(f"{what}\n{canonical}".encode()).hexdigest()
    return Keyed(owner, key, what[:300], fingerprint)


async def keyed_request(
    request: Request, owner: OwnerDep, database: DatabaseDep, key: IdempotencyKey = None
) -> Keyed | None:
    """The request's key (None without one); a key used already raises ``Replay`` here, before
    the route does anything. The body is read as FastAPI read it (Starlette keeps it)."""
    if key is None:
        return None
    raw = await request.body()
    try:
        body = json.loads(raw) if raw else None
    except ValueError:  # FastAPI answers a body that is not JSON before this runs
        body = raw.decode("latin-1")
    request_key = keyed(owner, key, request, body)
    await run_in_threadpool(check, database, request_key)
    return request_key


KeyedDep = Annotated[Keyed | None, Depends(keyed_request)]


def _find(db: Db, keyed: Keyed) -> IdempotencyRow | None:
    query = select(IdempotencyRow).where(
        IdempotencyRow.owner == keyed.owner, IdempotencyRow.key == keyed.key
    )
    return db.scalars(query).one_or_none()


def _same_request(row: IdempotencyRow, keyed: Keyed) -> None:
    if row.fingerprint != keyed.fingerprint or row.request != keyed.request:
        raise SessionError(
            409,
            f"this {HEADER} was used for another request ({row.request}, another body): "
            "use a new key for a new request",
            FIELD,
        )


def check(database: Database, keyed: Keyed | None) -> None:
    """Before any work: a key used already raises ``Replay`` (or 422 for another request)."""
    if keyed is None:
        return
    with transaction(database, write=False) as db:
        row = _find(db, keyed)
        if row is not None:
            _same_request(row, keyed)
            raise Replay(keyed)


def record(
    db: Db, keyed: Keyed | None, session_id: str, status: int = 200
) -> IdempotencyRow | None:
    """In the transaction that commits the work, before the work: the key, or ``Replay`` when
    another request with it committed first (this one's transaction then rolls back whole).
    The caller sets ``turn_id`` on the row it gets, once the turn has one."""
    if keyed is None:
        return None
    row = IdempotencyRow(
        owner=keyed.owner, key=keyed.key, request=keyed.request, fingerprint=keyed.fingerprint,
        session_id=session_id, status_code=status, holder=THIS_PROCESS,
    )  # fmt: skip
    try:
        with db.begin_nested():  # a savepoint: the conflict is reported here, not at commit
            db.add(row)
    except IntegrityError:
        raise Replay(keyed) from None
    return row


def complete(database: Database, keyed: Keyed | None, body: Any) -> None:
    """Keep the response sent, for retries (in a transaction of its own)."""
    if keyed is not None:
        with transaction(database) as db:
            keep(db, keyed, body)


def keep(db: Db, keyed: Keyed | None, body: Any) -> None:
    """Keep the response sent, for retries, in this transaction."""
    if keyed is not None:
        row = _find(db, keyed)
        if row is not None and row.response is None:
            row.response = body


def _stored(database: Database, keyed: Keyed) -> tuple[int, Any] | None:
    """The first request's response; None while it is still being answered."""
    with transaction(database, write=False) as db:
        row = _find(db, keyed)
        if row is None:
            raise SessionError(409, f"the request with this {HEADER} did not complete", FIELD)
        _same_request(row, keyed)
        status = row.status_code or 200
        if row.response is not None:
            return status, row.response
        fresh = (time.time() - row.created_at.timestamp()) < WAIT_FOR_FIRST
        if fresh and not process.gone(row.holder):
            return None
        # Answered by a process that stopped before storing the response: what it wrote.
        if row.turn_id is not None:
            turn = db.get(TurnRow, row.turn_id)
            if turn is not None:
                return status, turn_out(turn).model_dump(mode="json")
        session = store.get_session(db, keyed.owner, row.session_id)
        return status, SessionOut.of(session).model_dump(mode="json")


async def first_answer(database: Database, keyed: Keyed) -> tuple[int, Any]:
    """The status and body the first request with this key answered (waiting a moment for it
    if it is still running); a 409 when it did not complete or is still being answered."""
    deadline = time.monotonic() + WAIT_FOR_FIRST
    while True:
        stored = await run_in_threadpool(_stored, database, keyed)
        if stored is not None or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.05)
    if stored is None:
        raise SessionError(
            409, f"a request with this {HEADER} is still being answered: retry later", FIELD
        )
    return stored


async def replay(database: Database, keyed: Keyed, stream: bool) -> Response:
    """The first request's response again (waiting a moment for it if it is still running)."""
    status, body = await first_answer(database, keyed)
    headers = {REPLAYED: "true"}
    if not stream:
        return JSONResponse(body, status_code=status, headers=headers)

    async def events() -> AsyncIterator[bytes]:
        yield sse_event("mechanics", body)
        yield sse_event("final", body)

    return StreamingResponse(
        events(), status_code=status, media_type="text/event-stream", headers=headers
    )


async def _replay_handler(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Replay)
    stream = "text/event-stream" in request.headers.get("accept", "")
    return await replay(database_of(request.app), exc.keyed, stream)


def install_idempotency(app: FastAPI) -> None:
    app.add_exception_handler(Replay, _replay_handler)
