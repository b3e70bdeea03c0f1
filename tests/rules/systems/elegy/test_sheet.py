"""Elegy's character sheet (rules/systems/elegy/sheet.py) against elegy.md: validation, the
parameters a sheet fills in, applying resolutions, the choices outcomes leave, progress tracks,
and the invariants (ranges kept, choices accepted, replay)."""

from __future__ import annotations

from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import InvalidParameter, RulesError, UnknownError
from rules.models import Resolution
from rules.registry import get_system, resolve_roll
from rules.sheets import Choice, SheetRules
from rules.systems.elegy import mechanics as m
from rules.systems.elegy import options
from rules.systems.elegy.sheet import IMPACTS, SHEET_PARAMS, SHEET_RULES, Meters, Sheet, Stats

SYSTEM = get_system("elegy")
RULES: SheetRules = SHEET_RULES
STATS = {"dexterity": 2, "heart": 3, "force": 1, "glamour": 2, "intellect": 1}


def make(**update: Any) -> Sheet:
    sheet = RULES.validate({"name": "Mina", "stats": STATS, **update})
    assert isinstance(sheet, Sheet)
    return sheet


def roll(
    sheet: Sheet, kind: str, given_: dict[str, Any], dice: list[int]
) -> tuple[dict[str, Any], Resolution]:
    params = RULES.roll_params(sheet, kind, given_)
    return params, resolve_roll("elegy", kind, params, dice=dice)


def pending(kind: str, params: dict[str, Any], res: Resolution) -> dict[str, Choice]:
    return {c.param: c for c in RULES.choices(kind, params, res)}


def values(choice: Choice) -> list[Any]:
    return [option.value for option in choice.options]


def applied(sheet: Sheet, res: Resolution) -> Sheet:
    new = RULES.apply(sheet, res).sheet
    assert isinstance(new, Sheet)
    return new


# --- the sheet ---------------------------------------------------------------------------------


# "Your focus value goes from -6 to +10 ... The default reset is +2." (ruling meter_range: health,
# spirit and blood 0-5, starting full)
def test_minimal_sheet_takes_the_starting_values() -> None:
    sheet = make()
    assert SYSTEM.sheet is SHEET_RULES and RULES.model is Sheet
    assert sheet.meters == Meters(health=5, spirit=5, blood=5)
    assert (sheet.focus, sheet.impacts, sheet.assets, sheet.experience) == (2, (), (), 0)
    assert sheet.next_roll_adds == 0


# "If you act… With stealth, speed, or coordination: Roll +dexterity. ... +heart ... +force ...
# +glamour ... +intellect" — the sheet's stats and meters are the engine's own lists.
def test_sheet_fields_are_the_engines_lists() -> None:
    assert list(Stats.model_fields) == SYSTEM.stats
    ranges = {
        f: (i.metadata[0].ge, i.metadata[1].le, i.default) for f, i in Meters.model_fields.items()
    }
    focus = Sheet.model_fields["focus"]
    ranges["focus"] = (focus.metadata[0].ge, focus.metadata[1].le, focus.default)
    assert ranges == {s.id: (s.min, s.max, s.start) for s in SYSTEM.meters}


def test_unknown_stat_names_its_field_and_the_stats() -> None:
    with pytest.raises(UnknownError) as err:
        RULES.validate({"name": "Mina", "stats": {**STATS, "wits": 2}})
    assert err.value.field == "sheet.stats.wits"
    assert "dexterity, force, glamour, heart, intellect" in err.value.message


@pytest.mark.parametrize(
    ("update", "error", "field", "says"),
    [
        ({"meters": {"health": 6}}, InvalidParameter, "sheet.meters.health", "0 to 5"),
        ({"meters": {"hunger": 1}}, UnknownError, "sheet.meters.hunger", "blood, health"),
        # "Your focus value goes from -6 to +10"
        ({"focus": -7}, InvalidParameter, "sheet.focus", "-6 to 10"),
        ({"stats": {**STATS, "heart": 6}}, InvalidParameter, "sheet.stats.heart", "0 to 5"),
        ({"stats": {"heart": 3}}, InvalidParameter, "sheet.stats.dexterity", "required"),
        ({"impacts": ["bored"]}, UnknownError, "sheet.impacts.0", "wounded"),
        ({"impacts": ["shaken", "shaken"]}, InvalidParameter, "sheet.impacts", "once"),
        ({"assets": ["Lair", "Lair"]}, InvalidParameter, "sheet.assets", "once"),
        ({"momentum": 2}, UnknownError, "sheet.momentum", "focus"),
        ({"experience": -1}, InvalidParameter, "sheet.experience", "0 or more"),
        ({"name": ""}, InvalidParameter, "sheet.name", "at least 1"),
        ({"assets": [" "]}, InvalidParameter, "sheet.assets.0", "at least 1"),
    ],
)
def test_bad_sheet_names_its_field(
    update: dict[str, Any], error: type[RulesError], field: str, says: str
) -> None:
    with pytest.raises(error) as err:
        make(**update)
    assert err.value.field == field and says in err.value.message


