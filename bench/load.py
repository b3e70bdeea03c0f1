"""Load benchmark: N concurrent sessions against a running service, on loopback.

`fateweaver serve` is started as a subprocess per configuration (SQLite with one process;
PostgreSQL with two workers; optionally SQLite with two workers), with an instant mock
OpenAI-compatible model (bench/narrator.py's MockModel, in a process of its own so that it does
not share this client's interpreter) or the offline narrator. N sessions (Sundered Isles, a
sheet) are created, then each plays T named turns with a seed, all sessions at once over one
httpx.AsyncClient whose pool holds N connections. A turn is its whole round trip: the turn, and
the choices it waits for (the first option of each, as bench/sessions.py does).

Printed per configuration: sessions, turns, wall time, throughput (turns/s), p50/p99 turn latency,
p99/p50, errors (any non-2xx or exception, with the first few bodies), and a same-run baseline:
`GET /healthz` under the same concurrency (N clients, T requests each), so figures read as ratios.

Run on demand: `make bench-load` (or `.venv/bin/python bench/load.py [--sessions 50] [--turns 20]
[--only sqlite|postgres|sqlite-2w] [--narrator mock|offline]`). PostgreSQL: a new database on
FATEWEAVER_TEST_POSTGRES's server when that is set, else a throwaway server (`.ci/postgres`).
Bounded: at most 500 sessions x 1,000 turns, and --time-limit seconds per configuration.
Targets (issue 10): 50 sessions, 0 errors, >= 100 turns/s on SQLite; PostgreSQL with two workers at
least as fast; p99 <= 10 x p50.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from narrator import free_port, pct  # noqa: E402

SHEET = {"name": "Kell", "stats": {"edge": 2, "heart": 2, "iron": 3, "shadow": 1, "wits": 1}}
# Named moves in turn: Secure an Advantage's weak hit waits for a choice.
MOVES = [
    {"move": "face_danger", "params": {"stat": "edge"}},
    {"move": "secure_an_advantage", "params": {"stat": "iron"}},
    {"move": "gather_information", "params": {"stat": "wits"}},
]
CONFIGS = {  # name: (database, workers)
    "sqlite": ("sqlite", 1),
    "postgres": ("postgres", 2),
    "sqlite-2w": ("sqlite", 2),
}
MOCK = """
import sys, uvicorn
sys.path.insert(0, {bench!r})
from narrator import MockModel
uvicorn.run(MockModel().app, host="127.0.0.1", port={port}, log_level="error")
"""
SHOWN_ERRORS = 5


@dataclass
class Tally:
    latency: list[float] = field(default_factory=list)
    errors: int = 0
    bodies: list[str] = field(default_factory=list)

    def error(self, what: str) -> None:
        self.errors += 1
        if len(self.bodies) < SHOWN_ERRORS:
            self.bodies.append(what[:300])


class Failed(Exception):
    """A request answered non-2xx (counted once, where it is caught)."""


def check(r: httpx.Response) -> Any:
    if not r.is_success:
        raise Failed(f"{r.request.method} {r.request.url.path} -> {r.status_code}: {r.text}")
    return r.json()


# -- the servers ---------------------------------------------------------------------------


def wait_http(url: str, process: subprocess.Popen[bytes], what: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            if httpx.get(url, timeout=2).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or process.poll() is not None:
            raise SystemExit(f"{what} did not start")
        time.sleep(0.1)


@contextlib.contextmanager
def running(
    args: list[str], env: dict[str, str], url: str, what: str
) -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen(args, env=env, cwd=ROOT)
    try:
        wait_http(url, process, what)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def postgres() -> Iterator[str | None]:
    """A SQLAlchemy URL of a new, empty database, dropped after; None without PostgreSQL."""
    import psycopg

    server = os.environ.get("FATEWEAVER_TEST_POSTGRES")
    folder: Path | None = None
    if not server:
        folder = Path(tempfile.mkdtemp(prefix="fateweaver-load-pg-")) / "cluster"
        started = subprocess.run(
            [str(ROOT / ".ci" / "postgres"), "start", str(folder), str(free_port())],
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
        if started.returncode != 0:
            print(f"postgres: could not start a server:\n{started.stderr.strip()}")
            yield None
            return
        server = started.stdout.strip().splitlines()[-1]
    name = f"fw_load_{uuid.uuid4().hex[:10]}"
    try:
        with psycopg.connect(server, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        base = server.rsplit("/", 1)[0]
        try:
            yield f"postgresql://{base.split('://', 1)[1]}/{name}"
        finally:
            with psycopg.connect(server, autocommit=True) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        if folder is not None:
            subprocess.run([str(ROOT / ".ci" / "postgres"), "stop", str(folder)], check=False)
            shutil.rmtree(folder.parent, ignore_errors=True)


# -- the load ------------------------------------------------------------------------------


async def settle(client: httpx.AsyncClient, sid: str, body: dict[str, Any]) -> None:
    """Take the first option of every choice a turn waits for."""
    while body.get("status") == "awaiting_choice":
        choices = {c["param"]: c["options"][0]["value"] for c in body["choices"]}
        body = check(
            await client.post(
                f"/v1/sessions/{sid}/turns/{body['number']}/choose", json={"choices": choices}
            )
        )


async def session(client: httpx.AsyncClient, index: int, turns: int, tally: Tally) -> None:
    """Create a session and play its turns; a failed request ends the session (its remaining
    turns are not played: a turn left waiting for a choice would refuse every later one)."""
    try:
        sid = check(
            await client.post(
                "/v1/sessions",
                json={"system": "sundered_isles", "name": f"load {index}", "sheet": SHEET},
            )
        )["id"]
    except (Failed, httpx.HTTPError) as exc:
        tally.error(f"create: {exc!r}" if isinstance(exc, httpx.HTTPError) else str(exc))
        return
    for n in range(1, turns + 1):
        body = {
            "words": f"Turn {n}: I press on through the storm",
            "seed": index * 10_000 + n,
            **MOVES[(index + n) % len(MOVES)],
        }
        t0 = time.perf_counter()
        try:
            await settle(
                client, sid, check(await client.post(f"/v1/sessions/{sid}/turns", json=body))
            )
        except Failed as exc:
            tally.error(str(exc))
            return
        except httpx.HTTPError as exc:
            tally.error(f"turn {n}: {exc!r}")
            return
        tally.latency.append(time.perf_counter() - t0)


async def healthz(client: httpx.AsyncClient, count: int, tally: Tally) -> None:
    for _ in range(count):
        t0 = time.perf_counter()
        try:
            check(await client.get("/healthz"))
        except (Failed, httpx.HTTPError) as exc:
            tally.error(str(exc) if isinstance(exc, Failed) else repr(exc))
            continue
        tally.latency.append(time.perf_counter() - t0)


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) of a process and its descendants, from /proc; None without it."""
    try:
        tick, total, pending = os.sysconf("SC_CLK_TCK"), 0.0, [pid]
        while pending:
            each = pending.pop()
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
            for task in Path(f"/proc/{each}/task").iterdir():
                pending += [int(c) for c in (task / "children").read_text().split()]
        return total
    except (OSError, ValueError):
        return None


