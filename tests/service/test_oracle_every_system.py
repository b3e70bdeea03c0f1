"""A yes/no question for every system (issue 14): Go Forth, Storyteller and Roll Under, whose
texts have none, answer with fateweaver's own oracle, labelled as ours."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient


@pytest.mark.parametrize("system", ["go_forth", "storyteller", "roll_under"])
def test_a_system_without_an_oracle_answers_with_fateweavers(
    client: TestClient, system: str
) -> None:
    # roll_under.md: "The GM will answer your questions" - a solo player has no GM to ask.
    body = {"system": system, "question": "Is the harbour guarded?", "odds": "likely",
            "dice": [22]}  # fmt: skip
    r = client.post("/v1/oracle", json=body)
    assert r.status_code == 200, r.text
    resolution = r.json()["resolution"]
    assert resolution["outcome"] == "yes" and resolution["match"] is True
    assert resolution["citation"]["source"] == "fateweaver"
    rolled = client.post(
        "/v1/rolls", json={"system": system, "kind": "oracle", "params": {"odds": "unlikely"},
                           "dice": [40]},
    )  # fmt: skip
    assert rolled.status_code == 200 and rolled.json()["outcome"] == "no"
    rulings = client.get(f"/v1/systems/{system}").json()["rulings"]
    assert any(r["id"] == "fateweaver_oracle" and "labelled as ours" in r["text"] for r in rulings)
