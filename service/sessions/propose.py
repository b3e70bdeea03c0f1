"""Proposing the move (or roll) a player's words describe, before anything is rolled.

With a model: one call, its JSON constrained to the system's catalogue, validated by the engine
(an unknown move, kind or parameter, or a game master's parameter out of its range, is rejected
and never trusted). Offline, or when the model's proposal is rejected: the words are matched
against the move triggers (BM25), and a game master's parameters take the defaults the text
gives. Either way the player sees the proposal and accepts or overrides it.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from prompts import get_prompt
from rules.catalog import load_move_cues
from rules.errors import RulesError
from rules.registry import GameSystem, get_system, validate_params
from rules.sheets import GmParam
from service.narrator import facts
from service.narrator.catalogue import catalogue
from service.narrator.model import Calls, ChatModel, ModelError, parse_json_object
from service.sessions import play
from service.sessions.errors import SessionError
from vectorstore.keyword import KeywordIndex, tokenize

# Roll kinds never proposed for an action: they are asked for by name.
NOT_ACTIONS = frozenset({"table", "expression", "oracle"})


class Proposal(BaseModel):
    move: str | None = None
    kind: str
    params: dict[str, Any] = Field(default_factory=dict)
    why: str = ""
    source: Literal["model", "offline"] = "offline"
    rejected: str | None = Field(None, description="why the model's proposal was not used")


@cache
def _move_index(system_id: str) -> KeywordIndex:
    moves = get_system(system_id).moves
    return KeywordIndex([m.id for m in moves], [f"{m.name}. {m.trigger}" for m in moves])


# A word in -ing after a determiner describes the thing named next ("I slip past the sleeping
# gravedigger"), not what the player does: read as a cue, it proposed Rest (played at stop 28).
_DESCRIBING = re.compile(
    r"\b(?:the|a|an|his|her|its|their|that|this|these|those)\s+\w+ing\b", re.IGNORECASE
)


def _cue_hits(words: str, cues: list[str]) -> int:
    """How many cues the words hold: a one-word cue by its stem, a phrase as written."""
    said = set(tokenize(_DESCRIBING.sub(" ", words)))
    lowered = f" {' '.join(words.lower().split())} "
    return sum(
        (f" {cue} " in lowered) if " " in cue else bool(set(tokenize(cue)) & said) for cue in cues
    )


def move_ranking(system: GameSystem, words: str) -> list[tuple[str, float]]:
    """Action moves by how well the words fit: our cue words first, then the trigger's words
    (BM25); the cues' default move (Face Danger: "When you attempt something risky...") when
    nothing matches. Embedding the words against the triggers was tried and measured worse."""
    scored = _fits(system, words)
    cues = load_move_cues(system.id)
    if cues is not None and (not scored or scored[0][1] < 1.0):
        scored.insert(0, (cues.default, 1.0))
    return scored


def _fits(system: GameSystem, words: str) -> list[tuple[str, float]]:
    """Action moves by fit, best first: 1 a cue word matched, a fraction the trigger's words."""
    cues = load_move_cues(system.id)
    keyword = _move_index(system.id).scores(words)
    scored = []
    for i, move in enumerate(system.moves):
        if move.roll != "action":
            continue
        hits = _cue_hits(words, cues.moves.get(move.id, [])) if cues else 0
        scored.append((move.id, hits + 0.1 * float(keyword[i] if len(keyword) else 0.0)))
    scored.sort(key=lambda pair: -pair[1])
    return scored


_QUESTION_START = ("is ", "are ", "was ", "were ", "do ", "does ", "did ", "will ", "would ",
                   "can ", "could ", "should ", "has ", "have ", "may ", "might ")  # fmt: skip


def asks_a_question(words: str) -> bool:
    """Words that put a yes/no question ("Is the harbour guarded?"), not an action."""
    said = " ".join(words.lower().split())
    return said.endswith("?") or said.startswith(_QUESTION_START)


def _oracle_proposal(system: GameSystem) -> Proposal:
    why = ("your words ask a question: ask the oracle (50/50 here; change the odds: "
           "small_chance, unlikely, likely, almost_certain)")  # fmt: skip
    oracle_move = next((m for m in system.moves if m.roll == "oracle"), None)
    if oracle_move is not None:
        params = {"move": oracle_move.id, "odds": "50_50"}
        return Proposal(move=oracle_move.id, kind="move", params=params, why=why)
    return Proposal(kind="oracle", params={"odds": "50_50"}, why=why)


