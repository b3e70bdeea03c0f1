"""Elegy's character sheet: what a session keeps between turns, read into rolls and changed by them.

Implements ``rules.sheets.SheetRules`` (read that protocol first). Source: elegy.md, "The Action
Roll", "Progress Tracks", "Harm, Stress And Hunger" and the moves chapter.

The sheet: a name; the five stats (0-5); health, spirit and blood (0-5, start 5); focus (-6..+10,
start +2); the impacts marked; assets by name (the text has no asset list); unspent experience;
and the +N held for the next roll (Secure an Advantage, the "opportunity" benefit, setting things
right after Fulfill Your Elegy), added to the next Action Roll and then spent. Progress tracks
(combat, connection, elegy) are the session's: their changes come back in ``SheetUpdate.other``
with the rank changes and the ends of the impact chains (final death, desolation, mind lost),
which send the player to a move rather than stay on the sheet.

Choices, by roll kind. Burning focus comes first and alone, because it changes the outcome the
other choices depend on; a session asks ``choices`` again after each re-resolution until none is
left. Every choice is a parameter of the same kind; a left-out choice applies nothing.
  action      burn_focus; benefit (on a hit); cost (on a weak hit or a miss)
  power       burn_focus; benefit (on a hit); cost (on a miss: "you must select a second cost")
  ritual      burn_focus; benefit (on a hit); consume (blood, health or spirit, when it consumes)
  move        burn_focus; strong_hit_choice / weak_hit_choice / miss_choice (a move's "choose
              one": Secure an Advantage, Rest, Heal, Feed, the Endure moves, End the Fight, Test
              Your Relationship, Form a Bond, Face Last Death / Desolation / Starvation);
              recommit (Fulfill Your Elegy and Form a Bond on a miss); set_things_right
              (Fulfill Your Elegy weak hit); pay_the_price (roll on the list, or choose the
              outcome), asked after Test Your Relationship's miss choice (only losing the
              connection pays the price)
  conclusion  recommit (connection, miss); set_things_right (elegy, weak hit)
Left out (nothing the engine could apply through one parameter): Face a Setback's exchange of
-focus for any mix of meters or progress, Forsake Your Elegy's "pick one or more", and the
Conclusion Roll's connection strong hit "pick one" (narrative). Burning focus after a miss that
rolled a table (a ritual's or an Endure move's) consumes fewer dice: re-resolve with the seed or
with the challenge dice only.

No game master sets a number in Elegy (a solo game; a guided game's GM decides outcomes in the
fiction): ``gm_params`` is empty.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, get_args

from annotated_types import Ge, Le
from pydantic import BaseModel, Field, StringConstraints, ValidationError, field_validator

from rules.errors import InvalidParameter, RulesError, UnknownError
from rules.ironsworn import momentum_reset
from rules.models import Citation, Frozen, Resolution, StateChange
from rules.progress import MAX_TICKS
from rules.registry import get_system
from rules.sheets import Choice, ChoiceOption, GmParam, SheetUpdate, TrackType, add_held
from rules.systems.elegy import mechanics as m
from rules.systems.elegy import options as o
from rules.systems.elegy.moves import METER_OF, MOVES, allowed_stats, find_move

SYSTEM_ID = "elegy"
IMPACTS: list[str] = list(get_args(m.Impact))
_SPECS = {spec.id: spec for spec in m.METERS}
METER_IDS = [spec.id for spec in m.METERS if spec.id != "focus"]


# --- the sheet ---------------------------------------------------------------------------------


def _stat(approach: str) -> Any:
    return Field(ge=m.STAT_MIN, le=m.STAT_MAX, description=f"roll + this stat {approach}")


def _meter(meter_id: str) -> Any:
    spec = _SPECS[meter_id]
    return Field(spec.start, ge=spec.min, le=spec.max, description=spec.note or spec.name)


class Stats(Frozen):
    """The five stats of "How To Make An Action Roll"."""

    dexterity: int = _stat("with stealth, speed, or coordination")
    heart: int = _stat("with courage, willpower, or empathy")
    force: int = _stat("with aggression, strength, or toughness")
    glamour: int = _stat("with charm, composure, or manipulation")
    intellect: int = _stat("with expertise, focus, or observation")


class Meters(Frozen):
    """Health, spirit and blood, in the engine's ranges (GameSystem.meters)."""

    health: int = _meter("health")
    spirit: int = _meter("spirit")
    blood: int = _meter("blood")


AssetName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]


