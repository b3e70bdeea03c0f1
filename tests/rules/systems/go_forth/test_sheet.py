"""Go Forth's character sheet (rules/systems/go_forth/sheet.py, gm.py, choices.py): every rule
with the sentence of go_forth.txt it comes from, and the invariants a session relies on."""

from __future__ import annotations

from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import InvalidParameter, RulesError, UnknownError
from rules.models import Frozen, Resolution, StateChange
from rules.registry import get_system, resolve_roll, validate_params
from rules.sheets import Choice
from rules.systems.go_forth.choices import MAX_BOOSTS
from rules.systems.go_forth.gm import GM_PARAMS, HIGHEST_TN, VERY_EASY_TN
from rules.systems.go_forth.momentum import MAX_POOL_DICE, Pool
from rules.systems.go_forth.sheet import (
    FILL,
    METERS,
    SHEET_RULES,
    Severity,
    Sheet,
    Wound,
    clamp_pool,
)
from rules.systems.go_forth.wounds import ATTRIBUTES, PAIRS, SEVERITIES

SYSTEM = get_system("go_forth")
RULES = SHEET_RULES
CALLED = {"check", "effort", "contest"}  # the kinds that take the attribute the GM calls


def sheet(**data: Any) -> Sheet:
    result = RULES.validate({"name": "Wren"} | data)
    assert isinstance(result, Sheet)
    return result


def field_of(data: dict[str, Any]) -> str | None:
    with pytest.raises(RulesError) as err:
        RULES.validate({"name": "Wren"} | data)
    return err.value.field


def params_for(hero: Sheet, kind: str, given_: dict[str, Any]) -> dict[str, Any]:
    return RULES.roll_params(hero, kind, given_)


def roll(
    hero: Sheet, kind: str, given_: dict[str, Any], dice: list[int] | None = None
) -> tuple[dict[str, Any], Resolution]:
    params = params_for(hero, kind, given_)
    return params, resolve_roll("go_forth", kind, params, dice=dice, seed=None if dice else 7)


def rechoose(
    kind: str, params: dict[str, Any], choice: Choice, value: Any, dice: list[int]
) -> Resolution:
    return resolve_roll("go_forth", kind, params | {choice.param: value}, dice=dice)


def deltas(changes: list[StateChange]) -> dict[str, int | None]:
    return {c.target: c.delta if c.delta is not None else c.set_to for c in changes}


# --- the sheet ---------------------------------------------------------------------------------


def test_the_system_carries_the_sheet_and_its_meters() -> None:
    assert SYSTEM.sheet is RULES and RULES.model is Sheet
    assert SYSTEM.meters == METERS and SYSTEM.stats == list(ATTRIBUTES)
    assert get_args(Severity) == SEVERITIES


def test_a_minimal_sheet_takes_the_texts_starting_values() -> None:
    # "You start with 3 Momentum dice (d6s)." / "Starting place for all dice." (Stamina) /
    # "You begin with 1 Lock slot." / "By default, both equal your attribute score."
    hero = sheet()
    assert hero.momentum == Pool(stamina=3, lock_slots=1) and hero.momentum.total == 3
    assert set(hero.attributes) == set(ATTRIBUTES)
    assert all((a.score, a.roll, a.effort) == (0, 0, 0) for a in hero.attributes.values())
    assert hero.wounds == [] and hero.conditions == [] and hero.dying is False


def test_an_attribute_is_a_score_or_its_split() -> None:
    # "If you have Might +3, you have Might +3 Roll and Might +3 Effort." /
    # "Might +3 → +2 Roll / +4 Effort" / "Reason +2 → +3 Roll / +1 Effort"
    hero = sheet(attributes={"might": 3, "finesse": {"score": 3, "roll": 2}, "reason": 2})
    assert (hero.attributes["might"].roll, hero.attributes["might"].effort) == (3, 3)
    assert (hero.attributes["finesse"].roll, hero.attributes["finesse"].effort) == (2, 4)
    hero = sheet(attributes={"reason": {"score": 2, "effort": 1}})
    assert hero.attributes["reason"].roll == 3


