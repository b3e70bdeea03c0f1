"""Storyteller over HTTP: bad inputs are a 422 naming the field, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

SIMPLE = {"pool": 5, "difficulty": 6, "stressful": True}
RESISTED = {"pool": 3, "difficulty": 6, "opponent_pool": 2, "opponent_difficulty": 7}


def _post(client: TestClient, kind: str, params: Any, **extra: Any):
    return client.post(
        "/v1/rolls", json={"system": "storyteller", "kind": kind, "params": params, **extra}
    )


def _error(client: TestClient, kind: str, params: Any, **extra: Any) -> dict:
    response = _post(client, kind, params, **extra)
    assert response.status_code == 422, response.text
    return response.json()["error"]


def test_seeded_roll_reproduces_and_replays(client: TestClient) -> None:
    first = _post(client, "simple", SIMPLE, seed=11)
    assert first.status_code == 200
    data = first.json()
    assert data == _post(client, "simple", SIMPLE, seed=11).json()
    replay = _post(client, "simple", SIMPLE, dice=[d["value"] for d in data["dice"]]).json()
    assert replay["scores"] == data["scores"] and replay["outcome"] == data["outcome"]


def test_given_dice_over_http(client: TestClient) -> None:
    data = _post(client, "simple", SIMPLE, dice=[10, 7, 1, 3, 2]).json()
    assert data["outcome"] == "success" and data["scores"]["net"] == 1
    assert data["details"]["degree"] == "marginal"


@pytest.mark.parametrize(
    ("kind", "params", "field"),
    [
        ("simple", {**SIMPLE, "difficulty": 11}, "params.difficulty"),
        ("simple", {**SIMPLE, "difficulty": 1}, "params.difficulty"),
        ("simple", {**SIMPLE, "difficulty": -6}, "params.difficulty"),
        ("simple", {**SIMPLE, "pool": 0}, "params.pool"),
        ("simple", {**SIMPLE, "pool": 500}, "params.pool"),
        ("simple", {**SIMPLE, "pool": -2}, "params.pool"),
        ("simple", {**SIMPLE, "pool": "five"}, "params.pool"),
        ("simple", {"difficulty": 6}, "params.pool"),
        ("simple", {**SIMPLE, "colour": "red"}, "params.colour"),
        ("extended", {"pool": 3, "difficulty": 6, "goal": 0}, "params.goal"),
        (
            "extended",
            {"pool": 3, "difficulty": 6, "goal": 5, "accumulated": -1},
            "params.accumulated",
        ),
        (
            "extended",
            {"pool": 3, "difficulty": 6, "goal": 5, "accumulated": 5},
            "params.accumulated",
        ),
        ("resisted", {**RESISTED, "opponent_pool": 0}, "params.opponent_pool"),
        ("resisted", {**RESISTED, "opponent_difficulty": 11}, "params.opponent_difficulty"),
        (
            "extended_resisted",
            {**RESISTED, "goal": 5, "opponent_accumulated": -3},
            "params.opponent_accumulated",
        ),
        ("teamwork", {"difficulty": 6, "members": [{"pool": 3}]}, "params.members"),
        (
            "teamwork",
            {"difficulty": 6, "members": [{"pool": 3}, {"pool": 0}]},
            "params.members.1.pool",
        ),
        ("multiple", {"actions": [{"pool": 4, "difficulty": 6}]}, "params.actions"),
        (
            "multiple",
            {
                "actions": [
                    {"pool": 4, "difficulty": 6, "allocated": 1},
                    {"pool": 5, "difficulty": 6, "allocated": 1},
                ]
            },
            "params.actions",
        ),
        (
            "multiple",
            {
                "actions": [
                    {"pool": 4, "difficulty": 6, "allocated": 0},
                    {"pool": 5, "difficulty": 6},
                ]
            },
            "params.actions.0.allocated",
        ),
        (
            "multiple",
            {
                "actions": [
                    {"pool": 4, "difficulty": 6, "willpower": True},
                    {"pool": 5, "difficulty": 6, "willpower": True},
                ]
            },
            "params.actions.1.willpower",
        ),
    ],
)
def test_bad_params_are_422_naming_the_field(
    client: TestClient, kind: str, params: dict, field: str
) -> None:
    error = _error(client, kind, params, seed=1)
    assert error["field"] == field, error
    assert error["message"]


def test_too_few_dice(client: TestClient) -> None:
    error = _error(client, "resisted", RESISTED, dice=[7, 7, 7, 7])
    assert error["field"] == "dice[4]" and "opponent" in error["message"]


def test_too_many_dice(client: TestClient) -> None:
    error = _error(client, "simple", SIMPLE, dice=[7, 7, 7, 7, 7, 7])
    assert error["field"] == "dice[5]"


def test_impossible_die(client: TestClient) -> None:
    error = _error(client, "simple", SIMPLE, dice=[7, 11, 7, 7, 7])
    assert error["field"] == "dice[1]" and "d10" in error["message"]
    error = _error(client, "simple", SIMPLE, dice=[0, 7, 7, 7, 7])
    assert error["field"] == "dice[0]"


def test_automatic_success_takes_no_dice(client: TestClient) -> None:
    # "If the number of dice in a given dice pool is equal to or greater than the difficulty,
    # the character succeeds automatically."
    ok = _post(client, "simple", {"pool": 6, "difficulty": 6}, dice=[])
    assert ok.status_code == 200 and ok.json()["dice"] == []
    error = _error(client, "simple", {"pool": 6, "difficulty": 6}, dice=[8])
    assert error["field"] == "dice[0]"


def test_systems_listing_serves_the_rulings(client: TestClient) -> None:
    systems = client.get("/v1/systems").json()
    st = next(s for s in systems if s["id"] == "storyteller")
    kinds = {k["id"] for k in st["roll_kinds"]}
    assert kinds >= {"simple", "extended", "resisted", "extended_resisted", "teamwork", "multiple"}
    assert {r["id"] for r in st["rulings"]} >= {
        "botch_needs_zero_successes",
        "resisted_tie_status_quo",
    }
    tables = client.get("/v1/systems/storyteller/tables")
    assert tables.status_code == 200 and "degree_of_success" in tables.text
