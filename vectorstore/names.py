"""Rank-1 helpers of rules search: names looked up exactly, and the games' terms for everyday words.

NameIndex   the name of every passage: its section's title (a move, a table, a stat's or a
            meter's heading) and, for the engine's passages, the move's or table's name.
            A query that names one (plurals and small misspellings forgiven) lifts it.
Glossary    vectorstore/glossary.yaml: a game's term and the everyday words people ask it
            with ("momentum at the bottom" -> minimum momentum); a query saying the everyday
            words is searched with the term too. Each term cites where the game defines it.
"""

from __future__ import annotations

import difflib
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from vectorstore.chunking import Chunk
from vectorstore.keyword import tokenize

GLOSSARY = Path(__file__).with_name("glossary.yaml")
# A word of the query not in the texts is read as the nearest word that is, when it is this close
# (difflib's ratio; "momemtum" -> "momentum" 0.88) and long enough to misspell (five letters).
SPELLING_CUTOFF = 0.8
SPELLING_MIN_LEN = 5
ANY_ORDER = True
# A name said whole counts for at least this share (0: none; 0.3-0.7 measured no better).
SHARE_FLOOR = 0.0
LABEL_WEIGHT = 1.0  # a list item's label ("Dazed — ...") names its passage as a title does


def _find(needle: Sequence[str], hay: Sequence[str]) -> bool:
    n = len(needle)
    return n > 0 and any(tuple(hay[i : i + n]) == tuple(needle) for i in range(len(hay) - n + 1))


# A list item's label that it defines: "• Dazed — Either Move or Action", "- Threaten or incite:
# Roll +iron" (a label of one to four words, before a dash or a colon).
_LABEL = re.compile(
    r"^[ \t>]*(?:[-*•+][ \t]+)?\**([A-Z][A-Za-z'’/]*(?:[ \t]+[A-Za-z'’/]+){0,3})\**[ \t]*(?:—|–|:)[ \t]",
    re.MULTILINE,
)


def title_of(chunk: Chunk) -> list[str]:
    """The names a passage goes by: its section's title, and an engine passage's own name (a
    ruling's is its id: "burn momentum"; it is not the section it reads)."""
    if chunk.kind == "engine":
        first = chunk.text.split("\n", 1)[0]
        if first.startswith("Ruling ("):
            return [first[len("Ruling (") :].partition(")")[0]]
        name = first.partition(": ")[2].split(" (roll ")[0].rstrip(".")
        return [name, chunk.heading.rsplit(" > ", 1)[-1]]
    merged = [t for t in chunk.extra.get("titles", "").split("\n") if t]
    return [chunk.heading.rsplit(" > ", 1)[-1], *merged]


def labels_of(chunk: Chunk) -> list[str]:
    """The labels a passage's list items define ("Dazed", "Threaten or incite")."""
    return [m.group(1) for m in _LABEL.finditer(chunk.text)]


class NameIndex:
    """Passages by the (stemmed) words of their names."""

    def __init__(self, chunks: Iterable[Chunk]) -> None:
        self.names: dict[tuple[str, ...], dict[str, float]] = {}
        chunks = list(chunks)
        # A word's weight: its inverse document frequency over the passages.
        df = Counter(w for c in chunks for w in set(tokenize(c.keyword_text)))
        n = len(chunks)
        self.idf = {w: math.log(1 + n / k) for w, k in df.items()}
        self.rare = math.log(1 + n)  # a word no passage has
        for c in chunks:
            named = [(n, 1.0) for n in title_of(c)] + [(n, LABEL_WEIGHT) for n in labels_of(c)]
            for name, weight in named:
                words = tuple(tokenize(name))
                if words and not all(w.isdigit() for w in words):
                    ids = self.names.setdefault(words, {})
                    ids[c.id] = max(ids.get(c.id, 0.0), weight)
        self.vocab = sorted({w for words in self.names for w in words})

    def matches(self, query_words: Sequence[str], also: Sequence[str] = ()) -> dict[str, float]:
        """Passage id -> the share of the query's words its name covers (each word weighed by
        its rarity), for every name the query says whole (a passage's best name counts)."""
        if not query_words:
            return {}
        total = sum(self.idf.get(w, self.rare) for w in query_words)
        said = set(query_words) | set(also)
        out: dict[str, float] = {}
        for words, ids in self.names.items():
            if _find(words, query_words) or (ANY_ORDER and set(words) <= said):
                share = sum(self.idf.get(w, self.rare) for w in words) / total
                share = min(1.0, max(share, SHARE_FLOOR))
                for i, weight in ids.items():
                    out[i] = max(out.get(i, 0.0), share * weight)
        return out


def correct(words: Sequence[str], vocab: set[str], names: Sequence[str]) -> list[str]:
    """Each word the texts do not have, replaced by the closest word they do (names first)."""
    out = []
    for w in words:
        if w in vocab or len(w) < SPELLING_MIN_LEN or not w.isalpha():
            out.append(w)
            continue
        near = difflib.get_close_matches(w, names, n=1, cutoff=SPELLING_CUTOFF) or (
            difflib.get_close_matches(w, sorted(vocab), n=1, cutoff=SPELLING_CUTOFF)
        )
        out.append(near[0] if near else w)
    return out


@dataclass(frozen=True)
class Term:
    term: str  # the game's word(s), added to a query that says one of the phrases
    phrases: tuple[tuple[str, ...], ...]  # stemmed everyday words
    systems: frozenset[str]  # empty: every system
    source: str
    heading: str


@cache
def load_glossary(path: Path = GLOSSARY) -> tuple[Term, ...]:
    raw = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    terms = []
    for entry in raw:
        phrases = tuple(tuple(tokenize(p)) for p in entry["everyday"])
        terms.append(
            Term(
                term=entry["term"],
                phrases=tuple(p for p in phrases if p),
                systems=frozenset(entry.get("systems", [])),
                source=entry["defined"]["source"],
                heading=entry["defined"]["heading"],
            )
        )
    return tuple(terms)


def glossary_matches(
    query_words: Sequence[str], system: str | None
) -> list[tuple[str, tuple[str, ...]]]:
    """(the game's term, the everyday words of the query that said it), for a query's system
    (or every system)."""
    found = []
    for t in load_glossary():
        if system is not None and t.systems and system not in t.systems:
            continue
        for p in t.phrases:
            if _find(p, query_words):
                found.append((t.term, p))
    return found


def glossary_terms(query_words: Sequence[str], system: str | None) -> list[str]:
    """The games' terms for the everyday words of a query (of its system, or of every one)."""
    return list(dict.fromkeys(term for term, _ in glossary_matches(query_words, system)))
