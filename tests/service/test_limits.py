"""Limits on what one client may send: body size (413), field sizes (422), requests per API key
(429 with Retry-After), and how the OpenAPI document states them."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from limits.strategies import MovingWindowRateLimiter
from pydantic import ValidationError
from starlette.types import Message

from service.app import create_app
from service.retrieval import Retrieval
from service.settings import Settings
from tests.vectorstore.fakes import memory_library

ROLL = {"system": "sundered_isles", "kind": "action", "params": {"stat": "edge", "stat_value": 2}}
SHEET = {"name": "Kell", "stats": {"edge": 1, "heart": 2, "iron": 3, "shadow": 1, "wits": 2}}
KEYS = ["key-alice", "key-bob"]


def app_with(tmp_path: Path, **overrides: Any) -> FastAPI:
    values: dict[str, Any] = {
        "data_dir": tmp_path,
        "database_url": None,
        "api_keys": [],
        "retrieval_warm_start": False,
        "narrator": "offline",
        "rate_limit": "",
    }
    return create_app(Settings(**(values | overrides)))


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def assert_error(response: Any, status: int, field: str | None) -> str:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["field"] == field, error
    message: str = error["message"]
    return message


# --- request body size --------------------------------------------------------------------------


def test_a_body_whose_content_length_is_over_the_limit_is_a_413(tmp_path: Path) -> None:
    with TestClient(app_with(tmp_path, max_body_bytes=2048)) as client:
        body = json.dumps({**ROLL, "padding": "x" * 4000})
        response = client.post("/v1/rolls", content=body, headers={"content-type": "text/json"})
        assert "2048 bytes" in assert_error(response, 413, "body")
        assert client.post("/v1/rolls", json={**ROLL, "seed": 1}).status_code == 200


def test_a_streamed_body_growing_past_the_limit_is_a_413(tmp_path: Path) -> None:
    def chunks() -> Iterator[bytes]:  # no Content-Length: Transfer-Encoding chunked
        yield b'{"system": "sundered_isles", "kind": "action", "params": {"x": "'
        for _ in range(10):
            yield b"x" * 1000

    with TestClient(app_with(tmp_path, max_body_bytes=4096)) as client:
        response = client.post("/v1/rolls", content=chunks())
        assert "4096 bytes" in assert_error(response, 413, "body")


def test_a_streamed_body_is_not_read_past_the_limit(tmp_path: Path) -> None:
    """At the ASGI level: the app never gets more than the limit, and the rest is never read."""
    app = app_with(tmp_path, max_body_bytes=4096)
    pulled = 0
    sent: list[Message] = []

    async def receive() -> Message:
        nonlocal pulled
        pulled += 1
        return {"type": "http.request", "body": b"x" * 1000, "more_body": True}  # endless

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": "/v1/rolls", "raw_path": b"/v1/rolls", "query_string": b"",
        "root_path": "", "headers": [(b"content-type", b"application/json")],
        "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000),
    }  # fmt: skip

    async def call() -> None:
        await app(scope, receive, send)

    anyio.run(call)
    assert pulled == 5  # 4 x 1000 bytes fit; the fifth chunk crossed the limit and was dropped
    assert sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["error"]["field"] == "body"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """The app served by uvicorn on loopback (a real HTTP/1.1 chunked body)."""
    port = free_port()
    config = uvicorn.Config(
        app_with(tmp_path, max_body_bytes=4096), host="127.0.0.1", port=port, log_level="error"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_chunked_body_over_the_limit_is_a_413_from_the_server(served: str) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"system": "sundered_isles", "kind": "action", "params": {"x": "'
        for _ in range(8):
            yield b"x" * 1000

    with httpx.Client(base_url=served, timeout=10) as client:
        response = client.post("/v1/rolls", content=chunks())
        assert_error(response, 413, "body")
        # and the service goes on answering
        assert client.post("/v1/rolls", json={**ROLL, "seed": 7}).status_code == 200


# --- field sizes ----------------------------------------------------------------------------------

LONG = "x" * 5000
ORACLE = {"system": "sundered_isles", "question": "Is the harbour guarded?"}
SPARK = {"system": "sundered_isles", "table": "pay_the_price"}

# (method, path, body or query, the field a 422 names); {sid} is a session of the test's app,
# and /v1/narrate's requests get a resolution.
TOO_LONG: list[tuple[str, str, dict[str, Any], str]] = [
    ("POST", "/v1/rolls", {**ROLL, "system": LONG}, "system"),
    ("POST", "/v1/rolls", {**ROLL, "kind": LONG}, "kind"),
    ("POST", "/v1/rolls", {**ROLL, "params": {f"p{i}": 1 for i in range(51)}}, "params"),
    ("POST", "/v1/rolls", {**ROLL, "dice": [1] * 201}, "dice"),
    ("POST", "/v1/oracle", {**ORACLE, "question": LONG}, "question"),
    ("POST", "/v1/oracle", {**ORACLE, "context": LONG}, "context"),
    ("POST", "/v1/oracle/spark", {**SPARK, "table": LONG}, "table"),
    ("POST", "/v1/oracle/spark", {**SPARK, "situation": LONG}, "situation"),
    ("POST", "/v1/narrate", {"action": LONG}, "action"),
    ("POST", "/v1/narrate", {"action": "I leap", "context": LONG}, "context"),
    ("POST", "/v1/narrate", {"action": "I leap", "character": LONG}, "character"),
    ("POST", "/v1/rules/ask", {"messages": [{"role": "user", "content": LONG}]},
     "messages[0].content"),
    ("POST", "/v1/rules/ask", {"messages": [{"role": "user", "content": "Why?"}] * 41},
     "messages"),
    ("GET", "/v1/rules/search", {"q": LONG}, "q"),
    ("POST", "/v1/sessions", {"system": LONG, "name": "A", "sheet": SHEET}, "system"),
    ("POST", "/v1/sessions", {"system": "sundered_isles", "name": LONG, "sheet": SHEET}, "name"),
    ("POST", "/v1/sessions", {"system": "sundered_isles", "name": "A",
                              "sheet": {**SHEET, "name": LONG}}, "sheet.name"),
    ("PATCH", "/v1/sessions/{sid}", {"name": LONG}, "name"),
    ("POST", "/v1/sessions/{sid}/turns", {"words": LONG}, "words"),
    ("POST", "/v1/sessions/{sid}/turns", {"words": "Go", "move": LONG}, "move"),
    ("POST", "/v1/sessions/{sid}/turns", {"words": "Go", "kind": LONG}, "kind"),
    ("POST", "/v1/sessions/{sid}/turns", {"words": "Go", "track": LONG}, "track"),
    ("POST", "/v1/sessions/{sid}/turns", {"words": "Go", "clock": LONG}, "clock"),
    ("POST", "/v1/sessions/{sid}/turns",
     {"words": "Go", "params": {f"p{i}": 1 for i in range(51)}}, "params"),
    ("POST", "/v1/sessions/{sid}/turns/1/accept",
     {"params": {f"p{i}": 1 for i in range(51)}}, "params"),
    ("POST", "/v1/sessions/{sid}/turns/1/choose",
     {"choices": {f"c{i}": 1 for i in range(21)}}, "choices"),
    ("POST", "/v1/sessions/{sid}/tracks", {"type": "vow", "name": LONG, "rank": "dangerous"},
     "name"),
    ("POST", "/v1/sessions/{sid}/clocks", {"name": LONG}, "name"),
]  # fmt: skip


@pytest.fixture(scope="module")
def sized(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[TestClient, str, dict[str, Any]]]:
    data = tmp_path_factory.mktemp("sized")
    app = app_with(data)
    # Rules search over a fake index: no model to load
    app.state.retrieval = Retrieval(app.state.settings, library=memory_library(data)[0])
    with TestClient(app) as client:
        session = client.post(
            "/v1/sessions", json={"system": "sundered_isles", "name": "A", "sheet": SHEET}
        )
        resolution = client.post("/v1/rolls", json={**ROLL, "seed": 3}).json()
        yield client, session.json()["id"], resolution


@pytest.mark.parametrize(
    ("method", "path", "data", "field"),
    TOO_LONG,
    ids=[f"{m} {p} {f}" for m, p, _, f in TOO_LONG],
)
def test_a_too_long_field_is_a_422_naming_it(
    sized: tuple[TestClient, str, dict[str, Any]],
    method: str,
    path: str,
    data: dict[str, Any],
    field: str,
) -> None:
    client, sid, resolution = sized
    url = path.format(sid=sid)
    if path == "/v1/narrate":
        data = {"resolution": resolution, **data}
    if method == "GET":
        response = client.get(url, params=data)
    else:
        response = client.request(method, url, json=data)
    message = assert_error(response, 422, field)
    assert LONG not in message  # refused by its size, not echoed back


# --- requests per API key ------------------------------------------------------------------------


def test_one_key_is_limited_while_another_is_not(tmp_path: Path) -> None:
    app = app_with(tmp_path, api_keys=KEYS, rate_limit="3/minute")
    with TestClient(app) as client:
        for _ in range(3):
            assert client.get("/v1/sessions", headers=bearer("key-alice")).status_code == 200
        limited = client.get("/v1/sessions", headers=bearer("key-alice"))
        assert "3 per 1 minute" in assert_error(limited, 429, "header.Authorization")
        assert 1 <= int(limited.headers["Retry-After"]) <= 60
        # any route is counted, not only the sessions
        assert client.post("/v1/rolls", json=ROLL, headers=bearer("key-alice")).status_code == 429
        # another key is served; the same key sent as X-API-Key is the same owner
        assert client.get("/v1/sessions", headers=bearer("key-bob")).status_code == 200
        also = client.get("/v1/sessions", headers={"X-API-Key": "key-alice"})
        assert_error(also, 429, "header.X-API-Key")
        # never limited: health and the docs
        for path in ("/healthz", "/readyz", "/openapi.json", "/docs"):
            assert client.get(path).status_code == 200, path


def test_a_key_is_served_again_after_its_window(tmp_path: Path) -> None:
    app = app_with(tmp_path, api_keys=KEYS, rate_limit="1/second")
    with TestClient(app) as client:
        assert client.get("/v1/sessions", headers=bearer("key-alice")).status_code == 200
        limited = client.get("/v1/sessions", headers=bearer("key-alice"))
        assert limited.status_code == 429
        assert limited.headers["Retry-After"] == "1"
        time.sleep(1.05)
        assert client.get("/v1/sessions", headers=bearer("key-alice")).status_code == 200


def test_without_a_known_key_the_client_address_is_counted(tmp_path: Path) -> None:
    keyed = app_with(tmp_path / "keyed", api_keys=KEYS, rate_limit="2/minute")
    with TestClient(keyed, client=("10.0.0.1", 4000)) as client:
        for _ in range(2):  # unknown keys: 401, counted by address
            assert client.get("/v1/sessions", headers=bearer("guess")).status_code == 401
        assert_error(client.get("/v1/sessions", headers=bearer("guess")), 429, None)
        # the address is limited; a known key from it is not
        assert client.get("/v1/sessions", headers=bearer("key-bob")).status_code == 200
    open_ = app_with(tmp_path / "open", rate_limit="2/minute")  # no API keys at all
    with TestClient(open_, client=("10.0.0.1", 4000)) as one:
        assert [one.get("/v1/systems").status_code for _ in range(3)] == [200, 200, 429]
        other = TestClient(open_, client=("10.0.0.2", 4000))  # the same app, its counts
        assert other.get("/v1/systems").status_code == 200


def test_a_rate_limit_storage_that_fails_lets_requests_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def down(*args: Any, **kwargs: Any) -> bool:
        raise ConnectionError("redis is down")

    monkeypatch.setattr(MovingWindowRateLimiter, "hit", down)
    with TestClient(app_with(tmp_path, rate_limit="1/minute")) as client:
        assert [client.get("/v1/systems").status_code for _ in range(2)] == [200, 200]


def test_limit_settings_are_checked(tmp_path: Path) -> None:
    assert Settings(rate_limit=" ").rate_limit == ""
    with pytest.raises(ValidationError, match="rate_limit"):
        Settings(rate_limit="lots")
    with pytest.raises(ValidationError, match="rate_limit_storage"):
        Settings(rate_limit_storage="redis")
    # a storage `limits` does not know stops the app from being built, its password unsaid
    with pytest.raises(ValueError, match="RATE_LIMIT_STORAGE") as refused:
        app_with(tmp_path, rate_limit="1/second", rate_limit_storage="pg://u:secret@db")
    assert "secret" not in str(refused.value)
    with pytest.raises(ValidationError, match="max_body_bytes"):
        Settings(max_body_bytes=10)
    defaults = Settings.model_fields
    assert defaults["rate_limit"].default == "20/second;600/minute"
    assert defaults["rate_limit_storage"].default == "memory://"


# --- the OpenAPI document -------------------------------------------------------------------------


def operations(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            yield path, method, operation


def test_openapi_documents_413_on_bodies_and_429_on_limited_routes(tmp_path: Path) -> None:
    app = app_with(tmp_path, api_keys=KEYS, rate_limit="20/second")
    spec = app.openapi()
    bodies = 0
    for path, method, operation in operations(spec):
        answers = operation["responses"]
        if "requestBody" in operation:
            bodies += 1
            assert "413" in answers, (method, path)
        if path in ("/healthz", "/readyz"):
            assert "429" not in answers
        else:
            assert "Retry-After" in answers["429"]["headers"], (method, path)
            schema = answers["429"]["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/ErrorResponse"}
    assert bodies >= 10
    export = spec["paths"]["/v1/sessions/{session_id}/export"]["get"]
    assert "413" in export["responses"]
    # without a rate limit, no 429 is documented
    unlimited = app_with(tmp_path / "off").openapi()
    assert not any("429" in op["responses"] for _, _, op in operations(unlimited))