@pytest.mark.parametrize(
    ("data", "field"),
    [
        # "Neither Roll nor Effort can exceed +5 at first level."
        ({"attributes": {"might": {"score": 4, "roll": 2}}}, "sheet.attributes.might.effort"),
        # "If you have a -1 Attribute, you must reduce both Roll and Effort by 1."
        ({"attributes": {"guile": {"score": -1, "roll": 0}}}, "sheet.attributes.guile.roll"),
        # "For each point you reduce one value, increase the other by the same amount."
        (
            {"attributes": {"vigor": {"score": 2, "roll": 1, "effort": 1}}},
            "sheet.attributes.vigor.effort",
        ),
        ({"attributes": {"might": 11}}, "sheet.attributes.might.score"),
        ({"momentum": {"stamina": -1}}, "sheet.momentum.stamina"),
        ({"momentum": {"locked": 2}}, "sheet.momentum.locked"),
        ({"momentum": {"stamina": 20, "fatigue": 11}}, "sheet.momentum"),
        ({"level": 0}, "sheet.level"),
        ({"name": ""}, "sheet.name"),
        ({"wounds": [{"severity": "flesh", "defense": "body", "roll": 9}]}, "sheet.wounds.0.roll"),
        (
            {"wounds": [{"severity": "scratch", "defense": "body", "roll": 1}]},
            "sheet.wounds.0.severity",
        ),
        ({"wounds": [{"severity": "flesh", "defense": "body", "roll": 1}] * 11}, "sheet.wounds"),
        # "paired conditions cancel out ... Opposites don't coexist."
        ({"conditions": ["empowered", "weakened"]}, "sheet.conditions"),
        ({"conditions": ["mobile", "mobile"]}, "sheet.conditions"),
        ({"stats": {"might": 1}}, "sheet.stats"),
    ],
)
def test_a_bad_sheet_names_the_field(data: dict[str, Any], field: str) -> None:
    assert field_of(data) == field


def test_a_meter_out_of_range_says_the_range() -> None:
    with pytest.raises(InvalidParameter) as err:
        sheet(momentum={"stamina": 31})
    assert "0 to 30" in err.value.message and err.value.field == "sheet.momentum.stamina"


def test_a_higher_level_lifts_the_first_level_cap() -> None:
    # "Neither Roll nor Effort can exceed +5 at first level."
    assert (
        sheet(level=2, attributes={"might": {"score": 4, "roll": 2}}).attributes["might"].effort
        == 6
    )


@pytest.mark.parametrize(
    ("data", "what", "field"),
    [
        ({"attributes": {"strength": 2}}, "attribute", "sheet.attributes.strength"),
        ({"conditions": ["mobile", "burning"]}, "condition", "sheet.conditions.1"),
    ],
)
def test_an_unknown_attribute_or_condition_is_unknown(
    data: dict[str, Any], what: str, field: str
) -> None:
    # "Your character has eight attributes" / "Conditions ... come in pairs"
    with pytest.raises(UnknownError) as err:
        sheet(**data)
    assert err.value.what == what and err.value.field == field


def test_only_a_go_forth_sheet_is_taken() -> None:
    class Other(Frozen):
        name: str

    with pytest.raises(InvalidParameter) as err:
        RULES.roll_params(Other(name="x"), "check", {})
    assert err.value.field == "sheet"
    with pytest.raises(InvalidParameter):
        RULES.validate([])  # type: ignore[arg-type]


def test_a_wound_knows_its_chart_row() -> None:
    # "Body ... 3–4. Might checks are Hard" / "8. Can't Prepare"
    assert Wound(severity="shallow", defense="body", roll=4).effect == "Might checks are Hard"
    assert Wound(severity="shallow", defense="mind", roll=5).hard_attribute() == "reason"
    assert Wound(severity="shallow", defense="body", roll=8).hard_attribute() is None


# --- roll parameters ---------------------------------------------------------------------------


def sheet_given(kind: str, example: dict[str, Any]) -> dict[str, Any]:
    """An engine example as a player gives it with a sheet: no value the sheet holds."""
    held = FILL[kind][0]
    out = {k: v for k, v in example.items() if k not in held}
    return out | ({"attribute": "finesse"} if kind in CALLED else {})


EXAMPLES = [(k.id, ex) for k in SYSTEM.roll_kinds.values() for ex in k.examples]


def test_every_roll_kind_has_its_filling() -> None:
    assert set(FILL) == set(SYSTEM.roll_kinds)


@pytest.mark.parametrize(("kind", "example"), EXAMPLES)
def test_roll_params_of_every_kind_validate_and_resolve(kind: str, example: dict[str, Any]) -> None:
    hero = sheet(
        attributes={"finesse": 3, "might": 2, "agility": 1}, momentum={"stamina": 2, "power": 2}
    )
    params = RULES.roll_params(hero, kind, sheet_given(kind, example))
    validate_params(SYSTEM.roll_kind(kind), params)
    assert resolve_roll("go_forth", kind, params, seed=3).kind == kind


