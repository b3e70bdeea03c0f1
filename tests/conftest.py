from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from hypothesis import settings as hypothesis_settings

from service.app import create_app
from service.settings import Settings

# Speed is measured by the benches, not by tests: on a busy 2-core machine Hypothesis's default
# 200 ms deadline per example failed tests that were right (a replay of a journal at 265 ms).
hypothesis_settings.register_profile("fateweaver", deadline=None)
hypothesis_settings.load_profile("fateweaver")


@pytest.fixture(scope="session", autouse=True)
def no_rate_limit() -> Iterator[None]:
    """Apps a test builds with its own Settings are not rate limited either (a fast test would be
    limited on a fast machine only): tests/service/test_limits.py sets a limit where it tests one."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FATEWEAVER_RATE_LIMIT", "")
        yield


@pytest.fixture(scope="session")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    # Pinned, whatever the environment says: no model, no database server, no API keys, no
    # rate limit (the suite fires thousands of requests).
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("data"),
        retrieval_warm_start=False,
        narrator="offline",
        database_url=None,
        api_keys=[],
        rate_limit="",
    )
    return TestClient(create_app(settings))
