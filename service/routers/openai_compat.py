"""An OpenAI-compatible chat facade: `GET /v1/models` and `POST /v1/chat/completions`, so that a
chat client (SillyTavern, Open WebUI...) plays a session. The rules of the facade (which session,
regenerates, background calls) are in ``service.chat_facade``; this router only translates.

Models are `fateweaver-<system>` (a new session per chat) and `fateweaver-<system>:<session id>`
(that session). The API key is the client's "OpenAI API key" (`Authorization: Bearer`).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from service.chat_facade import Facade, Said, model_ids, model_pattern, text_of
from service.play_ops import Backend
from service.routers.sessions import responses
from service.sessions.owners import OwnerDep, document_auth
from service.settings import Settings

CHUNK_WORDS = 8  # words per streamed chunk


class ContentPart(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)
    type: str = Field(max_length=40)
    text: str | None = Field(None, max_length=100_000)


class Message(BaseModel):
    """A message as OpenAI's API has it; `tool_calls` and tool messages are accepted and ignored."""

    model_config = ConfigDict(extra="allow", strict=True)
    role: Literal["system", "developer", "user", "assistant", "tool", "function"]
    content: str | list[ContentPart] | None = Field(None, max_length=100_000)
    name: str | None = Field(None, max_length=200)


class ChatRequest(BaseModel):
    """OpenAI's chat-completions request; the sampling fields clients send are accepted and
    ignored (the service's narrator has its own settings)."""

    model_config = ConfigDict(extra="allow", strict=True)
    model: str = Field(
        max_length=200,
        description="`fateweaver-<system>`, or `fateweaver-<system>:<session id>` to play that "
        "session (GET /v1/models lists them); another answers 404",
        json_schema_extra={"pattern": model_pattern()},
        examples=["fateweaver-sundered_isles"],
    )
    messages: list[Message] = Field(min_length=1, max_length=1_000)
    stream: bool | None = False


class ModelCard(BaseModel):
    id: str
    object: Literal["model"] = "model"
    created: int = 0
    owned_by: str = "fateweaver"


class ModelList(BaseModel):
    object: Literal["list"] = "list"
    data: list[ModelCard]


class ReplyMessage(BaseModel):
    role: Literal["assistant"] = "assistant"
    content: str


class Choice(BaseModel):
    index: int = 0
    message: ReplyMessage
    finish_reason: Literal["stop"] = "stop"


class Usage(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0


class ChatCompletion(BaseModel):
    id: str
    object: Literal["chat.completion"] = "chat.completion"
    created: int
    model: str
    choices: list[Choice]
    usage: Usage = Field(default_factory=Usage)


_STREAM_DOC = {
    "text/event-stream": {
        # one event (OpenAPI before 3.2: `schema` describes each event of the stream)
        "schema": {
            "type": "object",
            "properties": {
                "data": {
                    "type": "string",
                    "description": "a `chat.completion.chunk` as JSON; the last event is `[DONE]`",
                }
            },
            "required": ["data"],
        },
        "example": 'data: {"object": "chat.completion.chunk", "choices": [{"index": 0, '
        '"delta": {"content": "The bosun"}, "finish_reason": null}]}\n\ndata: [DONE]\n\n',
    }
}


def _chunk(cid: str, created: int, model: str, delta: dict[str, Any], done: bool) -> bytes:
    body = ChunkOut(id=cid, created=created, model=model,
                    choices=[ChunkChoice(delta=delta, finish_reason="stop" if done else None)])  # fmt: skip
    return f"data: {body.model_dump_json()}\n\n".encode()


class ChunkChoice(BaseModel):
    index: int = 0
    delta: dict[str, Any]
    finish_reason: Literal["stop"] | None = None


class ChunkOut(BaseModel):
    id: str
    object: Literal["chat.completion.chunk"] = "chat.completion.chunk"
    created: int
    model: str
    choices: list[ChunkChoice]


async def _streamed(cid: str, created: int, model: str, text: str) -> AsyncIterator[bytes]:
    """The reply as OpenAI's chunks: the role, the text a few words at a time, the stop, then
    ``[DONE]``. The reply is whole before the first chunk: the guard has checked it, and no
    chunk ever needs withdrawing."""
    yield _chunk(cid, created, model, {"role": "assistant", "content": ""}, False)
    words = text.split(" ")
    for i in range(0, len(words), CHUNK_WORDS):
        piece = " ".join(words[i : i + CHUNK_WORDS])
        yield _chunk(cid, created, model, {"content": piece if i == 0 else " " + piece}, False)
    yield _chunk(cid, created, model, {}, True)
    yield b"data: [DONE]\n\n"


def build_router(settings: Settings) -> APIRouter:
    router = APIRouter(prefix="/v1", tags=["chat clients (OpenAI-compatible)"])

    @router.get("/models", responses=responses(401))
    def list_models(owner: OwnerDep) -> ModelList:
        """One model per system that keeps sessions: `fateweaver-<system>`."""
        return ModelList(data=[ModelCard(id=m) for m in model_ids()])

    @router.post(
        "/chat/completions",
        responses={**responses(401, 404), 200: {"content": _STREAM_DOC}},
    )
    async def chat_completions(
        body: ChatRequest, request: Request, owner: OwnerDep
    ) -> ChatCompletion:
        """Play a session: the last user message is a turn (words; `/move <id> [stat] <words>`,
        `/oracle [odds] <question>`, `/undo`; a number answers a pending choice); the reply is
        the narration with the mechanics in one line and a marker naming the session and turn.
        A regenerate tells the same turn again with the same dice; a client's title, tags or
        follow-up request changes nothing. `stream: true` answers OpenAI's chunks and `[DONE]`."""
        history = [Said(m.role, text_of(m.content)) for m in body.messages]
        text = await Facade(Backend(request.app), owner).reply(body.model, history)
        cid, created = f"chatcmpl-{uuid.uuid4().hex}", int(time.time())
        if body.stream:
            return StreamingResponse(  # type: ignore[return-value]
                _streamed(cid, created, body.model, text),
                media_type="text/event-stream",
                headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
            )
        return ChatCompletion(
            id=cid, created=created, model=body.model,
            choices=[Choice(message=ReplyMessage(content=text))],
        )  # fmt: skip

    return document_auth(router, settings)
