"""Sundered Isles over HTTP: every documented example resolves; bad input is a 422 naming the field."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from rules.registry import get_system

SYSTEM = get_system("sundered_isles")
EXAMPLES = [(k.id, ex) for k in SYSTEM.roll_kinds.values() for ex in k.examples]


def _post(client: TestClient, kind: str, params: dict[str, Any], **extra: Any) -> Any:
    return client.post(
        "/v1/rolls", json={"system": "sundered_isles", "kind": kind, "params": params, **extra}
    )


@pytest.mark.parametrize(
    ("kind", "params"), EXAMPLES, ids=[f"{k}-{i}" for i, (k, _) in enumerate(EXAMPLES)]
)
def test_every_example_resolves_and_replays(
    client: TestClient, kind: str, params: dict[str, Any]
) -> None:
    for seed in (1, 2, 3):
        first = _post(client, kind, params, seed=seed)
        assert first.status_code == 200, first.text
        data = first.json()
        assert data["kind"] == kind and data["seed"] == seed
        replay = _post(client, kind, params, dice=[d["value"] for d in data["dice"]])
        assert replay.status_code == 200, replay.text
        assert replay.json() == {**data, "seed": None}


def test_listing_has_the_new_kinds_moves_and_tables(client: TestClient) -> None:
    info = client.get("/v1/systems/sundered_isles").json()
    kinds = {k["id"] for k in info["roll_kinds"]}
    assert {"progress", "move", "endure_harm", "heal", "mark_legacy", "recommit"} <= kinds
    assert all(k["dice_order"] for k in info["roll_kinds"])
    moves = client.get("/v1/systems/sundered_isles/moves").json()
    assert len(moves) == 56
    tables = client.get("/v1/systems/sundered_isles/tables").json()
    assert len(tables) == 8


def _error(response: Any) -> dict[str, Any]:
    assert response.status_code == 422, response.text
    return response.json()["error"]


@pytest.mark.parametrize(
    ("kind", "params", "dice", "field"),
    [
        ("move", {"move": "fly"}, None, "params.move"),
        (
            "move",
            {"move": "gather_information", "stat": "iron", "stat_value": 2},
            None,
            "params.stat",
        ),
        ("move", {"move": "face_danger"}, None, "params.stat"),
        ("move", {"move": "face_danger", "stat": "edge"}, None, "params.stat_value"),
        (
            "move",
            {"move": "face_danger", "stat": "edge", "stat_value": 6},
            None,
            "params.stat_value",
        ),
        ("move", {"move": "endure_harm", "stat": "iron", "stat_value": 2}, None, "params.stats"),
        ("move", {"move": "heal", "stats": {"iron": 2, "wits": 9}}, None, "params.stats.wits"),
        ("move", {"move": "heal", "stats": {"edge": 2, "wits": 1}}, None, "params.stats"),
        ("move", {"move": "fulfill_your_vow"}, None, "params.progress_score"),
        ("move", {"move": "fulfill_your_vow", "progress_score": 11}, None, "params.progress_score"),
        (
            "move",
            {"move": "fulfill_your_vow", "progress_score": 3, "progress_ticks": 12},
            None,
            "params.progress_ticks",
        ),
        (
            "move",
            {"move": "strike", "stat": "iron", "stat_value": 2, "progress_score": 3},
            None,
            "params.progress_score",
        ),
        (
            "move",
            {"move": "face_danger", "stat": "edge", "stat_value": 2, "oops": 1},
            None,
            "params.oops",
        ),
        (
            "move",
            {
                "move": "face_danger_scene_challenge",
                "stat": "edge",
                "stat_value": 5,
                "rank": "epic",
            },
            [6, 1, 2],
            "params.rank",
        ),
        (
            "move",
            {"move": "face_danger", "stat": "edge", "stat_value": 2, "roll_tables": True},
            [1, 9, 9],
            "dice[3]",
        ),
        (
            "action",
            {"stat": "edge", "stat_value": 2, "momentum": 10, "impacts": 1},
            None,
            "params.momentum",
        ),
        ("progress", {}, None, "params.score"),
        ("progress", {"score": 3, "ticks": 4}, None, "params.ticks"),
        ("progress", {"score": 3, "momentum": -2}, None, "params.momentum"),
        ("progress", {"score": 3}, [1, 2, 3], "dice[2]"),
        ("oracle", {"odds": "maybe"}, None, "params.odds"),
        ("lose_momentum", {"momentum": 2, "amount": 0}, None, "params.amount"),
        ("endure_harm", {"health": 6, "amount": 1, "iron": 2}, None, "params.health"),
        (
            "endure_harm",
            {"health": 1, "amount": 1, "iron": 2, "at_zero": "shrug"},
            None,
            "params.at_zero",
        ),
        (
            "withstand_damage",
            {
                "integrity": 1,
                "amount": 1,
                "vehicle": "support",
                "miss_choice": "momentum",
                "at_zero": "mark_cursed",
            },
            [1, 9, 8],
            "params.at_zero",
        ),
        ("heal", {"stat": "edge", "stat_value": 2, "health": 2}, None, "params.stat"),
        ("repair", {"stat": "wits", "stat_value": 2}, None, "params.situation"),
        (
            "repair",
            {
                "stat": "wits",
                "stat_value": 2,
                "situation": "anchor",
                "supply": 1,
                "supply_spent": 2,
            },
            None,
            "params.supply_spent",
        ),
        (
            "sojourn",
            {"stat": "heart", "stat_value": 2, "automatic_strong_hit": True},
            None,
            "params.automatic_strong_hit",
        ),
        ("mark_legacy", {"ticks": 4}, None, "params.mark"),
        ("mark_legacy", {"ticks": 40, "mark": 1}, None, "params.ticks"),
        ("advance", {"experience": 2, "purchase": "new_asset"}, None, "params.experience"),
        ("recommit", {"ticks": 20, "rank": "legendary"}, None, "params.rank"),
        ("table", {"table": "vignettes"}, None, "params.table"),
    ],
)
def test_bad_input_names_the_field(
    client: TestClient, kind: str, params: dict[str, Any], dice: list[int] | None, field: str
) -> None:
    extra = {"dice": dice} if dice is not None else {"seed": 5}
    error = _error(_post(client, kind, params, **extra))
    assert error["field"] == field, error
    assert error["message"]


def test_move_with_pay_the_price_over_http(client: TestClient) -> None:
    # Face Danger miss: "PAY THE PRICE." With roll_tables the d100 follows the three dice.
    response = _post(
        client,
        "move",
        {"move": "face_danger", "stat": "edge", "stat_value": 1, "roll_tables": True},
        dice=[1, 9, 9, 1],
    )
    data = response.json()
    assert data["outcome"] == "miss" and data["match"] is True
    assert [d["role"] for d in data["dice"]] == [
        "action",
        "challenge",
        "challenge",
        "table:pay_the_price",
    ]
    assert data["details"]["tables_rolled"][0]["results"] == [
        "A trusted individual or community acts against you"
    ]
