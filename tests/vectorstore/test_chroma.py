"""The few tests that touch Chroma: a local folder, a corrupt folder, a real `chroma run`,
and one end-to-end run with the real model (start-up with a current index embeds nothing)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from tests.vectorstore.fakes import HashEmbeddings
from vectorstore.embeddings import LocalMiniLMEmbeddings
from vectorstore.evaluate import DEFAULT_QUESTIONS, evaluate
from vectorstore.index import ChromaIndex, open_chroma
from vectorstore.library import Library


def _exercise(index: ChromaIndex) -> None:
    index.upsert(
        ["a#0", "b#0", "c#0"],
        ["alpha", "beta", "gamma"],
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.9, 0.1, 0.0]],
        [{"system": "elegy"}, {"system": "go_forth"}, {"system": "go_forth"}],
    )
    assert index.ids() == {"a#0", "b#0", "c#0"}
    assert [i for i, _ in index.query([1.0, 0.0, 0.0], 3)] == ["a#0", "c#0", "b#0"]
    assert [i for i, _ in index.query([1.0, 0.0, 0.0], 3, ["go_forth"])] == ["c#0", "b#0"]
    assert next(i for i, _ in index.query([1.0, 0.0, 0.0], 3, ["go_forth", "elegy"])) == "a#0"
    index.delete(["c#0"])
    assert index.ids() == {"a#0", "b#0"}


def test_persistent_folder(tmp_path: Path) -> None:
    index = ChromaIndex("test", path=tmp_path / "chroma")
    _exercise(index)
    assert ChromaIndex("test", path=tmp_path / "chroma").ids() == {"a#0", "b#0"}


def test_a_corrupt_folder_is_rebuilt_with_a_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "chroma"
    folder.mkdir()
    (folder / "chroma.sqlite3").write_bytes(b"this is not a database" * 100)
    with caplog.at_level(logging.WARNING):
        index = open_chroma("test", path=folder)
    assert "rebuilding" in caplog.text
    _exercise(index)


def test_server_mode_against_a_real_chroma_run(chroma_server: str, tmp_path: Path) -> None:
    index = open_chroma("server-test", path=tmp_path / "unused", url=chroma_server)
    index.reset()
    _exercise(index)
    emb = HashEmbeddings()
    library = Library(tmp_path, open_chroma("server-lib", path=tmp_path, url=chroma_server),
                      lambda: emb, "hash-test")  # fmt: skip
    library.index.reset()
    library.sync()
    hit = library.search("Strike", system="sundered_isles", k=3, mode="vector")
    assert hit and {h.system for h in hit} == {"sundered_isles"}
    assert not (tmp_path / "unused").exists()
    index.close()
    library.index.close()  # type: ignore[attr-defined]


def test_end_to_end_with_the_real_model(tmp_path: Path, minilm: LocalMiniLMEmbeddings) -> None:
    index = ChromaIndex("rules-e2e", path=tmp_path / "chroma")
    library = Library(tmp_path, index, lambda: minilm, minilm.model_id)
    library.sync()

    def must_not_embed() -> LocalMiniLMEmbeddings:
        raise AssertionError("start-up with a current index must not load the model")

    reopened = Library(tmp_path, ChromaIndex("rules-e2e", path=tmp_path / "chroma"),
                       must_not_embed, minilm.model_id)  # fmt: skip
    assert all(r.status == "unchanged" for r in reopened.sync())

    questions = json.loads(DEFAULT_QUESTIONS.read_text())
    scores = evaluate(library, questions)["hybrid"]
    assert scores["recall@5"] >= 0.9 and scores["mrr"] >= 0.8, scores


# Another process's ingest, as `fateweaver ingest` does it while the service runs.
_OTHER_PROCESS = """
import sys
from pathlib import Path
from tests.vectorstore.fakes import HashEmbeddings
from vectorstore.index import open_chroma
from vectorstore.library import Library
data, sources, step = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
emb = HashEmbeddings()
library = Library(data, open_chroma("rules-t", path=data / "chroma"), lambda: emb, "hash-test",
                  sources_dir=sources)
library.sync()
if step == "add":
    library.add_text("# Harbour\\n\\nNo ship docks after dark; the harbour master keeps a ledger.\\n",
                     source="ports.md", system="sundered_isles")
else:
    library.remove("user/sundered_isles/ports.md")
"""


def test_a_running_library_sees_another_process_ingest(tmp_path: Path) -> None:
    """Issue 14: `fateweaver ingest` while the service ran left the service's Chroma client with
    the vector index it had loaded: it missed the new text and answered ids that were gone."""
    import subprocess
    import sys

    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "rules.md").write_text("# Rules\n\n## Oracle\n\nRoll d100 against the odds.\n")
    data = tmp_path / "data"

    def other(step: str) -> None:
        subprocess.run(
            [sys.executable, "-c", _OTHER_PROCESS, str(data), str(sources), step],
            check=True, cwd=Path(__file__).resolve().parents[2], timeout=120,
        )  # fmt: skip

    other("add")  # before the service opens the folder: the vectors it loads include ports.md
    emb = HashEmbeddings()
    running = Library(
        data, open_chroma("rules-t", path=data / "chroma"), lambda: emb, "hash-test",
        sources_dir=sources,
    )  # fmt: skip
    running.sync()
    query = "harbour master ledger docks"

    def found() -> list[str]:
        return [p.citation.source for p in running.search(query, k=5, mode="vector")]

    assert "user/sundered_isles/ports.md" in found()
    other("remove")
    assert found() == ["rules.md"]
    other("add")
    assert "user/sundered_isles/ports.md" in found()
