"""Wiring of the retrieval layer: settings -> embeddings + Chroma + Library, built once, lazily.

The library is built on first use (or by ``warm()`` in a background thread, which the app's
lifespan starts), so the app starts at once; with a current index building it embeds nothing and
takes well under a second. ``close()`` stops any embedding at its next batch and waits for the
warm-up: a thread left inside onnxruntime when the interpreter finalizes aborts the process
("terminate called without an active exception", exit status 134).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from langchain_core.embeddings import Embeddings

from service.settings import Settings
from vectorstore.embeddings import (
    LocalMiniLMEmbeddings,
    ModelFileError,
    local_embeddings,
    make_embeddings,
)
from vectorstore.engine import engine_docs
from vectorstore.index import open_chroma
from vectorstore.library import Cancelled, Library, Progress

log = logging.getLogger(__name__)


def embedder(settings: Settings) -> tuple[Callable[[], Embeddings], str]:
    """A factory for the configured embeddings (loaded on first use) and their id."""
    if settings.embeddings == "openai":
        key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
        emb, emb_id = make_embeddings(
            "openai", api_key=key, base_url=settings.openai_base_url,
            model=settings.openai_embedding_model,
        )  # fmt: skip
        return (lambda: emb), emb_id
    return local_embeddings, LocalMiniLMEmbeddings.model_id


def build_library(
    settings: Settings, progress: Progress | None = None, stop: threading.Event | None = None
) -> Library:
    factory, emb_id = embedder(settings)
    index = open_chroma(
        f"rules-{emb_id}", path=settings.data_dir / "chroma", url=settings.chroma_url
    )
    library = Library(
        settings.data_dir, index, factory, emb_id, fusion=settings.retrieval_fusion, stop=stop,
        knowledge=engine_docs,
    )  # fmt: skip
    library.sync(progress)
    return library


class Retrieval:
    """Holds the one Library of an app; tests replace ``library`` with one over a fake index."""

    def __init__(self, settings: Settings, library: Library | None = None) -> None:
        self.settings = settings
        self._library = library
        self._lock = threading.Lock()
        self._warming = False
        self._failure: str | None = None
        self._stop = library.stop if library is not None else threading.Event()
        self._warm_up: threading.Thread | None = None

    @property
    def state(self) -> str:
        """For /readyz: ready, warming, not_started, or failed (with the reason)."""
        if self._library is not None:
            return "ready"
        if self._failure is not None:
            return f"failed: {self._failure}"
        return "warming" if self._warming else "not_started"

    def get(self) -> Library:
        if self._library is None:
            with self._lock:
                if self._library is None:
                    if self._stop.is_set():
                        raise Cancelled("the service is stopping")
                    self._library = build_library(self.settings, stop=self._stop)
        return self._library

    def warm(self) -> threading.Thread:
        """Build the library (and load the model) in the background."""

        def run() -> None:
            try:
                self.get().embeddings.embed_query("warm up")
            except Cancelled as exc:
                log.info("retrieval warm-up stopped (%s); the next start completes the index", exc)
            except Exception as exc:  # logged; the first request will try again and report
                self._failure = f"{type(exc).__name__}: {exc}"
                log.exception("retrieval warm-up failed")
            finally:
                self._warming = False

        self._warming = True
        # Not a daemon: the interpreter waits for it rather than finalizing under it (see close).
        self._warm_up = threading.Thread(target=run, name="retrieval-warm-up")
        self._warm_up.start()
        return self._warm_up

    def close(self, timeout: float = 30.0) -> None:
        """Stop embedding at the next batch (a few seconds at most) and wait for the warm-up."""
        self._stop.set()
        if self._warm_up is not None:
            self._warm_up.join(timeout)
            if self._warm_up.is_alive():
                log.warning("retrieval warm-up still running after %.0f s; waiting for it", timeout)


def get_library(request: Request) -> Library:
    """The app's library, built on first use; if it cannot be built, a 503 that says why."""
    retrieval: Retrieval = request.app.state.retrieval
    try:
        return retrieval.get()
    except (ModelFileError, Cancelled) as exc:
        raise HTTPException(503, f"rules search is unavailable: {exc}") from None
    except Exception as exc:  # e.g. a configured Chroma server that does not answer
        log.exception("rules search could not open its index")
        raise HTTPException(
            503, f"rules search is unavailable: {type(exc).__name__}: {exc}"
        ) from None


LibraryDep = Annotated[Library, Depends(get_library)]
