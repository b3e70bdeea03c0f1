"""Playing a session from another front end (the MCP tools, the chat facade): what the HTTP
routers do, for a caller that is not an HTTP request.

Each function here calls the service functions the routers call (``service.sessions.turns``,
``store``, ``idempotency``, the narrator's tasks) and translates nothing but its arguments: no
rule of the game is decided here. What it adds is what those front ends need in one place:

- ``Backend``: the app's database, narrator model, retrieval and settings;
- ``keyed_call``: an optional operation id as the ``Idempotency-Key`` (a retried call answers
  what the first did, and rolls nothing again);
- ``allowed_next``: the operations a session allows next (a pending choice allows ``choose``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from service.narrator.model import ChatModel
from service.retrieval import Retrieval
from service.sessions import idempotency, store, turns
from service.sessions.db import Database, database_of, transaction
from service.sessions.idempotency import Keyed, Replay
from service.sessions.journal import turn_out
from service.sessions.schemas import SessionOut
from service.sessions.turn_models import TurnOut
from service.settings import Settings

# What a session allows next, by the status of its last live turn.
NEXT_WHEN_PROPOSED = ["accept", "take_turn", "undo", "get_state"]
NEXT_WHEN_CHOOSING = ["choose", "undo", "get_state"]
NEXT_WHEN_FREE = [
    "take_turn", "tracks_and_clocks", "ask_oracle", "roll_table", "renarrate", "undo",
    "journal_tail", "export", "get_state",
]  # fmt: skip
NEXT_WHEN_ENDED = ["get_state", "journal_tail", "export"]
NEXT_WITHOUT_SESSION = ["list_systems", "new_session", "list_sessions", "guide"]


@dataclass(frozen=True)
class Backend:
    """What the tools use of an app: read from its state when a call comes (tests swap the
    retrieval or the model in after the app is built)."""

    app: FastAPI

    @property
    def settings(self) -> Settings:
        settings: Settings = self.app.state.settings
        return settings

    @property
    def database(self) -> Database:
        return database_of(self.app)

    @property
    def model(self) -> ChatModel | None:
        model: ChatModel | None = self.app.state.narrator_model
        return model

    @property
    def retrieval(self) -> Retrieval:
        retrieval: Retrieval = self.app.state.retrieval
        return retrieval


def allowed_after(status: str | None, ended: bool = False) -> list[str]:
    """The operations allowed next, after a turn of this status (None: no live turn)."""
    if ended:
        return NEXT_WHEN_ENDED
    if status == "proposed":
        return NEXT_WHEN_PROPOSED
    if status == "awaiting_choice":
        return NEXT_WHEN_CHOOSING
    return NEXT_WHEN_FREE


def session_state(database: Database, owner: str, session_id: str) -> dict[str, Any]:
    """The session (sheet, tracks, clocks, summary), its pending turn (a proposal to accept or a
    choice to make) and the operations allowed next."""
    with transaction(database, write=False) as db:
        row = store.get_session(db, owner, session_id)
        last = store.last_turn(db, row, statuses=("resolved", "awaiting_choice", "proposed"))
        pending = last if last is not None and last.status != "resolved" else None
        return {
            "session": SessionOut.of(row).model_dump(mode="json"),
            "pending": turn_out(pending).model_dump(mode="json") if pending else None,
            "allowed_next": allowed_after(
                pending.status if pending else None, ended=row.status == "ended"
            ),
        }


def allowed_now(database: Database, owner: str, session_id: str | None) -> list[str]:
    """The operations allowed next on this session (those without one when it is unknown)."""
    if session_id is None:
        return NEXT_WITHOUT_SESSION
    try:
        allowed: list[str] = session_state(database, owner, session_id)["allowed_next"]
    except Exception:  # an unknown session, another owner's: start from the beginning
        return NEXT_WITHOUT_SESSION
    return allowed


async def keyed_call(
    database: Database,
    owner: str,
    operation: str,
    arguments: dict[str, Any],
    operation_id: str | None,
    work: Callable[[Keyed | None], Awaitable[Any]],
) -> tuple[Any, bool]:
    """``work`` done once per operation id: with an id used already (for the same operation and
    arguments) the first answer comes back, and nothing is rolled again. Returns the answer
    (a turn or a session, as JSON) and whether it was replayed. The id is the
    ``Idempotency-Key`` of the HTTP routes: one store, one owner's keys."""
    keyed = (
        idempotency.operation(owner, operation_id, f"MCP {operation}", arguments)
        if operation_id
        else None
    )
    try:
        await run_in_threadpool(idempotency.check, database, keyed)
        return await work(keyed), False
    except Replay as replay:
        _, body = await idempotency.first_answer(database, replay.keyed)
        return body, True


async def told(
    database: Database, owner: str, session_id: str, committed: turns.Committed, keyed: Keyed | None
) -> dict[str, Any]:
    """A committed turn, narrated (the service's narrator and its guard), as JSON."""
    turn: TurnOut = await turns.tell(database, owner, session_id, committed, keyed)
    return turn.model_dump(mode="json")


def load_turn(database: Database, owner: str, session_id: str, turn_id: int) -> dict[str, Any]:
    with transaction(database, write=False) as db:
        row = store.get_session(db, owner, session_id)
        return turn_out(store.turn_by_id(db, row, turn_id)).model_dump(mode="json")


def kept_turn(
    database: Database, owner: str, session_id: str, turn_id: int, keyed: Keyed | None
) -> dict[str, Any]:
    """A turn that needs no narration (undo, a track, a clock), kept for a retry."""
    body = load_turn(database, owner, session_id, turn_id)
    idempotency.complete(database, keyed, body)
    return body
