"""A session's game state and how a turn changes it: pure functions, no database, no model.

The state is one JSON document, ``{"sheet": ..., "tracks": {id: ...}, "clocks": {id: ...}}``.
Every change to it is a turn: the turn records its request, the engine's resolution (every die)
and the state before and after, so a turn can be undone (the state before comes back) and a whole
journal replayed (each turn re-resolved from its recorded parameters and dice, then applied,
must give the recorded state after).

    kind        request                                         changes
    roll/move   kind, move, params, dice|seed, track?, clock?   the resolution's, via the sheet
    track       open: type, name, rank | progress: track, times  a track opened or marked
    clock       open: name, segments | advance: clock, by        a clock opened or advanced
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import BaseModel, Field

from rules import sheets
from rules.errors import InvalidParameter, UnknownError
from rules.models import Resolution, StateChange
from rules.progress import MAX_TICKS
from rules.registry import GameSystem, resolve_roll
from rules.sheets import Choice, SheetRules
from service.sessions.errors import SessionError

State = dict[str, Any]
# Changes that belong to the track (or clock) a turn names, not to the character sheet: its
# progress, its rank (Recommit raises it), its status (Forsake Your Vow).
TRACK_TARGETS = frozenset({"progress", "progress_marks", "rank", "track_status"})
# The track a move's "mark progress" marks, by the move's category (Sundered Isles' moves).
MARKED_TRACK_TYPES = {"combat": "combat", "exploration": "expedition",
                      "scene_challenge": "scene_challenge"}  # fmt: skip
# Moves without a roll that mark progress on a track of their own (Reach a Milestone: "you may
# mark progress per the rank of the vow").
MILESTONE_MOVES = {"reach_a_milestone": "vow"}
# Contests kept on a counted track: the opponent's count is the track's opponent_units.
CONTESTED_KINDS = ("extended_resisted",)
OPPONENT_PROGRESS = "opponent_progress"
CLOCK_TARGETS = frozenset({"clock", "tension_clock"})
# Go Forth's Effort against Hearts: the target's effort so far is a counted track's units.
COUNTED_PREFIX = "target.heart_effort"
HEARTS_TARGET = "target.hearts"  # Hearts overcome: the track's Hearts left go down
CLOCK_SEGMENTS = (4, 6, 8, 10)


class Applied(BaseModel):
    """What a resolution did to the state: the new state and every change, as applied or not."""

    state: dict[str, Any]
    applied: list[StateChange] = Field(default_factory=list)
    not_applied: list[StateChange] = Field(
        default_factory=list, description="changes no part of the state holds (told, not kept)"
    )


def sheet_rules(system: GameSystem) -> SheetRules:
    if system.sheet is None:
        raise InvalidParameter(
            f"sessions are not available for {system.id} yet: it has no character sheet",
            "system",
        )
    return system.sheet


def initial_state(system: GameSystem, sheet: dict[str, Any]) -> State:
    validated = sheet_rules(system).validate(sheet)
    return {"sheet": validated.model_dump(mode="json"), "tracks": {}, "clocks": {}}


def _missing(what: str, key: str, known: list[str], field: str) -> Exception:
    """An id of the session's state that it does not have: in the URL, not found (404); in the
    body, a request that conflicts with the session as it is (409)."""
    if field.startswith("path."):
        return UnknownError(what, key, known, field=field)
    shown = ", ".join(known) or "none yet"
    return SessionError(409, f"this session has no {what} {key!r}; its {what}s: {shown}", field)


def _track(state: State, track_id: str, field: str = "track") -> dict[str, Any]:
    tracks: dict[str, dict[str, Any]] = state["tracks"]
    if track_id not in tracks:
        raise _missing("track", track_id, list(tracks), field)
    return tracks[track_id]


def _clock(state: State, clock_id: str, field: str = "clock") -> dict[str, Any]:
    clocks: dict[str, dict[str, Any]] = state["clocks"]
    if clock_id not in clocks:
        raise _missing("clock", clock_id, list(clocks), field)
    return clocks[clock_id]


def require_clock(state: State, clock_id: str) -> None:
    _clock(state, clock_id)


# --- rolls ------------------------------------------------------------------------------------


def roll_params(
    system: GameSystem, state: State, kind: str, given: dict[str, Any], track: str | None
) -> tuple[str, dict[str, Any]]:
    """The roll kind and its full parameters: the player's, and what the sheet (and the named
    track, for a progress roll) holds."""
    rules = sheet_rules(system)
    sheet = rules.model.model_validate(state["sheet"])
    if track is not None and not _rolls_the_track(system, kind, given):
        # A roll that acts on the track without rolling its progress (Strike marks it, Recommit
        # clears boxes and raises its rank): the kind asked for, with what the track holds.
        entry = _track(state, track)
        fields = system.roll_kinds[kind].params.model_fields
        from_track = {"ticks": entry["ticks"], "rank": entry.get("rank")}
        given = {k: v for k, v in from_track.items() if k in fields and v is not None} | given
        return kind, rules.roll_params(sheet, kind, given)
    if track is not None:
        entry = _track(state, track)
        progress = entry["units"] if entry.get("counted") else entry["ticks"]
        given = {**given, "goal": entry["target"]} if _takes_goal(system, entry) else given
        if entry.get("rank") and "rank" not in given:
            given = {**given, "rank": entry["rank"]}  # a progress move's legacy reward by rank
        if "hearts" in entry and "hearts" not in given:
            given = {**given, "hearts": entry["hearts"]}  # kept by the session, not re-sent
        if kind in CONTESTED_KINDS:
            # A contest on the track (Storyteller's extended resisted action: "each party rolls
            # their dice pools. The first to reach the goal wins"): the kind asked for, both
            # counts kept by the session.
            for name in ("accumulated", "opponent_accumulated"):
                if name in given:
                    raise InvalidParameter(f"params.{name} comes from the track", f"params.{name}")
            held = {"accumulated": progress, "opponent_accumulated": entry.get("opponent_units", 0)}
            return kind, rules.roll_params(sheet, kind, {**given, **held})
        kind, params = rules.progress_roll(sheet, entry["type"], progress, given)
        return kind, params
    return kind, rules.roll_params(sheet, kind, given)


def _rolls_the_track(system: GameSystem, kind: str, given: dict[str, Any]) -> bool:
    """Whether a turn naming a track rolls the track's progress (a progress move, Go Forth's
    effort against a Heart, a Storyteller extended action), or is a roll of its own that the
    track takes part in (an action move that marks progress, Recommit)."""
    if kind == "move":
        move = given.get("move")
        return not isinstance(move, str) or system.move(move).roll in ("progress", "conclusion")
    spec = system.roll_kinds.get(kind)
    if spec is None or kind in ("progress", "conclusion"):
        return True
    fields = spec.params.model_fields
    return "ticks" not in fields or "track" in fields


# Sojourn's own kind changes no sheet (it names the recover moves to make); the move kind offers
# its miss's "choose one" as well.
_MOVE_KIND_KEPT = ("sojourn",)


def own_kind(system: GameSystem, kind: str, given: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A move that has a roll kind of its own (Lose Momentum, Sacrifice Resources, Endure Harm,
    Heal, Hearten, Resupply, Repair, Sojourn...) is that kind: named as a move, Lose Momentum did
    nothing and Heal took no health. The stat a move turn names is dropped where the move's own
    kind does not take one (a suffer move rolls its meter or stat "whichever is higher")."""
    move_id = given.get("move")
    own = kind == "move" and isinstance(move_id, str) and move_id in system.roll_kinds
    if not own or str(move_id) in _MOVE_KIND_KEPT:
        return kind, given
    if system.move(str(move_id)).roll in ("progress", "conclusion"):
        return kind, given
    fields = system.roll_kinds[str(move_id)].params.model_fields
    generic = ("move", "stat", "stat_value", "stats")
    return str(move_id), {k: v for k, v in given.items() if k not in generic or k in fields}


