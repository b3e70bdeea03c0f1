"""The narration guard: measured on labelled narrations, then one test per ruling.

House rule: each rule's test quotes the source sentence it reads.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any, Literal

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict

from rules.catalog import load_moves
from rules.models import Resolution
from rules.registry import all_systems, resolve_roll
from service.narrator.guard import (
    CHECKS,
    DRAWS,
    POLARITIES,
    Expectation,
    GuardReport,
    check_narration,
    expectation_from,
    known_changes,
    polarity_of,
)

DATA = Path(__file__).with_name("narrations.yaml")
CATCH_AT_LEAST = 0.90
FALSE_ALARMS_AT_MOST = 0.05
# Regression floors at what the guard achieves (issue 15, 293f928: dev 153/157, heldout 35/35,
# heldout_final 19/19). All three are tuned on now (heldout and heldout_final since their misses
# were studied for issue 15): these floors guard against regressions, they estimate nothing.
CATCH_FLOORS = {"dev": 0.97, "heldout": 1.0, "heldout_final": 1.0}


# --- the labelled set ----------------------------------------------------------------------


class Labelled(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    system: str
    kind: str
    outcome: str
    match: bool | None
    numbers: list[int]
    character: str | None
    text: str
    label: Literal["consistent", "contradicting"]
    check: Literal["outcome", "answer", "numbers", "player_agency"] | None = None
    note: str | None = None

    def expectation(self) -> Expectation:
        return Expectation(
            system=self.system,
            outcome=self.outcome,
            polarity=polarity_of(self.system, self.kind, self.outcome),
            match=self.match,
            numbers=frozenset(self.numbers),
            character=self.character,
            changes=known_changes(self.kind),  # an oracle changes nothing; otherwise unknown
        )


@cache
def labelled() -> dict[str, list[Labelled]]:
    raw = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    return {split: [Labelled.model_validate(e) for e in raw[split]] for split in raw}


def test_the_labelled_set_is_large_balanced_and_well_formed() -> None:
    data = labelled()
    assert set(data) >= {"dev", "heldout"}
    assert len(data["dev"]) >= 100
    assert len(data["heldout"]) >= 60
    every = [e for split in data.values() for e in split]
    assert len({e.id for e in every}) == len(every), "ids are unique"
    systems = {s.id for s in all_systems()}
    for split, entries in data.items():
        assert len({e.system for e in entries}) >= 4, split
        share = Counter(e.label for e in entries)["contradicting"] / len(entries)
        assert 0.4 <= share <= 0.6, f"{split}: {share:.0%} contradicting"
        for e in entries:
            assert e.system in systems, e.id
            assert (e.check is None) == (e.label == "consistent"), e.id
            if e.check == "outcome":
                assert polarity_of(e.system, e.kind, e.outcome) != "neutral" or e.outcome in DRAWS


def _rates(entries: list[Labelled]) -> tuple[int, int, int, int, int]:
    caught = by_named = contradicting = alarms = consistent = 0
    for e in entries:
        report = check_narration(e.text, e.expectation())
        if e.label == "contradicting":
            contradicting += 1
            caught += not report.passed
            by_named += e.check in report.failed
        else:
            consistent += 1
            alarms += not report.passed
    return caught, contradicting, alarms, consistent, by_named


@pytest.mark.parametrize("split", ["dev", "heldout", "heldout_final"])
def test_catch_rate_and_false_alarms_on_the_labelled_set(
    split: str, guard_rates: dict[str, str]
) -> None:
    if split not in labelled():
        pytest.skip(f"no {split} split")
    caught, contradicting, alarms, consistent, by_named = _rates(labelled()[split])
    catch, false_alarms = caught / contradicting, alarms / consistent
    line = (
        f"{split:>13}: caught {caught}/{contradicting} contradictions ({catch:.1%}; "
        f"{by_named} by the check named in the label), "
        f"false alarms {alarms}/{consistent} consistent ({false_alarms:.1%})"
    )
    guard_rates[split] = line
    # False alarms cost a model call each: at most 5% on every split, the blind ones included.
    assert false_alarms <= FALSE_ALARMS_AT_MOST, line
    # Every split keeps the floor it reached (all are tuned on now: see CATCH_FLOORS).
    if split in CATCH_FLOORS:
        assert catch >= CATCH_FLOORS[split], line


def test_a_consistent_narration_passes_at_every_sentence_while_streaming() -> None:
    """The service checks the text so far at each sentence boundary: a narration that passes
    whole must not be rejected halfway (dev split; the held-out split is only measured)."""
    for e in labelled()["dev"]:
        if e.label != "consistent":
            continue
        sentences = re.split(r"(?<=[.!?])\s+", e.text.strip())
        for i in range(1, len(sentences) + 1):
            prefix = " ".join(sentences[:i])
            assert check_narration(prefix, e.expectation()).passed, (e.id, prefix)


def test_numbers_answer_and_agency_never_take_back_a_flag() -> None:
    """Those three checks read each sentence on its own: what fails on a prefix fails on the
    whole text (only the outcome check lets a later "But ..." undo a claim)."""
    for e in (e for split in labelled().values() for e in split):
        sentences = re.split(r"(?<=[.!?])\s+", e.text.strip())
        whole = set(check_narration(e.text, e.expectation()).failed)
        for i in range(1, len(sentences)):
            failed = set(check_narration(" ".join(sentences[:i]), e.expectation()).failed)
            assert failed - {"outcome"} <= whole, (e.id, i)


# --- polarity ------------------------------------------------------------------------------

# The brief's list of the engine's outcome strings, by (system, kind).
SUNDERED_BANDED = (
    "action", "progress", "endure_harm", "endure_stress", "companion_takes_a_hit",
    "withstand_damage", "heal", "hearten", "resupply", "repair", "sojourn",
)  # fmt: skip
ENGINE_OUTCOMES: dict[tuple[str, str], set[str]] = {
    **{("sundered_isles", k): {"miss", "weak_hit", "strong_hit"} for k in SUNDERED_BANDED},
    ("sundered_isles", "move"): {"miss", "weak_hit", "strong_hit", "yes", "no", "no_roll"},
    ("sundered_isles", "oracle"): {"yes", "no"},
    **{
        ("elegy", k): {"miss", "weak_hit", "strong_hit"}
        for k in ("action", "conclusion", "power", "ritual", "move")
    },
    ("elegy", "oracle"): {"yes", "no"},
    ("go_forth", "check"): {"success", "failure"},
    ("go_forth", "effort"): {"hit", "graze"},
    ("go_forth", "contest"): {"win", "loss", "tie"},
    ("storyteller", "simple"): {"success", "failure", "botch"},
    ("storyteller", "extended"): {"success", "failure", "botch"},
    ("storyteller", "teamwork"): {"success", "failure", "botch"},
    ("storyteller", "resisted"): {"win", "loss", "tie", "botch"},
    ("storyteller", "extended_resisted"): {"win", "loss", "tie", "botch", "continue"},
    ("roll_under", "save"): {"success", "failure"},
    ("roll_under", "aid"): {"success", "failure"},
    ("roll_under", "interfere"): {"success", "failure"},
    ("roll_under", "deed"): {"spectacular_success", "success", "failure", "miserable_failure"},
    ("roll_under", "opposed"): {"actor_wins", "opponent_wins", "stalemate"},
    # fateweaver's own yes/no oracle for the three texts that have none: a "no" told as "Yes"
    # reached the player unflagged (its polarity was neutral)
    **{(s, "oracle"): {"yes", "no"} for s in ("go_forth", "storyteller", "roll_under")},
}
# Outcomes that are neither success nor failure, on purpose: nobody wins a tie or a stalemate
# ("neither side wins ... the situation stays as it was"), an extended contest may simply go
# on, and a move without a roll (Pay the Price) only reports a table row.
NEUTRAL_ON_PURPOSE = {"tie", "stalemate", "continue", "no_roll"}


@cache
def engine_outcomes() -> dict[tuple[str, str], set[str]]:
    """Every outcome each roll kind's examples produce, over enough seeds to see them all."""
    seen: dict[tuple[str, str], set[str]] = {}
    for system in all_systems():
        for kind_id, kind in system.roll_kinds.items():
            if kind_id in ("table", "expression"):
                continue
            outcomes = seen.setdefault((system.id, kind_id), set())
            wanted = ENGINE_OUTCOMES.get((system.id, kind_id), set())
            for example in kind.examples:
                for seed in range(400):
                    outcomes.add(resolve_roll(system.id, kind_id, example, seed=seed).outcome)
                    if wanted and wanted <= outcomes and seed >= 40:
                        break
    return seen