async def measure(base: str, service: int, args: argparse.Namespace) -> dict[str, Any]:
    """The /healthz baseline under the same concurrency, then the sessions, timed."""
    sessions, turns = args.sessions, args.turns
    # Idle connections are dropped before uvicorn's keep-alive timeout (5 s) closes them, so that
    # no request races the server closing its connection.
    pool = httpx.Limits(
        max_connections=sessions, max_keepalive_connections=sessions, keepalive_expiry=2
    )
    async with httpx.AsyncClient(base_url=base, limits=pool, timeout=60) as client:
        warm = Tally()
        # Every worker process, every connection: first requests import and connect.
        await asyncio.gather(*(session(client, -1 - i, 2, warm) for i in range(min(sessions, 8))))
        await asyncio.gather(*(healthz(client, 5, warm) for _ in range(sessions)))
        baseline = Tally()
        await asyncio.gather(*(healthz(client, turns, baseline) for _ in range(sessions)))
        played = Tally()
        server0, client0, t0 = cpu_seconds(service), time.process_time(), time.perf_counter()
        await asyncio.wait_for(
            asyncio.gather(*(session(client, i, turns, played) for i in range(sessions))),
            args.time_limit,
        )
        wall = time.perf_counter() - t0
        server1 = cpu_seconds(service)
        server = server1 - server0 if server0 is not None and server1 is not None else None
        return {
            "played": played,
            "baseline": baseline,
            "wall": wall,
            "server_cpu": server,
            "client_cpu": time.process_time() - client0,
            "load": os.getloadavg()[0],
        }


def service_env(narrator: str, mock_port: int, data: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("FATEWEAVER_")
        and k not in ("DATABASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL")
    }
    env.update(
        FATEWEAVER_DATA_DIR=data,
        FATEWEAVER_RETRIEVAL_WARM_START="false",
        FATEWEAVER_LOG_LEVEL="warning",
        FATEWEAVER_RATE_LIMIT="",
    )
    if narrator == "mock":
        env.update(
            FATEWEAVER_NARRATOR="model",
            FATEWEAVER_MODEL="mock",
            OPENAI_BASE_URL=f"http://127.0.0.1:{mock_port}/v1",
            OPENAI_API_KEY="not-needed",
        )
    else:
        env["FATEWEAVER_NARRATOR"] = "offline"
    return env


