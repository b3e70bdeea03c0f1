"""No API key or model key in any log line of a running `fateweaver serve`, at debug level.

The service runs as a subprocess with two API keys and a model key; its model is a loopback
server that refuses every call (500, then 401) quoting the key it was sent, as a careless server
would. Requests carry the keys every way a client might: `Authorization`, `X-API-Key`, a query
string's `api_key`, a wrong key; turns and narrations make the model client fail and log it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from tests.loopback import served
from tests.service.test_shutdown import _free_port

ROOT = Path(__file__).resolve().parents[2]
ALICE, BOB = "alice-secret-key-4f1c9a", "bob-secret-key-77e02d"
WRONG = "wrong-secret-key-0b3e55"
MODEL_KEY = "sk-model-secret-9d8c7b6a5f"
SECRETS = (ALICE, BOB, WRONG, MODEL_KEY)


class RefusingModel:
    """An OpenAI-compatible endpoint that answers 500, then 401, and so on, quoting the
    `Authorization` header it got."""

    def __init__(self) -> None:
        self.calls = 0
        self.app = FastAPI()
        self.app.post("/v1/chat/completions")(self.chat)

    async def chat(self, request: Request) -> Any:
        self.calls += 1
        sent = request.headers.get("authorization", "")
        status = 500 if self.calls % 2 else 401
        message = f"Incorrect API key provided: {sent}"
        return JSONResponse({"error": {"message": message, "type": "x"}}, status_code=status)


@contextmanager
def refusing_model() -> Iterator[tuple[RefusingModel, str]]:
    model = RefusingModel()
    with served(model.app) as url:
        yield model, url


def _env(data: Path, model_url: str) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items()
        if not k.startswith(("FATEWEAVER_", "OPENAI_")) and k != "DATABASE_URL"
    }  # fmt: skip
    return {
        **env,
        "FATEWEAVER_DATA_DIR": str(data),
        "FATEWEAVER_LOG_LEVEL": "debug",
        "FATEWEAVER_API_KEYS": f"{ALICE},{BOB}",
        "FATEWEAVER_RETRIEVAL_WARM_START": "false",
        "FATEWEAVER_MODEL": "gpt-test",
        "FATEWEAVER_MODEL_MAX_RETRIES": "1",
        "FATEWEAVER_MODEL_TIMEOUT": "5",
        "OPENAI_API_KEY": MODEL_KEY,
        "OPENAI_BASE_URL": model_url,
        "OPENAI_LOG": "debug",  # the openai client's own debug logging (request options)
        "HF_HUB_OFFLINE": "1",
    }


def _wait_until_up(proc: subprocess.Popen[str], url: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"the server exited with status {proc.returncode}"
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError("the server did not start in 60 s")


def _requests(url: str) -> list[httpx.Response]:
    """Every way a key may travel, and requests that make the model client fail."""
    sheet = {"name": "Ash", "attributes": {"might": 3}}
    turn = {"words": "I smash the door", "kind": "check",
            "params": {"attribute": "might", "tn": 12}, "dice": [15]}  # fmt: skip
    alice = {"Authorization": f"Bearer {ALICE}"}
    with httpx.Client(base_url=url, timeout=30) as c:
        answers = [
            c.get("/v1/sessions", headers=alice),
            c.get("/v1/sessions", headers={"X-API-Key": BOB}),
            c.get("/v1/sessions", headers={"Authorization": f"Bearer {WRONG}"}),
            c.get("/v1/sessions", headers={"X-API-Key": WRONG}),
            c.get("/v1/sessions", headers={"Authorization": f"Basic {ALICE}"}),
            c.get("/v1/sessions", params={"api_key": ALICE}),
            c.get("/v1/sessions", params={"api_key": MODEL_KEY, "key": BOB}),
            c.get(f"/v1/sessions/{ALICE}", headers=alice),
        ]
        created = c.post("/v1/sessions", json={"system": "go_forth", "name": "x", "sheet": sheet},
                         headers=alice)  # fmt: skip
        sid = created.json()["id"]
        answers += [
            created,
            c.post(f"/v1/sessions/{sid}/turns", json=turn, headers=alice),
            c.post(
                f"/v1/sessions/{sid}/turns",
                json=turn,
                headers={**alice, "Accept": "text/event-stream"},
            ),
            c.post(f"/v1/sessions/{sid}/turns/1/renarrate", headers=alice),
            c.post(
                "/v1/oracle",
                json={
                    "system": "sundered_isles",
                    "question": "Is it guarded?",
                    "odds": "likely",
                    "seed": 1,
                },
            ),
        ]
        rolled = c.post(
            "/v1/rolls",
            json={
                "system": "go_forth",
                "kind": "check",
                "params": {"roll_bonus": 3, "tn": 12},
                "dice": [15],
            },
        )
        answers += [
            rolled,
            c.post("/v1/narrate", json={"resolution": rolled.json(),
                                        "action": f"I shout my key, {ALICE}"}),
        ]  # fmt: skip
    return answers


def test_no_key_in_any_log_line(tmp_path: Path) -> None:
    out, err = tmp_path / "stdout.txt", tmp_path / "stderr.txt"
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    with refusing_model() as (model, model_url), out.open("w") as stdout, err.open("w") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "service", "serve", "--port", str(port)],
            cwd=ROOT, env=_env(tmp_path / "data", model_url), stdout=stdout, stderr=stderr,
            text=True,
        )  # fmt: skip
        try:
            _wait_until_up(proc, url)
            answers = _requests(url)
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
    logs = out.read_text() + err.read_text()
    statuses = [a.status_code for a in answers]
    assert statuses[:8] == [200, 200, 401, 401, 401, 401, 401, 404], statuses
    assert all(s < 300 for s in statuses[8:]), [(a.status_code, a.text) for a in answers[8:]]
    # The model was called and refused, and the service said so, at debug level.
    assert model.calls >= 4
    assert "model call failed" in logs and "GET /v1/sessions" in logs, logs[-3000:]
    assert "DEBUG" in logs or "debug" in logs.lower()
    leaked = [s for s in SECRETS if s in logs]
    lines = [line for line in logs.splitlines() if any(s in line for s in SECRETS)]
    assert not leaked, "\n".join(lines[:20])
    # Nor does a response pass the model's key on to a client.
    assert not [a.text for a in answers if MODEL_KEY in a.text]
