"""Faults for the session tests, each on loopback and in threads of the test's process:

    hold_lock(settings, session_id)   another transaction holds the session's lock (SQLite: the
                                      database's write lock; PostgreSQL: the session's row)
    TcpProxy(host, port)              the way to the database server, to cut, stall or break at
                                      a turn's COMMIT
    ModelServer()                     an OpenAI-compatible chat endpoint: answers at once, or
                                      hangs (to kill the service while it waits)
    Service(env, log)                 ``fateweaver serve`` in a subprocess, to ``kill -9``

The standard library's sockets and ``http.server`` are all these need. Toxiproxy would cut and
stall connections too, but it is a server of its own to install, and it cannot drop a connection
at a given statement (a turn's COMMIT), which a few lines over ``select`` can.
"""

from __future__ import annotations

import json
import os
import select
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Literal

import httpx
import psycopg
from sqlalchemy import make_url

from service.sessions.db import database_url
from service.settings import Settings

ROOT = Path(__file__).resolve().parents[3]
NARRATION = "The door bursts inward."


def libpq_url(sqlalchemy_url: str) -> str:
    """The test's PostgreSQL URL for psycopg itself (its schema in ``options`` kept)."""
    return sqlalchemy_url.replace("postgresql+psycopg://", "postgresql://", 1)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- a lock held by another transaction ---------------------------------------------------------


@contextmanager
def hold_lock(
    settings: Settings, session_id: str, at_most: float = 10.0
) -> Iterator[threading.Event]:
    """Another connection holds what a write on the session waits for, until the block ends or
    the event yielded is set (a timer may set it to release the lock early), and ``at_most``
    seconds in any case: a request that waits for it without a bound fails its test instead of
    hanging it."""
    release = threading.Event()
    deadline = threading.Timer(at_most, release.set)
    deadline.daemon = True
    deadline.start()
    connection: sqlite3.Connection | psycopg.Connection[Any]
    if settings.database_url is None:
        path = str(database_url(settings).database)
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        connection.execute("BEGIN IMMEDIATE")  # the database's write lock
    else:
        connection = psycopg.connect(libpq_url(settings.database_url))
        connection.execute("SELECT id FROM sessions WHERE id = %s FOR UPDATE", (session_id,))
    releaser = threading.Thread(target=lambda: (release.wait(), connection.rollback()))
    releaser.start()
    try:
        yield release
    finally:
        deadline.cancel()
        release.set()
        releaser.join()
        connection.close()


# --- the way to the database server -------------------------------------------------------------

Break = Literal["before", "after"]
STALL_AT_MOST = 10.0  # seconds a stalled connection is held unanswered


