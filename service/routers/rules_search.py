"""Rules search over the indexed source texts (no LLM involved), and the list of indexed texts.

Sync endpoints on purpose: embedding a query is CPU-bound and runs in the thread pool.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from service.retrieval import LibraryDep
from vectorstore.library import MAX_K, MAX_QUERY_CHARS
from vectorstore.models import Fusion, Mode, Passage, SourceInfo

router = APIRouter(prefix="/v1", tags=["rules search"])


class SearchResponse(BaseModel):
    query: str
    system: str | None
    mode: Mode
    passages: list[Passage] = Field(description="best first; each cites its source and heading")


@router.get("/rules/search")
def search_rules(
    library: LibraryDep,
    q: Annotated[
        str,
        Query(min_length=1, max_length=MAX_QUERY_CHARS, description="the question, in words"),
    ],
    system: Annotated[
        str | None, Query(description="only this system's texts (and house rules for all)")
    ] = None,
    k: Annotated[int, Query(ge=1, le=MAX_K, description="how many passages")] = 5,
    mode: Annotated[Mode, Query(description="hybrid (default), vector or keyword")] = "hybrid",
    fusion: Annotated[
        Fusion | None,
        Query(description="hybrid only: rrf or score (default: the service's setting)"),
    ] = None,
) -> SearchResponse:
    """The passages of the rulebooks (and ingested user texts) that best answer ``q``.

    Hybrid search fuses BM25 keyword ranking and vector ranking by reciprocal rank fusion, ties
    broken by a blend of their normalised scores (or, with fusion=score, by that blend alone)."""
    passages = library.search(q, system=system, k=k, mode=mode, fusion=fusion)
    return SearchResponse(query=q, system=system, mode=mode, passages=passages)


@router.get("/sources")
def list_sources(library: LibraryDep) -> list[SourceInfo]:
    """Every indexed text (built-in rulebooks, user texts, house rules) with its chunk count."""
    return library.sources()
