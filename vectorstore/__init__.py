"""Ingest and retrieval over the source texts (and a person's own texts).

One module per stage:

    chunking    split a text at its headings (markdown, or detected in plain text) into chunks
    embeddings  the offline MiniLM model (int8 ONNX, sha256-checked) or OpenAI, as LangChain Embeddings
    index       where vectors live: ChromaIndex (folder or `chroma run` server), MemoryIndex (tests)
    keyword     BM25 (bm25s) with a small game-aware tokenizer
    library     the manifest (content hashes), ingest, reconcile, hybrid search (score fusion)
    models      Passage (cited with rules.models.Citation), SourceInfo, IngestResult
    evaluate    recall@1 / recall@5 / MRR on a question set (`make eval-retrieval`)
"""

from vectorstore.library import Library
from vectorstore.models import IngestResult, Passage, SourceInfo

__all__ = ["IngestResult", "Library", "Passage", "SourceInfo"]
