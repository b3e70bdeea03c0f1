"""`fateweaver play`: a solo session in the terminal, one line at a time.

It calls what the session routes call (service/sessions/turns.py): a turn is proposed, then
accepted or overridden, resolved, chosen, narrated (the configured model, or the offline
narrator), undone and told again; tracks and clocks are turns too. Three parts:

    parsing     the player's lines as commands: pure functions
    rendering   dice, outcomes, changes, narration, meters, tracks and clocks: rich renderables
    Play        the loop; an error (the engine's, the session's) is shown and the loop goes on

The session modules (SQLAlchemy, the narrator's model, FastAPI) are imported when a session
starts, so that the other ``fateweaver`` commands do not pay for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import random
import re
import shlex
import signal
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from rules.errors import DiceError
from rules.tables import rows_not_told

if TYPE_CHECKING:
    from rules.registry import GameSystem
    from service.narrator.model import ChatModel
    from service.sessions.db import Database
    from service.sessions.turn_models import TurnOut
    from service.sessions.turns import Committed
    from service.settings import Settings

Read = Callable[[str], str]
MAX_SEED = 2**63 - 1
TICKS_PER_BOX, BOXES = 4, 10
# key=value pairs of a command that are the turn request's own fields, not the roll's parameters
ROLL_REQUEST_KEYS = ("track", "clock", "dice", "seed")
OVERRIDE_KEYS = ("move", "kind", "track", "dice", "seed")
LATER = "the turn waits for your choice: /choose to make it"
OUTCOME_STYLES = {
    "success": "bold green", "yes": "bold green", "mixed": "bold yellow",
    "failure": "bold red", "no": "bold red", "neutral": "bold cyan",
}  # fmt: skip
HELP = [
    ("<words>", "what your character does: a move is proposed, then rolled if you accept"),
    ("/move <id> [key=value…] <words>", "make a move (/move alone lists them)"),
    ("/roll <kind> [key=value…] [words]", "any roll, e.g. /roll oracle odds=likely"),
    ("/dice 4,2,9", "dice rolled by hand for the next roll (/dice alone: roll them for me)"),
    ("/choose", "make the choice a turn waits for"),
    ("/undo", "revert the last turn (its journal entry stays, marked undone)"),
    ("/renarrate [n]", "tell turn n (default: the last roll) again"),
    ("/track <type> [rank] <name>", "open a progress track: /track vow dangerous Find my sister"),
    ("/progress <track> [times]", "mark progress on a track"),
    ("/close <track> [completed|abandoned]", "close a track"),
    ("/clock <segments> <name>", "open a clock of 4, 6, 8 or 10 segments"),
    ("/advance <clock> [by]", "advance a clock"),
    ("/journal", "every turn so far"),
    ("/export [markdown|iron_vault|iron_vault_zip] [FILE]", "the journal (to a file if named)"),
    ("/sheet", "the character sheet"),
    (
        "/edit <field> <+N|-N|=N|+item|-item>…",
        "edit the sheet by hand: /edit health -2 impacts +wounded",
    ),
    ("/rest <kind>", "rest as the text allows (the kinds: /rest)"),
    ("/help", "this list"),
    ("/quit", "leave (Ctrl-D too); the session is saved"),
]


# --- parsing ------------------------------------------------------------------------------------


EXPORT_FORMATS = ("markdown", "iron_vault", "iron_vault_zip")


class ParseError(ValueError):
    """A line the terminal cannot read; ``field`` names what to fix, as the engine's errors do."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class Cancelled(Exception):
    """The player left a question unanswered, typing a command instead (run next)."""

    def __init__(self, message: str, line: str = "") -> None:
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class Command:
    name: str  # "say" for plain words, else the command without its slash
    args: list[str]
    text: str  # what follows the command word, as typed


# A parameter given a JSON list or object: ``weapons=[{"die": 6}]`` (played at stop 37: shlex
# took its quotes, and the engine was sent the text "[{die:6}]").
_JSON_PARAM = re.compile(r"(?:^|(?<=\s))[A-Za-z_][\w.*]*=(?=[\[{])")
_JSON = json.JSONDecoder()


def tokens(text: str) -> list[str]:
    """Words, with quotes grouping (``name="Old Tom"``) and a ``key=`` JSON list or object kept
    whole, quotes and spaces and all; an unclosed quote splits on spaces."""
    found: list[str] = []
    start = at = 0
    while m := _JSON_PARAM.search(text, at):
        try:
            _, end = _JSON.raw_decode(text, m.end())
        except json.JSONDecodeError:
            at = m.end()
            continue
        found += [*_split(text[start : m.start()]), text[m.start() : end]]
        start = at = end
    return found + _split(text[start:])


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def parse_line(line: str) -> Command | None:
    line = line.strip()
    if not line:
        return None
    if not line.startswith("/"):
        return Command("say", [], line)
    head, _, rest = line[1:].partition(" ")
    return Command(head.lower(), tokens(rest), rest.strip())


