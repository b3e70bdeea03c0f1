"""Playing a session turn by turn: propose, resolve, choose, apply, narrate, undo, renarrate.

A turn is committed in one transaction with every state change it implies (the journal entry
and the session's new state together), and only then narrated: a model that fails or hangs
costs the narration, never the roll. A narration that fell back to the offline narrator because
the model failed is kept, marked ``pending``, for ``renarrate``.

Choices stay with the player: when an outcome leaves a decision (burn momentum, a suffer move's
option, Pay the Price rolled or chosen...), the turn waits with the options; the player's choice
is a parameter of the same roll, which the engine resolves again with the same dice.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session as Db
from starlette.concurrency import run_in_threadpool

from rules.errors import DiceError, RulesError
from rules.models import Resolution
from rules.registry import GameSystem, get_system
from rules.sheets import Choice, check_choices
from service.narrator import facts, offline
from service.narrator.guard import expectation_from
from service.narrator.lead import narration_plan
from service.narrator.model import Calls, ChatModel
from service.narrator.records import Narrated
from service.narrator.runner import NO_MODEL, Discard, Done, Narration, Token, guard_for
from service.sessions import context, idempotency, play, store
from service.sessions.db import transaction
from service.sessions.errors import SessionError
from service.sessions.idempotency import Keyed
from service.sessions.journal import change_words, turn_out
from service.sessions.models import IdempotencyRow
from service.sessions.propose import Proposal, propose
from service.sessions.schemas import SessionCreate, SessionOut
from service.sessions.turn_models import AcceptRequest, ChooseRequest, TurnOut, TurnRequest


def _system(row: store.SessionRow) -> GameSystem:
    return get_system(row.system)


def _waiting(db: Db, row: store.SessionRow) -> None:
    """A turn that awaits the player's choice blocks new turns (the choice is theirs)."""
    last = store.last_turn(db, row)
    if last is not None and last.status == "awaiting_choice":
        raise SessionError(
            409,
            f"turn {last.number} awaits your choice: POST .../turns/{last.number}/choose",
            "path.session_id",
        )
    if last is not None and last.status == "proposed":
        last.status = "undone"  # a new turn supersedes a proposal nobody accepted


# --- a new session ---------------------------------------------------------------------------


def create_session(
    db_factory: Any, owner: str, body: SessionCreate, keyed: Keyed | None = None
) -> SessionOut:
    """A new session, its sheet validated (422 naming ``sheet.<field>``); with a key, the key
    and its answer are committed with the session."""
    state = body.initial_state()
    with transaction(db_factory) as db:
        row = store.create_session(db, owner, body.system, body.name, state)
        created = SessionOut.of(row)
        kept = idempotency.record(db, keyed, row.id, status=201)
        if kept is not None:  # in this transaction: the session and its answer together
            kept.response = created.model_dump(mode="json")
    return created


# --- taking a turn ---------------------------------------------------------------------------


@dataclass
class Committed:
    """A turn committed with its mechanics, and its narration still to run: prepared in the
    transaction that committed it, so that telling it reads nothing more."""

    turn_id: int
    turn: TurnOut  # as committed: the `mechanics` of a streamed answer
    narration: Narration | None  # None: nothing to narrate (a proposal, a pending choice)

    @property
    def needs_narration(self) -> bool:
        return self.narration is not None


def _committed(
    db: Db,
    row: store.SessionRow,
    turn: store.TurnRow,
    needs: bool,
    model: ChatModel | None,
    new: bool = True,
) -> Committed:
    """``new``: the turn was just resolved (not a renarration of a told one)."""
    job = _narration(db, row, turn, model) if needs else None
    if job is not None and new:
        # committed with its narration to come: a process stopped before telling it leaves the
        # turn `pending` (for renarrate), not a turn that never needed words
        turn.narration_status = "pending"
    db.flush()
    return Committed(turn.id, turn_out(turn), job)


