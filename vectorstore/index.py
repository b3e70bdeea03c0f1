"""Where the vectors live, behind one small interface.

``ChromaIndex`` is the real store (a persistent folder by default, a ``chroma run`` server when a
URL is configured); ``MemoryIndex`` is the fake most tests use. Vectors are always computed by
our embeddings and passed in: Chroma's default embedding function would download a model.
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlparse

import numpy as np

log = logging.getLogger(__name__)


class VectorIndex(Protocol):
    def upsert(
        self,
        ids: Sequence[str],
        texts: Sequence[str],
        vectors: Sequence[Sequence[float]],
        metadatas: Sequence[dict[str, Any]],
    ) -> None: ...

    def delete(self, ids: Sequence[str]) -> None: ...

    def ids(self) -> set[str]: ...

    def query(
        self, vector: Sequence[float], k: int, systems: Sequence[str] | None = None
    ) -> list[tuple[str, float]]:
        """(id, cosine distance), nearest first, restricted to ``systems`` when given."""
        ...

    def reset(self) -> None: ...

    def reopen(self) -> None:
        """Read the store afresh: another process (``fateweaver ingest``) has written to it."""


class MemoryIndex:
    """An in-memory index with exact cosine search: the fake behind most tests."""

    def __init__(self) -> None:
        self.rows: dict[str, tuple[np.ndarray, dict[str, Any]]] = {}
        self.upserts = 0  # how many vectors were written, so tests can see re-embedding

    def upsert(self, ids, texts, vectors, metadatas) -> None:  # type: ignore[no-untyped-def]
        for i, v, m in zip(ids, vectors, metadatas, strict=True):
            self.rows[i] = (np.asarray(v, dtype=np.float32), dict(m))
            self.upserts += 1

    def delete(self, ids: Sequence[str]) -> None:
        for i in ids:
            self.rows.pop(i, None)

    def ids(self) -> set[str]:
        return set(self.rows)

    def query(self, vector, k, systems=None):  # type: ignore[no-untyped-def]
        q = np.asarray(vector, dtype=np.float32)
        q = q / (np.linalg.norm(q) or 1.0)
        hits = []
        for i, (v, meta) in self.rows.items():
            if systems is None or meta["system"] in systems:
                hits.append((i, 1.0 - float(v @ q / (np.linalg.norm(v) or 1.0))))
        return sorted(hits, key=lambda h: h[1])[:k]

    def reset(self) -> None:
        self.rows.clear()

    def reopen(self) -> None:
        pass  # one process's memory: nothing else writes to it


def _chroma_settings() -> Any:
    from chromadb.config import Settings as ChromaSettings

    return ChromaSettings(anonymized_telemetry=False, allow_reset=True)


class ChromaIndex:
    """A Chroma collection: ``PersistentClient(folder)`` or ``HttpClient(url)``."""

    def __init__(
        self, collection: str, *, path: Path | None = None, url: str | None = None
    ) -> None:
        import chromadb

        self.name = collection
        self.path = path
        if url:
            u = urlparse(url if "://" in url else f"http://{url}")
            self._client = chromadb.HttpClient(
                host=u.hostname or "localhost",
                port=u.port or 8000,
                ssl=u.scheme == "https",
                settings=_chroma_settings(),
            )
        else:
            assert path is not None, "a folder or a server URL"
            path.mkdir(parents=True, exist_ok=True)
            self._client = chromadb.PersistentClient(path=str(path), settings=_chroma_settings())
        self._open()

    def _open(self) -> None:
        self._col = self._client.get_or_create_collection(
            self.name, embedding_function=None, metadata={"hnsw:space": "cosine"}
        )

    def upsert(self, ids, texts, vectors, metadatas) -> None:  # type: ignore[no-untyped-def]
        for i in range(0, len(ids), 500):
            self._col.upsert(
                ids=list(ids[i : i + 500]),
                documents=list(texts[i : i + 500]),
                embeddings=[list(v) for v in vectors[i : i + 500]],
                metadatas=list(metadatas[i : i + 500]),
            )

    def delete(self, ids: Sequence[str]) -> None:
        if ids:
            self._col.delete(ids=list(ids))

    def ids(self) -> set[str]:
        return set(self._col.get(include=[])["ids"])

    def query(self, vector, k, systems=None):  # type: ignore[no-untyped-def]
        where: Any = None
        if systems is not None:
            where = (
                {"system": systems[0]} if len(systems) == 1 else {"system": {"$in": list(systems)}}
            )
        n = min(k, self._col.count())
        if n == 0:
            return []
        res = self._col.query(
            query_embeddings=[list(vector)], n_results=n, where=where, include=["distances"]
        )
        return list(zip(res["ids"][0], res["distances"][0], strict=True))

    def reset(self) -> None:
        self._client.delete_collection(self.name)
        self._open()

    def reopen(self) -> None:
        """A local folder's client keeps the vector index it loaded in memory: after another
        process's writes it answers ids that are gone and misses the new ones (Chroma's "Error
        finding id"). Open the folder anew; a server is always current."""
        if self.path is None:
            return
        self.close()
        _forget_client(self.path)
        import chromadb

        self._client = chromadb.PersistentClient(path=str(self.path), settings=_chroma_settings())
        self._open()

    def close(self) -> None:
        """Release the client (its database handles or its HTTP connections)."""
        # An HTTP client holds two sessions (its own and its admin client's); close both.
        for client in (self._client, getattr(self._client, "_admin_client", None)):
            session = getattr(getattr(client, "_server", None), "_session", None)
            if session is not None:
                session.close()
        self._client.close()


def _forget_client(path: Path) -> None:
    """Drop Chroma's cached client for ``path`` (it caches one per folder, broken or not)."""
    from chromadb.api.shared_system_client import SharedSystemClient

    settings = _chroma_settings()
    settings.persist_directory = str(path)
    settings.is_persistent = True
    ident = SharedSystemClient._get_identifier_from_settings(settings)
    SharedSystemClient._identifier_to_system.pop(ident, None)


def open_chroma(collection: str, *, path: Path, url: str | None = None) -> ChromaIndex:
    """Open the store; a local folder that cannot be opened is moved aside and rebuilt."""
    if url:
        return ChromaIndex(collection, url=url)
    try:
        index = ChromaIndex(collection, path=path)
        index.ids()
        return index
    except Exception as exc:  # any failure to read the folder means: start afresh
        log.warning("vector index at %s is unreadable (%s); rebuilding it", path, exc)
        _forget_client(path)
        shutil.rmtree(path, ignore_errors=True)
        return ChromaIndex(collection, path=path)
