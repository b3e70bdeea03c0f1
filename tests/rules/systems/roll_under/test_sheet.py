"""The roll_under character sheet (rules/systems/roll_under/sheet.py): validation, the values the
sheet fills into each roll kind, applying resolutions, the shield choice, the engine parameters it
needs, GM parameters, no tracks; one named test per sheet ruling; invariants and replay."""

from __future__ import annotations

import copy
import typing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from rules.errors import DiceError, InvalidParameter, RulesError, UnknownError
from rules.models import Resolution
from rules.registry import get_system, resolve_roll
from rules.sheets import SheetRules
from rules.systems.roll_under.damage import FATIGUE_MAX, HP_MAX
from rules.systems.roll_under.saves import ABILITIES, SCORE_MAX
from rules.systems.roll_under.sheet import (
    CONDITIONS,
    ENGINE_NAME,
    SHEET_RULES,
    SHEET_RULINGS,
    Sheet,
)

SYSTEM = "roll_under"
SOURCE_TEXT = (Path(__file__).resolve().parents[4] / "vectorstore/sources/roll_under.md").read_text(
    encoding="utf-8"
)
RULES: SheetRules = SHEET_RULES
ROLL_KINDS = get_system(SYSTEM).roll_kinds

ASH: dict[str, Any] = {
    "name": "Ash",
    "abilities": {"brawn": 12, "finesse": 14, "intellect": 9},
    "hp": 6,
    "armor": 1,
    "weapons": [
        {"name": "sword", "die": 8},
        {"name": "bow", "die": 6, "piercing": 1},
        {"name": "bomb", "die": 10, "blast": True},
    ],
}

# The player's (and GM's) part of each roll kind: the character is the entry without a name.
GIVEN: dict[str, dict[str, Any]] = {
    "save": {"ability": "finesse", "advantage": True},
    "deed": {"ability": "brawn", "weapon": "sword", "target_armor": 1},
    "opposed": {
        "actor": {"ability": "brawn"},
        "opponent": {"name": "Orc", "ability": "brawn", "score": 14},
    },
    "aid": {"savers": [{"ability": "brawn"}, {"name": "Bo", "ability": "brawn", "score": 13}]},
    "interfere": {
        "savers": [{"ability": "finesse"}, {"name": "Imp", "ability": "intellect", "score": 11}]
    },
    "initiative": {"characters": [{}, {"name": "Bo", "finesse": 9}]},
    "attack": {
        "weapons": ["sword"],
        "targets": [{"name": "orc", "armor": 1, "hp": 4, "brawn": 10}],
    },
    "harm": {"damage": 7},
    "ability_damage": {"ability": "intellect", "damage": 3},
    "expression": {"expression": "2d6+1"},
    "oracle": {"odds": "likely"},
}
ATTACKED = {"weapons": [{"die": 8}], "targets": [{}]}
# More rolls of a session, for the invariants: the character under attack, in a blast, with allies.
SESSION = [
    *GIVEN.items(),
    ("attack", ATTACKED),
    ("attack", {"weapons": [{"die": 6}], "targets": [{}, {"name": "Bo"}], "blast": True}),
    ("attack", {"weapons": ["bow", {"die": 6}], "targets": [{"name": "orc", "hp": 3, "brawn": 8}]}),
    ("attack", {"weapons": ["bomb"]}),
    ("harm", {"damage": 20}),
    ("ability_damage", {"ability": "brawn", "damage": 2}),
]


def sheet(**changes: Any) -> Sheet:
    validated = RULES.validate({**ASH, **changes})
    assert isinstance(validated, Sheet)
    return validated


def params(kind: str, given: dict[str, Any], on: Sheet | None = None) -> dict[str, Any]:
    return RULES.roll_params(on or sheet(), kind, given)


def roll(kind: str, given: dict[str, Any], dice: list[int], on: Sheet | None = None) -> Resolution:
    return resolve_roll(SYSTEM, kind, params(kind, given, on), dice=dice)


def error(call: Any, *args: Any) -> RulesError:
    with pytest.raises(RulesError) as caught:
        call(*args)
    return caught.value


def named_tests() -> set[str]:
    return {name for name in globals() if name.startswith("test_")}


# --- the sheet ---------------------------------------------------------------------------------


