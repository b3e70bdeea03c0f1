"""An ASGI app served on a free loopback port in a thread, for tests whose subject is another
process (a served `fateweaver`, a browser) that respx cannot reach: e.g. a mock model."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from tests.service.sessions.faults import free_port


@contextmanager
def served(app: Any) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1 until the block ends; yields its base URL with /v1."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the loopback server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
