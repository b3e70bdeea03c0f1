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


def test_a_setting_only_another_kind_of_roll_takes_is_dropped_not_refused(
    client: TestClient,
) -> None:
    # Played at stops 32 and 33: "I sneak past the dozing guards at the gate", the model's Go
    # Forth check came with the guards' opponent_bonus and was refused ("params.opponent_bonus:
    # Extra inputs are not permitted"). Go Forth: Checks, "Roll d20 trying to beat the Target
    # Number"; Contests, "Two characters oppose each other. Both roll — higher total wins." A
    # check has no opponent's roll, so no opponent's bonus: dropped, the check is offered.
    sid = create(client, "go_forth", {"name": "Ash", "attributes": {"agility": 2}})["id"]
    reply = {"kind": "check", "why": "a sneak past watchful guards",
             "params": {"attribute": "agility", "tn": 12, "opponent_bonus": 1}}  # fmt: skip
    with respx.mock(assert_all_called=False) as mock:
        model = mock.post(CHAT_URL)
        model.side_effect = [completion(json.dumps(reply)), completion("The gate creaks.")]
        words = "I sneak past the dozing guards at the gate"
        proposal = client.post(f"/v1/sessions/{sid}/turns", json={"words": words}).json()[
            "proposal"
        ]
        assert proposal["source"] == "model" and not proposal.get("rejected"), proposal
        assert proposal["kind"] == "check" and "opponent_bonus" not in proposal["params"]
        assert proposal["params"]["tn"] == 12
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
