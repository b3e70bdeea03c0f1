"""Playing a session: turns (proposed, rolled, chosen), tracks and clocks, undo, renarrate, the
journal, its export and its replay.

A turn's mechanics are committed before it is narrated; with `Accept: text/event-stream` the
turn streams as the narrator's endpoints do: `mechanics` (the committed turn), `token` events,
`discard` when shown text is withdrawn, and `final` (the turn with its narration).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import PlainTextResponse, Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from service.routers.narrator import SSE_DOC, ModelDep, sse_event
from service.routers.sessions import SessionId, responses
from service.schemas import ID_IN_URL
from service.sessions import idempotency, store, turns
from service.sessions.db import Database, DatabaseDep, transaction
from service.sessions.idempotency import Keyed, KeyedDep
from service.sessions.journal import export_markdown, replay_session, turn_out
from service.sessions.owners import OwnerDep, document_auth
from service.sessions.turn_models import (
    AcceptRequest,
    AdvanceRequest,
    ChooseRequest,
    ClockRequest,
    CloseTrackRequest,
    MarkRequest,
    RestRequest,
    SheetEditRequest,
    StateOp,
    TrackRequest,
    TurnOut,
    TurnRequest,
)
from service.sessions.vault import note_name, vault_zip
from service.settings import Settings

ExportFormat = Literal["markdown", "iron_vault", "iron_vault_zip"]
Number = Annotated[int, Path(ge=1, le=1_000_000, description="a turn number of the session")]
FromTurn = Annotated[
    int | None, Query(ge=1, le=1_000_000, description="export from this turn number on")
]
ToTurn = Annotated[
    int | None, Query(ge=1, le=1_000_000, description="export up to this turn number (included)")
]
TrackId = Annotated[
    str, Path(max_length=40, pattern=ID_IN_URL, description="a track id of the session (t1, t2...)")
]
ClockId = Annotated[
    str, Path(max_length=40, pattern=ID_IN_URL, description="a clock id of the session (c1, c2...)")
]
_TURN = {**responses(401, 404, 409, 422), 200: {"content": SSE_DOC}}


def _load(database: Database, owner: str, session_id: str, turn_id: int) -> TurnOut:
    with transaction(database, write=False) as db:
        row = store.get_session(db, owner, session_id)
        return turn_out(store.turn_by_id(db, row, turn_id))


async def _answer(
    request: Request,
    database: Database,
    owner: str,
    session_id: str,
    committed: turns.Committed,
    keyed: Keyed | None,
    status: int = 200,
) -> Any:
    """The committed turn, narrated (plain), or streamed with its narration; kept for a retry
    when the request has an idempotency key."""
    streamed = "text/event-stream" in request.headers.get("accept", "")

    def told() -> AsyncIterator[turns.Token | turns.Discard | TurnOut]:
        return turns.told(database, owner, session_id, committed, keyed, stream=streamed)

    if not streamed:
        return [e async for e in told() if isinstance(e, TurnOut)][-1]

    async def events() -> AsyncIterator[bytes]:
        yield sse_event("mechanics", committed.turn.model_dump(mode="json"))
        async for event in told():
            if isinstance(event, turns.Token):
                yield sse_event("token", {"text": event.text})
            elif isinstance(event, turns.Discard):
                yield sse_event("discard", {"reason": event.reason})
            else:
                yield sse_event("final", event.model_dump(mode="json"))

    return StreamingResponse(events(), status_code=status, media_type="text/event-stream")


def _kept(database: Database, keyed: Keyed | None, answer: TurnOut) -> TurnOut:
    """The answer, kept for a retry when the request has a key."""
    if keyed is not None:
        idempotency.complete(database, keyed, answer.model_dump(mode="json"))
    return answer


def build_router(settings: Settings) -> APIRouter:
    router = APIRouter(prefix="/v1/sessions/{session_id}", tags=["play"])

    @router.post("/turns", status_code=201, responses=_TURN)
    async def take_turn(
        session_id: SessionId, body: TurnRequest, request: Request, owner: OwnerDep,
        database: DatabaseDep, model: ModelDep, keyed: KeyedDep,
    ) -> TurnOut:  # fmt: skip
        """The player's words, and optionally the move or roll kind, its parameters and dice
        (or a seed). Without a move, kind or track, a move is proposed and nothing is rolled.
        When the outcome leaves a choice, the turn waits for `POST .../turns/{n}/choose`."""
        committed = await turns.take_turn(database, owner, session_id, body, model, keyed)
        result: TurnOut = await _answer(
            request, database, owner, session_id, committed, keyed, status=201
        )
        return result

    @router.post("/turns/{number}/accept", responses=_TURN)
    async def accept_turn(
        session_id: SessionId, number: Number, body: AcceptRequest, request: Request,
        owner: OwnerDep, database: DatabaseDep, model: ModelDep, keyed: KeyedDep,
    ) -> TurnOut:  # fmt: skip
        """Roll a proposed turn, with any part of the proposal overridden."""
        committed = await run_in_threadpool(
            turns.accept, database, owner, session_id, number, body, keyed, model
        )
        result: TurnOut = await _answer(request, database, owner, session_id, committed, keyed)
        return result

    @router.post("/turns/{number}/choose", responses=_TURN)
    async def choose(
        session_id: SessionId, number: Number, body: ChooseRequest, request: Request,
        owner: OwnerDep, database: DatabaseDep, model: ModelDep, keyed: KeyedDep,
    ) -> TurnOut:  # fmt: skip
        """Make the choices a turn offered (each a parameter of the roll, resolved again by the
        engine with the same dice); a choice that was not offered is a 422."""
        committed = await run_in_threadpool(
            turns.choose, database, owner, session_id, number, body, keyed, model
        )
        result: TurnOut = await _answer(request, database, owner, session_id, committed, keyed)
        return result

    @router.post("/turns/{number}/renarrate", responses=_TURN)
    async def renarrate(
        session_id: SessionId, number: Number, request: Request, owner: OwnerDep,
        database: DatabaseDep, model: ModelDep, keyed: KeyedDep,
    ) -> TurnOut:  # fmt: skip
        """Tell a resolved turn again: new words; the dice and the state stay as they are."""
        committed = await run_in_threadpool(
            turns.renarratable, database, owner, session_id, number, keyed, model
        )
        result: TurnOut = await _answer(request, database, owner, session_id, committed, keyed)
        return result

    @router.post("/undo", responses=responses(401, 404, 409))
    def undo(
        session_id: SessionId, owner: OwnerDep, database: DatabaseDep, keyed: KeyedDep
    ) -> TurnOut:
        """Revert the last turn's state changes; its journal entry is kept, marked undone."""
        turn_id = turns.undo(database, owner, session_id, keyed)
        return _kept(database, keyed, _load(database, owner, session_id, turn_id))

    @router.get("/turns", responses=responses(401, 404))
    def journal(session_id: SessionId, owner: OwnerDep, database: DatabaseDep) -> list[TurnOut]:
        """The journal, oldest first: every turn with its words, dice, changes and narration."""
        with transaction(database, write=False) as db:
            row = store.get_session(db, owner, session_id)
            return [turn_out(t) for t in store.list_turns(db, row)]

    @router.get("/turns/{number}", responses=responses(401, 404))
    def get_turn(
        session_id: SessionId, number: Number, owner: OwnerDep, database: DatabaseDep
    ) -> TurnOut:
        with transaction(database, write=False) as db:
            row = store.get_session(db, owner, session_id)
            return turn_out(store.get_turn(db, row, number))

    # --- tracks and clocks ----------------------------------------------------------------

    def _state_turn(
        database: Database, owner: str, session_id: str, change: StateOp,
        keyed: Keyed | None, status: int = 200,
    ) -> TurnOut:  # fmt: skip
        turn_id = turns.state_turn(database, owner, session_id, *change, keyed, status)
        return _kept(database, keyed, _load(database, owner, session_id, turn_id))

    @router.post("/tracks", status_code=201, responses=responses(401, 404, 409, 422))
    def open_track(
        session_id: SessionId, body: TrackRequest, owner: OwnerDep, database: DatabaseDep,
        keyed: KeyedDep,
    ) -> TurnOut:  # fmt: skip
        """Open a progress track (a vow, an expedition, a fight, a connection...)."""
        return _state_turn(database, owner, session_id, body.state_op(), keyed, status=201)

    @router.post("/tracks/{track_id}/progress", responses=responses(401, 404, 409, 422))
    def mark_progress(
        session_id: SessionId, track_id: TrackId, body: MarkRequest, owner: OwnerDep,
        database: DatabaseDep, keyed: KeyedDep,
    ) -> TurnOut:  # fmt: skip
        """Mark progress on a track: its rank's ticks, `times` times."""
        return _state_turn(database, owner, session_id, body.state_op(track_id), keyed)

    @router.post("/tracks/{track_id}/close", responses=responses(401, 404, 409, 422))
    def close_track(
        session_id: SessionId, track_id: TrackId, body: CloseTrackRequest, owner: OwnerDep,
        database: DatabaseDep, keyed: KeyedDep,
    ) -> TurnOut:  # fmt: skip
        return _state_turn(database, owner, session_id, body.state_op(track_id), keyed)

    @router.post("/sheet", responses=responses(401, 404, 409, 422))
    def edit_sheet(
        session_id: SessionId, body: SheetEditRequest, owner: OwnerDep, database: DatabaseDep,
        keyed: KeyedDep,
    ) -> TurnOut:  # fmt: skip
        """Edit the sheet by hand (a meter taken or suffered, an impact, experience): a turn."""
        return _state_turn(database, owner, session_id, body.state_op(), keyed)

    @router.post("/rest", responses=responses(401, 404, 409, 422))
    def take_rest(
        session_id: SessionId, body: RestRequest, owner: OwnerDep, database: DatabaseDep,
        keyed: KeyedDep,
    ) -> TurnOut:  # fmt: skip
        """Rest or recover as the system's text says (`rests` in GET /v1/systems): a turn."""
        return _state_turn(database, owner, session_id, body.state_op(), keyed)

    @router.post("/clocks", status_code=201, responses=responses(401, 404, 409, 422))
    def open_clock(
        session_id: SessionId, body: ClockRequest, owner: OwnerDep, database: DatabaseDep,
        keyed: KeyedDep,
    ) -> TurnOut:  # fmt: skip
        return _state_turn(database, owner, session_id, body.state_op(), keyed, status=201)

    @router.post("/clocks/{clock_id}/advance", responses=responses(401, 404, 409, 422))
    def advance_clock(
        session_id: SessionId, clock_id: ClockId, body: AdvanceRequest, owner: OwnerDep,
        database: DatabaseDep, keyed: KeyedDep,
    ) -> TurnOut:  # fmt: skip
        return _state_turn(database, owner, session_id, body.state_op(clock_id), keyed)

    # --- the journal as a whole ----------------------------------------------------------------

    @router.get(
        "/export",
        response_class=PlainTextResponse,
        responses={
            **responses(401, 404, 409, 422),
            200: {"content": {"text/markdown": {}, "application/zip": {}}},
            413: {
                **responses(413)[413],
                "description": "Too large: the export is over max_export_bytes; the message "
                "says which range of turns (from_turn, to_turn) fits",
            },
        },
    )
    def export(
        session_id: SessionId, owner: OwnerDep, database: DatabaseDep,
        format: ExportFormat = "markdown", from_turn: FromTurn = None, to_turn: ToTurn = None,
    ) -> Response:  # fmt: skip
        """The journal as Markdown (`format=markdown`), or as Markdown with Iron Vault's
        `iron-vault-mechanics` blocks (`format=iron_vault`: moves for sundered_isles and elegy,
        Iron Vault's `dice-expr` node for the other games' dice), or as
        a zip of Obsidian notes to go on playing in Iron Vault (`format=iron_vault_zip`: the
        journal, a character note, one note per track and clock).
        `from_turn` and `to_turn` export a range of turns (an empty one when `from_turn` is
        after `to_turn`); an export over the service's limit is a 413 naming a range that fits."""
        with transaction(database, write=False) as db:
            row = store.get_session(db, owner, session_id)
            span = None
            if from_turn is not None or to_turn is not None:
                span = (from_turn or 1, to_turn or max(row.turn_count, from_turn or 1))
            turns_ = list(store.list_turns(db, row, first=from_turn, last=to_turn))
            if format == "iron_vault_zip":
                folder = vault_zip(row, turns_, max_bytes=settings.max_export_bytes)
                name = f"{note_name(row.name)}.zip".encode("ascii", "replace").decode()
                disposition = f'attachment; filename="{name}"'
                return Response(folder, media_type="application/zip",
                                headers={"Content-Disposition": disposition})  # fmt: skip
            text = export_markdown(
                row, turns_, format, span=span, max_bytes=settings.max_export_bytes
            )
        return PlainTextResponse(text, media_type="text/markdown; charset=utf-8")

    @router.post("/replay", responses=responses(401, 404))
    def replay(session_id: SessionId, owner: OwnerDep, database: DatabaseDep) -> dict[str, Any]:
        """Re-resolve every recorded turn from its recorded dice and apply it: the state it
        reaches must be the recorded one, turn by turn."""
        with transaction(database, write=False) as db:
            row = store.get_session(db, owner, session_id)
            return replay_session(row, list(store.list_turns(db, row))).model_dump(mode="json")

    return document_auth(router, settings)