def test_the_polarity_table_covers_the_engines_outcome_strings() -> None:
    seen = engine_outcomes()
    for (system, kind), outcomes in ENGINE_OUTCOMES.items():
        assert seen[(system, kind)] == outcomes, (system, kind)
        assert set(POLARITIES[system][kind]) == outcomes, (system, kind)


def test_polarity_is_defined_for_every_outcome_of_the_rolled_kinds() -> None:
    for (system, kind), outcomes in ENGINE_OUTCOMES.items():
        for outcome in outcomes - NEUTRAL_ON_PURPOSE:
            assert polarity_of(system, kind, outcome) != "neutral", (system, kind, outcome)
        for outcome in outcomes & NEUTRAL_ON_PURPOSE:
            assert polarity_of(system, kind, outcome) == "neutral", (system, kind, outcome)


def test_other_kinds_and_unknown_outcomes_are_neutral() -> None:
    for (system, kind), outcomes in engine_outcomes().items():
        if (system, kind) in ENGINE_OUTCOMES or kind == "multiple":
            continue
        for outcome in outcomes:  # meters, tracks, damage, wounds, initiative, ...
            assert polarity_of(system, kind, outcome) == "neutral", (system, kind, outcome)
    table = resolve_roll("sundered_isles", "table", {"table": "pay_the_price"}, seed=3)
    assert polarity_of("sundered_isles", "table", table.outcome) == "neutral"  # a row range
    assert polarity_of("sundered_isles", "action", "triumph") == "neutral"
    assert polarity_of("nowhere", "action", "strong_hit") == "neutral"


def test_storyteller_multiple_actions_have_a_polarity_only_when_they_agree() -> None:
    # "The player first declares how many actions they wish to take": one outcome per action.
    assert polarity_of("storyteller", "multiple", "success,success") == "success"
    assert polarity_of("storyteller", "multiple", "failure,botch,failure") == "failure"
    assert polarity_of("storyteller", "multiple", "success,failure") == "neutral"


def test_rulings_on_polarity() -> None:
    # "On a weak hit, you succeed, but not without a cost." (Face Danger)
    assert polarity_of("sundered_isles", "move", "weak_hit") == "mixed"
    # "On a miss, you get hungrier and the power is activated, but not without consequences."
    assert polarity_of("elegy", "power", "miss") == "mixed"
    # "If you miss: You Graze, dealing your Effort modifier in damage"
    assert polarity_of("go_forth", "effort", "graze") == "failure"
    # "If you roll a botch while having zero successes ... the action is botched. This is a DnD
    # critical failure."
    assert polarity_of("storyteller", "simple", "botch") == "failure"
    # "On a twenty, the deed fails miserably, and the intended result happens to your character"
    assert polarity_of("roll_under", "deed", "miserable_failure") == "failure"


# --- expectation_from ----------------------------------------------------------------------


def _face_danger(dice: list[int]) -> Resolution:
    params = {"move": "face_danger", "stat": "edge", "stat_value": 2, "momentum": 4}
    return resolve_roll("sundered_isles", "move", params, dice=dice)


def test_expectation_from_collects_every_number_the_engine_produced() -> None:
    r = _face_danger([6, 2, 7])  # action 6 + edge 2 = 8: beats 2 and 7
    e = expectation_from(r, character="Kara", extra_numbers=[12])
    assert (e.system, e.outcome, e.polarity, e.match, e.character) == (
        "sundered_isles", "strong_hit", "success", False, "Kara",
    )  # fmt: skip
    assert {6, 2, 7, 8, 4, 1, 12} <= e.numbers  # dice, score, edge, momentum, +1, extra
    # held only implicitly: momentum after the +1, and how many dice were rolled
    assert {5, 3} <= e.numbers


def test_expectation_from_leaves_out_the_seed() -> None:
    r = resolve_roll("go_forth", "check", {"roll_bonus": 3, "tn": 13}, seed=987_654_321)
    assert 987_654_321 not in expectation_from(r).numbers


def test_expectation_from_has_a_tables_row_range_and_a_yes_no_tables_answer() -> None:
    r = resolve_roll("sundered_isles", "table", {"table": "begin_a_session"}, dice=[24])
    assert {21, 30, 24} <= expectation_from(r).numbers  # row 21-30
    yes_no = resolve_roll("elegy", "table", {"table": "yes_no_likely"}, dice=[24])
    assert yes_no.text == "No"
    assert expectation_from(yes_no).polarity == "no"


def test_expectation_from_reads_a_moves_own_band() -> None:
    # Use Power through the generic move kind: "On a miss, ... the power is activated".
    params = {"move": "use_power", "stat": "force", "stat_value": 2, "focus": 2}
    r = resolve_roll("elegy", "move", params, dice=[9, 8])
    assert r.outcome == "miss"
    assert expectation_from(r).polarity == "mixed"


def test_the_engines_own_outcome_text_passes_for_every_example_roll() -> None:
    for system in all_systems():
        for kind_id, kind in system.roll_kinds.items():
            for example in kind.examples:
                for seed in range(12):
                    r = resolve_roll(system.id, kind_id, example, seed=seed)
                    if r.text:
                        report = check_narration(r.text, expectation_from(r))
                        assert report.passed, (system.id, kind_id, r.outcome, report.reason())


# --- the report ----------------------------------------------------------------------------


def _expect(
    system: str,
    kind: str,
    outcome: str,
    numbers: tuple[int, ...] = (),
    character: str | None = None,
) -> Expectation:
    return Expectation(
        system=system,
        outcome=outcome,
        polarity=polarity_of(system, kind, outcome),
        numbers=frozenset(numbers),
        character=character,
    )


def failed(text: str, expect: Expectation) -> list[str]:
    return check_narration(text, expect).failed


MISS = _expect("sundered_isles", "move", "miss", (1, 2, 3, 8, 9))
WEAK = _expect("sundered_isles", "move", "weak_hit", (1, 2, 3, 6, 8))
STRONG = _expect("sundered_isles", "move", "strong_hit", (1, 2, 3, 4, 5, 6), "Kara")


def test_the_report_names_each_check_and_what_failed() -> None:
    report = check_narration("You succeed! Take +4 momentum.", MISS)
    assert [c.id for c in report.checks] == list(CHECKS)
    assert not report.passed
    # a gain on a miss is a change no miss makes, whatever the request says of its changes
    assert report.failed == ["outcome", "numbers", "changes"]
    assert report.reason() == (
        "a miss told as success: 'you succeed'; numbers the engine did not produce: '+4 momentum'"
        "; a gain told on a miss, which grants none: 'take +4 momentum'"
    )
    dumped = report.model_dump()
    assert dumped["failed"] == [
        "outcome",
        "numbers",
        "changes",
    ]  # the response says which check failed
    assert GuardReport.model_validate(dumped) == report
    with pytest.raises(ValueError):
        report.passed = True  # type: ignore[misc]