class Sheet(Frozen):
    """An Elegy vampire between turns."""

    name: str = Field(min_length=1, max_length=100)
    stats: Stats
    meters: Meters = Field(default_factory=Meters)
    focus: int = _meter("focus")
    impacts: tuple[m.Impact, ...] = Field((), description="impacts marked (each once)")
    assets: tuple[AssetName, ...] = Field((), description="assets (powers, rituals...) by name")
    experience: int = Field(0, ge=0, description="unspent experience")
    next_roll_adds: int = Field(
        0, ge=0, le=m.ADDS_MAX, description="+N held for the next Action Roll (not a Conclusion)"
    )

    @field_validator("impacts", "assets")
    @classmethod
    def _once(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if len(set(value)) != len(value):
            raise ValueError("each may be listed once")
        return value

    def stat(self, name: str) -> int:
        value: int = getattr(self.stats, name)
        return value

    def meter(self, name: str) -> int:
        value: int = getattr(self.meters, name)
        return value


# --- validation --------------------------------------------------------------------------------

_NAMES: dict[tuple[str, ...], tuple[str, list[str]]] = {
    (): ("sheet field", list(Sheet.model_fields)),
    ("stats",): ("stat", m.STATS),
    ("meters",): ("meter", METER_IDS),
}


def _bounds(loc: tuple[str, ...]) -> str:
    """The allowed range of the field at ``loc``, read from the model's own constraints."""
    model: type[BaseModel] | None = Sheet
    metadata: list[Any] = []
    for part in loc:
        if model is None or part not in model.model_fields:
            return ""
        info = model.model_fields[part]
        metadata = info.metadata
        annotation = info.annotation
        model = None
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            model = annotation
    low = next((c.ge for c in metadata if isinstance(c, Ge)), None)
    high = next((c.le for c in metadata if isinstance(c, Le)), None)
    if low is None and high is None:
        return ""
    return f" (allowed: {low} to {high})" if high is not None else f" (allowed: {low} or more)"


def _unknown(error: Any) -> UnknownError | None:
    """An unknown stat, meter, sheet field or impact, named with the names it could be."""
    loc = tuple(str(p) for p in error["loc"])
    where = ".".join(("sheet", *loc))
    if error["type"] == "extra_forbidden" and loc[:-1] in _NAMES:
        what, known = _NAMES[loc[:-1]]
        return UnknownError(what, loc[-1], known, field=where)
    if error["type"] == "literal_error" and loc[:1] == ("impacts",):
        return UnknownError("impact", str(error["input"]), IMPACTS, field=where)
    return None


def _error(exc: ValidationError) -> RulesError:
    errors = exc.errors()
    for error in errors:  # an unknown name first: it explains the rest (a misspelt stat)
        unknown = _unknown(error)
        if unknown is not None:
            return unknown
    messages = []
    for error in errors:
        path = tuple(str(p) for p in error["loc"])
        messages.append(f"{'.'.join(('sheet', *path))}: {error['msg']}{_bounds(path)}")
    where = ".".join(("sheet", *(str(p) for p in errors[0]["loc"])))
    return InvalidParameter("; ".join(messages), where)


def _sheet(sheet: BaseModel) -> Sheet:
    if not isinstance(sheet, Sheet):
        raise InvalidParameter("not an Elegy character sheet", "sheet")
    return sheet


# --- roll parameters ---------------------------------------------------------------------------

_ACTION = ("stat_value", "focus", "impacts", "health", "spirit", "blood")
# The parameters each kind takes from the sheet (a given one is refused).
SHEET_PARAMS: dict[str, tuple[str, ...]] = {
    "action": _ACTION,
    "power": _ACTION,
    "ritual": (*_ACTION, "meter_value"),
    "move": ("stat_value", "focus", "impacts", "meter_value"),
    "harm": ("health", "impacts"),
    "stress": ("spirit", "impacts"),
    "hunger": ("blood", "impacts"),
    "advance": ("experience",),
}


def _with_hold(params: dict[str, Any], sheet: Sheet) -> None:
    """Add the +N held for the next roll to the player's adds (apply then spends it)."""
    add_held(params, sheet.next_roll_adds, m.ADDS_MAX)


def _move_params(sheet: Sheet, params: dict[str, Any]) -> None:
    move_id = params.get("move")
    if not isinstance(move_id, str):
        return  # the engine names the missing move
    move = find_move(move_id)
    stat = params.get("stat")
    allowed = allowed_stats(move)
    if stat is None and any(option.method == "highest" for option in move.options):
        # Rest: "roll +heart or +intellect, whichever is higher"
        stat = params["stat"] = max(allowed, key=sheet.stat)
    elif stat is None and len(allowed) == 1:
        stat = allowed[0]
    if isinstance(stat, str) and stat in m.STATS:
        params["stat_value"] = sheet.stat(stat)
    if move.id in METER_OF:
        params["meter_value"] = sheet.meter(METER_OF[move.id])
    if move.roll == "action":
        _with_hold(params, sheet)


def _fill(sheet: Sheet, kind: str, params: dict[str, Any]) -> None:
    impacts = list(sheet.impacts)
    if kind in ("action", "power", "ritual"):
        stat = "intellect" if kind == "ritual" else params.get("stat")
        if isinstance(stat, str):
            params["stat_value"] = sheet.stat(get_system(SYSTEM_ID).stat(stat))
        meters = {name: sheet.meter(name) for name in METER_IDS}
        params.update(focus=sheet.focus, impacts=impacts, **meters)
        _with_hold(params, sheet)
    elif kind == "move":
        params.update(focus=sheet.focus, impacts=impacts)
        _move_params(sheet, params)
    elif kind in ("harm", "stress", "hunger"):
        meter = {"harm": "health", "stress": "spirit", "hunger": "blood"}[kind]
        params.update({meter: sheet.meter(meter), "impacts": impacts})
    elif kind == "advance":
        params["experience"] = sheet.experience


# --- applying a resolution ---------------------------------------------------------------------


def _clamp(value: int, low: int, high: int | None) -> int:
    return max(low, value if high is None else min(high, value))


@dataclass
class _Draft:
    """The sheet's numbers while a resolution's changes are applied, in order."""

    values: dict[str, int]
    impacts: list[str]

    @classmethod
    def of(cls, sheet: Sheet) -> _Draft:
        values = {name: sheet.meter(name) for name in METER_IDS}
        values |= {
            "focus": sheet.focus,
            "experience": sheet.experience,
            "next_roll_adds": sheet.next_roll_adds,
        }
        return cls(values=values, impacts=list(sheet.impacts))

    def _range(self, target: str) -> tuple[int, int | None]:
        if target in _SPECS:
            return _SPECS[target].min, _SPECS[target].max
        return 0, m.ADDS_MAX if target == "next_roll_adds" else None

    def take(self, change: StateChange) -> StateChange | None:
        """Apply one change; returns it as applied, or None when the sheet does not hold it."""
        target = change.target
        if target in self.values:
            old = self.values[target]
            wanted = change.set_to if change.set_to is not None else old + (change.delta or 0)
            new = _clamp(wanted, *self._range(target))
            self.values[target] = new
            set_to = new if change.set_to is not None else None
            return StateChange(target=target, delta=new - old, set_to=set_to, note=change.note)
        if target in IMPACTS:
            marked = bool(change.set_to) if change.set_to is not None else (change.delta or 0) > 0
            if marked and target not in self.impacts:
                self.impacts.append(target)
            if not marked and target in self.impacts:
                self.impacts.remove(target)
            return StateChange(target=target, set_to=int(marked), note=change.note)
        return None

    def sheet(self, base: Sheet) -> Sheet:
        meters = Meters(**{name: self.values[name] for name in METER_IDS})
        return base.model_copy(
            update={
                "meters": meters,
                "focus": self.values["focus"],
                "experience": self.values["experience"],
                "next_roll_adds": self.values["next_roll_adds"],
                "impacts": tuple(self.impacts),
            }
        )


# --- choices -----------------------------------------------------------------------------------

BENEFITS_CITATION = m.cite("The Action Roll > How To Make An Action Roll > Benefits")
COSTS_CITATION = m.cite("The Action Roll > How To Make An Action Roll > Costs")
_CLEARS = {"clear_wounded": "wounded", "clear_starving": "starving", "clear_shaken": "shaken"}


def _choice(
    param: str,
    prompt: str,
    options: list[tuple[Any, str]],
    citation: Citation,
    extra_dice: bool = False,
) -> Choice:
    return Choice(
        param=param,
        prompt=prompt,
        options=[ChoiceOption(value=value, label=label) for value, label in options],
        citation=citation,
        extra_dice=extra_dice,
    )


def _burn(resolution: Resolution) -> Choice:
    reset = momentum_reset(len(resolution.params.get("impacts", [])))
    return _choice(
        "burn_focus",
        "Burn focus? It would improve this outcome.",
        [
            (
                True,
                f"Burn focus: replace your action score with your focus, then reset it to +{reset}",
            ),
            (False, "Keep your action score"),
        ],
        m.FOCUS,
    )


def _offered(benefit: str, marked: list[str], params: dict[str, Any]) -> bool:
    """A benefit that can do something: clearing an impact that is marked, marking progress on
    a track the roll names (params.rank)."""
    if benefit in _CLEARS:
        return _CLEARS[benefit] in marked
    return benefit != "mark_progress" or "rank" in params


def _action_choices(kind: str, params: dict[str, Any], resolution: Resolution) -> list[Choice]:
    band, found = resolution.outcome, []
    marked = resolution.params.get("impacts", [])
    if band != "miss" and "benefit" not in params:
        benefits = [(b.id, b.label) for b in o.BENEFITS if _offered(b.id, marked, params)]
        found.append(_choice("benefit", "Choose a fitting benefit.", benefits, BENEFITS_CITATION))
    costs_on = ("miss",) if kind == "power" else ("weak_hit", "miss") if kind == "action" else ()
    if band in costs_on and "cost" not in params:
        prompt = "Select a second cost." if kind == "power" else "Select one fitting cost."
        costs = [(c.id, c.label) for c in o.COSTS]
        found.append(_choice("cost", prompt, costs, COSTS_CITATION))
    lost = resolution.details.get("consumes", 0)
    if kind == "ritual" and lost and "consume" not in params:
        options = [
            (meter, f"lose {lost} point of {meter}") for meter in ("blood", "health", "spirit")
        ]
        found.append(
            _choice(
                "consume",
                "The ritual consumes you: pick blood, health or spirit.",
                options,
                m.cite("The Action Roll > Rituals"),
            )
        )
    return found


RECOMMIT = {
    "fulfill_your_elegy": (
        "You recommit: Clear all but one filled progress, and raise the quest's rank by one",
        "You give up: Forsake Your Elegy",
    ),
    "form_a_bond": (
        "Maintain this relationship: roll both challenge dice, clear the lower value in boxes, "
        "and increase the connection's rank by one",
        "Let the relationship go",
    ),
}


def _move_choices(params: dict[str, Any], resolution: Resolution) -> list[Choice]:
    band, details = resolution.outcome, resolution.details
    move = MOVES[details["move"]]
    found: list[Choice] = []
    param = f"{band}_choice"
    options = o.move_options(move.id, band)
    both = move.id == "rest" and band == "miss" and bool(resolution.match)  # "pick both"
    pending = bool(options) and param not in params and not both
    if pending:
        found.append(
            _choice(
                param,
                f"{move.name}: choose one.",
                [(x.id, x.label) for x in options],
                move.citation,
            )
        )
    recommits = band == "miss" and move.id in RECOMMIT and resolution.params.get("rank")
    if recommits and "recommit" not in params:
        labels = RECOMMIT[move.id]
        found.append(
            _choice(
                "recommit",
                f"{move.name}: recommit?",
                [(True, labels[0]), (False, labels[1])],
                move.citation,
                extra_dice=move.id == "form_a_bond",
            )
        )
    if (move.id, band) == ("fulfill_your_elegy", "weak_hit") and "set_things_right" not in params:
        found.append(
            _choice(
                "set_things_right",
                "You may Sing an Elegy to set things right. If you do, add +1.",
                [(True, "Sing an Elegy to set things right (+1 on that roll)"), (False, "Do not")],
                move.citation,
            )
        )
    deferred = pending and any((move.id, band, x.id) in o.NO_PRICE for x in options)
    if details.get("pays_the_price") and "pay_the_price" not in params and not deferred:
        price = MOVES["pay_the_price"]
        found.append(
            _choice(
                "pay_the_price",
                "Pay the Price: choose one.",
                [
                    (
                        False,
                        "Make the most obvious negative outcome happen (ask the oracle for inspiration)",
                    ),
                    (True, "Roll on the list below"),
                ],
                price.citation,
                extra_dice=True,
            )
        )
    return found


def _conclusion_choices(params: dict[str, Any], resolution: Resolution) -> list[Choice]:
    track, band = resolution.params.get("track"), resolution.outcome
    if track == "connection" and band == "miss" and "recommit" not in params:
        return [
            _choice(
                "recommit",
                "If you recommit to this relationship, clear half your progress boxes and raise "
                "the connection's rank by one.",
                [(True, "Recommit to this relationship"), (False, "Do not recommit")],
                m.cite("Progress Tracks > The Conclusion Roll > Miss"),
            )
        ]
    if track == "elegy" and band == "weak_hit" and "set_things_right" not in params:
        return [
            _choice(
                "set_things_right",
                "If you sing an elegy to set things right, take full xp. Otherwise, take -1 xp.",
                [(True, "Sing an elegy to set things right (full xp)"), (False, "Take -1 xp")],
                m.cite("Progress Tracks > The Conclusion Roll > Weak Hit"),
            )
        ]
    return []


# --- progress tracks ---------------------------------------------------------------------------

TRACK_TYPES = [
    TrackType(
        id=track, name=track.title(), ranks=dict(m.RANK_TICKS), citation=m.cite("Progress Tracks")
    )
    for track in ("combat", "connection", "elegy")
]
# The move that concludes each kind of track (else the Conclusion Roll of "Progress Tracks").
CONCLUSION_MOVES = {
    "combat": "end_the_fight",
    "connection": "form_a_bond",
    "elegy": "fulfill_your_elegy",
}


# --- the rules ---------------------------------------------------------------------------------


class ElegySheetRules:
    """Elegy's ``SheetRules``: pure functions of the sheet and the engine's resolutions."""

    def __init__(self) -> None:
        self.model: type[BaseModel] = Sheet
        self.gm_params: list[GmParam] = []
        self.track_types: list[TrackType] = TRACK_TYPES

    def validate(self, data: dict[str, Any]) -> BaseModel:
        try:
            return Sheet.model_validate(data)
        except ValidationError as exc:
            raise _error(exc) from None

    def roll_params(self, sheet: BaseModel, kind: str, given: dict[str, Any]) -> dict[str, Any]:
        elegy = _sheet(sheet)
        get_system(SYSTEM_ID).roll_kind(kind)
        for name in SHEET_PARAMS.get(kind, ()):
            if name in given:
                raise InvalidParameter(
                    f"{name} comes from the character sheet; leave it out", f"params.{name}"
                )
        params = dict(given)
        _fill(elegy, kind, params)
        return params

    def apply(self, sheet: BaseModel, resolution: Resolution) -> SheetUpdate:
        base = _sheet(sheet)
        if resolution.system not in ("", SYSTEM_ID):
            raise InvalidParameter(
                f"a {resolution.system} resolution does not apply to an Elegy sheet",
                "resolution.system",
            )
        draft = _Draft.of(base)
        applied: list[StateChange] = []
        other: list[StateChange] = []
        if "action_score" in resolution.scores and base.next_roll_adds:
            # The hold was added to this Action Roll's adds by roll_params: it is spent.
            spent = StateChange(target="next_roll_adds", set_to=0, note="added to this roll")
            applied.append(draft.take(spent) or spent)
        for change in resolution.changes:
            taken = draft.take(change)
            if taken is None:
                other.append(change)
            else:
                applied.append(taken)
        return SheetUpdate(sheet=draft.sheet(base), applied=applied, other=other)

    def choices(self, kind: str, params: dict[str, Any], resolution: Resolution) -> list[Choice]:
        get_system(SYSTEM_ID).roll_kind(kind)
        if resolution.details.get("burn_would_improve") and "burn_focus" not in params:
            return [_burn(resolution)]
        if kind in ("action", "power", "ritual"):
            return _action_choices(kind, params, resolution)
        if kind == "move" and "move" in resolution.details:
            return _move_choices(params, resolution)
        if kind == "conclusion":
            return _conclusion_choices(params, resolution)
        return []

    def progress_roll(
        self, sheet: BaseModel, track_type: str, progress: int, given: dict[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        if track_type not in CONCLUSION_MOVES:
            raise UnknownError("track type", track_type, list(CONCLUSION_MOVES), field="track_type")
        if not 0 <= progress <= MAX_TICKS:
            raise InvalidParameter(f"progress must be 0 to {MAX_TICKS} ticks", "progress")
        for name in ("track", "ticks"):
            if name in given:
                raise InvalidParameter(f"{name} comes from the progress track", f"params.{name}")
        move = given.get("move")
        if move is None:
            return "conclusion", {**given, "track": track_type, "ticks": progress}
        if move != CONCLUSION_MOVES[track_type]:
            raise InvalidParameter(
                f"a {track_type} track is concluded by {CONCLUSION_MOVES[track_type]}",
                "params.move",
            )
        return "move", self.roll_params(sheet, "move", {**given, "ticks": progress})


SHEET_RULES = ElegySheetRules()