def test_a_minimal_sheet_takes_the_defaults() -> None:
    # "Anyone deprived for more than a day adds **Fatigue** to their inventory": none at the start.
    minimal = RULES.validate(
        {"name": "Bo", "abilities": {"brawn": 10, "finesse": 11, "intellect": 12}, "hp": 3}
    )
    assert isinstance(minimal, Sheet)
    assert minimal.max_abilities == {"brawn": 10, "finesse": 11, "intellect": 12}
    assert (minimal.max_hp, minimal.armor, minimal.fatigue, minimal.shield) == (3, 0, 0, False)
    assert minimal.weapons == [] and minimal.conditions == [] and minimal.scars == []
    assert get_system(SYSTEM).sheet is SHEET_RULES and RULES.model is Sheet


def test_the_schema_says_what_a_minimal_sheet_needs() -> None:
    schema = Sheet.model_json_schema()
    assert schema["required"] == ["name", "abilities", "hp"]
    assert schema["properties"]["abilities"]["required"] == get_system(SYSTEM).stats
    assert schema["properties"]["conditions"]["items"]["enum"] == list(CONDITIONS)


def test_a_sheet_round_trips_through_json() -> None:
    ash = sheet(conditions=["deprived"], scars=["a torn ear"], shield=True)
    assert RULES.validate(ash.model_dump(mode="json")) == ash


def test_ruling_sheet_maxima() -> None:
    # "Resting for a few moments after an encounter restores all lost HP."
    ash = sheet(hp=2, max_hp=6, max_abilities={"brawn": 14, "finesse": 14, "intellect": 9})
    assert (ash.hp, ash.max_hp, ash.max_abilities["brawn"]) == (2, 6, 14)
    assert error(RULES.validate, {**ASH, "hp": 7, "max_hp": 6}).field == "sheet.hp"
    too_high = {**ASH, "max_abilities": {"brawn": 11, "finesse": 14, "intellect": 9}}
    assert error(RULES.validate, too_high).field == "sheet.abilities.brawn"


@pytest.mark.parametrize(
    ("changes", "kind", "field"),
    [
        (
            {"abilities": {"brawn": 1, "finesse": 2, "wits": 3}},
            UnknownError,
            "sheet.abilities.wits",
        ),
        ({"abilities": {"brawn": 1, "finesse": 2}}, InvalidParameter, "sheet.abilities.intellect"),
        (
            {"abilities": {"brawn": 1, "finesse": 2, "intellect": 21}},
            InvalidParameter,
            "sheet.abilities.intellect",
        ),
        ({"hp": HP_MAX + 1}, InvalidParameter, "sheet.hp"),
        ({"hp": -1}, InvalidParameter, "sheet.hp"),
        ({"fatigue": FATIGUE_MAX + 1}, InvalidParameter, "sheet.fatigue"),
        ({"armor": 21}, InvalidParameter, "sheet.armor"),
        ({"conditions": ["cursed"]}, UnknownError, "sheet.conditions.0"),
        ({"conditions": ["deprived", "deprived"]}, InvalidParameter, "sheet.conditions.1"),
        ({"weapons": [{"name": "axe", "die": 7}]}, InvalidParameter, "sheet.weapons.0.die"),
        (
            {"weapons": [{"name": "axe", "die": 6}, {"name": "axe", "die": 8}]},
            InvalidParameter,
            "sheet.weapons.1.name",
        ),
        ({"luck": 3}, UnknownError, "sheet.luck"),
        ({"name": ""}, InvalidParameter, "sheet.name"),
    ],
)
def test_bad_sheets_name_the_field(changes: dict[str, Any], kind: type, field: str) -> None:
    failure = error(RULES.validate, {**ASH, **changes})
    assert isinstance(failure, kind) and failure.field == field
    assert field.removeprefix("sheet.") in failure.message or isinstance(failure, UnknownError)


def test_hp_is_required_and_says_why() -> None:
    # "Damage first reduces your character’s HP." The text gives no starting HP to default to.
    data = {k: v for k, v in ASH.items() if k != "hp"}
    failure = error(RULES.validate, data)
    assert failure.field == "sheet.hp" and "no starting HP" in failure.message


def test_range_errors_give_the_range() -> None:
    failure = error(RULES.validate, {**ASH, "abilities": {**ASH["abilities"], "brawn": 30}})
    assert f"0..{SCORE_MAX}" in failure.message
    assert error(RULES.validate, []).field == "sheet"