def test_nothing_said_yet_passes() -> None:
    for expect in (MISS, WEAK, STRONG, _expect("elegy", "oracle", "no")):
        assert check_narration("", expect).passed


# --- outcome -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expect", "flagged"),
    [
        # "On a miss, you fail, or a momentary success is undermined by a dire turn of events."
        ("You vault the rail and land cleanly on the quarterdeck.", MISS, True),
        ("You succeed in picking the lock.", MISS, True),
        ("Victory is yours: the cutter strikes her colours.", MISS, True),
        ("You fail, and the rope snaps.", MISS, False),
        ("For a moment you succeed, until the rope snaps.", MISS, False),
        ("You reach the ledge. But it crumbles under your boots.", MISS, False),
        ("The cutter succeeds in running you down.", MISS, False),
        ("If you succeed, the harbour is yours.", MISS, False),
        # "On a strong hit, you are successful. Take +1 momentum."
        ("You fail to make landfall and are driven out to sea.", STRONG, True),
        ("Kara's ritual fails; the candles gutter out.", STRONG, True),
        ("You lose your footing and tumble into the surf.", STRONG, True),
        ("You slip the blockade, but not without a cost.", STRONG, True),
        ("The guard fails to notice you.", STRONG, False),
        ("You don't fail them this time.", STRONG, False),
        ("Kara is successful. Take +1 momentum.", STRONG, False),
        # "On a weak hit, you succeed, but not without a cost. Make a suffer move (-1)."
        ("You succeed, but your pistol is lost in the scramble.", WEAK, False),
        ("You get the map, but you fail to notice the second guard.", WEAK, False),
        ("You have failed.", WEAK, True),
        ("You slip past flawlessly; no one will ever know.", WEAK, True),
        ("He trades you the map and asks for nothing in return.", WEAK, True),
        # found across the labelled sets: idioms without "succeed" or "fail"
        ("You palm the ring; the whole table is none the wiser.", MISS, True),
        ("You send him sprawling into the stream.", MISS, True),
        ("You get the letters out, but it costs you a burnt arm.", STRONG, True),
        ("Three hours in the stacks and you are no closer to the name.", STRONG, True),
        ("You escape with your life, and nothing else.", MISS, False),
        ("The guard waves you through. You're in.", MISS, True),
        ("The guard waves you through, straight into the arms of the watch.", MISS, False),
        ("You strain at the lock, then give up and slink away.", WEAK, True),
        ("You give up on the gate and climb the wall instead.", WEAK, False),
    ],
)
def test_outcome(text: str, expect: Expectation, flagged: bool) -> None:
    assert ("outcome" in failed(text, expect)) is flagged


def test_outcome_of_other_systems() -> None:
    # roll_under: "If the result is less than your character's Ability score, the Action succeeds.
    # Otherwise, it fails."
    save_failed = _expect("roll_under", "save", "failure")
    assert failed("You dodge the falling portcullis easily.", save_failed) == ["outcome"]
    assert failed("The darts hiss harmlessly overhead.", save_failed) == ["outcome"]
    # someone else's attack falling short is the player's success
    save = _expect("roll_under", "save", "success")
    assert failed("The goblin's net falls short.", save) == []
    assert failed("You fall short of the ledge.", save) == ["outcome"]
    # storyteller: "This is a DnD critical failure. Comedy ensues."
    botch = _expect("storyteller", "simple", "botch")
    assert failed("You follow the trail flawlessly to the door.", botch) == ["outcome"]
    assert failed("You botch it: the pick snaps in the lock.", botch) == []
    assert failed("You botch it.", _expect("storyteller", "simple", "success")) == ["outcome"]
    # go_forth: "If you miss: You Graze, dealing your Effort modifier in damage"
    graze = _expect("go_forth", "effort", "graze")
    assert failed("Your axe skims its hide: only a graze.", graze) == []
    assert failed("A clean hit: your axe sinks to the haft.", graze) == ["outcome"]
    # elegy Use Power: "On a miss, you get hungrier and the power is activated"
    power = _expect("elegy", "power", "miss")
    assert failed("The shadows answer and the power works, but the hunger claws.", power) == []


def test_outcome_of_contests_and_draws() -> None:
    # go_forth: "Contests ... Two characters oppose each other. Both roll — higher total wins."
    loss = _expect("go_forth", "contest", "loss")
    win = _expect("go_forth", "contest", "win")
    assert failed("You win the bout.", loss) == ["outcome"]
    assert failed("She wins the bout.", win) == ["outcome"]
    assert failed("She wins the bout.", loss) == []
    # The engine's ruling: "In a Contest neither side wins a tie: the situation stays as it was"
    tie = _expect("go_forth", "contest", "tie")
    assert failed("You win the bout.", tie) == ["outcome"]
    assert failed("She beats you.", tie) == ["outcome"]
    assert failed("Neither of you gives an inch.", tie) == []


def test_the_character_by_name_and_by_pronoun() -> None:
    kara = _expect("sundered_isles", "move", "strong_hit", (1,), "Kara Voss")
    assert failed("Kara fails to make landfall.", kara) == ["outcome"]  # the first name
    oda = _expect("go_forth", "check", "success", (), "Oda")
    # the sentence after one opening with the name, no one else in between
    assert failed("Oda studies the frost. She loses the trail.", oda) == ["outcome"]
    assert failed("Oda studies the frost. She decides to turn back.", oda) == ["player_agency"]
    theo = _expect("storyteller", "resisted", "win", (), "Theo")
    said = 'Theo leans across the table. "Get out of my city," he whispers.'
    assert failed(said, theo) == ["player_agency"]
    # someone else is there: the pronoun may be theirs
    assert failed("Kara offers the captain the pearls. He agrees.", kara) == []
    assert failed("Oda waits. She comes at midnight and agrees to guide him.", oda) == []
    # a narration that says "you": "she" is someone else
    assert failed("You watch Oda's rival. She loses the trail.", oda) == []


def test_band_names() -> None:
    # "On a strong hit, ..." in the narrator's own words: "you score a strong hit" on a miss.
    assert failed("You score a strong hit!", MISS) == ["outcome"]
    assert failed("Strong hit: the boom swings clear.", WEAK) == ["outcome"]
    # the rule's own conditional wording is not a claim
    text = "If you do it, resolve this move as a strong hit."
    assert failed(text, MISS) == []


# --- answer --------------------------------------------------------------------------------

# "Ask a yes/no question: Decide the odds of a yes, and roll on the table below to check the
# answer."
ORACLE_NO = _expect("sundered_isles", "oracle", "no")
ORACLE_YES = _expect("sundered_isles", "oracle", "yes")


@pytest.mark.parametrize(
    ("text", "expect", "flagged"),
    [
        ("Yes — the harbour is guarded.", ORACLE_NO, True),
        ("The answer is yes: guards walk the mole.", ORACLE_NO, True),
        ("No. The cove is empty.", ORACLE_NO, False),
        ("No one comes to the door.", ORACLE_NO, False),
        # the ruling: a "yes" that affirms a negative fact answers a no ("Is anyone there?")
        ("Yes, it's empty: nobody has been here in years.", ORACLE_NO, False),
        ("The oracle says no: the keeper is long gone.", ORACLE_YES, True),
        ("Alas, no. The Admiralty has never heard of you.", ORACLE_YES, True),
        ("No — there's no sail out there.", ORACLE_YES, True),
        ("No sign of the crew, but the hold is full of crates.", ORACLE_YES, False),
        ("Yes, and she's flying the black flag.", ORACLE_YES, False),
        ('"No," the keeper says, but his eyes flick to the cellar door.', ORACLE_YES, False),
    ],
)
def test_answer(text: str, expect: Expectation, flagged: bool) -> None:
    assert ("answer" in failed(text, expect)) is flagged


