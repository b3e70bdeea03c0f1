"""The rules chat scored on a labelled set (issue 16): 34 questions the texts answer, 24 they do
not (rules_chat_questions.yaml), answered offline and with a mocked model (respx: a "model" that
quotes the passage sentence sharing most of the question's words, as a reader would) over the
test index (the real texts and the engine's rulings and moves, hashed embeddings). An answer to a
covered question counts when it quotes, verified, a passage holding the source's words that
answer it; an uncovered one when it says "Not in these rules"."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx
import yaml
from fastapi.testclient import TestClient

from service.narrator.facts import sentences
from service.narrator.quotes import normalise
from tests.service.narrator.mock_model import CHAT_URL, completion, model_app, offline_app, sent
from vectorstore.keyword import tokenize

SET = yaml.safe_load(Path(__file__).with_name("rules_chat_questions.yaml").read_text())
# Regression floors under what the chat scored (see the report this test prints).
# Measured when the set was written: 20/34 answered, 6/8 uncovered said so. With the engine's
# passages in the index, rank-1 names and glossary, answers from the ruling or the band and the
# measured coverage threshold: offline 28/34 answered, 21/24 uncovered (the first 8: 8/8) said
# so, 0 covered wrongly; with the mocked model 30/34 answered, the same 21/24. Issue 16's
# target is every one: not met (a cleric's spell slots, a flat car tyre and the boiling point of
# water share words with these texts; see service/narrator/knowledge.py). The offline answer's
# sentences chosen by the question's content words and glossary terms (not "how much"), a
# ruling's sentence quoted outside its own quotation marks: offline 31/34. The held-out
# uncovered questions (written after the threshold): 8/10 said so. A move outcome that sends
# the player to a short table of the move, answered with its rows: 32/34. The mocked model
# read a passage whose heading holds ">" from the ">" on (its quotations failed): fixed,
# 33/34 (a read sentence with its own quotation marks, quoted whole, fails).
ANSWERED_AT_LEAST = 0.94
MODEL_ANSWERED_AT_LEAST = 0.97
UNCOVERED_SAID_AT_LEAST = 21
HELDOUT_SAID_AT_LEAST = 8


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(offline_app(tmp_path_factory.mktemp("chat"))) as c:
        yield c


@pytest.fixture(scope="module")
def model_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(model_app(tmp_path_factory.mktemp("chat-model"))) as c:
        yield c


# (an attribute's value may hold ">": heading="LEGACY MOVES > ADVANCE")
_PASSAGE = re.compile(r'<passage id="P(\d+)"(?:[^>"]|"[^"]*")*>\n?(.*?)\n?</passage>', re.S)


def reader(expect: str | None) -> Any:
    """A model that reads its passages: a roll proposal is none; an answer quotes the sentence
    holding the words that answer (``expect``), when a passage given to it has them, else the
    sentence sharing the most of the question's words, with the passage's tag. What it measures:
    the passage that answers reaches the model, and its quotation verifies."""

    def reply(request: httpx.Request) -> httpx.Response:
        text = "\n".join(str(m["content"]) for m in sent(request)["messages"])
        if "roll request" in text:
            return completion('{"kind": null}')
        question = set(tokenize(text.rsplit("<question>", 1)[-1].split("</question>", 1)[0]))
        said = [
            (n, s) for n, body in _PASSAGE.findall(text) for s in sentences(" ".join(body.split()))
        ]
        hits = [(n, s) for n, s in said if expect and normalise(expect) in normalise(s)]
        if not hits:
            hits = sorted(said, key=lambda ns: -len(set(tokenize(ns[1])) & question))[:1]
        if not hits:
            return completion("NOT COVERED: no passage.")
        n, sentence = hits[0]
        return completion(f"The rules say: “{sentence}” [P{n}]")

    return reply


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
    heldout = [(q, _ask(client, q)) for q in SET["uncovered_heldout"]]
    said_heldout = [q["id"] for q, b in heldout if b["answer"].startswith("Not in these rules")]
    chat_rates["rules chat, held out"] = (
        f"   rules chat (offline): 'not in these rules' for {len(said_heldout)}/{len(heldout)} "
        "held-out uncovered questions (written after the threshold)"
    )
    assert len(covered) >= 32 and len(uncovered) >= 8
    assert len(said_heldout) >= HELDOUT_SAID_AT_LEAST
    assert wrongly_not == []  # never "not in these rules" for what the texts answer
    assert len(said_not) >= UNCOVERED_SAID_AT_LEAST
    assert answered / len(covered) >= ANSWERED_AT_LEAST
    # the first eight, the set as written: every one
    assert set(said_not) >= {q["id"] for q in SET["uncovered"][:8]}


def test_the_rules_chat_with_a_mocked_model_on_the_labelled_set(
    model_client: TestClient, chat_rates: dict[str, str]
) -> None:
    covered, uncovered, calls = [], [], 0
    for q in SET["covered"] + SET["uncovered"]:
        with respx.mock(assert_all_called=False) as mock:
            route = mock.post(CHAT_URL).mock(side_effect=reader(q.get("expect")))
            body = _ask(model_client, q)
            calls += route.call_count
        (covered if "expect" in q else uncovered).append((q, body))
    answered = sum(_answers(b, q["expect"]) for q, b in covered)
    said_not = [q["id"] for q, b in uncovered if b["answer"].startswith("Not in these rules")]
    chat_rates["rules chat, model"] = (
        f"   rules chat (mocked model): answered {answered}/{len(covered)} covered questions "
        f"with a verified quotation of the answering passage; 'not in these rules' for "
        f"{len(said_not)}/{len(uncovered)} uncovered"
    )
    assert calls >= len(covered)  # the model answered them (the uncovered: no call)
    not_model = [(q["id"], b["narrated"]["reason"]) for q, b in covered
                 if b["narrated"]["narrator"] != "model"]  # fmt: skip
    assert not not_model
    assert answered / len(covered) >= MODEL_ANSWERED_AT_LEAST
    assert len(said_not) >= UNCOVERED_SAID_AT_LEAST
