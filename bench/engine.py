"""Engine benchmark: in-process resolutions per second, and HTTP throughput of POST /v1/rolls as a
ratio of a trivial FastAPI endpoint served by the same server in the same run.

Run on demand: `make bench` (or `.venv/bin/python bench/engine.py [--seconds 2]`).
Targets: >= 50,000 action rolls/s in process; POST /v1/rolls >= 70% of the trivial endpoint.
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.dice import SeededDice
from rules.registry import SYSTEM_IDS, get_system, resolve_roll

# (label, system, kind, params) — every case resolved through the same entry point as the API.
CASES = [
    (
        "sundered_isles action roll",
        "sundered_isles",
        "action",
        {"stat": "edge", "stat_value": 2, "adds": 1, "momentum": 3},
    ),
    (
        "sundered_isles table roll (pay the price)",
        "sundered_isles",
        "table",
        {"table": "pay_the_price"},
    ),
    ("elegy action roll", "elegy", "action", None),
    ("go_forth check", "go_forth", "check", None),
    ("storyteller pool of 10", "storyteller", "simple", {"pool": 10, "difficulty": 6}),
    ("roll_under save with advantage", "roll_under", "save", None),
]


def _params_for(system: str, kind: str, params: dict | None) -> dict | None:
    if system not in SYSTEM_IDS:
        return None
    kinds = get_system(system).roll_kinds
    if kind not in kinds:
        return None
    if params is not None:
        return params
    examples = kinds[kind].examples
    if system == "storyteller":
        return next((e for e in examples if e.get("pool") == 10), {**examples[0], "pool": 10})
    if system == "roll_under":
        return next((e for e in examples if e.get("advantage")), {**examples[0], "advantage": True})
    return examples[0]


def rate(fn: Callable[[int], object], seconds: float) -> float:
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(200):
            fn(count)
            count += 1
    return count / elapsed


def in_process(seconds: float) -> None:
    baseline = rate(lambda i: SeededDice(i).roll(10, "x"), seconds)
    print(f"baseline: one seeded d10 (new RNG each)   {baseline:12,.0f} /s")
    for label, system, kind, params in CASES:
        resolved = _params_for(system, kind, params)
        if resolved is None:
            print(f"{label:42s} (not available)")
            continue
        per_s = rate(lambda i, s=system, k=kind, p=resolved: resolve_roll(s, k, p, seed=i), seconds)
        print(f"{label:42s} {per_s:12,.0f} /s   ({per_s / baseline:.2f}x baseline)")


SERVER = """
import sys
sys.path.insert(0, {root!r})
import tempfile
from service.app import create_app
from service.settings import Settings
# Rolls only: no rules-search warm-up competing for the CPU during the measurement.
app = create_app(Settings(data_dir=tempfile.mkdtemp(), retrieval_warm_start=False, rate_limit=""))

@app.post("/trivial")
def trivial() -> dict:
    return {{"ok": True}}

import uvicorn
uvicorn.run(app, host="127.0.0.1", port={port}, log_level="warning", access_log=False)
"""


@contextlib.contextmanager
def server() -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    root = str(Path(__file__).resolve().parent.parent)
    proc = subprocess.Popen([sys.executable, "-c", SERVER.format(root=root, port=port)])
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url + "/healthz").status_code == 200:
                    break
            time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def over_http(seconds: float) -> None:
    body = {
        "system": "sundered_isles",
        "kind": "action",
        "params": {"stat": "edge", "stat_value": 2, "adds": 1, "momentum": 3},
    }
    with server() as url, httpx.Client(base_url=url) as client:

        def trivial(i: int) -> None:
            client.post("/trivial", json=body).raise_for_status()

        def roll(i: int) -> None:
            client.post("/v1/rolls", json={**body, "seed": i}).raise_for_status()

        # Interleave two rounds of each so drift on a noisy machine hits both alike.
        trivial_rates, roll_rates = [], []
        for _ in range(2):
            trivial_rates.append(rate(trivial, seconds / 2))
            roll_rates.append(rate(roll, seconds / 2))
    t, r = sum(trivial_rates) / 2, sum(roll_rates) / 2
    print(f"HTTP trivial endpoint (same server)        {t:12,.0f} req/s")
    print(f"HTTP POST /v1/rolls (action)               {r:12,.0f} req/s   ({r / t:.0%} of trivial)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    args = parser.parse_args()
    in_process(args.seconds)
    over_http(args.seconds * 2)


if __name__ == "__main__":
    main()
