"""The rules chat scored on a labelled set (issue 16): 34 questions the texts answer, 8 they do
not (rules_chat_questions.yaml), answered offline over the test index (the real texts, hashed
embeddings). An answer to a covered question counts when it quotes, verified, a passage holding
the source's words that answer it; an uncovered one when it says "Not in these rules"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from service.narrator.quotes import normalise
from tests.service.narrator.mock_model import offline_app

SET = yaml.safe_load(Path(__file__).with_name("rules_chat_questions.yaml").read_text())
# Regression floors under what the offline chat scored when the set was written (see the
# report this test prints); never tuned on the set itself.
# Measured when written: 20/34 answered, 6/8 uncovered said so (issue 16's target is all 8 and
# every covered one: not met yet).
ANSWERED_AT_LEAST = 0.55
UNCOVERED_SAID_AT_LEAST = 6


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(offline_app(tmp_path_factory.mktemp("chat"))) as c:
        yield c


def _ask(client: TestClient, q: dict[str, Any]) -> Any:
    body = {"system": q["system"], "messages": [{"role": "user", "content": q["q"]}]}
    return client.post("/v1/rules/ask", json=body).json()


def _answers(body: Any, expect: str) -> bool:
    """A verified quotation whose passage holds the words that answer."""
    cited = {q["passage"] for q in body["quotations"] if q["verified"]}
    return any(
        normalise(expect) in normalise(p["text"])
        for i, p in enumerate(body["passages"], start=1)
        if i in cited
    )


def test_the_rules_chat_on_the_labelled_set(client: TestClient, chat_rates: dict[str, str]) -> None:
    covered = [(q, _ask(client, q)) for q in SET["covered"]]
    uncovered = [(q, _ask(client, q)) for q in SET["uncovered"]]
    answered = sum(_answers(b, q["expect"]) for q, b in covered)
    wrongly_not = [q["id"] for q, b in covered if b["answer"].startswith("Not in these rules")]
    said_not = [q["id"] for q, b in uncovered if b["answer"].startswith("Not in these rules")]
    chat_rates["rules chat"] = (
        f"   rules chat (offline): answered {answered}/{len(covered)} covered questions with a "
        f"verified quotation of the answering passage; 'not in these rules' for "
        f"{len(said_not)}/{len(uncovered)} uncovered, {len(wrongly_not)} covered wrongly"
    )
    assert len(covered) >= 32 and len(uncovered) >= 8
    assert wrongly_not == []  # never "not in these rules" for what the texts answer
    assert len(said_not) >= UNCOVERED_SAID_AT_LEAST
    assert answered / len(covered) >= ANSWERED_AT_LEAST
