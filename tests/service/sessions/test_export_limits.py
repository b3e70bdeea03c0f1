"""A journal's export by range of turns (from_turn, to_turn), and its size limit (413 saying
which range fits), on both stores."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.service.sessions.conftest import create, session_app

SHEET = {"name": "Ash", "attributes": {"might": 3, "agility": 2}}


def play(client: TestClient, words: list[str]) -> str:
    """A go_forth session with one check per entry of ``words``; its id."""
    sid: str = create(client, "go_forth", SHEET)["id"]
    for said in words:
        response = client.post(
            f"/v1/sessions/{sid}/turns",
            json={"words": said, "kind": "check", "params": {"attribute": "agility", "tn": 12},
                  "dice": [15]},
        )  # fmt: skip
        assert response.status_code == 201, response.text
    return sid


def turns_in(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"^## Turn (\d+)", text, flags=re.MULTILINE)]


def test_an_export_of_a_range_has_those_turns_only(client: TestClient) -> None:
    sid = play(client, ["I climb", "I jump", "I run", "I hide"])
    url = f"/v1/sessions/{sid}/export"
    assert turns_in(client.get(url).text) == [1, 2, 3, 4]
    middle = client.get(url, params={"from_turn": 2, "to_turn": 3}).text
    assert turns_in(middle) == [2, 3] and "*Turns 2 to 3*" in middle
    assert turns_in(client.get(url, params={"from_turn": 3}).text) == [3, 4]
    assert turns_in(client.get(url, params={"to_turn": 1}).text) == [1]
    assert "*Turns 1 to 1*" in client.get(url, params={"to_turn": 1}).text
    empty = client.get(url, params={"from_turn": 4, "to_turn": 2})
    assert empty.status_code == 200 and turns_in(empty.text) == []
    assert turns_in(client.get(url, params={"from_turn": 9}).text) == []


@pytest.mark.parametrize("query", [{"from_turn": 0}, {"to_turn": "two"}, {"to_turn": 10**7}])
def test_a_bad_range_is_a_422_naming_it(client: TestClient, query: dict[str, Any]) -> None:
    sid = play(client, ["I climb"])
    response = client.get(f"/v1/sessions/{sid}/export", params=query)
    assert response.status_code == 422
    assert response.json()["error"]["field"] == next(iter(query))


def test_an_export_over_the_limit_is_a_413_that_says_which_range_fits(tmp_path: Path) -> None:
    with TestClient(session_app(tmp_path, max_export_bytes=2048)) as client:
        # each entry (the words, quoted again by the narration) near 900 bytes
        sid = play(client, [f"I climb the {n} tower " + "higher " * 50 for n in range(1, 5)])
        url = f"/v1/sessions/{sid}/export"
        response = client.get(url)
        assert response.status_code == 413, response.text
        error = response.json()["error"]
        assert error["field"] == "to_turn"
        assert "2048 bytes" in error["message"] and "max_export_bytes" in error["message"]
        found = re.search(r"from_turn=(\d+)&to_turn=(\d+)", error["message"])
        assert found, error["message"]
        first, last = int(found[1]), int(found[2])
        assert first == 1 and 1 <= last < 4
        part = client.get(url, params={"from_turn": first, "to_turn": last})
        assert part.status_code == 200 and turns_in(part.text) == list(range(1, last + 1))
        assert len(part.content) <= 2048
        more = client.get(url, params={"from_turn": last + 1, "to_turn": last + 1})
        assert more.status_code == 200 and turns_in(more.text) == [last + 1]
