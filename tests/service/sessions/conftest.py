"""Apps and databases on a temporary SQLite file, for the session tests (and the turn tests).

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

from rules.registry import all_systems
from service.app import create_app
from service.sessions.db import Database
from service.settings import Settings

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


def settings_for(tmp_path: Path, **overrides: Any) -> Settings:
    """Settings on ``tmp_path`` whatever the environment says (DATABASE_URL, API keys...)."""
    values: dict[str, Any] = {
        "data_dir": tmp_path,
        "database_url": None,  # SQLite: tmp_path/fateweaver.db
        "api_keys": [],
        "retrieval_warm_start": False,
        "narrator": "offline",
    }
    return Settings(**(values | overrides))


def session_app(tmp_path: Path, **settings: Any) -> FastAPI:
    """An app on a fresh SQLite database under ``tmp_path``."""
    return create_app(settings_for(tmp_path, **settings))


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