def marked_track_type(system: GameSystem, kind: str, given: dict[str, Any]) -> str | None:
    """The type of track an action move's outcome may mark progress on ("mark progress" in any
    of its outcomes), or None."""
    move_id = given.get("move")
    if kind != "move" or not isinstance(move_id, str) or not system.moves:
        return None
    move = system.move(move_id)
    if move.roll == "none" and move.id in MILESTONE_MOVES:
        return MILESTONE_MOVES[move.id]
    if move.roll != "action":
        return None
    texts = " ".join(move.outcomes.values()).lower().replace("do not mark progress", "")
    return MARKED_TRACK_TYPES.get(move.category) if "mark progress" in texts else None


def track_for_marks(state: State, track_type: str, move_name: str) -> str:
    """The open track of this type that a move's progress marks, when the turn names none: the
    only one; none or several is for the player to settle (open one, or name it)."""
    tracks = [
        t for t in state["tracks"].values() if t["type"] == track_type and t["status"] == "open"
    ]
    if len(tracks) == 1:
        return str(tracks[0]["id"])
    if not tracks:
        raise SessionError(
            409,
            f"{move_name} marks progress on a {track_type} track and this session has no open "
            f"one: open it first (POST /v1/sessions/{{id}}/tracks with type {track_type!r}), "
            "or name a track in `track`",
            "track",
        )
    listed = ", ".join(f"{t['id']} ({t['name']})" for t in tracks)
    raise SessionError(
        409,
        f"{move_name} marks progress on a {track_type} track and this session has "
        f"{len(tracks)} open: name which in `track`: {listed}",
        "track",
    )


