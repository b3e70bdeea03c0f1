"""Go Forth (go_forth.txt): every rule with the sentence it comes from, one test per ruling."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import InvalidParameter, RulesError
from rules.models import Resolution
from rules.registry import get_system, resolve_roll
from rules.systems.go_forth.momentum import (
    AREAS,
    Pool,
    build,
    lock,
    prepare,
    rally,
    short_rest,
    spend,
    take_hit,
    turn_returns,
    unlock,
)
from rules.systems.go_forth.wounds import SEVERITIES, apply_conditions, severity_of

SYSTEM = get_system("go_forth")


def roll(kind: str, params: dict[str, Any], dice: list[int] | None = None) -> Resolution:
    return resolve_roll("go_forth", kind, params, dice=dice)


def changes(res: Resolution) -> dict[str, int | None]:
    return {c.target: c.delta if c.delta is not None else c.set_to for c in res.changes}


def field_of(kind: str, params: dict[str, Any], dice: list[int] | None = None) -> str | None:
    with pytest.raises(RulesError) as err:
        roll(kind, params, dice)
    return err.value.field


def test_every_ruling_has_a_named_test() -> None:
    from tests.rules import test_oracle  # fateweaver's oracle, shared by three systems
    from tests.rules.systems.go_forth import test_rest  # the rests' rulings

    names = set(globals()) | set(dir(test_rest)) | set(dir(test_oracle))
    for ruling in SYSTEM.rulings:
        assert f"test_ruling_{ruling.id}" in names, ruling.id


# --- checks ------------------------------------------------------------------------------------


# "Add your Attribute Modifier to the d20." / "Roll d20 trying to beat the Target Number."
@pytest.mark.parametrize(
    ("bonus", "tn", "d20", "outcome", "total"),
    [
        (3, 13, 10, "success", 13),
        (3, 13, 9, "failure", 12),
        (0, 10, 20, "success", 20),
        (-1, 10, 10, "failure", 9),
        (5, 20, 16, "success", 21),
    ],
)
def test_check_d20_plus_roll_bonus_vs_tn(
    bonus: int, tn: int, d20: int, outcome: str, total: int
) -> None:
    res = roll("check", {"roll_bonus": bonus, "tn": tn}, [d20])
    assert res.outcome == outcome
    assert res.scores["total"] == total == d20 + bonus


def test_ruling_meet_tn_succeeds() -> None:
    # "Apply the Momentum result to the Skill Die: Add 4 to the d20 (9) to get 13. Success!"
    res = roll("check", {"tn": 13, "boosts": ["stamina"]}, [9, 4])
    assert res.outcome == "success" and res.scores["total"] == 13
    assert "meet_tn_succeeds" in res.rulings


def test_ruling_roll_bonus_added() -> None:
    # "You add your +Roll bonus to the d20 and your +Effort bonus to the Effort die."
    # The Boost Example's hero has Finesse +3: we add it, so 9 + 3 + 4 = 16, not 13.
    res = roll("check", {"roll_bonus": 3, "tn": 13, "boosts": ["stamina"]}, [9, 4])
    assert res.scores["total"] == 16 and "roll_bonus_added" in res.rulings


# "Easy: Lower the target number by 3" / "Hard: Raise the target number by 3"
@pytest.mark.parametrize(("easy", "hard", "tn"), [(1, 0, 9), (0, 1, 15), (0, 0, 12)])
def test_easy_and_hard_move_the_tn_by_3(easy: int, hard: int, tn: int) -> None:
    res = roll("check", {"tn": 12, "easy": easy, "hard": hard}, [10])
    assert res.scores["tn"] == tn
    assert res.outcome == ("success" if tn <= 10 else "failure")


def test_ruling_easy_hard_no_stack() -> None:
    # "Easy and Hard do not stack" / "They offset each other"
    assert roll("check", {"tn": 12, "easy": 3}, [10]).scores["tn"] == 9
    assert roll("check", {"tn": 12, "hard": 2}, [10]).scores["tn"] == 15
    for easy, hard in [(1, 1), (2, 1), (1, 3)]:
        res = roll("check", {"tn": 12, "easy": easy, "hard": hard}, [10])
        assert res.scores["tn"] == 12 and res.details["mode"] == "normal"
        assert "easy_hard_no_stack" in res.rulings


def test_favored_and_hindered_make_the_next_action_easy_or_hard() -> None:
    # "Favored — Next Action Easy" / "Hindered — Next Action Hard"
    res = roll("check", {"tn": 12, "favored": True}, [10])
    assert res.scores["tn"] == 9 and changes(res) == {"condition.favored": 0}
    res = roll("check", {"tn": 12, "hindered": True}, [10])
    assert res.scores["tn"] == 15 and changes(res) == {"condition.hindered": 0}
    assert roll("check", {"tn": 12, "hindered": True, "easy": 1}, [10]).scores["tn"] == 12


# "Very Easy TN 10 / Easy TN 10 + 1d4 / Common TN 10 + 1d6 / Challenge TN 10 + 1d8 /
#  Extreme TN 10 + 2d4, 2d6, or 2d8 / Doom TN 10 + 2d12"
@pytest.mark.parametrize(
    ("params", "dice", "sides"),
    [
        ({"difficulty": "very_easy"}, [], []),
        ({"difficulty": "easy"}, [3], [4]),
        ({"difficulty": "common"}, [6], [6]),
        ({"difficulty": "challenge"}, [8], [8]),
        ({"difficulty": "extreme", "extreme_dice": "2d4"}, [1, 4], [4, 4]),
        ({"difficulty": "extreme", "extreme_dice": "2d8"}, [7, 8], [8, 8]),
        ({"difficulty": "doom"}, [12, 11], [12, 12]),
    ],
)
def test_encounter_tn_from_difficulty(params: dict, dice: list[int], sides: list[int]) -> None:
    res = roll("encounter_tn", params, dice)
    assert res.scores["tn"] == 10 + sum(dice)
    assert [d.sides for d in res.dice] == sides
    check = roll("check", {**params, "roll_bonus": 1}, [*dice, 15])
    assert check.scores["tn"] == 10 + sum(dice) and check.scores["d20"] == 15


def test_ruling_extreme_default_2d6() -> None:
    # "Extreme TN 10 + 2d4, 2d6, or 2d8"
    res = roll("encounter_tn", {"difficulty": "extreme"}, [5, 6])
    assert res.scores["tn"] == 21 and [d.sides for d in res.dice] == [6, 6]
    assert res.rulings == ["extreme_default_2d6"]


def test_ruling_tn_at_least_one() -> None:
    # "Lower the target number by 3"
    res = roll("check", {"tn": 2, "easy": 1, "roll_bonus": -5}, [6])
    assert res.scores["tn"] == 1 and res.outcome == "success" and "tn_at_least_one" in res.rulings


def test_unique_tn_is_given() -> None:
    # "Standard Encounter (TN 12), but the armored knight has Defense TN 15."
    assert roll("check", {"tn": 15, "roll_bonus": 2}, [12]).outcome == "failure"
    assert roll("check", {"tn": 15, "roll_bonus": 2}, [13]).outcome == "success"


def test_tn_or_difficulty_exactly_one() -> None:
    assert field_of("check", {"roll_bonus": 1}) == "params.tn"
    assert field_of("check", {"tn": 12, "difficulty": "common"}) == "params.tn"
    assert field_of("check", {"tn": 12, "extreme_dice": "2d4"}) == "params.extreme_dice"
    assert field_of("encounter_tn", {"difficulty": "doom", "extreme_dice": "2d4"}) == (
        "params.extreme_dice"
    )


# --- effort ------------------------------------------------------------------------------------


def test_hit_adds_effort_modifier_to_effort_die() -> None:
    # "If you hit: Add your Effort modifier to the Effort die. (If you rolled a 5 you would add
    #  +3 for total of 8)"
    res = roll("effort", {"roll_bonus": 3, "effort_bonus": 3, "effort_die": 8, "tn": 12}, [12, 5])
    assert res.outcome == "hit" and res.scores["effort"] == 8
    assert [d.sides for d in res.dice] == [20, 8]


def test_miss_grazes_for_the_effort_modifier() -> None:
    # "If you miss: You Graze, dealing your Effort modifier in damage (+3 for this example)"
    res = roll("effort", {"roll_bonus": 3, "effort_bonus": 3, "effort_die": 8, "tn": 13}, [2, 8])
    assert res.outcome == "graze" and res.scores["effort"] == 3
    assert res.dice[1].kept is False


# "Bare hands d4 / Weapon / Tool d6"
@pytest.mark.parametrize(("using", "sides"), [("bare_hands", 4), ("weapon", 6), ("tool", 6)])
def test_effort_die_by_what_you_use(using: str, sides: int) -> None:
    res = roll("effort", {"tn": 10, "using": using}, [15, sides])
    assert res.dice[1].sides == sides and res.scores["effort"] == sides


def test_boost_example_scenario_a() -> None:
    # "Add 4 to the d20 (9) to get 13. Success! Effort is 6 damage + 3 Modifier"
    # (the example leaves the +3 Roll out, so roll_bonus 0 reproduces its arithmetic)
    params = {
        "tn": 13,
        "effort_bonus": 3,
        "effort_die": 8,
        "boosts": ["stamina"],
        "pool": {"stamina": 2, "power": 1},
    }
    res = roll("effort", params, [9, 6, 4])
    assert res.outcome == "hit" and res.scores["effort"] == 9
    assert res.details["pool_after"]["stamina"] == 1 and res.details["pool_after"]["fatigue"] == 1


def test_boost_example_scenario_b() -> None:
    # "Add 4 to to Effort. Success! 3 Effort + 3 Modifier + 4 Momentum = 10 Effort"
    params = {
        "tn": 13,
        "effort_bonus": 3,
        "effort_die": 8,
        "effort_boosts": 1,
        "pool": {"stamina": 2, "power": 1},
    }
    res = roll("effort", params, [13, 3, 4])
    assert res.outcome == "hit" and res.scores["effort"] == 10
    assert changes(res) == {"momentum.power": -1, "momentum.fatigue": 1}


def test_stamina_cannot_boost_effort() -> None:
    # "Stamina lets you: Boost a Roll — Roll the die and add it to your Check"
    # "Power lets you: Boost a Roll — Add to Check or Effort"
    params = {"tn": 13, "effort_boosts": 1, "pool": {"stamina": 3, "power": 0}}
    assert field_of("effort", params) == "params.effort_boosts"
    assert field_of("check", {"tn": 13, "boosts": ["power"], "pool": {"power": 0}}) == (
        "params.boosts"
    )


def test_ruling_effort_not_negative() -> None:
    # "If you miss: You Graze, dealing your Effort modifier in damage"
    res = roll("effort", {"tn": 15, "effort_bonus": -1}, [3, 4])
    assert res.outcome == "graze" and res.scores["effort"] == 0
    assert "effort_not_negative" in res.rulings


def test_ruling_effort_boost_on_graze() -> None:
    # "Boost a Roll — Add to Check or Effort"
    res = roll("effort", {"tn": 15, "effort_bonus": 2, "effort_boosts": 1}, [3, 4, 5])
    assert res.outcome == "graze" and res.scores["effort"] == 7
    assert "effort_boost_on_graze" in res.rulings


# "Each Heart = 10 Effort" / "You target only 1 Heart at a time" /
# "Excess Effort beyond 10 is wasted unless specified"
@pytest.mark.parametrize(
    ("on_heart", "die", "hearts", "heart_effort", "wasted"),
    [(0, 5, 3, 8, 0), (4, 3, 2, 0, 0), (4, 2, 3, 9, 0), (8, 6, 2, 0, 7), (9, 6, 2, 0, 8)],
)
def test_effort_accumulates_on_one_heart(
    on_heart: int, die: int, hearts: int, heart_effort: int, wasted: int
) -> None:
    params = {"tn": 10, "effort_bonus": 3, "hearts": 3, "heart_effort": on_heart}
    res = roll("effort", params, [12, die])
    assert res.scores["effort"] == die + 3
    assert (res.scores["hearts"], res.scores["heart_effort"]) == (hearts, heart_effort)
    assert res.details["wasted"] == wasted
    if hearts < 3:
        assert changes(res)["target.hearts"] == -1


def test_ruling_fortified_all_or_nothing() -> None:
    # "Fortified Hearts Require 10+ Effort in a single strike"
    params = {"tn": 10, "effort_bonus": 3, "hearts": 2, "fortified": True, "heart_effort": 0}
    weak = roll("effort", params, [12, 6])
    assert weak.scores["hearts"] == 2 and weak.scores["heart_effort"] == 0
    strong = roll("effort", {**params, "effort_die": 8}, [12, 7])
    assert strong.scores["hearts"] == 1 and "fortified_all_or_nothing" in strong.rulings


def test_ruling_shield_every_strike() -> None:
    # "Shields Flat Effort reduction per check/attack"
    hit = roll("effort", {"tn": 10, "effort_bonus": 2, "shield": 3}, [12, 6])
    assert hit.scores["effort"] == 5 and "shield_every_strike" in hit.rulings
    graze = roll("effort", {"tn": 20, "effort_bonus": 2, "shield": 1}, [12, 6])
    assert graze.scores["effort"] == 1


def test_ruling_breaking_point() -> None:
    # "Breaking Point Deal X Effort in one action to complete entirely, no matter how many
    #  Hearts remain"
    params = {"tn": 10, "effort_bonus": 3, "hearts": 4, "breaking_point": 9}
    res = roll("effort", params, [12, 6])
    assert res.scores["hearts"] == 0 and changes(res)["target.hearts"] == -4
    assert "breaking_point" in res.rulings
    below = roll("effort", {**params, "shield": 1}, [12, 6])
    assert below.scores["hearts"] == 4 and below.scores["heart_effort"] == 8


def test_heart_options_need_hearts() -> None:
    assert field_of("effort", {"tn": 10, "fortified": True}) == "params.hearts"


# --- contests ----------------------------------------------------------------------------------


# "Two characters oppose each other. Both roll — higher total wins."
@pytest.mark.parametrize(("dice", "outcome"), [([12, 10], "win"), ([8, 12], "loss")])
def test_contest_higher_total_wins(dice: list[int], outcome: str) -> None:
    res = roll("contest", {"roll_bonus": 2, "opponent_bonus": 1}, dice)
    assert res.outcome == outcome
    assert res.scores == {"total": dice[0] + 2, "opponent_total": dice[1] + 1}


def test_ruling_contest_tie_status_quo() -> None:
    # "Both roll — higher total wins."
    res = roll("contest", {"roll_bonus": 2, "opponent_bonus": 1}, [10, 11])
    assert res.outcome == "tie" and res.rulings == ["contest_tie_status_quo"]


# --- attributes --------------------------------------------------------------------------------


def test_split_defaults_and_text_examples() -> None:
    # "By default, both equal your attribute score." / "Might +3 → +2 Roll / +4 Effort" /
    # "Reason +2 → +3 Roll / +1 Effort"
    res = roll(
        "attributes",
        {
            "attributes": {
                "might": {"score": 3, "roll": 2},
                "reason": {"score": 2, "effort": 1},
                "vigor": {"score": 1},
            }
        },
    )
    assert res.details["attributes"]["might"] == {"score": 3, "roll": 2, "effort": 4}
    assert res.details["attributes"]["reason"] == {"score": 2, "roll": 3, "effort": 1}
    assert (res.scores["vigor_roll"], res.scores["vigor_effort"]) == (1, 1)


def test_split_keeps_the_sum() -> None:
    # "For each point you reduce one value, increase the other by the same amount."
    bad = {"attributes": {"might": {"score": 3, "roll": 2, "effort": 3}}}
    assert field_of("attributes", bad) == "params.attributes.might.effort"


def test_ruling_split_cap_first_level() -> None:
    # "Neither Roll nor Effort can exceed +5 at first level."
    sheet = {"might": {"score": 4, "roll": 2}}
    assert field_of("attributes", {"attributes": sheet}) == "params.attributes.might.effort"
    res = roll("attributes", {"attributes": sheet, "level": 3})
    assert res.scores["might_effort"] == 6 and "split_cap_first_level" in res.rulings


def test_ruling_negative_attribute_no_split() -> None:
    # "If you have a -1 Attribute, you must reduce both Roll and Effort by 1."
    res = roll("attributes", {"attributes": {"guile": {"score": -1}}})
    assert (res.scores["guile_roll"], res.scores["guile_effort"]) == (-1, -1)
    assert "negative_attribute_no_split" in res.rulings
    bad = {"attributes": {"guile": {"score": -1, "roll": 0, "effort": -2}}}
    assert field_of("attributes", bad) == "params.attributes.guile.roll"


def test_ruling_split_not_below_zero() -> None:
    # "For each point you reduce one value, increase the other by the same amount."
    bad = {"attributes": {"finesse": {"score": 1, "roll": 3}}}
    assert field_of("attributes", bad) == "params.attributes.finesse.effort"
    ok = roll("attributes", {"attributes": {"finesse": {"score": 1, "roll": 2}}})
    assert ok.scores["finesse_effort"] == 0


# --- momentum ----------------------------------------------------------------------------------


def mom(action: str, pool: dict, dice: list[int] | None = None, **extra: Any) -> Resolution:
    return roll("momentum", {"action": action, "pool": pool, **extra}, dice or [])


def test_pool_starts_with_three_stamina() -> None:
    # "You start with 3 Momentum dice (d6s)." / "Stamina ... Starting place for all dice."
    assert Pool().stamina == 3 and Pool().total == 3


def test_prepare_moves_one_die() -> None:
    # "At the start of your turn, you Prepare by moving 1 Momentum die: Stamina → Power
    #  (building energy), Fatigue → Stamina (recovering)"
    res = mom("prepare", {"stamina": 3}, direction="stamina_to_power")
    assert changes(res) == {"momentum.stamina": -1, "momentum.power": 1}
    res = mom("prepare", {"stamina": 1, "fatigue": 2}, direction="fatigue_to_stamina")
    assert res.details["pool_after"]["fatigue"] == 1 and res.details["pool_after"]["stamina"] == 2
    assert field_of("momentum", {"action": "prepare", "direction": "fatigue_to_stamina"}) == (
        "params.direction"
    )
    assert field_of("momentum", {"action": "prepare"}) == "params.direction"


def test_ruling_building_returns_at_prepare() -> None:
    # "If unused when your turn returns, they move to your Fatigue"
    res = mom("prepare", {"stamina": 1, "building": 2}, direction="stamina_to_power")
    assert res.details["pool_after"] == {**Pool(stamina=0, power=1, fatigue=2).model_dump()}
    assert "building_returns_at_prepare" in res.rulings


def test_spend_rolls_a_d6_and_fatigues_it() -> None:
    # "Roll and Fatigue Stamina or Power: You roll Momentum, and get a 4."
    res = mom("spend", {"stamina": 2, "power": 1}, [4], area="power", use="roll")
    assert res.details["boost"] == 4 and res.dice[0].sides == 6
    assert changes(res) == {"momentum.power": -1, "momentum.fatigue": 1}
    # "Extra Action — 1 Momentum = 1 additional Action" (Power only, no die)
    res = mom("spend", {"power": 1}, area="power", use="extra_action")
    assert res.dice == [] and res.details["pool_after"]["fatigue"] == 1
    pool = {"stamina": 3}
    assert (
        field_of("momentum", {"action": "spend", "area": "stamina", "use": "effort", "pool": pool})
        == "params.use"
    )
    assert (
        field_of("momentum", {"action": "spend", "area": "power", "use": "roll", "pool": pool})
        == "params.area"
    )


def test_allies_use_built_dice_like_power() -> None:
    # "Allies may use them like Power dice (after which they are returned to your Fatigue)"
    res = mom("spend", {"stamina": 1, "building": 2}, [3], area="building", use="effort")
    assert changes(res) == {"momentum.building": -1, "momentum.fatigue": 1}


def test_build_pushes_power_into_building() -> None:
    # "On your turn, you may push any number of Power dice into Building."
    res = mom("build", {"stamina": 1, "power": 2}, count=2)
    assert changes(res) == {"momentum.power": -2, "momentum.building": 2}
    assert field_of("momentum", {"action": "build", "count": 3, "pool": {"power": 2}}) == (
        "params.count"
    )


def test_lock_uses_a_slot() -> None:
    # "Move a die into a Locked slot" / "You begin with 1 Lock slot."
    # "Increase Defense — Lock and roll 1 Momentum, it increases all Defenses"
    res = mom("lock", {"stamina": 1, "power": 2}, [5], area="power", use="defense")
    assert res.details["defense_bonus"] == 5 and res.details["pool_after"]["locked"] == 1
    full = {"action": "lock", "area": "power", "pool": {"power": 2, "locked": 1}}
    assert field_of("momentum", full) == "params.area"
    assert (
        mom("lock", {"power": 2, "locked": 1, "lock_slots": 2}, area="power").scores["locked"] == 2
    )


def test_ruling_lock_from_power() -> None:
    # "Increase Defense — Lock and roll 1 Momentum"
    res = mom("lock", {"stamina": 2, "power": 1})
    assert changes(res) == {"momentum.power": -1, "momentum.locked": 1}
    assert res.rulings == ["lock_from_power"]


def test_ruling_unlock_to_fatigue() -> None:
    # "On your turn, you can opt to remove it, or replace it with a new Lock ability you've
    #  activated"
    res = mom("unlock", {"stamina": 2, "locked": 1})
    assert changes(res) == {"momentum.locked": -1, "momentum.fatigue": 1}
    assert res.rulings == ["unlock_to_fatigue"]


def test_hit_moves_one_die_to_fatigue_from_the_chosen_area() -> None:
    # "When you take a Hit, move 1 Momentum die into Fatigue. It can come from: Stamina Power
    #  Building Locked"  /  "If you take a Hit, you may move it to Fatigue (ending the effect)"
    res = mom("take_hit", {"stamina": 2, "locked": 1}, area="locked")
    assert changes(res) == {"momentum.locked": -1, "momentum.fatigue": 1}
    assert res.outcome == "take_hit"


def test_ruling_hit_order() -> None:
    # "It can come from: Stamina Power Building Locked"
    res = mom("take_hit", {"stamina": 1, "power": 1, "building": 1, "locked": 1}, count=4)
    assert res.details["hit_from"] == ["stamina", "power", "building", "locked"]
    assert "hit_order" in res.rulings


def test_hit_with_everything_fatigued_triggers_a_beat() -> None:
    # "If all Momentum is already in Fatigue when you take a Hit → you trigger a Beat."
    res = mom("take_hit", {"stamina": 1, "fatigue": 2}, count=2)
    assert res.outcome == "beat" and res.scores["beats"] == 1
    assert changes(res)["beat"] == 1 and res.details["pool_after"]["fatigue"] == 3


def test_rally_recovers_one_die() -> None:
    # "Rally Move 1 Momentum from Fatigue to Stamina for yourself or a Close ally"
    res = mom("rally", {"fatigue": 3})
    assert changes(res) == {"momentum.fatigue": -1, "momentum.stamina": 1}


def test_ruling_short_rest_gathers_everything() -> None:
    # "Move all Momentum to Stamina"
    res = mom("short_rest", {"stamina": 0, "power": 1, "fatigue": 2, "locked": 1, "building": 1})
    assert res.details["pool_after"]["stamina"] == 5 and res.scores["fatigue"] == 0
    assert "short_rest_gathers_everything" in res.rulings


def test_options_that_do_not_apply_are_named() -> None:
    assert (
        field_of(
            "momentum", {"action": "rally", "direction": "stamina_to_power", "pool": {"fatigue": 1}}
        )
        == "params.direction"
    )
    assert field_of("momentum", {"action": "short_rest", "count": 2}) == "params.count"
    assert field_of("momentum", {"action": "spend", "area": "power"}) == "params.use"
    assert field_of("momentum", {"action": "x"}) == "params.action"
    assert field_of("momentum", {"action": "rally", "pool": {"locked": 2}}) == (
        "params.pool.locked"
    )


POOLS = st.builds(
    Pool,
    lock_slots=st.integers(0, 3),
    stamina=st.integers(0, 6),
    power=st.integers(0, 6),
    fatigue=st.integers(0, 6),
    building=st.integers(0, 6),
).flatmap(lambda p: st.integers(0, p.lock_slots).map(lambda n: p.model_copy(update={"locked": n})))
TRANSITIONS = [
    lambda p, d: prepare(p, "stamina_to_power"),
    lambda p, d: prepare(p, "fatigue_to_stamina"),
    lambda p, d: spend(p, d["area"], d["n"]),
    lambda p, d: lock(p, d["area"]),
    lambda p, d: unlock(p),
    lambda p, d: build(p, d["n"]),
    lambda p, d: take_hit(p, d["hit_area"])[0],
    lambda p, d: rally(p),
    lambda p, d: short_rest(p),
    lambda p, d: turn_returns(p),
]


@given(
    POOLS,
    st.lists(
        st.tuples(
            st.integers(0, len(TRANSITIONS) - 1),
            st.fixed_dictionaries(
                {
                    "area": st.sampled_from(["stamina", "power", "building"]),
                    "hit_area": st.sampled_from([None, "stamina", "power", "building", "locked"]),
                    "n": st.integers(0, 3),
                }
            ),
        ),
        max_size=12,
    ),
)
def test_pool_transitions_conserve_dice(pool: Pool, steps: list) -> None:
    total = pool.total
    for index, args in steps:
        try:
            after = TRANSITIONS[index](pool, args)
        except InvalidParameter:
            continue  # an impossible move is refused and the pool is unchanged
        assert after.total == total
        assert all(after.count(a) >= 0 for a in AREAS) and after.locked <= after.lock_slots
        pool = after


# --- wounds ------------------------------------------------------------------------------------


# "1d20 + the two attributes tied to the Defense that dropped you" / "Each existing Wound gives a
#  -5 penalty" / "1 – 5 Vicious Wound (d4 sessions)" / "6 – 15 Shallow" / "16+ Flesh Wound"
@pytest.mark.parametrize(
    ("defense", "attributes", "wounds", "d20", "severity", "outcome"),
    [
        ("body", {"might": 2, "agility": 1}, 0, 13, 16, "flesh"),
        ("body", {"might": 2, "agility": 1}, 0, 12, 15, "shallow"),
        ("mind", {"instinct": 1, "reason": 0}, 1, 10, 6, "shallow"),
        ("soul", {"presence": 0, "vigor": 1}, 2, 14, 5, "vicious"),
        ("soul", {"presence": 0, "vigor": 1}, 2, 9, 0, "permanent"),
        ("body", {"might": 0, "agility": -1}, 2, 3, -8, "death"),
    ],
)
def test_wound_severity(
    defense: str, attributes: dict, wounds: int, d20: int, severity: int, outcome: str
) -> None:
    params = {"defense": defense, "attributes": attributes, "existing_wounds": wounds}
    dice = [d20, 3] + ([2] if outcome == "vicious" else [])
    res = roll("wound", params, dice)
    assert res.scores["severity"] == severity == d20 + sum(attributes.values()) - 5 * wounds
    assert res.outcome == outcome
    assert res.dice[1].role == f"table:wound_{defense}"


def test_vicious_wound_lasts_d4_sessions() -> None:
    # "1 – 5 Vicious Wound (d4 sessions)"
    res = roll("wound", {"defense": "body", "attributes": {"might": 0, "agility": 0}}, [3, 2, 4])
    assert res.outcome == "vicious" and res.scores["sessions"] == 4 and res.dice[2].sides == 4


def test_ruling_severity_minus_six() -> None:
    # "-6 or less Death (at end of encounter)" / "-6 to 0 Permanent Wound"
    params = {"defense": "mind", "attributes": {"instinct": 0, "reason": -1}, "existing_wounds": 2}
    res = roll("wound", params, [5, 3])
    assert res.scores["severity"] == -6 and res.outcome == "permanent"
    assert "severity_minus_six" in res.rulings
    assert roll("wound", params, [4, 3]).outcome == "death"


def test_ruling_severity_clamp() -> None:
    # "-6 or less ... 16+"
    params = {"defense": "soul", "attributes": {"presence": 4, "vigor": 4}}
    res = roll("wound", params, [20, 2])
    assert res.scores["severity"] == 28 and res.scores["severity_row"] == 20
    assert res.outcome == "flesh" and "severity_clamp" in res.rulings
    low = roll("wound", {**params, "existing_wounds": 6}, [1, 2])
    assert low.outcome == "death" and low.scores["severity_row"] == -7


def test_ruling_death_still_rolls_wound() -> None:
    # "Roll d8 on the matching Defense chart."
    params = {"defense": "body", "attributes": {"might": 0, "agility": 0}, "existing_wounds": 3}
    res = roll("wound", params, [1, 1])
    assert res.outcome == "death" and len(res.dice) == 2
    assert {"death", "condition.weakened"} <= set(changes(res))


# "1. Weakened Condition" (Body) / "1. Dazed Condition" (Mind) / "1. Shaken Condition" (Soul) /
# "8. Lose 1 Momentum permanently" (Soul)
@pytest.mark.parametrize(
    ("defense", "d8", "change", "value"),
    [
        ("body", 1, "condition.weakened", 1),
        ("mind", 1, "condition.dazed", 1),
        ("soul", 1, "condition.shaken", 1),
        ("soul", 8, "momentum.dice", -1),
    ],
)
def test_wound_table_effects(defense: str, d8: int, change: str, value: int) -> None:
    attrs = {"might": 5, "agility": 5, "instinct": 5, "reason": 5, "presence": 5, "vigor": 5}
    res = roll("wound", {"defense": defense, "attributes": attrs}, [10, d8])
    assert changes(res)[change] == value and changes(res)["wounds"] == 1
    assert res.details["wound"] == SYSTEM.tables[f"wound_{defense}"].row_for(d8).text


def test_wound_needs_the_defense_attributes() -> None:
    params = {"defense": "body", "attributes": {"might": 1}}
    assert field_of("wound", params) == "params.attributes.agility"


@given(st.integers(-3, 6), st.integers(-3, 6), st.integers(0, 4), st.integers(1, 20))
def test_better_attributes_never_worsen_severity(a: int, b: int, wounds: int, d20: int) -> None:
    # "The more broken you are, the harder you fall." (and the better your attributes, the softer)
    order = list(SEVERITIES)
    low = severity_of(d20 + a + b - 5 * wounds)[1]
    higher = severity_of(d20 + a + 1 + b - 5 * wounds)[1]
    wounded = severity_of(d20 + a + b - 5 * (wounds + 1))[1]
    assert order.index(higher) >= order.index(low) >= order.index(wounded)


# --- conditions --------------------------------------------------------------------------------


def test_opposites_cancel() -> None:
    # "Empowered meets Weakened? Both gone. Focused meets Dazed? Wiped clean."
    res = roll("conditions", {"current": ["weakened", "dazed"], "add": ["empowered", "focused"]})
    assert res.details["conditions"] == [] and res.outcome == "cancelled"
    assert changes(res) == {"condition.weakened": 0, "condition.dazed": 0}


def test_different_conditions_stack() -> None:
    # "You can carry multiple conditions at once; Empowered and Protected, Weakened and Trapped."
    res = roll("conditions", {"current": ["empowered"], "add": ["protected", "trapped"]})
    assert res.details["conditions"] == ["empowered", "protected", "trapped"]


def test_ruling_conditions_held_once() -> None:
    # "You can carry multiple conditions at once; Empowered and Protected, Weakened and Trapped.
    #  Stack away."
    res = roll("conditions", {"current": ["weakened"], "add": ["weakened", "empowered"]})
    assert res.details["conditions"] == [] and "conditions_held_once" in res.rulings
    assert apply_conditions(["mobile", "trapped"], []) == ([], ["mobile", "trapped"])


# --- invariants --------------------------------------------------------------------------------

CHECK_PARAMS = st.fixed_dictionaries(
    {"roll_bonus": st.integers(-5, 10), "effort_bonus": st.integers(-5, 10)},
    optional={
        "tn": st.integers(1, 30),
        "easy": st.integers(0, 2),
        "hard": st.integers(0, 2),
        "effort_boosts": st.integers(0, 2),
        "boosts": st.lists(st.sampled_from(["stamina", "power"]), max_size=2),
        "hearts": st.integers(1, 4),
        "shield": st.integers(0, 3),
        "fortified": st.booleans(),
    },
).map(lambda p: p if "tn" in p else {**p, "difficulty": "challenge"})


def _effort_params(p: dict) -> dict:
    if p.get("fortified") and "hearts" not in p:
        return {k: v for k, v in p.items() if k != "fortified"}
    return p


@given(CHECK_PARAMS, st.integers(0, 2**63 - 1))
def test_seed_reproduces_and_given_dice_replay(params: dict, seed: int) -> None:
    params = _effort_params(params)
    first = resolve_roll("go_forth", "effort", params, seed=seed)
    assert resolve_roll("go_forth", "effort", params, seed=seed) == first
    replay = resolve_roll("go_forth", "effort", params, dice=first.dice_values())
    assert replay.model_copy(update={"seed": seed}) == first


@given(st.integers(-5, 9), st.integers(1, 30), st.integers(1, 20), st.integers(1, 6))
def test_higher_bonus_never_turns_a_hit_into_a_miss(
    bonus: int, tn: int, d20: int, effort: int
) -> None:
    low = roll("effort", {"roll_bonus": bonus, "tn": tn}, [d20, effort])
    high = roll("effort", {"roll_bonus": bonus + 1, "tn": tn}, [d20, effort])
    assert not (low.outcome == "hit" and high.outcome == "graze")
    assert high.scores["effort"] >= low.scores["effort"]


@given(st.integers(-3, 8), st.integers(-3, 16))
def test_valid_splits_keep_the_sum(score: int, roll_value: int) -> None:
    params = {"attributes": {"might": {"score": score, "roll": roll_value}}, "level": 2}
    try:
        res = roll("attributes", params)
    except InvalidParameter as err:
        assert err.field is not None and err.field.startswith("params.attributes.might.")
        return
    assert res.scores["might_roll"] + res.scores["might_effort"] == 2 * score


def test_pool_cap_holds_for_the_whole_pool() -> None:
    # "After every Encounter: Move all Momentum to Stamina" (Short Rest), so the
    # per-area cap must hold for the pool's total, or the rest would overflow Stamina.
    with pytest.raises(InvalidParameter) as err:
        resolve_roll(
            "go_forth",
            "momentum",
            {"action": "short_rest", "pool": {"stamina": 3, "building": 28, "lock_slots": 0}},
        )
    assert err.value.field is not None and err.value.field.startswith("params.pool")
