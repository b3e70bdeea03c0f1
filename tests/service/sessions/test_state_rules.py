"""Sessions keep every state rule the texts give (issue 19): Go Forth's Hearts that fall, rests
and healing. Played through the session API on both stores."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.service.sessions.conftest import create
from tests.service.sessions.test_play import SHEETS, state, turn


def _heart(client: TestClient, **track: Any) -> str:
    sid: str = create(client, "go_forth", SHEETS["go_forth"])["id"]
    body = {"type": "heart", "name": "Ogre", **track}
    opened = client.post(f"/v1/sessions/{sid}/tracks", json=body)
    assert opened.status_code == 201, opened.text
    return sid


def _hew(client: TestClient, sid: str, dice: list[int]) -> Any:
    # might: +3 Roll / +3 Effort; TN 12
    return turn(client, sid, words="I hew at the ogre", track="t1",
                params={"attribute": "might", "tn": 12}, dice=dice)  # fmt: skip


def test_a_heart_overcome_completes_its_track(client: TestClient) -> None:
    # go_forth.txt: "Accumulate enough Effort against a Heart (10 points) to overcome it." and
    # "Excess Effort beyond 10 is wasted". 9 Effort, then 6 + 3 = 9 more: 18, the Heart falls;
    # the track shows it overcome (full, completed), not reset to 0 and open.
    sid = _heart(client)
    _hew(client, sid, [15, 6])
    _hew(client, sid, [15, 6])
    track = state(client, sid)["tracks"]["t1"]
    assert (track["units"], track["status"], track["hearts"]) == (10, "completed", 0)
    assert track["overcome"] == 1


def test_a_foe_with_three_hearts_loses_one_and_the_count_restarts(client: TestClient) -> None:
    # go_forth.txt: "3 Hearts = 30 Effort" and "You target only 1 Heart at a time": the session
    # keeps the Hearts left (not passed on every turn); the count on the next Heart restarts.
    sid = _heart(client, hearts=3)
    _hew(client, sid, [15, 6])  # 9
    hit = _hew(client, sid, [15, 6])  # 18: one Heart falls, the 8 beyond 10 are wasted
    assert hit["resolution"]["params"]["hearts"] == 3  # from the track
    track = state(client, sid)["tracks"]["t1"]
    assert (track["hearts"], track["overcome"], track["units"], track["status"]) == (
        2,
        1,
        0,
        "open",
    )
    again = _hew(client, sid, [15, 6])
    assert again["resolution"]["params"]["hearts"] == 2
    assert state(client, sid)["tracks"]["t1"]["units"] == 9


def test_hearts_is_for_a_go_forth_heart_track(client: TestClient) -> None:
    sid = create(client, "storyteller", SHEETS["storyteller"])["id"]
    r = client.post(
        f"/v1/sessions/{sid}/tracks",
        json={"type": "extended_action", "name": "Door", "target": 3, "hearts": 2},
    )
    assert r.status_code == 422 and r.json()["error"]["field"] == "hearts"


RU_SHEET = {"name": "Ash", "abilities": {"brawn": 12, "finesse": 14, "intellect": 9}, "hp": 6}


def test_a_roll_under_rest_restores_all_lost_hp_and_undo_takes_it_back(client: TestClient) -> None:
    # roll_under.md: "Resting for a few moments after an encounter restores all lost HP."
    sid = create(client, "roll_under", RU_SHEET)["id"]
    hurt = turn(client, sid, words="The orc hits me", kind="harm", params={"damage": 4})
    assert state(client, sid)["sheet"]["hp"] == 2, hurt
    rested = client.post(f"/v1/sessions/{sid}/rest", json={"kind": "short"})
    assert rested.status_code == 200, rested.text
    assert rested.json()["kind"] == "rest" and state(client, sid)["sheet"]["hp"] == 6
    assert client.post(f"/v1/sessions/{sid}/undo").status_code == 200
    assert state(client, sid)["sheet"]["hp"] == 2
    client.post(f"/v1/sessions/{sid}/rest", json={"kind": "short"})
    assert client.post(f"/v1/sessions/{sid}/replay").json()["ok"] is True


def test_a_rest_the_text_does_not_give_is_a_422_naming_kind(client: TestClient) -> None:
    sid = create(client, "roll_under", RU_SHEET)["id"]
    r = client.post(f"/v1/sessions/{sid}/rest", json={"kind": "nap"})
    assert r.status_code == 422 and r.json()["error"]["field"] == "kind"
    assert "short" in r.json()["error"]["message"]


def test_a_go_forth_long_rest_removes_a_shallow_wound(client: TestClient) -> None:
    # go_forth.txt: "Long Rest / 24 hours of uninterrupted downtime. / Remove a Shallow Wound"
    wounds = [{"severity": "shallow", "defense": "body", "roll": 3},
              {"severity": "vicious", "defense": "mind", "roll": 2, "sessions": 1}]  # fmt: skip
    sid = create(client, "go_forth", {**SHEETS["go_forth"], "wounds": wounds})["id"]
    client.post(f"/v1/sessions/{sid}/rest", json={"kind": "long"})
    assert [w["severity"] for w in state(client, sid)["sheet"]["wounds"]] == ["vicious"]
    # "Vicious Wound (d4 sessions)": the session's end counts it down
    client.post(f"/v1/sessions/{sid}/rest", json={"kind": "session_end"})
    assert state(client, sid)["sheet"]["wounds"] == []


def test_a_sheet_edited_by_hand_is_a_turn_undo_and_replay_keep(client: TestClient) -> None:
    # Issue 14: as Iron Vault allows, a meter taken or suffered, an impact, experience.
    from tests.service.sessions.test_play_ironsworn import KELL

    sid = create(client, "sundered_isles", KELL)["id"]
    body = {"words": "The fall hurt", "edits": [
        {"field": "health", "delta": -2}, {"field": "impacts", "add": "wounded"},
        {"field": "experience", "delta": 3}, {"field": "spirit", "delta": 4},
    ]}  # fmt: skip
    edited = client.post(f"/v1/sessions/{sid}/sheet", json=body)
    assert edited.status_code == 200, edited.text
    assert edited.json()["kind"] == "sheet"
    sheet = state(client, sid)["sheet"]
    # a meter stops at its top (spirit 5 + 4 is 5), the impact lowers max momentum
    assert (sheet["health"], sheet["spirit"], sheet["experience"]) == (3, 5, 3)
    assert sheet["impacts"] == ["wounded"]
    assert client.post(f"/v1/sessions/{sid}/replay").json()["ok"] is True
    client.post(f"/v1/sessions/{sid}/undo")
    assert state(client, sid)["sheet"]["health"] == 5


def test_a_sheet_edit_names_what_was_wrong(client: TestClient) -> None:
    sid = create(client, "roll_under", RU_SHEET)["id"]
    url = f"/v1/sessions/{sid}/sheet"
    no_field = client.post(url, json={"edits": [{"field": "hp", "delta": -1},
                                                {"field": "mana", "delta": 1}]})  # fmt: skip
    assert no_field.status_code == 422 and no_field.json()["error"]["field"] == "edits[1].field"
    two = client.post(url, json={"edits": [{"field": "hp", "delta": -1, "set_to": 2}]})
    assert two.status_code == 422 and two.json()["error"]["field"] == "edits[0]"
    refused = client.post(url, json={"edits": [{"field": "conditions", "add": "sleepy"}]})
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "edits"
    assert state(client, sid)["sheet"]["hp"] == 6  # nothing of a refused edit was kept
    ok = client.post(url, json={"edits": [{"field": "abilities.brawn", "delta": -2}]})
    assert ok.status_code == 200 and state(client, sid)["sheet"]["abilities"]["brawn"] == 10


def test_a_go_forth_wound_healed_by_a_reason_check_is_removed_by_hand(client: TestClient) -> None:
    # go_forth.txt, the Severity Table: "6 – 15 Shallow Wound (Reason check or Long Rest)". A
    # Reason check that heals it is the player's to record: removing a wound by its severity
    # took nothing (a 200 that changed nothing).
    wounds = [{"severity": "flesh", "defense": "mind", "roll": 1},
              {"severity": "shallow", "defense": "body", "roll": 3}]  # fmt: skip
    sid = create(client, "go_forth", {**SHEETS["go_forth"], "wounds": wounds})["id"]
    url = f"/v1/sessions/{sid}/sheet"
    healed = client.post(url, json={"edits": [{"field": "wounds", "remove": "shallow"}]})
    assert healed.status_code == 200, healed.text
    assert [w["severity"] for w in state(client, sid)["sheet"]["wounds"]] == ["flesh"]
    none = client.post(url, json={"edits": [{"field": "wounds", "remove": "vicious"}]})
    assert none.status_code == 422 and none.json()["error"]["field"] == "edits[0].remove"
    added = client.post(url, json={"edits": [{"field": "wounds", "add": "shallow"}]})
    assert added.status_code == 422 and added.json()["error"]["field"] == "edits[0].add"


def test_an_extended_resisted_action_keeps_both_counts_on_its_track(client: TestClient) -> None:
    # storyteller.txt: "An extended resisted action has a fixed success goal, and each party
    # rolls their dice pools. The first to reach the goal wins." A turn naming the track kept
    # its kind (it ran a plain extended action and refused the opponent); the session keeps the
    # opponent's successes as it keeps the player's.
    sid = create(client, "storyteller", SHEETS["storyteller"])["id"]
    client.post(f"/v1/sessions/{sid}/tracks",
                json={"type": "extended_action", "name": "Arm wrestling", "target": 3})  # fmt: skip
    contest = {"traits": ["dexterity"], "difficulty": 6, "opponent_pool": 2,
               "opponent_difficulty": 6}  # fmt: skip
    # dexterity 3: 7, 8, 2 is 2 successes; the opponent's 9, 3 is 1
    first = turn(client, sid, words="I push", kind="extended_resisted", track="t1",
                 params=contest, dice=[7, 8, 2, 9, 3])  # fmt: skip
    assert first["resolution"]["kind"] == "extended_resisted"
    track = state(client, sid)["tracks"]["t1"]
    assert (track["units"], track["opponent_units"], track["status"]) == (2, 1, "open")
    # 1 more for me (3: the goal), 0 for them: I reach it first
    won = turn(client, sid, words="I push", kind="extended_resisted", track="t1",
               params=contest, dice=[7, 2, 2, 4, 3])  # fmt: skip
    assert won["resolution"]["details"]["winner"] == "actor"
    track = state(client, sid)["tracks"]["t1"]
    assert (track["units"], track["opponent_units"], track["status"]) == (3, 1, "completed")
    assert client.post(f"/v1/sessions/{sid}/replay").json()["ok"] is True
    # the counts are the track's: sending one is a 422 naming it
    sid2 = create(client, "storyteller", SHEETS["storyteller"])["id"]
    client.post(f"/v1/sessions/{sid2}/tracks",
                json={"type": "extended_action", "name": "Race", "target": 3})  # fmt: skip
    r = client.post(f"/v1/sessions/{sid2}/turns", json={"words": "I run", "track": "t1",
                    "kind": "extended_resisted", "params": {**contest, "accumulated": 2}})  # fmt: skip
    assert r.status_code == 422 and r.json()["error"]["field"] == "params.accumulated"
