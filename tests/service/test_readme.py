"""The README's example requests keep working: each `-d '{...}'` body is posted as written."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
COMMAND = "curl -s localhost:8000"


def _examples() -> list[tuple[str, str | None]]:
    """Each README command that starts with COMMAND, its continuation lines joined."""
    found = []
    lines = iter(README.splitlines())
    for line in lines:
        if not line.startswith(COMMAND):
            continue
        command = line
        while command.endswith("\\"):
            command = command[:-1] + next(lines)
        words = shlex.split(command.split(" #")[0])
        path = words[2].removeprefix("localhost:8000")
        body = words[words.index("-d") + 1] if "-d" in words else None
        found.append((path, body))
    return found


EXAMPLES = _examples()


def test_readme_has_examples() -> None:
    assert len([b for _, b in EXAMPLES if b]) >= 5
    assert len([b for _, b in EXAMPLES if not b]) >= 3


@pytest.mark.parametrize(("path", "body"), EXAMPLES)
def test_readme_example_works(client: TestClient, path: str, body: str | None) -> None:
    response = client.get(path) if body is None else client.post(path, json=json.loads(body))
    assert response.status_code in (200, 201), response.text


def test_the_licence_is_an_spdx_string_not_the_deprecated_table() -> None:
    # Issue 14: setuptools warned that a `license = {text = ...}` table is deprecated; PEP 639's
    # SPDX expression (setuptools >= 77) is the form that builds without the warning.
    import tomllib

    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    assert isinstance(project["project"]["license"], str)
    assert not any("License ::" in c for c in project["project"].get("classifiers", []))
