"""The details of the HTTP contract that test_contract.py (schemathesis) relies on, one by one."""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import jsonschema_rs
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from service.app import create_app
from service.errors import install_error_handlers
from service.retrieval import Retrieval
from service.routers.rules_search import NOT_BLANK
from service.settings import Settings
from tests.vectorstore.fakes import memory_library

ACTION = {"system": "sundered_isles", "kind": "action", "params": {"stat": "edge", "stat_value": 2}}


@pytest.fixture(scope="module")
def spec(client: TestClient) -> dict[str, Any]:
    return client.get("/openapi.json").json()


@pytest.fixture(scope="module")
def search(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    """An app whose rules search answers from a fake index (no model to load)."""
    data = tmp_path_factory.mktemp("data")
    settings = Settings(data_dir=data, retrieval_warm_start=False)
    app = create_app(settings)
    app.state.retrieval = Retrieval(settings, library=memory_library(data)[0])
    return TestClient(app)


def _validator(spec: dict[str, Any], name: str) -> Any:
    root = {"$ref": f"#/components/schemas/{name}", "components": spec["components"]}
    return jsonschema_rs.validator_for(root)


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("TRACE", "/v1/systems", "GET"),
        ("DELETE", "/v1/systems/elegy/tables/pay_the_price", "GET"),
        ("GET", "/v1/rolls", "POST"),
        ("HEAD", "/healthz", "GET"),
    ],
)
def test_a_method_the_path_lacks_is_a_405_with_allow(
    client: TestClient, method: str, path: str, allowed: str
) -> None:
    r = client.request(method, path)
    assert r.status_code == 405
    assert r.headers["allow"] == allowed
    if method != "HEAD":
        assert r.json() == {"error": {"message": "Method Not Allowed", "field": "method"}}


def test_a_405_lists_every_route_at_the_path() -> None:
    """The router's own `Allow` names only the route it tried; a path can have several."""
    app = FastAPI()
    install_error_handlers(app)
    app.get("/things")(lambda: [])
    app.post("/things")(lambda: {})
    r = TestClient(app).request("OPTIONS", "/things")
    assert r.status_code == 405 and r.headers["allow"] == "GET, POST"


def test_errors_are_documented_as_error_response(spec: dict[str, Any]) -> None:
    assert "HTTPValidationError" not in spec["components"]["schemas"]
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                if status.startswith(("4", "5")) and "content" in answer:
                    ref = answer["content"]["application/json"]["schema"]["$ref"]
                    assert ref.endswith("/ErrorResponse"), (method, path, status)
    systems = spec["paths"]["/v1/systems/{system_id}/tables/{table_id}"]["get"]["responses"]
    assert {"404", "422"} <= set(systems)
    assert {"404", "422", "503"} <= set(spec["paths"]["/v1/rules/search"]["get"]["responses"])
    assert "400" in spec["paths"]["/v1/rolls"]["post"]["responses"]