async def take_turn(
    db_factory: Any,
    owner: str,
    session_id: str,
    req: TurnRequest,
    model: ChatModel | None,
    keyed: Keyed | None = None,
) -> Committed:
    """Resolve (or propose) a turn and commit it.

    The database work runs in a worker thread (anyio's pool, as FastAPI's own: a write may
    wait for the database's lock); the model
    proposes outside any transaction, so a slow model holds no lock."""
    proposal: Proposal | None = None
    calls = Calls()
    if req.move is None and req.kind is None and req.track is None:
        system, state, summary = await run_in_threadpool(
            _for_proposal, db_factory, owner, session_id
        )
        proposal = await propose(system, state, req.words, summary, model, calls)
    return await run_in_threadpool(
        _commit_turn, db_factory, owner, session_id, req, proposal, calls.count, keyed, model
    )


def _for_proposal(
    db_factory: Any, owner: str, session_id: str
) -> tuple[GameSystem, dict[str, Any], str]:
    with transaction(db_factory, write=False) as db:
        row = store.get_session(db, owner, session_id)
        store.require_active(row)
        return _system(row), row.state, row.summary or ""


def _commit_turn(
    db_factory: Any,
    owner: str,
    session_id: str,
    req: TurnRequest,
    proposal: Proposal | None,
    proposal_calls: int,
    keyed: Keyed | None,
    model: ChatModel | None = None,
) -> Committed:
    with transaction(db_factory) as db:
        row, key = _open(db, owner, session_id, keyed, status=201)
        _waiting(db, row)
        number = store.next_turn_number(row)
        if proposal is not None:
            turn = store.add_turn(
                db, row, number=number, kind="move" if proposal.move else "roll",
                status="proposed", words=req.words, request=req.model_dump(mode="json"),
                proposal={**proposal.model_dump(mode="json"), "calls": proposal_calls},
                narration_status="none",
            )  # fmt: skip
            _keep_turn(key, turn)
            return _committed(db, row, turn, False, model)
        if req.move is not None:
            _system(row).move(req.move)  # a move not in the catalogue: 422 naming `move`
        kind = "move" if req.move else (req.kind or "progress")
        params = dict(req.params) | ({"move": req.move} if req.move else {})
        turn = store.add_turn(
            db, row, number=number, kind="move" if req.move else "roll", status="resolved",
            words=req.words, request=req.model_dump(mode="json"), narration_status="none",
        )  # fmt: skip
        with _as_sent(req.move):
            needs = _resolve_into(row, turn, kind, params, req.track, req.clock, req.dice,
                                  req.seed)  # fmt: skip
        _keep_turn(key, turn)
        return _committed(db, row, turn, needs, model)


@contextlib.contextmanager
def _as_sent(move: str | None) -> Iterator[None]:
    """An error about the move names the field the request sent it in: ``move`` at the top of
    the turn (the engine, which takes it among the parameters, says ``params.move``)."""
    try:
        yield
    except RulesError as exc:
        if move is not None and exc.field == "params.move":
            exc.field = "move"
        raise


def _open(
    db: Db, owner: str, session_id: str, keyed: Keyed | None, status: int = 200, lock: bool = True
) -> tuple[store.SessionRow, IdempotencyRow | None]:
    """The owner's active session, locked for the change, and the request's key taken in the
    same transaction (``Replay`` when another request with the key committed first)."""
    row = store.get_session(db, owner, session_id, for_update=lock)
    key = idempotency.record(db, keyed, row.id, status=status)
    store.require_active(row)
    return row, key


def _open_turn(
    db: Db, owner: str, session_id: str, number: int, keyed: Keyed | None, lock: bool = True
) -> tuple[store.SessionRow, store.TurnRow]:
    """``_open``, and the session's turn of this number (the key's turn)."""
    row, key = _open(db, owner, session_id, keyed, lock=lock)
    turn = store.get_turn(db, row, number)
    _keep_turn(key, turn)
    return row, turn


def _keep_turn(key: IdempotencyRow | None, turn: store.TurnRow) -> None:
    """The keyed request's turn, for a retry that arrives before its response is stored."""
    if key is not None:
        key.turn_id = turn.id


