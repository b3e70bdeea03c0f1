"""The engine's knowledge indexed beside the texts, names looked up exactly, and the glossary."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.registry import all_systems, get_system
from tests.vectorstore.fakes import memory_library
from vectorstore.chunking import sections
from vectorstore.engine import engine_docs, parse_id
from vectorstore.keyword import tokenize
from vectorstore.library import SOURCES_DIR, Library
from vectorstore.names import correct, glossary_terms, labels_of, load_glossary


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return memory_library(tmp_path_factory.mktemp("data"), knowledge=engine_docs)[0]


def test_every_ruling_move_and_table_is_a_cited_passage(library: Library) -> None:
    listed = {s.doc: s for s in library.sources()}
    for system in all_systems():
        entry = listed[f"engine/{system.id}"]
        assert entry.kind == "engine"
        assert entry.chunks == len(system.rulings) + len(system.moves) + len(system.tables)
    assert all(s.kind == "builtin" for d, s in listed.items() if d.startswith("builtin/"))


def test_the_engine_passages_cannot_be_removed(library: Library) -> None:
    with pytest.raises(Exception, match="cannot be removed"):
        library.remove("engine/sundered_isles")


def test_burning_momentum_finds_the_ruling_and_the_sentence_it_reads(library: Library) -> None:
    # The Sundered Isles text defers burning momentum to Starforged; the engine's ruling
    # burn_momentum reads its quick reference.
    hits = library.search(
        "What happens if I burn momentum on a weak hit?",
        system="sundered_isles",
        k=3,
        fusion="score",
    )
    ruling = next(p for p in hits if p.id == "engine:sundered_isles:ruling:burn_momentum")
    wanted = next(r for r in get_system("sundered_isles").rulings if r.id == "burn_momentum")
    assert ruling.kind == "engine" and ruling.citation == wanted.citation
    assert wanted.text in ruling.text and f"“{wanted.quote}”" in ruling.text
    assert parse_id(ruling.id) == ("sundered_isles", "ruling", "burn_momentum")


def test_a_named_move_comes_first_with_its_outcomes(library: Library) -> None:
    # Sundered Isles, STRIKE: "On a strong hit, mark progress twice. You dominate your foe and
    # stay in control."
    q = "What does a strong hit on Strike do?"
    top = library.search(q, system="sundered_isles", k=1, fusion="score")[0]
    assert top.citation.heading == "COMBAT MOVES > STRIKE"
    assert "mark progress twice. You dominate your foe" in top.text


@pytest.mark.parametrize("query", ["How does a Stirke work?", "what do strikes do"])
def test_misspelt_and_plural_names_are_found(library: Library, query: str) -> None:
    top = library.search(query, system="sundered_isles", k=1, fusion="score")[0]
    assert top.citation.heading == "COMBAT MOVES > STRIKE"


def test_a_list_items_label_names_its_passage(library: Library) -> None:
    # Go Forth, Conditions: "• Dazed — Either Move or Action, not both".
    named = library._named(tokenize("What does the Dazed condition do?"), [], ["go_forth"])
    best = max(named, key=lambda i: named[i])
    assert "Dazed — Either Move or Action" in library._chunks[best].text


def test_labels_are_read_from_list_items() -> None:
    from vectorstore.chunking import Chunk

    text = "  • Dazed — Either Move or Action\n- Threaten or incite: Roll +iron\nA sentence: no."
    chunk = Chunk("x", "s", "s.md", "H", 0, len(text), text)
    assert labels_of(chunk)[:2] == ["Dazed", "Threaten or incite"]


def test_hybrid_scores_stay_between_zero_and_one(library: Library) -> None:
    q = "What does a strong hit on Strike do?"
    hits = library.search(q, system="sundered_isles", k=10, fusion="score")
    assert hits and all(0.0 <= p.score <= 1.0 for p in hits)


@given(st.lists(st.sampled_from(["momentum", "momemtum", "strike", "xp", "d20"]), max_size=6))
def test_correcting_keeps_known_words(words: list[str]) -> None:
    vocab = {"momentum", "strike", "xp", "d20"}
    fixed = correct(words, vocab, ["momentum", "strike"])
    assert fixed == ["momentum" if w == "momemtum" else w for w in words]


def _section_text(source: str, heading: str) -> str:
    text = (SOURCES_DIR / source).read_text(encoding="utf-8")
    found = [s for s in sections(text, source) if " > ".join(s.path) == heading]
    assert found, f"{heading!r} is not a heading of {source}"
    sec = found[0]
    # the section with its subsections
    rest = [s.start for s in sections(text, source) if s.start > sec.start and s.level <= sec.level]
    return text[sec.start : min(rest, default=len(text))]


@pytest.mark.parametrize("term", load_glossary(), ids=lambda t: f"{t.term}:{sorted(t.systems)}")
def test_each_glossary_term_is_defined_where_it_says(term) -> None:  # type: ignore[no-untyped-def]
    words = set(tokenize(f"{term.heading}\n{_section_text(term.source, term.heading)}"))
    missing = [w for w in tokenize(term.term) if w not in words and not w.isdigit()]
    assert not missing, f"{term.term!r}: {missing} not under {term.source} {term.heading}"
    assert term.systems <= {s.id for s in all_systems()}


def test_everyday_words_bring_the_games_terms() -> None:
    # Sundered Isles, LOSE MOMENTUM: "When your momentum is at its minimum (-6) ..."
    said = glossary_terms(tokenize("What if my momentum is at the bottom?"), "sundered_isles")
    assert said == ["momentum at its minimum (-6)"]
    # Go Forth calls it a TN; the glossary is per system.
    assert "TN" in glossary_terms(tokenize("the target number of a check"), "go_forth")
    assert "TN" not in glossary_terms(tokenize("the target number of a check"), "elegy")
