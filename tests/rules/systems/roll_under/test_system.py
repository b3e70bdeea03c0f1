"""roll_under: every rule of roll_under.md with the sentence it comes from, and invariants."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import DiceError, InvalidParameter, RulesError
from rules.models import Resolution
from rules.registry import get_system, resolve_roll
from rules.systems.roll_under.saves import save_succeeds
from rules.systems.roll_under.system import RULINGS

SYSTEM = "roll_under"
RULING_IDS = {r.id for r in RULINGS}


def roll(kind: str, params: dict[str, Any], dice: list[int]) -> Resolution:
    resolution = resolve_roll(SYSTEM, kind, params, dice=dice)
    assert set(resolution.rulings) <= RULING_IDS, "every ruling cited is written down"
    assert resolution.dice_values() == dice, "every die is recorded in consumption order"
    return resolution


def save(score: int, dice: list[int], **extra: Any) -> Resolution:
    return roll("save", {"ability": "brawn", "score": score, **extra}, dice)


def changes(resolution: Resolution) -> dict[str, tuple[int | None, str | None]]:
    return {c.target: (c.delta, c.note) for c in resolution.changes}


def kept(resolution: Resolution) -> list[bool]:
    return [d.kept for d in resolution.dice]


# --- Ability Saves -----------------------------------------------------------------------------

# "If the result is less than your character's Ability score, the Action succeeds. Otherwise, it
# fails." / "Regardless of Ability scores, a roll of 1 always succeeds, while a 20 always fails."
SAVE_CASES = [
    (12, [11], "success"),
    (12, [12], "failure"),
    (12, [13], "failure"),
    (1, [1], "success"),
    (2, [1], "success"),
    (20, [19], "success"),
    (20, [20], "failure"),
]


@pytest.mark.parametrize(("score", "dice", "outcome"), SAVE_CASES)
def test_save(score: int, dice: list[int], outcome: str) -> None:
    result = save(score, dice)
    assert result.outcome == outcome
    assert result.scores == {"roll": dice[0], "score": score}
    assert result.dice[0].sides == 20 and result.dice[0].role == "save"


def test_ruling_save_strictly_under() -> None:
    # "If the result is **less than** your character's Ability score, the Action **succeeds**.
    # Otherwise, it **fails**."
    assert save(10, [10]).outcome == "failure"
    assert save(10, [9]).outcome == "success"
    assert "save_strictly_under" in save(10, [9]).rulings


def test_natural_one_and_twenty() -> None:
    # "Regardless of Ability scores, a roll of 1 always succeeds, while a 20 always fails."
    assert save(1, [1]).outcome == "success"
    assert save(1, [1]).details["natural"] == "one"
    assert save(20, [20]).outcome == "failure"
    assert save(20, [20]).details["natural"] == "twenty"


@pytest.mark.parametrize("score", [-3, 0, 21])
def test_ruling_ability_score_range(score: int) -> None:
    # "Regardless of Ability scores, a roll of 1 always succeeds, while a 20 always fails."
    # The text gives no range: a save is made with a score of 1-20.
    with pytest.raises(InvalidParameter) as err:
        save(score, [5])
    assert err.value.field == "params.score"


def test_unknown_ability() -> None:
    # The text's Abilities: "If **Brawn** ... If **Finesse** ... If **Intellect** ..."
    with pytest.raises(InvalidParameter) as err:
        roll("save", {"ability": "charisma", "score": 10}, [5])
    assert err.value.field == "params.ability"


# --- Advantage and Disadvantage ----------------------------------------------------------------


def test_advantage_keeps_lowest() -> None:
    # "you roll an extra d20 and take the **lowest** single result of the two dice."
    result = save(10, [15, 4], advantage=True)
    assert result.outcome == "success" and result.scores["roll"] == 4
    assert kept(result) == [False, True]
    assert [d.role for d in result.dice] == ["save", "advantage"]


def test_disadvantage_keeps_highest() -> None:
    # "you roll an extra d20 and take the **highest** single result of the two dice."
    result = save(10, [4, 15], disadvantage=True)
    assert result.outcome == "failure" and result.scores["roll"] == 15
    assert kept(result) == [False, True]
    assert [d.role for d in result.dice] == ["save", "disadvantage"]


def test_tied_dice_keep_the_first() -> None:
    # "take the **lowest** single result of the two dice": on a tie either die is that result;
    # the record keeps the first (ruling advantage_disadvantage_cancel).
    assert kept(save(10, [7, 7], advantage=True)) == [True, False]


def test_ruling_advantage_disadvantage_cancel() -> None:
    # "Ability Saves with both Advantages and Disadvantages are rolled as usual with one d20."
    result = save(10, [9], advantage=True, disadvantage=True)
    assert result.outcome == "success" and len(result.dice) == 1
    assert result.details["mode"] == "cancelled"
    assert "advantage_disadvantage_cancel" in result.rulings
    with pytest.raises(DiceError) as err:
        save(10, [9, 3], advantage=True, disadvantage=True)
    assert err.value.field == "dice[1]"


def test_advantage_with_one_die_names_the_missing_die() -> None:
    # "If so, you roll an extra d20": the second die is required.
    with pytest.raises(DiceError) as err:
        save(10, [9], advantage=True)
    assert err.value.field == "dice[1]"
    assert "too few dice" in err.value.message and "advantage" in err.value.message


# --- Opposed, Aid, Interfere -------------------------------------------------------------------


def opposed(actor: int, opponent: int, dice: list[int]) -> Resolution:
    return roll(
        "opposed",
        {
            "actor": {"name": "Ash", "ability": "brawn", "score": actor},
            "opponent": {"name": "Orc", "ability": "brawn", "score": opponent},
        },
        dice,
    )


@pytest.mark.parametrize(
    ("actor", "opponent", "dice", "outcome"),
    [
        (12, 12, [3, 8], "actor_wins"),  # both succeed: the lowest roll
        (12, 12, [8, 3], "opponent_wins"),
        (5, 12, [3, 8], "actor_wins"),
        (5, 12, [6, 8], "opponent_wins"),  # a success beats a failure with a lower roll
        (5, 5, [6, 8], "stalemate"),  # both fail: nobody wins
        (12, 10, [4, 4], "actor_wins"),  # equal rolls: the higher score
        (10, 10, [4, 4], "stalemate"),
    ],
)
def test_ruling_opposed_lowest_success(
    actor: int, opponent: int, dice: list[int], outcome: str
) -> None:
    # "both opponents make Ability Saves, and the lowest roll succeeds."
    result = opposed(actor, opponent, dice)
    assert result.outcome == outcome
    assert "opposed_lowest_success" in result.rulings
    assert [d.role for d in result.dice] == ["actor_save", "opponent_save"]


def group(kind: str, scores: list[int], dice: list[int]) -> Resolution:
    savers = [
        {"name": f"pc{i}", "ability": "finesse", "score": score} for i, score in enumerate(scores)
    ]
    return roll(kind, {"savers": savers}, dice)


def test_ruling_aid_best_result() -> None:
    # "Everyone involved makes separate Abilities Saves, and the best result decides the outcome."
    result = group("aid", [5, 12], [9, 7])
    assert result.outcome == "success" and result.details["decided_by"] == "pc1"
    assert group("aid", [5, 12], [3, 7]).details["decided_by"] == "pc0"  # lowest success roll
    assert "aid_best_result" in result.rulings


def test_aid_failure_shares_consequences() -> None:
    # "All characters aiding with the Action potentially share any adverse consequences of a
    # failed Save."
    result = group("aid", [5, 6], [9, 7])
    assert result.outcome == "failure"
    assert result.details["share_consequences"] == ["pc0", "pc1"]


def test_ruling_interfere_worst_result() -> None:
    # "Everyone involved makes an Ability Save, and the worst roll decides the outcome."
    result = group("interfere", [12, 8], [3, 9])
    assert result.outcome == "failure" and result.details["decided_by"] == "pc1"
    assert group("interfere", [12, 12], [3, 9]).outcome == "success"
    assert "interfere_worst_result" in result.rulings


def test_opposed_names_must_differ() -> None:
    saver = {"name": "a", "ability": "brawn", "score": 5}
    with pytest.raises(InvalidParameter) as err:
        roll("opposed", {"actor": saver, "opponent": saver}, [1, 1])
    assert err.value.field == "params.opponent.name"


def test_group_names_must_be_unique() -> None:
    with pytest.raises(InvalidParameter) as err:
        roll(
            "aid",
            {
                "savers": [
                    {"name": "a", "ability": "brawn", "score": 5},
                    {"name": "a", "ability": "brawn", "score": 5},
                ]
            },
            [1, 1],
        )
    assert err.value.field == "params.savers.1.name"


# --- Initiative --------------------------------------------------------------------------------


def initiative(finesse: list[int], dice: list[int], surprised: bool = False) -> Resolution:
    characters = [{"name": n, "finesse": f} for n, f in zip("ABCD", finesse, strict=False)]
    return roll("initiative", {"characters": characters, "opponents_surprised": surprised}, dice)


def test_ruling_initiative_order() -> None:
    # "The lowest roll goes first, and then in order of increasing results. Characters who failed
    # the Finesse Save go after their opponents."
    result = initiative([12, 12, 12, 12], [9, 3, 15, 13])
    assert result.details["order"] == ["B", "A", "opponents", "D", "C"]
    assert result.outcome == "split"
    assert "initiative_order" in result.rulings
    assert initiative([10, 10], [5, 5]).details["order"] == ["A", "B", "opponents"]


def test_initiative_surprised_opponents() -> None:
    # "If your opponent is surprised, your character acts before them."
    result = initiative([3, 4], [], surprised=True)
    assert result.details["order"] == ["A", "B", "opponents"]
    assert result.dice == []


def test_initiative_all_fail() -> None:
    # "Characters who failed the Finesse Save go after their opponents."
    assert initiative([5, 5], [8, 6]).details["order"] == ["opponents", "B", "A"]
    assert initiative([5, 5], [8, 6]).outcome == "opponents_first"


# --- Attacks, Armour, Multiple Attacks, Blast, Warband ------------------------------------------


def attack(dice: list[int], weapons: list[dict[str, Any]], **params: Any) -> Resolution:
    return roll("attack", {"weapons": weapons, **params}, dice)


def test_attack_always_hits_with_the_weapon_die() -> None:
    # "Attacks *always* hit. The attacker rolls their weapon's damage die and deals that much
    # damage to their opponent's HP."
    result = attack([5], [{"die": 6}])
    assert result.scores == {"damage": 5} and result.outcome == "damage"
    assert result.dice[0].sides == 6 and result.dice[0].role == "damage"


def test_enhanced_takes_highest_of_die_and_d12() -> None:
    # "roll your damage die and an extra **d12**. Take the single highest result."
    result = attack([3, 9], [{"die": 6, "enhanced": True}])
    assert result.scores["damage"] == 9 and kept(result) == [False, True]
    assert [d.sides for d in result.dice] == [6, 12]
    assert kept(attack([5, 2], [{"die": 6, "enhanced": True}])) == [True, False]


def test_impaired_takes_lowest_of_die_and_d4() -> None:
    # "roll your damage die and an extra **d4**. Take the single lowest result."
    result = attack([8, 2], [{"die": 10, "impaired": True}])
    assert result.scores["damage"] == 2 and kept(result) == [False, True]
    assert [d.sides for d in result.dice] == [10, 4]


def test_ruling_enhanced_impaired_cancel() -> None:
    # "If the attack is Impaired ... roll your damage die and an extra d4."; with both, the extra
    # dice cancel as advantage and disadvantage do.
    result = attack([7], [{"die": 8, "enhanced": True, "impaired": True}])
    assert result.scores["damage"] == 7 and len(result.dice) == 1
    assert "enhanced_impaired_cancel" in result.rulings


def test_ruling_weapon_dice() -> None:
    # "The attacker rolls their weapon's damage die": d4, d6, d8, d10 or d12.
    for die in (4, 6, 8, 10, 12):
        assert attack([1], [{"die": die}]).dice[0].sides == die
    with pytest.raises(InvalidParameter) as err:
        attack([1], [{"die": 7}])
    assert err.value.field == "params.weapons.0.die"


def test_ruling_armour_after_roll() -> None:
    # "Before dealing damage to HP, subtract the target's Armor rating from the result of your
    # damage roll. Some weapons ... with the piercing quality reduce a target's armour rating ...
    # Some attacks, such as falling or burning, ignore armour entirely."
    assert attack([5], [{"die": 6}], targets=[{"armor": 2}]).scores["damage"] == 3
    assert attack([1], [{"die": 6}], targets=[{"armor": 2}]).outcome == "no_damage"
    assert attack([5], [{"die": 6, "piercing": 1}], targets=[{"armor": 2}]).scores["damage"] == 4
    assert attack([5], [{"die": 6, "piercing": 5}], targets=[{"armor": 2}]).scores["damage"] == 5
    ignore = attack([5], [{"die": 6, "ignores_armor": True}], targets=[{"armor": 3}])
    assert ignore.scores["damage"] == 5


def test_ruling_highest_after_armour() -> None:
    # "If multiple allies in the same zone attack the same opponent, roll each damage separately,
    # but deal the single highest result." / "If your character wields two weapons, roll damage
    # for each, but deal the single highest result."
    weapons = [{"die": 6}, {"die": 8, "piercing": 2}]
    result = attack([6, 5], weapons, targets=[{"armor": 3}])
    assert result.scores["damage"] == 4  # 6-3=3 against 5-(3-2)=4
    assert result.details["targets"][0]["dealt_by"] == 1
    assert "highest_after_armour" in result.rulings


def test_blast_rolls_each_target_separately() -> None:
    # "Attacks with a blast quality affect all targets in a zone, rolling damage separately for
    # each."
    targets = [{"name": "a", "armor": 1}, {"name": "b"}]
    result = attack([4, 6], [{"die": 6}], targets=targets, blast=True)
    assert result.scores == {"a_damage": 3, "b_damage": 6}


def test_only_blast_hits_several_targets() -> None:
    with pytest.raises(InvalidParameter) as err:
        attack([4, 6], [{"die": 6}], targets=[{"name": "a"}, {"name": "b"}])
    assert err.value.field == "params.targets"


def test_ruling_blast_unknown_count() -> None:
    # "If unsure how many targets can be affected in the zone, roll the related damage die for
    # the number."
    result = attack([3, 1, 2, 6], [{"die": 6}], blast=True)
    assert result.dice[0].role == "blast_targets"
    assert result.scores == {"target_1_damage": 1, "target_2_damage": 2, "target_3_damage": 6}
    assert "blast_unknown_count" in result.rulings


def test_ruling_warband_modifiers() -> None:
    # "Attacks against Warbands by individuals are impaired unless they deal blast damage."
    against = attack([6, 2], [{"die": 6}], targets=[{"warband": True}])
    assert against.scores["damage"] == 2 and against.dice[1].sides == 4
    assert "warband_modifiers" in against.rulings
    blast = attack([6], [{"die": 6}], targets=[{"warband": True}], blast=True)
    assert blast.scores["damage"] == 6 and len(blast.dice) == 1
    # "Attacks against individuals by Warbands are enhanced and always deal blast damage."
    by = attack([2, 11], [{"die": 6}], attacker_warband=True, targets=[{}])
    assert by.scores["damage"] == 11 and by.details["blast"] is True
    both = attack([5], [{"die": 6}], attacker_warband=True, targets=[{"warband": True}])
    assert len(both.dice) == 1


def test_ruling_sundered_shield_after_roll() -> None:
    # "you could choose to ignore all damage in an attack by sundering their shield. A sundered
    # shield is destroyed."
    result = attack([6], [{"die": 6}], targets=[{"sunder_shield": True, "hp": 3, "brawn": 10}])
    assert result.scores["damage"] == 0 and result.outcome == "unharmed"
    assert changes(result) == {"shield": (None, "sundered: destroyed, damage ignored")}


def test_attack_applies_damage_to_the_target() -> None:
    # "Damage first reduces your character's HP. After HP is zero, the excess damage then
    # reduces your Brawn Ability." then "After taking damage to Brawn, roll a Brawn Save."
    result = attack([8, 6], [{"die": 8}], targets=[{"armor": 1, "hp": 4, "brawn": 10}])
    assert changes(result) == {"hp": (-4, None), "brawn": (-3, None)}
    assert result.outcome == "harmed" and result.dice[1].role == "brawn_save"


def test_blast_state_changes_are_named_per_target() -> None:
    targets = [{"name": "a", "hp": 2, "brawn": 5}, {"name": "b", "hp": 9, "brawn": 5}]
    result = attack([6, 3, 3], [{"die": 6}], targets=targets, blast=True)
    # a: 6 damage = 2 HP + 4 Brawn (5 -> 1), Brawn save 3 is not under 1: critical injury.
    assert changes(result) == {
        "a.hp": (-2, None),
        "a.brawn": (-4, None),
        "a.fatigue": (1, "critical injury"),
        "a.status": (None, "unconscious and out of the fight until revived"),
        "b.hp": (-3, None),
    }
    assert [d.role for d in result.dice] == ["a.damage", "a.brawn_save", "b.damage"]


def test_target_needs_both_hp_and_brawn() -> None:
    with pytest.raises(InvalidParameter) as err:
        attack([4], [{"die": 6}], targets=[{"hp": 3}])
    assert err.value.field == "params.targets.0.brawn"


# --- Damage, Death, and Debilities -------------------------------------------------------------


def harm(damage: int, hp: int, brawn: int, dice: list[int], **extra: Any) -> Resolution:
    return roll("harm", {"damage": damage, "hp": hp, "brawn": brawn, **extra}, dice)


def test_damage_reduces_hp_first() -> None:
    # "Damage first reduces your character's HP."
    result = harm(3, 5, 10, [])
    assert changes(result) == {"hp": (-3, None)} and result.outcome == "harmed"


def test_excess_damage_reduces_brawn_then_brawn_save() -> None:
    # "After HP is zero, the excess damage then reduces your Brawn Ability." / "After taking
    # damage to Brawn, roll a Brawn Save."
    result = harm(7, 4, 12, [5])
    assert changes(result) == {"hp": (-4, None), "brawn": (-3, None)}
    assert result.scores["brawn_after"] == 9 and result.outcome == "harmed"


def test_damage_at_zero_hp_goes_to_brawn() -> None:
    # "As long as HP is zero, damage is taken to Brawn."
    result = harm(2, 0, 12, [5])
    assert changes(result) == {"brawn": (-2, None)}


def test_ruling_brawn_save_reduced_score() -> None:
    # "After taking damage to Brawn, roll a Brawn Save.": against the reduced Brawn (12-3=9).
    assert harm(7, 4, 12, [9]).outcome == "critical_injury"
    assert harm(7, 4, 12, [8]).outcome == "harmed"
    assert "brawn_save_reduced_score" in harm(7, 4, 12, [8]).rulings


def test_critical_injury_adds_fatigue_and_unconscious() -> None:
    # "If your Save fails, the damage is a Critical Injury. Your character adds a Fatigue
    # debility to their inventory and is unconscious and out of the fight until revived."
    result = harm(7, 4, 12, [15])
    assert changes(result)["fatigue"] == (1, "critical injury")
    assert "unconscious" in (changes(result)["status"][1] or "")


def test_brawn_zero_is_death_without_save() -> None:
    # "If Brawn is reduced to zero, your character dies."
    result = harm(20, 4, 6, [])
    assert result.outcome == "dead" and changes(result)["brawn"] == (-6, None)
    assert changes(result)["status"] == (None, "dead")


def test_ruling_scar_exact_zero() -> None:
    # "When damage to your character reduces their HP to *exactly* zero, they are sometimes
    # changed irrevocably."
    result = harm(4, 4, 10, [])
    assert result.outcome == "scar" and "scar" in changes(result)
    assert "scar_exact_zero" in result.rulings
    assert "scar" not in changes(harm(5, 4, 10, [3]))  # excess went to Brawn
    assert "scar" not in changes(harm(1, 0, 10, [3]))  # HP was already 0


def test_warband_routed_and_destroyed() -> None:
    # "When a Warband takes a Critical Injury, it is routed. When it reaches zero Brawn, it is
    # destroyed."
    routed = harm(5, 2, 10, [12], warband=True)
    assert routed.outcome == "routed" and "fatigue" not in changes(routed)
    assert harm(15, 2, 10, [], warband=True).outcome == "destroyed"


def test_no_damage_changes_nothing() -> None:
    assert harm(0, 3, 10, []).outcome == "unharmed" and harm(0, 3, 10, []).changes == []


@pytest.mark.parametrize(
    ("ability", "outcome"),
    [("finesse", "can_no_longer_use_limbs"), ("intellect", "stricken_with_madness")],
)
def test_other_abilities_at_zero(ability: str, outcome: str) -> None:
    # "If Finesse is reduced to zero, your character can no longer make use of their limbs." /
    # "If Intellect is reduced to zero, your character is stricken with madness."
    result = roll("ability_damage", {"ability": ability, "score": 3, "damage": 5}, [])
    assert result.outcome == outcome and changes(result)[ability] == (-3, None)
    partial = roll("ability_damage", {"ability": ability, "score": 3, "damage": 1}, [])
    assert partial.outcome == "harmed" and partial.dice == []


def test_ruling_ability_damage_brawn_save() -> None:
    # "Some creatures, poisons, diseases, or spells can potentially damage your character's
    # other Abilities." Brawn damage from them is still followed by the Brawn Save.
    result = roll("ability_damage", {"ability": "brawn", "score": 10, "damage": 2}, [8])
    assert result.outcome == "critical_injury"  # 8 is not under 10-2
    assert "ability_damage_brawn_save" in result.rulings


# --- Critical Deed Saves -----------------------------------------------------------------------


def deed(dice: list[int], **extra: Any) -> Resolution:
    return roll("deed", {"ability": "finesse", "score": 12, **extra}, dice)


def test_deed_natural_one_rolls_weapon_damage() -> None:
    # "On a one, the deed succeeds spectacularly without any chance for your opponent to avoid
    # it, and you also roll weapon damage, if applicable."
    result = deed([1, 7], weapon={"die": 8}, target_armor=2)
    assert result.outcome == "spectacular_success" and result.scores["damage"] == 5
    assert deed([1]).outcome == "spectacular_success"


def test_deed_natural_twenty_backfires() -> None:
    # "On a twenty, the deed fails miserably, and the intended result happens to your character
    # instead. You might be able to make an Ability Save to avoid the deed's effect."
    result = deed([20], weapon={"die": 8})
    assert result.outcome == "miserable_failure" and result.details["may_save_to_avoid"]


def test_ruling_deed_critical_kept_die() -> None:
    # "If you roll a one or a twenty on your Ability Save for completing a deed, see the following
    # outcomes." Read on the kept die.
    assert deed([20, 1], advantage=True).outcome == "spectacular_success"
    assert deed([1, 5], disadvantage=True).outcome == "success"
    assert "deed_critical_kept_die" in deed([5]).rulings


# --- invariants --------------------------------------------------------------------------------

SCORES = st.integers(min_value=1, max_value=20)
D20 = st.integers(min_value=1, max_value=20)


def test_every_ruling_has_a_named_test() -> None:
    for ruling in RULINGS:
        assert f"test_ruling_{ruling.id}" in globals(), ruling.id
        assert ruling.quote and ruling.citation.source == "roll_under.md"


def test_every_example_resolves() -> None:
    for kind in get_system(SYSTEM).roll_kinds.values():
        for example in kind.examples:
            assert resolve_roll(SYSTEM, kind.id, example, seed=1).outcome


EXAMPLES = [(k.id, e) for k in get_system(SYSTEM).roll_kinds.values() for e in k.examples]


@given(st.sampled_from(EXAMPLES), st.integers(min_value=0, max_value=2**63 - 1))
def test_seed_and_given_dice_reproduce(example: tuple[str, dict], seed: int) -> None:
    kind, params = example
    first = resolve_roll(SYSTEM, kind, params, seed=seed)
    assert first == resolve_roll(SYSTEM, kind, params, seed=seed)
    replay = resolve_roll(SYSTEM, kind, params, dice=first.dice_values())
    assert replay == first.model_copy(update={"seed": None})


@given(SCORES, D20, D20)
def test_advantage_never_worse(score: int, a: int, b: int) -> None:
    plain = save(score, [a])
    adv = save(score, [a, b], advantage=True)
    dis = save(score, [a, b], disadvantage=True)
    assert adv.scores["roll"] == min(a, b) <= a <= max(a, b) == dis.scores["roll"]
    assert not (plain.outcome == "success" and adv.outcome == "failure")
    assert not (plain.outcome == "failure" and dis.outcome == "success")
    assert sum(kept(adv)) == 1 and sum(kept(dis)) == 1


@given(SCORES, SCORES, D20)
def test_higher_score_never_worse(low: int, high: int, die: int) -> None:
    low, high = min(low, high), max(low, high)
    if save_succeeds(die, low):
        assert save(high, [die]).outcome == "success"


@given(
    st.sampled_from([4, 6, 8, 10, 12]),
    st.integers(min_value=1, max_value=12),
    st.integers(min_value=1, max_value=12),
    st.integers(min_value=0, max_value=6),
)
def test_enhanced_never_less_impaired_never_more(die: int, a: int, b: int, armor: int) -> None:
    a = min(a, die)
    plain = attack([a], [{"die": die}], targets=[{"armor": armor}]).scores["damage"]
    enhanced = attack([a, b], [{"die": die, "enhanced": True}], targets=[{"armor": armor}])
    impaired = attack([a, min(b, 4)], [{"die": die, "impaired": True}], targets=[{"armor": armor}])
    assert impaired.scores["damage"] <= plain <= enhanced.scores["damage"]


@given(
    st.integers(min_value=0, max_value=40),
    st.integers(min_value=0, max_value=20),
    SCORES,
    D20,
)
def test_harm_conserves_damage(damage: int, hp: int, brawn: int, die: int) -> None:
    source_dice = [die] if damage > hp and brawn > damage - hp else []
    result = harm(damage, hp, brawn, source_dice)
    lost = -sum(c.delta or 0 for c in result.changes if c.target in ("hp", "brawn"))
    assert lost == min(damage, hp + brawn)


def test_errors_are_rules_errors() -> None:
    with pytest.raises(RulesError):
        roll("harm", {"damage": 1, "hp": 1, "brawn": 0}, [])