def test_an_unreadable_body_is_a_400(client: TestClient) -> None:
    r = client.post("/v1/rolls", content=b"\x80{}", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["message"]
    r = client.post("/v1/rolls", content=b"{", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"]["field"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"seed": "2"}, "seed"),
        ({"seed": True}, "seed"),
        ({"seed": 2**63}, "seed"),
        ({"seed": -1}, "seed"),
        ({"dice": ["5", 2, 9]}, "dice[0]"),
        ({"params": {"stat": "edge", "stat_value": "2"}}, "params.stat_value"),
        ({"params": {"stat": "edge", "stat_value": True}}, "params.stat_value"),
        ({"params": {"stat": "edge", "stat_value": 2, "burn_momentum": 1}}, "params.burn_momentum"),
    ],
)
def test_a_roll_takes_what_its_schema_says_and_nothing_coerced(
    client: TestClient, spec: dict[str, Any], change: dict[str, Any], field: str
) -> None:
    body = {**ACTION, **change}
    assert not _validator(spec, "RollRequest").is_valid(body)
    r = client.post("/v1/rolls", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["field"] == field


def test_integer_bounds_are_written_exactly(spec: dict[str, Any]) -> None:
    """Not as floats: 2**63 - 1 as a float is 2**63, a seed the service refuses."""
    text = json.dumps(spec)
    assert '"maximum": 9223372036854775807' in text
    assert not re.search(r'"(maximum|minimum|exclusiveM\w+)": -?\d+\.\d', text)


def test_a_whole_number_written_as_a_float_is_an_integer(
    client: TestClient, spec: dict[str, Any]
) -> None:
    body = {**ACTION, "params": {"stat": "edge", "stat_value": 2.0}, "seed": 7.0}
    assert _validator(spec, "RollRequest").is_valid(body)  # JSON Schema: 2.0 is an integer
    r = client.post("/v1/rolls", json=body)
    assert r.status_code == 200, r.text
    assert r.json() == client.post("/v1/rolls", json={**ACTION, "seed": 7}).json()


@pytest.mark.parametrize(
    ("body", "valid"),
    [
        ({**ACTION, "seed": 7}, True),
        ({**ACTION, "dice": [6, 3, 9]}, True),
        ({**ACTION, "dice": [6, 3, 9], "seed": None}, True),
        ({**ACTION, "dice": [6, 3, 9], "seed": 7}, False),  # one dice source, not two
        ({**ACTION, "kind": "oracle"}, False),  # the action's params are not the oracle's
        ({**ACTION, "system": "elegy"}, False),
        ({"system": "sundered_isles", "kind": "action"}, False),  # its params are required
        ({"system": "sundered_isles", "kind": "oracle"}, True),  # these have defaults
        ({**ACTION, "kind": "fly"}, False),
        ({"system": "elegy", "kind": "table", "params": {"table": "pay_the_price"}}, True),
        ({"system": "elegy", "kind": "table", "params": {"table": "zzz"}}, False),
        ({"system": "elegy", "kind": "move", "params": {"move": "face_danger"}}, True),
        ({"system": "elegy", "kind": "move", "params": {"move": "zzz"}}, False),
    ],
)
def test_the_roll_schema_is_one_per_kind(
    client: TestClient, spec: dict[str, Any], body: dict[str, Any], valid: bool
) -> None:
    assert _validator(spec, "RollRequest").is_valid(body) is valid
    status = client.post("/v1/rolls", json=body).status_code
    assert status == 422 if not valid else status in (200, 422)  # 422: a rule of the game


@pytest.mark.parametrize(
    "text", [" ", "\t\n", "\x1c\x1d\x1e\x1f", "\x85\xa0", "\u2000\u3000", "\u2028\u2029"]
)
def test_a_query_of_whitespace_only_is_documented_and_refused(
    search: TestClient, spec: dict[str, Any], text: str
) -> None:
    (q,) = [p for p in spec["paths"]["/v1/rules/search"]["get"]["parameters"] if p["name"] == "q"]
    documented = jsonschema_rs.validator_for(q["schema"])
    assert not documented.is_valid(text) and documented.is_valid(f"{text}x{text}")
    r = search.get("/v1/rules/search", params={"q": text})
    assert r.status_code == 422 and r.json()["error"]["field"] == "q"


@pytest.mark.parametrize(
    ("system", "status"), [("elegy", 200), ("gurps", 404), ("", 422), ("Elegy", 422)]
)
def test_the_search_system_is_documented_as_accepted(
    search: TestClient, spec: dict[str, Any], system: str, status: int
) -> None:
    """Any id an ingest could use fits the schema: known ones answer, unknown ones are 404."""
    params = spec["paths"]["/v1/rules/search"]["get"]["parameters"]
    (documented,) = [p["schema"] for p in params if p["name"] == "system"]
    assert jsonschema_rs.validator_for(documented).is_valid(system) is (status != 422)
    r = search.get("/v1/rules/search", params={"q": "momentum", "system": system})
    assert r.status_code == status, r.text


def test_blank_means_what_str_strip_strips() -> None:
    for c in map(chr, range(sys.maxunicode + 1)):
        assert (re.search(NOT_BLANK, c) is None) == (c.strip() == ""), hex(ord(c))
