"""Sundered Isles character sheet: validation, roll parameters, applying changes, choices.

Each test quotes the sentence of sundered_isles.md it checks; one test per sheet ruling is named
test_ruling_<id>.
"""

from __future__ import annotations

import re
from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import InvalidParameter, RulesError, UnknownError
from rules.models import Resolution, StateChange
from rules.registry import get_system, resolve_roll
from rules.sheets import SheetRules, SheetUpdate
from rules.systems.sundered_isles.moves import get_move
from rules.systems.sundered_isles.sheet import (
    CHOICE_TEXT,
    IMPACTS,
    POSITION_TEXT,
    RULES,
    TABLE_CHOICE_TEXT,
    Asset,
    Sheet,
)

SYSTEM = get_system("sundered_isles")
STATS = {"edge": 3, "heart": 2, "iron": 2, "shadow": 1, "wits": 1}
SHIP = {"name": "Windward", "category": "command_vehicle"}
SKIFF = {"name": "Skiff", "category": "support_vehicle", "integrity_max": 3}
PARROT = {"name": "Polly", "category": "companion", "health_max": 2}


def sheet(**data: Any) -> Sheet:
    return RULES.validate({"stats": STATS, **data})


def play(
    s: Sheet, kind: str, given: dict[str, Any], dice: list[int] | None = None
) -> tuple[Resolution, SheetUpdate]:
    params = RULES.roll_params(s, kind, given)
    resolution = resolve_roll("sundered_isles", kind, params, dice=dice)
    return resolution, RULES.apply(s, resolution)


def field_of(call: Any) -> str | None:
    with pytest.raises(RulesError) as err:
        call()
    return err.value.field


def test_the_system_carries_its_sheet() -> None:
    rules: SheetRules = RULES
    assert SYSTEM.sheet is rules
    assert {r.id for r in SYSTEM.rulings} >= {"vehicle_troubles_aboard", "bond_reward_waits"}


# --- validation --------------------------------------------------------------------------------


def test_a_new_sheet_starts_full_with_momentum_two() -> None:
    # Starforged: health, spirit and supply start at 5; momentum starts at +2.
    s = sheet()
    assert (s.health, s.spirit, s.supply, s.momentum, s.experience) == (5, 5, 5, 2, 0)
    assert s.impacts == [] and s.assets == [] and s.aboard is None
    assert RULES.validate(s.model_dump(mode="json")) == s  # a session stores it as JSON


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"stats": None}, "sheet.stats"),
        ({"stats": {**STATS, "wits": 6}}, "sheet.stats.wits"),
        ({"health": 6}, "sheet.health"),
        ({"impacts": ["wounded", "wounded"]}, "sheet.impacts"),
        ({"impacts": ["hungry"]}, "sheet.impacts.0"),
        ({"momentum": -7}, "sheet.momentum"),
        ({"assets": ["Windward"]}, "sheet.assets.0"),
        ({"assets": [{"name": "Bo", "category": "companion"}]}, "sheet.assets.0"),
        ({"assets": [{**PARROT, "health": 3}]}, "sheet.assets.0"),
        ({"assets": [{"name": "Blade", "category": "path", "integrity": 2}]}, "sheet.assets.0"),
        ({"assets": [SHIP, {**SHIP, "name": "windward"}]}, "sheet.assets"),
        ({"assets": [SHIP, {**SHIP, "name": "Other"}]}, "sheet.assets"),
        ({"assets": [PARROT], "aboard": "Polly"}, "sheet.aboard"),
        ({"legacy": {"quests": {"ticks": 40}}}, "sheet.legacy.quests"),
        ({"experience": -1}, "sheet.experience"),
        ({"gold": 3}, "sheet.gold"),
    ],
)
def test_bad_sheets_name_the_field(data: dict[str, Any], where: str) -> None:
    assert field_of(lambda: RULES.validate({"stats": STATS, **data})) == where


def test_momentum_above_the_max_is_refused() -> None:
    # "Your max momentum is reduced by 1 for each marked impact. For example, one impact will
    # drop your max momentum to +9. Three impacts will reduce it to +7."
    assert sheet(impacts=["wounded"], momentum=9).momentum_max == 9
    assert sheet(impacts=["wounded", "shaken", "doomed"], momentum=7).momentum_max == 7
    with pytest.raises(InvalidParameter) as err:
        sheet(impacts=["wounded"], momentum=10)
    assert err.value.field == "sheet.momentum"