def test_sheet_round_trips_through_json() -> None:
    sheet = make(impacts=["wounded"], assets=["Lair", "Dominate"], experience=4, focus=-2)
    assert RULES.validate(sheet.model_dump(mode="json")) == sheet


# --- roll parameters ---------------------------------------------------------------------------

KIND_EXAMPLES = [
    (kind.id, example) for kind in SYSTEM.roll_kinds.values() for example in kind.examples
]


@pytest.mark.parametrize(("kind", "example"), KIND_EXAMPLES)
def test_roll_params_fill_every_kind_from_the_sheet(kind: str, example: dict[str, Any]) -> None:
    sheet = make(impacts=["shaken"], meters={"health": 3, "spirit": 2, "blood": 1}, experience=5)
    given_ = {k: v for k, v in example.items() if k not in SHEET_PARAMS.get(kind, ())}
    params = RULES.roll_params(sheet, kind, given_)
    SYSTEM.roll_kind(kind).params.model_validate(params)
    held = {
        "focus": 2,
        "impacts": ["shaken"],
        "health": 3,
        "spirit": 2,
        "blood": 1,
        "experience": 5,
    }
    for name in set(SHEET_PARAMS.get(kind, ())) & set(held) & set(params):
        assert params[name] == held[name], name
    assert {k: params[k] for k in given_} == given_  # the player's own values are kept
    if kind not in SHEET_PARAMS:
        assert params == given_


# "The situation will tell you what stat to add." — its value is the sheet's.
def test_roll_params_take_the_stat_value_of_the_stat_rolled() -> None:
    assert RULES.roll_params(make(), "action", {"stat": "heart"})["stat_value"] == 3
    assert RULES.roll_params(make(), "power", {"stat": "glamour"})["stat_value"] == 2
    with pytest.raises(UnknownError) as err:
        RULES.roll_params(make(), "action", {"stat": "wits"})
    assert err.value.field == "params.stat"


# ruling ritual_stat_intellect: "you make an Action Roll based on the intelligence stat"
def test_roll_params_ritual_rolls_intellect() -> None:
    assert RULES.roll_params(make(), "ritual", {})["stat_value"] == STATS["intellect"]


# "When you search for clues ... roll +intellect." / Rest: "roll +heart or +intellect, whichever
# is higher" / Endure Harm: "If your health is 0 ..." / Feed kill: "lose 3 spirit"
def test_roll_params_of_moves() -> None:
    sheet = make(meters={"health": 1, "spirit": 4, "blood": 2})
    assert RULES.roll_params(sheet, "move", {"move": "gather_information"})["stat_value"] == 1
    rest = RULES.roll_params(sheet, "move", {"move": "rest"})
    assert (rest["stat"], rest["stat_value"], rest["meter_value"]) == ("heart", 3, 2)
    assert RULES.roll_params(sheet, "move", {"move": "endure_harm"})["meter_value"] == 1
    feed = RULES.roll_params(sheet, "move", {"move": "feed", "stat": "glamour"})
    assert (feed["stat_value"], feed["meter_value"]) == (2, 4)
    assert "meter_value" not in RULES.roll_params(sheet, "move", {"move": "compel"})
    with pytest.raises(UnknownError) as err:
        RULES.roll_params(sheet, "move", {"move": "fly"})
    assert err.value.field == "params.move"


@pytest.mark.parametrize(
    ("kind", "name"), [(kind, name) for kind, names in SHEET_PARAMS.items() for name in names]
)
def test_roll_params_refuse_a_value_the_sheet_holds(kind: str, name: str) -> None:
    with pytest.raises(InvalidParameter) as err:
        RULES.roll_params(make(), kind, {"stat": "heart", "move": "face_danger", name: 1})
    assert err.value.field == f"params.{name}" and "character sheet" in err.value.message


def test_roll_params_unknown_kind_and_foreign_sheet() -> None:
    with pytest.raises(UnknownError) as err:
        RULES.roll_params(make(), "bite", {})
    assert err.value.field == "kind"
    with pytest.raises(InvalidParameter) as bad:
        RULES.roll_params(Meters(), "oracle", {})
    assert bad.value.field == "sheet"


def test_roll_params_leave_a_missing_move_to_the_engine() -> None:
    params = RULES.roll_params(make(), "move", {"stat": "heart"})
    assert params == {"stat": "heart", "focus": 2, "impacts": []}
    with pytest.raises(InvalidParameter) as err:
        resolve_roll("elegy", "move", params, seed=1)
    assert err.value.field == "params.move"


