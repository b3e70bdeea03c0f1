"""Scripted sessions, one per system, played through the session HTTP API on both stores (issue
19's held-out check, done ourselves): every expected value is derived by hand from the source
text, the sentence quoted beside the step."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.service.sessions.conftest import create


class Script:
    def __init__(self, client: TestClient, system: str, sheet: dict[str, Any]) -> None:
        self.client = client
        self.sid = create(client, system, sheet)["id"]

    def post(self, path: str, body: dict[str, Any], status: int = 0) -> Any:
        r = self.client.post(f"/v1/sessions/{self.sid}{path}", json=body)
        assert (r.status_code == status) if status else r.status_code < 300, r.text
        return r.json()

    def turn(self, **body: Any) -> Any:
        return self.post("/turns", {"words": "I act", **body})

    def choose(self, turn: Any, **choices: Any) -> Any:
        return self.post(f"/turns/{turn['number']}/choose", {"choices": choices})

    def state(self) -> Any:
        return self.client.get(f"/v1/sessions/{self.sid}").json()["state"]

    def sheet(self) -> Any:
        return self.state()["sheet"]


def test_sundered_isles(client: TestClient) -> None:
    s = Script(client, "sundered_isles",
               {"name": "Kell", "stats": {"edge": 2, "heart": 2, "iron": 3, "shadow": 1, "wits": 1}})  # fmt: skip
    # Swear an Iron Vow +heart 2, action 5: 7 beats 3, not 8. "On a weak hit, ... Take +1
    # momentum" (momentum starts at +2).
    sworn = s.turn(move="swear_an_iron_vow", params={"stat": "heart"}, dice=[5, 3, 8])
    assert sworn["resolution"]["outcome"] == "weak_hit" and s.sheet()["momentum"] == 3
    s.post("/tracks", {"type": "vow", "name": "Find my sister", "rank": "dangerous"})
    # Reach a Milestone: "you may mark progress per the rank of the vow" (dangerous: 2 boxes).
    s.turn(move="reach_a_milestone", track="t1")
    assert s.state()["tracks"]["t1"]["ticks"] == 8
    # Face Danger +edge, action 6: 8 beats 1 and 1, a match. "On a strong hit, you are
    # successful. Take +1 momentum."
    faced = s.turn(move="face_danger", params={"stat": "edge"}, dice=[6, 1, 1])
    assert (faced["resolution"]["outcome"], faced["resolution"]["match"]) == ("strong_hit", True)
    assert s.sheet()["momentum"] == 4
    s.post("/tracks", {"type": "combat", "name": "The bosun", "rank": "formidable"})
    # Clash +iron: 2 + 3 = 5 beats 4, not 9. "On a weak hit, mark progress, but you are dealt
    # a counterblow or setback. You stay in a bad spot and must PAY THE PRICE." Formidable:
    # one box a mark.
    clash = s.turn(move="clash", params={"stat": "iron"}, dice=[2, 4, 9])
    assert [c["param"] for c in clash["choices"]] == ["roll_tables"]
    s.choose(clash, roll_tables=False)
    state = s.state()
    assert state["tracks"]["t2"]["ticks"] == 4 and state["sheet"]["position"] == "bad_spot"
    # Strike: 6 + 3 = 9 beats 2 and 7. "On a strong hit, mark progress twice. You dominate
    # your foe and stay in control."
    s.turn(move="strike", params={"stat": "iron"}, dice=[6, 2, 7])
    state = s.state()
    assert state["tracks"]["t2"]["ticks"] == 12 and state["sheet"]["position"] == "in_control"
    # Ask the Oracle: "Likely | 75 or less": 76 is a no.
    asked = s.turn(move="ask_the_oracle", params={"odds": "likely"}, dice=[76])
    assert asked["resolution"]["outcome"] == "no"
    # Lose Momentum: "suffer -1 momentum for a minor setback, -2 for a serious setback, or -3
    # for a major setback": 4 - 3 - 3 = -2.
    for _ in range(2):
        s.turn(move="lose_momentum", params={"amount": 3})
    assert s.sheet()["momentum"] == -2
    # Negative momentum cancels an action die equal to its absolute value: the 2 counts 0, so
    # edge 2 + 0 = 2 beats 1, not 9: a weak hit (not 4's).
    cancelled = s.turn(move="face_danger", params={"stat": "edge"}, dice=[2, 1, 9])
    assert cancelled["resolution"]["scores"]["action_score"] == 2
    assert cancelled["resolution"]["dice"][0]["cancelled"] is True
    # Fulfill Your Vow: progress 2 (8 ticks) against 1 and 3: a weak hit, "your vow is
    # fulfilled, but there is more to be done or you realize the truth of your quest".
    fulfilled = s.turn(move="fulfill_your_vow", track="t1", dice=[1, 3])
    assert fulfilled["resolution"]["outcome"] == "weak_hit"
    assert s.state()["tracks"]["t1"]["status"] == "completed"


def test_elegy(client: TestClient) -> None:
    s = Script(client, "elegy", {"name": "Vesna", "stats": {
        "dexterity": 2, "heart": 2, "force": 1, "glamour": 3, "intellect": 1}})  # fmt: skip
    assert s.sheet()["focus"] == 2  # "The default reset is +2."
    # Face Danger +glamour 3 beats 1 and 2. "On a strong hit, you are successful. Take +1 focus."
    s.turn(move="face_danger", params={"stat": "glamour"}, dice=[1, 2])
    assert s.sheet()["focus"] == 3
    # Secure an Advantage +heart 2 beats 1, not 9. "On a weak hit, choose one. Take +2 focus
    # Add +1 on your next roll (not a Conclusion Roll)".
    secured = s.turn(move="secure_an_advantage", params={"stat": "heart"}, dice=[1, 9])
    assert [c["param"] for c in secured["choices"]] == ["weak_hit_choice"]
    s.choose(secured, weak_hit_choice="next_roll")
    assert (s.sheet()["focus"], s.sheet()["next_roll_adds"]) == (3, 1)
    # The add is spent on the next roll: dexterity 2 + 1 = 3, which "beats (ties don't count)"
    # neither 3 nor 9: a miss; focus 3 would not beat 3 either, so no burn is offered.
    missed = s.turn(move="face_danger", params={"stat": "dexterity"}, dice=[3, 9])
    assert missed["resolution"]["scores"]["action_score"] == 3
    assert [c["param"] for c in missed["choices"]] == ["pay_the_price"]
    s.choose(missed, pay_the_price=False)
    assert s.sheet()["next_roll_adds"] == 0
    # Yes/No: "Likely | 26 or greater": 25 is a no; 33 a yes and "On a match, an extreme
    # result or twist has occurred."
    assert (
        s.turn(kind="oracle", params={"odds": "likely"}, dice=[25])["resolution"]["outcome"] == "no"
    )
    twist = s.turn(kind="oracle", params={"odds": "likely"}, dice=[33])["resolution"]
    assert (twist["outcome"], twist["match"]) == ("yes", True)
    # "When you have negative focus, you must reroll any die that hits a score lower than your
    # focus ... You only need to do this once": at -3 the 1 is rerolled (5); glamour 3 beats
    # neither 8 nor 5.
    s.post("/sheet", {"edits": [{"field": "focus", "set_to": -3}]})
    rerolled = s.turn(move="face_danger", params={"stat": "glamour"}, dice=[8, 1, 5])
    assert [d["role"] for d in rerolled["resolution"]["dice"]][-1] == "challenge_2_reroll"
    assert rerolled["resolution"]["outcome"] == "miss"


def test_go_forth(client: TestClient) -> None:
    s = Script(client, "go_forth",
               {"name": "Ash", "attributes": {"might": 3, "agility": 2, "vigor": 1}})  # fmt: skip
    # "Add your Attribute Modifier to the d20": 9 + 3 = 12 meets TN 12 (a ruling: meeting it
    # succeeds).
    hit = s.turn(kind="check", params={"attribute": "might", "tn": 12}, dice=[9])
    assert hit["resolution"]["outcome"] == "success"
    # "Easy: Lower the target number by 3" (TN 9: 7 + 2 = 9 succeeds); "Easy and Hard do not
    # stack / They offset each other" (TN 12: 9 + 2 = 11 fails, and a boost is offered).
    easy = s.turn(kind="check", params={"attribute": "agility", "tn": 12, "easy": 1}, dice=[7])
    assert easy["resolution"]["scores"]["tn"] == 9
    both = s.turn(kind="check", params={"attribute": "agility", "tn": 12, "easy": 1, "hard": 1},
                  dice=[9])  # fmt: skip
    assert both["resolution"]["outcome"] == "failure"
    s.choose(both, boosts=[])
    # Hearts: "Each Heart = 10 Effort", "You target only 1 Heart at a time", "Excess Effort
    # beyond 10 is wasted". Hit: d6 6 + 3 = 9; then a graze ("If you miss: You Graze, dealing
    # your Effort modifier in damage"): 3 more, 12, the first of two Hearts falls.
    s.post("/tracks", {"type": "heart", "name": "Ogre", "hearts": 2})
    s.turn(kind="effort", track="t1", params={"attribute": "might", "tn": 12}, dice=[15, 6])
    grazed = s.turn(kind="effort", track="t1", params={"attribute": "might", "tn": 12},
                    dice=[2, 6])  # fmt: skip
    s.choose(grazed, boosts=[])
    ogre = s.state()["tracks"]["t1"]
    assert (ogre["hearts"], ogre["overcome"], ogre["units"], ogre["status"]) == (1, 1, 0, "open")
    # "When you take a Hit, move 1 Momentum die into Fatigue."
    s.turn(kind="momentum", params={"action": "take_hit"})
    assert (s.sheet()["momentum"]["stamina"], s.sheet()["momentum"]["fatigue"]) == (2, 1)
    # "Favored — Next Action Easy": held, then gone after the action (TN 12 - 3 = 9: 6 + 3).
    # "paired conditions cancel out. Empowered meets Weakened? Both gone."
    s.turn(kind="conditions", params={"add": ["favored", "weakened"]})
    s.turn(kind="conditions", params={"add": ["empowered"]})
    assert s.sheet()["conditions"] == ["favored"]
    favored = s.turn(kind="check", params={"attribute": "might", "tn": 12}, dice=[6])
    assert favored["resolution"]["outcome"] == "success" and s.sheet()["conditions"] == []
    # Wounds: "1d20 + the two attributes tied to the Defense" (Body: Might + Agility = 5):
    # 5 + 5 = 10, "6 – 15 Shallow Wound"; then 20 + 5 - 5 ("Each existing Wound gives a -5
    # penalty") = 20, "16+ Flesh Wound".
    s.turn(kind="wound", params={"defense": "body"}, dice=[5, 3])
    s.turn(kind="wound", params={"defense": "body"}, dice=[20, 3])
    assert [w["severity"] for w in s.sheet()["wounds"]] == ["shallow", "flesh"]
    # Short Rest: "Move all Momentum to Stamina / Flesh Wounds disappear"; Long Rest: "Remove
    # a Shallow Wound".
    s.post("/rest", {"kind": "short"})
    sheet = s.sheet()
    assert sheet["momentum"]["stamina"] == 3 and sheet["momentum"]["fatigue"] == 0
    assert [w["severity"] for w in sheet["wounds"]] == ["shallow"]
    s.post("/rest", {"kind": "long"})
    assert s.sheet()["wounds"] == []


def test_storyteller(client: TestClient) -> None:
    s = Script(client, "storyteller", {"name": "Mara", "willpower": 3,
               "traits": {"dexterity": 3, "athletics": 2, "wits": 2}})  # fmt: skip
    pool = {"traits": ["dexterity", "athletics"], "difficulty": 6}
    # "Every die ... equal to or greater than the difficulty, is a success"; "Every botched
    # roll cancels out 1 success": 8, 7, 9 less the 1 = 2, "Moderate".
    two = s.turn(kind="simple", params=pool, dice=[8, 7, 1, 3, 9])["resolution"]
    assert (two["scores"]["net"], two["outcome"]) == (2, "success")
    # "If you roll a botch while having zero successes ... the action is botched."
    botched = s.turn(kind="simple", params={**pool, "stressful": True}, dice=[1, 2, 3, 4, 5])
    assert botched["resolution"]["outcome"] == "botch"
    # "If the number of dice in a given dice pool is equal to or greater than the difficulty,
    # the character succeeds automatically ... only count as having a single success."
    auto = s.turn(kind="simple", params={**pool, "difficulty": 4})
    assert auto["resolution"]["dice"] == []
    s.choose(auto, decline_automatic=False)
    # "Players may spend a willpower point to guarantee a success on a roll": 3 and 4 miss
    # difficulty 7, the willpower success stands, and the sheet has one point less.
    spent = s.turn(kind="simple", params={"traits": ["wits"], "difficulty": 7, "willpower": True},
                   dice=[3, 4])  # fmt: skip
    assert spent["resolution"]["scores"]["net"] == 1 and s.sheet()["willpower"] == 2
    # Extended: "Botching an extended action removes all progress up to that point."
    s.post("/tracks", {"type": "extended_action", "name": "Warehouse door", "target": 5})
    s.turn(kind="extended", track="t1", params=pool, dice=[8, 7, 6, 3, 2])
    assert s.state()["tracks"]["t1"]["units"] == 3
    s.turn(kind="extended", track="t1", params=pool, dice=[1, 2, 3, 4, 5])
    assert s.state()["tracks"]["t1"]["units"] == 0
    s.turn(kind="extended", track="t1", params=pool, dice=[8, 7, 6, 10, 9])
    door = s.state()["tracks"]["t1"]
    assert (door["units"], door["status"]) == (5, "completed")
    # Resisted: "Whoever gets more successes wins": one each is a tie.
    tie = s.turn(kind="resisted", params={"traits": ["wits"], "difficulty": 6,
                 "opponent_pool": 2, "opponent_difficulty": 6}, dice=[7, 2, 8, 3])  # fmt: skip
    assert tie["resolution"]["outcome"] == "tie"


def test_roll_under(client: TestClient) -> None:
    s = Script(client, "roll_under", {"name": "Ash", "hp": 6,
               "abilities": {"brawn": 12, "finesse": 14, "intellect": 9}})  # fmt: skip
    # "If the result is less than your character's Ability score, the Action succeeds.
    # Otherwise, it fails.": 13 < 14 succeeds, 14 fails.
    save = {"ability": "finesse"}
    assert s.turn(kind="save", params=save, dice=[13])["resolution"]["outcome"] == "success"
    assert s.turn(kind="save", params=save, dice=[14])["resolution"]["outcome"] == "failure"
    # "you roll an extra d20 and take the lowest single result"; "Ability Saves with both
    # Advantages and Disadvantages are rolled as usual with one d20."
    adv = s.turn(kind="save", params={"ability": "intellect", "advantage": True}, dice=[15, 3])
    assert adv["resolution"]["outcome"] == "success"
    both = s.turn(kind="save", params={"ability": "intellect", "advantage": True,
                                       "disadvantage": True}, dice=[12])  # fmt: skip
    assert both["resolution"]["outcome"] == "failure" and len(both["resolution"]["dice"]) == 1
    # "Damage first reduces your character's HP. After HP is zero, the excess damage then
    # reduces your Brawn Ability." 4: HP 2; 5: HP 0 and Brawn 12 - 3 = 9; "After taking
    # damage to Brawn, roll a Brawn Save. If your Save fails ... adds a Fatigue ... and is
    # unconscious": 15 fails against 9.
    s.turn(kind="harm", params={"damage": 4})
    assert s.sheet()["hp"] == 2
    hurt = s.turn(kind="harm", params={"damage": 5}, dice=[15])
    assert hurt["resolution"]["outcome"] == "critical_injury"
    sheet = s.sheet()
    assert (sheet["hp"], sheet["abilities"]["brawn"], sheet["fatigue"]) == (0, 9, 1)
    assert "unconscious" in sheet["conditions"]
    # "out of the fight until revived": no save meanwhile.
    out = s.post("/turns", {"words": "I run", "kind": "save", "params": save, "dice": [3]}, 422)
    assert out["error"]["field"] == "sheet.conditions"
    # "Resting for a few moments after an encounter restores all lost HP." (and revives, a
    # ruling); "Ability loss and other serious ailments are more difficult to heal."
    s.post("/rest", {"kind": "short"})
    sheet = s.sheet()
    assert (sheet["hp"], sheet["abilities"]["brawn"], sheet["conditions"]) == (6, 9, [])
    # "Each Fatigue ... lasts until they can recuperate (such as a whole night's rest in a
    # safe spot)"; "recover lost Ability points with a week or two of rest under a healer's care"
    s.post("/rest", {"kind": "night"})
    assert s.sheet()["fatigue"] == 0
    s.post("/rest", {"kind": "healer"})
    assert s.sheet()["abilities"]["brawn"] == 12
    # "When damage to your character reduces their HP to *exactly* zero, they are sometimes
    # changed irrevocably."
    s.turn(kind="harm", params={"damage": 6})
    assert s.sheet()["scars"]