def test_answer_is_only_checked_for_an_oracle() -> None:
    assert failed("No. The rope holds.", STRONG) == []


# --- numbers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        # "On a weak hit, you succeed, but not without a cost. Make a suffer move (-1)."
        ("Make a suffer move (-1).", False),
        ("Take -2 health; your momentum drops to 3.", False),
        ("Suffer -7 health.", True),
        ("You lose four momentum.", True),
        ("Your momentum drops to zero.", True),
        ("Take two harm.", False),
        ("Mark 3 progress.", False),
        ("The bosun owes you 7 silver; Room 4 is booked under a false name.", False),
        ("You rolled a 14.", True),  # a digit that is a game number: no prose around it
        ("Take 7, and the cutter is yours.", True),
        # prose numbers, unattached to a game term
        ("Two sentries turn; a dozen ships ride at anchor.", False),
        ("The lintel reads 1687, the year the Syndicate came.", False),
        ("You fall twenty feet into the hold.", False),
        ("Three supply crates and two spirits of the drowned.", False),
        ("Roll your d10s and 2d6 again at 10:30 on the 3rd watch.", False),
    ],
)
def test_numbers(text: str, flagged: bool) -> None:
    assert ("numbers" in failed(text, WEAK)) is flagged


def test_numbers_use_each_systems_terms() -> None:
    # go_forth: "Accumulate enough Effort against a Heart (10 points) to overcome it."
    effort = _expect("go_forth", "effort", "hit", (1, 2, 10))
    assert failed("10 Effort: one Heart overcome.", effort) == []
    assert failed("It loses three Hearts at once.", effort) == ["numbers"]
    # storyteller: "One success is marginal success, three or more is a complete success."
    pool = _expect("storyteller", "simple", "success", (1, 3, 5, 6))
    assert failed("Three successes on five dice.", pool) == []
    assert failed("Four successes on five dice.", pool) == ["numbers"]


# --- player agency -------------------------------------------------------------------------

# DESIGN.md: the narrator "does not decide what the player's character says or chooses, and it
# stops at choice points."


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        ('You say, "I will carry your cargo."', True),
        ('"Done," you tell the fence.', True),
        ('"Let\'s go," Kara says.', True),
        ('Kara leans in and whispers, "Not a word."', True),
        ("You decide to buy the lot.", True),
        ("You haggle him down and decide to buy the lot.", True),
        ("You accept his terms with a curt bow.", True),
        ("Kara feels compelled to hand over the amulet.", True),
        ("You tell him that you'll be back by dawn.", True),
        ('"Curse you!" the orc roars as you slam the door.', False),
        ('The harbourmaster smiles. "Berth twelve," she says to you.', False),
        ("You may each choose two recover moves.", False),
        ("If you choose to run, the window is open.", False),
        ("Will you take the deal? He waits for your answer.", False),
        ("You feel the deck lurch; the blade catches your arm.", False),
        ("You hear the captain say, 'Hold fast.'", False),
        ("You chose your moment well.", False),
    ],
)
def test_player_agency(text: str, flagged: bool) -> None:
    assert ("player_agency" in failed(text, STRONG)) is flagged


# --- invariants ----------------------------------------------------------------------------

_BAND_POLARITY = {
    "strong_hit": "success", "strong_hit_match": "success", "hit": "mixed",
    "weak_hit": "mixed", "miss": "failure", "miss_match": "failure",
}  # fmt: skip
_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve",
)  # fmt: skip


@cache
def move_outcome_texts() -> list[tuple[str, str, str]]:
    return [
        (system, band, text)
        for system in ("sundered_isles", "elegy")
        for move in load_moves(system)
        for band, text in move.outcomes.items()
    ]


def _numbers_in(text: str) -> frozenset[int]:
    words = re.findall(r"[a-z]+", text.lower())
    return frozenset(
        [int(n) for n in re.findall(r"\d+", text)] + [_WORDS.index(w) for w in words if w in _WORDS]
    )


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(move_outcome_texts()))
def test_the_rules_own_outcome_text_is_never_flagged(case: tuple[str, str, str]) -> None:
    system, band, text = case
    outcome = band.removesuffix("_match") if band != "hit" else "weak_hit"
    polarity: Any = _BAND_POLARITY[band]
    expect = Expectation(
        system=system, outcome=outcome, polarity=polarity, numbers=_numbers_in(text)
    )
    assert check_narration(text, expect).passed, check_narration(text, expect).reason()


_TEMPLATES = (
    "Take {sign}{n} momentum.",
    "You lose {word} health as the deck tilts.",
    "Your spirit drops to {word}.",
    "Mark {n} ticks of progress.",
    "The cutlass deals {n} harm.",
    "Suffer {sign}{n} supply.",
    "Momentum: {n}.",
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(_TEMPLATES), st.integers(0, 12), st.booleans()),
        min_size=1,
        max_size=5,
    ),
    st.sets(st.integers(-20, 120), max_size=6),
)
def test_numbers_the_engine_gave_never_trip_the_numbers_check(
    parts: list[tuple[str, int, bool]], others: set[int]
) -> None:
    text = " ".join(t.format(sign="-" if neg else "+", n=n, word=_WORDS[n]) for t, n, neg in parts)
    numbers = {-n if neg else n for _, n, neg in parts} | others
    expect = Expectation(
        system="sundered_isles", outcome="weak_hit", polarity="mixed", numbers=frozenset(numbers)
    )
    assert "numbers" not in check_narration(text, expect).failed, text


NEUTRAL_PROSE = (
    "Two gulls wheel overhead.",
    "A dozen lanterns sway along the quay.",
    "The chapel bell was cast in 1702.",
    "Three days of rain have swollen the river.",
    "Somewhere below, a dog barks twice.",
    "The first mate counts forty barrels and sighs.",
    "The tide will turn within the hour.",
    "Five hundred miles of open sea lie to the west.",
)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([e for split in labelled().values() for e in split]),
    st.lists(st.tuples(st.sampled_from(NEUTRAL_PROSE), st.integers(0, 4)), max_size=3),
)
def test_neutral_prose_never_turns_a_pass_into_a_fail_on_numbers(
    entry: Labelled, insertions: list[tuple[str, int]]
) -> None:
    expect = entry.expectation()
    if "numbers" in check_narration(entry.text, expect).failed:
        return
    sentences = re.split(r"(?<=[.!?])\s+", entry.text.strip())
    for prose, at in insertions:
        sentences.insert(min(at, len(sentences)), prose)
    assert "numbers" not in check_narration(" ".join(sentences), expect).failed


# --- performance ---------------------------------------------------------------------------

LONG = (
    "The reef rises out of the murk, but you read the breakers and swing the tiller hard. The "
    "Gull heels, scrapes nothing, and runs clean into the lagoon. Two sentries on the far beach "
    'turn at the sound, and one of them raises a lantern. "Who goes there?" he calls, his voice '
    "thin over the surf. You feel the deck settle beneath you as the anchor bites. The "
    "smugglers' cache is somewhere beyond the dunes, past the ruined chapel and the old well. "
    "The wind carries the smell of tar and rain. Take +1 momentum; it now stands at 5. "
    "Somewhere in the jungle a bird screams, and the sentries lower the lantern. The night is "
    "quiet again, for now, and the cove waits. You could row ashore now, or wait for the tide "
    "to turn and the sentries to change, and slip past them in the dark. What do you do?"
)