@pytest.mark.parametrize(
    ("kind", "name"), [(kind, name) for kind, (held, _) in FILL.items() for name in held]
)
def test_a_value_the_sheet_holds_is_refused(kind: str, name: str) -> None:
    # "Values the sheet holds ... come from the sheet, not from the request."
    with pytest.raises(InvalidParameter) as err:
        RULES.roll_params(sheet(), kind, {"attribute": "might", name: 1})
    assert err.value.field == f"params.{name}" and "character sheet" in err.value.message


def test_an_unknown_kind_is_unknown() -> None:
    with pytest.raises(UnknownError) as err:
        RULES.roll_params(sheet(), "save", {})
    assert err.value.field == "kind"


def test_the_called_attributes_bonuses_come_from_the_sheet() -> None:
    # "When you make a roll, the GM tells you which attribute applies. You add your +Roll bonus
    #  to the d20 and your +Effort bonus to the Effort die."
    hero = sheet(attributes={"finesse": {"score": 3, "roll": 2}, "might": 1})
    params = RULES.roll_params(hero, "effort", {"attribute": "finesse", "tn": 13})
    assert (params["roll_bonus"], params["effort_bonus"]) == (2, 4)
    assert RULES.roll_params(hero, "contest", {"attribute": "might"})["roll_bonus"] == 1
    assert params["pool"] == hero.momentum.model_dump()


def test_the_gm_must_call_an_attribute() -> None:
    # "The GM tells you which attribute applies to the action you're attempting."
    with pytest.raises(InvalidParameter) as err:
        RULES.roll_params(sheet(), "check", {"tn": 12})
    assert err.value.field == "params.attribute"
    with pytest.raises(UnknownError) as unknown:
        RULES.roll_params(sheet(), "check", {"tn": 12, "attribute": "charm"})
    assert unknown.value.field == "params.attribute"


@pytest.mark.parametrize(
    ("given_", "field"),
    [
        # "Very Easy TN 10" ... "Doom TN 10 + 2d12"
        ({"tn": 35}, "params.tn"),
        ({"tn": 9}, "params.tn"),
        ({"tn": "12"}, "params.tn"),
        # "Easy and Hard do not stack"
        ({"tn": 12, "easy": 2}, "params.easy"),
        ({"difficulty": "legendary"}, "params.difficulty"),
        ({"difficulty": "extreme", "extreme_dice": "2d10"}, "params.extreme_dice"),
    ],
)
def test_gm_parameters_stay_in_the_texts_range(given_: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidParameter) as err:
        RULES.roll_params(sheet(), "check", {"attribute": "might"} | given_)
    assert err.value.field == field


def test_the_tn_range_is_the_encounter_tables_span() -> None:
    # "Very Easy TN 10" / "Doom TN 10 + 2d12"
    assert (VERY_EASY_TN, HIGHEST_TN) == (10, 34)


REQUIRED = {"encounter_tn": {"difficulty": "easy"}, "wound": {"defense": "body", "attributes": {}}}


@pytest.mark.parametrize("gm", GM_PARAMS, ids=lambda g: g.param)
def test_every_gm_parameter_is_a_parameter_its_kinds_take(gm: Any) -> None:
    # The GM's range lies inside the engine's: every allowed value (the bounds, the choices) is
    # accepted by the params model of each kind that takes it.
    values = list(gm.choices or []) + [v for v in (gm.minimum, gm.maximum) if v is not None]
    assert values
    for kind in gm.kinds:
        for value in values:
            validate_params(SYSTEM.roll_kind(kind), REQUIRED.get(kind, {}) | {gm.param: value})


def test_a_wound_makes_its_attributes_checks_hard() -> None:
    # "3–4. Might checks are Hard"
    hero = sheet(wounds=[{"severity": "shallow", "defense": "body", "roll": 3}])
    assert RULES.roll_params(hero, "check", {"attribute": "might", "tn": 12})["hard"] == 1
    assert RULES.roll_params(hero, "check", {"attribute": "agility", "tn": 12})["hard"] == 0
    _, res = roll(hero, "check", {"attribute": "might", "tn": 12, "hard": 1}, [12])
    assert res.details["mode"] == "hard" and res.scores["tn"] == 15  # do not stack