# Secure an Advantage: "On a strong hit, take both: Take +2 focus; Add +1 on your next roll
# (not a Conclusion Roll)."
def test_the_next_roll_adds_are_added_once_and_spent() -> None:
    sheet = make()
    _, res = roll(sheet, "move", {"move": "secure_an_advantage", "stat": "heart"}, [1, 2])
    sheet = applied(sheet, res)
    assert (sheet.next_roll_adds, sheet.focus) == (1, 4)
    conclusion = RULES.roll_params(sheet, "conclusion", {"track": "elegy", "rank": "epic"})
    assert "adds" not in conclusion  # "not a Conclusion Roll"
    params, res = roll(sheet, "action", {"stat": "heart", "adds": 1}, [4, 9])
    assert params["adds"] == 2 and res.scores["action_score"] == 5
    update = RULES.apply(sheet, res)
    assert update.applied[0].target == "next_roll_adds" and update.applied[0].delta == -1
    assert update.sheet.next_roll_adds == 0


# --- apply -------------------------------------------------------------------------------------


# "You succeed. Gain +1 focus"
def test_apply_a_strong_hit_gains_focus() -> None:
    _, res = roll(make(), "action", {"stat": "heart"}, [1, 2])
    update = RULES.apply(make(), res)
    assert update.sheet.focus == 3 and [(c.target, c.delta) for c in update.applied] == [
        ("focus", 1)
    ]


# Heal: "Otherwise, take +3 health." (health stops at 5: ruling meter_range)
def test_apply_clamps_at_the_meter_range() -> None:
    sheet = make(meters={"health": 4}, focus=10, stats={**STATS, "force": 4})
    _, res = roll(sheet, "move", {"move": "heal"}, [1, 2])
    update = RULES.apply(sheet, res)
    assert update.sheet.meters.health == 5 and update.sheet.focus == 10
    assert [(c.target, c.delta) for c in update.applied if c.target == "health"] == [("health", 1)]


# "After you burn focus, you must reset your focus by immediately adjusting your focus meter to
# your focus reset value. ... If you have one impact marked, your focus reset is +1."
def test_apply_a_burn_resets_focus() -> None:
    sheet = make(focus=8, impacts=["wounded"])
    _, res = roll(sheet, "action", {"stat": "force", "burn_focus": True}, [5, 6])
    update = RULES.apply(sheet, res)
    assert update.applied[0].set_to == 1 and update.sheet.focus == 2  # reset +1, then +1 focus


# "When you are at 0 health and suffer harm, you must mark the Wounded impact. If this impact is
# already marked, you must mark Permanently Harmed. If this other impact is already marked, you
# face your final death"
def test_apply_marks_impacts_and_sends_the_chain_end_to_the_session() -> None:
    sheet = make(meters={"health": 1})
    _, res = roll(sheet, "harm", {"amount": 2}, [])
    sheet = applied(sheet, res)
    assert sheet.meters.health == 0 and sheet.impacts == ("wounded",)
    _, res = roll(sheet, "harm", {"amount": 1}, [])
    sheet = applied(sheet, res)
    assert sheet.impacts == ("wounded", "permanently_harmed")
    _, res = roll(sheet, "harm", {"amount": 1}, [])
    update = RULES.apply(sheet, res)
    assert [c.target for c in update.other] == ["final_death"] and update.applied == []


# "When you conclude an elegy or create a bond, you gain experience ponts per the challenge's
# rank" / "Assets cost 3 xp to buy and 2 xp to upgrade."
def test_apply_experience_earned_and_spent() -> None:
    sheet = make()
    _, res = roll(
        sheet, "conclusion", {"track": "elegy", "rank": "formidable", "ticks": 40}, [1, 1]
    )
    sheet = applied(sheet, res)
    assert sheet.experience == 3
    _, res = roll(sheet, "advance", {"purchase": "new_asset"}, [])
    assert applied(sheet, res).experience == 0


# Clash: "On a strong hit, mark progress twice." — the track is the session's.
def test_apply_leaves_progress_and_rank_to_the_session() -> None:
    sheet = make(stats={**STATS, "force": 3})
    given_ = {"move": "clash", "stat": "force", "rank": "dangerous", "ticks": 4}
    _, res = roll(sheet, "move", given_, [1, 2])
    update = RULES.apply(sheet, res)
    assert [(c.target, c.delta) for c in update.other] == [("progress", 16)]
    assert update.sheet == sheet


def test_apply_refuses_another_systems_resolution() -> None:
    res = resolve_roll("sundered_isles", "oracle", {}, seed=1)
    with pytest.raises(InvalidParameter) as err:
        RULES.apply(make(), res)
    assert err.value.field == "resolution.system"


# --- choices: burning focus --------------------------------------------------------------------


