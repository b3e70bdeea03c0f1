"""Storyteller rules (storyteller.txt): one test per rule, one named test per ruling, invariants."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import factorial
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import DiceError, InvalidParameter
from rules.registry import get_system, resolve_roll
from rules.systems.storyteller.pool import DEGREE_TABLE, MAX_ACTIONS, MAX_POOL, count_pool

SYSTEM = "storyteller"


def roll(kind: str, params: dict[str, Any], dice: list[int]):
    return resolve_roll(SYSTEM, kind, params, dice=dice)


def simple(pool: int, difficulty: int, dice: list[int], **extra: Any):
    # stressful: no automatic success, so the pool is always rolled
    return roll(
        "simple", {"pool": pool, "difficulty": difficulty, "stressful": True, **extra}, dice
    )


# --- rules -------------------------------------------------------------------------------------


def test_each_die_at_or_above_difficulty_is_a_success() -> None:
    # "Every die a player rolls that comes up equal to or greater than the difficulty, is a success."
    r = simple(4, 6, [6, 5, 7, 2])
    assert r.scores["successes"] == 2 and r.scores["net"] == 2 and r.outcome == "success"


def test_one_die_per_point_in_the_pool() -> None:
    # "You roll one die for each point in the required trait(s)."
    r = simple(7, 6, [2, 3, 4, 5, 2, 3, 4])
    assert len(r.dice) == 7 and all(d.sides == 10 and d.role == "pool" for d in r.dice)
    with pytest.raises(DiceError) as err:
        simple(7, 6, [2, 3, 4])
    assert err.value.field == "dice[3]"


@pytest.mark.parametrize("difficulty", range(2, 11))
def test_difficulties_range_from_2_to_10(difficulty: int) -> None:
    # "Difficulty values range from 2 to 10, but usually from 3 to 9."
    assert simple(1, difficulty, [difficulty]).scores["successes"] == 1


@pytest.mark.parametrize("difficulty", [-1, 0, 1, 11, 100])
def test_difficulty_outside_2_to_10_is_rejected(difficulty: int) -> None:
    # "Difficulty values range from 2 to 10"
    with pytest.raises(InvalidParameter) as err:
        simple(1, difficulty, [5])
    assert err.value.field == "params.difficulty"


def test_a_one_is_never_a_success() -> None:
    # "Rolling a 1 is a botched roll." -- even at difficulty 2, a 1 is not a success
    r = simple(2, 2, [1, 2])
    assert r.scores["successes"] == 1 and r.scores["ones"] == 1 and r.scores["net"] == 0


# --- rulings (one named test each) -------------------------------------------------------------


@pytest.mark.parametrize("pool", [0, -3, MAX_POOL + 1, 500])
def test_ruling_pool_size(pool: int) -> None:
    # "You roll one die for each point in the required trait(s)."
    with pytest.raises(InvalidParameter) as err:
        simple(pool, 6, [5])
    assert err.value.field == "params.pool"
    assert len(simple(MAX_POOL, 6, [5] * MAX_POOL).dice) == MAX_POOL


def test_ruling_ten_always_succeeds() -> None:
    # "A “10” is always a success." -- but "Every botched roll cancels out 1 success." (a 10 too)
    assert simple(2, 10, [10, 9]).scores["net"] == 1
    cancelled = simple(2, 10, [10, 1])
    assert cancelled.outcome == "failure" and cancelled.scores["net"] == 0
    assert [d.cancelled for d in cancelled.dice] == [True, False]
    assert "ten_always_succeeds" in cancelled.rulings
    # the lowest success is marked cancelled first: the 8, not the 10
    r = simple(3, 8, [10, 8, 1])
    assert [d.cancelled for d in r.dice] == [False, True, False] and r.scores["net"] == 1


def test_ruling_ones_cancel_successes() -> None:
    # "Every botched roll cancels out 1 success."
    assert simple(3, 6, [7, 8, 1]).scores["net"] == 1
    r = simple(4, 6, [7, 1, 1, 1])
    assert r.scores["net"] == 0 and r.outcome == "failure"
    assert "ones_cancel_successes" in r.rulings


def test_ruling_botch_needs_zero_successes() -> None:
    # "If you roll a botch while having zero successes (does not matter if they are cancelled
    # out by a botched roll, they count as a success for this) the action is botched."
    botch = simple(3, 6, [1, 3, 4])
    assert botch.outcome == "botch" and botch.citation.heading == "Botches"
    saved = simple(2, 6, [1, 7])
    assert saved.outcome == "failure" and saved.scores["net"] == 0
    assert "botch_needs_zero_successes" in saved.rulings
    assert simple(2, 6, [3, 4]).outcome == "failure"  # no 1, no success: a failure


@pytest.mark.parametrize("net", range(1, 8))
def test_ruling_degree_by_net_successes(net: int) -> None:
    # "One success is marginal success, three or more is a complete success. Five or more is a
    # momentous occasion."
    r = simple(net + 1, 6, [10] * net + [4])
    row = DEGREE_TABLE.row_for(min(net, 5))
    assert r.text == row.text and r.details["degree"] == row.text.split()[0].lower()
    expected = {1: "marginal", 3: "complete", 5: "phenomenal"}
    if net in expected:
        assert r.details["degree"] == expected[net]
    if net >= 5:
        assert r.details["degree"] == "phenomenal"
    assert simple(2, 6, [10, 1]).details["degree"] is None


def test_ruling_automatic_success() -> None:
    # "If the number of dice in a given dice pool is equal to or greater than the difficulty, the
    # character succeeds automatically. [...] Automatic successes only count as having a single
    # success. A player may risk failure and not use an automatic success."
    auto = roll("simple", {"pool": 6, "difficulty": 6}, [])
    assert auto.outcome == "success" and auto.dice == [] and auto.scores["net"] == 1
    assert auto.details["degree"] == "marginal" and "automatic_success" in auto.rulings
    with_wp = roll("simple", {"pool": 6, "difficulty": 6, "willpower": True}, [])
    assert with_wp.scores["net"] == 1 and with_wp.changes == []
    # "This does not apply to combat or other stressful situations."
    assert len(roll("simple", {"pool": 6, "difficulty": 6, "stressful": True}, [1] * 6).dice) == 6
    declined = roll("simple", {"pool": 6, "difficulty": 6, "decline_automatic": True}, [1] * 6)
    assert declined.outcome == "botch"
    # a pool below the difficulty rolls
    assert len(roll("simple", {"pool": 5, "difficulty": 6}, [6] * 5).dice) == 5
    with pytest.raises(DiceError) as err:
        roll("simple", {"pool": 6, "difficulty": 6}, [7])
    assert err.value.field == "dice[0]"


def test_ruling_automatic_success_simple_only() -> None:
    # Summary, Simple: "Automatic success is possible." (said of no other kind of action)
    ext = roll("extended", {"pool": 8, "difficulty": 4, "goal": 10}, [1] * 8)
    assert len(ext.dice) == 8 and ext.outcome == "botch"
    res = roll(
        "resisted",
        {"pool": 8, "difficulty": 4, "opponent_pool": 1, "opponent_difficulty": 6},
        [2] * 9,
    )
    assert len(res.dice) == 9


def test_ruling_willpower_success() -> None:
    # "Players may spend a willpower point to guarantee a success on a roll, applying one success
    # to the role. This can only be performed once per turn."
    r = simple(3, 6, [1, 1, 7], willpower=True)
    assert r.scores["net"] == 1 and r.outcome == "success"  # the 1s cannot cancel it
    no_botch = simple(2, 6, [1, 2], willpower=True)
    assert no_botch.outcome == "success" and no_botch.scores["net"] == 1
    assert [(c.target, c.delta) for c in no_botch.changes] == [("willpower", -1)]
    assert "willpower_success" in no_botch.rulings
    with pytest.raises(InvalidParameter) as err:
        roll(
            "multiple",
            {
                "actions": [
                    {"pool": 4, "difficulty": 6, "willpower": True},
                    {"pool": 4, "difficulty": 6, "willpower": True},
                ]
            },
            [5] * 4,
        )
    assert err.value.field == "params.actions.1.willpower"


def test_ruling_extended_accumulates_net_successes() -> None:
    # "it will take a collective 15 successes to break in."
    r = roll("extended", {"pool": 4, "difficulty": 6, "goal": 6, "accumulated": 4}, [7, 8, 1, 9])
    assert r.scores["net"] == 2 and r.scores["total"] == 6
    assert r.outcome == "completed" and r.details["done"] is True
    assert (r.changes[0].target, r.changes[0].delta, r.changes[0].set_to) == ("progress", 2, 6)
    step = roll("extended", {"pool": 2, "difficulty": 6, "goal": 15}, [7, 3])
    assert step.outcome == "success" and step.details["remaining"] == 14
    none = roll("extended", {"pool": 2, "difficulty": 6, "goal": 15, "accumulated": 3}, [7, 1])
    assert none.outcome == "failure" and none.scores["total"] == 3


def test_ruling_extended_botch_wipes_progress() -> None:
    # "Botching an extended action removes all progress up to that point"
    r = roll("extended", {"pool": 3, "difficulty": 6, "goal": 15, "accumulated": 10}, [1, 2, 3])
    assert r.outcome == "botch" and r.scores["total"] == 0
    assert (r.changes[0].set_to, r.changes[0].delta) == (0, -10)


def test_extended_action_already_finished_is_rejected() -> None:
    # "Task is completed when a given number of successes are obtained"
    with pytest.raises(InvalidParameter) as err:
        roll("extended", {"pool": 3, "difficulty": 6, "goal": 5, "accumulated": 5}, [5, 5, 5])
    assert err.value.field == "params.accumulated"


def _resisted(mine: list[int], theirs: list[int], **extra: Any):
    params = {
        "pool": len(mine),
        "difficulty": 6,
        "opponent_pool": len(theirs),
        "opponent_difficulty": 6,
        **extra,
    }
    kind = "extended_resisted" if "goal" in extra else "resisted"
    return roll(kind, params, [*mine, *theirs])


def test_ruling_resisted_compares_net_successes() -> None:
    # "They compare their number of successes; the character with the most successes wins."
    r = _resisted([7, 8, 1], [6, 1, 1])
    assert (r.scores["net"], r.scores["opponent_net"], r.scores["margin"]) == (1, 0, 1)
    assert r.outcome == "win" and r.details["winner"] == "actor"
    assert [d.role for d in r.dice] == ["pool"] * 3 + ["opponent"] * 3
    loss = _resisted([7, 2], [8, 9])
    assert loss.outcome == "loss" and loss.details["winner"] == "opponent"
    botch = _resisted([1, 2], [8])
    assert botch.outcome == "botch" and botch.details["winner"] == "opponent"


def test_ruling_resisted_tie_status_quo() -> None:
    # "Whoever gets more successes wins."
    r = _resisted([7, 2], [9, 3])
    assert r.outcome == "tie" and r.details["winner"] is None and r.scores["margin"] == 0
    assert "resisted_tie_status_quo" in r.rulings


def test_ruling_extended_resisted_first_to_goal() -> None:
    # "An extended resisted action has a fixed success goal, and each party rolls their dice
    # pools. The first to reach the goal wins."
    goal = {"goal": 5, "accumulated": 4, "opponent_accumulated": 4}
    assert _resisted([7, 7], [7, 2], **goal).outcome == "win"  # 6 against 5: higher total
    assert _resisted([7, 2], [7, 2], **goal).outcome == "tie"  # 5 and 5
    assert _resisted([2, 2], [7, 2], **goal).outcome == "loss"
    far = {"goal": 10, "accumulated": 2, "opponent_accumulated": 3}
    going = _resisted([7, 2], [1, 2], **far)
    assert going.outcome == "continue"
    assert (going.scores["total"], going.scores["opponent_total"]) == (3, 0)  # their botch wipes
    assert [c.set_to for c in going.changes[:2]] == [3, 0]
    with pytest.raises(InvalidParameter) as err:
        _resisted([7], [7], goal=5, accumulated=0, opponent_accumulated=6)
    assert err.value.field == "params.opponent_accumulated"


def test_ruling_teamwork_adds_net_successes() -> None:
    # "each player makes a separate roll and adds their successes together."
    params = {"difficulty": 6, "members": [{"pool": 3}, {"pool": 2}]}
    r = roll("teamwork", params, [7, 1, 8, 9, 9])
    assert r.scores["net"] == 3 and r.outcome == "success"
    assert [d.role for d in r.dice] == ["member:1"] * 3 + ["member:2"] * 2
    # one member's 1s cancel only that member's successes
    assert roll("teamwork", params, [1, 1, 1, 9, 9]).scores["net"] == 2


def test_ruling_teamwork_botch_affects_all() -> None:
    # "However, one member botching can affect everyone involved."
    r = roll("teamwork", {"difficulty": 6, "members": [{"pool": 2}, {"pool": 2}]}, [1, 2, 9, 9])
    assert r.outcome == "botch" and r.details["botched_members"] == [1]
    assert r.scores["net"] == 2  # reported for the storyteller


def _multiple(actions: list[dict[str, Any]], dice: list[int]):
    return roll("multiple", {"actions": actions}, dice)


def test_ruling_multiple_actions_split_smallest_pool() -> None:
    # "The player first declares how many actions they wish to take, and determines which one has
    # the smallest dice pool. They may then allocate that number of dice among the actions as they
    # see fit."
    even = _multiple([{"pool": 6, "difficulty": 6}, {"pool": 5, "difficulty": 7}], [7, 7, 7, 8, 2])
    assert [d.role for d in even.dice] == ["action:1"] * 3 + ["action:2"] * 2
    assert even.outcome == "success,success"
    chosen = _multiple(
        [
            {"pool": 6, "difficulty": 6, "allocated": 4},
            {"pool": 5, "difficulty": 6, "allocated": 1},
        ],
        [2, 2, 2, 2, 1],
    )
    assert (chosen.scores["action_1_dice"], chosen.scores["action_2_dice"]) == (4, 1)
    assert chosen.outcome == "failure,botch"
    bad = [
        (
            [
                {"pool": 6, "difficulty": 6, "allocated": 4},
                {"pool": 5, "difficulty": 6, "allocated": 2},
            ],
            "params.actions",
        ),
        (
            [{"pool": 6, "difficulty": 6, "allocated": 4}, {"pool": 5, "difficulty": 6}],
            "params.actions.1.allocated",
        ),
        ([{"pool": 1, "difficulty": 6}, {"pool": 5, "difficulty": 6}], "params.actions"),
    ]
    for actions, field in bad:
        with pytest.raises(InvalidParameter) as err:
            _multiple(actions, [5] * 5)
        assert err.value.field == field


def test_ruling_rage_actions_not_split() -> None:
    # "Extra actions gained from Rage cannot be split but do not suffer a dice penalty."
    r = _multiple(
        [{"pool": 6, "difficulty": 6}, {"pool": 2, "difficulty": 6, "rage": True}], [5] * 8
    )
    assert (r.scores["action_1_dice"], r.scores["action_2_dice"]) == (6, 2)
    assert "rage_actions_not_split" in r.rulings
    for actions, field in [
        (
            [
                {"pool": 6, "difficulty": 6},
                {"pool": 2, "difficulty": 6, "rage": True, "allocated": 1},
            ],
            "params.actions.1.allocated",
        ),
        (
            [
                {"pool": 6, "difficulty": 6, "rage": True},
                {"pool": 2, "difficulty": 6, "rage": True},
            ],
            "params.actions",
        ),
    ]:
        with pytest.raises(InvalidParameter) as err:
            _multiple(actions, [5] * 8)
        assert err.value.field == field


def test_every_ruling_has_a_named_test() -> None:
    from tests.rules import test_oracle  # fateweaver's oracle, shared by three systems

    names = set(globals()) | set(dir(test_oracle))
    for ruling in get_system(SYSTEM).rulings:
        assert f"test_ruling_{ruling.id}" in names, ruling.id


# --- invariants ------------------------------------------------------------------------------------

difficulties = st.integers(min_value=2, max_value=10)
pools = st.integers(min_value=1, max_value=MAX_POOL)
d10s = st.integers(min_value=1, max_value=10)


@st.composite
def requests(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    kind = draw(
        st.sampled_from(
            ["simple", "extended", "resisted", "extended_resisted", "teamwork", "multiple"]
        )
    )
    base = {"pool": draw(pools), "difficulty": draw(difficulties), "willpower": draw(st.booleans())}
    if kind == "simple":
        return kind, {**base, "stressful": draw(st.booleans())}
    if kind == "extended":
        goal = draw(st.integers(min_value=1, max_value=100))
        return kind, {**base, "goal": goal, "accumulated": draw(st.integers(0, goal - 1))}
    if kind in ("resisted", "extended_resisted"):
        params = {**base, "opponent_pool": draw(pools), "opponent_difficulty": draw(difficulties)}
        if kind == "resisted":
            return kind, params
        goal = draw(st.integers(min_value=1, max_value=100))
        return kind, {
            **params,
            "goal": goal,
            "accumulated": draw(st.integers(0, goal - 1)),
            "opponent_accumulated": draw(st.integers(0, goal - 1)),
        }
    if kind == "teamwork":
        members = draw(st.lists(st.fixed_dictionaries({"pool": pools}), min_size=2, max_size=6))
        return kind, {"difficulty": base["difficulty"], "members": members}
    actions = draw(
        st.lists(
            st.fixed_dictionaries(
                {"pool": st.integers(MAX_ACTIONS, MAX_POOL), "difficulty": difficulties}
            ),
            min_size=2,
            max_size=MAX_ACTIONS,
        )
    )
    return kind, {"actions": actions}


@settings(max_examples=150)
@given(request=requests(), seed=st.integers(min_value=0, max_value=2**63 - 1))
def test_seed_reproduces_and_given_dice_replay(request: tuple[str, dict], seed: int) -> None:
    kind, params = request
    first = resolve_roll(SYSTEM, kind, params, seed=seed)
    assert resolve_roll(SYSTEM, kind, params, seed=seed) == first
    replay = resolve_roll(SYSTEM, kind, params, dice=first.dice_values())
    assert replay.model_copy(update={"seed": seed}) == first


@given(
    values=st.lists(d10s, min_size=1, max_size=MAX_POOL), difficulty=difficulties, wp=st.booleans()
)
def test_tally_invariants(values: list[int], difficulty: int, wp: bool) -> None:
    t = count_pool(values, difficulty, wp)
    assert t.net == max(0, t.successes - t.ones) + t.willpower
    assert not (t.botch and t.net)  # a botch has no net success
    assert t.botch == (t.successes == 0 and t.ones > 0 and not wp)
    r = simple(len(values), difficulty, values, willpower=wp)
    assert r.scores["net"] == t.net and sum(d.cancelled for d in r.dice) == t.cancelled


@given(
    values=st.lists(d10s, max_size=MAX_POOL - 1),
    added=st.integers(min_value=2, max_value=10),
    difficulty=difficulties,
)
def test_adding_a_die_that_is_not_a_one_never_hurts(
    values: list[int], added: int, difficulty: int
) -> None:
    before, after = count_pool(values, difficulty), count_pool([*values, added], difficulty)
    assert after.net >= before.net
    assert not (after.botch and not before.botch)


@given(values=st.lists(d10s, max_size=MAX_POOL - 1), difficulty=difficulties)
def test_adding_a_one_never_helps(values: list[int], difficulty: int) -> None:
    # an added 1 can lower net successes (so more dice is not always better on a given roll)
    before, after = count_pool(values, difficulty), count_pool([*values, 1], difficulty)
    assert after.net <= before.net


def expected_net(pool: int, difficulty: int, willpower: bool = False) -> Fraction:
    """Exact expected net successes of a pool, by summing over how many dice fall in each of the
    three classes (a 1, a success, anything else), each class represented by one face and
    counted by the engine's own count_pool."""
    p_one = Fraction(1, 10)
    p_success = Fraction(11 - difficulty, 10)
    p_other = 1 - p_one - p_success
    total = Fraction(0)
    for s in range(pool + 1):
        for o in range(pool - s + 1):
            f = pool - s - o
            if f and not p_other:
                continue
            ways = factorial(pool) // (factorial(s) * factorial(o) * factorial(f))
            prob = ways * p_success**s * p_one**o * p_other**f
            values = [difficulty] * s + [1] * o + [difficulty - 1] * f
            total += prob * count_pool(values, difficulty, willpower).net
    return total