def parse_value(text: str) -> Any:
    """A JSON value (``3``, ``true``, ``["a","b"]``), else the text itself."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_edit(field: str, change: str) -> dict[str, Any]:
    """``health -2``, ``momentum =3``, ``impacts +wounded`` as a sheet edit."""
    sign, rest = change[:1], change[1:]
    if sign in "+-" and rest.isdigit():
        return {"field": field, "delta": int(change)}
    if sign == "=" and rest.lstrip("-").isdigit():
        return {"field": field, "set_to": int(rest)}
    if sign in "+-" and rest:
        return {"field": field, "add" if sign == "+" else "remove": rest}
    raise ParseError(f"{change!r}: +N, -N, =N, +item or -item", "edit")


def parse_dice(text: str) -> list[int]:
    parts = [p for p in re.split(r"[\s,]+", text.strip().strip("[]")) if p]
    if not parts:
        raise ParseError("give the dice as numbers, e.g. 4,2,9", "dice")
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise ParseError(f"{text!r}: dice are whole numbers, e.g. 4,2,9", "dice") from None


_KEY = re.compile(r"^[A-Za-z_][\w.*]*$")


def split_params(
    args: Iterable[str], request_keys: Collection[str] = ()
) -> tuple[dict[str, Any], dict[str, Any], str]:
    """``key=value`` tokens as the roll's parameters (JSON values, else text), those named in
    ``request_keys`` as the request's own fields (``dice`` a list of numbers); the other tokens
    are the player's words."""
    params: dict[str, Any] = {}
    request: dict[str, Any] = {}
    words: list[str] = []
    for token in args:
        key, sep, value = token.partition("=")
        if not sep or not _KEY.match(key):
            words.append(token)
        elif key in request_keys:
            request[key] = parse_dice(value) if key == "dice" else parse_value(value)
        else:
            params[key] = parse_value(value)
    return params, request, " ".join(words)


def parse_override(text: str) -> dict[str, Any]:
    """An accepted proposal's overrides (``move=strike stat=iron``) as AcceptRequest fields."""
    params, request, words = split_params(tokens(text), OVERRIDE_KEYS)
    if words:
        raise ParseError(
            f"{words!r}: overrides are key=value pairs, e.g. move=strike stat=iron", "override"
        )
    return {**request, "params": params}


def parse_track(args: list[str], ranks: Mapping[str, Collection[str]]) -> dict[str, Any]:
    """``/track <type> [rank] <name>``: the rank is the word after the type when the type has
    ranks and the word is one of them."""
    if len(args) < 2:
        raise ParseError("/track <type> [rank] <name>, e.g. /track vow dangerous Find her", "track")
    kind, rest = args[0], args[1:]
    rank = rest[0] if len(rest) > 1 and rest[0] in ranks.get(kind, ()) else None
    if rank is None and ranks.get(kind):
        told = ", ".join(ranks[kind])
        raise ParseError(f"a {kind} has a rank ({told}): /track {kind} <rank> <name>", "rank")
    return {"type": kind, "rank": rank, "name": " ".join(rest[1:] if rank else rest)}


def parse_count(args: list[str], index: int, default: int, what: str) -> int:
    if len(args) <= index:
        return default
    try:
        return int(args[index])
    except ValueError:
        raise ParseError(f"{args[index]!r}: {what} is a whole number", what) from None


def parse_sheet(text: str) -> dict[str, Any]:
    """A sheet given as JSON text, or the path of a JSON file."""
    text = text.strip()
    source = text if text.startswith("{") else None
    if source is None:
        path = Path(text).expanduser()
        if not path.is_file():
            raise ParseError(f"{text!r}: neither JSON (starting with {{) nor a file", "sheet")
        source = path.read_text(encoding="utf-8")
    try:
        data = json.loads(source)
    except json.JSONDecodeError as exc:
        raise ParseError(f"the sheet is not valid JSON: {exc}", "sheet") from None
    if not isinstance(data, dict):
        raise ParseError("the sheet is a JSON object", "sheet")
    return data


# --- rendering ----------------------------------------------------------------------------------


def die_text(die: dict[str, Any]) -> Text:
    label = f"d{die['sides']} {die['value']}"
    marks = [
        mark
        for mark, on in (
            ("rerolled", die.get("rerolled")),
            ("cancelled", die.get("cancelled")),
            ("not kept", not die.get("kept", True)),
        )
        if on
    ]
    if marks:
        return Text(f"[{label} {' '.join(marks)}]", style="dim strike")
    return Text(f"[{label}]", style="bold")


def render_dice(dice: list[dict[str, Any]]) -> Text:
    """The dice in the order rolled, grouped by role: ``action [d6 4]  challenge [d10 2] …``."""
    out = Text()
    role = None
    for die in dice:
        if die["role"] != role:
            role = die["role"]
            label = "" if role == f"d{die['sides']}" else f"{role} "
            out.append(("  " if out else "") + label, style="dim")
        else:
            out.append(" ")
        out.append_text(die_text(die))
    return out


def render_outcome(resolution: dict[str, Any]) -> Text:
    from service.narrator.guard import polarity_of

    system, kind, outcome = (resolution.get(k, "") for k in ("system", "kind", "outcome"))
    details, params = resolution.get("details") or {}, resolution.get("params") or {}
    name = details.get("name") or params.get("move") or f"{kind.replace('_', ' ')} roll"
    out = Text(f"{name}: ", style="bold")
    style = OUTCOME_STYLES.get(polarity_of(system, kind, outcome), "bold")
    out.append(outcome.replace("_", " ").upper(), style=style)
    if resolution.get("match"):
        out.append("  ")
        out.append(" MATCH ", style="bold black on magenta")
    elif resolution.get("match") is False:
        out.append("  no match", style="dim")
    return out


def render_changes(changes: list[dict[str, Any]]) -> Text:
    from service.sessions.journal import change_words  # the journal's words, loaded on use

    kept = [change_words(c) for c in changes if c.get("applied", True)]
    told = [change_words(c) for c in changes if not c.get("applied", True)]
    out = Text("changes: ", style="dim")
    out.append("; ".join(kept) or "none", style="yellow" if kept else "dim")
    if told:
        out.append(f"  (told, not kept: {'; '.join(told)})", style="dim")
    return out