def test_momentum_reset_by_impacts() -> None:
    # "If you have one marked impact, your momentum reset is +1 (instead of +2). If you have more
    # than one marked impact, your momentum reset is 0 (instead of +2)."
    assert sheet().momentum_reset == 2
    assert sheet(impacts=["indebted"]).momentum_reset == 1
    assert sheet(impacts=["indebted", "traumatized"]).momentum_reset == 0


def test_every_impact_of_the_text_can_be_marked() -> None:
    # Suffer and threshold moves mark: wounded, permanently harmed, shaken, traumatized,
    # unprepared, doomed, tormented, indebted; Withstand Damage marks a vehicle battered or cursed.
    text = " ".join(m.text for m in SYSTEM.moves).lower()
    for impact in IMPACTS:
        assert impact.replace("_", " ") in text
    assert sheet(impacts=list(IMPACTS), momentum=2).impact_count == len(IMPACTS)


def test_assets_start_with_full_meters() -> None:
    s = sheet(assets=[SHIP, SKIFF, PARROT, {"name": "Cannons", "category": "module"}])
    ship, skiff, parrot, module = s.assets
    assert (ship.integrity, ship.integrity_max) == (5, 5)
    assert (skiff.integrity, parrot.health) == (3, 2)
    assert module.broken is False and module.abilities == 1
    assert s.aboard == "Windward"  # left out: your command vehicle
    assert sheet(assets=[SHIP], aboard=None).aboard is None  # null: ashore


def test_ruling_vehicle_troubles_aboard() -> None:
    # "If you mark an impact as an outcome of a suffer move, reduce your max momentum and momentum
    # reset." Battered and cursed belong to a vehicle, and count only while you are aboard it.
    ship = {**SHIP, "battered": True, "cursed": True}
    assert sheet(assets=[ship], momentum=8).impact_count == 2
    assert sheet(assets=[ship], aboard=None).impact_count == 0
    skiff = {**SKIFF, "battered": True}
    assert sheet(assets=[ship, skiff], aboard="Skiff").impact_count == 1
    with pytest.raises(InvalidParameter) as err:
        sheet(assets=[ship], momentum=9)
    assert err.value.field == "sheet.momentum"


# --- roll parameters ---------------------------------------------------------------------------


def test_roll_params_fill_what_the_sheet_holds() -> None:
    # "Most action rolls are made by adding the value of a stat to your action die."
    s = sheet(momentum=4, impacts=["shaken"])
    params = RULES.roll_params(s, "action", {"stat": "edge", "adds": 1})
    assert params == {"stat": "edge", "adds": 1, "stat_value": 3, "momentum": 4, "impacts": 1}
    assert RULES.roll_params(s, "action", {"stat": "supply"})["stat_value"] == 5
    assert RULES.roll_params(s, "endure_stress", {"amount": 2}) == {
        "amount": 2,
        "momentum": 4,
        "impacts": 1,
        "spirit": 5,
        "heart": 2,
        "shaken": True,
    }
    assert RULES.roll_params(s, "advance", {"purchase": "upgrade"})["experience"] == 0
    assert RULES.roll_params(s, "oracle", {"odds": "likely"}) == {"odds": "likely"}


@pytest.mark.parametrize(
    ("kind", "given", "where"),
    [
        ("action", {"stat": "edge", "stat_value": 1}, "params.stat_value"),
        ("action", {"stat": "edge", "momentum": 5}, "params.momentum"),
        ("endure_harm", {"amount": 1, "health": 2}, "params.health"),
        ("endure_harm", {"amount": 1, "wounded": True}, "params.wounded"),
        ("move", {"move": "heal", "stats": {"iron": 1, "wits": 2}}, "params.stats"),
        ("mark_legacy", {"track": "quests", "ticks": 3, "mark": 1}, "params.ticks"),
        ("advance", {"experience": 9, "purchase": "upgrade"}, "params.experience"),
        ("move", {"move": "overcome_destruction", "progress_score": 3}, "params.progress_score"),
        (
            "move",
            {"move": "face_danger", "stat": "edge", "legacy_track": "bonds"},
            "params.legacy_track",
        ),
        ("mark_legacy", {"track": "vows", "mark": 1}, "params.track"),
        ("companion_takes_a_hit", {"amount": 1}, "params.asset"),
        ("withstand_damage", {"amount": 1}, "params.asset"),
    ],
)
def test_a_value_the_sheet_holds_is_not_given(kind: str, given: dict[str, Any], where: str) -> None:
    assert field_of(lambda: RULES.roll_params(sheet(), kind, given)) == where


