"""BM25 keyword search over the chunks.

``bm25s`` rather than LangChain's BM25Retriever: bm25s is maintained, scores with sparse numpy
matrices (sub-millisecond here) and gives every document's score, so the system filter is a mask
instead of a second index; BM25Retriever needs ``rank_bm25``, unmaintained since 2022.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import bm25s
import numpy as np

# Game terms survive: "+supply", "d20", "1d4", "xp", "+2". Apostrophes are dropped (can't -> cant).
_TOKEN = re.compile(r"\+?[a-z0-9]+")
STOPWORDS = frozenset(
    [
        "a",
        "about",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "for",
        "from",
        "had",
        "has",
        "have",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "our",
        "so",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "us",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
    ]
)


def stem(word: str) -> str:
    """A light suffix stripper: plurals and common verb endings, nothing clever."""
    if len(word) <= 3 or not word.isalpha():
        return word
    for suffix, repl in (
        ("ies", "y"),
        ("sses", "ss"),
        ("ing", ""),
        ("ed", ""),
        ("es", ""),
        ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                return word
            if suffix == "es" and not word.endswith(("sses", "xes", "zes", "ches", "shes")):
                continue  # strikes -> strike (by "s"), not strik; boxes -> box

            word = word[: -len(suffix)] + repl
            if suffix in ("ing", "ed") and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]  # flagged -> flag, stopping -> stop
            return word
    return word


def tokenize(text: str) -> list[str]:
    text = text.lower().replace("'", "").replace("’", "")
    return [
        stem(t.lstrip("+")) if t.lstrip("+").isalpha() else t
        for t in _TOKEN.findall(text)
        if t not in STOPWORDS
    ]


class KeywordIndex:
    """BM25 over a fixed list of documents; rebuilt whenever the chunk set changes (fast)."""

    def __init__(self, ids: Sequence[str], texts: Sequence[str]) -> None:
        self.ids = list(ids)
        self._bm25: bm25s.BM25 | None = None
        corpus = [tokenize(t) or ["\0"] for t in texts]
        if corpus:
            self._bm25 = bm25s.BM25(k1=1.2, b=0.75)
            self._bm25.index(corpus, show_progress=False)

    @property
    def vocab(self) -> set[str]:
        return set(self._bm25.vocab_dict) if self._bm25 is not None else set()

    def scores(self, query: str | list[str]) -> np.ndarray:
        """BM25 of every document for a query (a text, or its words already tokenized)."""
        if self._bm25 is None:
            return np.zeros(0)
        words = tokenize(query) if isinstance(query, str) else query
        tokens = [t for t in words if t in self._bm25.vocab_dict]
        if not tokens:
            return np.zeros(len(self.ids))
        return np.asarray(self._bm25.get_scores(tokens))
