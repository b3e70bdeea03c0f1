"""The indexed texts: ingest with a content-hash manifest, reconcile with the store, search.

The manifest (``<data_dir>/retrieval/manifest.json``) records every ingested text: its hash and
its chunks (ids, text, metadata). At start-up the built-in sources are hashed; an unchanged
source costs nothing, a changed one is re-chunked and only chunks with new ids are embedded.
The store is then reconciled with the manifest (missing vectors re-embedded, strays deleted),
so a lost or corrupt index is rebuilt rather than trusted. BM25 is built from the manifest.

Embedding stops at the next batch once the ``stop`` event is set (a service shutting down):
the batches already stored stay, and a text enters the manifest only when all of it is stored,
so the next sync finds the rest missing and embeds it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

from rules.errors import InvalidParameter, UnknownError
from rules.models import Citation
from vectorstore.chunking import Chunk, chunk_text
from vectorstore.index import VectorIndex
from vectorstore.keyword import KeywordIndex, tokenize
from vectorstore.models import Fusion, IngestResult, Mode, Passage, SourceInfo
from vectorstore.names import NameIndex, correct, glossary_terms

log = logging.getLogger(__name__)

SOURCES_DIR = Path(__file__).parent / "sources"
CHUNKER_VERSION = "4"  # bump when chunking changes: every text is re-chunked (ids mostly stable)
DEPTH = 40  # candidates taken from each retriever before fusion
QUERY_VECTORS_KEPT = 64  # recent queries' embeddings kept (a few KB each)
# Hybrid search fuses the two rankings by reciprocal rank fusion (RRF_K is the usual constant).
# With two retrievers RRF ties often (first in one and second in the other scores the same as the
# reverse); such ties are broken by the score blend VECTOR_WEIGHT * cosine / best cosine +
# (1 - VECTOR_WEIGHT) * BM25 / best BM25, which keeps the margins RRF throws away. The blend is
# also selectable alone (fusion="score"). Measured on 112 questions, see the closing notes.
RRF_K = 60
VECTOR_WEIGHT = 0.65
# Rank-1 helpers (vectorstore/names.py), measured with `make eval-retrieval` (closing notes):
# a passage whose name the query says gains NAME_WEIGHT times the share of the query's words the
# name covers; the engine's rulings weigh RULING_WEIGHT of their fused score (a ruling restates a
# rule in fateweaver's words: it goes first only when clearly closer than the text it reads).
NAME_WEIGHT = 0.3
RULING_WEIGHT = 0.8
GLOSSARY_IN_VECTOR = True
ABSENT_WEIGHT = 2.0
ALL_SYSTEMS = "all"  # the system of house rules that apply to every system
MAX_QUERY_CHARS = 500
MAX_K = 50
_SYSTEM_ID = re.compile(r"^[a-z][a-z0-9_]{0,39}$")

Progress = Callable[[int, int], None]
# Passages made elsewhere than from a text (the engine's rulings and data): (doc, system, chunks).
Knowledge = Callable[[], list[tuple[str, str, list[Chunk]]]]


class Cancelled(Exception):
    """Embedding stopped early because the ``stop`` event was set; the index stays consistent."""


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def builtin_sources(folder: Path = SOURCES_DIR) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix in (".md", ".txt"))


class Library:
    """Every indexed text, its vectors and its keyword index."""

    def __init__(
        self,
        data_dir: Path,
        index: VectorIndex,
        embeddings: Callable[[], Embeddings],
        embedder_id: str,
        sources_dir: Path = SOURCES_DIR,
        fusion: Fusion = "rrf",
        stop: threading.Event | None = None,
        knowledge: Knowledge | None = None,
    ) -> None:
        self.fusion: Fusion = fusion
        # The rules engine's rulings, moves and tables as passages (vectorstore/engine.py).
        self.knowledge = knowledge
        self.stop = stop if stop is not None else threading.Event()
        self.dir = Path(data_dir) / "retrieval"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.index = index
        self._embeddings_factory = embeddings
        self._embeddings: Embeddings | None = None
        self.embedder_id = embedder_id
        self.sources_dir = sources_dir
        self.docs: dict[str, dict[str, Any]] = {}
        self._lock = threading.RLock()
        self._query_vectors: dict[str, list[float]] = {}  # oldest first
        self._keyword: KeywordIndex | None = None
        self._chunks: dict[str, Chunk] = {}
        self._names = NameIndex([])
        self._vocab: set[str] = set()
        self._manifest_mtime: int | None = None
        self._load_manifest()

    # -- manifest ---------------------------------------------------------------------------

    @property
    def manifest_path(self) -> Path:
        return self.dir / "manifest.json"

    def _load_manifest(self) -> None:
        path = self.manifest_path
        if not path.exists():
            return
        try:
            self._manifest_mtime = path.stat().st_mtime_ns
            data = json.loads(path.read_text())
            if data.get("chunker") != CHUNKER_VERSION or data.get("embedder") != self.embedder_id:
                log.info("retrieval manifest is for another chunker or model; re-indexing")
                return
            self.docs = {d: dict(v) for d, v in data["docs"].items()}
            for entry in self.docs.values():
                entry["chunks"] = [Chunk(**c) for c in entry["chunks"]]
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("retrieval manifest %s is corrupt (%s); rebuilding the index", path, exc)
            self.docs = {}

    def _save_manifest(self) -> None:
        docs = {d: {**v, "chunks": [asdict(c) for c in v["chunks"]]} for d, v in self.docs.items()}
        data = {"chunker": CHUNKER_VERSION, "embedder": self.embedder_id, "docs": docs}
        tmp = self.manifest_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False))
        tmp.replace(self.manifest_path)
        self._manifest_mtime = self.manifest_path.stat().st_mtime_ns

    def refresh(self) -> None:
        """Pick up texts another process (``fateweaver ingest``) added or removed meanwhile."""
        try:
            mtime = self.manifest_path.stat().st_mtime_ns
        except FileNotFoundError:
            return
        if mtime != self._manifest_mtime:
            with self._lock:
                log.info("the retrieval manifest changed on disk; reloading it")
                self._load_manifest()
                self._keyword = None
                self.index.reopen()

    # -- embedding --------------------------------------------------------------------------

    @property
    def embeddings(self) -> Embeddings:
        # Locked: the start-up warm-up and the first request must not load two models.
        if self._embeddings is None:
            with self._lock:
                if self._embeddings is None:
                    self._embeddings = self._embeddings_factory()
        return self._embeddings

    def _embed_and_store(self, chunks: Sequence[Chunk], progress: Progress | None) -> None:
        """Embed every window of ``chunks`` and store it; ``progress(done, total)`` in windows.

        Windows are embedded shortest first so that a batch pads to similar lengths (this
        halves the time of a cold ingest on the local model)."""
        rows = sorted(
            (
                (vid, text, {**c.metadata(), "chunk": c.id})
                for c in chunks
                for vid, text in zip(c.vector_ids(), c.windows(), strict=True)
            ),
            key=lambda r: len(r[1]),
        )
        batch = 32
        for i in range(0, len(rows), batch):
            if self.stop.is_set():
                # Before the next batch, not inside one: a thread still running the model when
                # the interpreter exits aborts the process ("terminate called ...").
                raise Cancelled(f"stopped after embedding {i} of {len(rows)} windows")
            part = rows[i : i + batch]
            vectors = self.embeddings.embed_documents([text for _, text, _ in part])
            self.index.upsert(
                [r[0] for r in part], [r[1] for r in part], vectors, [r[2] for r in part]
            )
            if progress:
                progress(min(i + batch, len(rows)), len(rows))

    # -- ingest -----------------------------------------------------------------------------

    def _put(
        self,
        doc: str,
        text: str,
        *,
        system: str,
        source: str,
        kind: str,
        progress: Progress | None = None,
        chunks: list[Chunk] | None = None,
    ) -> IngestResult:
        digest = sha256_text(text)
        old = self.docs.get(doc)
        if (
            old
            and old["sha256"] == digest
            and old["system"] == system
            # (a person's text indexed before its ids had its kind in them is indexed again)
            and (
                kind in ("builtin", "engine")
                or all(c.id.startswith(f"{kind}:") for c in old["chunks"])
            )
        ):
            return IngestResult(
                doc=doc, source=source, system=system, status="unchanged",
                chunks=len(old["chunks"]), embedded=0,
            )  # fmt: skip
        if chunks is None:
            chunks = chunk_text(text, system=system, source=source, kind=kind, doc=doc)
        if not chunks:
            # e.g. a file of headings only: accepting it would list a text nobody can find.
            raise InvalidParameter(f"{source} has no text to index under its headings", "path")
        old_ids = {c.id for c in old["chunks"]} if old else set()
        new = [c for c in chunks if c.id not in old_ids]
        self._embed_and_store(new, progress)
        gone = [c for c in old["chunks"] if c.id not in {c.id for c in chunks}] if old else []
        self.index.delete(self._unshared([v for c in gone for v in c.vector_ids()], doc))
        self.docs[doc] = {
            "doc": doc, "system": system, "source": source, "kind": kind,
            "sha256": digest, "chunks": chunks,
        }  # fmt: skip
        self._save_manifest()
        self._keyword = None
        status = "updated" if old else "added"
        log.info(
            "%s %s (%s): %d chunks, %d embedded", status, source, system, len(chunks), len(new)
        )
        return IngestResult(
            doc=doc, source=source, system=system, status=status,
            chunks=len(chunks), embedded=len(new),
        )  # fmt: skip

    def sync(self, progress: Progress | None = None) -> list[IngestResult]:
        """Bring the index up to date with the built-in sources; cheap when nothing changed."""
        with self._lock:
            results = []
            present = set()
            for path in builtin_sources(self.sources_dir):
                doc = f"builtin/{path.name}"
                present.add(doc)
                results.append(
                    self._put(doc, path.read_text(encoding="utf-8"), system=path.stem,
                              source=path.name, kind="builtin", progress=progress)
                )  # fmt: skip
            for doc, system, chunks in self.knowledge() if self.knowledge else []:
                present.add(doc)
                text = "\0".join(
                    f"{c.id}\0{c.source}\0{c.heading}\0{c.text}\0{c.extra}" for c in chunks
                )
                results.append(
                    self._put(doc, text, system=system, source=f"rules engine ({system})",
                              kind="engine", progress=progress, chunks=chunks)
                )  # fmt: skip
            for doc in [d for d, v in self.docs.items() if v["kind"] in ("builtin", "engine")]:
                if doc not in present:
                    results.append(self.remove(doc, builtin=True))
            self.reconcile(progress)
            return results

    def reconcile(self, progress: Progress | None = None) -> int:
        """Make the store hold exactly the manifest's chunks; returns how many were re-embedded."""
        with self._lock:
            chunks = [c for v in self.docs.values() for c in v["chunks"]]
            wanted = {vid for c in chunks for vid in c.vector_ids()}
            stored = self.index.ids()
            missing = [c for c in chunks if not set(c.vector_ids()) <= stored]
            extra = sorted(stored - wanted)
            if missing:
                log.warning(
                    "vector index lacks %d of %d passages; re-embedding them",
                    len(missing),
                    len(wanted),
                )
                self._embed_and_store(missing, progress)
            if extra:
                log.info("removing %d stray passages from the vector index", len(extra))
                self.index.delete(extra)
            return len(missing)

    def add_text(
        self,
        text: str,
        *,
        source: str,
        system: str | None,
        house: bool = False,
        progress: Progress | None = None,
    ) -> IngestResult:
        """Add (or update) a person's own text: rules for a system, or house rules."""
        if system is not None and not _SYSTEM_ID.match(system):
            raise InvalidParameter(
                f"system id {system!r} must be lower case letters, digits and _", "system"
            )
        if system is None and not house:
            raise InvalidParameter("give a system id, or mark the text as house rules", "system")
        if system == ALL_SYSTEMS and not house:
            raise InvalidParameter(
                f"{ALL_SYSTEMS!r} (every system) is for house rules: use --house-rules", "system"
            )
        if not text.strip():
            raise InvalidParameter(f"{source} is empty", "path")
        sys_id = system or ALL_SYSTEMS
        kind = "house" if house else "user"
        with self._lock:
            return self._put(
                f"{kind}/{sys_id}/{source}", text, system=sys_id, source=source, kind=kind,
                progress=progress,
            )  # fmt: skip

    def remove(self, doc: str, *, builtin: bool = False) -> IngestResult:
        """Remove a user text or house rules (a built-in text only when ``sync`` finds its
        source gone: ``builtin=True``)."""
        with self._lock:
            entry = self._find(doc)
            if entry["kind"] in ("builtin", "engine") and not builtin:
                raise InvalidParameter("the built-in rulebooks cannot be removed", "doc")
            vids = [v for c in entry["chunks"] for v in c.vector_ids()]
            self.index.delete(self._unshared(vids, entry["doc"]))
            del self.docs[entry["doc"]]
            self._save_manifest()
            self._keyword = None
            return IngestResult(
                doc=entry["doc"], source=entry["source"], system=entry["system"],
                status="removed", chunks=len(entry["chunks"]), embedded=0,
            )  # fmt: skip

    def _unshared(self, vector_ids: list[str], doc: str) -> list[str]:
        """Those of ``doc``'s vectors that no other text holds (never delete another's)."""
        if not vector_ids:
            return []
        held = {
            v for d, entry in self.docs.items() if d != doc
            for c in entry["chunks"] for v in c.vector_ids()
        }  # fmt: skip
        return [v for v in vector_ids if v not in held]

    def _find(self, doc: str) -> dict[str, Any]:
        if doc in self.docs:
            return self.docs[doc]
        matches = [
            v for v in self.docs.values()
            if v["source"] == doc and v["kind"] not in ("builtin", "engine")
        ]  # fmt: skip
        if len(matches) == 1:
            return matches[0]
        removable = [d for d in self.docs if not d.startswith(("builtin/", "engine/"))]
        raise UnknownError("document", doc, removable)

    # -- listing ----------------------------------------------------------------------------

    def sources(self) -> list[SourceInfo]:
        self.refresh()
        return [
            SourceInfo(doc=d, system=v["system"], source=v["source"], kind=v["kind"],
                       chunks=len(v["chunks"]), sha256=v["sha256"])
            for d, v in sorted(self.docs.items())
        ]  # fmt: skip

    def systems(self) -> list[str]:
        return sorted({v["system"] for v in self.docs.values()} - {ALL_SYSTEMS})

    # -- search -----------------------------------------------------------------------------

    def _keyword_index(self) -> KeywordIndex:
        with self._lock:
            if self._keyword is None:
                chunks = [c for v in self.docs.values() for c in v["chunks"]]
                self._chunks = {c.id: c for c in chunks}
                self._keyword = KeywordIndex(
                    [c.id for c in chunks], [c.keyword_text for c in chunks]
                )
                self._system_of = np.array([c.system for c in chunks])
                self._names = NameIndex(chunks)
                self._vocab = self._keyword.vocab
            return self._keyword

    def _check(self, query: str, system: str | None, k: int) -> list[str] | None:
        if not query.strip():
            raise InvalidParameter("the query is empty", "q")
        if len(query) > MAX_QUERY_CHARS:
            raise InvalidParameter(
                f"the query is {len(query)} characters long; the limit is {MAX_QUERY_CHARS}", "q"
            )
        if not 1 <= k <= MAX_K:
            raise InvalidParameter(f"k must be between 1 and {MAX_K}, got {k}", "k")
        if system is None:
            return None
        if system not in self.systems():
            raise UnknownError("system", system, self.systems(), field="system")
        return [system, ALL_SYSTEMS]

    def keyword_scores(
        self, query: str | list[str], systems: Sequence[str] | None
    ) -> dict[str, float]:
        """BM25 score of every passage (in ``systems``) that shares a term with the query."""
        kw = self._keyword_index()
        scores = kw.scores(query)
        if systems is not None and len(scores):
            scores = np.where(np.isin(self._system_of, list(systems)), scores, 0.0)
        return {kw.ids[i]: float(scores[i]) for i in np.flatnonzero(scores > 0)}

    def word_weight(self, word: str) -> float:
        """How rare a (tokenized) word is in the passages: its inverse document frequency; a word
        no passage has weighs ABSENT_WEIGHT times the rarest word's (a question about something
        the texts never name is not about these rules)."""
        self._keyword_index()
        return self._names.idf.get(word, ABSENT_WEIGHT * self._names.rare)

    def keyword_ranking(self, query: str, systems: Sequence[str] | None) -> list[str]:
        return [i for i, _ in _best(self.keyword_scores(query, systems))[:DEPTH]]

    def _query_vector(self, query: str) -> list[float]:
        """The query's embedding, kept for the last few queries: the rules chat asks for the
        same question's similarity right after searching it (one embedding, not two)."""
        with self._lock:
            vector = self._query_vectors.get(query)
        if vector is None:
            vector = self.embeddings.embed_query(query)
            with self._lock:
                self._query_vectors[query] = vector
                while len(self._query_vectors) > QUERY_VECTORS_KEPT:
                    self._query_vectors.pop(next(iter(self._query_vectors)))
        return vector

    def vector_scores(self, query: str, systems: Sequence[str] | None) -> dict[str, float]:
        """Cosine similarity of the nearest passages: each passage scores its best window."""
        vector = self._query_vector(query)
        best: dict[str, float] = {}
        for vid, distance in self.index.query(vector, DEPTH * 2, systems):
            best.setdefault(vid.partition("#")[0], 1.0 - distance)  # nearest window first
        return dict(list(best.items())[:DEPTH])

    def similarity(self, query: str, system: str | None = None) -> float:
        """The query's best cosine similarity to any passage (of ``system``): how near in
        meaning the texts come to it at all (the rules chat's "not in these rules")."""
        self.refresh()
        scores = self.vector_scores(query, self._check(query, system, 1))
        return max(scores.values(), default=0.0)

    def vector_ranking(self, query: str, systems: Sequence[str] | None) -> list[str]:
        return [i for i, _ in _best(self.vector_scores(query, systems))]

    def search(
        self,
        query: str,
        *,
        system: str | None = None,
        k: int = 5,
        mode: Mode = "hybrid",
        fusion: Fusion | None = None,
    ) -> list[Passage]:
        """The k passages that best answer ``query``, best first. A passage's score is the
        fused score (hybrid: RRF, or the score blend), its BM25 score (keyword) or its cosine
        similarity (vector)."""
        self.refresh()
        systems = self._check(query, system, k)
        self._keyword_index()
        if mode == "keyword":
            ranked = _best(self.keyword_scores(query, systems))
        elif mode == "vector":
            ranked = _best(self.vector_scores(query, systems))
        else:
            # Misspelt words read as the texts' nearest, and the games' terms for everyday words.
            words = correct(tokenize(query), self._vocab, self._names.vocab)
            terms = glossary_terms(words, system)
            keyword = self.keyword_scores(words + tokenize(" ".join(terms)), systems)
            said = f"{query} ({', '.join(terms)})" if terms and GLOSSARY_IN_VECTOR else query
            vector = self.vector_scores(said, systems)
            top = [i for i, _ in _best(keyword)[:DEPTH]]
            named = self._named(words, tokenize(" ".join(terms)), systems)
            blend = self._rank_one(fuse(keyword, vector, candidates=top), named)
            if (fusion or self.fusion) == "rrf":
                # (The names lift only the blend that breaks its ties: as a third ranking they
                # cost RRF recall@1, 0.85 -> 0.65 on the public set.)
                ranked = rrf([top, [i for i, _ in _best(vector)]], tiebreak=dict(blend))
            else:
                ranked = blend
        return [self._passage(i, s) for i, s in ranked[:k] if i in self._chunks]

    def _named(
        self, words: list[str], terms: list[str], systems: Sequence[str] | None
    ) -> dict[str, float]:
        """The passages (in ``systems``) the query names, with the share of it each name is."""
        return {
            i: share for i, share in self._names.matches(words, terms).items()
            if systems is None or self._chunks[i].system in systems
        }  # fmt: skip

    def _rank_one(
        self, blend: list[tuple[str, float]], named: dict[str, float]
    ) -> list[tuple[str, float]]:
        """The blend with named passages lifted and rulings weighed (see NAME_WEIGHT)."""
        scores = dict(blend)
        floor = min(scores.values(), default=0.0)
        for i, share in named.items():
            scores[i] = scores.get(i, floor) + NAME_WEIGHT * share
        for i in scores:
            if i.startswith("engine:") and ":ruling:" in i:
                scores[i] *= RULING_WEIGHT
        top = max(scores.values(), default=1.0)
        if top > 1.0:  # the score stays in [0, 1], 1 for the best
            scores = {i: v / top for i, v in scores.items()}
        return _best(scores)

    def _passage(self, chunk_id: str, score: float) -> Passage:
        c = self._chunks[chunk_id]
        # A person's text is cited by its document id (user/<system>/<file>, house/...), never
        # by a file name alone, which may be a rulebook's.
        source = c.source if c.kind in ("builtin", "engine") else f"{c.kind}/{c.system}/{c.source}"
        return Passage(
            id=c.id, system=c.system, citation=Citation(source=source, heading=c.heading),
            score=round(score, 6), text=readable(c.text), kind=c.kind, start=c.start, end=c.end,  # type: ignore[arg-type]
        )  # fmt: skip