def test_a_value_the_sheet_lacks_is_given() -> None:
    # "roll +their rank to learn the impact on your legacy: troublesome=+1; ... epic=+5"
    given = {"move": "develop_your_relationship", "stat": "connection_rank", "stat_value": 3}
    params = RULES.roll_params(sheet(), "move", given)
    assert params["stat_value"] == 3
    assert resolve_roll("sundered_isles", "move", params, dice=[1, 2, 4]).outcome == "weak_hit"


def test_a_move_with_one_way_to_roll_needs_no_stat() -> None:
    # "When you search for clues, ... roll +wits." / "roll +health or +iron, whichever is higher."
    s = sheet(health=1)
    assert RULES.roll_params(s, "move", {"move": "gather_information"})["stat_value"] == 1
    assert RULES.roll_params(s, "move", {"move": "endure_harm"})["stats"] == {
        "health": 1,
        "iron": 2,
    }
    assert RULES.roll_params(s, "hearten", {})["stat"] == "heart"
    assert "stat" not in RULES.roll_params(s, "move", {"move": "face_danger"})  # five ways


def test_whichever_is_lower_by_names() -> None:
    # "Mend your own wounds: Roll +iron or +wits, whichever is lower"
    params = RULES.roll_params(sheet(), "heal", {"stats": ["iron", "wits"]})
    assert params["stats"] == {"iron": 2, "wits": 1} and params["health"] == 5
    resolution = resolve_roll("sundered_isles", "heal", params, dice=[5, 6, 7])
    assert resolution.scores["action_score"] == 6  # 5 + wits 1
    with pytest.raises(InvalidParameter) as err:
        RULES.roll_params(sheet(), "heal", {"stats": ["iron", "connection_rank"]})
    assert err.value.field == "params.stats.connection_rank"


def test_companion_and_vehicle_meters_come_from_their_assets() -> None:
    # "roll +your companion’s health" / "roll +integrity"
    s = sheet(assets=[SHIP, SKIFF, {**PARROT, "health": 1}])
    hit = RULES.roll_params(s, "companion_takes_a_hit", {"amount": 1})
    assert (hit["asset"], hit["companion_health"]) == ("Polly", 1)
    ship = RULES.roll_params(s, "withstand_damage", {"amount": 1})
    assert (ship["asset"], ship["integrity"], ship["vehicle"]) == ("Windward", 5, "command")
    skiff = RULES.roll_params(s, "withstand_damage", {"amount": 1, "asset": "Skiff"})
    assert (skiff["integrity"], skiff["vehicle"]) == (3, "support")
    incidental = {"amount": 1, "vehicle": "incidental", "integrity": 2}
    assert RULES.roll_params(s, "withstand_damage", incidental)["integrity"] == 2
    action = RULES.roll_params(s, "action", {"stat": "integrity", "asset": "Skiff"})
    assert action["stat_value"] == 3 and "asset" not in action  # the action kind has no asset
    move = RULES.roll_params(s, "move", {"move": "companion_takes_a_hit"})
    assert move["stat_value"] == 1 and "asset" not in move
    assert field_of(
        lambda: RULES.roll_params(s, "withstand_damage", {"amount": 1, "asset": "Polly"})
    ) == ("params.asset")
    assert field_of(
        lambda: RULES.roll_params(s, "companion_takes_a_hit", {"amount": 1, "asset": "Skiff"})
    ) == ("params.asset")
    assert field_of(
        lambda: RULES.roll_params(s, "action", {"stat": "integrity", "asset": "Bo"})
    ) == ("params.asset")
    stray = RULES.roll_params(s, "action", {"stat": "edge", "asset": "Skiff"})
    assert (
        field_of(lambda: resolve_roll("sundered_isles", "action", stray, seed=1)) == "params.asset"
    )


def test_legacy_tracks_are_rolled_from_the_sheet() -> None:
    # "roll the challenge dice and compare to the progress on your bonds legacy track."
    s = sheet(legacy={"bonds": {"ticks": 21}, "quests": {"ticks": 5, "cleared": 1}})
    params = RULES.roll_params(s, "move", {"move": "overcome_destruction"})
    assert (params["progress_ticks"], params["legacy_cleared"]) == (21, False)
    resolution = resolve_roll("sundered_isles", "move", params, dice=[4, 6])
    assert resolution.scores["progress_score"] == 5 and resolution.outcome == "weak_hit"
    # "If you make a progress roll against this track, resolve the outcome as if at 10 progress"
    again = RULES.roll_params(s, "move", {"move": "continue_a_legacy", "legacy_track": "quests"})
    assert resolve_roll("sundered_isles", "move", again, dice=[9, 9]).outcome == "strong_hit"
    marked = RULES.roll_params(s, "mark_legacy", {"track": "quests", "mark": 2})
    assert (marked["ticks"], marked["cleared"]) == (5, True)