# "When you have positive focus, after you make an Action Roll, you may replace your action score
# with your current focus value."
def test_burn_focus_is_offered_first_and_alone_when_it_improves() -> None:
    sheet = make(focus=8)
    params, res = roll(sheet, "action", {"stat": "force"}, [5, 6])
    assert res.outcome == "miss" and list(pending("action", params, res)) == ["burn_focus"]
    burn = {**params, "burn_focus": True}
    again = resolve_roll("elegy", "action", burn, dice=res.dice_values())
    assert again.outcome == "strong_hit" and applied(sheet, again).focus == 3
    assert list(pending("action", burn, again)) == ["benefit"]
    keep = {**params, "burn_focus": False}
    assert list(pending("action", keep, res)) == ["cost"]


def test_burn_focus_is_not_offered_when_it_would_not_help() -> None:
    params, res = roll(make(focus=3), "action", {"stat": "heart"}, [5, 6])  # 3 vs 5,6: focus 3 too
    assert "burn_focus" not in pending("action", params, res)
    params, res = roll(make(focus=-2), "action", {"stat": "force"}, [5, 6])  # negative focus
    assert "burn_focus" not in pending("action", params, res)


# --- choices: the Action Roll's benefits and costs ---------------------------------------------


# "You succeed. Gain +1 focus, envision the positive consequences of your action and choose a
# fitting benefit." / "You succeed, but not without trouble. Gain +1 focus, select one fitting
# benefit and one fitting cost." / "You fail. ... select one fitting cost."
@pytest.mark.parametrize(
    ("dice", "offered"),
    [([1, 2], ["benefit"]), ([1, 9], ["benefit", "cost"]), ([9, 9], ["cost"])],
)
def test_action_roll_offers_its_benefit_and_cost(dice: list[int], offered: list[str]) -> None:
    params, res = roll(make(), "action", {"stat": "heart"}, dice)
    assert list(pending("action", params, res)) == offered


# "Your wounds are healed: gain +2 health or clear Wounded impact." / "You create or seize an
# opportunity: you or an ally gain +2 in the next related Action Roll"
def test_a_chosen_benefit_is_applied() -> None:
    sheet = make(meters={"health": 2}, impacts=["wounded"])
    params, res = roll(sheet, "action", {"stat": "heart"}, [1, 2])
    offered = values(pending("action", params, res)["benefit"])
    assert "clear_wounded" in offered and "clear_shaken" not in offered
    assert "mark_progress" not in offered  # no track named
    for benefit, check in [
        ("health", lambda s: s.meters.health == 4),
        ("clear_wounded", lambda s: s.impacts == ()),
        ("opportunity", lambda s: s.next_roll_adds == 2),
        ("focus", lambda s: s.focus == 4),
    ]:
        again = resolve_roll("elegy", "action", {**params, "benefit": benefit}, dice=[1, 2])
        assert check(applied(sheet, again)), benefit


# "You harm a foe, develop a connection or advance in an elegy: mark progress"
def test_mark_progress_benefit_marks_the_named_track() -> None:
    given_ = {"stat": "heart", "rank": "dangerous", "ticks": 8}
    params, res = roll(make(), "action", given_, [1, 2])
    assert "mark_progress" in values(pending("action", params, res)["benefit"])
    again = resolve_roll("elegy", "action", {**params, "benefit": "mark_progress"}, dice=[1, 2])
    assert [(c.target, c.delta) for c in RULES.apply(make(), again).other] == [("progress", 8)]
    # without a track's rank the engine cannot count the ticks: it says so, and marks nothing
    bare = resolve_roll(
        "elegy",
        "action",
        {"stat": "heart", "stat_value": 3, "benefit": "mark_progress"},
        dice=[1, 2],
    )
    assert "give rank" in bare.details["mark_progress"]
    assert [c.target for c in bare.changes] == ["focus"]


# "You are harmed or tired: lose health according to the situation (see Harm)" / "When you are
# at 0 health and suffer harm, you must mark the Wounded impact."
@pytest.mark.parametrize(
    ("cost", "check"),
    [
        ("harm_2", lambda s: s.meters.health == 0 and s.impacts == ("wounded",)),
        ("stress_3", lambda s: s.meters.spirit == 2),
        ("blood", lambda s: s.meters.blood == 4),
        ("focus", lambda s: s.focus == 1),
    ],
)
def test_a_chosen_cost_is_applied(cost: str, check: Any) -> None:
    sheet = make(meters={"health": 1})
    params, _ = roll(sheet, "action", {"stat": "heart"}, [9, 9])
    again = resolve_roll("elegy", "action", {**params, "cost": cost}, dice=[9, 9])
    assert check(applied(sheet, again))


# Using Powers: "When you score a weak hit or a miss, you are forced to spend 1 blood. When you
# score a miss, the power is activated, but you must select a second cost."
def test_power_asks_a_second_cost_only_on_a_miss() -> None:
    sheet = make(meters={"blood": 0}, stats={**STATS, "force": 3})
    params, res = roll(sheet, "power", {"stat": "force"}, [1, 9])
    assert list(pending("power", params, res)) == ["benefit"]
    params, res = roll(sheet, "power", {"stat": "force"}, [9, 9])
    choice = pending("power", params, res)["cost"]
    assert choice.prompt == "Select a second cost."
    again = resolve_roll("elegy", "power", {**params, "cost": "blood"}, dice=[9, 9])
    assert applied(sheet, again).impacts == ("starving", "sinner")  # the spend, then the cost


