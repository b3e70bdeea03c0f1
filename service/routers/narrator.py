"""The narrator's endpoints: the oracle, sparks, narrated outcomes and the rules chat.

Each answers JSON, or streams server-sent events when the request accepts `text/event-stream`:
`mechanics` first (the engine's record, before any model output), then `token` events (narration
text), `discard` when text already sent is withdrawn, and `final` with the whole response.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, StreamingResponse
from fastapi.sse import format_sse_event
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from service.narrator.model import ChatModel
from service.narrator.records import (
    AskRequest,
    AskResponse,
    NarrateRequest,
    NarrateResponse,
    OracleRequest,
    OracleResponse,
    SparkRequest,
    SparkResponse,
)
from service.narrator.runner import Discard, Done, Token
from service.narrator.tasks import (
    ResolutionConflict,
    Task,
    prepare_ask,
    prepare_narration,
    prepare_oracle,
    prepare_spark,
)
from service.retrieval import Retrieval, get_library
from vectorstore.library import Library
from vectorstore.models import Passage

router = APIRouter(prefix="/v1", tags=["narrator"])

SSE_DOC = {
    "text/event-stream": {
        "schema": {"type": "string"},
        "example": (
            'event: mechanics\ndata: {"resolution": {"outcome": "yes", "...": "..."}}\n\n'
            'event: token\ndata: {"text": "Yes. Two lanterns burn on the harbour wall. "}\n\n'
            'event: final\ndata: {"narration": "...", "narrated": {"narrator": "model"}}\n\n'
        ),
    }
}


def get_model(request: Request) -> ChatModel | None:
    model: ChatModel | None = request.app.state.narrator_model
    return model


ModelDep = Annotated[ChatModel | None, Depends(get_model)]


class Searcher:
    """Rules passages for a narration, when the index is ready; a narration never waits for
    the index to be built, and never fails because search is unavailable."""

    def __init__(self, retrieval: Retrieval) -> None:
        self.retrieval = retrieval

    def __call__(self, query: str, system: str | None, k: int) -> list[Passage]:
        if self.retrieval.state != "ready":
            return []
        try:
            return self.retrieval.get().search(query, system=system, k=k)
        except Exception:  # search is a nicety for narration, never a reason to fail
            return []


def get_searcher(request: Request) -> Searcher:
    return Searcher(request.app.state.retrieval)


SearchDep = Annotated[Searcher, Depends(get_searcher)]


def _wants_stream(request: Request) -> bool:
    return "text/event-stream" in request.headers.get("accept", "")


def sse_event(event: str, data: Any) -> bytes:
    """One server-sent event, its data as JSON (FastAPI's encoder of the wire format)."""
    return format_sse_event(event=event, data_str=json.dumps(data, ensure_ascii=False))


async def _events(task: Task) -> AsyncIterator[bytes]:
    yield sse_event("mechanics", task.mechanics)
    async for event in task.events(stream=True):
        if isinstance(event, Token):
            yield sse_event("token", {"text": event.text})
        elif isinstance(event, Discard):
            yield sse_event("discard", {"reason": event.reason})
        elif isinstance(event, Done):
            final: BaseModel = task.finish(event.text, event.narrated)
            yield sse_event("final", final.model_dump(mode="json"))


async def _respond(request: Request, task: Task) -> Any:
    if _wants_stream(request):
        return StreamingResponse(
            _events(task),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
    return await task.run()


_STREAMS = {200: {"content": SSE_DOC, "description": "JSON, or an event stream when asked"}}


@router.post("/oracle", responses=_STREAMS)
async def ask_oracle(
    body: OracleRequest, request: Request, model: ModelDep, search: SearchDep
) -> OracleResponse:
    """Ask a yes/no question with odds. The engine answers (a match is an extreme result or a
    twist); the narrator interprets the answer in the fiction."""
    task = await run_in_threadpool(prepare_oracle, body, model, search)
    result: OracleResponse = await _respond(request, task)
    return result


@router.post("/oracle/spark", responses=_STREAMS)
async def spark(
    body: SparkRequest, request: Request, model: ModelDep, search: SearchDep
) -> SparkResponse:
    """Roll one of the system's tables (Pay the Price, Make a Discovery, ...) and interpret the
    rolled row(s) for the situation given."""
    task = await run_in_threadpool(prepare_spark, body, model, search)
    result: SparkResponse = await _respond(request, task)
    return result


@router.post(
    "/narrate",
    responses={
        **_STREAMS,
        409: {"description": "the resolution is not one the engine produces (it does not replay)"},
    },
)
async def narrate_resolution(
    body: NarrateRequest, request: Request, model: ModelDep, search: SearchDep
) -> NarrateResponse:
    """Narrate a resolution returned by `POST /v1/rolls` for the action described. The
    resolution is replayed in the engine first; one the engine did not produce is refused."""
    try:
        task = await run_in_threadpool(prepare_narration, body, model, search)
    except ResolutionConflict as exc:
        error = {"error": {"message": exc.message, "field": exc.field}}
        return JSONResponse(error, status_code=409)  # type: ignore[return-value]
    result: NarrateResponse = await _respond(request, task)
    return result


@router.post("/rules/ask", responses=_STREAMS)
async def ask_rules(body: AskRequest, request: Request, model: ModelDep) -> AskResponse:
    """A rules chat: answers from the retrieved rulebook passages only, with every quotation
    checked against the passage it cites. A question that describes a concrete roll gets a
    worked example resolved by the engine."""
    library: Library = await run_in_threadpool(get_library, request)
    task = await prepare_ask(body, model, library)
    result: AskResponse = await _respond(request, task)
    return result