def test_wrong_sheet_and_wrong_system_are_refused() -> None:
    assert (
        field_of(lambda: RULES.roll_params(Resolution.model_construct(), "action", {})) == "sheet"
    )
    other = resolve_roll("elegy", "oracle", {}, seed=1)
    assert field_of(lambda: RULES.apply(sheet(), other)) == "resolution.system"


# --- applying ----------------------------------------------------------------------------------


def test_endure_harm_to_zero_marks_wounded() -> None:
    # "If your health is 0, LOSE MOMENTUM equal to any remaining harm. ... On a miss, ... Suffer an
    # additional -1 health or LOSE MOMENTUM (-2). If your health is 0, you must also mark wounded
    # or permanently harmed, or roll on the table below."
    s = sheet(health=2, momentum=5)
    given = {"amount": 3, "miss_choice": "momentum", "at_zero": "mark_wounded"}
    resolution, update = play(s, "endure_harm", given, [1, 9, 9])
    assert resolution.outcome == "miss"
    new = update.sheet
    assert (new.health, new.momentum, new.impacts) == (0, 2, ["wounded"])
    assert [(c.target, c.delta, c.set_to) for c in update.applied] == [
        ("health", -2, None),
        ("momentum", -1, None),
        ("momentum", -2, None),
        ("wounded", None, 1),
        ("impacts", 1, None),
    ]
    assert update.other == []
    assert new.momentum_max == 9


def test_marking_an_impact_lowers_momentum_once() -> None:
    # "If your supply is exhausted (reduced to 0), mark unprepared." With momentum at +10 the new
    # max (+9) lowers it by 1, not by 2.
    _, update = play(sheet(supply=1, momentum=10), "sacrifice_resources", {"amount": 1})
    assert (update.sheet.supply, update.sheet.momentum) == (0, 9)
    assert update.sheet.impacts == ["unprepared"]


def test_momentum_stays_within_its_max() -> None:
    # "On a strong hit, you are successful. Take +1 momentum." At the max it stays there.
    s = sheet(momentum=9, impacts=["doomed"])
    _, update = play(s, "move", {"move": "face_danger", "stat": "iron"}, [6, 1, 1])
    assert update.sheet.momentum == 9 and update.applied == []


def test_burning_momentum_is_a_choice_then_a_reset() -> None:
    # Starforged: burning momentum replaces the action score, then momentum resets (+1 with one
    # impact: "If you have one marked impact, your momentum reset is +1").
    s = sheet(momentum=8, impacts=["wounded"])
    params = RULES.roll_params(s, "move", {"move": "face_danger", "stat": "wits"})
    first = resolve_roll("sundered_isles", "move", params, dice=[1, 5, 7])
    pending = RULES.choices("move", params, first)
    # Issue 19: on a miss the burn is offered on its own first; Pay the Price only after it
    assert [c.param for c in pending] == ["burn_momentum"]
    kept = {**params, "burn_momentum": False}
    assert [c.param for c in RULES.choices("move", kept, first)] == ["roll_tables"]
    burned = resolve_roll(
        "sundered_isles", "move", {**params, "burn_momentum": True}, dice=[1, 5, 7]
    )
    assert burned.outcome == "strong_hit"
    assert RULES.choices("move", {**params, "burn_momentum": True}, burned) == []
    update = RULES.apply(s, burned)
    assert update.sheet.momentum == 2  # reset to +1, then "Take +1 momentum"
    assert update.applied[0] == StateChange(
        target="momentum", delta=-7, set_to=1, note="momentum burned"
    )


def test_progress_and_clocks_go_to_the_session() -> None:
    # "On a weak hit, you are successful and mark progress, but also encounter a complication or
    # setback. Envision what occurs and fill a clock segment."
    given = {"move": "face_danger_scene_challenge", "stat": "edge", "rank": "dangerous"}
    _, update = play(sheet(), "move", given, [1, 3, 9])
    assert update.applied == []
    assert [(c.target, c.delta) for c in update.other] == [("progress", 8), ("tension_clock", 1)]