# Rituals: "On a weak hit it is too, but it consumes you: lose 1 point of blood, health or spirit
# (pick 1). On a miss, roll on the list below. ... 81-00. It has no effect, and it consumes you:
# lose 2 point of blood, health or spirit (pick 1)."
def test_ritual_asks_what_it_consumes() -> None:
    sheet = make(meters={"health": 3}, stats={**STATS, "intellect": 3})
    params, res = roll(sheet, "ritual", {}, [1, 9])
    assert values(pending("ritual", params, res)["consume"]) == ["blood", "health", "spirit"]
    again = resolve_roll("elegy", "ritual", {**params, "consume": "health"}, dice=[1, 9])
    assert applied(sheet, again).meters.health == 2
    params, res = roll(sheet, "ritual", {}, [9, 9, 90])
    assert pending("ritual", params, res)["consume"].options[0].label == "lose 2 point of blood"
    params, res = roll(sheet, "ritual", {}, [9, 9, 20])
    assert pending("ritual", params, res) == {}


# --- choices: moves ----------------------------------------------------------------------------

# (move, given, dice, param, value, what the sheet shows after)
MOVE_CHOICES: list[tuple[str, dict[str, Any], list[int], str, str, Any]] = [
    # Secure an Advantage: "On a weak hit, choose one. Take +2 focus Add +1 on your next roll"
    ("secure_an_advantage", {"stat": "heart"}, [1, 9], "weak_hit_choice", "focus", {"focus": 4}),
    (
        "secure_an_advantage",
        {"stat": "heart"},
        [1, 9],
        "weak_hit_choice",
        "next_roll",
        {"next_roll_adds": 1},
    ),
    # Rest: "On a weak hit, you have a regular day of sleep. Pick one of the bonuses above"
    ("rest", {}, [1, 9], "weak_hit_choice", "health", {"health": 4}),
    ("rest", {}, [1, 9], "weak_hit_choice", "focus", {"focus": 4}),
    # Rest: "On a miss, pick one of the options below. ... You get hungrier: lose 1 blood You
    # don't sleep well: lose 1 focus"
    ("rest", {}, [9, 8], "miss_choice", "blood", {"blood": 4}),
    ("rest", {}, [9, 8], "miss_choice", "focus", {"focus": 1}),
    # Heal: "Choose one: lose 2 focus and spend 1 blood or spend 2 blood."
    ("heal", {}, [1, 9], "weak_hit_choice", "focus_and_blood", {"focus": 0, "blood": 4}),
    ("heal", {}, [1, 9], "weak_hit_choice", "blood", {"focus": 2, "blood": 3}),
    # Feed: "gain 2 blood and keep the victim alive gain 4 blood and kill the victim, but lose 3
    # spirit"
    ("feed", {"stat": "heart"}, [1, 2], "strong_hit_choice", "spare", {"blood": 5}),
    ("feed", {"stat": "heart"}, [1, 2], "strong_hit_choice", "kill", {"spirit": 2}),
    # Endure Harm: "Shake it off: If your health is greater than 0, suffer -1 focus in exchange
    # for +1 health. Embrace the pain: Take +1 focus."
    ("endure_harm", {"amount": 1}, [1, 1], "strong_hit_choice", "shake_it_off", {}),
    ("endure_stress", {"amount": 1}, [1, 1], "strong_hit_choice", "embrace_the_darkness", {}),
    # Face Last Death: "Otherwise, you return to the mortal world and are now cursed."
    (
        "face_last_death",
        {},
        [1, 9],
        "weak_hit_choice",
        "death_desires",
        {"impacts": ("wounded", "cursed")},
    ),
    # Face Desolation: "Otherwise, you return to your senses and are now tormented."
    (
        "face_desolation",
        {},
        [1, 9],
        "weak_hit_choice",
        "dreaded_vision",
        {"impacts": ("wounded", "tormented")},
    ),
]


def _shown(sheet: Sheet) -> dict[str, Any]:
    return {
        **sheet.meters.model_dump(),
        "focus": sheet.focus,
        "next_roll_adds": sheet.next_roll_adds,
        "impacts": sheet.impacts,
    }


@pytest.mark.parametrize(("move", "given_", "dice", "param", "value", "after"), MOVE_CHOICES)
def test_move_choice_is_offered_and_applied(
    move: str, given_: dict[str, Any], dice: list[int], param: str, value: str, after: Any
) -> None:
    sheet = make(
        meters={"health": 3, "blood": 5}, impacts=["wounded"], stats=dict.fromkeys(STATS, 3)
    )
    params, res = roll(sheet, "move", {"move": move, **given_}, dice)
    assert value in values(pending("move", params, res)[param])
    again = resolve_roll("elegy", "move", {**params, param: value}, dice=dice)
    assert again.details["chosen"]
    shown = _shown(applied(sheet, again))
    assert {k: shown[k] for k in after} == after
    assert param not in pending("move", {**params, param: value}, again)