def _resolve_into(
    row: store.SessionRow,
    turn: store.TurnRow,
    kind: str,
    given: dict[str, Any],
    track: str | None,
    clock: str | None,
    dice: list[int] | None,
    seed: int | None,
) -> bool:
    """Resolve on the turn row; apply unless a choice is pending. Returns needs-narration."""
    system = _system(row)
    if clock is not None:
        play.require_clock(row.state, clock)
    kind, given = play.own_kind(system, kind, given)
    if track is None and (marked := play.marked_track_type(system, kind, given)):
        track = play.track_for_marks(row.state, marked, system.move(given["move"]).name)
    kind, params = play.roll_params(system, row.state, kind, given, track)
    resolution = play.resolve(system, kind, params, dice=dice, seed=seed)
    turn.request = {**(turn.request or {}), "resolved_kind": kind, "track": track, "clock": clock,
                    "dice": dice, "seed": resolution.seed}  # fmt: skip
    turn.resolution = resolution.model_dump(mode="json")
    choices = play.pending_choices(system, kind, params, resolution)
    if choices:
        turn.status = "awaiting_choice"
        turn.choices = [c.model_dump(mode="json") for c in choices]
        return False
    _apply(row, turn, resolution, track, clock)
    return True


def _apply(
    row: store.SessionRow,
    turn: store.TurnRow,
    resolution: Resolution,
    track: str | None,
    clock: str | None,
) -> None:
    system = _system(row)
    applied = play.apply_resolution(system, row.state, resolution, track=track, clock=clock)
    turn.status = "resolved"
    turn.choices = []
    turn.state_before = row.state
    turn.state_after = applied.state
    turn.changes = [c.model_dump(mode="json") for c in applied.applied] + [
        {**c.model_dump(mode="json"), "applied": False} for c in applied.not_applied
    ]
    store.set_state(row, applied.state)
    line = context.digest(
        turn.number, turn.words, resolution, [change_words(c) for c in turn.changes]
    )
    row.summary = context.add_to_summary(row.summary or "", line)


def accept(
    db_factory: Any,
    owner: str,
    session_id: str,
    number: int,
    req: AcceptRequest,
    keyed: Keyed | None = None,
    model: ChatModel | None = None,
) -> Committed:
    """Roll a proposed turn, with the player's overrides."""
    with transaction(db_factory) as db:
        row, turn = _open_turn(db, owner, session_id, number, keyed)
        if turn.status != "proposed":
            raise SessionError(409, f"turn {number} is {turn.status}, not proposed", "path.number")
        proposal = Proposal.model_validate(turn.proposal)
        move = req.move or proposal.move
        # Another move or another kind of roll takes none of the proposal's parameters (a deed's
        # ability and target armour are no attack's; played at stop 37)
        kept = req.move is None and req.kind in (None, proposal.kind)
        params = (
            {k: v for k, v in proposal.params.items() if k != "move"} if kept else {}
        ) | req.params
        kind = "move" if move else (req.kind or proposal.kind)
        if move:
            params["move"] = move
        turn.status = "resolved"
        with _as_sent(req.move):
            needs = _resolve_into(row, turn, kind, params, req.track, None, req.dice, req.seed)
        return _committed(db, row, turn, needs, model)


def choose(
    db_factory: Any,
    owner: str,
    session_id: str,
    number: int,
    req: ChooseRequest,
    keyed: Keyed | None = None,
    model: ChatModel | None = None,
) -> Committed:
    """Apply the player's choice: the same roll, resolved again with the chosen parameter."""
    with transaction(db_factory) as db:
        row, turn = _open_turn(db, owner, session_id, number, keyed)
        if turn.status != "awaiting_choice":
            raise SessionError(
                409, f"turn {number} awaits no choice (it is {turn.status})", "path.number"
            )
        offered = [Choice.model_validate(c) for c in turn.choices]
        chosen = check_choices(offered, req.choices)
        first = Resolution.model_validate(turn.resolution)
        request = turn.request or {}
        params = dict(first.params) | chosen
        if request.get("dice") is not None:
            dice, seed = [*first.dice_values(), *(req.dice or [])], None
        else:
            dice, seed = None, first.seed
        system = _system(row)
        kind = request.get("resolved_kind") or first.kind
        resolution = _resolve_again(system, kind, params, dice, seed)
        turn.chosen = {**(turn.chosen or {}), **chosen}
        turn.resolution = resolution.model_dump(mode="json")
        # A choice made is not offered again, whatever the roll's default for it.
        more = [
            c
            for c in play.pending_choices(system, kind, params, resolution)
            if c.param not in turn.chosen
        ]
        if more:
            turn.choices = [c.model_dump(mode="json") for c in more]
            return _committed(db, row, turn, False, model)
        _apply(row, turn, resolution, request.get("track"), request.get("clock"))
        return _committed(db, row, turn, True, model)


