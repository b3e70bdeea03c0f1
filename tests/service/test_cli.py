"""The command line resolves through the same engine entry point as the API."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from rules.registry import resolve_roll
from service.cli import app

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
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["scores"]["net"] == 1


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
