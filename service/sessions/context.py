"""What the narrator is told of a session: the sheet, the open tracks, a running summary and the
last few turns, never the whole journal, so a prompt is as long at turn 200 as at turn 5.

The summary is kept by code, a line per turn (the move, the outcome, the changes), so keeping it
current costs no model call; it holds the last ``SUMMARY_LINES`` lines.
"""

from __future__ import annotations

from typing import Any

from rules.models import Resolution
from service.narrator import facts

SUMMARY_LINES = 6
RECENT_TURNS = 3
NARRATION_EXCERPT = 240


def digest(number: int, words: str, resolution: Resolution | None, changes: list[str]) -> str:
    """One line of the running summary for a turn."""
    told = f"T{number}: {' '.join(words.split())[:60]}"
    if resolution is not None:
        told += f" -> {facts.title(resolution)}: {facts.outcome_words(resolution).split(':')[0]}"
    if changes:
        told += f" ({'; '.join(changes)[:60]})"
    return told


def add_to_summary(summary: str, line: str) -> str:
    lines = [ln for ln in summary.splitlines() if ln.strip()] + [line]
    return "\n".join(lines[-SUMMARY_LINES:])


def _sheet_line(sheet: dict[str, Any]) -> str:
    parts = []
    for key, value in sheet.items():
        if key == "name":
            continue
        if isinstance(value, dict):
            inner = ", ".join(
                f"{k} {v}" for k, v in value.items() if not isinstance(v, dict | list)
            )
            if inner:
                parts.append(f"{key}: {inner}")
        elif isinstance(value, list):
            if value:
                parts.append(f"{key}: {', '.join(map(str, value))[:120]}")
        else:
            parts.append(f"{key} {value}")
    return "; ".join(parts)[:700]


def session_context(
    state: dict[str, Any], summary: str, recent: list[tuple[str, str]], extra: str | None
) -> str:
    """The narrator's view of the session, as data (delimited by the prompt)."""
    sheet = state.get("sheet", {})
    lines = [f"Character: {sheet.get('name', 'the player character')}. {_sheet_line(sheet)}"]
    tracks = [t for t in state.get("tracks", {}).values() if t.get("status") == "open"]
    if tracks:
        lines.append(
            "Open tracks: "
            + "; ".join(f"{t['name']} ({t['type']}, {t.get('rank') or ''})" for t in tracks[-6:])
        )
    clocks = [c for c in state.get("clocks", {}).values() if c.get("status") == "open"]
    if clocks:
        lines.append(
            "Clocks: "
            + "; ".join(f"{c['name']} {c['filled']}/{c['segments']}" for c in clocks[-4:])
        )
    if summary:
        lines.append("Story so far (latest last):\n" + summary)
    for words, narration in recent[-RECENT_TURNS:]:
        excerpt = narration[:NARRATION_EXCERPT]
        lines.append(f"Earlier: the player: {words[:120]} / narrated: {excerpt}")
    if extra:
        lines.append(f"Now: {extra[:300]}")
    return "\n".join(lines)
