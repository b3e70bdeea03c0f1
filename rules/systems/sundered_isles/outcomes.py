"""What a Sundered Isles move's outcome does beyond momentum: its "choose one" options, the
combat position it sets, and the progress it marks. Read from the outcome text (data), so that
every move with such a sentence gets it, not a list of moves.

Helper of ``moves.py``:

    offered_options(move, band, match)   -> OptionSet | None  the options, and how many to pick
    option_changes(option)               -> the changes a chosen option makes
    position_changes(move, parts)        -> [position] in control / in a bad spot
    progress_changes(move, parts)        -> [progress_marks] "mark progress (twice)"
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations

from rules.catalog import Move
from rules.models import Ruling, StateChange
from rules.systems.sundered_isles.core import cite

OUTCOME_RULINGS = [
    Ruling(
        id="choose_one_options",
        text=(
            "An outcome that says 'choose one' (or 'choose two') followed by a list is a choice "
            "the turn waits for (`options`). The engine applies the chosen option's mechanics "
            "(take or lose momentum, +1 on your next move, sacrifice resources, mark progress, "
            "you are in control, forsake your vow, recommit by rolling both challenge dice); an "
            "option that only asks you to envision is recorded and told. Gain Ground's strong "
            "hit ('choose two') picks two of its weak hit's options."
        ),
        quote="On a weak hit, choose one.",
        citation=cite("ADVENTURE MOVES > SECURE AN ADVANTAGE"),
    ),
    Ruling(
        id="take_both",
        text=(
            "'On a strong hit, take both' applies both of the weak hit's options (Enter the Fray: "
            "+2 momentum and in control; Secure an Advantage: +2 momentum and +1 on your next move)."
        ),
        quote="On a strong hit, take both.",
        citation=cite("COMBAT MOVES > ENTER THE FRAY"),
    ),
    Ruling(
        id="combat_position",
        text=(
            "Your combat position (in control, or in a bad spot) is kept on the sheet and set by "
            "the outcome sentences that state it ('You are in control', 'You stay in a bad spot', "
            "'the fight begins with you in a bad spot'); Take Decisive Action reads it. On Enter "
            "the Fray's weak hit, choosing +2 momentum leaves you in a bad spot (the other option "
            "is being in control)."
        ),
        quote="If you are in control, check the result as normal.",
        citation=cite("COMBAT MOVES > TAKE DECISIVE ACTION"),
    ),
    Ruling(
        id="next_move_adds",
        text=(
            "'Add +1 on your next move (not a progress move)' is held on the sheet "
            "(`next_roll_adds`) and added to the next action roll's adds, then cleared; a "
            "progress roll neither uses nor clears it."
        ),
        quote="Add +1 on your next move (not a progress move)",
        citation=cite("ADVENTURE MOVES > SECURE AN ADVANTAGE"),
    ),
    Ruling(
        id="move_marks_progress",
        text=(
            "A move whose outcome says 'mark progress' (twice: two marks) marks the track the turn "
            "names, per its rank (Strike, Clash, Gain Ground, Undertake an Expedition, Explore a "
            "Waypoint); in a session with one open track of the move's kind it is that one."
        ),
        quote="On a strong hit, mark progress twice.",
        citation=cite("COMBAT MOVES > STRIKE"),
    ),
    Ruling(
        id="reach_a_milestone_marks_the_vow",
        text=(
            "Reach a Milestone marks progress once, per its rank, on the vow the turn names (in a "
            "session with one open vow, that one)."
        ),
        quote="you may mark progress per the rank of the vow",
        citation=cite("QUEST MOVES > REACH A MILESTONE"),
    ),
    Ruling(
        id="suffer_move_is_the_players",
        text=(
            "An outcome that says 'Make a suffer move (-N)' (Face Danger's weak hit, Set a "
            "Course's and Undertake an Expedition's costs) changes nothing by itself: which suffer "
            "move (Lose Momentum, Endure Harm, Endure Stress, Sacrifice Resources...) is the "
            "player's, made as the next turn with amount N."
        ),
        quote="On a weak hit, you succeed, but not without a cost. Make a suffer move (-1).",
        citation=cite("ADVENTURE MOVES > FACE DANGER"),
    ),
]

# The track a move's "mark progress" belongs to, by the move's category.
PROGRESS_TRACK_TYPES = {"combat": "combat", "exploration": "expedition", "quest": "vow"}


@dataclass(frozen=True)
class Option:
    id: str
    label: str


@dataclass(frozen=True)
class OptionSet:
    options: tuple[Option, ...]
    count: int  # how many to choose

    @property
    def ids(self) -> list[str]:
        return [o.id for o in self.options]

    def picks(self) -> list[list[str]]:
        """Every allowed choice, as the list of option ids it picks."""
        return [list(c) for c in combinations(self.ids, self.count)]

    def label(self, pick: list[str]) -> str:
        labels = {o.id: o.label for o in self.options}
        return " + ".join(labels[i] for i in pick)


_CHOOSE = re.compile(r"\bchoose (one|two)\b", re.IGNORECASE)


def _bullets(text: str) -> list[str]:
    return [line.strip()[1:].strip() for line in text.split("\n") if line.strip().startswith("-")]


def _option_id(label: str) -> str:
    # "Give up on the quest: FORSAKE YOUR VOW." -> give_up_on_the_quest;
    # "Add +1 on your next move (not a progress move)" -> add_1_on_your_next_move
    head = re.sub(r"\(.*?\)", "", label.split(":", 1)[0])
    return "_".join(re.findall(r"[a-z0-9]+", head.lower())[:10])


def _options_in(text: str) -> tuple[Option, ...]:
    return tuple(Option(_option_id(b), b) for b in _bullets(text) if b)


def offered_options(move: Move, band: str, match: bool) -> OptionSet | None:
    """The options the outcome leaves to the player, or None. Only the band's own paragraph
    (and its match paragraph) is read: 'choose one' inside a trigger or another band is not."""
    texts = [move.outcomes.get(band, "")]
    if match:
        texts.append(move.outcomes.get(f"{band}_match", ""))
    for text in texts:
        found = _CHOOSE.search(text)
        if not found:
            continue
        count = 1 if found.group(1).lower() == "one" else 2
        options = _options_in(text[found.end() :]) or _options_in(move.outcomes.get("weak_hit", ""))
        if len(options) > count:
            return OptionSet(options, count)
    return None


def both_options(move: Move, band: str) -> tuple[Option, ...]:
    """'On a strong hit, take both': the weak hit's options, all taken."""
    if "take both" in move.outcomes.get(band, "").lower():
        return _options_in(move.outcomes.get("weak_hit", ""))
    return ()


