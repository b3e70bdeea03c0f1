from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

from rules.errors import InvalidParameter, UnknownError
from tests.vectorstore.fakes import memory_library
from vectorstore.index import MemoryIndex
from vectorstore.library import MAX_K, MAX_QUERY_CHARS, RRF_K, SOURCES_DIR, Library, fuse, rrf


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    folder = tmp_path / "sources"
    shutil.copytree(SOURCES_DIR, folder)
    for f in folder.iterdir():
        f.chmod(0o644)
    return folder


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return memory_library(tmp_path_factory.mktemp("data"))[0]


def test_every_source_is_indexed(library: Library) -> None:
    listed = {s.source: s for s in library.sources()}
    assert set(listed) == {p.name for p in SOURCES_DIR.iterdir()}
    assert all(s.chunks > 0 and s.kind == "builtin" for s in listed.values())
    assert listed["go_forth.txt"].system == "go_forth"


def test_ingest_is_idempotent(tmp_path: Path, sources: Path) -> None:
    library, index, emb = memory_library(tmp_path, sources)
    written, calls = index.upserts, emb.calls
    assert all(r.status == "unchanged" for r in library.sync())
    assert (index.upserts, emb.calls) == (written, calls)
    # a new process over the same folder and index: nothing re-embedded either
    again, index2, emb2 = memory_library(tmp_path, sources, index=index)
    assert emb2.calls == 0 and index2.upserts == written
    assert again.sources() == library.sources()


def test_a_changed_source_is_reingested_and_the_others_are_not(
    tmp_path: Path, sources: Path
) -> None:
    library, index, emb = memory_library(tmp_path, sources)
    path = sources / "storyteller.txt"
    path.write_text(path.read_text() + "\nSpecial Rule\nZorbling doubles every success.\n")
    before = emb.calls
    results = {r.source: r for r in library.sync()}
    assert results["storyteller.txt"].status == "updated"
    assert 0 < results["storyteller.txt"].embedded < results["storyteller.txt"].chunks + 1
    assert {r.status for n, r in results.items() if n != "storyteller.txt"} == {"unchanged"}
    assert emb.calls - before <= 3  # only the changed chunk's windows
    hits = library.search("zorbling", system="storyteller", k=1)
    assert "Zorbling" in hits[0].text
    assert index.ids() == {
        v for s in library.docs.values() for c in s["chunks"] for v in c.vector_ids()
    }


@pytest.mark.parametrize(
    "system", ["sundered_isles", "elegy", "go_forth", "storyteller", "roll_under"]
)
def test_the_system_filter_holds(library: Library, system: str) -> None:
    for mode in ("hybrid", "vector", "keyword"):
        hits = library.search("roll the dice to resolve an action", system=system, k=20, mode=mode)  # type: ignore[arg-type]
        assert hits and {h.system for h in hits} == {system}


def test_passages_carry_citations(library: Library) -> None:
    hit = library.search("Strike", system="sundered_isles", k=1, mode="keyword")[0]
    assert hit.citation.source == "sundered_isles.md"
    assert hit.citation.heading == "COMBAT MOVES > STRIKE"
    assert hit.score > 0 and hit.text


@pytest.mark.parametrize(
    ("query", "k", "system", "field"),
    [
        ("", 5, None, "q"),
        ("   ", 5, None, "q"),
        ("x" * (MAX_QUERY_CHARS + 1), 5, None, "q"),
        ("momentum", 0, None, "k"),
        ("momentum", MAX_K + 1, None, "k"),
    ],
)
def test_bad_queries(library: Library, query: str, k: int, system: str | None, field: str) -> None:
    with pytest.raises(InvalidParameter) as err:
        library.search(query, system=system, k=k)
    assert err.value.field == field


def test_unknown_system(library: Library) -> None:
    with pytest.raises(UnknownError) as err:
        library.search("momentum", system="gurps")
    assert err.value.field == "system" and "sundered_isles" in err.value.message


