"""Quotations in a rules answer, checked in code against the passages they cite.

The model is asked to quote as ``"exact words" [P2]``. A quotation counts as verified when its
words appear verbatim in the cited passage once case, whitespace, typographic quotes and
markdown emphasis are normalised. One that does not loses its citation and is marked in the
answer (``[unverified]``), so a reader never takes it for the rulebook's words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel, Field

from rules.models import Citation
from vectorstore.models import Passage

# "…" [P2]   or   “…” [P2]   (tag optional); at least three words to count as a quotation.
# A quotation may hold a typographic pair of its own, as the texts do: “A “10” is always a
# success.” (Storyteller) quoted whole was no quotation at all.
_QUOTE = re.compile(
    r"[\"“]((?:[^\"“”\n]|“[^\"“”\n]{1,40}”){6,}?)[\"”](\s*\[P(\d{1,2})\])?(?!\s*\[unverified\])"
)
_TAG = re.compile(r"\[P(\d{1,2})\]")
# The shape prompts/rules_answer.yaml shows the model ('"the passage's own words" [P1]'), which a
# small model sometimes copies before its real quotation (runs 73, 76 and 80): it is no quotation
# of anything, and is left out of the answer rather than shown marked unverified.
PROMPT_PLACEHOLDER = "the passage's own words"
_PLACEHOLDER_SPELT = PROMPT_PLACEHOLDER.replace("'", "['’]")
_PLACEHOLDER_QUOTED = re.compile(
    rf"[\"“]{_PLACEHOLDER_SPELT}[\"”](?:\s*\[P\d{{1,2}}\])?"
    r"(?:\s*\[unverified\])?[ \t]*",
    re.IGNORECASE,
)
_SPACE = re.compile(r"\s+")
_EMPHASIS = re.compile(r"[*_`]+")
_STRAY_PUNCT = re.compile(r"^[\s.,;:!?…]+|[\s.,;:!?…]+$")


class Quotation(BaseModel):
    text: str
    passage: int | None = Field(None, description="the P-number the answer gave, if any")
    verified: bool
    citation: Citation | None = Field(None, description="only for a verified quotation")


def normalise(text: str) -> str:
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = _EMPHASIS.sub("", text)
    return _SPACE.sub(" ", text).strip().lower()


def _found(quote: str, passage: Passage) -> bool:
    needle = _STRAY_PUNCT.sub("", normalise(quote))
    return bool(needle) and needle in normalise(passage.text)


def check_quotations(answer: str, passages: Sequence[Passage]) -> tuple[str, list[Quotation]]:
    """The answer with unverified quotations marked, and every quotation with its verdict."""
    quotations: list[Quotation] = []

    def verdict(m: re.Match[str]) -> str:
        text, number = m.group(1), m.group(3)
        if len(text.split()) < 3:
            return m.group(0)  # a word or two in quotes is emphasis, not a quotation
        cited = int(number) if number else None
        candidates = (
            [passages[cited - 1]] if cited and 0 < cited <= len(passages) else list(passages)
        )
        hit = next((p for p in candidates if _found(text, p)), None)
        if hit is None and cited is None:
            quotations.append(Quotation(text=text, passage=None, verified=False))
            return f"{m.group(0)} [unverified]"
        if hit is None:
            quotations.append(Quotation(text=text, passage=cited, verified=False))
            return f'"{text}" [unverified]'
        index = passages.index(hit) + 1
        quotations.append(Quotation(text=text, passage=index, verified=True, citation=hit.citation))
        return f'"{text}" [P{index}]'

    marked = _QUOTE.sub(verdict, _PLACEHOLDER_QUOTED.sub("", answer))
    return marked, quotations


def cited_passages(answer: str) -> set[int]:
    return {int(n) for n in _TAG.findall(answer)}
