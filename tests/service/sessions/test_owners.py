"""Owners: a session belongs to the API key that created it; without keys, to ``local``."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from service.sessions.owners import LOCAL_OWNER, bind_host, owner_id
from service.settings import Settings
from tests.service.sessions.conftest import create, session_app, settings_for

ALICE, BOB = "alice-key-0123456789", "bob-key-9876543210"


@pytest.fixture
def keyed(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(session_app(tmp_path, api_keys=[ALICE, BOB])) as client:
        yield client


def _as(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _owners(client: TestClient) -> list[str]:
    with client.app.state.database.transaction(write=False) as db:  # type: ignore[attr-defined]
        return list(db.execute(text("SELECT owner FROM sessions")).scalars())


def test_without_keys_every_request_is_the_local_owner(
    client: TestClient, sheet_system: tuple[str, dict[str, Any]]
) -> None:
    create(client, *sheet_system)
    assert client.get("/v1/sessions", headers=_as("anything")).status_code == 200
    assert _owners(client) == [LOCAL_OWNER]


def test_another_keys_session_is_not_found(
    keyed: TestClient, sheet_system: tuple[str, dict[str, Any]]
) -> None:
    system, sheet = sheet_system
    response = keyed.post(
        "/v1/sessions", json={"system": system, "name": "mine", "sheet": sheet}, headers=_as(ALICE)
    )
    assert response.status_code == 201
    url = f"/v1/sessions/{response.json()['id']}"
    for answer in (
        keyed.get(url, headers=_as(BOB)),
        keyed.patch(url, json={"name": "theirs"}, headers=_as(BOB)),
        keyed.post(f"{url}/end", headers=_as(BOB)),
        keyed.delete(url, headers=_as(BOB)),
    ):
        assert answer.status_code == 404
        assert answer.json()["error"]["field"] == "path.session_id"
    assert keyed.get("/v1/sessions", headers=_as(BOB)).json() == []
    mine = keyed.get(url, headers=_as(ALICE)).json()
    assert (mine["name"], mine["status"]) == ("mine", "active")


def test_the_key_may_come_in_x_api_key(
    keyed: TestClient, sheet_system: tuple[str, dict[str, Any]]
) -> None:
    system, sheet = sheet_system
    response = keyed.post(
        "/v1/sessions",
        json={"system": system, "name": "mine", "sheet": sheet},
        headers={"X-API-Key": ALICE},
    )
    assert response.status_code == 201
    assert keyed.get("/v1/sessions", headers=_as(ALICE)).json() == [response.json()]


@pytest.mark.parametrize(
    ("headers", "field"),
    [
        ({}, "header.Authorization"),
        ({"Authorization": "Bearer not-a-key"}, "header.Authorization"),
        ({"X-API-Key": "not-a-key"}, "header.X-API-Key"),
        ({"Authorization": f"Basic {ALICE}"}, "header.Authorization"),
    ],
    ids=["none", "unknown-bearer", "unknown-x-api-key", "not-bearer"],
)
def test_a_missing_or_unknown_key_is_a_401(
    keyed: TestClient, headers: dict[str, str], field: str
) -> None:
    for response in (
        keyed.get("/v1/sessions", headers=headers),
        keyed.get("/v1/sessions/0123456789abcdef0123456789abcdef", headers=headers),
        keyed.post("/v1/sessions", json={"system": "x", "name": "x", "sheet": {}}, headers=headers),
    ):
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"] == "Bearer"
        assert response.json()["error"]["field"] == field


@pytest.mark.sqlite_only  # reads the database file
def test_the_owner_is_a_hash_and_the_key_is_never_stored(
    keyed: TestClient, sheet_system: tuple[str, dict[str, Any]], tmp_path: Path
) -> None:
    system, sheet = sheet_system
    keyed.post(
        "/v1/sessions", json={"system": system, "name": "x", "sheet": sheet}, headers=_as(ALICE)
    )
    assert _owners(keyed) == [owner_id(ALICE)]
    assert len(owner_id(ALICE)) == 64 and owner_id(ALICE) != owner_id(BOB)
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("fateweaver.db*"))
    assert stored and ALICE.encode() not in stored


@pytest.mark.sqlite_only  # no database
def test_keys_come_comma_separated_and_stay_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FATEWEAVER_API_KEYS", f" {ALICE}, {BOB} ,")
    settings = Settings()
    assert [k.get_secret_value() for k in settings.api_keys] == [ALICE, BOB]
    assert ALICE not in repr(settings) and ALICE not in str(settings.model_dump())


def test_the_openapi_says_whether_a_key_is_needed(tmp_path: Path) -> None:
    without = session_app(tmp_path).openapi()["paths"]["/v1/sessions"]["get"]["security"]
    with_keys = session_app(tmp_path, api_keys=[ALICE]).openapi()["paths"]["/v1/sessions"]["get"]
    assert {} in without
    assert {} not in with_keys["security"] and with_keys["security"]


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"])
def test_without_keys_a_loopback_host_is_kept(tmp_path: Path, host: str) -> None:
    assert bind_host(host, settings_for(tmp_path)) == host


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "example.org"])
def test_without_keys_serve_binds_to_localhost_only(
    tmp_path: Path, host: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="fateweaver.sessions"):
        assert bind_host(host, settings_for(tmp_path)) == "127.0.0.1"
    assert "no API keys configured" in caplog.text


def test_with_keys_serve_binds_where_asked(tmp_path: Path) -> None:
    assert bind_host("0.0.0.0", settings_for(tmp_path, api_keys=[ALICE])) == "0.0.0.0"
