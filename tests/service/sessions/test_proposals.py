"""A proposal the engine would refuse at accept is never offered (issue 15): the model's
proposal is trial-resolved (a fixed seed, nothing stored) before it is; when the engine refuses
it, the offline proposal stands in, saying why. Seen from a real small model: "unknown stat for
set_a_course 'miles'", Enter the Fray with no stat, Go Forth with both tn and difficulty."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import respx
from fastapi.testclient import TestClient

from tests.service.narrator.mock_model import CHAT_URL, completion
from tests.service.sessions.conftest import create, session_model_app
from tests.service.sessions.test_play_ironsworn import KELL


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(session_model_app(tmp_path)) as c:
        yield c


@pytest.mark.parametrize(
    ("system", "sheet", "words", "reply"),
    [
        ("sundered_isles", KELL, "We sail for the reef",
         {"move": "set_a_course", "kind": "move", "params": {"stat": "miles"}}),
        ("go_forth", {"name": "Ash", "attributes": {"might": 3}}, "I force the door",
         {"kind": "check", "params": {"attribute": "might", "tn": 12, "difficulty": "common"}}),
    ],
)  # fmt: skip
def test_a_proposal_the_engine_refuses_is_not_offered(
    client: TestClient, system: str, sheet: dict[str, Any], words: str, reply: dict[str, Any]
) -> None:
    sid = create(client, system, sheet)["id"]
    with respx.mock(assert_all_called=False) as mock:
        model = mock.post(CHAT_URL)
        model.side_effect = [completion(json.dumps(reply)), completion("The wind holds.")]
        proposed = client.post(f"/v1/sessions/{sid}/turns", json={"words": words}).json()
        proposal = proposed["proposal"]
        assert proposal["source"] == "offline" and "refused" in proposal["rejected"]
        accepted = client.post(f"/v1/sessions/{sid}/turns/1/accept", json={"seed": 3})
        assert accepted.status_code == 200, accepted.text


def test_neither_proposal_is_offered_when_the_session_would_refuse_it(client: TestClient) -> None:
    # The real model's second run: its proposal refused, the offline one was a Strike, and the
    # accept was a 409: "Strike marks progress on a combat track and this session has no open
    # one". Strike: "On a strong hit, mark progress twice." The offline proposal is now the
    # best-ranked move the engine would accept, and the model's Strike is refused at trial.
    sid = create(client, "sundered_isles", KELL)["id"]
    words = "I cut the mooring lines and let the galleon drift"
    strike = {"move": "strike", "kind": "move", "params": {"stat": "iron"}}
    with respx.mock(assert_all_called=False) as mock:
        model = mock.post(CHAT_URL)
        model.side_effect = [completion(json.dumps(strike)), completion("The lines part.")]
        proposed = client.post(f"/v1/sessions/{sid}/turns", json={"words": words}).json()
        proposal = proposed["proposal"]
        assert proposal["source"] == "offline" and "no open one" in proposal["rejected"]
        assert proposal["move"] != "strike"
        accepted = client.post(f"/v1/sessions/{sid}/turns/1/accept", json={"seed": 3})
        assert accepted.status_code == 200, accepted.text


def test_a_proposals_reason_never_tells_an_outcome_before_the_roll(client: TestClient) -> None:
    # A real model proposed Face Danger for haggling with "why": "a weak hit", before anything
    # was rolled. sundered_isles.md: Face Danger is for "When you attempt something risky or react
    # to an imminent threat"; its trigger stands in for the model's reason.
    sid = create(client, "sundered_isles", KELL)["id"]
    reply = {"move": "face_danger", "kind": "move", "params": {"stat": "edge"}, "why": "a weak hit"}
    with respx.mock(assert_all_called=False) as mock:
        mock.post(CHAT_URL).side_effect = [completion(json.dumps(reply))]
        proposal = client.post(
            f"/v1/sessions/{sid}/turns", json={"words": "I haggle with the merchant"}
        ).json()["proposal"]
    assert proposal["source"] == "model" and proposal["move"] == "face_danger"
    assert "weak hit" not in proposal["why"] and proposal["why"].startswith("your words fit")