def _resolve_again(
    system: GameSystem,
    kind: str,
    params: dict[str, Any],
    dice: list[int] | None,
    seed: int | None,
) -> Resolution:
    """The roll again with the choice made. With hand-rolled dice a choice can use fewer of them
    (burning focus turns a miss that rolled a table into a hit that rolls none): the dice are
    consumed in the same order, so the longest prefix the roll takes is the one it used."""
    if dice is None:
        return play.resolve(system, kind, params, dice=None, seed=seed)
    for n in range(len(dice), 0, -1):
        try:
            return play.resolve(system, kind, params, dice=dice[:n], seed=None)
        except DiceError as exc:
            if "too many dice" not in exc.message:
                raise
    return play.resolve(system, kind, params, dice=dice, seed=None)


# --- tracks and clocks: turns too --------------------------------------------------------------


def state_turn(
    db_factory: Any,
    owner: str,
    session_id: str,
    kind: str,
    words: str,
    op: dict[str, Any],
    keyed: Keyed | None = None,
    status: int = 200,
) -> int:
    """A turn that changes the state without dice (open or mark a track, a clock): the
    operation is recorded as the turn's request, so the journal replays it."""
    with transaction(db_factory) as db:
        row, key = _open(db, owner, session_id, keyed, status=status)
        _waiting(db, row)
        applied = play.apply_op(_system(row), row.state, op)
        number = store.next_turn_number(row)
        turn = store.add_turn(
            db, row, number=number, kind=kind, status="resolved", words=words, request=op,
            state_before=row.state, state_after=applied.state,
            changes=[c.model_dump(mode="json") for c in applied.applied],
            narration_status="none",
        )  # fmt: skip
        store.set_state(row, applied.state)
        row.summary = context.add_to_summary(
            row.summary or "",
            context.digest(number, words, None, [change_words(c) for c in turn.changes]),
        )
        _keep_turn(key, turn)
        return turn.id


def renarratable(
    db_factory: Any,
    owner: str,
    session_id: str,
    number: int,
    keyed: Keyed | None = None,
    model: ChatModel | None = None,
) -> Committed:
    """A turn that can be told again (resolved, with a roll), its narration ready. With a key, the key is
    taken now (a write), so that a retry waits for this narration instead of asking again."""
    with transaction(db_factory, write=keyed is not None) as db:
        row, turn = _open_turn(db, owner, session_id, number, keyed, lock=keyed is not None)
        if turn.status != "resolved" or turn.resolution is None:
            raise SessionError(
                409, f"turn {number} has no resolved roll to narrate ({turn.status})", "path.number"
            )
        return _committed(db, row, turn, True, model, new=False)


# --- undo ---------------------------------------------------------------------------------------


def undo(db_factory: Any, owner: str, session_id: str, keyed: Keyed | None = None) -> int:
    """The last turn's state changes reverted; its entry kept, marked undone."""
    with transaction(db_factory) as db:
        row, key = _open(db, owner, session_id, keyed)
        last = store.last_turn(db, row, statuses=("resolved", "awaiting_choice", "proposed"))
        if last is None:
            raise SessionError(409, "there is no turn to undo", "path.session_id")
        if last.status == "resolved" and last.state_before is not None:
            store.set_state(row, last.state_before)
        last.status = "undone"
        _keep_turn(key, last)
        row.summary = "\n".join(
            ln for ln in (row.summary or "").splitlines() if not ln.startswith(f"T{last.number}:")
        )
        return last.id


# --- narration ------------------------------------------------------------------------------------


# A turn asks the model once for its narration; one the guard refuses is told offline, not
# asked for again. The turn's budget (issue 15): one model call for a named move, two for a
# proposed one (the proposal and the narration). The standalone /narrate keeps its retry.
TURN_NARRATION_ATTEMPTS = 1


