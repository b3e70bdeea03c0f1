"""The Storyteller character sheet (rules/systems/storyteller/sheet.py): validation, the pool from
the sheet, applying resolutions, the automatic-success choice, GM parameters, extended actions as
tracks; one named test per sheet ruling; invariants and replay."""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from rules.errors import InvalidParameter, UnknownError
from rules.models import Citation, Resolution, StateChange
from rules.registry import get_system, resolve_roll
from rules.sheets import SheetRules
from rules.systems.storyteller.sheet import SHEET_RULES, SHEET_RULINGS, Sheet
from rules.systems.storyteller.traits import METERS

SYSTEM = "storyteller"
SOURCE_TEXT = (
    Path(__file__).resolve().parents[4] / "vectorstore/sources/storyteller.txt"
).read_text(encoding="utf-8")
RULES: SheetRules = SHEET_RULES
KINDS = list(get_system(SYSTEM).roll_kinds)

MARI = {
    "name": "Mari Cries-Out",
    "traits": {
        "dexterity": 3,
        "athletics": 2,
        "strength": 2,
        "brawl": 3,
        "perception": 2,
        "alertness": 1,
        "occult": 0,
    },
    "willpower": 5,
    "rage": 4,
    "gnosis": 3,
}

# The player's part of each roll kind: traits named, never a pool of the character's.
GIVEN: dict[str, dict[str, Any]] = {
    "simple": {"traits": ["dexterity", "athletics"], "difficulty": 6, "stressful": True},
    "extended": {"traits": ["strength", "brawl"], "difficulty": 7, "goal": 15, "accumulated": 4},
    "resisted": {
        "traits": ["dexterity", "athletics"],
        "difficulty": 6,
        "opponent_pool": 4,
        "opponent_difficulty": 6,
    },
    "extended_resisted": {
        "traits": ["strength", "brawl"],
        "difficulty": 6,
        "opponent_pool": 5,
        "opponent_difficulty": 6,
        "goal": 5,
        "accumulated": 2,
        "opponent_accumulated": 1,
    },
    "teamwork": {
        "difficulty": 7,
        "members": [{"traits": ["perception", "alertness"]}, {"pool": 3}],
    },
    "multiple": {
        "actions": [
            {"traits": ["dexterity", "athletics"], "difficulty": 6},
            {"traits": ["strength", "brawl"], "difficulty": 7},
            {"traits": ["rage"], "difficulty": 6, "rage": True},
        ]
    },
    "table": {"table": "degree_of_success"},
    "oracle": {"odds": "likely"},
    "expression": {"expression": "2d10"},
}
# Where each kind's pools end up: (path of the pool in the params, dice expected from MARI).
POOLS: dict[str, list[tuple[tuple[Any, ...], int]]] = {
    "simple": [(("pool",), 5)],
    "extended": [(("pool",), 5)],
    "resisted": [(("pool",), 5), (("opponent_pool",), 4)],
    "extended_resisted": [(("pool",), 5), (("opponent_pool",), 5)],
    "teamwork": [(("members", 0, "pool"), 3), (("members", 1, "pool"), 3)],
    "multiple": [
        (("actions", 0, "pool"), 5),
        (("actions", 1, "pool"), 5),
        (("actions", 2, "pool"), 4),
    ],
    "table": [],
    "oracle": [],
    "expression": [],
}


def sheet_of(data: dict[str, Any]) -> Sheet:
    sheet = RULES.validate(data)
    assert isinstance(sheet, Sheet)
    return sheet


def mari(**changes: Any) -> Sheet:
    return sheet_of({**MARI, **changes})


