"""`fateweaver ingest add` refuses a file over FATEWEAVER_MAX_INGEST_BYTES: nothing is indexed."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from service import cli, retrieval
from service.settings import Settings
from tests.vectorstore.fakes import memory_library

LIMIT = 200


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    library, _, _ = memory_library(tmp_path / "data")
    monkeypatch.setattr(retrieval, "build_library", lambda settings, progress=None: library)
    settings = Settings(data_dir=tmp_path / "data", max_ingest_bytes=LIMIT)
    monkeypatch.setattr(cli, "get_settings", lambda: settings)
    return CliRunner()


def test_a_file_over_the_limit_is_refused_and_nothing_is_indexed(
    runner: CliRunner, tmp_path: Path
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "coast.md").write_text("# The Glass Coast\n\nRuled by the heron queen.\n")
    (notes / "tome.md").write_text("# The Tome\n\n" + "Every page is a rule. " * 20)
    result = runner.invoke(cli.app, ["ingest", str(notes), "--system", "sundered_isles"])
    assert result.exit_code == 2
    assert "tome.md" in result.output and f"limit of {LIMIT} bytes" in result.output
    assert "FATEWEAVER_MAX_INGEST_BYTES" in result.output
    assert "coast.md" not in result.output  # only the large one is named
    listed = runner.invoke(cli.app, ["ingest", "list"]).output
    assert "coast.md" not in listed and "tome.md" not in listed
    # within the limit, it goes in
    (notes / "tome.md").write_text("# The Tome\n\nOne rule.\n")
    again = runner.invoke(cli.app, ["ingest", str(notes), "--system", "sundered_isles"])
    assert again.exit_code == 0, again.output
    assert "coast.md" in again.output and "tome.md" in again.output


def test_line_endings_are_read_as_before(runner: CliRunner, tmp_path: Path) -> None:
    text = tmp_path / "rules.md"
    text.write_bytes(b"# Rules\r\n\r\nRoll high.\r\n")
    first = runner.invoke(cli.app, ["ingest", str(text), "--system", "elegy"])
    assert first.exit_code == 0 and "added" in first.output
    text.write_bytes(b"# Rules\n\nRoll high.\n")
    again = runner.invoke(cli.app, ["ingest", str(text), "--system", "elegy"])
    assert "unchanged" in again.output
