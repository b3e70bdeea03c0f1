"""Apps for the MCP and chat-facade tests: SQLite under tmp_path, the offline narrator unless a
test asks for the mock model, and the app's lifespan entered (the MCP task group, migrations)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from service.app import create_app
from service.settings import Settings

SHEET = {"name": "Kell", "stats": {"edge": 2, "heart": 2, "iron": 3, "shadow": 1, "wits": 1}}


def settings_for(tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "data_dir": tmp_path,
        "database_url": None,
        "api_keys": [],
        "rate_limit": "",
        "retrieval_warm_start": False,
        "narrator": "offline",
    }
    return Settings(**(values | overrides))


@asynccontextmanager
async def running(app: FastAPI) -> AsyncIterator[FastAPI]:
    """The app with its lifespan entered, as a server runs it."""
    async with app.router.lifespan_context(app):
        yield app


def app_for(tmp_path: Path, **overrides: Any) -> FastAPI:
    return create_app(settings_for(tmp_path, **overrides))


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
