from __future__ import annotations

from fastapi.testclient import TestClient


def test_roll_with_seed_reproduces(client: TestClient) -> None:
    body = {
        "system": "sundered_isles",
        "kind": "action",
        "params": {"stat": "edge", "stat_value": 2},
        "seed": 7,
    }
    first = client.post("/v1/rolls", json=body)
    assert first.status_code == 200
    assert first.json() == client.post("/v1/rolls", json=body).json()
    assert first.json()["seed"] == 7


def test_roll_without_seed_reports_one(client: TestClient) -> None:
    body = {"system": "sundered_isles", "kind": "oracle", "params": {"odds": "likely"}}
    data = client.post("/v1/rolls", json=body).json()
    assert isinstance(data["seed"], int)
    replay = client.post("/v1/rolls", json={**body, "seed": data["seed"]}).json()
    assert replay == data


def test_given_dice_replay(client: TestClient) -> None:
    body = {
        "system": "sundered_isles",
        "kind": "action",
        "params": {"stat": "iron", "stat_value": 3},
        "dice": [5, 2, 9],
    }
    data = client.post("/v1/rolls", json=body).json()
    assert [d["value"] for d in data["dice"]] == [5, 2, 9]
    assert data["seed"] is None


def _error(client: TestClient, body: dict, status: int = 422) -> dict:
    response = client.post("/v1/rolls", json=body)
    assert response.status_code == status, response.text
    return response.json()["error"]


def test_unknown_system(client: TestClient) -> None:
    error = _error(client, {"system": "nope", "kind": "action"})
    assert error["field"] == "system" and "nope" in error["message"]


def test_unknown_kind(client: TestClient) -> None:
    error = _error(client, {"system": "sundered_isles", "kind": "fly"})
    assert error["field"] == "kind" and "fly" in error["message"]


def test_unknown_stat(client: TestClient) -> None:
    error = _error(
        client,
        {"system": "sundered_isles", "kind": "action", "params": {"stat": "luck", "stat_value": 1}},
    )
    assert error["field"] == "params.stat"


def test_missing_param(client: TestClient) -> None:
    error = _error(
        client, {"system": "sundered_isles", "kind": "action", "params": {"stat": "edge"}}
    )
    assert error["field"] == "params.stat_value"


def test_out_of_range_param(client: TestClient) -> None:
    error = _error(
        client,
        {
            "system": "sundered_isles",
            "kind": "action",
            "params": {"stat": "edge", "stat_value": 2, "momentum": 11},
        },
    )
    assert error["field"] == "params.momentum"


def test_too_few_dice(client: TestClient) -> None:
    error = _error(
        client,
        {
            "system": "sundered_isles",
            "kind": "action",
            "params": {"stat": "edge", "stat_value": 2},
            "dice": [3, 4],
        },
    )
    assert error["field"] == "dice[2]" and "challenge" in error["message"]


def test_too_many_dice(client: TestClient) -> None:
    error = _error(
        client,
        {
            "system": "sundered_isles",
            "kind": "action",
            "params": {"stat": "edge", "stat_value": 2},
            "dice": [3, 4, 5, 6],
        },
    )
    assert error["field"] == "dice[3]"


def test_impossible_die(client: TestClient) -> None:
    error = _error(
        client,
        {
            "system": "sundered_isles",
            "kind": "action",
            "params": {"stat": "edge", "stat_value": 2},
            "dice": [7, 4, 5],
        },
    )
    assert error["field"] == "dice[0]" and "d6" in error["message"]


def test_dice_and_seed_together_rejected(client: TestClient) -> None:
    error = _error(client, {"system": "sundered_isles", "kind": "oracle", "dice": [5], "seed": 1})
    assert error["field"] == "dice"


def test_wrong_body_type(client: TestClient) -> None:
    error = _error(client, {"system": "sundered_isles", "kind": "oracle", "dice": "six"})
    assert error["field"] == "dice"


def test_unknown_table(client: TestClient) -> None:
    error = _error(
        client, {"system": "sundered_isles", "kind": "table", "params": {"table": "zzz"}}
    )
    assert error["field"] == "params.table"


def test_bad_expression(client: TestClient) -> None:
    error = _error(
        client, {"system": "sundered_isles", "kind": "expression", "params": {"expression": "2d6+"}}
    )
    assert error["field"] == "params.expression"


def test_huge_expression_is_capped(client: TestClient) -> None:
    error = _error(
        client,
        {"system": "sundered_isles", "kind": "expression", "params": {"expression": "100000d6"}},
    )
    assert "at most" in error["message"]


def test_expression_with_given_dice(client: TestClient) -> None:
    data = client.post(
        "/v1/rolls",
        json={
            "system": "sundered_isles",
            "kind": "expression",
            "params": {"expression": "2d6+1"},
            "dice": [3, 4],
        },
    ).json()
    assert data["scores"]["total"] == 8


def test_systems_listing(client: TestClient) -> None:
    systems = client.get("/v1/systems").json()
    si = next(s for s in systems if s["id"] == "sundered_isles")
    assert "edge" in si["stats"]
    assert {k["id"] for k in si["roll_kinds"]} >= {"action", "oracle", "table", "expression"}
    assert all(r["quote"] for r in si["rulings"])


def test_unknown_system_path_is_404(client: TestClient) -> None:
    response = client.get("/v1/systems/nope/tables")
    assert response.status_code == 404
    assert response.json()["error"]["field"] == "path.system_id"


def test_unknown_table_path_is_404(client: TestClient) -> None:
    response = client.get("/v1/systems/elegy/tables/nope")
    assert response.status_code == 404
    assert response.json()["error"]["field"] == "path.table_id"


def test_openapi_documents_roll_examples(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    body = spec["paths"]["/v1/rolls"]["post"]["requestBody"]["content"]["application/json"]
    assert "sundered_isles.action" in body["examples"]


def test_health(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["retrieval"] in ("not_started", "ready")  # warm start is off in tests


def test_openapi_documents_every_roll_kind_params(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    # One request schema per (system, kind): system and kind constants, params that kind's.
    requests = [schemas[r["$ref"].rsplit("/", 1)[1]] for r in schemas["RollRequest"]["oneOf"]]
    documented = {
        (r["properties"]["system"]["const"], r["properties"]["kind"]["const"]): r["properties"][
            "params"
        ]["$ref"].rsplit("/", 1)[1]
        for r in requests
    }
    from rules.registry import all_systems

    expected = {(s.id, k): f"{s.id}.{k}" for s in all_systems() for k in s.roll_kinds}
    assert documented == expected
    action = schemas["sundered_isles.action"]
    assert "stat_value" in action["properties"] and "Dice order" in action["description"]
    # Every $ref in the document resolves.
    text = str(spec)
    import re

    for ref in set(re.findall(r"#/components/schemas/([^'\"]+)", text)):
        assert ref in schemas, ref