def test_empowered_and_focused_make_their_checks_easy() -> None:
    # "Empowered — Body Defense +2/+3, physical checks Easy" / "Focused — Mind Defense +2, mental
    #  checks Easy" / "Others target specific Defenses and the attributes tied to them."
    hero = sheet(conditions=["empowered", "focused"])
    assert RULES.roll_params(hero, "check", {"attribute": "agility", "tn": 12})["easy"] == 1
    assert RULES.roll_params(hero, "check", {"attribute": "reason", "tn": 12})["easy"] == 1
    assert RULES.roll_params(hero, "check", {"attribute": "guile", "tn": 12})["easy"] == 0
    # "Easy and Hard ... offset each other"
    _, res = roll(hero, "check", {"attribute": "might", "tn": 12, "hard": 1}, [10])
    assert res.details["mode"] == "normal"


def test_favored_is_used_by_the_next_action() -> None:
    # "Favored — Next Action Easy"
    hero = sheet(conditions=["favored", "mobile"])
    params, res = roll(hero, "effort", {"attribute": "might", "tn": 12}, [9, 3])
    assert params["favored"] is True and res.outcome == "hit" and res.scores["tn"] == 9
    after = RULES.apply(hero, res).sheet
    assert after.conditions == ["mobile"]


def test_hindered_makes_the_next_action_hard() -> None:
    # "Hindered — Next Action Hard"
    params, res = roll(
        sheet(conditions=["hindered"]), "check", {"attribute": "might", "tn": 12}, [14]
    )
    assert params["hindered"] is True and res.outcome == "failure"


@pytest.mark.parametrize(
    ("wound", "action"),
    [
        ({"defense": "body", "roll": 8}, {"action": "prepare", "direction": "stamina_to_power"}),
        ({"defense": "mind", "roll": 7}, {"action": "lock"}),
    ],
)
def test_a_wound_can_forbid_a_momentum_action(
    wound: dict[str, Any], action: dict[str, Any]
) -> None:
    # "8. Can't Prepare" (Body) / "7. Can't Lock Momentum" (Mind)
    hero = sheet(wounds=[wound | {"severity": "vicious", "sessions": 2}], momentum={"power": 1})
    with pytest.raises(InvalidParameter) as err:
        RULES.roll_params(hero, "momentum", action)
    assert err.value.field == "params.action"
    RULES.roll_params(hero, "momentum", {"action": "take_hit"})  # other actions stay open


def test_a_wound_roll_counts_the_wounds_held() -> None:
    # "Already wounded? Each existing Wound gives a -5 penalty on your Severity roll."
    hero = sheet(
        attributes={"might": 2, "agility": 1},
        wounds=[{"severity": "shallow", "defense": "soul", "roll": 2}],
    )
    params, res = roll(hero, "wound", {"defense": "body"}, [10, 2])
    assert params["existing_wounds"] == 1 and params["attributes"]["might"] == 2
    assert res.scores["severity"] == 10 + 2 + 1 - 5


def test_the_attributes_kind_checks_the_sheets_split() -> None:
    hero = sheet(attributes={"might": {"score": 3, "roll": 2}})
    _, res = roll(hero, "attributes", {})
    assert res.scores["might_roll"] == 2 and res.scores["might_effort"] == 4


# --- applying a resolution ---------------------------------------------------------------------


def test_preparing_moves_a_die_on_the_sheet() -> None:
    # "At the start of your turn, you Prepare by moving 1 Momentum die: Stamina → Power"
    hero = sheet()
    _, res = roll(hero, "momentum", {"action": "prepare", "direction": "stamina_to_power"})
    update = RULES.apply(hero, res)
    assert update.sheet.momentum == Pool(stamina=2, power=1)
    assert deltas(update.applied) == {"momentum.stamina": -1, "momentum.power": 1}
    assert update.other == []


def test_a_boost_fatigues_its_die() -> None:
    # "Roll and Fatigue Stamina or Power: You roll Momentum, and get a 4."
    hero = sheet(momentum={"stamina": 2, "power": 1})
    _, res = roll(hero, "check", {"attribute": "might", "tn": 13, "boosts": ["power"]}, [9, 4])
    assert res.outcome == "success"
    assert RULES.apply(hero, res).sheet.momentum == Pool(stamina=2, fatigue=1)


