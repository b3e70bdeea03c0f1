"""Playing a session from an OpenAI-compatible chat client (SillyTavern, Open WebUI...): the
last user message is a turn, the reply is the narration with a compact mechanics line.

Such clients resend the whole history on every request and do not say which chat it is, so the
session is found, in this order (README, "Chat clients"):

1. **In the model name**: ``fateweaver-<system>:<session id>`` plays that session.
2. **A marker in the history**: every reply ends with
   ``[fateweaver session <id> · turn <n>]``; the last one in the assistant messages names the
   session and the turn that reply told.
3. **The opening**: with no marker (a regenerate of the very first reply), the session this
   owner opened with the same first message in this system, if any.
4. Otherwise a new session, with the system's starter character (``STARTER_SHEETS``).

**A regenerate** (the same history less the last reply) re-narrates, never rerolls: when the
session already holds a live turn after the marked one whose words are the last message's, that
turn is told again (new words, the same dice). A choice already made, or an undo already done,
is answered again the same way.

**Background calls** (a title, tags, follow-up suggestions, which Open WebUI sends to the chat
model; SillyTavern's quiet prompts) are recognised by their wording and answered without
touching a session. Incoming ``tool_calls`` and tool messages are ignored.

Everything is done through the service functions the session routes call (``turns.*``); the
narrator is the service's own, with its guard, or the offline narrator without a model.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from rules.errors import RulesError
from rules.models import Resolution
from rules.registry import all_systems, get_system
from rules.sheets import Choice
from service.cli import roll_line
from service.narrator.records import Odds
from service.play_ops import Backend
from service.sessions import store, turns
from service.sessions.db import transaction
from service.sessions.errors import NotFound, SessionError
from service.sessions.journal import change_words, turn_out
from service.sessions.schemas import SessionCreate
from service.sessions.turn_models import AcceptRequest, ChooseRequest, TurnOut, TurnRequest

PREFIX = "fateweaver-"
SESSION_ID = r"[A-Za-z0-9_-]{1,64}"
MARKER = re.compile(
    rf"\[fateweaver session (?P<sid>{SESSION_ID}) · turn (?P<turn>\d+)(?P<waits> awaits a choice)?\]"
)
MAX_WORDS = 2_000
ODDS: tuple[str, ...] = Odds.__args__  # type: ignore[attr-defined]

# A starting character per system, for a chat that opens a session (edit it later through
# POST /v1/sessions/{id}/sheet, or start from the API with your own sheet and put its id in
# the model name).
STARTER_SHEETS: dict[str, dict[str, Any]] = {
    "sundered_isles": {
        "name": "Wanderer",
        "stats": {"edge": 2, "heart": 2, "iron": 3, "shadow": 1, "wits": 1},
    },
    "elegy": {
        "name": "Wanderer",
        "stats": {"dexterity": 2, "heart": 2, "force": 3, "glamour": 1, "intellect": 1},
    },
    "go_forth": {"name": "Wanderer"},
    "storyteller": {"name": "Wanderer"},
    "roll_under": {
        "name": "Wanderer",
        "abilities": {"brawn": 10, "finesse": 9, "intellect": 8},
        "max_abilities": {"brawn": 10, "finesse": 9, "intellect": 8},
        "hp": 6,
        "max_hp": 6,
    },
}

# Background requests clients send to the chat model (Open WebUI's task prompts start with
# "### Task:"; SillyTavern's quiet prompts pause the roleplay), and how each is answered.
_TITLE = re.compile(r"\btitle\b", re.IGNORECASE)
_TAGS = re.compile(r"\btags?\b", re.IGNORECASE)
_FOLLOW_UPS = re.compile(r"follow[- ]?up", re.IGNORECASE)
_BACKGROUND = re.compile(
    r"^\s*###\s*task\s*:|\[pause your roleplay|^\s*generate a (concise|short)[^\n]*title"
    r"|^\s*create a concise, 3-5 word",
    re.IGNORECASE | re.MULTILINE,
)

HELP = """\
Say what your character does, and the engine rolls for it (a move is chosen from your words).
Commands: `/move <move id> [stat] <words>` names the move; `/oracle [odds] <question>` asks the
oracle (odds: small_chance, unlikely, 50_50, likely, almost_certain); `/undo` reverts the last
turn; when a turn waits for your choice, answer with the option's number (or
`/choose <param>=<value>`). The dice are the engine's; regenerating a reply re-tells the same
roll."""


def model_ids() -> list[str]:
    """One model per system that keeps sessions."""
    return [f"{PREFIX}{s.id}" for s in all_systems() if s.sheet is not None]


def model_pattern() -> str:
    systems = "|".join(re.escape(s.id) for s in all_systems() if s.sheet is not None)
    return rf"^{re.escape(PREFIX)}({systems})(:{SESSION_ID})?$"


def parse_model(model: str) -> tuple[str, str | None]:
    """The system and the session named in a model name (422/404 naming ``model``)."""
    match = re.match(model_pattern(), model)
    if match is None:
        raise NotFound(f"no model {model!r}: the models are {', '.join(model_ids())}", "model")
    system = match.group(1)
    sid = match.group(2)[1:] if match.group(2) else None
    return system, sid


def text_of(content: Any) -> str:
    """A message's text: a string, or the text parts of a list of content parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and part.get("type") == "text"
        )
    return ""