def test_a_checks_time_grows_with_the_narrations_length_not_its_square() -> None:
    # What this guards against is a pattern that scans the text once per position. It was an
    # absolute bound (2 ms per check of a 150-word narration), which passed on the machine it
    # was set on (0.8-1.3 ms) and failed on stop 33's (2.6-2.8 ms for stop 32's guard and this
    # one alike): a time is a machine's, so this compares two in the same process (the figures
    # themselves are bench/narrator.py's). Four times the words took 3.6x the time here; a
    # pattern scanning once per position would take about 16x.
    assert 140 <= len(LONG.split()) <= 160
    longer = " ".join([LONG] * 4)
    expects = [STRONG, MISS, WEAK, ORACLE_NO]
    for expect in expects:
        check_narration(LONG, expect)  # compile and cache the patterns
        check_narration(longer, expect)

    def best(text: str) -> float:
        return min(
            _cpu_seconds(lambda: [check_narration(text, e) for e in expects]) for _ in range(5)
        )

    ratio = best(longer) / best(LONG)
    assert ratio < 8, f"four times the words took {ratio:.1f}x the time"


def _cpu_seconds(run: Any, times: int = 20) -> float:
    start = time.process_time()
    for _ in range(times):
        run()
    return (time.process_time() - start) / times


@pytest.mark.parametrize(
    "text",
    [
        # Issue 15, seen from Qwen2.5-Coder-1.5B: the engine said no, the player read yes.
        "Yes\nOdds asked: unlikely",
        "Yes\n\nThe tavern is not crowded, but the barkeep watches the door.",
        "  yes  \nThe gate stands open.",
    ],
)
def test_a_bare_answer_on_its_own_line_is_the_answer(text: str) -> None:
    expect = Expectation(system="sundered_isles", outcome="no",
                         polarity=polarity_of("sundered_isles", "oracle", "no"), match=False,
                         numbers=frozenset({25, 71}), character=None)  # fmt: skip
    report = check_narration(text, expect)
    assert not report.passed and any(c.id == "answer" and not c.passed for c in report.checks)
    # and a line that merely starts with the word is no answer
    fine = check_narration("No one stands at the gate tonight.", expect)
    assert fine.passed


# --- holes a real model found (issue 15): claimed changes, names, feelings and acts of will ------
#
# DESIGN.md: the narrator "never decides an outcome and never changes a number"; the engine's
# `changes` are the only state changes there are, so a change told in prose must be one of them.


def _rolled(system: str, kind: str, params: dict[str, Any], outcome: str, **kw: Any) -> Resolution:
    for seed in range(300):
        r = resolve_roll(system, kind, params, seed=seed)
        if r.outcome == outcome and all(getattr(r, k) == v for k, v in kw.items()):
            return r
    raise AssertionError(f"no seed gives {outcome}")


FACE_DANGER = {"move": "face_danger", "stat": "edge", "stat_value": 2}


def test_a_change_told_must_be_the_engines_in_meter_direction_and_amount() -> None:
    # "On a strong hit, you are successful. Take +1 momentum." (Face Danger)
    strong = expectation_from(_rolled("sundered_isles", "move", FACE_DANGER, "strong_hit"))
    assert check_narration("You cross the gap cleanly. Take +1 momentum.", strong).passed
    assert check_narration("You land on the deck and gain 1 momentum.", strong).passed
    for wrong in (
        "You land on the deck. Take +2 momentum.",  # the amount
        "You land on the deck, but you lose 1 momentum.",  # the direction
        "You land on the deck and take +1 health.",  # the meter
    ):
        report = check_narration(wrong, strong)
        assert report.failed == ["changes"], (wrong, report.reason())


def test_a_change_where_the_engine_made_none_is_caught_though_its_number_exists() -> None:
    # Real model text: "You gain +1 focus" on an Elegy action roll that changed nothing (a
    # challenge die showed 1, so 1 is a number of the record and the numbers check let it by).
    r = _rolled("elegy", "action", {"stat": "glamour", "stat_value": 2, "focus": 3}, "miss")
    assert r.changes == []
    text = "The doorman wavers, then blocks the door. You gain +1 focus as he sneers."
    assert "changes" in check_narration(text, expectation_from(r)).failed
    # "momentum +1" on a Strike weak hit, whose record holds progress and position only: "On a
    # weak hit, mark progress twice, but you expose yourself to danger. You are in a bad spot."
    strike = _rolled(
        "sundered_isles", "move", {"move": "strike", "stat": "iron", "stat_value": 3}, "weak_hit"
    )
    expect = expectation_from(strike)
    assert check_narration("Your blade bites deep. Mark progress twice.", expect).passed
    text = "Your blade bites deep, momentum +1, but the bosun's club clips your ribs."
    assert "changes" in check_narration(text, expect).failed


def test_go_forths_meters_told_changed_by_a_sheets_number_are_caught() -> None:
    # Real model text on a Go Forth check that changed nothing, the sheet's might being 3:
    # "her stamina decreases by 3 ... momentum is reduced by 1".
    r = _rolled("go_forth", "check", {"attribute": "might", "roll_bonus": 3, "tn": 12}, "success")
    expect = expectation_from(r)
    assert 3 in expect.numbers
    text = "The door grinds open. Her stamina decreases by 3, and momentum is reduced by 1."
    report = check_narration(text, expect)
    assert "changes" in report.failed
    assert "stamina decreases by 3" in (report.reason() or "")


def test_a_choose_one_outcome_told_as_both_options_is_caught() -> None:
    # Secure an Advantage: "On a weak hit, choose one. - Take +2 momentum - Add +1 on your next
    # move (not a progress move)". Until the player chooses, the engine records neither; the real
    # model wrote both as done.
    params = {"move": "secure_an_advantage", "stat": "wits", "stat_value": 2}
    weak = _rolled("sundered_isles", "move", params, "weak_hit")
    text = "You spot the gap in the wall. You take +2 momentum and add +1 on your next move."
    report = check_narration(text, expectation_from(weak))
    assert report.failed == ["changes"]
    assert "add +1 on your next move" in (report.reason() or "")
    # "On a strong hit, take both.": both are the engine's changes, and pass
    strong = _rolled("sundered_isles", "move", params, "strong_hit")
    assert check_narration(text, expectation_from(strong)).passed
    # the rule's own options, offered rather than told, pass on the weak hit
    offered = (
        "The wall has a weak point. Choose one:\n- Take +2 momentum\n- Add +1 on your next move"
    )
    assert check_narration(offered, expectation_from(weak)).passed


def test_the_rules_either_or_and_a_rate_are_not_claims() -> None:
    # Endure Harm: "On a miss, it's worse than you thought. Suffer an additional -1 health or
    # LOSE MOMENTUM (-2)." An option offered with "or" is the player's to choose.
    r = _rolled("sundered_isles", "move", {"move": "endure_harm", "stats": {"health": 3, "iron": 2}},
                "miss")  # fmt: skip
    assert check_narration(r.text or "", expectation_from(r)).passed
    assert not check_narration("You suffer -1 health.", expectation_from(r)).passed


