"""The offline narrator: deterministic narration assembled from the rules text and the outcome.

It answers whenever no model is configured, and whenever a model fails, times out, replies with
nothing usable or fails the guard twice. Every number in it comes from the engine's record and
every quotation from a source text, so it passes the guard by construction (a test checks that).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from rules.errors import RulesError
from rules.models import Resolution
from rules.registry import GameSystem, resolve_roll
from service.narrator import facts, knowledge
from service.narrator.quotes import normalise
from service.narrator.records import WorkedExample
from vectorstore.engine import READS
from vectorstore.keyword import tokenize
from vectorstore.models import Passage
from vectorstore.names import glossary_terms


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
    parts += (f"{row}." for row in facts.rows_rolled(resolution))
    if ch := facts.changes(resolution):
        parts.append("State changes: " + "; ".join(ch) + ".")
    return " ".join(parts)


def _sentence(text: str) -> str:
    """Player words as a sentence: trimmed, ending in punctuation."""
    text = " ".join(text.split())
    return text if text[-1:] in ".!?…" else f"{text}."


def best_sentences(
    question: str,
    passages: Sequence[Passage],
    most: int = 3,
    weight: Callable[[str], float] | None = None,
) -> list[tuple[int, str]]:
    """The sentences of the passages sharing the most of the question's words (each weighed by
    ``weight``, its rarity in the texts, when given; a later passage's a tenth less per rank), in
    passage order, as (passage index, sentence); the first sentence of the best passage if none
    does. A ruling's sentences are candidates only when no text's sentence is. The question's
    words are its content words (not "how", "much": knowledge.GENERIC) and the words of the
    games' terms it says in everyday words ("a weapon in each hand": two weapons)."""
    words = asked_words(question, passages[0].system if passages else None)
    scored: list[tuple[float, int, int, str]] = []
    for i, passage in enumerate(passages):
        if passage.id.split(":")[2:3] == ["ruling"]:
            continue
        for j, sentence in enumerate(facts.sentences(re.sub(r"\s+", " ", passage.text))):
            shared = set(tokenize(sentence)) & words
            score = sum(weight(w) for w in shared) if weight else float(len(shared))
            if score and len(sentence) > 12:
                scored.append((score * (1 - 0.1 * min(i, 5)), i, j, sentence))
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    chosen = sorted(scored[:most], key=lambda s: (s[1], s[2]))
    if chosen:
        return [(i, sentence) for _, i, _, sentence in chosen]
    first = facts.sentences(re.sub(r"\s+", " ", passages[0].text)) if passages else []
    return [(0, first[0])] if first else []


def asked_words(question: str, system: str | None) -> set[str]:
    """The words a sentence that answers the question shares with it (all its words when it
    has no content word)."""
    said = tokenize(question)
    words = knowledge.content_terms(question) or set(said)
    for term in glossary_terms(said, system):
        words |= knowledge.content_terms(term)
    return words


def _quotable(sentence: str) -> str:
    """A sentence to quote whole: one that quotes words itself ('A “10” is always a success.')
    is quoted by its longest part outside those quotation marks (a quotation ends at one)."""
    parts = re.split(r"[\"“”]", sentence)
    return max(parts, key=len).strip() if len(parts) > 1 else sentence


def _known_answer(passage: Passage) -> str:
    """A ruling: its text, then the sentence it reads; a move outcome: its words."""
    c = passage.citation
    where = f"({c.source}, {c.heading})"
    if passage.id.split(":")[2:3] == ["ruling"]:
        head, _, quote = passage.text.partition(READS)
        text = head.partition(": ")[2].strip()
        read = _quotable(quote.strip().strip("“”"))
        return (f"fateweaver's rules engine applies this ruling: {text} "
                f"It reads the text: {_quote(read)} [P1] {where}")  # fmt: skip
    name, _, outcome = passage.text.partition(": ")
    return f"{name}: {_quote(outcome)} [P1] {where}"


