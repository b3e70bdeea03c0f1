"""Split a source text into passages at its headings.

Markdown headings (``#`` .. ``######``, also inside ``>`` call-outs) are read as they are. Plain-text
sources have no marks, so a heading is detected: a short title-case line with no closing
punctuation that is not a table row, a list item or one line of a run of such lines.

A chunk is one section's own text (up to the next heading). A section whose text is tiny absorbs
the sections that follow it (so "Easy" / "Hard" / "Important" travel together under their parent);
an oversized one is split at paragraph or line boundaries, and never inside a table.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

MIN_CHARS = 300  # a section shorter than this absorbs the next one
MAX_CHARS = 1400  # a chunk longer than this is split (a table larger than this stays whole)
WINDOW_CHARS = 450  # the embedding model reads 256 tokens: a long chunk gets a vector per window

_MD_HEADING = re.compile(r"^(?:>\s*)*(?:\[![\w-]+\]\s*)?(#{1,6})\s*(.*?)\s*#*\s*$")
_WIKI_LINK = re.compile(r"\[\[(?:[^\]|]*\|)?([^\]]*)\]\]")
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_PAGE_NUMBER = re.compile(r"^\d+\s+(?=[A-Za-z])")
_SMALL_WORDS = {
    "a",
    "an",
    "and",
    "as",
    "at",
    "by",
    "for",
    "in",
    "of",
    "on",
    "or",
    "the",
    "to",
    "vs",
}
_BULLET = re.compile(r"^\s*(?:[-*•+]\s|\d+[.)])")


@dataclass(frozen=True)
class Section:
    path: tuple[str, ...]
    level: int
    start: int  # offset of the heading line (or of the text for a heading-less preamble)
    body_start: int
    end: int


@dataclass(frozen=True)
class Chunk:
    id: str
    system: str
    source: str
    heading: str  # the heading path, "A > B > C"
    start: int
    end: int
    text: str  # the source text of the chunk, as written
    kind: str = "builtin"  # builtin | user | house
    doc: str = ""  # the ingested document this chunk belongs to
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def index_text(self) -> str:
        """What is embedded and keyword-indexed: the heading path, then the plain text."""
        return f"{self.heading}\n{clean_markup(self.text)}"

    @property
    def keyword_text(self) -> str:
        """What BM25 reads: the index text with the section's own title once more (a title
        weighs more than a word of the body), and the words ``extra["keyword"]`` weighs more (a
        move's trigger)."""
        extra = f"\n{self.extra['keyword']}" if "keyword" in self.extra else ""
        return f"{self.heading.rsplit(' > ', 1)[-1]}\n{self.index_text}{extra}"

    def windows(self) -> list[str]:
        """The texts embedded for this chunk: the whole chunk, then (when it is longer than the
        model reads) windows of its lines, each under the heading path."""
        body = clean_markup(self.text).strip()
        out = [self.index_text]
        if len(body) <= WINDOW_CHARS or self.kind == "engine":
            # (the engine's passages restate the texts, whose windows hold the same words: one
            # vector each keeps a cold start's embedding to +226 windows, not +433)
            return out
        cur = ""
        for line in body.splitlines():
            if cur and len(cur) + len(line) > WINDOW_CHARS:
                out.append(f"{self.heading}\n{cur.strip()}")
                cur = ""
            cur += line + "\n"
        if cur.strip():
            out.append(f"{self.heading}\n{cur.strip()}")
        return out

    def vector_ids(self) -> list[str]:
        return [f"{self.id}#{n}" for n in range(len(self.windows()))]

    def metadata(self) -> dict[str, str | int]:
        return {
            "system": self.system,
            "source": self.source,
            "heading": self.heading,
            "start": self.start,
            "end": self.end,
            "kind": self.kind,
            "doc": self.doc,
        }


def clean_markup(text: str) -> str:
    """Markdown links, wiki links, emphasis and call-out marks removed; the words kept."""
    text = _WIKI_LINK.sub(lambda m: m.group(1).lstrip("#^"), text)
    text = _MD_LINK.sub(r"\1", text)
    text = re.sub(r"\^[\w-]+\s*$", "", text, flags=re.M)  # block ids: ^Adventure-Moves
    text = re.sub(r"^(?:>\s*)+(?:\[![\w-]+\]\s*)?", "", text, flags=re.M)
    text = re.sub(r"[*_]{1,3}(?=\S)|(?<=\S)[*_]{1,3}", "", text)
    return re.sub(r"[ \t]+", " ", text)


def clean_title(title: str) -> str:
    title = clean_markup(title).strip().strip("#").strip()
    return _PAGE_NUMBER.sub("", title)


# -- headings ----------------------------------------------------------------------------------


def _lines(text: str) -> list[tuple[int, str]]:
    """(offset, line without newline) for every line."""
    out, pos = [], 0
    for line in text.splitlines(keepends=True):
        out.append((pos, line.rstrip("\r\n")))
        pos += len(line)
    return out


def markdown_headings(text: str) -> list[tuple[int, int, str]]:
    """(offset, level, title) of every markdown heading outside code fences."""
    found, fenced = [], False
    for offset, line in _lines(text):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        m = None if fenced else _MD_HEADING.match(line)
        if m and (title := clean_title(m.group(2))):
            found.append((offset, len(m.group(1)), title))
    return found


def _is_table_row(line: str) -> bool:
    return line.count("|") >= 2 or bool(re.match(r"^\s*\|?\s*:?-{3,}", line))


def _looks_like_heading(line: str) -> bool:
    s = line.strip()
    if not s or len(s) > 60 or s != line.rstrip() or line != line.lstrip():
        return False  # indented lines are list items or continuations
    if _BULLET.match(s) or _is_table_row(s):
        return False  # list items and table rows
    if s[-1] in ".,:;!?…\"”'’" or not (s[0].isupper() or s[0].isdigit()):
        return False  # sentences, and lines that continue one
    if re.search(r"[a-z][A-Z]", s):
        return False  # "EasyTN 10": table cells run together, not a title
    words = re.findall(r"[A-Za-z][A-Za-z'’-]*", s)
    if not words or len(s.split()) > 8:
        return False
    # Title case: every word of four letters or more, and every non-small word, is capitalised.
    return all(w[0].isupper() or w.lower() in _SMALL_WORDS for w in words)


def plain_headings(text: str) -> list[tuple[int, int, str]]:
    """(offset, level 2, title) of detected headings in a text without heading marks."""
    lines = _lines(text)
    candidate = [_looks_like_heading(line) for _, line in lines]
    found = []
    for i, (offset, line) in enumerate(lines):
        if not candidate[i]:
            continue
        # Runs of short lines (table rows written without separators) are not headings.
        prev_run = i > 0 and lines[i - 1][1].strip() and candidate[i - 1]
        next_run = i + 1 < len(lines) and lines[i + 1][1].strip() and candidate[i + 1]
        if prev_run or next_run:
            continue
        # A heading introduces something: the file must go on after it.
        if i + 1 >= len(lines):
            continue
        found.append((offset, 2, clean_title(line)))
    return found


def is_markdown(source: str, text: str) -> bool:
    return source.lower().endswith((".md", ".markdown")) or bool(
        re.search(r"^#{1,6}\s+\S", text, flags=re.M)
    )


def sections(text: str, source: str) -> list[Section]:
    """The sections of a text, each with its heading path; a preamble gets the file's name."""
    heads = markdown_headings(text) if is_markdown(source, text) else plain_headings(text)
    out: list[Section] = []
    stack: list[tuple[int, str]] = []
    first = heads[0][0] if heads else len(text)
    if text[:first].strip():
        out.append(Section((source,), 0, 0, 0, first))
    for i, (offset, level, title) in enumerate(heads):
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        body_start = text.find("\n", offset)
        body_start = len(text) if body_start < 0 else body_start + 1
        end = heads[i + 1][0] if i + 1 < len(heads) else len(text)
        out.append(Section(tuple(t for _, t in stack), level, offset, body_start, end))
    return out


# -- blocks and chunks -------------------------------------------------------------------------


def _blocks(text: str, start: int, end: int) -> list[tuple[int, int, bool]]:
    """(start, end, is_table) of the paragraphs and tables of text[start:end]; tables are atomic."""
    blocks: list[tuple[int, int, bool]] = []
    cur: tuple[int, int, bool] | None = None
    for offset, line in _lines(text[start:end]):
        a = start + offset
        b = a + len(line)
        if not line.strip():
            cur = None
            continue
        table = _is_table_row(line)
        # In a text without blank lines every line is its own paragraph unless it is a table row.
        if cur is not None and cur[2] == table and (table or cur[1] - cur[0] < MAX_CHARS // 2):
            cur = (cur[0], b, table)
            blocks[-1] = cur
        else:
            cur = (a, b, table)
            blocks.append(cur)
    return blocks


def _split_long(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """A long non-table block cut at sentence ends into pieces no longer than MAX_CHARS."""
    pieces, cur = [], a
    while b - cur > MAX_CHARS:
        window = text[cur : cur + MAX_CHARS]
        cut = max(window.rfind(". "), window.rfind("\n"))
        cut = cur + (cut + 1 if cut > MAX_CHARS // 3 else MAX_CHARS)
        pieces.append((cur, cut))
        cur = cut
        while cur < b and text[cur].isspace():
            cur += 1
    pieces.append((cur, b))
    return pieces


def _pack(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Spans of text[start:end] of at most MAX_CHARS (tables kept whole), cut between blocks."""
    if end - start <= MAX_CHARS:
        return [(start, end)]
    units: list[tuple[int, int]] = []
    for a, b, table in _blocks(text, start, end):
        units.extend([(a, b)] if table else _split_long(text, a, b))
    spans: list[tuple[int, int]] = []
    for a, b in units:
        if spans and b - spans[-1][0] <= MAX_CHARS:
            spans[-1] = (spans[-1][0], b)
        else:
            spans.append((a, b))
    if len(spans) > 1 and spans[-1][1] - spans[-1][0] < MIN_CHARS // 3:
        spans[-2:] = [(spans[-2][0], spans[-1][1])]  # no crumbs: a short tail joins its neighbour
    if spans:
        spans[0] = (start, spans[0][1])
    return spans


def _chunk_id(
    system: str, source: str, heading: str, text: str, seen: set[str], kind: str = "builtin"
) -> str:
    digest = hashlib.sha256(f"{system}\0{source}\0{heading}\0{text}".encode()).hexdigest()
    base = f"{system}:{source}:{digest[:16]}"
    if kind != "builtin":
        # A person's text has ids of its own: a copy of a rulebook under the rulebook's name
        # would otherwise overwrite the rulebook's vectors (and delete them when removed).
        base = f"{kind}:{base}"
    cid, n = base, 1
    while cid in seen:
        n += 1
        cid = f"{base}-{n}"
    seen.add(cid)
    return cid


def chunk_text(
    text: str, *, system: str, source: str, kind: str = "builtin", doc: str = ""
) -> list[Chunk]:
    """The chunks of one source text, in reading order, with stable ids."""
    groups: list[list[Section]] = []
    for sec in sections(text, source):
        last = groups[-1] if groups else None
        if (
            last is not None
            and last[-1].end - last[0].body_start < MIN_CHARS
            and sec.end - last[0].start <= MAX_CHARS
            and sec.level > 1  # never merge across a top-level heading
        ):
            last.append(sec)
        else:
            groups.append([sec])
    chunks: list[Chunk] = []
    seen: set[str] = set()
    for group in groups:
        # The heading of a merged group: the first section that says something of its own
        # ("QUEST MOVES" with an empty body followed by "SWEAR AN IRON VOW" cites the latter).
        sizes = [len(text[s.body_start : s.end].strip()) for s in group]
        head = next(
            (s for s, n in zip(group, sizes, strict=True) if n >= 60),
            next((s for s, n in zip(group, sizes, strict=True) if n), group[0]),
        )
        heading = " > ".join(head.path)
        start, end = group[0].body_start, group[-1].end
        if not text[start:end].strip():
            continue  # a heading with nothing under it (its children follow as their own chunks)
        for a, b in _pack(text, start, end):
            while b > a and text[b - 1].isspace():
                b -= 1
            body = text[a:b]
            if not body.strip():
                continue
            cid = _chunk_id(system, source, heading, body, seen, kind)
            # The titles of the other sections merged into it (a name lookup finds them).
            titles = [s.path[-1] for s in group if s is not head and a <= s.start < b]
            extra = {"titles": "\n".join(titles)} if titles else {}
            chunks.append(
                Chunk(cid, system, source, heading, a, b, body, kind, doc or source, extra)
            )
    return chunks
