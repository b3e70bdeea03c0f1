"""fateweaver as an MCP server (the official SDK's ``MCPServer``): a chat client (Claude
Desktop, Claude Code, Codex CLI, LM Studio) is the game master's voice, the engine owns every
number.

Two transports, one server: streamable HTTP mounted into the app at ``/mcp`` (the API key
required as on every route; stateless, JSON answers: every call carries its session id as an
argument), and stdio (``fateweaver mcp``, as the local owner).

The tools are thin translators: each builds the request model the HTTP route takes and calls
the service function that route calls (``service.play_ops`` gathers them), so the rules,
the narrator and its guard, the owners and the idempotency keys are the routes' own.

- Read-only tools carry ``readOnlyHint``; the others take an optional ``operation_id``, the
  ``Idempotency-Key`` of the HTTP routes: a retried call answers what the first one did.
- The dice are the server's. ``hand_rolled_dice`` (only where a roll is made) is for dice the
  player rolled at the table, never for numbers a model thought of.
- An error is a tool result with ``isError`` and ``{"error": {"code", "message", "field",
  "allowed_next"}}``: ``code`` is one of ``ERROR_CODES``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from fastapi import FastAPI
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from rules.errors import DiceError, InvalidParameter, RulesError, UnknownError
from rules.registry import all_systems, get_system, resolve_roll
from service.narrator.records import AskRequest, OracleRequest, SparkRequest
from service.narrator.tasks import prepare_ask, prepare_oracle, prepare_spark
from service.play_ops import (
    NEXT_WITHOUT_SESSION,
    Backend,
    allowed_after,
    allowed_now,
    kept_turn,
    keyed_call,
    session_state,
    told,
)
from service.routers.narrator import Searcher
from service.routers.rolls import check_params
from service.schemas import RollRequest, SystemInfo
from service.sessions import store, turns
from service.sessions.db import transaction
from service.sessions.errors import SessionError
from service.sessions.idempotency import FIELD as KEY_FIELD
from service.sessions.journal import export_markdown, turn_out
from service.sessions.owners import LOCAL_OWNER, owner_of_headers
from service.sessions.schemas import SessionCreate, SessionOut
from service.sessions.turn_models import (
    AcceptRequest,
    AdvanceRequest,
    ChooseRequest,
    ClockRequest,
    CloseTrackRequest,
    MarkRequest,
    StateOp,
    TrackRequest,
    TurnRequest,
)
from service.settings import Settings

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
MUTATING = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
GUIDE_URI = "fateweaver://guide"

# Stable error codes (the message is for people; the code is for clients).
ERROR_CODES = {
    "unauthorized": "no API key, or an unknown one",
    "not_found": "no such session or turn for this owner",
    "conflict": "the session does not allow this now (a pending choice, an ended session...)",
    "operation_id_reused": "this operation_id was used for another call",
    "invalid_argument": "an argument is malformed",
    "invalid_parameter": "a parameter the game's rules refuse",
    "unknown_id": "an unknown system, move, table, roll kind, track or clock",
    "bad_dice": "hand-rolled dice that do not fit the roll",
    "too_large": "an answer over the service's limit",
    "unavailable": "a part of the service is not ready (e.g. rules search)",
}

GUIDE = """\
# Playing fateweaver through MCP

The engine owns every number. You (the model) narrate and propose; the server rolls.

**A turn: propose -> accept -> choose.**
1. `take_turn(session_id, words)` with the player's words alone: the server *proposes* a move
   (and its stat) and rolls nothing. Show the proposal.
2. `accept(session_id, turn)` rolls it (override `move`, `params`... if the player wants another).
   Or, when the player names the move, `take_turn(session_id, words, move=..., params=...)`
   rolls at once.
3. When the answer's `status` is `awaiting_choice`, the *player* decides: show `choices`
   (each a parameter and its options) and call `choose(session_id, turn, choices={param: value})`.
   Never choose for the player.
4. Tell the player the narration and the mechanics as returned. `allowed_next` lists what the
   session allows next.

**Never invent a die.** Do not pass `hand_rolled_dice` unless the player rolled physical dice and
told you the values. Without it the server rolls (and records the seed). Never state a number,
outcome or consequence the server did not return.

**Retries.** Give every mutating call an `operation_id` (any unique string). If a call times out,
call again with the same `operation_id`: you get the first answer, nothing is rolled twice.

