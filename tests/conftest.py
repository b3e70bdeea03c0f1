from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from service.settings import Settings


@pytest.fixture(scope="session")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    settings = Settings(data_dir=tmp_path_factory.mktemp("data"), retrieval_warm_start=False)
    return TestClient(create_app(settings))