def test_a_hit_with_everything_fatigued_is_a_beat_for_the_session() -> None:
    # "If all Momentum is already in Fatigue when you take a Hit → you trigger a Beat."
    hero = sheet(momentum={"stamina": 0, "fatigue": 3})
    _, res = roll(hero, "momentum", {"action": "take_hit"})
    update = RULES.apply(hero, res)
    assert update.sheet == hero and deltas(update.other) == {"beat": 1}


def test_effort_on_hearts_goes_to_the_sessions_track() -> None:
    # "Accumulate enough Effort against a Heart (10 points) to overcome it."
    hero = sheet(attributes={"might": 3})
    _, res = roll(hero, "effort", {"attribute": "might", "tn": 12, "hearts": 2}, [15, 5])
    update = RULES.apply(hero, res)
    assert deltas(update.other) == {"target.heart_effort": 8} and update.applied == []


def test_a_wound_is_recorded_with_its_row() -> None:
    # "1 – 5 Vicious Wound (d4 sessions)" / "Roll d8 on the matching Defense chart."
    hero = sheet()
    _, res = roll(hero, "wound", {"defense": "mind"}, [3, 5, 2])
    update = RULES.apply(hero, res)
    assert update.sheet.wounds == [Wound(severity="vicious", defense="mind", roll=5, sessions=2)]
    assert update.sheet.wounds[0].effect == "Reason checks Hard"
    assert deltas(update.applied) == {"wounds": 1}


def test_a_wound_condition_cancels_its_opposite() -> None:
    # "1. Weakened Condition" / "Empowered meets Weakened? Both gone."
    hero = sheet(conditions=["empowered", "trapped"])
    _, res = roll(hero, "wound", {"defense": "body"}, [12, 1])
    update = RULES.apply(hero, res)
    assert update.sheet.conditions == ["trapped"]
    assert deltas(update.applied) == {"wounds": 1, "condition.empowered": 0}


def test_death_comes_at_the_end_of_the_encounter() -> None:
    # "-6 or less Death (at end of encounter)"
    hero = sheet(wounds=[{"severity": "shallow", "defense": "body", "roll": 2}] * 2)
    _, res = roll(hero, "wound", {"defense": "soul"}, [1, 2])
    update = RULES.apply(hero, res)
    assert res.outcome == "death" and update.sheet.dying is True
    assert len(update.sheet.wounds) == 3


def test_a_soul_wound_can_take_a_die_for_good() -> None:
    # "8. Lose 1 Momentum permanently" (from Fatigue first: the hero was just knocked out)
    hero = sheet(momentum={"stamina": 1, "fatigue": 2})
    _, res = roll(hero, "wound", {"defense": "soul"}, [18, 8])
    update = RULES.apply(hero, res)
    assert update.sheet.momentum == Pool(stamina=1, fatigue=1)
    assert any(c.target == "momentum.fatigue" and c.note == "permanently" for c in update.applied)
    empty = sheet(momentum={"stamina": 0})
    assert RULES.apply(empty, res).sheet.momentum.total == 0  # nothing left to lose


def test_a_short_rest_heals_flesh_wounds() -> None:
    # "Short Rest: After every Encounter: Move all Momentum to Stamina; Flesh Wounds disappear"
    hero = sheet(
        momentum={"stamina": 0, "fatigue": 2, "power": 1},
        wounds=[
            {"severity": "flesh", "defense": "body", "roll": 2},
            {"severity": "shallow", "defense": "mind", "roll": 2},
        ],
    )
    _, res = roll(hero, "momentum", {"action": "short_rest"})
    update = RULES.apply(hero, res)
    assert update.sheet.momentum == Pool(stamina=3)
    assert [w.severity for w in update.sheet.wounds] == ["shallow"]


def test_adding_conditions_applies_the_pairs() -> None:
    # "Conditions can stack. Opposites cancel out."
    hero = sheet(conditions=["weakened"])
    _, res = roll(hero, "conditions", {"add": ["empowered", "protected"]})
    assert RULES.apply(hero, res).sheet.conditions == ["protected"]


def test_the_wounds_meter_is_clamped() -> None:
    full = sheet(wounds=[{"severity": "shallow", "defense": "body", "roll": 2}] * 10)
    _, res = roll(full, "wound", {"defense": "body"}, [15, 2])
    update = RULES.apply(full, res)
    assert len(update.sheet.wounds) == 10 and deltas(update.applied)["wounds"] == 0


def test_a_resolution_from_another_pool_is_clamped() -> None:
    # A momentum roll made without the sheet: it spends Power the sheet does not have.
    res = resolve_roll(
        "go_forth", "momentum", {"action": "build", "count": 3, "pool": {"power": 3}}, seed=1
    )
    update = RULES.apply(sheet(), res)
    assert update.sheet.momentum == Pool(stamina=3, building=3)
    assert deltas(update.applied) == {"momentum.building": 3}


