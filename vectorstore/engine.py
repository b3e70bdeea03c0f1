"""The rules engine's own knowledge as passages: its rulings, and the move and table data.

Each is a chunk of its own (kind ``engine``), cited like the engine cites it (the ruling's or the
move's source and heading), indexed beside the source texts so that rules search finds them:

    ruling  "Ruling (burn momentum): <the ruling>" and "The text reads: “<the sentence>”"
    move    "Move: Strike", its trigger, its text, and each outcome band's paragraph
    table   "Table: Pay the Price (d100)" and its rows, "1-2: ..."

Ids: ``engine:<system>:ruling:<id>``, ``engine:<system>:move:<id>``, ``engine:<system>:table:<id>``.
"""

from __future__ import annotations

import re

from rules.catalog import Move
from rules.models import Ruling
from rules.registry import GameSystem, all_systems
from rules.tables import Table
from vectorstore.chunking import Chunk

KIND = "engine"
READS = "The text reads: "
# The order outcome bands are told in, with their words.
BAND_WORDS = {
    "hit": "On a hit",
    "strong_hit": "On a strong hit",
    "strong_hit_match": "On a strong hit with a match",
    "weak_hit": "On a weak hit",
    "miss": "On a miss",
    "miss_match": "On a miss with a match",
}


def doc_id(system_id: str) -> str:
    return f"{KIND}/{system_id}"


def parse_id(passage_id: str) -> tuple[str, str, str] | None:
    """(system, what, id) of an engine passage's id (what: ruling, move or table), else None."""
    parts = passage_id.split(":")
    if len(parts) != 4 or parts[0] != KIND:
        return None
    return parts[1], parts[2], parts[3]


def _norm(text: str) -> str:
    return re.sub(r"[\s*_]+", " ", text).strip().lower()


def ruling_text(ruling: Ruling) -> str:
    return (
        f"Ruling ({ruling.id.replace('_', ' ')}) of fateweaver's rules engine: {ruling.text}\n"
        f"{READS}“{ruling.quote}”"
    )


def move_text(move: Move) -> str:
    body = move.text.strip()
    if not body.lower().startswith(move.trigger[:40].lower()):
        body = f"{move.trigger}\n\n{body}".strip()
    told = _norm(body)
    for band in BAND_WORDS:
        outcome = move.outcomes.get(band, "").strip()
        if outcome and _norm(outcome) not in told:
            body += f"\n\n{outcome}"
    return f"Move: {move.name}.\n{body}"


def table_text(table: Table) -> str:
    lines = [f"Table: {table.name} (roll {table.dice})."]
    for row in table.rows:
        span = str(row.low) if row.low == row.high else f"{row.low}-{row.high}"
        lines.append(f"{span}: {row.text}")
    if table.note:
        lines.append(table.note)
    return "\n".join(lines)


def _chunk(
    system: GameSystem,
    what: str,
    ident: str,
    source: str,
    heading: str,
    text: str,
    keyword: str = "",
) -> Chunk:
    return Chunk(
        id=f"{KIND}:{system.id}:{what}:{ident}", system=system.id, source=source or system.source,
        heading=heading, start=0, end=0, text=text, kind=KIND, doc=doc_id(system.id),
        extra={"keyword": keyword} if keyword else {},
    )  # fmt: skip


def system_chunks(system: GameSystem) -> list[Chunk]:
    chunks = [
        _chunk(system, "ruling", r.id, r.citation.source, r.citation.heading, ruling_text(r))
        for r in system.rulings
    ]
    chunks += [
        # A move's trigger (when it applies) weighs more in keyword search than its other words.
        _chunk(system, "move", m.id, m.source, m.heading, move_text(m), keyword=m.trigger)
        for m in system.moves
    ]
    chunks += [
        _chunk(system, "table", t.id, t.source, t.heading, table_text(t))
        for t in system.tables.values()
    ]
    return chunks


def engine_docs() -> list[tuple[str, str, list[Chunk]]]:
    """(doc, system, chunks) of every system the engine knows."""
    return [(doc_id(s.id), s.id, system_chunks(s)) for s in all_systems()]
