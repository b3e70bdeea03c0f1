"""What the model continues after code's first sentence (service/narrator/lead.py): the prompts'
worked exchanges, a spark's lead, a single ask, and the guard's readings that stop 24's runs
(22-24) and prompt trials showed, each built from the real model's words."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from prompts import RenderedPrompt, get_prompt
from rules.catalog import load_tables
from rules.registry import all_systems, resolve_roll
from service.narrator import facts
from service.narrator.guard import check_narration, expectation_from
from service.narrator.lead import (
    CONTINUATION_ATTEMPTS,
    OUTCOME_HINTS,
    hero,
    narration_plan,
    spark_lead,
)
from service.narrator.model import Calls, _messages
from service.narrator.runner import Done, narrate
from tests.service.narrator.test_lead import (
    GO_FORTH_FAILURE,
    GO_FORTH_GRAZE,
    GO_FORTH_SUCCESS,
    GO_FORTH_TIE,
    STORYTELLER_FAILURE,
    STORYTELLER_SUCCESS,
    STRONG_FACE_DANGER,
    WEAK_FACE_DANGER,
    _after_lead,
)
from tests.service.narrator.test_runner import FakeModel

ROLL_UNDER_FAILURE = ("roll_under", "save", {"ability": "brawn", "score": 9}, [15])
# Go Forth's contest, d20 3 +2 against the other side's 17 +1: a loss
GO_FORTH_LOSS = ("go_forth", "contest", {"roll_bonus": 2, "opponent_bonus": 1}, [3, 17])
# Sundered Isles' Face Danger, action 1 + edge 2 against challenge dice 8 and 9: a miss
MISS_FACE_DANGER = ("sundered_isles", "move", {"move": "face_danger", "stat": "edge", "stat_value": 2}, [1, 8, 9])  # fmt: skip
ROLL_UNDER_SUCCESS = ("roll_under", "save", {"ability": "finesse", "score": 12}, [5])
# Storyteller's resisted roll, five dice against four (the forty-third words' dice): a win
STORYTELLER_WIN = ("storyteller", "resisted", {"pool": 5, "difficulty": 6, "opponent_pool": 4, "opponent_difficulty": 6}, [9, 8, 5, 3, 6, 5, 8, 4, 5])  # fmt: skip
# Roll-under's opposed save, brawn 12 (a 5) against the orc's 14 (a 3): the lower roll wins
ROLL_UNDER_LOST = ("roll_under", "opposed", {"actor": {"name": "Kell", "ability": "brawn", "score": 12}, "opponent": {"name": "Orc", "ability": "brawn", "score": 14}}, [5, 3])  # fmt: skip
# Elegy's Face Danger, +dexterity 3 against challenge dice 1 and 2: a strong hit
# Roll-under's deed, finesse 13 with a d8 weapon, a natural 1: "succeeds spectacularly"
ROLL_UNDER_SPECTACULAR = ("roll_under", "deed", {"ability": "finesse", "score": 13, "weapon": {"die": 8}}, [1, 1])  # fmt: skip
ELEGY_STRONG_HIT = ("elegy", "move", {"move": "face_danger", "stat": "dexterity", "stat_value": 3}, [1, 2])  # fmt: skip


def test_each_worked_exchange_of_a_spark_is_what_the_task_asks() -> None:
    # The exchanges are shown to the model as earlier turns: each must be a request the spark
    # task really makes (the same wording around its situation and lead), or the model learns
    # another task. (The narration's continuation has none: replies about the world alone,
    # shown as exchanges, turned its errors from the character's acts, which the guard reads,
    # to the world undoing the outcome, which it reads less well: 13 such in run 22's 60.)
    prompt = get_prompt("table")
    assert len(prompt.examples) >= 2 and not get_prompt("narration_next").examples
    for example in prompt.examples:
        situation = example.user.split("<situation>")[1].split("</situation>")[0]
        lead = example.user.split("The first sentence: ")[1].split("\n")[0]
        rendered = prompt.render(
            system_name="Sundered Isles", hero=hero("Kell"), lead=lead, situation=situation,
            correction="",
        )  # fmt: skip
        assert rendered.user == example.user
        assert " you" not in f" {example.assistant.lower()}"


def test_the_worked_exchanges_go_before_the_request_as_turns() -> None:
    prompt = get_prompt("table")
    rendered = RenderedPrompt(system="s", user="u", examples=prompt.examples)
    messages = _messages(rendered)
    assert isinstance(messages[0], SystemMessage) and isinstance(messages[-1], HumanMessage)
    pairs = messages[1:-1]
    assert len(pairs) == 2 * len(prompt.examples)
    assert all(isinstance(m, HumanMessage) for m in pairs[::2])
    assert all(isinstance(m, AIMessage) for m in pairs[1::2])
    assert [m.content for m in pairs[1::2]] == [e.assistant for e in prompt.examples]


def test_a_copied_exchange_is_no_spark_but_a_narrations_weather_is_its_own() -> None:
    # A small model copies what it was shown (run 12's misses copied the continuation prompt's
    # examples of that time): a spark told in the table prompt's example reply is caught. A
    # narration's sentence begins with the scene (grammar.scene_openers), and weather in the
    # same words is its own ("The wind howls through the broken windows, and the rain falls in
    # torrents" after a brigand pushed off a rooftop, stop 33: refused, a false alarm).
    table = resolve_roll("sundered_isles", "table", {"table": "pay_the_price"}, seed=1)
    lead = spark_lead("Pay the Price", facts.table_rows(table))
    spark = expectation_from(table).model_copy(update={"lead": lead})
    copied = "The wind howls through the broken windows, and rain lashes the deck."
    assert "form" in check_narration(f"{lead} {copied}", spark).failed
    lead, expect = _after_lead(*STRONG_FACE_DANGER, "I pick the captain's pocket")
    assert check_narration(f"{lead} {copied}", expect).passed
    own = "The wind howls through the rigging, and the captain sleeps on."
    assert check_narration(f"{lead} {own}", expect).passed


def test_the_prompts_never_name_a_player_character_or_hero() -> None:
    # "The player's character is "you"" made a real model write "The player's character", and a
    # prompt asking for a sentence that begins "The" then gave "The player discovers a trap",
    # "The character falls from the rooftop" and, told of a hero, "The hero falls to the
    # ground" (stop 24's prompt trials). The continuation prompts say to whom the story is
    # told, by name.
    assert hero("Kell") == " to Kell" and hero(None) == hero("unnamed") == ""
    for name in ("narration_next", "table"):
        prompt = get_prompt(name)  # type: ignore[arg-type]
        said = prompt.render(
            **{v: "" for v in prompt.variables if v != "hero"}, hero=hero("Kell")
        ).system.lower()
        for word in ("player", "character", "hero"):
            assert word not in said, (name, word)


@pytest.mark.parametrize(
    "words",
    [
        "The player discovers a trap that locks them in the haven.",
        "The character falls from the rooftop, landing with a thud on the ground.",
        "The hero falls to the ground, gasping for air.",
        "The ghoul runs away from the hero.",
    ],
)
def test_the_player_the_character_or_the_hero_for_you_is_no_narration(words: str) -> None:
    # The continuation prompt: the story is 'told to Kell as "you"'; guard.py's form check:
    # "the prompt's tags or headings echoed, or "the player's character" for "you"".
    lead, expect = _after_lead(*STORYTELLER_SUCCESS, "I leap across the rooftops")
    assert "form" in check_narration(f"{lead} {words}", expect).failed
    # the world's own players and heroes are of something
    assert check_narration(f"{lead} The players of the dice game look up.", expect).passed


def test_every_spark_lead_is_the_tables_words_and_never_fails_the_guard() -> None:
    # A spark's first sentence is the rows the engine rolled, as its table gives them: their
    # words ("lose 2 point of blood", "You give in to fear") are the table's, never the
    # narrator's (Elegy's ritual miss, Sundered Isles' Endure Stress rows).
    checked = 0
    for system in all_systems():
        for table in load_tables(system.id).values():
            for seed in range(12):
                resolution = resolve_roll(system.id, "table", {"table": table.id}, seed=seed)
                rows = facts.table_rows(resolution)
                lead = spark_lead(table.name, rows)
                assert lead.startswith(f"{table.name}: ") and all(
                    r.rstrip(".") in lead for r in rows
                )
                expect = expectation_from(resolution, character="Kell").model_copy(
                    update={"lead": lead}
                )
                report = check_narration(f"{lead} The wind rises over the water.", expect)
                assert report.passed, (table.id, lead, report.reason())
                checked += 1
    assert checked > 200


def test_a_sparks_model_words_are_judged_alone() -> None:
    # Elegy's Pay the Price: "23–26. You are separated from something or someone"; the rows are
    # said by code, so what the model adds is judged: the character acting, a row not rolled.
    spark = resolve_roll("elegy", "table", {"table": "pay_the_price"}, dice=[24])
    lead = spark_lead("Pay the Price", facts.table_rows(spark))
    expect = expectation_from(spark, character="Kell").model_copy(update={"lead": lead})
    assert lead == "Pay the Price: You are separated from something or someone."
    told = "The fog rolls between you and your sister, and her lantern fades from sight."
    assert check_narration(f"{lead} {told}", expect).passed
    acting = "Kell carefully examines the ancient artifacts, hoping for a way back."
    assert (
        "player_agency" in check_narration(f"{lead} Kell decides to run. {acting}", expect).failed
    )


def _one_ask(replies: list[str], stream: bool) -> tuple[Done, FakeModel]:
    lead, expect = _after_lead(*ROLL_UNDER_FAILURE, "I hold the door against the orcs")
    model = FakeModel(*[[r] for r in replies])

    async def go() -> Done:
        events = [
            e async for e in narrate(
                model=model, prompt=lambda c: RenderedPrompt(system="s", user="u"),
                offline="(offline)",
                check=lambda t, complete: check_narration(t, expect, complete=complete),
                calls=Calls(), stream=stream, lead=lead, most_sentences=1,
                attempts=CONTINUATION_ATTEMPTS,
            )
        ]  # fmt: skip
        done = events[-1]
        assert isinstance(done, Done)
        return done

    return asyncio.run(go()), model


@pytest.mark.parametrize("stream", [True, False])
def test_a_refused_continuation_is_told_offline_not_asked_for_again(stream: bool) -> None:
    # In runs 12-21 a retry that reached the player contradicted the engine in 18 of 80, a first
    # reply in 46 of 324: a continuation the guard refuses is told offline at once.
    assert CONTINUATION_ATTEMPTS == 1
    done, model = _one_ask(
        ["You decide to run for the stairs.", "The orcs burst through the splintered door."],
        stream,
    )
    assert done.narrated.narrator == "offline" and done.text == "(offline)"
    assert done.narrated.calls == 1 and len(done.narrated.rejected) == 1
    assert model.replies  # the second reply was never asked for
    done, model = _one_ask(["The orcs burst through the splintered door."], stream)
    assert done.narrated.narrator == "model" and done.narrated.calls == 1


def test_a_narration_with_a_lead_asks_once_and_a_whole_one_twice() -> None:
    resolution = resolve_roll(*ROLL_UNDER_SUCCESS[:3], dice=ROLL_UNDER_SUCCESS[3])
    expect = expectation_from(resolution, character="Kell", action="I dodge the portcullis")
    plan = narration_plan(
        system_name="Roll Under", character="Kell", action="I dodge the portcullis",
        resolution=resolution, expect=expect, context="",
    )  # fmt: skip
    assert plan.lead == "You dodge the portcullis, and it works."
    # the outcome's side, said once more for the model in plain words
    assert OUTCOME_HINTS["success"] in plan.prompt("").user


# The guard's readings stop 24's runs and prompt trials showed (each the real model's words after
# its lead).
SEEN = [
    # "a strong hit is success": trapped, or the other side coming at you, on a success
    (STRONG_FACE_DANGER, "I leap from the rigging to the enemy deck",
     "The enemy deck is a mess, and you find yourself trapped between the mast and the rigging.",
     "outcome"),
    (STORYTELLER_SUCCESS, "I stare down the rival Kindred",
     "The rival Kindred snarls and charges at you.", "outcome"),
    # the one followed getting away on a success at following
    (STORYTELLER_SUCCESS, "I shadow the ghoul through the market",
     "The market sells more goods, and the ghoul disappears.", "outcome"),
    # a draw ("In a Contest neither side wins a tie") told as the other side giving up
    (GO_FORTH_TIE, "I haggle with the dwarf over the price",
     "The dwarf finally gives up and leaves the negotiation.", "outcome"),
    (GO_FORTH_TIE, "I haggle with the dwarf over the price",
     "The dwarf shakes his head, and the price remains unchanged.", None),
    # "If you miss: You Graze, dealing your Effort modifier in damage": not a shot into the ground
    (GO_FORTH_GRAZE, "I loose an arrow at the wolf",
     "The arrow flies off the bow and hits a tree, causing it to fall over.", "outcome"),
    (GO_FORTH_GRAZE, "I loose an arrow at the wolf",
     "The arrow misses the wolf's eyes and flies straight into the ground.", "outcome"),
    # the character's death is the engine's to decide: roll_under.md, "If **Brawn** is reduced to
    # zero, your character dies." (and Go Forth's wounds, Ironsworn's Face Death), never a
    # narrator's after a failed save
    (ROLL_UNDER_FAILURE, "I balance along the narrow ledge",
     "The ledge sways and cracks, and you fall to your death.", "outcome"),
    (ROLL_UNDER_FAILURE, "I balance along the narrow ledge",
     "The ledge sways and cracks, and you fall to the ground.", None),
    # a door opening is the failure itself for one who held it shut
    (ROLL_UNDER_FAILURE, "I hold the door against the orcs",
     "The door swings open with a loud crash, and the orcs charge in.", None),
    (GO_FORTH_SUCCESS, "I climb the cliff to the watchtower",
     "The watchtower is now a symbol of your strength and determination.", "player_agency"),
    (WEAK_FACE_DANGER, "I read the reef's currents to slip past the patrol",
     "The patrol, sensing your distress, quickly surrounds you.", "player_agency"),
    # getting clear is managed only where getting clear was the attempt
    (STRONG_FACE_DANGER, "I vault the table and strike at the bandit chief",
     "The bandit chief's guards rush to the scene, but you manage to escape with your life.",
     "player_agency"),
    (STRONG_FACE_DANGER, "I dodge the falling portcullis",
     "The portcullis drops, and you manage to escape.", None),
    (ROLL_UNDER_FAILURE, "I swim for the wreck before the tide turns",
     "You are pulled under by the water and drown.", "outcome"),
    # others led or told are no attempt in other words
    (STRONG_FACE_DANGER, "I pick the captain's pocket",
     "As you lead the crew, the seas calm and the winds die down.", "player_agency"),
    # ... nor where the player named whom they lead (run 67, "K ell" bent round the grammar)
    (STRONG_FACE_DANGER, "Kell steadies the frightened crew",
     "The storm rages, and the sea roars as K ell gently guides the frightened crew to safety.",
     "player_agency"),
    (STRONG_FACE_DANGER, "Kell steadies the frightened crew",
     "The storm rages, and the sea roars as the frightened crew steadies.", None),
    # a success told as the world turned against you (run 22)
    (STRONG_FACE_DANGER, "I leap from the rigging to the enemy deck",
     "The enemy's ship capsizes, and you are the only survivor.", "outcome"),
    (GO_FORTH_SUCCESS, "I climb the broken stair to the bell tower",
     "The bell rings, and the stairs collapse on you.", "outcome"),
    (GO_FORTH_SUCCESS, "I sprint across the collapsing bridge",
     "The bridge collapses with a loud crash, and you are left stranded.", "outcome"),
    (GO_FORTH_SUCCESS, "I track the goblins through the marsh",
     "The marsh becomes a maze of narrow paths, making it difficult to follow.", "outcome"),
    # ... not where force was the attempt, nor the danger dodged, nor one only looming
    (STRONG_FACE_DANGER, "I tear the iron gate off its hinges",
     "The gate collapses into the mud with a clang.", None),
    (STRONG_FACE_DANGER, "I dodge the falling portcullis",
     "You hear a loud crash, and you realize that the portcullis has collapsed.", None),
    (GO_FORTH_SUCCESS, "I climb the broken stair to the bell tower",
     "The stone steps creak beneath your feet, as if they're about to give way.", None),
    # what the player set out to cut told as parting, on a miss (read as run 19's "adrift")
    (ROLL_UNDER_FAILURE, "I cut the mooring lines and let the galleon drift",
     "The galleon's hull cracks open, and the mooring lines snap.", "outcome"),
    (ROLL_UNDER_FAILURE, "I cut the mooring lines and let the galleon drift",
     "The galleon's hull cracks open, and water floods the deck.", None),
    # run 23: fear sent down the spine, a door broken through on a failed pick, attention drawn
    # on a shadowing success; the prompt's own words for a success, and the rival gone, let be
    (ROLL_UNDER_FAILURE, "I force the rusted hatch open",
     "You hear a loud crash as the hatch breaks, sending shivers down your spine.",
     "player_agency"),
    (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
     "You hear a loud bang as the door shatters, sending debris flying everywhere.", "outcome"),
    (STORYTELLER_SUCCESS, "I shadow the ghoul through the market",
     "The ghoul's shadow moves through the crowded market, its presence drawing attention to you.",
     "outcome"),
    (GO_FORTH_SUCCESS, "I climb the cliff to the watchtower",
     "The world gives way to you as you stand at the top, admiring the view of the valley below.",
     None),
    (STORYTELLER_SUCCESS, "I stare down the rival Kindred",
     "The rival Kindred retreats, leaving you alone in the dark forest.", None),
    (ROLL_UNDER_FAILURE, "I hold the door against the orcs",
     "The door shatters under the orcs' axes, and they pour in.", None),
    # run 24: a feeling as the moment's, the next act decided, being watched while unseen, the
    # model speaking of its task or of the result, the attempt made again
    (STRONG_FACE_DANGER, "I leap from the rigging to the enemy deck",
     "The wind howls around you, and it's a moment of intense anticipation.", "player_agency"),
    (GO_FORTH_FAILURE, "I wrestle the guard for the key",
     "The guard is too strong for you, leaving you with no choice but to give up.",
     "player_agency"),
    (STORYTELLER_SUCCESS, "I shadow the ghoul through the market",
     "As you continue through the market, you notice a small group of people watching you "
     "closely.", "outcome"),
    (GO_FORTH_SUCCESS, "I swing my axe at the bandit",
     'The next sentence could be: "You hear a distant shout from the forest ahead."', "form"),
    (GO_FORTH_FAILURE, "I leap across the rooftops",
     "The failure is that you are unable to perform the action you wanted.", "form"),
    (STRONG_FACE_DANGER, "I vault the table and strike at the bandit chief",
     "You quickly recover from the shock and strike again, this time aiming for a different "
     "target.", "player_agency"),
    (STRONG_FACE_DANGER, "I vault the table and strike at the bandit chief",
     "The bandit chief reels back, clutching his shoulder.", None),
    # "On a weak hit, you succeed, but not without a cost": a climb ends on top, at a cost
    (WEAK_FACE_DANGER, "I climb the crumbling sea wall",
     "You stumble and fall, your helmet shattering on the rocks.", "outcome"),
    (WEAK_FACE_DANGER, "I climb the crumbling sea wall",
     "The sea wall collapses, and you are left stranded on the shore.", "outcome"),
    (WEAK_FACE_DANGER, "I climb the crumbling sea wall",
     "A loose stone tears your glove on the way up, and gulls scream around the top.", None),
    # run 25: a way opened on a failed forcing, the moment felt, the quarry aware of you, a fall
    # from the tower climbed at a cost, going on through a place past a hack
    (ROLL_UNDER_FAILURE, "I force the rusted hatch open",
     "The rusted hatch creaks loudly, revealing a narrow passageway below.", "outcome"),
    (ROLL_UNDER_FAILURE, "I hold the door against the orcs",
     "The door swings open, revealing a narrow passage with only one exit.", None),
    (GO_FORTH_SUCCESS, "I climb the cliff to the watchtower",
     "As you climb the cliff to the watchtower, it feels like a dream come true.",
     "player_agency"),
    (STORYTELLER_SUCCESS, "I shadow the ghoul through the market",
     "The ghoul, now aware of your presence, decides to retreat into the shadows.", "outcome"),
    (WEAK_FACE_DANGER, "I scale the cathedral's bell tower",
     "A sudden gust of wind blows over your shoulders, causing you to lose balance and fall down "
     "the tower.", "outcome"),
    (STORYTELLER_SUCCESS, "I hack the security terminal",
     "As you navigate the dark corridors of the abandoned building, the air is thick and silent.",
     "player_agency"),
    (STORYTELLER_SUCCESS, "I hack the security terminal",
     "As you navigate the encrypted labyrinth, the last lock gives with a chime.", None),
    # run 26: a graze told as a shot through the body, the character's presence noticed (the
    # passive), what the player let happen happening on a miss, the character's blows told in the
    # passive where they struck none
    (GO_FORTH_GRAZE, "I loose an arrow at the wolf",
     "The arrow goes through the wolf's body, causing it to fall down and die.", "outcome"),
    (STORYTELLER_SUCCESS, "I hack the security terminal",
     "Your presence is noticed by a group of security guards.", "outcome"),
    (ROLL_UNDER_FAILURE, "I cut the mooring lines and let the galleon drift",
     "As the galleon drifts further into the night, the wind picks up.", "outcome"),
    (WEAK_FACE_DANGER, "I draw my cutlass as the boarders come over the rail",
     "The first wave of soldiers is quickly overwhelmed by your sharp sword.", "player_agency"),
    (STRONG_FACE_DANGER, "I swing my cutlass at the first boarder",
     "The first boarder is cut down by your sharp sword.", None),
    # run 27 (blind at stop 25's start): noticed in the passive after covert work done well
    # (Storyteller: "The more successes a player rolls, the better the character performs the
    # action."), a let-happen told as beginning on a miss (Sundered Isles: "On a miss, you fail,
    # or a momentary success is undermined by a dire turn of events."), what you carry gone after
    # a hit, deciding after a far "you"
    (STORYTELLER_SUCCESS, "I shadow the ghoul through the market",
     "As you move through the market, the crowd's attention is drawn to your presence.",
     "outcome"),
    (STORYTELLER_SUCCESS, "I hack the security terminal",
     "As you navigate the system, your presence is felt by everyone around you.", "outcome"),
    (STORYTELLER_SUCCESS, "I shadow the ghoul through the market",
     "The crowd jostles past, and no one notices you in the press of bodies.", None),
    (STORYTELLER_SUCCESS, "I steal the ledger from the clerk's desk",
     "The clerk never notices you, humming over his accounts.", None),
    (ROLL_UNDER_FAILURE, "I cut the mooring lines and let the galleon drift",
     "As the galleon begins to drift, you realize that the mooring lines are too short.",
     "outcome"),
    (ROLL_UNDER_FAILURE, "I cut the mooring lines and let the galleon drift",
     "The galleon strains against the last line, held fast by the tide.", None),
    # Gather Information: "On a weak hit, the information provides new insight, but also
    # complicates your quest." What is not there is news; what you carry gone is a loss no
    # one rolled.
    (WEAK_FACE_DANGER, "I look around the hold for the stolen charts",
     "You notice that the stolen charts are now missing from your inventory.", "outcome"),
    (WEAK_FACE_DANGER, "I look around the hold for the stolen charts",
     "You notice the charts are missing.", None),
    (STRONG_FACE_DANGER, "I look around the hold for the stolen charts",
     "Dust and rat droppings cover the crates, but the charts are nowhere to be seen.", "outcome"),
    (STRONG_FACE_DANGER, "I look around the hold for the stolen charts",
     "Rats scatter from the crate where the charts lie rolled in oilcloth.", None),
    # ... and found, then carried off: on a strong hit an undoing, on a weak hit the news that
    # complicates (run 66's, begun with the scene)
    (STRONG_FACE_DANGER, "I look around the hold for the stolen charts",
     "The wind howls through the hold, carrying away the stolen charts.", "outcome"),
    (WEAK_FACE_DANGER, "I look around the hold for the stolen charts",
     "The wind howls through the hold, carrying away the stolen charts.", None),
    (WEAK_FACE_DANGER, "I try to sweet-talk the quartermaster into letting me go",
     "You realize that the quartermaster's refusal to let you go is a sign of impending danger "
     "and decides to take action.", "player_agency"),
    # run 28: terror named on the body, an act told done on a failure, a tie told as the other
    # side's price too high ("In a Contest neither side wins a tie": the engine's ruling), a
    # weak hit at getting aboard told as a fall into the sea ("On a weak hit, you succeed, but
    # not without a cost"); others' feelings and a choice posed stay the world's
    (ROLL_UNDER_FAILURE, "I read the reef's currents to slip past the patrol",
     "Your eyes widen in terror as the patrol's lights illuminate the dark water.",
     "player_agency"),
    (ROLL_UNDER_FAILURE, "I read the reef's currents to slip past the patrol",
     "Your eyes widen as the patrol's lights sweep across the dark water.", None),
    (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
     "The lock was too tight, and you had to use a wrench to loosen it.", "player_agency"),
    (GO_FORTH_TIE, "I haggle with the dwarf over the price",
     "The dwarf's eyes widen as he realizes that the price is too high.", "outcome"),
    (GO_FORTH_TIE, "I haggle with the dwarf over the price",
     "The dwarf grins and shakes his head, and the price remains unchanged.", None),
    (WEAK_FACE_DANGER, "I sneak aboard the moored galleon",
     "A sudden gust of wind blows over your head, causing you to lose balance and fall into the "
     "sea.", "outcome"),
    (WEAK_FACE_DANGER, "I sneak aboard the moored galleon",
     "A strong gust of wind blows in your face, causing you to lose balance and fall onto the "
     "deck.", None),
    (STRONG_FACE_DANGER, "I question the dock workers about the missing ship",
     "The dock workers, initially skeptical and wary, now approach you with a newfound sense of "
     "urgency and determination.", None),
    (STRONG_FACE_DANGER, "I question the dock workers about the missing ship",
     "The bandit runs away, leaving you with a sense of accomplishment.", "player_agency"),
    # run 29: words that worked told as the others going back to their work (Gather Information:
    # "On a strong hit, you discover something helpful and specific."); another's unease felt,
    # and another's decision about you, stay theirs
    (STRONG_FACE_DANGER, "I question the dock workers about the missing ship",
     "The dock workers look at you in surprise, then quickly return to their work.", "outcome"),
    (STRONG_FACE_DANGER, "I question the dock workers about the missing ship",
     "The dock workers look at you with skepticism, then point toward the breakwater.", None),
    (WEAK_FACE_DANGER, "I convince the harbourmaster to let us dock",
     "You see the harbourmaster's eyes widen, and you can feel his unease.", None),
    (ROLL_UNDER_FAILURE, "I sweet-talk the quartermaster into letting me go",
     "You realize that the quartermaster is not interested in your plan and decides to keep you "
     "in.", None),
    # run 30: what the player tried to get through, broken open on a failure (Go Forth: "The d20
    # determines success."); thrown open by the danger beyond, it is the miss
    (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
     "A loud hiss of steam erupts from the door, causing it to explode in your face.", "outcome"),
    (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
     "You hear a loud crash as the door flies open, revealing a group of guards.", None),
    (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
     "The pick snaps inside the lock with a sharp crack.", None),
    # other words' run 1 (scenarios never in the corpus). Roll Under: "If the result is less
    # than your character's Ability score, the Action succeeds. Otherwise, it fails." What the
    # player meant to send off the bridge, told gone off it on a failure:
    (ROLL_UNDER_FAILURE, "I shove the ogre off the bridge",
     "The ogre's heavy weight makes it hard to move, causing it to fall off the bridge.",
     "outcome"),
    (ROLL_UNDER_FAILURE, "I shove the ogre off the bridge",
     "The ogre plants its feet and shoves you back toward the rail.", None),
    # ... a theft done well told as the one robbed knowing (Sundered Isles: "On a strong hit,
    # you are successful."), put somewhere the player never went, and a shot fired where the
    # player only raised a pistol:
    (STRONG_FACE_DANGER, "I slip the key from the jailer's belt",
     "The jailer's eyes widen as he realizes that the key has unlocked a door.", "outcome"),
    (STRONG_FACE_DANGER, "I slip the key from the jailer's belt",
     "The jailer snores on, his belt a little lighter.", None),
    (WEAK_FACE_DANGER, "I talk my way past the night watch",
     "You are now standing at the edge of a treacherous cliff, your heart pounding.",
     "player_agency"),
    (WEAK_FACE_DANGER, "I raise my pistol as the raiders storm the beach",
     "As you fire your pistol, the raiders' weapons explode in a blinding flash.", "player_agency"),
    # ... and what stays the world's: entering the place the player set out to get into, the air
    # thick with a feeling
    (STORYTELLER_SUCCESS, "I sneak into the Elysium unseen",
     "As you enter the Elysium, the air is thick with a sense of anticipation.", None),
    (STORYTELLER_SUCCESS, "I hack the security terminal",
     "You enter the secure room, feeling a sense of power and control.", "player_agency"),
    # third words' run 1: a hiding success told as found out, a failed wrench told as the grate
    # breaking, fear named on the body, a rally told as panic, an act in a clause of the thing
    # found, a tie told as being driven off (Go Forth: "Both roll — higher total wins."; equal
    # totals are the engine's draw), and going down what the player climbed down
    (STRONG_FACE_DANGER, "I hide among the barrels to watch the smugglers unload",
     "The smugglers' eyes widen as they realize the barrels are hiding them.", "outcome"),
    (ROLL_UNDER_FAILURE, "I wrench the iron grate off the drain",
     "As you struggle to free the grate, it begins to break apart, revealing a hidden pipe.",
     "outcome"),
    (ROLL_UNDER_FAILURE, "I wrestle the troll for the stolen amulet",
     "You fall to the ground, your body shaking with pain and fear.", "player_agency"),
    (ROLL_UNDER_FAILURE, "I wrestle the troll for the stolen amulet",
     "You fall to the ground, your body shaking with pain.", None),
    (STRONG_FACE_DANGER, "Kell rallies the frightened villagers",
     "As Kell's words echo through the village, the villagers begin to panic and flee in terror.",
     "outcome"),
    (STRONG_FACE_DANGER, "Kell rallies the frightened villagers",
     "Their panic subsides, and a few pick up pitchforks.", None),
    (GO_FORTH_SUCCESS, "I search the abandoned mill for supplies",
     "A hidden stash of supplies lies inside the mill, which you use to gather more food.",
     "player_agency"),
    (GO_FORTH_TIE, "I haggle with the alchemist over the potion",
     "The alchemist, now visibly frustrated and angry, pushes you away with a wave of his wand.",
     "outcome"),
    (WEAK_FACE_DANGER, "I climb down the anchor chain into the water",
     "As you descend, the water becomes choppy and turbulent, making it difficult to navigate.",
     None),
    # fourth words' run 1: a failed battering told as the door cracking open, a weak hit at
    # squeezing through told as trapped ("On a weak hit, you succeed, but not without a
    # cost"); the water's rush and the attempt in other words stay
    (ROLL_UNDER_FAILURE, "I batter down the cellar door",
     "As you push harder, the cellar door shakes violently and cracks open.", "outcome"),
    (WEAK_FACE_DANGER, "I squeeze through the collapsed tunnel",
     "You find yourself trapped in a narrow, dark tunnel with no exit.", "outcome"),
    (WEAK_FACE_DANGER, "I squeeze through the collapsed tunnel",
     "Loose stones scrape your arms raw on the way out.", None),
    (ROLL_UNDER_FAILURE, "I hold my breath in the flooded tunnel",
     "You feel a rush of cold water and the tunnel starts to collapse.", None),
    (STRONG_FACE_DANGER, "Kell steadies the wounded ranger",
     "Kell helps the wounded ranger, stabilizing him and ensuring his safety.", None),
    # run 31: death told as a broken neck (Roll Under: "If Brawn is reduced to zero, your
    # character dies": the engine's to say); what stays: pain's rush, terms refused, being seen
    # where hiding was not the attempt, approaching the place climbed to
    (ROLL_UNDER_FAILURE, "I balance along the narrow ledge",
     "You fall off the ledge, breaking your neck.", "outcome"),
    (ROLL_UNDER_FAILURE, "I attack the skeleton guarding the reliquary",
     "The skeleton's sharp claws pierce your armor, and you feel a rush of pain.", None),
    (WEAK_FACE_DANGER, "I try to convince the harbourmaster to let us dock",
     "The harbourmaster's refusal to let you dock without a cost is a complication.", None),
    (STRONG_FACE_DANGER, "Kell steadies the frightened crew",
     "The crew's fear subsides as they see Kell standing by.", None),
    (GO_FORTH_SUCCESS, "I climb the broken stair to the bell tower",
     "You approach the bell tower cautiously, your heart pounding in your chest.", None),
    (GO_FORTH_SUCCESS, "I track the goblins through the marsh",
     "You approach the marsh with caution, but the goblins are quick to follow behind.",
     "player_agency"),
    # sixth words' run 1: determination told as a testament (a feeling told); a dodge managed
    # where a dodge was the attempt (Roll Under: "If the result is less than your character's
    # Ability score, the Action succeeds."), and not where hiding was
    (STRONG_FACE_DANGER, "I comb the shipwright's records for the stolen design",
     "The shipwright's records are now a testament to your ingenuity and determination.",
     "player_agency"),
    (ROLL_UNDER_SUCCESS, "I jump aside from the charging bull",
     "The bull's hooves stampede, but you manage to dodge and avoid the collision.", None),
    (STRONG_FACE_DANGER, "I hide in the fog bank and wait for the cutter",
     "As the cutter approaches, you manage to dodge and make it through the fog bank unharmed.",
     "player_agency"),
    # seventh words' run 1: a weak hit at bribing told as the thing asked refused; a shadowing
    # success told as the quarry intrigued by your shadow; a theft told as the victim waking; a
    # graze told as caught on a shield (Go Forth: "If you miss: You Graze, dealing your Effort
    # modifier in damage"); a dodge that worked told as the spear striking home; a meeting on the
    # trail and the bridge stepped on stay the world's
    (WEAK_FACE_DANGER, "I bribe the dockmaster to forget our arrival",
     "The dockmaster's refusal to forget our arrival is a complication.", "outcome"),
    (WEAK_FACE_DANGER, "I bribe the dockmaster to forget our arrival",
     "The dockmaster pockets the coin and names a steeper price for next time.", None),
    (STORYTELLER_SUCCESS, "I shadow the Toreador through the gallery",
     "The Toreador, intrigued by your shadow, steps forward and begins to explore the gallery.",
     "outcome"),
    (STRONG_FACE_DANGER, "I filch the key from the sleeping jailer",
     "The jailer's eyes widen, and he scrambles to get out of bed.", "outcome"),
    (GO_FORTH_GRAZE, "I hurl a throwing axe at the bandit archer",
     "The bandit archer raises his shield, but the axe's edge catches a crack in the wood.",
     "outcome"),
    (ROLL_UNDER_SUCCESS, "I dodge the thrown spear",
     "The spear pierces your armor, and you feel the pain.", "outcome"),
    (ROLL_UNDER_SUCCESS, "I dodge the thrown spear",
     "The spear buries itself in the door behind you.", None),
    (GO_FORTH_SUCCESS, "I follow the smugglers' trail through the woods",
     "You encounter a group of local farmers who are suspicious of your presence.", None),
    (GO_FORTH_SUCCESS, "I cross the rickety rope bridge",
     "You step onto the bridge, and it feels unstable.", None),
    # run 32 and fifth words' run 1 (Storyteller: "Every die a player rolls that comes up equal to
    # or greater than the difficulty, is a success."; Go Forth: "The d20 determines success."):
    # compelled by the quarry's gaze, elation as walking on air, a
    # failed attack told as the foe collapsing, a failed safe-cracking told as the safe in pieces,
    # a lost push told as the foe retreating from the altar, a weak hit's cost told as the
    # others', a scouting success told as the foe charging, a creeping success told as the
    # guards realizing; a stumble on the way aboard and a cleft shield collapsing stay
    (STORYTELLER_SUCCESS, "I shadow the ghoul through the market",
     "The ghoul's shadow becomes more pronounced, and you find yourself drawn to its gaze.",
     "player_agency"),
    (GO_FORTH_SUCCESS, "I track the goblins through the marsh",
     "You hear the squelching of water, and it feels like you're walking on air.",
     "player_agency"),
    (GO_FORTH_FAILURE, "I attack the skeleton guarding the reliquary",
     "You hear a loud crash as the skeleton collapses, revealing the reliquary within.",
     "outcome"),
    (STORYTELLER_FAILURE, "I crack the safe in the mayor's office",
     "You hear a loud crash and see the safe fall to the ground, breaking into pieces.",
     "outcome"),
    (ROLL_UNDER_FAILURE, "I push the cultist back from the altar",
     "The cultist's eyes widen, and they start to retreat from the altar.", "outcome"),
    (WEAK_FACE_DANGER, "I level my musket as the boarders swarm aboard",
     "The cost of your musket level was a heavy toll on the boarders, who retreat in panic.",
     "outcome"),
    (GO_FORTH_SUCCESS, "I scout the ridge for the orc warband",
     "You spot a group of orcs approaching the ridge, and they begin to charge.", "outcome"),
    (STORYTELLER_SUCCESS, "I creep past the sleeping guards",
     "The guards' eyes widen as they realize the intruder.", "outcome"),
    (STORYTELLER_SUCCESS, "I creep past the sleeping guards",
     "One guard stirs and mutters, then realizes nothing and sleeps on.", None),
    (WEAK_FACE_DANGER, "I sneak aboard the moored galleon",
     "As you approach the deck, a sudden gust of wind causes you to stumble and fall.", None),
    (GO_FORTH_SUCCESS, "I cleave the orc's shield with my greataxe",
     "The orc's shield falls to the ground, and you hear a groan as it collapses.", None),
]  # fmt: skip


# The stop-25 runs' continuation prompts resent with the grammar that keeps "you" out
# (service/narrator/grammar.py; the real_grammar1 split): the model, unable to tell the outcome
# through the character, told it through the others and the things. Sources: Go Forth, "The d20
# determines success."; Storyteller, "Every die a player rolls that comes up equal to or greater
# than the difficulty, is a success."; Sundered Isles' Face Danger, "On a weak hit, you succeed,
# but not without a cost"; Go Forth's contest, "the higher total wins". Each pairs a reply that
# contradicts with one that does not.
GRAMMAR_WORDS = [
    # covert work done well, the others alerted all the same
    (STORYTELLER_SUCCESS, "I slip through the camp of sleeping bandits",
     "The camp of sleeping bandits, now aware of the intruder, begins to prepare for a "
     "confrontation.", "outcome"),
    (STORYTELLER_SUCCESS, "I slip through the camp of sleeping bandits",
     "The bandits snore on, unaware of anything amiss.", None),
    (GO_FORTH_SUCCESS, "I scout the ridge for the orc warband",
     "The orc warband, sensing the approach of the scout, retreats into their lair.", "outcome"),
    (STRONG_FACE_DANGER, "I filch the key from the sleeping jailer",
     "The jailer's guards, startled by the sudden noise, rush to investigate.", "outcome"),
    (STRONG_FACE_DANGER, "I filch the key from the sleeping jailer",
     "The jailer snores on, his belt lighter by one key.", None),
    # ... the quarry gone into the dark
    (STORYTELLER_SUCCESS, "I shadow the ghoul through the market",
     "The ghoul's eyes widen as it realizes the shadow of its own presence, and it retreats "
     "into the shadows.", "outcome"),
    # a failure at opening, told open
    (GO_FORTH_FAILURE, "I open the puzzle box",
     "As the puzzle box creaks open, a sharp pain shoots through the back of the room.",
     "outcome"),
    (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
     "As the lock clanks and dangles, a faint breeze whispers through the open door.", "outcome"),
    (STORYTELLER_FAILURE, "I pick the lock on the Prince's safe",
     "As the lock clatters to the ground, a loud crack echoes through the room.", "outcome"),
    (GO_FORTH_FAILURE, "I hammer the rusted lock off the cage",
     "As the lock continues to struggle, it finally breaks free, revealing a hidden door.",
     "outcome"),
    (GO_FORTH_FAILURE, "I hold the door against the orcs",
     "The door swings open, and the orcs charge at it.", None),
    # a contest lost, told as the other side giving way (not a thing won and carried off)
    (GO_FORTH_FAILURE, "I arm-wrestle the dwarf champion",
     "The dwarf champion, who was expecting a decisive victory, is now terrified and runs away.",
     "outcome"),
    (GO_FORTH_FAILURE, "I race the ranger to the top of the hill",
     "The ranger, seeing the danger, quickly stops and turns back.", "outcome"),
    (GO_FORTH_FAILURE, "I wrestle the orc for the map",
     "The orc kicks the lantern over and runs away with the map.", None),
    # granted at a cost, told refused; stopped at a cost, told going on
    (WEAK_FACE_DANGER, "I convince the harbourmaster to let us dock",
     "The harbourmaster's refusal to let them dock, despite the cost, caused a ripple effect.",
     "outcome"),
    (WEAK_FACE_DANGER, "I convince the harbourmaster to let us dock",
     "The harbourmaster's refusal to let them dock without a fee costs a purse of silver.", None),
    (WEAK_FACE_DANGER, "I call on the blood to silence the bells",
     "As the bells continue to ring, a faint mist rises from the ground.", "outcome"),
    (WEAK_FACE_DANGER, "I call on the blood to silence the bells",
     "The bells fall silent, and the crowd below continues to stare.", None),
    # a tracking success told as an ambush
    (GO_FORTH_SUCCESS, "I track the goblins through the marsh",
     "The marsh becomes a battlefield, with goblins encircling and attacking.", "outcome"),
    # the world's mood and the others' feelings, not the character's
    (GO_FORTH_FAILURE, "I search the haven for the hidden letter",
     "As the search continues, the light starts to dim, and a sense of dread washes over the "
     "haven.", None),
    (STORYTELLER_FAILURE, "I steal the dagger from the display case",
     "The dagger falls from the display case, causing a loud clatter and a moment of panic "
     "among the patrons.", None),
    (STRONG_FACE_DANGER, "I question the dock workers about the missing ship",
     "The dock workers now express a sense of relief and gratitude.", None),
    (STORYTELLER_SUCCESS, "I shadow the Toreador through the gallery",
     "As the Toreador's shadow passes through the gallery, it creates a sense of unease.", None),
    # what was crossed, falling behind; a pillar lifted off someone is no theft
    (GO_FORTH_SUCCESS, "I sprint across the collapsing bridge",
     "As the bridge crumbles under the weight of the rushing water, it begins to collapse.", None),
    (GO_FORTH_SUCCESS, "I sprint across the collapsing bridge",
     "The bridge crumbles beneath your feet.", "outcome"),
    (STORYTELLER_SUCCESS, "I lift the fallen pillar off the trapped acolyte",
     "The acolyte's eyes widen as the pillar comes to rest, and he gasps for breath.", None),
    # the second tranche resent (real_grammar1b): the prompt's words as story, a sentence cut at
    # a title, the sleeper woken, the intruder seen, a door falling in on a failure to break it
    (STRONG_FACE_DANGER, "I tear the chains from the wall",
     "The place, the weather, other people or creatures respond with a sense of liberation.",
     "form"),
    (WEAK_FACE_DANGER, "I climb the chimney onto the manor roof",
     "As the smoke billows from the chimney, the manor's owner, Mr.", "form"),
    (WEAK_FACE_DANGER, "I climb the chimney onto the manor roof",
     "Soot cakes the tiles, and the manor's owner shouts from the garden.", None),
    (STORYTELLER_SUCCESS, "I sneak past the sleeping dragon",
     "The dragon wakes up and lunges at the intruder, but it is too late.", "outcome"),
    (STORYTELLER_SUCCESS, "I sneak past the sleeping dragon",
     "The dragon's breath rumbles on, and the gold beneath it does not stir.", None),
    (STRONG_FACE_DANGER, "I palm the signet ring from the magistrate's desk",
     "The magistrate's face lights up, and he smiles at the sight of the ring.", "outcome"),
    (GO_FORTH_FAILURE, "I break down the warehouse door",
     "As the warehouse door continues to fall, the sound of clashing metal echoes.", "outcome"),
    (GO_FORTH_FAILURE, "I break down the warehouse door",
     "The door shudders in its frame and holds.", None),
    # run 35, the first corpus run with the grammar (Go Forth: "In a Contest neither side wins a
    # tie: the situation stays as it was", fateweaver's ruling): a tie told as one side giving
    # in, a failed pick told as the lock broken in the end, the quarry sensing its shadow
    (GO_FORTH_TIE, "I haggle with the dwarf over the price",
     "The dwarf's eyes widen as he realizes he can't win, and he sighs in defeat.", "outcome"),
    (GO_FORTH_TIE, "I haggle with the dwarf over the price",
     "The dwarf folds his arms, and neither of them gives in.", None),
    (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
     "The lock was too tight, and it took a long time to break.", "outcome"),
    (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
     "The lock was too tight, and it took a lot of force to turn.", "outcome"),  # run 41
    (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
     "As the door crows loudly, the lock clunks to the ground with a dull thud.",
     "outcome"),  # run 43
    (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
     "The lock was too tight, and it wouldn't budge.", None),  # run 48
    # the next act set as the only one, told of no one (the grammar keeping "your" out); roll-
    # under: "If the result is less than your character's Ability score, the Action succeeds.
    # Otherwise, it fails."
    (ROLL_UNDER_FAILURE, "I balance along the narrow ledge",
     "As the ledge tilts, causing a sudden drop, the only option is to jump off.",
     "player_agency"),  # run 43
    (ROLL_UNDER_FAILURE, "I balance along the narrow ledge",
     "The ledge is unstable, and the only way to maintain balance is by jumping off.",
     "player_agency"),  # run 44
    (ROLL_UNDER_FAILURE, "I force the cellar door",
     "The cellar door is locked, and the only way in is through a secret door.", None),
    (STORYTELLER_SUCCESS, "I shadow the ghoul through the market",
     "The ghoul, sensing the shadowy presence of its shadowy companion, begins to retreat.",
     "outcome"),
    # another's feeling, the grammar keeping "you" out (a reworded prompt's reply)
    (STRONG_FACE_DANGER, "I woo the prince's confidant",
     "The prince's confidant, who had always been a loyal friend to the king, now feels a sense "
     "of pride and admiration.", None),
    (STRONG_FACE_DANGER, "I woo the prince's confidant",
     "The confidant smiles, and you feel a sense of pride.", "player_agency"),
    # run 36 and the tenth and eleventh words (all on 5ea4b41): an alarm on a hack, recognition
    # on a theft, an ambush on all sides, a lock turned in the end, a rival stopping in a race,
    # another script; and not the crew's morale as a cost, a mood giving way to another, a foe
    # struck crumbling, the crowd's feelings or the atmosphere's
    (STORYTELLER_SUCCESS, "I hack the security terminal",
     "The security system goes into overdrive, and a loud alarm blares through the air.",
     "outcome"),
    (STRONG_FACE_DANGER, "I slip the signet ring from the merchant's finger",
     "The merchant's face lights up with recognition, and he rushes to greet the stranger.",
     "outcome"),
    (GO_FORTH_SUCCESS, "I track the goblins through the marsh",
     "The marsh is now a battlefield, with goblins attacking from all sides.", "outcome"),
    (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
     "The lock was too tight, and it took a long time to turn.", "outcome"),
    (GO_FORTH_FAILURE, "I race the courier to the ferry landing",
     "The courier, who had been running late, suddenly stops and looks at the sky.", "outcome"),
    (WEAK_FACE_DANGER, "I sweet-talk the quartermaster into letting me go",
     "The quartermaster looks at the confused look on你的 face.", "form"),
    (WEAK_FACE_DANGER, "I hang onto the capsized dinghy in the swell",
     "The cost of the capsized dinghy was significant, and it took a toll on the crew's morale.",
     None),
    (STORYTELLER_SUCCESS, "I creep through the sleeping barracks",
     "As the darkness deepens, the barracks seems to give way to a sense of calm.", None),
    (ROLL_UNDER_SUCCESS, "I slash at the bandit leader with my sabre",
     "The bandit leader's body crumbles to the ground, and the crowd cheers.", None),
    (WEAK_FACE_DANGER, "I call on the blood to hush the crowd",
     "As the crowd watches in silence, they feel a sense of unease and dread.", None),
    (STORYTELLER_SUCCESS, "I tail the Tremere through the night market",
     "The atmosphere shifts to a sense of anticipation and excitement.", None),
    # a cost told through the attempt's own words is no cost falling on others (the fifteenth
    # words: "I call on the blood to muffle the hounds' baying", a success at a cost)
    (WEAK_FACE_DANGER, "I call on the blood to muffle the hounds' baying",
     "The cost of calling on the blood was a heavy one, as it required a sacrifice to the gods.",
     None),
    # words such an attempt's outcome was told against in (guard.TOLD_AGAINST), each from a
    # real reply; and the same kind told rightly
    (STORYTELLER_SUCCESS, "I shadow the ghoul through the market",
     "The ghoul's eyes narrow, and it moves to the side of the market.", "outcome"),  # run 40
    (STORYTELLER_SUCCESS, "I shadow the ghoul through the market",
     "The ghoul weaves between the stalls, never looking back.", None),
    (GO_FORTH_SUCCESS, "I track the goblins through the marsh",
     "As the goblins approach, they become increasingly wary of the sudden movement.",
     "outcome"),  # resent (real_unsaid1)
    (GO_FORTH_FAILURE, "I race the knight to the castle gate",
     "The knight, who had been training for months to reach the castle gate, suddenly found "
     "himself in a treacherous situation.", "outcome"),  # resent (real_unsaid1)
    (GO_FORTH_FAILURE, "I race the knight to the castle gate",
     "The knight thunders through the gate first, laughing.", None),
    (GO_FORTH_FAILURE, "I wrestle the guard for the key",
     "As the guard grabs for the key, the ropes snap and the guard is thrown to the ground.",
     "outcome"),  # resent (real_unsaid1)
    (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
     "As the rusted hatch creaks and groans, it reveals a dark, damp room filled with moldy air.",
     "outcome"),  # run 37 (a forced hatch)
    (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
     "You hear a loud crash as the door swings open, revealing a group of guards standing "
     "guard.", None),  # run 20: the danger revealed, not the way in
    (WEAK_FACE_DANGER, "I call on the blood to silence the bells",
     "The bells ring out in a deafening cacophony, their melody distorted by the blood's power.",
     "outcome"),  # resent (real_grammar2)
    (WEAK_FACE_DANGER, "I calm the storm",
     "The storm grows stronger, and the blood starts to boil.", "outcome"),  # thirteenth words
    (ROLL_UNDER_SUCCESS, "I thrust my spear at the bugbear",
     "The bugbear's eyes widen, and it jumps back, looking at the spear with a mix of fear and "
     "curiosity.", "outcome"),  # fourteenth words
    (STORYTELLER_FAILURE, "I swing my hammer at the skeleton's skull",
     "The skeleton's eyes glaze over, and its movements become sluggish.", "outcome"),  # run 38
    (ROLL_UNDER_FAILURE, "I hold the door against the orcs",
     "The door slams shut with a loud crash, and the orcs charge towards it.",
     "outcome"),  # resent (real_unsaid1)
    (WEAK_FACE_DANGER, "I talk the quartermaster into an extra ration of powder",
     "The quartermaster's face contorts in pain, and he shakes his head.",
     "outcome"),  # resent (real_grammar2)
    # ... and not where it is denied, nor told of "you"
    (STORYTELLER_SUCCESS, "I shadow the ghoul through the market",
     "The ghoul is not aware of anything behind it.", None),
    (GO_FORTH_FAILURE, "I race the knight to the castle gate",
     "You stumble on the cobbles as the knight rides through.", None),
]  # fmt: skip

# The sleeper woken by any verb, after the grammar barred the waking words: on a success at
# passing or robbing a sleeper, the model made the sleeper's eyes flick, roll or light up (stop
# 28's paired trial: 6 of 6 sleepers woken on a success, none with a waking word). Sundered
# Isles: "On a strong hit, you are successful."; Storyteller: "Every die a player rolls that
# comes up equal to or greater than the difficulty, is a success." A sleeper who sleeps on, or
# breathes, is no sleeper woken; on a failure the sleeper may wake.
SLEEPERS = [
    (STRONG_FACE_DANGER, "I lift the seal from the snoring magistrate",
     "The magistrate's eyes roll back as he struggles to comprehend the sudden change in his "
     "surroundings.", "outcome"),  # the sixteenth words
    (STRONG_FACE_DANGER, "I lift the seal from the snoring magistrate",
     "The magistrate's eyes flick to the sky, and a bright light flashes above them.",
     "outcome"),  # resent (real_blind1b)
    (STORYTELLER_SUCCESS, "I sneak past the napping guards",
     "The guards' eyes flicker, and they quickly rise from their slumber.",
     "outcome"),  # the sixteenth words
    (STRONG_FACE_DANGER, "I pinch the ring from the dozing innkeeper",
     "The innkeeper's eyes light up, and he smiles warmly.", "outcome"),  # stop 28's trial
    (STORYTELLER_SUCCESS, "I creep past the sleeping sentry",
     "The sentry's eyes flick to the door, and it opens.", "outcome"),  # stop 28's trial
    (STORYTELLER_SUCCESS, "I sneak past the snoring bosun",
     "The snoring bosun's head tilts, and he turns his attention to the door.",
     "outcome"),  # the twelfth words
    (STORYTELLER_SUCCESS, "I creep past the dozing sentries",
     "A sentry opened one eye and grunted.", "outcome"),
    (STORYTELLER_SUCCESS, "I creep past the dozing sentries",
     "The sentries are suddenly alert, hands on their spears.", "outcome"),
    (STORYTELLER_SUCCESS, "I creep past the snoring watchmen",
     "The snoring watchmen are now asleep, and the door to the secret room is unlocked.",
     None),  # stop 28's trial
    (STRONG_FACE_DANGER, "I lift the seal from the snoring magistrate",
     "The magistrate snores on, his desk one seal lighter.", None),
    (STRONG_FACE_DANGER, "I slip the purse from the sleeping merchant's belt",
     "The merchant's chest rises and falls in slow, even breaths.", None),
    (STORYTELLER_SUCCESS, "I sneak past the napping guards",
     "The guards' quarters stay dark, and the guards sleep on.", None),
    (STORYTELLER_SUCCESS, "I slip through the sleeping barracks",
     "As the darkness deepens, the barracks seems to give way to a sense of calm and "
     "tranquility.", None),  # the eleventh words: a place asleep only wakes
    (GO_FORTH_FAILURE, "I pinch the ring from the dozing innkeeper",
     "The innkeeper's eyes light up, and he grabs your wrist.", None),
    # whatever the verb of passing, not of waking
    (STORYTELLER_SUCCESS, "I tiptoe past the sleeping hounds",
     "The hounds' eyes widen, and they slowly open.", "outcome"),  # the seventeenth words
    (STORYTELLER_SUCCESS, "I shake the sleeping sentry awake",
     "The sentry's eyes open, and he blinks at the lantern.", None),
]  # fmt: skip


def test_a_row_that_wounds_is_never_told_as_no_one_hurt() -> None:
    # Go Forth's Severity table: "6 – 15Shallow Wound (Reason check or Long Rest)"; run 23's
    # spark told it "The party is shaken, but no injuries are reported."
    spark = resolve_roll("go_forth", "table", {"table": "severity"}, seed=5)
    rows = facts.table_rows(spark)
    assert rows == ["Shallow Wound (Reason check or Long Rest)"]
    lead = spark_lead("Severity Table", rows)
    expect = expectation_from(spark).model_copy(update={"lead": lead})
    denied = check_narration(f"{lead} The party is shaken, but no injuries are reported.", expect)
    assert denied.failed == ["outcome"]
    denied = f"{lead} The party is shaken, but it's not severe enough to cause any injuries."
    assert check_narration(denied, expect).failed == ["outcome"]  # run 24
    shallow = f"{lead} The party is shaken, but no injuries are severe."
    assert check_narration(shallow, expect).passed  # run 26: injuries, none severe
    light = (
        f"{lead} The party is shaken, but the rockslide leaves only a small scratch on their armor."
    )
    assert check_narration(light, expect).failed == ["outcome"]  # run 27
    denied = f"{lead} The party is shaken, but the rockslide does not cause any immediate harm."
    assert check_narration(denied, expect).failed == ["outcome"]  # run 28
    not_serious = (
        f"{lead} The party is shaken, but the rockslide does not cause any serious injuries."
    )
    assert check_narration(not_serious, expect).passed  # run 29: a shallow wound is no serious one
    told = f"{lead} A falling stone opens a shallow cut along your forearm."
    assert check_narration(told, expect).passed


# "They" for the one the lead calls "you": the grammar keeps "you" out, and the model wrote of the
# character in the plural, "As the world around them shifts, they find themselves ..." (6 of
# the labelled replies to "I hack the security terminal", each shown). Storyteller: "Every die a
# player rolls that comes up equal to or greater than the difficulty, is a success." With anyone
# else before it for "they" to stand for, it is not the character.
THEY_AS_YOU = [
    (STORYTELLER_SUCCESS, "I hack the security terminal",
     "As the world around them starts to change, they begin to wonder what secrets they have "
     "uncovered.", "player_agency"),  # run 43
    (STORYTELLER_SUCCESS, "I hack the security terminal",
     "As the world begins to change around them, they find themselves caught in a web of secrets "
     "and deception.", "outcome"),  # run 48
    (STRONG_FACE_DANGER, "I pick the lock of the rusted strongbox",
     "As the room falls quiet around them, they find themselves caught in a web of lies.",
     "outcome"),  # written: other words, the same reading
    (STORYTELLER_SUCCESS, "I hack the security terminal",
     "As the world begins to shift, people and creatures alike find themselves caught in a web "
     "of confusion and uncertainty.", None),  # resent (real_blind1a)
    (ROLL_UNDER_FAILURE, "I balance along the narrow ledge",
     "As the ledge tilts further, causing a sudden drop and a loud crash, the air around them "
     "becomes thick with dust and debris.", None),  # run 48: no act, no feeling
    (STORYTELLER_SUCCESS, "I track the goblins through the marsh",
     "As the goblins emerge from their hiding places, they are immediately confronted by the "
     "sudden change in the landscape.", None),  # run 48
    (STRONG_FACE_DANGER, "I ask the harbour pilot about the wrecked sloop",
     "The harbour pilot's eyes widen as they realize the scale of the damage.", None),
]  # fmt: skip


# A race lost, told as the rival held up by whatever befell them (each a real reply the guard
# let through before); the rival doing what the winner does is the loss told rightly. Go Forth's
# check: "Binary. Can you do it or not? Roll d20 trying to beat the Target Number."
RIVALS_HELD_UP = [
    (GO_FORTH_FAILURE, "I race the miller's son to the church door",
     "The rain starts to pour down, making it difficult for the miller's son to keep up with the "
     "race.", "outcome"),  # stop 33's trials (real_scene2b)
    (GO_FORTH_FAILURE, "I race the miller's son to the church door",
     "The rain starts to pour down, making it difficult to see the church door.", None),
    (GO_FORTH_FAILURE, "I race the smuggler to the boathouse",
     "The smuggler's ship capsizes, and the boathouse is flooded with water.",
     "outcome"),  # the seventeenth words
    (GO_FORTH_FAILURE, "I race the courier to the bridge",
     "As the courier's vehicle skids and rolls down a steep hill, the bridge collapses in front "
     "of them.", "outcome"),  # the eighteenth words
    (GO_FORTH_FAILURE, "I race the ferryman's boy to the chapel bell",
     "The ferryman's boy, who was eager to win the race, accidentally hits a tree while trying "
     "to cross the bridge.", "outcome"),  # the twelfth words
    (GO_FORTH_FAILURE, "I race the messenger to the ford",
     "The messenger, who was supposed to deliver the important message quickly and safely, "
     "instead encountered a dangerous storm.", "outcome"),  # resent (real_blind1b)
    (GO_FORTH_FAILURE, "I race the courier to the ferry landing",
     "The courier, who had been waiting for hours, suddenly appears in front of the ferry.",
     None),  # run 39
    (GO_FORTH_FAILURE, "I race the bandit to the fallen sword",
     "The bandit grabs the sword and grins.", None),
    (GO_FORTH_FAILURE, "I race the storm to the harbour mouth",
     "The storm is raging, and the water is rising rapidly.", None),  # no rival: weather
    (GO_FORTH_FAILURE, "I race the bailiff to the toll house",
     "As the bailiff approaches the toll house, he suddenly realizes that his horse has become "
     "unresponsive.", "outcome"),  # the twentieth words: the rival's mount
    (GO_FORTH_FAILURE, "I race the pedlar to the crossroads",
     "As the pedlar approaches, his cart begins to shake violently, and a loud rumble echoes "
     "through the street.", None),  # the nineteenth words: still coming on
    # the place leapt onto giving way is the landing undone; what was got clear of, falling, is
    # the dodge told (Sundered Isles: "On a strong hit, you are successful.")
    (STRONG_FACE_DANGER, "I leap from the mole onto the xebec's deck",
     "The xebec's deck, once a solid structure, now crumbles to the ground, revealing a hidden "
     "chamber.", "outcome"),  # the twentieth words
    (STRONG_FACE_DANGER, "I throw myself clear of the toppling statue",
     "The statue's legs crumble to the ground, and the air is filled with dust.",
     None),  # the sixteenth words
]  # fmt: skip


# A blow that landed told as the foe fighting on unhurt (real replies the guard let through);
# its falling, staggering or fleeing is the blow told rightly. Go Forth's check: "Roll d20 trying
# to beat the Target Number." Roll-under: "If the result is less than your character's Ability
# score, the Action succeeds."
FOES_FIGHTING_ON = [
    (GO_FORTH_SUCCESS, "I stab at the gnoll with my shortsword",
     "The gnoll's eyes widen, and it lunges at the blade.", "outcome"),  # the sixteenth words
    (ROLL_UNDER_SUCCESS, "I stab at the goblin king with my dagger",
     "The goblin king's eyes widen, and he lunges at the dagger.", "outcome"),  # resent
    (GO_FORTH_SUCCESS, "I bring my hammer down on the skeleton's skull",
     "The skeleton's eyes widen, and it turns to face the hammer.", "outcome"),  # resent
    (GO_FORTH_SUCCESS, "I swing my axe at the bandit",
     "The bandit staggers back and blocks the next swing with his shield.", "outcome"),  # written
    (GO_FORTH_SUCCESS, "I swing my axe at the bandit",
     "The bandit's body crumples to the ground, and the axe falls from its hand.", None),  # run 43
    (GO_FORTH_SUCCESS, "I drive my spear into the ghast's chest",
     "The ghast's eyes widen, and its body shakes violently.", None),  # the eighteenth words
    (GO_FORTH_SUCCESS, "I swing my sword at the goblin archer",
     "The goblin archer's arrow, now deflected by the sharp blade of the sword, clatters away.",
     None),  # grammar1: the blow's deflection
]  # fmt: skip


# A theft done well told as the one robbed attending to what was taken (real replies the guard
# passed), and a failure at slipping past told as the watchers' lights going out. Sundered Isles:
# "On a strong hit, you are successful."; "On a miss, you fail".
THEFTS_NOTICED_AND_WATCHERS_BLINDED = [
    (STRONG_FACE_DANGER, "I lift the coin purse from the guard captain",
     "The guard captain looks at the coin purse, then at the sky.", "outcome"),  # resent
    (STRONG_FACE_DANGER, "I pinch the purse from the noble's belt",
     "The noble's eyes go wide, and he looks down at the purse.", "outcome"),  # resent
    (STRONG_FACE_DANGER, "I snatch the dagger from the drunk's belt",
     "As the dagger clatters to the ground, the drunk's eyes flicker from it to the sky.",
     "outcome"),  # resent
    (STRONG_FACE_DANGER, "I pick the captain's pocket",
     "The captain's pocket is empty, and he looks around in confusion.", "outcome"),  # run 22
    (STRONG_FACE_DANGER, "I pick the captain's pocket",
     "As the captain's voice resonates through the ship, the crew members' eyes light up with "
     "anticipation.", None),  # run 49
    (STRONG_FACE_DANGER, "I lift the compass from the navigator's coat",
     "The navigator studies the stars, humming to himself.", None),  # written
    (MISS_FACE_DANGER, "I read the reef's currents to slip past the patrol",
     "As the current becomes more intense, the patrol's lights flicker and go out, casting a "
     "shadow over the reef.", "outcome"),  # run 46
    (MISS_FACE_DANGER, "I read the reef's currents to slip past the patrol",
     "The patrol's lanterns swing toward the reef, and a shout goes up.", None),  # written
    (MISS_FACE_DANGER, "I search the haven for the hidden letter",
     "As the search continues, the light starts to flicker and then go out completely.",
     None),  # run 38: no one watching is blinded
]  # fmt: skip


# A failed search told as the thing sought there, told of the thing itself (Go Forth: "Roll d20
# trying to beat the Target Number.")
SOUGHT_THERE = [
    (GO_FORTH_FAILURE, "I rifle through the study for the letters",
     "As the dust settles, the letters scatter across the floor, and a faint smell of ink "
     "lingers in the air.", "outcome"),  # the sixteenth words
    (GO_FORTH_FAILURE, "I scour the vestry for the hidden relic",
     "As the light from the flickering candle casts a shadow on the dusty shelves, the relic's "
     "hidden compartment begins to reveal itself.", "outcome"),  # the nineteenth words
    (GO_FORTH_FAILURE, "I search the haven for the hidden letter",
     "As the search continues, the air grows thick with humidity.", None),  # run 49
    (GO_FORTH_FAILURE, "I comb the library for the forbidden map",
     "The librarian's eyes widen with panic as the shelves creak.", None),  # the eighteenth
    # ... or told where it lies (stop 33: the thirty-fifth words begun with the scene, and the
    # thirty-sixth on stop 32's code)
    (GO_FORTH_FAILURE, "I search the collapsed chapel for the silver censer",
     "The sound of the collapsing chapel echoes through the air, and the weight of the rubble "
     "presses down on the silver censer.", "outcome"),
    (GO_FORTH_FAILURE, "I search the burnt library for the lost codex",
     "As the flames spread and smoke rises, the library becomes a smoldering inferno, with the "
     "codex buried beneath the ash.", "outcome"),
    (GO_FORTH_FAILURE, "I search the burnt library for the lost codex",
     "The smell of smoke and dust fills the air, making it difficult to see or hear.", None),
]  # fmt: skip

# A door that was to be held, told shut against them after all (roll-under: "Otherwise, it
# fails."); the door giving is the failure told rightly
DOORS_HELD_AFTER_ALL = [
    (ROLL_UNDER_FAILURE, "I hold the door against the orcs",
     "The orcs, noticing the door is now locked, begin to advance towards you.",
     "outcome"),  # run 14
    (ROLL_UNDER_FAILURE, "I hold the door against the orcs",
     "The door slumps down, and the orcs charge at it.", None),  # runs 49 and 50
]  # fmt: skip

# Run 51's misses, each in a shape the guard reads: a galleon let drift told drifting on, a lost
# attack told as the skeleton feeling its force, a leap to the enemy deck told as its ship's hull
# crumbling (Sundered Isles: "On a miss, you fail"; "On a strong hit, you are successful.")
RUN_51 = [
    (MISS_FACE_DANGER, "I cut the mooring lines and let the galleon drift",
     "As the galleon continues to drift, it begins to sink rapidly, its sails torn and its hull "
     "broken.", "outcome"),
    (GO_FORTH_FAILURE, "I attack the skeleton guarding the reliquary",
     "The skeleton, feeling the force of the attack, lunges at the relic.", "outcome"),
    (STRONG_FACE_DANGER, "I leap from the rigging to the enemy deck",
     "The enemy crew watches in awe as the ship's hull crumbles before their eyes.", "outcome"),
    (STRONG_FACE_DANGER, "I leap from the rigging to the enemy deck",
     "As the enemy crew watches in shock, they realize that their ship is no longer under "
     "control.", None),  # run 49
]  # fmt: skip

# Stop 30: a lost attack told as the foe hurt; a weapon made ready told striking home (the
# character acting past the attempt); a blow by any verb, and a thing rolled clear of, giving way
RUN_52_AND_TWENTY_SECOND = [
    (GO_FORTH_FAILURE, "I attack the skeleton guarding the reliquary",
     "The skeleton roars in pain, its eyes bulging with fear.", "outcome"),  # run 52
    (GO_FORTH_FAILURE, "I attack the skeleton guarding the reliquary",
     "The skeleton's claw bites at the back of its head, causing it to howl in pain.",
     "outcome"),  # run 48
    (GO_FORTH_FAILURE, "I attack the skeleton guarding the reliquary",
     "The skeleton's sharp claws pierce your armor, and you feel a rush of pain.", None),  # run 31
    (WEAK_FACE_DANGER, "I nock an arrow as the wolves break cover",
     "The arrow pierces the wolf's heart, but it also leaves a deep wound that will take time to "
     "heal.", "player_agency"),  # the twenty-second words
    (WEAK_FACE_DANGER, "I ready my crossbow as the bandits rush the camp",
     "The bandits' arrows find their mark, and the crossbow's bolts are no match for their "
     "sharpness.", None),  # the twenty-first words: theirs
    (WEAK_FACE_DANGER, "I aim my musket as the raiders storm the gate",
     "The raiders' arrows pierce the gate, leaving a trail of blood and debris.", None),
    (WEAK_FACE_DANGER, "I draw my bow and loose an arrow at the wolf",
     "The arrow strikes the wolf's flank, but the pack keeps coming.", None),  # the shot is said
    (STRONG_FACE_DANGER, "I drive my hammer into the ghoul's skull",
     "As the ghoul's skull crumbles, its eyes widen in terror, and it turns to run away.", None),
    (STRONG_FACE_DANGER, "I roll clear of the toppling bookcase",
     "The bookcase topples and shatters on the flagstones.", None),
    # the character's state of mind on their face as another sees it (runs 41, 44, 48, 49)
    (MISS_FACE_DANGER, "I try to sweet-talk the quartermaster into letting me go",
     "The quartermaster looks at the suspicious look on yur face and shakes his head.",
     "player_agency"),
    (MISS_FACE_DANGER, "I try to sweet-talk the quartermaster into letting me go",
     "The quartermaster looks at the confused look on the surprised face of the person who tried "
     "to sweet-talk him, and he realizes that his plan was a failure.", "player_agency"),
    (MISS_FACE_DANGER, "I try to sweet-talk the quartermaster into letting me go",
     "The quartermaster's face turns red, and he looks at his watch.", None),  # run 40: his
    (MISS_FACE_DANGER, "I try to sweet-talk the quartermaster into letting me go",
     "The quartermaster's face contorts in disbelief as he realizes the mistake.", None),
    # a crew steadied told as its fear growing (run 53); its fear subsiding is the steadying
    (STRONG_FACE_DANGER, "Kell steadies the frightened crew",
     "The crew's hearts thumped as they watched the storm clouds roll in, their fear growing.",
     "outcome"),
    (STRONG_FACE_DANGER, "Kell steadies the frightened crew",
     "The crew's fear subsides, and they begin to relax.", None),  # run 19
    # the twenty-third words: a failed wrench, pick, bar; a lost struggle and race; hounds calmed
    (MISS_FACE_DANGER, "I wrench the bars off the cellar grating",
     "As the bars come loose, they begin to fall on the floor, causing a loud crash.", "outcome"),
    (MISS_FACE_DANGER, "I wrench the bars off the cellar grating",
     "The bars hold firm, and the grating shrieks against its rusted frame.", None),
    (STORYTELLER_FAILURE, "I pick the lock on the Regent's cabinet",
     "The lock is jammed, and it takes a long time to turn.", "outcome"),
    (ROLL_UNDER_FAILURE, "I bar the chapel doors against the revenants",
     "The chapel doors are locked tight, and the revenants can't break through.", "outcome"),
    (ROLL_UNDER_FAILURE, "I bar the chapel doors against the revenants",
     "The revenants are determined to break through the doors, and they tear at the wood.", None),
    (ROLL_UNDER_FAILURE, "I wrestle the acolyte for the censer",
     "The acolyte's muscles give way, and the censer tips over.", "outcome"),
    (GO_FORTH_FAILURE, "I race the tax collector to the mill",
     "As the tax collector approaches, he suddenly notices a sudden storm that threatens to wash "
     "away all of his plans.", "outcome"),
    (GO_FORTH_FAILURE, "I race the tax collector to the mill",
     "As the tax collector approaches the mill, he grins and waves from the door.", None),
    (WEAK_FACE_DANGER, "I call on the blood to calm the frenzied hounds",
     "The hounds' frenzied cries become a deafening roar.", "outcome"),
    # run 54: the character's own voice; a trail lost on a tracking success; a misspelt lunge;
    # a struggle lost told as the other side afraid
    (GO_FORTH_FAILURE, "I wrestle the guard for the key",
     "The guard's strength is too great for a novice like myself.", "player_agency"),
    (GO_FORTH_TIE, "I haggle with the dwarf over the price",
     "The dwarf looks at the haggling, then sighs and says, 'I don't know what to do.'", None),
    (GO_FORTH_SUCCESS, "I track the goblins through the marsh",
     "The marsh becomes a vast, open expanse of grass and mud as the goblins' trail fades away.",
     "outcome"),
    (GO_FORTH_SUCCESS, "I track the goblins through the marsh",
     "The goblins' trail winds deeper into the reeds, fresh and plain.", None),
    (WEAK_FACE_DANGER, "I call on the blood to still the hound",
     "The hound's eyes widen in terror, and it lungses towards the source of the blood.",
     "outcome"),
    (ROLL_UNDER_FAILURE, "I arm-wrestle the orc for the map",
     "As the orc struggles to defend itself, its eyes widen in fear and confusion.", "outcome"),
    # the twenty-fourth words: what was leapt from breaking apart behind; boards split on a
    # failed prising
    (STRONG_FACE_DANGER, "I bound from the jetty onto the dhow's deck",
     "The dhow's crew cheered as the jetty broke apart, and they sailed off into the sunset.",
     None),
    (MISS_FACE_DANGER, "I prise the boards off the nailed crate",
     "The boards start to split, and the crate begins to tip over.", "outcome"),
    # run 56 and the eighteenth, twenty-first and twenty-fifth words: the character under the
    # game's name bent, given a nature; "your" bent again; a galleon "now adrift"
    (ELEGY_STRONG_HIT, "I tear the iron gate off its hinges",
     "The iron gate, once a barrier to the village's prosperity, now serves as a testament to "
     "Elegay's determination and ingenuity.", "player_agency"),
    (ELEGY_STRONG_HIT, "I charm the archbishop's secretary at the feast",
     "The archbishop's secretary, overwhelmed by the charm and warmth of Eleg y, finds themselves "
     "drawn to her, unable to resist.", "player_agency"),
    (ELEGY_STRONG_HIT, "I beguile the governor's aide at the salon",
     "The governor's aide, initially skeptical and wary, is now captivated by the allure of "
     "Elegy.", None),  # the fourteenth words: the charming told
    (ELEGY_STRONG_HIT, "I charm the doorman into letting me pass",
     "The doorman bows to the power of the Duke's seal and steps aside.", None),
    (MISS_FACE_DANGER, "I try to sweet-talk the quartermaster into letting me go",
     "As the quartermaster looks at the disappointed look on yor face, he realizes that his plan "
     "was not working.", "player_agency"),
    (MISS_FACE_DANGER, "I cut the mooring lines and let the galleon drift",
     "The galleon, now adrift in the stormy waters, is caught in a vortex of swirling winds.",
     "outcome"),
    # the twenty-sixth words: sleepers woken past a clause about them; a rival who "ran into" a
    # storm
    (STORYTELLER_SUCCESS, "I sneak past the snoring watchmen",
     "The snoring watchmen, who had been sleeping soundly, suddenly jolted to attention as they "
     "heard the soft rustling of leaves.", "outcome"),
    (STORYTELLER_SUCCESS, "I sneak past the snoring watchmen",
     "The snoring watchmen, slumped against the wall, sleep on.", None),
    (GO_FORTH_FAILURE, "I race the bailiff's runner to the mill",
     "The bailiff's runner, who was supposed to deliver the bail to the mill, instead ran into a "
     "sudden storm that caused the road to become impassable.", "outcome"),
    (GO_FORTH_FAILURE, "I race the bailiff's runner to the mill",
     "The bailiff's runner ran into the mill yard and rang the bell.", None),
    # a stilled hound leaping (runs 22, 43, 52); lying still is stilled
    (WEAK_FACE_DANGER, "I call on the blood to still the hound",
     "The hound's eyes widen, and it leaps towards the source of the blood.", "outcome"),
    (WEAK_FACE_DANGER, "I call on the blood to still the hound",
     "The hound's breathing slows, and it sinks down onto the straw.", None),
]  # fmt: skip

# Stop 31's runs 57 to 59 and the twenty-seventh to twenty-ninth words: the game's name of two
# words bent round the grammar ("Go For th") called a kind of person; a tracked quarry told
# alarmed, not of those around it; and below, each with its run
STOP_31 = [
    (GO_FORTH_FAILURE, "I wrestle the guard for the key",
     "The guard's strength is too great for even a skilled fighter like Go For th.",
     "player_agency"),
    (GO_FORTH_FAILURE, "I wrestle the guard for the key",
     "The guard's strength is too great for even a skilled swimmer.", None),  # names no one
    (ELEGY_STRONG_HIT, "I charm the doorman into letting me pass",
     "The doorman's eyes widen, and he smiles warmly at Elegay.", None),  # acted on
    (GO_FORTH_SUCCESS, "I track the goblins through the marsh",
     "As the goblins approach, they begin to scatter in panic.", "outcome"),  # runs 44, 49, 57
    (GO_FORTH_SUCCESS, "I track the goblins through the marsh",
     "As the goblins approach, they feel a sense of dread and fear, as if something is watching "
     "them from above.", "outcome"),  # run 43
    (GO_FORTH_SUCCESS, "I shadow the ghoul through the market",
     "The ghoul turns around, its eyes widening in fear.", "outcome"),  # run 20
    (GO_FORTH_SUCCESS, "I track the goblins through the marsh",
     "As the goblins approach, they begin to scatter in different directions, leaving a trail of "
     "their tracks behind them.", None),  # run 41: no alarm told
    (GO_FORTH_SUCCESS, "I shadow the ghoul through the market",
     "As the ghoul's shadow passes through the market, it casts a shadow of fear and uncertainty "
     "over the crowd.", None),  # run 54: the crowd's
    # the twenty-seventh words
    (STRONG_FACE_DANGER, "I sneak past the drowsy gate guards",
     "As the sun rises, casting a warm glow over the deserted town, the guards' eyes grow wide "
     "with confusion and fear.", "outcome"),
    (STRONG_FACE_DANGER, "I bury my hatchet in the troll's shoulder",
     "The troll's body crumbles to dust as it is buried, and the ground around it begins to "
     "shake.", None),  # the foe giving way is the blow landing
    (GO_FORTH_FAILURE, "I race the reeve's messenger to the ford",
     "As the messenger approaches the ford, he notices that the water level is unusually high.",
     None),  # an obstacle seen, none told holding the rival up
    (GO_FORTH_FAILURE, "I race the messenger to the ford",
     "As the messenger approaches the ford, he realizes that the road is blocked by a large "
     "tree.", "outcome"),  # blind1a: held up
    (WEAK_FACE_DANGER, "I call on the blood to quiet the baying hounds",
     "The baying hounds' cries become more intense, and the blood starts to flow freely.",
     "outcome"),  # what was quieted, louder
    (WEAK_FACE_DANGER, "I call on the blood to quiet the baying hounds",
     "The baying hounds fall silent, and the blood starts to flow freely.", None),
    # bent round the grammar, read as what it stands for (guard.unbent)
    (STRONG_FACE_DANGER, "I sneak past the guards", "Yor heart races as the guards pass.",
     "player_agency"),
    (STRONG_FACE_DANGER, "I sneak past the guards", "Kall draws his sword and charges at the guards.",
     "player_agency"),
    (STRONG_FACE_DANGER, "I sneak past the guards", "The guards yawn and nod at Kall as they pass.",
     None),  # acted on
    # run 58: fear on no one; a failure told as another letting the character through
    (ROLL_UNDER_FAILURE, "I balance along the narrow ledge",
     "As the ledge shakes, causing a sudden drop, fear and panic set in.", "player_agency"),
    (ROLL_UNDER_FAILURE, "I balance along the narrow ledge",
     "As the ledge gives way, causing a sudden drop, fear and panic set in among the group.", None),
    (MISS_FACE_DANGER, "I slip through the window before the guard turns",
     "The guard notices the suspicious movement and quickly opens the door, allowing the thief to "
     "escape.", "outcome"),
    (MISS_FACE_DANGER, "I try to sweet-talk the quartermaster into letting me go",
     "The quartermaster refuses to let you go.", None),
    (MISS_FACE_DANGER, "I chase the thief through the market",
     "The crowd parts, allowing the thief to escape.", None),  # the thief is the quarry
    # the twenty-eighth words: a cost as another's injury, a graze as a dodge, what was got
    # clear of named before its fall
    (WEAK_FACE_DANGER, "I call on the blood to calm the spooked horses",
     "The cost was a severe injury to the horse, requiring immediate medical attention.",
     "outcome"),
    (WEAK_FACE_DANGER, "I try to convince the harbourmaster to let us dock",
     "You must pay a hefty toll of 50 gold coins to the harbourmaster for this privilege.", None),
    # go_forth.txt: "If you miss: You Graze, dealing your Effort modifier in damage": a graze
    # hurts a little, so the blow told dodged altogether is the other side
    (GO_FORTH_GRAZE, "I sling a stone at the running thief",
     "The thief's heart races, but he manages to dodge the blow.", "outcome"),
    (GO_FORTH_GRAZE, "I throw my dagger at the fleeing thief",
     "The thief's eyes widen in surprise, and he tries to dodge the blow.", None),  # grammar1b
    (ROLL_UNDER_SUCCESS, "I fling myself clear of the toppling statue",
     "The statue's toppling force is now directed towards the ground, causing it to collapse with "
     "a loud crash.", None),
    (ROLL_UNDER_SUCCESS, "I fling myself clear of the toppling statue",
     "The statue hits the floor, and the floor collapses under you.", "outcome"),
    (ROLL_UNDER_FAILURE, "I wrestle the smuggler for the pistol",
     "As the smuggler tries to escape, they are caught by the police and arrested.", "outcome"),
    (ROLL_UNDER_FAILURE, "I wrestle the smuggler for the pistol",
     "The smuggler wrenches the pistol free, and you are caught by the watch.", None),
    # runs 51 and 59: "the man" is the sweet-talker
    (MISS_FACE_DANGER, "I try to sweet-talk the quartermaster into letting me go",
     "As the quartermaster looks at the confused look on the man's face, he realizes that the "
     "attempt to sweet-talk him into letting him go was a failure.", "player_agency"),
    (MISS_FACE_DANGER, "I try to sweet-talk the quartermaster into letting me go",
     "The quartermaster's face turns red as he looks at an old man's worried face.", None),
    # the twenty-ninth words: a grate come off, screams grown fiercer; a lid that "won't come
    # off" is denied ("n't" read as a denial, the twenty-second words)
    (MISS_FACE_DANGER, "I lever the grate off the cistern",
     "As the grate comes crashing down, water pours in and the cistern begins to overflow.",
     "outcome"),
    (MISS_FACE_DANGER, "I lever the lid off the barnacled strongbox",
     "The lid won't come off, and the barnacled strongbox is now leaking water.", None),
    (WEAK_FACE_DANGER, "I call on the blood to hush the screaming crowd",
     "The crowd's screams grew fiercer, and the blood flowed faster than ever before.", "outcome"),
    (WEAK_FACE_DANGER, "I call on the blood to hush the screaming crowd",
     "The crowd's screams fade to a murmur, and the blood flows faster than ever before.", None),
    (GO_FORTH_SUCCESS, "I stalk the Giovanni through the catacombs",
     "As the Giovanni's shadow looms over the catacombs, a chill runs down Kiel's spine.",
     "player_agency"),  # the name bent by two letters
    # run 60: "they" that can only be the character, before a "their" that may be others'
    (STRONG_FACE_DANGER, "I hack the security terminal",
     "As the world around them shifts, they find themselves in a new realm where technology has "
     "transformed their lives.", "player_agency"),
    (STRONG_FACE_DANGER, "I hack the security terminal",
     "As the guards rush in, they find themselves locked out of the control room.", None),
    # the thirtieth words: the calmed back in their state; the name bent given a nature
    (STRONG_FACE_DANGER, "Kell steadies the shaking deckhands",
     "The deckhands' eyes widen as they realize the gravity of their mistake, and they begin to "
     "shake again.", "outcome"),
    (STRONG_FACE_DANGER, "Kell steadies the shaking deckhands",
     "The deckhands stop shaking and take up the ropes.", None),
    (ELEGY_STRONG_HIT, "I charm the countess's herald at the tourney",
     "The countess's herald, impressed by the charm and elegance of Eleg y, decides to give her a "
     "special tourney prize.", "player_agency"),
    (ELEGY_STRONG_HIT, "I captivate the crowd at the salon",
     "The crowd is stunned by the beauty and elegance of Elegy's performance.", None),  # grammar1
    # read after the final measures (the thirty-first and thirty-second words)
    (STRONG_FACE_DANGER, "I slip past the drowsy watchman",
     "The watchman's eyes flick to the sky, and he looks around in confusion.", "outcome"),
    (MISS_FACE_DANGER, "I prise the boards off the chapel window",
     "As the boards come crashing down, they leave a trail of debris that blocks the entrance to "
     "the chapel.", "outcome"),
    (GO_FORTH_FAILURE, "I race the baron's rider to the gate",
     "As the rider approaches the gate, the baron's horse suddenly gallops out of control, causing "
     "a massive explosion.", "outcome"),
    (GO_FORTH_FAILURE, "I race the baron's rider to the gate",
     "As the rider approaches the gate, the baron's horse gallops through it first.", None),
]  # fmt: skip

# Stop 32: run 62, the thirty-third words and a paired trial of failed openings, races and
# struggles (the lid, the grate, the boards: LABELLING.md, "A failed opening told as opened,
# cracked, given way")
STOP_32 = [
    (STORYTELLER_FAILURE, "I crack the safe in the Prince's study",
     "As the clock ticks down, the tension builds in the room.", None),  # no game's clock
    (GO_FORTH_FAILURE, "I race the courier's horse to the bridge",
     "As the courier's horse starts to gallop away, it suddenly takes a sharp turn and runs into "
     "a tree.", "outcome"),
    (GO_FORTH_FAILURE, "I race the courier's horse to the bridge",
     "As the courier's horse gallops on, it reaches the bridge well ahead.", None),
    (MISS_FACE_DANGER, "I wrench the lid off the flooded crate",
     "As the water continues to rise, the crate becomes more unstable and the lid is no longer "
     "secure.", "outcome"),
    (GO_FORTH_FAILURE, "I wrestle the guard for the key",
     "As the guard tries to defend themselves, they realize that their strength is not enough "
     "and they are unable to hold the key.", "outcome"),
    (MISS_FACE_DANGER, "I pry the grate off the storm drain",
     "As the grate comes apart, water begins to pour out of the storm drain.", "outcome"),
    (MISS_FACE_DANGER, "I lever the grate off the cistern",
     "As the grate comes undone, water gushes in from below.", "outcome"),
    (MISS_FACE_DANGER, "I prise the boards off the nailed crate",
     "The boards start to slide off the crate, causing a loud clanging sound.", "outcome"),
    (MISS_FACE_DANGER, "I lever the lid off the barnacled strongbox",
     "As the strongbox shifts, it suddenly cracks and shudders violently.", "outcome"),
    (MISS_FACE_DANGER, "I force the lid off the tarred chest",
     "As the lid of the tarred chest caved in, a loud crack echoed through the cavern.", "outcome"),
    (MISS_FACE_DANGER, "I heave the grating off the hold",
     "As the grating continues to fall, it creates a loud clashing sound.", "outcome"),
    (MISS_FACE_DANGER, "I heave the grating off the hold",
     "The grating is too heavy for the hold to support.", None),
    (MISS_FACE_DANGER, "I wrench the shutters off the customs house window",
     "The shutters are stuck, and a loud crack of thunder echoes outside.", None),
    (MISS_FACE_DANGER, "I heave the cart out of the mud",
     "The cart tips over into the ditch.", None),  # no opening
    # run 63 (LABELLING.md: a tracking success told as the trail lost)
    (GO_FORTH_SUCCESS, "I track the goblins through the marsh",
     "As the goblins continue to move through the marsh, they become more elusive and difficult "
     "to track.", "outcome"),
    (GO_FORTH_SUCCESS, "I track the goblins through the marsh",
     "The goblins move on, unaware, their tracks easy to follow in the mud.", None),
    (GO_FORTH_SUCCESS, "I track the goblins through the marsh",
     "As the goblins move through the marsh, they are swept away by a sudden torrent of water "
     "that washes them out to sea.", "outcome"),  # run 64
    (GO_FORTH_SUCCESS, "I sneak past the sleeping grooms",
     "The world becomes a stage for the unexpected, as the grooms' sleep is shattered by the "
     "sudden intrusion.", "outcome"),  # the thirty-fifth words
    (GO_FORTH_SUCCESS, "I sneak past the sleeping grooms",
     "The grooms' sleep is undisturbed, and the stable is quiet.", None),
    (MISS_FACE_DANGER, "I force the rusted hatch open",
     "As the cold wind howls in through the cracked door, the air becomes thick with moisture and "
     "a sense of dread.", None),  # run 65: the air's, as runs 36 and 61's foreboding
    # the thirty-fourth words (LABELLING.md: a tie told as one side conceding)
    (GO_FORTH_TIE, "I haggle with the chandler over the lamp oil",
     "The chandler's eyes widen as he realizes the lamp oil is too expensive.", "outcome"),
    (GO_FORTH_TIE, "I haggle with the chandler over the lamp oil",
     "The chandler folds his arms, the lamp oil still between you.", None),
]  # fmt: skip

# Stop 33's runs, begun with the scene: a shiver down no one's spine is the character's (as
# "fear and panic set in" with no one named); one down another's is theirs (run 65)
STOP_33 = [
    (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
     "The sound of the door clobbering against the ground echoes through the empty room, "
     "sending shivers down the spine.", "player_agency"),  # run 67
    (GO_FORTH_FAILURE, "I pick the lock on the armoury door",
     "A gust of wind sweeps the yard, sending a shiver down the spine of the captain.", None),
]  # fmt: skip

# What was quieted or calmed at a cost, told going on (LABELLING.md: "A silencing at a cost told
# as the noise louder: contradicting (what was stopped stays stopped)"). Sundered Isles' Face
# Danger: "On a weak hit, you succeed, but not without a cost." The noise is the player's own
# word for it; its makers named in the clause; not their name again, nor the noise ending.
STOP_34 = [
    (WEAK_FACE_DANGER, "I call on the blood to silence the screeching ravens",
     "The ravens' screeching echoed through the forest, a haunting reminder of their past.",
     "outcome"),  # stop 33's trials (real_scene3a)
    (WEAK_FACE_DANGER, "I call on the blood to hush the howling wolves",
     "As the wolves howl in response, their cries echo through the forest.", "outcome"),
    (WEAK_FACE_DANGER, "I call on the blood to calm the stampeding cattle",
     "The cost was a heavy one, as it caused a panic among the herd and forced them to flee in "
     "terror.", "outcome"),  # real_scene2a
    (WEAK_FACE_DANGER, "I call on the blood to hush the howling wolves",
     "The cold wind howled through the trees, casting eerie shadows on the ground.", None),
    (WEAK_FACE_DANGER, "I call on the blood to silence the howling dogs",
     "The howling dogs' howls become a deafening silence, and the air becomes dry.", None),
    (WEAK_FACE_DANGER, "I call on the blood to calm the snarling hounds",
     "The snarling hounds' jaws clench, their eyes wide.", None),  # the thirty-third words
    # the player's attempt, in their words, given up by the character's party: a failure is
    # the engine's ("On a miss, you fail"), what the character does next the player's (run 70)
    (MISS_FACE_DANGER, "I read the reef's currents to slip past the patrol",
     "The smoke billows from the ship's boiler, and the crew is forced to abandon their attempt "
     "to slip past the patrol.", "player_agency"),
    (MISS_FACE_DANGER, "I read the reef's currents to slip past the patrol",
     "The smoke billows, and the crew is forced to abandon the ship.", None),
    (MISS_FACE_DANGER, "I read the reef's currents to slip past the patrol",
     "The smoke billows, and the crew does not abandon their attempt to slip past the patrol.",
     None),
    # the character made to feel, the name bent round the grammar (the fortieth words): "Kell
    # feels the weight of his vow" is the issue's own example; another's feeling sensed is theirs
    (STRONG_FACE_DANGER, "Kell reassures the weeping cabin boy",
     "The shadows of the old cabin grew thicker, and Kiel could feel the weight of the world "
     "pressing down on him.", "player_agency"),
    (STRONG_FACE_DANGER, "Kell reassures the weeping cabin boy",
     "The cabin boy's eyes widen, and Kiel can feel his unease.", None),
    (GO_FORTH_FAILURE, "I vault from the balcony to the carriage roof",
     "The cold wind gusts through the open window, causing a shiver down the back of Keld's "
     "neck.", "player_agency"),
    (GO_FORTH_FAILURE, "I vault from the balcony to the carriage roof",
     "The cold wind gusts through the open window, sending a shiver down the back of the "
     "coachman's neck.", None),
]  # fmt: skip

STOP_35 = [
    # a tracked quarry carried off by the world on a success (the fortieth words): Go Forth's
    # "The d20 determines success.", and the attempt the player named was to follow it
    (GO_FORTH_SUCCESS, "I track the bear through the birch wood",
     "The wind picks up, carrying the bear away from the birch wood.", "outcome"),
    (GO_FORTH_SUCCESS, "I follow the smugglers along the shore",
     "A wave crashes over the rocks, sweeping them away into the dark.", "outcome"),
    (GO_FORTH_SUCCESS, "I track the bear through the birch wood",
     "The wind picks up, carrying the dry leaves away from the birch wood.", None),
    # a failed search told with the sought writing there, spoiled (the forty-first words; run
    # 51): Go Forth's "The d20 determines success.", and the thing searched for was not found
    (GO_FORTH_FAILURE, "I search the flooded library for the captain's log",
     "The cold water seeps into the book, making it unreadable.", "outcome"),
    (GO_FORTH_FAILURE, "I search the haven for the hidden letter",
     "A sudden gust blows through the haven, causing the letter to become obscured and "
     "impossible to read.", "outcome"),
    (GO_FORTH_FAILURE, "I search the flooded library for the captain's log",
     "The cold water seeps through the shelves, and the lamp gutters.", None),
    (GO_FORTH_FAILURE, "I try to decipher the runes on the sealed door",
     "The runes are unreadable, worn smooth by the years.", None),
    # how the character did it, told for them at the sentence's close (the forty-first words);
    # as a frame before the world's clause it is the attempt ("As you open the door, ...")
    (STRONG_FACE_DANGER, "Kell comforts the frightened stowaway",
     "The stench of rotting food filled the air, creating a tense atmosphere as Kiel gently "
     "stroked the frightened stowaway's back.", "player_agency"),
    (STRONG_FACE_DANGER, "Kell comforts the frightened stowaway",
     "As Kiel kneels beside the frightened stowaway, the lantern light softens.", None),
    # the party's acts ("we") frame no attempt: the player tried to talk the bosun round, and
    # what the party does next is theirs (the thirty-fifth words; real_scene2b)
    (WEAK_FACE_DANGER, "I sweet-talk the bosun into lending us the longboat",
     "As we set sail, the wind picked up and the waves grew more turbulent.", "player_agency"),
    (WEAK_FACE_DANGER, "I sweet-talk the bosun into lending us the longboat",
     "The sun was setting as we approached the harbor, casting a warm glow over the water.",
     "player_agency"),
    (WEAK_FACE_DANGER, "I sweet-talk the bosun into lending us the longboat",
     "The bosun demands a hefty deposit, and we must find a way to pay it off.", None),
    (WEAK_FACE_DANGER, "I sweet-talk the bosun into lending us the longboat",
     "The storm rages around us, and the longboat strains at its rope.", None),
    # a blow that landed told as the player's weapon striking the place (run 73): Go Forth's
    # "The d20 determines success." and "The Effort die determines impact."; a weapon the
    # player dodged may strike the ground
    (GO_FORTH_SUCCESS, "I swing my axe at the bandit",
     "The sound of the axe striking the rock resonates through the forest, sending a chill down "
     "the spine of the bandit.", "outcome"),
    (GO_FORTH_SUCCESS, "I swing my axe at the bandit",
     "The sound of the axe striking the bandit's armor resonates through the forest.", None),
    # ... by any verb of striking (run 81)
    (GO_FORTH_SUCCESS, "I swing my axe at the bandit",
     "The sound of the axe clashing against the rock resonates through the forest.", "outcome"),
    (GO_FORTH_SUCCESS, "I dodge the thrown spear", "The spear strikes the ground beside you.",
     None),
    # a lost attack told as the foe's bones broken (runs 69 and 73, word for word): Go Forth's
    # "Both roll — higher total wins."; no one's bones underfoot are the place's (run 67)
    (GO_FORTH_LOSS, "I attack the skeleton guarding the reliquary",
     "The air is thick with the scent of decay and the skeleton's bones crunch underfoot.",
     "outcome"),
    (GO_FORTH_LOSS, "I attack the skeleton guarding the reliquary",
     "The air is thick with the scent of decay and the sound of bones crunching underfoot.", None),
    # others' feelings are theirs when they are named just before them (stop 35's trial of the
    # third-person lead); the character's are not the narrator's to tell
    (STRONG_FACE_DANGER, "Kell reassures the panicking passengers",
     "The sound of the engines reverberates through the cavernous halls, as the passengers begin "
     "to feel a sense of relief.", None),
    (STRONG_FACE_DANGER, "Kell reassures the panicking passengers",
     "The engines hum, making Kiel feel a surge of relief.", "player_agency"),
    # a sleeper robbed unseen told awake through a pronoun (the forty-second words): Sundered
    # Isles' "On a strong hit, you are successful."; one who sleeps on stays asleep
    (STRONG_FACE_DANGER, "I ease the purse from the drowsing merchant's belt",
     "The dust on the merchant's skin begins to fade, and he smiles at the sight of his new "
     "companion.", "outcome"),
    (STRONG_FACE_DANGER, "I ease the purse from the drowsing merchant's belt",
     "The lamp gutters beside the merchant, and he sleeps on.", None),
    (STRONG_FACE_DANGER, "I ease the purse from the drowsing merchant's belt",
     "The lamp gutters beside the merchant, as he dreams of gold.", None),
    # what the player meant to let happen, taken up by "it" (run 74): Face Danger's "On a miss,
    # you fail, or a momentary success is undermined by a dire turn of events."
    (MISS_FACE_DANGER, "I cut the mooring lines and let the galleon drift",
     "The sun sets in a storm, the galleon's hull shakes violently as it drifts towards the "
     "shore.", "outcome"),
    (MISS_FACE_DANGER, "I cut the mooring lines and let the galleon drift",
     "The galleon strains at its moorings as it rocks in the swell.", None),
]  # fmt: skip

STOP_36 = [
    # the calmed told growing more afraid, in a sentence that names them (the thirty-fifth words;
    # stop 35's trial): Face Danger's "On a strong hit, you are successful." and "On a weak hit,
    # you succeed, but not without a cost."; the calming itself is what succeeded
    (STRONG_FACE_DANGER, "Kell soothes the weeping refugees",
     "The refugees, overwhelmed by the news, began to sob more loudly.", "outcome"),
    (STRONG_FACE_DANGER, "Kell calms the panicking villagers",
     "The wind fills the air, creating a sense of dread that reaches the very core of the "
     "village.", "outcome"),
    (STRONG_FACE_DANGER, "Kell calms the spooked mule",
     "The rain started to pour down, making the mule feel even more scared.", "outcome"),
    (WEAK_FACE_DANGER, "Kell soothes the terrified passengers",
     "The air grew thick with tension as the passengers' fear and confusion mounted.", "outcome"),
    # fear only there, or ebbing, is not fear growing (labelled consistent, runs 30 and 43)
    (STRONG_FACE_DANGER, "Kell steadies the frightened crew",
     "The crew's hearts begin to slow, and they look up at Kell with a mixture of fear and "
     "relief.", None),
    (STRONG_FACE_DANGER, "Kell soothes the weeping refugees",
     "The refugees' sobs grow quieter, and their fear fades into the rain.", None),
    (STRONG_FACE_DANGER, "Kell calms the frightened children",
     "The frightened children grow quiet as the storm passes.", None),
    # a symbol of the character's own is their feeling told; a thing's symbol of something is the
    # thing's (run 74: "each one a symbol of hope and resilience", the stars): the narration
    # prompt's 'Never make "you" speak, decide, choose, act beyond the attempt, or feel'
    (WEAK_FACE_DANGER, "I sneak aboard the moored galleon",
     "The night sky above the moored galleon was a canvas of stars, each one a symbol of hope "
     "and resilience.", None),
    (GO_FORTH_SUCCESS, "I climb the cliff to the watchtower",
     "The watchtower is now a symbol of your success and pride.", "player_agency"),
    # one faced down told undaunted on a win (run 8; the forty-third words): Storyteller's "A
    # simple resisted action has both parties roll their dice pools. Whoever gets more
    # successes wins."; one who yields, or lunges at nothing, is not
    (STORYTELLER_WIN, "I face down the Brujah gang leader in the alley",
     "The wind howls as the Brujah gang leader approaches, his eyes narrowing with "
     "determination.", "outcome"),
    (STORYTELLER_WIN, "I stare down the rival Kindred",
     "The rival Kindred lunges forward, its eyes narrowed with determination.", "outcome"),
    (STORYTELLER_WIN, "I stare down the rival Kindred",
     "The rival Kindred retreats, defeated by your determination and strength.", None),
    (STORYTELLER_WIN, "I face down the Gangrel in the woods",
     "The Gangrel retreats into the shadows, its eyes narrowed with a mixture of fear and "
     "determination.", None),
    (STORYTELLER_WIN, "I stare down the rival Gangrel",
     "The rival Gangrel's leader lunges at the ground in a fury.", None),
    # a grapple lost told as the foe caught in it (the forty-third words): Roll-under's "both
    # opponents make Ability Saves, and the lowest roll succeeds."; the player's own struggle in
    # the foe's grip is the loss
    (ROLL_UNDER_LOST, "I grapple the smuggler for the cargo manifest",
     "The smell of sweat and fear fills the air as the smuggler struggles to free himself.",
     "outcome"),
    (ROLL_UNDER_LOST, "I wrestle the guard for the key",
     "The guard's grip is too tight, and you struggle to break free.", None),
    # no one's nerves calmed are the character's, as a shiver down no one's spine (run 77), and
    # so are theirs by name, whoever stood before (stop 35's trial): the narration prompt's
    # 'Never make "you" speak, decide, choose, act beyond the attempt, or feel'; others' nerves
    # are theirs
    (STORYTELLER_WIN, "I stare down the rival Kindred",
     "The wind rustles through the trees, creating a soothing melody that calms the nerves and "
     "brings a sense of peace to the atmosphere.", "player_agency"),
    (STRONG_FACE_DANGER, "Kell calms the panicking horses",
     "The sound of the horses' hooves echoed through the field, creating a soothing rhythm that "
     "calmed K ell's nerves.", "player_agency"),
    (STRONG_FACE_DANGER, "Kell reassures the terrified deckhands",
     "The deckhands realized that the reassurance had calmed their nerves.", None),
    (STRONG_FACE_DANGER, "Kell reassures the terrified deckhands",
     "The wind calms the nerves of the deckhands.", None),
    # a hushing at a cost told as the noise louder, its makers named in the singular (the
    # forty-fifth words, on Elegy's blood at a cost): Face Danger's "On a weak hit, you succeed,
    # but not without a cost.", and what was hushed stays hushed
    (WEAK_FACE_DANGER, "I call on the blood to hush the barking dogs",
     "The cold wind howls through the trees, cutting at the dog's fur and causing them to bark "
     "even more.", "outcome"),
    (WEAK_FACE_DANGER, "I call on the blood to hush the barking dogs",
     "The cold wind howls through the trees, ruffling the dog's fur as the barking fades.", None),
    # a failed search told with the thing there, past reach (the forty-fifth words): Go Forth's
    # "The d20 determines success.", and the thing was not found
    (GO_FORTH_FAILURE, "I search the flooded crypt for the abbot's seal",
     "The sun is shining brightly, but the floodwaters are too deep to reach the abbot's seal.",
     "outcome"),
    (GO_FORTH_FAILURE, "I search the flooded crypt for the abbot's seal",
     "The floodwaters are too deep to search, and the crypt lies silent.", None),
]  # fmt: skip

STOP_37 = [
    # the foe struck home firing back, in a sentence that names them or told of "he" (run 78):
    # roll-under's "On a one, the deed succeeds spectacularly without any chance for your
    # opponent to avoid it"; a battle's gunfire elsewhere is the scene
    (ROLL_UNDER_SPECTACULAR, "I vault the table and strike at the bandit chief",
     "The sound of the bandit chief's gunshots reverberates through the room, and the air is "
     "thick with tension.", "outcome"),
    (GO_FORTH_SUCCESS, "I swing my sabre at the corsair",
     "The corsair reels back, and he fires his pistol at your chest.", "outcome"),
    (ROLL_UNDER_SPECTACULAR, "I vault the table and strike at the bandit chief",
     "Gunshots echo from the harbour below, and the air is thick with smoke.", None),
    (ROLL_UNDER_SPECTACULAR, "I vault the table and strike at the bandit chief",
     "The bandit chief's pistol clatters to the floor, unfired.", None),
    (ROLL_UNDER_SPECTACULAR, "I vault the table and strike at the bandit chief",
     "The bandit chief reels, and he shot a glance at the door.", None),
    # ... but a body "charged with energy" is no charge (the forty-sixth words: refused, read
    # consistent)
    (ROLL_UNDER_SPECTACULAR, "I slash my rapier across the duellist's forearm",
     "The air around the duelist's body becomes charged with energy, and a surge of power flows "
     "through it.", None),
    (ROLL_UNDER_SPECTACULAR, "I slash my rapier across the duellist's forearm",
     "The duellist snarls and charges at you, blade high.", "outcome"),
    # a grapple lost told as the foe struggling for what it kept (the forty-sixth words): "both
    # opponents make Ability Saves, and the lowest roll succeeds"; the deserter kept hold
    (ROLL_UNDER_LOST, "I wrestle the deserter for the regimental colours",
     "The air is thick with the scent of sweat and fear, as the deserter struggles to free the "
     "regimental colours from his grasp.", "outcome"),
    (ROLL_UNDER_LOST, "I wrestle the deserter for the regimental colours",
     "The deserter clutches the regimental colours to his chest, sneering.", None),
]  # fmt: skip

CASES = [
    *STOP_37,
    *STOP_36,
    *STOP_35,
    *STOP_34,
    *STOP_33,
    *STOP_32,
    *STOP_31,
    *RUN_52_AND_TWENTY_SECOND,
    *RUN_51,
    *DOORS_HELD_AFTER_ALL,
    *SEEN,
    *GRAMMAR_WORDS,
    *SLEEPERS,
    *THEY_AS_YOU,
    *RIVALS_HELD_UP,
    *FOES_FIGHTING_ON,
    *THEFTS_NOTICED_AND_WATCHERS_BLINDED,
    *SOUGHT_THERE,
]


@pytest.mark.parametrize(("roll", "action", "words", "flagged"), CASES)
def test_what_this_sessions_runs_showed(
    roll: tuple,  # type: ignore[type-arg]
    action: str,
    words: str,
    flagged: str | None,
) -> None:
    lead, expect = _after_lead(*roll, action)
    report = check_narration(f"{lead} {words}", expect)
    if flagged:
        assert flagged in report.failed, report.reason()
    else:
        assert report.passed, report.reason()


def test_a_row_that_does_not_harm_is_never_told_as_harm_to_you() -> None:
    # Elegy's Pay the Price: "23–26 You are separated from something or someone"; run 28's spark
    # told it "The hunter's arrow pierces the chest, and you fall to the ground": a graver row
    # ("You are harmed" and the like) than the one rolled.
    spark = resolve_roll("elegy", "table", {"table": "pay_the_price"}, seed=3)
    rows = facts.table_rows(spark)
    assert rows == ["You are separated from something or someone"]
    lead = spark_lead("Pay the Price", rows)
    expect = expectation_from(spark).model_copy(update={"lead": lead})
    harmed = f"{lead} The hunter's arrow pierces the chest, and you fall to the ground."
    assert check_narration(harmed, expect).failed == ["outcome"]
    apart = f"{lead} The hunter's arrow pierces the chest of a lone figure, and you are left alone."
    assert check_narration(apart, expect).passed


def test_a_choice_posed_is_not_a_choice_made() -> None:
    # "On a weak hit, you succeed, but not without a cost": a cost may be a hard choice, and the
    # choice is the player's. Run 28's "You are forced to choose between a life of hunting or a
    # life of solitude, and the choice is yours" poses it; "you are forced to flee" makes one.
    lead, expect = _after_lead(*WEAK_FACE_DANGER, "I call on the blood to still the hound")
    posed = "You are forced to choose between a life of hunting or a life of solitude."
    assert check_narration(f"{lead} {posed}", expect).passed
    made = "You are forced to flee into the woods."
    assert "player_agency" in check_narration(f"{lead} {made}", expect).failed


def test_an_attack_that_always_hits_is_never_told_as_a_miss() -> None:
    # roll_under.md: "Attacks *always* hit. The attacker rolls their weapon's damage die and
    # deals that much damage to their opponent's HP." Played at stop 37 with the real model: a
    # d6 of 4 against armour 1, 3 damage, told "You slash at the first mate with your cutlass,
    # but you miss." The narration of a foe's attack on "you" is bound the same way.
    params = {
        "weapons": [{"die": 6}],
        "targets": [{"name": "first mate", "armor": 1, "hp": 6, "brawn": 10}],
    }
    attack = resolve_roll("roll_under", "attack", params, dice=[4])
    expect = expectation_from(attack, character="Ash", action="I slash at the first mate")
    missed = "You slash at the first mate with your cutlass, but you miss."
    assert "outcome" in check_narration(missed, expect).failed
    wide = "The ogre's club goes wide of your head."
    assert "outcome" in check_narration(wide, expect).failed
    landed = "Your cutlass bites into the first mate's shoulder; his missing teeth show in a snarl."
    assert check_narration(landed, expect).passed
    # ... and where a roll's blow may miss, the word is the narrator's (a deed's save failed)
    deed = resolve_roll("roll_under", "deed", {"ability": "finesse", "score": 13}, dice=[18])
    told = "You lunge at the first mate, but you miss as he twists aside."
    assert "an attack" not in check_narration(told, expectation_from(deed)).reason()


def test_an_attack_that_landed_is_not_turned_aside_nor_its_harm_made_a_death() -> None:
    # roll_under.md: "Attacks *always* hit" and "Before dealing damage to HP, subtract the
    # target's Armor rating": only armour that took it all turns a blow aside. And "Damage
    # reduces HP": a troll left HP is not dead (Brawn at zero is: "the character dies").
    # The bench's attacks led "and it lands" (stop 37): "the javelin bounces off with a
    # sickening thud" after 6 damage; "the troll's body slowly decomposes", the troll harmed.
    def told(params: dict[str, object], dice: list[int], words: str) -> list[str]:
        attack = resolve_roll("roll_under", "attack", params, dice=dice)
        return check_narration(words, expectation_from(attack)).failed

    boar = {"weapons": [{"die": 6}]}
    assert "outcome" in told(boar, [6], "The javelin bounces off with a sickening thud.")
    knight = {"weapons": [{"die": 4}], "targets": [{"name": "knight", "armor": 5}]}
    assert not told(knight, [3], "The dagger bounces off the knight's visor.")
    troll = {"weapons": [{"die": 10}], "targets": [{"name": "troll", "armor": 2, "hp": 12, "brawn": 14}]}  # fmt: skip
    assert "outcome" in told(troll, [9], "The troll's body slowly decomposes.")
    assert not told(troll, [9], "The troll staggers, black blood on its hide.")
    slain = {"weapons": [{"die": 12}], "targets": [{"name": "goblin", "hp": 2, "brawn": 3}]}
    assert resolve_roll("roll_under", "attack", slain, dice=[12]).outcome == "dead"
    assert not told(slain, [12], "The goblin falls dead at your feet.")


def test_one_critically_injured_stays_out_of_the_fight() -> None:
    # roll_under.md: "If your Save fails, the damage is a Critical Injury. Your character adds a
    # Fatigue debility to their inventory and is unconscious and out of the fight until
    # revived." The forty-eighth words' attacks: "followed by a momentary silence as the bosun
    # regains consciousness", after the bosun's critical injury.
    params = {"weapons": [{"die": 8}], "targets": [{"name": "bosun", "armor": 1, "hp": 5, "brawn": 9}]}  # fmt: skip
    attack = resolve_roll("roll_under", "attack", params, dice=[7, 17])
    assert attack.outcome == "critical_injury"
    expect = expectation_from(attack)
    woke = "The axe hits the bosun's chest, and after a silence the bosun regains consciousness."
    assert "outcome" in check_narration(woke, expect).failed
    down = "The axe hits the bosun's chest, and he crumples to the deck, still."
    assert check_narration(down, expect).passed
    harmed = resolve_roll("roll_under", "attack", {"weapons": [{"die": 6}]}, dice=[4])
    assert check_narration(
        "The mate staggers to his feet, bleeding.", expectation_from(harmed)
    ).passed