# Endure Harm: "If your health is greater than 0, suffer -1 focus in exchange for +1 health."
def test_endure_shake_it_off_needs_the_meter_above_zero() -> None:
    sheet = make(meters={"health": 2}, stats={**STATS, "force": 3})
    params = RULES.roll_params(sheet, "move", {"move": "endure_harm", "amount": 1})
    shake = resolve_roll(
        "elegy", "move", {**params, "strong_hit_choice": "shake_it_off"}, dice=[1, 1]
    )
    assert _shown(applied(sheet, shake))["health"] == 2 and applied(sheet, shake).focus == 1
    params = RULES.roll_params(sheet, "move", {"move": "endure_harm", "amount": 2})
    at_zero = resolve_roll(
        "elegy", "move", {**params, "strong_hit_choice": "shake_it_off"}, dice=[1, 1]
    )
    assert at_zero.details["chosen"].endswith("(not taken: your health is 0)")
    assert applied(sheet, at_zero).focus == 2


# Rest: "On a match, pick both: You get hungrier: lose 1 blood; You don't sleep well: lose 1
# focus."
def test_rest_miss_on_a_match_takes_both() -> None:
    sheet = make()
    params, res = roll(sheet, "move", {"move": "rest"}, [9, 9])
    assert pending("move", params, res) == {}
    after = applied(sheet, res)
    assert (after.meters.blood, after.focus) == (4, 1)


def test_a_move_option_it_does_not_offer_is_refused() -> None:
    with pytest.raises(InvalidParameter) as err:
        roll(make(), "move", {"move": "compel", "stat": "heart", "weak_hit_choice": "kill"}, [1, 9])
    assert err.value.field == "params.weak_hit_choice"


# End the Fight: "On a weak hit, as above, but you must also choose one. It's worse than you
# thought: Endure Harm. ... Others won't forget: You are marked for vengeance."
def test_end_the_fight_weak_hit_choice_is_recorded() -> None:
    given_ = {"move": "end_the_fight", "rank": "dangerous", "ticks": 20}
    params, res = roll(make(), "move", given_, [1, 9])
    choice = pending("move", params, res)["weak_hit_choice"]
    assert len(choice.options) == 6
    again = resolve_roll("elegy", "move", {**params, "weak_hit_choice": "wont_forget"}, dice=[1, 9])
    assert again.details["chosen"].startswith("Others won't forget") and again.changes == []


# Pay the Price: "When you suffer the outcome of an action, choose one. Make the most obvious
# negative outcome happen. ... Roll on the list below."
def test_pay_the_price_is_rolled_or_chosen() -> None:
    params, res = roll(make(), "move", {"move": "face_danger", "stat": "heart"}, [1, 9])
    choice = pending("move", params, res)["pay_the_price"]
    assert values(choice) == [False, True] and choice.extra_dice
    rolled = resolve_roll("elegy", "move", {**params, "pay_the_price": True}, dice=[1, 9, 70])
    assert rolled.details["pay_the_price"] == ["You waste blood"]
    chosen = resolve_roll("elegy", "move", {**params, "pay_the_price": False}, dice=[1, 9])
    assert "pay_the_price" not in chosen.details
    strong = roll(make(), "move", {"move": "face_danger", "stat": "heart"}, [1, 2])
    assert pending("move", *strong) == {}


# Test Your Relationship: "On a miss ... choose one. Lose the connection: Envision how this
# impacts you and Pay the Price. Prove your loyalty: ... Sing an Elegy (formidable or greater)"
def test_test_your_relationship_pays_the_price_only_when_the_connection_is_lost() -> None:
    params, res = roll(make(), "move", {"move": "test_your_relationship"}, [9, 9])
    assert list(pending("move", params, res)) == ["miss_choice"]
    lose = {**params, "miss_choice": "lose_the_connection"}
    again = resolve_roll("elegy", "move", lose, dice=[9, 9])
    assert list(pending("move", lose, again)) == ["pay_the_price"]
    prove = {**params, "miss_choice": "prove_your_loyalty"}
    again = resolve_roll("elegy", "move", prove, dice=[9, 9])
    assert again.details["pays_the_price"] is False and pending("move", prove, again) == {}