def _takes_goal(system: GameSystem, entry: dict[str, Any]) -> bool:
    """A counted track with its own target (a Storyteller extended action's goal)."""
    spec = {t.id: t for t in sheet_rules(system).track_types}[entry["type"]]
    return bool(entry.get("counted")) and spec.target is None and entry.get("target") is not None


def resolve(
    system: GameSystem,
    kind: str,
    params: dict[str, Any],
    *,
    dice: list[int] | None,
    seed: int | None,
) -> Resolution:
    return resolve_roll(system.id, kind, params, dice=dice, seed=seed)


def pending_choices(
    system: GameSystem, kind: str, params: dict[str, Any], resolution: Resolution
) -> list[Choice]:
    return sheet_rules(system).choices(kind, params, resolution)


def apply_resolution(
    system: GameSystem,
    state: State,
    resolution: Resolution,
    *,
    track: str | None = None,
    clock: str | None = None,
) -> Applied:
    rules = sheet_rules(system)
    new = copy.deepcopy(state)
    update = rules.apply(rules.model.model_validate(state["sheet"]), resolution)
    new["sheet"] = update.sheet.model_dump(mode="json")
    applied = list(update.applied)
    not_applied: list[StateChange] = []
    for change in update.other:
        if track is not None and change.target == HEARTS_TARGET:
            applied.append(_overcome_hearts(new, track, change))
        elif track is not None and (
            change.target in TRACK_TARGETS or change.target.startswith(COUNTED_PREFIX)
        ):
            applied.append(_mark_track(system, new, track, change))
        elif track is not None and change.target == OPPONENT_PROGRESS:
            entry = _track(new, track)
            before = entry.get("opponent_units", 0)
            entry["opponent_units"] = change.set_to if change.set_to is not None else before
            applied.append(StateChange(target=f"tracks.{track}.opponent",
                                       delta=entry["opponent_units"] - before))  # fmt: skip
        elif change.target in CLOCK_TARGETS and clock is not None:
            applied.append(_advance_clock(new, clock, change.delta or 1))
        else:
            not_applied.append(change)
    if track is not None and (closed := _completes(system, new, track, resolution)):
        applied.append(closed)
    return Applied(state=new, applied=applied, not_applied=not_applied)


def _completes(
    system: GameSystem, state: State, track_id: str, resolution: Resolution
) -> StateChange | None:
    """Ruling (sessions): a hit on a track's progress roll completes it ("On a strong hit, your
    vow is fulfilled"; a weak hit fulfils it too, with a complication), and so does a counted
    track reaching its target (a Storyteller extended action's goal, Go Forth's Hearts)."""
    entry = _track(state, track_id)
    if entry["status"] != "open":
        return None
    if entry.get("hearts") == 0:
        # the last Heart overcome: it shows full ("Accumulate enough Effort against a Heart
        # (10 points) to overcome it"), not the count restarted
        entry["units"] = entry["target"]
        done = True
    elif entry.get("counted"):
        done = entry.get("target") is not None and entry["units"] >= entry["target"]
        done = done or entry.get("opponent_units", 0) >= (entry.get("target") or 0) > 0
    else:
        done = resolution.outcome in ("strong_hit", "weak_hit") and _is_progress_roll(
            system, resolution
        )
    if not done:
        return None
    entry["status"] = "completed"
    return StateChange(target=f"tracks.{track_id}", note="completed")