def test_fulfilling_a_vow_earns_experience() -> None:
    # "Mark a reward on your quests legacy track per the vow’s rank: ... dangerous=2 ticks" and
    # "When you fill a box (four ticks) on any legacy track, take 2 experience."
    s = sheet(legacy={"quests": {"ticks": 3}}, experience=1)
    kind, params = RULES.progress_roll(s, "vow", 30, {"rank": "dangerous"})
    resolution = resolve_roll("sundered_isles", kind, params, dice=[2, 3])
    update = RULES.apply(s, resolution)
    assert update.sheet.legacy.quests.ticks == 5 and update.sheet.experience == 3
    assert [(c.target, c.delta) for c in update.applied] == [
        ("legacy:quests", 2),
        ("experience", 2),
    ]


def test_a_filled_legacy_track_is_cleared_and_earns_less() -> None:
    # "Once you completely fill the tenth box on any legacy track, clear that track. ... earn
    # experience at a reduced rate of 1 experience (instead of 2) for each filled progress box."
    s = sheet(legacy={"discoveries": {"ticks": 38}})
    _, update = play(s, "mark_legacy", {"track": "discoveries", "mark": 8})
    track = update.sheet.legacy.discoveries
    assert (track.ticks, track.cleared, update.sheet.experience) == (6, 1, 3)
    assert [c.target for c in update.applied] == [
        "legacy:discoveries",
        "legacy:discoveries:cleared",
        "experience",
    ]
    _, again = play(
        update.sheet, "mark_legacy", {"track": "discoveries", "reward_rank": "formidable"}
    )
    assert again.sheet.legacy.discoveries.ticks == 10 and again.sheet.experience == 4


def test_ruling_bond_reward_waits() -> None:
    # "On a weak hit, as above, but they ask something more of you first. To gain the bond and the
    # legacy reward, envision the nature of the request, and do it"
    s = sheet()
    kind, params = RULES.progress_roll(s, "connection", 24, {"rank": "formidable"})
    weak = RULES.apply(s, resolve_roll("sundered_isles", kind, params, dice=[3, 8]))
    assert weak.sheet.legacy.bonds.ticks == 0
    assert [(c.target, c.delta) for c in weak.other] == [("legacy:bonds", 4)]
    strong = RULES.apply(s, resolve_roll("sundered_isles", kind, params, dice=[3, 4]))
    assert strong.sheet.legacy.bonds.ticks == 4 and strong.sheet.experience == 2


def test_advance_spends_experience() -> None:
    # "you may spend 3 experience to add a new asset, or 2 experience to upgrade an asset."
    _, update = play(sheet(experience=5), "advance", {"purchase": "new_asset"})
    assert update.sheet.experience == 2


def test_heal_clears_wounded() -> None:
    # "If you (or the ally under your care) are wounded, clear the impact and take or give +2
    # health."
    s = sheet(health=1, impacts=["wounded"], momentum=3)
    _, update = play(s, "heal", {"stat": "iron"}, [6, 1, 2])
    assert (update.sheet.health, update.sheet.impacts) == (3, [])
    assert ("impacts", -1) in [(c.target, c.delta) for c in update.applied]


def test_withstand_damage_on_the_ship_you_are_aboard() -> None:
    # "Command vehicle: Mark the vehicle as battered or cursed, ..."
    s = sheet(assets=[{**SHIP, "integrity": 1}, SKIFF], momentum=10)
    given = {"amount": 1, "miss_choice": "momentum", "at_zero": "mark_cursed"}
    _, update = play(s, "withstand_damage", given, [1, 9, 9])
    ship = update.sheet.assets[0]
    assert (ship.integrity, ship.cursed, update.sheet.impact_count) == (0, True, 1)
    assert update.sheet.momentum == 8
    assert [c.target for c in update.applied] == ["integrity", "momentum", "cursed", "impacts"]
    assert update.applied[0].note is not None and update.applied[0].note.startswith("Windward")


