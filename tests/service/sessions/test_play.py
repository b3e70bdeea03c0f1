"""Playing a session over HTTP: proposed and named turns, choices, tracks and clocks, undo,
renarrate, export and replay, for every system with a character sheet."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.service.sessions.conftest import create

SHEETS: dict[str, dict[str, Any]] = {
    "go_forth": {"name": "Ash", "attributes": {"might": 3, "agility": 2}},
    "storyteller": {
        "name": "Mara",
        "traits": {"dexterity": 3, "athletics": 2, "wits": 2},
        "willpower": 3,
    },
}


def turn(client: TestClient, sid: str, **body: Any) -> Any:
    response = client.post(f"/v1/sessions/{sid}/turns", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def state(client: TestClient, sid: str) -> Any:
    return client.get(f"/v1/sessions/{sid}").json()["state"]


@pytest.mark.parametrize("system", sorted(SHEETS))
def test_a_proposal_rolls_nothing_until_accepted(client: TestClient, system: str) -> None:
    sid = create(client, system, SHEETS[system])["id"]
    before = state(client, sid)
    proposed = turn(client, sid, words="I leap across the rooftops")
    assert proposed["status"] == "proposed" and proposed["resolution"] is None
    assert proposed["proposal"]["kind"] and proposed["proposal"]["why"]
    assert state(client, sid) == before
    rolled = client.post(f"/v1/sessions/{sid}/turns/1/accept", json={"seed": 3}).json()
    assert rolled["status"] in ("resolved", "awaiting_choice")
    assert rolled["resolution"]["dice"], "every die is in the journal"


def test_go_forth_the_gm_parameters_are_proposed_and_shown(client: TestClient) -> None:
    sid = create(client, "go_forth", SHEETS["go_forth"])["id"]
    proposed = turn(client, sid, words="I smash the door with all my strength")
    # go_forth.txt: "The GM tells you which attribute applies to the action you're
    # attempting." and "Example: Standard Encounter (TN 12)".
    assert proposed["proposal"]["params"]["attribute"] == "might"
    assert proposed["proposal"]["params"]["tn"] == 12
    rolled = client.post(f"/v1/sessions/{sid}/turns/1/accept", json={"dice": [10]}).json()
    resolution = rolled["resolution"]
    # The +Roll comes from the sheet ("Add your Attribute Modifier to the d20"), not the request.
    assert resolution["params"]["roll_bonus"] == 3


def test_storyteller_the_pool_comes_from_the_named_traits(client: TestClient) -> None:
    sid = create(client, "storyteller", SHEETS["storyteller"])["id"]
    rolled = turn(
        client, sid, words="I vault the wall", kind="simple",
        params={"traits": ["dexterity", "athletics"], "difficulty": 6}, dice=[8, 7, 1, 3, 9],
    )  # fmt: skip
    # storyteller.txt: "Every die a player rolls that comes up equal to or greater than the
    # difficulty, is a success." 8, 7 and 9 succeed; the 1 cancels one: 2 net.
    assert rolled["resolution"]["params"]["pool"] == 5
    assert rolled["resolution"]["outcome"] == "success"


def test_values_the_sheet_holds_are_refused_in_the_request(client: TestClient) -> None:
    sid = create(client, "go_forth", SHEETS["go_forth"])["id"]
    r = client.post(
        f"/v1/sessions/{sid}/turns",
        json={"words": "x", "kind": "check", "params": {"attribute": "might", "tn": 12,
                                                        "roll_bonus": 9}},
    )  # fmt: skip
    assert r.status_code == 422 and r.json()["error"]["field"] == "params.roll_bonus"


def test_tracks_clocks_undo_and_replay(client: TestClient) -> None:
    sid = create(client, "storyteller", SHEETS["storyteller"])["id"]
    opened = client.post(
        f"/v1/sessions/{sid}/tracks",
        json={"type": "extended_action", "name": "Break in", "target": 5},
    )
    assert opened.status_code == 201, opened.text
    turn(
        client, sid, words="I pry at the door", track="t1",
        params={"traits": ["dexterity"], "difficulty": 6, "goal": 5}, dice=[8, 9, 2],
    )  # fmt: skip
    assert client.post(f"/v1/sessions/{sid}/clocks", json={"name": "Watch", "segments": 4})
    client.post(f"/v1/sessions/{sid}/clocks/c1/advance", json={"by": 2})
    assert state(client, sid)["clocks"]["c1"]["filled"] == 2
    undone = client.post(f"/v1/sessions/{sid}/undo").json()
    assert undone["status"] == "undone" and undone["number"] == 4
    assert state(client, sid)["clocks"]["c1"]["filled"] == 0
    report = client.post(f"/v1/sessions/{sid}/replay").json()
    assert report == {"ok": True, "turns": 3, "mismatches": []}


def test_renarrate_keeps_dice_and_state(client: TestClient) -> None:
    sid = create(client, "go_forth", SHEETS["go_forth"])["id"]
    first = turn(
        client, sid, words="I climb", kind="check", params={"attribute": "agility", "tn": 12},
        dice=[15],
    )  # fmt: skip
    again = client.post(f"/v1/sessions/{sid}/turns/1/renarrate").json()
    assert again["resolution"] == first["resolution"]
    assert again["changes"] == first["changes"]
    assert again["narration"]


def test_an_ended_session_is_read_only(client: TestClient) -> None:
    sid = create(client, "go_forth", SHEETS["go_forth"])["id"]
    client.post(f"/v1/sessions/{sid}/end")
    r = client.post(f"/v1/sessions/{sid}/turns", json={"words": "I go on"})
    assert r.status_code == 409 and r.json()["error"]["field"] == "path.session_id"


def test_a_turn_on_an_unknown_session_is_404(client: TestClient) -> None:
    r = client.post("/v1/sessions/nope/turns", json={"words": "I go on"})
    assert r.status_code == 404 and r.json()["error"]["field"] == "path.session_id"


def test_export_is_markdown_with_every_die(client: TestClient) -> None:
    sid = create(client, "go_forth", SHEETS["go_forth"])["id"]
    turn(
        client, sid, words="I climb", kind="check", params={"attribute": "agility", "tn": 12},
        dice=[15],
    )  # fmt: skip
    text = client.get(f"/v1/sessions/{sid}/export").text
    assert text.startswith("# ") and "> I climb" in text and "15" in text
    # Iron Vault has no moves for Go Forth: its dice are Iron Vault's own dice-expr node.
    r = client.get(f"/v1/sessions/{sid}/export", params={"format": "iron_vault"})
    assert r.status_code == 200 and 'dice-expr expr="1d20" result=15 {' in r.text


def test_roll_under_a_shield_is_the_players_choice(client: TestClient) -> None:
    sheet = {"name": "Bram", "abilities": {"brawn": 12, "finesse": 9, "intellect": 8}, "hp": 6,
             "armor": 1, "shield": True}  # fmt: skip
    sid = create(client, "roll_under", sheet)["id"]
    proposed = turn(client, sid, words="I force the rusted gate open")
    # roll_under.md: "The GM rules a Finesse Save dictates the warlord's decision": the ability
    # is the GM's call, proposed from the words (forcing: Brawn) and shown to the player.
    assert proposed["proposal"]["params"]["ability"] == "brawn"
    hit = turn(client, sid, words="The ogre swings at me", kind="attack",
               params={"weapons": [{"die": 10}], "targets": [{}]}, dice=[9])  # fmt: skip
    assert hit["status"] == "awaiting_choice" and hit["choices"][0]["param"] == "sunder"
    chosen = client.post(f"/v1/sessions/{sid}/turns/{hit['number']}/choose",
                         json={"choices": {"sunder": True}}).json()  # fmt: skip
    assert chosen["status"] == "resolved"
    sheet_after = state(client, sid)["sheet"]
    assert sheet_after["shield"] is False and sheet_after["hp"] == 6
    assert client.post(f"/v1/sessions/{sid}/replay").json()["ok"] is True


def test_storyteller_the_standard_difficulty_is_proposed(client: TestClient) -> None:
    sid = create(client, "storyteller", SHEETS["storyteller"])["id"]
    proposed = turn(client, sid, words="I vault the wall with my athletics")
    # storyteller.txt, the difficulty table: "6 | Standard (firing a gun)"; the traits the
    # words name make the pool.
    assert proposed["proposal"]["params"]["difficulty"] == 6
    assert proposed["proposal"]["params"]["traits"] == ["athletics"]


def test_an_extended_action_completes_at_its_goal(client: TestClient) -> None:
    sid = create(client, "storyteller", SHEETS["storyteller"])["id"]
    client.post(
        f"/v1/sessions/{sid}/tracks",
        json={"type": "extended_action", "name": "Break in", "target": 2},
    )
    # storyteller.txt: "Task is completed when a given number of successes are obtained,
    # which may require more than one roll". Dexterity 3: 8 and 9 succeed at difficulty 6.
    turn(
        client, sid, words="I pry at the door", track="t1",
        params={"traits": ["dexterity"], "difficulty": 6}, dice=[8, 9, 2],
    )  # fmt: skip
    track = state(client, sid)["tracks"]["t1"]
    assert track["units"] == 2 and track["status"] == "completed"


def test_go_forth_effort_accumulates_on_a_heart(client: TestClient) -> None:
    sid = create(client, "go_forth", SHEETS["go_forth"])["id"]
    client.post(f"/v1/sessions/{sid}/tracks", json={"type": "heart", "name": "Ogre"})
    # go_forth.txt: "Accumulate enough Effort against a Heart (10 points) to overcome it."
    # d20 15 + 3 hits TN 12; the effort die 6 + might's +Effort 3 = 9 Effort.
    hit = turn(client, sid, words="I hew at the ogre", track="t1",
               params={"attribute": "might", "tn": 12}, dice=[15, 6])  # fmt: skip
    assert hit["resolution"]["outcome"] == "hit"
    track = state(client, sid)["tracks"]["t1"]
    assert (track["units"], track["target"], track["status"]) == (9, 10, "open")


def test_an_accepted_proposal_of_another_kind_keeps_none_of_its_parameters(
    client: TestClient,
) -> None:
    # roll_under.md: "Attacks *always* hit. The attacker rolls their weapon's damage die": a
    # deed proposed for a blow (its ability and target armour), accepted as an attack, is rolled
    # with the attack's parameters only (played at stop 37: refused for the deed's leftovers)
    sheet = {"name": "Ash", "abilities": {"brawn": 12, "finesse": 13, "intellect": 10}, "hp": 10}
    sid = create(client, "roll_under", sheet)["id"]
    proposed = turn(client, sid, words="I vault the bar and strike at the smuggler captain")
    assert proposed["proposal"]["kind"] != "attack"
    body = {"kind": "attack", "params": {"weapons": [{"die": 6}]}, "dice": [5]}
    rolled = client.post(f"/v1/sessions/{sid}/turns/1/accept", json=body)
    assert rolled.status_code == 200, rolled.text
    assert rolled.json()["resolution"]["kind"] == "attack"
    assert rolled.json()["resolution"]["scores"] == {"damage": 5}