def _is_progress_roll(system: GameSystem, resolution: Resolution) -> bool:
    if resolution.kind in ("progress", "conclusion"):
        return True
    move = resolution.params.get("move")
    if resolution.kind != "move" or not isinstance(move, str):
        return False
    return system.move(move).roll in ("progress", "conclusion")


def _overcome_hearts(state: State, track_id: str, change: StateChange) -> StateChange:
    """Hearts overcome on the target: its Hearts left go down (the count on the next restarts,
    by the effort change that comes with it)."""
    entry = _track(state, track_id)
    before = entry.get("hearts", 1)
    entry["hearts"] = max(0, before + (change.delta or 0))
    entry["overcome"] = entry.get("overcome", 0) + before - entry["hearts"]
    left = entry["hearts"]
    return StateChange(
        target=f"tracks.{track_id}.hearts", delta=left - before,
        note=f"{before - left} Heart(s) overcome; {left} left",
    )  # fmt: skip


def _mark_track(
    system: GameSystem, state: State, track_id: str, change: StateChange
) -> StateChange:
    entry = _track(state, track_id)
    if change.target == "rank" and change.note:
        entry["rank"] = change.note
        return StateChange(target=f"tracks.{track_id}", note=f"rank raised to {change.note}")
    if change.target == "track_status" and change.note:
        entry["status"] = change.note
        return StateChange(target=f"tracks.{track_id}", note=change.note)
    if entry.get("counted"):
        before = entry["units"]
        after = change.set_to if change.set_to is not None else before + (change.delta or 0)
        entry["units"] = max(0, after)
        return StateChange(
            target=f"tracks.{track_id}", delta=entry["units"] - before, note=change.note
        )
    if change.target == "progress_marks":
        ticks = _ticks_per_mark(system, entry) * (change.delta or 0)
    elif change.set_to is not None:
        ticks = change.set_to - entry["ticks"]
    else:
        ticks = change.delta or 0
    return _move_track(entry, ticks, change.note)


def _move_track(entry: dict[str, Any], ticks: int, note: str | None) -> StateChange:
    before = entry["ticks"]
    entry["ticks"] = max(0, min(MAX_TICKS, before + ticks))
    return StateChange(
        target=f"tracks.{entry['id']}", delta=entry["ticks"] - before, note=note or "progress"
    )


def _ticks_per_mark(system: GameSystem, entry: dict[str, Any]) -> int:
    kinds = {t.id: t for t in sheet_rules(system).track_types}
    ranks = kinds[entry["type"]].ranks
    return ranks.get(entry.get("rank") or "", 0)


def _advance_clock(state: State, clock_id: str, by: int) -> StateChange:
    entry = _clock(state, clock_id)
    before = entry["filled"]
    entry["filled"] = max(0, min(entry["segments"], before + by))
    if entry["filled"] == entry["segments"]:
        entry["status"] = "filled"
    return StateChange(
        target=f"clocks.{clock_id}", delta=entry["filled"] - before, note=f"{entry['name']}"
    )


# --- tracks and clocks ------------------------------------------------------------------------


def _next_id(prefix: str, existing: dict[str, Any]) -> str:
    n = 1
    while f"{prefix}{n}" in existing:
        n += 1
    return f"{prefix}{n}"


def open_track(
    system: GameSystem,
    state: State,
    track_type: str,
    name: str,
    rank: str | None,
    target: int | None = None,
    hearts: int | None = None,
) -> Applied:
    spec = sheets.track_type(sheet_rules(system), track_type)
    rank = sheets.track_rank(spec, rank)
    target = sheets.track_target(spec, target)
    counted = not spec.ranks
    sheets.track_hearts(spec, hearts)
    new = copy.deepcopy(state)
    track_id = _next_id("t", new["tracks"])
    new["tracks"][track_id] = {
        "id": track_id,
        "type": track_type,
        "name": name,
        "rank": rank,
        "counted": counted,
        "ticks": 0,
        "units": 0,
        "target": target,
        "status": "open",
    }
    if spec.hearts:
        # Go Forth: "Each Heart = 10 Effort"; the session keeps how many the target has left
        new["tracks"][track_id] |= {"hearts": hearts or 1, "overcome": 0}
    change = StateChange(target=f"tracks.{track_id}", set_to=0, note=f"opened: {name}")
    return Applied(state=new, applied=[change])


