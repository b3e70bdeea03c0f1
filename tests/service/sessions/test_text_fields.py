"""Text fields: the schema (ECMAScript regexes, for clients) and the server (Python) accept the
same strings: any language, not only spaces by either reading of white space, no NUL (which
PostgreSQL's text cannot hold: it would otherwise reach the database and fail there)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.service.sessions.conftest import create
from tests.service.sessions.test_play import SHEETS

ROLL = {"kind": "simple", "params": {"traits": ["dexterity"], "difficulty": 6}, "dice": [8, 2, 9]}

# Spaces to one of the two readings only: \x1c-\x1f and \x85 to Python, \ufeff to ECMAScript.
BLANK = [" ", "\t\n", "\x1c", "\x1f", "\x85", "\xa0", "\u2003", "\u3000", "\ufeff", " \ufeff\x1c"]


@pytest.fixture
def sid(client: TestClient) -> str:
    return str(create(client, "storyteller", SHEETS["storyteller"])["id"])


def _turn(client: TestClient, sid: str, words: str) -> Any:
    return client.post(f"/v1/sessions/{sid}/turns", json={**ROLL, "words": words})


@pytest.mark.parametrize("words", ["港は見張られているか?", "Ça va ?", "?!", "I run"])
def test_words_in_any_language_are_taken(client: TestClient, sid: str, words: str) -> None:
    response = _turn(client, sid, words)
    assert response.status_code == 201, response.text
    assert response.json()["words"] == words


@pytest.mark.parametrize("words", [*BLANK, "x\x00y"])
def test_blank_words_and_nul_are_a_422_naming_the_field(
    client: TestClient, sid: str, words: str
) -> None:
    response = _turn(client, sid, words)
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "words"
    assert client.get(f"/v1/sessions/{sid}/turns").json() == []


def test_the_schema_states_the_same_pattern(client: TestClient) -> None:
    """The OpenAPI document's pattern is the one the server applies (no \\w or \\s in it,
    whose meaning differs between the two regex dialects)."""
    schema = client.get("/openapi.json").json()["components"]["schemas"]["TurnRequest"]
    pattern = schema["properties"]["words"]["pattern"]
    assert "\\w" not in pattern and "\\s" not in pattern and "\\ufeff" in pattern
