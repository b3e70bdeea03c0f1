"""The offline narrator: deterministic narration assembled from the rules text and the outcome.

It answers whenever no model is configured, and whenever a model fails, times out, replies with
nothing usable or fails the guard twice. Every number in it comes from the engine's record and
every quotation from a source text, so it passes the guard by construction (a test checks that).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rules.models import Resolution
from rules.registry import GameSystem
from service.narrator import facts
from vectorstore.keyword import tokenize
from vectorstore.models import Passage


def _quote(text: str) -> str:
    return f"“{text.strip()}”"


def oracle(system: GameSystem, question: str, resolution: Resolution, odds: str) -> str:
    answer = "Yes." if resolution.outcome == "yes" else "No."
    parts = [answer]
    if resolution.match:
        ruling = next((r for r in system.rulings if r.id == "oracle_match"), None)
        said = f" {system.name}: {_quote(ruling.quote)}" if ruling else ""
        parts.append(f"And it is a match: an extreme result or a twist.{said}")
    roll = resolution.dice[0].value if resolution.dice else None
    if roll is not None:
        parts.append(
            f"(The question: {_quote(question)} At {odds.replace('_', ' ')} odds the oracle "
            f"rolled {roll}.)"
        )
    return " ".join(parts)


def spark(resolution: Resolution, situation: str | None) -> str:
    rows = facts.table_rows(resolution)
    told = " And: ".join(_quote(_sentence(r)) for r in rows) if rows else "(no row)"
    text = f"{facts.title(resolution)}: {told}"
    if situation:
        text += f" Read it against your situation: {_quote(_sentence(situation))}"
    return text


def narration(resolution: Resolution, action: str | None) -> str:
    parts = []
    if action:
        parts.append(f"You attempt: {_quote(_sentence(action))}")
    parts.append(f"{facts.title(resolution)}: {facts.outcome_words(resolution)}.")
    if m := facts.match_words(resolution):
        parts.append(f"It is {m}.")
    if resolution.text:
        parts.append(f"The rule: {_quote(resolution.text)}")
    if ch := facts.changes(resolution):
        parts.append("State changes: " + "; ".join(ch) + ".")
    return " ".join(parts)


def _sentence(text: str) -> str:
    """Player words as a sentence: trimmed, ending in punctuation."""
    text = " ".join(text.split())
    return text if text[-1:] in ".!?…" else f"{text}."


def _overlap(sentence: str, words: set[str]) -> int:
    return len(set(tokenize(sentence)) & words)


def best_sentences(
    question: str, passages: Sequence[Passage], most: int = 3
) -> list[tuple[int, str]]:
    """The sentences of the passages sharing the most words with the question, in passage
    order, as (passage index, sentence); the first sentence of the best passage if none does."""
    words = set(tokenize(question))
    scored: list[tuple[int, int, int, str]] = []
    for i, passage in enumerate(passages):
        for j, sentence in enumerate(facts.sentences(re.sub(r"\s+", " ", passage.text))):
            score = _overlap(sentence, words)
            if score and len(sentence) > 12:
                scored.append((score, i, j, sentence))
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    chosen = sorted(scored[:most], key=lambda s: (s[1], s[2]))
    if chosen:
        return [(i, sentence) for _, i, _, sentence in chosen]
    first = facts.sentences(re.sub(r"\s+", " ", passages[0].text)) if passages else []
    return [(0, first[0])] if first else []


def _known_answer(passage: Passage) -> str:
    """A ruling: its text, then the sentence it reads; a move outcome: its words."""
    c = passage.citation
    where = f"({c.source}, {c.heading})"
    if passage.id.startswith("ruling:"):
        text, _, quote = passage.text.partition(" The text reads: ")
        read = quote.strip("“”")
        return (f"fateweaver's rules engine applies this ruling: {text} "
                f"It reads the text: {_quote(read)} [P1] {where}")  # fmt: skip
    name, _, outcome = passage.text.partition(": ")
    return f"{name}: {_quote(outcome)} [P1] {where}"


def rules_answer(
    question: str, passages: Sequence[Passage], known: int = 0
) -> tuple[str, list[tuple[int, str]]]:
    """The answer from the ``known`` first passages (the engine's ruling, the move outcome
    asked for) when there are any, else the best sentences of the passages, quoted with their
    citations; and the quotations made."""
    if not passages:
        return "No passage of the indexed rulebooks matches this question.", []
    if known:
        return _known_answer(passages[0]), [(0, passages[0].text)]
    # The one or two sentences that best answer, not a sentence of every passage found.
    picked = best_sentences(question, passages, most=2)
    lines = ["The rulebook passages closest to your question say:"]
    for i, sentence in picked:
        c = passages[i].citation
        lines.append(f"{_quote(sentence)} [P{i + 1}] ({c.source}, {c.heading})")
    return "\n".join(lines), picked