def test_the_wrong_move_or_stat_named_is_caught() -> None:
    # Real model text: "Compel: miss" on a Face Danger (copied from an earlier turn's narration).
    miss = expectation_from(_rolled("sundered_isles", "move", FACE_DANGER, "miss"))
    assert miss.move == "Face Danger" and miss.stat == "edge"
    report = check_narration("Compel: miss. The guard laughs in your face.", miss)
    assert report.failed == ["names"]
    assert check_narration("Face Danger: miss. The rope snaps and you fall.", miss).passed
    # a move the rule's own miss text names ("PAY THE PRICE") is the roll's, not another's
    assert "Pay the Price" not in miss.other_moves
    # Real model text: "+dexterity" on an Elegy +glamour roll.
    glamour = _rolled(
        "elegy", "action", {"stat": "glamour", "stat_value": 2, "focus": 3}, "strong_hit"
    )
    expect = expectation_from(glamour)
    assert "names" in check_narration("You roll +dexterity and charm the doorman.", expect).failed
    assert check_narration("You roll +glamour and charm the doorman.", expect).passed
    # ordinary words that are stats elsewhere are prose: "with a heart of stone", "iron bars"
    si = expectation_from(_rolled("sundered_isles", "move", FACE_DANGER, "strong_hit"))
    assert check_narration("The iron bars bend; the gaoler's heart sinks.", si).passed


@pytest.mark.parametrize(
    "text",
    [
        # real model texts, the character made to feel or act
        "Kell feels the weight of his vow settle on his shoulders.",
        "You make a quick retreat into the alley.",
        "The howl causes you to panic and leave the building.",
        "You feel a surge of hope as the gate opens.",
    ],
)
def test_the_characters_feelings_and_acts_of_will_are_the_players(text: str) -> None:
    # DESIGN.md: the narrator "does not decide what the player's character says or chooses".
    expect = expectation_from(_rolled("sundered_isles", "move", FACE_DANGER, "weak_hit"),
                              character="Kell", action="I slip past the hounds")  # fmt: skip
    assert "player_agency" in check_narration(text, expect).failed


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("You feel the deck lurch under your boots.", "I cross the deck"),  # a sensation
        ("The guard panics and flees down the stairs.", "I rush the guard"),  # someone else
        ("You flee down the alley, the hounds baying behind.", "I flee the hounds"),  # theirs
    ],
)
def test_sensations_others_feelings_and_the_players_own_acts_pass(text: str, action: str) -> None:
    expect = expectation_from(_rolled("sundered_isles", "move", FACE_DANGER, "weak_hit"),
                              character="Kell", action=action)  # fmt: skip
    assert check_narration(text, expect).passed, check_narration(text, expect).reason()


# --- issue 15, generalised: what the hand-written format (no `changes`) still lets the guard know


def test_a_gain_told_on_an_ironsworn_miss_is_caught_without_the_engines_changes() -> None:
    # "On a miss, you fail, or a momentary success is undermined by a dire turn of events." and
    # Resupply: "On a miss, you gain nothing and the situation worsens." No move's miss raises a
    # meter, so a gain told on one is caught even when the request carries no changes.
    assert MISS.changes is None
    caught = check_narration("The crate goes over the side. Take +1 momentum anyway.", MISS)
    assert caught.failed == ["changes"], caught.reason()
    for fine in (
        "The storm tears the sail loose. Lose 2 momentum and Pay the Price.",
        "Take -2 health; the pirates press in.",  # the sign told wins over the verb "take"
        "On a strong hit you would take +2 momentum; this time the tide wins.",  # a rule
        "You can suffer -1 health or lose momentum (-2).",  # options
    ):
        assert check_narration(fine, MISS).passed, fine


def test_an_oracle_roll_changes_nothing() -> None:
    # An oracle answers a question ("Ask the Oracle": "... envision the answer"); it has no
    # outcome that touches a meter, so any gain or loss told with it is invented.
    assert known_changes("oracle") == () and known_changes("move") is None
    expect = _expect("sundered_isles", "oracle", "yes", (1, 50)).model_copy(
        update={"changes": known_changes("oracle")}
    )
    report = check_narration("Yes. The harbour is watched; you gain +1 momentum for it.", expect)
    assert report.failed == ["changes"]
    assert check_narration("Yes. The harbour is watched.", expect).passed


@pytest.mark.parametrize(
    ("text", "kind", "outcome", "character"),
    [
        # The result told through the other side (heldout_final's misses, their class): the
        # prize comes into the character's hands, the judges call it, the attack meets nothing.
        ("The purse drops back into her hand.", "check", "failure", "Wynn"),
        ("Your arrow splits the centre, and the judges call it for you.", "contest", "loss", None),
        (
            "The goblin's net falls on empty ground; you sprint for the trees.",
            "save",
            "failure",
            None,
        ),
        ("The cutpurse is quicker and is out the door with the purse.", "check", "success", None),
        (
            "A bell clangs, the lookout raises the alarm, and you cast off.",
            "move",
            "strong_hit",
            None,
        ),
        (
            "You jam the spear between its legs, but it snaps like kindling.",
            "deed",
            "success",
            None,
        ),
        ("The oracle's verdict: no. The captain is honest.", "oracle", "yes", None),
        ("Lena charms the bouncer and he waves her past the rope.", "move", "miss", "Lena"),
        ("You pick the lock in seconds and slip inside.", "move", "miss", None),
        ("Wynn's hands slip on the rope and she drops to the ground.", "check", "success", "Wynn"),
        (
            "The hunter sees through Mirela's glamour and draws a stake.",
            "move",
            "strong_hit",
            "Mirela",
        ),
    ],
)
def test_outcomes_told_through_the_other_side_are_caught(
    text: str, kind: str, outcome: str, character: str | None
) -> None:
    system = {"check": "go_forth", "contest": "go_forth", "save": "roll_under",
              "deed": "roll_under"}.get(kind, "sundered_isles")  # fmt: skip
    assert not check_narration(text, _expect(system, kind, outcome, (1, 2), character)).passed


@pytest.mark.parametrize(
    ("text", "outcome"),
    [
        ("You find the cellar door barred from the inside; boots on the stairs.", "miss"),
        ("The door swings open and three armed guards are waiting.", "miss"),
        ("Your blade bites into empty air and the pirate laughs behind you.", "miss"),
        ("You slip past the guards before anyone raises the alarm.", "strong_hit"),
        ("You knock him out before he can shout. Take +1 momentum.", "strong_hit"),
        ("The skeleton stands unharmed; your blow glances off.", "miss"),
        ("The hunter fails to notice you in the rafters; you drop onto him.", "strong_hit"),
        ("The bouncer lets you in, then steers you to the Sheriff's table.", "miss"),
        ("The lookout raises the alarm a heartbeat too late: you are over the rail.", "strong_hit"),
        ("Before you can knock, the door opens and the old woman ushers you in.", "strong_hit"),
    ],
)
def test_the_other_side_told_consistently_passes(text: str, outcome: str) -> None:
    assert check_narration(text, _expect("sundered_isles", "move", outcome, (1,))).passed


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        # "she" right after the character, no one else between: the character decides
        ("The Tremere's gaze bores into Rosa and she decides to tell him everything.", True),
        ("The storm throws Rosa against the rail and she swears to see it through.", True),
        # someone else is the nearest person: theirs
        ("Rosa glares at Mira and she decides to talk.", False),
        ("Rosa shoves the guard and he decides to run.", False),
        # across a full stop the character is as often the one spoken to
        ("The harbourmaster grins at Rosa. He decides she can have the writ.", False),
        # indirect speech: the character telling someone what they will do
        ("Rosa tells the captain she will pay double, and he agrees.", True),
        ("The captain tells Rosa she can keep the change.", False),
    ],
)
def test_a_pronoun_right_after_the_character_is_theirs_for_acts_of_will(
    text: str, flagged: bool
) -> None:
    expect = _expect("storyteller", "resisted", "loss", (1, 2), "Rosa")
    assert ("player_agency" in check_narration(text, expect).failed) is flagged