def test_ruling_sheet_zero_abilities() -> None:
    # "If **Brawn** is reduced to zero, your character dies. It’s time to roll a new character."
    # "If **Intellect** is reduced to zero, your character is stricken with madness."
    mad = sheet(abilities={"brawn": 12, "finesse": 0, "intellect": 0})
    assert mad.conditions == ["limbs_useless", "madness"]
    # "The GM might determine their actions until the character's Intellect is restored."
    healed = {**ASH, "conditions": ["madness"]}
    assert error(RULES.validate, healed).field == "sheet.conditions.0"
    failure = error(RULES.roll_params, mad, "save", {"ability": "finesse"})
    assert failure.field == "sheet.abilities.finesse"
    dead = sheet(abilities={"brawn": 0, "finesse": 5, "intellect": 5})
    assert dead.conditions == ["dead"]
    for kind, asked in [("harm", {"damage": 1}), ("save", {"ability": "intellect"})]:
        assert error(RULES.roll_params, dead, kind, asked).field == "sheet.abilities.brawn"
    assert error(RULES.roll_params, dead, "attack", ATTACKED).field == "sheet.abilities.brawn"


# --- the values the sheet holds ----------------------------------------------------------------


def test_every_roll_kind_has_a_session_example() -> None:
    assert set(GIVEN) == set(ROLL_KINDS)


@pytest.mark.parametrize(("kind", "given"), SESSION)
def test_roll_params_validate_and_resolve(kind: str, given: dict[str, Any]) -> None:
    before = copy.deepcopy(given)
    filled = params(kind, given)
    ROLL_KINDS[kind].params.model_validate(filled)
    assert resolve_roll(SYSTEM, kind, filled, seed=7).kind == kind
    assert given == before  # the player's params are not changed in place


def test_save_score_comes_from_the_sheet() -> None:
    # "If the result is **less than** your character’s Ability score, the Action **succeeds**."
    assert params("save", {"ability": "intellect"}) == {"ability": "intellect", "score": 9}
    assert roll("save", {"ability": "intellect"}, [8]).outcome == "success"
    assert roll("save", {"ability": "intellect"}, [9]).outcome == "failure"


def test_the_character_is_the_entry_without_a_name() -> None:
    # "**both opponents** make Ability Saves, and the **lowest** roll succeeds."
    opposed = params("opposed", GIVEN["opposed"])
    assert opposed["actor"] == {"name": "Ash", "ability": "brawn", "score": 12}
    aid = params("aid", GIVEN["aid"])["savers"]
    assert aid[0] == {"name": "Ash", "ability": "brawn", "score": 12} and aid[1]["name"] == "Bo"
    initiative = params("initiative", GIVEN["initiative"])["characters"]
    assert initiative[0] == {"name": "Ash", "finesse": 14}
    target = params("attack", ATTACKED)["targets"][0]
    assert target == {"name": "Ash", "armor": 1, "hp": 6, "brawn": 12}
    harm = params("harm", {"damage": 3})
    assert harm == {"damage": 3, "hp": 6, "brawn": 12}
    assert params("ability_damage", GIVEN["ability_damage"])["score"] == 9


def test_a_name_the_engine_refuses_goes_in_as_character() -> None:
    asa = sheet(name="Åsa Stormborn")
    assert params("opposed", GIVEN["opposed"], asa)["actor"]["name"] == ENGINE_NAME
    assert asa.engine_name == ENGINE_NAME and sheet().engine_name == "Ash"


@pytest.mark.parametrize(
    ("kind", "given", "field"),
    [
        ("save", {"ability": "brawn", "score": 20}, "params.score"),
        ("deed", {"ability": "brawn", "score": 20}, "params.score"),
        ("opposed", {"actor": {"ability": "brawn", "score": 20}, "opponent": {}}, None),
        (
            "opposed",
            {"actor": {"ability": "brawn", "score": 20}, "opponent": {"name": "Orc"}},
            "params.actor.score",
        ),
        ("aid", {"savers": [{"ability": "brawn", "score": 3}]}, "params.savers.0.score"),
        ("initiative", {"characters": [{"finesse": 20}]}, "params.characters.0.finesse"),
        ("attack", {"weapons": [{"die": 6}], "targets": [{"hp": 9}]}, "params.targets.0.hp"),
        ("attack", {"weapons": [{"die": 6}], "targets": [{"armor": 0}]}, "params.targets.0.armor"),
        ("attack", {"weapons": [{"name": "sword", "die": 12}]}, "params.weapons.0.die"),
        ("deed", {"ability": "brawn", "weapon": {"die": 12}}, "params.weapon"),
        ("harm", {"damage": 3, "hp": 20}, "params.hp"),
        ("harm", {"damage": 3, "brawn": 20}, "params.brawn"),
        ("harm", {"damage": 3, "warband": True}, "params.warband"),
        ("ability_damage", {"ability": "brawn", "damage": 1, "score": 20}, "params.score"),
    ],
)
def test_a_value_the_sheet_holds_is_refused(
    kind: str, given: dict[str, Any], field: str | None
) -> None:
    failure = error(RULES.roll_params, sheet(), kind, given)
    assert isinstance(failure, InvalidParameter)
    if field:
        assert failure.field == field and "comes from the character sheet" in failure.message
    else:  # two entries without a name: which one is the character?
        assert failure.field == "params.opponent.name"