# Obsidian markup in the source texts (Sundered Isles' is an Obsidian vault): an embedded image
# (![[outcome-strong-hit.svg|60]]), a link shown as its label ([[#^Index\|Page 236]] -> Page
# 236, [[#PAY THE PRICE]] -> PAY THE PRICE), a block id ( ^Session-Moves) at a line's end.
_EMBED = re.compile(r"!\[\[[^\]]*\]\]")
_LINK = re.compile(r"\[\[(?:[^\]|]*?(?:\\)?\|)?([^\]]*)\]\]")
_BLOCK_ID = re.compile(r"\s\^[A-Za-z0-9-]+$", re.MULTILINE)


def readable(text: str) -> str:
    """A passage as a reader sees it: Obsidian's markup as plain text (the words of the source
    stay as they are, so a quotation of them verifies)."""
    text = _EMBED.sub("", text)
    text = _LINK.sub(lambda m: m.group(1).lstrip("#^").strip(), text)
    return _BLOCK_ID.sub("", text)


def _best(scores: dict[str, float]) -> list[tuple[str, float]]:
    """(id, score), best first; ties go to the smaller id so that results are repeatable."""
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))


def rrf(
    rankings: Iterable[Sequence[str]],
    k: int = RRF_K,
    tiebreak: dict[str, float] | None = None,
) -> list[tuple[str, float]]:
    """Reciprocal rank fusion: the sum of 1 / (k + rank) over the rankings, best first; equal
    sums go to the higher ``tiebreak`` score, then to the smaller id (repeatable)."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    second = tiebreak or {}
    return sorted(
        scores.items(), key=lambda kv: (-round(kv[1], 12), -second.get(kv[0], 0.0), kv[0])
    )


def fuse(
    keyword: dict[str, float],
    vector: dict[str, float],
    *,
    candidates: Iterable[str] | None = None,
    weight: float = VECTOR_WEIGHT,
) -> list[tuple[str, float]]:
    """Hybrid ranking of the vector hits and the ``candidates`` (default: every keyword hit).

    Each score is divided by its retriever's best, so both lie in [0, 1] with 1 for the top hit,
    and they are mixed ``weight`` (vector) to ``1 - weight`` (keyword). A passage without a
    keyword score has 0; one the vector search did not return gets its lowest similarity."""
    top_k = max(keyword.values(), default=0.0)
    top_v = max(vector.values(), default=0.0)
    floor = min(vector.values(), default=0.0)
    ids = set(vector) | set(keyword if candidates is None else candidates)
    fused = {}
    for i in ids:
        kw = keyword.get(i, 0.0) / top_k if top_k > 0 else 0.0
        vec = vector.get(i, floor) / top_v if top_v > 0 else 0.0
        fused[i] = weight * vec + (1.0 - weight) * kw
    return _best(fused)
