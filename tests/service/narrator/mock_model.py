"""An OpenAI-compatible chat endpoint mocked over HTTP with respx: replies, streams and failures.

Only the narrator's tests touch the model, and only through this: no network, no key.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI

from service.app import create_app
from service.retrieval import Retrieval
from service.settings import Settings
from tests.vectorstore.fakes import memory_library
from vectorstore.engine import engine_docs

BASE_URL = "http://model.test/v1"
CHAT_URL = f"{BASE_URL}/chat/completions"


def completion(text: str) -> httpx.Response:
    return httpx.Response(
        200,
        json={
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": 0,
            "model": "gpt-test",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
        },
    )


def _chunk(delta: dict[str, Any], finish: str | None = None) -> str:
    body = {
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "gpt-test",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(body)}\n\n"


def stream(pieces: list[str], *, finished: bool = True) -> httpx.Response:
    """A streamed reply; ``finished=False`` cuts it off in the middle (no finish, no [DONE])."""
    lines = [_chunk({"role": "assistant", "content": ""})]
    lines += [_chunk({"content": p}) for p in pieces]
    if finished:
        lines += [_chunk({}, "stop"), "data: [DONE]\n\n"]
    return httpx.Response(
        200, content="".join(lines).encode(), headers={"content-type": "text/event-stream"}
    )


def sent(request: httpx.Request) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(request.content)
    return body


def prompt_text(request: httpx.Request) -> str:
    return "\n".join(str(m["content"]) for m in sent(request)["messages"])


def model_app(tmp: Path, **overrides: Any) -> FastAPI:
    """The app with a model configured at BASE_URL and rules search over a fake index."""
    values: dict[str, Any] = {
        "data_dir": tmp,
        "retrieval_warm_start": False,
        "narrator": "model",
        "model": "gpt-test",
        "openai_base_url": BASE_URL,
        "openai_api_key": "sk-test",
        "model_max_retries": 0,
        "model_timeout": 2.0,
    }
    settings = Settings(**(values | overrides))
    app = create_app(settings)
    library, _, _ = memory_library(tmp, knowledge=engine_docs)
    library.fusion = settings.retrieval_fusion  # the service's fusion (the blend by default)
    app.state.retrieval = Retrieval(settings, library=library)
    return app


def offline_app(tmp: Path) -> FastAPI:
    settings = Settings(data_dir=tmp, retrieval_warm_start=False, narrator="offline")
    app = create_app(settings)
    library, _, _ = memory_library(tmp, knowledge=engine_docs)
    library.fusion = settings.retrieval_fusion  # the service's fusion (the blend by default)
    app.state.retrieval = Retrieval(settings, library=library)
    return app


def sse_events(text: str) -> list[tuple[str, Any]]:
    """(event, data) pairs of a text/event-stream body."""
    events = []
    for block in text.strip().split("\n\n"):
        name, data = "message", []
        for line in block.splitlines():
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())
        if data:
            events.append((name, json.loads("\n".join(data))))
    return events