def test_the_pool_never_overflows_its_cap() -> None:
    pool = clamp_pool(Pool(stamina=MAX_POOL_DICE), {"power": -2, "fatigue": 2, "locked": 3})
    assert pool.total == MAX_POOL_DICE and pool.locked == 1


# --- choices -----------------------------------------------------------------------------------


def test_a_failed_check_offers_momentum() -> None:
    # Boost Example, Scenario A: "TN is 13 and your Skill Die result is 9" / "Roll and Fatigue
    #  Stamina or Power: You roll Momentum, and get a 4." / "Add 4 to the d20 (9) to get 13.
    #  Success!"  (Finesse 0 here: ruling roll_bonus_added adds +Roll)
    hero = sheet(momentum={"stamina": 1, "power": 1})
    params, res = roll(hero, "check", {"attribute": "finesse", "tn": 13}, [9])
    [choice] = RULES.choices("check", params, res)
    assert choice.param == "boosts" and choice.extra_dice
    values = [o.value for o in choice.options]
    assert values == [[], ["power"], ["stamina"], ["stamina", "power"]]
    again = rechoose("check", params, choice, ["power"], [9, 4])
    assert again.outcome == "success" and again.scores["total"] == 13
    assert RULES.choices("check", params | {"boosts": ["power"]}, again) == []


def test_declining_the_boost_keeps_the_failure() -> None:
    hero = sheet()
    params, res = roll(hero, "check", {"attribute": "finesse", "tn": 13}, [9])
    [choice] = RULES.choices("check", params, res)
    again = rechoose("check", params, choice, choice.options[0].value, [9])
    assert again.outcome == "failure"
    assert RULES.choices("check", params | {"boosts": []}, again) == []  # decided


@pytest.mark.parametrize(
    ("momentum", "d20", "why"),
    [
        ({"stamina": 3}, 14, "success"),
        ({"stamina": 0, "fatigue": 3}, 9, "nothing to spend"),
        ({"stamina": 1}, 2, "one d6 cannot close 11"),
    ],
)
def test_no_boost_when_it_cannot_help(momentum: dict[str, int], d20: int, why: str) -> None:
    # "Stamina lets you: Boost a Roll — Roll the die and add it to your Check"
    params, res = roll(sheet(momentum=momentum), "check", {"attribute": "finesse", "tn": 13}, [d20])
    assert RULES.choices("check", params, res) == [], why


def test_a_graze_offers_momentum_then_effort() -> None:
    # "If you miss: You Graze, dealing your Effort modifier in damage — or you may spend Momentum."
    hero = sheet(attributes={"finesse": 3}, momentum={"stamina": 1, "power": 2})
    params, res = roll(hero, "effort", {"attribute": "finesse", "tn": 16}, [9, 6])
    assert res.outcome == "graze" and res.scores["effort"] == 3
    [boost] = RULES.choices("effort", params, res)
    assert boost.param == "boosts"
    params |= {"boosts": ["stamina"]}
    hit = resolve_roll("go_forth", "effort", params, dice=[9, 6, 4])
    assert hit.outcome == "hit" and hit.scores["effort"] == 9
    [effort] = RULES.choices("effort", params, hit)
    assert effort.param == "effort_boosts" and [o.value for o in effort.options] == [0, 1, 2]
    more = rechoose("effort", params, effort, 1, [9, 6, 4, 5])
    assert more.scores["effort"] == 14


def test_a_hit_offers_power_on_the_effort() -> None:
    # Boost Example, Scenario B: "Apply the Momentum result to the Effort Die: Add 4 to to Effort.
    #  Success! 3 Effort + 3 Modifier + 4 Momentum = 10 Effort"
    hero = sheet(attributes={"finesse": 3}, momentum={"stamina": 2, "power": 1})
    params, res = roll(hero, "effort", {"attribute": "finesse", "tn": 13}, [13, 3])
    assert res.outcome == "hit" and res.scores["effort"] == 6
    [choice] = RULES.choices("effort", params, res)
    assert choice.param == "effort_boosts" and [o.value for o in choice.options] == [0, 1]
    assert rechoose("effort", params, choice, 1, [13, 3, 4]).scores["effort"] == 10


