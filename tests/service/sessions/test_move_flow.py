"""Sundered Isles move flow in a session, to the letter (issues 14 and 19), on both stores.
Kell: edge 2, heart 2, iron 3, shadow 1, wits 1; momentum starts at +2."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.service.sessions.test_play_ironsworn import KELL, Play


def _kell(client: TestClient, **sheet: Any) -> Play:
    return Play(client, "sundered_isles", {**KELL, **sheet})


def test_secure_an_advantage_weak_hit_waits_for_one_option(client: TestClient) -> None:
    # "On a weak hit, choose one. - Take +2 momentum - Add +1 on your next move (not a
    # progress move)". Edge 2 + action 4 = 6 beats 5, not 9.
    play = _kell(client)
    turn = play.post("/turns", {"words": "I study the reef", "move": "secure_an_advantage",
                                "params": {"stat": "edge"}, "dice": [4, 5, 9]})  # fmt: skip
    assert turn["status"] == "awaiting_choice"
    [choice] = turn["choices"]
    assert choice["param"] == "options"
    assert [o["label"] for o in choice["options"]] == [
        "Take +2 momentum",
        "Add +1 on your next move (not a progress move)",
    ]
    held = play.post("/turns/1/choose", {"choices": {"options": ["add_1_on_your_next_move"]}})
    assert held["status"] == "resolved"
    sheet = play.state()["sheet"]
    assert sheet["next_roll_adds"] == 1 and sheet["momentum"] == 2
    # ... kept until the next move, which adds it and clears it: edge 2 + 1 + action 3 = 6
    face = play.post("/turns", {"words": "I leap", "move": "face_danger",
                                "params": {"stat": "edge"}, "dice": [3, 5, 9]})  # fmt: skip
    assert face["resolution"]["scores"]["action_score"] == 6
    assert play.state()["sheet"]["next_roll_adds"] == 0


def test_secure_an_advantage_strong_hit_takes_both(client: TestClient) -> None:
    # "On a strong hit, take both." +2 momentum and +1 on your next move.
    play = _kell(client)
    play.post("/turns", {"words": "I study the reef", "move": "secure_an_advantage",
                         "params": {"stat": "edge"}, "dice": [6, 1, 1]})  # fmt: skip
    sheet = play.state()["sheet"]
    assert sheet["momentum"] == 4 and sheet["next_roll_adds"] == 1


def test_a_burn_that_lifts_a_miss_asks_no_pay_the_price(client: TestClient) -> None:
    # Issue 14's repro: momentum 6, Face Danger +edge, dice 1, 3, 9: a miss (3 vs 3 and 9).
    # Burning (momentum 6 beats 3) makes it a weak hit: "Choices must follow from the outcome
    # after earlier choices"; the burn is asked alone, first.
    play = _kell(client, momentum=6)
    missed = play.post("/turns", {"words": "I dodge", "move": "face_danger",
                                  "params": {"stat": "edge"}, "dice": [1, 3, 9]})  # fmt: skip
    assert [c["param"] for c in missed["choices"]] == ["burn_momentum"]
    burned = play.post("/turns/1/choose", {"choices": {"burn_momentum": True}})
    assert burned["status"] == "resolved" and burned["resolution"]["outcome"] == "weak_hit"
    # Declined, the miss stands and Pay the Price is asked next.
    play = _kell(client, momentum=6)
    missed = play.post("/turns", {"words": "I dodge again", "move": "face_danger",
                                  "params": {"stat": "edge"}, "dice": [1, 3, 9]})  # fmt: skip
    kept = play.post(f"/turns/{missed['number']}/choose", {"choices": {"burn_momentum": False}})
    assert kept["status"] == "awaiting_choice"
    assert [c["param"] for c in kept["choices"]] == ["roll_tables"]


def test_a_turn_naming_a_track_keeps_its_kind(client: TestClient) -> None:
    # Issue 14: {"kind": "recommit", "track": "t1"} ran Fulfill Your Vow again. Recommit: "Roll
    # both challenge dice, take the lowest value, and clear that number of progress boxes. Then,
    # raise the vow's rank by one".
    play = _kell(client)
    play.post("/tracks", {"type": "vow", "name": "Find my sister", "rank": "dangerous"})
    play.post("/tracks/t1/progress", {"times": 2})  # 16 ticks: 4 boxes
    turn = play.post("/turns", {"words": "I begin again", "kind": "recommit", "track": "t1",
                                "dice": [2, 3]})  # fmt: skip
    assert turn["resolution"]["kind"] == "recommit"
    track = play.state()["tracks"]["t1"]
    assert track["ticks"] == 8 and track["rank"] == "formidable" and track["status"] == "open"


def test_fulfill_your_vow_miss_asks_forsake_or_recommit(client: TestClient) -> None:
    # "On a miss, your vow is undone ... choose one. - Give up on the quest: FORSAKE YOUR VOW.
    # - Recommit to the quest: Roll both challenge dice ..."
    play = _kell(client)
    play.post("/tracks", {"type": "vow", "name": "Find my sister", "rank": "dangerous"})
    play.post("/tracks/t1/progress", {"times": 1})  # 8 ticks: progress 2
    missed = play.post("/turns", {"words": "Is it done?", "move": "fulfill_your_vow",
                                  "track": "t1", "dice": [5, 9]})  # fmt: skip
    [choice] = missed["choices"]
    assert choice["param"] == "options" and choice["extra_dice"] is True
    # the option rolls both challenge dice: hand-rolled here, 1 and 6 (lowest 1: one box)
    recommitted = play.post(
        f"/turns/{missed['number']}/choose",
        {"choices": {"options": ["recommit_to_the_quest"]}, "dice": [1, 6]},
    )
    assert recommitted["status"] == "resolved"
    track = play.state()["tracks"]["t1"]
    assert track["ticks"] == 4 and track["rank"] == "formidable" and track["status"] == "open"
    again = play.post("/turns", {"words": "Now?", "move": "fulfill_your_vow", "track": "t1",
                                 "dice": [5, 9]})  # fmt: skip
    play.post(f"/turns/{again['number']}/choose",
              {"choices": {"options": ["give_up_on_the_quest"]}})  # fmt: skip
    assert play.state()["tracks"]["t1"]["status"] == "forsaken"


def test_strike_marks_its_own_track(client: TestClient) -> None:
    # Strike: "On a strong hit, mark progress twice." With no combat track the turn asks for
    # one; with one, that one; with two, which.
    play = _kell(client)
    strike = {"words": "I strike", "move": "strike", "params": {"stat": "iron"}, "dice": [6, 1, 1]}
    none = play.post("/turns", strike, 409)
    assert none["error"]["field"] == "track" and "open" in none["error"]["message"]
    play.post("/tracks", {"type": "combat", "name": "The bosun", "rank": "formidable"})
    play.post("/turns", strike)
    state = play.state()
    assert state["tracks"]["t1"]["ticks"] == 8  # formidable: a box a mark, twice
    assert state["sheet"]["position"] == "in_control"  # "You dominate your foe and stay in control"
    play.post("/tracks", {"type": "combat", "name": "The second mate", "rank": "dangerous"})
    which = play.post("/turns", strike, 409)
    assert which["error"]["field"] == "track" and "t1 (The bosun)" in which["error"]["message"]
    play.post("/turns", {**strike, "track": "t2"})
    assert play.state()["tracks"]["t2"]["ticks"] == 16


def test_take_decisive_action_reads_the_position(client: TestClient) -> None:
    # Strike's weak hit: "You are in a bad spot." Take Decisive Action: "If you are in a bad
    # spot, count a strong hit without a match as a weak hit": not asked, read from the sheet.
    play = _kell(client)
    play.post("/tracks", {"type": "combat", "name": "The bosun", "rank": "troublesome"})
    play.post("/turns", {"words": "I strike", "move": "strike", "params": {"stat": "iron"},
                         "dice": [3, 5, 9]})  # fmt: skip
    assert play.state()["sheet"]["position"] == "bad_spot"
    decisive = play.post("/turns", {"words": "I end it", "move": "take_decisive_action",
                                    "track": "t1", "dice": [3, 5]})  # fmt: skip
    # progress 6 (troublesome: 3 boxes a mark, marked twice) beats 3 and 5, no match: weak hit
    assert decisive["resolution"]["outcome"] == "weak_hit"
    assert "position" not in [c["param"] for c in decisive.get("choices") or []]


def test_lose_momentum_named_as_a_move_loses_it(client: TestClient) -> None:
    # "When you are delayed or disadvantaged, suffer -1 momentum for a minor setback, -2 for a
    # serious setback, or -3 for a major setback." Named as a move it did nothing.
    play = _kell(client)
    play.post("/turns", {"words": "The tide turns", "move": "lose_momentum",
                         "params": {"amount": 2}})  # fmt: skip
    assert play.state()["sheet"]["momentum"] == 0


def test_an_error_about_the_move_names_the_field_it_was_sent_in(client: TestClient) -> None:
    # Issue 19: "error messages name the field actually sent": the move at the top of the turn.
    play = _kell(client)
    play.post("/tracks", {"type": "vow", "name": "Find my sister", "rank": "dangerous"})
    wrong = play.post("/turns", {"words": "I end it", "move": "take_decisive_action",
                                 "track": "t1", "dice": [1, 2]}, 422)  # fmt: skip
    assert wrong["error"]["field"] == "move" and "fulfill_your_vow" in wrong["error"]["message"]
    inside = play.post("/turns", {"words": "I end it", "track": "t1", "dice": [1, 2],
                                  "params": {"move": "take_decisive_action"}}, 422)  # fmt: skip
    assert inside["error"]["field"] == "params.move"


def test_a_recover_move_named_as_a_move_recovers(client: TestClient) -> None:
    # Named as a move, Heal took no health and Hearten no spirit (as Lose Momentum did nothing).
    # Hearten: "If you are shaken, clear the impact and take +1 spirit. Otherwise, take +2
    # spirit." and "On a weak hit, as above, but this indulgence is fleeting. ... Then, LOSE
    # MOMENTUM (-1)." Heart 2 + action 4 = 6 beats 5, not 9.
    play = _kell(client, spirit=2)
    play.post("/turns", {"words": "I drink with the crew", "move": "hearten",
                         "params": {"stat": "heart"}, "dice": [4, 5, 9]})  # fmt: skip
    sheet = play.state()["sheet"]
    assert (sheet["spirit"], sheet["momentum"]) == (4, 1)
    # Heal: "On a weak hit, as above, but the recovery costs extra time or resources. Choose
    # one: LOSE MOMENTUM (-2) or SACRIFICE RESOURCES (-2)." Iron 3 + 4 = 7 beats 5, not 9.
    play = _kell(client, health=2)
    healed = play.post("/turns", {"words": "I stitch the cut", "move": "heal",
                                  "params": {"stat": "iron"}, "dice": [4, 5, 9]})  # fmt: skip
    [choice] = healed["choices"]
    assert choice["param"] == "weak_hit_choice"
    play.post(f"/turns/{healed['number']}/choose",
              {"choices": {"weak_hit_choice": "sacrifice_resources"}})  # fmt: skip
    sheet = play.state()["sheet"]
    assert (sheet["health"], sheet["supply"], sheet["momentum"]) == (5, 3, 2)
    # "On a miss, the aid is ineffective and the situation worsens. PAY THE PRICE."
    missed = play.post("/turns", {"words": "I stitch it again", "move": "heal",
                                  "params": {"stat": "iron"}, "dice": [1, 9, 9]})  # fmt: skip
    assert [c["param"] for c in missed["choices"]] == ["roll_tables"]
    rolled = play.post(f"/turns/{missed['number']}/choose",
                       {"choices": {"roll_tables": True}, "dice": [50]})  # fmt: skip
    assert rolled["resolution"]["details"]["tables_rolled"][0]["table"] == "pay_the_price"


def test_a_table_one_option_names_is_asked_only_when_it_is_chosen(client: TestClient) -> None:
    # Sojourn: "On a miss, choose one. - The community needs your help ... resolve this move as
    # a strong hit. - You find no relief, and the situation grows worse. PAY THE PRICE."
    # Choices follow from the outcome after earlier choices: Pay the Price only after the second.
    play = _kell(client)
    sojourn = {"words": "I seek harbour", "move": "sojourn", "params": {"stat": "heart"},
               "dice": [1, 9, 9]}  # fmt: skip
    missed = play.post("/turns", sojourn)
    assert [c["param"] for c in missed["choices"]] == ["options"]
    [help_them, no_relief] = [o["value"] for o in missed["choices"][0]["options"]]
    helped = play.post(f"/turns/{missed['number']}/choose", {"choices": {"options": help_them}})
    assert helped["status"] == "resolved"
    missed = play.post("/turns", sojourn)
    worse = play.post(f"/turns/{missed['number']}/choose", {"choices": {"options": no_relief}})
    assert [c["param"] for c in worse["choices"]] == ["roll_tables"]


def test_make_a_suffer_move_is_the_players_next_turn(client: TestClient) -> None:
    # Face Danger: "On a weak hit, you succeed, but not without a cost. Make a suffer move
    # (-1)." (ruling suffer_move_is_the_players): the weak hit changes nothing by itself; the
    # player's Endure Harm (-1) is the next turn: "suffer -health equal to your harm".
    rulings = {r["id"] for s in client.get("/v1/systems").json()
               if s["id"] == "sundered_isles" for r in s["rulings"]}  # fmt: skip
    assert {"suffer_move_is_the_players", "reach_a_milestone_marks_the_vow"} <= rulings
    play = _kell(client)
    before = play.state()["sheet"]
    weak = play.post("/turns", {"words": "I dodge", "move": "face_danger",
                                "params": {"stat": "edge"}, "dice": [4, 5, 9]})  # fmt: skip
    assert weak["status"] == "resolved" and play.state()["sheet"] == before
    play.post("/turns", {"words": "The rope burns", "move": "endure_harm",
                         "params": {"amount": 1}})  # fmt: skip
    assert play.state()["sheet"]["health"] == 4