def _narration(
    db: Db, row: store.SessionRow, turn: store.TurnRow, model: ChatModel | None
) -> Narration | None:
    """The turn's narration, ready to run (it reads the journal now, in this transaction)."""
    if turn.status != "resolved" or turn.resolution is None:
        return None
    system = _system(row)
    resolution = Resolution.model_validate(turn.resolution)
    state = turn.state_before or row.state
    sheet = state.get("sheet", {})
    character = str(sheet.get("name") or "unnamed")
    # Earlier turns reach the model as the summary code keeps, never as earlier prose (a model
    # copied "Compel: miss" from an offline narration into a Face Danger).
    situation = context.session_context(state, row.summary or "", [], None)
    words = turn.words
    expect = expectation_from(
        resolution, character=character, action=words,
        extra_numbers=facts.numbers_in([words, situation]),
        question=words if resolution.kind == "oracle" else None,  # the player's question
    )  # fmt: skip

    plan = narration_plan(
        system_name=system.name, character=character, action=words, resolution=resolution,
        expect=expect, context=situation,
    )  # fmt: skip
    return Narration(
        model=model, prompt=plan.prompt, check=guard_for(plan.judged(expect)),
        offline=offline.narration(resolution, words),
        lead=plan.lead, most_sentences=plan.most_sentences, attempts=TURN_NARRATION_ATTEMPTS,
        grammar=plan.grammar,
    )  # fmt: skip


def record_narration(
    db_factory: Any,
    owner: str,
    session_id: str,
    turn_id: int,
    text: str,
    narrated: Narrated,
    keyed: Keyed | None = None,
) -> TurnOut:
    """Keep the narration; one that fell back because the model failed stays pending.
    Returns the turn as it now is (the answer to the request that narrated it)."""
    with transaction(db_factory) as db:
        row = store.get_session(db, owner, session_id)
        turn = store.turn_by_id(db, row, turn_id)
        failed = narrated.narrator == "offline" and narrated.reason != NO_MODEL
        # A model may send NUL, which PostgreSQL's text cannot hold.
        turn.narration = text.replace("\x00", "")
        turn.narrator = narrated.narrator
        turn.narrated = narrated.model_dump(mode="json")
        turn.narration_status = "pending" if failed else "done"
        db.flush()
        told = turn_out(turn)
        idempotency.keep(db, keyed, told.model_dump(mode="json"))
        return told


async def told(
    db_factory: Any,
    owner: str,
    session_id: str,
    committed: Committed,
    keyed: Keyed | None = None,
    stream: bool = False,
) -> AsyncIterator[Token | Discard | TurnOut]:
    """The committed turn told: the narration's events (``Token``, ``Discard``), then the turn
    as kept (with its narration, or as committed when it needs none), kept for a retry when the
    request has an idempotency key. Every front end (HTTP, MCP, the chat facade) tells a turn
    through this."""
    final: TurnOut | None = None
    if committed.narration is not None:
        async for event in committed.narration.events(stream=stream):
            if isinstance(event, Done):
                final = await run_in_threadpool(
                    record_narration, db_factory, owner, session_id,
                    committed.turn_id, event.text, event.narrated, keyed,
                )  # fmt: skip
            else:
                yield event
    if final is None:
        final = committed.turn
        if keyed is not None:
            await run_in_threadpool(idempotency.complete, db_factory, keyed,
                                    final.model_dump(mode="json"))  # fmt: skip
    yield final


async def tell(
    db_factory: Any, owner: str, session_id: str, committed: Committed, keyed: Keyed | None = None
) -> TurnOut:
    """``told``, not streamed: the turn as kept."""
    return [e async for e in told(db_factory, owner, session_id, committed, keyed)
            if isinstance(e, TurnOut)][-1]  # fmt: skip


__all__ = [
    "Committed",
    "Discard",
    "Done",
    "Token",
    "accept",
    "choose",
    "create_session",
    "record_narration",
    "renarratable",
    "state_turn",
    "take_turn",
    "tell",
    "told",
    "undo",
]