def test_withstand_damage_on_a_support_vehicle() -> None:
    # "Support vehicle: Mark the vehicle as battered or roll on the table below."
    s = sheet(assets=[SHIP, {**SKIFF, "integrity": 1}])
    given = {"amount": 2, "asset": "Skiff", "miss_choice": "momentum", "at_zero": "mark_battered"}
    _, update = play(s, "withstand_damage", given, [1, 9, 9])
    skiff = update.sheet.assets[1]
    assert (skiff.integrity, skiff.battered) == (0, True)
    assert update.sheet.impact_count == 0  # you are aboard the Windward
    assert "impacts" not in [c.target for c in update.applied]
    # A trouble already marked is not marked twice.
    again = RULES.apply(
        update.sheet,
        resolve_roll(
            "sundered_isles",
            "withstand_damage",
            {**RULES.roll_params(update.sheet, "withstand_damage", given)},
            dice=[1, 9, 9],
        ),
    )
    assert "battered" not in [c.target for c in again.applied]


def test_an_incidental_vehicle_is_not_on_the_sheet() -> None:
    # "Incidental vehicle: Roll on the table below."
    given = {"amount": 1, "vehicle": "incidental", "integrity": 3}
    _, update = play(sheet(), "withstand_damage", given)
    assert [(c.target, c.delta) for c in update.other] == [("integrity", -1)]


def test_companion_health_stays_within_its_asset() -> None:
    # "On a strong hit, your companion rallies. Give them +1 health." A parrot has 2 health.
    s = sheet(assets=[PARROT])
    _, update = play(s, "companion_takes_a_hit", {"amount": 1, "resist": True}, [6, 1, 1])
    assert update.sheet.assets[0].health == 2
    _, hurt = play(s, "companion_takes_a_hit", {"amount": 2}, [1, 9, 9])
    assert hurt.sheet.assets[0].health == 0


def test_a_renamed_asset_is_reported() -> None:
    s = sheet(assets=[PARROT])
    resolution, _ = play(s, "companion_takes_a_hit", {"amount": 1})
    renamed = sheet(assets=[{**PARROT, "name": "Pip"}])
    assert field_of(lambda: RULES.apply(renamed, resolution)) == "resolution.params.asset"


# --- choices -----------------------------------------------------------------------------------


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9+\-()]+", text.lower().replace("’", "'")))


def test_choice_labels_are_the_texts_words() -> None:
    # Every label and prompt a player reads is in the words of the move it comes from.
    for move_id, params in CHOICE_TEXT.items():
        text = _words(get_move(move_id).text)
        for prompt, labels in params.values():
            assert _words(prompt) <= text, (move_id, prompt)
            for label in labels.values():
                assert _words(label) <= text, (move_id, label)
    for table_id, (prompt, labels) in TABLE_CHOICE_TEXT.items():
        text = _words(get_move(table_id).text)
        assert _words(prompt) <= text and all(_words(lb) <= text for lb in labels.values())
    prompt, labels = POSITION_TEXT
    text = _words(get_move("take_decisive_action").text)
    assert _words(prompt) <= text and all(_words(lb) <= text for lb in labels.values())


def test_every_option_the_engine_offers_has_a_label() -> None:
    for move_id, params in CHOICE_TEXT.items():
        model = SYSTEM.roll_kind(move_id).params
        for param, (_, labels) in params.items():
            annotation = model.model_fields[param].annotation
            flat = {x for v in get_args(annotation) for x in get_args(v)}  # Literal[...] | None
            assert flat == set(labels), (move_id, param)
    for move_id in (
        "endure_harm",
        "endure_stress",
        "companion_takes_a_hit",
        "withstand_damage",
        "heal",
        "resupply",
    ):
        model_fields = SYSTEM.roll_kind(move_id).params.model_fields
        choice_params = {p for p in model_fields if p.endswith("_choice") or p == "at_zero"}
        assert choice_params == set(CHOICE_TEXT[move_id]), move_id


def test_choices_are_the_outcomes_open_decisions() -> None:
    # "On a strong hit, choose one. - Shake it off ... - Embrace the pain"
    s = sheet(health=3)
    params = RULES.roll_params(s, "endure_harm", {"amount": 1, "resist": True})
    strong = resolve_roll("sundered_isles", "endure_harm", params, dice=[6, 1, 1])
    [choice] = RULES.choices("endure_harm", params, strong)
    assert choice.param == "strong_hit_choice" and not choice.extra_dice
    assert [o.value for o in choice.options] == ["shake_it_off", "embrace_the_pain"]
    chosen = {**params, "strong_hit_choice": "embrace_the_pain"}
    again = resolve_roll("sundered_isles", "endure_harm", chosen, dice=[6, 1, 1])
    assert RULES.choices("endure_harm", chosen, again) == []
    assert RULES.apply(s, again).sheet.momentum == 3


