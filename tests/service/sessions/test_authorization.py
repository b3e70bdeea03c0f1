"""Authorization over every session route, enumerated from the OpenAPI document.

Another owner's key gets a 404 naming `path.session_id` (as an unknown session does) on every
method of every path under /v1/sessions/{session_id}, with a request that is valid for the
owner (so no 422 can hide a missing check), and the owner's session is left as it was. A route
added without an entry in REQUESTS fails the test.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.service.sessions.conftest import session_app
from tests.service.sessions.test_owners import ALICE, BOB

KELL = {"name": "Kell", "stats": {"edge": 2, "heart": 2, "iron": 3, "shadow": 1, "wits": 1}}
PREFIX = "/v1/sessions/{session_id}"
UNKNOWN = "0123456789abcdef0123456789abcdef"

# (method, path template) -> (path parameters other than session_id, query, JSON body).
# Valid for Alice's session as `_alice_plays` leaves it, and applied by Alice in this order
# afterwards (each answers < 300): turn 4 is a proposal, t1 a combat track, c1 a clock.
Request = tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None]
REQUESTS: dict[tuple[str, str], Request] = {
    ("get", PREFIX): ({}, {}, None),
    ("get", f"{PREFIX}/turns"): ({}, {}, None),
    ("get", f"{PREFIX}/turns/{{number}}"): ({"number": 3}, {}, None),
    ("get", f"{PREFIX}/export"): ({}, {"format": "markdown"}, None),
    ("post", f"{PREFIX}/replay"): ({}, {}, None),
    # A miss: the turn waits for the player's choice, which the next request makes.
    ("post", f"{PREFIX}/turns/{{number}}/accept"): (
        {"number": 4}, {}, {"move": "face_danger", "params": {"stat": "edge"}, "dice": [1, 9, 9]},
    ),
    ("post", f"{PREFIX}/turns/{{number}}/choose"): (
        {"number": 4}, {}, {"choices": {"roll_tables": False}},
    ),
    ("post", f"{PREFIX}/turns/{{number}}/renarrate"): ({"number": 3}, {}, None),
    ("post", f"{PREFIX}/turns"): (
        {}, {}, {"words": "I strike again", "move": "strike", "params": {"stat": "iron"},
                 "dice": [6, 1, 2]},
    ),
    ("post", f"{PREFIX}/undo"): ({}, {}, None),
    ("post", f"{PREFIX}/tracks"): ({}, {}, {"type": "vow", "name": "Sink the Gull", "rank": "epic"}),
    ("post", f"{PREFIX}/tracks/{{track_id}}/progress"): ({"track_id": "t1"}, {}, {"times": 2}),
    ("post", f"{PREFIX}/tracks/{{track_id}}/close"): (
        {"track_id": "t1"}, {}, {"status": "abandoned"},
    ),
    ("post", f"{PREFIX}/clocks"): ({}, {}, {"name": "The tide turns", "segments": 6}),
    # Sundered Isles has no rest (its recovery is moves): Alice's own answer is the 422 saying so
    ("post", f"{PREFIX}/rest"): ({}, {}, {"kind": "short"}),
    ("post", f"{PREFIX}/sheet"): ({}, {}, {"edits": [{"field": "health", "delta": -1}]}),
    ("post", f"{PREFIX}/clocks/{{clock_id}}/advance"): ({"clock_id": "c1"}, {}, {"by": 1}),
    ("patch", PREFIX): ({}, {}, {"name": "renamed"}),
    ("post", f"{PREFIX}/end"): ({}, {}, None),
    ("delete", PREFIX): ({}, {}, None),
}  # fmt: skip


def _as(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture
def keyed(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(session_app(tmp_path, api_keys=[ALICE, BOB])) as client:
        yield client


def session_routes(client: TestClient) -> set[tuple[str, str]]:
    paths: dict[str, dict[str, Any]] = client.app.openapi()["paths"]  # type: ignore[attr-defined]
    methods = {"get", "put", "post", "patch", "delete", "head", "options", "trace"}
    return {
        (method, path)
        for path, operations in paths.items()
        if path == PREFIX or path.startswith(PREFIX + "/")
        for method in operations
        if method in methods
    }


def _alice_plays(client: TestClient) -> str:
    """Alice's session: a fight (turn 1), a clock (2), a strike (3) that marks the fight's
    progress, and a proposal (4)."""
    sid: str = create_as(client, ALICE)
    for path, body in [
        ("/tracks", {"type": "combat", "name": "The bosun", "rank": "dangerous"}),
        ("/clocks", {"name": "Storm", "segments": 4}),
        ("/turns", {"words": "I strike", "move": "strike", "params": {"stat": "iron"},
                    "dice": [5, 3, 8]}),
        ("/turns", {"words": "I swing my cutlass at the bosun"}),
    ]:  # fmt: skip
        r = client.post(f"/v1/sessions/{sid}{path}", json=body, headers=_as(ALICE))
        assert r.status_code == 201, r.text
    return sid


def create_as(client: TestClient, key: str) -> str:
    r = client.post(
        "/v1/sessions", json={"system": "sundered_isles", "name": "mine", "sheet": KELL},
        headers=_as(key),
    )  # fmt: skip
    assert r.status_code == 201, r.text
    sid: str = r.json()["id"]
    return sid


def send(client: TestClient, sid: str, route: tuple[str, str], headers: dict[str, str]) -> Any:
    method, template = route
    path_params, query, body = REQUESTS[route]
    url = template.format(session_id=sid, **path_params)
    return client.request(method, url, params=query, json=body, headers=headers)


def snapshot(client: TestClient, sid: str) -> tuple[Any, Any]:
    session = client.get(f"/v1/sessions/{sid}", headers=_as(ALICE))
    journal = client.get(f"/v1/sessions/{sid}/turns", headers=_as(ALICE))
    assert session.status_code == journal.status_code == 200
    return session.json(), journal.json()


def test_every_session_route_is_in_the_table(keyed: TestClient) -> None:
    assert session_routes(keyed) == set(REQUESTS), "a session route without a request here"


def test_another_owners_key_is_a_404_on_every_session_route(keyed: TestClient) -> None:
    assert session_routes(keyed) == set(REQUESTS)
    sid = _alice_plays(keyed)
    create_as(keyed, BOB)  # Bob has a session of his own: he is a known owner
    before = snapshot(keyed, sid)
    for route in REQUESTS:
        r = send(keyed, sid, route, _as(BOB))
        assert r.status_code == 404, (route, r.text)
        assert r.json()["error"]["field"] == "path.session_id", (route, r.text)
        # Indistinguishable from a session that does not exist.
        unknown = send(keyed, UNKNOWN, route, _as(BOB))
        assert r.text.replace(sid, "?") == unknown.text.replace(UNKNOWN, "?"), route
    assert snapshot(keyed, sid) == before
    assert len(before[1]) == 4 and before[0]["state"]["tracks"]["t1"]["ticks"] == 16
    # Every request was one Alice may make: her own key gets through, in the table's order.
    for route in REQUESTS:
        r = send(keyed, sid, route, _as(ALICE))
        if route[1].endswith("/rest"):
            assert r.status_code == 422 and r.json()["error"]["field"] == "kind", r.text
            continue
        assert r.status_code < 300, (route, r.text)
    assert keyed.get(f"/v1/sessions/{sid}", headers=_as(ALICE)).status_code == 404  # deleted


@pytest.mark.parametrize(
    "headers",
    [{}, _as("not-a-key"), {"X-API-Key": "not-a-key"}, {"Authorization": f"Basic {ALICE}"}],
    ids=["none", "unknown-bearer", "unknown-x-api-key", "not-bearer"],
)
def test_no_key_or_an_unknown_one_is_a_401_on_every_session_route(
    keyed: TestClient, headers: dict[str, str]
) -> None:
    sid = _alice_plays(keyed)
    before = snapshot(keyed, sid)
    for route in REQUESTS:
        r = send(keyed, sid, route, headers)
        assert r.status_code == 401, (route, r.text)
        assert r.headers["WWW-Authenticate"] == "Bearer"
        assert r.json()["error"]["field"].startswith("header."), (route, r.text)
    assert snapshot(keyed, sid) == before


def test_a_route_missing_from_the_table_fails(keyed: TestClient) -> None:
    """The enumeration sees a route added later (the guard above is not vacuous)."""

    app: FastAPI = keyed.app  # type: ignore[assignment]

    @app.get(PREFIX + "/secret")
    def secret(session_id: str) -> dict[str, str]:
        return {"session": session_id}

    app.openapi_schema = None
    assert session_routes(keyed) - set(REQUESTS) == {("get", PREFIX + "/secret")}