class TcpProxy:
    """A TCP proxy from a loopback port to a server, one thread per connection.

    ``cut()`` closes the listener and every live connection (the server is unreachable; a new
    connection is refused); ``stall()`` closes live connections and then accepts new ones but
    forwards nothing (a server that does not answer: the client's connect timeout is the bound);
    ``restore()`` forwards again on the same port. ``break_at_commit(when)``: the connection that
    sent ``INSERT INTO turns`` is dropped at its next ``COMMIT``, ``before`` it reaches the server
    (the server rolls the transaction back) or ``after`` the server's answer to it (committed, but
    the client never learns it)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = free_port()
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._listener: socket.socket | None = None
        self._stalled = False
        self._break: Break | None = None
        self.broken = threading.Event()

    def __enter__(self) -> TcpProxy:
        self.restore()
        return self

    def __exit__(self, *_: object) -> None:
        self.cut()

    def restore(self) -> None:
        self._stalled = False
        if self._listener is None:
            listener = socket.socket()
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(("127.0.0.1", self.port))
            listener.listen()
            listener.settimeout(0.05)
            self._listener = listener
            threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()
        self._close_all()

    def stall(self) -> None:
        self._stalled = True
        self._close_all()

    def break_at_commit(self, when: Break) -> None:
        self.broken.clear()
        self._break = when

    def _close_all(self) -> None:
        with self._lock:
            sockets, self._sockets = self._sockets, set()
        for sock in sockets:
            _close(sock)

    def _accept(self, listener: socket.socket) -> None:
        while self._listener is listener:
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                self._sockets.add(client)
            if self._stalled:  # held, unanswered; closed in the end (a test fails, not hangs)
                hang_up = threading.Timer(STALL_AT_MOST, _close, (client,))
                hang_up.daemon = True
                hang_up.start()
            else:
                threading.Thread(target=self._pump, args=(client,), daemon=True).start()

    def _pump(self, client: socket.socket) -> None:
        try:
            server = socket.create_connection(self.target, timeout=5)
        except OSError:
            _close(client)
            return
        with self._lock:
            self._sockets.add(server)
        inserted = False
        drop_after_reply = False
        try:
            while True:
                readable, _, _ = select.select([client, server], [], [], 1.0)
                if client in readable:
                    data = client.recv(65536)
                    if not data:
                        return
                    inserted = inserted or b"INSERT INTO turns" in data
                    if inserted and self._break is not None and b"COMMIT" in data:
                        when, self._break = self._break, None
                        if when == "before":
                            self.broken.set()
                            return
                        drop_after_reply = True
                    server.sendall(data)
                if server in readable:
                    data = server.recv(65536)
                    if not data:
                        return
                    if drop_after_reply:  # the server committed; its answer is lost
                        self.broken.set()
                        return
                    client.sendall(data)
        except (OSError, ValueError):  # ValueError: select() on a socket cut() just closed
            return
        finally:
            for sock in (client, server):
                with self._lock:
                    self._sockets.discard(sock)
                _close(sock)


def _close(sock: socket.socket) -> None:
    with suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


def proxied(database_url_: str, proxy: TcpProxy) -> str:
    """The same database, through the proxy."""
    url = make_url(database_url_).set(host="127.0.0.1", port=proxy.port)
    return url.render_as_string(hide_password=False)


# --- the model ------------------------------------------------------------------------------------


class ModelServer:
    """An OpenAI-compatible chat endpoint on loopback: a narration at once, or, to a prompt
    that quotes one of ``hang_for``, no answer until ``release`` is set. ``requests``: every
    request's body, as it arrived."""

    def __init__(self) -> None:
        self.hang_for: tuple[str, ...] = ()
        self.release = threading.Event()
        self.requests: list[dict[str, Any]] = []
        model = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                model.requests.append(body)
                prompt = str(body.get("messages"))
                if any(words in prompt for words in model.hang_for):
                    model.release.wait(30)
                    self.close_connection = True
                    return
                reply = json.dumps(_completion(NARRATION)).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *_: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> ModelServer:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *_: object) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


def _completion(text: str) -> dict[str, Any]:
    message = {"role": "assistant", "content": text}
    return {"id": "c", "object": "chat.completion", "created": 0, "model": "gpt-test",
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}  # fmt: skip


# --- the service in a process of its own -----------------------------------------------------------


class Service:
    """``python -m service serve`` on a free port, started at once; ``ready()`` waits for it.

    ``kill()`` is ``kill -9``: no shutdown, no lifespan, whatever was under way is cut."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self._log = log.open("a")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "service", "serve", "--port", str(port)],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=self._log,
        )  # fmt: skip
        self.client: httpx.Client | None = None

    def ready(self, timeout: float = 60) -> httpx.Client:
        """A client of the service once it answers (closed with the service)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"the service exited ({self.proc.returncode})"
            with suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    self.client = httpx.Client(base_url=self.url, timeout=30)
                    return self.client
            time.sleep(0.05)
        raise AssertionError(f"the service did not answer in {timeout} s")

    def log_text(self) -> str:
        """What the service has written to its log so far."""
        self._log.flush()
        return Path(self._log.name).read_text(errors="replace")

    def kill(self) -> None:
        """``kill -9``."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)

    def close(self) -> None:
        self.kill()
        if self.client is not None:
            self.client.close()
        self._log.close()

    def __enter__(self) -> Service:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def service_env(settings: Settings, model: ModelServer) -> dict[str, str]:
    """The environment of a served process: the settings' store and data, the model server, no
    warm start, nothing else of this environment's service settings or keys."""
    keep = {k: v for k, v in os.environ.items()
            if not k.startswith(("FATEWEAVER_", "OPENAI_")) and k != "DATABASE_URL"}  # fmt: skip
    env = keep | {
        "FATEWEAVER_DATA_DIR": str(settings.data_dir),
        "FATEWEAVER_RETRIEVAL_WARM_START": "false",
        "FATEWEAVER_LOG_LEVEL": "warning",
        "FATEWEAVER_NARRATOR": "model",
        "FATEWEAVER_MODEL": "gpt-test",
        "FATEWEAVER_MODEL_MAX_RETRIES": "0",
        "FATEWEAVER_MODEL_TIMEOUT": "30",
        "OPENAI_BASE_URL": model.base_url,
        "OPENAI_API_KEY": "sk-test",
        "HF_HUB_OFFLINE": "1",
        "FATEWEAVER_RATE_LIMIT": settings.rate_limit,
    }
    if settings.database_url:
        env["FATEWEAVER_DATABASE_URL"] = settings.database_url
    return env