def test_unknown_kind_ability_or_weapon() -> None:
    assert error(RULES.roll_params, sheet(), "vow", {}).field == "kind"
    unknown = error(RULES.roll_params, sheet(), "save", {"ability": "wits"})
    assert isinstance(unknown, UnknownError) and unknown.field == "params.ability"
    # "Your GM tells you what Ability is relevant"
    missing = error(RULES.roll_params, sheet(), "save", {})
    assert isinstance(missing, InvalidParameter) and missing.field == "params.ability"
    axe = error(RULES.roll_params, sheet(), "attack", {"weapons": ["axe"]})
    assert isinstance(axe, UnknownError) and axe.field == "params.weapons.0.name"


def test_one_character_per_roll() -> None:
    two = {"savers": [{"ability": "brawn"}, {"ability": "finesse"}]}
    assert error(RULES.roll_params, sheet(), "aid", two).field == "params.savers.1.name"
    named = {"savers": [{"name": "Ash", "ability": "brawn", "score": 20}, {"ability": "brawn"}]}
    assert error(RULES.roll_params, sheet(), "aid", named).field == "params.savers.0.name"


def test_sheet_weapons_by_name() -> None:
    # "The attacker rolls their weapon’s damage die and deals that much damage to their
    # opponent's HP."
    attack = params("attack", {"weapons": ["bow", {"name": "sword", "enhanced": True}]})
    assert attack["weapons"] == [
        {"die": 6, "piercing": 1, "ignores_armor": False},
        {"die": 8, "piercing": 0, "ignores_armor": False, "enhanced": True},
    ]
    # "Attacks with a **blast** quality affect all targets in a zone"
    assert params("attack", {"weapons": ["bomb"]})["blast"] is True
    deed = params("deed", {"ability": "finesse", "weapon": "bow"})
    assert deed["weapon"]["die"] == 6 and deed["score"] == 14
    result = roll("deed", {"ability": "finesse", "weapon": "bow", "target_armor": 2}, [1, 5])
    assert result.outcome == "spectacular_success" and result.scores["damage"] == 4


def test_a_deed_without_a_weapon_and_malformed_lists() -> None:
    # "You declare your character’s deed and do not roll damage."
    assert params("deed", {"ability": "finesse"}) == {"ability": "finesse", "score": 14}
    # Not a list: passed on for the engine to name.
    assert params("aid", {"savers": "Bo"}) == {"savers": "Bo"}
    assert error(resolve_roll, SYSTEM, "aid", {"savers": "Bo"}).field == "params.savers"


def test_ruling_sheet_unconscious_out_of_the_fight() -> None:
    # "Your character adds a **Fatigue** debility to their inventory and is unconscious and out
    # of the fight until revived."
    out = sheet(conditions=["unconscious"])
    for kind, asked in [
        ("attack", {"weapons": ["sword"]}),
        ("deed", {"ability": "brawn"}),
        ("initiative", {"characters": [{}]}),
    ]:
        assert error(RULES.roll_params, out, kind, asked).field == "sheet.conditions"
    assert params("save", {"ability": "brawn"}, out)["score"] == 12
    assert params("attack", ATTACKED, out)["targets"][0]["hp"] == 6


def test_only_the_characters_shield_waits_for_a_decision() -> None:
    given = {"weapons": [{"die": 6}], "targets": [{"name": "orc", "shield": True}]}
    assert error(RULES.roll_params, sheet(), "attack", given).field == "params.targets.0.shield"
    no_shield = {"weapons": [{"die": 6}], "targets": [{"sunder_shield": True}]}
    failure = error(RULES.roll_params, sheet(), "attack", no_shield)
    assert failure.field == "params.targets.0.sunder_shield"
    shielded = params("attack", no_shield, sheet(shield=True))["targets"][0]
    assert shielded["sunder_shield"] is True and "shield" not in shielded


# --- applying a resolution ---------------------------------------------------------------------