def test_no_power_on_effort_that_would_be_wasted() -> None:
    # "Excess Effort beyond 10 is wasted unless specified"
    hero = sheet(attributes={"finesse": 3}, momentum={"stamina": 0, "power": 2})
    given_ = {"attribute": "finesse", "tn": 13, "hearts": 2}
    params, res = roll(hero, "effort", given_ | {"heart_effort": 5}, [15, 4])
    assert res.scores["hearts_overcome"] == 1 and RULES.choices("effort", params, res) == []
    # "Breaking Point Deal X Effort in one action to complete entirely"
    params, res = roll(hero, "effort", given_ | {"heart_effort": 5, "breaking_point": 12}, [15, 4])
    assert [c.param for c in RULES.choices("effort", params, res)] == ["effort_boosts"]


def test_a_hit_lets_the_player_pick_the_area() -> None:
    # "When you take a Hit, move 1 Momentum die into Fatigue. It can come from: Stamina Power
    #  Building Locked"
    hero = sheet(momentum={"stamina": 2, "power": 1, "locked": 1})
    params, res = roll(hero, "momentum", {"action": "take_hit"})
    [choice] = RULES.choices("momentum", params, res)
    assert [o.value for o in choice.options] == ["stamina", "power", "locked"]
    assert not choice.extra_dice
    again = rechoose("momentum", params, choice, "locked", [])
    assert RULES.apply(hero, again).sheet.momentum == Pool(stamina=2, power=1, fatigue=1)
    assert RULES.choices("momentum", params | {"area": "locked"}, again) == []
    params, res = roll(sheet(), "momentum", {"action": "take_hit"})
    assert RULES.choices("momentum", params, res) == []  # only Stamina holds dice


@pytest.mark.parametrize("kind", ["contest", "encounter_tn", "attributes", "wound", "conditions"])
def test_kinds_that_leave_nothing_to_choose(kind: str) -> None:
    example = SYSTEM.roll_kind(kind).examples[0]
    params, res = roll(sheet(), kind, sheet_given(kind, example))
    assert RULES.choices(kind, params, res) == []


# --- tracks ------------------------------------------------------------------------------------


def test_a_heart_is_a_track_of_ten_effort() -> None:
    # "Each Heart = 10 Effort" / "You target only 1 Heart at a time"
    [track] = RULES.track_types
    assert (track.id, track.target, track.ranks) == ("heart", 10, {})
    hero = sheet(attributes={"might": 2})
    kind, params = RULES.progress_roll(hero, "heart", 7, {"attribute": "might", "tn": 12})
    assert kind == "effort" and params["heart_effort"] == 7 and params["hearts"] == 1
    res = resolve_roll("go_forth", kind, params, dice=[12, 2])
    assert res.scores["hearts_overcome"] == 1


@pytest.mark.parametrize(
    ("track", "progress", "given_", "field"),
    [
        ("vow", 0, {}, "track_type"),
        ("heart", 10, {}, "progress"),
        ("heart", -1, {}, "progress"),
        ("heart", 3, {"heart_effort": 2}, "params.heart_effort"),
        ("heart", 3, {}, "params.attribute"),
    ],
)
def test_a_bad_progress_roll_names_the_field(
    track: str, progress: int, given_: dict[str, Any], field: str
) -> None:
    with pytest.raises(RulesError) as err:
        RULES.progress_roll(sheet(), track, progress, given_)
    assert err.value.field == field


# --- invariants --------------------------------------------------------------------------------

POOLS = st.fixed_dictionaries(
    {
        "stamina": st.integers(0, 5),
        "power": st.integers(0, 4),
        "fatigue": st.integers(0, 5),
        "building": st.integers(0, 2),
        "locked": st.integers(0, 1),
    }
)
WOUND_DATA = st.fixed_dictionaries(
    {
        "severity": st.sampled_from(SEVERITIES),
        "defense": st.sampled_from(["body", "mind", "soul"]),
        "roll": st.integers(1, 8),
    }
)
CONDITIONS = st.lists(st.sampled_from(PAIRS), unique=True, max_size=4).flatmap(
    lambda pairs: st.tuples(*[st.sampled_from(p) for p in pairs]).map(list)
)
SHEETS = st.builds(
    lambda scores, pool, wounds, conditions: sheet(
        attributes=dict(zip(ATTRIBUTES, scores, strict=True)),
        momentum=pool,
        wounds=wounds,
        conditions=conditions,
    ),
    st.lists(st.integers(-3, 5), min_size=8, max_size=8),
    POOLS,
    st.lists(WOUND_DATA, max_size=4),
    CONDITIONS,
)
MORE = [
    ("momentum", {"action": "take_hit", "count": 2}),
    ("momentum", {"action": "short_rest"}),
    ("momentum", {"action": "prepare", "direction": "fatigue_to_stamina"}),
    ("momentum", {"action": "lock", "use": "defense"}),
    ("momentum", {"action": "unlock"}),
    ("momentum", {"action": "rally"}),
    ("effort", {"attribute": "might", "tn": 14, "hearts": 3, "heart_effort": 6}),
    ("check", {"attribute": "reason", "difficulty": "doom"}),
    ("wound", {"defense": "soul"}),
    ("wound", {"defense": "mind"}),
    ("conditions", {"add": ["hindered", "favored", "shaken"]}),
]
STEPS = [(kind, sheet_given(kind, ex)) for kind, ex in EXAMPLES] + MORE