def test_a_support_vehicle_at_zero_has_two_options() -> None:
    s = sheet(assets=[SHIP, {**SKIFF, "integrity": 1}])
    params = RULES.roll_params(
        s, "withstand_damage", {"amount": 1, "asset": "Skiff", "miss_choice": "momentum"}
    )
    miss = resolve_roll("sundered_isles", "withstand_damage", params, dice=[1, 9, 9])
    [choice] = RULES.choices("withstand_damage", params, miss)
    assert [o.value for o in choice.options] == [
        "mark_battered",
        "roll_table",
    ] and choice.extra_dice


def test_pay_the_price_roll_or_choose() -> None:
    # "When you suffer the outcome of an action, choose one. - Make the most obvious negative
    # outcome happen. ... - Roll on the table below."
    params = RULES.roll_params(sheet(), "move", {"move": "pay_the_price"})
    resolution = resolve_roll("sundered_isles", "move", params, seed=3)
    [choice] = RULES.choices("move", params, resolution)
    assert choice.param == "roll_tables" and choice.extra_dice
    assert choice.citation.heading == "FATE MOVES > PAY THE PRICE"
    rolled = resolve_roll("sundered_isles", "move", {**params, "roll_tables": True}, seed=3)
    assert (
        rolled.details["tables_rolled"]
        and RULES.choices("move", {**params, "roll_tables": True}, rolled) == []
    )
    discovery = RULES.roll_params(sheet(), "move", {"move": "make_a_discovery"})
    [other] = RULES.choices(
        "move", discovery, resolve_roll("sundered_isles", "move", discovery, seed=1)
    )
    assert [o.label for o in other.options] == ["Roll on the table below", "choose one"]


def test_position_is_asked_only_when_it_matters() -> None:
    # "If you are in a bad spot, count a strong hit without a match as a weak hit, and a weak hit
    # as a miss."
    s = sheet()
    _, params = RULES.progress_roll(s, "combat", 28, {})
    strong = resolve_roll("sundered_isles", "move", params, dice=[3, 4])
    [choice] = RULES.choices("move", params, strong)
    assert choice.param == "position" and [o.value for o in choice.options] == [
        "in_control",
        "bad_spot",
    ]
    bad = {**params, "position": "bad_spot"}
    weak = resolve_roll("sundered_isles", "move", bad, dice=[3, 4])
    assert weak.outcome == "weak_hit"  # "Roll on the table below or choose one."
    assert [c.param for c in RULES.choices("move", bad, weak)] == ["roll_tables"]
    match = resolve_roll("sundered_isles", "move", params, dice=[4, 4])  # a strong hit with a match
    assert RULES.choices("move", params, match) == []


# --- tracks ------------------------------------------------------------------------------------


def test_track_types_and_their_progress_moves() -> None:
    # "Scene challenges use a troublesome, dangerous, or formidable progress track"
    types = {t.id: t for t in RULES.track_types}
    assert set(types) == {"vow", "connection", "expedition", "combat", "scene_challenge"}
    assert list(types["scene_challenge"].ranks) == ["troublesome", "dangerous", "formidable"]
    assert types["vow"].ranks["epic"] == 1 and types["vow"].ranks["troublesome"] == 12
    expected = {
        "vow": "fulfill_your_vow",
        "connection": "forge_a_bond",
        "expedition": "finish_an_expedition",
        "combat": "take_decisive_action",
        "scene_challenge": "finish_a_scene",
    }
    for track_type, move in expected.items():
        kind, params = RULES.progress_roll(sheet(), track_type, 13, {})
        assert (kind, params["move"], params["progress_ticks"]) == ("move", move, 13)
        assert (
            resolve_roll("sundered_isles", kind, params, dice=[2, 4]).scores["progress_score"] == 3
        )


@pytest.mark.parametrize(
    ("track_type", "progress", "given", "where"),
    [
        ("quest", 4, {}, "track_type"),
        ("vow", 41, {}, "progress"),
        ("vow", 4, {"move": "forge_a_bond"}, "params.move"),
        ("vow", 4, {"progress_score": 3}, "params.progress_score"),
    ],
)
def test_progress_roll_errors(
    track_type: str, progress: int, given: dict[str, Any], where: str
) -> None:
    assert field_of(lambda: RULES.progress_roll(sheet(), track_type, progress, given)) == where


def test_gm_params_name_real_parameters() -> None:
    for gm in RULES.gm_params:
        for kind in gm.kinds:
            assert gm.param in SYSTEM.roll_kind(kind).params.model_fields, (gm.param, kind)