def test_apply_damage_hp_then_brawn_and_a_critical_injury() -> None:
    # "Damage first reduces your character’s HP. After HP is zero, the excess damage then reduces
    # your Brawn Ability." "If your Save fails, the damage is a **Critical Injury**. Your
    # character adds a **Fatigue** debility to their inventory and is unconscious"
    result = roll("harm", {"damage": 9}, [15])  # 6 HP, 3 Brawn: 15 is not under 9
    update = RULES.apply(sheet(), result)
    new = update.sheet
    assert (new.hp, new.abilities["brawn"], new.fatigue) == (0, 9, 1)
    assert new.conditions == ["unconscious"] and update.other == []
    assert [(c.target, c.delta, c.set_to) for c in update.applied[:3]] == [
        ("hp", -6, 0),
        ("brawn", -3, 9),
        ("fatigue", 1, 1),
    ]


def test_apply_keeps_values_within_the_sheets_ranges() -> None:
    # The engine's example harm (HP 4) applied to a sheet with 2 HP left: HP stops at 0.
    example = ROLL_KINDS["harm"].examples[0]
    result = resolve_roll(SYSTEM, "harm", example, dice=[18])
    update = RULES.apply(sheet(hp=2, max_hp=6), result)
    hp = next(c for c in update.applied if c.target == "hp")
    assert update.sheet.hp == 0 and hp.delta == -2 and "kept within 0..6" in (hp.note or "")
    tired = RULES.apply(sheet(fatigue=FATIGUE_MAX), roll("harm", {"damage": 9}, [15]))
    assert tired.sheet.fatigue == FATIGUE_MAX


def test_ruling_sheet_scar_recorded() -> None:
    # "When damage to your character reduces their HP to *exactly* zero, they are sometimes
    # changed irrevocably."
    update = RULES.apply(sheet(), roll("harm", {"damage": 6}, []))
    assert update.sheet.hp == 0 and len(update.sheet.scars) == 1
    assert "Scars table" in update.sheet.scars[0]


def test_apply_ability_loss_shows_its_condition() -> None:
    # "If **Intellect** is reduced to zero, your character is stricken with madness."
    mad = RULES.apply(sheet(), roll("ability_damage", {"ability": "intellect", "damage": 12}, []))
    assert mad.sheet.abilities["intellect"] == 0 and mad.sheet.conditions == ["madness"]
    # "If **Brawn** is reduced to zero, your character dies."
    dead = RULES.apply(sheet(), roll("harm", {"damage": 30}, []))
    assert dead.sheet.abilities["brawn"] == 0 and "dead" in dead.sheet.conditions


def test_an_opponents_changes_go_to_other() -> None:
    result = roll("attack", GIVEN["attack"], [7, 3])  # sword 7 - armour 1 = 6: orc HP 4, Brawn 2
    update = RULES.apply(sheet(), result)
    assert update.sheet == sheet() and update.applied == []
    assert {c.target for c in update.other} == {"hp", "brawn"}


def test_a_blast_applies_the_characters_named_changes() -> None:
    # "Attacks with a **blast** quality affect all targets in a zone, rolling damage separately
    # for each."
    given = {
        "weapons": [{"die": 8}],
        "targets": [{"name": "Bo", "hp": 2, "brawn": 5}, {}],
        "blast": True,
    }
    result = roll("attack", given, [5, 1, 4], on=sheet(armor=0))  # Bo: 5 (saved on 1); Ash: 4
    update = RULES.apply(sheet(armor=0), result)
    assert update.sheet.hp == 2
    assert [c.target for c in update.applied] == ["hp"]  # as the sheet names it
    assert {c.target for c in update.other} == {"Bo.hp", "Bo.brawn"}


def test_changes_the_sheet_cannot_hold_go_to_other() -> None:
    # "When a Warband takes a Critical Injury, it is routed." A character is never a warband: an
    # engine roll against a warband that shares the character's name leaves the sheet alone.
    band = {"name": "Ash", "hp": 1, "brawn": 9, "warband": True}
    result = resolve_roll(
        SYSTEM, "attack", {"weapons": [{"die": 8}], "targets": [band]}, dice=[6, 4, 15]
    )
    assert result.outcome == "routed"
    update = RULES.apply(sheet(), result)
    assert update.sheet == sheet() and update.other == result.changes
    harm = resolve_roll(
        SYSTEM, "harm", {"damage": 4, "hp": 2, "brawn": 5, "warband": True}, dice=[1]
    )
    assert RULES.apply(sheet(), harm).other == harm.changes


