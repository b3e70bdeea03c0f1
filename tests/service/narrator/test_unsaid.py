"""Words barred from the model's sentence after a lead, for the attempt's kind and outcome
(service/narrator/unsaid.py), and the guard's reading of the kind (guard.attempt_kinds).

Issue 15: "narrations reaching the player that contradict the engine or act for the character
0 of at least 40". Under the grammar that keeps "you" out, the real model's contradictions were
of a few kinds, each told in a few words; each reply below is one of them, quoted as the model
wrote it after the lead.
"""

from __future__ import annotations

import pytest

from rules.models import Resolution
from rules.registry import resolve_roll
from service.narrator.grammar import continuation_gbnf, continuation_grammar, scene_openers
from service.narrator.guard import TOLD_AGAINST, attempt_kinds, expectation_from
from service.narrator.lead import narration_plan
from service.narrator.unsaid import UNSAID, taken_words, unsaid_words

# Sundered Isles Face Danger on edge 2: "On a strong hit, you are successful", "On a weak hit,
# you succeed, but face a troublesome cost", "On a miss, you fail, or your progress is undermined
# by a dramatic and costly turn of events" (dice: action die, then the two challenge dice).
STRONG_HIT, WEAK_HIT, MISS = [5, 3, 4], [2, 3, 6], [1, 8, 9]


def _roll(dice: list[int]) -> Resolution:
    params = {"move": "face_danger", "stat": "edge", "stat_value": 2}
    return resolve_roll("sundered_isles", "move", params, dice=dice)


def _allowed(action: str, dice: list[int], sentence: str) -> bool:
    expect = expectation_from(_roll(dice), character="Kell", action=action)
    return continuation_grammar("Kell", unsaid_words(expect)).accepts(sentence)


@pytest.mark.parametrize(
    ("action", "kinds"),
    [
        ("I lift the coin purse from the guard captain", {"unseen"}),
        ("I shadow the ghoul through the market", {"unseen"}),
        ("I pick the captain's pocket", {"unseen"}),
        ("I pick the lock on the armoury door", {"opening"}),
        ("I force the rusted hatch open", {"opening"}),
        ("I hold the door against the orcs", {"holding"}),
        ("I slip through the window before the guard turns", {"unseen"}),
        ("I race the knight to the castle gate", {"race"}),
        ("I arm-wrestle the dwarf champion", {"struggle"}),
        ("I push the cultist back from the altar", {"struggle"}),
        ("I thrust my spear at the bugbear", {"blow"}),
        ("I call on the blood to silence the bells", {"stopping"}),
        ("I calm the storm", {"stopping"}),
        ("I try to convince the harbourmaster to let us dock", {"persuading"}),
        ("I beguile the curator into showing me the vault", {"persuading"}),
        # passing a sleeper, whatever the verb (stop 28: "The hounds' eyes widen, and they slowly
        # open" for "I tiptoe past the sleeping hounds"); not waking one
        ("I tiptoe past the snoring ghouls", {"unseen"}),
        ("I shake the sleeping sentry awake", set()),
        ("I leap to the deck", set()),
        # holding is a verb, not the bars one wrenches off (the twenty-third words)
        ("I wrench the bars off the cellar grating", {"opening"}),
        ("I bar the chapel doors against the revenants", {"holding"}),
        ("Kell holds the gate against the raiders", {"holding"}),
        ("I try to hold the hatch shut", {"holding"}),
    ],
)
def test_the_kind_of_attempt_is_read_from_the_players_words(action: str, kinds: set[str]) -> None:
    assert attempt_kinds(action) == kinds


