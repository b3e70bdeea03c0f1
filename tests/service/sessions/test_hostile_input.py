"""Hostile input found by an outside chaos harness (issue 14): each was a 500, on one store or
both; each is now a 4xx whose JSON names the field, and nothing accepted before is lost."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from service.limits import MAX_JSON_DEPTH
from tests.service.sessions.conftest import EXAMPLE_SHEETS, create


def _session_routes(client: TestClient) -> list[tuple[str, str]]:
    spec = client.get("/openapi.json").json()
    return [
        (method.upper(), path)
        for path, item in spec["paths"].items()
        if "{session_id}" in path
        for method in item
        if method in ("get", "post", "patch", "delete")
    ]


def test_a_nul_in_an_id_is_a_422_on_every_session_route(client: TestClient) -> None:
    # PostgreSQL's text cannot hold NUL: `/v1/sessions/abc%00` reached it and was refused (500).
    sid = create(client, "sundered_isles", EXAMPLE_SHEETS["sundered_isles"])["id"]
    routes = _session_routes(client)
    assert len(routes) >= 18
    for method, path in routes:
        for name in ("session_id", "track_id", "clock_id"):
            if "{" + name + "}" not in path:
                continue
            ids = {"session_id": sid, "number": "1", "track_id": "t1", "clock_id": "c1"}
            url = re.sub(r"\{(\w+)\}", lambda m, ids=ids | {name: "abc%00"}: ids[m[1]], path)
            answer = client.request(method, url, json={} if method != "GET" else None)
            assert answer.status_code == 422, (method, url, answer.text)
            assert answer.json()["error"]["field"] == name, (method, url, answer.text)
    # and the session it named is untouched
    assert client.get(f"/v1/sessions/{sid}").status_code == 200


def _nested(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 300, 600, 5000])
def test_deep_json_is_a_422_naming_the_body(client: TestClient, depth: int) -> None:
    # 255+ levels were a 500 on turns (pydantic's serializer), 495+ on every strict body
    # (Python's recursion in the validators), 1000+ a 400 naming no field.
    sid = create(client, "sundered_isles", EXAMPLE_SHEETS["sundered_isles"])["id"]
    bodies = {
        f"/v1/sessions/{sid}/turns": '{"words":"x","move":"face_danger","params":%s,"seed":1}',
        "/v1/rolls": '{"system":"sundered_isles","kind":"action","params":%s,"seed":1}',
        "/v1/sessions": '{"system":"sundered_isles","name":"x","sheet":%s}',
    }
    for path, body in bodies.items():
        answer = client.post(
            path, content=body % _nested(depth), headers={"content-type": "application/json"}
        )
        assert answer.status_code == 422, (path, answer.text)
        assert answer.json()["error"]["field"] == "body"
        assert f"at most {MAX_JSON_DEPTH}" in answer.json()["error"]["message"]
    assert len(client.get(f"/v1/sessions/{sid}/turns").json()) == 0


def test_json_within_the_depth_is_read_as_before(client: TestClient) -> None:
    sid = create(client, "sundered_isles", EXAMPLE_SHEETS["sundered_isles"])["id"]
    answer = client.post(
        f"/v1/sessions/{sid}/turns",
        content='{"words":"x","move":"face_danger","params":' + _nested(10) + ',"seed":1}',
        headers={"content-type": "application/json"},
    )
    # an unknown parameter: the engine's 422 naming it, as before the depth limit
    assert answer.status_code == 422 and answer.json()["error"]["field"] == "params.a"


@pytest.mark.parametrize(
    ("content", "what"),
    [(b"\xff\xfe{}", "not UTF-8"), (b"", "missing"), (b"{", "not JSON")],
)
def test_an_unreadable_or_missing_body_names_the_body(
    client: TestClient, content: bytes, what: str
) -> None:
    sid = create(client, "sundered_isles", EXAMPLE_SHEETS["sundered_isles"])["id"]
    for path in (f"/v1/sessions/{sid}/turns", "/v1/rolls", "/v1/sessions", "/v1/oracle"):
        answer = client.post(path, content=content, headers={"content-type": "application/json"})
        assert 400 <= answer.status_code < 500, (what, path, answer.text)
        assert answer.json()["error"]["field"] == "body", (what, path, answer.text)
