"""What the rules chat knows beside the rulebook passages: the engine's own rulings and the move
data, as passages with their own citations, and whether the texts cover a question at all.

    knowledge_passages(system, question)  the ruling or the move outcome the question asks for,
                                          as passages to put first (the answer quotes them)
    covers(question, passages)            False when no content word of the question is in any
                                          passage: "How do I make a pizza?" is not in these rules

A ruling's passage is its text and the sentence of the source it reads ("The text reads: “…”"),
cited as the ruling's source and heading; a move outcome's is the outcome's text for that band,
cited as the move. The words a question shares with a ruling decide which (the ruling with most
of the question's content words, and at least two of them and half of them).
"""

from __future__ import annotations

import math
import re
from functools import cache

from rules.catalog import Move
from rules.models import Ruling
from rules.registry import get_system
from vectorstore.keyword import tokenize
from vectorstore.models import Passage

# Words of a question that say nothing about which rule it asks for.
GENERIC = frozenset(tokenize(
    "what happens happen how do does did can could would should make makes work works get use "
    "uses mean means need needs rule rules game games play playing thing things way when where "
    "why which who whom whose there here also just really like want wants tell explain say"
))  # fmt: skip
BANDS = (
    ("strong_hit_match", re.compile(r"strong hit with a match", re.I), "a strong hit with a match"),
    ("weak_hit", re.compile(r"\bweak[- ]hit", re.I), "a weak hit"),
    ("strong_hit", re.compile(r"\bstrong[- ]hit", re.I), "a strong hit"),
    ("miss", re.compile(r"\bmiss(es|ed)?\b", re.I), "a miss"),
)  # fmt: skip


def content_terms(text: str) -> set[str]:
    return {t for t in tokenize(text) if t not in GENERIC and not t.isdigit()}


def covers(question: str, passages: list[Passage]) -> bool:
    """Whether any content word of the question is in a passage (stemmed, stop words aside)."""
    asked = content_terms(question)
    if not asked:
        return bool(passages)
    return any(asked & set(tokenize(p.text)) for p in passages)


def _ruling_passage(system_id: str, ruling: Ruling) -> Passage:
    text = f"{ruling.text} The text reads: “{ruling.quote}”"
    return Passage(
        id=f"ruling:{system_id}:{ruling.id}", system=system_id, citation=ruling.citation,
        score=1.0, text=text, start=0, end=0,
    )  # fmt: skip


def _outcome_passage(system_id: str, move: Move, band: str, said: str) -> Passage | None:
    parts = [move.outcomes.get("hit", "")] if band in ("strong_hit", "weak_hit") else []
    parts.append(move.outcomes.get(band, ""))
    text = " ".join(p for p in parts if p).strip()
    if not text:
        return None
    return Passage(
        id=f"move:{system_id}:{move.id}:{band}", system=system_id, citation=move.citation,
        score=1.0, text=f"{move.name}, on {said}: {text}", start=0, end=0,
    )  # fmt: skip


@cache
def _ruling_terms(system_id: str) -> list[tuple[Ruling, frozenset[str]]]:
    return [
        (r, frozenset(content_terms(f"{r.id.replace('_', ' ')} {r.text}")))
        for r in get_system(system_id).rulings
    ]


def asked_ruling(system_id: str, question: str) -> Passage | None:
    """The ruling sharing the most of the question's words, a rare word (in few rulings)
    counting more than a common one; at least two of them and half of them."""
    asked = content_terms(question)
    rulings = _ruling_terms(system_id)
    df = {t: sum(t in terms for _, terms in rulings) for t in asked}
    best, score, shared = None, 0.0, 0
    for ruling, terms in rulings:
        common = asked & terms
        weight = sum(math.log((1 + len(rulings)) / df[t]) for t in common)
        if content_terms(ruling.id.replace("_", " ")) <= asked:
            weight *= 2  # the question names the ruling ("burn momentum")
        if weight > score:
            best, score, shared = ruling, weight, len(common)
    if best is None or shared < max(2, (len(asked) + 1) // 2):
        return None
    return _ruling_passage(system_id, best)


def asked_outcome(system_id: str, question: str) -> Passage | None:
    """A move named in the question, with the outcome band it asks about."""
    low = f" {' '.join(question.lower().split())} "
    named = [
        m for m in get_system(system_id).moves
        if m.outcomes and (f" {m.name.lower()}" in low or f" {m.id.replace('_', ' ')}" in low)
    ]  # fmt: skip
    if not named:
        return None
    move = max(named, key=lambda m: len(m.name))  # "Face Danger" within a longer name loses
    for band, pattern, said in BANDS:
        if pattern.search(question):
            return _outcome_passage(system_id, move, band, said)
    return None


def knowledge_passages(system_id: str | None, question: str) -> list[Passage]:
    if not system_id or system_id == "all":
        return []
    found = [asked_outcome(system_id, question), asked_ruling(system_id, question)]
    return [p for p in found if p is not None]