def render_resolution(resolution: dict[str, Any]) -> Group:
    parts: list[RenderableType] = [render_dice(resolution.get("dice", []))]
    parts.append(render_outcome(resolution))
    scores = resolution.get("scores") or {}
    if scores:
        parts.append(Text(" · ".join(f"{k} {v}" for k, v in scores.items()), style="dim"))
    details = resolution.get("details") or {}
    rows = details.get("results")
    if isinstance(rows, list) and rows:
        parts.append(Text("result: " + "; ".join(map(str, rows)), style="cyan"))
    elif resolution.get("text"):
        parts.append(Text(str(resolution["text"]), style="italic"))
    # a table a move rolled on (Elegy's Pay the Price list, on "Roll on the list below"). Shown
    # only as "table:pay_the_price [d100 84]", the player never read what the price was. A row
    # the rule's text already carries (Sundered Isles appends its tables there) is not repeated.
    for name, rows in rows_not_told(details, resolution.get("text")):
        parts.append(Text(f"{name}: " + "; ".join(rows), style="cyan"))
    return Group(*parts)


def render_choices(choice: dict[str, Any]) -> Text:
    out = Text(choice["prompt"], style="bold")
    for n, option in enumerate(choice["options"], 1):
        out.append(f"\n  {n}. {option['label']}")
    return out


def render_turn(turn: TurnOut) -> Group:
    """The committed turn's mechanics: dice, outcome band and match, changes, pending choices."""
    words = turn.words if len(turn.words) <= 50 else turn.words[:49] + "…"
    head = f"Turn {turn.number} · {turn.kind} · {words}"
    if turn.status != "resolved":
        head += f" · {turn.status.replace('_', ' ')}"
    parts: list[RenderableType] = [Rule(Text(head), align="left", style="blue")]
    if turn.resolution is not None:
        parts.append(render_resolution(turn.resolution))
    if turn.status == "awaiting_choice":
        parts.append(Text("awaiting your choice", style="bold magenta"))
    elif turn.changes or turn.resolution is not None:
        parts.append(render_changes(turn.changes))
    return Group(*parts)


def render_proposal(proposal: dict[str, Any], gm_params: Collection[str] = ()) -> Panel:
    what = f"move {proposal['move']}" if proposal.get("move") else f"roll {proposal['kind']}"
    body = Text(what, style="bold")
    for key, value in proposal.get("params", {}).items():
        if key == "move":
            continue
        body.append(f"\n  {key} = {json.dumps(value)}")
        if key in gm_params:
            body.append("  (GM)", style="dim")
    if proposal.get("why"):
        body.append(f"\nwhy: {proposal['why']}", style="italic")
    if proposal.get("rejected"):
        body.append(f"\nthe model's proposal was not used: {proposal['rejected']}", style="dim")
    return Panel(body, title=f"proposed ({proposal.get('source', 'offline')})", title_align="left")


def render_narration(
    text: str, narrator: str | None, status: str, narrated: dict[str, Any] | None = None
) -> Panel:
    title = "narration"
    if narrator == "offline":
        title += " · offline"
    if status == "pending":
        # the model may have answered and the guard refused what it wrote: the record's guard
        # report is null when no model replied
        refused = ((narrated or {}).get("guard") or {}).get("passed") is False
        why = "the guard refused the model's words" if refused else "the model failed"
        title += f" · pending: {why}; /renarrate to try again"
    elif status == "streaming":
        title += " · …"
    return Panel(Text(text), title=title, title_align="left", border_style="green")


def track_boxes(ticks: int) -> str:
    """Ten boxes of four ticks: ``[####][##  ][    ]…``."""
    boxes = []
    for box in range(BOXES):
        filled = max(0, min(TICKS_PER_BOX, ticks - box * TICKS_PER_BOX))
        boxes.append("[" + "#" * filled + " " * (TICKS_PER_BOX - filled) + "]")
    return "".join(boxes)


def clock_text(filled: int, segments: int) -> str:
    return "■" * filled + "□" * (segments - filled) + f" {filled}/{segments}"


def render_track(track: dict[str, Any]) -> Text:
    """``t1 Find my sister · vow (dangerous)`` and its progress: boxes, or units of a target."""
    rank = f" ({track['rank']})" if track.get("rank") else ""
    out = Text(f"{track['id']} {track['name']}", style="bold")
    out.append(f" · {track['type']}{rank}\n   ", style="dim")
    if track.get("target") is not None:
        out.append(f"{track['units']}/{track['target']}", style="cyan")
    else:
        out.append(track_boxes(track["ticks"]), style="cyan")
        out.append(f" {track['ticks'] // TICKS_PER_BOX}/{BOXES} boxes", style="dim")
    return out


def _numbers(value: Any) -> str:
    """A sheet field's numbers (and flags, and named things) in a few words; "" if none."""
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        if value and all(isinstance(v, str) for v in value):
            return ", ".join(value)
        return str(len(value)) if value else ""
    if not isinstance(value, dict):
        return ""
    parts = []
    for key, item in value.items():
        if isinstance(item, bool):
            parts.extend([key] if item else [])
        elif isinstance(item, int):
            parts.append(f"{key} {item}")
        elif isinstance(item, dict) and item and all(type(v) is int for v in item.values()):
            parts.append(f"{key} " + "/".join(str(v) for v in item.values()))
    return " · ".join(parts)