def rules_answer(
    question: str,
    passages: Sequence[Passage],
    known: int = 0,
    weight: Callable[[str], float] | None = None,
    example: Resolution | None = None,
) -> tuple[str, list[tuple[int, str]]]:
    """(With the ``example`` the engine resolved, told after the answer.) The answer from the
    ``known`` first passages (the engine's ruling, the move outcome
    asked for) when there are any, else the best sentences of the passages, quoted with their
    citations; and the quotations made."""
    if not passages:
        return "No passage of the indexed rulebooks matches this question.", []
    if example is not None:
        text, picked = rules_answer(question, passages, known, weight)
        return f"{text}\n{worked_text(example)}", picked
    if known:
        answer, picked = _known_answer(passages[0]), [(0, passages[0].text)]
        for i in range(1, known):  # the table a move's outcome sends the player to
            if passages[i].id.split(":")[2:3] == ["table"]:
                title, *rows = passages[i].text.split("\n")
                told = " ".join(_quote(r) for r in rows if re.match(r"\d", r))
                c = passages[i].citation
                answer += (
                    f"\n{title.removesuffix('.')}: {told} [P{i + 1}] ({c.source}, {c.heading})"
                )
                picked.append((i, passages[i].text))
        if passages[0].id.split(":")[2:3] == ["ruling"]:
            # and the text's own sentence that best answers, when it is not the one read
            texts = [
                p if p.kind != "engine" else p.model_copy(update={"text": ""}) for p in passages
            ]
            best = [(i, s) for i, s in best_sentences(question, texts, 1, weight) if i > 0]
            about = set(tokenize(passages[0].id.rsplit(":", 1)[-1].replace("_", " ")))
            if (
                best
                and normalise(best[0][1]) not in normalise(passages[0].text)
                and about & set(tokenize(best[0][1]))  # it speaks of what the ruling rules on
            ):
                i, sentence = best[0]
                c = passages[i].citation
                answer += (
                    f"\nThe text also says: {_quote(sentence)} [P{i + 1}] ({c.source}, {c.heading})"
                )
                picked.append(best[0])
        return answer, picked
    # The one or two sentences that best answer, not a sentence of every passage found.
    picked = best_sentences(question, passages, 2, weight)
    lines = ["The rulebook passages closest to your question say:"]
    for i, sentence in picked:
        c = passages[i].citation
        lines.append(f"{_quote(sentence)} [P{i + 1}] ({c.source}, {c.heading})")
    return "\n".join(lines), picked


# A stat's value said with it: "+2 edge", "edge +2", "edge of 2".
_STAT_VALUE = r"(?:([+-]?\d+)\s+{stat}\b|\b{stat}\s+(?:of\s+|is\s+)?([+-]?\d+))"
_NUMBER = re.compile(r"(?<![\w+-])(\d+)(?![\w])")


def worked_example(system: GameSystem, question: str) -> WorkedExample:
    """The move roll a question describes, resolved by the engine without a model: the move it
    names (else the move its words fit best, as a session proposes one offline:
    service.sessions.propose), the stat said with its value, and the other numbers as the dice
    in the order said; the engine's reason when it refuses. A system without moves: the roll
    of its kinds the question describes (_kind_example); status none when it says too little."""
    from service.sessions.propose import move_ranking  # (the sessions import the narrator)

    if not system.moves or "move" not in system.roll_kinds:
        return _kind_example(system, question)
    low = f" {' '.join(question.lower().split())} "
    named = [m for m in system.moves if f" {m.name.lower()}" in low]
    move = (
        max(named, key=lambda m: len(m.name)).id if named else move_ranking(system, question)[0][0]
    )
    params: dict[str, Any] = {"move": move}
    text = question
    for stat in system.stats:
        m = re.search(_STAT_VALUE.format(stat=re.escape(stat)), text, re.IGNORECASE)
        if m:
            params["stat"], params["stat_value"] = stat, int(m.group(1) or m.group(2))
            text = text[: m.start()] + text[m.end() :]
            break
    dice = [int(n) for n in _NUMBER.findall(text)]
    shown: dict[str, object] = {"kind": "move", "params": params, "dice": dice}
    try:
        resolution = resolve_roll(system.id, "move", params, dice=dice)
    except RulesError as exc:
        return WorkedExample(
            status="rejected", proposal=shown, reason=f"the engine refused it: {exc.message}"
        )
    return WorkedExample(status="resolved", proposal=shown, resolution=resolution)


def worked_text(resolution: Resolution) -> str:
    """A worked example for an answer: every number from the engine's record."""
    scores = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in resolution.scores.items())
    dice = ", ".join(f"{d.role} {d.value}" for d in resolution.dice)
    told = f"{facts.title(resolution)}: {facts.outcome_words(resolution)}"
    return (
        f"Worked example, resolved by fateweaver's rules engine: {told} (dice: {dice}"
        + (f"; {scores}" if scores else "")
        + ")."
    )


