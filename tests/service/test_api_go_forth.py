"""Go Forth over HTTP: rolls resolve, and bad inputs are 422s naming the field (never a 500)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient


def _post(client: TestClient, kind: str, params: dict[str, Any], **extra: Any) -> Any:
    return client.post(
        "/v1/rolls", json={"system": "go_forth", "kind": kind, "params": params, **extra}
    )


def test_effort_roll_with_given_dice(client: TestClient) -> None:
    # "If you rolled a 5 you would add +3 for total of 8"
    response = _post(
        client,
        "effort",
        {"roll_bonus": 3, "effort_bonus": 3, "effort_die": 8, "tn": 12},
        dice=[12, 5],
    )
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["outcome"] == "hit" and data["scores"]["effort"] == 8
    assert [d["value"] for d in data["dice"]] == [12, 5]


def test_momentum_state_round_trips(client: TestClient) -> None:
    pool = {"stamina": 3}
    data = _post(
        client, "momentum", {"action": "prepare", "direction": "stamina_to_power", "pool": pool}
    ).json()
    after = data["details"]["pool_after"]
    assert after["power"] == 1 and after["stamina"] == 2
    # the returned state is accepted as the next call's input
    data = _post(
        client,
        "momentum",
        {"action": "spend", "area": "power", "use": "roll", "pool": after},
        seed=5,
    ).json()
    assert data["details"]["pool_after"]["fatigue"] == 1


def test_severity_table_is_listed_and_rollable(client: TestClient) -> None:
    tables = {t["id"] for t in client.get("/v1/systems/go_forth/tables").json()}
    assert tables == {"severity", "wound_body", "wound_mind", "wound_soul"}
    data = _post(client, "table", {"table": "severity"}, dice=[3]).json()
    assert data["text"].startswith("Vicious Wound")


def test_rulings_are_served(client: TestClient) -> None:
    system = client.get("/v1/systems/go_forth").json()
    ids = {r["id"] for r in system["rulings"]}
    assert {"meet_tn_succeeds", "severity_minus_six", "contest_tie_status_quo"} <= ids
    assert all(r["quote"] for r in system["rulings"])


BAD = [
    # unknown condition names
    ("conditions", {"add": ["empowered", "invisible"]}, None, "params.add.1"),
    ("conditions", {"current": ["burning"]}, None, "params.current.0"),
    # impossible attribute splits
    (
        "attributes",
        {"attributes": {"might": {"score": 3, "roll": 2, "effort": 5}}},
        None,
        "params.attributes.might.effort",
    ),
    (
        "attributes",
        {"attributes": {"might": {"score": 5, "roll": 6}}},
        None,
        "params.attributes.might.roll",
    ),
    (
        "attributes",
        {"attributes": {"guile": {"score": -1, "roll": 1}}},
        None,
        "params.attributes.guile.roll",
    ),
    (
        "attributes",
        {"attributes": {"finesse": {"score": 2, "roll": 5}}},
        None,
        "params.attributes.finesse.effort",
    ),
    ("attributes", {"attributes": {}}, None, "params.attributes"),
    # out-of-range and unknown values
    ("check", {"roll_bonus": 99, "tn": 12}, None, "params.roll_bonus"),
    ("check", {"tn": 0}, None, "params.tn"),
    ("check", {"difficulty": "legendary"}, None, "params.difficulty"),
    ("check", {"tn": 12, "easy": -1}, None, "params.easy"),
    ("check", {"tn": 12, "boosts": ["fatigue"]}, None, "params.boosts.0"),
    ("check", {"roll_bonus": 1}, None, "params.tn"),
    ("effort", {"tn": 12, "effort_die": 7}, None, "params.effort_die"),
    ("effort", {"tn": 12, "heart_effort": 10, "hearts": 2}, None, "params.heart_effort"),
    ("effort", {"tn": 12, "effort_boosts": 2, "pool": {"power": 1}}, None, "params.effort_boosts"),
    ("contest", {"opponent_bonus": -9}, None, "params.opponent_bonus"),
    ("wound", {"defense": "spirit", "attributes": {}}, None, "params.defense"),
    ("wound", {"defense": "soul", "attributes": {"presence": 1}}, None, "params.attributes.vigor"),
    (
        "wound",
        {"defense": "body", "attributes": {"might": 1, "agility": 1}, "existing_wounds": -1},
        None,
        "params.existing_wounds",
    ),
    ("momentum", {"action": "dance"}, None, "params.action"),
    ("momentum", {"action": "rally", "pool": {"stamina": -1}}, None, "params.pool.stamina"),
    ("momentum", {"action": "rally", "pool": {"locked": 2}}, None, "params.pool.locked"),
    ("momentum", {"action": "rally", "pool": {"stamina": 3}}, None, "params.action"),
    ("momentum", {"action": "spend", "area": "stamina", "use": "effort"}, None, "params.use"),
    ("momentum", {"action": "lock", "area": "locked"}, None, "params.area"),
    ("momentum", {"action": "build", "count": 2, "pool": {"power": 1}}, None, "params.count"),
    ("momentum", {"action": "prepare", "direction": "power_to_stamina"}, None, "params.direction"),
    # refused before any die is read, so given dice cannot hide the real problem
    ("effort", {"tn": 12, "effort_boosts": 1, "pool": {"power": 0}}, [], "params.effort_boosts"),
    ("effort", {"tn": 12, "shield": 1, "breaking_point": 5}, [], "params.hearts"),
    ("wound", {"defense": "body", "attributes": {"agility": 1}}, [], "params.attributes.might"),
    # wrong dice
    ("check", {"tn": 12}, [21], "dice[0]"),
    ("effort", {"tn": 12, "using": "bare_hands"}, [10, 5], "dice[1]"),
    ("effort", {"tn": 12}, [10], "dice[1]"),
    ("encounter_tn", {"difficulty": "doom"}, [12, 13], "dice[1]"),
    ("wound", {"defense": "mind", "attributes": {"instinct": 0, "reason": 0}}, [3, 9], "dice[1]"),
    ("wound", {"defense": "mind", "attributes": {"instinct": 0, "reason": 0}}, [3, 2], "dice[2]"),
    ("contest", {}, [10, 10, 10], "dice[2]"),
]


@pytest.mark.parametrize(("kind", "params", "dice", "field"), BAD)
def test_bad_input_is_a_422_naming_the_field(
    client: TestClient, kind: str, params: dict, dice: list[int] | None, field: str
) -> None:
    extra = {"dice": dice} if dice is not None else {"seed": 1}
    response = _post(client, kind, params, **extra)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["field"] == field, error
    assert error["message"]