def render_sheet_numbers(sheet: dict[str, Any]) -> Table:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    scalars = [f"{k.replace('_', ' ')} {v}" for k, v in sheet.items() if type(v) is int]
    if scalars:
        grid.add_row("", Text(" · ".join(scalars)))
    for key, value in sheet.items():
        if key != "name" and type(value) is not int and (shown := _numbers(value)):
            grid.add_row(key.replace("_", " "), Text(shown))
    return grid


def render_status(state: dict[str, Any]) -> Panel:
    """Meters, momentum and the like (the sheet's numbers), open tracks, clocks."""
    sheet = state.get("sheet", {})
    parts: list[RenderableType] = [render_sheet_numbers(sheet)]
    if sheet.get("position"):  # in a fight: in control or in a bad spot
        told = {"bad_spot": "in a bad spot", "in_control": "in control"}.get(sheet["position"])
        parts.append(Text(f"position: {told or sheet['position']}", style="bold"))
    parts += [render_track(t) for t in state.get("tracks", {}).values() if t["status"] == "open"]
    for c in state.get("clocks", {}).values():
        line = Text(f"{c['id']} {c['name']} ", style="bold")
        line.append(clock_text(c["filled"], c["segments"]), style="magenta")
        parts.append(line)
    return Panel(Group(*parts), title=str(sheet.get("name") or "status"), title_align="left")


def render_journal(turns: list[TurnOut]) -> Table:
    table = Table("#", "status", "kind", "words", "outcome", "narration", box=None)
    for t in turns:
        r = t.resolution or {}
        outcome = r.get("outcome", "") + (" MATCH" if r.get("match") else "")
        style = "dim" if t.status == "undone" else None
        cells = (str(t.number), t.status, t.kind, t.words[:50], outcome, t.narration_status)
        table.add_row(*map(Text, cells), style=style)  # fmt: skip
    return table


def render_help() -> Table:
    table = Table.grid(padding=(0, 2))
    for usage, what in HELP:
        table.add_row(Text(usage, style="bold"), Text(what))
    return table


def error_text(exc: BaseException) -> Text:
    """The engine's and the session's errors (message and field), and any other, in red."""
    if isinstance(exc, ValidationError):
        told = "; ".join(
            f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False)
        )
        return Text(f"error: {told}", style="bold red")
    message = getattr(exc, "message", None)
    if not isinstance(message, str):
        return Text(f"error ({type(exc).__name__}): {exc}", style="bold red")
    field = getattr(exc, "field", None)
    text = f"error ({field}): {message}" if field else f"error: {message}"
    if "awaits your choice" in message:
        text += " (type /choose)"
    return Text(text, style="bold red")


# --- a new session's sheet, field by field ------------------------------------------------------


def _int_or_none(value: Any) -> int | None:
    """A stat's default: a number, or the ``score`` of one (Go Forth's attributes)."""
    if isinstance(value, dict):
        value = value.get("score")
    value = getattr(value, "score", value)
    return value if type(value) is int else None


def _ask_int(
    read: Read,
    label: str,
    default: int | None,
    bounds: tuple[int | None, int | None] = (None, None),
) -> int:
    """A whole number within the field's bounds; a wrong answer is asked again saying why."""
    wrong = ""
    low, high = bounds
    while True:
        shown = f" [{default}]" if default is not None else ""
        answer = read(f"{wrong}{label}{shown}: ").strip()
        if not answer and default is not None:
            return default
        try:
            value = int(answer)
        except ValueError:
            wrong = f"{answer!r} is not a whole number. " if answer else "a number, please. "
            continue
        if (low is not None and value < low) or (high is not None and value > high):
            wrong = f"{value} is not within {low}..{high}. "
            continue
        return value


def _bounds(info: FieldInfo | None) -> tuple[int | None, int | None]:
    """The ``ge``/``le`` a field states (its ``gt``/``lt`` made inclusive)."""
    low = high = None
    for rule in info.metadata if info is not None else []:
        low = getattr(rule, "ge", None) if getattr(rule, "ge", None) is not None else low
        high = getattr(rule, "le", None) if getattr(rule, "le", None) is not None else high
        if getattr(rule, "gt", None) is not None:
            low = rule.gt + 1
        if getattr(rule, "lt", None) is not None:
            high = rule.lt - 1
    return low, high


def _ask_key(read: Read, field: str, key: str, defaults: Any, annotation: Any) -> int:
    default = _int_or_none(defaults.get(key))
    return _ask_int(read, f"{field} {key}", default, _key_bounds(annotation, key))


def _key_bounds(annotation: Any, key: str) -> tuple[int | None, int | None]:
    """The bounds of one stat of a stats model (Sundered Isles' edge is 0..5)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _bounds(annotation.model_fields.get(key))
    return None, None


def _stat_keys(system: GameSystem, annotation: Any, default: Any) -> list[str]:
    """The keys of a field that holds the character's stats, else []."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        keys = list(annotation.model_fields)
    elif isinstance(default, dict) and default:
        keys = list(default)
    elif default is None and "dict" in str(annotation):  # a required mapping: the stats
        keys = list(system.stats)
    else:
        return []
    return keys if set(keys) & set(system.stats) else []