**Other tools.** `get_state` (sheet, tracks, clocks, the pending proposal or choice),
`tracks_and_clocks` (open a vow or a fight, mark progress, clocks), `undo`, `renarrate`
(new words, same dice), `journal_tail`, `export`, `lookup_rule` (search the rulebooks, or ask
the rules chat), `roll`, `ask_oracle` and `roll_table` (outside the journal; inside it, use
`take_turn` with `kind="oracle"` or `kind="table"`), `list_systems` (each system's sheet schema
for `new_session`).
"""

Session = Annotated[str, Field(max_length=64, description="the session id new_session returned")]
OperationId = Annotated[
    str | None,
    Field(
        None,
        min_length=1,
        max_length=255,
        pattern=r"^[\x21-\x7e]+$",
        description="any unique string for this operation: a retry with the same id returns the "
        "first answer and rolls nothing again",
    ),
]
HandRolledDice = Annotated[
    list[int] | None,
    Field(
        None,
        min_length=1,
        max_length=200,
        description="ONLY dice the player physically rolled and told you, in the roll kind's "
        "dice order. Never invent values: omit this and the server rolls.",
    ),
]
Seed = Annotated[int | None, Field(ge=0, le=2**63 - 1, description="replay a roll")]
Params = Annotated[
    dict[str, Any] | None,
    Field(
        description="the roll's parameters (stat, adds, odds...); sheet values come from the sheet"
    ),
]
TurnNumber = Annotated[int, Field(ge=1, le=1_000_000, description="the turn's number")]


def _result(data: Any, error: bool = False) -> CallToolResult:
    text = json.dumps(data, ensure_ascii=False, default=str)
    structured = data if isinstance(data, dict) else {"result": data}
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=structured,
        is_error=error,
    )


_FIELDS = {
    "path.session_id": "session_id",
    "path.number": "turn",
    KEY_FIELD: "operation_id",
    "dice": "hand_rolled_dice",
}


def _field(field: str | None) -> str | None:
    if field is None:
        return None
    for old, new in _FIELDS.items():
        if field == old or field.startswith(old + "["):
            return new + field[len(old) :]
    return field.removeprefix("path.")


def _code(exc: Exception) -> str:
    if isinstance(exc, SessionError):
        if exc.field == KEY_FIELD:  # the id for another call, or the first still running
            return "operation_id_reused" if "another request" in exc.message else "conflict"
        return {401: "unauthorized", 404: "not_found", 413: "too_large", 503: "unavailable"}.get(
            exc.status, "conflict" if exc.status == 409 else "invalid_argument"
        )
    if isinstance(exc, DiceError):
        return "bad_dice"
    if isinstance(exc, UnknownError):
        return "unknown_id"
    if isinstance(exc, InvalidParameter | RulesError):
        return "invalid_parameter"
    return "invalid_argument"


class McpTools:
    """The tools, bound to one app's backend."""

    def __init__(self, app: FastAPI) -> None:
        self.backend = Backend(app)

    def owner(self, ctx: Context) -> str:
        """The API key's owner over HTTP (the mount refused a missing or unknown key already);
        stdio, with no headers, is the local owner."""
        headers = ctx.headers
        if headers is None:
            return LOCAL_OWNER
        return owner_of_headers(self.backend.settings, headers)

    async def guarded(
        self, ctx: Context, session_id: str | None, work: Callable[[str], Awaitable[Any]]
    ) -> CallToolResult:
        """``work(owner)`` as a tool result; an error as one with a code, the field and the
        operations allowed next."""
        owner = LOCAL_OWNER
        try:
            owner = self.owner(ctx)
            return _result(await work(owner))
        except (RulesError, SessionError) as exc:
            error = {"code": _code(exc), "message": exc.message, "field": _field(exc.field)}
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(p) for p in first["loc"])
            error = {"code": "invalid_argument", "message": f"{where}: {first['msg']}",
                     "field": _field(where) or None}  # fmt: skip
        database = self.backend.database
        allowed = await run_in_threadpool(allowed_now, database, owner, session_id)
        return _result({"error": {**error, "allowed_next": allowed}}, error=True)

    # --- reading -----------------------------------------------------------------------------

    async def list_systems(self, ctx: Context, system: str | None = None) -> CallToolResult:
        async def work(_: str) -> Any:
            if system is None:
                return {
                    "systems": [
                        {
                            "id": s.id,
                            "name": s.name,
                            "summary": s.summary,
                            "sessions": s.sheet is not None,
                            "roll_kinds": list(s.roll_kinds),
                        }
                        for s in all_systems()
                    ],
                    "allowed_next": NEXT_WITHOUT_SESSION,
                }
            found = get_system(system)
            info = SystemInfo.of(found).model_dump(mode="json")
            info["moves"] = [{"id": m.id, "name": m.name} for m in found.moves]
            info["tables"] = list(found.tables)
            if found.sheet is not None:
                info["sheet_schema"] = found.sheet.model.model_json_schema()
            return info

        return await self.guarded(ctx, None, work)

    async def list_sessions(self, ctx: Context) -> CallToolResult:
        def read(owner: str) -> Any:
            with transaction(self.backend.database, write=False) as db:
                rows = store.list_sessions(db, owner)
                return {"sessions": [SessionOut.of(r).model_dump(mode="json") for r in rows]}

        return await self.guarded(ctx, None, lambda owner: run_in_threadpool(read, owner))

    async def get_state(self, ctx: Context, session_id: Session) -> CallToolResult:
        return await self.guarded(
            ctx, session_id,
            lambda owner: run_in_threadpool(
                session_state, self.backend.database, owner, session_id
            ),
        )  # fmt: skip

    async def journal_tail(
        self, ctx: Context, session_id: Session,
        last: Annotated[int, Field(ge=1, le=50, description="how many turns")] = 5,
    ) -> CallToolResult:  # fmt: skip
        def read(owner: str) -> Any:
            with transaction(self.backend.database, write=False) as db:
                row = store.get_session(db, owner, session_id)
                first = max(1, row.turn_count - last + 1)
                turns_ = store.list_turns(db, row, first=first)
                return {"turns": [turn_out(t).model_dump(mode="json") for t in turns_]}

        return await self.guarded(ctx, session_id, lambda owner: run_in_threadpool(read, owner))

    async def export(
        self, ctx: Context, session_id: Session,
        format: Literal["markdown", "iron_vault"] = "markdown",
        from_turn: Annotated[int | None, Field(ge=1)] = None,
        to_turn: Annotated[int | None, Field(ge=1)] = None,
    ) -> CallToolResult:  # fmt: skip
        settings = self.backend.settings

        def read(owner: str) -> Any:
            with transaction(self.backend.database, write=False) as db:
                row = store.get_session(db, owner, session_id)
                span = None
                if from_turn is not None or to_turn is not None:
                    span = (from_turn or 1, to_turn or max(row.turn_count, from_turn or 1))
                turns_ = list(store.list_turns(db, row, first=from_turn, last=to_turn))
                text = export_markdown(
                    row, turns_, format, span=span, max_bytes=settings.max_export_bytes
                )
                return {"format": format, "markdown": text}

        return await self.guarded(ctx, session_id, lambda owner: run_in_threadpool(read, owner))

    async def lookup_rule(
        self, ctx: Context,
        question: Annotated[str, Field(min_length=1, max_length=1000)],
        system: str | None = None,
        mode: Annotated[
            Literal["search", "ask"],
            Field(description="search: the passages; ask: the rules chat's answer, quoting them"),
        ] = "search",
        k: Annotated[int, Field(ge=1, le=10)] = 4,
    ) -> CallToolResult:  # fmt: skip
        backend = self.backend

        async def work(_: str) -> Any:
            try:
                library = await run_in_threadpool(backend.retrieval.get)
            except Exception as exc:
                raise SessionError(503, f"rules search is unavailable: {exc}", None) from None
            if mode == "search":
                passages = await run_in_threadpool(library.search, question, system=system, k=k)
                return {"passages": [p.model_dump(mode="json") for p in passages]}
            request = AskRequest.model_validate(
                {"messages": [{"role": "user", "content": question}], "system": system}
            )
            task = await prepare_ask(request, backend.model, library)
            return (await task.run()).model_dump(mode="json")

        return await self.guarded(ctx, None, work)

    # --- rolling outside the journal -----------------------------------------------------------

    async def roll(
        self, ctx: Context, system: str, kind: str, params: Params = None,
        hand_rolled_dice: HandRolledDice = None, seed: Seed = None,
    ) -> CallToolResult:  # fmt: skip
        async def work(_: str) -> Any:
            request = RollRequest.model_validate(
                {
                    "system": system,
                    "kind": kind,
                    "params": params or {},
                    "dice": hand_rolled_dice,
                    "seed": seed,
                }
            )
            check_params(request)
            resolution = resolve_roll(
                request.system, request.kind, request.params, dice=request.dice, seed=request.seed
            )
            return resolution.model_dump(mode="json")

        return await self.guarded(ctx, None, work)

    async def ask_oracle(
        self, ctx: Context, system: str,
        question: Annotated[str, Field(min_length=1, max_length=2000)],
        odds: Annotated[str, Field(description="e.g. small_chance, unlikely, 50_50, likely, "
                                   "almost_certain")] = "50_50",
        context: Annotated[str | None, Field(max_length=2000)] = None,
        hand_rolled_dice: HandRolledDice = None, seed: Seed = None,
    ) -> CallToolResult:  # fmt: skip
        backend = self.backend

        async def work(_: str) -> Any:
            request = OracleRequest.model_validate(
                {
                    "system": system,
                    "question": question,
                    "odds": odds,
                    "context": context,
                    "dice": hand_rolled_dice,
                    "seed": seed,
                }
            )
            task = await run_in_threadpool(
                prepare_oracle, request, backend.model, Searcher(backend.retrieval)
            )
            return (await task.run()).model_dump(mode="json")

        return await self.guarded(ctx, None, work)

    async def roll_table(
        self, ctx: Context, system: str, table: str,
        situation: Annotated[str | None, Field(max_length=2000)] = None, seed: Seed = None,
    ) -> CallToolResult:  # fmt: skip
        backend = self.backend

        async def work(_: str) -> Any:
            request = SparkRequest.model_validate(
                {"system": system, "table": table, "situation": situation, "seed": seed}
            )
            task = await run_in_threadpool(
                prepare_spark, request, backend.model, Searcher(backend.retrieval)
            )
            return (await task.run()).model_dump(mode="json")

        return await self.guarded(ctx, None, work)

    # --- playing a session --------------------------------------------------------------------

    async def _turn_call(
        self, ctx: Context, operation: str, session_id: str | None, arguments: dict[str, Any],
        operation_id: str | None, work: Callable[[str, Any], Awaitable[Any]],
    ) -> CallToolResult:  # fmt: skip
        """A mutating call: once per operation id; its answer is a turn with what comes next."""
        database = self.backend.database

        async def run(owner: str) -> Any:
            body, replayed = await keyed_call(
                database, owner, operation, arguments, operation_id,
                lambda keyed: work(owner, keyed),
            )  # fmt: skip
            if "number" in body:  # a turn
                return {"turn": body, "allowed_next": allowed_after(body.get("status")),
                        "replayed": replayed}  # fmt: skip
            return {"session": body, "allowed_next": allowed_after(None), "replayed": replayed}

        return await self.guarded(ctx, session_id, run)

    async def new_session(
        self, ctx: Context, system: str,
        name: Annotated[str, Field(min_length=1, max_length=200)],
        sheet: Annotated[dict[str, Any], Field(description="the character sheet, as "
                         "list_systems(system) gives its schema")],
        operation_id: OperationId = None,
    ) -> CallToolResult:  # fmt: skip
        arguments = {"system": system, "name": name, "sheet": sheet}
        database = self.backend.database

        async def work(owner: str, keyed: Any) -> Any:
            body = SessionCreate.model_validate(arguments)
            created = await run_in_threadpool(turns.create_session, database, owner, body, keyed)
            return created.model_dump(mode="json")

        return await self._turn_call(ctx, "new_session", None, arguments, operation_id, work)

    async def take_turn(
        self, ctx: Context, session_id: Session,
        words: Annotated[str, Field(min_length=1, max_length=2000,
                                    description="what the player's character does or asks")],
        move: Annotated[str | None, Field(description="a move id: rolled at once; "
                                          "without move or kind a move is proposed")] = None,
        kind: Annotated[str | None, Field(description="a roll kind instead of a move "
                                          "(oracle, table, progress...)")] = None,
        params: Params = None,
        track: Annotated[str | None, Field(description="a track id (t1...)")] = None,
        clock: Annotated[str | None, Field(description="a clock id (c1...)")] = None,
        hand_rolled_dice: HandRolledDice = None, seed: Seed = None,
        operation_id: OperationId = None,
    ) -> CallToolResult:  # fmt: skip
        arguments = {"session_id": session_id, "words": words, "move": move, "kind": kind,
                     "params": params or {}, "track": track, "clock": clock,
                     "dice": hand_rolled_dice, "seed": seed}  # fmt: skip
        backend = self.backend

        async def work(owner: str, keyed: Any) -> Any:
            request = TurnRequest.model_validate(
                {k: v for k, v in arguments.items() if k != "session_id" and v is not None}
            )
            committed = await turns.take_turn(
                backend.database, owner, session_id, request, backend.model, keyed
            )
            return await told(backend.database, owner, session_id, committed, keyed)

        return await self._turn_call(ctx, "take_turn", session_id, arguments, operation_id, work)

    async def accept(
        self, ctx: Context, session_id: Session, turn: TurnNumber,
        move: str | None = None, kind: str | None = None, params: Params = None,
        track: str | None = None, hand_rolled_dice: HandRolledDice = None, seed: Seed = None,
        operation_id: OperationId = None,
    ) -> CallToolResult:  # fmt: skip
        arguments = {"session_id": session_id, "turn": turn, "move": move, "kind": kind,
                     "params": params or {}, "track": track, "dice": hand_rolled_dice,
                     "seed": seed}  # fmt: skip
        backend = self.backend

        async def work(owner: str, keyed: Any) -> Any:
            request = AcceptRequest.model_validate(
                {
                    k: v
                    for k, v in arguments.items()
                    if k not in ("session_id", "turn") and v is not None
                }
            )
            committed = await run_in_threadpool(
                turns.accept, backend.database, owner, session_id, turn, request, keyed,
                backend.model,
            )  # fmt: skip
            return await told(backend.database, owner, session_id, committed, keyed)

        return await self._turn_call(ctx, "accept", session_id, arguments, operation_id, work)

    async def choose(
        self, ctx: Context, session_id: Session, turn: TurnNumber,
        choices: Annotated[dict[str, Any], Field(description="each offered choice's param -> "
                                                 "the value of the option the PLAYER picked")],
        hand_rolled_dice: HandRolledDice = None, operation_id: OperationId = None,
    ) -> CallToolResult:  # fmt: skip
        arguments = {"session_id": session_id, "turn": turn, "choices": choices,
                     "dice": hand_rolled_dice}  # fmt: skip
        backend = self.backend

        async def work(owner: str, keyed: Any) -> Any:
            request = ChooseRequest.model_validate(
                {"choices": choices} | ({"dice": hand_rolled_dice} if hand_rolled_dice else {})
            )
            committed = await run_in_threadpool(
                turns.choose, backend.database, owner, session_id, turn, request, keyed,
                backend.model,
            )  # fmt: skip
            return await told(backend.database, owner, session_id, committed, keyed)

        return await self._turn_call(ctx, "choose", session_id, arguments, operation_id, work)

    async def renarrate(
        self, ctx: Context, session_id: Session, turn: TurnNumber,
        operation_id: OperationId = None,
    ) -> CallToolResult:  # fmt: skip
        arguments = {"session_id": session_id, "turn": turn}
        backend = self.backend

        async def work(owner: str, keyed: Any) -> Any:
            committed = await run_in_threadpool(
                turns.renarratable, backend.database, owner, session_id, turn, keyed,
                backend.model,
            )  # fmt: skip
            return await told(backend.database, owner, session_id, committed, keyed)

        return await self._turn_call(ctx, "renarrate", session_id, arguments, operation_id, work)

    async def undo(
        self, ctx: Context, session_id: Session, operation_id: OperationId = None
    ) -> CallToolResult:
        database = self.backend.database

        def undone(owner: str, keyed: Any) -> Any:
            turn_id = turns.undo(database, owner, session_id, keyed)
            return kept_turn(database, owner, session_id, turn_id, keyed)

        return await self._turn_call(
            ctx, "undo", session_id, {"session_id": session_id}, operation_id,
            lambda owner, keyed: run_in_threadpool(undone, owner, keyed),
        )  # fmt: skip

    async def tracks_and_clocks(
        self, ctx: Context, session_id: Session,
        action: Literal["open_track", "mark_progress", "close_track", "open_clock",
                        "advance_clock"],
        name: Annotated[str | None, Field(description="open_track, open_clock")] = None,
        type: Annotated[str | None, Field(description="open_track: vow, combat, "
                                          "expedition... (the system's track types)")] = None,
        rank: Annotated[str | None, Field(description="open_track: e.g. dangerous")] = None,
        target: Annotated[int | None, Field(ge=1, le=1000)] = None,
        hearts: Annotated[int | None, Field(ge=1, le=100)] = None,
        track: Annotated[str | None, Field(description="mark_progress, close_track: "
                                           "the track id (t1...)")] = None,
        times: Annotated[int, Field(ge=1, le=40)] = 1,
        status: Literal["completed", "abandoned"] = "completed",
        segments: Literal[4, 6, 8, 10] = 4,
        clock: Annotated[str | None, Field(description="advance_clock: c1...")] = None,
        by: Annotated[int, Field(ge=1, le=10)] = 1,
        operation_id: OperationId = None,
    ) -> CallToolResult:  # fmt: skip
        arguments = {"session_id": session_id, "action": action, "name": name, "type": type,
                     "rank": rank, "target": target, "hearts": hearts, "track": track,
                     "times": times, "status": status, "segments": segments, "clock": clock,
                     "by": by}  # fmt: skip
        database = self.backend.database

        def change() -> StateOp:
            def given(**values: Any) -> dict[str, Any]:
                return {k: v for k, v in values.items() if v is not None}

            if action == "open_track":
                return TrackRequest.model_validate(
                    given(type=type, name=name, rank=rank, target=target, hearts=hearts)
                ).state_op()
            if action == "open_clock":
                return ClockRequest.model_validate(given(name=name, segments=segments)).state_op()
            if action == "advance_clock":
                return AdvanceRequest(by=by).state_op(_required(clock, "clock"))
            if action == "close_track":
                return CloseTrackRequest(status=status).state_op(_required(track, "track"))
            return MarkRequest(times=times).state_op(_required(track, "track"))

        def applied(owner: str, keyed: Any) -> Any:
            op = change()
            turn_id = turns.state_turn(database, owner, session_id, *op, keyed)
            return kept_turn(database, owner, session_id, turn_id, keyed)

        return await self._turn_call(
            ctx, "tracks_and_clocks", session_id, arguments, operation_id,
            lambda owner, keyed: run_in_threadpool(applied, owner, keyed),
        )  # fmt: skip

    async def guide(self) -> str:
        return GUIDE