# --- an outcome told through events alone (issue 15: the blind sets) ---------------------------
# "On a miss, you fail, or a momentary success is undermined by a dire turn of events."
# "On a strong hit, you are successful." Events alone decide only in a whole narration with
# nothing of the other side in it.


@pytest.mark.parametrize(
    ("text", "expect", "flagged"),
    [
        ("You step over the gap and land softly. The guards never glance your way.", MISS, True),
        ("You set your shoulder to the door. It grinds open without a sound.", MISS, True),
        ("The shots go wide as you dive behind the cart.", MISS, True),
        # the other side somewhere in it: a momentary success undone, or a blow that lands
        ("You step over the gap and land softly, but the plank behind you cracks.", MISS, False),
        ("The first arrow goes wide; the second takes you in the thigh.", MISS, False),
        ("The door swings open and three armed guards are waiting.", MISS, False),
        # a strong hit told as the character struck and driven back
        ("He turns your cutlass aside and drives you back against the rail.", STRONG, True),
        ("They see you clearly, and you have to double back into the alley.", STRONG, True),
        # ... unless the narration tells the success too (the danger overcome)
        (
            "He turns your cutlass aside, but you manage to pin his arm and disarm him.",
            STRONG,
            False,
        ),
    ],
)
def test_an_outcome_told_through_events(text: str, expect: Expectation, flagged: bool) -> None:
    assert ("outcome" in failed(text, expect)) is flagged


def test_events_alone_are_read_only_in_the_whole_narration() -> None:
    # while streaming, the turn for the worse may be the next sentence: never flag what is missing
    prefix = "You step over the gap and land softly."
    assert check_narration(prefix, MISS, complete=False).passed
    assert not check_narration(prefix, MISS).passed
    assert check_narration(prefix + " Then the plank behind you cracks.", MISS).passed


def test_a_graze_deals_damage() -> None:
    # Go Forth: "If you miss: You Graze, dealing your Effort modifier in damage"
    graze = _expect("go_forth", "effort", "graze", (2, 9, 13))
    assert "outcome" in failed("Your arrow flies past. It cackles, entirely unhurt.", graze)
    assert "outcome" not in failed("Your arrow grazes its flank, and it howls.", graze)
    report = check_narration("Your arrow grazes it. You are untouched by its claws.", graze)
    assert "no damage" not in report.reason()  # the character untouched is another matter


def test_a_tag_or_label_echoed_and_a_stat_named_as_the_roll() -> None:
    assert "form" in failed("[OUTCOME: STRONG HIT, MATCH] Narration: You hold her gaze.", STRONG)
    assert "form" in failed("Narration (2-3 sentences): You hold her gaze.", STRONG)
    assert "form" not in failed("You hold her gaze; the outcome is yours to tell.", STRONG)
    might = Expectation(
        system="go_forth", outcome="success", polarity="success", numbers=frozenset(),
        stat="guile", other_stats=frozenset({"might", "agility"}),
    )  # fmt: skip
    assert "names" in failed("Your Might check carries the day.", might)
    assert "names" not in failed("You might check the door later.", might)


# --- a real model's habits (issue 15, the third real run) --------------------------------------


def test_the_facts_labels_and_the_prompts_examples_echoed_are_not_narration() -> None:
    echoed = (
        "You succeed with a strong hit.\nMatch: a match: the challenge dice match\n"
        'The rule\'s words for this outcome: "On a hit, you succeed."'
    )
    assert "form" in failed(echoed, STRONG)
    # the prompt's example of another band copied in tells that band; of its own band, let be
    copied = "As you tear the gate off its hinges, the rock crumbles under your hand."
    assert "outcome" in failed(copied, STRONG)
    own = "You tear the gate off its hinges; your fingers find the cracks and the cliff gives you the top."
    assert failed(own, STRONG) == []
    assert "form" not in failed("The gate tears off its hinges; the match is yours.", STRONG)


def test_the_examples_the_guard_knows_are_the_prompts() -> None:
    from service.narrator.guard import PROMPT_EXAMPLES

    prompt = (Path(__file__).parents[3] / "prompts" / "narration.yaml").read_text().lower()
    assert all(example in prompt for example in PROMPT_EXAMPLES)


def test_a_strong_hit_told_with_a_cost() -> None:
    # Elegy: a strong hit is success; "not without trouble ... one fitting cost" is a weak hit's
    strong = _expect("elegy", "action", "strong_hit", (1, 2, 3))
    told = "You succeed, but not without trouble. Gain +1 focus, select one fitting benefit and one fitting cost."
    assert "outcome" in failed(told, strong)


def test_another_systems_bands_and_a_graze_on_a_hit() -> None:
    # Go Forth: "If you miss: You Graze, dealing your Effort modifier in damage" -- a hit is none
    hit = _expect("go_forth", "effort", "hit", (3, 8, 13, 17))
    assert "outcome" in failed("You strike the bandit, dealing 3 damage as a Graze.", hit)
    success = _expect("storyteller", "simple", "success", (2,))
    assert "outcome" in failed("As you shadow the ghoul, a strong hit occurs.", success)
    assert "outcome" not in failed("You shadow the ghoul through the market unseen.", success)


def test_a_number_told_as_the_roll_is_the_roll() -> None:
    failure = _expect("roll_under", "save", "failure", (1, 9, 17))
    rolled = failure.model_copy(update={"rolled": frozenset({17})})
    told = "As you hold the door, your roll of `1` fails."
    assert "numbers" not in failed(told, failure)  # the roll not known: any number of the record
    assert "numbers" in failed(told, rolled)
    assert "numbers" not in failed("Your roll of 17 fails.", rolled)


def test_a_conclusion_drawn_for_the_character() -> None:
    told = (
        "Envisioning this revelation, you realized that you needed to take action to stop the gang."
    )
    assert "player_agency" in failed(told, STRONG)


@pytest.mark.parametrize(
    ("answer", "question", "text", "flagged"),
    [
        # a real model's "no" told as the question's own proposition
        ("no", "Is the map a forgery?", "The map is a forgery, crudely inked.", True),
        ("no", "Does the ghoul follow me?", "The ghoul follows Kell through the alleys.", True),
        ("yes", "Is the bridge still standing?", "The bridge is not standing any more.", True),
        # the proposition negated for a no, affirmed for a yes (a negation among its words)
        ("no", "Is the tavern crowded?", "Yes, the tavern is not crowded tonight.", False),
        ("no", "Is a storm coming?", "There is no storm coming, only a light breeze.", False),
        (
            "yes",
            "Is the bridge still standing?",
            "The bridge still stands, though not for long.",
            False,
        ),
        # no question known: the one the narration opens with
        ("no", None, "Is the crypt sealed? The crypt is sealed with lead.", True),
    ],
)
def test_an_answer_told_through_the_questions_own_words(
    answer: str, question: str | None, text: str, flagged: bool
) -> None:
    # the oracle's answer is the engine's: "yes" or "no" to the player's question
    expect = _expect("sundered_isles", "oracle", answer).model_copy(update={"question": question})
    assert ("answer" in failed(text, expect)) is flagged


def test_a_strong_hit_told_as_the_character_knocked_out() -> None:
    # "On a strong hit, you are successful." (a real model: "... as he loses consciousness")
    assert "outcome" in failed("The blow lands and you lose consciousness.", STRONG)
    assert "outcome" in failed("Kara passes out on the deck.", STRONG)
    assert "outcome" not in failed("The guard passes out on the deck.", STRONG)