# Fulfill Your Elegy: "On a miss, your quest is undone. ... choose one. You recommit: Clear all
# but one filled progress, and raise the quest's rank by one ... You give up: Forsake Your Elegy"
# / "You may Sing an Elegy to set things right. If you do, add +1."
def test_fulfill_your_elegy_choices() -> None:
    given_ = {"move": "fulfill_your_elegy", "rank": "dangerous", "ticks": 18}
    params, res = roll(make(), "move", given_, [9, 9])
    assert values(pending("move", params, res)["recommit"]) == [True, False]
    again = resolve_roll("elegy", "move", {**params, "recommit": True}, dice=[9, 9])
    assert [c.target for c in RULES.apply(make(), again).other] == ["progress", "rank"]
    params, res = roll(make(), "move", given_, [1, 9])
    assert list(pending("move", params, res)) == ["set_things_right"]
    again = resolve_roll("elegy", "move", {**params, "set_things_right": True}, dice=[1, 9])
    assert applied(make(), again).next_roll_adds == 1


# Form a Bond: "If you decide to maintain this relationship, roll both challenge dice, take the
# lower value, and clear that number of progress boxes." / strong hit: "Additionally, pick one:
# Reinforce their influence ... Expand their influence"
def test_form_a_bond_choices() -> None:
    given_ = {"move": "form_a_bond", "rank": "formidable", "ticks": 12}
    params, res = roll(make(), "move", given_, [8, 9])
    recommit = pending("move", params, res)["recommit"]
    assert recommit.extra_dice
    again = resolve_roll("elegy", "move", {**params, "recommit": True}, dice=[8, 9, 2, 5])
    assert again.details["cleared_boxes"] == 2
    params, res = roll(make(), "move", given_, [1, 2])
    assert values(pending("move", params, res)["strong_hit_choice"]) == ["reinforce", "expand"]


# Conclusion Roll: "If you recommit to this relationship, clear half your progress boxes and
# raise the connection's rank by one." / "If you sing an elegy to set things right, take full xp.
# Otherwise, take -1 xp."
def test_conclusion_roll_choices() -> None:
    connection = {"track": "connection", "rank": "dangerous", "ticks": 20}
    params, res = roll(make(), "conclusion", connection, [8, 9])
    assert values(pending("conclusion", params, res)["recommit"]) == [True, False]
    elegy = {"track": "elegy", "rank": "extreme", "ticks": 20}
    params, res = roll(make(), "conclusion", elegy, [3, 7])
    assert list(pending("conclusion", params, res)) == ["set_things_right"]
    full = resolve_roll("elegy", "conclusion", {**params, "set_things_right": True}, dice=[3, 7])
    assert applied(make(), full).experience == 4
    assert pending("conclusion", {**params, "set_things_right": False}, res) == {}


def test_kinds_without_choices() -> None:
    for kind, example in KIND_EXAMPLES:
        if kind in ("oracle", "progress", "foe_harm", "harm", "table", "expression"):
            res = resolve_roll("elegy", kind, example, seed=1)
            assert RULES.choices(kind, example, res) == []
    with pytest.raises(UnknownError):
        RULES.choices("bite", {}, resolve_roll("elegy", "oracle", {}, seed=1))


def test_option_ids_are_the_parameters_values() -> None:
    assert [o.id for o in options.BENEFITS] == list(get_args(options.Benefit))
    assert [o.id for o in options.COSTS] == list(get_args(options.Cost))
    move_ids = {o.id for opts in options.MOVE_CHOICES.values() for o in opts}
    assert move_ids == set(get_args(options.MoveChoice))


# --- progress tracks ---------------------------------------------------------------------------


# "Progress is tracked in three different situations: Combat ... Connection ... Elegy" /
# "Troublesome ... Progress marked: 3 boxes ... Epic ... Progress marked: 1 tick"
def test_track_types_are_the_three_of_the_text() -> None:
    assert [t.id for t in RULES.track_types] == ["combat", "connection", "elegy"]
    for track in RULES.track_types:
        assert track.ranks == {
            "troublesome": 12,
            "dangerous": 8,
            "formidable": 4,
            "extreme": 2,
            "epic": 1,
        }
    assert RULES.gm_params == []  # a solo game: no GM sets a number


# "When it feels like you've made enough progress ... you may attempt to conclude it. This is a
# Conclusion Roll." / the moves: End the Fight, Form a Bond, Fulfill Your Elegy.
def test_progress_roll_concludes_a_track() -> None:
    kind, params = RULES.progress_roll(make(), "elegy", 24, {"rank": "dangerous"})
    assert (kind, params) == ("conclusion", {"rank": "dangerous", "track": "elegy", "ticks": 24})
    assert resolve_roll("elegy", kind, params, dice=[5, 7]).outcome == "weak_hit"
    kind, params = RULES.progress_roll(
        make(), "combat", 20, {"move": "end_the_fight", "rank": "epic"}
    )
    assert kind == "move" and params["ticks"] == 20 and params["focus"] == 2
    resolve_roll("elegy", kind, params, seed=2)