def _required(value: str | None, field: str) -> str:
    if not value:
        raise InvalidParameter(f"{field} is required for this action", field)
    return value


def build_mcp(app: FastAPI) -> MCPServer:
    """The MCP server of this app: its tools, the guide as a resource and as a tool."""
    tools = McpTools(app)
    server: MCPServer = MCPServer(
        "fateweaver",
        title="fateweaver",
        instructions=GUIDE,
        version="0.1.0",
        log_level="WARNING",
    )
    described = {
        "guide": ("How to play a turn here: propose -> accept -> choose; never invent a die. "
                  "Read it first (the same text as the resource " + GUIDE_URI + ")."),
        "list_systems": "The game systems; with `system`, its moves, tables, roll kinds and the "
        "character-sheet schema new_session takes.",
        "list_sessions": "Your sessions, the most recently changed first.",
        "get_state": "A session's sheet, tracks, clocks and summary; the pending proposal or "
        "choice; and the operations allowed next.",
        "journal_tail": "The last turns of a session's journal (words, dice, changes, narration).",
        "export": "A session's journal as Markdown (or Iron Vault's Markdown).",
        "lookup_rule": "Look up a rule: search the rulebooks (passages with citations), or ask "
        "the rules chat (an answer quoting them).",
        "roll": "Any roll kind of any system, outside a session (not journaled): the engine's "
        "resolution with every die.",
        "ask_oracle": "Ask a yes/no question with odds, outside a session's journal; the "
        "server rolls and the narrator interprets.",
        "roll_table": "Roll one of a system's tables (Pay the Price...), outside the journal.",
        "new_session": "Start a session: a system with a character sheet.",
        "take_turn": "The player's words. Alone: a move is PROPOSED (nothing rolled; accept it). "
        "With move or kind: rolled at once. A choice the outcome leaves waits for `choose`.",
        "accept": "Roll a proposed turn, overriding any part of the proposal.",
        "choose": "Make the choice a turn awaits (the player's pick, never yours).",
        "renarrate": "Tell a resolved turn again: new words, the same dice.",
        "undo": "Revert the last turn; its journal entry stays, marked undone.",
        "tracks_and_clocks": "Open a progress track (vow, fight, expedition...), mark progress, "
        "close it; open or advance a clock.",
    }  # fmt: skip
    read_only = {"guide", "list_systems", "list_sessions", "get_state", "journal_tail", "export",
                 "lookup_rule", "roll", "ask_oracle", "roll_table"}  # fmt: skip
    for name, description in described.items():
        server.add_tool(
            getattr(tools, name),
            name=name,
            description=description,
            annotations=READ_ONLY if name in read_only else MUTATING,
        )

    @server.resource(GUIDE_URI, name="guide", title="How to play", mime_type="text/markdown")
    def guide() -> str:
        return GUIDE

    return server


