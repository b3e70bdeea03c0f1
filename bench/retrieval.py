"""Retrieval benchmark: cold ingest of the five texts, start-up with an existing index, hybrid
query latency (warm), and the service's memory with the model loaded.

Each figure comes with a baseline measured in the same run, so that it reads on any machine:
cold ingest against embedding the same windows alone; start-up against opening the Chroma
folder alone; query latency against embedding the query alone.

Run on demand: `make bench-retrieval` (or `.venv/bin/python bench/retrieval.py [--reps 10]`).
Targets: query p50 <= 20 ms, start-up with an index <= 2 s, cold ingest <= 60 s, service RSS
with the model loaded <= 400 MB.
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
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.retrieval import build_library  # noqa: E402
from service.settings import Settings  # noqa: E402
from vectorstore.chunking import chunk_text  # noqa: E402
from vectorstore.embeddings import LocalMiniLMEmbeddings, unload_local_embeddings  # noqa: E402
from vectorstore.evaluate import DEFAULT_QUESTIONS  # noqa: E402
from vectorstore.library import builtin_sources  # noqa: E402

STARTUP_SCRIPT = """
import time; t0 = time.perf_counter()
from service.retrieval import build_library
from service.settings import Settings
t1 = time.perf_counter()
lib = build_library(Settings(data_dir={data!r}))
t2 = time.perf_counter()
lib.search("momentum", k=5)
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""
CHROMA_ONLY_SCRIPT = """
import time; t0 = time.perf_counter()
from pathlib import Path
from vectorstore.index import ChromaIndex
t1 = time.perf_counter()
ChromaIndex({name!r}, path=Path({path!r})).ids()
print(t1 - t0, time.perf_counter() - t1)
"""


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def service_rss_mb(data: Path) -> float:
    """Start `fateweaver serve` on the index, ask one question, read its resident memory."""
    port = free_port()
    env = {**os.environ, "FATEWEAVER_DATA_DIR": str(data), "FATEWEAVER_LOG_LEVEL": "warning"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "service", "serve", "--port", str(port)], cwd=ROOT, env=env
    )
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                httpx.get(f"{url}/healthz", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        r = httpx.get(f"{url}/v1/rules/search", params={"q": "momentum"}, timeout=60)
        r.raise_for_status()
        status = Path(f"/proc/{proc.pid}/status").read_text()
        kb = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS"))
        return kb / 1024
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=10, help="passes over the questions")
    args = parser.parse_args()
    questions = [q for q in json.loads(DEFAULT_QUESTIONS.read_text())]
    data = Path(tempfile.mkdtemp(prefix="fateweaver-bench-"))
    settings = Settings(data_dir=data, retrieval_warm_start=False)

    # Cold ingest (model load included) vs embedding the same windows alone.
    unload_local_embeddings()
    t = time.perf_counter()
    library = build_library(settings)
    cold = time.perf_counter() - t
    chunks = [
        c
        for p in builtin_sources()
        for c in chunk_text(p.read_text(encoding="utf-8"), system=p.stem, source=p.name)
    ]
    windows = sorted((w for c in chunks for w in c.windows()), key=len)
    model = LocalMiniLMEmbeddings()
    t = time.perf_counter()
    for i in range(0, len(windows), 32):
        model.embed_documents(windows[i : i + 32])
    embed_only = time.perf_counter() - t

    # Start-up with an existing index, in a fresh process (imports included) vs opening Chroma.
    runs = []
    for _ in range(3):
        out = subprocess.run(
            [sys.executable, "-c", STARTUP_SCRIPT.format(data=str(data))],
            cwd=ROOT, capture_output=True, text=True, check=True,
        ).stdout.split()  # fmt: skip
        runs.append([float(x) for x in out])
    imports, startup, first_query = (statistics.median(r[i] for r in runs) for i in range(3))
    name = f"rules-{LocalMiniLMEmbeddings.model_id}"
    script = CHROMA_ONLY_SCRIPT.format(name=name, path=str(data / "chroma"))
    base = [
        [float(x) for x in subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split()]
        for _ in range(3)
    ]  # fmt: skip
    open_only = statistics.median(r[1] for r in base)

    # Warm query latency, per mode, vs embedding the query alone.
    def latencies(fn) -> list[float]:  # type: ignore[no-untyped-def]
        out = []
        for _ in range(args.reps):
            for q in questions:
                t = time.perf_counter()
                fn(q)
                out.append((time.perf_counter() - t) * 1000)
        return out

    for q in questions[:5]:
        library.search(q["q"], system=q["system"])
    hybrid = latencies(lambda q: library.search(q["q"], system=q["system"], k=5))
    keyword = latencies(lambda q: library.search(q["q"], system=q["system"], mode="keyword"))
    vector = latencies(lambda q: library.search(q["q"], system=q["system"], mode="vector"))
    embed_q = latencies(lambda q: library.embeddings.embed_query(q["q"]))
    rss = service_rss_mb(data)

    n_vectors = len(windows)
    print(f"texts: 5, chunks: {len(chunks)}, vectors: {n_vectors}, CPUs: {os.cpu_count()}")
    print(
        f"cold ingest            {cold:7.2f} s  (target <= 60 s)  = {cold / embed_only:.2f}x "
        f"embedding the {n_vectors} windows alone ({embed_only:.2f} s)"
    )
    print(
        f"start-up with index    {startup:7.3f} s  (target <= 2 s)   = {startup / open_only:.2f}x "
        f"opening the Chroma folder alone in a fresh process ({open_only:.3f} s); "
        f"imports {imports:.2f} s; "
        f"first query (loads the model) {first_query:.2f} s"
    )
    p50, p95 = pct(hybrid, 50), pct(hybrid, 95)
    e50 = pct(embed_q, 50)
    print(
        f"hybrid query p50/p95   {p50:6.1f} / {p95:.1f} ms  (target p50 <= 20 ms)  "
        f"= {p50 / e50:.2f}x embedding the query alone (p50 {e50:.1f} ms)"
    )
    print(
        f"  vector-only p50 {pct(vector, 50):.1f} ms, keyword-only p50 {pct(keyword, 50):.2f} ms "
        f"({len(hybrid)} queries per mode)"
    )
    print(f"service RSS with model {rss:7.0f} MB  (target <= 400 MB)")


if __name__ == "__main__":
    main()
