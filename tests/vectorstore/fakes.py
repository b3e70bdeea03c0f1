"""Fakes at the retrieval seams: hashed bag-of-words embeddings and a library over MemoryIndex."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
from langchain_core.embeddings import Embeddings

from vectorstore.index import MemoryIndex
from vectorstore.keyword import tokenize
from vectorstore.library import SOURCES_DIR, Knowledge, Library

DIMS = 256


class HashEmbeddings(Embeddings):
    """Deterministic, instant vectors: each stemmed token hashed into one of DIMS buckets."""

    def __init__(self) -> None:
        self.calls = 0  # texts embedded, so tests can tell whether anything was re-embedded

    def _vec(self, text: str) -> list[float]:
        v = np.zeros(DIMS)
        for tok in tokenize(text):
            v[int(hashlib.md5(tok.encode()).hexdigest(), 16) % DIMS] += 1.0
        n = np.linalg.norm(v)
        return (v / n if n else v).tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += len(texts)
        return [self._vec(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vec(text)


def memory_library(
    data_dir: Path,
    sources_dir: Path = SOURCES_DIR,
    index: MemoryIndex | None = None,
    knowledge: Knowledge | None = None,
) -> tuple[Library, MemoryIndex, HashEmbeddings]:
    emb = HashEmbeddings()
    index = index if index is not None else MemoryIndex()
    library = Library(
        data_dir, index, lambda: emb, "hash-test", sources_dir=sources_dir, knowledge=knowledge
    )
    library.sync()
    return library, index, emb
