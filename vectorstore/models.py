"""What retrieval returns: passages (cited like the engine's resolutions) and indexed texts."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.models import Citation

Mode = Literal["hybrid", "vector", "keyword"]
# How hybrid search combines the two retrievers: reciprocal rank fusion (ties broken by the
# score blend), or the score blend alone.
Fusion = Literal["rrf", "score"]


class Passage(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str = Field(description="stable chunk id")
    system: str = Field(description="system id, or 'all' for house rules that apply everywhere")
    citation: Citation
    score: float = Field(
        description="hybrid: fused score in [0, 1]; keyword: BM25 score; vector: cosine similarity"
    )
    text: str
    kind: Literal["builtin", "user", "house", "engine"] = Field(
        "builtin", description="engine: a ruling, move or table of the rules engine, cited like it"
    )
    start: int = Field(description="character offset of the passage in its source")
    end: int


class SourceInfo(BaseModel):
    model_config = ConfigDict(frozen=True)

    doc: str = Field(description="id to remove a user text with")
    system: str
    source: str
    kind: Literal["builtin", "user", "house", "engine"]
    chunks: int
    sha256: str


class IngestResult(BaseModel):
    doc: str
    source: str
    system: str
    status: Literal["added", "updated", "unchanged", "removed"]
    chunks: int
    embedded: int = Field(description="chunks embedded by this ingest (0 when nothing changed)")
