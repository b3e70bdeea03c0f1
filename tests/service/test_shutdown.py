"""Stopping never aborts, and never leaves an index the next start cannot complete.

A thread still inside onnxruntime when the interpreter finalizes aborts the process ("terminate
called without an active exception", status 134). So the warm-up starts in the app's lifespan,
not when the app is built, and a stop ends it at the next embedding batch and waits for it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import httpx
import pytest
from fastapi.testclient import TestClient

from service import retrieval
from service.app import create_app
from service.settings import Settings
from tests.vectorstore.fakes import HashEmbeddings
from vectorstore.index import MemoryIndex
from vectorstore.library import Cancelled, Library

ROOT = Path(__file__).resolve().parents[2]


def _env(data: Path) -> dict[str, str]:
    """The defaults (warm start on, local model), a fresh data folder and no network."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FATEWEAVER_")}
    return {**env, "FATEWEAVER_DATA_DIR": str(data), "FATEWEAVER_LOG_LEVEL": "warning",
            "HF_HUB_OFFLINE": "1"}  # fmt: skip


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _serving(data: Path, stderr: IO[str]) -> Iterator[tuple[subprocess.Popen[str], str]]:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "service", "serve", "--port", str(port)],
        cwd=ROOT, env=_env(data), stdout=subprocess.DEVNULL, stderr=stderr, text=True,
    )  # fmt: skip
    try:
        yield proc, f"http://127.0.0.1:{port}"
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def _retrieval(proc: subprocess.Popen[str], url: str, until: set[str], timeout: float) -> str:
    """Poll /readyz until rules search is in one of ``until`` (or failed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"the server exited with status {proc.returncode}"
        try:
            state = str(httpx.get(f"{url}/readyz", timeout=5).json()["retrieval"])
        except httpx.HTTPError:  # not listening yet
            state = ""
        if state in until or state.startswith("failed"):
            return state
        time.sleep(0.2)
    pytest.fail(f"rules search not in {until} after {timeout} s")


def test_a_stop_during_warm_up_exits_0_and_the_next_start_completes_the_index(
    tmp_path: Path,
) -> None:
    data, log = tmp_path / "data", tmp_path / "stderr.txt"
    with log.open("w") as stderr:
        # Each start finds the index incomplete, so each stop lands in a warm-up; the 2 s let
        # it load the model and embed (where a stop used to abort the process).
        for sig in (signal.SIGINT, signal.SIGTERM):
            with _serving(data, stderr) as (proc, url):
                assert _retrieval(proc, url, {"warming", "ready"}, 60) == "warming"
                time.sleep(2)
                proc.send_signal(sig)
                assert proc.wait(timeout=30) == 0, log.read_text()[-2000:]
        with _serving(data, stderr) as (proc, url):
            assert _retrieval(proc, url, {"ready"}, 180) == "ready", log.read_text()[-2000:]
            found = httpx.get(f"{url}/v1/rules/search", params={"q": "strike"}, timeout=30)
            assert found.status_code == 200 and found.json()["passages"]
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 0, log.read_text()[-2000:]
    assert "terminate called" not in log.read_text()


def test_building_the_app_starts_nothing(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from service.app import create_app; create_app()"],
        cwd=ROOT, env=_env(tmp_path), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    app = create_app(Settings(data_dir=tmp_path, retrieval_warm_start=True))
    assert app.state.retrieval.state == "not_started"


def test_the_lifespan_starts_the_warm_up_and_stops_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def embedding_until_stopped(settings: Settings, stop: threading.Event) -> Library:
        stop.wait(30)
        raise Cancelled("stopped at a batch")

    monkeypatch.setattr(retrieval, "build_library", embedding_until_stopped)
    app = create_app(Settings(data_dir=tmp_path, retrieval_warm_start=True))
    with TestClient(app) as client:
        assert client.get("/readyz").json()["retrieval"] == "warming"
        started = time.monotonic()
    assert time.monotonic() - started < 5
    assert not any(t.name == "retrieval-warm-up" for t in threading.enumerate())
    assert app.state.retrieval.state == "not_started"  # a stop is not a failure
    # a search arriving while the service stops does not start a build of its own
    refused = TestClient(app).get("/v1/rules/search", params={"q": "strike"})
    assert refused.status_code == 503 and "stopping" in refused.text


def test_a_stopped_sync_leaves_an_index_the_next_sync_completes(tmp_path: Path) -> None:
    stop = threading.Event()

    class StopDuringFirstBatch(HashEmbeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            stop.set()
            return super().embed_documents(texts)

    index = MemoryIndex()
    with pytest.raises(Cancelled):
        Library(tmp_path, index, StopDuringFirstBatch, "hash-test", stop=stop).sync()
    assert 0 < len(index.ids()) <= 32  # the batch under way was finished and stored
    again = Library(tmp_path, index, HashEmbeddings, "hash-test")
    # the manifest lists a text only once all of it is stored
    assert all(set(c.vector_ids()) <= index.ids() for v in again.docs.values() for c in v["chunks"])
    again.sync()
    wanted = {vid for v in again.docs.values() for c in v["chunks"] for vid in c.vector_ids()}
    assert index.ids() == wanted and again.search("Strike", system="sundered_isles", k=1)


def test_a_stopped_ingest_exits_130(tmp_path: Path) -> None:
    log = tmp_path / "stderr.txt"
    with log.open("w") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "service", "ingest", "rebuild"],
            cwd=ROOT, env=_env(tmp_path / "data"), stdout=subprocess.DEVNULL, stderr=stderr,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while "indexing" not in log.read_text():  # the first batch is stored: embedding
                assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 130
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
    assert "stopped: run the command again" in log.read_text()
    assert "terminate called" not in log.read_text()