def _stat_for(system: GameSystem, move_id: str, words: str) -> str | None:
    """The move's stat the words point to (cue words, then its option's condition), else its
    first option."""
    move = system.move(move_id)
    stats = [s for o in move.options for s in o.using if s in system.stats]
    if not stats:
        return None
    cues = load_move_cues(system.id)
    when = {s: o.when or "" for o in move.options for s in o.using}

    def fit(stat: str) -> float:
        cue = _cue_hits(words, cues.stats.get(stat, [])) if cues else 0
        return cue + 0.5 * _cue_hits(words, when.get(stat, "").split())

    return max(stats, key=lambda s: (fit(s), -stats.index(s)))


def _gm_defaults(system: GameSystem, kind: str, words: str) -> dict[str, Any]:
    """A game master's parameters for this kind: a value the words name or cue, else the
    text's default (our cue file's ``proposal``, then the sheet's), else for a required choice
    the first of its values."""
    cues = load_move_cues(system.id)
    said = set(tokenize(words))
    params: dict[str, Any] = {}
    fields = system.roll_kind(kind).params.model_fields
    required = {name for name, spec in fields.items() if spec.is_required()}
    for gm in _gm_params(system):
        if kind not in gm.kinds or "." in gm.param:
            continue
        named = [c for c in gm.choices or [] if isinstance(c, str) and set(tokenize(c)) & said]
        cued = (cues.gm.get(gm.param, {}) if cues else {}).items()
        best = max(cued, key=lambda item: _cue_hits(words, item[1]), default=None)
        if named:
            params[gm.param] = named[0]
        elif best is not None and _cue_hits(words, best[1]) > 0:
            params[gm.param] = best[0]
        elif cues is not None and gm.param in cues.proposal:
            params[gm.param] = cues.proposal[gm.param]
        elif gm.default is not None:
            params[gm.param] = gm.default
        elif gm.choices and (gm.param in required or best is not None):
            params[gm.param] = best[0] if best is not None else gm.choices[0]
    return params


def _traits(system: GameSystem, state: play.State, kind: str, words: str) -> dict[str, Any]:
    """For a pool named by traits (Storyteller): the sheet's traits the words name, else the
    character's best one."""
    fields = system.roll_kind(kind).params.model_fields
    traits = state.get("sheet", {}).get("traits") or {}
    if "traits" not in fields or not traits:
        return {}
    said = set(tokenize(words))
    named = [t for t in traits if set(tokenize(t)) & said][:2]
    return {"traits": named or [max(traits, key=lambda t: (traits[t], t))]}


def _gm_params(system: GameSystem) -> list[GmParam]:
    return list(system.sheet.gm_params) if system.sheet is not None else []


def _default_kind(system: GameSystem) -> str:
    return next(k for k in system.roll_kinds if k not in NOT_ACTIONS)


def offline_proposal(system: GameSystem, words: str, state: play.State | None = None) -> Proposal:
    if asks_a_question(words) and "oracle" in system.roll_kinds:
        return _oracle_proposal(system)
    if system.moves:
        fits = _fits(system, words)
        ranking = move_ranking(system, words)
        proposal: Proposal | None = None
        # the best-ranked move the engine would accept now (a Strike needs a combat track open)
        for rank, (move_id, _) in enumerate(ranking[:12]):
            move = system.move(move_id)
            params: dict[str, Any] = {"move": move.id}
            if stat := _stat_for(system, move.id, words):
                params["stat"] = stat
            if rank == 0 and fits and fits[0][1] >= 1.0:
                why = _fits_trigger(move.trigger)
            else:
                why = (f"nothing in your words matched a move; {move.name} is the move for a "
                       f"risky action ({move.trigger}) - name another move if it fits better, or "
                       "ask a question to ask the oracle")  # fmt: skip
            proposal = Proposal(move=move.id, kind="move", params=params, why=why)
            if _accepted(system, state, proposal):
                return proposal
        assert proposal is not None
        return proposal
    kind = _default_kind(system)
    return Proposal(
        kind=kind,
        params=_gm_defaults(system, kind, words) | _traits(system, state or {}, kind, words),
        why="the system's basic roll; a game master's parameters at the text's defaults",
    )