def test_a_name_that_starts_like_the_characters_is_someone_else() -> None:
    # A blast names each target's changes "<name>.hp": "Dr.x.hp" is not Dr's own "hp".
    doc = sheet(name="Dr", armor=0)
    given = {"weapons": [{"die": 6}], "targets": [{}, {"name": "Dr.x", "hp": 2, "brawn": 5}]}
    result = roll("attack", {**given, "blast": True}, [3, 2], on=doc)
    update = RULES.apply(doc, result)
    assert update.sheet.hp == 3 and update.sheet.scars == []
    assert [c.target for c in update.other] == ["Dr.x.hp", "Dr.x.scar"]


def test_another_systems_sheet_is_refused() -> None:
    class Other(BaseModel):
        name: str = "x"

    assert error(RULES.apply, Other(), roll("save", {"ability": "brawn"}, [3])).field == "sheet"


@pytest.mark.parametrize("kind", ["save", "deed", "opposed", "aid", "interfere", "initiative"])
def test_saves_change_nothing_on_the_sheet(kind: str) -> None:
    result = resolve_roll(SYSTEM, kind, params(kind, GIVEN[kind]), seed=3)
    assert RULES.apply(sheet(), result).sheet == sheet()


# --- the shield choice -------------------------------------------------------------------------


def shielded(**changes: Any) -> Sheet:
    return sheet(shield=True, **changes)


def test_ruling_sheet_shield_choice() -> None:
    # "If your character has a shield equipped, you could choose to ignore all damage in an
    # attack by sundering their shield. A sundered shield is destroyed."
    filled = params("attack", ATTACKED, shielded())
    pending = resolve_roll(SYSTEM, "attack", filled, dice=[5])  # 5 - armour 1 = 4 of 6 HP
    assert pending.outcome == "shield_choice" and pending.changes == []
    [choice] = RULES.choices("attack", filled, pending)
    assert choice.param == "sunder" and [o.value for o in choice.options] == [True, False]
    assert choice.citation.heading.endswith("Sundered Shields") and not choice.extra_dice
    sunder = resolve_roll(SYSTEM, "attack", filled | {"sunder": True}, dice=[5])
    keep = resolve_roll(SYSTEM, "attack", filled | {"sunder": False}, dice=[5])
    assert RULES.apply(shielded(), sunder).sheet == sheet(shield=False)
    assert RULES.apply(shielded(), keep).sheet == shielded(hp=2, max_hp=6)
    assert RULES.choices("attack", filled | {"sunder": True}, sunder) == []


def test_keeping_the_shield_may_roll_the_brawn_save() -> None:
    # "After taking damage to Brawn, roll a Brawn Save."
    filled = params("attack", ATTACKED, shielded(hp=2, max_hp=6))
    pending = resolve_roll(SYSTEM, "attack", filled, dice=[8])  # 7 dealt: 2 HP and 5 Brawn
    [choice] = RULES.choices("attack", filled, pending)
    assert choice.extra_dice
    with pytest.raises(DiceError):
        resolve_roll(SYSTEM, "attack", filled | {"sunder": False}, dice=[8])
    keep = resolve_roll(SYSTEM, "attack", filled | {"sunder": False}, dice=[8, 3])
    assert keep.outcome == "harmed" and keep.dice[-1].role == "brawn_save"
    assert RULES.apply(shielded(hp=2, max_hp=6), keep).sheet.abilities["brawn"] == 7


def test_no_shield_choice_without_a_shield_or_damage() -> None:
    plain = params("attack", ATTACKED)
    assert RULES.choices("attack", plain, resolve_roll(SYSTEM, "attack", plain, dice=[5])) == []
    armoured = params("attack", ATTACKED, shielded(armor=5))
    nothing = resolve_roll(SYSTEM, "attack", armoured, dice=[3])
    assert nothing.outcome == "unharmed" and RULES.choices("attack", armoured, nothing) == []


@pytest.mark.parametrize("kind", [k for k in GIVEN if k != "attack"])
def test_no_other_kind_leaves_a_choice(kind: str) -> None:
    filled = params(kind, GIVEN[kind], shielded())
    for seed in range(20):
        assert RULES.choices(kind, filled, resolve_roll(SYSTEM, kind, filled, seed=seed)) == []


# --- the engine parameters the sheet needs -----------------------------------------------------


def test_attack_and_deed_enhanced_or_impaired_for_every_weapon() -> None:
    # "In situations that make an attack either more or less deadly, the GM may decide that your
    # character’s damage is **Enhanced** or **Impaired**."
    enhanced = roll("attack", {"weapons": ["sword"], "enhanced": True}, [3, 11])
    assert enhanced.scores["damage"] == 11 and enhanced.dice[1].sides == 12
    impaired = roll("attack", {"weapons": ["sword"], "impaired": True}, [7, 2])
    assert impaired.scores["damage"] == 2 and impaired.dice[1].sides == 4
    deed = roll("deed", {"ability": "brawn", "weapon": "sword", "enhanced": True}, [1, 3, 10])
    assert deed.scores["damage"] == 10
    both = roll(
        "deed", {"ability": "brawn", "weapon": "sword", "enhanced": True, "impaired": True}, [1, 3]
    )
    assert "enhanced_impaired_cancel" in both.rulings