def _security(app: FastAPI) -> TransportSecuritySettings:
    """DNS-rebinding protection (Host and Origin) while the service has no API keys and so
    listens on loopback only; with keys, the key is the check."""
    if app.state.settings.api_keys:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    loopback = ["127.0.0.1", "localhost", "[::1]"]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[*loopback, *(f"{h}:*" for h in loopback)],
        allowed_origins=[f"http://{h}{port}" for h in loopback for port in ("", ":*")],
    )


class RequireKey:
    """The API key, required on ``/mcp`` as on every route (a 401 as theirs)."""

    def __init__(self, app: FastAPI, inner: ASGIApp) -> None:
        self.app = app
        self.inner = inner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                       for k, v in scope["headers"]}  # fmt: skip
            try:
                owner_of_headers(self.app.state.settings, headers)
            except SessionError as exc:
                body = {"error": {"message": exc.message, "field": exc.field}}
                await JSONResponse(body, status_code=exc.status, headers=exc.headers)(
                    scope, receive, send
                )
                return
        await self.inner(scope, receive, send)


class AtRoot:
    """``/mcp`` answered as the mount's ``/mcp/`` (an ASGI app, not a request handler)."""

    def __init__(self, inner: ASGIApp) -> None:
        self.inner = inner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        root = scope.get("root_path", "") + "/mcp"
        await self.inner({**scope, "path": "/", "root_path": root}, receive, send)