_TAKE = re.compile(r"\btake \+(\d+) momentum", re.IGNORECASE)
_LOSE = re.compile(r"\blose momentum \(-(\d+)\)", re.IGNORECASE)
_SACRIFICE = re.compile(r"\bsacrifice resources \(-(\d+)\)", re.IGNORECASE)
_NEXT_MOVE = re.compile(r"\badd \+(\d+) on your next move", re.IGNORECASE)


def option_momentum(option: Option) -> list[int]:
    """The momentum a chosen option takes (+N) or loses (-N), in order."""
    found = re.finditer(f"{_TAKE.pattern}|{_LOSE.pattern}", option.label, re.IGNORECASE)
    return [int(m.group(1)) if m.group(1) else -int(m.group(2)) for m in found]


def option_changes(option: Option) -> list[StateChange]:
    """The mechanics of one chosen option, but its momentum (``option_momentum``: the move
    keeps momentum within its limits, after any burn)."""
    text = option.label
    low = text.lower()
    changes = [
        StateChange(target="supply", delta=-int(n), note=text) for n in _SACRIFICE.findall(text)
    ]
    changes += [
        StateChange(target="next_roll_adds", delta=int(n), note=text)
        for n in _NEXT_MOVE.findall(text)
    ]
    if re.search(r"\byou are in control\b", low):
        changes.append(StateChange(target="position", note="in_control"))
    if re.search(r"\bmark progress\b", low):
        changes.append(StateChange(target="progress_marks", delta=1, note=text))
    if "forsake your vow" in low:
        changes.append(StateChange(target="track_status", note="forsaken"))
    return changes


def recommits(option: Option) -> bool:
    """'Roll both challenge dice, take the lowest value, and clear that number of progress
    boxes. Then, raise the ... rank by one': the option rolls dice of its own."""
    return "roll both challenge dice" in option.label.lower()


_SENTENCE = re.compile(r"(?<=[.!])\s+|\n")


def _sentences(parts: list[str]) -> list[str]:
    return [
        s.strip()
        for part in parts
        for s in _SENTENCE.split(part)
        if s.strip() and not s.strip().startswith("-")
    ]


def position_changes(move: Move, parts: list[str]) -> list[StateChange]:
    """The combat position an outcome states. 'If you are in a bad spot, ...' (a condition on
    the position, not a new one) is not read."""
    if move.category != "combat":
        return []
    position = None
    for sentence in _sentences(parts):
        low = sentence.lower()
        if low.startswith("if you are in"):
            continue
        if "in control" in low:
            position = "in_control"
        elif "bad spot" in low:
            position = "bad_spot"
    return [StateChange(target="position", note=position)] if position else []


def progress_changes(move: Move, band: str, parts: list[str]) -> list[StateChange]:
    """'mark progress' (twice) in the outcome, outside options; 'Do not mark progress' marks
    none; a weak hit 'as above' marks what the strong hit marks. Scene challenges report theirs
    by their own rule (``moves._scene_changes``)."""
    if move.category == "scene_challenge":
        return []
    if band == "weak_hit" and "as above" in move.outcomes.get("weak_hit", "").lower():
        parts = [*parts, move.outcomes.get("strong_hit", "")]
    for sentence in _sentences(parts):
        low = sentence.lower()
        if "mark progress" not in low or "do not mark progress" in low or low.startswith("if "):
            continue
        marks = 2 if "mark progress twice" in low else 1
        return [StateChange(target="progress_marks", delta=marks, note=f"mark progress x{marks}")]
    return []