def test_the_character_sent_on_past_the_attempt() -> None:
    # "Never make 'you' ... act beyond the attempt" (the narration prompt): a real model's
    # "Ash takes a deep breath and moves forward into the chamber" for "I force the stone door"
    door = _expect("go_forth", "check", "success", (12,), "Ash").model_copy(
        update={"action": "I force the shrine's stone door"}
    )
    told = "The door creaks open. Ash takes a deep breath and moves forward into the chamber."
    assert "player_agency" in failed(told, door)
    onward = door.model_copy(update={"action": "I force the door and move forward"})
    assert "player_agency" not in failed("The door gives and you move forward.", onward)


def test_a_fourth_real_runs_strong_hit_overboard_and_weak_hit_refused() -> None:
    # "On a strong hit, you are successful." -- told as feet slipping and a fall overboard
    told = "The wind picks up, and you find your feet slipping on the wet deck. You fall overboard."
    assert "outcome" in failed(told, STRONG)
    # Compel: "On a weak hit, as above, but their agreement comes with a demand or complication."
    refused = "You try to convince the harbourmaster, but they refuse. He demands a hefty fee."
    assert "outcome" in failed(refused, WEAK)
    agreed = "The harbourmaster refuses at first, but agrees when you offer a hefty fee."
    assert "outcome" not in failed(agreed, WEAK)


def test_an_opponents_win_told_as_the_prize_taken() -> None:
    # Roll Under: "To determine an outcome, both opponents make Ability Saves, and the lowest roll
    # succeeds." The opponent's won; a real model told "you retrieved the map from his body ...
    # and moved toward the next room".
    lost = _expect("roll_under", "opposed", "opponent_wins", (3, 5), "Kell").model_copy(
        update={"action": "I arm-wrestle the orc for the map"}
    )
    told = "The orc fell backward, and you retrieved the map from his body. You moved toward the next room."
    assert {"outcome", "player_agency"} <= set(failed(told, lost))
    # ... and a body found is no prize
    assert "outcome" not in failed("You find the body of the courier in the reeds.", lost)


def test_a_fifth_real_runs_dodged_blow_urge_and_health_critically_low() -> None:
    # Go Forth, "If you hit: Add your Effort modifier to the Effort die" -- not a dodged blow
    hit = _expect("go_forth", "effort", "hit", (7, 17), "Kell")
    dodged = "The bandit, with a quick glance, dodged your blow and continued on his way."
    assert "outcome" in failed(dodged, hit)
    # the character's urges are the player's to feel
    assert "player_agency" in failed("You feel an inexplicable urge to entice him.", WEAK)
    # a meter said to fall that the engine did not change
    nothing = MISS.model_copy(update={"changes": ()})
    assert "changes" in failed(
        "You sink below the waves, and your health is critically low.", nothing
    )
    # the character pushed on past the attempt
    swim = _expect("sundered_isles", "move", "miss", (1, 8, 9), "Kell").model_copy(
        update={"action": "I swim for the wreck"}
    )
    assert "player_agency" in failed(
        "Kell's fingers feel the rough rocks, but he pushes forward with determination.", swim
    )


def test_the_characters_death_told_that_the_engine_did_not_record() -> None:
    # a miss is "a dire turn of events", not a death the narrator decides (a real model: "You are
    # dead." on a Face Danger miss with a match)
    nothing = MISS.model_copy(update={"changes": ()})
    assert "changes" in failed("The hull collapses under you. You are dead.", nothing)
    assert "changes" not in failed("The hull collapses and the bosun is dead.", nothing)


def test_a_contrast_cut_off_undoes_nothing_and_the_character_pushed_through() -> None:
    # "On a strong hit, you are successful." -- not "The ghoul turned around and spotted you,
    # but he" (a reply stopped by the token limit: the "but" undoes nothing)
    assert "outcome" in failed("The ghoul turned around and spotted you, but he", STRONG)
    assert "outcome" not in failed(
        "The ghoul turned and spotted you, but he saw only a beggar.", STRONG
    )
    bridge = _expect("go_forth", "check", "success", (13,), "Ash").model_copy(
        update={"action": "I sprint across the collapsing bridge"}
    )
    told = "You sprint across. The stone door shudders, but you push through it without hesitation."
    assert "player_agency" in failed(told, bridge)


@pytest.mark.parametrize(
    ("text", "expect", "check"),
    [
        # the sixth real run's narrations that reached the player, each by its generic kind
        ("The tide turns before you reach the wreck, and you lose all hope.", MISS, "player_agency"),
        ("You take +1 momentum and plan to confront the prankster.", STRONG, "player_agency"),
        ("As you sneak aboard, your heart races with excitement and trepidation.", WEAK, "player_agency"),
        ("You climb to the tower, feeling exhilarated and victorious.", STRONG, "player_agency"),
        ("You fail to force the hatch. The progress clock ticks down.", MISS, "changes"),
        ("He and his companions mark two ticks on their discoveries legacy track.", MISS, "changes"),
        ("You reach out, but your fingers slip away from the cracks and a gust pushes you back down.",
         STRONG, "outcome"),
    ],
)  # fmt: skip
def test_a_sixth_real_runs_contradictions(text: str, expect: Expectation, check: str) -> None:
    # Outcomes: "On a strong hit, you are successful." / "On a miss, you fail, or a momentary
    # success is undermined by a dire turn of events." The rest is the narration prompt's rule:
    # "Never make 'you' speak, decide, choose, act beyond the attempt, or feel".
    known = expect.model_copy(update={"changes": ()})
    assert check in failed(text, known)


def test_a_graze_told_as_the_target_not_hit_and_a_strong_hit_named_in_go_forth() -> None:
    # "If you miss: You Graze, dealing your Effort modifier in damage"
    graze = _expect("go_forth", "effort", "graze", (3, 6))
    assert "outcome" in failed("You loose an arrow, but the wolf is not hit.", graze)
    success = _expect("go_forth", "check", "success", (13,))
    assert "outcome" in failed("You climb the broken stair with a strong hit.", success)
    # the character's heart pounding alone is the body's, not a feeling told
    assert "player_agency" not in failed("You climb, your heart pounding in your chest.", success)


@pytest.mark.parametrize(
    ("text", "expect", "check"),
    [
        # the seventh real run's narrations that reached the player, each by its generic kind
        ("You charm the doorman. You feel more alive than ever before.", STRONG, "player_agency"),
        ("You climb the cliff. You're relieved when the door is open.", STRONG, "player_agency"),
        ("You sneak aboard. Your heart races as you try to decide what to do next.", WEAK,
         "player_agency"),
        ("T5: You cut the mooring lines and let the galleon drift.", MISS, "form"),
        ("He encounters a passage that reveals two ticks on his discovery legacy track.", MISS,
         "changes"),
    ],
)  # fmt: skip
def test_a_seventh_real_runs_contradictions(text: str, expect: Expectation, check: str) -> None:
    # The narration prompt: "Never make 'you' speak, decide, choose, act beyond the attempt, or
    # feel"; "Mention numbers only as the facts give them" (and changes only as the engine made).
    assert check in failed(text, expect.model_copy(update={"changes": ()}))


def test_the_thing_sought_found_on_a_failure() -> None:
    # Storyteller: "Every die a player rolls that comes up equal to or greater than the
    # difficulty, is a success." None came up: "you find a small, faded letter", when the player
    # searched for the letter, tells one
    search = _expect("storyteller", "simple", "failure", (1, 2)).model_copy(
        update={"action": "I search the haven for the hidden letter"}
    )
    assert "outcome" in failed("You find a small, faded letter stuck in a corner.", search)
    assert "outcome" not in failed("You search the haven and find the haven empty.", search)
    assert "outcome" not in failed("You find a rat's nest, and no letter.", search)
    # "You are victorious!" tells the win, not a feeling
    win = _expect("storyteller", "resisted", "win", (2,))
    assert "player_agency" not in failed("You stare down the rival. You are victorious!", win)