def _http_app(app: FastAPI) -> ASGIApp:
    """The server's streamable-HTTP app (stateless, JSON answers), with a session manager of
    its own: one runs once, and an app's lifespan may run more than once (a test client)."""
    server: MCPServer = app.state.mcp
    http: ASGIApp = server.streamable_http_app(
        streamable_http_path="/",
        stateless_http=True,
        json_response=True,
        transport_security=_security(app),
    )
    return http


class Current:
    """The streamable-HTTP app the lifespan runs now."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app.state.mcp_http(scope, receive, send)


def mount_mcp(app: FastAPI) -> MCPServer:
    """Build the server and mount its streamable-HTTP endpoint at ``/mcp``; the app's lifespan
    runs it (``serve_mcp``)."""
    server = build_mcp(app)
    app.state.mcp = server
    app.state.mcp_http = _http_app(app)
    guarded = RequireKey(app, Current(app))
    # `/mcp` itself as well as `/mcp/` (a mount alone redirects the first, and not every client
    # follows a redirect of a POST)
    app.router.routes.append(Route("/mcp", endpoint=AtRoot(guarded), include_in_schema=False))
    app.mount("/mcp", guarded)
    return server


@asynccontextmanager
async def serve_mcp(app: FastAPI) -> AsyncIterator[None]:
    """In the app's lifespan: the MCP session manager's task group, while the app serves."""
    if getattr(app.state, "mcp_started", False):
        app.state.mcp_http = _http_app(app)  # a session manager runs once: a fresh one
    app.state.mcp_started = True
    server: MCPServer = app.state.mcp
    async with server.session_manager.run():
        yield


def run_stdio(settings: Settings) -> None:
    """``fateweaver mcp``: the same server over stdin/stdout, as the local owner, inside the
    app's lifespan (log redaction, migrations, the rules index warmed, all closed at the end).
    Nothing but the protocol is written to stdout (logs go to stderr)."""
    import anyio

    from service.app import create_app

    app = create_app(settings)
    server: MCPServer = app.state.mcp

    async def serve() -> None:
        async with app.router.lifespan_context(app):
            await server.run_stdio_async()

    anyio.run(serve)