def mark_track(system: GameSystem, state: State, track_id: str, times: int) -> Applied:
    new = copy.deepcopy(state)
    entry = _track(new, track_id, "path.track_id")
    if entry["status"] != "open":
        raise SessionError(409, f"track {track_id} is {entry['status']}", "path.track_id")
    if entry.get("counted"):
        before = entry["units"]
        entry["units"] = max(0, before + times)
        change = StateChange(target=f"tracks.{track_id}", delta=entry["units"] - before)
        return Applied(state=new, applied=[change])
    per_mark = _ticks_per_mark(system, entry)
    change = _move_track(entry, per_mark * times, f"mark progress x{times}")
    return Applied(state=new, applied=[change])


def close_track(state: State, track_id: str, status: str) -> Applied:
    new = copy.deepcopy(state)
    entry = _track(new, track_id, "path.track_id")
    entry["status"] = status
    return Applied(state=new, applied=[StateChange(target=f"tracks.{track_id}", note=status)])


def open_clock(state: State, name: str, segments: int) -> Applied:
    if segments not in CLOCK_SEGMENTS:
        raise InvalidParameter(f"a clock has 4, 6, 8 or 10 segments, not {segments}", "segments")
    new = copy.deepcopy(state)
    clock_id = _next_id("c", new["clocks"])
    new["clocks"][clock_id] = {
        "id": clock_id, "name": name, "segments": segments, "filled": 0, "status": "open",
    }  # fmt: skip
    return Applied(
        state=new, applied=[StateChange(target=f"clocks.{clock_id}", set_to=0, note=name)]
    )


def advance_clock(state: State, clock_id: str, by: int) -> Applied:
    new = copy.deepcopy(state)
    _clock(new, clock_id, "path.clock_id")
    return Applied(state=new, applied=[_advance_clock(new, clock_id, by)])


def rest(system: GameSystem, state: State, kind: str) -> Applied:
    """A rest the system's text gives (Roll Under's rest after an encounter, Go Forth's Long
    Rest...): the sheet's rules change the sheet; what they cannot heal is told, not kept."""
    rules = sheet_rules(system)
    update = sheets.rest(rules, rules.model.model_validate(state["sheet"]), kind)
    new = copy.deepcopy(state)
    new["sheet"] = update.sheet.model_dump(mode="json")
    return Applied(state=new, applied=list(update.applied), not_applied=list(update.other))


def edit_sheet(system: GameSystem, state: State, edits: list[sheets.SheetEdit]) -> Applied:
    """The player's edits of the sheet by hand (take or suffer on a meter, an impact, experience),
    within the sheet's rules."""
    rules = sheet_rules(system)
    update = sheets.edit_sheet(rules, rules.model.model_validate(state["sheet"]), edits)
    new = copy.deepcopy(state)
    new["sheet"] = update.sheet.model_dump(mode="json")
    return Applied(state=new, applied=list(update.applied))


# --- state operations without dice, recorded so that a journal replays ---------------------------


def apply_op(system: GameSystem, state: State, op: dict[str, Any]) -> Applied:
    """A recorded operation on the state (``{"op": "open_track", ...}``) applied."""
    name = op.get("op")
    if name == "open_track":
        return open_track(
            system, state, op["type"], op["name"], op.get("rank"), op.get("target"),
            op.get("hearts"),
        )  # fmt: skip
    if name == "mark_track":
        return mark_track(system, state, op["track"], op["times"])
    if name == "close_track":
        return close_track(state, op["track"], op["status"])
    if name == "open_clock":
        return open_clock(state, op["name"], op["segments"])
    if name == "advance_clock":
        return advance_clock(state, op["clock"], op["by"])
    if name == "rest":
        return rest(system, state, op["kind"])
    if name == "edit_sheet":
        return edit_sheet(system, state, [sheets.SheetEdit(**e) for e in op["edits"]])
    raise InvalidParameter(f"unknown operation {name!r}", "op")
