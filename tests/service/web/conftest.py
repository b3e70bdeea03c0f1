"""The page in a real browser: Debian's Chromium driven by Playwright (no browser download),
against ``fateweaver serve`` in a subprocess, on loopback.

Without Chromium (``/usr/bin/chromium``, or ``FATEWEAVER_CHROMIUM``) or the ``playwright``
package these tests skip, except under CI (``CI`` set), where they fail: ``.ci/run`` installs
both. Screenshots go to ``tmp/artifacts`` (or ``FATEWEAVER_ARTIFACTS``).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse

from tests.loopback import served
from tests.service.sessions.faults import Service

ROOT = Path(__file__).resolve().parents[3]
ARTIFACTS = Path(os.environ.get("FATEWEAVER_ARTIFACTS") or ROOT / "tmp" / "artifacts")
CHROMIUM = os.environ.get("FATEWEAVER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
RATE_LIMIT = "20/second;600/minute"  # the service's default: the page must live within it


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (apt-get install -y chromium)"
    return None


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A browser context of its own (a fresh user data directory), 1280 px wide."""
    missing = _missing()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"browser tests cannot run under CI: {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 900},
            accept_downloads=True,
        )
        context.set_default_timeout(20_000)
        try:
            yield context
        finally:
            context.close()


def service_env(data: Path, **extra: str) -> dict[str, str]:
    """A served process's environment: its own data folder, none of this one's settings."""
    keep = {k: v for k, v in os.environ.items()
            if not k.startswith(("FATEWEAVER_", "OPENAI_")) and k != "DATABASE_URL"}  # fmt: skip
    return keep | {
        "FATEWEAVER_DATA_DIR": str(data),
        "FATEWEAVER_LOG_LEVEL": "warning",
        "FATEWEAVER_RATE_LIMIT": RATE_LIMIT,
        "HF_HUB_OFFLINE": "1",
        **extra,
    }


def serve(env: dict[str, str], log: Path) -> Iterator[tuple[Service, httpx.Client]]:
    with Service(env, log) as service:
        client = service.ready(timeout=90)
        yield service, client
    text = log.read_text() if log.exists() else ""
    assert "Traceback" not in text, text[-3000:]


def public_paths(client: httpx.Client) -> list[re.Pattern[str]]:
    """The API's documented paths (OpenAPI), as patterns; the page's own and its assets."""
    paths = client.get("/openapi.json").json()["paths"]
    patterns = [re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(p)) for p in paths]
    return [re.compile(f"^{p}$") for p in [*patterns, "/", "/play/[^/]+", "/ui/[A-Za-z0-9_.-]+"]]


# --- a model on loopback: JSON proposals, narrations streamed a sentence at a time ------------

PROPOSAL = {"move": "face_danger", "kind": "move", "params": {"stat": "wits"},
            "why": "You act against a threat."}  # fmt: skip
CALM = [
    "The tide turns against the hull. ",
    "Lanterns gutter along the quay, and gulls wheel overhead.",
]
# Two sentences the guard rejects in a row (an oracle's "no" told as "yes"): the sentence shown
# before them is withdrawn (a `discard` event), and the reply is the offline one.
REJECTED = [
    "The harbour lies quiet under the fog. ",
    "Yes, the answer is yes. ",
    "Yes. The oracle says yes.",
]
# An oracle's "yes" told in two sentences (an oracle's narration has no lead, so it streams whole).
STREAMED = ["Yes, lanterns burn along every pier. ", "The watch walks the quay in pairs."]
# one sentence in two pieces: a turn's narration keeps one sentence of the model's after the lead
HOSTILE = ['<script>window.__xss = true</script> The lamp gutters ',
           'as <img src="x" onerror="window.__xss = true"> smoke curls from the wick.']  # fmt: skip
PAUSE = 0.8  # seconds between streamed sentences: the page shows the first one meanwhile


class StreamingModel:
    """An OpenAI-compatible chat endpoint: a proposal as JSON to the proposal prompt; otherwise
    prose picked by the player's words (``discard``, ``hostile``), streamed when asked."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.app = FastAPI()
        self.app.post("/v1/chat/completions")(self.chat)

    def reply(self, body: dict[str, Any]) -> list[str]:
        system = str(body["messages"][0]["content"])
        prompt = "\n".join(str(m["content"]) for m in body["messages"])
        if "Reply with one JSON object" in system:
            return [json.dumps(PROPOSAL)]
        if "hostile-probe" in prompt:  # the last turn played (earlier ones are in the prompt too)
            return HOSTILE
        if "withdrawn-probe" in prompt:
            return REJECTED
        if "streamed-probe" in prompt:
            return STREAMED
        return CALM

    async def chat(self, request: Request) -> Any:
        body = await request.json()
        self.calls.append(body)
        pieces = self.reply(body)
        if not body.get("stream"):
            message = {"role": "assistant", "content": "".join(pieces)}
            return JSONResponse({"id": "c", "object": "chat.completion", "created": 0,
                                 "model": "gpt-test", "choices": [
                                     {"index": 0, "finish_reason": "stop", "message": message}]})  # fmt: skip

        def chunk(delta: dict[str, str], finish: str | None = None) -> str:
            data = {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "gpt-test",
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip
            return f"data: {json.dumps(data)}\n\n"

        async def chunks() -> Any:
            for i, piece in enumerate(pieces):
                if i:
                    await asyncio.sleep(PAUSE)
                yield chunk({"content": piece})
            yield chunk({}, "stop")
            yield "data: [DONE]\n\n"

        return StreamingResponse(chunks(), media_type="text/event-stream")


@pytest.fixture(scope="module")
def model() -> Iterator[tuple[StreamingModel, str]]:
    mock = StreamingModel()
    with served(mock.app) as url:
        yield mock, url