@pytest.mark.parametrize(
    ("track", "progress", "given_", "error", "field"),
    [
        ("quest", 4, {}, UnknownError, "track_type"),
        ("elegy", 41, {}, InvalidParameter, "progress"),
        ("elegy", 4, {"ticks": 8}, InvalidParameter, "params.ticks"),
        ("elegy", 4, {"move": "end_the_fight"}, InvalidParameter, "params.move"),
    ],
)
def test_progress_roll_refusals(
    track: str, progress: int, given_: dict[str, Any], error: type[RulesError], field: str
) -> None:
    with pytest.raises(error) as err:
        RULES.progress_roll(make(), track, progress, given_)
    assert err.value.field == field


# --- invariants --------------------------------------------------------------------------------

SHEETS = st.fixed_dictionaries(
    {
        "name": st.just("Mina"),
        "stats": st.fixed_dictionaries({s: st.integers(0, 5) for s in SYSTEM.stats}),
        "meters": st.fixed_dictionaries(
            {k: st.integers(0, 5) for k in ("health", "spirit", "blood")}
        ),
        "focus": st.integers(-6, 10),
        "impacts": st.lists(st.sampled_from(IMPACTS), unique=True, max_size=4),
        "experience": st.integers(0, 6),
        "next_roll_adds": st.integers(0, 3),
    }
).map(RULES.validate)

RANKS = st.sampled_from(m.RANKS)


@st.composite
def rolls(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A roll kind and the player's parameters: a kind's example, or any move."""
    if draw(st.booleans()):
        kind, example = draw(st.sampled_from(KIND_EXAMPLES))
        return kind, {k: v for k, v in example.items() if k not in SHEET_PARAMS.get(kind, ())}
    move = draw(st.sampled_from(list(SYSTEM.moves)))
    given_: dict[str, Any] = {
        "move": move.id,
        "rank": draw(RANKS),
        "ticks": draw(st.integers(0, 40)),
    }
    stats = list(dict.fromkeys(s for option in move.options for s in option.using))
    if len(stats) > 1 and move.id != "rest":
        given_["stat"] = draw(st.sampled_from(stats))
    if move.id.startswith("endure_"):
        given_["amount"] = draw(st.integers(0, 5))
    return "move", given_


def _resolve(
    sheet: Sheet, kind: str, given_: dict[str, Any], seed: int
) -> tuple[dict[str, Any], Resolution] | None:
    params = RULES.roll_params(sheet, kind, given_)
    SYSTEM.roll_kind(kind).params.model_validate(params)
    try:
        return params, resolve_roll("elegy", kind, params, seed=seed)
    except InvalidParameter:  # the engine's own refusal (e.g. too little experience to advance)
        return None


def _choose_all(
    kind: str, params: dict[str, Any], res: Resolution, seed: int, pick: st.DrawFn | None
) -> tuple[dict[str, Any], Resolution]:
    """Make every choice offered, re-resolving after each round, until none is left."""
    for _ in range(5):
        offered = RULES.choices(kind, params, res)
        if not offered:
            return params, res
        for choice in offered:
            fields = SYSTEM.roll_kind(kind).params.model_fields
            assert choice.param in fields and choice.param not in params
            option = pick(st.sampled_from(choice.options)) if pick else choice.options[0]
            params = {**params, choice.param: option.value}
        again = resolve_roll("elegy", kind, params, seed=seed)
        if not any(c.extra_dice or c.param == "burn_focus" for c in offered):
            # the same dice give the chosen outcome (no new dice were needed)
            same = resolve_roll("elegy", kind, params, dice=res.dice_values())
            assert same == again.model_copy(update={"seed": None})
        res = again
    raise AssertionError("choices did not settle")


@settings(max_examples=150)
@given(SHEETS, rolls(), st.integers(0, 2**40), st.data())
def test_any_roll_any_choice_keeps_the_sheet_in_range(
    sheet: Sheet, kind_given: tuple[str, dict[str, Any]], seed: int, data: st.DataObject
) -> None:
    kind, given_ = kind_given
    first = _resolve(sheet, kind, given_, seed)
    if first is None:
        return
    _, res = _choose_all(kind, *first, seed, data.draw)
    update = RULES.apply(sheet, res)
    assert RULES.validate(update.sheet.model_dump(mode="json")) == update.sheet
    held = {c.target for c in update.applied}
    assert not held & {c.target for c in update.other}


@settings(max_examples=60)
@given(SHEETS, st.lists(st.tuples(rolls(), st.integers(0, 2**40)), min_size=1, max_size=6))
def test_replaying_the_journal_gives_the_same_sheet(
    start: Sheet, steps: list[tuple[tuple[str, dict[str, Any]], int]]
) -> None:
    sheet, journal = start, []
    for (kind, given_), seed in steps:
        first = _resolve(sheet, kind, given_, seed)
        if first is None:
            continue
        _, res = _choose_all(kind, *first, seed, None)
        journal.append(res)
        sheet = applied(sheet, res)
    replayed = start
    for res in journal:
        again = resolve_roll("elegy", res.kind, res.params, dice=res.dice_values())
        replayed = applied(replayed, again)
    assert replayed == sheet