def test_user_texts_are_searchable_cited_listed_and_removable(tmp_path: Path) -> None:
    library, index, _ = memory_library(tmp_path)
    text = "# Setting\n\n## The Glass Coast\n\nThe glass coast is ruled by the heron queen.\n"
    res = library.add_text(text, source="coast.md", system="sundered_isles")
    assert (res.status, res.doc) == ("added", "user/sundered_isles/coast.md")
    hit = library.search("who rules the glass coast", system="sundered_isles", k=1)[0]
    assert hit.citation.source == "user/sundered_isles/coast.md"  # the user's, not a rulebook
    assert hit.citation.heading == "Setting > The Glass Coast"
    assert hit.kind == "user"
    assert library.add_text(text, source="coast.md", system="sundered_isles").status == "unchanged"
    assert any(s.doc == res.doc for s in library.sources())
    library.remove("coast.md")
    assert all(s.doc != res.doc for s in library.sources())
    assert not [i for i in index.ids() if ":coast.md:" in i]


def test_house_rules_apply_to_every_system(tmp_path: Path) -> None:
    library, _, _ = memory_library(tmp_path)
    library.add_text("Crimson blows deal double harm.", source="house.txt", system=None, house=True)
    for system in ("elegy", "roll_under"):
        hits = library.search("crimson blows", system=system, k=1)
        assert hits[0].kind == "house" and hits[0].system == "all"


def test_user_texts_need_a_system_or_the_house_flag(tmp_path: Path) -> None:
    library, _, _ = memory_library(tmp_path)
    with pytest.raises(InvalidParameter):
        library.add_text("words", source="a.md", system=None)
    with pytest.raises(InvalidParameter):
        library.add_text("words", source="a.md", system="Bad System!")


def test_a_text_of_headings_only_is_refused_not_listed(tmp_path: Path) -> None:
    library, _, _ = memory_library(tmp_path)
    with pytest.raises(InvalidParameter) as err:
        library.add_text("# Just a title", source="t.md", system="elegy")
    assert err.value.field == "path"
    assert "t.md" not in {s.source for s in library.sources()}


def test_a_corrupt_manifest_is_rebuilt_with_a_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    library, index, _ = memory_library(tmp_path)
    library.manifest_path.write_text("{not json")
    with caplog.at_level(logging.WARNING):
        again, _, _emb = memory_library(tmp_path, index=index)
    assert "corrupt" in caplog.text
    assert again.sources() == library.sources()
    assert again.search("momentum", k=1)


def test_a_missing_index_is_rebuilt_with_a_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _library, _, _ = memory_library(tmp_path)
    with caplog.at_level(logging.WARNING):
        again, index, emb = memory_library(tmp_path, index=MemoryIndex())
    assert "re-embedding" in caplog.text
    assert emb.calls > 0 and index.ids()
    assert again.search("momentum", k=1, mode="vector")


def test_stray_vectors_are_removed(tmp_path: Path) -> None:
    library, index, _ = memory_library(tmp_path)
    index.upsert(["stray#0"], ["x"], [[1.0] * 256], [{"system": "elegy"}])
    library.reconcile()
    assert "stray#0" not in index.ids()


def test_fusion_keeps_the_margins() -> None:
    # "a" is first in BM25 by a hair; "b" is far ahead in the vectors and a close second in BM25.
    fused = fuse({"a": 10.0, "b": 9.8, "c": 2.0}, {"b": 0.8, "a": 0.4, "c": 0.5}, weight=0.5)
    assert [i for i, _ in fused] == ["b", "a", "c"]
    assert fused[0][1] == pytest.approx(0.5 * 1.0 + 0.5 * 0.98)
    # Rank fusion would have tied "a" and "b" (first and second in one each).