def _gm_block(system: GameSystem) -> str:
    lines = []
    for gm in _gm_params(system):
        bounds = (
            f"one of {', '.join(map(str, gm.choices))}"
            if gm.choices
            else f"{gm.minimum}..{gm.maximum}"
        )
        lines.append(
            f"- {gm.param} (for {', '.join(gm.kinds)}): {gm.description}; {bounds}; "
            f"default {gm.default}"
        )
    return "\n".join(lines) or "(none: the player decides everything)"


# The moves offered to the model: the best keyword matches of the player's words, plus the
# moves that fit when nothing else does; the whole list would double the prompt.
CANDIDATES = 14
FALLBACK_MOVES = ("face_danger", "secure_an_advantage", "gather_information", "compel")


def _moves_block(system: GameSystem, words: str) -> str:
    picked = [system.move(move_id) for move_id, _ in move_ranking(system, words)]
    chosen = picked[:CANDIDATES] + [m for m in picked if m.id in FALLBACK_MOVES]
    seen: set[str] = set()
    lines = []
    for m in chosen:
        if m.id in seen:
            continue
        seen.add(m.id)
        stats = sorted({s for o in m.options for s in o.using})
        using = f" (roll +{'/'.join(stats)})" if stats else ""
        lines.append(f"- {m.id}{using}: {m.trigger[:140]}")
    return "kind: move (params: move, stat)\n" + "\n".join(lines)


def proposal_schema(system: GameSystem) -> dict[str, Any]:
    """The reply's JSON schema: move ids, roll kinds, stats and the game master's parameters as
    enums and ranges. Where the server turns it into a grammar (llama.cpp), a small model cannot
    name a move or stat the system lacks (a real run: "unknown move 'climb'"), nor leave out the
    move of a move roll ("params.move: Field required"). Each system's own parameter names: Go
    Forth's GM names an ``attribute``, Roll Under's an ``ability``; moves roll a ``stat``."""
    properties: dict[str, Any] = {}
    if system.moves and system.stats:
        properties["stat"] = {"enum": list(system.stats)}
    for gm in _gm_params(system):
        if "." in gm.param or "*" in gm.param:
            continue  # nested parameters (Roll Under's savers.*.ability): left to the prompt
        known = properties.get(gm.param, {})
        if gm.choices is not None:
            enum = [
                *known.get("enum", []),
                *(c for c in gm.choices if c not in known.get("enum", [])),
            ]
            properties[gm.param] = {"enum": enum}
        elif gm.minimum is not None and gm.maximum is not None:
            low = min(gm.minimum, known.get("minimum", gm.minimum))
            high = max(gm.maximum, known.get("maximum", gm.maximum))
            properties[gm.param] = {"type": "integer", "minimum": low, "maximum": high}
    reply: dict[str, Any] = {
        "kind": {"enum": list(system.roll_kinds)},
        "params": {"type": "object", "properties": properties},
        "why": {"type": "string"},
    }
    required = ["kind", "params", "why"]
    if system.moves:
        reply = {"move": {"enum": [m.id for m in system.moves] + [None]}, **reply}
        required.insert(0, "move")
    return {"type": "object", "properties": reply, "required": required}


TRIAL_SEED = 0  # any seed: a trial resolution is thrown away


