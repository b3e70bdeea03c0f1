from __future__ import annotations

import itertools
import re

import pytest

from vectorstore.chunking import MAX_CHARS, chunk_text, plain_headings, sections
from vectorstore.library import SOURCES_DIR

SOURCES = {p.name: p.read_text(encoding="utf-8") for p in SOURCES_DIR.iterdir()}


def chunks_of(name: str):  # type: ignore[no-untyped-def]
    return chunk_text(SOURCES[name], system=name.rsplit(".", 1)[0], source=name)


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_metadata_points_back_into_the_source(name: str) -> None:
    text = SOURCES[name]
    for c in chunks_of(name):
        assert c.text == text[c.start : c.end]
        assert c.source == name and c.system == name.rsplit(".", 1)[0]
        assert c.heading and c.heading in c.index_text.splitlines()[0]


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_chunk_ids_are_stable_and_unique(name: str) -> None:
    first, second = chunks_of(name), chunks_of(name)
    assert [c.id for c in first] == [c.id for c in second]
    assert len({c.id for c in first}) == len(first)


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_chunks_cover_the_text_in_order_without_overlap(name: str) -> None:
    chunks = chunks_of(name)
    assert all(a.end <= b.start for a, b in itertools.pairwise(chunks))


def test_markdown_heading_paths() -> None:
    headings = {c.heading for c in chunks_of("sundered_isles.md")}
    assert "COMBAT MOVES > STRIKE" in headings
    assert "SESSION MOVES > CHANGE YOUR FATE" in headings
    elegy = {c.heading for c in chunks_of("elegy.md")}
    # page numbers glued to headings ("#### 45 Use Power") are dropped
    assert "Optional Rule: Moves > Adventure Moves > Use Power" in elegy


def test_plain_text_headings_are_detected_in_go_forth() -> None:
    titles = [t for _, _, t in plain_headings(SOURCES["go_forth.txt"])]
    for expected in ["Basics of Play", "Resolution", "Attributes", "Short Rest", "Grid Play"]:
        assert expected in titles
    # table rows, list items and sentences are not headings
    assert "Very EasyTN 10" not in titles
    assert not [t for t in titles if t.startswith(("•", "1.")) or t.endswith(".")]


def test_plain_text_headings_are_detected_in_storyteller() -> None:
    titles = [t for _, _, t in plain_headings(SOURCES["storyteller.txt"])]
    for expected in ["Summary", "Reflexive Actions", "Difficulties", "Botches", "Teamwork"]:
        assert expected in titles
    assert not [t for t in titles if "|" in t]


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_tables_are_never_cut(name: str) -> None:
    text = SOURCES[name]
    tables = re.finditer(r"(?:^[^\n]*\|[^\n]*\|[^\n]*(?:\n|$))+", text, flags=re.M)
    chunks = chunks_of(name)
    for table in tables:
        a, b = table.start(), table.end() - 1
        inside = [c for c in chunks if c.start <= a < c.end or c.start <= b < c.end]
        assert len(inside) <= 1, f"table at {a} split across {[c.heading for c in inside]}"


def test_oversized_sections_are_split_but_tables_kept_whole() -> None:
    doc = "# Big\n\n" + "\n\n".join(f"Paragraph {i}. " + "word " * 60 for i in range(12))
    table = "\n".join(f"| {i} | result number {i} with some words |" for i in range(80))
    doc += "\n\n## Table\n\n" + table + "\n\nAfter the table.\n"
    chunks = chunk_text(doc, system="t", source="t.md")
    big = [c for c in chunks if c.heading == "Big"]
    assert len(big) > 1 and all(len(c.text) <= MAX_CHARS for c in big)
    holding = [c for c in chunks if "| 0 |" in c.text]
    assert len(holding) == 1 and "| 79 |" in holding[0].text


def test_tiny_sections_travel_with_their_neighbours() -> None:
    doc = "## Easy vs Hard\nIntro.\n### Easy\nLower by 3.\n### Hard\nRaise by 3.\n"
    chunks = chunk_text(doc, system="t", source="t.md")
    assert len(chunks) == 1
    assert "Lower by 3" in chunks[0].text and "Raise by 3" in chunks[0].text


def test_sections_without_headings_get_the_file_name() -> None:
    assert sections("just some words\n", "notes.txt")[0].path == ("notes.txt",)