def ask_sheet(system: GameSystem, name: str, read: Read) -> dict[str, Any]:
    """A sheet asked field by field: each stat of a stats field and each whole-number field
    (the default shown, Enter keeps it; ``max_x`` defaults to ``x``), name=value pairs for a
    free mapping (Storyteller's traits), JSON for another required field. Other fields keep
    their defaults (give the whole sheet as JSON for those)."""
    assert system.sheet is not None
    sheet: dict[str, Any] = {"name": name}
    for field, info in system.sheet.model.model_fields.items():
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        if field == "name" or extra.get("set_in_play"):
            continue
        default = None if info.is_required() else info.get_default(call_default_factory=True)
        same = sheet.get(field.removeprefix("max_")) if field.startswith("max_") else None
        if keys := _stat_keys(system, info.annotation, default):
            defaults = same or default or {}
            sheet[field] = {
                key: _ask_key(read, field, key, defaults, info.annotation) for key in keys
            }
        elif info.annotation is int:
            sheet[field] = _ask_int(
                read, field, same if default is None else default, _bounds(info)
            )
        elif isinstance(default, dict):
            answer = read(f"{field} as name=value pairs (e.g. strength=3 brawl=2) [none]: ")
            params, _, rest = split_params(tokens(answer))
            if rest:
                raise ParseError(f"{rest!r}: give name=value pairs", f"sheet.{field}")
            sheet[field] = params
        elif info.is_required():
            sheet[field] = parse_value(read(f"{field} (JSON): "))
    return sheet


# --- the loop -----------------------------------------------------------------------------------