def test_rrf_sums_reciprocal_ranks() -> None:
    fused = dict(rrf([["a", "b"], ["b", "c"]]))
    assert fused["b"] == pytest.approx(1 / (RRF_K + 2) + 1 / (RRF_K + 1))
    assert fused["c"] == pytest.approx(1 / (RRF_K + 2))
    assert max(fused, key=fused.__getitem__) == "b"


def test_rrf_ties_go_to_the_score_blend() -> None:
    # First in one ranking and second in the other ties with the reverse under RRF alone.
    keyword, vector = {"a": 10.0, "b": 9.8}, {"b": 0.8, "a": 0.4}
    tied = rrf([["a", "b"], ["b", "a"]])
    assert tied[0][1] == pytest.approx(tied[1][1])
    broken = rrf([["a", "b"], ["b", "a"]], tiebreak=dict(fuse(keyword, vector, weight=0.5)))
    assert [i for i, _ in broken] == ["b", "a"]


def test_hybrid_fusion_is_selectable(library: Library) -> None:
    assert library.fusion == "rrf"
    by_rank = library.search("Strike", system="sundered_isles", k=3)
    by_score = library.search("Strike", system="sundered_isles", k=3, fusion="score")
    assert by_rank[0].score < 2 / RRF_K  # an RRF score
    assert 0.0 < by_score[0].score <= 1.0  # a blend of normalised scores
    assert {p.id for p in by_rank} & {p.id for p in by_score}


def test_fusion_scores_lie_between_zero_and_one() -> None:
    fused = dict(fuse({"a": 3.0, "b": 1.0}, {"a": 0.7, "c": 0.35}, weight=0.6))
    assert fused["a"] == pytest.approx(1.0)  # best in both
    assert fused["c"] == pytest.approx(0.6 * 0.5)  # no keyword score: 0 from BM25
    assert fused["b"] == pytest.approx(0.6 * 0.5 + 0.4 / 3)  # not a vector hit: the lowest one
    assert all(0.0 <= s <= 1.0 for s in fused.values())


def test_fusion_candidates_limit_the_keyword_side() -> None:
    fused = fuse({"a": 3.0, "b": 1.0}, {"c": 0.5}, candidates=["a"])
    assert {i for i, _ in fused} == {"a", "c"}
    assert fuse({}, {}) == []


def test_each_mode_reports_its_own_score(library: Library) -> None:
    hybrid = library.search("Strike", system="sundered_isles", k=3)
    assert hybrid[0].score <= 2 / RRF_K and hybrid == sorted(hybrid, key=lambda p: -p.score)
    vector = library.search("Strike", system="sundered_isles", k=3, mode="vector")
    assert all(-1.0 <= p.score <= 1.0 for p in vector)
    keyword = library.search("Strike", system="sundered_isles", k=3, mode="keyword")
    assert keyword[0].score > 1.0  # a BM25 score, not normalised


def test_texts_ingested_by_another_process_are_picked_up(tmp_path: Path) -> None:
    service, index, _ = memory_library(tmp_path)
    cli, _, _ = memory_library(tmp_path, index=index)  # the CLI, on the same folder and store
    cli.add_text("The heron queen rules the glass coast.", source="coast.md", system="elegy")
    assert (
        service.search("heron queen", system="elegy", k=1)[0].citation.source
        == "user/elegy/coast.md"
    )
    assert any(s.source == "coast.md" for s in service.sources())


def test_passages_show_obsidian_markup_as_plain_text(library: Library) -> None:
    # Issue 16: answers showed `[[#PAY THE PRICE]]` and `![[outcome-strong-hit.svg|60]]`.
    from vectorstore.library import readable

    assert (
        readable("See ![[outcome-miss.svg|60]]then [[#PAY THE PRICE]].")
        == "See then PAY THE PRICE."
    )
    assert readable("[[#^A-Z-Index\\|Page 236]] ^Index") == "Page 236"
    for passage in library.search("Pay the Price on a miss", system="sundered_isles", k=10):
        assert "[[" not in passage.text and "]]" not in passage.text