def meters_in_range(hero: Sheet) -> bool:
    total_ok = METERS[0].min <= hero.momentum.total <= METERS[0].max
    return total_ok and METERS[1].min <= len(hero.wounds) <= METERS[1].max


@settings(max_examples=150)
@given(SHEETS, st.sampled_from(STEPS), st.integers(0, 2**32))
def test_any_roll_applies_within_the_ranges(
    hero: Sheet, step: tuple[str, dict[str, Any]], seed: int
) -> None:
    kind, given_ = step
    try:
        params = RULES.roll_params(hero, kind, given_)
        validate_params(SYSTEM.roll_kind(kind), params)
        res = resolve_roll("go_forth", kind, params, seed=seed)
    except InvalidParameter:
        return  # refused: the pool cannot pay, a wound forbids the action...
    after = RULES.apply(hero, res).sheet
    assert meters_in_range(after)
    assert RULES.validate(after.model_dump()) == after


@settings(max_examples=100)
@given(SHEETS, st.sampled_from(EXAMPLES), st.integers(0, 2**32))
def test_a_resolution_made_without_the_sheet_still_applies(
    hero: Sheet, example: tuple[str, dict[str, Any]], seed: int
) -> None:
    kind, params = example
    res = resolve_roll("go_forth", kind, params, seed=seed)
    assert meters_in_range(RULES.apply(hero, res).sheet)


@settings(max_examples=150)
@given(SHEETS, st.sampled_from(STEPS), st.integers(0, 2**32), st.data())
def test_every_offered_option_is_taken_by_the_engine(
    hero: Sheet, step: tuple[str, dict[str, Any]], seed: int, data: st.DataObject
) -> None:
    kind, given_ = step
    try:
        params = RULES.roll_params(hero, kind, given_)
        res = resolve_roll("go_forth", kind, params, seed=seed)
    except InvalidParameter:
        return
    for choice in RULES.choices(kind, params, res):
        assert choice.param not in params
        assert choice.param in SYSTEM.roll_kind(kind).params.model_fields
        option = data.draw(st.sampled_from(choice.options))
        again = resolve_roll("go_forth", kind, params | {choice.param: option.value}, seed=seed)
        assert again.params[choice.param] == option.value
        assert again.dice_values()[: len(res.dice)] == res.dice_values()  # more only after
        if not choice.extra_dice:
            assert len(again.dice) == len(res.dice)
        if isinstance(option.value, list):
            assert len(option.value) <= MAX_BOOSTS
        assert meters_in_range(RULES.apply(hero, again).sheet)


@settings(max_examples=60)
@given(SHEETS, st.lists(st.tuples(st.sampled_from(STEPS), st.integers(0, 2**32)), max_size=8))
def test_replaying_the_journal_gives_the_same_sheet(
    hero: Sheet, steps: list[tuple[tuple[str, dict[str, Any]], int]]
) -> None:
    # A session replays: every recorded turn re-resolved from its recorded params and dice.
    journal: list[tuple[str, dict[str, Any], list[int]]] = []
    state = hero
    for (kind, given_), seed in steps:
        try:
            params = RULES.roll_params(state, kind, given_)
            res = resolve_roll("go_forth", kind, params, seed=seed)
        except InvalidParameter:
            continue
        journal.append((kind, params, res.dice_values()))
        state = RULES.apply(state, res).sheet
    replayed = hero
    for kind, params, dice in journal:
        replayed = RULES.apply(replayed, resolve_roll("go_forth", kind, params, dice=dice)).sheet
    assert replayed == state
