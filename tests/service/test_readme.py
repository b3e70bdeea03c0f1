"""The README's example requests keep working: each `-d '{...}'` body is posted as written."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
CURL = re.compile(r"curl -s localhost:8000(\S+)(.*?)(?:\n\n|\n```)", re.S)


def _examples() -> list[tuple[str, str | None]]:
    found = []
    for match in CURL.finditer(README):
        path, rest = match.group(1), match.group(2).replace("\\\n", " ")
        words = shlex.split(rest.split("#")[0]) if rest.strip() else []
        body = words[words.index("-d") + 1] if "-d" in words else None
        found.append((path, body))
    return found


EXAMPLES = _examples()


def test_readme_has_examples() -> None:
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize(("path", "body"), EXAMPLES)
def test_readme_example_works(client: TestClient, path: str, body: str | None) -> None:
    if body is None:
        response = client.get(path.split("?")[0], params=dict(re.findall(r"(\w+)=([^&]+)", path)))
    else:
        response = client.post(path, json=json.loads(body))
    assert response.status_code == 200, response.text