class Play:
    """One session played line by line; ``read`` asks the player (``console.input``)."""

    def __init__(
        self, console: Console, read: Read, database: Database, owner: str, session_id: str,
        model: ChatModel | None, seed: int | None = None,
    ) -> None:  # fmt: skip
        from rules.registry import get_system

        self.console, self.read, self.database = console, read, database
        self.owner, self.session_id, self.model = owner, session_id, model
        self.rng = random.Random(seed) if seed is not None else None
        self.dice: list[int] | None = None
        self.system = get_system(self.session()["system"])
        sheet = self.system.sheet
        self.gm_params = {g.param for g in sheet.gm_params} if sheet else set()
        self.ranks = {t.id: list(t.ranks) for t in sheet.track_types} if sheet else {}

    # -- reading the store

    def session(self) -> dict[str, Any]:
        from service.sessions import store
        from service.sessions.db import transaction

        with transaction(self.database, write=False) as db:
            row = store.get_session(db, self.owner, self.session_id)
            return {"system": row.system, "name": row.name, "status": row.status,
                    "state": row.state, "turns": row.turn_count}  # fmt: skip

    def load(self, turn_id: int) -> TurnOut:
        from service.sessions import store
        from service.sessions.db import transaction
        from service.sessions.journal import turn_out

        with transaction(self.database, write=False) as db:
            row = store.get_session(db, self.owner, self.session_id)
            return turn_out(store.turn_by_id(db, row, turn_id))

    def journal(self) -> list[TurnOut]:
        from service.sessions import store
        from service.sessions.db import transaction
        from service.sessions.journal import turn_out

        with transaction(self.database, write=False) as db:
            row = store.get_session(db, self.owner, self.session_id)
            return [turn_out(t) for t in store.list_turns(db, row)]

    # -- the loop

    def run(self) -> int:
        return asyncio.run(self.loop())

    async def loop(self) -> int:
        # asyncio.run turns the first Ctrl-C into a cancellation of this task, which a prompt
        # blocked in input() never sees: the player pressed it and nothing happened. Ctrl-C
        # interrupts the prompt as a terminal program's does (play() says goodbye).
        signal.signal(signal.SIGINT, signal.default_int_handler)
        info = self.session()
        narrator = f"narrator {self.model.name}" if self.model else "offline narrator"
        self.console.print(f"{info['name']} · {self.system.name} · {narrator}", style="bold")
        self.console.print(f"session {self.session_id} · {info['turns']} turns so far")
        if info["status"] != "active":
            self.console.print("this session has ended: it is read-only", style="yellow")
        self.console.print("/help lists the commands; /quit or Ctrl-D leaves", style="dim")
        self.show_status()
        # a resumed session whose last turn waits for the player's choice: that first
        line = "/choose" if any(t.status == "awaiting_choice" for t in self.journal()[-1:]) else ""
        while True:
            try:
                if not await self.dispatch(line or self.read("> ")):
                    break
                line = ""
            except EOFError:
                self.console.print()
                break
            except Cancelled as exc:
                self.console.print(str(exc), style="yellow")
                line = exc.line
            except Exception as exc:  # shown, never a traceback: the loop goes on
                self.console.print(error_text(exc))
                line = ""
        self.console.print(f"Bye. Resume with: fateweaver play {self.session_id}")
        return 0

    async def dispatch(self, line: str) -> bool:
        """One line; False to leave."""
        command = parse_line(line)
        if command is None:
            return True
        if command.name in ("quit", "exit", "q"):
            return False
        handler = getattr(self, f"do_{command.name}", None)
        if handler is None:
            raise ParseError(f"unknown command /{command.name}; /help lists them", "command")
        await handler(command)
        return True

    def show_status(self) -> None:
        self.console.print(render_status(self.session()["state"]))

    def source(self, given: dict[str, Any] | None = None) -> dict[str, Any]:
        """Where the next roll's dice come from: given ones, /dice, the session's seed, or none."""
        given = given or {}
        if "dice" in given or "seed" in given:
            return {}
        if self.dice is not None:
            return {"dice": self.dice}
        return {"seed": self.rng.randrange(MAX_SEED)} if self.rng else {}

    # -- turns

    async def after(self, committed: Committed) -> None:
        """Show a committed turn: mechanics, the choice it waits for, narration, status."""
        turn = committed.turn
        if turn.status == "proposed":  # nothing rolled yet: /dice stays for the roll
            await self.proposed(turn)
            return
        self.dice = None
        self.console.print(render_turn(turn))
        if turn.status == "awaiting_choice":
            await self.choose(turn)
            return
        turn = await self.narrate(committed) or turn
        if turn.narration:
            self.console.print(
                render_narration(
                    turn.narration, turn.narrator, turn.narration_status, turn.narrated
                )
            )
        self.show_status()

    async def turn(self, **fields: Any) -> None:
        from service.sessions import turns
        from service.sessions.turn_models import TurnRequest

        with self.dice_spent_or_dropped():
            request = TurnRequest(**fields)
            committed = await turns.take_turn(
                self.database, self.owner, self.session_id, request, self.model
            )
        await self.after(committed)

    @contextlib.contextmanager
    def dice_spent_or_dropped(self) -> Iterator[None]:
        """Dice given by hand (/dice) are for one roll: a roll that failed does not keep them
        queued for every later one (the player hears so, and gives them again)."""
        try:
            yield
        except Exception:
            if self.dice is not None:
                self.dice = None
                self.console.print(
                    "the dice you gave were not used: /dice them again", style="yellow"
                )
            raise

    async def proposed(self, turn: TurnOut) -> None:
        from service.sessions import turns
        from service.sessions.turn_models import AcceptRequest

        assert turn.proposal is not None
        self.console.print(render_proposal(turn.proposal, self.gm_params))
        answer = self.ask("Roll it? [y]es / [o]verride / [n]o: ", ("y", "o", "n"), default="y")
        if answer == "n":
            self.console.print(f"not rolled: turn {turn.number} stays a proposal")
            return
        fields: dict[str, Any] = {}
        if answer == "o":
            fields = parse_override(self.read("override (e.g. move=strike stat=iron): "))
        with self.dice_spent_or_dropped():
            request = AcceptRequest(**fields, **self.source(fields))
            committed = turns.accept(
                self.database, self.owner, self.session_id, turn.number, request, model=self.model
            )
        await self.after(committed)

    async def choose(self, turn: TurnOut) -> None:
        """The choices a turn waits for, as numbered menus; the engine resolves them."""
        from service.sessions import turns
        from service.sessions.turn_models import ChooseRequest

        chosen: dict[str, Any] = {}
        for choice in turn.choices:
            self.console.print(render_choices(choice))
            options = choice["options"]
            pick = self.pick(f"choose 1-{len(options)} (q: later): ", len(options))
            chosen[choice["param"]] = options[pick]["value"]
        args = (self.database, self.owner, self.session_id, turn.number)
        try:
            committed = turns.choose(
                *args, ChooseRequest(choices=chosen, dice=self.dice), model=self.model
            )
        except DiceError as exc:  # the option rolls more dice, and the first ones were given
            if self.dice is not None or exc.message.startswith("too many"):
                raise
            self.console.print(f"this rolls more dice: {exc.message}", style="yellow")
            dice = parse_dice(self.answer("the dice, rolled by hand (e.g. 47): ", LATER))
            committed = turns.choose(
                *args, ChooseRequest(choices=chosen, dice=dice), model=self.model
            )
        await self.after(committed)

    def answer(self, prompt: str, unanswered: str) -> str:
        """The player's answer; a command typed instead leaves the question (and runs)."""
        line = self.read(prompt).strip()
        if line.startswith("/"):
            raise Cancelled(unanswered, line)
        return line

    def ask(self, prompt: str, answers: Collection[str], default: str) -> str:
        """One of the answers (its first letter will do); Enter for the default."""
        while True:
            answer = self.answer(prompt, "not rolled").lower()[:1] or default
            if answer in answers:
                return answer
            self.console.print(f"answer {', '.join(answers)}")

    def pick(self, prompt: str, count: int) -> int:
        """A number of a menu's options, 0-based; q leaves the choice for later."""
        while True:
            answer = self.answer(prompt, LATER).lower()
            if answer == "q":
                raise Cancelled(LATER)
            if answer.isdigit() and 1 <= int(answer) <= count:
                return int(answer) - 1

    async def narrate(self, committed: Committed) -> TurnOut | None:
        """As the route does: the model's narration (streamed here), or the offline one; the
        turn as kept with it (None: nothing to narrate)."""
        from service.sessions import turns

        if committed.narration is None:
            return None
        args = (self.database, self.owner, self.session_id, committed.turn_id)
        told: TurnOut | None = None
        text = ""
        with Live(console=self.console, transient=True, refresh_per_second=8) as live:
            async for event in committed.narration.events(stream=self.model is not None):
                if isinstance(event, turns.Token):
                    text += event.text
                    live.update(render_narration(text, "model", "streaming"))
                elif isinstance(event, turns.Discard):
                    text = ""
                elif isinstance(event, turns.Done):
                    told = turns.record_narration(*args, event.text, event.narrated)
        return told

    # -- commands

    async def do_say(self, command: Command) -> None:
        await self.turn(words=command.text)

    async def do_move(self, command: Command) -> None:
        if not self.system.moves:
            raise ParseError(f"{self.system.id} has no moves: /roll <kind>", "move")
        args = command.args
        if not args:
            self.console.print(Text(", ".join(m.id for m in self.system.moves), style="dim"))
            args = tokens(self.read("move (id, then words): "))
            if not args:
                return
        params, request, words = split_params(args[1:], ROLL_REQUEST_KEYS)
        if not words:
            words = self.read("what do you do? ").strip() or self.system.move(args[0]).name
        await self.turn(words=words, move=args[0], params=params, **request,
                        **self.source(request))  # fmt: skip

    async def do_roll(self, command: Command) -> None:
        if not command.args:
            self.console.print(Text(", ".join(self.system.roll_kinds), style="dim"))
            raise ParseError("/roll <kind> [key=value…] [words]", "kind")
        kind = command.args[0]
        fields = self.system.roll_kind(kind).params.model_fields
        keys = [k for k in ROLL_REQUEST_KEYS if k not in fields]
        params, request, words = split_params(command.args[1:], keys)
        await self.turn(words=words or command.text, kind=kind, params=params, **request,
                        **self.source(request))  # fmt: skip

    async def do_dice(self, command: Command) -> None:
        self.dice = parse_dice(command.text) if command.text else None
        told = ", ".join(map(str, self.dice)) if self.dice else "rolled for you"
        self.console.print(f"next roll's dice: {told}")

    async def do_choose(self, command: Command) -> None:
        waiting = [t for t in self.journal() if t.status == "awaiting_choice"]
        if not waiting:
            raise ParseError("no turn waits for a choice", "choose")
        await self.choose(waiting[-1])

    async def do_undo(self, command: Command) -> None:
        from service.sessions import turns

        turn = self.load(turns.undo(self.database, self.owner, self.session_id))
        self.console.print(f"turn {turn.number} undone: {turn.words}", style="yellow")
        self.show_status()

    async def do_renarrate(self, command: Command) -> None:
        from service.sessions import turns

        if command.args:
            number = parse_count(command.args, 0, 0, "turn")
        else:
            rolled = [t for t in self.journal() if t.status == "resolved" and t.resolution]
            if not rolled:
                raise ParseError("no resolved roll to narrate yet", "turn")
            number = rolled[-1].number
        committed = turns.renarratable(
            self.database, self.owner, self.session_id, number, model=self.model
        )
        turn = await self.narrate(committed) or committed.turn
        self.console.print(f"turn {turn.number}, told again:")
        self.console.print(
            render_narration(turn.narration, turn.narrator, turn.narration_status, turn.narrated)
        )

    async def state_turn(self, kind: str, words: str, op: dict[str, Any]) -> None:
        """A track or clock turn, with the route's words and operation."""
        from service.sessions import turns

        turn = self.load(
            turns.state_turn(self.database, self.owner, self.session_id, kind, words, op)
        )
        self.console.print(render_turn(turn))
        self.show_status()

    async def do_edit(self, command: Command) -> None:
        from service.sessions.turn_models import SheetEditRequest

        args = command.args
        if not args or len(args) % 2:
            raise ParseError(
                "/edit <field> <change>…, e.g. /edit health -2 impacts +wounded", "edit"
            )
        edits = [
            parse_edit(field, change) for field, change in zip(args[::2], args[1::2], strict=True)
        ]
        await self.state_turn(*SheetEditRequest(edits=edits).state_op())

    async def do_rest(self, command: Command) -> None:
        from rules.sheets import rest_kinds
        from service.sessions.turn_models import RestRequest

        kinds = rest_kinds(self.system.sheet) if self.system.sheet else []
        if not command.args:
            for kind in kinds:
                self.console.print(f'  {kind.id}: {kind.name} - "{kind.text}"', style="dim")
            raise ParseError(
                "/rest <kind>" if kinds else f"{self.system.name} has no rests", "rest"
            )
        await self.state_turn(*RestRequest(kind=command.args[0]).state_op())

    async def do_track(self, command: Command) -> None:
        from service.sessions.turn_models import TrackRequest

        body = TrackRequest(**parse_track(command.args, self.ranks))
        await self.state_turn(*body.state_op())

    async def do_progress(self, command: Command) -> None:
        from service.sessions.turn_models import MarkRequest

        if not command.args:
            raise ParseError("/progress <track id> [times]", "track")
        track, body = command.args[0], MarkRequest(times=parse_count(command.args, 1, 1, "times"))
        await self.state_turn(*body.state_op(track))

    async def do_close(self, command: Command) -> None:
        from service.sessions.turn_models import CloseTrackRequest

        if not command.args:
            raise ParseError("/close <track id> [completed|abandoned]", "track")
        track = command.args[0]
        body = CloseTrackRequest.model_validate(
            {"status": command.args[1]} if command.args[1:] else {}
        )
        await self.state_turn(*body.state_op(track))

    async def do_clock(self, command: Command) -> None:
        from service.sessions.turn_models import ClockRequest

        if len(command.args) < 2:
            raise ParseError("/clock <segments> <name>, e.g. /clock 6 The storm breaks", "clock")
        segments = parse_count(command.args, 0, 4, "segments")
        body = ClockRequest.model_validate(
            {"name": " ".join(command.args[1:]), "segments": segments}
        )
        await self.state_turn(*body.state_op())

    async def do_advance(self, command: Command) -> None:
        from service.sessions.turn_models import AdvanceRequest

        if not command.args:
            raise ParseError("/advance <clock id> [by]", "clock")
        clock, body = command.args[0], AdvanceRequest(by=parse_count(command.args, 1, 1, "by"))
        await self.state_turn(*body.state_op(clock))

    async def do_journal(self, command: Command) -> None:
        self.console.print(render_journal(self.journal()))

    async def do_export(self, command: Command) -> None:
        from service.sessions import store
        from service.sessions.db import transaction
        from service.sessions.journal import export_markdown
        from service.sessions.vault import vault_zip

        args = list(command.args)
        fmt = args.pop(0) if args and args[0] in EXPORT_FORMATS else "markdown"
        if len(args) > 1:
            raise ParseError("/export [markdown|iron_vault] [FILE]", "export")
        if fmt == "iron_vault_zip" and not args:
            raise ParseError("/export iron_vault_zip FILE: a zip goes to a file", "file")
        with transaction(self.database, write=False) as db:
            row = store.get_session(db, self.owner, self.session_id)
            journal = list(store.list_turns(db, row))
            text = "" if fmt == "iron_vault_zip" else export_markdown(row, journal, fmt)
            folder = vault_zip(row, journal) if fmt == "iron_vault_zip" else None
        if not args:
            self.console.print(text, markup=False, highlight=False)
            return
        path = Path(args[0]).expanduser()
        try:
            if folder is not None:
                path.write_bytes(folder)
            else:
                path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise ParseError(f"could not write {args[0]}: {exc.strerror or exc}", "file") from None
        self.console.print(f"wrote the journal ({fmt}) to {path}")

    async def do_sheet(self, command: Command) -> None:
        self.console.print_json(data=self.session()["state"]["sheet"])

    async def do_help(self, command: Command) -> None:
        self.console.print(render_help())