@dataclass(frozen=True)
class Said:
    role: str
    text: str


@dataclass(frozen=True)
class Marker:
    session_id: str
    turn: int
    waits: bool  # that reply showed a choice to make


def last_marker(history: list[Said]) -> Marker | None:
    for message in reversed(history):
        if message.role == "assistant":
            found = list(MARKER.finditer(message.text))
            if found:
                m = found[-1]
                return Marker(m.group("sid"), int(m.group("turn")), bool(m.group("waits")))
    return None


def background_answer(text: str, system: str) -> str | None:
    """The answer to a client's background request, or None when the text is a turn."""
    if not _BACKGROUND.search(text):
        return None
    if _FOLLOW_UPS.search(text):
        return json.dumps({"follow_ups": []})
    if _TAGS.search(text) and not _TITLE.search(text):
        return json.dumps({"tags": ["fateweaver", get_system(system).name]})
    if _TITLE.search(text):
        return json.dumps({"title": f"fateweaver: {get_system(system).name}"})
    return ""


# --- what the player said --------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    kind: Literal["words", "move", "oracle", "undo", "choose", "help"]
    words: str = ""
    move: str | None = None
    params: dict[str, Any] | None = None
    raw_choices: str = ""


def parse(text: str, system: str) -> Command:
    """The last user message as a command (pure)."""
    stripped = text.strip()
    if not stripped:
        return Command("help")
    if not stripped.startswith("/"):
        if re.fullmatch(r"\d+([ ,]+\d+)*", stripped):
            return Command("choose", raw_choices=stripped)
        return Command("words", words=stripped[:MAX_WORDS])
    name, _, rest = stripped[1:].partition(" ")
    rest = rest.strip()
    name = name.lower()
    if name == "undo":
        return Command("undo")
    if name == "choose":
        return Command("choose", raw_choices=rest)
    if name == "oracle":
        first, _, question = rest.partition(" ")
        odds = first if first in ODDS else "50_50"
        question = question if first in ODDS else rest
        return Command("oracle", words=(question.strip() or "Is it so?")[:MAX_WORDS],
                       params={"odds": odds})  # fmt: skip
    if name == "move" and rest:
        parts = rest.split()
        move, params, words = parts[0], {}, parts[1:]
        if words and words[0] in get_system(system).stats:
            params["stat"] = words.pop(0)
        return Command("move", words=(" ".join(words) or move)[:MAX_WORDS], move=move,
                       params=params)  # fmt: skip
    return Command("help")


def chosen_values(raw: str, offered: list[Choice]) -> dict[str, Any]:
    """``2`` (the second option of the first choice), ``2 1`` (one per choice, in order), or
    ``param=value`` pairs."""
    if "=" in raw:
        pairs: dict[str, Any] = {}
        for token in shlex.split(raw):
            key, _, value = token.partition("=")
            try:
                pairs[key] = json.loads(value)
            except ValueError:
                pairs[key] = value
        return pairs
    numbers = [int(n) for n in re.findall(r"\d+", raw)]
    values: dict[str, Any] = {}
    for choice, number in zip(offered, numbers, strict=False):
        if not 1 <= number <= len(choice.options):
            raise RulesError(
                f"{number} is not an option of {choice.prompt!r}: 1 to {len(choice.options)}",
                "messages",
            )
        values[choice.param] = choice.options[number - 1].value
    return values


# --- the reply ---------------------------------------------------------------------------------


