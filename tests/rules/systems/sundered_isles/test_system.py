"""Sundered Isles: every rule of sundered_isles.md (and the Starforged core rules it defers to).

Each test quotes the sentence it checks. One test per ruling is named test_ruling_<id>.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import InvalidParameter, RulesError, UnknownError
from rules.ironsworn import outcome_band
from rules.models import Resolution
from rules.registry import get_system, resolve_roll

SYSTEM = get_system("sundered_isles")
BANDS = ["miss", "weak_hit", "strong_hit"]


def roll(kind: str, params: dict[str, Any], dice: list[int] | None = None) -> Resolution:
    return resolve_roll("sundered_isles", kind, params, dice=dice)


def deltas(r: Resolution, target: str) -> list[int | None]:
    return [c.delta for c in r.changes if c.target == target]


# --- action roll -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stat_value", "adds", "dice", "band", "score"),
    [
        # "Most action rolls are made by adding the value of a stat to your action die."
        (2, 0, [4, 5, 3], "strong_hit", 6),
        (2, 0, [4, 6, 3], "weak_hit", 6),  # 6 vs 6: a tie does not beat the die
        (2, 0, [1, 3, 9], "miss", 3),  # 3 vs 3 ties, 3 vs 9: miss
        (1, 2, [3, 5, 7], "weak_hit", 6),  # adds stack: "those bonuses stack"
        (3, 1, [2, 5, 5], "strong_hit", 6),
    ],
)
def test_action_table(stat_value: int, adds: int, dice: list[int], band: str, score: int) -> None:
    r = roll("action", {"stat": "wits", "stat_value": stat_value, "adds": adds}, dice)
    assert r.outcome == band
    assert r.scores["action_score"] == score
    assert [d.role for d in r.dice] == ["action", "challenge", "challenge"]


def test_match_when_challenge_dice_equal() -> None:
    # Starforged: a match is rolled when both challenge dice show the same value.
    assert roll("action", {"stat": "edge", "stat_value": 2}, [3, 7, 7]).match is True
    assert roll("action", {"stat": "edge", "stat_value": 2}, [3, 7, 6]).match is False


def test_ruling_action_score_cap() -> None:
    # "For most action rolls, your action die + stat + adds is your final action score."
    # Starforged: the action score can't exceed 10, so 6 + 3 + 4 = 13 counts as 10 and ties a 10.
    r = roll("action", {"stat": "iron", "stat_value": 3, "adds": 4}, [6, 10, 9])
    assert r.scores["action_score"] == 10
    assert r.outcome == "weak_hit"
    assert "action_score_cap" in r.rulings


def test_ruling_negative_momentum_cancels_action_die() -> None:
    # Starforged: "If your momentum is negative and matches your action die, cancel the action
    # die"; the action score is then stat + adds.
    r = roll("action", {"stat": "edge", "stat_value": 2, "momentum": -4}, [4, 1, 3])
    assert r.dice[0].cancelled
    assert r.scores["action_score"] == 2
    assert r.outcome == "weak_hit"
    other = roll("action", {"stat": "edge", "stat_value": 2, "momentum": -4}, [5, 1, 3])
    assert not other.dice[0].cancelled and other.scores["action_score"] == 7


def test_ruling_burn_momentum() -> None:
    # "You may not burn momentum on a progress move": on an action roll, burning replaces the
    # action score with momentum, then momentum resets (+2 with no impacts).
    params = {"stat": "heart", "stat_value": 1, "momentum": 8, "burn_momentum": True}
    r = roll("action", params, [2, 7, 5])
    assert r.outcome == "strong_hit" and "burn_momentum" in r.rulings
    assert [(c.target, c.set_to, c.delta) for c in r.changes] == [("momentum", 2, -6)]
    # one impact: reset +1
    r1 = roll("action", {**params, "impacts": 1, "momentum": 9}, [2, 7, 5])
    assert r1.changes[0].set_to == 1
    # burning never makes it worse, and is not done when it does not help
    same = roll("action", params, [6, 9, 9])
    assert same.changes == [] and same.outcome == "miss"
    no_help = roll("action", {**params, "momentum": 3}, [5, 2, 1])
    assert no_help.changes == [] and not no_help.details["burned_momentum"]
    assert roll("action", {**params, "burn_momentum": False}, [2, 7, 5]).details[
        "burn_would_improve"
    ]


def test_ruling_momentum_within_max() -> None:
    # "Your max momentum is reduced by 1 for each marked impact."
    with pytest.raises(InvalidParameter) as err:
        roll("action", {"stat": "edge", "stat_value": 1, "momentum": 9, "impacts": 2}, [1, 1, 1])
    assert err.value.field == "params.momentum"
    roll("action", {"stat": "edge", "stat_value": 1, "momentum": 8, "impacts": 2}, [1, 1, 1])


@given(
    st.integers(1, 6),
    st.integers(0, 5),
    st.integers(0, 5),
    st.integers(1, 10),
    st.integers(1, 10),
    st.integers(-6, 10),
)
def test_higher_action_score_never_worse(
    action: int, stat: int, adds: int, c1: int, c2: int, momentum: int
) -> None:
    base = {"stat": "edge", "stat_value": stat, "adds": adds, "momentum": momentum}
    low = roll("action", base, [action, c1, c2])
    if stat < 5:
        high = roll("action", {**base, "stat_value": stat + 1}, [action, c1, c2])
        assert high.scores["action_score"] >= low.scores["action_score"]
        assert BANDS.index(high.outcome) >= BANDS.index(low.outcome)


@given(st.integers(0, 10), st.integers(0, 10), st.integers(1, 10), st.integers(1, 10))
def test_outcome_band_monotone(a: int, b: int, c1: int, c2: int) -> None:
    lo, hi = sorted((a, b))
    assert BANDS.index(outcome_band(hi, (c1, c2))) >= BANDS.index(outcome_band(lo, (c1, c2)))


# --- progress roll -----------------------------------------------------------------------------


def test_ruling_progress_roll() -> None:
    # "tally the number of filled boxes on your progress track as your progress score. Only add
    # fully filled boxes (those with four ticks)." 27 ticks = 6 boxes; 6 vs 5 and 6: weak hit.
    r = roll("progress", {"ticks": 27}, [5, 6])
    assert r.scores["progress_score"] == 6 and r.outcome == "weak_hit"
    assert [d.role for d in r.dice] == ["challenge", "challenge"]
    assert roll("progress", {"score": 7}, [5, 6]).outcome == "strong_hit"
    # "You may not burn momentum on a progress move and are not affected by negative momentum."
    with pytest.raises(InvalidParameter) as err:
        roll("progress", {"score": 5, "momentum": -3}, [1, 1])
    assert err.value.field == "params.momentum"
    with pytest.raises(InvalidParameter) as err:
        roll("progress", {}, [1, 1])
    assert err.value.field == "params.score"
    with pytest.raises(InvalidParameter) as err:
        roll("progress", {"score": 1, "ticks": 4}, [1, 1])
    assert err.value.field == "params.ticks"


def test_ruling_cleared_legacy_track_rolls_as_ten() -> None:
    # "If you make a progress roll against this track, resolve the outcome as if at 10 progress"
    r = roll("progress", {"legacy_cleared": True}, [9, 10])
    assert r.scores["progress_score"] == 10 and r.outcome == "weak_hit"


@given(st.integers(0, 9), st.integers(1, 10), st.integers(1, 10))
def test_higher_progress_never_worse(score: int, c1: int, c2: int) -> None:
    low = roll("progress", {"score": score}, [c1, c2])
    high = roll("progress", {"score": score + 1}, [c1, c2])
    assert BANDS.index(high.outcome) >= BANDS.index(low.outcome)


# --- oracle ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("odds", "threshold"),
    [("small_chance", 10), ("unlikely", 25), ("50_50", 50), ("likely", 75), ("almost_certain", 90)],
)
def test_oracle_odds(odds: str, threshold: int) -> None:
    # "Small Chance 10 or less | Unlikely 25 or less | 50/50 50 or less | Likely 75 or less |
    # Almost Certain 90 or less"
    assert roll("oracle", {"odds": odds}, [threshold]).outcome == "yes"
    assert roll("oracle", {"odds": odds}, [threshold + 1]).outcome == "no"


def test_ruling_oracle_match() -> None:
    # "A match on your oracle dice when rolling on the yes/no table indicates an extreme result";
    # Starforged: a d100 roll of 11, 22, ... 99 or 100 is a match.
    for value in range(1, 101):
        r = roll("oracle", {"odds": "50_50"}, [value])
        assert r.match == (value == 100 or (value % 11 == 0)), value
    assert roll("oracle", {}, [100]).outcome == "no"


# --- moves -------------------------------------------------------------------------------------


def test_every_move_of_the_index_is_data() -> None:
    # The A-Z moves index lists 52 moves; the scene challenges add Begin a Scene, Face Danger and
    # Secure an Advantage (scene challenge) and Finish a Scene: 56 moves.
    text = _source()
    index_part = text.split("# A-Z MOVES INDEX")[1].split("_Sundered Isles_ moves")[0]
    index = [
        line.split("|")[1].strip().lower()
        for line in index_part.splitlines()
        if line.startswith("| ") and "[[#" in line
    ]
    assert len(index) == 52
    names = {m.name.lower() for m in SYSTEM.moves}
    assert set(index) <= names
    assert len(SYSTEM.moves) == 52 + 4
    assert len({m.id for m in SYSTEM.moves}) == len(SYSTEM.moves)


def _source() -> str:
    root = Path(__file__).resolve().parents[4]
    return (root / "vectorstore" / "sources" / "sundered_isles.md").read_text(encoding="utf-8")


def test_moves_data_is_consistent() -> None:
    for move in SYSTEM.moves:
        assert move.trigger and move.heading and move.source == "sundered_isles.md"
        for table_id in move.tables:
            assert table_id in SYSTEM.tables, (move.id, table_id)
        if move.roll == "action":
            assert move.options and {"strong_hit", "weak_hit", "miss"} <= set(move.outcomes) | {
                "strong_hit",
                "weak_hit",
            }
        if move.roll == "progress":
            assert move.progress_track and not move.options


def test_move_options_whichever_is_higher_and_lower() -> None:
    # Endure Harm: "roll +health or +iron, whichever is higher."
    harm = SYSTEM.move("endure_harm").options[0]
    assert harm.method == "highest" and set(harm.using) == {"health", "iron"}
    # Heal: "Mend your own wounds: Roll +iron or +wits, whichever is lower"
    heal = [o for o in SYSTEM.move("heal").options if o.method == "lowest"]
    assert heal and set(heal[0].using) == {"iron", "wits"}
    r = roll("move", {"move": "heal", "stats": {"iron": 3, "wits": 1}}, [4, 5, 9])
    assert r.details["stat"] == "wits" and r.scores["action_score"] == 5
    r = roll("move", {"move": "endure_harm", "stats": {"health": 1, "iron": 3}}, [4, 5, 9])
    assert r.details["stat"] == "iron" and r.scores["action_score"] == 7


def test_move_errors_name_the_field() -> None:
    with pytest.raises(UnknownError) as err:
        roll("move", {"move": "fly"}, [])
    assert err.value.field == "params.move"
    with pytest.raises(UnknownError) as err:
        roll("move", {"move": "gather_information", "stat": "iron", "stat_value": 2}, [1, 1, 1])
    assert err.value.field == "params.stat"
    with pytest.raises(InvalidParameter) as err:
        roll("move", {"move": "gather_information", "stat": "wits"}, [1, 1, 1])
    assert err.value.field == "params.stat_value"
    with pytest.raises(UnknownError) as err:
        roll("move", {"move": "heal", "stats": {"iron": 3, "edge": 1}}, [1, 1, 1])
    assert err.value.field == "params.stats"
    with pytest.raises(InvalidParameter) as err:
        roll("move", {"move": "fulfill_your_vow"}, [1, 1])
    assert err.value.field == "params.progress_score"
    with pytest.raises(InvalidParameter) as err:
        roll("move", {"move": "fulfill_your_vow", "stat": "iron", "progress_score": 3}, [1, 1])
    assert err.value.field == "params.stat"


def test_ruling_move_outcome_text() -> None:
    # "On a hit, you succeed. On a strong hit, take both."
    r = roll("move", {"move": "secure_an_advantage", "stat": "wits", "stat_value": 3}, [5, 2, 3])
    assert r.outcome == "strong_hit"
    assert r.text is not None and r.text.startswith("On a hit, you succeed.")
    assert "take both" in r.text
    # Explore a Waypoint: "On a strong hit with a match, you may instead MAKE A DISCOVERY."
    m = roll("move", {"move": "explore_a_waypoint", "stat": "wits", "stat_value": 3}, [5, 4, 4])
    assert m.match and m.text is not None and "MAKE A DISCOVERY" in m.text


def test_ruling_move_tables_on_request() -> None:
    # Face Danger: "On a miss, you fail ... PAY THE PRICE." The Pay the Price roll is made only on
    # request, after the action and challenge dice.
    params = {"move": "face_danger", "stat": "edge", "stat_value": 1}
    plain = roll("move", params, [1, 8, 9])
    assert plain.outcome == "miss" and plain.details["tables_rolled"] == []
    rolled = roll("move", {**params, "roll_tables": True}, [1, 8, 9, 80])
    assert rolled.details["tables_rolled"][0]["table"] == "pay_the_price"
    # "75 - 81 | You are harmed"
    assert rolled.details["tables_rolled"][0]["results"] == ["You are harmed"]
    # Explore a Waypoint miss with a match: Pay the Price, then Confront Chaos, in text order
    w = roll(
        "move",
        {"move": "explore_a_waypoint", "stat": "wits", "stat_value": 1, "roll_tables": True},
        [1, 9, 9, 50, 50],
    )
    assert [t["table"] for t in w.details["tables_rolled"]] == ["pay_the_price", "confront_chaos"]


def test_ruling_decisive_action_bad_spot() -> None:
    # "If you are in a bad spot, count a strong hit without a match as a weak hit, and a weak hit
    # as a miss."
    base = {"move": "take_decisive_action", "progress_score": 8}
    assert roll("move", base, [3, 4]).outcome == "strong_hit"
    bad = {**base, "position": "bad_spot"}
    assert roll("move", bad, [3, 4]).outcome == "weak_hit"
    assert roll("move", bad, [4, 4]).outcome == "strong_hit"  # with a match it stays strong
    assert roll("move", bad, [3, 9]).outcome == "miss"
    assert roll("move", bad, [9, 9]).outcome == "miss"
    # weak hit: "Roll on the table below or choose one."
    w = roll("move", {**base, "roll_tables": True}, [3, 9, 45])
    assert w.details["tables_rolled"][0]["table"] == "take_decisive_action"


def test_ruling_scene_challenge_changes() -> None:
    # Face Danger (scene challenge): "On a strong hit, you are successful and mark progress. On a
    # strong hit with a match, mark progress twice." "On a weak hit ... fill a clock segment."
    # "On a miss with a match, fill two segments and PAY THE PRICE."
    fd = {
        "move": "face_danger_scene_challenge",
        "stat": "wits",
        "stat_value": 3,
        "rank": "dangerous",
    }
    assert deltas(roll("move", fd, [5, 2, 3]), "progress") == [8]
    assert deltas(roll("move", fd, [5, 3, 3]), "progress") == [16]
    weak = roll("move", fd, [5, 2, 9])
    assert deltas(weak, "progress") == [8] and deltas(weak, "tension_clock") == [1]
    assert deltas(roll("move", fd, [1, 9, 9]), "tension_clock") == [2]
    full = roll("move", {**fd, "clock_filled": 3}, [1, 9, 9])
    assert deltas(full, "tension_clock") == [1] and "Finish a Scene" in (full.changes[0].note or "")
    # Secure an Advantage (scene challenge): "On a strong hit with a match, take both and mark
    # progress."
    sa = {**fd, "move": "secure_an_advantage_scene_challenge"}
    assert deltas(roll("move", sa, [5, 2, 3]), "progress") == []
    assert deltas(roll("move", sa, [5, 3, 3]), "progress") == [8]
    assert deltas(roll("move", sa, [1, 9, 8]), "tension_clock") == [1]
    no_rank = roll("move", {**fd, "rank": None}, [5, 2, 3])
    assert deltas(no_rank, "progress_marks") == [1]
    # Finish a Scene is a progress move
    assert roll("move", {"move": "finish_a_scene", "progress_score": 4}, [3, 5]).outcome == (
        "weak_hit"
    )


def test_ruling_progress_move_legacy_reward() -> None:
    # "troublesome=1 tick; dangerous=2 ticks; formidable=1 box; extreme=2 boxes; epic=3 boxes"
    vow = {"move": "fulfill_your_vow", "progress_score": 9, "rank": "extreme"}
    assert deltas(roll("move", vow, [3, 4]), "legacy:quests") == [8]
    # "Otherwise, make the legacy reward one rank lower (none for a troublesome quest)."
    assert deltas(roll("move", vow, [3, 10]), "legacy:quests") == [4]
    trouble = roll("move", {**vow, "rank": "troublesome"}, [3, 10])
    assert deltas(trouble, "legacy:quests") == []
    exp = {"move": "finish_an_expedition", "progress_score": 9, "rank": "epic"}
    assert deltas(roll("move", exp, [1, 2]), "legacy:discoveries") == [12]


def test_ask_the_oracle_move_and_no_roll_moves() -> None:
    r = roll("move", {"move": "ask_the_oracle", "odds": "likely"}, [75])
    assert r.outcome == "yes"
    # "decide the number of aspects: one, two, or three. Roll that number of times"
    c = roll("move", {"move": "confront_chaos", "aspects": 3, "roll_tables": True}, [1, 50, 100])
    assert len(c.details["tables_rolled"]) == 3
    assert roll("move", {"move": "set_a_flag"}, []).outcome == "no_roll"


# --- suffer moves ------------------------------------------------------------------------------


def test_lose_momentum() -> None:
    # "suffer -1 momentum for a minor setback, -2 for a serious setback, or -3 for a major setback"
    r = roll("lose_momentum", {"momentum": 2, "amount": 3})
    assert deltas(r, "momentum") == [-3]


def test_ruling_momentum_floor() -> None:
    # "When your momentum is at its minimum (-6) and you must suffer -momentum, choose one."
    assert deltas(roll("lose_momentum", {"momentum": -5, "amount": 3}), "momentum") == [-1]
    r = roll("lose_momentum", {"momentum": -6, "amount": 1})
    assert r.outcome == "at_minimum" and r.changes == [] and r.details["notes"]


def test_ruling_meter_overflow_to_momentum() -> None:
    # "If your health is 0, LOSE MOMENTUM equal to any remaining harm."
    r = roll(
        "endure_harm",
        {"health": 1, "amount": 3, "iron": 1, "momentum": 5, "miss_choice": "momentum"},
        [6, 1, 1],
    )
    assert deltas(r, "health") == [-1]
    assert deltas(r, "momentum")[0] == -2


def test_ruling_suffer_roll_after_loss() -> None:
    # "Then, if your health is 0 or you choose to resist the harm, roll +health or +iron,
    # whichever is higher." No roll when health stays above 0 and you do not resist.
    quiet = roll("endure_harm", {"health": 4, "amount": 1, "iron": 2}, [])
    assert quiet.outcome == "no_roll" and deltas(quiet, "health") == [-1] and quiet.dice == []
    # resisting: health 4 - 1 = 3 beats iron 2, so the roll is +3
    r = roll("endure_harm", {"health": 4, "amount": 1, "iron": 2, "resist": True}, [2, 4, 6])
    assert r.details["rolled_with"] == "health" and r.scores["action_score"] == 5
    # harm taken to 0 forces the roll, with +iron
    z = roll("endure_harm", {"health": 2, "amount": 2, "iron": 1}, [2, 4, 6])
    assert z.details["rolled_with"] == "iron" and z.scores["action_score"] == 3


def test_endure_harm_outcomes() -> None:
    base = {"health": 3, "amount": 1, "iron": 2, "resist": True, "momentum": 2}
    # "Shake it off: If you are not wounded, take +1 health"
    s = roll("endure_harm", {**base, "strong_hit_choice": "shake_it_off"}, [6, 1, 2])
    assert deltas(s, "health") == [-1, 1]
    w = roll(
        "endure_harm", {**base, "wounded": True, "strong_hit_choice": "shake_it_off"}, [6, 1, 2]
    )
    assert deltas(w, "health") == [-1]
    # "Embrace the pain: Take +1 momentum"
    e = roll("endure_harm", {**base, "strong_hit_choice": "embrace_the_pain"}, [6, 1, 2])
    assert deltas(e, "momentum") == [1]
    # weak hit: "you may LOSE MOMENTUM (-1) in exchange for +1 health"
    t = roll("endure_harm", {**base, "weak_hit_choice": "trade"}, [6, 1, 9])
    assert deltas(t, "health") == [-1, 1] and deltas(t, "momentum") == [-1]
    # miss at 0: "you must also mark wounded or permanently harmed, or roll on the table below"
    z = {"health": 1, "amount": 1, "iron": 1, "miss_choice": "momentum"}
    table = roll("endure_harm", {**z, "at_zero": "roll_table"}, [1, 9, 8, 5])
    assert table.details["table"]["results"] == ["You suffer mortal harm. Face Death."]
    marked = roll("endure_harm", {**z, "at_zero": "mark_wounded", "momentum": 10}, [1, 9, 8])
    assert [c.target for c in marked.changes][-2:] == ["wounded", "impacts"]
    assert marked.details["after"]["momentum"] == 8 and marked.details["after"]["impacts"] == 1


def test_ruling_impact_caps_momentum() -> None:
    # "Your max momentum is reduced by 1 for each marked impact."
    r = roll("sacrifice_resources", {"supply": 1, "amount": 1, "momentum": 10})
    assert [(c.target, c.delta, c.set_to) for c in r.changes] == [
        ("supply", -1, None),
        ("unprepared", None, 1),
        ("impacts", 1, None),
        ("momentum", -1, None),
    ]
    assert "impact_caps_momentum" in r.rulings


def test_sacrifice_resources_while_unprepared() -> None:
    # "When you suffer a loss of resources while unprepared, ... apply the cost to a different
    # suffer move."
    r = roll("sacrifice_resources", {"supply": 0, "amount": 2, "unprepared": True, "impacts": 1})
    assert r.changes == [] and r.outcome == "unprepared"


def test_ruling_choices_are_the_players() -> None:
    # "On a strong hit, choose one."
    r = roll("endure_stress", {"spirit": 3, "amount": 1, "heart": 2, "resist": True}, [6, 1, 2])
    assert r.details["choices"] == {"strong_hit_choice": ["shake_it_off", "embrace_the_darkness"]}
    assert deltas(r, "spirit") == [-1]


def test_companion_takes_a_hit() -> None:
    # "On a strong hit, your companion rallies. Give them +1 health."
    s = roll("companion_takes_a_hit", {"companion_health": 2, "amount": 2}, [6, 1, 2])
    assert deltas(s, "companion_health") == [-2, 1]
    # "If their health is 0 and you rolled a miss with a match on this move, they are dead"
    d = roll(
        "companion_takes_a_hit",
        {"companion_health": 1, "amount": 1, "miss_choice": "momentum"},
        [1, 9, 9],
    )
    assert d.details["companion"] == "dead"
    o = roll("companion_takes_a_hit", {"companion_health": 1, "amount": 1}, [1, 9, 8])
    assert o.details["companion"] == "out_of_action"


def test_withstand_damage_vehicle_types() -> None:
    # "Incidental vehicle: Roll on the table below." "Support vehicle: Mark the vehicle as
    # battered or roll on the table below."
    base = {"integrity": 1, "amount": 1, "miss_choice": "momentum"}
    inc = roll("withstand_damage", {**base, "vehicle": "incidental"}, [1, 9, 8, 97])
    assert inc.details["table"]["results"] == ["Against all odds, the vehicle holds together."]
    with pytest.raises(InvalidParameter) as err:
        roll(
            "withstand_damage", {**base, "vehicle": "support", "at_zero": "mark_cursed"}, [1, 9, 8]
        )
    assert err.value.field == "params.at_zero"
    cmd = roll("withstand_damage", {**base, "at_zero": "mark_battered"}, [1, 9, 8])
    assert "battered" in [c.target for c in cmd.changes]


# --- recover moves -----------------------------------------------------------------------------


def test_heal() -> None:
    # "If you ... are wounded, clear the impact and take or give +2 health. Otherwise, take or give
    # +3 health."
    w = roll(
        "heal",
        {"stat": "wits", "stat_value": 3, "health": 1, "wounded": True, "impacts": 1},
        [6, 1, 2],
    )
    assert [(c.target, c.delta, c.set_to) for c in w.changes] == [
        ("wounded", None, 0),
        ("impacts", -1, None),
        ("health", 2, None),
    ]
    u = roll("heal", {"stat": "wits", "stat_value": 3, "health": 4}, [6, 1, 2])
    assert deltas(u, "health") == [1]  # capped at 5
    # weak hit: "Choose one: LOSE MOMENTUM (-2) or SACRIFICE RESOURCES (-2)."
    s = roll(
        "heal",
        {
            "stat": "wits",
            "stat_value": 3,
            "health": 1,
            "weak_hit_choice": "sacrifice_resources",
            "supply": 3,
        },
        [6, 1, 9],
    )
    assert deltas(s, "supply") == [-2]


def test_hearten() -> None:
    # "If you are shaken, clear the impact and take +1 spirit. Otherwise, take +2 spirit. If you
    # make this move as you Sojourn, take +1 more." Weak hit: "Then, LOSE MOMENTUM (-1)."
    r = roll("hearten", {"stat": "heart", "stat_value": 2, "spirit": 1, "sojourn": True}, [6, 1, 2])
    assert deltas(r, "spirit") == [3]
    w = roll(
        "hearten",
        {"stat": "heart", "stat_value": 2, "spirit": 1, "shaken": True, "impacts": 1},
        [6, 1, 9],
    )
    assert deltas(w, "spirit") == [1] and deltas(w, "momentum") == [-1]


def test_resupply() -> None:
    # "If you are unprepared, clear the impact and take +1 supply. Otherwise, take +2 supply."
    r = roll(
        "resupply",
        {
            "stat": "supply",
            "stat_value": 0,
            "supply": 0,
            "unprepared": True,
            "impacts": 1,
            "hit_choice": "supply",
        },
        [6, 1, 2],
    )
    assert deltas(r, "supply") == [1] and deltas(r, "impacts") == [-1]
    item = roll(
        "resupply", {"stat": "wits", "stat_value": 2, "supply": 3, "hit_choice": "item"}, [6, 1, 2]
    )
    assert deltas(item, "momentum") == [1]


def test_ruling_repair_points() -> None:
    # "At anchor | 4 points | 2 points"; "exchange each -1 of supply for 1 extra repair point (up
    # to 3 points)."
    r = roll(
        "repair",
        {"stat": "wits", "stat_value": 3, "situation": "anchor", "supply_spent": 2},
        [6, 1, 2],
    )
    assert r.scores["repair_points"] == 6 and deltas(r, "supply") == [-2]
    weak = roll("repair", {"stat": "heart", "stat_value": 3, "situation": "facility"}, [6, 1, 9])
    assert weak.scores["repair_points"] == 5
    miss = roll("repair", {"stat": "wits", "stat_value": 1, "situation": "under_fire"}, [1, 9, 9])
    assert miss.scores["repair_points"] == 0
    with pytest.raises(InvalidParameter) as err:
        roll(
            "repair",
            {"stat": "heart", "stat_value": 3, "situation": "facility", "supply_spent": 1},
            [6, 1, 9],
        )
    assert err.value.field == "params.supply_spent"


def test_ruling_automatic_strong_hit() -> None:
    # "Instead of rolling, assume an automatic strong hit for each."
    r = roll("heal", {"automatic_strong_hit": True, "health": 0}, [])
    assert r.dice == [] and r.outcome == "strong_hit" and deltas(r, "health") == [3]


def test_sojourn() -> None:
    # "You and your allies may each choose two recover moves"; weak hit: "one recover move
    # instead of two, with no more than three moves total among the group."
    assert (
        roll("sojourn", {"stat": "heart", "stat_value": 2}, [6, 1, 2]).details["recover_moves_each"]
        == 2
    )
    weak = roll("sojourn", {"stat": "heart", "stat_value": 2}, [6, 1, 9])
    assert weak.details["recover_moves_each"] == 1 and weak.details["group_limit"] == 3


# --- legacy ------------------------------------------------------------------------------------


def test_ruling_legacy_experience() -> None:
    # "When you fill a box (four ticks) on any legacy track, take 2 experience." ... "earn
    # experience at a reduced rate of 1 experience (instead of 2) for each filled progress box."
    r = roll("mark_legacy", {"ticks": 2, "mark": 6})
    assert deltas(r, "experience") == [4]
    full = roll("mark_legacy", {"ticks": 36, "mark": 8})
    # the tenth box earns 2, the track clears, one more box after clearing earns 1
    assert deltas(full, "experience") == [3] and full.outcome == "cleared"
    cleared = roll("mark_legacy", {"ticks": 0, "cleared": True, "reward_rank": "epic"})
    assert deltas(cleared, "experience") == [3]


def test_advance() -> None:
    # "spend 3 experience to add a new asset, or 2 experience to upgrade an asset"
    assert deltas(roll("advance", {"experience": 3, "purchase": "new_asset"}), "experience") == [-3]
    with pytest.raises(InvalidParameter) as err:
        roll("advance", {"experience": 1, "purchase": "upgrade"})
    assert err.value.field == "params.experience"


def test_ruling_recommit_clears_lowest() -> None:
    # "Roll both challenge dice, take the lowest value, and clear that number of progress boxes.
    # Then, raise the vow’s rank by one (if not already epic)"
    r = roll("recommit", {"ticks": 30, "rank": "formidable"}, [7, 3])
    assert deltas(r, "progress") == [-12] and r.outcome == "extreme"
    assert roll("recommit", {"ticks": 4, "rank": "epic"}, [5, 9]).outcome == "epic"


def test_ruling_table_roll_twice() -> None:
    # Pay the Price: "96 - 100 | Roll twice"
    r = roll("table", {"table": "pay_the_price"}, [97, 1, 100, 90])
    assert r.details["results"] == [
        "A trusted individual or community acts against you",
        "You are delayed or put at a disadvantage",
    ]


def test_every_ruling_has_a_named_test() -> None:
    from tests.rules.systems.sundered_isles import test_outcomes, test_sheet

    names = set(dir(sys.modules[__name__])) | set(dir(test_sheet)) | set(dir(test_outcomes))
    missing = [r.id for r in SYSTEM.rulings if f"test_ruling_{r.id}" not in names]
    assert missing == []


# --- reproducibility ---------------------------------------------------------------------------

EXAMPLES = [(k.id, ex) for k in SYSTEM.roll_kinds.values() for ex in k.examples]


@pytest.mark.parametrize(
    ("kind", "params"), EXAMPLES, ids=[f"{k}-{i}" for i, (k, _) in enumerate(EXAMPLES)]
)
@given(seed=st.integers(0, 2**63 - 1))
def test_seed_and_given_dice_reproduce(kind: str, params: dict[str, Any], seed: int) -> None:
    first = resolve_roll("sundered_isles", kind, params, seed=seed)
    assert first == resolve_roll("sundered_isles", kind, params, seed=seed)
    replay = resolve_roll("sundered_isles", kind, params, dice=first.dice_values())
    assert replay == first.model_copy(update={"seed": None})


def test_errors_are_rules_errors() -> None:
    with pytest.raises(RulesError):
        roll("move", {"move": "face_danger", "stat": "edge", "stat_value": 9}, [1, 1, 1])


def test_ruling_momentum_from_outcome_text() -> None:
    # Face Danger: "On a strong hit, you are successful. Take +1 momentum."
    fd = {"move": "face_danger", "stat": "edge", "stat_value": 2, "momentum": 3}
    assert deltas(roll("move", fd, [5, 1, 2]), "momentum") == [1]
    # kept within the max momentum (10 less 1 per impact)
    capped = roll("move", {**fd, "momentum": 9, "impacts": 1}, [5, 1, 2])
    assert deltas(capped, "momentum") == [0]
    # Secure an Advantage: "On a strong hit, take both." (the weak hit's "Take +2 momentum")
    sa = {"move": "secure_an_advantage", "stat": "wits", "stat_value": 2}
    assert deltas(roll("move", sa, [5, 1, 2]), "momentum") == [2]
    assert deltas(roll("move", sa, [5, 1, 9]), "momentum") == []  # weak hit: choose one
    # Hearten: "Then, LOSE MOMENTUM (-1)."
    h = roll("move", {"move": "hearten", "stat": "heart", "stat_value": 2}, [5, 1, 9])
    assert deltas(h, "momentum") == [-1]
    # conditions and choices are the player's: Make a Connection's "take +1 momentum on a hit"
    mc = roll("move", {"move": "make_a_connection", "stat": "heart", "stat_value": 3}, [5, 1, 2])
    assert deltas(mc, "momentum") == []
    # after a burn, the gain starts from the reset value
    burn = roll("move", {**fd, "momentum": 8, "burn_momentum": True}, [1, 7, 5])
    assert [(c.set_to, c.delta) for c in burn.changes] == [(2, -6), (None, 1)]


def test_suffer_changes_are_in_order_with_a_burn() -> None:
    # Endure Harm at 0 health: "LOSE MOMENTUM equal to any remaining harm", then the roll; a burn
    # resets momentum after that loss, so the changes apply in order.
    r = roll(
        "endure_harm",
        {
            "health": 0,
            "amount": 1,
            "iron": 1,
            "momentum": 9,
            "burn_momentum": True,
            "strong_hit_choice": "embrace_the_pain",
        },
        [1, 7, 5],
    )
    assert [(c.target, c.delta, c.set_to) for c in r.changes] == [
        ("momentum", -1, None),
        ("momentum", -6, 2),
        ("momentum", 1, None),
    ]
    assert r.details["after"]["momentum"] == 3