def check_proposal(system: GameSystem, state: play.State, raw: dict[str, Any]) -> Proposal:
    """A model's proposal, validated by the engine against the catalogue and the sheet."""
    proposal = Proposal.model_validate({**raw, "source": "model"})
    if proposal.move is not None:
        system.move(proposal.move)  # UnknownError if it is not in the catalogue
        proposal = proposal.model_copy(
            update={"kind": "move", "params": {**proposal.params, "move": proposal.move}}
        )
    system.roll_kind(proposal.kind)  # UnknownError for a kind the system lacks
    proposal = _without_other_kinds_settings(system, proposal)
    for gm in _gm_params(system):
        value = proposal.params.get(gm.param)
        if value is None or proposal.kind not in gm.kinds:
            continue
        if gm.choices is not None and value not in gm.choices:
            raise RulesError(f"{gm.param} {value!r} is not allowed", f"params.{gm.param}")
        if isinstance(value, int) and (
            (gm.minimum is not None and value < gm.minimum)
            or (gm.maximum is not None and value > gm.maximum)
        ):
            raise RulesError(f"{gm.param} {value} is out of range", f"params.{gm.param}")
    trial(system, state, proposal)
    if _OUTCOME_TOLD.search(proposal.why):
        # an outcome before any roll: "why": "a weak hit" (a real model, played in stop 23)
        why = _fits_trigger(system.move(proposal.move).trigger) if proposal.move else ""
        proposal = proposal.model_copy(update={"why": why})
    return proposal


def _without_other_kinds_settings(system: GameSystem, proposal: Proposal) -> Proposal:
    """The proposal without the game master's settings that only other kinds of roll take: the
    real model proposed Go Forth checks for "I sneak past the dozing guards at the gate" with
    the guards' ``opponent_bonus`` (a contest's), in every session played at stops 32 and 33, and
    the engine refused them all ("Extra inputs are not permitted"). A check has no opponent's
    roll; the setting is dropped and the check offered. Settings no kind takes are left for the
    engine to refuse, as is anything else."""
    settings = _gm_params(system)
    others = {gm.param for gm in settings} - {
        gm.param for gm in settings if proposal.kind in gm.kinds
    }
    if not others & proposal.params.keys():
        return proposal
    params = {k: v for k, v in proposal.params.items() if k not in others}
    return proposal.model_copy(update={"params": params})


def _fits_trigger(trigger: str) -> str:
    return f"your words fit its trigger: {trigger}"


# The model's reason for a move, naming an outcome nothing has rolled yet.
_OUTCOME_TOLD = re.compile(
    r"\b(?:strong hit|weak hit|miss|misses|missed|success|succeeds?|succeeded|fails?|failed|"
    r"failure|match|wins?|won|loses?|lost|tie|graze|botch)\b",
    re.IGNORECASE,
)


def trial(system: GameSystem, state: play.State, proposal: Proposal) -> None:
    """Resolve a proposal as accept would, nothing stored: RulesError or SessionError when the
    engine or the session would refuse it. A proposal the engine would refuse at accept
    ("unknown stat for set_a_course 'miles'", Enter the Fray with no stat, both tn and
    difficulty, a Strike with no combat track open) is never offered."""
    kind = system.roll_kind(proposal.kind)
    _, full = play.roll_params(system, state, kind.id, proposal.params, None)
    validate_params(kind, full)
    if (track_type := play.marked_track_type(system, kind.id, proposal.params)) is not None:
        name = system.move(str(proposal.params["move"])).name
        play.track_for_marks(state, track_type, name)  # none open, or several: accept refuses
    play.resolve(system, kind.id, full, dice=None, seed=TRIAL_SEED)


def _accepted(system: GameSystem, state: play.State | None, proposal: Proposal) -> bool:
    if state is None:
        return True
    try:
        trial(system, state, proposal)
    except (RulesError, SessionError):
        return False
    return True


async def propose(
    system: GameSystem,
    state: play.State,
    words: str,
    situation: str,
    model: ChatModel | None,
    calls: Calls,
) -> Proposal:
    offline = offline_proposal(system, words, state)
    if model is None:
        return offline
    prompt = get_prompt("move_proposal").render(
        system_name=system.name,
        catalogue=_moves_block(system, words) if system.moves else catalogue(system.id),
        gm_params=_gm_block(system),
        situation=facts.delimit(situation or "(none)"),
        words=facts.delimit(words),
    )
    try:
        reply = await model.complete(prompt, calls, json_reply=True, schema=proposal_schema(system))
        return check_proposal(system, state, parse_json_object(reply))
    except ModelError as exc:
        reason = exc.reason
    except RulesError as exc:
        reason = f"the engine refused the model's proposal: {exc.message}"
    except SessionError as exc:
        reason = f"the session refused the model's proposal: {exc}"
    except (ValueError, ValidationError):
        reason = "the model's proposal was not valid JSON of the expected form"
    return offline.model_copy(update={"rejected": reason})