def mechanics_line(turn: TurnOut) -> str:
    """The engine's record in one line: the roll, its outcome, the changes applied."""
    parts: list[str] = []
    if turn.resolution is not None:
        parts.append(roll_line(Resolution.model_validate(turn.resolution)))
    applied = [change_words(c) for c in turn.changes if c.get("applied", True)]
    if applied:
        parts.append("applied: " + "; ".join(applied))
    return " · ".join(parts)


def choices_text(turn: TurnOut) -> str:
    lines = [f"Turn {turn.number} waits for your choice:"]
    for choice in turn.choices:
        lines.append(f"**{choice['prompt']}** (`{choice['param']}`)")
        lines += [f"{i}. {o['label']}" for i, o in enumerate(choice["options"], start=1)]
    lines.append("Answer with the number (or `/choose <param>=<value>`).")
    return "\n".join(lines)


def marker(session_id: str, turn: int, waits: bool = False) -> str:
    return f"[fateweaver session {session_id} · turn {turn}{' awaits a choice' if waits else ''}]"


def told_text(session_id: str, turn: TurnOut) -> str:
    """The reply for a turn: its narration, the mechanics, a pending choice, the marker."""
    blocks: list[str] = []
    if turn.narration:
        blocks.append(turn.narration.strip())
    line = mechanics_line(turn)
    if line:
        blocks.append(f"`{line}`")
    waits = turn.status == "awaiting_choice"
    if waits:
        blocks.append(choices_text(turn))
    blocks.append(marker(session_id, turn.number, waits))
    return "\n\n".join(blocks)


# --- playing -------------------------------------------------------------------------------------


def opening_name(system: str, first: str) -> str:
    digest = hashlib.sha256(f"{system}\n{first.strip()}".encode()).hexdigest()[:12]
    return f"chat {digest}"


