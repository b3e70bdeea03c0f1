"""The command line resolves through the same engine entry point as the API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from rules.registry import resolve_roll
from service.app import create_app
from service.cli import app
from service.settings import get_settings

runner = CliRunner()


def test_roll_with_seed_matches_the_engine() -> None:
    result = runner.invoke(
        app,
        [
            "roll",
            "sundered_isles",
            "action",
            "-p",
            "stat=edge",
            "-p",
            "stat_value=2",
            "--seed",
            "42",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    expected = resolve_roll("sundered_isles", "action", {"stat": "edge", "stat_value": 2}, seed=42)
    assert printed == expected.model_dump(mode="json")


def test_roll_with_given_dice() -> None:
    result = runner.invoke(
        app,
        [
            "roll",
            "storyteller",
            "simple",
            "-p",
            "pool=3",
            "-p",
            "difficulty=6",
            "-p",
            "stressful=true",
            "--dice",
            "10,6,1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["scores"]["net"] == 1


def test_roll_prints_one_line_a_person_reads() -> None:
    # Issue 14: `fateweaver roll` printed 40 lines of JSON; --json still does.
    args = ["roll", "sundered_isles", "move", "-p", "move=face_danger", "-p", "stat=edge",
            "-p", "stat_value=2", "--dice", "1,9,9"]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.output.count("\n") == 1
    line = result.output.strip()
    # "On a miss, you fail..." and 9, 9 is a match
    assert line.startswith("Face Danger: dice 1 9 9 (action score 3) -> miss") and "(match)" in line
    seeded = runner.invoke(app, ["roll", "roll_under", "expression", "-p", "expression=2d6",
                                 "--seed", "3"]).output  # fmt: skip
    assert seeded.strip().endswith("[seed 3]")


def test_sessions_lists_the_owners_sessions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FATEWEAVER_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("FATEWEAVER_API_KEYS", raising=False)
    get_settings.cache_clear()
    try:
        assert "no sessions yet" in runner.invoke(app, ["sessions"]).output
        sheet = {
            "name": "Kell",
            "stats": {"edge": 2, "heart": 2, "iron": 3, "shadow": 1, "wits": 1},
        }
        with TestClient(create_app()) as client:
            body = {"system": "sundered_isles", "name": "The drowned lighthouse", "sheet": sheet}
            sid = client.post("/v1/sessions", json=body).json()["id"]
        listed = runner.invoke(app, ["sessions"])
        assert listed.exit_code == 0, listed.output
        assert (
            sid in listed.output and "Kell" in listed.output and "sundered_isles" in listed.output
        )
    finally:
        get_settings.cache_clear()


def test_roll_error_names_the_field() -> None:
    result = runner.invoke(
        app,
        [
            "roll",
            "sundered_isles",
            "action",
            "-p",
            "stat=edge",
            "-p",
            "stat_value=2",
            "--dice",
            "7,1,1",
        ],
    )
    assert result.exit_code == 2
    assert "dice[0]" in result.output


def test_roll_bad_dice_text() -> None:
    result = runner.invoke(app, ["roll", "sundered_isles", "oracle", "--dice", "six"])
    assert result.exit_code == 2
    assert "--dice" in result.output


def test_systems_lists_every_system_and_kind() -> None:
    result = runner.invoke(app, ["systems"])
    assert result.exit_code == 0
    assert "roll_under" in result.output and "oracle" in result.output
    one = runner.invoke(app, ["systems", "go_forth"])
    assert "dice:" in one.output and "check" in one.output
    assert runner.invoke(app, ["systems", "dnd"]).exit_code == 2
