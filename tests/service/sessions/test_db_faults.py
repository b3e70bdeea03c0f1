"""The database failing for a moment loses nothing and applies nothing by halves.

A lock another transaction holds (SQLite's write lock, a session's row on PostgreSQL) is waited
for, up to ``database_lock_timeout``; longer, the request answers 503 with ``Retry-After`` and
nothing of it is recorded. A PostgreSQL server cut off (behind a TCP proxy here) answers 503 at
once, one that does not answer within ``database_connect_timeout``, and the first request after
it is back succeeds (``pool_pre_ping``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import make_url

from tests.service.sessions.conftest import create, session_app, settings_for
from tests.service.sessions.faults import TcpProxy, hold_lock, proxied

SHEET = {"name": "Ash", "attributes": {"might": 3}}
# go_forth.txt: d20 + Attribute Modifier against the TN: 15 + 3 = 18 meets 12 (no choice left).
TURN = {"words": "I smash the door", "kind": "check", "params": {"attribute": "might", "tn": 12},
        "dice": [15]}  # fmt: skip

Write = Callable[[TestClient, str], Any]  # a TestClient response (httpx2 there)
WRITES: dict[str, Write] = {
    "turn": lambda c, sid: c.post(f"/v1/sessions/{sid}/turns", json=TURN),
    "clock": lambda c, sid: c.post(
        f"/v1/sessions/{sid}/clocks", json={"name": "The storm", "segments": 4}
    ),
    "undo": lambda c, sid: c.post(f"/v1/sessions/{sid}/undo"),
    "rename": lambda c, sid: c.patch(f"/v1/sessions/{sid}", json={"name": "Renamed"}),
}


def recorded(client: TestClient, sid: str) -> tuple[Any, Any]:
    """Everything a write could change: the session (state, name, turn count) and the journal."""
    session = client.get(f"/v1/sessions/{sid}").json()
    return session, client.get(f"/v1/sessions/{sid}/turns").json()


def assert_unavailable(response: Any, why: str) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["retry-after"].isdigit()
    error = response.json()["error"]
    assert why in error["message"] and "retry" in error["message"] and error["field"] is None


def test_a_lock_held_for_a_moment_is_waited_for(tmp_path: Path) -> None:
    with TestClient(session_app(tmp_path)) as client:
        sid = create(client, "go_forth", SHEET)["id"]
        with hold_lock(settings_for(tmp_path), sid) as release:
            threading.Timer(0.5, release.set).start()
            started = time.monotonic()
            r = client.post(f"/v1/sessions/{sid}/turns", json=TURN)
            waited = time.monotonic() - started
        assert r.status_code == 201, r.text
        assert r.json()["number"] == 1 and 0.4 < waited < 5
        assert client.get(f"/v1/sessions/{sid}").json()["turns"] == 1


@pytest.mark.parametrize("write", list(WRITES))
def test_a_lock_held_too_long_is_a_503_and_changes_nothing(tmp_path: Path, write: str) -> None:
    app = session_app(tmp_path, database_lock_timeout=0.3)
    with TestClient(app) as client:
        sid = create(client, "go_forth", SHEET)["id"]
        assert client.post(f"/v1/sessions/{sid}/turns", json=TURN).status_code == 201
        before = recorded(client, sid)
        with hold_lock(settings_for(tmp_path), sid):
            started = time.monotonic()
            r = WRITES[write](client, sid)
            assert time.monotonic() - started < 3
            assert_unavailable(r, "busy")
            assert recorded(client, sid) == before  # reads go on meanwhile
        assert recorded(client, sid) == before
        r = WRITES[write](client, sid)
        assert r.status_code in (200, 201), r.text
        again = client.post(f"/v1/sessions/{sid}/turns", json=TURN)
        made_a_turn = write in ("turn", "clock")
        assert again.status_code == 201 and again.json()["number"] == 2 + made_a_turn


# --- PostgreSQL cut off --------------------------------------------------------------------------


@pytest.fixture
def behind_proxy(tmp_path: Path, backend: str) -> Iterator[tuple[TestClient, TcpProxy]]:
    """A client of an app whose PostgreSQL server is reached through a proxy the test holds."""
    if backend != "postgresql":
        pytest.skip("a database server to cut off: PostgreSQL only")
    database_url = settings_for(tmp_path).database_url
    assert database_url is not None
    url = make_url(database_url)
    with TcpProxy(url.host or "127.0.0.1", url.port or 5432) as proxy:
        app = session_app(
            tmp_path, database_url=proxied(database_url, proxy), database_connect_timeout=2
        )
        with TestClient(app) as client:
            yield client, proxy


def test_a_database_cut_off_is_a_503_at_once_and_the_next_request_after_succeeds(
    behind_proxy: tuple[TestClient, TcpProxy],
) -> None:
    client, proxy = behind_proxy
    sid = create(client, "go_forth", SHEET)["id"]
    assert client.post(f"/v1/sessions/{sid}/turns", json=TURN).status_code == 201
    before = recorded(client, sid)
    proxy.cut()
    for write in WRITES.values():
        started = time.monotonic()
        assert_unavailable(write(client, sid), "unavailable")
        assert time.monotonic() - started < 2  # refused: no timeout to wait for
    assert_unavailable(client.get(f"/v1/sessions/{sid}/turns"), "unavailable")
    proxy.restore()
    assert recorded(client, sid) == before
    r = client.post(f"/v1/sessions/{sid}/turns", json=TURN)
    assert r.status_code == 201 and r.json()["number"] == 2


def test_a_database_that_does_not_answer_is_a_503_within_the_connect_timeout(
    behind_proxy: tuple[TestClient, TcpProxy],
) -> None:
    client, proxy = behind_proxy
    sid = create(client, "go_forth", SHEET)["id"]
    before = recorded(client, sid)
    proxy.stall()  # the pooled connections are gone; new ones get no answer
    started = time.monotonic()
    assert_unavailable(client.post(f"/v1/sessions/{sid}/turns", json=TURN), "unavailable")
    assert 1.5 < time.monotonic() - started < 6  # database_connect_timeout=2
    proxy.restore()
    assert recorded(client, sid) == before
    assert client.post(f"/v1/sessions/{sid}/turns", json=TURN).json()["number"] == 1


def test_a_connection_lost_before_a_turns_commit_records_nothing(
    behind_proxy: tuple[TestClient, TcpProxy],
) -> None:
    client, proxy = behind_proxy
    sid = create(client, "go_forth", SHEET)["id"]
    before = recorded(client, sid)
    proxy.break_at_commit("before")
    assert_unavailable(client.post(f"/v1/sessions/{sid}/turns", json=TURN), "unavailable")
    assert proxy.broken.is_set()  # the turn's transaction was cut at its COMMIT
    assert recorded(client, sid) == before  # the server rolled it back: no turn, no state
    r = client.post(f"/v1/sessions/{sid}/turns", json=TURN)
    assert r.status_code == 201 and r.json()["number"] == 1


def test_a_commit_whose_answer_is_lost_is_a_503_and_the_turn_is_whole(
    behind_proxy: tuple[TestClient, TcpProxy],
) -> None:
    """The one case the client cannot tell from a failure: the server committed, its answer was
    lost. The turn is recorded whole, once (a retry with its Idempotency-Key answers it)."""
    client, proxy = behind_proxy
    sid = create(client, "go_forth", SHEET)["id"]
    proxy.break_at_commit("after")
    assert_unavailable(client.post(f"/v1/sessions/{sid}/turns", json=TURN), "unavailable")
    assert proxy.broken.is_set()
    session, journal = recorded(client, sid)
    assert session["turns"] == 1 and [t["number"] for t in journal] == [1]
    assert journal[0]["status"] == "resolved" and journal[0]["resolution"]["outcome"] == "success"
    assert client.post(f"/v1/sessions/{sid}/replay").json()["ok"] is True
    r = client.post(f"/v1/sessions/{sid}/turns", json=TURN)
    assert r.status_code == 201 and r.json()["number"] == 2


def test_every_session_route_documents_the_503(tmp_path: Path) -> None:
    spec = session_app(tmp_path).openapi()
    operations = [
        operation
        for path, item in spec["paths"].items()
        if path.startswith("/v1/sessions")
        for operation in item.values()
    ]
    assert len(operations) >= 15
    for operation in operations:
        unavailable = operation["responses"]["503"]
        assert "Retry-After" in unavailable["headers"], operation["operationId"]