def run_config(name: str, args: argparse.Namespace, mock_port: int) -> dict[str, Any] | None:
    database, workers = CONFIGS[name]
    data = tempfile.mkdtemp(prefix="fateweaver-bench-load-")
    env = service_env(args.narrator, mock_port, data)
    with contextlib.ExitStack() as stack:
        stack.callback(shutil.rmtree, data, ignore_errors=True)
        if database == "postgres":
            url = stack.enter_context(postgres())
            if url is None:
                return None
            env["FATEWEAVER_DATABASE_URL"] = url
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        command = [sys.executable, "-m", "service", "serve", "--port", str(port)]
        service = stack.enter_context(
            running([*command, "--workers", str(workers)], env, f"{base}/healthz", "the service")
        )
        try:
            result = asyncio.run(measure(base, service.pid, args))
        except TimeoutError:
            print(f"{name}: over the time limit ({args.time_limit:.0f} s)")
            return None
    return {"name": name, "workers": workers, **result}


def report(r: dict[str, Any], args: argparse.Namespace) -> None:
    played: Tally = r["played"]
    base: Tally = r["baseline"]
    lat = played.latency or [float("nan")]
    b = base.latency or [float("nan")]
    p50, p99 = pct(lat, 50), pct(lat, 99)
    b50, b99 = pct(b, 50), pct(b, 99)
    done = len(played.latency)
    print(
        f"{r['name']:10} {r['workers']:>2}w  {args.sessions:>4} sessions  "
        f"{done:>5}/{args.sessions * args.turns} turns  {r['wall']:6.1f} s  "
        f"{done / r['wall']:6.1f} turns/s  p50 {p50 * 1000:7.1f} ms  p99 {p99 * 1000:7.1f} ms  "
        f"p99/p50 {p99 / p50:5.1f}  errors {played.errors}"
    )
    print(
        f"{'':14}baseline GET /healthz x{len(b)} at the same concurrency: p50 {b50 * 1000:6.1f} ms"
        f"  p99 {b99 * 1000:6.1f} ms (turn p50 = {p50 / b50:.1f}x), errors {base.errors}"
    )
    server = "n/a" if r["server_cpu"] is None else f"{r['server_cpu'] / max(done, 1) * 1000:.1f} ms"
    print(
        f"{'':14}CPU per turn: service {server}, this client "
        f"{r['client_cpu'] / max(done, 1) * 1000:.1f} ms; load average {r['load']:.1f} "
        f"on {os.cpu_count()} CPUs"
    )
    for body in played.bodies + base.bodies:
        print(f"{'':14}error: {body}")
    ok = {
        "0 errors": played.errors == 0 and done == args.sessions * args.turns,
        ">= 100 turns/s": done / r["wall"] >= 100,
        "p99 <= 10 x p50": p99 <= 10 * p50,
    }
    print(f"{'':14}targets: " + ", ".join(f"{k} {'met' if v else 'MISSED'}" for k, v in ok.items()))


def bounded(low: int, high: int) -> Any:
    def parse(text: str) -> int:
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value}: expected {low} to {high}")
        return value

    return parse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=bounded(1, 500), default=50, help="1-500")
    parser.add_argument("--turns", type=bounded(1, 1000), default=20, help="turns per session")
    parser.add_argument(
        "--only",
        action="append",
        choices=sorted(CONFIGS),
        help="a configuration (repeatable); default: sqlite and postgres",
    )
    parser.add_argument("--narrator", default="mock", choices=["mock", "offline"])
    parser.add_argument(
        "--time-limit",
        type=float,
        default=300,
        help="seconds the turns of one configuration may take",
    )
    args = parser.parse_args()

    mock_port = free_port()
    mock_env = {**os.environ, "PYTHONPATH": str(ROOT)}
    mock_code = MOCK.format(bench=str(ROOT / "bench"), port=mock_port)
    with contextlib.ExitStack() as stack:
        if args.narrator == "mock":
            stack.enter_context(
                running(
                    [sys.executable, "-c", mock_code],
                    mock_env,
                    f"http://127.0.0.1:{mock_port}/",
                    "the mock model",
                )
            )
        print(
            f"{args.sessions} concurrent sessions x {args.turns} named turns (sundered_isles), "
            f"narrator: {args.narrator}; {os.cpu_count()} CPUs"
        )
        done = []
        for name in args.only or ["sqlite", "postgres"]:
            result = run_config(name, args, mock_port)
            if result is not None:
                report(result, args)
                done.append(result)
    rates = {r["name"]: len(r["played"].latency) / r["wall"] for r in done}
    if "sqlite" in rates and "postgres" in rates:
        print(
            f"postgres ({CONFIGS['postgres'][1]} workers) / sqlite throughput: "
            f"{rates['postgres'] / rates['sqlite']:.2f}x"
        )


if __name__ == "__main__":
    main()
