from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from service.settings import Settings


@pytest.fixture(scope="session")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    # Pinned, whatever the environment says: no model, no database server, no API keys.
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("data"),
        retrieval_warm_start=False,
        narrator="offline",
        database_url=None,
        api_keys=[],
    )
    return TestClient(create_app(settings))