def test_the_kept_shields_brawn_save_comes_last_in_a_blast() -> None:
    # Ruling sundered_shield_after_roll: the Brawn Save of a kept shield comes after every die.
    given = {
        "weapons": [{"die": 8}],
        "targets": [{}, {"name": "Bo", "hp": 1, "brawn": 5}],
        "blast": True,
    }
    filled = params("attack", given, shielded(hp=1, max_hp=6, armor=0))
    pending = resolve_roll(SYSTEM, "attack", filled, dice=[4, 3, 2])  # Ash 4; Bo 3 (save 2)
    assert pending.details["shield_pending"] == "Ash"
    keep = resolve_roll(SYSTEM, "attack", filled | {"sunder": False}, dice=[4, 3, 2, 9])
    assert [d.role for d in keep.dice] == [
        "Ash.damage",
        "Bo.damage",
        "Bo.brawn_save",
        "Ash.brawn_save",
    ]
    assert RULES.apply(shielded(hp=1, max_hp=6, armor=0), keep).sheet.abilities["brawn"] == 9


@pytest.mark.parametrize(
    ("attack", "field"),
    [
        (
            {"targets": [{"shield": True}, {"name": "b", "shield": True}], "blast": True},
            "params.targets.1.shield",
        ),
        ({"targets": [{"shield": True, "sunder_shield": True}]}, "params.targets.0.shield"),
        ({"sunder": True}, "params.sunder"),
    ],
)
def test_the_shield_decision_is_one_targets(attack: dict[str, Any], field: str) -> None:
    failure = error(resolve_roll, SYSTEM, "attack", {"weapons": [{"die": 6}], **attack})
    assert failure.field == field


# --- GM parameters and tracks ------------------------------------------------------------------


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in _models_in(arg)]


def _field_of(model: type[BaseModel], path: list[str]) -> bool:
    """Whether a dotted path (``*`` for any list entry) reaches a field of the params model."""
    info = model.model_fields.get(path[0])
    if info is None:
        return False
    rest = path[2:] if path[1:2] == ["*"] else path[1:]
    return not rest or any(_field_of(m, rest) for m in _models_in(info.annotation))


def test_gm_params_are_parameters_of_their_kinds() -> None:
    # "Your GM tells you what Ability is relevant, and you then roll **d20**."
    for gm in RULES.gm_params:
        for kind in gm.kinds:
            assert _field_of(ROLL_KINDS[kind].params, gm.param.split(".")), (gm.param, kind)
    ability = next(p for p in RULES.gm_params if p.param == "ability")
    assert ability.choices == get_system(SYSTEM).stats == ABILITIES
    advantage = next(p for p in RULES.gm_params if p.param == "advantage")
    assert advantage.kinds == ["save", "deed"] and advantage.choices == [False, True]


def test_the_text_has_no_progress_tracks() -> None:
    assert RULES.track_types == []
    failure = error(RULES.progress_roll, sheet(), "vow", 12, {})
    assert isinstance(failure, UnknownError) and failure.field == "track_type"


def test_every_sheet_ruling_has_a_named_test_and_quotes_the_source() -> None:
    flat = " ".join(SOURCE_TEXT.split())
    for ruling in SHEET_RULINGS:
        assert f"test_ruling_{ruling.id}" in named_tests(), ruling.id
        assert " ".join(ruling.quote.split()) in flat, ruling.id


# --- invariants --------------------------------------------------------------------------------

SCORE = st.integers(min_value=0, max_value=SCORE_MAX)


@st.composite
def sheets(draw: st.DrawFn) -> Sheet:
    abilities = {a: draw(SCORE) for a in ABILITIES}
    maxima = {a: draw(st.integers(min_value=v, max_value=SCORE_MAX)) for a, v in abilities.items()}
    hp = draw(st.integers(min_value=0, max_value=HP_MAX))
    data = {
        "name": draw(st.sampled_from(["Ash", "Åsa", "Bo"])),
        "abilities": abilities,
        "max_abilities": maxima,
        "hp": hp,
        "max_hp": draw(st.integers(min_value=hp, max_value=HP_MAX)),
        "armor": draw(st.integers(min_value=0, max_value=5)),
        "shield": draw(st.booleans()),
        "weapons": ASH["weapons"],
        "fatigue": draw(st.integers(min_value=0, max_value=FATIGUE_MAX)),
        "conditions": draw(st.lists(st.sampled_from(["unconscious", "deprived"]), unique=True)),
    }
    validated = RULES.validate(data)
    assert isinstance(validated, Sheet)
    return validated