# --- starting: a new session or a resumed one ----------------------------------------------------


def owner_for(settings: Settings, key: str | None) -> str:
    """``local`` without API keys; with them, the owner of the key given (``--key``)."""
    from service.sessions.owners import LOCAL_OWNER, owner_id

    if not settings.api_keys:
        return LOCAL_OWNER
    if not key:
        raise ParseError("FATEWEAVER_API_KEYS is set: give your key with --key", "key")
    owner = owner_id(key)
    known = [owner_id(k.get_secret_value()) for k in settings.api_keys]
    if not any([hmac.compare_digest(owner, k) for k in known]):
        raise ParseError("unknown API key", "key")
    return owner


def ask_system(console: Console, read: Read) -> str:
    from rules.registry import all_systems

    systems = [s for s in all_systems() if s.sheet is not None]
    for n, s in enumerate(systems, 1):
        console.print(f"  {n}. {s.name} ({s.id})")
    while True:
        answer = read(f"system (1-{len(systems)}): ").strip()
        if answer.isdigit() and 1 <= int(answer) <= len(systems):
            return systems[int(answer) - 1].id
        if answer in {s.id for s in systems}:
            return answer


def create_session(
    console: Console, read: Read, database: Database, owner: str, system_id: str | None,
    name: str | None, sheet_text: str | None,
) -> str:  # fmt: skip
    """A new session, made as ``POST /v1/sessions`` makes it; what is not given is asked."""
    from rules.registry import get_system
    from service.sessions import store
    from service.sessions.db import transaction
    from service.sessions.schemas import SessionCreate

    system = get_system(system_id or ask_system(console, read))
    given = parse_sheet(sheet_text) if sheet_text else None
    character = name or (given or {}).get("name") or read("your character's name: ").strip()
    while True:
        try:
            sheet = given
            if sheet is None:
                answer = read("the sheet as JSON or a file (Enter: field by field): ").strip()
                sheet = parse_sheet(answer) if answer else ask_sheet(system, character, read)
            sheet = {**sheet, "name": sheet.get("name") or character}
            body = SessionCreate(system=system.id, name=character or system.name, sheet=sheet)
            state = body.initial_state()
            break
        except EOFError:
            raise
        except Exception as exc:
            if given is not None:  # given on the command line: nothing to ask again
                raise
            console.print(error_text(exc))
    with transaction(database) as db:
        row = store.create_session(db, owner, body.system, body.name, state)
        session_id = row.id
    console.print(f"session {session_id} created: {body.name} ({system.name})", style="green")
    return session_id


