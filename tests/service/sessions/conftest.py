"""Apps and databases for the session tests (and the turn tests), on both stores.

Every test here runs twice: on a temporary SQLite file and on a fresh schema of a PostgreSQL
server (``tests/postgres.py``), unless marked ``sqlite_only`` (SQLite's own behaviour: its file,
its pragmas). ``settings_for`` and ``session_app`` give the current test's store.

    app = session_app(tmp_path, api_keys=["k1"])     # an app; settings override the defaults
    with TestClient(app) as client: ...              # the lifespan migrates at start-up

Fixtures: ``client`` (a started app, no API keys), ``database`` (a migrated ``Database``),
``sheet_system`` (a system with a character sheet and a valid sheet for it).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from rules.registry import all_systems
from service.app import create_app
from service.sessions import db as db_module
from service.sessions.db import Database, make_engine
from service.settings import Settings
from tests.postgres import fresh_database_url, require_server

# A valid sheet per system, the smallest that each system's rules accept.
EXAMPLE_SHEETS: dict[str, dict[str, Any]] = {
    "sundered_isles": {
        "name": "Kell",
        "stats": {"edge": 1, "heart": 2, "iron": 3, "shadow": 1, "wits": 2},
    },
    "go_forth": {"name": "Kell"},
    "storyteller": {"name": "Kell"},
    "roll_under": {
        "name": "Kell",
        "abilities": {"brawn": 10, "finesse": 9, "intellect": 8},
        "max_abilities": {"brawn": 10, "finesse": 9, "intellect": 8},
        "hp": 6,
        "max_hp": 6,
    },
}


BACKENDS = ("sqlite", "postgresql")
_database_url: str | None = None  # the current test's store: None is SQLite under data_dir


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        sqlite_only = metafunc.definition.get_closest_marker("sqlite_only") is not None
        metafunc.parametrize("backend", BACKENDS[:1] if sqlite_only else BACKENDS, indirect=True)


@pytest.fixture(autouse=True)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The store this test runs on; ``settings_for`` reads it. Engines the test's apps made are
    disposed after it (an app a test never started keeps its connections open)."""
    global _database_url
    name: str = getattr(request, "param", "sqlite")
    _database_url = fresh_database_url(require_server()) if name == "postgresql" else None
    engines: list[Engine] = []

    def recording(settings: Settings) -> Engine:
        engines.append(make_engine(settings))
        return engines[-1]

    monkeypatch.setattr(db_module, "make_engine", recording)
    try:
        yield name
    finally:
        _database_url = None
        for engine in engines:
            engine.dispose()


def settings_for(tmp_path: Path, **overrides: Any) -> Settings:
    """Settings on ``tmp_path`` whatever the environment says (DATABASE_URL, API keys...), on
    the current test's store."""
    values: dict[str, Any] = {
        "data_dir": tmp_path,
        "database_url": _database_url,  # None: SQLite, tmp_path/fateweaver.db
        "api_keys": [],
        "rate_limit": "",  # tests/service/test_limits.py tests it
        "retrieval_warm_start": False,
        "narrator": "offline",
    }
    return Settings(**(values | overrides))


def session_app(tmp_path: Path, **settings: Any) -> FastAPI:
    """An app on a fresh SQLite database under ``tmp_path``."""
    return create_app(settings_for(tmp_path, **settings))


def session_model_app(tmp_path: Path, **settings: Any) -> FastAPI:
    """An app whose narrator is a model at the respx mock's BASE_URL (no retries, 2 s)."""
    from tests.service.narrator.mock_model import BASE_URL

    model = {"narrator": "model", "model": "gpt-test", "openai_base_url": BASE_URL,
             "openai_api_key": "sk-test", "model_max_retries": 0, "model_timeout": 2.0}  # fmt: skip
    return session_app(tmp_path, **(model | settings))


def systems_with_sheets() -> list[str]:
    """Systems that have a character sheet and an example of one here."""
    return [s.id for s in all_systems() if s.sheet is not None and s.id in EXAMPLE_SHEETS]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(session_app(tmp_path)) as client:
        yield client


@pytest.fixture
def database(tmp_path: Path) -> Iterator[Database]:
    database = Database(settings_for(tmp_path))
    database.upgrade()
    yield database
    database.close()


@pytest.fixture
def sheet_system() -> tuple[str, dict[str, Any]]:
    systems = systems_with_sheets()
    if not systems:
        pytest.skip("no system has a character sheet yet")
    return systems[0], EXAMPLE_SHEETS[systems[0]]


def create(client: TestClient, system: str, sheet: dict[str, Any], name: str = "Drowned") -> Any:
    """A new session through the API (asserting 201); its JSON."""
    response = client.post("/v1/sessions", json={"system": system, "name": name, "sheet": sheet})
    assert response.status_code == 201, response.text
    return response.json()
