"""Roll Under rests and healing (rules/systems/roll_under/rest.py). Ash: Brawn 12, Finesse 14,
Intellect 9, 6 HP."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import InvalidParameter, UnknownError
from rules.sheets import rest, rest_kinds
from rules.systems.roll_under.rest import REST_RULINGS
from tests.rules.systems.roll_under.test_sheet import RULES, sheet

HURT = {"hp": 1, "max_hp": 6, "fatigue": 2,
        "abilities": {"brawn": 7, "finesse": 14, "intellect": 0},
        "max_abilities": {"brawn": 12, "finesse": 14, "intellect": 9}}  # fmt: skip


def test_a_short_rest_restores_all_lost_hp() -> None:
    # "Resting for a few moments after an encounter restores all lost HP. Ability loss and other
    # serious ailments are more difficult to heal."
    after = rest(RULES, sheet(**HURT), "short").sheet
    assert after.hp == 6 and after.abilities["brawn"] == 7 and after.fatigue == 2


def test_a_nights_rest_clears_fatigue() -> None:
    # "Each Fatigue occupies one slot and lasts until they can recuperate (such as a whole
    # night's rest in a safe spot)."
    after = rest(RULES, sheet(**HURT), "night").sheet
    assert after.fatigue == 0 and after.hp == 6 and after.abilities["brawn"] == 7


def test_a_healer_restores_lost_ability_points() -> None:
    # "You can generally recover lost Ability points with a week or two of rest under a healer's
    # care": Intellect back from 0 ends the madness that followed it.
    hurt = sheet(**HURT)
    assert "madness" in hurt.conditions
    after = rest(RULES, hurt, "healer").sheet
    assert after.abilities == after.max_abilities and "madness" not in after.conditions


def test_ruling_rest_revives() -> None:
    # "...is unconscious and out of the fight until revived": any rest revives; the dead rest not.
    after = rest(RULES, sheet(conditions=["unconscious"]), "short").sheet
    assert "unconscious" not in after.conditions
    dead = sheet(abilities={"brawn": 0, "finesse": 14, "intellect": 9},
                 max_abilities={"brawn": 12, "finesse": 14, "intellect": 9})  # fmt: skip
    with pytest.raises(InvalidParameter) as err:
        rest(RULES, dead, "night")
    assert err.value.field == "sheet.abilities.brawn"


def test_ruling_rest_deprived() -> None:
    # "A character deprived of a crucial need (such as food or rest) cannot heal HP or Ability
    # scores."
    deprived = sheet(**HURT, conditions=["deprived"])
    short = rest(RULES, deprived, "short")
    assert short.sheet.hp == 1 and short.other  # told, not healed
    assert rest(RULES, deprived, "healer").sheet.abilities["brawn"] == 7
    night = rest(RULES, deprived, "night").sheet
    assert "deprived" not in night.conditions and night.hp == 6


def test_an_unknown_rest_names_kind() -> None:
    with pytest.raises(UnknownError) as err:
        rest(RULES, sheet(), "nap")
    assert err.value.field == "kind"
    assert [k.id for k in rest_kinds(RULES)] == ["short", "night", "healer"]


def test_every_rest_ruling_has_a_named_test() -> None:
    assert all(f"test_ruling_{r.id}" in globals() for r in REST_RULINGS)


@given(st.integers(0, 6), st.integers(0, 6), st.sampled_from(["short", "night", "healer"]))
def test_a_rest_never_lowers_a_value_nor_passes_a_maximum(hp: int, fatigue: int, kind: str) -> None:
    before = sheet(hp=hp, max_hp=6, fatigue=min(fatigue, 6))
    after = rest(RULES, before, kind).sheet
    assert before.hp <= after.hp <= after.max_hp and after.fatigue <= before.fatigue
    assert all(after.abilities[a] >= before.abilities[a] for a in after.abilities)


def test_an_unconscious_character_rolls_only_the_brawn_save() -> None:
    # "After taking damage to Brawn, roll a Brawn Save. If your Save fails, the damage is a
    # Critical Injury. Your character ... is unconscious and out of the fight until revived."
    out = sheet(conditions=["unconscious"])
    assert RULES.roll_params(out, "save", {"ability": "brawn"})["score"] == 12
    for kind, given_ in [
        ("save", {"ability": "finesse"}),
        ("opposed", {"actor": {"ability": "finesse"},
                     "opponent": {"name": "orc", "score": 10}}),
        ("aid", {"savers": [{"ability": "finesse"}, {"name": "Bo", "score": 10}]}),
    ]:  # fmt: skip
        with pytest.raises(InvalidParameter) as err:
            RULES.roll_params(out, kind, given_)
        assert err.value.field == "sheet.conditions", kind