# (action, dice, the real reply that contradicted the engine, a reply the grammar still allows)
REAL = [
    # a theft done well told as noticed (resent run 33's prompt)
    (
        "I lift the coin purse from the guard captain", STRONG_HIT,
        "As the guard captain's eyes widen in shock, they realize they have been tricked.",
        "The guard captain strolls on, unaware.",
    ),
    # sneaking past told as the sleeper woken (resent, real_grammar1b)
    (
        "I sneak past the sleeping dragon", STRONG_HIT,
        "The dragon wakes up and lunges at the intruder, but it is too late.",
        "The dragon sleeps on, its breath rumbling through the cave, unnoticed.",
    ),
    # a failed pick told open (resent run 34's prompt)
    (
        "I pick the lock of the Prince's study", MISS,
        "As the Prince's study door creaks open, the air is thick with tension and anticipation.",
        "The lock holds fast, and footsteps sound in the corridor.",
    ),
    # a failed forcing told as giving way in the end (run 36)
    (
        "I force the rusted hatch open", MISS,
        "As the rusted hatch continues to struggle, it finally gives way, revealing a hidden "
        "door that leads deeper into the cave.",
        "As the rusted hatch continues to struggle, it emits a faint hiss of metal.",
    ),
    # a race lost told as the rival stopping (run 35's prompts resent)
    (
        "I race the ranger to the top of the hill", MISS,
        "The ranger, seeing the danger, quickly stops and turns back.",
        "The ranger reaches the crest first and laughs.",
    ),
    # a struggle lost told as the rival beaten (real_grammar1)
    (
        "I arm-wrestle the dwarf champion", MISS,
        "The dwarf champion, who was expecting a decisive victory, is now terrified and runs away.",
        "The dwarf champion slams the arm down to the roar of the tavern.",
    ),
    # a blow that landed told as dodged (the pattern of the fourteenth words' bugbear)
    (
        "I thrust my spear at the bugbear", STRONG_HIT,
        "The bugbear jumps back, unharmed.",
        "The bugbear howls and staggers against the wall.",
    ),
    # a silencing at a cost told as the bells going on (real_grammar1)
    (
        "I call on the blood to silence the bells", WEAK_HIT,
        "As the bells continue to ring, a faint mist rises from the ground.",
        "The bells fall silent, and a cold mist rises from the ground.",
    ),
    # a persuasion at a cost told as refused (real_grammar1)
    (
        "I try to convince the harbourmaster to let us dock", WEAK_HIT,
        "The harbourmaster's refusal to let them dock, despite the cost, caused a ripple effect "
        "throughout the town.",
        "The harbourmaster waves the ship in, muttering about the fee.",
    ),
    # a failed sweet-talk told as granted (real_grammar1)
    (
        "I try to sweet-talk the quartermaster into letting me go", MISS,
        "The quartermaster reluctantly agrees to let go of the ship.",
        "The quartermaster calls for the guards.",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("action", "dice", "contradicting", "consistent"), REAL)
def test_the_words_a_real_contradiction_was_told_in_are_barred(
    action: str, dice: list[int], contradicting: str, consistent: str
) -> None:
    assert not _allowed(action, dice, contradicting)
    assert _allowed(action, dice, consistent)


def test_being_noticed_may_be_a_weak_hits_cost() -> None:
    # "On a weak hit, you succeed, but face a troublesome cost": a guard stirring is a cost a
    # covert success may be told with
    assert _allowed("I sneak past the sleeping dragon", WEAK_HIT, "The dragon stirs and wakes.")
    assert not _allowed("I sneak past the sleeping dragon", STRONG_HIT, "The dragon wakes.")
    assert not _allowed("I tiptoe past the snoring ghouls", STRONG_HIT, "The snoring ghouls wake.")


def test_no_words_barred_where_the_kind_is_not_known_or_the_outcome_takes_no_side() -> None:
    leap = expectation_from(_roll(STRONG_HIT), character="Kell", action="I leap to the deck")
    assert unsaid_words(leap) == ()
    unsaid = expectation_from(_roll(STRONG_HIT), character="Kell", action=None)
    assert unsaid_words(unsaid) == ()
    # a graze is no side ("If you miss: You Graze, dealing your Effort modifier in damage")
    graze = resolve_roll(
        "go_forth", "effort",
        {"roll_bonus": 3, "effort_bonus": 3, "effort_die": 8, "tn": 13}, dice=[2, 8],
    )  # fmt: skip
    told = expectation_from(graze, action="I thrust my spear at the bugbear")
    assert told.outcome == "graze" and unsaid_words(told) == ()


def test_every_failure_bars_coming_right_in_the_end() -> None:
    failed = expectation_from(_roll(MISS), character="Kell", action="I leap to the deck")
    assert {" finally", " eventually"} <= set(unsaid_words(failed))


def test_the_plan_sends_the_grammar_with_the_outcomes_words() -> None:
    resolution = _roll(STRONG_HIT)
    action = "I lift the coin purse from the guard captain"
    expect = expectation_from(resolution, character="Kell", action=action)
    plan = narration_plan(
        system_name="Sundered Isles", character="Kell", action=action,
        resolution=resolution, expect=expect, context="",
    )  # fmt: skip
    attempt = "lift the coin purse from the guard captain"
    offered = scene_openers(f"{attempt}|{resolution.dice_values()}")
    assert plan.grammar == continuation_gbnf(
        "Kell", unsaid_words(expect), "Sundered Isles", attempt, offered
    )
    assert " notic" in plan.grammar or "notic" in str(unsaid_words(expect))


@pytest.mark.parametrize("key", sorted(UNSAID))
def test_every_barred_word_is_barred_at_a_words_start(key: tuple[str, str]) -> None:
    # each entry is a word's start (a leading space): "unnoticed" tells a covert success well
    assert all(w.startswith(" ") and w.strip() == w[1:] for w in UNSAID[key])
    grammar = continuation_grammar(None, UNSAID[key])
    for word in UNSAID[key]:
        assert not grammar.accepts(f"It{word}s.")
        assert not grammar.accepts(f"{word.strip().capitalize()}s it.")
        assert grammar.accepts(f"It x{word.strip()}s.")


def test_what_the_guard_reads_as_the_other_side_the_grammar_bars() -> None:
    # one table for both: the words guard.TOLD_AGAINST reads as the other side told are barred
    # too, so a server that takes the grammar is never sent back a reply the guard must refuse
    # for them
    for (kind, told), words in TOLD_AGAINST.items():
        assert all(w.startswith(" ") for w in words), (kind, told)
    lost = expectation_from(_roll(MISS), character="Kell", action="I race the knight to the gate")
    assert set(TOLD_AGAINST[("race", "failure")]) <= set(unsaid_words(lost))
    stolen = expectation_from(
        _roll(STRONG_HIT), character="Kell", action="I lift the coin purse from the guard captain"
    )
    assert set(TOLD_AGAINST[("unseen", "success")]) <= set(unsaid_words(stolen))


@pytest.mark.parametrize(
    ("action", "taken"),
    [
        ("I lift the coin purse from the guard captain", (" purse",)),
        ("I snatch the dagger from the drunk's belt", (" dagger",)),
        ("I pick the captain's pocket", (" pocket",)),
        ("I sneak past the sleeping guards", ()),
        ("I pick the lock on the armoury door", ()),
    ],
)
def test_what_was_taken_is_read_from_the_players_words(action: str, taken: tuple[str]) -> None:
    assert taken_words(action) == taken


def test_a_theft_done_well_does_not_name_the_thing_taken() -> None:
    # real_unsaid2 and real_kindlead1 (a paired trial): "The noble's eyes go wide, and he looks
    # down at the purse", "As the guard captain's eyes flicker to the coin purse, he looks around
    # in confusion" (both on a strong hit: the theft unnoticed)
    action = "I pinch the purse from the noble's belt"
    assert not _allowed(
        action, STRONG_HIT, "The noble's eyes go wide, and he looks down at the purse."
    )
    assert _allowed(action, STRONG_HIT, "The noble laughs on at the card table.")
    # a miss may tell the purse: "On a miss, you fail"
    assert _allowed(action, MISS, "The noble's hand closes on the purse.")
