"""Narrator benchmark: what the service adds around a model, per endpoint.

A mock OpenAI-compatible model answers instantly on loopback (plain replies, streams, and the
JSON roll proposal); the service runs as `fateweaver serve` against it. For each endpoint this
prints, over N requests:

- the service's overhead, p50 and p95: the request's whole latency with an instant model (the
  mock's own time is a fraction of a millisecond), beside the same client's round trip to
  `GET /healthz` on the same server (the baseline, same run);
- the overhead to the first streamed narration token (`Accept: text/event-stream`);
- the prompt size in tokens, counted with the offline MiniLM WordPiece tokenizer (no GPT
  tokenizer is available offline; WordPiece counts English at or above GPT-4's), and in chars;
- the model calls per request, as the response's record counts them.

"narrate, new words" sends a new attempt each time (as players do), so each request builds its
narration's grammar (grammar.py) rather than finding it cached; "narrate" repeats one attempt.

Run on demand: `make bench-narrator` (or `.venv/bin/python bench/narrator.py [--n 100]`).
Targets: overhead p50 <= 50 ms, first-token overhead <= 30 ms, prompts <= 2,500 tokens, one
call per narrated answer (two when the rules chat also proposes a roll).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vectorstore.embeddings import tokenizer_path  # noqa: E402

PROPOSAL = {"kind": "action", "params": {"stat": "edge", "stat_value": 2}, "dice": [5, 3, 8]}
# Neutral prose: consistent with any outcome, so the guard never asks again.
PROSE = "The tide turns against the hull. Lanterns gutter along the quay, and gulls wheel overhead."


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class MockModel:
    """An instant OpenAI-compatible chat endpoint that remembers the prompts it was sent."""

    def __init__(self) -> None:
        self.prompts: list[str] = []
        self.app = FastAPI()
        self.app.post("/v1/chat/completions")(self.chat)

    async def chat(self, request: Request) -> Any:
        body = await request.json()
        self.prompts.append("\n".join(str(m["content"]) for m in body["messages"]))
        wants_json = "JSON object" in body["messages"][0]["content"]
        text = json.dumps(PROPOSAL) if wants_json else PROSE
        if not body.get("stream"):
            return JSONResponse(
                {
                    "id": "c",
                    "object": "chat.completion",
                    "created": 0,
                    "model": "mock",
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "stop",
                            "message": {"role": "assistant", "content": text},
                        }
                    ],
                }
            )

        def chunk(delta: dict[str, str], finish: str | None = None) -> str:
            data = {
                "id": "c", "object": "chat.completion.chunk", "created": 0, "model": "mock",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }  # fmt: skip
            return f"data: {json.dumps(data)}\n\n"

        words = text.split(" ")
        pieces = [chunk({"content": w + (" " if i < len(words) - 1 else "")})
                  for i, w in enumerate(words)]  # fmt: skip
        pieces += [chunk({}, "stop"), "data: [DONE]\n\n"]
        return StreamingResponse(iter(pieces), media_type="text/event-stream")


def serve_in_thread(app: FastAPI, port: int) -> uvicorn.Server:
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server


def new_attempts() -> list[str]:
    """Attempts no two alike (10 x 10 x 6 = 600 before they repeat), as a player's words are."""
    verbs = ["leap", "climb", "sneak past", "haggle with", "wrench", "outrun", "swim to",
             "lure", "search", "steady"]  # fmt: skip
    things = ["the gap", "the gate guard", "the drowned bell", "the ferryman's boy", "the grate",
              "the wight", "the old mule", "the signal fire", "the cutter", "the rope bridge"]  # fmt: skip
    places = ["at dusk", "in the rain", "before the tide turns", "by the chapel", "on the quay",
              "under the cliffs"]  # fmt: skip
    return [f"I {v} {t} {p}" for p in places for t in things for v in verbs]


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:6.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=60, help="requests per endpoint and mode")
    parser.add_argument("--data", default=str(Path(tempfile.gettempdir()) / "fateweaver-bench"))
    args = parser.parse_args()

    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(tokenizer_path()))
    tokenizer.no_truncation()

    mock = MockModel()
    mock_port, port = free_port(), free_port()
    serve_in_thread(mock.app, mock_port)
    env = {
        **os.environ,
        "FATEWEAVER_DATA_DIR": args.data,
        "FATEWEAVER_NARRATOR": "model",
        "FATEWEAVER_MODEL": "mock",
        "OPENAI_BASE_URL": f"http://127.0.0.1:{mock_port}/v1",
        "OPENAI_API_KEY": "not-needed",
        "FATEWEAVER_LOG_LEVEL": "warning",
        "FATEWEAVER_RATE_LIMIT": "",  # a benchmark is the runaway client a limit stops
    }
    service = subprocess.Popen(
        [sys.executable, "-m", "service", "serve", "--port", str(port)], env=env, cwd=ROOT
    )
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=60) as client:
            deadline = time.monotonic() + 180
            while True:  # the rules index is built (first run) or opened
                try:
                    if client.get("/readyz").json().get("retrieval") == "ready":
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline or service.poll() is not None:
                    raise SystemExit("the service did not become ready")
                time.sleep(0.2)
            run(client, mock, tokenizer, args.n)
    finally:
        service.terminate()
        service.wait(timeout=30)


