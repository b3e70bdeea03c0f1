"""The narration guard: a cheap, deterministic check of a narration against the engine's record.

A narrator (a language model) is told the outcome; this module checks that what it wrote does not
contradict it. Pure: no I/O, no model, no HTTP; precompiled regular expressions, well under a
millisecond for a paragraph. Four checks, each reporting the words that failed it:

- ``outcome``: the band told the wrong way round. Rulings, from the source texts' own outcome
  sentences ("On a strong hit, you are successful." / "On a weak hit, you succeed, but not
  without a cost." / "On a miss, you fail, or a momentary success is undermined by a dire turn
  of events."):

  * success (strong hit, success, hit, win, ...): flagged for failure language about the player's
    character ("you fail", "you can't find a hold", "your ritual fails", "she beats you"), a
    setback told as the result ("you lose your footing", "too late"), or a weak hit's cost
    ("but not without a cost", "Pay the Price"): a strong hit is success without the cost.
  * mixed (weak hit: "you succeed, but with a cost or lesser effect"): success language is
    fine and so is a cost, a complication or a partial failure ("you fail to notice the second
    guard"); flagged are a *plain* failure ("you have failed", "the ritual fails", "you are
    defeated") and an *explicitly* cost-free triumph ("flawlessly", "without a hitch", "no one
    will ever know"). A weak hit that simply has not reached its cost yet is not flagged: the
    guard runs on prefixes while streaming and never flags what is missing.
  * failure (miss, failure, botch, graze, loss, ...): flagged for success language about the
    player's character ("you succeed", "you manage to", "victory is yours", "the ship is
    yours", "exactly as you planned", "cleanly"). Someone else's success is not the player's
    ("the cutter succeeds in running you down"), and a momentary success is allowed when the
    sentence qualifies it ("for a moment", "it seems", "almost") or a contrast undoes it
    ("..., but", "..., until", or a next sentence opening "But"/"Then").
  * the result told through the other side rather than the character: on a miss, the prize
    coming into the character's hands, the judges calling it for them, the attack landing on
    empty ground, the barrier lifted; on a hit, the other side quicker, getting away, keeping
    on, raising the alarm, or the character's tool snapping.
  * a tie or stalemate ("neither side wins ... the situation stays as it was"): flagged for a
    decisive win or loss.
  * Ironsworn-family band names are checked too ("you score a strong hit" on a miss).

  Elegy's Use Power miss is "mixed", not "failure": "On a miss, you get hungrier and the power is
  activated, but not without consequences." Go Forth's graze is "failure": "If you miss: You
  Graze, dealing your Effort modifier in damage" (the d20 missed; the graze's damage is allowed,
  a clean hit is not).

- ``answer``: an oracle yes told as no, or a no told as yes. The answer words are read as the
  oracle's answer: a sentence opening "Yes"/"No" followed by punctuation ("No one came" is not
  an answer), and explicit forms ("the answer is no", "the oracle says yes", "in the
  negative"). Ruling on the ambiguity: a "Yes" that affirms a negative fact in the same
  sentence ("Yes, it's empty" for a no to "Is anyone there?") is consistent with a no; a "No"
  is always a no ("No, there's no sail out there" for a yes contradicts), since a denial of a
  negative fact is the ordinary way of saying no. Quoted speech is skipped (an NPC's "no").

- ``numbers``: a number the engine did not produce. Counted: a number attached to a game term of
  the system, in digits or words ("lose three momentum", "+2 health", "momentum drops to zero",
  "4 harm"), one in a roll's context ("you rolled a 14", "TN 13"), and any other digits that
  stand as a game number ("+3", "(-2)", "Take 7."). Not counted, as ordinary prose: number words
  not attached to a term ("two sentries", "a dozen ships"), digits counting something that is no
  game term ("3 guards", "40 silver") or naming a place ("Room 4", "Pier 9"), years and other
  numbers above 100, dice notation (d10, 2d6), times and ordinals. Signs are ignored: "-2 health"
  is the engine's delta -2.

- ``player_agency``: the player's character made to speak (quoted speech attributed to "you" or
  to the character's name; indirect "you reply that ...") or to choose, decide, agree, promise or
  feel forced on their behalf. Choices offered ("you may choose", "if you decide", "What do you
  do?") and what happens to the character ("you feel the deck lurch") are fine; so is any other
  character's speech.

- ``changes`` (issue 15, from a real model's narrations): a gain or loss told ("you gain +1
  focus", "momentum +1", "her stamina decreases by 3", "add +1 on your next move") must be one of
  the engine's ``changes``: the same meter, direction and (when told) amount. Both options of a
  "choose one" told as done fail it (the engine records the option taken, or none yet); options
  offered ("... or lose momentum", a list after "choose one"), rules stated ("On a weak hit,
  take +1 momentum"), rates and move names ("Lose Momentum") are not claims. Real requests carry
  the engine's changes; where they are not known (the hand-written sets' format) an oracle or
  table roll has none (``known_changes``), and on an Ironsworn-family miss a gain told is caught
  all the same (no move's miss grants one); otherwise the check is skipped.
- ``names``: another move named as the roll's ("Compel: miss" on a Face Danger) or another stat
  said to be rolled ("+dexterity" on a +glamour roll).
- ``form``: the prompt's tags or headings echoed, or "the player's character" for "you".
- ``player_agency`` also flags the character's emotions ("Kell feels the weight of his vow", a
  sensation such as "you feel the deck lurch" is fine) and acts of will not in the player's
  words ("You make a quick retreat", "causes you to panic").

The player's character is "you" or their name (full or first). In a narration that names them
and never says "you", a "he"/"she" stands for them too, but only where that is unambiguous: in a
sentence opening with the name, or the sentence after one, with no other person mentioned
before it (another name, "the captain", "him") or after it ("she agrees to guide him").

Known blind spots: a contradiction told without any of these words ("He steps aside and bows
her into the club" for a miss); pronouns that may belong to someone else; an oracle answer
given only through the facts ("The harbour is guarded" for a no: the question is not known).
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from prompts import get_prompt
from rules.models import Resolution
from service.narrator.grammar import ROLES, SETTING_NAMES

Polarity = Literal["success", "mixed", "failure", "yes", "no", "neutral"]
CheckId = Literal[
    "outcome", "answer", "numbers", "player_agency", "changes", "names", "form", "quotation"
]
CHECKS: tuple[CheckId, ...] = (
    "outcome", "answer", "numbers", "player_agency", "changes", "names", "form",
)  # fmt: skip

# --- polarity of the engine's outcome strings --------------------------------------------------

_BANDS: dict[str, Polarity] = {"strong_hit": "success", "weak_hit": "mixed", "miss": "failure"}
_ORACLE: dict[str, Polarity] = {"yes": "yes", "no": "no"}
_PASS_FAIL: dict[str, Polarity] = {"success": "success", "failure": "failure"}
_POOL: dict[str, Polarity] = {**_PASS_FAIL, "botch": "failure"}
_CONTEST: dict[str, Polarity] = {"win": "success", "loss": "failure", "tie": "neutral"}

_SUNDERED_BANDED = (
    "action", "progress", "endure_harm", "endure_stress", "companion_takes_a_hit",
    "withstand_damage", "heal", "hearten", "resupply", "repair", "sojourn",
)  # fmt: skip

POLARITIES: dict[str, dict[str, dict[str, Polarity]]] = {
    "sundered_isles": {
        **{kind: _BANDS for kind in _SUNDERED_BANDED},
        "move": {**_BANDS, **_ORACLE, "no_roll": "neutral"},
        "oracle": _ORACLE,
    },
    "elegy": {
        "action": _BANDS,
        "conclusion": _BANDS,
        "ritual": _BANDS,
        "move": _BANDS,
        # "On a miss, you get hungrier and the power is activated, but not without consequences."
        "power": {**_BANDS, "miss": "mixed"},
        "oracle": _ORACLE,
    },
    "go_forth": {
        "check": _PASS_FAIL,
        # "If you miss: You Graze, dealing your Effort modifier in damage"
        "effort": {"hit": "success", "graze": "failure"},
        "contest": _CONTEST,
        # fateweaver's own yes/no oracle (a ruling: the text has none); its answer is the answer
        "oracle": _ORACLE,
    },
    "storyteller": {
        "simple": _POOL,
        "extended": _POOL,
        "teamwork": _POOL,
        "resisted": {**_CONTEST, "botch": "failure"},
        "extended_resisted": {**_CONTEST, "botch": "failure", "continue": "neutral"},
        "oracle": _ORACLE,
    },
    "roll_under": {
        "save": _PASS_FAIL,
        "aid": _PASS_FAIL,
        "interfere": _PASS_FAIL,
        "deed": {
            "spectacular_success": "success",
            "success": "success",
            "failure": "failure",
            "miserable_failure": "failure",
        },
        "opposed": {"actor_wins": "success", "opponent_wins": "failure", "stalemate": "neutral"},
        "oracle": _ORACLE,
    },
}
"""(system, kind) -> outcome -> polarity, for every roll kind whose outcome is a success band or
an answer. Other kinds (tables, expressions, meters, tracks, damage) report facts: neutral."""

# A move whose band reads differently from its roll kind's: (system, move, outcome).
_MOVE_POLARITIES: dict[tuple[str, str, str], Polarity] = {
    ("elegy", "use_power", "miss"): "mixed",
}
DRAWS = frozenset({"tie", "stalemate"})
"""Outcomes where "neither side wins ... the situation stays as it was" (a decisive result
contradicts them)."""


def polarity_of(system: str, kind: str, outcome: str) -> Polarity:
    """The polarity of one of the engine's outcome strings; "neutral" for any it does not know."""
    if system == "storyteller" and kind == "multiple":
        # one outcome per action, comma-separated: all succeed, all fail, or a mix (neutral)
        parts = {_POOL.get(p, "neutral") for p in outcome.split(",")}
        return parts.pop() if len(parts) == 1 else "neutral"
    return POLARITIES.get(system, {}).get(kind, {}).get(outcome, "neutral")


# --- expectation -------------------------------------------------------------------------------


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class ChangeFact(_Frozen):
    """One of the engine's state changes, as the guard reads it."""

    target: str
    delta: int | None = None
    set_to: int | None = None


class Expectation(_Frozen):
    """What a narration must not contradict, derived from the engine's record."""

    system: str
    kind: str | None = Field(None, description="the roll kind, e.g. attack, move, save")
    outcome: str = Field(description="the engine's outcome string, e.g. strong_hit, yes, botch")
    polarity: Polarity
    match: bool | None = Field(None, description="Ironsworn-family match (a twist / extreme)")
    numbers: frozenset[int] = Field(
        default_factory=frozenset,
        description="every number the engine produced or the caller gave (signs ignored)",
    )
    rolled: frozenset[int] = Field(
        default_factory=frozenset,
        description="the dice and the scores rolled: a number told as the roll ('your roll of "
        "1') must be one of them (empty: not known, not checked)",
    )
    character: str | None = Field(None, description="the player's character's name, if known")
    changes: tuple[ChangeFact, ...] | None = Field(
        None,
        description="the engine's state changes; None when not known (the changes check is "
        "then skipped: the labelled sets written by hand hold numbers only)",
    )
    move: str | None = Field(None, description="the name of the move rolled, if any")
    stat: str | None = Field(None, description="the stat rolled, if any")
    other_moves: frozenset[str] = Field(
        default_factory=frozenset,
        description="the system's move names a narration must not name as this roll's (all but "
        "the move rolled and those its outcome text names)",
    )
    other_stats: frozenset[str] = Field(
        default_factory=frozenset, description="the system's stats other than the one rolled"
    )
    action: str | None = Field(None, description="the player's words: acts they chose")
    question: str | None = Field(
        None, description="the oracle's question, if asked: its proposition restated answers it"
    )
    rows: tuple[str, ...] = Field((), description="a table roll's rolled rows")
    other_rows: tuple[str, ...] = Field(
        (),
        description="a table roll's rows not rolled: one told instead of the rolled row is a "
        "contradiction",
    )
    lead: str | None = Field(
        None,
        description="the narration's first sentence, written by code from the outcome "
        "(service/narrator/lead.py): what follows it is the world's response, never the "
        "character's acts",
    )


_DIGITS = re.compile(r"\d+")


def _ints(value: Any) -> Iterator[int]:
    """Every integer in a JSON-like value, including the digits inside its strings."""
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, float):
        if value.is_integer():
            yield int(value)
    elif isinstance(value, str):
        yield from (int(n) for n in _DIGITS.findall(value))
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _ints(v)
    elif isinstance(value, list | tuple | set | frozenset):
        for v in value:
            yield from _ints(v)


def _derived(resolution: Resolution) -> Iterator[int]:
    """Numbers the narration may fairly state though the record holds them only implicitly: how
    many dice were rolled (in all and per role), and a meter's value after a change."""
    if resolution.dice:
        yield len(resolution.dice)
        roles: dict[str, int] = {}
        for die in resolution.dice:
            role = die.role.split(":")[0]
            roles[role] = roles.get(role, 0) + 1
        yield from roles.values()
    for change in resolution.changes:
        if change.delta is None:
            continue
        key = re.split(r"[.:]", change.target)[-1]
        before = resolution.params.get(change.target, resolution.params.get(key))
        if isinstance(before, int) and not isinstance(before, bool):
            yield before + change.delta


@lru_cache(maxsize=8)
def _system_names(system: str) -> tuple[dict[str, str], tuple[str, ...]]:
    """A system's move names by id, and its stats (empty for a system the engine lacks)."""
    from rules.errors import UnknownError
    from rules.registry import get_system

    try:
        game = get_system(system)
    except UnknownError:
        return {}, ()
    return {m.id: m.name for m in game.moves}, tuple(game.stats)


def _rolled(resolution: Resolution) -> tuple[str | None, str | None]:
    """The move's id and the stat rolled, as the engine recorded them."""
    move = resolution.details.get("move") or resolution.params.get("move")
    stat = next(
        (
            v
            for v in (
                resolution.details.get("stat"),
                *(resolution.params.get(k) for k in ("stat", "attribute", "ability")),
            )
            if isinstance(v, str)
        ),
        None,
    )
    return (move if isinstance(move, str) else None), stat


def expectation_from(
    resolution: Resolution,
    *,
    character: str | None = None,
    extra_numbers: Iterable[int] = (),
    action: str | None = None,
    question: str | None = None,
) -> Expectation:
    """The expectation for a resolution: its outcome's polarity and every number it holds (dice,
    scores, deltas, set_to values, notes, parameters, details, outcome text, table row ranges;
    not the seed), plus ``extra_numbers`` the caller gave the narrator."""
    polarity = polarity_of(resolution.system, resolution.kind, resolution.outcome)
    move = resolution.details.get("move")
    if isinstance(move, str):
        polarity = _MOVE_POLARITIES.get((resolution.system, move, resolution.outcome), polarity)
    if resolution.kind == "table" and (resolution.text or "").strip().lower() in _ORACLE:
        polarity = _ORACLE[(resolution.text or "").strip().lower()]  # a yes/no table's row
    found: set[int] = set(extra_numbers)
    found.update(d.value for d in resolution.dice)
    found.update(_ints(resolution.scores))
    for change in resolution.changes:
        found.update(_ints([change.delta, change.set_to, change.note]))
    found.update(
        _ints([resolution.outcome, resolution.text, resolution.params, resolution.details])
    )
    found.update(_derived(resolution))
    moves, stats = _system_names(resolution.system)
    move_id, stat = _rolled(resolution)
    said = " ".join(
        [resolution.text or "", str(resolution.details.get("name") or "")]
        + [c.note or "" for c in resolution.changes]
    ).lower()
    move_name = moves.get(move_id or "")
    return Expectation(
        system=resolution.system,
        kind=resolution.kind,
        outcome=resolution.outcome,
        polarity=polarity,
        match=resolution.match,
        numbers=frozenset(abs(n) for n in found),
        rolled=frozenset(d.value for d in resolution.dice) | frozenset(_ints(resolution.scores)),
        character=character,
        changes=tuple(
            ChangeFact(target=c.target, delta=c.delta, set_to=c.set_to) for c in resolution.changes
        ),
        move=move_name,
        stat=stat if stat in stats else None,
        # the moves the rule's own outcome text names ("Pay the Price") are the roll's too
        other_moves=frozenset(
            n for n in moves.values() if n != move_name and n.lower() not in said
        ),
        other_stats=frozenset(s for s in stats if s != stat) if stat in stats else frozenset(),
        action=action,
        question=question,
        **_table_rows(resolution),
    )


def _table_rows(resolution: Resolution) -> dict[str, tuple[str, ...]]:
    """A table roll's rows: those it rolled and the others (none for any other roll)."""
    from rules.catalog import load_tables

    table_id = resolution.details.get("table") or resolution.params.get("table")
    if resolution.kind != "table" or not isinstance(table_id, str):
        return {}
    table = load_tables(resolution.system).get(table_id)
    results = resolution.details.get("results")
    rolled = tuple(r for r in results if isinstance(r, str)) if isinstance(results, list) else ()
    if table is None or not rolled:
        return {}
    others = tuple(dict.fromkeys(r.text for r in table.rows if r.text not in rolled))
    return {"rows": rolled, "other_rows": others}


# --- report ------------------------------------------------------------------------------------


class GuardCheck(_Frozen):
    id: CheckId
    passed: bool
    reason: str | None = Field(
        None, description="what failed, naming the offending words; used in the retry prompt"
    )


class GuardReport(_Frozen):
    passed: bool
    checks: list[GuardCheck]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def failed(self) -> list[str]:
        """The ids of the checks that failed."""
        return [c.id for c in self.checks if not c.passed]

    def reason(self) -> str:
        """Every failure's reason, joined: for the retry prompt and the response."""
        return "; ".join(c.reason or c.id for c in self.checks if not c.passed)


# --- text preparation --------------------------------------------------------------------------

_NORMALISE = str.maketrans(
    {"’": "'", "‘": "'", "ʼ": "'", "“": '"', "”": '"', "„": '"', "–": "—", "−": "-", "\u00a0": " "}
)
# Quoted speech: double quotes, or single quotes opening before a capital (not apostrophes).
# An unclosed quotation (a prefix cut mid-speech) runs to the end.
# (an apostrophe inside single-quoted speech is no end of it: "'I don't know what to do.'")
_QUOTED = re.compile(r'"[^"]*(?:"|$)|(?<![\w])\'(?=[A-Z])(?:[^\']|\'(?=[a-z]))*?(?:\'(?![a-z])|$)')
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+|\n\s*\n")


# A bare answer on a line of its own ("Yes\nOdds asked: unlikely") ends its sentence there: a
# real model wrote it so, and collapsing the line break hid it behind the next line's words.
_BARE_ANSWER_LINE = re.compile(r"(?im)^([^\w\n]*(?:yes|no|yeah|nope|aye|nay))[ \t]*$")


_LINE_END = re.compile(r"[.!?…:;,\"')\]—-]$")


def _prepare(text: str) -> str:
    """The text on one line, each of its lines read as a sentence of its own ("Yes" over
    "Odds asked: unlikely" is two statements, not one)."""
    text = _BARE_ANSWER_LINE.sub(r"\1.", text)
    lines = [" ".join(line.split()) for line in text.translate(_NORMALISE).splitlines()]
    lines = [line for line in lines if line]
    return " ".join(
        line if i == len(lines) - 1 or _LINE_END.search(line) else f"{line}."
        for i, line in enumerate(lines)
    )


def _unquoted(text: str) -> str:
    """The text with quoted speech blanked out (kept as a marker, so sentences stay sentences)."""
    return _QUOTED.sub(' "…" ', text)


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def _excerpt(text: str, start: int, end: int) -> str:
    return text[start:end].strip(" ,;:")


# --- shared lexicon ----------------------------------------------------------------------------

# (and the one who would do it denied: "no one notices you" after going unseen)
_NEGATION = re.compile(
    r"(?:\b(?:not|never|no longer|hardly|fails? to|failed to|no one|no-one|nobody|not a soul|"
    r"none of them)|n't)\s+(?:\w+\s+)?$"
    # ... or refused: "The harbourmaster's refusal to let you dock without a cost" (run 31)
    r"|\brefus\w* to (?:\w+\s+){0,4}$"
)
_HYPOTHETICAL = re.compile(
    r"\b(?:if|unless|whether|should|would|could|might|may|will|can|must|shall|lest|what|"
    r"whatever|however|how|why|try|tries|trying|attempt|attempts|hope|hopes|hoping|want|wants|"
    r"wish|wishes|need|needs|as if|as though|before)\b[^,;:—]*$|'ll\b[^,;:—]*$"
)
_CONDITIONAL = re.compile(r"(?:\"…\"\s*)?(?:if|unless|should you|were you|whether|once you)\b")
_QUALIFIED = re.compile(
    r"\b(?:for an? (?:moment|heartbeat|second|breath|instant|while|beat|time)|"
    r"for one (?:\w+ )?(?:moment|heartbeat|second|breath|instant)|momentar(?:y|ily)|briefly|"
    r"at first|it seems|seem(?:s|ed)? to|it looks like|looks like|appear(?:s|ed)? to|"
    r"you think|you thought|almost|nearly|halfway|partway|part of the way|only to)\b"
)
_CONTRAST_AFTER = re.compile(
    r"\b(?:but|yet|though|although|however|until|only to|except|straight into|right into|"
    r"too late)\b"
)
_CONTRAST_OPENING = re.compile(
    r"^(?:\"…\"\s*)?(?:but|yet|however|then|until|except|only|instead|unfortunately|sadly|"
    r"alas|too late|and then|a moment later|an instant later)\b",
    re.I,
)


@dataclass(frozen=True)
class _Hit:
    sentence: int
    start: int
    end: int
    words: str


@dataclass(frozen=True)
class _Text:
    """The narration's sentences (lower-cased, quoted speech blanked), one to a line in
    ``joined``, so that each family of patterns scans the text once."""

    sentences: list[str]
    joined: str
    starts: list[int]
    cased: list[str]  # the same sentences, case kept (to tell names from words)

    @classmethod
    def of(cls, prepared: str) -> _Text:
        cased = _sentences(_unquoted(prepared))
        sentences = [s.lower() for s in cased]
        starts, at = [], 0
        for sentence in sentences:
            starts.append(at)
            at += len(sentence) + 1
        return cls(sentences, "\n".join(sentences), starts, cased)


# --- the player's character ----------------------------------------------------------------------


def _names(character: str | None) -> str:
    """The character's name as a pattern: the full name and its first word ("Kara Voss", "Kara")."""
    if not character or not character.strip():
        return "you"
    full = character.strip().lower()
    return "|".join(re.escape(n) for n in dict.fromkeys([full, full.split()[0]]))


_PERSON_NOUN = re.compile(
    r"\b(?:man|woman|men|women|boy|girl|child|children|captain|guard|guards|sentry|sentries|"
    r"clerk|porter|doorman|keeper|merchant|priest|priestess|soldier|sailor|pirate|smuggler|"
    r"hunter|ghoul|vampire|stranger|officer|bandit|master|mistress|lord|lady|king|queen|prince|"
    r"princess|witch|knight|orc|ogre|troll|elder|friend|enemy|foe|crew|mate|bosun|quartermaster|"
    r"governor|harbou?rmaster|blacksmith|innkeeper|thief|assassin|cultist|monk|brother|sister|"
    r"mother|father|son|daughter|husband|wife|seneschal|servant|landlord|bartender|stranger|"
    r"informant|contact|fence|boss|leader|chief|partner|ally|companion|rival|him|them)\b"
)
_PRONOUN = re.compile(r"\b(he|she)\b")
_OPENS_WITH = r"^(?:\"…\"\s*)?(?:then\s+|and\s+)?(?:{n})\b"


def _pronoun_subjects(text: _Text, character: str | None) -> list[int]:
    """Where "he" or "she" stands for the player's character, in a narration that names them
    and never says "you": in a sentence opening with the name ("Brannoc heaves, and he ...") or
    in the next one ("Oda studies the frost. She loses the trail."), as long as no one else is
    mentioned in between (another name, "the captain", "him"). One pronoun only: a narration
    using both "he" and "she" that way is ambiguous and gets none."""
    if not character or not character.strip() or re.search(r"\byou\b", text.joined):
        return []
    opens = re.compile(_OPENS_WITH.format(n=_names(character)))
    name = re.compile(rf"\b(?:{_names(character)})\b")
    found: list[tuple[int, str]] = []
    for i, sentence in enumerate(text.sentences):
        if opens.match(sentence):
            head, since = sentence, name.search(sentence)
            start = since.end() if since else 0
        elif i and opens.match(text.sentences[i - 1]):
            prev = text.sentences[i - 1]
            m = name.search(prev)
            if _someone_else(prev[m.end() if m else 0 :], text.cased[i - 1], character):
                continue
            head, start = sentence, 0
        else:
            continue
        for p in _PRONOUN.finditer(head, start):
            if _someone_else(head[start : p.start()], text.cased[i], character):
                break
            other = r"\b(?:him|them|her)\b" if p.group() == "he" else r"\b(?:him|them|his)\b"
            if re.search(other, head[p.end() :]):
                break  # "she agrees to guide him": two people, and which is which is unknown
            found.append((text.starts[i] + p.start(), p.group()))
    genders = {g for _, g in found}
    return [at for at, _ in found] if len(genders) == 1 else []


_CAPITALISED = re.compile(r"(?<!^)(?<![.!?]\s)\b[A-Z][\w']*")


def _nearest_is_character(text: _Text, character: str | None) -> list[int]:
    """Where "he" or "she" follows a mention of the character with no other person mentioned
    in between ("The Tremere's gaze bores into Rosa and she decides ..."): the nearest person
    before the pronoun in its sentence. Used for acts of will and speech,
    which only a person does; in a narration that says "you", the character is "you". Within
    the sentence only: across a full stop the character is as often the one spoken to ("The
    harbourmaster grins at Kara. ... he says")."""
    if not character or not character.strip() or re.search(r"\byou\b", text.joined):
        return []
    name = re.compile(rf"\b(?:{_names(character)})\b")
    own = set(character.lower().split())
    found: list[int] = []
    for i, sentence in enumerate(text.sentences):
        for p in _PRONOUN.finditer(sentence):
            cased, end = text.cased[i], p.start()
            # (position, whether it is the character) of each person mentioned before it
            mentions = [(m.start(), True) for m in name.finditer(sentence, 0, end)]
            mentions += [(m.start(), False) for m in _PERSON_NOUN.finditer(sentence, 0, end)]
            mentions += [(m.start(), False) for m in _PRONOUN.finditer(sentence, 0, end)]
            mentions += [
                (m.start(), False)
                for m in _CAPITALISED.finditer(cased, 0, end)
                if m.group().lower().removesuffix("'s") not in own and m.group() != "I"
            ]
            if mentions and max(mentions)[1]:
                found.append(text.starts[i] + p.start())
    return found


def _someone_else(span: str, cased: str, character: str) -> bool:
    """Whether a stretch of a sentence mentions another person: a person noun, "him", "them", or
    a capitalised word (other than the first and the character's name)."""
    if _PERSON_NOUN.search(span):
        return True
    own = set(character.lower().split())
    words = re.findall(r"[A-Za-z][\w']*", cased)[1:]
    lowered = {w.lower().removesuffix("'s") for w in words if w[0].isupper() and w != "I"}
    return bool((lowered - own) & set(re.findall(r"[a-z][\w']*", span.replace("'s", ""))))


_WORDISH = re.compile(r"[\w']")


def _clause_before(sentence: str, start: int) -> str:
    """The text of the clause (or sentence) before position ``start``."""
    head = sentence[:start]
    cut = max(head.rfind(c) for c in ",;:—(.!?")
    return head[cut + 1 :]


def _clause_around(text: str, start: int, end: int, marks: str = ",;:—(.!?") -> str:
    """The whole clause (or sentence) that holds ``text[start:end]``, cut at ``marks``."""
    head = text[:start]
    cut = max(head.rfind(c) for c in marks)
    stops = [i for i in (text.find(c, end) for c in marks) if i >= 0]
    return text[cut + 1 : min(stops, default=len(text))]


def _matches(
    family: _Family, text: _Text, subjects: list[int], owners: list[int]
) -> Iterator[re.Match[str]]:
    joined = text.joined
    for p in family.subject:
        yield from (m for at in subjects if (m := p.match(joined, at)))
    for p in family.owner:
        yield from (m for at in owners if (m := p.match(joined, at)))
    for p, triggers in family.anywhere:
        if triggers is not None and not any(t in joined for t in triggers):
            continue
        for m in p.finditer(joined):
            if not (m.start() and _WORDISH.match(joined, m.start() - 1)):  # the dropped \b
                yield m


def _find(matches: Iterable[re.Match[str]], text: _Text) -> list[_Hit]:
    """Claims in the text, skipping questions, negated and hypothetical ones ("if you fail",
    "you could win", "you don't succeed"): a claim inside a question is not a claim."""
    hits = []
    for m in matches:
        i = bisect_right(text.starts, m.start()) - 1
        sentence = text.sentences[i]
        start = m.start() - text.starts[i]
        end = min(m.end() - text.starts[i], len(sentence))
        if sentence.rstrip('"… ').endswith("?"):
            continue
        if _NEGATION.search(sentence[:start]) or _HYPOTHETICAL.search(
            _clause_before(sentence, start)
        ):
            continue
        if _CONDITIONAL.match(sentence):
            continue  # "If you succeed, the harbour is yours": the consequence is hypothetical
        hits.append(_Hit(i, start, end, _excerpt(sentence, start, end)))
    return hits


def _undone(hit: _Hit, sentences: list[str]) -> bool:
    """A claim the narration itself qualifies or turns around: "for a moment you succeed",
    "you make it halfway", "you reach the ledge, but it crumbles", or a next sentence "But ..."."""
    sentence = sentences[hit.sentence]
    if _QUALIFIED.search(sentence):
        return True
    rest = sentence[hit.end :]
    if (m := _CONTRAST_AFTER.search(rest)) and len(re.findall(r"\w+", rest[m.end() :])) >= 2:
        return True  # ("..., but he" cut off by the token limit undoes nothing)
    nxt = hit.sentence + 1
    return nxt < len(sentences) and bool(_CONTRAST_OPENING.search(sentences[nxt]))


# --- outcome -----------------------------------------------------------------------------------

# after the subject: "you succeed", "you've failed", "Kara has managed"
_HAVE = r"(?:'ve|'d)?\s+(?:(?:have|has|had)\s+)?"
_ADV = r"(?:(?:just|finally|actually|really|somehow|still|simply|utterly|completely|at last)\s+)?"
_PC = r"(?:you|{c})"  # the player's character as subject: "you" or the name
_PCS = r"(?:your|(?:{c})'s)"  # ... as owner


@dataclass(frozen=True)
class _Family:
    """Phrases of one kind, compiled: those opening with the player's character as subject
    ("you fail") or owner ("your ritual fails") are tried only where that word stands, the
    others are searched for, each only when one of its leading words is in the text. (A leading
    \\b defeats the regex engine's literal-prefix search and costs ~10x: it is dropped and
    checked on each match instead, in _matches.)"""

    subject: tuple[re.Pattern[str], ...]
    owner: tuple[re.Pattern[str], ...]
    anywhere: tuple[tuple[re.Pattern[str], tuple[str, ...] | None], ...]  # with its triggers


def _branches(pattern: str) -> list[str]:
    """The top-level alternatives of a pattern."""
    out, depth, start, i = [], 0, 0, 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
        i += 1
    out.append(pattern[start:])
    return out


def _group_end(pattern: str) -> int:
    """The index of the parenthesis closing the group that opens the pattern."""
    depth = 0
    for i, c in enumerate(pattern):
        depth += (c == "(") - (c == ")")
        if depth == 0:
            return i
    return len(pattern) - 1


_LEADING_WORD = re.compile(r"[a-z' ]+")


def _triggers(pattern: str) -> tuple[str, ...] | None:
    """Literal text one of which any match must contain (its leading words), or None when the
    pattern does not open with literal words. A cheap substring test then skips the search."""
    words: list[str] = []
    for branch in _branches(pattern):
        branch = branch.removeprefix("\\b")
        if branch.startswith("(?:") and branch.endswith(")") and not branch.startswith("(?:\\"):
            inner = branch[3:-1]
            if _branches(inner) == [inner] and inner.count("(") == inner.count(")"):
                branch = inner
        if branch.startswith("(?:"):
            end = _group_end(branch)
            if branch[end + 1 : end + 2] in ("?", "*"):
                return None  # an optional group: what follows it is not known to be there
            sub = _triggers(branch[3:end])
            if sub is None:
                return None
            words.extend(sub)
            continue
        m = _LEADING_WORD.match(branch)
        if not m or len(m.group().strip()) < 2:
            return None
        word = m.group()
        if branch[m.end() : m.end() + 1] in ("?", "*"):
            word = word[:-1]  # "finds?": the last letter is optional
        if len(word.strip()) < 2:
            return None
        words.append(word.strip() if word.strip() == word.rstrip() else word.rstrip())
    return tuple(words)


@dataclass(frozen=True)
class _Lexicon:
    """The families of claims the outcome check looks for, and the subject and owner words
    ("you", "Kara"; "your", "Kara's") where most of their phrases begin."""

    success: _Family
    triumph: _Family  # a success that denies any cost
    failure: _Family  # a plain failure
    partial: _Family  # a failure a weak hit may contain as its cost
    setback: _Family  # what only a strong hit cannot contain
    cost: _Family  # a weak hit's cost
    event_success: _Family  # a success told through events alone (weaker: see _check_outcome)
    event_harm: _Family  # a setback told through events alone (likewise)
    win: _Family  # decisive results, for draws
    loss: _Family
    subject: re.Pattern[str]
    owner: re.Pattern[str]


_LOST_CONTEST = (
    rf"\b{_PC}{_HAVE}(?:lose|loses|lost) (?:the |this |that )?(?:fight|contest|bout|duel|race|"
    r"match|exchange|battle|struggle|argument|trail|scent|wager|game|quarry|prey|chance)\b"
)
# "you lose." and "you lose because you both have the same amount of gold" (a tie, run 16)
_YOU_LOSE = (
    rf"\b{_PC} (?:lose|loses|lost)(?:\s*[.!;]|,? (?:because|since|as|when|out|in the end|this "
    r"(?:time|round|one)|after all)\b)"
)
_DEFEATED = (
    rf"\b{_PC}(?: are| were|'re| is| was| get| gets| got) (?:\w+ly )?(?:defeated|beaten|bested|"
    r"overpowered|outmatched|outfought|routed|thwarted|foiled)\b"
)
_BEATS_YOU = (
    r"\b(?:beats|beat|defeats|defeated|bests|bested|overpowers|overpowered|outmatches|"
    r"outwits|outwitted|gets the better of|got the better of) (?:you|{c})\b"
)
_YOU_BEAT = (
    rf"\b{_PC}{_HAVE}{_ADV}(?:beat|beats|defeat(?:s|ed)?|best(?:s|ed)?|overpower(?:s|ed)?|"
    r"overwhelm(?:s|ed)?|outwit(?:s|ted)?|outfight(?:s)?|outfought|outmanoeuvre[sd]?|"
    r"outmaneuver(?:s|ed)?|outrun(?:s)?|outran|outpace[sd]?) (?:him|her|them|it|the|his|their)\b"
)
_VICTORY = (
    r"\bvictory is (?:yours|ours|\w+'s)\b",
    r"\b(?:claim|claims|claimed|seize|seizes|seized) (?:the |your )?victory\b",
)
# The result told through the other side rather than the character (issue 15, held-out misses):
# the obstacle or opponent gives way, or the prize comes into the character's hands ("the purse
# drops back into her hand", "he sags into your arms", "the judges call it for you", "the
# goblin's net falls on empty ground", "the barrier lifts"). Told on a miss, that is a success.
_THEY_YIELD = (
    r"\b(?:drops?|dropped|falls?|fell|sags?|sagged|slumps?|slumped|slides?|slid|lands?|landed|"
    r"settles?|settled|tumbles?|tumbled|comes?|came) (?:back |right |neatly |limply |safely )?"
    r"into (?:your|(?:{c})'s|her|his) (?:arms|hands?|grip|grasp|palm|lap)\b",
    r"\b(?:calls?|called|rules?|ruled|declares?|declared|awards?|awarded) (?:it|the "
    r"(?:match|contest|bout|race|prize|day|victory|win)) (?:for|to) (?:you|{c})\b",
    # an attack landing where the character no longer is ("the net falls on empty ground")
    r"\b(?:empty|bare) (?:ground|floor|deck|sand|stone)\b",
    r"\btumblers (?:fall|click|turn|give)\b",
    r"\block (?:\w+ )?(?:springs?|sprang|clicks?|clicked|pops?|popped) open\b",
    r"\b(?:lifts?|lifted|raises?|raised|unbars?|unbarred) the (?:barrier|portcullis)\b",
    r"\baside (?:to let|and lets?) (?:you|{c}|her|him)\b",
    r"\b(?:ushers?|ushered|bows?|bowed) (?:her|him) (?:in|inside|through|into)\b",
    r"\b(?:waves?|waved) (?:you|{c}|her|him) (?:in|inside|through|past|aboard|on)\b",
    rf"\b{_PC}{_HAVE}{_ADV}(?:picks?|picked|cracks?|cracked|forces?|forced) the lock\b",
    rf"\b{_PC}\b[^.;:!?\n]{{0,60}}?\band (?:then )?slip(?:s|ped)? (?:inside|in|through|aboard)\b",
)
# ... and the other side prevailing on a hit: it gets away, keeps coming, or is first.
_THEY_PREVAIL = (
    r"\b(?:he|she|they|it|the [a-z\-]+) (?:\w+ )?(?:makes off|made off|gets away|got away|"
    r"is out the door|was out the door|is gone|was gone|presses on|(?:keeps|kept) coming(?=\s*(?:[.,;!]|$|and\b))|"
    r"shrugs (?:it|the blow) off|shrugged (?:it|the blow) off)\b",
    r"\b(?:twists?|twisted|wrenches?|wrenched|wriggles?|wriggled|tears?|tore|pulls?|pulled|"
    r"squirms?|squirmed) (?:free of|out of|loose from|away from) (?:your|(?:{c})'s) "
    r"(?:grip|grasp|hands?|hold|arms)\b",
    # "... is out the door before you can shout" (not a sentence's opening "Before you can knock")
    r"\bbefore(?<=[\w,] before) (?:you|{c}) (?:can|could)\b",
    # the blow avoided on a hit ("The bandit ... dodged your blow and continued on his way")
    r"\b(?:dodges?|dodged|evades?|evaded|sidesteps?|sidestepped|ducks?|ducked|avoids?|avoided|"
    r"slips?|slipped) (?:under |past )?(?:your|(?:{c})'s) (?:\w+ )?(?:blow|strike|attack|swing|"
    r"thrust|shot|arrow|bolt|axe|blade|sword|cutlass|spear|punch|lunge|grab|cut|slash)\b",
    r"\b(?:raises?|raised|sounds?|sounded) the alarm\b",
    r"\bthe alarm (?:sounds|rings|goes up|is raised|wails|sounded|rang|went up|was raised)\b",
    r"\ba bell (?:clangs|rings|tolls)\b",
    # the character seen, or their own hold giving way, on a hit
    r"\b(?:spots?|spotted|notices?|noticed) (?:you|{c})\b"
    r"|\bsees? through (?:your|(?:{c})'s|her|his) (?:glamour|disguise|lie|bluff|ruse|trick|act)\b",
    rf"\b(?:{_PCS}) (?:hands?|fingers|foot|feet|grip|footing|hold) (?:slips?|slipped|slipping|"
    r"gives? way|gave way|giving way|fails?|failed|failing)\b",
    r"\b(?:shuts?|slams?|slammed) the door (?:on|in) (?:you|your|(?:{c})'s|{c})\b",
    r"\bbut (?:it|the \w+|your \w+(?: \w+)?) (?:snaps|breaks|shatters|splinters|gives way)\b",
)

_SUCCESS = (
    rf"\b{_PC}{_HAVE}{_ADV}(?:succeed(?:s|ed)?|prevail(?:s|ed)?|triumph(?:s|ed)?|win|wins|won)\b",
    rf"\b{_PC}(?: are| were|'re| is| was) (?:\w+ )?successful\b",
    rf"\b{_PC}{_HAVE}{_ADV}(?:manage[sd]?|managing) to\b",
    # a second verb of the character's: "You struggle to maintain the mooring lines but finally
    # manage it" (run 13, on a miss)
    rf"\b{_PC}\b[^.;:!?\n]{{0,60}}?\b(?:but|and) (?:finally |eventually |at last |somehow )?"
    r"(?:manage[sd]?|succeed(?:s|ed)?) (?:it|to)\b",
    rf"\b{_PC}{_HAVE}{_ADV}(?:pull(?:s|ed)?) (?:it|this|that) off\b",
    rf"\b{_PC}{_HAVE}{_ADV}(?:make|makes|made) it\b"
    r"(?! (?:worse|harder|look|sound|seem|clear|known|impossible|easy|difficult|hard))",
    rf"\b{_PC}{_HAVE}{_ADV}(?:did|done) it\b",
    rf"\b{_PC}{_HAVE}{_ADV}(?:escape[sd]?|get away|gets away|got away|break free|breaks free|"
    r"broke free|shake (?:him|her|them) off|lose (?:him|her|them)|lost (?:him|her|them))\b"
    r"(?! with (?:your|his|her|their) li(?:fe|ves))",
    rf"\b{_PC}(?:'re|'ve|'d)?(?: [\w']+){{0,8}} (?:unseen|unnoticed|undetected|unchallenged|unopposed)\b",
    # "you go up the fire escape and get away": a second verb of the same subject
    rf"\b{_PC}\b(?:(?!\b(?:he|she|they|who|which|it)\b)[^.;:!?\n]){{1,60}}?\band (?:then )?"
    r"(?:escape|get away|break free|succeed|prevail|win|pull it off|make it)\b"
    r"(?! worse| harder| with (?:your|his|her|their) li(?:fe|ves))",
    rf"\b{_PC}{_HAVE}{_ADV}(?:solve[sd]?|crack(?:s|ed)?) (?:it|this|that|the \w+)\b",
    _YOU_BEAT,
    rf"\b(?:{_PCS}) (?:plan|ruse|bluff|gambit|gamble|feint|trick|lie|disguise|deed|ritual|rite|"
    r"spell|power|charm|glamour|attempt|effort|aim|shot|blow|strike|swing|thrust|punch|kick|"
    r"fist|blade|sword|axe|hammer|spear|cutlass|arrow|bolt|bullet) (?:\w+ )?(?:works|worked|"
    r"succeeds|succeeded|pays off|paid off|lands|landed|connects|connected|hits home|"
    r"finds its mark|found its mark|strikes true|struck true)\b",
    r"\b(?:it|this|that|the (?:plan|ruse|bluff|ritual|rite|spell|trick|gambit|gamble|deed|"
    r"power|lie|disguise|feint|charm|hex|ward|curse|working|glamour|magic)) (?:works|worked|"
    r"succeeds|succeeded|pays off|paid off|takes hold|took hold|takes effect|took effect)\b",
    r"\b(?:goes|went|going) (?:exactly |perfectly )?(?:according )?to plan\b|\blike clockwork\b",
    r"\b(?:is|are|was|were) no match for (?:you|{c})\b",
    *_VICTORY,
    r"\b(?:the|this) (?!choice|decision|call|move|turn|answer|question|life|risk)[a-z]+ "
    r"(?:is|are) (?:now |all )?yours\b",
    r"\b(?:finds?|found|hits?) (?:its|their|the|your) mark\b",
    r"\bstrikes? true\b|\bstruck true\b",
    r"\b(?:clean|direct|solid|perfect|telling) (?:hit|blow|strike|shot|escape|"
    r"getaway|landing|run|throw|win|kill)\b",
    r"\bbull'?s-?eye\b",
    r"^(?:\"…\"\s*)?(?:success|victory|triumph)\s*[!.:—,]",
    r"\b(?:complete|total|resounding|perfect|flawless|stunning|spectacular|"
    r"phenomenal|unqualified|outright|clear) (?:success|victory|triumph)\b",
    r"\b(?:exactly|just|precisely) as (?:you|\w+|the \w+(?: \w+)?) (?:planned|intended|hoped|"
    r"promised|wanted|expected|foretold|predicted)\b|\bas planned\b",
    r"\b(?:exactly|just|precisely) what (?:you|{c}) (?:need|needed|wanted|came for|hoped for)\b",
    r"\b(?:yields?|yielded|gives? way|gave way|surrenders?|surrendered) to (?:you|your|{c})\b",
    r"\b(?:gives?|gave) (?:way )?under (?:your|(?:{c})'s) (?:grip|hands?|weight|blade|pick|shoulder)\b",
    r"\b(?:crisis|disaster|catastrophe|danger|tragedy) (?:is |was )?(?:averted|avoided)\b",
    r"\b(?:waves?|waved|ushers?|ushered|bows?|bowed) (?:you|{c}) (?:in|inside|through|past|on|"
    r"aboard|across)\b",
    rf"\b{_PC}'re (?:in|inside|through|across|over|free|clear|away)\s*(?:[.!]|$|\n)",
    rf"\b(?:{_PCS}) (?:crew|men|friends|allies|companions|gang|coterie|party|side) "
    r"(?:cheers?|cheered|roars?|roared|whoops?|whooped|erupts?|erupted)\b",
    r"\bharmlessly\b|\bmiss(?:es)? (?:you|{c}) (?:entirely|completely|by a mile)\b",
    r"\bnone the wiser\b|\bwithout a second (?:thought|glance|look)\b|\bsuspects? nothing\b"
    r"|\bnever (?:suspects?|suspecting|suspected)\b",
    rf"\b{_PC}(?:'re|'ve|'d)?(?: [\w']+){{0,8}} (?:safely|safe and sound|in one piece)\b",
    rf"\b{_PC}\b[^.;:!?\n]{{0,60}}?\b(?:send|sends|sent) (?:him|her|them|it) (?:sprawling|flying|"
    r"reeling|tumbling|crashing)\b",
    r"\b(?:throws?|threw) down (?:their|his|her|its) (?:weapons?|arms|swords?|blades?)\b"
    r"|\bsurrenders? to (?:you|{c})\b",
    rf"\b(?:{_PCS}|the) (?:vow|quest|promise|oath|elegy|mission|task|job|work) (?:is |was |has "
    r"been |stands |now )?(?:fulfilled|complete|completed|kept|done|accomplished|achieved)\b",
    *_THEY_YIELD,
    rf"\b{_PC}{_HAVE}{_ADV}(?:finds?|found|pins?|pinned|seizes?|seized|catches|caught|grabs?|"
    r"grabbed|snatches|snatched|subdues?|subdued|disarms?|disarmed|retrieves?|retrieved|"
    r"recovers?|recovered|wrests?|wrested|claims?|claimed|secures?|secured|wins? back|won back) "
    r"(?:the|his|her|its|their)\b"
    r"(?![^.\n]*\b(?:locked|barred|sealed|empty|bare|gone|missing|already|"
    r"too late|nothing|no one|nobody|ruined|broken|burned|burnt)\b)"
    # "you find the body" (too late) is no prize; "the map from his body" is
    r"(?!\s+(?:\w+\s+)?(?:dead|body|corpse|remains)\b)",
)
_TRIUMPH = (
    r"\bflawless(?:ly)?\b",
    r"\bwithout (?:a|any|the slightest|the least) (?:hitch|hiccup|scratch|setback|problem|"
    r"snag|cost|complication|struggle|fuss|consequence)s?\b",
    r"\bnot (?:a|one|so much as a) (?:single )?(?:scratch|hitch|bruise|mark|hair out of place)\b",
    r"\b(?:goes|went|runs|ran) smoothly\b|\bas smoothly as\b",
    r"\beffortless(?:ly)?\b",
    r"\bwith (?:ease|(?:\w+ ){0,2}to spare)\b",
    r"\bcleanly\b",
    r"\bunscathed\b",
    r"\bno one (?:will )?ever (?:know|knows|notice|notices)\b",
    r"\bnothing goes wrong\b",
    r"\bunconditionally\b",
    rf"\b{_PC}\b[^.;:!?\n]{{0,80}}?\b(?:unhurt|unharmed|uninjured|untouched)\b",
    r"\bnone the worse\b",
    r"\b(?:with no|at no) (?:cost|consequences?|price)\b",
    r"\b(?:asks?|asking|asked|wants?|wanted|demands?|demanded) (?:for )?nothing in return\b"
    r"|\bno strings attached\b|\beverything goes (?:your way|to plan|right|smoothly)\b",
    rf"\b{_PC}(?:'re|'ve|'d)?(?: \w+){{0,4}} (?:easily|handily)\b",
)
_FAILURE = (
    rf"\b{_PC}{_HAVE}{_ADV}fail(?:s|ed)?\b(?! to\b)",
    rf"\b{_PC} (?:do not|does not|did not|don't|doesn't|didn't|never|cannot|can't|couldn't|"
    r"could not) (?:quite )?(?:succeed|make it|win|manage|pull it off)\b",
    _LOST_CONTEST,
    _YOU_LOSE,
    _DEFEATED,
    rf"\b(?:{_PCS}) (?:attempt|effort|plan|gambit|bluff|ruse|trick|spell|ritual|rite|power|shot|"
    r"blow|strike|swing|lunge|attack|aim|search|investigation|argument|plea|lie|disguise|deed|"
    r"leap|jump|climb|gamble|feint|charm|glamour|magic|arrow|bolt|bullet|punch|kick|thrust|"
    r"grab|throw|tackle) (?:\w+ )?(?:fails|failed|falls short|fell short|goes wide|went wide|"
    r"misses|missed|comes to nothing|came to nothing|is in vain|was in vain|is wasted|"
    r"backfires|backfired|fizzles|fizzled|glances off|goes astray|went astray)\b",
    r"\bthe (?:attempt|plan|gambit|bluff|ruse|trick|spell|ritual|rite|power|deed|charm|"
    r"glamour|magic|sorcery|working) (?:\w+ )?(?:fails|failed|comes to nothing|came to nothing|"
    r"backfires|backfired|fizzles|fizzled)\b",
    r"\b(?:it|this|that) (?:doesn't|does not|didn't|did not|won't|will not) work\b",
    # "The blood flows through your veins, but it's not enough to stop the hound" (an Elegy power
    # activated on a miss, run 20)
    r"\b(?:it's|it is|it was|that's|that is|isn't|wasn't|is|was) not (?:quite )?enough to (?:stop|"
    r"still|halt|hold|save|break|open|free|calm|quell|subdue|drive|keep)\b",
    # the other side's refusal told as the result ("you try to convince the harbourmaster, but they
    # refuse" on a Compel weak hit: "On a weak hit, as above, but their agreement comes with a
    # demand or complication")
    r"\b(?:he|she|they|the [a-z]+) (?:flatly |simply |politely |coldly )?(?:refuses?|refused|"
    r"declines?|declined|turns? you down|turned you down|says? no|said no)\s*(?:[.!;,]|$)",
    r"\bnothing (?:happens|works|answers)\b",
    r"\bto no avail\b|\bin vain\b|\bwithout success\b|\bno luck\b|\ball for nothing\b",
    r"\bnothing to show for\b|\bcomes? up empty\b|\bcame up empty\b",
    # leaving with nothing ("you cast off empty"): led by the rare word, the verb looked behind
    r"empty\b(?:(?<= off empty)|(?<=away empty)|(?<=left empty)|(?<=leave empty)|"
    r"(?<=aves empty)|(?<=sail empty)|(?<=ails empty)|(?<=iled empty)|(?<=turn empty)|"
    r"(?<=urns empty)|(?<=rned empty)|(?<=home empty)|(?<=back empty)|(?<=went empty)|"
    r"(?<=goes empty))",
    r"\bas (?:far (?:away )?|distant )as ever\b|\bno closer to\b|\bback where (?:you|{c}) started\b",
    rf"\b{_PC}{_HAVE}{_ADV}(?:give up|gives up|gave up|admit defeat|admits defeat|admitted defeat|"
    r"abandon the attempt|abandons the attempt|abandoned the attempt)\b(?! on\b)",
    r"\b(?:and|then) give up\b(?! on\b)",  # "you strain at it, then give up"
    rf"\b{_PC} (?:fall|falls|fell) short\b",
    r"\bnothing (?:you|{c}) (?:can|could) do\b",
    r"\bis beyond (?:you|{c}|him|her|(?:your|his|her) (?:skill|strength|reach|power|ability))\b",
    r"^(?:\"…\"\s*)?(?:failure|a failure|no luck|defeat|botch|a botch|miss)\s*[!.:—,]",
    r"\b(?:complete|total|utter|abject|miserable|dismal|humiliating) "
    r"(?:failure|defeat|fiasco|disaster)\b",
    rf"\b{_PC}{_HAVE}botch(?:es|ed)?\b|\b(?:a|the|your) botch\b|\bbotched\b",
    rf"\b{_PC}{_HAVE}miss(?:es|ed)?\b(?! (?:nothing|a thing|home|the point|out))",
    _BEATS_YOU,
    r"\btoo (?:strong|much|fast|quick|clever|heavy) for (?:you|{c})\b",
)
_PARTIAL = (
    r"\b(?:escapes|escaped|eludes|eluded) (?:you|{c})\b",
    r"\b(?:won't|will not|doesn't|does not|didn't|did not|refuses to|refused to) "
    r"(?:budge|give way|yield|open|be (?:swayed|moved|convinced|persuaded))\b"
    r"|\bstays? (?:shut|closed|locked|sealed)\b",
    r"\bdespite (?:all )?(?:your|(?:{c})'s) (?:best )?efforts?\b",
    r"\bempty-handed\b",  # a weak hit's cost may be the thing carried ("across, and empty-handed")
    r"\bnothing but (?:empty )?air\b|\b(?:close|closes|closed) on (?:empty air|nothing)\b",
    r"\b(?:slips?|slipped|slides?|slid) (?:through|from|out of) (?:your|(?:{c})'s) "
    r"(?:fingers|grasp|grip|hands?)\b|\bjust out of reach\b",
    rf"\b{_PC}{_HAVE}{_ADV}fail(?:s|ed)? to\b",
    rf"\b{_PC}(?: are| were|'re| is| was) (?:\w+ )?(?:unable|powerless) to\b",
    rf"\b{_PC} (?:can't|cannot|can not|couldn't|could not) (?:quite |even )?(?:find|reach|get|"
    r"open|break|budge|move|stop|escape|free|catch|lift|climb|follow|decipher|read|understand|"
    r"resist|save|shake|pull|hold|keep|force|convince|persuade|make|pick|track|spot|land|"
    r"hit|crack|solve|outrun|win)\b",
)
_STRONGER = (
    r"\b(?:he|she|they|it|his \w+|her \w+|their \w+|its \w+|the [a-z\-]+) (?:is|are|was|were|"
    r"proves?|proved) "
    r"(?:\w+ )?(?:stronger|faster|quicker|too strong|too fast|too quick|too much)\b"
)
_THEY_WIN = (  # someone else wins; not "the actor wins" (the player's side, in the engine's words)
    r"\b(?:he|she|they|it|the (?!actor|player|party|hero|characters?\b)[a-z\-]+(?: [a-z\-]+)?) "
    r"(?:wins|won|prevails|prevailed|triumphs)\b"
)
_SETBACK = (
    _STRONGER,
    _THEY_WIN,
    *_THEY_PREVAIL,
    rf"\b{_PC}(?: are| were|'re| is| was| get| gets| got)(?: \w+ly)? (?:caught(?! up)|spotted|"
    r"seen(?! as| to)|discovered|captured|knocked (?:down|back|off|flat))\b",
    rf"\b{_PC}\b[^.;:!?]*?,\s*(?:beaten|defeated|bested)\s*[.!]",
    rf"\b{_PC}{_HAVE}(?:lose|loses|lost) (?:your|his|her|their) (?!pursuers?|tail|shadow)[a-z]+\b",
    rf"\b{_PC} (?:tumble|tumbles|tumbled|plunge|plunges|plunged) (?:\w+ )?(?:into|down|off|"
    r"from|over)\b",
    rf"\b{_PC} (?:fall|falls|fell|tumble|tumbles|tumbled|go|goes|went|are thrown|is thrown|"
    r"were thrown|was thrown) overboard\b",
    rf"\b{_PC} (?:fall|falls|fell) (?:off|from|down|over (?:the|an?) (?:edge|side|rail|brink)|"
    r"into (?!step|line|place))",
    rf"\b{_PC}\b[^.;:!?\n]{{0,40}}?\b(?:lose|loses|lost|losing) consciousness\b"
    rf"|\b{_PC} (?:black|blacks|blacked|pass|passes|passed) out\b",
    rf"\b{_PC} (?:fumble|fumbles|fumbled)\b",
    rf"\b{_PC}\b[^.;:!?]*?,? (?<!a moment )too late\b",
)
_COST = (
    r"\bnot without (?:a |some |its )?(?:cost|price|consequences?|trouble|difficulty|"
    r"complications?|risk|a hitch)\b",
    r"\b(?:a|one|some) (?:fitting |small |hidden |heavy )?cost\b(?! (?:of|to) (?:them|him|her))",
    r"\bat a (?:\w+ )?(?:cost|price)\b",
    rf"\b(?:{_PC}|but you) (?:must )?(?:pay|pays|paid) (?:a|the|dearly)\b",
    r"\bpay the price\b",
    r"\bcosts? you dearly\b|\bcost you dearly\b",
    r"\b(?:it|this|that|the \w+) costs? (?:you|{c})\b(?! nothing)",
    r"\b(?:make|makes|made) a suffer move\b",
)
# An outcome told through events alone (the blind set's misses: "you spot the rotten plank just
# in time and step over it, landing softly", "the sealed door grinds open", "the shots go high").
# Weaker evidence than the families above: each counts only when the narration carries nothing
# of the other side (see _check_outcome), so "the first arrow goes wide; the second takes you in
# the thigh" on a miss, or "he parries your first cut; your second opens his arm" on a strong
# hit, are not flagged. Kinds, not instances: the character unseen, the deed done with ease or in
# time, a way opening, a blow that misses them; and, on the other side, the character seen,
# struck, turned back or forced to retreat.
# a clean hit told for a miss or a graze: "The arrow flies straight into the wolf's eye" (run 12,
# Go Forth's "If you miss: You Graze, dealing your Effort modifier in damage": a graze is no
# clean hit, though it harms)
_CLEAN_HIT = re.compile(
    r"\b(?:arrows?|bolts?|shots?|bullets?|blades?|axe|sword|spear|dagger|knife|blow|fist)\b"
    r"[^.;:!?\n]{0,30}?\b(?:(?:straight|squarely|right|deep|cleanly) (?:into|through)\b|"
    # "The arrow goes through the wolf's body, causing it to fall down and die" (run 26)
    r"(?:goes|went|passes|passed|flies|flew|drives|drove|sinks|sank|punches|punched) through "
    r"(?:the |its |his |her |their )?(?:[\w-]+'s )?(?:body|heart|chest|skull|throat|neck|eye|"
    r"head|belly|side)\b)"
)
_EVENT_SUCCESS = (
    _CLEAN_HIT.pattern,
    # the other side giving way: "The orc's eyes widen, and he retreats into his shadow" on a lost
    # arm-wrestle (run 12)
    r"\b(?:he|she|it|they|the [a-z]+)\b(?: [a-z]+){0,2}? (?:retreats|retreated|backs away|"
    r"backed away|backs off|backed off|flees|fled|yields|yielded|surrenders|surrendered|gives "
    r"ground|gave ground|gives up|gave up)\b",
    # the one persuaded giving way (run 10, a miss at sweet-talking the quartermaster into
    # letting you go: "The quartermaster hesitates, then nods reluctantly.")
    r"\b(?:nods|nodded) (?:reluctantly|slowly|grudgingly|once|at last|finally)\b|"
    r"\b(?:relents|relented|concedes|conceded|gives in|gave in)\b|"
    r"\b(?:agrees|agreed) to (?:let|help|show|take|give|your)\b",
    r"\b(?:never|doesn't|don't|didn't|does not|do not|did not|without) (?:once |even )?"
    r"(?:glances?|glancing|glanced|looks?|looking|looked|turns?|turning|turned) (?:your|(?:{c})'s)"
    r" way\b",
    r"\b(?:never|doesn't|don't|didn't|does not|do not|did not|without) (?:once |even )?"
    r"(?:notices?|noticing|noticed|sees?|seeing|saw|hears?|hearing|heard|spots?|spotting|"
    r"spotted|suspects?|suspecting|suspected) (?:you|{c})\b",
    r"\b(?:no one|nobody|none of them|not one of them|not a soul) (?:\w+ )?(?:notices|sees|"
    r"hears|stirs|looks up|looks your way|turns|wakes|suspects|noticed|saw|heard|stirred|woke)\b",
    r"\bwithout (?:trouble|difficulty|effort|incident|a sound|a struggle|resistance|opposition|"
    r"challenge|being (?:seen|noticed|heard|spotted|challenged))\b",
    rf"\b{_PC}\b[^.;:!?\n]{{0,60}}?\b(?:just in time|in the nick of time|with (?:a |an )?"
    r"(?:moment|heartbeat|second|breath|instant|inch|inches)(?:s)? to spare)\b",
    r"\b(?:landing|lands?|landed) (?:softly|lightly|safely|neatly|silently|nimbly|"
    r"on (?:your|(?:{c})'s|her|his) feet)\b",
    r"\b(?:door|doors|gate|gates|hatch|lid|portcullis|grate|grille|shutters?|vault|chest|"
    r"drawer|trapdoor|cell) (?:\w+ ){0,2}(?:grinds?|ground|swings?|swung|creaks?|creaked|"
    r"slides?|slid|springs?|sprang|clicks?|clicked|pops?|popped|yawns?|yawned|eases?|eased|"
    r"groans?|groaned) (?:open|wide)\b(?!,? revealing (?:a |an |the )?(?:\w+ of )?(?:\w+ )?"
    r"(?:guards?|soldiers?|men|women|figures?|orcs?|bandits?|enem\w+|creatures?|people|crew|"
    r"priests?|cultists?|pirates?)\b)|"
    # (thrown open on guards is a danger, not the lock picked: run 12's, run 20's)
    # "You hear a loud bang as the door opens, and you find a dead body inside" on a failed
    # lock-pick (run 16)
    r"\b(?:door|doors|gate|gates|hatch|lid|portcullis|grate|grille|vault|chest|drawer|"
    r"trapdoor|cell|lock) (?:\w+ )?(?:opens|opened|unlocks|unlocked|gives way|gave way)\b",
    # ... or broken through: "You hear a loud bang as the door shatters, sending debris flying
    # everywhere" on a failed pick (run 23)
    # ... or opening on what lies beyond: "The rusted hatch creaks loudly, revealing a narrow
    # passageway" on a miss at forcing it (run 25)
    r"\b(?:door|doors|gate|gates|hatch|lid|grate|grille|trapdoor|portcullis)\b[^.;:!?]{0,30}?, "
    r"revealing (?:a |an |the )?(?:\w+ ){0,2}(?:passage\w*|room|chamber|corridor|tunnel|stair\w*|"
    r"way|vault|interior|cellar|hold|opening)\b",
    r"\b(?:door|doors|gate|gates|hatch|lid|grate|grille|trapdoor) (?:\w+ )?(?:shatters|"
    r"shattered|splinters|splintered|bursts apart|burst apart|breaks apart|broke apart|caves in|"
    r"caved in|crumbles|crumbled)\b",
    # (not "the door flies open, revealing a group of guards" on the same miss, run 12: thrown
    # open from the other side)
    r"\b(?:come|comes|came|coming) up on (?:your|(?:{c})'s|her|his) feet\b",
    r"\b(?:rolls?|rolled|rolling|topples?|toppled|toppling|tips?|tipped|tipping|grinds?|"
    r"ground|grinding) aside\b",
    r"\b(?:wide|light|room|space) enough (?:to|for)\b",
    rf"\b{_PC}\b[^.;:!?\n]{{0,40}}?\b(?:stop|stops|stopped|halt|halts|halted|hold|holds|held) "
    r"(?:it|him|her|them|the [a-z]+) (?:cold|dead|short|fast|in (?:its|his|her|their) tracks)\b",
    r"\b(?:shots?|bullets?|arrows?|bolts?|blows?|swings?|blades?|fists?|punch(?:es)?|spears?|"
    r"stones?|rocks?|darts?|volley) (?:\w+ )?(?:go|goes|went|fly|flies|flew|pass|passes|"
    r"passed|whistle|whistles|whistled|sail|sails|sailed|glance|glances|glanced|skitter|"
    r"skitters) (?:high|wide|harmlessly|over (?:your|(?:{c})'s) head|past (?:you|{c})|"
    r"off (?:your|(?:{c})'s) (?:armou?r|shield|helm|mail))\b",
    rf"\b{_PC}\b[^.;:!?\n]{{0,40}}?\b(?:heave|heaves|heaved|shove|shoves|shoved|wrench|"
    r"wrenches|wrenched|haul|hauls|hauled|lever|levers|levered) (?:it|him|her|them|the [a-z]+) "
    r"(?:aside|clear|free|open|loose|out of the way)\b",
)
_EVENT_HARM = (
    # the character trapped, or the one they hide from or follow aware of them (run 9: "the
    # portcullis slams shut behind you, trapping you"; "The ghoul, sensing your presence")
    r"\btrap(?:s|ped|ping)? (?:you|{c})\b|\b(?:you|{c}) (?:are|were|is|was) (?:now )?trapped\b|"
    # "you find yourself trapped between the mast and the rigging" on a strong hit (stop 24's
    # prompt trials)
    r"\b(?:find|finds|found) (?:yourself|{c}|himself|herself) (?:\w+ )?(?:trapped|cornered|"
    # ("As the world around them begins to change, they find themselves caught in a web of
    # secrets and deception" on a hack done well, runs 40 and 48)
    r"surrounded|stuck|pinned|outnumbered|caught (?:up )?in|ensnared|entangled)\b|"
    r"\b(?:sens|notic|spott|detect)\w* (?:your|(?:{c})'s) presence\b|"
    # "The ghoul, now aware of your presence, decides to retreat" on a shadowing success (run 25)
    r"\b(?:aware|conscious|wary) of (?:your|(?:{c})'s) (?:presence|approach)\b|"
    # "your presence is noticed by a group of security guards" on a hack (run 26)
    r"\b(?:your|(?:{c})'s) presence (?:is|was|has been) (?:\w+ )?(?:noticed|detected|sensed|"
    r"spotted|discovered|felt)\b|"
    r"\b(?:aware|conscious) of (?:you|{c})\b|"
    r"\beyes (?:follow|follows|followed|track|tracks|tracked|lock onto|find|found) (?:you|{c}|your|"
    r"(?:{c})'s)\b",
    r"\b(?:sees?|saw|spots?|spotted|notices?|noticed|recogni[sz](?:es|ed|e)) (?:you|{c})\b",
    # turned on: "The ghoul turns around and stares at you" on a shadowing success, "The rival
    # Kindred raises a dark, menacing shadow over you" on a won stare-down (run 11)
    r"\b(?:turns?|turned)(?: (?:its|his|her|their) (?:head|gaze|eyes|face))? (?:towards?|to|on) "
    r"(?:you|{c})\b|"
    # harm told in the passive: "You are suddenly attacked by the ghoul, and you are wounded in your
    # chest" on a shadowing success (run 14)
    r"\b(?:you|{c})(?: are| is| were| was| get| gets| got|'re) (?:\w+ )?(?:attacked|wounded|"
    r"injured|hurt|stabbed|bitten|struck|caught|spotted|seen|noticed|captured|grabbed|seized|"
    r"ambushed|watched|followed|observed|hunted)\b"
    r"(?! as\b)|"  # (not "you are seen as a hero")
    # the other side unharmed and at you: "The bandit lunges at you" on a hit, "He lunges forward,
    # aiming for your head" on a spectacular strike (run 13)
    r"\blunges?\b[^.;:!?\n]{0,20}?\b(?:at|toward|towards) (?:you|{c})\b|"
    # ... and coming at you: "The rival Kindred snarls and charges at you" on a won stare-down
    # (stop 24's prompt trials)
    r"\b(?:charges?|charged|rushes?|rushed|springs?|sprang|leaps?|leapt|comes?|came|flies|flew"
    r"|swings?|swung|strikes?|struck|attacks?|attacked) (?:\w+ )?(?:at|for) (?:you|{c})\b|"
    r"\b(?:attacks?|attacked|assaults?|assaulted|ambush(?:es|ed)?) (?:you|{c})\b|"
    r"\baiming (?:for|at) (?:you|your|{c})\b|"
    # the other side ready to hurt you: "The rival Kindred grins at you, ready to strike" (run 9),
    # "The bandit chief jumps back in surprise and draws his sword, ready to strike" (run 12)
    r"\b(?:ready|poised|about|preparing) to (?:strike|attack|pounce|lunge|charge|fire|shoot)\b|"
    r"\b(?:turns?|turned|spins?|spun|whirls?|whirled|wheels?|wheeled)(?: around| round| back)?,? "
    r"(?:and )?(?:stares?|stared|looks?|looked|glares?|glared|peers?|peered) (?:\w+ )?at "
    r"(?:you|{c})\b|\b(?:looms?|loomed|towers?|towered) over (?:you|{c})\b|"
    r"\bmenac\w*[^.;:!?\n]{0,40}?\b(?:over|at|toward|towards) (?:you|{c})\b|"
    # the other side arming itself: "The bandit chief, startled by the sudden attack, raises his
    # sword and draws his weapon" on a spectacular strike (run 15), "jumps to his feet and grabs a
    # nearby weapon" (run 13)
    r"\b(?:draws?|drew|drawing|raises?|raised|raising|grabs?|grabbed|grabbing|brandish(?:es|ed|"
    r"ing)?|read(?:ies|ied|ying)|unsheathes?|unsheathed|snatch(?:es|ed)|pulls? out|pulled out) "
    r"(?:his|her|its|their|a|an) (?:\w+ )?(?:sword|weapon|blade|axe|knife|dagger|bow|pistol|gun|"
    r"rifle|spear|club|cutlass|saber|sabre|mace|hammer|claws|fangs)s?\b|"
    r"\b(?:jumps?|jumped|leaps?|leapt|springs?|sprang|scrambles?|scrambled) to (?:his|her|its|"
    r"their) feet\b",
    r"\b(?:turns?|turned|knocks?|knocked|beats?|beat|bats?|batted|slaps?|slapped|sweeps?|swept|"
    r"parries|parried|blocks?|blocked|deflects?|deflected) (?:your|(?:{c})'s) (?:\w+ )?"
    r"(?:blade|sword|cutlass|knife|dagger|axe|spear|club|staff|hammer|thrust|cut|lunge|"
    r"strike|blow|swing|attack|punch|fist|shot|aim) (?:aside|away|wide|down)\b",
    r"\b(?:opens?|opened|cuts?|slashes|slashed|carves?|carved|rakes?|raked|gashes|gashed|"
    r"scores?|scored|bites?|bit) (?:a (?:line|gash|cut|furrow|wound) )?(?:across |into |along )?"
    r"(?:your|(?:{c})'s) (?:arm|forearm|shoulder|side|thigh|leg|cheek|face|chest|hand|ribs|"
    r"back|brow|scalp)\b",
    r"\b(?:takes?|took|catches|caught|hits?|strikes?|struck) (?:you|{c}) (?:in|on|across) the "
    r"(?:arm|forearm|shoulder|side|thigh|leg|cheek|face|chest|hand|ribs|back|gut|head|jaw)\b",
    rf"\b{_PC}\b[^.;:!?\n]{{0,30}}?\b(?:have to|has to|had to|must|are forced to|is forced to|"
    r"were forced to|was forced to) (?:double back|retreat|fall back|turn back|flee|run|"
    r"withdraw|give ground|back away|abandon)\b",
    rf"\b{_PC} (?:stagger|staggers|staggered|reel|reels|reeled|are thrown|is thrown|were thrown|"
    r"was thrown|go down|goes down|went down|crash|crashes|crashed) (?:back|backward|backwards|"
    r"to (?:your|her|his) knees|into|against|down)\b",
    # the character driven back or down ("driving you down onto one knee")
    r"\b(?:fingers|hands?|grip|foot|feet|footing) (?:\w+ ){0,3}?(?:slip|slips|slipped|slipping) "
    r"(?:away|off|free|from)\b|\bthey slip away from the\b",
    r"\b(?:pushes|pushed|pushing|drives?|driving|drove|sends?|sending|sent|forces?|forcing|forced|knocks?|knocking|"
    r"knocked|throws?|throwing|threw|bears?|bearing|bore|hurls?|hurling|hurled) (?:you|{c}) "
    r"(?:down|back|to the|to (?:your|her|his)|onto|sprawling|stumbling|reeling|flying|"
    r"staggering)\b",
    # someone ready for the character ("three armed guards are waiting")
    r"\b(?:are|is|was|were|stand|stands|stood|sit|sits|sat) (?:already |still )?(?:waiting|"
    r"lying in wait|ready for (?:you|{c}))\b|\bwaiting for (?:you|{c})\b",
    r"\bblood (?:runs|running|ran|wells|welling|welled|streams|streaming|streamed|trickles|"
    r"trickling) (?:down|from|over) (?:your|(?:{c})'s)\b",
)
# who sees a thing so: "he realizes that the ...", "she sees his ..."
_SEES_THAT = r"\b(?:realiz|realis|admit|see|sees|saw|understand)\w* (?:that )?(?:the |his |her |their |its )?"
_WIN = (
    rf"\b{_PC}{_HAVE}{_ADV}(?:win|wins|won|prevail(?:s|ed)?|triumph(?:s|ed)?)\b",
    _YOU_BEAT,
    *_VICTORY,
    # the other side giving way, on a draw: "You haggle with the dwarf over the price, but
    # neither side wins out. The dwarf finally gives up and leaves the negotiation." (stop 24's
    # prompt trials)
    r"\b(?:he|she|they|it|the [a-z\-]+(?: [a-z\-]+)?) (?:\w+ly )?(?:gives? up|gave up|"
    r"backs? down|backed down|relents?|relented|concedes?|conceded|yields?|yielded|gives? in|"
    r"gave in|caves?|caved|agrees?|agreed|accepts? your|storms? off|walks? away from the "
    r"(?:deal|table|negotiation)|leaves? the (?:deal|table|negotiation))\b",
    # ... or seeing its own price too high, or lowering it: "The dwarf's eyes widen as he
    # realizes that the price is too high" on a tied haggle (run 28)
    rf"{_SEES_THAT}(?:asking )?(?:price|offer|demand|terms)s? (?:is |are |was |were )?(?:\w+ )?too "
    r"(?:high|much|steep|great)\b|\b(?:lowers?|lowered|drops?|dropped|cuts?|reduces?|reduced|"
    r"halves|halved) (?:his|her|their|its|the) (?:asking )?(?:price|offer|demand)\b|"
    # ... or the goods haggled over too dear: "The chandler's eyes widen as he realizes the lamp
    # oil is too expensive" (the thirty-fourth words)
    rf"{_SEES_THAT}(?:[a-z\-]+ ){{1,3}}(?:is |are |was |were )(?:\w+ )?too (?:expensive|costly|"
    r"dear|pricey)\b",
)
# driven off: "The alchemist, now visibly frustrated and angry, pushes you away with a wave of his
# wand" on a tied haggle (third words' run 1)
_DRIVEN_OFF = (
    rf"\b(?:pushes|pushed|shoves|shoved|drives|drove|sends|sent|chases|chased|throws|threw|kicks|"
    rf"kicked|orders|ordered) {_PC} (?:away|off|out)\b"
)
_LOSS = (
    _DRIVEN_OFF,
    _LOST_CONTEST,
    _YOU_LOSE,
    _DEFEATED,
    _BEATS_YOU,
    _STRONGER,
    _THEY_WIN,
)


@lru_cache(maxsize=64)
def _lexicon(character: str | None) -> _Lexicon:
    """The patterns with the character's name as a subject ("Kara fails"), compiled once."""
    name = _names(character)

    def compile_(patterns: tuple[str, ...]) -> _Family:
        groups: dict[str, list[re.Pattern[str]]] = {"subject": [], "owner": [], "anywhere": []}
        for p in patterns:
            group = (
                "subject" if p.startswith(rf"\b{_PC}") else
                "owner" if p.startswith(rf"\b(?:{_PCS})") else
                "anywhere"
            )  # fmt: skip
            who = f"{name}|he|she" if group == "subject" else name  # see _pronoun_subjects
            compiled = re.compile(p.replace("{c}", who).removeprefix("\\b"), re.M)
            groups[group].append(compiled)
        anywhere = tuple((p, _triggers(p.pattern)) for p in groups["anywhere"])
        return _Family(tuple(groups["subject"]), tuple(groups["owner"]), anywhere)

    return _Lexicon(
        success=compile_(_SUCCESS),
        triumph=compile_(_TRIUMPH),
        failure=compile_(_FAILURE),
        partial=compile_(_PARTIAL),
        setback=compile_(_SETBACK),
        cost=compile_(_COST),
        event_success=compile_(_EVENT_SUCCESS),
        event_harm=compile_(_EVENT_HARM),
        win=compile_(_WIN),
        loss=compile_(_LOSS),
        subject=re.compile(rf"\b{_PC}\b".replace("{c}", name)),
        owner=re.compile(rf"\b{_PCS}(?=\s)".replace("{c}", name)),
    )


_BAND_NAME = re.compile(
    r"\b(?:(as|on|with|for|each)\s+)?(?:a|an|your|the|another) (strong|weak) hit\b"
    # (a list of bands, "a strong hit or weak hit", "a strong hit and a weak hit", is the rule's
    # wording; "You score a strong hit and take +7 momentum!" on a miss is not)
    r"(?!\s*(?:or|result|outcome|option|table|column)s?\b|\s*and\s+(?:an?\s+|the\s+)?"
    r"(?:strong|weak|miss))"
)
_BAND_MISS = re.compile(
    r"\b(?:score|scored|roll|rolled|get|got|it's|it is|that's|that is) a miss\b"
    r"|(?:^|[:—(]\s*)miss\s*(?:[.!:—)]|$)"
)
# "Strong hit!" / "Outcome: weak hit" (a label, not the rule's own "on a strong hit")
_BAND_LABEL = re.compile(r"(?:^|[:—(]\s*)(strong|weak) hit\b")
_IRONSWORN = frozenset({"sundered_isles", "elegy"})
_BANDS_NAMED = frozenset({"strong_hit", "weak_hit", "miss"})


# Another system's bands told as this roll's: "a strong hit occurs" on a Storyteller success, "3
# damage as a Graze" on a Go Forth hit ("If you miss: You Graze"; a hit is no graze).
_FOREIGN_BAND = re.compile(r"\b(?:a|an|the|your) (?:strong|weak) hit\b|\bstrong hit\b(?=\s*[.!:—])")
_GRAZE_TOLD = re.compile(r"\b(?:as|is|was|for|a|an|the|your) graze\b|\byou graze\b")


def _band_mentions(expect: Expectation, sentences: list[str]) -> list[str]:
    """Ironsworn-family band names that are not the outcome ("you score a strong hit" on a miss);
    a rule's own conditional wording ("on a strong hit", "resolve it as a strong hit") is not.
    Elsewhere, the Ironsworn bands themselves, and a graze told on a Go Forth hit."""
    if expect.system not in _IRONSWORN and expect.polarity in ("success", "mixed", "failure"):
        found = [
            _excerpt(sentence, m.start(), m.end())
            for sentence in sentences
            for m in _FOREIGN_BAND.finditer(sentence)
            if not re.search(r"\b(?:on|if)\s+$", sentence[: m.start()])
        ]
        if expect.system == "go_forth" and expect.outcome == "hit":
            found += [
                _excerpt(sentence, m.start(), m.end())
                for sentence in sentences
                for m in _GRAZE_TOLD.finditer(sentence)
            ]
        return found
    if expect.system not in _IRONSWORN or expect.outcome not in _BANDS_NAMED:
        return []
    found = []
    for sentence in sentences:
        for m in _BAND_NAME.finditer(sentence):
            if m.group(1) is None and f"{m.group(2)}_hit" != expect.outcome:
                found.append(_excerpt(sentence, m.start(), m.end()))
        for m in _BAND_LABEL.finditer(sentence):
            if f"{m.group(1)}_hit" != expect.outcome:
                found.append(_excerpt(sentence, m.start(), m.end()))
        if expect.outcome != "miss":
            found.extend(
                _excerpt(sentence, m.start(), m.end()) for m in _BAND_MISS.finditer(sentence)
            )
    return found


def _quote_words(hits: Iterable[_Hit] | Iterable[str]) -> str:
    words: list[str] = []
    for h in hits:
        w = h.words if isinstance(h, _Hit) else h
        if w not in words:
            words.append(w)
    return ", ".join(f"'{w}'" for w in words[:3])


def _outcome_label(expect: Expectation) -> str:
    words = expect.outcome.replace("_", " ")
    return f"an {words}" if words[:1] in "aeiou" else f"a {words}"


# "If you miss: You Graze, dealing your Effort modifier in damage": the foe left untouched
# ("It cackles, entirely unhurt") is no graze. The character unhurt is not what it is about.
_UNHURT = re.compile(
    r"\b(?:unhurt|unharmed|untouched|unscathed|unmarked|without a scratch)\b|"
    r"\b(?:is|was|are|were) not (?:hit|touched|hurt|harmed|wounded|scratched)\b|"
    r"\b(?:isn't|wasn't|aren't|weren't) (?:hit|touched|hurt|harmed|wounded|scratched)\b|"
    # "The arrow flies high but misses the wolf entirely" (a real model's graze, run 9)
    r"\b(?:miss|misses|missed|missing) (?:the |its |their |his |her )?(?:\w+ )?(?:entirely|"
    r"completely|cleanly|altogether|by a mile)\b|"
    # the shot or blow spent on something else: "The arrow flies off the bow and hits a tree",
    # "The arrow misses the wolf's eyes and flies straight into the ground" (stop 24's prompt
    # trials)
    r"\b(?:arrows?|bolts?|shots?|bullets?|spears?|stones?|darts?|blows?|swings?|axe|blades?)\b"
    r"[^.;:!?\n]{0,60}?\b(?:into|hits?|hit|strikes?|struck|thuds? into|lodges? in|buries itself "
    r"in) (?:the|a|an) (?:\w+ )?(?:ground|tree|trunk|dirt|mud|wall|floor|earth|post|dust|"
    r"water|sand|rock)\b|"
    # ... or on a shield: "The bandit archer raises his shield, but the axe's edge catches a
    # crack in the wood" (seventh words' run 1)
    r"\b(?:raises?|raised|lifts?|lifted|brings? up|brought up|throws? up|threw up) (?:his|her|"
    r"its|their) shield\b|\b(?:blocks?|blocked|parr(?:ies|ied|y)|deflects?|deflected) (?:it|the "
    r"(?:blow|strike|shot|arrow|bolt|axe|blade|spear))\b|\b(?:catches|caught|lodges? in|bites? "
    r"into|sticks? in|thuds? into) (?:the |his |her |its |their )?(?:\w+ )?(?:shield|wood|"
    r"buckler)\b"
)
_CHARACTER_NEAR = re.compile(r"\b(?:you|your|you're)\b[^,;]{0,25}$")


def _untouched(text: _Text) -> list[_Hit]:
    hits = []
    for i, sentence in enumerate(text.sentences):
        for m in _UNHURT.finditer(sentence):
            if not _CHARACTER_NEAR.search(sentence[: m.start()]) and not _NEGATION.search(
                sentence[: m.start()]
            ):
                hits.append(_Hit(i, m.start(), m.end(), _excerpt(sentence, m.start(), m.end())))
    return hits


# What the player set out to find, found, on a failure: "You search the haven for the hidden
# letter" told "You find a small, faded letter" (a real model, a Storyteller failure).
_FOUND = re.compile(
    r"\b(?:you|he|she) (?:finally |quickly |soon )?(?:find|finds|found|locate|locates|located|"
    r"discover|discovers|discovered|uncover|uncovers|uncovered) (?:a|an|the|your|his|her)\s+"
    r"(?P<object>[\w'-]+(?:,?\s+(?!(?:in|on|at|with|from|that|which|stuck|lying|hidden|under|"
    r"behind|inside|near|by|of|and|but|to)\b)[\w'-]+){0,3})"
)

# ... or a thing found that leads to it: "As you search the haven, you stumble upon a cryptic clue
# that points to the hidden letter" on a failed search (run 17)
_FOUND_A_WAY = re.compile(
    r"\b(?:you|he|she) (?:\w+ )?(?:find|finds|found|discover|discovers|discovered|uncover|"
    r"uncovers|uncovered|stumble upon|stumbles upon|stumbled upon|come across|comes across|"
    r"came across|spot|spots|spotted|locate|locates|located) (?:a|an|the|some) [\w' -]{0,40}?"
    r"\b(?:that |which )?(?:points?|pointing|pointed|leads?|leading|led) (?:straight )?(?:to|"
    r"toward|towards) (?:the|a|an|your) (?P<object>[\w'-]+(?:\s+[\w'-]+){0,2})"
)

# ... or the thing attacked struck ("You stumble and fall, hitting the skeleton on the head" on a
# lost attack, run 19), where the player's words are a blow
_FOE_DOWN = re.compile(
    r"\b(?:the|a|an) (?P<object>[\w'-]+) (?:\w+ly )?(?:collapses|crumbles|shatters|dies|falls "
    r"(?:dead|apart|lifeless|to pieces)|lies dead|is destroyed|is slain|is killed|falls to the "
    r"ground,? (?:dead|lifeless|motionless)|"
    # the foe's own bones broken: "the skeleton's bones crunch underfoot" on a lost attack (runs
    # 69 and 73; no one's, "the sound of bones crunching underfoot", is the place's)
    r"bones? (?:crunch|crunches|crunching|crack|cracks|cracking|shatter|shatters|shattering|"
    r"snap|snaps|snapping|splinter|splinters|splintering|break|breaks|breaking))\b"
)
_STRUCK = re.compile(
    r"\byou\b[^.;:!?\n]{0,30}?\b(?:hitting|hit|hits|striking|strike|strikes|struck|stabbing|"
    r"stab|stabs|wounding|wound|wounds|cutting) (?:the|a|an) (?P<object>[\w'-]+)"
)
# ... or what the player meant to bring about told as so: "You realize that the galleon is now
# adrift" for "I cut the mooring lines and let the galleon drift", on a miss (run 19)
_NOW_SO = re.compile(
    r"\b(?:is|are|was|were|lies|lie|stands|stand|hangs) now (?:\w+ )?(?P<state>[a-z]{4,})\b"
)

# ... or appearing by itself: "As you search the haven, the hidden letter starts to appear" (run 9)
_APPEARS = re.compile(
    r"\bthe (?P<object>[\w'-]+(?:\s+[\w'-]+){0,2}) (?:starts to |begins to |slowly )?(?:appear|"
    r"appears|appeared|emerges|emerged|is revealed|was revealed|comes into view|came into view)\b"
)


# ... or there but spoiled for reading: "causing the letter to become obscured and impossible to
# read" (run 51), "The cold water seeps into the book, making it unreadable" (the forty-first
# words), each on a failed search (_SOUGHT): what is there to be unreadable was found.
_SPOILED_FOR_READING = re.compile(
    r"\b(?:unreadable|illegible|impossible to (?:read|decipher)|(?:can ?not|can't|could not|"
    r"couldn't) be (?:read|deciphered))\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=64)
def _sought(action: str | None) -> frozenset[str]:
    """The player's words as five-letter stems, for what they sought and where they asked to go."""
    return frozenset(w[:5] for w in re.findall(r"[a-z]{4,}", (action or "").lower()))


def _sought_and_found(text: _Text, expect: Expectation) -> list[_Hit]:
    if not expect.action:
        return []
    sought = _sought(expect.action)
    a_blow = bool(_BLOWS & set(re.findall(r"[a-z]+", expect.action.lower())))
    meant = _let_happen(expect.action)
    searching = bool(_SOUGHT.search(expect.action))
    hits = []
    for i, sentence in enumerate(text.sentences):
        found = [*_FOUND.finditer(sentence), *_APPEARS.finditer(sentence)]
        if a_blow or "attack" in sought:
            found += _STRUCK.finditer(sentence)
            # the foe undone on a failed attack: "You hear a loud crash as the skeleton
            # collapses, revealing the reliquary within" (run 32)
            found += _FOE_DOWN.finditer(sentence)
        for m in [*found, *_FOUND_A_WAY.finditer(sentence)]:
            words = re.findall(r"[a-z]{4,}", m.group("object"))
            if words and words[-1][:5] in sought and not _NEGATION.search(sentence[: m.start()]):
                hits.append(_Hit(i, m.start(), m.end(), _excerpt(sentence, m.start(), m.end())))
        if searching:
            for m in _SPOILED_FOR_READING.finditer(sentence):
                if not _NEGATION.search(sentence[: m.start()]):
                    hits.append(_Hit(i, m.start(), m.end(), _excerpt(sentence, m.start(), m.end())))
        for m in _NOW_SO.finditer(sentence):
            if any(stem in m.group("state") for stem in sought):
                hits.append(_Hit(i, m.start(), m.end(), _excerpt(sentence, m.start(), m.end())))
        for m in meant.finditer(sentence) if meant else ():
            if not _NEGATION.search(sentence[: m.start()]):
                hits.append(_Hit(i, m.start(), m.end(), _excerpt(sentence, m.start(), m.end())))
        if _BREAKING_IN.search(expect.action) and not _KEEPING_SHUT.search(expect.action):
            for m in _BURSTS.finditer(sentence):
                words = re.findall(r"[a-z]{2,}", m.group("object").lower())
                thing = words[-1] if words else ""
                if thing in ("it", "they") and any(
                    w[:5] in sought for w in re.findall(r"[a-z]{4,}", sentence[: m.start()])
                ):
                    thing = "the thing named before"  # "... from the door, causing it to explode"
                elif not any(w[:5] in sought for w in words if len(w) >= 4):
                    continue  # (the thing anywhere before the verb: "the cellar door shakes
                    # violently and cracks open", fourth words' run 1)
                if not _NEGATION.search(sentence[: m.start()]):
                    hits.append(_Hit(i, m.start(), m.end(), _excerpt(sentence, m.start(), m.end())))
            for m in _SEEN_OPEN.finditer(sentence):
                if m.group("object").lower()[:5] in sought:
                    hits.append(_Hit(i, m.start(), m.end(), _excerpt(sentence, m.start(), m.end())))
        if sent := _sent_there(expect.action):
            hits += [
                _Hit(i, m.start(), m.end(), _excerpt(sentence, m.start(), m.end()))
                for m in sent.finditer(sentence)
                if not _NEGATION.search(sentence[: m.start()])
            ]
        if _SEVERING.search(expect.action):
            for m in _PARTS.finditer(sentence):
                words = re.findall(r"[a-z]{4,}", m.group("object"))
                if words and words[-1][:5] in sought:
                    hits.append(_Hit(i, m.start(), m.end(), _excerpt(sentence, m.start(), m.end())))
    return [h for h in hits if not _undone(h, text.sentences)]


# What the player tried to get through, told broken open on a failure: "a loud hiss of steam
# erupts from the door, causing it to explode in your face" on a failed pick (run 30; read as run
# 23's "the door shatters"). (Not where the player meant to keep it shut: _KEEPING_SHUT.)
# (only where getting through or open was the attempt: not "The galleon's hull cracks open" after
# "I cut the mooring lines and let the galleon drift", run 22)
_BREAKING_IN = re.compile(
    r"\b(?:force|forces|pick|picks|break|breaks|batter|batters|wrench|wrenches|open|opens|kick|"
    r"kicks|smash|smashes|pry|prise|prize|unlock|unlocks|bash|bashes|ram|rams|tear|tears|rip|rips|"
    r"lever|levers|shoulder|shoulders|crack|cracks|hammer|hammers|jimmy|jimmies)\b|"
    # heaving a thing off or open, not any heave ("I heave the grating off the hold", the
    # thirty-third words; not "I heave the cart out of the mud")
    r"\bheaves? [^.;!?]{0,30}?\b(?:off|open)\b",
    re.IGNORECASE,
)
_BURSTS = re.compile(
    # ("it begins to break apart, revealing a hidden pipe", third words' run 1)
    r"\b(?P<object>[a-z' ]{2,30}?),? (?:\w+ly )?(?:(?:begins?|began|starts?|started|seems?) )?"
    r"(?:explodes?|exploded|to explode|shatters?|"
    r"shattered|to shatter|splinters?|splintered|to splinter|bursts? open|burst apart|blows? open|"
    # (not swinging or flying open: "the door flies open, revealing a group of guards" is the
    # miss's danger coming through, run 12)
    r"blew open|gives? way|gave way|"
    r"to give way|breaks? (?:open|apart|free)|broke (?:open|apart|free)|to break (?:open|apart|"
    r"free)|clicks? open|clicked open|cracks? open|cracked open|to crack open|"
    # ("see the safe fall to the ground, breaking into pieces" on a failed safe-cracking, fifth
    # words' run 1)
    r"(?:breaks?|breaking|broke|to break|falls?|falling|fell) (?:into pieces|apart)|splits? open|"
    r"comes? loose|came loose|"
    # told through a grammar that keeps "you" out (service/narrator/grammar.py): "As the lock
    # continues to struggle, it finally breaks free" (hammering the lock off, resent ninth words),
    # "As the puzzle box creaks open" (a failure at opening it), "As the lock clatters to the
    # ground" (a failed pick)
    r"creaks? open|creaked open|springs? open|sprang open|pops? open|popped open|"
    # ("The lock was too tight, and it took a long time to break", a failed pick, run 35; "it
    # took a lot of force to turn", run 41)
    r"took (?:\w+ ){0,4}to (?:break|open|give way|give|budge|yield|turn|unlock|come off)|"
    # ("As the warehouse door continues to fall", a failure at breaking it down)
    r"(?:continues?|continued|begins?|began|starts?|started) to fall|falls? (?:in|inwards?)|"
    r"fell (?:in|inwards?)|"
    # ("the lock clunks to the ground with a dull thud", a failed pick, run 43)
    r"(?:clatters?|clattered|clunks?|clunked|drops?|dropped) (?:off|away|to the (?:ground|floor))|"
    # ("As the grate comes apart", "As the grate comes undone", "The boards start to slide off
    # the crate", "the lid of the tarred chest caved in", "it suddenly cracks and shudders", "the
    # lid ... starts to tip over": a paired trial of failed openings, stop 32)
    r"(?:to )?(?:comes?|came|come) (?:apart|undone|away|free|off)|caves? in|caved in|"
    r"(?:to )?(?:slides?|slid|slide) (?:off|down|away|aside|open)|(?:to )?tips? over|tipped over|"
    r"to crack|cracks|cracked)"
    r"\b",
    re.IGNORECASE,
)
# ... or seen open: "a faint breeze whispers through the open door" on a failed pick (resent run
# 34)
_SEEN_OPEN = re.compile(r"\b(?:the|an|its) (?:wide )?open (?P<object>[a-z]{3,})\b", re.IGNORECASE)
# What the player meant to send somewhere, told gone there on a failure: "I shove the ogre off the
# bridge" lost, told "..., causing it to fall off the bridge" (other words' run 1)
_SENDING = re.compile(
    r"\b(?:shove|shoves|push|pushes|throw|throws|hurl|hurls|knock|knocks|kick|kicks|toss|tosses|"
    r"drive|drives|drag|drags|pull|pulls|tip|tips|heave|heaves|force|forces) (?:the |a |an |that |"
    r"this )?(?P<thing>[a-z'-]{3,}) (?:back |away )?(?:off|into|over|from|out of|down|across|"
    r"through) (?:the |a |an )?(?P<place>[a-z'-]{3,})",
    re.IGNORECASE,
)


@lru_cache(maxsize=64)
def _sent_there(action: str) -> re.Pattern[str] | None:
    told = [
        rf"\b(?:(?:the )?{re.escape(m.group('thing')[:4].lower())}\w*|it|he|she|they)\b"
        r"[^.;!?]{0,40}?\b(?:falls?|fell|falling|to fall|tumbles?|tumbled|to tumble|topples?|"
        r"toppled|to topple|plunges?|plunged|to plunge|goes|went|to go|is thrown|was thrown|is "
        r"knocked|was knocked|drops?|dropped|slides?|slid|crashes|crashed|is sent|was sent|lands?|"
        r"landed|retreats?|retreating|to retreat|backs? away|backing away|steps? back|withdraws?|"
        r"withdrew|to withdraw) (?:\w+ )?(?:off|into|over|from|down|out of|across|through) "
        r"(?:the |a |an )?"
        rf"{re.escape(m.group('place')[:4].lower())}\w*"
        for m in _SENDING.finditer(action)
    ]
    return re.compile("|".join(told), re.IGNORECASE) if told else None


_LET_BE = re.compile(r"\blet (?:the |my |our |a |an )?(?P<thing>[a-z]{3,}) (?P<verb>[a-z]{3,})\b")


@lru_cache(maxsize=64)
def _let_happen(action: str) -> re.Pattern[str] | None:
    """What the player meant to let happen, told as happening: "I cut the mooring lines and let
    the galleon drift" told on a match miss "As the galleon drifts further into the night" (run
    26; read as run 19's "adrift"). The verb told, not the player's own "let the galleon drift",
    which the lead repeats."""
    # ... or as beginning: "As the galleon begins to drift" (run 27), or going on: "As the
    # galleon continues to drift, it begins to sink rapidly" (run 51)
    # ... or as done: "The galleon, now adrift in the stormy waters" (run 56)
    told = [
        rf"(?:the |your )?{re.escape(m.group('thing')[:5])}\w*(?:(?:'s)? (?:\w+ )?"
        rf"(?:{re.escape(m.group('verb'))}(?:s|es|ed|d|ing)|(?:begins?|began|begun|beginning|"
        rf"starts?|started|starting|continues?|continued|continuing|keeps?|kept|slowly|gently) "
        rf"(?:to )?{re.escape(m.group('verb'))})|,? (?:now |still |already )?a"
        rf"{re.escape(m.group('verb'))}|"
        # ... or taken up by "it" later in the clause: "the galleon's hull shakes violently as it
        # drifts towards the shore" (run 74)
        rf"(?:'s)?[^.!?;]{{0,60}}?\b(?:as|while|and|when) (?:it|she|they) (?:\w+ly |slowly |"
        rf"begins? to |starts? to |continues? to )?{re.escape(m.group('verb'))}(?:s|es|ed|d|ing)?)"
        for m in _LET_BE.finditer(action)
    ]
    return re.compile(rf"\b(?:{'|'.join(told)})\b", re.IGNORECASE) if told else None


# ... or what the player set out to cut told as parting: "the mooring lines snap" for "I cut the
# mooring lines and let the galleon drift", on a match miss (run 22; read as run 19's "adrift")
_SEVERING = re.compile(
    r"\b(?:cut|cuts|sever|severs|saw|slash|slashes|chop|chops|snap|snaps|"
    r"loosen|loosens|untie|unties|break|breaks)\b",
    re.IGNORECASE,
)
_PARTS = re.compile(
    r"\bthe (?P<object>[\w'-]+(?:\s+[\w'-]+){0,2}) (?:\w+ly )?(?:snap|snaps|snapped|part|parts|"
    r"parted|break|breaks|broke|split|splits|give way|gives way|gave way|come loose|comes loose|"
    r"came loose|come free|comes free|came free)\b"
)


def _has_a_turn(text: _Text) -> bool:
    """The narration turns somewhere ("..., but", "Then ...", "for a moment"): a miss told as a
    momentary success undone, which events alone must not be read against."""
    return any(
        _QUALIFIED.search(s) or _CONTRAST_AFTER.search(s) or _CONTRAST_OPENING.search(s)
        for s in text.sentences
    )


# Keeping a thing shut or in place: "I hold the door against the orcs" (attempt_kinds' "holding").
# "keep" and "guard" say so too where a thing is to stay shut, but name a watchman as often
# ("before the guard turns"): only here, where what the player meant to keep shut is read.
_HOLDING_WORDS = (
    r"hold|holds|bar|bars|block|blocks|barricade|barricades|shut|shuts|close|closes|seal|seals|"
    r"brace|braces|wedge|wedges"
)
# (as the attempt's verb, not a noun: "I wrench the bars off the cellar grating" is no holding,
# the twenty-third words; a verb is the words' first, a name's next, or one after "to", "and")
_VERB_SLOT = r"(?:^(?:I |[A-Z][a-z]+ )?(?:try to |attempt to )?|\b(?:to|and|then) )"
_HOLDING = re.compile(rf"{_VERB_SLOT}(?:{_HOLDING_WORDS})\b", re.IGNORECASE)
_KEEPING_SHUT = re.compile(
    rf"{_VERB_SLOT}(?:{_HOLDING_WORDS}|keep|keeps|guard|guards)\b", re.IGNORECASE
)
_OPENING_WAY = re.compile(
    r"\b(?:open|wide|opens|opened|gives? way|gave way|shatter\w*|splinter\w*|apart|caves? in|"
    r"caved in|crumble\w*|revealing)\b",
    re.IGNORECASE,
)


_SEEN_ONLY = re.compile(
    r"(?:'|\.\.\.|…)?\s*(?:sees?|saw|spots?|spotted|notices?|noticed|recogni[sz](?:es|ed|e))\s+\w+"
    r"\s*(?:'|\.\.\.|…)?$",
    re.IGNORECASE,
)


# Roll kinds whose blows always land: a miss told there is no outcome the engine allows.
ALWAYS_HITS = frozenset({("roll_under", "attack")})
HARMLESS = frozenset({"no_damage", "unharmed"})
"""An attack's outcomes where the blow landed and did no harm (armour took it all)."""
# roll-under's outcomes of harm that leave the one struck alive ("dead" is Brawn at zero)
_LIVES_ON = frozenset({"harmed", "scar", "critical_injury", *HARMLESS})
_TURNED_ASIDE = re.compile(
    r"\b(?:bounces?|bounced|bouncing|glances?|glanced|glancing|skids?|skidded|ricochets?|"
    r"ricocheted) off\b|\bdeflect(?:s|ed|ing)?\b|\bharmlessly\b|\b(?:is|was) (?:turned|knocked) "
    r"aside\b",
    re.IGNORECASE,
)
_COMES_TO = re.compile(
    r"\b(?:regains?|regained|regaining) (?:\w+ )?consciousness\b|\b(?:comes|came) to\b(?! (?:a|an|the|"
    r"his|her|its|their|rest|life)\b)|\b(?:wakes|woke|awakens|awoke|stirs|stirred) (?:up|again)\b|"
    r"\b(?:gets|got|staggers|staggered|struggles|struggled|rises|rose|climbs|climbed) (?:back )?to "
    r"(?:his|her|its|their) feet\b",
    re.IGNORECASE,
)
_KILLED = re.compile(
    r"\b(?:dies|died|dying|slain|killed|lifeless|corpse|decompos\w*|(?:falls?|fell|drops?|"
    r"dropped|lies|lay|is|was) dead|breathes? (?:his|her|its|their) last)\b",
    re.IGNORECASE,
)
_MISSED = re.compile(
    # (not "his missing teeth": missing only of someone or a mark)
    r"\b(?:miss|misses|missed)\b(?! (?:out|the point|home|a beat|nothing))|\bmissing (?:him|her|"
    r"it|them|you|its mark|the mark)\b|\b(?:goes|go|"
    r"went|going) wide\b|\bfalls? short\b|\bfell short\b|\bfails? to (?:hit|land|connect|"
    r"strike|find its mark)\b|\bfailed to (?:hit|land|connect|strike|find its mark)\b|"
    r"\bwhiff(?:s|ed)?\b",
    re.IGNORECASE,
)


def _check_outcome(
    text: _Text, expect: Expectation, pronouns: list[int], complete: bool = True
) -> GuardCheck:
    lex = _lexicon(expect.character)
    problems: list[str] = []

    subjects = sorted([m.start() for m in lex.subject.finditer(text.joined)] + pronouns)
    owners = [m.start() for m in lex.owner.finditer(text.joined)]

    def live(family: _Family) -> list[_Hit]:
        found = _find(_matches(family, text, subjects, owners), text)
        return [h for h in found if not _undone(h, text.sentences)]

    def report(kind: str, hits: list[_Hit]) -> None:
        if hits:
            problems.append(f"{_outcome_label(expect)} told as {kind}: {_quote_words(hits)}")

    polarity = expect.polarity
    if expect.outcome in DRAWS:
        report("a decisive result", live(lex.win) + live(lex.loss))
    elif polarity == "success":
        setbacks = live(lex.failure) + live(lex.partial) + live(lex.setback)
        report("failure", setbacks)
        report("a success with a cost", live(lex.cost))
        # events alone decide only where nothing in the narration tells the success
        told = live(lex.success) or live(lex.triumph) or live(lex.event_success)
        if complete and not setbacks and not told:
            harmed = live(lex.event_harm)
            if not _UNSEEN.search(expect.action or ""):
                # seen is no harm where going unseen was not the attempt: "The crew's fear
                # subsides as they see Kell standing by, reassuring them" (run 31)
                harmed = [h for h in harmed if not _SEEN_ONLY.match(h.words)]
            report("failure (through events)", harmed)
    elif polarity == "mixed":
        report("a plain failure", live(lex.failure))
        report("a success without cost", live(lex.triumph))
    elif polarity == "failure":
        successes = live(lex.success) + live(lex.triumph) + _sought_and_found(text, expect)
        report("success", successes)
        turned = [*live(lex.failure), *live(lex.partial), *live(lex.setback), *live(lex.cost),
                  *live(lex.event_harm)]  # fmt: skip
        if complete and not successes and not turned and not _has_a_turn(text):
            opened = live(lex.event_success)
            if _KEEPING_SHUT.search(expect.action or ""):
                # a way opening is the failure itself when the player meant to keep it shut:
                # "You try to hold the door against the orcs, but it goes wrong. The door swings
                # open with a loud crash, and the orcs charge in." (stop 24's prompt trials)
                opened = [h for h in opened if not _OPENING_WAY.search(h.words)]
            report("success (through events)", opened)
    if echoed := _example_of_another_band(text.joined, expect):
        report("another band (the prompt's example of it)", echoed)
    if expect.outcome == "graze" and (
        clean := [m.group() for m in _CLEAN_HIT.finditer(text.joined)]
    ):
        problems.append(f"{_outcome_label(expect)} told as a clean hit: {_quote_words(clean)}")
    if expect.outcome == "graze" and (untouched := _untouched(text)):
        report("no damage (a graze deals its Effort in damage)", untouched)
    if (expect.system, expect.kind) in ALWAYS_HITS:
        # roll_under.md: "Attacks *always* hit." Told "You slash at the first mate with your
        # cutlass, but you miss" after 3 damage (played at stop 37, whole-narration prompt); led
        # "and it lands", "the javelin bounces off with a sickening thud" after 6 damage to the
        # boar, and "the troll's body slowly decomposes" with the troll harmed, not dead
        def said(*patterns: re.Pattern[str]) -> list[str]:
            found = itertools.chain.from_iterable(p.finditer(text.joined) for p in patterns)
            return [m.group() for m in _not_denied(text.joined, found)]

        aside = () if expect.outcome in HARMLESS else (_TURNED_ASIDE,)
        if told := said(_MISSED, *aside):
            problems.append(f"an attack (which always hits) told as a miss: {_quote_words(told)}")
        if expect.outcome in _LIVES_ON and (killed := said(_KILLED)):
            problems.append(f"one harmed, not killed, told dead: {_quote_words(killed)}")
        # ... and a critical injury is "unconscious and out of the fight until revived": "as the
        # bosun regains consciousness" (the forty-eighth words' attacks)
        if expect.outcome == "critical_injury" and (woken := said(_COMES_TO)):
            problems.append(f"one knocked out told coming to: {_quote_words(woken)}")
    if bands := _band_mentions(expect, text.sentences):
        problems.append(f"{_outcome_label(expect)} called another band: {_quote_words(bands)}")
    if problems:
        return GuardCheck(id="outcome", passed=False, reason="; ".join(problems))
    return GuardCheck(id="outcome", passed=True)


# --- answer ------------------------------------------------------------------------------------

_LEAD = r"^(?:\"…\"\s*)?(?:(?:alas|sadly|unfortunately|oh|well|indeed|regrettably|"
_LEAD += r"happily|thankfully|luckily|certainly|absolutely|definitely|simply|plainly|"
_LEAD += r"i'm afraid|the answer|the oracle's answer|answer)\W{1,3})?"
_ANSWER_WORD = {
    "yes": re.compile(_LEAD + r"(yes|yeah|aye)\b(?=\s*(?:[.,!:;—\-]|$|and\b|but\b))"),
    "no": re.compile(_LEAD + r"(no|nope|nay)\b(?=\s*(?:[.,!:;—\-]|$|and\b|but\b))"),
}
_ANSWER_EXPLICIT = {
    a: re.compile(
        rf"\b(?:the (?:oracle's |oracles' )?answer (?:is|was|comes back|comes)(?: a| an)?|"
        rf"(?:the |an? )?(?:oracle's |oracles' |oracle )(?:answer|verdict|ruling|reply|response)"
        rf"(?: (?:is|was|comes back|comes))?|"
        rf"(?:the )?oracles? (?:says?|said|answers?|answered|repl(?:ies|ied)|speaks?|gives?|"
        rf"returns?|responds?|whispers?)(?: (?:a|an|with a|with an|with))?)[:,—]?"
        rf"(?: (?:firm|clear|resounding|definite|flat|simple|emphatic|grudging|hesitant|certain|"
        rf"unmistakable|quiet|plain|blunt))? {a}\b"
        + (r"|\bin the affirmative\b" if a == "yes" else r"|\bin the negative\b")
    )
    for a in ("yes", "no")
}
_NEGATIVE_FACT = re.compile(
    r"(?:\b(?:no|not|nobody|nothing|none|no one|nowhere|never|empty|deserted|abandoned|vacant|"
    r"alone|absent|gone|unguarded|unoccupied|untouched|clear|without|lifeless|silent)|n't)\b"
)


def _check_answer(text: _Text, expect: Expectation) -> GuardCheck:
    if expect.polarity not in ("yes", "no"):
        return GuardCheck(id="answer", passed=True)
    wrong = "no" if expect.polarity == "yes" else "yes"
    found: list[str] = []
    for sentence in text.sentences:
        found.extend(
            _excerpt(sentence, m.start(), m.end())
            for m in _ANSWER_EXPLICIT[wrong].finditer(sentence)
        )
        for m in _ANSWER_WORD[wrong].finditer(sentence):
            # "Yes, it's empty" affirms a negative fact: a no in other words (see the docstring)
            if wrong == "yes" and _NEGATIVE_FACT.search(sentence[m.end() :]):
                continue
            found.append(_excerpt(sentence, m.start(), min(len(sentence), m.end() + 1)))
    found += _restated(text, expect)
    if found:
        reason = f"{_outcome_label(expect)} told as {wrong}: {_quote_words(found)}"
        return GuardCheck(id="answer", passed=False, reason=reason)
    return GuardCheck(id="answer", passed=True)


# The answer told through the question's own proposition (issue 15: a real model answered "Is the
# map a forgery?" with "The map is a forgery" for a no): a sentence holding every content word of
# the question (two at least) affirms it unless a negation stands among them or just before them
# ("The Prince is not in the Elysium", "There is no storm coming"). The question is the request's,
# or one the narration itself opens with ("Is the ferryman still alive? ..."), never answered in
# that sentence itself.
_QUESTION_WORDS = frozenset(
    re.findall(
        r"\w+",
        "is are was were am be been does do did will would can could should shall has have had "
        "may might must the a an any some there this that these those me my mine i we us our "
        "you your yours he him his she her they them their it its of in on at to for from by "
        "with still yet already now tonight today here really again also just what who whom "
        "which why how when where whether or and if as than then",
    )
)
_NEGATOR = re.compile(
    r"\b(?:not|no|never|n't|nobody|nothing|none|no one|neither|nor|without)\b|n't\b"
)
_WORD = re.compile(r"[a-z][a-z']+")


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _restated(text: _Text, expect: Expectation) -> list[str]:
    question = expect.question
    if question is None:
        asked = [q for q in text.sentences if q.rstrip('"… ').endswith("?")]
        question = asked[0] if asked else None
    if not question:
        return []
    terms = {_stem(w) for w in _WORD.findall(question.lower())} - {
        _stem(w) for w in _QUESTION_WORDS
    }
    terms = {t for t in terms if len(t) >= 3}
    if len(terms) < 2:
        return []
    found = []
    for sentence in text.sentences:
        if sentence.rstrip('"… ').endswith("?"):
            continue
        words = [(m.start(), m.end(), _stem(m.group())) for m in _WORD.finditer(sentence)]
        spots = [(a, b) for a, b, w in words if w in terms]
        if not spots or not terms <= {w for _, _, w in words}:
            continue
        first, last = spots[0][0], spots[-1][1]
        before = sentence[max(0, first - 12) : first]
        negated = bool(_NEGATOR.search(sentence[first:last]) or _NEGATOR.search(before))
        if negated == (expect.polarity == "yes"):
            found.append(_excerpt(sentence, first, last))
    return found


# --- numbers -----------------------------------------------------------------------------------

_NUMBER_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
)
_WORD_NUMBERS = {w: i for i, w in enumerate(_NUMBER_WORDS.split(" "))} | {
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
    "ninety": 90, "hundred": 100,
}  # fmt: skip
_COMMON_TERMS = (
    "momentum", "health", "spirit", "supply", "integrity", "progress", "legacy", "experience",
    "xp", "harm", "stress", "damage", "dice", "die", "focus", "blood", "hunger", "effort",
    "hearts?", "stamina", "power", "fatigue", "wounds?", "tn", "target number", "successes",
    "success", "difficulty", "willpower", "rage", "gnosis", "health levels?", "hp",
    "hit points?", "armou?r", "brawn", "finesse", "intellect", "scars?", "segments?",
)  # fmt: skip
TERMS: dict[str, tuple[str, ...]] = {
    "sundered_isles": ("momentum", "health", "spirit", "supply", "integrity", "progress",
                       "legacy", "experience", "xp", "harm", "stress", "damage", "dice", "die",
                       "segments?", "edge", "heart", "iron", "shadow", "wits"),
    "elegy": ("focus", "health", "spirit", "blood", "hunger", "progress", "experience", "xp",
              "harm", "stress", "damage", "dice", "die", "dexterity", "force", "glamour",
              "intellect"),
    "go_forth": ("effort", "hearts?", "momentum", "stamina", "power", "fatigue", "wounds?", "tn",
                 "target number", "damage", "dice", "die", "boost", "slots?"),
    "storyteller": ("successes", "success", "dice", "die", "difficulty", "willpower", "rage",
                    "gnosis", "health levels?", "damage", "botch(?:es)?", "ones", "tens"),
    "roll_under": ("hp", "hit points?", "damage", "armou?r", "brawn", "finesse", "intellect",
                   "fatigue", "scars?", "dice", "die"),
}  # fmt: skip
"""Game terms per system: a number word attached to one is mechanical ("lose three momentum")."""

_UNITS = r"(?:points?|pips?|ticks?|boxes?|marks?|levels?)"
_FILLER = (
    r"(?:(?:more|extra|additional|further|bonus|full|whole|precious|points?|pips?|ticks?|boxes?|"
    r"marks?|levels?|of|your|his|her|their|its|the|challenge|action|oracle|net|d\d+)\s+)"
)
# After a term: punctuation, the end, or a word that does not make the term a modifier
# ("three supply crates" is prose; "three supply, and" is not).
_TERM_END = (
    r"(?=\s*(?:[.,;:!?)\]—\-]|$)|\s+(?:and|or|but|to|from|for|as|in|on|at|now|left|remaining|"
    r"lost|gained|back|each|per|instead|total|again|more|less|which|while|with|until|the|your|"
    r"his|her|their|its|a|an|this|that|into|if|so|then|points?|ticks?|boxes?|on|off|away|"
    r"damage|harm|against|versus|vs)\b)"
)
_NUM_END = (
    r"(?=\s*(?:[.,;:!?)\]—\-]|$)|\s+(?:and|or|but|as|now|left|remaining|points?|ticks?|boxes?|"
    r"total|again|more|less|while|with|until|then|so)\b)"
)
_DICE_NOTATION = re.compile(
    r"\b\d*d\d+(?:[+\-]\d+)?\b|\b\d+:\d\d\b|\b\d+(?:st|nd|rd|th)\b|\d+\.\d+"
)
_DIGIT = re.compile(r"(?<![\w])[+\-]?(\d{1,3}(?:,\d{3})+|\d+)(?:\s*%)?(?![\w])")
_ROLL_CONTEXT = r"(?:roll(?:s|ed)?|total(?:s|led)?|score[sd]?|tn|dc|result|rolled an?|got an?)"
# A digit used as prose: counting a noun that is no game term ("3 guards", "7 silver") ...
_PROSE_COUNT = re.compile(
    r"\s+(?!(?:and|or|but|to|from|for|as|in|on|at|now|left|more|less|of|the|your|points?|"
    r"ticks?|boxes?|times|on|off|against|vs|versus|plus|minus|per|each)\b)[a-z][a-z\-]*"
)
# ... or naming a place or thing ("Room 4", "Pier 9", "berth 12", "No. 7").
_PROSE_LABEL = re.compile(
    r"\b(?:room|rooms|pier|dock|berth|cell|gate|platform|row|door|floor|apartment|suite|no\.|"
    r"number|chapter|section|page|street|avenue|route|track|station|locker|car|bay|block|ward|"
    r"bus|train|flight|box|case|file|exhibit|table|seat|pew|stall|house|building|tower|"
    r"lot|unit|grave|plot|vault|hold|deck|cabin|hatch|gun|cannon|bunk|shelf|drawer)\s+$"
)


@dataclass(frozen=True)
class _NumberPatterns:
    before: re.Pattern[str]  # a number, then a term: "lose three momentum", "+2 health"
    after: re.Pattern[str]  # a term, then a number: "momentum drops to zero"
    attached: re.Pattern[str]  # a term or a roll just before a digit: "rolled 150"
    term_word: re.Pattern[str]  # a word that may open a term


@lru_cache(maxsize=16)
def _number_patterns(system: str) -> _NumberPatterns:
    """Compiled for one system's terms. ``before`` and ``after`` are tried only where a number
    or a term stands (no leading \\b: see _Family)."""
    terms = TERMS.get(system, _COMMON_TERMS)
    alternatives = "|".join(terms)
    word = "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True))
    num = rf"(?:[+\-]?\d+|{word})"
    return _NumberPatterns(
        before=re.compile(rf"(?P<n>{num})\s+{_FILLER}{{0,3}}(?P<t>{alternatives})\b{_TERM_END}"),
        after=re.compile(
            rf"(?P<t>{alternatives})\b(?:\s+\w+){{0,2}}?\s*(?:to|at|by|of|is|was|now|=|:)\s+"
            rf"(?P<n>{num})\b{_NUM_END}"
        ),
        attached=re.compile(rf"\b(?:{alternatives}|{_ROLL_CONTEXT})\b\W+(?:\w+\W+)?$"),
        term_word=re.compile("|".join(t.split(" ")[0] for t in terms)),
    )


_TOKEN = re.compile(r"[+\-]?[\w']+")


def _check_numbers(text: str, expect: Expectation) -> GuardCheck:
    low = _DICE_NOTATION.sub(lambda m: " " * len(m.group()), text.lower())
    if len(low) != len(text):  # a lower-casing that changed the length: quote from it instead
        text = low
    known = {abs(n) for n in expect.numbers}
    pat = _number_patterns(expect.system)
    bad: list[str] = []

    def value(n: str) -> int:
        return _WORD_NUMBERS[n] if n in _WORD_NUMBERS else abs(int(n.replace(",", "")))

    claimed: set[tuple[int, int]] = set()
    for token in _TOKEN.finditer(low):
        word = token.group()
        if word.lstrip("+-").isdigit() or word in _WORD_NUMBERS:
            m = pat.before.match(low, token.start())
        elif pat.term_word.fullmatch(word):
            m = pat.after.match(low, token.start())
        else:
            continue
        if m:
            claimed.add(m.span("n"))
            if value(m.group("n")) not in known:
                bad.append(_excerpt(text, m.start(), m.end()))
    for m in _DIGIT.finditer(low):
        if m.span(1) in claimed or (m.start(1) - 1, m.end(1)) in claimed:
            continue
        n = value(m.group(1))
        if n in known:
            continue
        window = low[max(0, m.start() - 40) : m.start()]
        plain = m.group()[:1] not in "+-" and not m.group().endswith("%")
        if not pat.attached.search(window) and (
            (plain and (n > 100 or _PROSE_LABEL.search(window)))
            or (not m.group().endswith("%") and _PROSE_COUNT.match(low, m.end()))
        ):
            continue  # a year, "3 guards", "Room 4", "a fine of +10 gold": prose
        bad.append(_excerpt(text, m.start(), m.end()))
    if expect.rolled:
        # "your roll of `1` fails" on a d20 that showed 17: a number of the record, not the roll
        for m in _ROLL_OF.finditer(low):
            if value(m.group("n") or m.group("m")) not in expect.rolled:
                bad.append(_excerpt(text, m.start(), m.end()))
    if bad:
        reason = f"numbers the engine did not produce: {_quote_words(bad)}"
        return GuardCheck(id="numbers", passed=False, reason=reason)
    return GuardCheck(id="numbers", passed=True)


_ROLL_OF = re.compile(
    r"\b(?:your|the|a|his|her) (?:\w+ )?roll (?:of|was|is|shows?|showed|comes? up|came up) "
    r"(?:an? )?[`'\"]?(?P<n>\d+)\b|\byou (?:rolled|roll) (?:an? )?[`'\"]?(?P<m>\d+)\b"
)


# --- player agency -----------------------------------------------------------------------------

_SPEECH = (
    r"say|says|said|reply|replies|replied|answer|answers|answered|shout|shouts|shouted|yell|"
    r"yells|yelled|whisper|whispers|whispered|mutter|mutters|muttered|murmur|murmurs|murmured|"
    r"call|calls|called|cry|cries|cried|growl|growls|growled|snarl|snarls|snarled|hiss|hisses|"
    r"hissed|bark|barks|barked|ask|asks|asked|tell|tells|told|declare|declares|declared|"
    r"announce|announces|announced|insist|insists|insisted|plead|pleads|pleaded|beg|begs|begged|"
    r"bellow|bellows|bellowed|roar|roars|roared|scream|screams|screamed|snap|snaps|snapped|"
    r"retort|retorts|retorted|add|adds|added|breathe|breathes|breathed|sigh|sighs|sighed|"
    r"promise|promises|promised|offer|offers|offered|demand|demands|demanded|warn|warns|warned|"
    r"command|commands|commanded|order|orders|ordered|explain|explains|explained|confess|"
    r"confesses|confessed|admit|admits|admitted|laugh|laughs|laughed|grunt|grunts|grunted|"
    r"manage|manages|managed|begin|begins|began|continue|continues|continued|counter|counters|"
    r"countered|lie|lies|lied|protest|protests|protested|agree|agrees|agreed"
)
# Words that may stand between the speaker and the verb ("you lean in and whisper"); another
# subject or a verb of perceiving ("you hear the captain say") ends the attribution.
_NOT_BETWEEN = re.compile(
    r"\b(?:he|she|they|it|someone|somebody|everyone|nobody|who|which|that|hear|hears|heard|"
    r"watch|watches|watched|see|sees|saw|listen|listens|let|lets|make|makes|made|as|while|when|"
    r"wait|waits|i|we)\b"
)
_DECIDE = (
    r"(?:decide|decides|decided|choose|chooses|chose|opt|opts|opted|elect|elects|elected|"
    r"resolve|resolves|resolved)(?!\s+(?:nothing|your|his|her|their|yet|well|wisely|poorly|"
    r"badly|carefully|quickly)\b)|agree|agrees|agreed|accept|accepts|accepted|refuse|refuses|"
    r"refused|promise|promises|promised|consent|consents|consented|relent|relents|relented|"
    r"concede|concedes|conceded|make up your mind|made up your mind|settle on|settled on|"
    r"take the (?:deal|offer|bargain)|took the (?:deal|offer|bargain)|shake on it|shook on it|"
    r"give in|gives in|gave in|plan to|plans to|planned to|intend to|intends to|intended to"
)
_NO_CHOICE_LEFT = re.compile(
    r"\b(?:leaving|leaves|left) you (?:with )?no (?:other )?(?:choice|option) but\b", re.IGNORECASE
)
_FORCED = (
    r"(?:feel|feels|felt) (?:\w+ )?(?:compelled|forced|obliged|obligated|driven|bound|"
    r"duty-bound|pressured)|(?:have|has|had) no choice but|"
    # the next act decided as the only one left: "You realize that your only option is to swim
    # through the water" (run 12)
    r"(?:realise|realize|realises|realizes|realised|realized|know|knows|knew|see|sees|saw) "
    r"(?:that )?(?:your|his|her|the) only (?:option|choice|way|hope|chance) (?:is|was) to|"
    r"(?:realise|realize|realises|realizes|realised|realized|understand|understands|"
    r"understood) (?:that )?(?:you|he|she) (?:need|needs|needed|must|have to|has to|had to|"
    r"should) (?:to )?(?:take|act|do|go|stop|find|get|make|leave|return|confront)\b|"
    # "they had to fight off wild animals and survive until rescue": the character's acts decided
    r"(?:had|have|has) to (?:fight off|fight|survive|surrender|give up|abandon|swim for|hide)|"
    # (not "forced to choose between a life of hunting or a life of solitude, and the choice is
    # yours", run 28: a choice posed is not made)
    r"(?:are|is|were|was) (?:compelled|forced) to(?! (?:choose|decide|pick) between)|"
    r"(?:can't|cannot|couldn't) resist (?:the )?"
    r"(?:urge|temptation|impulse|pull)|find (?:yourself|himself|herself) (?:agreeing|"
    r"nodding|saying|accepting|deciding|choosing|promising|obeying|kneeling|surrendering|"
    r"giving in|handing|drawn to|pulled toward|pulled towards|compelled|mesmeri[sz]ed|"
    r"captivated|entranced|transfixed)"
)
# What only the player decides or knows: the character's feelings (an emotion, not a sensation:
# "you feel the deck lurch" is the world; "Kell feels the weight of his vow" is the player's),
# and acts of will the player did not state ("You make a quick retreat", "sets a new goal").
_EMOTION = (
    r"(?:weight|fear|afraid|dread|panic|terror|terrified|horror|hope|hopeful|relief|relieved|"
    r"anger|angry|rage|fury|furious|guilt|guilty|shame|ashamed|despair|joy|pride|proud|resolve|"
    r"determination|determined|sadness|sad|grief|sorrow|regret|doubt|confident|confidence|"
    r"scared|anxious|anxiety|nervous|uneasy|unease|elated|triumphant|satisfaction|satisfied|"
    # (not the water's: "You feel a rush of cold water", fourth words' run 1)
    r"excitement|excited|thrill|(?:surge|rush|wave)(?! of (?:\w+ )?(?:water|air|wind|heat|cold|"
    r"warmth|spray|seawater|rain|current|waves|sand|dust|smoke|pain|agony))|pang|sense of|"
    r"glimmer|spark|"
    r"flicker|stab|"
    r"tinge|twinge|knot|longing|love|hatred|hate|disgust|envy|jealous|jealousy|lonely|"
    r"loneliness|ready|brave|courage|emboldened|encouraged|hopeless|helpless|defeated|"
    r"overwhelmed|humbled|grateful|gratitude|sympathy|pity|remorse|compassion|a need|an urge|"
    r"vulnerable|exposed|uncertain|hesitant|reluctant|eager|relieved|calm|at ease|safe|urge|"
    r"impulse|compulsion|desire|temptation|yearning|exhilarated|exhilaration|victorious|elated|"
    r"euphoric|ecstatic|accomplishment|adrenaline|alive)"
)
# A mood by its form: an adjective's ending or "a mix of", after "feeling" or "you feel" (not a
# determiner and a thing: "you feel the deck lurch", "feeling the spray on your face").
_MOOD = (
    r"(?!(?:the|its|his|her|their|your|every|each|something|nothing)\b)(?:(?:a|an)\s+"
    r"(?:\w+\s+)?(?:mix|mixture|sense|wave|surge|rush|pang|flood|flush|moment|feeling|hint|"
    r"touch|twinge|knot|jolt|glimmer|flicker|tinge|swell)\s+of\b(?!\s+(?:\w+\s+)?(?:water|air|"
    r"wind|heat|cold|warmth|spray|seawater|rain|current|waves|sand|dust|smoke|pain|agony)\b)|(?:\w+\s+)?\w{3,}(?:ed|ful|ous|"
    r"less|ive|ent|ant|ic|ish)\b|unsure|uncertain|lost|alone|happy|unhappy|sorry|wary|worried)"
)
# (another's feeling sensed is theirs: "you can feel his unease", run 29)
_FEELS = (
    r"(?:feel|feels|felt|feeling)\s+(?!(?:his|her|their|its)\b)(?:\w+\s+)?(?:a\s+|an\s+|the\s+)?"
    rf"(?:\w+\s+)?{_EMOTION}\b"
)
_PANICS = (
    r"(?:panic|panics|panicked|despair|despairs|despaired|lose heart|loses heart|lost heart|"
    r"lose hope|loses hope|lost hope|steel|steels|steeled)(?: |(?=[,;.!]))"
)
_WILLS = (
    r"(?:(?:make|makes|made|beat|beats) a (?:\w+ )?(?:retreat|exit|getaway|withdrawal)|"
    r"(?:retreat|retreats|retreated|flee|flees|fled|withdraw|withdraws|withdrew|back away|"
    r"backs away|backed away|turn and run|turns and runs|run away|runs away|ran away|"
    r"(?:set|sets) (?:a |your |his |her |their )?(?:new )?(?:goal|course|vow|plan)|"
    r"swear|swears|swore|vow|vows|vowed|resolve to|resolves to|make up (?:your|his|her) mind|"
    # going on past the attempt: "Ash takes a deep breath and moves forward into the chamber",
    # "you ... proceeded with your investigation further" (a real model, issue 15)
    # ("you press on" is Endure Harm's and Endure Stress's own words, not an act of will)
    r"(?:move|moves|moved|push|pushes|pushed) (?:forward|on|ahead|onward|deeper|toward|towards)|"
    r"(?:push|pushes|pushed) (?:through|past) (?:it|them|the)|"
    r"proceed|proceeds|"
    r"proceeded|"
    r"(?:lose|loses|lost) (?:all )?(?:hope|heart|nerve|faith|courage)|"
    r"(?:set|sets) off|(?:head|heads|headed) (?:off|inside|deeper|"
    r"onward|to|for|toward|towards|back|out)\b|(?:continue|continues|continued) (?:your|his|her|their) (?:search|journey|"
    r"investigation|way|climb|work)|(?:take|takes|took) a deep breath)\b)"
)
_CAUSES = (
    r"\b(?:cause|causes|caused|causing|make|makes|made|making|force|forces|forced|forcing|"
    r"drive|drives|drove|driving|compel|compels|compelled|send|sends|sent) (?:you|{names}) "
    r"(?:to )?(?:panic|flee|run|leave|retreat|give up|surrender|drop|abandon|despair|weep|cry|"
    r"scream|freeze|cower|hesitate|doubt|obey|kneel|beg|confess|agree|feel)\b"
)

# a mood caused: "You notice a shadowy figure moving in the corner of your hold, making you
# nervous" (run 13)
_CAUSES += (
    r"|\b(?:make|makes|made|making|leave|leaves|left|leaving) (?:you|{names}) (?:feel(?:ing)? )?"
    rf"(?:\w+ )?{_EMOTION}\b"
)

_CAUSED_PRONOUN = re.compile(_CAUSES.replace("{names}", "him|her"))

_HYPOTHETICAL_CHOICE = re.compile(
    r"\b(?:if|unless|whether|when|whenever|once|what|whatever|however|whichever|how|why|may|"
    r"might|can|could|would|should|must|will|shall|need to|needs to|have to|has to|get to|"
    r"free to|up to|ready to|about to|want to|wants to|for you to|let|lets|before|until|or)\b"
    r"[^,;:—]*$|'ll\b[^,;:—]*$|'d\b[^,;:—]*$"
)


_NOT_MODAL = (
    r"(?!(?:may|might|can|could|must|will|would|should|shall|need|needs|get|gets|have|has)\b)"
)


@dataclass(frozen=True)
class _AgencyPatterns:
    """Compiled for one character name; the phrases opening with the subject ("you", the name)
    are tried only where it stands (their leading \\b is dropped: see _Family)."""

    subject: re.Pattern[str]
    speaks_before: re.Pattern[str]
    speaks_after: re.Pattern[str]
    pronoun_speaks: re.Pattern[str]  # in the quote-blanked text: '"…" he whispers'
    chooses: re.Pattern[str]
    coordinated: re.Pattern[str]
    told: re.Pattern[str]
    participle: re.Pattern[str]
    inner: re.Pattern[str]  # feelings and acts of will: "Kell feels the weight", "you retreat"
    causes: re.Pattern[str]  # "causes you to panic"


@lru_cache(maxsize=64)
def _agency(character: str | None) -> _AgencyPatterns:
    names = _names(character)
    pc = rf"(?:you|{names})"
    # choices are tried only where the character stands, a pronoun included (_pronoun_subjects)
    who = rf"(?:you|{names}|he|she)"
    quote = "[\"']"
    return _AgencyPatterns(
        subject=re.compile(rf"\b{pc}\b"),
        # you say, "…" / Kara leans in and whispers: "…"
        speaks_before=re.compile(
            rf"(?P<pc>{pc})\b(?P<between>(?:\s+[\w'\-]+){{0,8}}?)\s+(?P<v>{_SPEECH})\b"
            rf"(?:\s+(?:him|her|them|it|the \w+|softly|quietly|simply|only|again|aloud|back))?"
            rf"\s*[,:—]?\s*{quote}(?=\w|…|\.\.\.)"
        ),
        # "…," you reply / "…" says Kara
        speaks_after=re.compile(
            rf"[,!?…\-—]{quote}\s*(?:{pc}\s+(?:\w+ly\s+)?(?:{_SPEECH})\b|"
            rf"(?:{_SPEECH})\s+{pc}\b)"
        ),
        pronoun_speaks=re.compile(
            rf"\"…\"\s*(?P<a>he|she)\s+(?:\w+ly\s+)?(?:{_SPEECH})\b|"
            rf"(?P<b>he|she)\b(?:\s+[\w'\-]+){{0,8}}?\s+(?:{_SPEECH})\b\s*[,:—]?\s*\"…\""
        ),
        # you decide to… / you nod and agree / Kara feels compelled to…
        chooses=re.compile(
            rf"{who}\s+(?:\w+ly\s+|then\s+|finally\s+|just\s+|simply\s+|{_NOT_MODAL}\w+\s+and\s+)?"
            rf"(?:{_DECIDE}|{_FORCED})\b"
        ),
        # you haggle him down and decide to…
        coordinated=re.compile(
            rf"(?P<pc>{who})\b(?P<between>[^.;:!?\"\n]{{0,80}}?)\b(?:and|but|yet) (?:then )?"
            rf"(?P<v>{_DECIDE})\b"
        ),
        # you tell him that… / you assure her you'll… / you reply that…
        told=re.compile(
            rf"{who}\s+(?:(?:tell|tells|told|assure|assures|assured|inform|informs|informed)\s+"
            r"(?:him|her|them|the \w+)\s+(?:that\b|(?:you|he|she|they|we)(?:'ll|'d|'re|\s+will|"
            r"\s+would|\s+won't|\s+can|\s+could|\s+must|\s+shall)\b)|(?:\w+ly\s+)?(?:say|says|said|reply|replies|replied|answer|"
            r"answers|answered|explain|explains|explained|insist|insists|insisted|admit|admits|"
            r"admitted|confess|confesses|confessed|lie|lies|lied|swear|swears|swore|whisper|"
            r"whispers|whispered|shout|shouts|shouted)\s+(?:to \w+\s+)?that\b)"
        ),
        participle=re.compile(r"^(?:deciding|choosing|resolving|agreeing|opting)\b.*\byou\b", re.M),
        inner=re.compile(
            rf"{who}\s+(?:\w+ly\s+|then\s+|finally\s+|(?:can't|couldn't|could not) help but\s+|"
            # ("Kiel could feel the weight of the world pressing down on him", the fortieth words)
            rf"(?:could|can|would|might)\s+|begin to\s+|begins to\s+|"
            rf"start to\s+|starts to\s+)?(?:{_FEELS}|{_PANICS}|{_WILLS})"
        ),
        causes=re.compile(_CAUSES.replace("{names}", names)),
    )


@lru_cache(maxsize=64)
def _heart(character: str | None) -> re.Pattern[str]:
    """The character's heart told for a feeling: "Your heart races with excitement and
    trepidation", "Kell's heart sinks" (a real model's). A heart pounding alone is the body's."""
    whose = rf"(?:your|(?:{_names(character)})'s)"
    who = rf"(?:you|{_names(character)})"
    return re.compile(
        # (a heart pounding alone is the body's, run 8's ruling; "... in your chest as you realize
        # the currents are too strong" is fear, run 17)
        rf"\b{whose} heart (?:races|raced|racing|pounds|pounded|pounding|beats|beat|hammers|"
        r"hammered)(?: in (?:your|his|her) (?:chest|ears|throat))? (?:with|as (?:you|he|she|they) (?:realis|realiz|know|knew|think|thought))|"
        rf"\b{whose} heart (?:sinks|sank|leaps|leapt|soars|soared|swells|swelled|breaks|broke|"
        r"aches|ached|races|raced|racing)\b|"
        # "You're relieved when the door is open" (not "determined": Elegy's own weak hit says it)
        rf"\b{who}(?:'re| are| were| is| was) (?:so |very |deeply |utterly |truly )?(?:relieved|"
        r"afraid|terrified|scared|frightened|furious|angry|ashamed|proud|hopeful|hopeless|elated|"
        r"overjoyed|thrilled|delighted|nervous|anxious|desperate|exhilarated|"
        r"grateful|heartbroken|devastated|ecstatic|euphoric|excited|disappointed|confused|worried|"
        r"upset|sad|glad|happy|satisfied|frustrated|annoyed|eager|surprised|shocked|amazed|"
        r"astonished|stunned)\b|"
        # an emotion named on the body: "your eyes widen in terror" on a match miss (run 28; the
        # body's widening eyes alone are not one)
        rf"\b{whose} (?:eyes|face|hands|voice|breath|body|mind|stomach|knees|legs|skin|"
        # ("your body shaking with pain and fear", third words' run 1)
        r"blood)\b[^.;:!?\n]{0,30}?\b(?:in|with) (?:sheer |pure |growing |sudden |utter )?"
        r"(?:\w+ and )?"
        r"(?:terror|fear|horror|dread|panic|awe|joy|relief|despair|anger|rage|fury|shock|"
        r"disbelief|excitement|anticipation|wonder|delight|shame|guilt|pride|triumph)\b|"
        # "you manage to stay calm" (run 17): composure kept is a feeling told
        # fear told by the body: "You feel a chill run down your spine as the rival Kindred's eyes
        # narrow" after a won stare-down (run 21; a pounding heart alone stays the body's, run 8)
        rf"\b(?:chill|chills|shiver|shivers) (?:of \w+ )?(?:run|runs|ran|running|creep|creeps|crept|"
        rf"race|races|raced|go|goes|went) (?:down|up) {whose} spine\b|"
        # ... or sent: "sending shivers down your spine" on a failed hatch (run 23)
        rf"\b(?:send|sends|sent|sending) (?:a )?(?:chill|chills|shiver|shivers) (?:of \w+ )?"
        rf"(?:down|up) {whose} spine\b|"
        # ... or down the neck: "causing a shiver down the back of Keld's neck" (the fortieth
        # words, the name bent)
        rf"\b(?:chill|chills|shiver|shivers) (?:of \w+ )?(?:down|up) (?:the back of )?{whose} "
        r"(?:neck|back)\b|"
        # the next act set as the only one: "You find yourself trapped in a narrow passage, your
        # only escape being to swim down into the depths" (run 21)
        rf"\b{whose} only (?:option|choice|way out|hope|chance|escape) (?:being|is|was|left is) to\b|"
        # ... told of no one, the grammar keeping "your" out: "As the ledge tilts, causing a
        # sudden drop, the only option is to jump off", "the only way to maintain balance is by
        # jumping off" (a failed balance, runs 43 and 44). (Not a way in, "the only way to get in
        # is through a secret door", nor what the way was, "the only way to climb it was by
        # breaking it": grammar1, eighth words.)
        r"\bthe only (?:option|choice)(?: left)? (?:is|remains) to\b|"
        r"\bthe only way to [^.!?\n]{1,30}? is by \w+ing\b|"
        # "The wolf roars menacingly, sending you back to try again" (run 17): a new attempt
        # (these three read from one "you": one scan from each, not three)
        rf"\b{who}\b[^.!?\n]{{0,40}}?\b(?:(?:to |and )?(?:try|tries|tried|attempt|attempts) "
        r"(?:again|once more)\b|"
        r"(?:stay|stays|stayed|remain|remains|remained|keep|keeps|"
        r"kept) (?:calm|composed|focused|cool|steady|your composure|his composure|her composure)\b|"
        rf"left (?:feeling|with a (?:sense|feeling) of)\s+{_MOOD})|"
        # "you are left feeling disappointed" (a tie, run 15)
        # "You climb the stair, feeling exhilarated and victorious"
        rf"(?:^|(?<=[.!?] )){who}\b[^.!?\n]*?,\s*(?:feeling|filled with|full of)\s+"
        rf"(?:\w+\s+)?(?:a\s+|an\s+)?(?:\w+\s+)?{_EMOTION}\b|"
        # a mood told by its form, not by a list of emotions: "Kell looks up at the moon, feeling
        # confused and disoriented", "You fall ..., feeling a mix of surprise and disappointment"
        # (a real model, run 11); "feeling the spray" is a sensation (a determiner, a thing)
        rf"(?:^|(?<=[.!?] )){who}\b[^.!?\n]*?(?:,\s*feeling|\b(?:feel|feels|felt))\s+{_MOOD}|"
        # the character's mind: "Kell looks at the empty pocket, unsure what to do next", "A
        # blinding sandstorm sweeps through the fort, leaving you gasping for breath and wondering
        # how to escape" (run 14)
        # (not another's: "you realize that they seem uncertain about what happened", run 11)
        rf"\b(?:you|{_names(character)})\b(?:(?!\b(?:they|he|she|it|who|which|that)\b)[^.!?\n])*?"
        r"\b(?:unsure|uncertain|not sure|wondering|at a loss|"
        r"undecided) (?:of |about )?(?:what|how|whether|if|where|which|who|why)\b|"
        # a feeling arriving in a sentence of the character's: "You sense its presence, and a
        # panic begins to set in" (run 11); "dread washes over you"
        rf"(?:^|(?<=[.!?] ))[^.!?\n]*\b(?:you|your|{_names(character)})\b[^.!?\n]*\b{_EMOTION}\s+"
        r"(?:\w+\s+)?(?:begins to |began to |starts to |started to )?(?:sets? in|setting in)\b|"
        rf"\b{_EMOTION}\s+(?:wash|washes|washed|washing|grip|grips|gripped|gripping|seize|seizes|"
        r"seized|overcome|overcomes|overcame|overwhelm|overwhelms|overwhelmed|flood|floods|"
        r"flooded|course|courses|coursed|fill|fills|filled|consume|consumes|consumed)"
        rf"(?: over| through)? (?:you|your|{_names(character)})\b",
        re.M,
    )


def _four_letter_stems(text: str, shortest: int = 4) -> set[str]:
    """The first four letters of each word of ``shortest`` letters or more: how words are
    compared with the player's own."""
    return {w[:4] for w in re.findall(rf"[a-z]{{{shortest},}}", text.lower())}


def _stated(words: str, action: str | None) -> bool:
    """Whether an act of will is the player's own: a verb of theirs ("I flee the guards": "you
    flee" tells their attempt). Compared by stem (the first four letters of each word)."""
    if not action:
        return False
    theirs = _four_letter_stems(action)
    return any(w[:4] in theirs for w in re.findall(r"[a-z]{4,}", words.split(" ", 1)[-1]))


def _agrees(verb: str, subject_is_you: bool) -> bool:
    """Whether a coordinated verb can have the player's character as subject ("you … and
    decide", "Kara … and decides"), not some other noun ("the captain … and agrees")."""
    verb = verb.split(" ")[0]
    if verb.endswith("ed") or verb in ("chose", "took", "shook", "made"):
        return True
    return (verb.endswith("s") and not verb.endswith("ss")) != subject_is_you


def _check_player_agency(
    prepared: str, text: _Text, expect: Expectation, pronouns: list[int]
) -> GuardCheck:
    pat = _agency(expect.character)
    speech: list[str] = []
    if '"' in prepared or "'" in prepared:
        low = prepared.lower()
        for at in (m.start() for m in pat.subject.finditer(low)):
            m = pat.speaks_before.match(low, at)
            if not m or _NOT_BETWEEN.search(m.group("between")):
                continue
            if re.search(r"[.!?;\"]", m.group("between")) or _HYPOTHETICAL_CHOICE.search(
                _clause_before(low, at)
            ):
                continue
            speech.append(_excerpt(prepared, m.start(), m.end() + 12) + "…")
        speech.extend(
            _excerpt(prepared, m.start() + 1, m.end()) for m in pat.speaks_after.finditer(low)
        )
    joined = text.joined
    for m in pat.pronoun_speaks.finditer(joined) if pronouns else ():
        if m.start("a" if m.group("a") else "b") in pronouns:
            speech.append(_excerpt(joined, m.start(), m.end()))
    # "..., leaving you with no choice but to give up" (run 24): the next act decided
    choices: list[str] = [
        _excerpt(joined, m.start(), m.end()) for m in _NO_CHOICE_LEFT.finditer(joined)
    ]
    feelings: list[str] = []
    subjects = sorted([m.start() for m in pat.subject.finditer(joined)] + pronouns)
    for at in subjects:
        i = bisect_right(text.starts, at) - 1
        sentence, local = text.sentences[i], at - text.starts[i]
        if sentence.rstrip('"… ').endswith("?"):
            continue
        if _HYPOTHETICAL_CHOICE.search(_clause_before(sentence, local)):
            continue
        for p in (pat.chooses, pat.told):
            if m := p.match(joined, at):
                choices.append(_excerpt(joined, m.start(), m.end()))
        if (
            (m := pat.inner.match(joined, at))
            and not _stated(m.group(), expect.action)
            and not re.search(r"\b(?:who|whom|whoever|that|which|what)\s+$", sentence[:local])
        ):
            feelings.append(_excerpt(joined, m.start(), m.end()))
        m = pat.coordinated.match(joined, at)
        if (
            m
            and not _NOT_BETWEEN.search(m.group("between"))
            and _agrees(m.group("v"), m.group("pc") == "you")
            and not _HYPOTHETICAL_CHOICE.search(
                _clause_before(sentence, m.start("v") - text.starts[i])
            )
        ):
            choices.append(_excerpt(joined, m.start(), m.end()))
    choices.extend(
        _excerpt(joined, m.start(), m.end()).split(",")[0] for m in pat.participle.finditer(joined)
    )
    causes = pat.causes.finditer(joined)
    if pronouns:  # the character is "he" or "she" here: "forcing him to swim back" is theirs
        causes = itertools.chain(causes, _CAUSED_PRONOUN.finditer(joined))
    for m in causes:
        i = bisect_right(text.starts, m.start()) - 1
        if not _HYPOTHETICAL_CHOICE.search(
            _clause_before(text.sentences[i], m.start() - text.starts[i])
        ):
            feelings.append(_excerpt(joined, m.start(), m.end()))
    problems = []
    if speech:
        problems.append(f"the player's character is made to speak: {_quote_words(speech)}")
    if choices:
        problems.append(f"the player's character is made to choose: {_quote_words(choices)}")
    feelings += [
        _excerpt(joined, m.start(), m.end()) for m in _heart(expect.character).finditer(joined)
    ]
    if feelings:
        problems.append(f"the player's character is made to feel or act: {_quote_words(feelings)}")
    if problems:
        return GuardCheck(id="player_agency", passed=False, reason="; ".join(problems))
    return GuardCheck(id="player_agency", passed=True)


# --- claimed state changes -------------------------------------------------------------------
#
# A narration that says a meter moved claims a state change, and the engine's `changes` are the
# only changes there are: "You gain +1 focus" on a roll that changed nothing, "momentum +1" on a
# Strike whose record holds only progress, "her stamina decreases by 3" where the sheet's might
# is 3 (a number the engine did produce, so the numbers check let it pass). Each claim is read as
# (meter, direction, amount) and must match a change of the engine's on that meter, in direction
# and, when the claim gives one, in amount. Telling both options of a "choose one" is a case of
# it: the engine records the option taken (or none while the player has yet to choose).

# The meters a claim may name, each with the change targets it stands for (the last part of a
# target: "momentum.stamina" is stamina) and the direction the word itself carries (harm and
# stress are losses of health and spirit, whatever verb tells them).
_METERS: tuple[tuple[str, tuple[str, ...], int | None], ...] = (
    ("momentum", ("momentum",), None),
    ("health", ("health", "companion_health"), None),
    ("harm", ("health", "companion_health"), -1),
    ("spirit", ("spirit",), None),
    ("stress", ("spirit",), -1),
    ("supply", ("supply",), None),
    ("integrity", ("integrity",), None),
    ("progress", ("progress", "progress_marks", "ticks", "marks"), None),
    ("experience|xp", ("experience", "xp"), None),
    ("focus", ("focus",), None),
    ("blood", ("blood",), None),
    ("hunger", ("hunger",), None),
    ("hearts", ("hearts", "heart"), None),
    ("stamina", ("stamina",), None),
    ("power", ("power",), None),
    ("fatigue", ("fatigue",), None),
    ("wounds?", ("wounds", "wound"), None),
    ("willpower", ("willpower",), None),
    ("hp|hit points?", ("hp",), None),
    ("slots?", ("lock_slots", "slots"), None),  # Go Forth's locked momentum
)
_NEXT_MOVE = "next"  # "add +1 on your next move": the held add (next_roll_adds)
_UP = (
    "gain|gains|gained|gaining|take|takes|took|taking|get|gets|got|getting|receive|receives|"
    "received|receiving|earn|earns|earned|earning|add|adds|added|adding|mark|marks|marked|"
    "marking|regain|regains|regained|regaining|recover|recovers|recovered|recovering|restore|"
    "restores|restored|restoring|increase|increases|increased|increasing|boost|boosts|boosted|"
    "boosting|raise|raises|raised|raising|lock|locks|locked|locking"
)
_DOWN = (
    "lose|loses|lost|losing|suffer|suffers|suffered|suffering|spend|spends|spent|spending|"
    "burn|burns|burned|burnt|burning|sacrifice|sacrifices|sacrificed|sacrificing|reduce|"
    "reduces|reduced|reducing|decrease|decreases|decreased|decreasing|drain|drains|drained|"
    "draining|deplete|depletes|depleted|depleting|cost|costs|costing"
)
_RISE = (
    "increases?|increased|rises?|rose|risen|goes up|went up|grows?|grew|climbs?|climbed|"
    "(?:is |was )?(?:boosted|restored|replenished|renewed|bolstered)"
)
_FALL = (
    "decreases?|decreased|drops?|dropped|falls?|fell|goes down|went down|is reduced|was reduced|"
    "reduced|diminishes|diminished|shrinks?|shrank|dwindles?|dwindled|sinks?|sank|"
    "(?:is |was )?(?:\\w+ly )?(?:undermined|weakened|drained|sapped|depleted|spent|lost|hit|low|"
    "damaged|broken|shaken)"
)
_AMOUNT = (
    rf"(?:[+\-]\s?\d+|\d+|{'|'.join(sorted(_WORD_NUMBERS, key=len, reverse=True))}|a|an|once|twice)"
)
_SPAN = r"(?:\s+(?:some|more|extra|additional|another|point|points|of|the|your|his|her|their|a|an|full|whole|(?:[+\-]\s?)?\d+|[a-z]+ly))"


@dataclass(frozen=True)
class _Claim:
    meter: str  # the targets' key (the first target it stands for)
    targets: tuple[str, ...]
    sign: int | None
    amount: int | None
    words: str
    at: int


@lru_cache(maxsize=8)
def _claim_patterns(system: str) -> tuple[re.Pattern[str], ...]:
    """Compiled for one system's meters (its TERMS): "heart" is a stat in Sundered Isles, and a
    meter in no system; Go Forth's hearts are."""
    terms = " ".join(TERMS.get(system, _COMMON_TERMS))
    mine = [m for m, _, _ in _METERS if any(w.rstrip("?s") in terms for w in m.split("|"))]
    meter = "|".join(f"(?:{m})" for m in mine)
    num = rf"(?P<n>{_AMOUNT})"
    by = rf"(?P<n>[+\-]?\s?\d+|{'|'.join(sorted(_WORD_NUMBERS, key=len, reverse=True))})\b"
    # "your progress is undermined" is the rule's prose for a miss, not a change of the track
    owned = "|".join(f"(?:{m})" for m in mine if m != "progress")
    return (
        # gain +1 focus / lose two momentum / suffer 2 harm / take +2 momentum / mark progress
        re.compile(
            rf"\b(?P<v>{_UP}|{_DOWN})\b(?:{_SPAN}){{0,4}}?(?:\s+{num})?(?:{_SPAN}){{0,3}}?\s+"
            rf"(?P<t>{meter})\b(?!\s+(?:track|roll|move|die|dice)\b)"
        ),
        # momentum +1 / (focus -1)
        re.compile(rf"\b(?P<t>{meter})\b\s*(?P<s>[+\-]\s?\d+)\b"),
        # stamina decreases by 3 / your momentum drops (an owner or an amount: "the gaoler's
        # heart sinks" is prose)
        re.compile(
            rf"(?:\b(?P<t>{meter})\b(?:\s+(?:is|was|has|have|will))?\s+(?:(?P<r>{_RISE})|"
            rf"(?P<f>{_FALL}))\s+by\s+{by}|\b(?:your|his|her|their|[a-z]+'s)\s+(?P<t2>{owned})\b"
            rf"(?:\s+(?:is|was|has|have|will))?\s+(?:(?P<r2>{_RISE})|(?P<f2>{_FALL}))"
            rf"(?:\s+by\s+(?P<n2>{_AMOUNT})\b(?!\s+[a-z]))?)"
        ),
        # +1 momentum / -2 health (the sign given, no verb before it)
        re.compile(
            rf"(?<![\w+\-])(?P<s>[+\-]\s?\d+)\s+(?:(?:to|of)\s+)?(?:your\s+)?(?P<t>{meter})\b"
        ),
        # add +1 on your next move / +1 to your next roll
        re.compile(
            rf"(?:\b(?P<v>{_UP})\s+)?(?P<s>[+\-]\s?\d+|{_AMOUNT})\s+(?:on|to)\s+(?:your|the|his|her|"
            r"their)\s+next\s+(?P<t>move|roll|action)\b"
        ),
    )


def _amount(n: str | None) -> int | None:
    if not n:
        return None
    n = n.replace(" ", "")
    if n in ("a", "an", "once"):
        return 1
    if n == "twice":
        return 2
    if n in _WORD_NUMBERS:
        return _WORD_NUMBERS[n]
    return abs(int(n))


def _meter_of(word: str) -> tuple[str, tuple[str, ...], int | None]:
    if word in ("move", "roll", "action"):
        return _NEXT_MOVE, ("next_roll_adds", "adds", "next_move_adds"), None
    for pattern, targets, sign in _METERS:
        if re.fullmatch(pattern, word):
            return targets[0], targets, sign
    return word, (word,), None


def _claims(text: _Text, system: str) -> list[_Claim]:
    claims: list[_Claim] = []
    taken: list[tuple[int, int]] = []
    for pattern in _claim_patterns(system):
        for m in pattern.finditer(text.joined):
            groups = m.groupdict()
            t = "t" if groups.get("t") else "t2"
            if groups.get("t2"):
                groups.update(r=groups.get("r2"), f=groups.get("f2"))
            if any(a < m.end(t) and m.start(t) < b for a, b in taken):
                continue
            meter, targets, word_sign = _meter_of(m.group(t))
            sign: int | None = None
            signed = groups.get("s")
            if not signed and (groups.get("n") or "").strip()[:1] in ("+", "-"):
                signed = groups["n"]  # "take -2 health": the sign told wins over the verb
            if signed and signed.strip()[0] in "+-":
                sign = 1 if signed.strip()[0] == "+" else -1
            elif groups.get("v"):
                sign = 1 if re.fullmatch(_UP, groups["v"]) else -1
            elif groups.get("r"):
                sign = 1
            elif groups.get("f"):
                sign = -1
            if word_sign is not None:
                sign = word_sign  # "take 2 harm" is a loss of health
            amount = _amount(groups.get("n") or groups.get("n2") or (signed if signed else None))
            if meter == _NEXT_MOVE and amount is None:
                continue
            taken.append((m.start(t), m.end(t)))
            claims.append(_Claim(meter, targets, sign, amount, m.group().strip(), m.start()))
    return claims


def _made(claim: _Claim, changes: tuple[ChangeFact, ...]) -> bool:
    for change in changes:
        # any part of the target: Go Forth's "momentum.power" is momentum's, and power's
        if not set(re.split(r"[.:]", change.target)) & set(claim.targets):
            continue
        if change.delta is None:
            return True  # set to a value: any telling of a move on that meter
        if claim.sign is not None and (change.delta > 0) != (claim.sign > 0):
            continue
        if claim.amount is not None and abs(change.delta) != claim.amount:
            continue
        return True
    return False


# A sentence that states a rule rather than what happened ("On a weak hit, take +1 momentum",
# "If you choose to...", "Otherwise...") claims nothing.
_RULE_SENTENCE = re.compile(
    r"^(?:[\-•*]\s|\d[.)]\s)|^(?:\"…\"\s*)?(?:on a (?:strong hit|weak hit|miss|hit|match)|if\b|when\b|whenever\b|"
    r"otherwise\b|unless\b|either\b|choose\b|you (?:may|can|could|might) )"
)


_LIST_ITEM = re.compile(r"^\s*(?:[\-•*]|\d[.)])\s")


_CHOICE_LEAD = re.compile(r"\bchoose\b|\bas follows\b|\bany of\b|\boptions?\b")


def _options(raw: str) -> list[str]:
    """The lines of a list that follows "choose" (the rule's options, lower-cased)."""
    out, choosing = [], False
    for line in raw.translate(_NORMALISE).lower().splitlines():
        if _LIST_ITEM.match(line):
            if choosing:
                out.append(" ".join(line.split()))
        else:
            choosing = bool(_CHOICE_LEAD.search(line)) or (choosing and not line.strip())
    return out


# What a roll changes when the request does not say (the hand-written sets' format): an oracle or
# a table roll changes nothing, and in the Ironsworn family no move's miss raises these ("On a
# miss, you fail, or a momentary success is undermined by a dire turn of events"; Resupply: "On a
# miss, you gain nothing"): only experience and legacy rewards come on a miss.
_CHANGELESS_KINDS = frozenset({"oracle", "table"})
_NO_GAIN_ON_A_MISS = frozenset(
    {"momentum", "health", "spirit", "supply", "integrity", "progress", "focus", _NEXT_MOVE}
)


def known_changes(kind: str) -> tuple[ChangeFact, ...] | None:
    """The changes of a roll of this kind when nothing else is known: none for an oracle or a
    table roll, unknown (None) otherwise. Real requests carry the engine's own changes."""
    return () if kind in _CHANGELESS_KINDS else None


def _gain_on_a_miss(expect: Expectation) -> bool:
    return (
        expect.changes is None
        and expect.system in _IRONSWORN
        and expect.outcome == "miss"
        and expect.polarity == "failure"
    )


# (A game's clock is named as one, "the progress clock", "the scene challenge tension clock"; a
# clock on the wall is not: "As the clock ticks down, the tension builds in the room", the
# thirty-third words.)
_TICKS = re.compile(
    r"\b(?:(?:progress|tension|campaign|challenge|countdown|doom|threat|danger|project|your|his|"
    r"her|their) clocks?|tracks?)\b[^.;!?\n]{0,20}?\b(?:ticks?|ticked|advances?|advanced|fills?|"
    r"filled)\b|"
    r"\bmark(?:s|ed)? (?:\w+ )?ticks? on\b|\bticks? on (?:your|his|her|their|the) (?:\w+ ){0,3}?track\b"
)
_DEATH = re.compile(
    r"\byou(?:'re| are| were) (?:now |already )?(?:dead|killed|slain)\b|\byou (?:die|died)\b|"
    r"\b(?:kills|killed|slays|slew) you\b"
)


def _check_changes(text: _Text, expect: Expectation, raw: str = "") -> GuardCheck:
    gains_only = _gain_on_a_miss(expect)
    if expect.changes is None and not gains_only:
        return GuardCheck(id="changes", passed=True)
    options = _options(raw) if _CHOICE_LEAD.search(raw.lower()) else []
    move_names = _system_names(expect.system)[0].values()
    bad: list[str] = []
    claims = sorted(_claims(text, expect.system), key=lambda c: c.at)
    # Options offered, not claims: two changes joined by "or" ("Suffer -1 health or lose
    # momentum (-2)", the rule's own words for a choice the player makes).
    offered: set[int] = set()
    for a, b in pairwise(claims):
        between = text.joined[a.at + len(a.words) : b.at]
        if "\n" not in between and re.search(r"\bor\b", between):
            offered.update((a.at, b.at))
    for claim in claims:
        i = bisect_right(text.starts, claim.at) - 1
        sentence, local = text.sentences[i], claim.at - text.starts[i]
        if claim.at in offered or any(claim.words in o for o in options):
            continue
        if any(claim.words in name.lower() and name in raw for name in move_names):
            continue  # a move's name ("Lose Momentum", "Endure Harm"), not a change
        if re.search(r"\b(?:each|per|every|for every|for each)\s+$", sentence[:local]):
            continue  # a rate ("exchange each -1 of supply for a point"), not a change
        if sentence.rstrip('"… ').endswith("?") or _RULE_SENTENCE.match(sentence):
            continue
        if _NEGATION.search(sentence[:local]) or _HYPOTHETICAL.search(
            _clause_before(sentence, local)
        ):
            continue
        if gains_only:
            if claim.sign is not None and claim.sign > 0 and claim.meter in _NO_GAIN_ON_A_MISS:
                bad.append(claim.words)
        elif not _made(claim, expect.changes or ()):
            bad.append(claim.words)
    if expect.changes is not None and not any(
        word in c.target
        for c in expect.changes
        for word in ("clock", "track", "progress", "legacy")
    ):
        # "The progress clock ticks down", "mark two ticks on their discoveries legacy track"
        bad += [_excerpt(text.joined, m.start(), m.end()) for m in _TICKS.finditer(text.joined)]
    if expect.changes is not None and not any(
        c.set_to == 0 or "dead" in c.target or "death" in c.target for c in expect.changes
    ):
        # the character's death told ("You are dead." on a miss): a state no change recorded
        bad += [_excerpt(text.joined, m.start(), m.end()) for m in _DEATH.finditer(text.joined)]
    if bad and gains_only:
        reason = f"a gain told on a miss, which grants none: {_quote_words(bad)}"
        return GuardCheck(id="changes", passed=False, reason=reason)
    if bad and expect.changes is not None:
        made = (
            "; ".join(
                f"{c.target} {c.delta:+d}"
                if c.delta is not None
                else f"{c.target} set to {c.set_to}"
                for c in expect.changes
            )
            or "none"
        )
        reason = f"changes the engine did not make: {_quote_words(bad)} (its changes: {made})"
        return GuardCheck(id="changes", passed=False, reason=reason)
    return GuardCheck(id="changes", passed=True)


# --- move and stat names ---------------------------------------------------------------------
#
# "Compel: miss" on a Face Danger (copied from an earlier turn), "+dexterity" on a +glamour roll:
# the roll named as another move, or the wrong stat said to be rolled. A move name counts where
# it labels the roll (followed by a colon or a band, or after "roll", "make", "trigger") or, for
# a name of two words or more, wherever it stands capitalised; a stat where it is rolled or added
# ("+dexterity", "dexterity +2", "roll with iron", "using your wits").

_LABEL_AFTER = r"\s*(?::|—|-\s|\(|\s+(?:strong hit|weak hit|miss|roll|move)\b)"
_LABEL_BEFORE = (
    r"\b(?:roll(?:s|ed|ing)?|make|makes|made|making|trigger(?:s|ed)?|use[sd]?|using)\s+(?:to\s+)?"
)


@lru_cache(maxsize=64)
def _name_patterns(names: frozenset[str]) -> re.Pattern[str] | None:
    if not names:
        return None
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w'])(?P<n>{alternatives})(?![\w'])")


@lru_cache(maxsize=64)
def _stat_patterns(stats: frozenset[str]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Another stat said to be rolled ("+dexterity", "roll with iron"), and one named as the
    roll ("Your Might check", "a Finesse save": capitalised, since "you might check" is prose),
    compiled once per system's stats: the guard runs on every streamed prefix."""
    alternatives = "|".join(re.escape(s) for s in sorted(stats))
    titled = "|".join(re.escape(s.title()) for s in sorted(stats))
    stat_used = re.compile(
        rf"\+\s?(?:{alternatives})\b|\b(?:{alternatives})\s?\+\s?\d|\b(?:roll(?:s|ed|ing)?|"
        rf"add(?:s|ed|ing)?|using|with)\s+(?:your\s+|his\s+|her\s+)?\+?(?:{alternatives})\b"
        rf"(?!\s+(?:of|and)\b)|\((?:{alternatives})\)"
    )
    return stat_used, re.compile(rf"\b(?:{titled})\s+(?:check|save|roll|test)s?\b")


def _check_names(prepared: str, expect: Expectation) -> GuardCheck:
    bad: list[str] = []
    text = _unquoted(prepared)
    moves = _name_patterns(expect.other_moves)
    for m in moves.finditer(text) if moves else ():
        name = m.group("n")
        before = text[max(0, m.start() - 20) : m.start()]
        label = re.match(_LABEL_AFTER, text[m.end() :]) or re.search(
            _LABEL_BEFORE + r"(?:the\s+)?$", before, re.I
        )
        sentence_start = not before.strip() or before.rstrip()[-1:] in ".!?:\n"
        if label or (" " in name and not sentence_start):
            bad.append(_excerpt(text, m.start(), m.end() + 6))
    if expect.other_stats:
        low = text.lower()
        stat_used, named_roll = _stat_patterns(expect.other_stats)
        bad.extend(_excerpt(low, m.start(), m.end()) for m in stat_used.finditer(low))
        bad.extend(_excerpt(text, m.start(), m.end()) for m in named_roll.finditer(text))
    if bad:
        rolled = ", ".join(x for x in (expect.move, expect.stat and f"+{expect.stat}") if x)
        reason = f"another move or stat named: {_quote_words(bad)} (rolled: {rolled or 'no move'})"
        return GuardCheck(id="names", passed=False, reason=reason)
    return GuardCheck(id="names", passed=True)


# --- form ------------------------------------------------------------------------------------
#
# A small model echoes its prompt: our delimiter tags ("<passage>…</passage>", "<action>"), the
# prompt's headings ("Rules passages:", "The engine's resolution"), or talks about "the player's
# character" instead of to "you". None of it is narration a player can read.

_SCAFFOLD = re.compile(
    r"</?\s*(?:passage|action|context|situation|question|outcome|conversation|br)\b[^>]*>|"
    # a template's placeholder shown as if a name: "The captain, <name>, is setting the scene"
    # (run 17)
    r"<\s*(?:name|character|place|npc|location|player|ship|faction|item)\s*>|"
    r"\b(?:rules passages|the engine's resolution|what the player's character attempted|"
    r"the situation so far|the player's character|write the narration again|"
    r"the first sentence|write the next sentence|write a different next sentence|"
    # the model speaking of its task or the result in the abstract: "The next sentence could be:
    # ...", "The failure is that you are unable to perform the action you wanted" (run 24)
    r"the next sentence (?:could|would|might|will|is)|the (?:failure|success|outcome|result) is "
    r"that|the action you (?:wanted|attempted|chose)|"
    # the model speaking of its task: "A rockslide! That's what the player described in the
    # situation." (run 12)
    r"the player (?:described|said|asked|wrote|mentioned|specified|provided)|"
    # "You are tailing a ghoul as the player." (run 14)
    r"as the player|"
    # "the player must make a difficult choice" (a spark, run 17): the player is "you"
    r"the player (?:must|should|needs to|has to|can|could|will|decides|chooses|faces)|"
    # the prompt's data spoken of: "The table reveals a well-preserved artifact", "The situation
    # is described as "a rockslide strikes the party."" (sparks, run 18)
    # (not the world's "situation": "the situation shows no sign of easing")
    r"the (?:table|rolled rows?|facts|prompt|engine) (?:reveals|says|shows|reads|describes|"
    r"states|indicates|gives|lists)|the situation (?:is|was) described)\b|"
    # "the player" or "the character" for "you", anywhere: "The player discovers a trap", "The
    # character falls from the rooftop", "The hero falls to the ground" (continuations asked to
    # begin with "The", stop 24's prompt trials); the world's own players, characters and heroes are
    # of something ("the players of the game", "the character of the town")
    r"(?<!card )(?<!dice )\bthe (?:players?|character|hero)\b(?!\s+(?:of|at)\b)|"
    # the session summary's turn label, mid-line too ("... a cost. T2: As you sneak aboard")
    r"\bt\d{1,4}:(?=\s)|"
    # a bracketed tag or a label line a model writes around its answer ("[OUTCOME: STRONG HIT]",
    # "Narration (2-3 sentences):")
    r"\[\s*(?:outcome|result|narration|answer|band|roll|engine|oracle)\b[^\]\n]{0,60}\]|"
    r"(?:^|(?<=[\]\n]))\s*(?:narration|narrative|outcome|response|output|story|roll|match|"
    r"state changes|answer|odds asked|t\d{1,4})(?:\s*\([^)\n]{0,40}\))?\s*:|"
    # the facts' own labels (facts.resolution_brief), echoed mid-line
    r"\bthe rule's words for this outcome\b",
    re.I,
)


# The narration prompt's own examples (prompts/narration.yaml, a wet cliff climbed) copied into a
# narration about something else: "As you tear the iron gate off its hinges, your fingers find
# the cracks and the cliff gives you the top." (a real model, issue 15). Kept in step with the
# prompt by a test.
PROMPT_EXAMPLES = (
    "the cliff gives you the top",
    "the rope you left below slides into the surf",
    "the rock crumbles under your hand",
    "the tide surges in below you",
)
# Each example is its band's: copied into a narration of another band it tells that band (a
# success told with the miss's "the tide surges in below you"); of its own band it is let be.
_EXAMPLE_ECHO: dict[Polarity, re.Pattern[str]] = {
    "success": re.compile(r"\bcliff (?:gives|gave) you the top\b", re.I),
    "mixed": re.compile(r"\brope you left below (?:slides|slid)\b", re.I),
    "failure": re.compile(
        r"\brock (?:crumbles|crumbled) under your hand\b|\btide (?:surges|surged) in below you\b",
        re.I,
    ),
}


def _example_of_another_band(text: str, expect: Expectation) -> list[str]:
    if expect.polarity not in _EXAMPLE_ECHO:
        return []
    return [
        m.group()
        for band, pattern in _EXAMPLE_ECHO.items()
        if band != expect.polarity
        for m in pattern.finditer(text)
    ]


# The narration told in the first person, outside quotes ("The dwarf ignored my haggling, and I
# paid him the price he wanted", run 9): the narrator speaks as the character, to no one.
_FIRST_PERSON = re.compile(r"(?<![\w'])(?:I|I'm|I've|I'll|I'd)(?![\w'])")


# Six words in a row of the narrator's standing instructions, told as if story: "The place, the
# weather, other people or creatures respond with a sense of liberation" (the ninth words' run;
# the stop-25 runs' prompts resent with the grammar), the continuation prompt's own words.
_ECHO_WORDS = 6


# ... and the continuation prompt's words before its scene was asked for (a model's reply in
# them is no story whichever prompt it was sent)
_FORMER_INSTRUCTIONS = (
    "write the one sentence that comes next: how the place, the weather, other people or "
    "creatures respond to that result."
)


@lru_cache(maxsize=1)
def _instruction_runs() -> frozenset[tuple[str, ...]]:
    runs = set()
    prompts = [
        get_prompt(name).system for name in ("narration", "narration_next", "table", "oracle")
    ]
    for system in (*prompts, _FORMER_INSTRUCTIONS):
        # (not the worked examples, in quotation marks: a reply in their words is judged by
        # _copied_example, against its band)
        told = re.sub(r'"[^"]*"', " | ", (system or "").lower())
        words = re.findall(r"[a-z']+|\|", told)
        runs |= {tuple(words[i : i + _ECHO_WORDS]) for i in range(len(words) - _ECHO_WORDS + 1)}
    return frozenset(run for run in runs if "|" not in run)


def _echoed_instructions(text: str) -> list[str]:
    words = re.findall(r"[a-z']+", text.lower())
    runs = _instruction_runs()
    return [
        " ".join(words[i : i + _ECHO_WORDS])
        for i in range(len(words) - _ECHO_WORDS + 1)
        if tuple(words[i : i + _ECHO_WORDS]) in runs
    ][:1]


# A sentence the grammar cut at an abbreviation's point: "..., the manor's owner, Mr." (a
# continuation resent with the grammar, whose sentence ends at the first . ! or ?)
_CUT_AT_A_TITLE = re.compile(
    r"\b(?:Mr|Mrs|Ms|Dr|St|Capt|Lt|Sgt|Col|Gen|Prof|Rev|Sr|Jr|Mt|Ft)\.\s*$"
)


# Another script mid-story: "the confused look on你的 face" (run 36: the model, barred from
# "your", wrote it in Chinese)
_OTHER_SCRIPT = re.compile(
    r"[\u0400-\u04ff\u0590-\u06ff\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]+"
)


def _check_form(text: str) -> GuardCheck:
    found = [m.group() for m in _SCAFFOLD.finditer(text)]
    found += [f"{m.group()} (another script)" for m in _OTHER_SCRIPT.finditer(text)][:1]
    found += _echoed_instructions(text)
    found += [f"{m.group()} (a sentence cut short)" for m in _CUT_AT_A_TITLE.finditer(text)]
    plain = _unquoted(_prepare(text))
    found += [
        f"{m.group()} (the first person)"
        for m in _FIRST_PERSON.finditer(plain)
        # not in speech the quotation pattern missed ("'You think I'd cross the Syndicate?'")
        if not re.search(r"\"|(?<![\w])'", re.split(r"[.!?]\s", plain[: m.start()])[-1])
    ][:1]
    if found:
        reason = f"the prompt's own words or tags in the narration: {_quote_words(found)}"
        return GuardCheck(id="form", passed=False, reason=reason)
    return GuardCheck(id="form", passed=True)


_HARM_ROW = re.compile(r"\b(?:wound|wounds|harm|injur\w*|damage|hurt|bleed\w*)\b", re.I)
_NO_HARM = re.compile(
    # harm made light of: "the rockslide leaves only a small scratch on their armor" (run 27)
    r"\bonly (?:a |some )?(?:\w+ )?(?:scratch|scratches|scrape|scrapes|bruise|bruises|dent|dents)\b|"
    r"\b(?:scratch|scratches|scrape|scrapes|dent|dents) (?:on|in) (?:the |their |your |his |her |"
    r"its )?armou?r\b|"
    r"\b(?:no (?:one|body) (?:is |was )?(?:hurt|harmed|injured|wounded)|no (?:injuries|injury|"
    # (not "no injuries are severe", run 26: a shallow wound)
    r"wounds?|harm|damage)(?! (?:are|is|were|was) (?:too |very |that )?(?:severe|serious|grave|"
    r"deep|bad|dangerous|life))|(?:unhurt|unharmed|uninjured|unscathed|unwounded)|without (?:a "
    r"scratch|injury|harm)|not\b[^.;:!?]{0,40}?\b(?:cause|causes|causing|inflict|inflicts|"
    # ("does not cause any immediate harm", run 28; not "any serious injuries", run 29: a
    # shallow wound is no serious one)
    r"inflicting|do|does|doing|leave|leaves|leaving) (?:(?:any|much|real|immediate|actual) )*"
    r"(?:injur\w*|harm|"
    r"wounds?|damage))\b",
    re.IGNORECASE,
)


_HARMS_YOU = re.compile(
    r"\byou (?:are |were |get |got |have been )?(?:\w+ )?(?:wounded|injured|hurt|shot|stabbed|"
    r"pierced|bitten|slashed|gored|impaled)\b|"
    r"\b(?:pierces?|pierced|strikes?|struck|hits?|wounds?|wounded|stabs?|stabbed|slashes?|"
    r"slashed|bites?|bit|gores?|gored) (?:you|your (?:chest|arm|leg|shoulder|side|back|head|body|"
    r"hand|neck|thigh|flank|armou?r|gut|stomach|face))\b|"
    r"\byou (?:fall|fell|collapse|collapsed|crumple|crumpled|drop|dropped) to the (?:ground|floor)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=64)
def _death(character: str | None) -> re.Pattern[str]:
    who = f"you|{_names(character)}"
    return re.compile(
        rf"\b(?:(?:{who}) (?:\w+ )?(?:and )?(?:die|dies|died|drown|drowns|drowned|are dead|is dead|"
        rf"are killed|is killed|was killed|were killed|breathe your last|breathes (?:his|her|their) "
        rf"last)|(?:you)\b[^.;:!?,]{{0,50}}? and (?:then )?(?:drown|die)|(?:kills?|killed|killing) "
        rf"(?:{who})\b(?! (?:almost|nearly))|(?:to|meet|meets|met) (?:your|his|her|their) "
        r"(?:death|doom|end)|falls? to (?:your|his|her|their) death|"
        # "You fall off the ledge, breaking your neck" (run 31)
        r"(?:break|breaks|breaking|broke|snap|snaps|snapping|snapped) (?:your|his|her|their) "
        r"neck|(?:your|his|her|their) neck (?:breaks|snaps|broke|snapped))\b",
        re.IGNORECASE,
    )


# The continuation prompts' shown replies (prompts/narration_next.yaml, table.yaml: a sentry
# snoring on, a plank snapping) copied into a spark of another scene: six words running of one
# of them.
_COPIED_RUN = 6


@lru_cache(maxsize=1)
def _example_runs() -> dict[tuple[str, ...], str]:
    runs: dict[tuple[str, ...], str] = {}
    for name in ("narration_next", "table"):
        for example in get_prompt(name).examples:  # type: ignore[arg-type]
            words = re.findall(r"[a-z']+", example.assistant.lower())
            for i in range(len(words) - _COPIED_RUN + 1):
                runs[tuple(words[i : i + _COPIED_RUN])] = example.assistant
    return runs


def _copied_example(text: str) -> str:
    words = re.findall(r"[a-z']+", text.lower())
    runs = _example_runs()
    for i in range(len(words) - _COPIED_RUN + 1):
        if (run := tuple(words[i : i + _COPIED_RUN])) in runs:
            return " ".join(run)
    return ""


# --- the check ---------------------------------------------------------------------------------


def check_narration(text: str, expect: Expectation, *, complete: bool = True) -> GuardReport:
    """Check a narration (or, ``complete=False``, the part of it streamed so far) against the
    engine's outcome.

    On a prefix every check flags only what the text says, never what it has not said yet, so a
    prefix that passes stays passing until a sentence that contradicts the outcome arrives. Only
    the whole narration is read for an outcome told through events alone, which weighs what the
    narration does not say (nothing of the other side anywhere in it)."""
    if expect.rows and expect.lead and text.lstrip().startswith(expect.lead):
        # A spark's lead is the rolled rows as the engine gives them (lead.spark_lead): their
        # own words ("lose 2 point of blood", "You give in to fear") are the table's, not the
        # model's; only what follows is the narrator's to check.
        text = text.lstrip()[len(expect.lead) :]
    if expect.lead and text.lstrip().startswith(expect.lead):
        # (the lead is code's words, the player's among them: only the model's are unbent)
        text = expect.lead + unbent(text.lstrip()[len(expect.lead) :], expect)
    else:
        text = unbent(text, expect)
    prepared = _prepare(text)
    sentences = _Text.of(prepared)
    pronouns = _pronoun_subjects(sentences, expect.character)
    checks = [
        _check_outcome(sentences, expect, pronouns, complete),
        _check_answer(sentences, expect),
        _check_numbers(prepared, expect),
        _check_player_agency(
            prepared,
            sentences,
            expect,
            sorted(set(pronouns) | set(_nearest_is_character(sentences, expect.character))),
        ),
        _check_changes(sentences, expect, text),
        _check_names(prepared, expect),
        _check_form(text),
    ]
    if expect.lead and (died := [m.group() for m in _death(expect.character).finditer(prepared)]):
        # the engine decides death (harm, meters, wounds, Face Death's "You are dead"): after a
        # lead, a narrator's "you fall to your death" on a failed save is a number it changed
        # (stop 24's prompt trials, run 16's)
        checks = _merged(checks, {"outcome": f"the character's death told: {_quote_words(died)}"})
    if (
        expect.rows
        and _HARM_ROW.search(" ".join(expect.rows))
        and (denied := [m.group() for m in _NO_HARM.finditer(prepared)])
    ):
        # a row that wounds told as no one hurt: "Severity Table: Shallow Wound (Reason check or
        # Long Rest). The party is shaken, but no injuries are reported." (run 23), "... but it's
        # not severe enough to cause any injuries" (run 24)
        checks = _merged(checks, {"outcome": f"the row's harm denied: {_quote_words(denied)}"})
    if (
        expect.rows
        and not _HARM_ROW.search(" ".join(expect.rows))
        and (harmed := [m.group() for m in _HARMS_YOU.finditer(prepared)])
    ):
        # a row that does not harm told as harm to the character: "Pay the Price: You are
        # separated from something or someone. The hunter's arrow pierces the chest, and you fall
        # to the ground." (run 28): the graver row the table did not roll
        checks = _merged(checks, {"outcome": f"harm no row dealt: {_quote_words(harmed)}"})
    # (a spark's only: the example is the table prompt's, a storm in a chapel, and a narration
    # begun with the scene tells weather in the same words, "The wind howls through the broken
    # windows, and the rain falls in torrents", stop 33's thirty-sixth words)
    if expect.rows and (copied := _copied_example(text)):
        checks = _merged(checks, {"form": f"a prompt's example reply copied: '{copied}'"})
    if told := _other_row_told(sentences, expect):
        checks = _merged(checks, {"outcome": f"a row the table did not roll told: {told}"})
    if expect.rows and (acts := _continuation_acts(text, expect)[0]):
        # a table's event befalls the character or is seen by them; the player says what they
        # do about it ("You quickly gather your belongings and head to the deck", run 12)
        checks = _merged(checks, {"player_agency": f"the character acts: {_quote_words(acts)}"})
    if expect.lead and text.lstrip().startswith(expect.lead):
        checks = _with_continuation(checks, text.lstrip()[len(expect.lead) :], expect, complete)
    return GuardReport(passed=all(c.passed for c in checks), checks=checks)


# --- a table's other rows ---------------------------------------------------------------------
#
# A table's rolled row told in other words is the narrator's work; another row's own words are
# not ("a distrustful individual or community acting against you" for Elegy's Pay the Price row
# "You are separated from something or someone", run 11). Words are compared by their first five
# letters; those of the rolled rows and the player's situation are not counted.
def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# (Not vectorstore.keyword's tokenize or STOPWORDS: with its stemming a real model's consistent
# spark read as another row (run 7), and its shorter stop list missed one (run 6).)
_ROW_WORD = re.compile(r"[a-z]{4,}")
_COMMON = _word_set(
    "this that with from your their there them they what when where which while into onto upon "
    "have been were will would could should some something someone more most much many very "
    "than then also just only over under other another each every make made take taken give "
    "comes come"
)


def _stems(text: str) -> set[str]:
    return {w[:5] for w in _ROW_WORD.findall(text.lower()) if w not in _COMMON}


@lru_cache(maxsize=64)
def _row_words(
    rows: tuple[str, ...], other_rows: tuple[str, ...], action: str | None
) -> tuple[tuple[str, frozenset[str]], ...]:
    """Each other row with its own words (not the rolled rows' nor the situation's), once per
    expectation rather than once per streamed prefix."""
    known = _stems(" ".join(rows)) | _stems(action or "")
    return tuple((row, frozenset(_stems(row) - known)) for row in other_rows)


def _other_row_told(text: _Text, expect: Expectation) -> str:
    """The first other row whose words a sentence holds (three at least, and most of them)."""
    for row, words in _row_words(expect.rows, expect.other_rows, expect.action):
        if len(words) < 3:
            continue
        for sentence in text.sentences:
            shared = words & _stems(sentence)
            if len(shared) >= 3 and len(shared) * 3 >= len(words) * 2:
                return f"'{row}'"
    return ""


# --- after a lead: the world's response, not the character's acts -------------------------------


# After the code's lead the model is asked for the scene around the outcome (before stop 33, "how
# the place, the weather, other people or creatures respond"), and "Never say what "you" do next".
# So there the character may only be the subject of a verb of perception or being, of what befalls
# them, or of the player's own words ("As you study the walls"): an allowed list, not a list of
# forbidden acts (a real model's acts past the attempt were each new: "You quickly adjust the
# hinges", "You explain to the harbourmaster", "Kell carefully scanned the fog bank", "You enter
# the bar").
_PERCEIVE_OR_BE = _word_set(
    """see sees saw seen hear hears heard notice notices noticed spot spots spotted smell smells
    smelled smelt sense senses sensed feel feels felt watch watches watched glimpse glimpses
    glimpsed catch catches caught taste tastes tasted realise realises realised realize realizes
    realized know knows knew find finds found are were re have has had ve can cannot could
    may might must will would should shall do does did don didn won wouldn couldn isn aren
    wasn weren remain remains remained stay stays stayed seem seems seemed appear appears
    appeared become becomes became get gets got reach reaches reached arrive arrives arrived
    land lands landed emerge emerges emerged end ends ended stand stands stood manage manages
    managed succeed succeeds succeeded make makes made was is am balance balances steady
    steadies breathe breathes recover recovers cling clings brace braces look looks looked gaze
    gazes gazed stare stares stared peer peers peered listen listens listened observe observes
    observed examine examines examined inspect inspects inspected study studies studied
    recognise recognises recognised recognize recognizes recognized discover discovers
    discovered need needs needed receive receives received"""
)
# What befalls the character: a failure's or a cost's, never a success's ("You climb the cliff
# to the watchtower, and it works. ... you lose balance. You fall and break your leg.").
_BEFALLS = _word_set(
    """fall falls fell fallen stumble stumbles stumbled slip slips slipped lose loses lost sink
    sinks sank struggle struggles struggled tire tires tired drop drops dropped miss misses
    missed fail fails failed choke chokes choked gasp gasps gasped crash crashes crashed tumble
    tumbles tumbled slide slides slid plunge plunges plunged collapse collapses collapsed bleed
    bleeds bled break breaks broke hit hits wake wakes woke awake cough coughs coughed
    stagger staggers staggered reel reels reeled freeze"""
)
_CLAUSE_START = (
    r"(?:^\s*|(?<=[.!?;:,—])\s*|\b(?:and|but|as|when|while|so|then|until|before|after|because|"
    r"that|where|once|though|although|since|now|yet)\s+)"
)
_ADVERBS = r"(?:(?:\w+ly|then|also|just|still|finally|soon|again|even|only|now)\s+)*"


# States of mind another may see in the character: "sensing your fear", "the confused look on
# the face of the person who tried", "desperation in yur voice"
_SEEN_FEELINGS = (
    r"(?:fear|desperation|dread|terror|panic|despair|anger|rage|doubt|hesitation|relief|pride|"
    r"confidence|determination|excitement|anxiety|unease|nervousness|weakness|distress|worry|"
    r"apprehension|uncertainty|discomfort|confusion|disappointment|frustration|defeat|suspicion|"
    r"disbelief|sadness|guilt|shame|hope|joy)"
)
# Nerves calmed or frayed (the character's by name or by no one's, below)
_NERVES_TOUCHED = r"\b(?:calm|sooth|steadi|steady|settl|eas|fray|rattl|jangl|shatter)\w*"
# A feeling told after the lead without a "you feel": "It was a moment of relief and
# accomplishment", "The cliff, now a symbol of pride and accomplishment for Kell", "your mind
# racing with possibilities" (a real model's, runs 8 and 9).
_FELT = (
    # the moment felt: "As you climb the cliff to the watchtower, it feels like a dream come true"
    # (run 25)
    # ("it feels like you're walking on air" on a tracking success, run 32)
    r"\b(?:it|this|everything|the moment) (?:feels|felt) like (?:you're|you are|you were) "
    r"(?:walking on air|on top of the world|flying|floating|invincible|unstoppable|home|"
    r"dreaming)\b|"
    r"\b(?:it|this|everything|the moment) (?:feels|felt) like (?:a |an )?(?:dream|nightmare|"
    r"miracle|triumph|victory|lifetime|eternity|homecoming|blessing)\b|"
    # (up to three words before: "a symbol of your strength and determination", stop 24's
    # prompt trials)
    # ("a testament to your ingenuity and determination", sixth words' run 1)
    # (not another's shown or the place's made: "the dock workers ... now express a sense of
    # relief", "it creates a sense of unease", the stop-25 runs' prompts resent with the grammar)
    r"(?<!express a )(?<!expresses a )(?<!expressed a )(?<!expressing a )(?<!create a )"
    r"(?<!creates a )(?<!created a )(?<!creating a )(?<!shifts to a )(?<!shifted to a )"
    r"(?<!turns to a )(?<!turned to a )(?<!gives way to a )"
    # (a symbol only of yours or for you: "a symbol of pride and accomplishment for Kell"; not
    # "the night sky ... a canvas of stars, each one a symbol of hope and resilience", run 74)
    r"\b(?:(?:moment|sense|feeling|wave|surge|rush|flood|flush|pang|thrill) of|"
    r"symbol of(?= (?:\w+ ){0,2}?your\b| [^.;!?]{0,60}?\bfor (?:you|{names})\b)|testament to|"
    r"tribute to|proof of) (?:\w+ ){0,3}?"
    r"(?:(?:and|or) )?(?:pride|relief|accomplishment|triumph|satisfaction|dread|terror|fear|"
    r"panic|despair|joy|elation|anger|rage|fury|guilt|shame|hope|determination|resolve|"
    r"excitement|regret|sorrow|grief|doubt|confidence|anxiety|unease|frustration|victory|"
    # "it's a moment of intense anticipation" (run 24)
    r"anticipation)\b"
    # the air's, a town's: "a sense of unease fills the air", "a wave of panic sweeps through
    # the town" (run 11)
    r"(?! (?:\w+ )?(?:fills?|filled|hangs?|hung|settles?|settled|spreads?|spread|sweeps?|swept|"
    r"ripples?|rippled|runs?|ran|washes|washed|wash) (?:over |through |across |in )?(?:the|a)\b)"
    # ("a moment of panic among the patrons", "a sense of dread washes over the haven")
    r"(?! (?:among|amongst) (?:the|a)\b)|"
    r"\b(?:your|(?:{names})'s) (?:mind|thoughts|heart) (?:racing|races|raced|reeling|reels|"
    r"reeled|whirling|whirls|spinning|spins|swelling|swells|soaring|soars)\b|"
    # a state of mind on your face, in your eyes or voice, as another sees it: "The
    # quartermaster looks at the suspicious look on yur face" (runs 44, 49: "you" barred by the
    # grammar, bent; read as "your" by unbent), "the confused look on the face of the person who tried to sweet-talk him"
    # (runs 41, 48), "the words of desperation in the voice of the person trying to leave"
    r"\b(?:\w+ )?(?:look|expression|glint|gleam|flash|hint|mix|mixture|trace|glimmer|flicker) "
    # (and "the man's": "the confused look on the man's face", run 59, the sweet-talker)
    r"(?:of (?:\w+ )?\w+ )?(?:on|in|across) (?:your|(?:{names})'s|the (?:man|woman|"
    r"person|figure|stranger)'s) (?:\w+ )?(?:face|eyes|"
    r"voice|features|expression|gaze)\b|"
    rf"\b(?:look|expression|glint|gleam|flash|hint|mix|mixture|trace|glimmer|flicker|"
    rf"{_SEEN_FEELINGS})\b (?:on|in) the (?:\w+ )?(?:face|eyes|voice|gaze) of (?:the|a) "
    r"(?:person|one|individual|figure|stranger) (?:who|trying|attempting)\b|"
    rf"\b{_SEEN_FEELINGS} (?:on|in) (?:the look on )?your (?:face|eyes|voice|gaze)\b|"
    # the character's nerves calmed or frayed: "a soothing rhythm that calmed K ell's nerves"
    # (stop 35's trial)
    rf"{_NERVES_TOUCHED} (?:your|(?:{{names}})'s) nerves\b|"
    # a feeling of yours seen by another: "The rival Kindred glances down at you, sensing your
    # fear" (run 10), "The orcs, sensing your desperation" (run 8)
    r"\b(?:sens|smell|see|saw|notic|read|catch|caught|spot)\w* (?:your|(?:{names})'s) "
    rf"{_SEEN_FEELINGS}\b|"
    # "you feel your heart race with fear", "feeling the pain and fear in your body" (run 9)
    r"\b(?:feel|feels|felt|feeling)\b[^.!?;:]{0,40}?\b(?:fear|dread|terror|panic|despair|joy|"
    r"pride|relief|anger|rage|fury|guilt|shame|hope|determination|excitement|elation|regret|"
    r"sorrow|grief|doubt|anxiety|unease|frustration|triumph|satisfaction|accomplishment)\b"
)


@lru_cache(maxsize=64)
def _felt(character: str | None) -> re.Pattern[str]:
    return re.compile(_FELT.replace("{names}", _names(character)), re.IGNORECASE)


@lru_cache(maxsize=64)
def _acting_subject(character: str | None) -> re.Pattern[str]:
    names = _names(character)
    return re.compile(
        rf"{_CLAUSE_START}(?P<who>you|we|{names})\s+{_ADVERBS}(?P<verb>[a-z]+)(?:'(?P<tail>[a-z]+))?",
        re.IGNORECASE | re.M,
    )


# Someone else's demand or wish, not the character's act: "The quartermaster refuses your
# request and instead demands that you return to the island" (run 11)
_OTHERS_WISH = re.compile(
    r"\b(?:demand|order|insist|ask|request|suggest|command|urge|warn|beg|expect|want|hope|"
    r"tell|wait|wish)(?:s|ed|ing)? (?:that |for |to )?$"
)
# Into a new place: past the attempt unless the player said it ("The temperature drops as you
# enter the shrine" after forcing its door, run 9; "As you step over the open hole", run 11)
_INTO = _word_set(
    """enter enters entered step steps stepped walk walks walked go goes went head heads headed
    pass passes passed slip slips slipped leave leaves left exit exits exited"""
)


_PLACED_OR_REACHING = _word_set("find finds found reach reaches reached")
_PLACE_GONE_INTO = re.compile(r"\s+(?:the|a|an) [\w' ]{1,30}?, where (?:you|he|she)\b")
_PLACED_OR_TRYING = re.compile(
    r"\s+(?:for|out|into|toward|towards|after)\b|\s+(?:yourself|himself|herself) "
    r"(?:in|inside|at|on|atop|aboard|standing|walking|back|outside|within)\b"
)


_NOT_PLACES = frozenset({"yourself", "himself", "herself", "standing", "walking", "back", "with"})


def _taken_somewhere(verb: str, after: str, expect: Expectation) -> bool:
    """After "find" or "reach": a place found and gone into ("You find the captain's cabin, where
    you can see the deck" after sneaking aboard), put somewhere on a success ("you find yourself
    in an unexpected underground cave"), or trying again ("as you reach for the handle again"),
    all run 12. A failure may put you somewhere: what befalls you."""
    place = re.split(r"[,;.!?]", after, maxsplit=1)[0]
    asked = _sought(expect.action)
    if verb.startswith("f") and any(
        w[:5] in asked for w in re.findall(r"[a-z]{4,}", place) if w not in _NOT_PLACES
    ):
        return False  # the place the player asked for: "You find yourself standing in the vault"
        # after "I beguile the curator into showing me the vault" (run 19)
    if _PLACE_GONE_INTO.match(after):
        return expect.polarity != "failure"
    return bool(_PLACED_OR_TRYING.match(after)) and not (
        expect.polarity == "failure" and verb.startswith("f")
    )


_STILL_TRYING = _word_set("attempt attempts try tries")
_HELPING = _word_set("help helps aid aids assist assists tend tends support supports")
_TO_PLACE = (
    re.compile(r"\bto (?:the |a |an |my |our )?(?:\w+ )?([a-z]{4,})\b"),
    re.compile(r"\bto (?:the |a |an )?([a-z]{4,})\b"),
)
_INTO_PLACE = re.compile(r"\b(?:into|inside|enter|enters) (?:the |a |an |my |our )?([a-z]{4,})")


@lru_cache(maxsize=64)
def _places_sought(said: str) -> tuple[frozenset[str], frozenset[str]]:
    """Five-letter stems of the place the player set out for ("I climb the broken stair to the
    bell tower") and of the one they set out to get into ("I sneak into the Elysium unseen"),
    from their lower-cased words; cached, as a streamed narration is checked at every sentence."""
    reaching = frozenset(m.group(1)[:5] for p in _TO_PLACE for m in p.finditer(said))
    entering = frozenset(m.group(1)[:5] for m in _INTO_PLACE.finditer(said))
    return reaching, entering


def _words_after(plain: str, at: int) -> list[str]:
    """The first three words of four letters or more in the 30 characters after ``at``: what an
    act is done to ("You approach the bell tower", "Kell helps the wounded ranger")."""
    return re.findall(r"[a-z]{4,}", plain[at : at + 30].lower())[:3]


_YOUR_BLOWS = re.compile(
    r"\b(?:overwhelmed|cut down|struck down|felled|slain|killed|routed|driven back|beaten|"
    r"defeated|slashed|stabbed|run through|hacked|impaled) by (?:your|the character's) "
    r"(?:[\w-]+ ){0,3}?(?:sword|blade|cutlass|axe|spear|dagger|knife|bow|arrows?|fists?|blows?|"
    r"strikes?|attacks?|steel)\b",
    re.IGNORECASE,
)
_AGAIN = re.compile(r"[^.;:!?,\n]{0,30}?\b(?:again|once more|a second time|anew)\b")
_DIRECTING = _word_set(
    "lead leads led order orders ordered command commands commanded tell tells told signal "
    "signals signalled rally rallies rallied guide guides guided urge urges urged"
)
_DODGING = re.compile(r"\b(?:dodg|duck|jump|leap|dive|roll|sidestep|side-step)", re.IGNORECASE)
# what was got clear of: "I dodge the falling portcullis", "I throw myself clear of the toppling
# statue"
_CLEARED = re.compile(
    r"\b(?:dodge|dodges|avoid|avoids|evade|evades|clear of|away from|aside from|out of the way of) "
    r"(?:the |a |an )?(?:[a-z'-]+ )*?(?P<thing>[a-z]+)$",
    re.IGNORECASE,
)
_GETTING_CLEAR = re.compile(
    r"\b(?:dodg|escap|evad|avoid|flee|fled|surviv|duck|jump|leap|run|hide|slip|roll|dive|"
    r"scramble|throw (?:myself|yourself) clear)",
    re.IGNORECASE,
)
_BLOWS = _word_set(
    "strike strikes stab stabs slash slashes hit hits attack attacks swing swings shoot shoots "
    "punch punches kick kicks cut cuts fire fires thrust thrusts lunge lunges"
)
_SPARED = _word_set("avoid avoids avoided escape escapes escaped evade evades evaded")
_GOING_ON = re.compile(
    r"\b(?:through|into|inside|beyond|past|across|descend\w*|return\w*|back|down|away|out)\b"
)
# ... or moving on through a place: "As you navigate the dark corridors of the abandoned building"
# after hacking a terminal (run 25; not run 16's "the encrypted labyrinth", nor run 23's "as you
# reveal the secret room")
_MOVING_ON = _word_set(
    "navigate navigates walk walks wander wanders roam roams stride strides move moves explore "
    "explores traverse traverses cross crosses make makes head heads creep creeps"
)
_PLACES = re.compile(
    r"\b(?:corridors?|halls?|hallways?|rooms?|buildings?|streets?|alleys?|tunnels?|passages?|"
    r"chambers?|stairs?|staircases?)\b"
)


def _during_the_attempt(
    before: str,
    verb: str,
    after: str,
    stated: set[str],
    *,
    scene: bool = False,
    entering: frozenset[str] = frozenset(),
) -> bool:
    """A clause set during the attempt itself ("As you approach the ship" after "I sneak aboard
    the moored galleon", "As you open the door" after "I force the shrine's stone door", run 11):
    "as", "while" or "when", with approaching, or with a verb whose object the player named,
    unless it takes the character somewhere new (_INTO); a table's scene may ("As you step into
    port" for "a new session opens in port", run 9)."""
    if not re.search(r"\b(?:as|while|when)\s+$", before, re.IGNORECASE):
        return False
    if verb in ("approach", "approaches", "approached", "near", "nears", "neared") and not scene:
        return True  # (a table's scene has no attempt: "As you approach this figure", run 13)
    if verb in _INTO and not scene:
        # (going into the place the player set out to get into is the attempt: "As you enter the
        # Elysium" after "I sneak into the Elysium unseen", other words' run 1)
        clause = re.split(r"[,;.!?]", after, maxsplit=1)[0]
        return any(w[:5] in entering for w in re.findall(r"[a-z]{4,}", clause.lower()))
    blow = verb in _BLOWS or (verb in ("draw", "draws") and re.match(r"\s+blood from\b", after))
    if blow and not any(w[:4] in stated for w in _BLOWS):
        # a blow the player did not strike: "As you strike at the hound's head" (run 17), "As you
        # draw blood from the hound" (run 18), for "I call on the blood to still the hound"
        return False
    if verb in _DIRECTING:
        return False  # others led or told: "As you lead the crew, the seas calm" after picking
        # a pocket (stop 24's prompt trials); "as K ell gently guides the frightened crew to
        # safety" after "Kell steadies the frightened crew" (run 67), whom the player named
    clause, *rest = re.split(r"[,;.!?]", after, maxsplit=1)
    named = re.findall(r"[a-z]{3,}", clause)[:4]
    # The player's object named frames the attempt when the world's clause follows it ("As you
    # open the door, ..."); closing the sentence with a verb of the narrator's, it is how the
    # character did it, told for them: "creating a tense atmosphere as Kiel gently stroked the
    # frightened stowaway's back" after "Kell comforts the frightened stowaway" (the forty-first
    # words), as "as Kiel gently stroked their hair" (the thirty-fifth).
    closing = bool(re.search(r"\bas\s+$", before, re.IGNORECASE)) and (
        not rest or not re.search(r"[a-z]", rest[0]) or after[len(clause)] != ","
    )
    if any(w[:4] in stated for w in named if w not in ("the", "your", "his", "her", "its")) and (
        not closing or verb[:4] in stated
    ):
        return True
    # The attempt in other words, framing what the world does ("As you ascend, the wind picks
    # up", "As you attempt to maneuver your boat through the currents, a gust ...", "As you
    # navigate the encrypted labyrinth, ..." after climbing, reading currents, hacking: run 16's
    # false alarms): a short clause closed by a comma, with the world's clause after it. Not
    # trying again ("as you reach for the handle again"), not going on past it ("As you descend
    # the spiral staircase" after scaling a bell tower, run 11; "as you push through, revealing a
    # narrow passageway" after forcing a door, run 15), and not on a table (no attempt there).
    if scene or re.search(r"\b(?:again|once more|next|then)\b", clause):
        return False
    if verb in _STILL_TRYING:
        return True
    if verb in ("descend", "descends") and "down" in stated:
        return True  # "As you descend" after "I climb down the anchor chain" (third words' run 1)
    return (
        bool(rest)
        and after[len(clause) : len(clause) + 1] == ","
        and len(clause.split()) <= 8
        and not _GOING_ON.search(f"{verb} {clause}")
        and not (verb in _MOVING_ON and _PLACES.search(clause))
    )


# A second verb of the character's after one that is let be: "You hear the bandit's screams and
# dash back to the edge of the clearing", "You hear a low rumble ... and quickly pull out your
# longbow" (run 17). The acts a character takes on their own, followed by where or what (so
# "the waves rise and fall away" is not read: its verbs are not these).
_AND_THEN_ACTS = re.compile(
    r"\byou (?:\w+ly )?[a-z]+\b[^.!?;\n]{0,60}?,? and (?:then )?(?:\w+ly )?(?P<verb>dash|run|rush|"
    r"hurry|sprint|pull|draw|grab|snatch|reach|step|walk|climb|jump|leap|turn|head|move|push|"
    r"strike|swing|attack|shout|call|tell|say|decide|choose|flee|retreat|hide|duck|dodge|raise|"
    r"ready|nock|aim|fire|shoot|make|set|start|begin|try|attempt|continue|press|follow|open|"
    r"close|search|take|slip|sneak|charge|lunge|stab|slash|throw|hurl|kick|punch)"
    r" (?:a|an|the|your|back|out|away|up|down|off|into|inside|to|toward|towards|across|through|"
    r"over|at|for|on|forward|ahead|again|quickly|slowly)\b",
    re.IGNORECASE,
)
# ... and deciding, however far from the "you" it follows and whatever its person: "You realize
# that the quartermaster's refusal to let you go is a sign of impending danger and decides to
# take action" (run 27)
# Another's feeling, the manner of their act: "The dock workers, initially skeptical and wary, now
# approach you with a newfound sense of urgency and determination" (run 28)
_OTHERS_MANNER = re.compile(
    r"(?:^|[.!?]\s)\s*(?!(?:as |when |while |then |now )?(?:you|your)\b)(?:the|a|an|his|her|"
    r"their|its|[A-Z]\w+)\b[^.!?\n]*(?<!leaving you )(?<!leaves you )(?<!left you )(?<!fills you )"
    r"(?<!filling you )(?<!filled you )(?<!leave you )\bwith (?:a |an )?(?:\w+ )?$",
    re.IGNORECASE | re.M,
)
# ... or another's feeling perceived: "You see the harbourmaster's eyes widen, and you can feel his
# unease" (run 29)
# (not the role noun that is the character: "the confused look on the man's face", run 59)
_OTHERS_FEELING = re.compile(
    r"\b(?:his|her|their|its|(?<!the )(?:man|woman|person|figure|stranger)'s|"
    r"(?!(?:man|woman|person|figure|stranger)'s)[a-z]+'s) (?:\w+ )?\w+$",
    re.IGNORECASE,
)
# ... or another's, felt: "The prince's confidant, who had always been a loyal friend to the king,
# now feels a sense of pride" (a resent prompt, the grammar keeping "you" out): a named other and
# no "you" in the clause before the feeling
_ANOTHERS_FEELING = re.compile(
    r"(?:^\s*|[.!?;]\s+)(?:the|a|an|his|her|their|its)\s+(?:\w+'s\s+)?\w+(?:\s+\w+)?\b"
    r"(?:(?!\byou|\byour)[^.!?;])*(?<!\byou )\b(?:now |then |also |suddenly )?$|"
    # ("As the crowd watches in silence, ..., they feel a sense of unease", the tenth words)
    r"\b(?:they|it)\s+(?:now |then |also |suddenly |all )?$|"
    # ... or the others named just before the feeling: "as the passengers begin to feel a sense
    # of relief" (stop 35's trial of third-person leads); not "making Kell feel"
    r"(?:^\s*|[.!?;,]\s+|\b(?:as|while|and) )(?:the|a|an|his|her|their|its)\s+(?:\w+'s\s+)?\w+"
    r"(?:\s+\w+)?\s+(?:now |slowly |all |(?:begin|begins|began|start|starts|started) to )?$",
    re.IGNORECASE,
)
# ... or the place's: "the air is thick with a sense of anticipation" (other words' run 1), "the
# air becomes thick with moisture and a sense of dread" (run 65)
_THE_AIRS = re.compile(
    r"\b(?:air|room|hall|place|crowd|street|streets|market|silence|atmosphere|night|darkness|"
    r"chamber|court|square)\b[^.!?\n]{0,12}\b(?:thick|heavy|filled|charged|alive|ripe|rich|laden|"
    r"humming|buzzing) with (?:a |an )?(?:\w+ )?(?:and (?:a |an )?(?:\w+ )?)?$",
    re.IGNORECASE,
)
_NOW_SOMEWHERE = re.compile(
    r"\byou(?:'re| are) now (?:(?:standing|sitting|lying|perched|crouching|kneeling|hanging|"
    r"alone|stranded) )?(?:at|on|in|inside|atop|beside|before|outside|under|beneath) (?:the |a |"
    r"an )?(?P<place>[a-z' ]{3,40})",
    re.IGNORECASE,
)
_WHICH_YOU = re.compile(
    r"\b(?:which|that) you (?:then |quickly )?(?:use|used|take|took|grab|grabbed|pocket|"
    r"pocketed|stash|stashed|load|loaded|spend|spent|carry|carried|pack|packed|hand|handed|"
    r"give|gave|sell|sold|hide|hid|eat|ate|drink|drank|wear|wore|read|open|opened)\b",
    re.IGNORECASE,
)
_HAD_TO = re.compile(
    r"\byou had to (?!be\b|wait\b|watch\b|stop\b)(?:\w+ly )?[a-z]+\b", re.IGNORECASE
)
_AND_DECIDES = re.compile(
    r"\byou (?:\w+ly )?[a-z]+\b[^.!?;\n]{0,140}?,? and (?:then )?(?:\w+ly )?(?:decides?|decided|"
    r"resolves?|resolved|chooses?|chose|determines?|determined) to\b"
    # (not what is done to you: "You realize that the quartermaster is not interested in your
    # plan and decides to keep you in", run 29: his decision)
    r"(?! \w+ (?:you|yourself)\b)",
    re.IGNORECASE,
)


@lru_cache(maxsize=16)
def _owned_by_you(character: str | None) -> re.Pattern[str]:
    return re.compile(rf"\b(?:your|(?:{_names(character)})'s)\b", re.IGNORECASE)


_UNOWNED_SHIVER = re.compile(
    r"\b(?:shivers?|chills?|shudders?)\b[^.!?;]{0,30}? down the spine\b(?! of)|"
    # ... and so are no one's nerves calmed or frayed: "a soothing melody that calms the nerves
    # and brings a sense of peace to the atmosphere" (run 77)
    rf"{_NERVES_TOUCHED} the nerves\b(?! of)",
    re.IGNORECASE,
)


def _continuation_acts(words: str, expect: Expectation) -> tuple[list[str], list[str]]:
    """In the model's words after the lead: the character's acts (not perceiving, being, or
    what befalls them, nor the player's own verbs), and on a success what befalls them."""
    acts: list[str] = []
    befalls: list[str] = []
    # the player's words, and a table's rolled rows ("You face a tough choice" tells the row)
    said_before = " ".join([expect.action or "", *expect.rows]).lower()
    stated = {w[:4] for w in re.findall(r"[a-z]{3,}", said_before)}
    reaching, entering = _places_sought(said_before)
    plain = _unquoted(words)
    # "he"/"she" where it can only be the character ("Kell can't even see what's ahead. He
    # scrambles to find a way out", run 9): read as the name
    rest = _Text.of(plain)
    if expect.character and (pronouns := _pronoun_subjects(rest, expect.character)):
        plain = rest.joined  # one sentence a line, lower-cased: the pronouns' offsets are its
        for at in sorted(pronouns, reverse=True):
            if pronoun := re.match(r"(?:he|she)\b", plain[at:]):
                plain = plain[:at] + expect.character.lower() + plain[at + pronoun.end() :]
    for m in _acting_subject(expect.character).finditer(plain):
        verb = m.group("verb").lower()
        if verb == "and" and (
            both := re.match(
                rf"\s+(?:your|the|his|her|their)\s+\w+\s+{_ADVERBS}([a-z]+)", plain[m.end() :]
            )
        ):  # "You and your companions carefully negotiate with the harbourmaster" (run 11)
            verb = both.group(1)
        elif m.group("tail") or verb in ("and", "or", "yourself", "too", "alone", "all"):
            continue  # "you're", "you and the captain"
        if verb in ("manage", "manages", "managed") and (
            then := re.match(r"\s+to\s+([a-z]+)", plain[m.end() :], re.IGNORECASE)
        ):  # "you manage to dodge and make it through the fog bank" (run 13): what is managed,
            # unless it is getting clear ("The portcullis drops, and you manage to escape", run 10)
            managed = then.group(1).lower()
            if (
                managed in ("escape", "avoid", "evade", "survive", "dodge")
                # not after a success at something else: "You vault the table and strike at
                # the bandit chief, and it works. The bandit chief's guards rush to the scene,
                # but you manage to escape with your life" (stop 24's prompt trials)
                and not (
                    expect.polarity == "success" and not _GETTING_CLEAR.search(expect.action or "")
                )
                # a dodge only where one was the attempt: "you manage to dodge and avoid the
                # collision" for "I jump aside from the charging bull" (sixth words' run 1),
                # not for hiding in a fog bank (run 13)
                and (managed != "dodge" or _DODGING.search(expect.action or ""))
            ):
                continue
            verb = then.group(1).lower()
        if verb in ("try", "tries", "tried", "attempt", "attempts", "attempted", "begin", "begins",
                    "began", "start", "starts"):  # fmt: skip
            after = re.match(r"\s+to\s+([a-z]+)", plain[m.end() :], re.IGNORECASE)
            rest_of_sentence = re.split(r"[.!?]", plain[m.end() :], maxsplit=1)[0]
            if (
                after
                and expect.polarity != "success"
                and re.search(r"\bbut\b|\bonly to\b|\bfails?\b|\bin vain\b", rest_of_sentence)
            ):
                continue  # the attempt told again as failing: "You try to open the door, but ..."
            if not after and plain[m.end() : m.end() + 1] == ":":
                continue  # the offline narration's "You attempt: “…”" (the player's words)
            verb = after.group(1).lower() if after else verb
        said = _excerpt(plain, m.start("who"), m.end())
        if verb[:4] in stated and (again := _AGAIN.match(plain[m.end() :])):
            # the player's own act made again: "You quickly recover from the shock and strike
            # again, this time aiming for a different target" (run 24)
            acts.append(_excerpt(plain, m.start("who"), m.end() + again.end()))
            continue
        if verb[:4] in stated or _OTHERS_WISH.search(plain[: m.start("who")]):
            continue
        if verb in ("approach", "approaches") and any(
            w[:5] in reaching for w in _words_after(plain, m.end())
        ):
            continue  # the place the player set out for: "You approach the bell tower cautiously"
            # after "I climb the broken stair to the bell tower" (run 31)
        if verb in _HELPING and any(w[:4] in stated for w in _words_after(plain, m.end())):
            continue  # the attempt in other words: "Kell helps the wounded ranger, stabilizing him"
            # for "Kell steadies the wounded ranger" (fourth words' run 1)
        framing = m.group("verb").lower()  # "as you attempt to maneuver ...": the attempt's own
        # The party ("we") is not who tried: its acts frame no attempt ("As we set sail" after
        # "I sweet-talk the bosun into lending us the longboat", the thirty-fifth words; "as we
        # approached the harbor", real_scene2b). Only the player's own verbs, read above, are.
        if m.group("who").lower() != "we" and _during_the_attempt(
            plain[: m.start("who")], framing if framing in _STILL_TRYING else verb,
            plain[m.end() :], stated, scene=bool(expect.rows), entering=entering,
        ):  # fmt: skip
            continue
        if verb in ("come", "comes", "came") and re.match(
            r"\s+(?:across|upon)\b", plain[m.end() :]
        ):
            continue  # "You come across a small clearing" (run 14): a finding
        if verb in ("encounter", "encounters", "meet", "meets") and not expect.rows:
            continue  # ... and a meeting: "You encounter a group of local farmers" on the trail
            # followed (seventh words' run 1)
        if (
            verb in ("step", "steps")
            and (
                onto := re.match(
                    r"\s+(?:onto|on|upon) (?:the |a |an )?(?:\w+ )?([a-z]{4,})", plain[m.end() :]
                )
            )
            and onto.group(1)[:4].lower() in stated
        ):
            continue  # what the player crossed, stepped on: "You step onto the bridge" after "I
            # cross the rickety rope bridge" (seventh words' run 1)
        if verb in _SPARED and re.match(r"\s+being\b", plain[m.end() :]):
            continue  # "You narrowly avoid being cut by the enemy's grappling hook" (run 16)
        if verb in _PLACED_OR_REACHING and _taken_somewhere(verb, plain[m.end() :], expect):
            acts.append(_excerpt(plain, m.start("who"), m.end() + 16))
            continue
        if verb in _BEFALLS:
            if expect.polarity == "success":
                befalls.append(said)
            continue
        if verb not in _PERCEIVE_OR_BE:
            acts.append(said)
    owned = _owned_by_you(expect.character)
    acts += [
        _excerpt(plain, m.start(), m.end())
        for m in _felt(expect.character).finditer(plain)
        # (a feeling the words give the character by name is theirs whoever stands before it:
        # "the sound of the horses' hooves ... calmed K ell's nerves", stop 35's trial)
        if owned.search(m.group())
        or (
            not _OTHERS_MANNER.search(plain[: m.start()])
            and not _OTHERS_FEELING.search(m.group())
            and not _THE_AIRS.search(plain[: m.start()])
            and not _ANOTHERS_FEELING.search(plain[: m.start()])
        )
    ]
    # a shiver down no one's spine is the character's: "The sound of the door clobbering against
    # the ground echoes through the empty room, sending shivers down the spine" (run 67; as
    # "fear and panic set in" with no one named, LABELLING.md)
    acts += [_excerpt(plain, m.start(), m.end()) for m in _UNOWNED_SHIVER.finditer(plain)]
    if expect.polarity in ("success", "mixed"):
        # put somewhere the player never went: "You talk your way past the night watch, but not
        # without a cost. You are now standing at the edge of a treacherous cliff" (other words'
        # run 1)
        for m in _NOW_SOMEWHERE.finditer(plain):
            place = re.findall(r"[a-z]{4,}", m.group("place").lower())
            if not any(w[:4] in stated for w in place if w not in _NOT_PLACES):
                acts.append(_excerpt(plain, m.start(), m.end()))
    # acts told done: "The lock was too tight, and you had to use a wrench to loosen it" on a
    # failed pick (run 28). (Not "you must find a way": a problem posed, runs 4, 6, 15, 27.)
    acts += [_excerpt(plain, m.start(), m.end()) for m in _HAD_TO.finditer(plain)]
    # ... or in a clause of the thing found: "You find a hidden stash of supplies inside the
    # mill, which you use to gather more food and water for your journey" (third words' run 1)
    acts += [_excerpt(plain, m.start(), m.end()) for m in _WHICH_YOU.finditer(plain)]
    if not any(w[:4] in stated for w in _BLOWS):
        # the character's blows told in the passive where the player struck none: "the first wave
        # of soldiers is quickly overwhelmed by your sharp sword" after "I draw my cutlass as the
        # boarders come over the rail" (run 26)
        acts += [_excerpt(plain, m.start(), m.end()) for m in _YOUR_BLOWS.finditer(plain)]
    acts += [_excerpt(plain, m.start(), m.end()) for m in _AND_DECIDES.finditer(plain)]
    acts += [
        _excerpt(plain, m.start(), m.end())
        for m in _AND_THEN_ACTS.finditer(plain)
        if m.group("verb")[:4] not in stated or _AGAIN.match(plain[m.end("verb") :])
    ]
    return acts, befalls


# Going unseen, and the one followed or hidden from looking back: "You shadow the ghoul through the
# market, and it works. The ghoul turns around and scurries away, its eyes wide with fear" (run 17;
# read as run 12's "The ghoul turns its head towards you").
_UNSEEN = re.compile(
    r"\b(?:shadow|shadows|follow|follows|tail|tails|sneak|sneaks|hide|hides|creep|creeps|stalk|"
    r"stalks|slip|slips|track|tracks|"
    # a scout unseen: "I scout the ridge for the orc warband" told "The orc warband, sensing the
    # approach of the scout, retreats" (fifth words' prompt resent with the grammar)
    r"scout|scouts|reconnoitre|reconnoitres|reconnoiter|reconnoiters|"
    # covert work, done well, is done unnoticed: "I hack the security terminal" told on a success
    # as "your presence is felt by everyone around you" (run 27), "noticed by a group of security
    # guards" (run 26)
    r"hack|hacks|steal|steals|pilfer|pilfers|pickpocket|pickpockets|eavesdrop|eavesdrops|spy|"
    r"spies|infiltrate|infiltrates|unseen|unnoticed|undetected|stealthily|quietly|silently)\b",
    re.IGNORECASE,
)
_LOOKS_BACK = re.compile(
    # (not "turns back, its eyes glinting with suspicion", run 8: going back the way it came)
    r"\b(?:turns?|turned|spins?|spun|whirls?|whirled|wheels?|wheeled) (?:around|round)\b|"
    r"\b(?:looks?|looked|glances?|glanced|peers?|peered) (?:back|behind|over (?:its|his|her|their) "
    r"shoulders?)\b",
    re.IGNORECASE,
)

# ... or the one followed getting away: "You shadow the ghoul through the market, and it works.
# The market sells more goods, and the ghoul disappears" (stop 24's prompt trials). (Not
# retreating into the trees, still seen: run 14's "You come across a small clearing, and the
# goblins retreat into the trees".)
_PURSUING = re.compile(
    r"\b(?:shadow|follow|tail|track|stalk|chase|pursue|hunt|trail)s?\b", re.IGNORECASE
)
# The quarry of a pursuit that worked, or the watchers passed unseen, alarmed: "As the goblins
# approach, they begin to scatter in panic" (runs 44, 49, 57), "they feel a sense of dread and
# fear" (run 43), "its eyes widening in fear" (runs 11, 20), "the guards' eyes grow wide with
# confusion and fear" (the twenty-seventh words). Told of them ("they", "it", eyes), not of those
# around them ("a shadow of fear and uncertainty over the crowd", run 54) or the air.
_ALARM = re.compile(
    r"\b(?:panic|panics|panicked|panicking|dread|fear|fearful|startled|spooked|alarmed|"
    r"frightened|terrified|scared)\b",
    re.IGNORECASE,
)
_QUARRY_TOLD = re.compile(r"^(?:they|it|he|she)\b|\beyes\b", re.IGNORECASE)
_ROUND_IT = re.compile(r"\b(?:over|among|around|air|crowd)\b", re.IGNORECASE)


def _quarry_alarmed(words: str) -> list[str]:
    """A pursuit's quarry told alarmed, in a clause of its own about it."""
    clauses = (c.strip() for c in re.split(r"[,;.!?]", words))
    return [
        c
        for c in clauses
        if (m := _ALARM.search(c))
        and _QUARRY_TOLD.search(c[: m.start()])
        and not _ROUND_IT.search(c)
    ]


_GETS_AWAY = re.compile(
    r"\b(?:disappears?|disappeared|vanish(?:es|ed)?|(?:slips?|slipped|gets?|got|breaks?|broke) "
    r"away|escapes?|escaped|(?:is|are|was|were) gone|out of sight|(?:loses?|lost|shakes?|shook) "
    r"(?:you|your trail|the trail)|(?:melts?|melted|fades?|faded|retreats?|"
    r"retreated|slips?|slipped|recedes?|receded) (?:back )?into the "
    r"(?:shadows|darkness|dark|night|fog|mist|crowd)|lose (?:its|their|his|her) trail|"
    # ("The marsh becomes a vast, open expanse of grass and mud as the goblins' trail fades
    # away", run 54)
    r"(?:trail|tracks|scent|footprints|spoor) (?:\w+ )?(?:fades?|faded|fading|vanish(?:es|ed)?|"
    r"disappears?|disappeared|goes cold|went cold|grows? faint|grew faint|(?:is|was) lost|ends|"
    r"ended)|"
    # ("they become more elusive and difficult to track", run 63; "making it difficult to
    # follow", run 22)
    r"(?:more |increasingly )?elusive|(?:harder|hard|difficult|impossible) to (?:track|follow|"
    r"trace|keep up with)|"
    # ("they are swept away by a sudden torrent of water that washes them out to sea", run 64)
    r"(?:is|are|was|were|gets?|got|being) (?:swept|washed|carried) away)\b",
    re.IGNORECASE,
)
# ... or carried off by the world: "The wind picks up, carrying the bear away from the birch
# wood" (the fortieth words). The one carried is the quarry when the player named it or it is a
# person ("them", "him"); not "carrying the leaves away".
_CARRIED_OFF = re.compile(
    r"\b(?:carry|carries|carrying|carried|sweep|sweeps|sweeping|swept|wash|washes|washing|"
    r"washed) (?:(?P<who>them|him|her)|the (?P<what>[a-z]+(?:'s)?(?: [a-z]+)?)) away\b",
    re.IGNORECASE,
)


def _quarry_carried_off(words: str, action: str) -> list[str]:
    """The quarry of a pursuit carried off by the world, named as the player named it."""
    theirs = _four_letter_stems(action, shortest=3)  # (three: "the elk")
    return [
        _excerpt(words, m.start(), m.end())
        for m in _CARRIED_OFF.finditer(words)
        if m["who"] or _four_letter_stems(m["what"], shortest=3) & theirs
    ]


# A success told as the world turning on you, in the model's words after the lead (run 22, each
# on a success): the place given way ("The enemy's ship capsizes", "the stairs collapse on
# you"; not where force was the attempt: a gate torn off, a door forced), the
# character left stranded or the way made hard ("making it difficult to follow"), the one
# followed or hidden from looking at them ("The ghoul sneers at you"). (Not the fog a hider
# waited in thinning: run 14's "As the fog bank thins out, you see a small boat approaching".)
_GIVES_WAY = re.compile(
    # (not a danger only looming: "The stone steps creak ..., as if they're about to give way",
    # run 13)
    # (nor the world giving way to you: "The world gives way to you as you stand at the top",
    # run 23, the prompt's own words for a success)
    r"(?<!about to )(?<!threatens to )(?<!threatening to )(?<!ready to )(?:\b(?:collapses?|"
    r"collapsed|capsizes?|capsized|crumbles?|crumbled|caves? in|caved in|breaks? apart|"
    # (nor a mood giving way to another: "the barracks seems to give way to a sense of calm",
    # the eleventh words)
    # (only giving way is read past "to": "now crumbles to the ground" is a fall, the twentieth
    # words' deck)
    r"broke apart|sinks?|sank|topples?|toppled)\b|\b(?:gives? way|gave way)\b(?! to\b))",
    re.IGNORECASE,
)
_SUBJECT_BEFORE = re.compile(
    r"([a-z]+)(?:'s)?\s+(?:(?:has|have|had|is|are|was|were|then|"
    r"suddenly|slowly|finally|\w+ly)\s+)*$",
    re.IGNORECASE,
)
_FORCEFUL = re.compile(
    r"\b(?:tear|tears|force|forces|break|breaks|smash|smashes|bash|bashes|kick|kicks|batter|ram|"
    r"shatter|topple|burn|blow|destroy|wreck|sink|strike|strikes|swing|swings|attack|attacks|"
    r"shoot|loose|cut|cuts|chop|hack|knock|push|shove|heave|wrench|pry|fire|collapse|bring|"
    r"cleave|cleaves|crush|crushes|hew|hews|rip|rips|split|splits)\b",
    re.IGNORECASE,
)
_LEFT_WORSE = re.compile(
    # (not "alone": "The rival Kindred retreats, leaving you alone in the dark forest", run 23)
    r"\b(?:left|leaving (?:you|\w+)) (?:\w+ )?(?:stranded|behind|exposed|helpless|"
    r"defen[cs]eless|hanging|dangling)\b|\bmaking it (?:\w+ )?(?:difficult|hard|harder|"
    r"impossible|tricky|dangerous)\b",
    re.IGNORECASE,
)
_LOOKS_AT = (
    r"\b(?:sneers?|sneered|glares?|glared|stares?|stared|grins?|grinned|smiles?|smiled|snarls?|"
    r"snarled|scowls?|scowled|looks?|looked|glances?|glanced|peers?|peered|leers?|leered|"
    r"points?|pointed) (?:\w+ )?at (?:you|{c})\b|"
    # "you notice a small group of people watching you closely" (run 24)
    r"\b(?:watch|watches|watching|watched|eye|eyes|eyeing|eyed|follow|follows|following|"
    r"followed|track|tracks|tracking|tracked|study|studies|studying|studied) (?:you|{c})\b"
)


@lru_cache(maxsize=64)
def _looks_at(character: str | None) -> re.Pattern[str]:
    return re.compile(_LOOKS_AT.replace("{c}", _names(character)), re.IGNORECASE)


# "its presence drawing attention to you" on a shadowing success (run 23); told in the passive,
# or as the character's presence known: "the crowd's attention is drawn to your presence" (run
# 27), "your presence is felt by everyone around you" (run 27), "now aware of your presence" (run
# 25)
_ATTENTION = re.compile(
    r"\b(?:draw|draws|drew|drawn|drawing|attract|attracts|attracted|attracting|catch|catches|"
    r"caught|catching|get|gets|got|getting) (?:\w+ )?attention\b|"
    r"\battention (?:is |was |has been |now )*(?:\w+ )?(?:drawn|turned|caught|attracted|fixed) "
    r"(?:to|on|upon) (?:you|your)\b|"
    r"\byour presence (?:is |was |has been |now |already )*(?:\w+ )?(?:noticed|felt|known|"
    r"sensed|detected|discovered|spotted|seen|revealed|betrayed|announced|heard|draws|drew|"
    r"attracts|alerts|alerted)\b|"
    r"\b(?:aware|conscious|wary) of (?:you|your presence)\b|"
    r"\byou (?:are|were|have been) (?:\w+ )?(?:noticed|spotted|seen|detected|discovered|"
    r"recognized|recognised|sensed)\b|"
    r"\b(?:notices?|noticed|spots?|spotted|detects?|detected|senses?|sensed|recognizes?|"
    r"recognized|recognises?|recognised) (?:you|your presence)\b|"
    # "The Toreador, intrigued by your shadow, steps forward" on a shadowing success (seventh
    # words' run 1)
    r"\b(?:intrigued|startled|alerted|alarmed|distracted|drawn|attracted|disturbed|roused) by "
    r"(?:your|the sound of your|the sight of your) \w+|"
    # told through a grammar that keeps "you" out (service/narrator/grammar.py), the others
    # alerted all the same: "The camp of sleeping bandits, now aware of the intruder, begins to
    # prepare for a confrontation", "The mutineers, sensing the danger, quickly retreat", "The
    # orc warband, sensing the approach of the scout", "The jailer's guards, startled by the
    # sudden noise, rush to investigate" (the stop-25 runs' prompts resent with it)
    r"\baware of\b|\bsens(?:es|ed|ing) (?:the |a |an )?(?:\w+ )?(?:danger|approach|presence|intruder|"
    r"threat|movement|someone|something|eyes|spy|scout)\b|"
    r"\b(?:startled|alerted|alarmed|roused|woken|awoken|awakened) by (?:the |a |an )?(?:\w+ )?"
    r"(?:noise|sound|commotion|clatter|crash|footsteps|movement|intruder)\b|"
    r"\b(?:rush|rushes|rushed|hurry|hurries|hurried|come|comes|came|move|moves|moved|run|runs|"
    r"ran) to investigate\b|\b(?:raise|raises|raised|sound|sounds|sounded) the alarm\b|"
    r"\bprepar\w* (?:for|to face) (?:a |the )?(?:confrontation|fight|attack|battle|intruder)\b|"
    # ... or the character seen as what they are: "The dragon wakes up and lunges at the
    # intruder" (sneaking past it), "he smiles at the sight of the ring" (palming it)
    r"\bthe intruders?\b|\bat the sight of\b|"
    # ("a loud alarm blares through the air" on a hack done well, run 36; "The merchant's face
    # lights up with recognition" on a ring slipped from his finger, the tenth words)
    r"\balarms? (?:blares?|blared|blaring|sounds?|sounded|sounding|rings?|rang|ringing|goes off|"
    r"went off|going off|wails?|wailed|shrieks?|shrieked)\b|\balarm bells?\b|\bwith recognition\b",
    re.IGNORECASE,
)
# The sleeper woken, whoever it is, when passing or robbing them asleep was the attempt: "I sneak
# past the sleeping dragon" told "The dragon wakes up and lunges" (third words' prompt resent
# with the grammar)
# (and the half-asleep: "I slip past the drowsy watchman" told "The watchman's eyes flick to the
# sky", the thirty-second words)
_ASLEEP = re.compile(
    r"\b(?:sleeping|asleep|dozing|slumbering|snoring|napping|drowsing|drowsy|sleepy|nodding)\b",
    re.IGNORECASE,
)
_WAKES = re.compile(
    r"\b(?:wakes?|woke|awakens?|awoke|awakened|stirs? awake|stirred awake|jolts? awake|"
    r"jolted awake|(?:eyes )?(?:snap|snaps|snapped|fly|flies|flew) open|"
    # ("the grooms' sleep is shattered by the sudden intrusion", the thirty-fifth words)
    r"(?:sleep|slumber) (?:is |was |are |were )?(?:\w+ly )?(?:shattered|broken|disturbed|"
    r"interrupted))\b",
    re.IGNORECASE,
)
# ... and, more often than any waking word, the sleeper doing anything a sleeper does not: after
# the grammar barred "wakes", the model wrote "The magistrate's eyes flick to the sky", "The
# innkeeper's eyes light up, and he smiles warmly", "The guards' eyes flicker" (stop 28's paired
# trial: 6 of its 6 sleepers woken on a success, each with another verb). Who sleeps is read
# from the player's words ("the snoring bosun", "the sleeping merchant's belt"); a place said to
# sleep ("the sleeping barracks") only wakes.
_SLEEPER = re.compile(
    r"\b(?:sleeping|dozing|slumbering|snoring|napping|drowsing|drowsy|sleepy)\s+"
    r"(?P<words>(?:[a-z-]+'?s?\s+){0,2}"
    r"[a-z-]+(?:'s)?)",
    re.IGNORECASE,
)
_NOT_A_SLEEPER = _word_set(
    "barracks camp house town village city ship inn hall castle fort tower keep harbour "
    "harbor port manor palace street streets district quarter garrison outpost hold deck "
    "dock docks"
)
_PREPOSITIONS = _word_set("from on in at with and by beside near under")
_BODY = (
    r"(?:eyes?|eyelids?|head|hands?|face|lips|mouth|ears?|body|fingers?|gaze|brow|nose|"
    r"expression|voice|arms?|chest)"
)
# what a sleeper may do and still sleep: "The snoring watchmen are now asleep", "snores on"
_KEEPS_SLEEPING = re.compile(
    r"(?:sleeps?|slept|sleeping|snores?|snored|snoring|dozes?|dozed|dozing|slumbers?|slumbered|"
    r"naps?|napped|napping|dreams?|dreamed|dreamt|breathes?|breathed|breathing|lies|lie|lay|"
    r"lying|rises?|rose|heaves?|heaved)\b|(?:remains?|remained|stays?|stayed|continues?|"
    r"continued|is|are|was|were|seems?|seemed|looks?|looked|appears?)\s+(?:\w+ly\s+|still\s+|"
    r"now\s+|to\s+)*(?:asleep|unaware|oblivious|none the wiser|lost in|deep in|sleep|snore|doze|"
    r"slumber|sleeping|snoring|dozing|slumbering|peaceful|undisturbed|still)\b",
    re.IGNORECASE,
)
_AWAKE = re.compile(
    r"(?:is|are|was|were)\s+(?:\w+ly\s+|now\s+|suddenly\s+)*(?:awake|alert|startled|aware|"
    r"roused|up\b|on (?:his|her|their|its) feet)",
    re.IGNORECASE,
)
_NO_VERB = _word_set(
    "and of who which that in on at with by to as from has have had nearby beside around "
    "near behind inside outside there here it its his her their the a an is are was were "
    "seem seems remain remains"
)
_PAST_WAKING = _word_set(
    "woke rose sat stood shot flew grew began froze spun leapt saw heard felt knew caught"
)


@lru_cache(maxsize=64)
def _sleepers(action: str) -> re.Pattern[str] | None:
    """Who the player's words say is asleep, as the subject of a verb in the model's words (the
    sleeper, or the sleeper's eyes, face, hands ...), or None where no one is."""
    nouns = set()
    for m in _SLEEPER.finditer(action):
        # the sleeper's noun is the last before a preposition or a possessive ("the sleeping
        # merchant's belt", "the snoring old bosun"): earlier words are its adjectives
        head = ""
        for word in m.group("words").lower().split():
            bare = word.removesuffix("'s")
            if bare in _PREPOSITIONS:
                break
            head = bare
            if bare != word:
                break
        if head.endswith("ies"):  # "the dozing sentries": a sentry, sentries
            nouns.add(re.escape(head[:-3]) + "(?:y|ies)")
        elif head and head not in _NOT_A_SLEEPER:
            nouns.add(re.escape(head.removesuffix("s")) + "s?")
    if not nouns:
        return None
    return re.compile(
        rf"\b(?:the|a|an)\s+(?:[a-z-]+\s+){{0,2}}?(?P<noun>{'|'.join(sorted(nouns))})"
        # (past a clause about them: "The snoring watchmen, who had been sleeping soundly,
        # suddenly jolted to attention", the twenty-sixth words)
        rf"(?P<owned>'s|s'|')?(?:\s+(?P<body>{_BODY}))?(?:,[^,.;!?]{{1,60}},)?\s+(?:\w+ly\s+|"
        r"still\s+|now\s+|"
        r"suddenly\s+|then\s+)*(?P<verb>[a-z]+)",
        re.IGNORECASE,
    )


def _sleeper_woken(words: str, action: str) -> list[re.Match[str]]:
    """The sleeper doing, in the model's words, what no sleeper does."""
    pattern = _sleepers(action)
    if pattern is None:
        return []
    found = []
    for m in pattern.finditer(words):
        found += _taken_up_awake(words, m.end("noun"))
        if m.group("owned") and not m.group("body"):
            continue  # "the guards' quarters": not the guards
        verb = m.group("verb").lower()
        if _AWAKE.match(words, m.start("verb")):
            found.append(m)  # "The sentry is suddenly alert"
            continue
        if verb in _NO_VERB or _KEEPS_SLEEPING.match(words, m.start("verb")):
            continue
        plural = (m.group("body") or m.group("noun")).lower().endswith(("s", "men"))
        if _a_verb(verb, plural):
            found.append(m)
    return found


def _taken_up_awake(words: str, after: int) -> list[re.Match[str]]:
    """The sleeper named before ``after`` taken up by a pronoun later in the sentence, doing
    what no sleeper does: "The dust on the merchant's skin begins to fade, and he smiles at the
    sight of his new companion" (the forty-second words)."""
    end = after + len(re.split(r"[.!?;]", words[after:], maxsplit=1)[0])
    return [
        later
        for later in _PRONOUN_AFTER.finditer(words, after, end)
        if not (
            later["verb"].lower() in _NO_VERB or _KEEPS_SLEEPING.match(words, later.start("verb"))
        )
        and _a_verb(later["verb"].lower(), later["who"].lower() == "they")
    ]


# A pronoun taking up the sleeper named before it in the sentence, and its verb
_PRONOUN_AFTER = re.compile(
    r"(?:,|\band|\bas|\bthen)\s+(?P<who>he|she|they)\s+(?:\w+ly\s+)?(?P<verb>[a-z]+)",
    re.IGNORECASE,
)


def _a_verb(word: str, plural: bool) -> bool:
    """Whether the word after a sleeper is a verb by its form: any word after a plural ("eyes
    flick"), after a singular one in -s or -ed or a past of its own ("head tilts", "eyes opened",
    "woke"), not a noun ("the bosun chest")."""
    return (
        plural
        or word.endswith("ed")
        or (word.endswith("s") and not word.endswith("ss"))
        or word in _PAST_WAKING
    )


# ... where the attempt was not to wake or harm them
_ROUSING = re.compile(
    r"\b(?:wakes?|waken|wakens|rouses?|awakens?|shakes?|stabs?|strikes?|attacks?|kills?|slays?|"
    r"slits?|hits?|kicks?|punch|punches|bind|binds|tie|ties|grab|grabs|seize|seizes|capture|"
    r"captures|question|questions|interrogate|interrogates|call|calls|shout|shouts|yell|yells)\b",
    re.IGNORECASE,
)


def _passing_a_sleeper(action: str) -> bool:
    """Whether the player's words pass or rob someone asleep, whatever the verb ("I tiptoe past
    the snoring ghouls"), rather than wake or harm them."""
    return bool(_ASLEEP.search(action)) and not _ROUSING.search(action)


# ... and not where it is denied: "no one notices you", "without drawing attention"
_DENIED_BEFORE = re.compile(
    # ("n't" ends a word, so no word boundary goes before it: "The lid won't come off", the
    # twenty-second words)
    r"(?:\b(?:not|never|no one|nobody|none|nothing|neither|nor|without|unable to|fails? to|"
    r"failing to|barely|hardly)|n't)\b[^.;!?]{0,24}$",
    re.IGNORECASE,
)


def _not_denied(words: str, matches: Iterable[re.Match[str]]) -> list[re.Match[str]]:
    return [m for m in matches if not _DENIED_BEFORE.search(words[: m.start()])]


# A blow that landed told as the player's weapon striking the place instead: "The sound of the
# axe striking the rock resonates through the forest" after "I swing my axe at the bandit", on a
# hit (run 73). The weapon is the player's own ("my axe", "an arrow"; not "the thrown spear" they
# dodged), what it strikes where a blow that missed lands.
_PLAYERS_WEAPON = re.compile(
    r"\b(?:my|a|an|your) (?:[a-z-]+ )?(?P<weapon>[a-z]{3,}) (?:at|into|in|through|against)\b",
    re.IGNORECASE,
)
_STRIKES_THE_PLACE = re.compile(
    r"\b(?:the|your) (?P<weapon>[a-z]+) (?:\w+ )?(?:striking|strikes|struck|hits|hitting|hit|"
    r"lodges|lodging|lodged|embeds|embedding|embedded|thuds|thudding|sinks|sinking|sank|bites|"
    r"biting|slams|slamming|clangs|clanging|glances|glancing|clashes|clashing|clashed|"
    # ("the axe clashing against the rock", run 81)
    r"scrapes|scraping|scraped) (?:into |against |on |off |itself "
    r"in |itself into )?(?:the|a|an) (?:[a-z-]+ )?(?:ground|rocks?|stones?|walls?|trees?|trunk|"
    r"floor|dirt|earth|mud|boulders?|cobblestones|air)\b",
    re.IGNORECASE,
)


def _blow_landed_elsewhere(words: str, action: str) -> list[str]:
    """The player's weapon told striking the place, after a blow that landed."""
    weapons = {m["weapon"].lower() for m in _PLAYERS_WEAPON.finditer(action)}
    return [
        _excerpt(words, m.start(), m.end())
        for m in _not_denied(words, _STRIKES_THE_PLACE.finditer(words))
        if m["weapon"].lower() in weapons
    ]


# A graze is a blow that hurts a little (Go Forth: the effort bonus dealt on a miss of the TN),
# told as missing altogether: "The thief's heart races, but he manages to dodge the blow" (the
# twenty-eighth words; not "he tries to dodge the blow", grammar1b)
_BLOW_MISSED = re.compile(
    r"\b(?:manages?|managed) to (?:dodge|evade|avoid|sidestep|duck)\b|"
    r"\b(?:dodges|dodged|evades|evaded|sidesteps|sidestepped|ducks|ducked|avoids|avoided) (?:the|"
    r"your|its|his|her) (?:blow|strike|attack|stone|arrow|bolt|shot|swing|throw|knife|dagger|axe|"
    r"spear)\b|\b(?:misses|missed) (?:its|their|the) (?:mark|target)\b|\b(?:goes|went|flies|flew) "
    r"wide\b",
    re.IGNORECASE,
)


# A failure told as another letting the character through: "The guard notices the suspicious
# movement and quickly opens the door, allowing the thief to escape" (runs 50, 58: a failed slip
# through a window). The character is "you", the name, or a role noun the player did not use ("the
# thief", "the intruder"). Not refused ("refuses to let you go"), and not where letting was the
# attempt ("I sweet-talk the quartermaster into letting me go").
# (the grammar's ROLES, the nouns the model named the character by, and two more)
_CHARACTER_ROLES = ("thief", "burglar", *(role.strip() for role in ROLES))
_REFUSED_BEFORE = re.compile(r"\b(?:refus\w*|declin\w*|into|interested in)\s+(?:to\s+)?$")


@lru_cache(maxsize=64)
def _let_through(character: str | None, action: str) -> re.Pattern[str]:
    said = set(re.findall(r"[a-z]+", action.lower()))
    roles = "|".join(r for r in _CHARACTER_ROLES if r not in said) or "you"
    return re.compile(
        r"\b(?:allow|allows|allowed|allowing|let|lets|letting|enabl(?:e|es|ed|ing)|"
        rf"permit(?:s|ted|ting)?)\s+(?:you|{_names(character)}|the (?:{roles}))\s+(?:to\s+)?"
        r"(?:escape|slip|get away|get through|pass|go|flee|enter|leave|climb|reach|cross|through|"
        r"in)\b",
        re.IGNORECASE,
    )


def _let_through_after_all(words: str, expect: Expectation) -> list[str]:
    """On a failure, another told letting the character through (see _let_through)."""
    action = expect.action or ""
    if expect.polarity != "failure" or re.search(r"\b(?:let|letting|allow\w*)\b", action, re.I):
        return []
    return [
        _excerpt(words, m.start(), m.end())
        for m in _not_denied(words, _let_through(expect.character, action).finditer(words))
        if not _REFUSED_BEFORE.search(words[: m.start()])
    ]


# A weak hit at climbing or crossing is the top reached or the far side gained, at a cost: a fall
# undoes it ("You climb the crumbling sea wall, but not without a cost. You stumble and fall,
# your helmet shattering on the rocks", run 24; "The sea wall collapses, and you are left stranded
# on the shore", run 22; "causing you to lose balance and fall down the tower", run 25).
_CLIMBING = re.compile(
    r"\b(?:climb|climbs|scale|scales|cross|crosses|leap|leaps|jump|jumps|vault|vaults|swing|"
    r"swings|balance|balances|scramble|scrambles|ascend|ascends|bound|bounds|spring|springs|hop|"
    r"hops)\b(?! at\b)",
    re.IGNORECASE,
)
_FALLS = re.compile(
    # ("causing you to lose balance and fall down the tower", run 25)
    r"\byou (?:to )?(?:lose (?:your )?(?:balance|footing|grip) and )?(?:\w+ )?(?:and )?"
    r"(?:fall|fell|tumble|tumbled|plunge|plunged|slip and fall)\b(?! "
    r"(?:silent|quiet|still|asleep|behind|in love|into step|into place|back on|"
    r"onto the deck|on the deck|to the deck|aboard))|\byou are left "
    r"(?:stranded|standing) (?:on|at) the (?:shore|bottom|foot|base|beach|ground)\b",
    re.IGNORECASE,
)


# What the player looked for, told as not there on a success. (Not at a cost: Gather
# Information's weak hit "complicates your quest", and "You notice the charts are missing" told
# it, run 9.) Taken from the character, though, it is a loss the engine did not decide: "the
# stolen charts are now missing from your inventory" on that weak hit (run 27).
_SOUGHT = re.compile(
    r"\b(?:look|looks|search|searches|hunt|hunts|rummage|rummages|scour|scours|comb|combs|dig|"
    r"digs|feel|feels|check|checks|scan|scans|rifle|rifles|ransack|ransacks|sift|sifts)\b"
    r"[^.;!?]*?\bfor (?:the |my |our |a |an |some |any |"
    r"his |her |their |your )?(?P<thing>[a-z'-]+(?: [a-z'-]+){0,3})",
    re.IGNORECASE,
)
# A weak hit at getting through is being through, at a cost: "You squeeze through the collapsed
# tunnel, but not without a cost. You find yourself trapped in a narrow, dark tunnel with no exit"
# (fourth words' run 1) undoes it.
_GETTING_THROUGH = re.compile(
    r"\b(?:squeeze|squeezes|slip|slips|push|pushes|force|forces|make|makes|get|gets|crawl|"
    r"crawls|wriggle|wriggles|wade|wades|swim|swims|cut|cuts|fight|fights|run|runs|dash|dashes|"
    r"sprint|sprints|escape|escapes|break|breaks) (?:my way |your way |our way )?(?:through|out|"
    r"past|across|free)\b",
    re.IGNORECASE,
)
_NO_WAY_ON = re.compile(
    r"\b(?:trapped|stuck|pinned|cornered|cut off|walled in|sealed in)\b|\bno (?:way out|exit|"
    r"escape|way through|way forward)\b",
    re.IGNORECASE,
)
# What the player asked for, told refused when it was granted: "You bribe the dockmaster to
# forget our arrival, but not without a cost. The dockmaster's refusal to forget our arrival is a
# complication" (seventh words' run 1)
_ASKED_TO = re.compile(
    r"\b(?:bribe|bribes|convince|convinces|persuade|persuades|talk|talks|coax|coaxes|cajole|"
    r"cajoles|beg|begs|ask|asks|charm|charms|beguile|beguiles|sweet-talk|sweet-talks|flatter|"
    r"flatters|urge|urges|get|gets)\b[^.;!?]{0,40}?\b(?:to|into) (?:\w+ing )?(?P<verb>[a-z]{3,})",
    re.IGNORECASE,
)


@lru_cache(maxsize=64)
def _refused(action: str) -> re.Pattern[str] | None:
    verbs = set()
    for m in _ASKED_TO.finditer(action):
        verb = m.group("verb").lower()
        if verb == "let":
            # what was to be let happen: "convince the harbourmaster to let us dock" told "The
            # harbourmaster's refusal to let them dock" (run 33's prompt resent with the grammar)
            after = re.match(r"\s+(?:\w+\s+)?([a-z]{3,})", action[m.end() :], re.IGNORECASE)
            verb = after.group(1).lower() if after else ""
        verbs.add(verb[:4])
    verbs -= {"", "the", "let"}
    if not verbs:
        return None
    stems = "|".join(re.escape(v) for v in sorted(verbs))
    return re.compile(
        rf"\b(?:refus\w*|declin\w*|won't|will not|would not|wouldn't) (?:to )?(?:\w+ ){{0,2}}"
        # (not refused only free: "The harbourmaster's refusal to let you dock without a cost is
        # a complication", run 31)
        rf"(?:{stems})\w*(?! (?:\w+ )?without\b)",
        re.IGNORECASE,
    )


# A weak hit's cost told as another's: "The cost of your musket level was a heavy toll on the
# boarders, who were forced to retreat in panic" (fifth words' run 1)
_COST_ON_OTHERS = re.compile(
    # (not the character's own people or ship: "it took a toll on the crew's morale", the
    # eleventh words)
    # (nor the attempt's own words: "The cost of calling on the blood was a heavy one", the
    # fifteenth words)
    r"\b(?:cost|price|toll)\b[^.;!?]{0,40}?(?<!\bcall )(?<!\bcalls )(?<!\bcalled )(?<!\bcalling )"
    # (or what it did to another: "The cost was a severe injury to the horse", the twenty-eighth
    # words, calming spooked horses)
    r"(?:\bon|\b(?:injury|injuries|wound|wounds|damage|harm|loss|losses) to) (?:the|his|her|their) "
    r"(?!way\b|\w+'s head\b|"
    r"(?:crew|party|companions?|allies|friends|ship|boat|band|company)\b)\w+",
    re.IGNORECASE,
)
_COMING_AT_YOU = re.compile(
    r"\b(?:begin|begins|began|start|starts|started) to (?:charge|attack|advance on you|close in)\b|"
    # "The marsh becomes a battlefield, with goblins encircling and attacking" on a tracking
    # success (run 34's prompt resent with the grammar)
    r"\b(?:encircl|surround)\w* and (?:attack|charg|clos\w* in)\w*|"
    # ("The marsh is now a battlefield, with goblins attacking from all sides", run 36)
    r"\b(?:attack|charg|clos\w* in|clos)\w* (?:in )?from (?:all|every) (?:sides?|directions?)\b",
    re.IGNORECASE,
)
# Getting aboard or there, at a cost, undone by a fall off it: "I sneak aboard the moored galleon"
# told "causing you to lose balance and fall into the sea" (run 28); a stumble on the way is the
# cost ("causing you to stumble and fall" as you approach the deck, run 32)
_BOARDING = re.compile(r"\b(?:aboard|board|boards|reach|reaches)\b", re.IGNORECASE)
_FALLS_OFF = re.compile(
    r"\byou (?:to )?(?:lose (?:your )?(?:balance|footing|grip) and )?(?:\w+ )?(?:and )?(?:fall|fell|"
    r"tumble|tumbled|plunge|plunged|slip) (?:\w+ )?(?:into the (?:sea|water|waves|river|harbou?r|"
    r"surf|deep)|overboard|off (?:the|it)|back (?:down|into))\b",
    re.IGNORECASE,
)
_TAKEN_FROM_YOU = re.compile(
    r"\b(?:missing|gone|taken|stolen) from your (?:inventory|pack|bag|satchel|belongings|"
    r"possessions?|pockets?|hands?|belt)\b",
    re.IGNORECASE,
)
_ARTICLES = {"the", "a", "an", "of", "in", "on", "at", "to", "and", "or", "from", "with", "that"}


@lru_cache(maxsize=64)
def _not_found(action: str) -> re.Pattern[str] | None:
    heads = []
    for m in _SOUGHT.finditer(action):
        words = m.group("thing").split()
        # the head noun: the last word before a preposition ("charts" in "stolen charts in
        # the hold")
        cut = next((i for i, w in enumerate(words) if w.lower() in _ARTICLES), len(words))
        if cut and len(words[cut - 1]) >= 3:
            heads.append(re.escape(words[cut - 1].lower()[:5]))
    if not heads:
        return None
    thing = rf"(?:{'|'.join(heads)})\w*"
    return re.compile(
        rf"\b{thing}\b(?: \w+){{0,3}}? (?:is |are |was |were |now |already |long |still )*(?:missing|"
        rf"gone|nowhere|not (?:here|there)|no longer (?:here|there)|lost|vanished)\b|"
        rf"\bno (?:sign|trace) of (?:the |your |any )?(?:\w+ )?{thing}\b|"
        # ... or found and lost again, "carrying away the stolen charts" (after a strong hit;
        # after run 66's weak hit at Gather Information it is the information that complicates,
        # as "the charts are missing" in runs 9, 28 and 30)
        rf"\b(?:carr(?:y|ies|ied|ying)|sweep(?:s|ing)?|swept|blow(?:s|ing)?|blew|"
        rf"wash(?:es|ing|ed)?) away (?:the |your |all )?(?:\w+ )?{thing}\b|"
        rf"\b{thing}\b(?: \w+){{0,3}}? (?:is |are |was |were )?(?:carried|swept|blown|washed) "
        rf"away\b",
        re.IGNORECASE,
    )


# Words that worked, told as the others brushing you off: "You question the dock workers about the
# missing ship, and it works. The dock workers look at you in surprise, then quickly return to
# their work." (run 29)
_ASKING = re.compile(
    r"\b(?:question|questions|ask|asks|convince|convinces|persuade|persuades|charm|charms|"
    r"beguile|beguiles|sweet-talk|sweet-talks|haggle|haggles|bargain|bargains|negotiate|"
    r"negotiates|plead|pleads|interrogate|interrogates|coax|coaxes|talk|talks|bribe|bribes)\b",
    re.IGNORECASE,
)
_BRUSHED_OFF = re.compile(
    r"\b(?:returns?|returned|returning|go back|goes back|went back|turns? back) to (?:their|his|"
    r"her|its) (?:work|task|tasks|business|duties|drinks?|cards|game|labou?rs?)\b|"
    r"\b(?:ignores?|ignored|ignoring|dismisses?|dismissed|dismissing|waves? off|waved off) "
    r"(?:you|your)\b|\b(?:turns?|turned|walks?|walked) away from you\b|"
    r"\b(?:refuses?|refused|refusing|declines?|declined|declining) to (?:answer|speak|talk|say|"
    r"help|listen)\b",
    re.IGNORECASE,
)


# A theft done well, told as the one robbed knowing: "You slip the key from the jailer's belt, and
# it works. The jailer's eyes widen as he realizes that the key has unlocked a door" (other
# words' run 1)
_TAKING = re.compile(
    r"\b(?:steal|steals|pick|picks|slip|slips|snatch|snatches|pilfer|pilfers|"
    r"pickpocket|pickpockets|swipe|swipes|palm|palms|filch|filches|pinch|pinches)\b"
    r"(?! (?:the |a |an |my )?locks?\b)|"
    # lifting from someone, not lifting a thing off them: "I lift the fallen pillar off the
    # trapped acolyte" (sixth words), told "The acolyte's eyes widen as the pillar comes to rest"
    r"\blifts? [^.;!?]{0,40}?\bfrom\b",
    re.IGNORECASE,
)
_LOST_YOU = re.compile(
    r"[^.;!?]{0,30}?\b(?:lost|lose|loses|gone|nothing|no one|nobody|alone|mistaken|imagin\w*)\b",
    re.IGNORECASE,
)
_HIDING = re.compile(r"\b(?:hide|hides|hiding|conceal|conceals|lurk|lurks)\b", re.IGNORECASE)
# Others calmed or rallied, told as panicking: "Kell rallies the frightened villagers" on a strong
# hit told "the frightened villagers begin to panic and flee in terror" (third words' run 1).
# (Not panic subsiding: "their panic subsides".)
_CALMING = re.compile(
    r"\b(?:calm|calms|steady|steadies|rally|rallies|reassure|reassures|soothe|soothes|comfort|"
    r"comforts|inspire|inspires|settle|settles|hearten|heartens|quiet|quiets)\b",
    re.IGNORECASE,
)
# ... or as in the state they were calmed from, again: "Kell steadies the shaking deckhands" told
# "they begin to shake again" (the thirtieth words)
_CALMED_STATE = re.compile(
    r"\b(?P<state>shaking|trembling|quaking|sobbing|weeping|screaming|wailing|shivering|"
    r"panicking|rioting|brawling)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=16)
def _state_again(state: str) -> re.Pattern[str]:
    stem = state.removesuffix("ing").removesuffix("k" if state == "panicking" else "")
    return re.compile(
        rf"\b{stem}\w* (?:again|anew|once more)\b|\b(?:begins?|began|starts?|started) to "
        rf"{stem}\w* (?:again|anew|once more)\b",
        re.IGNORECASE,
    )


# The one an attempt is done to, from the player's words ("Kell calms the frightened villagers":
# "villagers"; "I grapple the smuggler for the cargo manifest": "smuggler"), and the sentences of
# the model's words that name them (by their first four letters: "the village" names the
# villagers)
_OBJECT_AFTER = (
    r"\s+(?:the |a |an |my |his |her |their |that |those |these |this )?(?:[a-z'-]+ ){0,3}?"
    r"(?P<object>[a-z'-]+)(?=$|[.,;!?]| (?:on|in|at|with|by|before|after|as|and|to|from|for|over|"
    r"across|into|aboard|near|inside|under|while)\b)"
)


def _told_of_the_one(
    words: str,
    action: str,
    attempt: re.Pattern[str],
    told: re.Pattern[str],
    keep: Callable[[str, re.Match[str]], bool] = lambda sentence, m: True,
) -> list[str]:
    """What the model tells, by the pattern, in a sentence naming the one the attempt was done
    to, not denied (each match that keep, given its sentence, keeps)."""
    if not (done := attempt.search(action)):
        return []
    named = re.compile(rf"\b{re.escape(done['object'][:4])}", re.IGNORECASE)
    return [
        _excerpt(words, span.start() + m.start(), span.start() + m.end())
        for span in _sentence_spans(words)
        if named.search(span.group())
        for m in _not_denied(span.group(), told.finditer(span.group()))
        if keep(span.group(), m)
    ]


# The calmed told growing more afraid, by any word of fear, in a sentence that names them: "the
# refugees ... began to sob more loudly" (the thirty-fifth words), "a sense of dread that reaches
# the very core of the village" (stop 35's trial), "made the mule feel even more scared". Fear
# that is only there is not read ("they look up at Kell with a mixture of fear and relief", "the
# crew's hearts began to slow, and they looked up at the sky with fear" were labelled
# consistent); it must grow, begin or come again, and not be ebbing ("their fear fades").
_CALMED = re.compile(_CALMING.pattern + _OBJECT_AFTER, re.IGNORECASE)
_FEARFUL = re.compile(
    r"\b(?:fear|fears|fearful|afraid|frightened|terrified|terror|scared|panic|panics|panicked|"
    r"panicking|dread|horror|alarm|alarmed|sob|sobs|sobbing|sobbed|weep|weeps|weeping|wept|"
    r"cries|crying|screams?|screaming|screamed|wails?|wailing|wailed|whimper\w*|trembl\w*|"
    r"shiver\w*|shak(?:e|es|ing)|quak\w*)\b",
    re.IGNORECASE,
)
_FEAR_MORE_BEFORE = re.compile(
    r"\b(?:more|(?:begins?|began|starts?|started) to|(?:grows?|grew|growing) (?:more |"
    r"increasingly )?)\s+$",
    re.IGNORECASE,
)
_FEAR_MORE_AFTER = re.compile(
    r"\W{0,2}(?:[a-z']+ ){0,3}?(?:more|again|anew|grows?|grew|growing|mount\w*|rises?|rose|"
    r"rising|spread\w*|deepen\w*|intensif\w*|louder|reach\w*|swell\w*|heighten\w*|worsen\w*)\b",
    re.IGNORECASE,
)
_FEAR_EBBS = re.compile(
    r"[^.;!?]{0,40}?\b(?:fades?|faded|fading|subsides?|subsided|subsiding|eases?|eased|easing|"
    r"melts?|melted|melting|ebbs?|ebbed|ebbing|gives? way|gave way|giving way|drains?|drained|"
    r"vanish\w*|disappear\w*|dissipat\w*|lifts?|lifted|leaves?|left|recedes?|receded|replaced|"
    r"turns? to|turned to|softens?|softened|quiets?|quieted|stops?|stopped|calms?|calmed|"
    r"settles?|settled|slows?|slowed|lessens?|lessened|diminish\w*|gone)\b",
    re.IGNORECASE,
)
_FEAR_EASED_BEFORE = re.compile(
    r"\b(?:no longer|less|free of|freed of|without|instead of|once|former|last of|(?:calm\w*|"
    r"sooth\w*|eas\w*|quell\w*|banish\w*|dispel\w*|chas\w* away|driv\w* away|overc\w*|allay\w*|"
    r"still\w*|hush\w*|quiet\w*)(?: \w+){0,2})\s*$",
    re.IGNORECASE,
)


def _calmed_more_afraid(words: str, action: str) -> list[str]:
    theirs = set(re.findall(r"[a-z]+", action.lower()))  # "the frightened crew" said again

    def growing(sentence: str, m: re.Match[str]) -> bool:
        before, after = sentence[: m.start()], sentence[m.end() :]
        return (
            m.group().lower() not in theirs
            and not _FEAR_EBBS.match(after)
            and not _FEAR_EASED_BEFORE.search(before)
            and bool(_FEAR_MORE_BEFORE.search(before) or _FEAR_MORE_AFTER.match(after))
        )

    return _told_of_the_one(words, action, _CALMED, _FEARFUL, growing)


_PANIC_SPREADS = re.compile(
    r"\b(?:panic|panics|panicked|panicking|flee|flees|fled|fleeing|scatter|scatters|scattered) "
    r"(?:and|in|away|off|into|from|for)\b|\bin (?:terror|panic|a panic)\b|"
    r"\b(?:begins?|began|start|starts|started) to (?:panic|flee|scatter|scream)\b|"
    # ("The crew's hearts thumped as they watched the storm clouds roll in, their fear growing",
    # run 53, the crew steadied)
    r"\b(?:fear|fears|panic|terror|dread|unease|anxiety|alarm) (?:grows?|growing|grew|rises?|"
    r"rising|rose|mounts?|mounting|mounted|spreads?|spreading|intensif\w*|deepens?|deepening|"
    r"swells?|swelling)\b|\b(?:grow|grows|grew|growing|become|becomes|became|becoming) (?:more |"
    r"increasingly )?(?:afraid|frightened|terrified|fearful|panicked|anxious|desperate|restless|"
    r"agitated)\b",
    re.IGNORECASE,
)
_VICTIM_KNOWS = re.compile(
    r"\b(?:he|she|they|the (?:jailer|captain|guard|courier|merchant|clerk|owner|mark|victim|"
    r"man|woman))\s+(?:suddenly\s+|slowly\s+|quickly\s+)?(?:realizes?|realises?|realized|"
    r"realised|notices?|noticed|discovers?|discovered|feels? (?:the|his|her|a) (?:tug|lightness|"
    r"weight)|wakes?|woke|awakens?|awoke|stirs? awake)\b(?! nothing\b)|"
    # "The jailer's eyes widen, and he scrambles to get out of bed" after filching his key (seventh
    # words' run 1)
    r"\b(?:eyes|eye) (?:widen|widened|snap open|snapped open|fly open|flew open|open|opened)\b",
    re.IGNORECASE,
)


_YOU_IN = re.compile(r"\b(?:you|your|yours|yourself)\b", re.IGNORECASE)
_ACROSS = re.compile(r"\b(?:across|over)\b", re.IGNORECASE)


def _sentence_around(words: str, at: int) -> str:
    start = max(words.rfind(c, 0, at) for c in ".!?") + 1
    ends = [i for i in (words.find(c, at) for c in ".!?") if i != -1]
    return words[start : min(ends) if ends else len(words)]


# A contest lost, told as the other side giving way: "I arm-wrestle the dwarf champion" lost, told
# "The dwarf champion ... is now terrified and runs away"; "I push the cultist back from the
# altar" lost, told "they start to back away from it"; a race lost, told "The ranger ... quickly
# stops and turns back" (the stop-25 runs' prompts resent with the grammar). Only where driving
# them off or beating them was the attempt: a thief tackled too late gets away ("I tackle the
# thief before he reaches the door" lost, "The thief grabs the door handle and pulls it open").
_BEATING = re.compile(
    r"\b(?:push|pushes|shove|shoves|drive|drives|force|forces|wrestle|wrestles|arm-wrestle|"
    r"arm-wrestles|grapple|grapples|race|races|outrun|outruns|outpace|outpaces|intimidate|"
    r"intimidates|frighten|frightens|scare|scares|threaten|threatens|hold|holds|duel|duels|"
    r"repel|repels|(?:stare|stares|face|faces) down|beat|beats|best|bests)\b",
    re.IGNORECASE,
)
_GIVES_GROUND = re.compile(
    r"(?<!you )(?<!you then )\b(?:(?:runs?|ran|flees?|fled|scurries|scurried|scrambles?|"
    r"scrambled|backs?|backed|retreats?|retreated|withdraws?|withdrew|slinks?|slunk) "
    r"(?:away|off|back)|(?:starts?|started|begins?|began) to (?:back away|retreat|flee|withdraw)|"
    r"turns? (?:back|tail)|turned (?:back|tail)|gives? up|gave up|surrenders?|surrendered|yields?|"
    r"yielded|(?:is|are|was|were) (?:now )?terrified|"
    # ("The courier ... suddenly stops and looks at the sky", a race lost, the eleventh words)
    r"(?:suddenly|abruptly) (?:stops?|stopped|halts?|halted))\b",
    re.IGNORECASE,
)
# A race lost, told as the rival held up, whatever befell them: "The smuggler's ship capsizes"
# (the seventeenth words), "As the courier's vehicle skids and rolls down a steep hill" (the
# eighteenth), "The ferryman's boy ... accidentally hits a tree", "The knight ... suddenly realized
# that he had forgotten his armor", "The messenger ... instead encountered a dangerous storm"
# (a word list chased these, one new verb a run). Read as the sleeper is (_sleeper_woken): the
# rival, named in the player's words ("I race the courier to the bridge"), or the rival's horse,
# ship or wheels, may only do what the winner of a race does: keep going, get there, wait, gloat.
# Weather raced (the storm, the tide) is no rival; a pursuer outrun is no race to a goal.
_RACED = re.compile(
    r"\b(?:race|races|outpace|outpaces|beat|beats)\b (?:the |a |an )?"
    r"(?P<rival>(?:[a-z]+'s )?(?:[a-z]+ )?[a-z]{3,}) to\b",
    re.IGNORECASE,
)


def raced_rival(action: str | None) -> str | None:
    """Whom (or what) the player's words race, as "the ..." ("I race the guild's runner to the
    docks" -> "the guild's runner"), or None."""
    raced = _RACED.search(action or "")
    return f"the {raced['rival']}" if raced else None


_NO_RIVAL = _word_set(
    "storm tide squall fog sun dawn night dusk flood fire wave waves wind rain dark darkness "
    "mist current"
)
# (the hooves heard: "The sound of the horse's hooves pounding the bridge echoed", stop 33)
_WINNER_DOES = _word_set(
    """reach reaches reached arrive arrives arrived get gets got win wins won pull pulls pulled
    outpace outpaces overtake overtakes overtook pass passes passed leave leaves left cross
    crosses crossed race races raced surge surges speed speeds sped dash dashes dashed sprint
    sprints sprinted run runs ran ride rides rode gallop gallops galloped sail sails sailed row
    rows rowed slip slips slipped approach approaches approached appear appears appeared wait
    waits waited waiting stand stands stood smile smiles smiled grin grins grinned laugh laughs
    laughed cheer cheers cheered wave waves waved look looks looked glance glances glanced take
    takes took claim claims claimed seize seizes seized grab grabs grabbed near nears neared
    draw draws drew make makes made close closes closed charge charges charged push pushes
    pushed press presses pressed keep keeps kept continue continues continued already first
    ahead there closer thunder thunders thundered hurtle hurtles hurtled barrel barrels barrelled
    barreled storm storms stormed fly flies flew stride strides strode burst bursts come comes
    came go goes went head heads headed move moves moved hurry hurries hurried rush rushes
    rushed plunge plunges plunged leap leaps leapt leaped jump jumps jumped climb climbs climbed
    swim swims swam drive drives drove steer steers steered shake shakes shook rattle rattles
    rattled bounce bounces bounced jolt jolts jolted sway sways swayed creak creaks creaked
    pound pounds pounded pounding clatter clatters clattered clattering drum drums drummed
    drumming thundering galloping racing running speeding dashing rushing charging"""
)
# ... or, whatever the verb, said to be ahead: "thunders through the gate first"
_AHEAD = re.compile(r"\b(?:first|ahead|before (?:you|them|anyone)|already|wins?|won)\b")
# (what stands between the rival and the verb: an adverb, an auxiliary; "instead" is read past,
# the verb after it told what befell them)
_BEFORE_THE_VERB = _word_set(
    "suddenly quickly now then finally easily swiftly just still also instead soon already is "
    "are was were has have had been begins began start starts started to"
)
_NOT_A_VERB_HERE = _word_set("and who which that of with as in on at")
# A rival who notices or realizes something is held up only by what they find: "he suddenly
# realizes that his horse has become unresponsive" (the twentieth words), "the road is blocked by
# a large tree" (blind1a); not "he notices that the water level is unusually high" (the
# twenty-seventh words) or "that the road is narrow" (kindlead1): obstacles met, none told stopping
# them.
_RIVAL_PERCEIVES = _word_set(
    """notice notices noticed see sees saw spot spots spotted realize realizes realized realise
    realises realised hear hears heard discover discovers discovered"""
)
_RIVAL_SETBACK = re.compile(
    r"\b(?:blocked|astray|forg[eo]t\w*|unresponsive|threaten\w*|lame\w*|broken|lost|stuck|"
    r"no longer|can't|cannot|too late|gone|wrong|missing|collaps\w*|out of control)\b"
)


# What was searched for, there after all on a failed search, told of the thing itself: "As the
# dust settles, the letters scatter across the floor" for "I rifle through the study for the
# letters" (the sixteenth words, resent), "the relic's hidden compartment begins to reveal itself"
# for "I scour the vestry for the hidden relic" (the nineteenth). (Found by "you" is _FOUND's.)
_THERE = re.compile(
    r"\b(?:reveals?|revealed|revealing|appears?|appeared|emerges?|emerged|glints?|glinted|gleams?|"
    r"gleamed|comes? into view|came into view|(?:is|was|are|were) found|becomes? visible|became "
    r"visible|surfaces?|surfaced|turns? up|turned up|(?:falls?|fell|slips?|slipped|drops?|dropped) "
    r"out|scatter\w* (?:across|over|on)|"
    # ... or told where it lies: "with the codex buried beneath the ash" (stop 33's paired trial),
    # "the weight of the rubble presses down on the silver censer" (the thirty-fifth words)
    r"buried|lies|lying|rests|resting|press(?:es)? down on|pressing down on|pinned|"
    # ... or where it is, past reach: "the floodwaters are too deep to reach the abbot's seal"
    # (the forty-fifth words)
    r"(?:too \w+|unable|impossible|hard|difficult) to reach|(?:out of|beyond|within) reach)\b",
    re.IGNORECASE,
)
_NOT_THE_THING = _word_set("hidden secret lost missing stolen forbidden sealed")


def _sentence_spans(words: str) -> Iterator[re.Match[str]]:
    """Each sentence of the model's words as a match, its offsets the words' own (for an
    excerpt); the readings below that look at one sentence at a time walk these."""
    return re.finditer(r"[^.!?]+[.!?]*", words)


def _sought_there(words: str, action: str | None) -> list[str]:
    """On a failed search: the sentences where the thing sought shows itself."""
    sought = _SOUGHT.search(action or "")
    if not sought:
        return []
    nouns = [w for w in sought["thing"].lower().split() if w not in _NOT_THE_THING]
    thing = re.escape((nouns or sought["thing"].lower().split())[-1].removesuffix("s"))
    return [
        _excerpt(words, m.start(), m.end())
        for m in _sentence_spans(words)
        if re.search(rf"\b{thing}", m.group().lower()) and _THERE.search(m.group())
    ]


@lru_cache(maxsize=64)
def _rival_or_mount(rival: str) -> re.Pattern[str]:
    """The rival, the rival's anything, or a mount, ship or wheels of "his" or "hers"."""
    return re.compile(
        rf"\b{re.escape(rival)}(?:'s [a-z]+)?\b|\b(?:his|her|its|their|the [a-z]+'s) (?:horse|mount|"
        r"steed|pony|"
        r"mule|cart|wagon|carriage|coach|boat|ship|skiff|sled|wheels?|vehicle|oars?)\b"
    )


_HE_OR_SHE = re.compile(r"\b(?:he|she)\b")
# A beast raced is "it": "As the courier's horse starts to gallop away, it suddenly takes a sharp
# turn and runs into a tree" (the thirty-third words)
_HE_SHE_OR_IT = re.compile(r"\b(?:he|she|it)\b")
_COLLIDES = r"runs|ran|crash(?:es|ed)?|slam(?:s|med)?|smash(?:es|ed)?|ploughs|plowed|careens"
_BEASTS = _word_set("horse mare stallion mount steed pony mule hound dog wolf stag hare fox boar")


def _rival_held_up(words: str, action: str | None) -> list[str]:
    """On a race lost: where the rival (or the rival's mount, ship, wheels) does anything but
    what the race's winner does."""
    raced = _RACED.search(action or "")
    if not raced or (rival := raced["rival"].lower().split()[-1]) in _NO_RIVAL:
        return []
    # the rival, the rival's mount or ship, or, in a sentence that names the rival, "his horse"
    # ("As the bailiff approaches the toll house, he suddenly realizes that his horse has become
    # unresponsive", the twentieth words)
    who = _rival_or_mount(rival)
    found = []
    for sentence in _sentence_spans(words):
        low = sentence.group().lower()
        named = re.search(rf"\b{re.escape(rival)}\b", low)
        if not named:
            continue
        # ... and "he" or "she" after the rival is named in the sentence ("As the tax collector
        # approaches, he suddenly notices a sudden storm that threatens to wash away all of his
        # plans", the twenty-third words)
        pronoun = _HE_SHE_OR_IT if rival in _BEASTS else _HE_OR_SHE
        subjects = [*who.finditer(low), *pronoun.finditer(low, named.end())]
        for m in subjects:
            # past a clause about them: "The knight, who was expecting to win the race, ..."
            rest = re.sub(r"^,[^,.;!?]*,", "", low[m.end() :])
            tokens = re.findall(r"[a-z']+|[^\sa-z']", rest)[:8]
            verb = next((t for t in tokens if t not in _BEFORE_THE_VERB), "")
            clause = re.split(r"[,.;!?]", rest, maxsplit=1)[0]
            # (running into something is meeting it, no winner's run: "The bailiff's runner ...
            # instead ran into a sudden storm", the twenty-sixth words; "it suddenly takes a sharp
            # turn and runs into a tree", the thirty-third)
            met = (
                re.search(rf"\b(?:{re.escape(verb)}|{_COLLIDES}) into (?:a|an)\b", clause)
                if verb
                else None
            )
            if verb in _RIVAL_PERCEIVES and not _RIVAL_SETBACK.search(rest):
                continue
            # (a winner's verb gone wrong: "the baron's horse suddenly gallops out of control",
            # the thirty-first words)
            wrong = verb in _WINNER_DOES and re.search(r"\bout of control\b", clause)
            if (
                re.match(r"[a-z]", verb)
                and (verb not in _WINNER_DOES | _NOT_A_VERB_HERE or met or wrong)
                and not _AHEAD.search(clause)
            ):
                at = sentence.start() + m.start()
                found.append(_excerpt(words, at, at + len(m.group()) + 40))
        # ... and the rival hampered, whatever the sentence's subject: "The rain starts to pour
        # down, making it difficult for the miller's son to keep up with the race" (stop 33's
        # trials, after he got there first)
        hampered = re.search(
            rf"\b(?:difficult|hard|harder|impossible|tough|tricky) for (?:the |his |her )?"
            rf"(?:[a-z'-]+ )?{re.escape(rival)}\b",
            low,
        )
        if hampered:
            found.append(_excerpt(words, sentence.start() + hampered.start(),
                                  sentence.start() + hampered.end()))  # fmt: skip
    return found


# A tie told as one side giving in: "You haggle with the dwarf over the price, but neither side
# wins out. The dwarf's eyes widen as he realizes he can't win, and he sighs in defeat" (run 35;
# the ninth words' fishmonger "realizes the only way to win is to give up")
_GIVES_IN = re.compile(
    r"\b(?:sighs?|sighed|slumps?|slumped|bows?|bowed|nods?|nodded|admits?|admitted) (?:\w+ )?"
    r"(?:in )?defeat\b|\b(?:can't|cannot|couldn't|could not) (?:possibly )?win\b|"
    r"\b(?:concedes?|conceded|gives? in|gave in|giving in|gives? up|gave up|giving up|"
    r"backs? down|backed down|backing down|relents?|relented|relenting|caves?|caved)\b",
    re.IGNORECASE,
)
# ... or the winner undone by others, the contest's failure come right in the end: "As the
# smuggler tries to escape, they are caught by the police and arrested" (the twenty-eighth words,
# a wrestle for a pistol lost). Not the character caught ("you are caught", "Kell is captured").
_UNDONE = re.compile(
    r"\b(?:is|are|was|were|gets?|got|being) (?:\w+ )?(?:caught|arrested|captured|subdued|"
    r"overpowered|defeated|apprehended|knocked (?:out|unconscious))\b",
    re.IGNORECASE,
)


def _winner_undone(words: str, character: str | None) -> list[str]:
    ours = re.compile(rf"\b(?:you|{_names(character)})\W+$", re.IGNORECASE)
    return [
        _excerpt(words, m.start(), m.end())
        for m in _not_denied(words, _UNDONE.finditer(words))
        if not ours.search(words[max(0, m.start() - 20) : m.start()])
    ]


# (Not a contest for a thing, which the winner runs off with: "The orc kicks you and runs away",
# run 8.)
_FOR_A_THING = re.compile(r"\bfor (?:the|a|an|his|her|their|its|my|your)\b", re.IGNORECASE)
# What the player set out to stop, told going on: "I call on the blood to silence the bells" at a
# cost, told "As the bells continue to ring" (eighth words' prompt resent with the grammar)
_STOPPING = re.compile(
    r"\b(?:silence|silences|stop|stops|halt|halts|still|stills|douse|douses|extinguish|"
    r"extinguishes|put out|puts out|quench|quenches|quell|quells) (?:the |a |an |his |her |their |"
    r"its |that |those )?(?:\w+ )?(?P<thing>[a-z]{3,})\b",
    re.IGNORECASE,
)


# ... and its noise, named by the player's own word for it, told heard: "I call on the blood to
# silence the screeching ravens" at a cost, told "The ravens' screeching echoed through the
# forest"; "to hush the howling wolves" told "The howls of the wild dogs outside become a constant
# reminder" (stop 33's trials). Not where the clause tells it ending ("the howling dies away").
_NOISY = re.compile(
    r"\b(?:silence|silences|still|stills|quiet|quiets|hush|hushes|muffle|muffles|calm|calms|"
    r"soothe|soothes) (?:the |a |an |his |her |their |its |that |those )?(?P<noise>[a-z]{3,})ing "
    r"(?P<thing>[a-z]{3,})",
    re.IGNORECASE,
)
_NOISE_ENDS = re.compile(
    r"\b(?:stop|stops|stopped|cease|ceases|ceased|fade|fades|faded|fading|die|dies|died|dying|"
    r"subside|subsides|subsided|end|ends|ended|silent|silenced|hushed|quiet|quieted|quietened|"
    r"muffled|silence|no longer|gone|vanish|vanishes|vanished|falter|falters|faltered|"
    r"could|would|might)\b",  # (or only might go on: "could be used to fuel the ravens' screeching")
    re.IGNORECASE,
)


@lru_cache(maxsize=64)
def _goes_on(action: str) -> re.Pattern[str] | None:
    things = {re.escape(m.group("thing").lower()[:5]) for m in _STOPPING.finditer(action)}
    if not things:
        return None
    return re.compile(
        rf"\b(?:{'|'.join(sorted(things))})\w*(?:'s? \w+)? (?:still |only )?(?:continue|continues|"
        r"continued|keep|keeps|kept|go on|goes on|went on|carry on|carries on|carried on) "
        r"(?:to |on )?\w+",
        re.IGNORECASE,
    )


def _noise_heard(words: str, action: str) -> list[str]:
    """The noise the player set out to quiet, named by their word for it, in a clause that names
    its makers too ("the ravens' screeching", "the wolves howl"; not "the wind howled") and does
    not tell it ending; the player's own words for them ("the howling dogs") are no noise heard."""
    found = []
    for noisy in _NOISY.finditer(action):
        # (the makers by their singular's first letters: "the dog's fur" names "the dogs", the
        # forty-fifth words)
        stem = noisy["noise"].lower()
        thing = re.escape(noisy["thing"].lower().removesuffix("s")[:4])
        stem = stem[:-1] if len(stem) > 4 and stem[-1] == stem[-2] else stem  # "yapp"ing
        for m in _not_denied(words, re.finditer(rf"\b{re.escape(stem)}\w*", words, re.I)):
            if re.match(rf"\w* {thing}", words[m.start() :], re.I):
                continue  # the player's words again: "the howling dogs"
            clause = _clause_around(words, m.start(), m.end(), ",;.!?")
            if re.search(rf"\b{thing}", clause, re.I) and not _NOISE_ENDS.search(clause):
                found.append(_excerpt(words, m.start(), m.end()))
    return found


# What was stilled, quieted or silenced, told growing: "The storm grows stronger", "The crowd's
# cries grew more desperate" (the twenty-first words), "The baying hounds' cries become more
# intense" (the twenty-seventh), "The crowd's screams grew fiercer" (the twenty-ninth)
_GROWS_ON = re.compile(
    r"\b(?:grow|grows|grew|growing|become|becomes|became|becoming|get|gets|got|getting) "
    r"(?:even |ever |much |only )?(?:louder|fiercer|stronger|wilder|worse|more|frantic|frenzied|"
    r"intense|desperate|deafening|shriller)\b|\blouder\b",
    re.IGNORECASE,
)
# The character's weapons (a blow struck with one, one made ready)
_WEAPON = (
    r"bow|longbow|shortbow|crossbow|musket|pistol|gun|rifle|arquebus|sling|arrow|bolt|cutlass|"
    r"sword|blade|knife|dagger|spear|axe|hatchet|rapier|sabre|saber|scimitar|falchion|mace|hammer|"
    r"maul|club|cudgel|javelin|lance|halberd|glaive|flail|harpoon|trident|quarterstaff|warhammer|"
    r"morningstar|blunderbuss|revolver|carbine|shotgun|bayonet|stiletto|machete|tomahawk|katana"
)
# A blow struck with a verb _BLOWS does not hold: "I bring my hammer down on the skeleton's skull",
# "I drive my spear into the ghast's chest", "I hurl a spear at the retreating raider"
_BLOW_STRUCK = re.compile(
    r"\b(?:bring|brings|drive|drives|hurl|hurls|throw|throws|loose|looses|smash|smashes|bash|"
    r"bashes|club|clubs|hack|hacks|chop|chops|cleave|cleaves)\b[^.]*?\b(?:at|into|on|down on)\b|"
    # ... or any verb that puts the character's weapon in a foe: "I bury my hatchet in the troll's
    # shoulder" (the twenty-seventh words)
    rf"\b(?:my|his|her) (?:[a-z-]+ )?(?:{_WEAPON})\b[^.]*?\b(?:in|into|at|on)\b",
    re.IGNORECASE,
)
_AIMED_AT = re.compile(
    r"\b(?:attack|attacks|strike|strikes|shoot|shoots|fire|fires|loose|looses|throw|throws|hurl|"
    r"hurls|fling|flings|cast|casts|sling|slings|swing|swings|lunge|lunges|thrust|thrusts|"
    # "I let fly a dart at the fleeing cutpurse" (the forty-seventh words, led as headway)
    r"lets? fly(?! with))\b[^.]*?\bat\b",
    re.IGNORECASE,
)


_ARMED_OR_KILLING = re.compile(
    rf"\b(?:{_WEAPON}|kill|kills|slay|slays|fight|fights|duel|duels)\b", re.IGNORECASE
)


def strikes(action: str | None) -> bool:
    """Whether the player's words strike at someone: a blow, a weapon, a thing aimed at them."""
    words = action or ""
    return "blow" in attempt_kinds(words) or bool(
        _BLOW_STRUCK.search(words) or _AIMED_AT.search(words) or _ARMED_OR_KILLING.search(words)
    )


_FIGHTS_ON = re.compile(
    # (not "deflected": "The goblin archer's arrow, now deflected by the sharp blade of the
    # sword", grammar1, is the blow's work)
    # (nor "charged with energy": "The air around the duelist's body becomes charged with
    # energy", the forty-sixth words, is a state, not a charge)
    r"\b(?:lunges?|lunged|lungses|(?:charge|charges|charged)\b(?! with (?:energy|power|tension|"
    r"electricity|magic))|turns? to face|turned to face|blocks|"
    r"parries|parried|dodges|dodged|sidesteps?|sidestepped|counters|countered|counterattacks?|"
    r"counterattacked)\b",
    re.IGNORECASE,
)


# The foe struck home firing back: "The sound of the bandit chief's gunshots reverberates through
# the room" after "I vault the table and strike at the bandit chief" (run 78, a spectacular
# success). Read in a sentence naming the one struck (a battle's gunfire elsewhere is the scene),
# or told of "he", "she" or "it" firing.
_STRUCK_AT = re.compile(
    r"\b(?:at|into|strike|strikes|stab|stabs|slash|slashes|hit|hits|attack|attacks|punch|punches|"
    r"kick|kicks|shoot|shoots)" + _OBJECT_AFTER,
    re.IGNORECASE,
)
_FIRING = re.compile(
    # (shooting only at someone: "he shot a glance at the door" is a look)
    r"\b(?:gunshots?|gunfire|shots ring|(?:fires|fired|returns fire|returned fire|takes aim|"
    r"took aim|aims|aimed|reloads|reloaded|cocks|cocked) (?:back|again|at|his|her|its|their|a|an|"
    r"the|another|wildly|blindly)|(?:shoots|shot) (?:back|again|at|wildly|blindly))\b",
    re.IGNORECASE,
)
_FIRING_PRONOUN = re.compile(
    r"\b(?:he|she|it)\s+(?:\w+\s+)?(?:fires|fired|returns fire|returned fire|takes aim|took aim|"
    r"reloads|reloaded|shoots (?:at|back)|shot (?:at|back))\b",
    re.IGNORECASE,
)


def _foe_firing(words: str, action: str) -> list[str]:
    """After a blow that landed: the one struck told firing, named or as "he", "she" or "it"."""
    return _told_of_the_one(words, action, _STRUCK_AT, _FIRING) + [
        _excerpt(words, m.start(), m.end())
        for m in _not_denied(words, _FIRING_PRONOUN.finditer(words))
    ]


# A theft done well, told as the one robbed attending to what was taken: "The guard captain looks
# at the coin purse, then at the sky", "The noble's eyes go wide, and he looks down at the purse",
# "As the merchant's face turns red ..., they look down at their hands and see that the ring has
# been replaced" (runs 35 to 43, the unsaid, kindlead and blind trials: 8 replies, each passed).
# Read as the sleeper is: who was robbed and of what is read from the player's words ("I lift the
# coin purse from the guard captain", "I pinch the purse from the noble's belt", "I pick the
# captain's pocket"), and the one robbed (their eyes, face, hands) looking, reaching or feeling
# in a sentence that names the thing or where it was is the theft noticed.
_STOLEN_FROM = re.compile(
    r"\b[a-z]+ (?:the |a |an |his |her |their )?(?P<thing>(?:[a-z-]+ )?[a-z-]+) (?:from|off|"
    r"out of) (?:the |a |an )?(?P<victim>(?:[a-z-]+ )*?[a-z-]+?)(?:'s (?P<place>[a-z]+))?(?=\W|$)",
    re.IGNORECASE,
)
_ROBBED_PLACE = re.compile(
    r"\b(?P<victim>[a-z-]+)'s (?P<place>pocket|pockets|purse|belt|pouch|coat|satchel|bag|desk|"
    r"finger|hand)\b",
    re.IGNORECASE,
)
_ATTENDS = (
    r"(?:looks?|looked|looking|sees?|saw|glances?|glanced|reaches?|reached|reaching|gropes?|"
    r"groped|pats?|patted|checks?|checked|clutch(?:es)?|clutched|grabs?|grabbed|feels?|felt|"
    r"notices?|noticed|stares?|stared|turns?|turned|flick(?:s|ed|ers?|ered)?|darts?|darted|"
    r"goes|go|went|falls?|fell|drops?|dropped|lands?|landed)"
)


@lru_cache(maxsize=64)
def _theft(action: str) -> tuple[re.Pattern[str], frozenset[str]] | None:
    """For the player's words of a theft: the one robbed attending (a pattern), and the words
    for what was taken and where it was; None when the words name no one robbed."""
    taken = _STOLEN_FROM.search(action) or _ROBBED_PLACE.search(action)
    if not taken:
        return None
    robbed = re.escape(taken["victim"].lower().split()[-1])
    marks = frozenset(
        w.lower().split()[-1]
        for w in (taken.groupdict().get("thing"), taken.groupdict().get("place"))
        if w
    )
    attends = re.compile(
        rf"\b{robbed}(?:'s (?:eyes?|gaze|face|hands?|fingers))?\s+(?:\w+\s+){{0,3}}?{_ATTENDS}\b|"
        rf"\b{robbed}\b[^.!?]*?\b(?:he|she|they)\s+(?:\w+\s+)?{_ATTENDS}\b"
    )
    return attends, marks


def _victim_attends(words: str, action: str) -> list[re.Match[str]]:
    """On a theft done well: the sentences where the one robbed attends to what was taken."""
    theft = _theft(action)
    if theft is None:
        return []
    attends, marks = theft
    return [
        m
        for m in _sentence_spans(words)
        if attends.search(low := m.group().lower())
        and any(re.search(rf"\b{re.escape(w)}", low) for w in marks)
    ]


# A failure at going unseen, told as the watchers blinded: "As the current becomes more intense,
# the patrol's lights flicker and go out" for "I read the reef's currents to slip past the patrol"
# missed (runs 35 and 46, grammar1). (A light going out on a failed search is the danger coming.)
_LIGHTS_OUT = re.compile(
    r"\b(?:lights?|lanterns?|torches|torch|lamps?|beacons?)\b[^.!?]{0,30}?\b(?:go|goes|went|going|"
    r"flicker|flickers|flickered) out\b|\b(?:lights?|lanterns?|torches|torch|lamps?|beacons?)\b"
    r"[^.!?]{0,20}?\b(?:(?:are|is|were|was) extinguished|die out|dies out|died out)\b",
    re.IGNORECASE,
)


_VESSEL = frozenset({"deck", "ship", "hull", "vessel", "boat"})


def _landing(place: str) -> frozenset[str]:
    """The words for a place leapt onto: a deck is its ship's ("the ship's hull crumbles" after
    a leap to the enemy deck, run 51)."""
    return _VESSEL if place == "deck" else frozenset({place})


_REACHED = re.compile(
    r"\b(?:onto|on to|into|to) (?:the |a |an )?(?:[a-z'-]+ )*?(?P<place>[a-z]{3,})$"
)


def _turned_against(words: str, expect: Expectation) -> list[str]:
    """On a success, the model's words after the lead telling the world turned against you."""
    if expect.polarity != "success" or expect.outcome in DRAWS:
        return []
    action = expect.action or ""
    found = [m for m in _LEFT_WORSE.finditer(words)]
    # the others coming at you: "You scout the ridge for the orc warband, and it works. You spot a
    # group of orcs approaching the ridge, and they begin to charge" (fifth words' run 1)
    found += _not_denied(words, _COMING_AT_YOU.finditer(words))
    if _GETTING_CLEAR.search(action):
        # what was got clear of, striking home: "You dodge the thrown spear, and it works. The
        # spear pierces your armor, and you feel the pain" (seventh words' run 1)
        found += _not_denied(words, _HARMS_YOU.finditer(words))
    # (a blow's foe giving way is the blow landing, whatever its verb: "You drive your hammer
    # into the ghoul's skull, and it works. As the ghoul's skull crumbles", the twenty-second
    # words)
    if (
        not _FORCEFUL.search(action)
        and not _BLOWS & set(re.findall(r"[a-z]+", action.lower()))
        and not _BLOW_STRUCK.search(action)
    ):
        dodged = {w[:5] for w in re.findall(r"[a-z]{4,}", action.lower())}
        for m in _GIVES_WAY.finditer(words):
            subject = _SUBJECT_BEFORE.search(words[: m.start()])
            # (or a part of it: "The statue's legs crumble to the ground" after "I throw myself
            # clear of the toppling statue", the sixteenth words)
            owner = re.search(r"([a-z]+)'s [a-z]+\s+(?:\w+ly\s+)?$", words[: m.start()].lower())
            cleared = _CLEARED.search(action)
            if (
                subject and _GETTING_CLEAR.search(action) and subject.group(1).lower()[:5] in dodged
            ) or (owner and cleared and owner.group(1)[:5] == cleared["thing"].lower()[:5]):
                continue  # the danger got clear of, falling: "I dodge the falling portcullis"
                # told "the portcullis has collapsed" (run 19)
            before = words[max(words.rfind(c, 0, m.start()) for c in ".!?") + 1 : m.start()]
            if (
                cleared
                and re.search(rf"\b{re.escape(cleared['thing'][:5])}", before, re.IGNORECASE)
                and not _YOU_IN.search(_sentence_around(words, m.start()))
            ):
                continue  # ... named earlier in the sentence: "The statue's toppling force is now
                # directed towards the ground, causing it to collapse" (the twenty-eighth words)
            crossing = _CLIMBING.search(action) or _ACROSS.search(action)
            around = _sentence_around(words, m.start())
            if (
                crossing
                and not _YOU_IN.search(around)
                # (but the place reached giving way is the landing undone: "The xebec's deck
                # ... now crumbles" after "I leap from the mole onto the xebec's deck", the
                # twentieth words)
                and not (
                    (reached := _REACHED.search(action.lower()))
                    and _landing(reached["place"]) & set(re.findall(r"[a-z]+", around.lower()))
                )
            ):
                continue  # what was crossed, falling behind: "I sprint across the collapsing
                # bridge" told "As the bridge crumbles under the weight of the collapsing car"
                # (the stop-25 runs' prompts resent with the grammar): only under "you" is it
                # the crossing undone
            found.append(m)
    struck = bool(
        _BLOWS & set(re.findall(r"[a-z]+", action.lower())) or _BLOW_STRUCK.search(action)
    )
    if struck:
        # the foe struck home fighting on unhurt: "The goblin king's eyes widen, and he lunges at
        # the dagger", "The gnoll's eyes widen, and it lunges at the blade" (the sixteenth and
        # seventeenth words), "The skeleton's eyes widen, and it turns to face the hammer" (run 38)
        found += _not_denied(words, _FIGHTS_ON.finditer(words))
    if _ASKING.search(action):
        found += _not_denied(words, _BRUSHED_OFF.finditer(words))
    if _TAKING.search(action):
        found += _victim_attends(words, action)
    if _TAKING.search(action) or _HIDING.search(action) or _UNSEEN.search(action):
        # (not the quarry knowing it has lost you: "he realizes he has lost your trail")
        found += [
            m
            for m in _not_denied(words, _VICTIM_KNOWS.finditer(words))
            if not _LOST_YOU.match(words, m.end())
        ]
    if _CALMING.search(action):
        found += _not_denied(words, _PANIC_SPREADS.finditer(words))
        if state := _CALMED_STATE.search(action):
            found += _not_denied(words, _state_again(state["state"].lower()).finditer(words))
    if _UNSEEN.search(action):
        found += _not_denied(words, _looks_at(expect.character).finditer(words))
    if _UNSEEN.search(action) or _TAKING.search(action) or _HIDING.search(action):
        found += _not_denied(words, _ATTENTION.finditer(words))
    if _passing_a_sleeper(action):
        # "I tiptoe past the sleeping hounds" told "The hounds' eyes widen, and they slowly open"
        # (the seventeenth words: "tiptoe" is no word of _UNSEEN)
        found += _not_denied(words, _WAKES.finditer(words))
        found += _not_denied(words, _sleeper_woken(words, action))
    return [_excerpt(words, m.start(), m.end()) for m in found] + (
        _foe_firing(words, action) if struck else []
    )


# "They" for the one the lead calls "you". The grammar keeps "you" out of the model's sentence,
# and told "show how the world gives way to you", the model wrote of the character in the plural:
# "You hack the security terminal, and it works. As the world around them shifts, they find
# themselves in a new place where their actions have consequences" (runs 40 to 48, 5 of the 13
# replies to that request, each shown). With no one else in the sentences the pronoun can stand
# for, it is read as "you", as a labeller reads it (the ruling "they/them with no one else named
# is the character"). Anyone else can: a person's or a plural noun, a possessive ("the jailer's
# eyes ... they realize"), a name, any thing named but the scene's own nouns below.
_THEY = re.compile(r"\b(?:they|them|their|themselves|theirs)\b")
_AS_YOU = {
    "they": "you",
    "them": "you",
    "their": "your",
    "themselves": "yourself",
    "theirs": "yours",
}
_SCENE_NOUNS = _word_set(
    "world air room place area scene atmosphere sky ground landscape night darkness dark silence "
    "wind light lights shadows fog mist rain storm sea water sun moon stars horizon city town "
    "street streets market hall chamber corridor path road way situation moment tension mood "
    "space surroundings environment ledge"
)
_PERSON_OR_MANY = re.compile(
    _PERSON_NOUN.pattern.replace("|him|them)", ")")
    + r"|\b(?:the|these|those|their|his|her|its|some|many|several|all|both|two|three|four|few|of)"
    r"\s+(?P<between>(?:[a-z'-]+\s+){0,2}?)(?P<many>[a-z-]{2,}[^sui\W']s)'?(?=\W|$)"
)
_MANY_PEOPLE = re.compile(
    r"\b(?:people|persons|creatures|everyone|everybody|others|folk|folks|crowd|onlookers|"
    r"bystanders|passers-by|both)\b"
)
_NAMED_THING = re.compile(r"\b(?:the|a|an|this|that)\s+([a-z-]+)(?:\s+([a-z-]+))?")


def _another_for_they(before: str, action: str) -> bool:
    """Whether anyone but the character is named in the words before a "they" (or among the
    people or things in the plural the player's words name)."""
    low = before.lower()
    for m in _PERSON_OR_MANY.finditer(low):
        if not m.group("many"):
            return True
        # not a scene noun's verb: "As the world begins to change around them"
        if m.group("many") not in _SCENE_NOUNS and not _SCENE_NOUNS & set(m["between"].split()):
            return True
    if _PERSON_OR_MANY.search(action.lower()) or _MANY_PEOPLE.search(low):
        return True  # ("people and creatures alike find themselves caught", blind1a)
    if any(w not in _SCENE_NOUNS for w in re.findall(r"\b([a-z]+)'s\b", low)):
        return True  # a possessor: "The harbour pilot's eyes widen as they realize"
    if re.search(r"[a-z,] [A-Z][a-z]+", before):
        return True  # a name: "As the Tremere approach the market, they feel"
    return any(
        first not in _SCENE_NOUNS and second not in _SCENE_NOUNS
        for first, second in _NAMED_THING.findall(low)
    )


def _they_as_you(words: str, action: str | None) -> str:
    """The model's words with each "they" that can only be the character turned to "you", up to
    the first that can stand for anyone else ("As the world around them shifts, they find
    themselves in a new realm where technology has transformed their lives", run 60: "their" may
    be the realm's people; the "they" before it can only be the character)."""
    out, last = [], 0
    for m in _THEY.finditer(words):
        if _another_for_they(words[: m.start()], action or ""):
            break
        out += [words[last : m.start()], _AS_YOU[m.group()]]
        last = m.end()
    return "".join(out) + words[last:] if out else words


# A weapon made ready, told striking: "You nock an arrow as the wolves break cover, but not without
# a cost. The arrow pierces the wolf's heart" (the twenty-second words), "The cutlass pierces the
# boarders' eyes" (run 13). Readying is the attempt; the shot or the cut is the character acting
# past it. The weapon, or what it looses, told with no one else's name before it.
_READYING = re.compile(
    r"\b(?:draw|draws|ready|readies|nock|nocks|aim|aims|raise|raises|level|levels|load|loads|"
    r"cock|cocks|unsling|unslings|brandish|brandishes) (?:my|an?|the) (?:[a-z-]+ ){0,2}?"
    rf"(?P<weapon>{_WEAPON})\b",
    re.IGNORECASE,
)
_LOOSED = {
    "bow": "arrow|shaft",
    "longbow": "arrow|shaft",
    "shortbow": "arrow|shaft",
    "crossbow": "bolt|quarrel",
    "musket": "shot|ball|bullet",
    "pistol": "shot|ball|bullet",
    "gun": "shot|ball|bullet",
    "rifle": "shot|ball|bullet",
    "arquebus": "shot|ball|bullet",
    "sling": "stone|shot",
}
_STRIKES_HOME = (
    r"(?:pierces?|pierced|strikes?|struck|hits?|finds? (?:its|their) mark|found (?:its|their) "
    r"mark|slams?|slammed|sinks?|sank|buries|buried|cuts?|slices?|sliced|tears?|tore|plunges?|"
    r"plunged|lodges?|lodged|bites?|cleaves?|cleaved|slashes|slashed|stabs|stabbed|fells?|felled|"
    r"kills?|killed)"
)


@lru_cache(maxsize=64)
def _readied(action: str) -> re.Pattern[str] | None:
    """For words that make a weapon ready without striking: the weapon, or what it looses, told
    striking home; None for other words."""
    lowered = set(re.findall(r"[a-z]+", action.lower()))
    if _BLOWS & lowered or _BLOW_STRUCK.search(action):
        return None
    names = {
        name
        for m in _READYING.finditer(action)
        for name in [m["weapon"].lower(), *_LOOSED.get(m["weapon"].lower(), "").split("|")]
        if name
    }
    if not names:
        return None
    return re.compile(
        rf"\b(?:the|an?)\s+(?:[a-z-]+\s+)?(?:{'|'.join(sorted(names))})s?\s+(?:\w+ly\s+)?"
        rf"{_STRIKES_HOME}\b",
        re.IGNORECASE,
    )


# A fear that sets in on no one named is the character's: "As the ledge shakes, causing a sudden
# drop, fear and panic set in." (runs 50, 58; not "set in among the group", run 46)
_FEAR = r"(?:fear|panic|dread|terror|despair|unease|anxiety|desperation|hopelessness)"
_UNOWNED_FEAR = re.compile(
    rf"\b{_FEAR}(?: and {_FEAR})? (?:(?:begins?|began|starts?|started) to )?(?:sets?|setting) "
    r"in(?=\s*(?:[.,;!?]|$))",
    re.IGNORECASE,
)
_NARRATOR_AS_I = re.compile(r"\bI\b|\b(?i:me|my|myself)\b")
# The character's name, or the game's taken for it, bent round the grammar's bar ("Eleg y",
# "Elegay", "K ell": one space put in or one letter changed), given a nature: "The cardinal's
# secretary, now in awe of the sudden power and grace of Eleg y" (the eighteenth words), "the
# charm and the warmth of Elegay's presence" (the twenty-first), "a testament to Elegay's
# determination and ingenuity" (run 56). (Not the attempt's own charm or allure: "under the
# spell of Elegy's charm" is the charming told.)
_NATURE = (
    r"(?:power|grace|warmth|strength|courage|bravery|determination|resolve|ingenuity|wisdom|"
    r"kindness|confidence|spirit|cunning|prowess|heroism|valou?r|nobility|elegance|beauty|"
    r"poise|charisma|wit)"
)
_NAME_LIKE = re.compile(r"\b[A-Z][a-z]*(?: [a-z]+)?\b")


def _one_edit(word: str, target: str) -> bool:
    """Whether ``word`` is ``target`` or one letter put in, left out or changed."""
    if abs(len(word) - len(target)) > 1:
        return False
    if len(word) == len(target):
        return sum(a != b for a, b in zip(word, target, strict=True)) <= 1
    short, long_ = sorted((word, target), key=len)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def _near_name(word: str, name: str) -> bool:
    """One edit from ``name``, or, a name of four letters or more, two letters changed between
    its first and last ("Kiel" for "Kell": "a chill runs down Kiel's spine", the twenty-ninth
    words; "a sense of dread washes over Kiel", unsaid2)."""
    if _one_edit(word, name):
        return True
    return (
        len(word) == len(name) >= 4
        and word[0] == name[0]
        and word[-1] == name[-1]
        and sum(a != b for a, b in zip(word, name, strict=True)) <= 2
    )


@lru_cache(maxsize=16)
def _spaced(name: str) -> re.Pattern[str]:
    """``name``'s letters with any one space put between them: "Go For th", "Eleg y"."""
    return re.compile(r"\b" + " ?".join(re.escape(c) for c in name.replace(" ", "")) + r"\b", re.I)


def _bent_names(words: str, expect: Expectation) -> list[str]:
    """The names in the model's words that stand for the character: the character's first name
    or the game's name, as written or bent by spaces (a game's name of two words too: "a skilled
    fighter like Go For th", run 57) or, a name of one word, by one letter."""
    # (a system's id, spaced, is its name lower-cased: "elegy", "go forth"; the guard does not
    # load the registry for it)
    names = {
        t
        for t in (*(expect.character or "").split()[:1], expect.system.replace("_", " "))
        if len(t) >= 3 and t.lower() not in ("unnamed", *SETTING_NAMES)
    }
    found = [m.group() for t in names for m in _spaced(t).finditer(words)]
    targets = {t for t in names if " " not in t}
    for m in _NAME_LIKE.finditer(words):
        for form in (m.group(), m.group().split(" ")[0]):
            squashed = form.replace(" ", "").lower()
            if len(squashed) >= 3 and any(_near_name(squashed, t.lower()) for t in targets):
                found.append(form)
                break
    return found


# "you" and "your" bent round the grammar's bar ("yor face", "yur voice", runs 44, 49, 56, 57):
# a word of "y" and one letter put in, left out or changed, save English words so made.
# ... and the old second person: "As the bell tower looms before thee" (run 59).
_Y_WORD = re.compile(r"\b(?:[Yy][a-z]{0,3}|[Tt]h(?:ee|ou|y|ine))\b")
_NOT_BENT = frozenset({"yo", "yon", "yob", "yow", "yod", "yore", "yous", "you", "your", "yours"})
_ARCHAIC = {"thee": "you", "thou": "you", "thy": "your", "thine": "your"}


def _unbent_you(match: re.Match[str]) -> str:
    word = match.group()
    low = word.lower()
    if low in _ARCHAIC:
        return word[0].replace("t", "y").replace("T", "Y") + _ARCHAIC[low][1:]
    if low in _NOT_BENT:
        return word
    for plain in ("your", "you"):
        if _one_edit(low, plain) and (plain == "you" or low.endswith("r")):
            return word[0] + plain[1:]
    return word


def unbent(words: str, expect: Expectation) -> str:
    """The model's words with what it bent round the grammar's bars read as what it stands for:
    "yor face" as "your face", "Kall" (or "Elegay", the game's name, for the character) as the
    character's name. The grammar bars a spelling; the model writes the next one ("yur" then
    "yor", "Elegy" then "Eleg y" and "Elegay"): each reading below then holds for them too."""
    words = _Y_WORD.sub(_unbent_you, words)
    if not (name := (expect.character or "").split()[:1]):
        return words
    for form in sorted(set(_bent_names(words, expect)), key=len, reverse=True):
        if form != name[0]:
            words = re.sub(rf"\b{re.escape(form)}\b", name[0], words)
    return words


@lru_cache(maxsize=64)
def _nature_of(names: frozenset[str]) -> re.Pattern[str]:
    """A nature given to one of ``names`` (compiled once per set of names, not per sentence)."""
    who = "|".join(sorted(re.escape(n) for n in names))
    return re.compile(
        # (not the attempt's work: "the beauty and elegance of Elegy's performance", grammar1)
        rf"\b(?:\w+ and (?:the )?)?{_NATURE} of (?:{who})\b(?!'s (?:performance|song|singing|"
        r"dance|dancing|music|playing|act|show|display|words|speech|story|tale)\b)|"
        rf"\b(?:testament|tribute|symbol|proof) (?:to|of) (?:{who})'s (?:\w+ )?{_NATURE}\b|"
        # the character called a kind of person: "too great for even a skilled fighter like Go
        # For th" (run 57)
        rf"\b(?:an?|even an?) (?:[a-z-]+ ){{1,3}}like (?:{who})\b"
    )


def _nature_given(words: str, expect: Expectation) -> list[str]:
    """A nature given to the character named (or bent): "the power and grace of Eleg y"."""
    names = frozenset(_bent_names(words, expect))
    return [m.group() for m in _nature_of(names).finditer(words)] if names else []


# The player's attempt, named in their own words, given up by whoever made it (the character's
# party, then): "the crew is forced to abandon their attempt to slip past the patrol" after "I
# read the reef's currents to slip past the patrol" went badly wrong (run 70). A failure is the
# engine's; what the character does about it is the player's (as "you are forced to flee").
_GIVES_UP = re.compile(
    r"\b(?:abandon|abandons|abandoned|abandoning|give up|gives up|gave up|giving up|call off|"
    r"calls off|called off|calling off|forsake|forsakes|forsook) (?:their|his|her|the|any|all) "
    r"(?:\w+ )?(?:attempt|attempts|effort|efforts|bid|plan|plans|hope|hopes) (?:of|to) "
    r"(?P<what>(?:[\w'-]+ ?){1,6})",
    re.IGNORECASE,
)


def _attempt_given_up(words: str, action: str | None) -> list[str]:
    """The attempt given up, named by two or more of the player's own words for it."""
    stated = _four_letter_stems(action or "")
    return [
        m.group()
        for m in _not_denied(words, _GIVES_UP.finditer(words))
        if len(_four_letter_stems(m["what"]) & stated) >= 2
    ]


# Harm told to "you" (_HARMS_YOU), or the points and the footing lost: "You lose 10 hp"
_HARM_TO_YOU = re.compile(
    _HARMS_YOU.pattern + r"|\byou (?:\w+ )?(?:fall|fell|collapse|collapsed|crumple|crumpled|suffer|"
    r"suffered|bleed|bled|(?:lose|lost) (?:\d+|consciousness|blood|your footing)|(?:take|took) "
    r"(?:\d+|damage|a (?:wound|blow|hit))|(?:are|were) (?:struck|hit|knocked))\b",
    re.IGNORECASE,
)


def _with_continuation(
    checks: list[GuardCheck], words: str, expect: Expectation, complete: bool
) -> list[GuardCheck]:
    words = _they_as_you(words, expect.action)
    acts, befalls = _continuation_acts(words, expect)
    if readied := _readied(expect.action or ""):
        acts += [m.group() for m in _not_denied(words, readied.finditer(words))]
    # the narrator tells "you"; its own "I" or "myself" outside speech is the character's voice:
    # "The guard's strength is too great for a novice like myself" (run 54)
    told = _unquoted(words)
    acts += [m.group() for m in _NARRATOR_AS_I.finditer(told)]
    acts += [m.group() for m in _UNOWNED_FEAR.finditer(told)]
    acts += _nature_given(told, expect)
    acts += _attempt_given_up(told, expect.action)
    # The lead tells the outcome, so in the whole text events never decide (see _check_outcome:
    # "events alone decide only where nothing in the narration tells the success"). The model's
    # words are read again alone: what happens in them must not tell the other side ("..., and it
    # works better than you hoped. The fog bank ... erupted with a violent storm, sending you
    # flying and knocking you unconscious.").
    rest = _Text.of(_prepare(words))
    alone = _check_outcome(rest, expect, _pronoun_subjects(rest, expect.character), complete)
    noticed = (
        [_excerpt(words, m.start(), m.end()) for m in _LOOKS_BACK.finditer(words)]
        if expect.polarity == "success" and _UNSEEN.search(expect.action or "")
        else []
    )
    if expect.polarity == "success" and _PURSUING.search(expect.action or ""):
        noticed += [_excerpt(words, m.start(), m.end()) for m in _GETS_AWAY.finditer(words)]
        noticed += _quarry_carried_off(words, expect.action or "")
    if expect.polarity == "success" and (
        _PURSUING.search(expect.action or "") or _UNSEEN.search(expect.action or "")
    ):
        noticed += _quarry_alarmed(words)
    against = _turned_against(words, expect)
    undone = (
        [_excerpt(words, m.start(), m.end()) for m in _FALLS.finditer(words)]
        if expect.polarity == "mixed" and _CLIMBING.search(expect.action or "")
        else []
    )
    if expect.polarity == "mixed" and _GETTING_THROUGH.search(expect.action or ""):
        undone += [
            _excerpt(words, m.start(), m.end())
            for m in _not_denied(words, _NO_WAY_ON.finditer(words))
        ]
    if expect.polarity == "mixed" and _BOARDING.search(expect.action or ""):
        undone += [_excerpt(words, m.start(), m.end()) for m in _FALLS_OFF.finditer(words)]
    if expect.polarity in ("success", "mixed"):
        undone += [
            _excerpt(words, m.start(), m.end())
            for m in _not_denied(words, _TAKEN_FROM_YOU.finditer(words))
        ]
        if expect.polarity == "mixed":
            undone += [_excerpt(words, m.start(), m.end()) for m in _COST_ON_OTHERS.finditer(words)]
        if refused := _refused(expect.action or ""):
            undone += [_excerpt(words, m.start(), m.end()) for m in refused.finditer(words)]
    if expect.polarity in ("success", "mixed") and "stopping" in attempt_kinds(expect.action):
        undone += [
            _excerpt(words, m.start(), m.end())
            for m in _not_denied(words, _GROWS_ON.finditer(words))
        ]
    going_on = _goes_on(expect.action or "")
    if expect.polarity in ("success", "mixed") and going_on:
        undone += [
            _excerpt(words, m.start(), m.end())
            for m in _not_denied(words, going_on.finditer(words))
        ]
    if expect.polarity in ("success", "mixed"):
        undone += _noise_heard(words, expect.action or "")
        undone += _calmed_more_afraid(words, expect.action or "")
    if expect.polarity == "mixed" and _CALMING.search(expect.action or ""):
        # the calmed back in their panic at a cost, as on a success: "it caused a panic among the
        # herd and forced them to flee in terror" (stop 33's trials; the thirty-fifth words)
        undone += [
            _excerpt(words, m.start(), m.end())
            for m in _not_denied(words, _PANIC_SPREADS.finditer(words))
        ]
    given_in = (
        [_excerpt(words, m.start(), m.end()) for m in _not_denied(words, _GIVES_IN.finditer(words))]
        if expect.outcome in DRAWS
        else []
    )
    given_ground = []
    action = expect.action or ""
    if expect.polarity == "failure" and _BEATING.search(action) and not _FOR_A_THING.search(action):
        given_ground = [
            _excerpt(words, m.start(), m.end())
            for m in _not_denied(words, _GIVES_GROUND.finditer(words))
        ]
    if expect.polarity == "failure":
        given_ground += _rival_held_up(words, expect.action)
    if expect.polarity == "failure" and _BEATING.search(action):
        given_ground += _winner_undone(words, expect.character)
    if expect.polarity == "failure":
        given_ground += _foe_held(words, action)
    there = _sought_there(words, expect.action) if expect.polarity == "failure" else []
    there += _let_through_after_all(words, expect)
    if expect.outcome == "graze":
        there += [
            _excerpt(words, m.start(), m.end())
            for m in _not_denied(words, _BLOW_MISSED.finditer(words))
        ]
    blinded = (
        [
            _excerpt(words, m.start(), m.end())
            for m in _not_denied(words, _LIGHTS_OUT.finditer(words))
        ]
        if expect.polarity == "failure" and (_UNSEEN.search(action) or _HIDING.search(action))
        else []
    )
    if expect.polarity == "success" and (missing := _not_found(expect.action or "")):
        undone += [
            _excerpt(words, m.start(), m.end()) for m in _not_denied(words, missing.finditer(words))
        ]
    missed = _blow_landed_elsewhere(words, action) if expect.polarity == "success" else []
    undaunted = _undaunted(words, action) if expect.polarity == "success" else []
    # the character's attack landed (led "You ..., and it lands."): its harm is the foe's, never
    # "you" falling or losing hit points (told whole: "You drive your boarding axe at the bosun,
    # but it hits a rock. You fall to the ground with a critical injury", stop 37's trial)
    turned_on_you = (
        [
            _excerpt(words, m.start(), m.end())
            for m in _not_denied(words, _HARM_TO_YOU.finditer(words))
        ]
        if (expect.system, expect.kind) in ALWAYS_HITS
        else []
    )
    told_against = [
        ("a success told as harm befalling you", befalls),
        ("the character's attack told as harm to them", turned_on_you),
        ("a blow that landed told as striking the place", missed),
        ("a success at going unseen or following told as being noticed or losing the quarry",
         noticed),
        ("a success told as the world turned against you", against),
        ("one faced down told undaunted", undaunted),
        ("a success at a cost told as the attempt undone", undone),
        ("a contest lost told as the other side giving way or held up", given_ground),
        ("a failure at going unseen told as the watchers' lights going out", blinded),
        ("a failed search told as the thing sought there, a failure as the way let open, or a "
         "graze as the blow missed", there),
        ("a tie told as one side giving in", given_in),
        ("the other side told, in words such an attempt's outcome was told against in",
         _told_against(words, expect)),
    ]  # fmt: skip
    extra = {
        "player_agency": f"the character acts after the outcome: {_quote_words(acts)}"
        if acts
        else "",
        "outcome": "; ".join(
            [f"{what}: {_quote_words(hits)}" for what, hits in told_against if hits]
            + ([f"after the lead, {alone.reason}"] if not alone.passed else [])
        ),
    }
    return _merged(checks, extra)


def _merged(checks: list[GuardCheck], extra: Mapping[str, str]) -> list[GuardCheck]:
    """The checks with more failures added by id (an empty reason adds none)."""
    merged = []
    for check in checks:
        if more := extra.get(check.id):
            reason = f"{check.reason}; {more}" if check.reason else more
            check = GuardCheck(id=check.id, passed=False, reason=reason)
        merged.append(check)
    return merged


# One faced down told undaunted, on a win: "The rival Kindred lunges forward, its eyes narrowed
# with determination" (run 8), "the Brujah gang leader approaches, his eyes narrowing with
# determination" (the forty-third words). Read in a sentence that names them and tells no
# yielding ("The Gangrel retreats into the shadows, its eyes narrowed ... with a mixture of fear
# and determination", consistent); "lunges at the ground in a fury" is frustration, not advance.
_DAUNTING = re.compile(
    r"\b(?:(?:stare|stares|face|faces|glare|glares|shout|shouts) down|outstare|outstares|outface|"
    r"outfaces|cow|cows|intimidate|intimidates|daunt|daunts|browbeat|browbeats)" + _OBJECT_AFTER,
    re.IGNORECASE,
)
_UNDAUNTED = re.compile(
    r"\b(?:approach(?:es|ed|ing)|advanc(?:es|ed|ing)|(?:lunges?|lunged|lunging) (?:forward|"
    r"toward|towards)|(?:steps?|stepped|stepping) (?:forward|closer)|(?:closes?|closed|closing) "
    r"in|(?:press|presses|pressed|pressing) (?:forward|on|closer)|(?:stands?|stood|holds?|held) "
    r"(?:firm|fast|(?:its|his|her|their) ground)|refus\w* to (?:back down|yield|budge|look "
    r"away)|(?:his|her|its|their|with) (?:\w+ )?(?:determination|resolve|defiance))\b",
    re.IGNORECASE,
)
_DAUNTED = re.compile(
    r"\b(?:retreat\w*|back\w* (?:away|down|off)|flee\w*|fled|yield\w*|cower\w*|lower\w* (?:his|"
    r"her|its|their) (?:gaze|eyes|head)|look\w* away|slink\w*|withdr\w*|turns? away|turned away|"
    r"bow\w*|shrinks?|shrank|flinch\w*|falter\w*|submit\w*|defeated|fear)\b",
    re.IGNORECASE,
)


def _undaunted(words: str, action: str) -> list[str]:
    return _told_of_the_one(
        words, action, _DAUNTING, _UNDAUNTED, lambda sentence, _: not _DAUNTED.search(sentence)
    )


# A grapple lost told as the foe caught in it: "the smuggler struggles to free himself" after
# "I grapple the smuggler for the cargo manifest" (the forty-third words); the player's own
# struggle in the foe's grip ("you struggle to break free") is the loss told.
_GRAPPLED = re.compile(
    r"\b(?:wrestle|wrestles|arm-wrestle|grapple|grapples|tussle|tussles|scuffle with)"
    + _OBJECT_AFTER,
    re.IGNORECASE,
)
_FOE_HELD = re.compile(
    r"\b(?:struggles|tries|fights|strains|squirms|writhes|thrashes|struggled|tried|fought|"
    r"strained) to (?:free (?:himself|herself|itself|themselves)|break free|wriggle free|pull free|"
    r"get free|break loose|break (?:your|the) (?:hold|grip)|"
    # ... or struggling for what it kept: "the deserter struggles to free the regimental colours
    # from his grasp" after the deserter kept hold of them (the forty-sixth words)
    r"(?:free|wrest|pull|tear|wrench|prise|pry|snatch) (?:[a-z'-]+ ){1,4}?(?:from|out of) (?:your|"
    r"his|her|its|their|the) (?:grasp|grip|hands?|fingers|hold|arms))\b",
    re.IGNORECASE,
)


def _foe_held(words: str, action: str) -> list[str]:
    return _told_of_the_one(words, action, _GRAPPLED, _FOE_HELD)


# A race (not a fight): "I race the knight to the castle gate", "I outrun the hounds to the abbey
# wall"
_RACING = re.compile(
    r"\b(?:race|races|outrun|outruns|outpace|outpaces|outswim|outswims|outride|outrides|"
    r"outsail|outsails|outdistance|outdistances|beat \w+(?: \w+)? to)\b",
    re.IGNORECASE,
)
# A trial of strength against someone: "I arm-wrestle the dwarf champion", "I wrestle the guard
# for the key", "I push the cultist back from the altar"
_STRUGGLING = re.compile(
    r"\b(?:wrestle|wrestles|arm-wrestle|grapple|grapples|tussle|tussles|(?:push|pushes|shove|"
    r"shoves|force|forces|drive|drives) (?:the |a |an |that )?[a-z'-]+ (?:back|away))\b",
    re.IGNORECASE,
)
# Getting someone to agree: "I talk the customs officer into ignoring our cargo", "I try to
# convince the harbourmaster to let us dock", haggling, beguiling ("I beguile the curator into
# showing me the vault" told at a cost as "he shakes his head", run 42)
_PERSUADING = re.compile(
    r"\b(?:talk|talks|sweet-talk|sweet-talks|convince|convinces|persuade|persuades|coax|coaxes|"
    r"cajole|cajoles|charm|charms|bribe|bribes|plead|pleads|beg|begs|haggle|haggles|barter|"
    r"barters|bargain|bargains|negotiate|negotiates|flatter|flatters|beguile|beguiles|wheedle|"
    r"wheedles|entreat|entreats|implore|implores)\b",
    re.IGNORECASE,
)

# Calming, a kind of stopping: "I calm the storm", told at a cost as "The storm grows stronger" (thirteenth
# words)
_QUIETING = re.compile(r"\b(?:calm|calms|quiet|quiets|hush|hushes|soothe|soothes)\b", re.I)


@lru_cache(maxsize=64)
def attempt_kinds(action: str | None) -> frozenset[str]:
    """What the player's words attempt, as the guard reads them: "unseen" (covert work, taking
    from someone, following), "opening" (getting a thing open or through it), "holding" (keeping
    it shut), "race", "struggle" (a trial of strength), "blow", "stopping" and "persuading".
    unsaid.py bars the words each kind's outcome was told against in."""
    if not action:
        return frozenset()
    words = set(re.findall(r"[a-z]+", action.lower()))
    taking = bool(_TAKING.search(action))
    kinds = {
        "unseen": bool(_UNSEEN.search(action)) or taking or _passing_a_sleeper(action),
        "opening": bool(_BREAKING_IN.search(action))
        and not _KEEPING_SHUT.search(action)
        and not taking,
        "holding": bool(_HOLDING.search(action)),
        "race": bool(_RACING.search(action)),
        "struggle": bool(_STRUGGLING.search(action)),
        "blow": bool(_BLOWS & words) and not taking,
        "stopping": bool(_STOPPING.search(action) or _QUIETING.search(action)),
        "persuading": bool(_PERSUADING.search(action)),
    }
    return frozenset(kind for kind, found in kinds.items() if found)


def outcome_side(expect: Expectation) -> str | None:
    """The outcome's side for TOLD_AGAINST and unsaid.py: "success", "mixed", "failure" or
    "draw"; None for a graze (a blow that barely lands) or an outcome that takes none."""
    if expect.outcome in DRAWS:
        return "draw"
    if expect.outcome == "graze":
        return None
    return {"success": "success", "mixed": "mixed", "failure": "failure"}.get(expect.polarity)


# Words that, in the model's sentence after a lead, told the other side of an outcome for a kind
# of attempt (attempt_kinds) in every real reply that held them, and in no consistent one (the
# labelled replies without "you", tests/service/narrator/real_model_narrations.yaml, up to the
# fifteenth words): read by the guard here, barred by the grammar (unsaid.py, which bars broader
# words besides: "open" told a failed pick as open and as "won't open" alike). A word with a
# leading space is read at a word's start. A weak hit is read as a success, save being noticed.
TOLD_AGAINST: dict[tuple[str, str], tuple[str, ...]] = {
    # "The Toreador, now aware of the shadow's presence", "The gatekeeper's eyes widen as he
    # realizes the intruder", "The merchant's face lights up with recognition", "The ghoul's eyes
    # narrow" (not surprise: "The goblins freeze in surprise", tracking them, run 17)
    ("unseen", "success"): (
        " alarm",
        " aware",
        " encircl",
        " eyes narrow",
        " eyes open",
        " in shock",
        " intruder",
        " investig",
        " face lights",
        " looks up",
        " recogni",
        " scrambl",
        " sensing",
        " startl",
        " tricked",
        " turns around",
        " vanish",
        " wary",
        " wakes",
        " wake up",
        " woke",
    ),
    # "As the puzzle box creaks open", "it finally breaks free, revealing a hidden door", "The
    # door swings inward", "As the lock clatters to the floor" (not a danger revealed: "the door
    # flies open, revealing a group of guards", run 12)
    ("opening", "failure"): (
        " clatter",
        " collaps",
        " breaks free",
        " gives way",
        " gave way",
        " give way",
        " inward",
        " reveals ",
        " revealing a hidden",
        " shatter",
        " swings open",
        " swung open",
        " took a long",
        " creaks open",
        " springs open",
        " pops open",
        # ("The lock is jammed, and it takes a long time to turn", the twenty-third words)
        " takes a long",
        " take a long",
        # ("As the bars come loose, they begin to fall on the floor", the twenty-third words; "The
        # boards start to split, and the crate begins to tip over", the twenty-fourth)
        " split",
        " come loose",
        " comes loose",
        " came loose",
        # ("As the grate comes crashing down, water pours in", the twenty-ninth words; "As the
        # boards come crashing down", the thirty-first)
        " comes crashing down",
        " come crashing down",
        " came crashing down",
        " comes off",
        " came off",
        " come off",
        # ("the crate becomes more unstable and the lid is no longer secure", the thirty-second
        # words)
        " no longer secure",
        " loosens",
        " loosened",
    ),
    # "The quartermaster ... reluctantly agrees to let go of the ship"
    ("persuading", "failure"): (" agree", " nods", " reluctantly"),
    # "The quartermaster's face contorts in pain, and he shakes his head"
    ("persuading", "success"): (" shakes his head", " shakes her head", " shakes their head"),
    # "The bugbear's eyes widen, and it jumps back"
    ("blow", "success"): (
        " jumps back",
        " jump back",
        " leaps back",
        " unharm",
        " unscath",
        " unhurt",
    ),
    # "its movements become sluggish" (a failed attack); "The skeleton, feeling the force of the
    # attack, lunges at the relic" (a lost one, run 51); "The skeleton roars in pain" (run 52),
    # "causing it to howl in pain" (run 48)
    ("blow", "failure"): (" sluggish", " force of the attack", " force of the blow", " in pain"),
    # "they suddenly realize that their position is precarious and vulnerable", "the guard is
    # thrown to the ground", "is now terrified and runs away"
    ("struggle", "failure"): (
        " back away",
        " backs away",
        " precarious",
        " vulnerab",
        " terrif",
        " thrown",
        # ("The acolyte's muscles give way, and the censer tips over", the twenty-third words; "As
        # the orc struggles to defend itself, its eyes widen in fear", run 54)
        " struggles to defend",
        " widen in fear",
        # ("they realize that their strength is not enough and they are unable to hold the key",
        # the guard wrestled for it, run 60)
        " strength is not enough",
        " unable to hold",
        " cannot hold",
        " can't hold",
        " give way",
        " gives way",
        " gave way",
    ),
    # "As the bells continue to ring", "The bells ring out", "The storm grows stronger" (not
    # another thing going on: "The bells fall silent, and the crowd below continues to stare")
    ("stopping", "success"): (
        " continue to ring",
        " continues to ring",
        " continue ringing",
        " continues to rage",
        " continues to howl",
        " ring out",
        " rings out",
        " lunge",
        # ("The hounds' frenzied cries become a deafening roar", the twenty-third words; growing
        # stronger, louder, fiercer is _GROWS_ON's)
        " deafening roar",
        " become a roar",
        " becomes a roar",
        # "The hound's eyes widen, and it leaps towards the source of the blood" (runs 43, 52),
        # "it lungses towards the source of the blood" (runs 43, 54: "lunge" barred, misspelt)
        " lungses",
        " leaps",
        " leapt",
        " leaped",
        " pounce",
    ),
    # "suddenly found himself surrounded by a group of guards", "quickly stops and turns back",
    # "his horse has gone astray", "the race is canceled" (resent, and the sixteenth words)
    ("race", "failure"): (
        " astray",
        " cancel",
        " barrier",
        " found himself",
        " found herself",
        " stumbl",
        " surround",
        " treacher",
        " turns back",
        " stops",
        " stopped",
        " slows",
    ),
    # "he sighs in defeat" (a tie)
    ("persuading", "draw"): (" defeat", " can't win"),
    # "The door slams shut with a loud crash" (holding it failed); "The orcs, noticing the door is
    # now locked" (run 14). (Not "traps": "The door swings open, revealing a narrow passage that
    # traps ..." is the failure's danger, runs 26, 33, 45.)
    ("holding", "failure"): (
        " slams shut",
        " slammed shut",
        " now locked",
        # ("The chapel doors are locked tight, and the revenants can't break through", the
        # twenty-third words)
        " locked tight",
        " hold fast",
        " holds fast",
        " held fast",
        " stays shut",
        " remains shut",
        " can't break through",
        " cannot break through",
        " unable to break through",
        " fail to break through",
        " fails to break through",
    ),
}


def outcome_keys(expect: Expectation) -> tuple[tuple[str, str], ...]:
    """The (kind, side) entries of TOLD_AGAINST and unsaid.UNSAID this outcome reads: a weak
    hit as a success (it is one, at a cost), save going unseen, whose cost may be being
    noticed."""
    told = outcome_side(expect)
    if told is None or not expect.action:
        return ()
    as_told = "success" if told == "mixed" else told
    return tuple(
        (kind, as_told)
        for kind in sorted(attempt_kinds(expect.action))
        if not (told == "mixed" and kind == "unseen")
    )


def told_against_words(expect: Expectation) -> tuple[str, ...]:
    """TOLD_AGAINST's words for this outcome and the player's words' kinds of attempt."""
    return tuple(w for key in outcome_keys(expect) for w in TOLD_AGAINST.get(key, ()))


_YOU_BEFORE = re.compile(r"\b(?:you|your|you're)\b[^,;.!?]{0,40}$", re.IGNORECASE)


def _told_against(words: str, expect: Expectation) -> list[str]:
    """TOLD_AGAINST's words in the model's words after a lead, not denied ("no one is aware")
    and not told of "you" ("you stumble" is the lost race, not the rival held up)."""
    plain = f" {' '.join(words.split()).lower()}"
    hits = []
    for word in told_against_words(expect):
        at = plain.find(word)
        while at >= 0:
            before = plain[:at]
            if not _DENIED_BEFORE.search(before) and not _YOU_BEFORE.search(before):
                hits.append(_excerpt(plain[1:], at, at + len(word) - 1))
                break
            at = plain.find(word, at + 1)
    return hits
