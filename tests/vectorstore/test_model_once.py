"""One model per process, even when the start-up warm-up and the first request ask at once."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from vectorstore.index import MemoryIndex
from vectorstore.library import Library


def test_concurrent_first_use_loads_one_model(tmp_path: Path) -> None:
    loads = []

    def factory() -> object:
        loads.append(1)
        time.sleep(0.05)  # a slow load widens the window two threads could share
        return object()

    library = Library(tmp_path, MemoryIndex(), factory, "fake")  # type: ignore[arg-type]
    threads = [threading.Thread(target=lambda: library.embeddings) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(loads) == 1
