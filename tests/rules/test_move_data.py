"""Move data against its source text, for both Ironsworn-family systems (sundered_isles, elegy).

Triggers are matched against a player's words, so each must be printed in its source: verbatim once
markdown emphasis (``*``, ``_``) is removed and every run of whitespace is one space. Case is kept.
Then one named test per fix found by comparing the Sundered Isles moves with Datasworn and the
Elegy moves with elegy.md; each quotes the source sentence it checks.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.catalog import Move, load_moves
from rules.registry import resolve_roll

SOURCES = Path(__file__).resolve().parents[2] / "vectorstore" / "sources"
SYSTEMS = ("sundered_isles", "elegy")
MOVES = {system: {m.id: m for m in load_moves(system)} for system in SYSTEMS}
ALL_MOVES = [(system, move) for system in SYSTEMS for move in MOVES[system].values()]
IDS = [f"{system}-{move.id}" for system, move in ALL_MOVES]


def _raw(move: Move) -> str:
    return (SOURCES / move.source).read_text(encoding="utf-8")


def normalise(text: str) -> str:
    """Markdown emphasis removed, whitespace runs made one space; case and punctuation kept."""
    return " ".join(re.sub(r"[*_]", "", text).split())


def si(move_id: str) -> Move:
    return MOVES["sundered_isles"][move_id]


def test_every_move_is_checked() -> None:
    assert len(MOVES["sundered_isles"]) == 56
    assert len(MOVES["elegy"]) == 32


# --- every trigger ------------------------------------------------------------------------------


@pytest.mark.parametrize(("system", "move"), ALL_MOVES, ids=IDS)
def test_trigger_is_printed_in_the_source(system: str, move: Move) -> None:
    # '"WHEN YOU…" This is the move trigger. When you do this thing, or encounter this situation,
    # make the move.' (sundered_isles.md, QUICK REFERENCE)
    assert move.source == f"{system}.md"
    assert normalise(move.trigger) in normalise(_raw(move))


@pytest.mark.parametrize(("system", "move"), ALL_MOVES, ids=IDS)
def test_trigger_is_a_whole_clause(system: str, move: Move) -> None:
    # A trigger starts at its "When you…" and stops where the source stops it: at punctuation
    # (", roll +wits", ". Then, roll +intellect") or where its bold ends ("**When you reinforce
    # your relationship with a connection** by doing any of the following…").
    trigger = normalise(move.trigger)
    assert trigger.startswith("When ")
    source = " ".join(_raw(move).split())
    marks = r"[*_]*"
    pattern = marks.join(re.escape(c) for c in trigger) + r"(?P<close>[*_]*)(?P<next>.?)"
    found = re.search(pattern, source)
    assert found is not None
    ends_sentence = trigger[-1] in ".!?"
    assert ends_sentence or found["close"] or found["next"] in ("", ",", ";", ":", ".", "…")


# --- Sundered Isles: the fixes ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("progress", "dice", "band"),
    [(10, [1, 2], "strong_hit"), (5, [3, 8], "weak_hit"), (0, [5, 6], "miss")],
)
def test_overcome_destruction_experience_follows_every_outcome(
    progress: int, dice: list[int], band: str
) -> None:
    # The source prints this paragraph after the strong hit, weak hit and miss paragraphs, so it
    # applies to each: "If you accept the cost, take 1 experience for every marked ability on the
    # discarded assets (minimum 3 experience). Spend this experience only on a new command vehicle,
    # modules, and support vehicles."
    paragraph = (
        "If you accept the cost, take 1 experience for every marked ability on the discarded "
        "assets (minimum 3 experience). Spend this experience only on a new command vehicle, "
        "modules, and support vehicles."
    )
    assert paragraph in normalise(_raw(si("overcome_destruction")))
    result = resolve_roll(
        "sundered_isles",
        "move",
        {"move": "overcome_destruction", "progress_score": progress},
        dice=dice,
    )
    assert result.outcome == band
    assert result.text is not None
    assert result.text.count(paragraph) == 1
    assert result.text.endswith(paragraph)


@pytest.mark.parametrize(
    ("move_id", "ranged"),
    [
        # "When you are in control and assault a foe at close quarters, roll +iron; when you
        # attack at a distance, roll +edge."
        ("strike", "when you attack at a distance"),
        # "When you are in a bad spot and fight back against a foe at close quarters, roll +iron;
        # when you exchange fire at a distance, roll +edge."
        ("clash", "when you exchange fire at a distance"),
    ],
)
def test_strike_and_clash_triggers_keep_their_ranged_clause(move_id: str, ranged: str) -> None:
    trigger = si(move_id).trigger
    assert "at close quarters" in trigger
    assert ranged in trigger
    assert "at a distance" in trigger


def test_face_death_trigger_is_the_brink_of_death_clause() -> None:
    # "When you encounter a situation where death is an immediate and unavoidable outcome, you are
    # dead. When you are instead brought to the brink of death with a chance for recovery or
    # redemption, roll +heart." The move (its roll) is made on the second clause; on the first
    # you are simply dead.
    trigger = si("face_death").trigger
    assert trigger == (
        "When you are instead brought to the brink of death with a chance for recovery or redemption"
    )
    assert "you are dead" not in trigger


@pytest.mark.parametrize(
    ("move_id", "trigger", "continues"),
    [
        # "When you identify situations or topics you don’t want to include, don’t want to
        # envision in detail, or otherwise may need mindfulness when approaching, that content is
        # now flagged."
        (
            "set_a_flag",
            "When you identify situations or topics you don’t want to include, don’t want to "
            "envision in detail, or otherwise may need mindfulness when approaching",
            ", that content is now flagged.",
        ),
        # "When you fill a box (four ticks) on any legacy track, take 2 experience. This
        # experience may be spent when you ADVANCE."
        (
            "earn_experience",
            "When you fill a box (four ticks) on any legacy track",
            ", take 2 experience.",
        ),
    ],
)
def test_trigger_ends_where_the_source_trigger_ends(
    move_id: str, trigger: str, continues: str
) -> None:
    move = si(move_id)
    assert move.trigger == trigger
    assert trigger + continues in normalise(_raw(move))


def test_aid_your_ally_says_secure_an_advantage_and_notes_the_typo() -> None:
    # "When you act in direct support of an ally, envision how you aid them. Then, [[#SECURE AND
    # ADVANTAGE]] or [[#GAIN GROUND]] to take action." The link names Secure an Advantage.
    move = si("aid_your_ally")
    assert "[[#SECURE AND ADVANTAGE]]" in _raw(move)  # the source keeps its typo
    assert "SECURE AN ADVANTAGE or GAIN GROUND" in move.text
    assert "SECURE AND ADVANTAGE" not in move.text
    [correction] = move.corrections
    assert correction.printed == "SECURE AND ADVANTAGE"
    assert correction.reads.lower() == si("secure_an_advantage").name.lower()
    assert correction.why


CORRECTED = [(system, move) for system, move in ALL_MOVES if move.corrections]


@pytest.mark.parametrize(("system", "move"), CORRECTED, ids=[f"{s}-{m.id}" for s, m in CORRECTED])
def test_a_correction_replaces_what_the_source_prints(system: str, move: Move) -> None:
    # The source text keeps its wording; the move's data says what the correction reads.
    data = " ".join([move.trigger, move.text, *move.outcomes.values()])
    for correction in move.corrections:
        assert correction.printed in _raw(move)
        assert correction.printed not in data
        assert correction.reads in data


# --- Elegy: the fixes ---------------------------------------------------------------------------


def test_elegy_use_power_trigger_keeps_its_appearing_human_clause() -> None:
    # "When you use your supernatural abilities to activate a power, visualize the effects you want
    # to manifest and roll the stat indicated in its asset card; if you use them to appear human
    # for a scene (blushing, being able to have sex or consume food), roll +Glamour."
    trigger = MOVES["elegy"]["use_power"].trigger
    assert trigger.startswith("When you use your supernatural abilities to activate a power")
    assert "if you use them to appear human for a scene" in trigger
    assert trigger.endswith("roll +Glamour.")