# The roll a question describes, for the systems without moves: the kind and the parameters it
# must say, read from its words; the numbers left over are the dice in the order said.
_SAY_DIFFICULTY = re.compile(
    r"\bdifficulty\s+(?:of\s+|is\s+)?(\d+)|\b(?:at|against|vs\.?)\s+(\d+)\b", re.I
)
_SAY_POOL = re.compile(r"\b(\d+)\s+(?:dice|d10s?)\b|\bpool\s+(?:of\s+)?(\d+)", re.I)
_SAY_TN = re.compile(r"\b(?:tn|target number)\s+(?:of\s+|is\s+)?(\d+)", re.I)
_SAY_BONUS = re.compile(r"(?<![\w+-])([+-]\d+)(?![\w])|\bbonus\s+(?:of\s+)?([+-]?\d+)", re.I)
_SAY_SCORE = re.compile(r"\bscore\s+(?:of\s+|is\s+)?(\d+)", re.I)


def _take(pattern: re.Pattern[str], text: str) -> tuple[int | None, str]:
    """The number the pattern reads (its first group that matched), and the text without it."""
    m = pattern.search(text)
    if m is None:
        return None, text
    value = next(g for g in m.groups() if g is not None)
    return int(value), text[: m.start()] + " " + text[m.end() :]


def _said(word: str, text: str) -> bool:
    return re.search(rf"\b{word}\b", text, re.I) is not None


def _kind_example(system: GameSystem, question: str) -> WorkedExample:
    """Storyteller: a simple action (the pool, the difficulty: "5 dice at difficulty 6");
    Roll Under: an Ability Save (the ability and its score: "a Finesse 12 save", with advantage
    or disadvantage); Go Forth: a check (the TN and the +Roll: "+3 against TN 13")."""
    kinds = system.roll_kinds
    text = question
    params: dict[str, Any]
    if "simple" in kinds:
        kind = "simple"
        difficulty, text = _take(_SAY_DIFFICULTY, text)
        pool, text = _take(_SAY_POOL, text)
        if difficulty is None:
            return WorkedExample(status="none", reason="offline: the question names no difficulty")
        dice = [int(n) for n in _NUMBER.findall(text)]
        params = {"pool": pool if pool is not None else len(dice), "difficulty": difficulty}
        if _said("willpower", text):
            params["willpower"] = True
    elif "save" in kinds:
        kind = "save"
        params = {}
        for stat in system.stats:
            m = re.search(_STAT_VALUE.format(stat=re.escape(stat)), text, re.IGNORECASE)
            if m:
                params = {"ability": stat, "score": int(m.group(1) or m.group(2))}
                text = text[: m.start()] + " " + text[m.end() :]
                break
            if _said(stat, text):
                score, rest = _take(_SAY_SCORE, text)
                if score is not None:
                    params, text = {"ability": stat, "score": score}, rest
                    break
        if not params:
            return WorkedExample(
                status="none", reason="offline: the question names no ability with its score"
            )
        if _said("advantage", text):
            params["advantage"] = True
        if _said("disadvantage", text):
            params["disadvantage"] = True
        dice = [int(n) for n in _NUMBER.findall(text)]
    elif "check" in kinds:
        kind = "check"
        tn, text = _take(_SAY_TN, text)
        if tn is None:
            return WorkedExample(status="none", reason="offline: the question names no TN")
        params = {"tn": tn}
        for stat in system.stats:
            m = re.search(_STAT_VALUE.format(stat=re.escape(stat)), text, re.IGNORECASE)
            if m:
                params |= {"attribute": stat, "roll_bonus": int(m.group(1) or m.group(2))}
                text = text[: m.start()] + " " + text[m.end() :]
                break
        if "roll_bonus" not in params:
            bonus, text = _take(_SAY_BONUS, text)
            params["roll_bonus"] = bonus or 0
        for word in ("easy", "hard"):
            if _said(word, text):
                params[word] = 1
        dice = [int(n) for n in _NUMBER.findall(text)]
    else:
        return WorkedExample(status="none", reason="offline, no roll of this game is read")
    shown: dict[str, object] = {"kind": kind, "params": params, "dice": dice}
    try:
        resolution = resolve_roll(system.id, kind, params, dice=dice)
    except RulesError as exc:
        return WorkedExample(
            status="rejected", proposal=shown, reason=f"the engine refused it: {exc.message}"
        )
    return WorkedExample(status="resolved", proposal=shown, resolution=resolution)
