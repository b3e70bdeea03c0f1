"""The lead: the first sentence of a narration, written by code from the engine's outcome
(service/narrator/lead.py), which the model continues."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prompts import RenderedPrompt
from rules.catalog import load_tables
from rules.registry import resolve_roll
from service.narrator.guard import DRAWS, Expectation, check_narration, expectation_from
from service.narrator.lead import (
    OUTCOME_HINTS,
    NarrationPlan,
    attempt_words,
    lead_sentence,
    narration_plan,
)
from service.narrator.model import Calls
from service.narrator.runner import Done, Event, Token, guard_for, narrate
from tests.service.narrator.test_guard import ENGINE_OUTCOMES, engine_outcomes
from tests.service.narrator.test_runner import FakeModel


@pytest.mark.parametrize(
    ("said", "attempt"),
    [
        ("I leap from the rigging to the enemy deck", "leap from the rigging to the enemy deck"),
        ("I try to convince the harbourmaster to let us dock", "convince the harbourmaster to let us dock"),
        ("I beguile the curator into showing me the vault", "beguile the curator into showing you the vault"),
        ("I draw my blade.", "draw your blade"),
        # "mine" is the player's standing alone; a mine named as a place stays one (the
        # forty-fourth words were led "dig through the collapsed yours shaft")
        ("I take back what is mine", "take back what is yours"),
        ("I greet a friend of mine", "greet a friend of yours"),
        ("I dig through the collapsed mine shaft for the ledger", "dig through the collapsed mine shaft for the ledger"),
        ("I search the mine for the lost lamp", "search the mine for the lost lamp"),
        ("I climb down into the old mine", "climb down into the old mine"),
        ("sneak past the guards", "sneak past the guards"),
        ("Try to pick the lock", "pick the lock"),
        # not one first-person attempt in the present: no words of the player's in the lead
        ("Kell climbs the wall", None),
        ("I climbed the wall", None),
        ("I will wait. Then I strike.", None),
        ("Is the harbour guarded?", None),
        ("I'd rather run", None),
        ("", None),
        (None, None),
    ],
)  # fmt: skip
def test_the_players_words_become_an_attempt_said_to_you(
    said: str | None, attempt: str | None
) -> None:
    assert attempt_words(said) == attempt


@pytest.mark.parametrize(
    ("said", "attempt"),
    [
        ("Kell steadies the frightened crew", "steady the frightened crew"),
        ("Kell soothes the weeping refugees", "soothe the weeping refugees"),
        ("Kell comforts the frightened stowaway", "comfort the frightened stowaway"),
        ("Kell pushes the cart up the ramp", "push the cart up the ramp"),
        ("Kell catches the rope", "catch the rope"),
        ("Kell goes to the gate", "go to the gate"),
        ("I climb the wall", "climb the wall"),
        # not the character's own present verb, or another's pronoun to turn: told as before
        ("Kell helps the old man to his feet", None),
        ("Kell climbed the wall", None),
        ("Kell was here", None),
        ("Kell has the key", None),
        ("Kell quickly climbs the wall", None),
        ("Kella climbs the wall", None),
        ("Ash climbs the wall", None),
    ],
)  # fmt: skip
def test_the_characters_own_words_in_the_third_person_are_said_to_you(
    said: str, attempt: str | None
) -> None:
    # the character is addressed as "you" (narration_next.yaml: 'told ... as "you"'): their
    # name and a present verb are the attempt said to them, as "I climb" is
    assert attempt_words(said, "Kell") == attempt
    assert attempt_words(said) == (attempt if said.startswith("I ") else None)


def test_a_third_person_attempt_is_led_said_to_you() -> None:
    plan = narration_plan(
        system_name="Sundered Isles", character="Kell", action="Kell steadies the frightened crew",
        resolution=resolve_roll(*STRONG_FACE_DANGER[:3], dice=STRONG_FACE_DANGER[3]),
        expect=_after_lead(*STRONG_FACE_DANGER, "Kell steadies the frightened crew")[1],
        context="",
    )  # fmt: skip
    assert plan.lead == "You steady the frightened crew, and it works."


def test_each_side_of_an_outcome_has_its_lead() -> None:
    # The narration prompt's rule: "a miss is a failure or a dramatic turn for the worse, a weak
    # hit is success at a cost, a strong hit is success"; "On a match ... make the result extreme
    # or add a twist".
    act = "I force the hatch"
    assert lead_sentence("success", False, act) == "You force the hatch, and it works."
    assert (
        lead_sentence("success", True, act)
        == "You force the hatch, and it works better than you hoped."
    )
    assert lead_sentence("mixed", False, act) == "You force the hatch, but not without a cost."
    assert lead_sentence("failure", False, "I climb the wall") == (
        "You try to climb the wall, but it goes wrong."
    )
    assert (
        lead_sentence("failure", True, act)
        == "You try to force the hatch, and it goes badly wrong."
    )
    assert lead_sentence("failure", False, "Kell forces the hatch") == "It goes wrong."
    # a tie takes no side ("neither side wins"): the model narrates it whole
    assert lead_sentence("neutral", False, act) is None


@pytest.mark.parametrize(
    ("action", "lead"),
    [
        # Go Forth: "Two characters oppose each other. Both roll — higher total wins."; a race
        # lost is the rival there first
        ("I race the guild's runner to the docks",
         "You try to race the guild's runner to the docks, but the guild's runner gets there first."),
        ("I race the twins to the ferry",
         "You try to race the twins to the ferry, but the twins get there first."),
        ("I race the tide to the harbour",
         "You try to race the tide to the harbour, but the tide gets there first."),
        # ... a struggle for a thing lost is the thing kept
        ("I wrestle the guard for the key",
         "You try to wrestle the guard for the key, but the guard keeps hold of it."),
        ("I arm-wrestle the orc for the map",
         "You try to arm-wrestle the orc for the map, but the orc keeps hold of it."),
        # ... a failed opening is the thing shut (sundered_isles.md: "On a miss, you fail")
        ("I force the rusted hatch open", "You try to force the rusted hatch open, but it does not give."),
        ("I pick the lock on the Regent's cabinet",
         "You try to pick the lock on the Regent's cabinet, but it does not give."),
        # others keep the plain lead
        ("I arm-wrestle the dwarf champion", "You try to arm-wrestle the dwarf champion, but it goes wrong."),
        ("I outrun the hounds to the abbey wall",
         "You try to outrun the hounds to the abbey wall, but it goes wrong."),
        ("I search the crypt for the signet", "You try to search the crypt for the signet, but it goes wrong."),
        # an opening's verb at no thing that shuts
        ("I batter the orc with my shield", "You try to batter the orc with your shield, but it goes wrong."),
        ("I smash the skeleton's skull", "You try to smash the skeleton's skull, but it goes wrong."),
    ],
)  # fmt: skip
def test_a_failed_race_opening_or_struggle_is_led_as_what_failing_is(
    action: str, lead: str
) -> None:
    # Of the 76 contradictions that reached the player in runs 50-62 and the seventeenth to
    # thirty-third words, 21 told such a failure won after "but it goes wrong": "the courier's
    # horse ... runs into a tree", "the lid is no longer secure", "unable to hold the key".
    assert lead_sentence("failure", False, action) == lead
    # a match keeps its own lead: the model is asked for a twist there
    assert (lead_sentence("failure", True, action) or "").endswith("and it goes badly wrong.")


def test_a_graze_is_led_as_a_graze_and_a_clean_kill_after_it_is_caught() -> None:
    # Go Forth: "If you miss: You Graze, dealing your Effort modifier in damage." Led as "it goes
    # wrong", run 26's model told it "The arrow goes through the wolf's body, causing it to fall
    # down and die".
    lead, expect = _after_lead(*GO_FORTH_GRAZE, "I loose an arrow at the wolf")
    assert expect.outcome == "graze"
    assert lead == "You loose an arrow at the wolf, but it is only a graze."
    plan = narration_plan(
        system_name="Go Forth", character="Kell", action="I loose an arrow at the wolf",
        resolution=resolve_roll(*GO_FORTH_GRAZE[:3], dice=GO_FORTH_GRAZE[3]), expect=expect,
        context="",
    )  # fmt: skip
    assert plan.lead == lead
    assert OUTCOME_HINTS["graze"] in plan.prompt("").user
    kill = "The arrow goes through the wolf's body, causing it to fall down and die."
    assert "outcome" in check_narration(f"{lead} {kill}", expect).failed
    scratch = "The wolf yelps, a red line along its flank, and bares its teeth at you."
    assert check_narration(f"{lead} {scratch}", expect).passed


@pytest.mark.parametrize(
    ("action", "lead"),
    [
        ("I sprint across the collapsing bridge",
         "You sprint across the collapsing bridge, but you make only a little headway."),
        ("I break down the door", "You break down the door, but you make only a little headway."),
        ("I hurl my javelin at the fleeing raider",
         "You hurl your javelin at the fleeing raider, but it is only a graze."),
        ("I attack the skeleton", "You attack the skeleton, but it is only a graze."),
        ("I kill the troll", "You kill the troll, but it is only a graze."),
        # (the forty-seventh words, led as headway before)
        ("I let fly a dart at the fleeing cutpurse",
         "You let fly a dart at the fleeing cutpurse, but it is only a graze."),
        ("I bring my quarterstaff around", "You bring your quarterstaff around, but it is only a "
         "graze."),
        ("I dart past the guards", "You dart past the guards, but you make only a little headway."),
    ],
)  # fmt: skip
def test_a_graze_at_a_task_is_led_as_little_headway(action: str, lead: str) -> None:
    # go_forth.txt: Effort is "Used for things that take time (breaking a door, translating
    # runes, killing a monster)"; "If you miss: You Graze, dealing your Effort modifier" is an
    # attack's. A model's proposal of effort for "I sprint across the collapsing bridge" (run 60),
    # led as a graze, came back with a foe that was not there.
    led, expect = _after_lead(*GO_FORTH_GRAZE, action)
    assert led == lead
    plan = narration_plan(
        system_name="Go Forth", character="Kell", action=action,
        resolution=resolve_roll(*GO_FORTH_GRAZE[:3], dice=GO_FORTH_GRAZE[3]), expect=expect,
        context="",
    )  # fmt: skip
    band = "graze" if lead.endswith("graze.") else "headway"
    assert OUTCOME_HINTS[band] in plan.prompt("").user


ACTIONS = st.sampled_from(
    ["I force the rusted hatch open", "I swing my axe at the bandit", "sneak past the patrol",
     "I try to charm the doorman", "Kell climbs the wall", "I dodge", ""]
)  # fmt: skip


@settings(max_examples=120, deadline=None)
@given(data=st.data(), action=ACTIONS)
def test_a_lead_never_fails_the_guard_for_any_outcome_of_any_system(
    data: st.DataObject, action: str
) -> None:
    # The lead is the engine's outcome said plainly: the guard must pass it alone, for every
    # outcome every roll kind produces, with or without the player's words in it.
    system, kind = data.draw(st.sampled_from(sorted(ENGINE_OUTCOMES)))
    outcome = data.draw(st.sampled_from(sorted(engine_outcomes()[(system, kind)])))
    resolution = next(
        r for seed in range(400)
        if (r := _example(system, kind, seed)) is not None and r.outcome == outcome
    )  # fmt: skip
    expect = expectation_from(resolution, character="Kell", action=action)
    lead = lead_sentence(expect.polarity, bool(expect.match), action)
    if lead is None:
        return
    report = check_narration(lead, expect)
    assert report.passed, (system, kind, outcome, lead, report.reason())


def _example(system: str, kind: str, seed: int):  # type: ignore[no-untyped-def]
    from rules.registry import get_system

    examples = get_system(system).roll_kind(kind).examples
    return resolve_roll(system, kind, examples[seed % len(examples)], seed=seed)


MISS = expectation_from(
    resolve_roll("sundered_isles", "action", {"stat": "iron", "stat_value": 1}, dice=[1, 9, 8])
)
LEAD = "You try to force the hatch, but it goes wrong."


def _run(model: FakeModel, *, stream: bool, asked: list[str] | None = None) -> list[Event]:
    def prompt(correction: str) -> RenderedPrompt:
        if asked is not None:
            asked.append(correction)
        return RenderedPrompt(system="s", user="u")

    async def go() -> list[Event]:
        return [
            e async for e in narrate(
                model=model, prompt=prompt,
                offline="(offline)", check=guard_for(MISS), calls=Calls(), stream=stream,
                lead=LEAD, most_sentences=2,
            )
        ]  # fmt: skip

    return asyncio.run(go())


@pytest.mark.parametrize("stream", [True, False])
def test_the_lead_comes_first_a_repeat_of_it_is_dropped_and_two_sentences_follow(
    stream: bool,
) -> None:
    # A real model repeated the first sentence it was given, and ran on past the one asked for.
    model = FakeModel(
        [f"{LEAD} ", "The hinge ", "snaps shut. ", "Rust rains down. ", "A bell rings far off."]
    )
    events = _run(model, stream=stream)
    done = events[-1]
    assert isinstance(done, Done) and done.narrated.narrator == "model"
    assert done.text == f"{LEAD} The hinge snaps shut. Rust rains down."
    assert "".join(e.text for e in events if isinstance(e, Token)).strip() == done.text
    assert model.closed_early is stream  # a stream is closed once two sentences are in


def test_the_model_words_are_judged_after_the_lead() -> None:
    # "a miss is a failure": the model's words telling a success after a miss's lead are refused
    # (both tries), and the offline narration is told.
    asked: list[str] = []
    done = _run(FakeModel(["You succeed."], ["You succeed again."]), stream=False, asked=asked)[-1]
    assert isinstance(done, Done) and done.narrated.narrator == "offline"
    assert done.text == "(offline)" and len(done.narrated.rejected) == 2
    # the retry asks for another next sentence: "the narration again" made a real model write
    # the lead again and nothing more (run 13)
    assert asked[0] == "" and "different next sentence" in asked[1]
    assert "narration again" not in asked[1]


def _after_lead(
    system: str, kind: str, params: dict, dice: list[int], action: str, character: str = "Kell"
):  # type: ignore[no-untyped-def,type-arg]
    resolution = resolve_roll(system, kind, params, dice=dice)
    expect = expectation_from(resolution, character=character, action=action)
    lead = lead_sentence(
        expect.polarity, bool(expect.match), action,
        draw=expect.outcome in DRAWS, graze=expect.outcome == "graze",
    )  # fmt: skip
    assert lead is not None
    return lead, expect.model_copy(update={"lead": lead})


STRONG_FACE_DANGER = ("sundered_isles", "move", {"move": "face_danger", "stat": "edge", "stat_value": 2}, [6, 1, 3])  # fmt: skip
WEAK_FACE_DANGER = ("sundered_isles", "move", {"move": "face_danger", "stat": "edge", "stat_value": 2}, [3, 4, 7])  # fmt: skip
GO_FORTH_SUCCESS = ("go_forth", "check", {"roll_bonus": 3, "tn": 12}, [15])
GO_FORTH_FAILURE = ("go_forth", "check", {"roll_bonus": 3, "tn": 12}, [2])
GO_FORTH_GRAZE = ("go_forth", "effort", {"roll_bonus": 1, "effort_bonus": 2, "effort_die": 6, "tn": 15}, [3, 6])  # fmt: skip
STORYTELLER_SUCCESS = ("storyteller", "simple", {"pool": 5, "difficulty": 6}, [9, 8, 5, 3, 6])
STORYTELLER_FAILURE = ("storyteller", "simple", {"pool": 5, "difficulty": 7}, [4, 2, 7, 1, 6])
# go_forth.txt: "Both roll — higher total wins."; equal totals are the engine's ruling
# contest_tie_status_quo: "In a Contest neither side wins a tie".
GO_FORTH_TIE = ("go_forth", "contest", {"roll_bonus": 1, "opponent_bonus": 1}, [1, 1])
# Elegy: "On a miss, you get hungrier and the power is activated, but not without consequences."
ELEGY_POWER_MISS = ("elegy", "power", {"stat": "force", "stat_value": 2, "blood": 3}, [9, 8])


CONTINUATIONS = [
        # A real model's continuations (bench/real_model.py, run 8), after the code's lead. The
        # continuation prompt: "Never say what "you" do next, say, decide, think or feel".
        (WEAK_FACE_DANGER, "I try to convince the harbourmaster to let us dock",
         "You explain to the harbourmaster that your ship's provisions are low.", "player_agency"),
        (STRONG_FACE_DANGER, "I tear the iron gate off its hinges",
         "You quickly adjust the hinges to secure the gate properly.", "player_agency"),
        (STRONG_FACE_DANGER, "I hide in the fog bank and wait for the cutter",
         "Kell carefully scanned the fog bank, looking for a way out.", "player_agency"),
        (STRONG_FACE_DANGER, "I charm the doorman into letting me pass",
         "You enter the bar, and a warm smile spreads across the doorman's face.", "player_agency"),
        # "a strong hit is success": what befalls you on a success contradicts it
        (GO_FORTH_SUCCESS, "I climb the cliff to the watchtower",
         "The cliff is steep, and you lose balance. You fall and break your leg.", "outcome"),
        # what happens told against the lead: the model's words are read alone (run 9's dev run)
        (STRONG_FACE_DANGER, "I hide in the fog bank and wait for the cutter",
         "The fog bank suddenly erupted with a violent storm, sending you flying and knocking you "
         "unconscious.", "outcome"),
        # a feeling told without "you feel"
        (GO_FORTH_SUCCESS, "I climb the cliff to the watchtower",
         "The cliff, now a symbol of pride and accomplishment for Kell, casts long shadows.",
         "player_agency"),
        # run 9 (judged, then read): a feeling after "you feel", "he" for the character, a graze
        # told as a clean miss, the quarry aware of you, the sought thing appearing, a setback
        (ELEGY_POWER_MISS, "I call on the blood to still the hound",
         "The hound roars, as you feel your heart race with fear and determination.",
         "player_agency"),
        # go_forth.txt: "If you miss: You Graze, dealing your Effort modifier in damage"
        (GO_FORTH_GRAZE, "I loose an arrow at the wolf",
         "The arrow flies high but misses the wolf entirely, hitting a nearby tree instead.",
         "outcome"),
        (STORYTELLER_SUCCESS, "I shadow the ghoul through the market",
         "The ghoul, sensing your presence, shifts its gaze.", "outcome"),
        (STORYTELLER_FAILURE, "I search the haven for the hidden letter",
         "As you search the haven, the hidden letter starts to appear in a pattern.", "outcome"),
        (GO_FORTH_SUCCESS, "I dodge the falling portcullis",
         "The portcullis slams shut behind you, trapping you in the dark.", "outcome"),
        # run 10: your feeling seen by another; a miss at persuading told as the other giving way
        (STORYTELLER_SUCCESS, "I stare down the rival Kindred",
         "The rival Kindred glances down at you, sensing your fear.", "player_agency"),
        (GO_FORTH_FAILURE, "I try to sweet-talk the quartermaster into letting me go",
         "The quartermaster hesitates, then nods reluctantly.", "outcome"),
        # ... and what it let be: the attempt told again as failing, a look at the world
        (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
         "You try to open the door, but it's locked tight.", None),
        (WEAK_FACE_DANGER, "I beguile the curator into showing me the vault",
         "You observe the curator's disinterest as you examine the vault's locks.", None),
        # the world responds, you perceive, and what befalls you on a failure: all let be
        (GO_FORTH_SUCCESS, "I force the shrine's stone door",
         "You look up as a faint glimmer of light spills from within the shrine.", None),
        (GO_FORTH_FAILURE, "I slip through the window before the guard turns",
         "You fall off the edge of the building and hit the ground with a loud thud.", None),
        (STRONG_FACE_DANGER, "I question the dock workers about the missing ship",
         "The dock workers agree to share what they saw.", None),
        (WEAK_FACE_DANGER, "I study the fort's walls from the dunes",
         "As you study the walls, you notice a faint light shining above the fort.", None),
        (WEAK_FACE_DANGER, "I climb the crumbling sea wall",
         "You stumble on the last step, your legs giving way as you try to balance.", None),
        (GO_FORTH_FAILURE, "I force the rusted hatch open",
         "The hatch, despite your effort, remains stubbornly sealed.", None),
        # run 11 (judged, then read): acts past the attempt in other words, and what is not one:
        # a clause set during the attempt, another's demand, a mood of the air or a town
        (WEAK_FACE_DANGER, "I convince the harbourmaster to let us dock",
         "You and your companions carefully negotiate with the harbourmaster.", "player_agency"),
        (STRONG_FACE_DANGER, "I dodge the falling portcullis",
         "As you step over the open hole, you notice a small village.", "player_agency"),
        (GO_FORTH_SUCCESS, "I force the shrine's stone door",
         "The temperature drops as you enter the shrine.", "player_agency"),
        (WEAK_FACE_DANGER, "I sneak aboard the moored galleon",
         "As you approach the ship, you notice a small group of pirates lurking nearby.", None),
        (GO_FORTH_SUCCESS, "I force the shrine's stone door",
         "As you open the door, it is revealed to be a room filled with ancient artifacts.", None),
        (GO_FORTH_FAILURE, "I try to sweet-talk the quartermaster into letting me go",
         "The quartermaster refuses and instead demands that you return to the island.", None),
        (WEAK_FACE_DANGER, "I draw my cutlass as the boarders come over the rail",
         "As the boarders gather at the rail, a sense of unease fills the air.", None),
        (GO_FORTH_SUCCESS, "I sprint across the collapsing bridge",
         "A wave of panic sweeps through the town as people realize the bridge has failed.", None),
        # run 12: taken somewhere on a success, trying again, a place found and gone into
        (STRONG_FACE_DANGER, "I tear the iron gate off its hinges",
         "The door swings open, and you find yourself in an unexpected underground cave.",
         "player_agency"),
        (GO_FORTH_FAILURE, "I force the rusted hatch open",
         "The cold air stings your skin as you reach for the handle again.", "player_agency"),
        (WEAK_FACE_DANGER, "I sneak aboard the moored galleon",
         "You find the captain's cabin, where you can see the deck.", "player_agency"),
        # run 13: what is managed past the attempt (getting clear is the attempt's own end)
        (STRONG_FACE_DANGER, "I hide in the fog bank and wait for the cutter",
         "As the cutter approaches, you manage to dodge and make it through the fog bank.",
         "player_agency"),
        (GO_FORTH_SUCCESS, "I dodge the falling portcullis",
         "The portcullis drops, and you manage to escape.", None),
        # run 14: coming across a place while tracking is finding it
        (GO_FORTH_SUCCESS, "I track the goblins through the marsh",
         "You come across a small clearing, and the goblins retreat into the trees.", None),
        # ... and being put somewhere by a failure, or surrounded, is what befalls you
        (GO_FORTH_FAILURE, "I cut the mooring lines",
         "You find yourself in the cold water, the hull drifting away.", None),
        (WEAK_FACE_DANGER, "I cut the mooring lines",
         "You find yourself surrounded by a dense fog.", None),
        # going on past the attempt, framed like it (run 11; the attempt framed: MOODS_AND_TURNS)
        (WEAK_FACE_DANGER, "I scale the cathedral's bell tower",
         "As you descend the spiral staircase, the cool breeze picks up.", "player_agency"),
        # run 17: a second act after one let be; a blow the player did not strike, framing the
        # world's answer (Elegy: "On a miss, you get hungrier and the power is activated, but not
        # without consequences")
        (GO_FORTH_SUCCESS, "I swing my axe at the bandit",
         "You hear the bandit's screams and dash back to the edge of the clearing.",
         "player_agency"),
        (GO_FORTH_SUCCESS, "I dodge the falling portcullis",
         "You hear a low rumble from the dungeon behind you and quickly pull out your longbow.",
         "player_agency"),
        (ELEGY_POWER_MISS, "I call on the blood to still the hound",
         "As you strike at the hound's head, a surge of blood erupts from its throat.",
         "player_agency"),
        # ... and what is not: the waves' own verbs, the player's own blow framing the answer
        (GO_FORTH_SUCCESS, "I swim for the wreck",
         "You watch the waves rise and fall away behind the reef.", None),
        (GO_FORTH_SUCCESS, "I swing my axe at the bandit",
         "As you strike at the bandit, his shield splinters.", None),
        # run 17: a failed search told as a clue leading to what was sought; going unseen told as
        # the one followed turning around (Storyteller: "Every die a player rolls that comes up
        # equal to or greater than the difficulty, is a success"); a fight's foe turning to flee
        # is let be
        (STORYTELLER_FAILURE, "I search the haven for the hidden letter",
         "As you search the haven, you stumble upon a cryptic clue that points to the hidden "
         "letter.", "outcome"),
        (STORYTELLER_SUCCESS, "I shadow the ghoul through the market",
         "The ghoul turns around and scurries away, its eyes wide with fear.", "outcome"),
        (STORYTELLER_SUCCESS, "I swing my axe at the ghoul",
         "The ghoul turns around and scurries away, its eyes wide with fear.", None),
        # run 18: a wound the player did not deal, framing the answer
        (ELEGY_POWER_MISS, "I call on the blood to still the hound",
         "As you draw blood from the hound, its howl echoes off the stones.", "player_agency"),
        # runs 19 and 20: what the player meant told as so on a miss; a lost attack told as the
        # blow landing; a power that Elegy activates on a miss ("the power is activated, but not
        # without consequences") told as not enough; being welcomed; the place the player asked
        # for; a door thrown open on guards (a danger, not the lock picked)
        (GO_FORTH_FAILURE, "I cut the mooring lines and let the galleon drift",
         "You realize that the galleon is now adrift.", "outcome"),
        (GO_FORTH_FAILURE, "I attack the skeleton guarding the reliquary",
         "You stumble and fall, hitting the skeleton on the head.", "outcome"),
        (ELEGY_POWER_MISS, "I call on the blood to still the hound",
         "The blood flows through your veins, but it's not enough to stop the hound.", "outcome"),
        (STRONG_FACE_DANGER, "I charm the doorman into letting me pass",
         "You receive a warm welcome from the doorman.", None),
        (WEAK_FACE_DANGER, "I beguile the curator into showing me the vault",
         "You find yourself standing in the vault, among old relics.", None),
        (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
         "You hear a loud crash as the door swings open, revealing a group of guards.", None),
        # ... but the ledge reached for, and a place not asked for, are still the character's
        (GO_FORTH_FAILURE, "I balance along the narrow ledge",
         "As you fall, you instinctively reach for the ledge.", "player_agency"),
]  # fmt: skip


def test_the_session_summarys_turn_label_is_no_narration() -> None:
    # A real model copied the summary's "T2:" into a narration, after the lead.
    lead, expect = _after_lead(*WEAK_FACE_DANGER, "I sneak aboard the moored galleon")
    report = check_narration(f"{lead} T2: As you sneak aboard, the captain notices you.", expect)
    assert report.failed == ["form"]


def test_a_narration_in_the_first_person_is_no_narration_to_you() -> None:
    # The narration prompt: 'Call the player's character "you"'. A real model narrated a tie
    # (told whole, no lead) as the character: "... and I paid him the price he wanted" (run 9).
    tie = resolve_roll("go_forth", "contest", {"roll_bonus": 1, "opponent_bonus": 1}, dice=[1, 1])
    expect = expectation_from(tie, character="Kell", action="I haggle with the dwarf")
    said = "The dwarf ignored my haggling, and I paid him the price he wanted."
    assert check_narration(said, expect).failed == ["form"]
    # an NPC's "I", in quotes, is speech
    quoted = "The dwarf folds his arms. 'You think I'd take less?' Neither of you gives way."
    assert check_narration(quoted, expect).passed


MOODS_AND_TURNS = [
        # run 11: a mood told by its form, not named from a list of emotions (the prompts: "Never
        # say what "you" do next, where "you" go, or what "you" say, decide, think or feel")
        (STRONG_FACE_DANGER, "I swim for the wreck before the tide turns",
         "Kell looks up at the moon, feeling confused and disoriented.", "player_agency"),
        (STORYTELLER_FAILURE, "I leap across the rooftops",
         "You fall and land on the ground, feeling a mix of surprise and disappointment.",
         "player_agency"),
        (STRONG_FACE_DANGER, "I pick the captain's pocket",
         "Kell looks at the empty pocket, unsure what to do next.", "player_agency"),
        (STORYTELLER_FAILURE, "I listen at the door",
         "You sense its presence, and a panic begins to set in.", "player_agency"),
        # a success told as being turned on: noticed while shadowing, menaced after a stare-down
        # (Storyteller: "Every die a player rolls that comes up equal to or greater than the
        # difficulty, is a success": these rolls have successes, the character succeeds)
        (STORYTELLER_SUCCESS, "I shadow the ghoul through the market",
         "The ghoul turns around and stares at you, its eyes widening.", "outcome"),
        (STORYTELLER_SUCCESS, "I stare down the rival Kindred",
         "The rival Kindred raises a dark, menacing shadow over you.", "outcome"),
        # run 12: a success told as being turned on, or the other side ready to strike; a miss
        # told as the other side giving way; a graze as a clean hit (go_forth.txt: "If you
        # miss: You Graze, dealing your Effort modifier in damage")
        (STORYTELLER_SUCCESS, "I shadow the ghoul through the market",
         "The ghoul turns its head towards you, an unsettling expression on its face.", "outcome"),
        (STORYTELLER_SUCCESS, "I vault the table and strike at the bandit chief",
         "The bandit chief jumps back in surprise and draws his sword, ready to strike.",
         "outcome"),
        (GO_FORTH_FAILURE, "I arm-wrestle the orc for the map",
         "The orc's eyes widen, and he retreats into his shadow.", "outcome"),
        (GO_FORTH_GRAZE, "I loose an arrow at the wolf",
         "The arrow flies straight into the wolf's eye, and it screeches.", "outcome"),
        # run 13: the other side unharmed and at you after a hit; a mood caused
        (GO_FORTH_SUCCESS, "I swing my axe at the bandit",
         "The bandit lunges at you, and you must choose to either dodge or block the attack.",
         "outcome"),
        (STORYTELLER_SUCCESS, "I vault the table and strike at the bandit chief",
         "The chief grabs a nearby weapon. He lunges forward, aiming for your head.", "outcome"),
        (WEAK_FACE_DANGER, "I look around the hold for the stolen charts",
         "A shadowy figure moves in the corner of the hold, making you nervous.",
         "player_agency"),
        # run 14: harm told in the passive on a success, the character's thoughts after a cost
        (STORYTELLER_SUCCESS, "I shadow the ghoul through the market",
         "You are suddenly attacked by the ghoul, and you are wounded in your chest.", "outcome"),
        (WEAK_FACE_DANGER, "I study the fort's walls from the dunes",
         "A sandstorm sweeps through, leaving you gasping for breath and wondering how to escape.",
         "player_agency"),
        # ... and what is not: another's uncertainty, being seen as someone
        (STRONG_FACE_DANGER, "I question the dock workers about the missing ship",
         "You realize that they seem uncertain about what happened.", None),
        (STRONG_FACE_DANGER, "I break the blockade",
         "The Governor's men salute; you are seen as a hero of the blockade now.", None),
        # the next act decided as the only one
        (GO_FORTH_FAILURE, "I read the reef's currents",
         "The currents are too strong. You realize that your only option is to swim.",
         "player_agency"),
        # runs 15 and 16: the other side arming itself after a spectacular strike; a failed
        # lock-pick told as the door opening; a tie told as a loss; a mood left behind
        (STORYTELLER_SUCCESS, "I vault the table and strike at the bandit chief",
         "The bandit chief, startled by the sudden attack, raises his sword and draws his weapon.",
         "outcome"),
        (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
         "You hear a loud bang as the door opens, and the armoury lies dark.", "outcome"),
        (GO_FORTH_TIE, "I haggle with the dwarf over the price",
         "You lose because the dwarf will not budge on the price.", "outcome"),
        (GO_FORTH_TIE, "I haggle with the dwarf over the price",
         "The dwarf remains obstinate, and you are left feeling disappointed.", "player_agency"),
        (STRONG_FACE_DANGER, "I sail into port",
         "The quays are busy with cargo, and you was excited to begin.", "player_agency"),
        # ... and a door thrown open from the other side is a danger, not the lock picked (run 12)
        (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
         "You hear a loud crash as the door flies open, revealing guards in a circle.", None),
        # run 16: the attempt framed in other words while the world answers, and being spared,
        # are not acts (going on past it is: CONTINUATIONS)
        (WEAK_FACE_DANGER, "I climb the crumbling sea wall",
         "As you ascend, the wind picks up stronger than ever.", None),
        (STORYTELLER_SUCCESS, "I hack the security terminal",
         "As you navigate the encrypted labyrinth, the room hums with the fans.", None),
        (STRONG_FACE_DANGER, "I leap from the rigging to the enemy deck",
         "You narrowly avoid being cut by the enemy's grappling hook.", None),
        # run 17: feelings told as surprise and as composure kept, fear by a pounding heart with
        # a realisation; a placeholder and "the player" in a spark's words are the prompt's
        (STRONG_FACE_DANGER, "I hide in the fog bank and wait for the cutter",
         "You are surprised by the unexpected success.", "player_agency"),
        (WEAK_FACE_DANGER, "I draw my cutlass as the boarders come over the rail",
         "The boarders attack at once, but you manage to stay calm.", "player_agency"),
        (GO_FORTH_FAILURE, "I read the reef's currents",
         "You feel your heart pounding in your chest as you realize the currents are too strong.",
         "player_agency"),
        # run 18: a hiding success told as being watched ("a strong hit is success", above)
        (STRONG_FACE_DANGER, "I hide in the fog bank and wait for the cutter",
         "You hear the cutter approaching and realize you're being watched by pirates.",
         "outcome"),
        # trying again (run 17)
        (GO_FORTH_FAILURE, "I loose an arrow at the wolf",
         "The wolf roars menacingly, sending you back to try again.", "player_agency"),
        # run 21: the next act set as the only one; fear told by a chill after a won stare-down
        (GO_FORTH_FAILURE, "I read the reef's currents",
         "You are trapped in a narrow passage, your only escape being to swim down.",
         "player_agency"),
        (STORYTELLER_SUCCESS, "I stare down the rival Kindred",
         "You feel a chill run down your spine as the rival Kindred's eyes narrow.",
         "player_agency"),
        # (a heart pounding alone is the body's: run 8)
        (GO_FORTH_SUCCESS, "I sprint across the collapsing bridge",
         "The air rushes by, and your heart is pounding in your chest.", None),
        # sensations and the world's moods are let be
        (STRONG_FACE_DANGER, "I climb the crumbling sea wall",
         "Spray lashes the stones, and you feel the wall shudder under the surf.", None),
        (STRONG_FACE_DANGER, "I climb the crumbling sea wall",
         "Gulls wheel overhead, the air feeling colder near the top.", None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("roll", "action", "words", "flagged", "whole"),
    [(*case, False) for case in CONTINUATIONS] + [(*case, True) for case in MOODS_AND_TURNS],
)
def test_after_the_lead_the_character_does_not_act(
    roll: tuple,  # type: ignore[type-arg]
    action: str,
    words: str,
    flagged: str | None,
    whole: bool,
) -> None:
    lead, expect = _after_lead(*roll, action)
    report = check_narration(f"{lead} {words}", expect)
    assert report.failed == ([flagged] if flagged else []), report.reason()
    plain = expect.model_copy(update={"lead": None})
    if whole:  # a mood, being turned on: flagged in words told whole too (an outcome, a spark)
        assert (flagged in check_narration(words, plain).failed) if flagged else True
    else:  # with no lead, judged as before (the labelled sets' narrations)
        assert check_narration(f"{lead} {words}", plain).passed or flagged == "outcome"


def test_a_table_row_that_was_not_rolled_is_a_contradiction() -> None:
    # Elegy's Pay the Price: "Roll on the list below." ... "23–26. You are separated from
    # something or someone". A real model told the row "A trusted individual or community acts
    # against you" when the engine rolled 24 (run 11)
    spark = resolve_roll("elegy", "table", {"table": "pay_the_price"}, dice=[24])
    expect = expectation_from(spark, action="the hunter is closing in")
    assert expect.rows == ("You are separated from something or someone",)
    other = (
        "As you approach the hunter, your trust in the community is compromised, leading to a "
        "distrustful individual or community acting against you."
    )
    report = check_narration(other, expect)
    assert report.failed == ["outcome"] and "did not roll" in report.reason()
    rolled = (
        "The hunter's horn drives a wedge between you and your sister; you lose her in the dark."
    )
    assert check_narration(rolled, expect).passed


def test_a_table_event_befalls_the_character_who_does_not_act() -> None:
    # A spark turns rolled rows into an event; what the character does about it is the
    # player's: "You quickly gather your belongings and head to the deck of the ship" (run 12)
    spark = resolve_roll("sundered_isles", "table", {"table": "begin_a_session"}, dice=[25])
    expect = expectation_from(spark, action="a new session opens in port")
    assert expect.rows
    acting = "A familiar captain waves from the quay. You quickly gather your belongings."
    assert check_narration(acting, expect).failed == ["player_agency"]
    # the scene set, the rolled row's own words, what is seen: let be
    seen = "As you step into port, you notice a ship you recognize."
    assert check_narration(seen, expect).passed, check_narration(seen, expect).reason()
    # a scene has no attempt to approach in: going toward someone is the player's (run 13)
    toward = "A stranger watches the quay. As you approach this figure, he looks up."
    assert check_narration(toward, expect).failed == ["player_agency"]
    # the model speaking of its task (runs 12 and 14)
    for meta in (
        "A ship waits in port for you as the player.",
        "A storm! That's what the player described.",
        # run 17 (and runs 3 and 9, relabelled): "the player" told what to do; a placeholder
        "The hunter closes in, and the player must make a difficult choice.",
        "A new session opens in port. The captain, <name>, is setting the scene.",
        # run 18 (and run 6, relabelled): the prompt's data spoken of
        "The quay is loud with gulls. The table reveals an influential captain.",
        'You stand on the quay. The situation is described as "a new session opens in port."',
    ):
        assert check_narration(meta, expect).failed == ["form"], meta
    price = resolve_roll("sundered_isles", "table", {"table": "pay_the_price"}, dice=[12])
    row = expectation_from(price, action="Kell failed to slip past the patrol")
    assert row.rows == ("You face a tough choice",)
    assert check_narration("You face a tough choice.", row).passed


@pytest.mark.parametrize("system", ["sundered_isles", "elegy", "go_forth", "storyteller"])
def test_every_rows_own_words_are_never_another_rows(system: str) -> None:
    # Each row told in its own words passes, however many words it shares with the table's
    # other rows (those are not counted against it)
    told = 0
    for table in load_tables(system).values():
        texts = list(dict.fromkeys(r.text for r in table.rows))
        for text in texts:
            expect = Expectation(
                system=system, outcome="row", polarity="neutral", rows=(text,),
                other_rows=tuple(t for t in texts if t != text),
            )  # fmt: skip
            assert "did not roll" not in (check_narration(f"{text}.", expect).reason()), text
            told += 1
    assert told > 0


def _attack_plan(
    params: dict[str, object], dice: list[int], action: str
) -> tuple[NarrationPlan, Expectation]:
    attack = resolve_roll("roll_under", "attack", params, dice=dice)
    expect = expectation_from(attack, character="Kell", action=action)
    plan = narration_plan(
        system_name="Roll Under", character="Kell", action=action, resolution=attack,
        expect=expect, context="",
    )  # fmt: skip
    return plan, expect


@pytest.mark.parametrize(
    ("params", "dice", "action", "lead"),
    [
        ({"weapons": [{"die": 8}], "targets": [{"name": "bosun", "armor": 1, "hp": 5, "brawn": 9}]},
         [7, 17], "I drive my boarding axe at the bosun",
         "You drive your boarding axe at the bosun, and it lands."),
        ({"weapons": [{"die": 4}], "targets": [{"name": "knight", "armor": 5}]}, [3],
         "I stab at the knight's visor", "You stab at the knight's visor, and it lands, but does "
         "no harm."),
    ],
)  # fmt: skip
def test_a_roll_under_attack_is_led_as_landing(
    params: dict[str, object], dice: list[int], action: str, lead: str
) -> None:
    # roll_under.md: "Attacks *always* hit. The attacker rolls their weapon's damage die", and
    # "Before dealing damage to HP, subtract the target's Armor rating". Told whole (no lead: an
    # attack's outcome takes no side), the real model wrote 8 of 11 such attacks as misses or as
    # the harm done to "you" ("You drive your boarding axe at the bosun, but it hits a rock. You
    # fall to the ground with a critical injury"); led, 0 of 12 (stop 37's trial).
    plan, expect = _attack_plan(params, dice, action)
    assert plan.lead == lead
    assert OUTCOME_HINTS["landed"] in plan.prompt("").user
    missed = f"{lead} The blade glances off a rock and misses him."
    assert "outcome" in check_narration(missed, plan.judged(expect)).failed
    fell = f"{lead} You fall to the ground with a critical injury."
    assert "outcome" in check_narration(fell, plan.judged(expect)).failed
    theirs = f"{lead} The smoke rolls across the deck as the blow strikes home."
    assert check_narration(theirs, plan.judged(expect)).passed


def test_a_shield_still_to_be_sundered_leaves_an_attack_told_whole() -> None:
    # roll_under.md: "If your character has a shield equipped, you could choose to ignore all
    # damage in an attack by sundering their shield": until that choice, whether it harms is open
    params = {"weapons": [{"die": 10}], "targets": [{"name": "Kell", "shield": True}]}
    plan, expect = _attack_plan(params, [9], "The ogre swings at Kell")
    assert expect.outcome == "shield_choice" and plan.lead == ""