ENGINE_EXAMPLES = [(k.id, e) for k in ROLL_KINDS.values() for e in k.examples]
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


def assert_in_range(ash: Sheet) -> None:
    assert 0 <= ash.hp <= ash.max_hp <= HP_MAX and 0 <= ash.fatigue <= FATIGUE_MAX
    for ability in ABILITIES:
        assert 0 <= ash.abilities[ability] <= ash.max_abilities[ability] <= SCORE_MAX
    assert set(ash.conditions) <= set(CONDITIONS)
    assert RULES.validate(ash.model_dump(mode="json")) == ash


def session_roll(ash: Sheet, kind: str, given: dict[str, Any], seed: int) -> Resolution | None:
    """A roll of a session: params from the sheet (None when the sheet refuses it)."""
    try:
        filled = RULES.roll_params(ash, kind, given)
    except RulesError:
        return None
    ROLL_KINDS[kind].params.model_validate(filled)
    return resolve_roll(SYSTEM, kind, filled, seed=seed)


@settings(max_examples=150)
@given(
    sheets(),
    st.sampled_from([(True, *e) for e in ENGINE_EXAMPLES] + [(False, *e) for e in SESSION]),
    SEEDS,
)
def test_apply_never_raises_and_keeps_the_sheet_in_range(
    ash: Sheet, example: tuple[bool, str, dict[str, Any]], seed: int
) -> None:
    # Any resolution of the engine: its own examples (an opponent's numbers, or the sheet's
    # overridden) as well as the rolls a session makes from the sheet.
    engine, kind, given = example
    result = resolve_roll(SYSTEM, kind, given, seed=seed) if engine else None
    result = result or session_roll(ash, kind, given, seed)
    if result is not None:
        update = RULES.apply(ash, result)
        assert_in_range(update.sheet)
        assert len(update.applied) + len(update.other) == len(result.changes)


@settings(max_examples=150)
@given(sheets(), st.sampled_from(SESSION), SEEDS)
def test_every_offered_option_resolves_with_the_same_dice(
    ash: Sheet, example: tuple[str, dict[str, Any]], seed: int
) -> None:
    kind, given = example
    result = session_roll(ash, kind, given, seed)
    if result is None:
        return
    filled = RULES.roll_params(ash, kind, given)
    for choice in RULES.choices(kind, filled, result):
        assert choice.param in ROLL_KINDS[kind].params.model_fields and choice.param not in filled
        for option in choice.options:
            chosen = filled | {choice.param: option.value}
            by_seed = resolve_roll(SYSTEM, kind, chosen, seed=seed)
            dice = result.dice_values()
            extra = [d.value for d in by_seed.dice[len(dice) :]]
            assert not extra or choice.extra_dice
            by_dice = resolve_roll(SYSTEM, kind, chosen, dice=dice + extra)
            assert by_dice.model_copy(update={"seed": seed}) == by_seed
            assert RULES.choices(kind, chosen, by_seed) == []
            assert_in_range(RULES.apply(ash, by_seed).sheet)


@settings(max_examples=60)
@given(
    sheets(),
    st.lists(st.tuples(st.sampled_from(SESSION), SEEDS, st.booleans()), max_size=8),
)
def test_replay_from_the_recorded_dice_gives_the_same_sheet(
    ash: Sheet, turns: list[tuple[tuple[str, dict[str, Any]], int, bool]]
) -> None:
    # The journal keeps each resolution; replaying its params and dice folds to the same sheet.
    current, journal = ash, []
    for (kind, asked), seed, sunder in turns:
        result = session_roll(current, kind, asked, seed)
        if result is None:
            continue
        for choice in RULES.choices(kind, result.params, result):
            chosen = result.params | {choice.param: sunder}
            result = resolve_roll(SYSTEM, kind, chosen, seed=seed)
        journal.append(result)
        current = RULES.apply(current, result).sheet
    replayed = ash
    for recorded in journal:
        again = resolve_roll(SYSTEM, recorded.kind, recorded.params, dice=recorded.dice_values())
        assert again.model_copy(update={"seed": recorded.seed}) == recorded
        replayed = RULES.apply(replayed, again).sheet
    assert replayed == current
