"""Elegy over HTTP: replay, and bad inputs are 422/404 naming the field (never a 500)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient


def _post(client: TestClient, body: dict) -> dict:
    response = client.post("/v1/rolls", json={"system": "elegy", **body})
    assert response.status_code == 200, response.text
    return response.json()


def _error(client: TestClient, body: dict, status: int = 422) -> dict:
    response = client.post("/v1/rolls", json={"system": "elegy", **body})
    assert response.status_code == status, response.text
    return response.json()["error"]


def test_action_with_negative_focus_replays(client: TestClient) -> None:
    body = {"kind": "action", "params": {"stat": "heart", "stat_value": 2, "focus": -3}}
    data = _post(client, {**body, "dice": [8, 1, 1]})
    assert [d["value"] for d in data["dice"]] == [8, 1, 1]
    assert [d["rerolled"] for d in data["dice"]] == [False, True, False]
    assert data["outcome"] == "weak_hit" and "negative_focus_reroll" in data["rulings"]


def test_seed_reproduces(client: TestClient) -> None:
    body = {"kind": "move", "params": {"move": "face_danger", "stat": "force", "stat_value": 2}}
    assert _post(client, {**body, "seed": 11}) == _post(client, {**body, "seed": 11})


def test_rulings_are_served(client: TestClient) -> None:
    response = client.get("/v1/systems")
    assert response.status_code == 200
    assert "negative_focus_reroll" in response.text


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "action", "params": {"stat": "iron", "stat_value": 1}}, "params.stat"),
        (
            {"kind": "action", "params": {"stat": "heart", "stat_value": 1, "focus": -7}},
            "params.focus",
        ),
        (
            {"kind": "action", "params": {"stat": "heart", "stat_value": 1, "momentum": 2}},
            "params.momentum",
        ),
        (
            {
                "kind": "action",
                "params": {"stat": "heart", "stat_value": 1, "impacts": ["wounded", "wounded"]},
            },
            "params.impacts",
        ),
        (
            {"kind": "action", "params": {"stat": "heart", "stat_value": 1, "impacts": ["bored"]}},
            "params.impacts.0",
        ),
        (
            {"kind": "action", "params": {"stat": "heart", "stat_value": 1}, "dice": [11, 2]},
            "dice[0]",
        ),
        (
            {
                "kind": "action",
                "params": {"stat": "heart", "stat_value": 1, "focus": -4},
                "dice": [2, 9],
            },
            "dice[2]",
        ),
        (
            {"kind": "action", "params": {"stat": "heart", "stat_value": 1}, "dice": [2, 9, 3]},
            "dice[2]",
        ),
        (
            {"kind": "conclusion", "params": {"track": "quest", "rank": "epic", "ticks": 4}},
            "params.track",
        ),
        (
            {"kind": "conclusion", "params": {"track": "elegy", "rank": "epic", "ticks": 41}},
            "params.ticks",
        ),
        ({"kind": "oracle", "params": {"odds": "maybe"}}, "params.odds"),
        ({"kind": "move", "params": {"move": "fly"}}, "params.move"),
        ({"kind": "move", "params": {"move": "compel", "stat": "intellect"}}, "params.stat"),
        ({"kind": "move", "params": {"move": "face_danger"}}, "params.stat"),
        ({"kind": "move", "params": {"move": "form_a_bond", "ticks": 8}}, "params.rank"),
        ({"kind": "harm", "params": {"health": 3}}, "params.amount"),
        (
            {"kind": "harm", "params": {"health": 3, "amount": 1, "authentic_faith": True}},
            "params.authentic_faith",
        ),
        ({"kind": "foe_harm", "params": {"rank": "epic", "weapon": "stake"}}, "params.weapon"),
        ({"kind": "hunger", "params": {"blood": 6}}, "params.blood"),
        (
            {"kind": "advance", "params": {"purchase": "upgrade", "experience": 1}},
            "params.experience",
        ),
        ({"kind": "table", "params": {"table": "nope"}}, "params.table"),
    ],
)
def test_bad_input_names_the_field(client: TestClient, body: dict, field: str) -> None:
    assert _error(client, body)["field"] == field


def test_unknown_kind_names_kind(client: TestClient) -> None:
    error = _error(client, {"kind": "bite"})
    assert error["field"] == "kind" and "bite" in error["message"]