# --- a session's loop never leaves the sheet invalid ---------------------------------------------

TURNS: list[tuple[str, dict[str, Any]]] = [
    ("action", {"stat": "heart"}),
    ("move", {"move": "face_danger", "stat": "edge"}),
    ("move", {"move": "secure_an_advantage", "stat": "wits"}),
    ("move", {"move": "gather_information"}),
    ("move", {"move": "pay_the_price"}),
    ("lose_momentum", {"amount": 3}),
    ("sacrifice_resources", {"amount": 2}),
    ("endure_harm", {"amount": 2}),
    ("endure_stress", {"amount": 3, "resist": True}),
    ("companion_takes_a_hit", {"amount": 2}),
    ("withstand_damage", {"amount": 3}),
    ("withstand_damage", {"amount": 3, "asset": "Skiff"}),
    ("heal", {"stats": ["iron", "wits"]}),
    ("hearten", {}),
    ("resupply", {"stat": "shadow"}),
    ("repair", {"stat": "wits", "situation": "anchor"}),
    ("mark_legacy", {"track": "bonds", "mark": 7}),
    ("advance", {"purchase": "upgrade"}),
]


@settings(max_examples=60, deadline=None)
@given(
    health=st.integers(0, 5),
    spirit=st.integers(0, 5),
    supply=st.integers(0, 5),
    impacts=st.lists(st.sampled_from(IMPACTS), unique=True, max_size=3),
    momentum=st.integers(-6, 7),
    turns=st.lists(st.tuples(st.integers(0, len(TURNS) - 1), st.integers(0, 2**32)), max_size=6),
)
def test_a_session_loop_keeps_the_sheet_valid(
    health: int,
    spirit: int,
    supply: int,
    impacts: list[str],
    momentum: int,
    turns: list[tuple[int, int]],
) -> None:
    s = sheet(
        health=health,
        spirit=spirit,
        supply=supply,
        impacts=impacts,
        momentum=momentum,
        experience=4,
        assets=[SHIP, SKIFF, PARROT],
    )
    for index, seed in turns:
        kind, given = TURNS[index]
        try:
            params = RULES.roll_params(s, kind, given)
            resolution = resolve_roll("sundered_isles", kind, params, seed=seed)
        except InvalidParameter:
            continue  # e.g. advance without the experience
        for _ in range(6):  # the player takes the first option until nothing is left open
            pending = RULES.choices(kind, params, resolution)
            if not pending:
                break
            params = {**params, **{c.param: c.options[0].value for c in pending}}
            resolution = resolve_roll("sundered_isles", kind, params, seed=seed)
        assert RULES.choices(kind, params, resolution) == []
        s = RULES.apply(s, resolution).sheet
        assert RULES.validate(s.model_dump(mode="json")) == s
        assert -6 <= s.momentum <= s.momentum_max


def test_unknown_track_names_and_assets() -> None:
    with pytest.raises(UnknownError) as err:
        sheet(assets=[SHIP]).asset("Ghost")
    assert err.value.field == "params.asset"


def test_a_sheet_built_from_models_and_a_named_companion() -> None:
    cat = Asset(name="Tom", category="companion", health_max=4, health=3)
    s = Sheet.model_validate({"stats": STATS, "assets": [Asset.model_validate(PARROT), cat]})
    assert field_of(lambda: RULES.roll_params(s, "companion_takes_a_hit", {"amount": 1})) == (
        "params.asset"  # two companions: name one
    )
    params = RULES.roll_params(s, "companion_takes_a_hit", {"amount": 1, "asset": "Tom"})
    assert params["companion_health"] == 3


def test_the_sheet_keeps_its_own_ranges_whatever_it_is_given() -> None:
    # A resolution built by hand (an old journal row, another client): marking an impact lowers
    # momentum to the new max even when no change says so, and an empty legacy mark does nothing.
    s = sheet(momentum=10)
    hand = Resolution(
        system="sundered_isles",
        kind="move",
        outcome="weak_hit",
        citation=get_move("face_death").citation,
        changes=[
            StateChange(target="doomed", set_to=1),
            StateChange(target="legacy:quests", delta=0),
            StateChange(target="spirit", delta=3),
        ],
    )
    update = RULES.apply(s, hand)
    assert (update.sheet.momentum, update.sheet.impacts) == (9, ["doomed"])
    assert [(c.target, c.delta) for c in update.applied] == [
        ("doomed", None),
        ("impacts", 1),
        ("momentum", -1),
    ]