def at(params: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        params = params[step]
    return params


def error_of(call: Any) -> InvalidParameter | UnknownError:
    with pytest.raises((InvalidParameter, UnknownError)) as err:
        call()
    assert isinstance(err.value, InvalidParameter | UnknownError)
    return err.value


# --- the sheet ---------------------------------------------------------------------------------


def test_the_system_carries_this_sheet_and_its_meters() -> None:
    system = get_system(SYSTEM)
    assert system.sheet is SHEET_RULES and system.meters == METERS
    assert RULES.model is Sheet


def test_a_minimal_sheet_is_a_name_and_defaults() -> None:
    # The text gives no starting ratings: every meter starts at its lowest, no traits yet.
    sheet = RULES.validate({"name": "Mari"})
    assert sheet == Sheet(name="Mari", traits={}, willpower=0, rage=0, gnosis=0)
    with_traits = RULES.validate({"name": "Mari", "traits": {"wits": 3}})
    assert isinstance(with_traits, Sheet) and with_traits.traits == {"wits": 3}


@pytest.mark.parametrize(
    ("data", "field", "error"),
    [
        ({**MARI, "health": 7}, "sheet.health", UnknownError),
        ({**MARI, "willpower": 11}, "sheet.willpower", InvalidParameter),
        ({**MARI, "rage": -1}, "sheet.rage", InvalidParameter),
        ({**MARI, "gnosis": "lots"}, "sheet.gnosis", InvalidParameter),
        ({**MARI, "traits": {"dexterity": 11}}, "sheet.traits.dexterity", InvalidParameter),
        ({**MARI, "traits": {"dexterity": -1}}, "sheet.traits.dexterity", InvalidParameter),
        ({**MARI, "traits": {"Dexterity": 3}}, "sheet.traits.Dexterity", InvalidParameter),
        ({**MARI, "traits": {"willpower": 3}}, "sheet.traits.willpower", InvalidParameter),
        ({**MARI, "name": ""}, "sheet.name", InvalidParameter),
        ({"traits": {}}, "sheet.name", InvalidParameter),
    ],
)
def test_a_bad_sheet_names_its_field(data: dict[str, Any], field: str, error: type) -> None:
    err = error_of(lambda: RULES.validate(data))
    assert type(err) is error and err.field == field


def test_bad_sheet_messages_give_the_allowed_range_or_names() -> None:
    assert "0..10" in error_of(lambda: RULES.validate({**MARI, "willpower": 11})).message
    assert "0..10" in error_of(lambda: RULES.validate({**MARI, "traits": {"wits": 12}})).message
    unknown = error_of(lambda: RULES.validate({**MARI, "health": 7}))
    assert isinstance(unknown, UnknownError) and "willpower" in unknown.known
    assert error_of(lambda: RULES.validate([])).field == "sheet"  # type: ignore[arg-type]


def test_meter_ranges_are_the_engines() -> None:
    # "If one of the traits has a maximum rating of 10 (Rage, Willpower, Gnosis)"
    for meter in get_system(SYSTEM).meters:
        RULES.validate({"name": "M", meter.id: meter.max})
        RULES.validate({"name": "M", meter.id: meter.min})
        assert error_of(lambda m=meter: RULES.validate({"name": "M", m.id: m.max + 1})).field == (
            f"sheet.{meter.id}"
        )


# --- the pool from the sheet -------------------------------------------------------------------


def test_every_roll_kind_has_a_case() -> None:
    assert set(GIVEN) == set(KINDS) == set(POOLS)


@pytest.mark.parametrize("kind", KINDS)
def test_roll_params_fills_the_pool_from_the_sheet(kind: str) -> None:
    # "You roll one die for each point in the required trait(s)."
    params = RULES.roll_params(mari(), kind, GIVEN[kind])
    for path, dice in POOLS[kind]:
        assert at(params, path) == dice
    kind_model = get_system(SYSTEM).roll_kind(kind).params
    kind_model.model_validate(params)
    resolution = resolve_roll(SYSTEM, kind, params, seed=7)
    assert resolution.kind == kind
    if kind in ("table", "oracle", "expression"):
        assert params == GIVEN[kind]


@pytest.mark.parametrize(
    ("kind", "given", "field"),
    [
        ("simple", {**GIVEN["simple"], "pool": 9}, "params.pool"),
        ("extended", {**GIVEN["extended"], "pool": 9}, "params.pool"),
        ("resisted", {**GIVEN["resisted"], "pool": 9}, "params.pool"),
        ("extended_resisted", {**GIVEN["extended_resisted"], "pool": 9}, "params.pool"),
        (
            "teamwork",
            {"difficulty": 7, "members": [{"traits": ["brawl"], "pool": 9}, {"pool": 3}]},
            "params.members.0.pool",
        ),
        (
            "multiple",
            {
                "actions": [
                    {"traits": ["brawl"], "difficulty": 6},
                    {"traits": ["strength"], "difficulty": 6, "pool": 9},
                ]
            },
            "params.actions.1.pool",
        ),
    ],
)
def test_a_pool_given_by_the_request_is_refused(kind: str, given: dict, field: str) -> None:
    err = error_of(lambda: RULES.roll_params(mari(), kind, given))
    assert isinstance(err, InvalidParameter) and err.field == field
    assert "comes from the character sheet" in err.message


@pytest.mark.parametrize(
    ("kind", "given", "field"),
    [
        ("simple", {"difficulty": 6}, "params.traits"),
        ("simple", {"traits": "dexterity", "difficulty": 6}, "params.traits"),
        ("simple", {"traits": [], "difficulty": 6}, "params.traits"),
        (
            "simple",
            {"traits": ["dexterity", "athletics", "brawl"], "difficulty": 6},
            "params.traits",
        ),
        ("simple", {"traits": ["brawl", "brawl"], "difficulty": 6}, "params.traits"),
        ("teamwork", {"difficulty": 6}, "params.members"),
        ("teamwork", {"difficulty": 6, "members": ["brawl"]}, "params.members.0"),
        ("multiple", {"actions": []}, "params.actions"),
    ],
)
def test_traits_must_be_named(kind: str, given: dict, field: str) -> None:
    err = error_of(lambda: RULES.roll_params(mari(), kind, given))
    assert isinstance(err, InvalidParameter) and err.field == field


@pytest.mark.parametrize(
    ("kind", "given", "field"),
    [
        ("simple", {"traits": ["dexterity", "stealth"], "difficulty": 6}, "params.traits.1"),
        (
            "multiple",
            {
                "actions": [
                    {"traits": ["brawl"], "difficulty": 6},
                    {"traits": ["melee"], "difficulty": 6},
                ]
            },
            "params.actions.1.traits.0",
        ),
    ],
)
def test_an_unknown_trait_is_named_with_the_known_ones(kind: str, given: dict, field: str) -> None:
    err = error_of(lambda: RULES.roll_params(mari(), kind, given))
    assert isinstance(err, UnknownError) and err.field == field
    assert "dexterity" in err.known and "rage" in err.known


def test_unknown_roll_kind() -> None:
    err = error_of(lambda: RULES.roll_params(mari(), "initiative", {}))
    assert isinstance(err, UnknownError) and err.field == "kind"


def test_only_a_storyteller_sheet_is_read() -> None:
    class Other(BaseModel):
        name: str = "x"

    assert error_of(lambda: RULES.roll_params(Other(), "simple", GIVEN["simple"])).field == "sheet"


def test_the_traits_are_recorded_with_the_roll() -> None:
    # The journal and the narrator see "dexterity + athletics", not only a number of dice.
    params = RULES.roll_params(mari(), "simple", GIVEN["simple"])
    resolution = resolve_roll(SYSTEM, "simple", params, seed=1)
    assert resolution.params["traits"] == ["dexterity", "athletics"]
    assert resolution.params["pool"] == 5


# --- applying resolutions ----------------------------------------------------------------------


def test_willpower_spent_leaves_the_sheet() -> None:
    # "Players may spend a willpower point to guarantee a success on a roll"
    params = RULES.roll_params(mari(), "simple", {**GIVEN["simple"], "willpower": True})
    resolution = resolve_roll(SYSTEM, "simple", params, dice=[2, 3, 4, 5, 2])
    assert resolution.scores["net"] == 1
    update = RULES.apply(mari(), resolution)
    assert update.sheet.willpower == 4 and update.other == []
    assert update.applied == [
        StateChange(target="willpower", delta=-1, set_to=4, note="willpower point spent")
    ]


def test_extended_progress_goes_to_the_session_track() -> None:
    # "Task is completed when a given number of successes are obtained"
    params = RULES.roll_params(mari(), "extended", GIVEN["extended"])
    resolution = resolve_roll(SYSTEM, "extended", params, dice=[7, 8, 2, 3, 10])
    update = RULES.apply(mari(), resolution)
    assert update.sheet == mari() and update.applied == []
    assert [(c.target, c.set_to, c.delta) for c in update.other] == [("progress", 7, 3)]


def test_teamwork_spends_only_the_characters_willpower() -> None:
    # "each player makes a separate roll": the character is the first member
    given = {
        "difficulty": 6,
        "members": [{"traits": ["brawl"], "willpower": True}, {"pool": 2, "willpower": True}],
    }
    params = RULES.roll_params(mari(), "teamwork", given)
    resolution = resolve_roll(SYSTEM, "teamwork", params, dice=[2, 3, 4, 5, 6])
    update = RULES.apply(mari(), resolution)
    assert update.sheet.willpower == 4
    assert [c.target for c in update.applied] == ["willpower"]
    assert [c.target for c in update.other] == ["member:2:willpower"]


def test_the_opponents_willpower_is_not_the_characters() -> None:
    given = {**GIVEN["resisted"], "willpower": True, "opponent_willpower": True}
    params = RULES.roll_params(mari(), "resisted", given)
    resolution = resolve_roll(SYSTEM, "resisted", params, seed=3)
    update = RULES.apply(mari(), resolution)
    assert update.sheet.willpower == 4
    assert [c.target for c in update.other] == ["opponent_willpower"]


def test_apply_keeps_meters_in_their_range() -> None:
    # A roll resolved without the sheet may spend willpower the sheet does not have.
    resolution = resolve_roll(
        SYSTEM, "simple", {"pool": 2, "difficulty": 6, "stressful": True, "willpower": True}, seed=1
    )
    update = RULES.apply(mari(willpower=0), resolution)
    assert update.sheet.willpower == 0
    assert update.applied[0].delta == 0 and update.applied[0].set_to == 0
    assert update.applied[0].note is not None and "0..10" in update.applied[0].note
    raised = Resolution(
        outcome="x",
        citation=Citation(source="storyteller.txt", heading="Reflexive Actions"),
        changes=[StateChange(target="rage", delta=15), StateChange(target="gnosis", set_to=-3)],
    )
    update = RULES.apply(mari(), raised)
    assert (update.sheet.rage, update.sheet.gnosis) == (10, 0)
    assert [c.delta for c in update.applied] == [6, -3]


# --- the automatic success, the one choice -----------------------------------------------------

AUTOMATIC_GIVEN = {"traits": ["dexterity", "athletics"], "difficulty": 4}  # 5 dice >= 4


def test_automatic_success_offers_to_risk_failure() -> None:
    # "If the number of dice in a given dice pool is equal to or greater than the difficulty, the
    # character succeeds automatically. ... A player may risk failure and not use an automatic
    # success."
    params = RULES.roll_params(mari(), "simple", AUTOMATIC_GIVEN)
    resolution = resolve_roll(SYSTEM, "simple", params, seed=11)
    [choice] = RULES.choices("simple", params, resolution)
    assert choice.param == "decline_automatic" and choice.extra_dice
    assert [o.value for o in choice.options] == [False, True]
    assert choice.citation.heading == "Automatic Success"
    kept = resolve_roll(SYSTEM, "simple", params | {"decline_automatic": False}, seed=11)
    assert kept == resolution
    assert kept.details["automatic"] is True and kept.scores["net"] == 1
    rolled = resolve_roll(SYSTEM, "simple", params | {"decline_automatic": True}, seed=11)
    assert rolled.details["automatic"] is False and len(rolled.dice) == 5
    # With dice given: the automatic success consumed none; declining rolls the whole pool.
    assert resolution.dice_values() == []
    by_hand = resolve_roll(
        SYSTEM, "simple", params | {"decline_automatic": True}, dice=[10, 10, 9, 4, 2]
    )
    assert by_hand.outcome == "success" and by_hand.scores["net"] == 4


@pytest.mark.parametrize(
    "given",
    [
        {**AUTOMATIC_GIVEN, "stressful": True},  # "This does not apply to combat or other
        # stressful situations."
        {**AUTOMATIC_GIVEN, "decline_automatic": True},  # declared already
        {**AUTOMATIC_GIVEN, "decline_automatic": False},  # decided already
        {"traits": ["dexterity", "athletics"], "difficulty": 6},  # 5 dice < 6: no automatic success
    ],
)
def test_no_choice_when_the_success_is_not_automatic_or_decided(given: dict) -> None:
    params = RULES.roll_params(mari(), "simple", given)
    resolution = resolve_roll(SYSTEM, "simple", params, seed=11)
    assert RULES.choices("simple", params, resolution) == []


@pytest.mark.parametrize("kind", KINDS)
def test_no_choice_without_an_automatic_success(kind: str) -> None:
    params = RULES.roll_params(mari(), kind, GIVEN[kind])
    for seed in range(20):
        resolution = resolve_roll(SYSTEM, kind, params, seed=seed)
        assert RULES.choices(kind, params, resolution) == []


# --- what the storyteller sets -----------------------------------------------------------------


def _field(model: type[BaseModel], path: list[str]) -> Any:
    """The annotation of a dotted parameter path, ``*`` stepping into a list's items."""
    annotation: Any = model
    for part in path:
        if part == "*":
            (annotation,) = typing.get_args(annotation)
            continue
        assert isinstance(annotation, type) and issubclass(annotation, BaseModel)
        annotation = annotation.model_fields[part].annotation
    return annotation


def test_gm_params_are_parameters_of_their_kinds() -> None:
    system = get_system(SYSTEM)
    for gm in RULES.gm_params:
        for kind in gm.kinds:
            assert _field(system.roll_kind(kind).params, gm.param.split(".")) is not None


def test_difficulty_is_the_storytellers_within_2_to_10() -> None:
    # "The storyteller announces the difficulty and the players roll their dice pools."
    # "Difficulty values range from 2 to 10, but usually from 3 to 9."
    [difficulty] = [g for g in RULES.gm_params if g.param == "difficulty"]
    assert (difficulty.minimum, difficulty.maximum, difficulty.default) == (2, 10, 6)
    for kind in difficulty.kinds:
        for value in (difficulty.minimum, difficulty.maximum):
            params = RULES.roll_params(mari(), kind, {**GIVEN[kind], "difficulty": value})
            assert resolve_roll(SYSTEM, kind, params, seed=1).params["difficulty"] == value
        params = RULES.roll_params(mari(), kind, {**GIVEN[kind], "difficulty": 11})
        assert error_of(lambda p=params, k=kind: resolve_roll(SYSTEM, k, p, seed=1)).field == (
            "params.difficulty"
        )


def test_stressful_is_the_storytellers() -> None:
    # "This does not apply to combat or other stressful situations."
    [stressful] = [g for g in RULES.gm_params if g.param == "stressful"]
    assert stressful.kinds == ["simple"] and stressful.choices == [False, True]


# --- extended actions as tracks ----------------------------------------------------------------


def test_extended_action_track_is_counted_in_successes() -> None:
    # "it will take a collective 15 successes to break in."
    [track] = [t for t in RULES.track_types if t.id == "extended_action"]
    assert track.ranks == {} and track.citation.heading == "Extended Actions"
    kind, params = RULES.progress_roll(
        mari(),
        "extended_action",
        12,
        {"traits": ["strength", "brawl"], "difficulty": 6, "goal": 15},
    )
    assert kind == "extended" and params["accumulated"] == 12 and params["pool"] == 5
    resolution = resolve_roll(SYSTEM, kind, params, dice=[6, 7, 8, 2, 2])
    assert resolution.outcome == "completed"
    assert RULES.apply(mari(), resolution).other[0].set_to == 15


def test_extended_contest_track() -> None:
    # "An extended resisted action has a fixed success goal, and each party rolls their dice
    # pools. The first to reach the goal wins."
    given = {k: v for k, v in GIVEN["extended_resisted"].items() if k != "accumulated"}
    kind, params = RULES.progress_roll(mari(), "extended_contest", 3, given)
    assert kind == "extended_resisted" and params["accumulated"] == 3
    resolution = resolve_roll(SYSTEM, kind, params, dice=[6, 7, 2, 2, 2] + [2] * 5)
    assert resolution.outcome == "win"


def test_progress_roll_refusals() -> None:
    given = {"traits": ["brawl"], "difficulty": 6, "goal": 15}
    assert error_of(lambda: RULES.progress_roll(mari(), "vow", 0, given)).field == "track_type"
    assert error_of(lambda: RULES.progress_roll(mari(), "extended_action", -1, given)).field == (
        "progress"
    )
    with_accumulated = {**given, "accumulated": 3}
    assert (
        error_of(lambda: RULES.progress_roll(mari(), "extended_action", 2, with_accumulated)).field
        == "params.accumulated"
    )


# --- rulings (one named test each) -------------------------------------------------------------


def test_ruling_sheet_trait_ratings() -> None:
    # "Ratings are often between 1-5, but there are exceptions. Werewolf transformations can push
    # above 5 dots, for example."
    assert sheet_of({"name": "M", "traits": {"strength": 7}}).traits == {"strength": 7}
    assert sheet_of({"name": "M", "traits": {"occult": 0}}).traits == {"occult": 0}
    assert error_of(lambda: RULES.validate({"name": "M", "traits": {"strength": 11}})).field == (
        "sheet.traits.strength"
    )


def test_ruling_sheet_pool_from_traits() -> None:
    # "You roll one die for each point in the required trait(s). If one of the traits has a
    # maximum rating of 10 (Rage, Willpower, Gnosis) only that trait’s value is used for the dice
    # pool."
    sheet = mari()
    assert RULES.roll_params(sheet, "simple", {"traits": ["brawl"], "difficulty": 6})["pool"] == 3
    both = RULES.roll_params(sheet, "simple", {"traits": ["strength", "brawl"], "difficulty": 6})
    assert both["pool"] == 5
    rage = RULES.roll_params(sheet, "simple", {"traits": ["strength", "rage"], "difficulty": 6})
    assert rage["pool"] == 4  # rage alone, not rage + strength
    assert RULES.roll_params(sheet, "simple", {"traits": ["gnosis"], "difficulty": 6})["pool"] == 3
    two_sole = {"traits": ["rage", "gnosis"], "difficulty": 6}
    assert error_of(lambda: RULES.roll_params(sheet, "simple", two_sole)).field == "params.traits"
    zero = {"traits": ["occult"], "difficulty": 6}
    err = error_of(lambda: RULES.roll_params(sheet, "simple", zero))
    assert err.field == "params.traits" and "0 dice" in err.message


def test_ruling_sheet_willpower_declared_with_the_roll() -> None:
    # "Players may spend a willpower point to guarantee a success on a roll"
    spend = {**GIVEN["simple"], "willpower": True}
    assert RULES.roll_params(mari(), "simple", spend)["willpower"] is True
    err = error_of(lambda: RULES.roll_params(mari(willpower=0), "simple", spend))
    assert err.field == "params.willpower"
    action = {"traits": ["brawl"], "difficulty": 6, "willpower": True}
    multiple = {"actions": [{"traits": ["strength"], "difficulty": 6}, action]}
    assert error_of(lambda: RULES.roll_params(mari(willpower=0), "multiple", multiple)).field == (
        "params.actions.1.willpower"
    )
    # never offered after the dice: a failed roll leaves no willpower choice
    params = RULES.roll_params(mari(), "simple", GIVEN["simple"])
    failed = resolve_roll(SYSTEM, "simple", params, dice=[2, 3, 4, 5, 2])
    assert failed.outcome == "failure" and RULES.choices("simple", params, failed) == []


def test_ruling_sheet_decline_automatic_success() -> None:
    # "A player may risk failure and not use an automatic success."
    params = RULES.roll_params(mari(), "simple", AUTOMATIC_GIVEN)
    resolution = resolve_roll(SYSTEM, "simple", params, dice=[])
    [choice] = RULES.choices("simple", params, resolution)
    assert choice.options[1].label == "risk failure and not use an automatic success"
    botched = resolve_roll(SYSTEM, "simple", params | {choice.param: True}, dice=[1, 2, 3, 2, 3])
    assert botched.outcome == "botch"  # the risk the player took


def test_ruling_sheet_extended_progress_in_successes() -> None:
    # "it will take a collective 15 successes to break in."
    # "Botching an extended action removes all progress up to that point"
    kind, params = RULES.progress_roll(
        mari(), "extended_action", 9, {"traits": ["strength", "brawl"], "difficulty": 6, "goal": 15}
    )
    botch = resolve_roll(SYSTEM, kind, params, dice=[1, 2, 3, 4, 5])
    update = RULES.apply(mari(), botch)
    assert update.sheet == mari() and update.other[0].set_to == 0


def test_every_sheet_ruling_has_a_named_test() -> None:
    names = set(globals())
    for ruling in SHEET_RULINGS:
        assert f"test_ruling_{ruling.id}" in names, ruling.id
        assert ruling.citation.source == "storyteller.txt" and ruling.quote in SOURCE_TEXT


# --- invariants --------------------------------------------------------------------------------

TRAIT_NAMES = ["dexterity", "athletics", "strength", "brawl", "wits", "occult"]
ratings = st.integers(min_value=0, max_value=10)


@st.composite
def sheets(draw: st.DrawFn, low: int = 0) -> Sheet:
    """Any valid sheet; ``low`` is the lowest rating of a trait a roll may name (2: every pool
    has a die for each of the two actions a multiple-action example splits it into)."""
    traits = {name: draw(st.integers(low, 10)) for name in TRAIT_NAMES}
    traits |= draw(st.dictionaries(st.sampled_from(["stealth", "lore"]), ratings))
    meters = {m.id: draw(st.integers(max(m.min, low), m.max)) for m in METERS}
    return sheet_of({"name": draw(st.text(min_size=1, max_size=20)), "traits": traits, **meters})


pool_traits = st.sampled_from(
    [["dexterity", "athletics"], ["strength", "brawl"], ["wits"], ["rage"], ["gnosis", "occult"]]
)


@st.composite
def turns(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A roll of any kind, from the engine's examples, as a player gives it: traits, no pool."""
    kind = draw(st.sampled_from(KINDS))
    example = dict(draw(st.sampled_from(get_system(SYSTEM).roll_kind(kind).examples)))

    def mine(entry: dict[str, Any]) -> dict[str, Any]:
        entry = {k: v for k, v in entry.items() if k not in ("pool", "allocated")}
        return {**entry, "traits": draw(pool_traits), "willpower": draw(st.booleans())}

    if kind in ("simple", "extended", "resisted", "extended_resisted"):
        example = mine(example)
    elif kind == "teamwork":
        example["members"] = [mine(example["members"][0]), *example["members"][1:]]
    elif kind == "multiple":
        actions = [
            {k: v for k, v in mine(a).items() if k != "willpower"} for a in example["actions"]
        ]
        example["actions"] = actions
    if kind == "simple":
        example["stressful"] = draw(st.booleans())
    return kind, example


seeds = st.integers(min_value=0, max_value=2**63 - 1)


@settings(max_examples=150)
@given(sheet=sheets(), kind=st.sampled_from(KINDS), data=st.data(), seed=seeds)
def test_apply_keeps_meters_in_range_and_never_raises(
    sheet: Sheet, kind: str, data: st.DataObject, seed: int
) -> None:
    example = data.draw(st.sampled_from(get_system(SYSTEM).roll_kind(kind).examples))
    resolution = resolve_roll(SYSTEM, kind, example, seed=seed)
    update = RULES.apply(sheet, resolution)
    new = Sheet.model_validate(update.sheet.model_dump())  # every range still holds
    for change in update.applied:
        assert getattr(new, change.target) == change.set_to
    assert len(update.applied) + len(update.other) == len(resolution.changes)


@settings(max_examples=150)
@given(sheet=sheets(low=2), turn=turns(), seed=seeds)
def test_roll_params_validate_and_offered_choices_resolve(
    sheet: Sheet, turn: tuple[str, dict[str, Any]], seed: int
) -> None:
    kind, given_params = turn
    params = RULES.roll_params(sheet, kind, given_params)
    get_system(SYSTEM).roll_kind(kind).params.model_validate(params)
    resolution = resolve_roll(SYSTEM, kind, params, seed=seed)
    for choice in RULES.choices(kind, params, resolution):
        assert choice.param not in params
        for option in choice.options:
            chosen = resolve_roll(SYSTEM, kind, params | {choice.param: option.value}, seed=seed)
            assert chosen.details["automatic"] is (option.value is False)


@settings(max_examples=75)
@given(
    sheet=sheets(low=2),
    script=st.lists(st.tuples(turns(), seeds, st.integers(0, 1)), min_size=1, max_size=8),
)
def test_replaying_the_journal_gives_the_same_sheet(
    sheet: Sheet, script: list[tuple[tuple[str, dict[str, Any]], int, int]]
) -> None:
    # Play: each turn's params from the sheet, its choice made, then applied; record it.
    journal: list[tuple[str, dict[str, Any], list[int], Resolution]] = []
    played = sheet
    for (kind, given_params), seed, pick in script:
        try:
            params = RULES.roll_params(played, kind, given_params)
        except InvalidParameter as err:  # out of willpower: the session refuses the turn
            assert err.field is not None and err.field.endswith("willpower")
            continue
        resolution = resolve_roll(SYSTEM, kind, params, seed=seed)
        for choice in RULES.choices(kind, params, resolution):
            params = params | {choice.param: choice.options[pick].value}
            resolution = resolve_roll(SYSTEM, kind, params, seed=seed)
        journal.append((kind, params, resolution.dice_values(), resolution))
        played = RULES.apply(played, resolution).sheet
    # Replay from the recorded params and dice.
    replayed = sheet
    for kind, params, dice, recorded in journal:
        again = resolve_roll(SYSTEM, kind, params, dice=dice)
        assert again == recorded.model_copy(update={"seed": None})
        replayed = RULES.apply(replayed, again).sheet
    assert replayed == played