def play(
    session_id: Annotated[
        str | None, typer.Argument(help="a session to resume; without it, a new one")
    ] = None,
    system: Annotated[str | None, typer.Option(help="a new session's system id")] = None,
    name: Annotated[str | None, typer.Option(help="a new session's character name")] = None,
    sheet: Annotated[
        str | None, typer.Option(help="a new session's character sheet: JSON, or a JSON file")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="seed the rolls (a reproducible session)")
    ] = None,
    key: Annotated[
        str | None, typer.Option(help="your API key, when FATEWEAVER_API_KEYS is set")
    ] = None,
) -> None:
    """Play a solo session in the terminal: a new one, or resume SESSION_ID."""
    from service.narrator.model import build_model
    from service.sessions.db import Database
    from service.settings import get_settings

    console = Console(markup=False, highlight=False)  # the player's words are not markup
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401  (line editing and history for console.input)
    settings = get_settings()
    database = Database(settings)

    def read(prompt: str) -> str:
        return console.input(prompt, markup=False)

    try:
        owner = owner_for(settings, key)
        if session_id is None:
            session_id = create_session(console, read, database, owner, system, name, sheet)
        session = Play(console, read, database, owner, session_id,
                       build_model(settings), seed)  # fmt: skip
    except (EOFError, KeyboardInterrupt):
        console.print("\nno session started")
        raise typer.Exit(1) from None
    except Exception as exc:
        console.print(error_text(exc))
        raise typer.Exit(2) from None
    try:
        code = session.run()
    except KeyboardInterrupt:
        console.print(f"\nBye. Resume with: fateweaver play {session_id}")
        code = 130
    finally:
        database.close()
    raise typer.Exit(code)
