"""Rules search over the indexed source texts (no LLM involved), and the list of indexed texts.

Sync endpoints on purpose: embedding a query is CPU-bound and runs in the thread pool.
"""

from __future__ import annotations

import sys
from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from rules.errors import UnknownError
from rules.registry import SYSTEM_IDS
from service.errors import UnknownInUrl, error_responses
from service.retrieval import LibraryDep
from vectorstore.library import _SYSTEM_ID, MAX_K, MAX_QUERY_CHARS
from vectorstore.models import Fusion, Mode, Passage, SourceInfo

router = APIRouter(prefix="/v1", tags=["rules search"])

# A query of whitespace only is refused ("the query is empty"): whitespace as Python's str.strip
# reads it, spelled out so that every regex engine reading the document agrees.
_WHITESPACE = "".join(filter(str.isspace, map(chr, range(sys.maxunicode + 1))))
NOT_BLANK = f"[^{_WHITESPACE}]"


class SearchResponse(BaseModel):
    query: str
    system: str | None
    mode: Mode
    passages: list[Passage] = Field(description="best first; each cites its source and heading")


@router.get("/rules/search", responses=error_responses(404, 422, 503))
def search_rules(
    library: LibraryDep,
    q: Annotated[
        str,
        Query(
            min_length=1,
            max_length=MAX_QUERY_CHARS,
            description="the question, in words (not whitespace only)",
            json_schema_extra={"pattern": NOT_BLANK},
        ),
    ],
    system: Annotated[
        str | None,
        Query(
            pattern=_SYSTEM_ID.pattern,
            description="only this system's texts (and house rules for all): a built-in system "
            f"({', '.join(SYSTEM_IDS)}) or one whose texts were ingested "
            "(`fateweaver ingest --system ID`); a well-formed id with no texts answers 404",
            examples=list(SYSTEM_IDS),
        ),
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
    try:
        passages = library.search(q, system=system, k=k, mode=mode, fusion=fusion)
    except UnknownError as exc:
        if exc.field != "system":
            raise
        raise UnknownInUrl.of(exc, "system") from None
    return SearchResponse(query=q, system=system, mode=mode, passages=passages)


@router.get("/sources", responses=error_responses(503))
def list_sources(library: LibraryDep) -> list[SourceInfo]:
    """Every indexed text (built-in rulebooks, user texts, house rules) with its chunk count."""
    return library.sources()