@pytest.mark.parametrize("difficulty", range(2, 11))
def test_expected_net_by_classes_matches_exhaustive_enumeration(difficulty: int) -> None:
    for pool in (1, 2, 3):
        exact = Fraction(
            sum(
                count_pool(list(v), difficulty).net
                for v in itertools.product(range(1, 11), repeat=pool)
            ),
            10**pool,
        )
        assert expected_net(pool, difficulty) == exact


@pytest.mark.parametrize("difficulty", range(2, 11))
@pytest.mark.parametrize("willpower", [False, True])
def test_more_dice_never_give_fewer_expected_successes(difficulty: int, willpower: bool) -> None:
    expectations = [expected_net(pool, difficulty, willpower) for pool in range(1, MAX_POOL + 1)]
    assert all(a <= b for a, b in itertools.pairwise(expectations))
    assert expectations[-1] > expectations[0]  # strictly better over the whole range


@given(
    pools=st.lists(st.integers(MAX_ACTIONS, MAX_POOL), min_size=2, max_size=MAX_ACTIONS),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_even_split_uses_exactly_the_smallest_pool(pools: list[int], seed: int) -> None:
    actions = [{"pool": p, "difficulty": 6} for p in pools]
    r = resolve_roll(SYSTEM, "multiple", {"actions": actions}, seed=seed)
    shares = [r.scores[f"action_{i + 1}_dice"] for i in range(len(pools))]
    assert sum(shares) == min(pools) == len(r.dice) and max(shares) - min(shares) <= 1
