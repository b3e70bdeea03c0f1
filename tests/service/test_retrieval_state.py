"""The warm-up state /readyz reports: not_started -> warming -> ready, or failed with a reason."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from service import retrieval
from service.settings import Settings


def test_failed_warm_up_is_reported_and_not_fatal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def broken(settings: Settings, stop: threading.Event) -> None:
        raise OSError("index folder is read-only")

    monkeypatch.setattr(retrieval, "build_library", broken)
    holder = retrieval.Retrieval(Settings(data_dir=tmp_path, retrieval_warm_start=False))
    assert holder.state == "not_started"
    holder.warm().join(5)
    assert holder.state == "failed: OSError: index folder is read-only"


def test_warm_up_builds_the_library(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    class Embeddings:
        def embed_query(self, text: str) -> list[float]:
            return [0.0]

    class Library:
        embeddings = Embeddings()

    monkeypatch.setattr(retrieval, "build_library", lambda settings, stop: Library())
    holder = retrieval.Retrieval(Settings(data_dir=tmp_path, retrieval_warm_start=False))
    holder.warm().join(5)
    assert holder.state == "ready"
