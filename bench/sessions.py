"""Sessions benchmark: what a turn costs beyond the model, and how the prompt grows.

A session is played for N turns against `fateweaver serve` on loopback, once with an instant
mock OpenAI-compatible model (bench/narrator.py's) and once with the offline narrator. Printed:

- turn overhead p50/p95 (the whole request, the model answering instantly), beside the same
  client's round trip to `GET /healthz` on the same server (the baseline, same run);
- the narration prompt's size at turn 5 and at the last turn (WordPiece tokens and chars):
  the narrator is given a running summary and the last few turns, never the journal;
- model calls per turn, as the mock counted them: a named move, and a proposed one (proposal,
  then the accepted turn's narration).

Run on demand: `make bench-sessions` (or `.venv/bin/python bench/sessions.py [--turns 200]`).
Targets: overhead p50 <= 50 ms; prompt at turn 200 <= 1.2 x the prompt at turn 5; 1 model call
per turn when the move is named, <= 2 when it is proposed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from narrator import MockModel, free_port, ms, pct, serve_in_thread  # noqa: E402

from vectorstore.embeddings import tokenizer_path  # noqa: E402

SESSIONS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    # system: (sheet, a named turn's body)
    "sundered_isles": (
        {"name": "Kell", "stats": {"edge": 2, "heart": 2, "iron": 3, "shadow": 1, "wits": 1}},
        {"move": "face_danger", "params": {"stat": "edge"}},
    ),
    "go_forth": (
        {"name": "Ash", "attributes": {"might": 3, "agility": 2}},
        {"kind": "check", "params": {"attribute": "might", "tn": 12}},
    ),
}


def start_service(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "service", "serve", "--port", str(port)], env=env, cwd=ROOT
    )


def wait_ready(client: httpx.Client, service: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while True:
        try:
            if client.get("/healthz").status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or service.poll() is not None:
            raise SystemExit("the service did not start")
        time.sleep(0.2)


def settle(client: httpx.Client, sid: str, body: dict[str, Any]) -> None:
    """Take the first option of every choice a turn waits for (counted in its calls)."""
    while body.get("status") == "awaiting_choice":
        number = body["number"]
        body = client.post(
            f"/v1/sessions/{sid}/turns/{number}/choose",
            json={"choices": {c["param"]: c["options"][0]["value"] for c in body["choices"]}},
        ).json()
        if "error" in body:
            raise SystemExit(f"turn {number}: the choice failed: {body['error']}")


def play(client: httpx.Client, mock: MockModel | None, system: str, turns: int) -> dict[str, Any]:
    sheet, named = SESSIONS[system]
    sid = client.post(
        "/v1/sessions", json={"system": system, "name": "bench", "sheet": sheet}
    ).json()["id"]
    latency: list[float] = []
    calls_named: list[int] = []
    prompts: dict[int, str] = {}
    for n in range(1, turns + 1):
        before = len(mock.prompts) if mock else 0
        t0 = time.perf_counter()
        r = client.post(
            f"/v1/sessions/{sid}/turns",
            json={"words": f"Turn {n}: I press on through the storm", "seed": n, **named},
        )
        settle(client, sid, r.json())  # a choice the turn waits for is part of the turn
        latency.append(time.perf_counter() - t0)
        if mock:
            calls_named.append(len(mock.prompts) - before)
            if mock.prompts[before:]:
                prompts[n] = mock.prompts[-1]
    proposed: list[int] = []
    for n in range(5):
        before = len(mock.prompts) if mock else 0
        r = client.post(f"/v1/sessions/{sid}/turns", json={"words": "I sneak past the guards"})
        if "number" not in r.json():
            raise SystemExit(f"a proposed turn failed: {r.json()}")
        number = r.json()["number"]
        r = client.post(f"/v1/sessions/{sid}/turns/{number}/accept", json={"seed": n})
        settle(client, sid, r.json())
        if mock:
            proposed.append(len(mock.prompts) - before)
    return {"latency": latency, "calls_named": calls_named, "calls_proposed": proposed,
            "prompts": prompts}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--system", default="sundered_isles", choices=sorted(SESSIONS))
    args = parser.parse_args()

    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(tokenizer_path()))
    tokenizer.no_truncation()
    mock = MockModel()
    mock_port = free_port()
    serve_in_thread(mock.app, mock_port)
    base_env = {**os.environ, "FATEWEAVER_RETRIEVAL_WARM_START": "false",
                "FATEWEAVER_LOG_LEVEL": "warning", "FATEWEAVER_RATE_LIMIT": ""}  # fmt: skip
    modes = {
        "mock model": {"FATEWEAVER_NARRATOR": "model", "FATEWEAVER_MODEL": "mock",
                       "OPENAI_BASE_URL": f"http://127.0.0.1:{mock_port}/v1",
                       "OPENAI_API_KEY": "not-needed"},
        "offline": {"FATEWEAVER_NARRATOR": "offline"},
    }  # fmt: skip
    print(f"{args.system}: {args.turns} named turns, then 5 proposed ones")
    for mode, extra in modes.items():
        port = free_port()
        data = tempfile.mkdtemp(prefix="fateweaver-bench-sessions-")
        service = start_service({**base_env, **extra, "FATEWEAVER_DATA_DIR": data}, port)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
                wait_ready(client, service)
                for _ in range(20):
                    client.get("/healthz")
                baseline = []
                for _ in range(100):
                    t0 = time.perf_counter()
                    client.get("/healthz")
                    baseline.append(time.perf_counter() - t0)
                result = play(client, mock if mode == "mock model" else None, args.system,
                              args.turns)  # fmt: skip
        finally:
            service.terminate()
            service.wait(timeout=30)
        lat = result["latency"]
        print(
            f"{mode:11} turn p50 {ms(pct(lat, 50))}  p95 {ms(pct(lat, 95))}  "
            f"(x{pct(lat, 50) / pct(baseline, 50):.0f} the /healthz round trip, "
            f"{ms(pct(baseline, 50))})"
        )
        if mode == "mock model":
            prompts = result["prompts"]
            first, last = min(k for k in prompts if k >= 5), max(prompts)
            t5 = len(tokenizer.encode(prompts[first]).ids)
            tl = len(tokenizer.encode(prompts[last]).ids)
            print(
                f"{'':11} prompt at turn {first}: {t5} tokens ({len(prompts[first])} chars); "
                f"at turn {last}: {tl} tokens ({len(prompts[last])} chars) = {tl / t5:.2f}x"
            )
            print(
                f"{'':11} model calls per turn: named {statistics.mean(result['calls_named']):.2f}"
                f" (max {max(result['calls_named'])}), proposed "
                f"{statistics.mean(result['calls_proposed']):.2f}"
                f" (max {max(result['calls_proposed'])})"
            )


if __name__ == "__main__":
    main()
