"""The engine's record, told in words: what a prompt and the offline narrator say of a resolution.

Only what the engine decided goes in (outcome band, match, answer, state changes, rolled rows,
the rule's own outcome text), never the dice arithmetic: the narrator tells, it does not redo.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rules.errors import UnknownError
from rules.models import Resolution
from rules.registry import get_system
from rules.tables import rows_not_told
from service.narrator.guard import polarity_of
from vectorstore.models import Passage

# How each outcome reads in words; the texts' own terms ("strong hit", "botch", ...).
OUTCOME_WORDS: dict[str, str] = {
    "strong_hit": "strong hit: you succeed",
    "weak_hit": "weak hit: you succeed, but at a cost",
    "miss": "miss: you fail, or your progress is undermined by a dramatic turn of events",
    "yes": "yes",
    "no": "no",
    "success": "success",
    "failure": "failure",
    "botch": "botch: a failure that goes badly wrong",
    "hit": "hit",
    "graze": "graze: a glancing result",
    "win": "win",
    "loss": "loss",
    "tie": "tie",
    "spectacular_success": "spectacular success",
    "miserable_failure": "miserable failure",
    "actor_wins": "the actor wins",
    "opponent_wins": "the opponent wins",
    "stalemate": "stalemate",
}


def outcome_words(resolution: Resolution) -> str:
    if (
        resolution.outcome == "miss"
        and polarity_of(resolution.system, resolution.kind, resolution.outcome) == "mixed"
    ):
        # Elegy's Use Power: "On a miss, you get hungrier and the power is activated, but not
        # without consequences."
        return "miss: it works, but not without consequences"
    return OUTCOME_WORDS.get(resolution.outcome, resolution.outcome.replace("_", " "))


def title(resolution: Resolution) -> str:
    """The move or roll's name: "Face Danger", "Pay the Price", "action roll"."""
    name = resolution.details.get("name")
    if isinstance(name, str) and name:
        return name
    move = resolution.params.get("move") or resolution.details.get("move")
    if isinstance(move, str) and resolution.system:
        try:
            return get_system(resolution.system).move(move).name
        except UnknownError:
            pass
    return f"{resolution.kind.replace('_', ' ')} roll"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


# Changes told in words rather than as a field: the combat position, the held add, the marks.
POSITION_WORDS = {"in_control": "you are in control", "bad_spot": "you are in a bad spot"}


def changes(resolution: Resolution) -> list[str]:
    out = []
    for change in resolution.changes:
        if change.target == "position":
            out.append(POSITION_WORDS.get(change.note or "", "your position changes"))
            continue
        if change.target == "next_roll_adds" and change.delta:
            out.append(f"{_signed(change.delta)} on your next move")
            continue
        if change.target == "progress_marks" and change.delta:
            out.append(
                f"mark progress {'twice' if change.delta == 2 else change.delta} on the track"
            )
            continue
        # the target in words, not a field name a model copies into prose ("lock_slots")
        target = change.target.replace("_", " ").replace(".", " ")
        if change.delta is not None:
            words = f"{_signed(change.delta)} {target}"
        elif change.set_to is not None:
            words = f"{target} set to {change.set_to}"
        else:
            words = target
        out.append(f"{words} ({change.note})" if change.note else words)
    return out


def table_rows(resolution: Resolution) -> list[str]:
    results = resolution.details.get("results")
    if isinstance(results, list) and results:
        return [str(r) for r in results]
    return [resolution.text] if resolution.text else []


def match_words(resolution: Resolution) -> str | None:
    if not resolution.match:
        return None
    if resolution.kind == "oracle":
        return "a match: an extreme result or a twist"
    return "a match: the challenge dice match, so the outcome is heightened or twisted"


def oracle_answer(resolution: Resolution, odds: str) -> str:
    lines = [f"Answer: {resolution.outcome.upper()}", f"Odds asked: {odds.replace('_', ' ')}"]
    if m := match_words(resolution):
        lines.append(f"Match: {m}")
    return "\n".join(lines)


def resolution_brief(resolution: Resolution) -> str:
    """The resolution for a prompt: band, match, the rule's outcome text, changes and rows."""
    lines = [f"Roll: {title(resolution)}", f"Outcome: {outcome_words(resolution)}"]
    if m := match_words(resolution):
        lines.append(f"Match: {m}")
    if resolution.text:
        lines.append(f'The rule\'s words for this outcome: "{resolution.text}"')
    if ch := changes(resolution):
        lines.append("State changes: " + "; ".join(ch))
    lines += rows_rolled(resolution)
    return "\n".join(lines)


def rows_rolled(resolution: Resolution) -> list[str]:
    """The rows of the tables a move rolled on ("Pay the Price: You are stressed"), those the
    rule's text does not carry already (Sundered Isles appends them to it; Elegy does not)."""
    return [
        f"{name}: " + "; ".join(rows)
        for name, rows in rows_not_told(resolution.details, resolution.text)
    ]


_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text.strip()) if s.strip()]


def numbers_in(values: Any) -> set[int]:
    """Every integer in a JSON-like value (for the guard: numbers the engine produced)."""
    found: set[int] = set()
    if isinstance(values, bool):
        return found
    if isinstance(values, int):
        found.add(values)
    elif isinstance(values, str):
        found.update(int(n) for n in re.findall(r"\d+", values))
    elif isinstance(values, dict):
        for v in values.values():
            found |= numbers_in(v)
    elif isinstance(values, list | tuple):
        for v in values:
            found |= numbers_in(v)
    return found


def passages_block(passages: Sequence[Passage], *, limit: int = 1400) -> str:
    """Passages as delimited data, tagged P1, P2, ... (the rules answer cites these tags)."""
    if not passages:
        return "(none found)"
    blocks = []
    for i, p in enumerate(passages, 1):
        text = p.text if len(p.text) <= limit else p.text[:limit].rsplit(" ", 1)[0] + " …"
        blocks.append(
            f'<passage id="P{i}" source="{p.citation.source}" heading="{p.citation.heading}">\n'
            f"{delimit(text)}\n</passage>"
        )
    return "\n".join(blocks)


_TAG = re.compile(r"</?\s*(passage|question|context|situation|action|conversation)\b[^>]*>", re.I)


def delimit(text: str) -> str:
    """Data for a prompt, with any of our delimiter tags inside it neutralised, so that a
    player's words or an ingested text cannot close its tag and pose as instructions."""
    return _TAG.sub(lambda m: m.group(0).replace("<", "‹").replace(">", "›"), text)
