"""roll_under over HTTP: resolutions replay, and every bad input is a 422 naming the field."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient


def _post(client: TestClient, kind: str, params: dict[str, Any], **extra: Any) -> Any:
    return client.post(
        "/v1/rolls", json={"system": "roll_under", "kind": kind, "params": params, **extra}
    )


def _error(client: TestClient, kind: str, params: dict[str, Any], **extra: Any) -> dict:
    response = _post(client, kind, params, **extra)
    assert response.status_code == 422, response.text
    return response.json()["error"]


def test_save_with_advantage_marks_the_discarded_die(client: TestClient) -> None:
    params = {"ability": "finesse", "score": 10, "advantage": True}
    data = _post(client, "save", params, dice=[15, 4]).json()
    assert data["outcome"] == "success"
    assert [(d["value"], d["kept"]) for d in data["dice"]] == [(15, False), (4, True)]


def test_seed_reproduces(client: TestClient) -> None:
    params = {"weapons": [{"die": 8}, {"die": 6}], "targets": [{"hp": 3, "brawn": 9}]}
    first = _post(client, "attack", params, seed=11).json()
    assert first == _post(client, "attack", params, seed=11).json()
    replay = _post(client, "attack", params, dice=[d["value"] for d in first["dice"]]).json()
    assert replay["outcome"] == first["outcome"] and replay["dice"] == first["dice"]


@pytest.mark.parametrize("score", [-3, 0, 21])
def test_score_out_of_range(client: TestClient, score: int) -> None:
    error = _error(client, "save", {"ability": "brawn", "score": score}, dice=[5])
    assert error["field"] == "params.score"


def test_unknown_ability(client: TestClient) -> None:
    error = _error(client, "save", {"ability": "luck", "score": 10}, dice=[5])
    assert error["field"] == "params.ability"


def test_advantage_with_one_die(client: TestClient) -> None:
    error = _error(client, "save", {"ability": "brawn", "score": 10, "advantage": True}, dice=[5])
    assert error["field"] == "dice[1]"
    assert "too few dice" in error["message"] and "advantage" in error["message"]


def test_cancelled_advantage_rejects_a_second_die(client: TestClient) -> None:
    params = {"ability": "brawn", "score": 10, "advantage": True, "disadvantage": True}
    error = _error(client, "save", params, dice=[5, 6])
    assert error["field"] == "dice[1]" and "too many dice" in error["message"]


def test_impossible_d20(client: TestClient) -> None:
    error = _error(client, "save", {"ability": "brawn", "score": 10}, dice=[21])
    assert error["field"] == "dice[0]" and "d20" in error["message"]


def test_impossible_enhanced_d12(client: TestClient) -> None:
    error = _error(client, "attack", {"weapons": [{"die": 6, "enhanced": True}]}, dice=[3, 13])
    assert error["field"] == "dice[1]" and "d12" in error["message"]


@pytest.mark.parametrize("die", [3, 20, 100])
def test_damage_die_not_allowed(client: TestClient, die: int) -> None:
    error = _error(client, "attack", {"weapons": [{"die": die}]}, dice=[1])
    assert error["field"] == "params.weapons.0.die"


def test_no_weapons(client: TestClient) -> None:
    error = _error(client, "attack", {"weapons": []}, dice=[])
    assert error["field"] == "params.weapons"


def test_several_targets_without_blast(client: TestClient) -> None:
    params = {"weapons": [{"die": 6}], "targets": [{"name": "a"}, {"name": "b"}]}
    error = _error(client, "attack", params, dice=[1, 2])
    assert error["field"] == "params.targets"


def test_duplicate_target_names(client: TestClient) -> None:
    params = {"weapons": [{"die": 6}], "targets": [{"name": "a"}, {"name": "a"}], "blast": True}
    error = _error(client, "attack", params, dice=[1, 2])
    assert error["field"] == "params.targets.1.name"


def test_hp_without_brawn(client: TestClient) -> None:
    params = {"weapons": [{"die": 6}], "targets": [{"hp": 3}]}
    error = _error(client, "attack", params, dice=[1])
    assert error["field"] == "params.targets.0.brawn"


def test_negative_armour(client: TestClient) -> None:
    params = {"weapons": [{"die": 6}], "targets": [{"armor": -1}]}
    error = _error(client, "attack", params, dice=[1])
    assert error["field"] == "params.targets.0.armor"


def test_harm_on_a_dead_character(client: TestClient) -> None:
    error = _error(client, "harm", {"damage": 3, "hp": 0, "brawn": 0}, dice=[])
    assert error["field"] == "params.brawn"


def test_ability_damage_unknown_ability(client: TestClient) -> None:
    error = _error(client, "ability_damage", {"ability": "wits", "score": 5, "damage": 1})
    assert error["field"] == "params.ability"


def test_opposed_missing_opponent(client: TestClient) -> None:
    params = {"actor": {"name": "a", "ability": "brawn", "score": 10}}
    error = _error(client, "opposed", params, dice=[1, 2])
    assert error["field"] == "params.opponent"


def test_aid_needs_two_savers(client: TestClient) -> None:
    params = {"savers": [{"name": "a", "ability": "brawn", "score": 10}]}
    error = _error(client, "aid", params, dice=[1])
    assert error["field"] == "params.savers"


def test_initiative_reserved_name(client: TestClient) -> None:
    params = {"characters": [{"name": "opponents", "finesse": 10}]}
    error = _error(client, "initiative", params, dice=[1])
    assert error["field"] == "params.characters.0.name"


def test_deed_weapon_die_not_allowed(client: TestClient) -> None:
    params = {"ability": "brawn", "score": 10, "weapon": {"die": 5}}
    error = _error(client, "deed", params, dice=[1, 1])
    assert error["field"] == "params.weapon.die"


def test_extra_parameter(client: TestClient) -> None:
    error = _error(client, "save", {"ability": "brawn", "score": 10, "bonus": 2}, dice=[5])
    assert error["field"] == "params.bonus"


def test_no_tables(client: TestClient) -> None:
    # The text's Scars table is in another file: this system has no table roll kind.
    error = _error(client, "table", {"table": "scars"})
    assert error["field"] == "kind" and "'table'" in error["message"]


def test_unknown_kind(client: TestClient) -> None:
    error = _error(client, "fly", {})
    assert error["field"] == "kind"


def test_system_listing(client: TestClient) -> None:
    systems = client.get("/v1/systems").json()
    ru = next(s for s in systems if s["id"] == "roll_under")
    assert ru["stats"] == ["brawn", "finesse", "intellect"]
    kinds = {k["id"] for k in ru["roll_kinds"]}
    assert kinds >= {"save", "opposed", "aid", "interfere", "initiative", "deed", "attack", "harm"}
    assert all(r["quote"] for r in ru["rulings"])
