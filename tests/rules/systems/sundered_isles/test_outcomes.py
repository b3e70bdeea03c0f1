"""Sundered Isles outcomes beyond momentum: choose-one options, take both, the combat position,
adds held for the next move, progress a move marks (rules/systems/sundered_isles/outcomes.py).
STATS in test_sheet: edge 3, heart 2, iron 2, shadow 1, wits 1."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import InvalidParameter
from rules.models import Resolution
from rules.registry import resolve_roll
from rules.systems.sundered_isles.moves import MOVES
from rules.systems.sundered_isles.outcomes import offered_options
from tests.rules.systems.sundered_isles.test_sheet import RULES, play, sheet


def changes(r: Resolution) -> list[tuple[str, int | None, str | None]]:
    return [(c.target, c.delta, c.note) for c in r.changes]


def targets(r: Resolution) -> dict[str, Any]:
    return {c.target: c.delta if c.delta is not None else c.note for c in r.changes}


def test_ruling_choose_one_options() -> None:
    # Secure an Advantage: "On a weak hit, choose one. - Take +2 momentum - Add +1 on your next
    # move (not a progress move)". The turn waits for the choice; the engine applies it.
    given_ = {"move": "secure_an_advantage", "stat": "edge"}
    params = RULES.roll_params(sheet(momentum=2), "move", given_)
    weak = resolve_roll("sundered_isles", "move", params, dice=[3, 5, 9])  # 6: beats 5 only
    assert weak.outcome == "weak_hit" and targets(weak) == {}
    [choice] = RULES.choices("move", params, weak)
    assert choice.param == "options"
    assert [o.value for o in choice.options] == [["take_2_momentum"], ["add_1_on_your_next_move"]]
    assert [o.label for o in choice.options] == [
        "Take +2 momentum",
        "Add +1 on your next move (not a progress move)",
    ]
    took = resolve_roll(
        "sundered_isles", "move", {**params, "options": ["take_2_momentum"]}, dice=[3, 5, 9]
    )
    assert targets(took) == {"momentum": 2}
    held = resolve_roll(
        "sundered_isles", "move", {**params, "options": ["add_1_on_your_next_move"]}, dice=[3, 5, 9]
    )
    assert targets(held) == {"next_roll_adds": 1}
    assert RULES.choices("move", {**params, "options": ["take_2_momentum"]}, took) == []


def test_an_option_the_outcome_does_not_offer_is_refused() -> None:
    params = RULES.roll_params(sheet(), "move", {"move": "secure_an_advantage", "stat": "edge"})
    with pytest.raises(InvalidParameter) as err:  # a strong hit offers nothing to choose
        resolve_roll("sundered_isles", "move", {**params, "options": ["x"]}, dice=[6, 1, 1])
    assert err.value.field == "params.options"
    with pytest.raises(InvalidParameter) as err:
        resolve_roll("sundered_isles", "move", {**params, "options": ["x"]}, dice=[3, 5, 9])
    assert err.value.field == "params.options" and "take_2_momentum" in err.value.message


def test_gain_ground_strong_hit_chooses_two() -> None:
    # "On a hit, you stay in control. On a strong hit, choose two." (of the weak hit's list)
    options = offered_options(MOVES["gain_ground"], "strong_hit", False)
    assert options is not None and options.count == 2 and len(options.picks()) == 3
    params = RULES.roll_params(sheet(momentum=2), "move", {"move": "gain_ground", "stat": "iron"})
    r = resolve_roll(
        "sundered_isles", "move", {**params, "options": ["mark_progress", "take_2_momentum"]},
        dice=[5, 1, 2],
    )  # fmt: skip
    assert targets(r) == {"momentum": 2, "position": "in_control", "progress_marks": 1}


def test_fulfill_your_vow_miss_forsake_or_recommit() -> None:
    # "On a miss, your vow is undone ... choose one. - Give up on the quest: FORSAKE YOUR VOW.
    # - Recommit to the quest: Roll both challenge dice, take the lowest value, and clear that
    # number of progress boxes. Then, raise the vow’s rank by one (if not already epic)"
    params = {"move": "fulfill_your_vow", "progress_ticks": 12, "rank": "dangerous"}
    miss = resolve_roll("sundered_isles", "move", params, dice=[5, 9])
    [choice] = RULES.choices("move", params, miss)
    assert [o.value for o in choice.options] == [
        ["give_up_on_the_quest"],
        ["recommit_to_the_quest"],
    ]
    assert choice.extra_dice
    forsake = {**params, "options": ["give_up_on_the_quest"]}
    assert targets(resolve_roll("sundered_isles", "move", forsake, dice=[5, 9])) == {
        "track_status": "forsaken"
    }
    recommit = {**params, "options": ["recommit_to_the_quest"]}
    r = resolve_roll("sundered_isles", "move", recommit, dice=[5, 9, 2, 7])
    assert changes(r) == [
        ("progress", -8, "clear 2 boxes"),
        ("rank", None, "formidable"),
    ]
    assert [d.value for d in r.dice] == [5, 9, 2, 7]


def test_ruling_take_both() -> None:
    # Enter the Fray: "On a strong hit, take both." (+2 momentum, and you are in control)
    params = RULES.roll_params(
        sheet(momentum=2), "move", {"move": "enter_the_fray", "stat": "wits"}
    )
    r = resolve_roll("sundered_isles", "move", params, dice=[6, 1, 1])
    assert targets(r) == {"momentum": 2, "position": "in_control"}
    # Secure an Advantage: both, the +2 momentum and the +1 on your next move
    params = RULES.roll_params(sheet(), "move", {"move": "secure_an_advantage", "stat": "wits"})
    r = resolve_roll("sundered_isles", "move", params, dice=[6, 1, 1])
    assert targets(r) == {"momentum": 2, "next_roll_adds": 1}


def test_ruling_combat_position() -> None:
    # Strike: "On a weak hit, mark progress twice, but you expose yourself to danger. You are in
    # a bad spot." Take Decisive Action then reads the position from the sheet: "If you are in a
    # bad spot, count a strong hit without a match as a weak hit".
    s = sheet()
    _, update = play(s, "move", {"move": "strike", "stat": "iron"}, [4, 5, 9])  # 6: weak hit
    assert update.sheet.position == "bad_spot"
    params = RULES.roll_params(update.sheet, "move", {"move": "take_decisive_action",
                                                      "progress_ticks": 30})  # fmt: skip
    assert params["position"] == "bad_spot"
    r = resolve_roll("sundered_isles", "move", params, dice=[3, 5])
    assert r.outcome == "weak_hit"
    assert "position" not in [c.param for c in RULES.choices("move", params, r)]
    # Enter the Fray's weak hit: choosing momentum leaves you in a bad spot
    given_ = {"move": "enter_the_fray", "stat": "wits", "options": ["take_2_momentum"]}
    _, update = play(s, "move", given_, [5, 5, 9])
    assert update.sheet.position == "bad_spot"
    given_["options"] = ["you_are_in_control"]
    _, update = play(s, "move", given_, [5, 5, 9])
    assert update.sheet.position == "in_control"
    # "On a miss, the fight begins with you in a bad spot."
    _, update = play(s, "move", {"move": "enter_the_fray", "stat": "wits"}, [1, 9, 9])
    assert update.sheet.position == "bad_spot"


def test_ruling_next_move_adds() -> None:
    # "Add +1 on your next move (not a progress move)": held, added to the next action roll,
    # then cleared; a progress roll neither uses nor clears it.
    s = sheet(next_roll_adds=1)
    progress = RULES.roll_params(s, "move", {"move": "fulfill_your_vow", "progress_ticks": 20})
    assert "adds" not in progress or progress["adds"] == 0
    r = resolve_roll("sundered_isles", "move", progress, dice=[5, 9])
    assert RULES.apply(s, r).sheet.next_roll_adds == 1
    r, update = play(s, "move", {"move": "face_danger", "stat": "edge"}, [3, 5, 9])
    assert r.scores["action_score"] == 3 + 3 + 1 and r.outcome == "weak_hit"
    assert update.sheet.next_roll_adds == 0
    r, update = play(s, "action", {"stat": "edge"}, [3, 5, 9])
    assert r.scores["action_score"] == 7 and update.sheet.next_roll_adds == 0


def test_ruling_move_marks_progress() -> None:
    # Strike: "On a strong hit, mark progress twice." Clash: "On a weak hit, mark progress".
    strike = RULES.roll_params(sheet(), "move", {"move": "strike", "stat": "iron"})
    r = resolve_roll("sundered_isles", "move", strike, dice=[6, 1, 1])
    assert ("progress_marks", 2, "mark progress x2") in changes(r)
    clash = RULES.roll_params(sheet(), "move", {"move": "clash", "stat": "iron"})
    r = resolve_roll("sundered_isles", "move", clash, dice=[4, 5, 9])
    assert ("progress_marks", 1, "mark progress x1") in changes(r)
    # Undertake an Expedition: "On a miss, ... Do not mark progress"; its weak hit "as above"
    expedition = RULES.roll_params(sheet(), "move", {"move": "undertake_an_expedition",
                                                     "stat": "wits"})  # fmt: skip
    assert "progress_marks" not in targets(
        resolve_roll("sundered_isles", "move", expedition, dice=[1, 9, 9])
    )
    weak = resolve_roll("sundered_isles", "move", expedition, dice=[5, 5, 9])
    assert targets(weak)["progress_marks"] == 1


@given(st.integers(1, 6), st.integers(1, 10), st.integers(1, 10))
def test_every_offered_pick_resolves_to_the_same_dice(action: int, c1: int, c2: int) -> None:
    """Invariant: whatever option a choose-one outcome offers, choosing it resolves the same
    dice to the same band (a choice never rerolls the move)."""
    stats = {"secure_an_advantage": "wits", "enter_the_fray": "heart", "gain_ground": "iron",
             "check_your_gear": "supply"}  # fmt: skip
    for move_id, stat in stats.items():
        params = RULES.roll_params(sheet(), "move", {"move": move_id, "stat": stat})
        first = resolve_roll("sundered_isles", "move", params, dice=[action, c1, c2])
        for choice in RULES.choices("move", params, first):
            if choice.param != "options":
                continue
            for option in choice.options:
                again = resolve_roll(
                    "sundered_isles", "move", {**params, "options": option.value},
                    dice=[action, c1, c2],
                )  # fmt: skip
                assert again.outcome == first.outcome and again.dice == first.dice


def test_ruling_reach_a_milestone_marks_the_vow() -> None:
    # Reach a Milestone: "you may mark progress per the rank of the vow": one mark, no roll.
    params = RULES.roll_params(sheet(), "move", {"move": "reach_a_milestone"})
    r = resolve_roll("sundered_isles", "move", params, dice=[])
    assert r.dice == [] and ("progress_marks", 1, "mark progress") in changes(r)


def test_ruling_suffer_move_is_the_players() -> None:
    # Face Danger: "On a weak hit, you succeed, but not without a cost. Make a suffer move
    # (-1).": no change the engine picks (the player makes the suffer move next).
    params = RULES.roll_params(sheet(), "move", {"move": "face_danger", "stat": "edge"})
    r = resolve_roll("sundered_isles", "move", params, dice=[4, 5, 9])
    assert r.outcome == "weak_hit" and r.changes == []
