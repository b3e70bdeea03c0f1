"""Whether the texts cover a question (issue 16: "not in these rules" only when true): enough of
its words in the best passage, and, for an embedding model with a measured floor, a passage near
enough in meaning. The floors are measured by bench/rules_coverage.py with MiniLM; these tests
run on hashed embeddings, which have none, so the floor's plumbing is tested with one set here."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from service.narrator import knowledge
from tests.service.narrator.mock_model import offline_app
from tests.vectorstore.fakes import memory_library
from vectorstore.models import Citation, Passage

MOMENTUM = Passage(
    id="p1", system="sundered_isles", citation=Citation(source="s.md", heading="MOMENTUM"),
    score=1.0, text="Momentum is a measure of your progress and confidence.", kind="builtin",
    start=0, end=0,
)  # fmt: skip


def _even(word: str) -> float:
    return 1.0


def test_coverage_alone_decides_without_a_floor() -> None:
    asked = "What is momentum?"
    assert knowledge.covers(asked, [MOMENTUM], _even, similarity=0.0, embedder="hash-test")
    assert not knowledge.covers("How do I bake sourdough bread?", [MOMENTUM], _even)


def test_a_floor_refuses_what_no_passage_comes_near_in_meaning() -> None:
    floor = knowledge.SIMILARITY_FLOOR["all-minilm-l6-v2-int8"]
    asked = "What is momentum?"
    minilm = "all-minilm-l6-v2-int8"
    assert knowledge.covers(asked, [MOMENTUM], _even, similarity=floor, embedder=minilm)
    assert not knowledge.covers(asked, [MOMENTUM], _even, similarity=floor - 0.01, embedder=minilm)
    # words it lacks are refused whatever the similarity
    assert not knowledge.covers(
        "How do I bake bread?", [MOMENTUM], _even, similarity=0.9, embedder=minilm
    )


def test_the_library_measures_a_questions_nearest_passage(tmp_path: Path) -> None:
    library, _, _ = memory_library(tmp_path)
    near = library.similarity("burn momentum to improve your result", "sundered_isles")
    far = library.similarity("zyxxy qwopp flarn", "sundered_isles")
    assert -1.0 <= far < near <= 1.0


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(offline_app(tmp_path)) as c:
        yield c


@pytest.mark.parametrize(("floor", "refused"), [(0.99, True), (-1.0, False)])
def test_the_rules_chat_applies_the_floor_of_its_embeddings(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, floor: float, refused: bool
) -> None:
    monkeypatch.setitem(knowledge.SIMILARITY_FLOOR, "hash-test", floor)
    body = client.post(
        "/v1/rules/ask",
        json={
            "system": "sundered_isles",
            "messages": [{"role": "user", "content": "What is momentum?"}],
        },
    ).json()
    assert body["answer"].startswith("Not in these rules") is refused
    assert body["covered"] is not refused


def test_a_question_searched_then_measured_is_embedded_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the rules chat searches a question, then asks how near the texts come to it
    library, _, embeddings = memory_library(tmp_path)
    asked: list[str] = []
    embed = embeddings.embed_query
    monkeypatch.setattr(embeddings, "embed_query", lambda text: asked.append(text) or embed(text))
    question = "zyxxy qwopp flarn"  # no glossary term: the search embeds the words as asked
    library.search(question, system="sundered_isles", k=4)
    library.similarity(question, "sundered_isles")
    assert asked == [question]
