"""A session as an Obsidian folder an Iron Vault player can open and go on playing (a zip).

    <campaign>/Journal.md              the journal with its `iron-vault-mechanics` blocks, linking
                                       the notes below
    <campaign>/Characters/<name>.md    the character: Iron Vault's character frontmatter
                                       (`iron-vault-kind: character`; Sundered Isles' stats,
                                       meters, momentum, legacy tracks, impacts)
    <campaign>/Progress/<track>.md     each track: `iron-vault-kind: progress` and a track block
    <campaign>/Clocks/<clock>.md       each clock: `iron-vault-kind: clock` and a clock block

The frontmatter keys are those Iron Vault documents (docs/Entities/Characters.md, Progress
Tracks.md, Clocks.md). Elegy has no Iron Vault ruleset: its character note keeps our sheet's
values as frontmatter without Iron Vault's kind, so that Iron Vault does not misread it.
"""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any

import yaml

from service.sessions.journal import export_markdown
from service.sessions.models import SessionRow, TurnRow

_UNSAFE = re.compile(r'[\\/:*?"<>|#^\[\]\x00-\x1f]+')
TRACK_TYPES = {"vow": "Vow", "connection": "Connection", "expedition": "Expedition",
               "combat": "Combat", "scene_challenge": "Scene Challenge"}  # fmt: skip


def note_name(text: str) -> str:
    """A file name Obsidian accepts and a link can name: no / \\ : # ^ [ ] | and the like."""
    cleaned = " ".join(_UNSAFE.sub(" ", text).split()).strip(" .")
    return cleaned[:100] or "untitled"


def _note(front: dict[str, Any], body: str) -> str:
    dumped = yaml.safe_dump(front, sort_keys=False, allow_unicode=True)
    return f"---\n{dumped}---\n{body}"


def _character(system: str, sheet: dict[str, Any]) -> str:
    if system != "sundered_isles":
        front = {"name": sheet.get("name", ""), **{k: v for k, v in sheet.items() if k != "name"}}
        return _note(front, "\nThe character as fateweaver keeps it (no Iron Vault ruleset).\n")
    legacy = sheet.get("legacy") or {}
    front: dict[str, Any] = {"name": sheet.get("name", ""), **sheet.get("stats", {})}
    for meter in ("health", "spirit", "supply", "momentum"):
        front[meter] = sheet.get(meter)
    for track in ("quests", "bonds", "discoveries"):
        front[f"{track.title()}_Progress"] = (legacy.get(track) or {}).get("ticks", 0)
    for impact in sheet.get("impacts") or []:
        front[impact.replace("_", " ")] = True
    front["iron-vault-kind"] = "character"
    body = (
        "\n```iron-vault-character-info\n```\n\n```iron-vault-character-stats\n```\n\n"
        "```iron-vault-character-meters\n```\n\n```iron-vault-character-impacts\n```\n"
    )
    return _note(front, body)


def _track(track: dict[str, Any]) -> str:
    done = track.get("status") != "open"
    front = {
        "tags": ["complete" if done else "incomplete"],
        "iron-vault-kind": "progress",
        "track-type": TRACK_TYPES.get(track["type"], track["type"].replace("_", " ").title()),
        "complete": done,
        "unbounded": False,
        "name": track["name"],
        "progress": track["units"] if track.get("counted") else track["ticks"],
        "rank": track.get("rank") or "troublesome",
    }
    return _note(front, "\n```iron-vault-track\n```\n")


def _clock(clock: dict[str, Any]) -> str:
    done = clock.get("status") != "open"
    front = {
        "tags": ["complete" if done else "incomplete"],
        "iron-vault-kind": "clock",
        "name": clock["name"],
        "segments": clock["segments"],
        "progress": clock["filled"],
    }
    return _note(front, "\n```iron-vault-clock\n```\n")


def vault_zip(row: SessionRow, turns: list[TurnRow], *, max_bytes: int | None = None) -> bytes:
    """The session as a zip of Obsidian notes (see the module's docstring)."""
    state = row.state or {}
    sheet = state.get("sheet", {})
    root = note_name(row.name)
    character = note_name(sheet.get("name") or "Character")
    notes: dict[str, str] = {f"Characters/{character}.md": _character(row.system, sheet)}
    links = [f"- Character: [[Characters/{character}|{sheet.get('name') or character}]]"]
    used: set[str] = set()
    for kind, folder, render in (("tracks", "Progress", _track), ("clocks", "Clocks", _clock)):
        for entry in (state.get(kind) or {}).values():
            name = note_name(entry["name"])
            if name.lower() in used:
                name = f"{name} ({entry['id']})"  # two with one name: each its own note
            used.add(name.lower())
            notes[f"{folder}/{name}.md"] = render(entry)
            links.append(f"- {folder[:-1] if folder == 'Clocks' else 'Track'}: "
                         f"[[{folder}/{name}|{entry['name']}]]")  # fmt: skip
    journal = export_markdown(row, turns, "iron_vault", max_bytes=max_bytes)
    title, _, rest = journal.partition("\n")
    notes["Journal.md"] = f"{title}\n\n" + "\n".join(links) + "\n" + rest
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, text in notes.items():
            archive.writestr(f"{root}/{path}", text)
    return buffer.getvalue()
