"""A short session of each Ironsworn-family system over HTTP: a proposed move and named ones,
a choice, a vow with its progress roll, an oracle question, a table, undo, renarrate, export
and replay."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.service.sessions.conftest import create

KELL = {"name": "Kell", "stats": {"edge": 2, "heart": 2, "iron": 3, "shadow": 1, "wits": 1}}
VESNA = {
    "name": "Vesna",
    "stats": {"dexterity": 2, "heart": 2, "force": 1, "glamour": 3, "intellect": 1},
}


class Play:
    def __init__(self, client: TestClient, system: str, sheet: dict[str, Any]) -> None:
        self.client = client
        self.sid = create(client, system, sheet)["id"]

    def post(self, path: str, body: dict[str, Any] | None = None, status: int = 0) -> Any:
        r = self.client.post(f"/v1/sessions/{self.sid}{path}", json=body or {})
        assert r.status_code < 300 if not status else r.status_code == status, r.text
        return r.json()

    def state(self) -> Any:
        return self.client.get(f"/v1/sessions/{self.sid}").json()["state"]


def test_a_sundered_isles_session(client: TestClient) -> None:
    play = Play(client, "sundered_isles", KELL)
    play.post("/tracks", {"type": "combat", "name": "The bosun", "rank": "dangerous"})
    proposed = play.post("/turns", {"words": "I swing my cutlass at the bosun"})
    assert proposed["proposal"]["move"] == "strike"
    struck = play.post("/turns/2/accept", {"dice": [5, 3, 8]})
    # Strike, +iron 3: action 5 + 3 = 8 beats 3, not 8. "On a weak hit, mark progress twice,
    # but you expose yourself to danger. You are in a bad spot."
    assert struck["resolution"]["outcome"] == "weak_hit"
    assert struck["resolution"]["params"]["stat_value"] == 3  # from the sheet
    after_strike = play.state()
    assert after_strike["tracks"]["t1"]["ticks"] == 16  # the one combat track: 2 marks of 8
    assert after_strike["sheet"]["position"] == "bad_spot"

    # A miss asks the player: Pay the Price, "Roll on the table below" or "Make the most
    # obvious negative outcome happen".
    missed = play.post("/turns", {"words": "I dodge the mast", "move": "face_danger",
                                  "params": {"stat": "edge"}, "dice": [1, 9, 9]})  # fmt: skip
    assert missed["status"] == "awaiting_choice" and missed["narration"] == ""
    choice = missed["choices"][0]
    wrong = play.post(f"/turns/{missed['number']}/choose", {"choices": {"burn": True}}, 422)
    assert wrong["error"]["field"] == "choices.burn"
    blocked = play.post("/turns", {"words": "I walk on"}, 409)
    assert "awaits your choice" in blocked["error"]["message"]
    chosen = play.post(f"/turns/{missed['number']}/choose",
                       {"choices": {choice["param"]: False}})  # fmt: skip
    assert chosen["status"] == "resolved" and chosen["chosen"] == {choice["param"]: False}
    assert chosen["resolution"]["dice"][:3] == missed["resolution"]["dice"][:3]

    play.post("/tracks", {"type": "vow", "name": "Find my sister", "rank": "dangerous"})
    play.post("/tracks/t2/progress", {"times": 3})
    assert play.state()["tracks"]["t2"]["ticks"] == 24  # dangerous: 2 boxes a mark
    fulfilled = play.post("/turns", {"words": "I find her", "track": "t2",
                                     "move": "fulfill_your_vow", "dice": [2, 3]})  # fmt: skip
    # Fulfill Your Vow, progress 6 vs 2 and 3: "On a strong hit, your vow is fulfilled";
    # a dangerous vow marks 2 ticks on the quests legacy track.
    assert fulfilled["resolution"]["outcome"] == "strong_hit"
    state = play.state()
    assert state["tracks"]["t2"]["status"] == "completed"
    assert state["sheet"]["legacy"]["quests"]["ticks"] == 2

    oracle = play.post("/turns", {"words": "Is the harbour guarded?", "kind": "oracle",
                                  "params": {"odds": "likely"}, "dice": [24]})  # fmt: skip
    assert oracle["resolution"]["outcome"] == "yes"
    table = play.post("/turns", {"words": "What price?", "kind": "table",
                                 "params": {"table": "pay_the_price"}, "dice": [50]})  # fmt: skip
    assert table["resolution"]["text"]

    before = play.state()
    renarrated = play.post("/turns/2/renarrate")
    assert renarrated["resolution"] == struck["resolution"] and play.state() == before
    undone = play.post("/undo")
    assert undone["number"] == table["number"] and undone["status"] == "undone"
    assert play.post("/replay") == {"ok": True, "turns": 7, "mismatches": []}
    text = client.get(f"/v1/sessions/{play.sid}/export", params={"format": "iron_vault"}).text
    assert "```iron-vault-mechanics" in text
    assert 'move "[Strike](datasworn:move:starforged/combat/strike)"' in text


def test_an_elegy_session(client: TestClient) -> None:
    play = Play(client, "elegy", VESNA)
    proposed = play.post("/turns", {"words": "I charm the doorman into letting me in"})
    assert proposed["proposal"]["move"] == "compel"
    assert proposed["proposal"]["params"]["stat"] == "glamour"
    hit = play.post("/turns/1/accept", {"dice": [1, 2]})
    # Compel, +glamour 3 vs 1 and 2: a strong hit ("they'll do what you want").
    assert hit["resolution"]["outcome"] == "strong_hit"
    missed = play.post("/turns", {"words": "I slip past the guard", "move": "face_danger",
                                  "params": {"stat": "dexterity"}, "dice": [3, 9]})  # fmt: skip
    assert missed["status"] == "awaiting_choice"
    param = missed["choices"][0]["param"]
    done = play.post(f"/turns/{missed['number']}/choose", {"choices": {param: False}})
    assert done["status"] == "resolved"
    play.post("/tracks", {"type": "connection", "name": "Old Yevgenia", "rank": "formidable"})
    play.post("/tracks/t1/progress", {"times": 2})
    assert play.state()["tracks"]["t1"]["ticks"] == 8  # formidable: 1 box a mark
    undone = play.post("/undo")
    assert undone["kind"] == "progress" and play.state()["tracks"]["t1"]["ticks"] == 0
    assert play.post("/replay")["ok"] is True


def test_bad_turns_name_the_field(client: TestClient) -> None:
    play = Play(client, "sundered_isles", KELL)
    cases = [
        ({"words": "x", "move": "teleport"}, "move"),
        ({"words": "x", "move": "face_danger", "params": {"stat": "luck"}}, "params.stat"),
        # "Roll your action die (d6) and challenge dice (2d10)": two dice are too few.
        ({"words": "x", "move": "face_danger", "params": {"stat": "edge"}, "dice": [1, 2]},
         "dice[2]"),
        ({"words": "x", "kind": "warp"}, "kind"),
        ({"words": "x", "track": "t9", "move": "fulfill_your_vow"}, "track"),
    ]  # fmt: skip
    for body, field in cases:
        r = client.post(f"/v1/sessions/{play.sid}/turns", json=body)
        assert 400 <= r.status_code < 500 and r.json()["error"]["field"] == field, r.text