def run(client: httpx.Client, mock: MockModel, tokenizer: Any, n: int) -> None:
    roll = client.post(
        "/v1/rolls",
        json={"system": "sundered_isles", "kind": "move", "seed": 7,
              "params": {"move": "face_danger", "stat": "edge", "stat_value": 2}},
    ).json()  # fmt: skip
    cases: dict[str, tuple[str, dict[str, Any]]] = {
        "oracle": ("/v1/oracle", {"system": "sundered_isles", "question": "Is the harbour "
                                  "guarded?", "odds": "likely", "context": "We row in at dusk."}),
        "spark": ("/v1/oracle/spark", {"system": "sundered_isles", "table": "pay_the_price",
                                       "situation": "The bosun has seen my face."}),
        "narrate": ("/v1/narrate", {"resolution": roll, "action": "I leap the gap"}),
        "narrate, new words": ("/v1/narrate", {"resolution": roll}),
        "rules/ask": ("/v1/rules/ask", {"system": "sundered_isles", "messages": [
            {"role": "user", "content": "What happens if I burn momentum on a weak hit?"}]}),
        "rules/ask + roll": ("/v1/rules/ask", {"system": "sundered_isles", "messages": [
            {"role": "user", "content": "I Face Danger with +2 edge and rolled 5, 3 and 8. "
                                        "What happens?"}]}),
    }  # fmt: skip
    attempts = iter(new_attempts())

    def sent(name: str, body: dict[str, Any]) -> dict[str, Any]:
        # a new attempt's words each time: the narration's grammar is built for its words
        return {**body, "action": next(attempts)} if name == "narrate, new words" else body

    for _ in range(10):  # warm both servers and the connection
        client.get("/healthz")
        for name, (path, body) in cases.items():
            client.post(path, json=sent(name, body))
    baseline = []
    for _ in range(n):
        t0 = time.perf_counter()
        client.get("/healthz")
        baseline.append(time.perf_counter() - t0)
    b50 = pct(baseline, 50)
    print(f"baseline GET /healthz round trip: p50 {ms(b50)}  p95 {ms(pct(baseline, 95))}")
    print(
        f"{'endpoint':18} {'overhead p50':>13} {'p95':>10} {'x base':>7} "
        f"{'1st token p50':>14} {'p95':>10} {'prompt tok':>10} {'chars':>6} {'calls':>6}"
    )
    for name, (path, body) in cases.items():
        plain, first, calls = [], [], []
        mock.prompts.clear()
        for _ in range(n):
            t0 = time.perf_counter()
            r = client.post(path, json=sent(name, body))
            plain.append(time.perf_counter() - t0)
            calls.append(r.json()["narrated"]["calls"])
        prompts = list(mock.prompts)
        for _ in range(n):
            t0 = time.perf_counter()
            headers = {"accept": "text/event-stream"}
            with client.stream("POST", path, json=sent(name, body), headers=headers) as r:
                seen = False
                for line in r.iter_lines():
                    if not seen and line.startswith("event: token"):
                        first.append(time.perf_counter() - t0)
                        seen = True
        tokens = max(len(tokenizer.encode(p).ids) for p in prompts)
        chars = max(len(p) for p in prompts)
        print(
            f"{name:18} {ms(pct(plain, 50)):>13} {ms(pct(plain, 95)):>10} "
            f"{pct(plain, 50) / b50:6.1f}x {ms(pct(first, 50)):>14} {ms(pct(first, 95)):>10} "
            f"{tokens:>10} {chars:>6} {statistics.mean(calls):>6.2f}"
        )


if __name__ == "__main__":
    main()