class Facade:
    def __init__(self, backend: Backend, owner: str) -> None:
        self.backend = backend
        self.owner = owner

    @property
    def database(self) -> Any:
        return self.backend.database

    async def reply(self, model: str, history: list[Said]) -> str:
        system, pinned = parse_model(model)
        said = [m for m in history if m.role in ("user", "assistant")]
        last = said[-1] if said else None
        if last is None or last.role != "user":
            return HELP
        background = background_answer(last.text, system)
        if background is not None:
            return background
        command = parse(last.text, system)
        found = last_marker(said)
        if pinned is not None:
            await run_in_threadpool(self.require, pinned, "model")
        elif found is not None:
            await run_in_threadpool(self.require, found.session_id, "messages")
        sid = pinned or (found.session_id if found else None)
        openings = [m.text for m in said if m.role == "user"]
        if sid is None:
            sid = await run_in_threadpool(self.opening, system, openings[0])
        if command.kind == "help":
            return HELP
        if sid is None:
            sid = await run_in_threadpool(self.create, system, openings[0])
        marked = found if found is not None and found.session_id == sid else None
        try:
            return await self.play(sid, command, marked)
        except RulesError as exc:
            return await self.refused(sid, exc.message)
        except ValidationError as exc:
            # the words or a command's parameters that the turn's own request model refuses
            # (blank words, a control character): said like any refusal, never a 500
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(p) for p in first["loc"])
            return await self.refused(sid, f"{where}: {first['msg']}")
        except SessionError as exc:
            if exc.status in (401, 404):
                raise
            return await self.refused(sid, exc.message)

    def require(self, sid: str, field: str) -> None:
        """The owner's session, or 404 naming where the request named it."""
        try:
            with transaction(self.database, write=False) as db:
                store.get_session(db, self.owner, sid)
        except NotFound:
            raise NotFound(f"no session {sid!r} for this API key", field) from None

    def opening(self, system: str, first: str) -> str | None:
        """The session this owner opened with this first message, if any."""
        name = opening_name(system, first)
        with transaction(self.database, write=False) as db:
            for row in store.list_sessions(db, self.owner):
                if row.name == name and row.system == system:
                    return row.id
        return None

    def create(self, system: str, first: str) -> str:
        body = SessionCreate.model_validate(
            {"system": system, "name": opening_name(system, first), "sheet": STARTER_SHEETS[system]}
        )
        return turns.create_session(self.database, self.owner, body).id

    def live_turns(self, sid: str) -> tuple[TurnOut | None, dict[int, TurnOut]]:
        """The session's last live turn, and every turn by number."""
        with transaction(self.database, write=False) as db:
            row = store.get_session(db, self.owner, sid)
            every = {t.number: turn_out(t) for t in store.list_turns(db, row)}
            live = store.last_turn(db, row, statuses=("resolved", "awaiting_choice", "proposed"))
            return (turn_out(live) if live is not None else None), every

    async def play(self, sid: str, command: Command, marked: Marker | None) -> str:
        last, every = await run_in_threadpool(self.live_turns, sid)
        since = marked.turn if marked is not None else 0
        # A regenerate: this message was played already (after the turn the history shows).
        replayed = last is not None and last.number > since and last.words == command.words
        if command.kind in ("words", "move", "oracle") and last is not None and replayed:
            return await self.retell(sid, last)
        if command.kind == "choose" and marked is not None and marked.waits:
            earlier = every.get(marked.turn)
            if earlier is not None and earlier.status == "resolved":
                return await self.retell(sid, earlier)
        if command.kind == "undo" and marked is not None:
            earlier = every.get(marked.turn)
            if earlier is not None and earlier.status == "undone":
                return self.undone_text(sid, earlier, last)
        if last is not None and last.status == "awaiting_choice" and command.kind != "undo":
            if command.kind != "choose":
                return choices_text(last) + "\n\n" + marker(sid, last.number, waits=True)
            offered = [Choice.model_validate(c) for c in last.choices]
            request = ChooseRequest(choices=chosen_values(command.raw_choices, offered))
            committed = await run_in_threadpool(
                turns.choose, self.database, self.owner, sid, last.number, request, None,
                self.backend.model,
            )  # fmt: skip
            return told_text(sid, await self.tell(sid, committed))
        if command.kind == "undo":
            undone, after = await run_in_threadpool(self.undo, sid)
            return self.undone_text(sid, undone, after)
        if command.kind == "choose":
            return "No turn waits for a choice.\n\n" + marker(sid, last.number if last else 0)
        return await self.take(sid, command)

    def undo(self, sid: str) -> tuple[TurnOut, TurnOut | None]:
        """Undo the last turn: it, and the live turn before it."""
        turn_id = turns.undo(self.database, self.owner, sid)
        with transaction(self.database, write=False) as db:
            row = store.get_session(db, self.owner, sid)
            live = store.last_turn(db, row, statuses=("resolved", "awaiting_choice", "proposed"))
            undone = turn_out(store.turn_by_id(db, row, turn_id))
            return undone, (turn_out(live) if live is not None else None)

    def undone_text(self, sid: str, undone: TurnOut, after: TurnOut | None) -> str:
        return (
            f"Turn {undone.number} ({undone.words}) is undone: its changes are reverted, its "
            f"journal entry kept.\n\n{marker(sid, after.number if after else 0)}"
        )

    async def take(self, sid: str, command: Command) -> str:
        fields: dict[str, Any] = {"words": command.words}
        if command.kind == "move":
            fields |= {"move": command.move, "params": command.params or {}}
        elif command.kind == "oracle":
            fields |= {"kind": "oracle", "params": command.params or {}}
        request = TurnRequest.model_validate(fields)
        committed = await turns.take_turn(
            self.database, self.owner, sid, request, self.backend.model
        )
        if committed.turn.status == "proposed":  # words alone: roll the proposal at once
            committed = await run_in_threadpool(
                turns.accept, self.database, self.owner, sid, committed.turn.number,
                AcceptRequest(), None, self.backend.model,
            )  # fmt: skip
        return told_text(sid, await self.tell(sid, committed))

    async def tell(self, sid: str, committed: turns.Committed) -> TurnOut:
        return await turns.tell(self.database, self.owner, sid, committed)

    async def retell(self, sid: str, turn: TurnOut) -> str:
        """A turn told again: the same dice, new words (or the same choice shown again)."""
        if turn.status != "resolved" or turn.resolution is None:
            return told_text(sid, turn)
        committed = await run_in_threadpool(
            turns.renarratable, self.database, self.owner, sid, turn.number, None,
            self.backend.model,
        )  # fmt: skip
        return told_text(sid, await self.tell(sid, committed))

    async def refused(self, sid: str, message: str) -> str:
        """A turn the engine or the session refused: said in the chat, nothing changed."""
        last, _ = await run_in_threadpool(self.live_turns, sid)
        return (
            f"The engine refused that: {message}\n\n{HELP}\n\n"
            f"{marker(sid, last.number if last else 0)}"
        )
