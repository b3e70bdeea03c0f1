"""`fateweaver ingest`: add (the default command), list, remove, over a library with a fake index."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from service import cli, retrieval
from tests.vectorstore.fakes import memory_library


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    library, _, _ = memory_library(tmp_path / "data")
    monkeypatch.setattr(retrieval, "build_library", lambda settings, progress=None: library)
    return CliRunner()


def test_ingest_add_list_remove(runner: CliRunner, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "coast.md").write_text("# The Glass Coast\n\nRuled by the heron queen.\n")
    (notes / "ports.txt").write_text("Harbour Rules\n\nNo ship docks after dark.\n")
    result = runner.invoke(cli.app, ["ingest", str(notes), "--system", "sundered_isles"])
    assert result.exit_code == 0, result.output
    assert "added     user/sundered_isles/coast.md" in result.output
    assert "user/sundered_isles/ports.txt" in result.output
    again = runner.invoke(
        cli.app, ["ingest", "add", str(notes / "coast.md"), "--system", "sundered_isles"]
    )
    assert "unchanged" in again.output
    listed = runner.invoke(cli.app, ["ingest", "list"])
    assert "user/sundered_isles/coast.md" in listed.output and "builtin/elegy.md" in listed.output
    removed = runner.invoke(cli.app, ["ingest", "remove", "coast.md"])
    assert removed.exit_code == 0 and "removed user/sundered_isles/coast.md" in removed.output
    assert "coast.md" not in runner.invoke(cli.app, ["ingest", "list"]).output


def test_ingest_house_rules(runner: CliRunner, tmp_path: Path) -> None:
    house = tmp_path / "house.md"
    house.write_text("# House Rules\n\nCrimson blows deal double harm.\n")
    result = runner.invoke(cli.app, ["ingest", str(house), "--house-rules"])
    assert result.exit_code == 0 and "house/all/house.md" in result.output


def test_ingest_errors_name_the_fix(runner: CliRunner, tmp_path: Path) -> None:
    text = tmp_path / "a.md"
    text.write_text("words")
    no_system = runner.invoke(cli.app, ["ingest", str(text)])
    assert no_system.exit_code == 2 and "house rules" in no_system.output
    missing = runner.invoke(cli.app, ["ingest", str(tmp_path / "nope.md"), "--system", "elegy"])
    assert missing.exit_code == 2 and "nope.md" in missing.output
    builtin = runner.invoke(cli.app, ["ingest", "remove", "builtin/elegy.md"])
    assert builtin.exit_code == 2 and "cannot be removed" in builtin.output
