"""A PostgreSQL server for the tests: the one ``.ci/run`` started (``FATEWEAVER_TEST_POSTGRES``),
else a throwaway one started here with ``.ci/postgres`` (where PostgreSQL is installed).

Each test gets a schema of its own on that server (``fresh_database_url``): as fast as a new
SQLite file, and no test sees another's rows. Under CI a missing server fails the run instead of
skipping the PostgreSQL half of the suite.
"""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from functools import cache
from pathlib import Path
from urllib.parse import quote

import psycopg

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / ".ci" / "postgres"
ENV = "FATEWEAVER_TEST_POSTGRES"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@cache
def server_url() -> str | None:
    """The server's URL (a libpq URL, database ``postgres``), or None when there is none."""
    if os.environ.get(ENV):
        return os.environ[ENV]
    if not any(Path(p).is_dir() for p in ("/usr/lib/postgresql",)) and not shutil.which("initdb"):
        return None
    folder = Path(tempfile.mkdtemp(prefix="fateweaver-pg-")) / "cluster"
    started = subprocess.run(
        [str(SCRIPT), "start", str(folder), str(_free_port())],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    if started.returncode != 0:
        return None
    atexit.register(subprocess.run, [str(SCRIPT), "stop", str(folder)], check=False)
    return started.stdout.strip().splitlines()[-1]


def require_server() -> str:
    """The server's URL; skips the test without one, fails it under CI."""
    import pytest

    url = server_url()
    if url is None:
        message = f"no PostgreSQL server ({ENV} unset, and none could be started here)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return url


def fresh_database_url(server: str) -> str:
    """A SQLAlchemy URL on a new, empty schema of ``server`` (psycopg, ``search_path`` set)."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    base = server.replace("postgresql://", "postgresql+psycopg://", 1)
    separator = "&" if "?" in base else "?"
    return f"{base}{separator}options={quote(f'-csearch_path={schema}')}"
