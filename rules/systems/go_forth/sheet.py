"""Go Forth: the character sheet a session keeps between turns (the protocol is rules/sheets.py).

Source: go_forth.txt ("Attributes", "Checks, Effort & Contests > Roll vs Effort Bonus",
"Momentum", "Momentum > Wounds", "Conditions", "Combat > Effort > Hearts").

The sheet holds the name, the level, the eight attributes (score, +Roll, +Effort), the Momentum
pool (Stamina, Power, Fatigue, Locked, Building, Lock slots), the Wounds (severity, Defense, the d8
on the Defense's chart, a Vicious Wound's sessions, the Injury Aspect), the Conditions held, and
whether a Death severity will take the hero at the end of the encounter.

``roll_params`` fills in, per roll kind (a given value of these is refused):
  check, effort  roll_bonus (+ effort_bonus) of the attribute the GM calls, the pool, favored /
                 hindered from the conditions held, and one more reason for Easy / Hard from the
                 sheet (see below) added to the GM's
  contest        roll_bonus of the called attribute
  attributes     every attribute's split and the level
  momentum       the pool (a Body wound's "Can't Prepare" / a Mind wound's "Can't Lock Momentum"
                 refuse those actions)
  wound          the attribute scores and the Wounds already taken
  conditions     the conditions held
  encounter_tn, table, oracle, expression: nothing.

Readings of the text made by the sheet (the engine's rulings are in system.py):
  - "Might checks are Hard" (and the other wound rows like it) make every check of that attribute
    Hard while the wound lasts; "Empowered — physical checks Easy" makes Might and Agility checks
    Easy and "Focused — mental checks Easy" Instinct and Reason checks ("Others target specific
    Defenses and the attributes tied to them": Body is Might + Agility, Mind Instinct + Reason).
  - "Can't Rally" does not refuse the momentum kind's rally: a Close ally may Rally you.
  - "Lose 1 Momentum permanently" takes the die from Fatigue first, then Stamina, Power,
    Building, Locked (the hero has just been knocked out: most dice are fatigued).
  - A Short Rest ("Flesh Wounds disappear") removes the Flesh Wounds with the pool's short_rest.

GM parameters (``gm_params``, see gm.py): the attribute called, the TN (10 to 34, the span of the
Encounter TN table) or the difficulty to roll it (and the Extreme dice), Easy and Hard (0 or 1
each: they do not stack), the opponent's +Roll in a contest, the Defense that dropped the hero,
and the target's Hearts, Fortified, Shield and Breaking Point.

Choices (``choices``, see choices.py): spending Momentum on a failed check or a graze (which
Stamina and Power dice), Power on Effort, and which area a Hit takes its die from.

Track types: ``heart``, one Heart of 10 Effort; ``progress_roll`` makes the effort roll against it
with the track's progress as the Effort already on the Heart. The effort resolution's
``target.heart_effort`` (Effort added to the Heart) and ``target.hearts`` (Hearts overcome) go to
``SheetUpdate.other``: the session's track takes them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from rules.catalog import load_tables
from rules.errors import InvalidParameter, UnknownError
from rules.models import Frozen, Resolution, StateChange
from rules.registry import MeterSpec
from rules.sheets import Choice, GmParam, RestKind, SheetUpdate, TrackType
from rules.systems.go_forth import choices as choosing
from rules.systems.go_forth.attributes import Split, split_attribute
from rules.systems.go_forth.checks import HEART, HEARTS
from rules.systems.go_forth.gm import GM_PARAMS, check_gm_params
from rules.systems.go_forth.momentum import AREAS, MAX_POOL_DICE, Area, Pool, pool_changes
from rules.systems.go_forth.rest import REST_KINDS, rest_update
from rules.systems.go_forth.wounds import (
    ATTRIBUTES,
    DEFENSE_ATTRIBUTES,
    OPPOSITE,
    SEVERITIES,
    SYSTEM_ID,
    Attribute,
    Condition,
    Defense,
    apply_conditions,
)

# --- the meters (system.py lists the same objects) --------------------------------------------

MOMENTUM = MeterSpec(
    id="momentum", name="Momentum dice", min=0, max=MAX_POOL_DICE, start=Pool().total, note="d6s"
)
WOUNDS = MeterSpec(id="wounds", name="Wounds", min=0, max=10, start=0, note="-5 severity each")
METERS = [MOMENTUM, WOUNDS]

# --- the sheet ---------------------------------------------------------------------------------

Severity = Literal["death", "permanent", "vicious", "shallow", "flesh"]  # wounds.SEVERITIES
# "Lose 1 Momentum permanently": the area a lost die leaves first (a reading, see above).
LOSS_ORDER: tuple[Area, ...] = ("fatigue", "stamina", "power", "building", "locked")
# Wound rows that refuse a Momentum action: "Can't Prepare" (Body 8), "Can't Lock Momentum" (Mind 7).
FORBIDDEN_ACTIONS = {"Can't Prepare": "prepare", "Can't Lock Momentum": "lock"}
# "Empowered — physical checks Easy", "Focused — mental checks Easy": the Defense's attributes.
EASY_CONDITIONS = {
    "empowered": DEFENSE_ATTRIBUTES["body"],
    "focused": DEFENSE_ATTRIBUTES["mind"],
}


class AttributeScore(Split):
    """An attribute: its score and its +Roll / +Effort (both default to the score)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Wound(Frozen):
    severity: Severity
    defense: Defense = Field(description="the Defense that dropped the hero")
    roll: int = Field(ge=1, le=8, description="the d8 on the Defense's wound chart")
    sessions: int | None = Field(None, ge=1, le=4, description="a Vicious Wound's d4 sessions")
    aspect: str | None = Field(
        None,
        max_length=200,
        description="'Give it a name. This Injury Aspect lives in the fiction.'",
    )

    @property
    def effect(self) -> str:
        return load_tables(SYSTEM_ID)[f"wound_{self.defense}"].row_for(self.roll).text

    def hard_attribute(self) -> str | None:
        """The attribute a "<Attribute> checks (are) Hard" row makes Hard, if this is one."""
        words = self.effect.split()
        if words[-1] == "Hard" and words[0].lower() in ATTRIBUTES:
            return words[0].lower()
        return None


def _zero_attributes() -> dict[Attribute, AttributeScore]:
    return {name: AttributeScore(score=0) for name in ATTRIBUTES}


class Sheet(Frozen):
    """A Go Forth hero. Minimal: a name (attributes not given are 0; 3 Momentum dice in Stamina)."""

    name: str = Field(min_length=1, max_length=100)
    level: int = Field(1, ge=1, le=20, description="the +5 cap on +Roll/+Effort is at level 1")
    attributes: dict[Attribute, AttributeScore] = Field(
        default_factory=_zero_attributes,
        description="each a score (-3 to 10) or {score, roll, effort}; missing ones are 0",
    )
    momentum: Pool = Field(default_factory=Pool, description="the Momentum dice and Lock slots")
    wounds: list[Wound] = Field(default_factory=list, max_length=WOUNDS.max)
    conditions: list[Condition] = Field(default_factory=list, max_length=len(OPPOSITE) // 2)
    dying: bool = Field(False, description="a Death severity: 'Death (at end of encounter)'")

    # The JSON schema says what is accepted: a score alone, or the whole split.
    @field_validator(
        "attributes",
        mode="before",
        json_schema_input_type=dict[
            Attribute, Annotated[int, Field(ge=-3, le=10)] | AttributeScore
        ],
    )
    @classmethod
    def _scores_and_defaults(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        given = {
            name: {"score": v} if isinstance(v, int) and not isinstance(v, bool) else v
            for name, v in value.items()
        }
        return {name: {"score": 0} for name in ATTRIBUTES} | given

    @field_validator("conditions")
    @classmethod
    def _no_twice_no_opposites(cls, value: list[str]) -> list[str]:
        for name in value:
            if value.count(name) > 1:
                raise ValueError(f"{name} is held twice (a condition is held once)")
            if OPPOSITE[name] in value:
                raise ValueError(f"{name} and {OPPOSITE[name]} cancel out: opposites don't coexist")
        return value

    def bonuses(self, name: Attribute) -> tuple[int, int]:
        """The attribute's (+Roll, +Effort), checked against the split rules at this level."""
        try:
            roll, effort, _ = split_attribute(name, self.attributes[name], self.level)
        except InvalidParameter as err:
            raise InvalidParameter(
                err.message.replace("params.", "sheet."),
                (err.field or "").replace("params.", "sheet."),
            ) from None
        return roll, effort


def as_sheet(sheet: BaseModel) -> Sheet:
    if not isinstance(sheet, Sheet):
        raise InvalidParameter(f"not a Go Forth sheet: {type(sheet).__name__}", "sheet")
    return sheet


def validate_sheet(data: dict[str, Any]) -> Sheet:
    if not isinstance(data, dict):
        raise InvalidParameter("the sheet must be a JSON object", "sheet")
    try:
        sheet = Sheet.model_validate(data)
    except ValidationError as exc:
        raise _sheet_error(exc) from None
    scores = {}
    for name, split in sheet.attributes.items():
        roll, effort = sheet.bonuses(name)
        scores[name] = AttributeScore(score=split.score, roll=roll, effort=effort)
    return sheet.model_copy(update={"attributes": scores})


def _sheet_error(exc: ValidationError) -> InvalidParameter | UnknownError:
    errors = exc.errors()
    for error in errors:
        loc = error["loc"]
        if loc[:1] == ("attributes",) and loc[-1] == "[key]":
            return UnknownError(
                "attribute", str(loc[1]), list(ATTRIBUTES), field=f"sheet.attributes.{loc[1]}"
            )
        if loc[:1] == ("conditions",) and len(loc) == 2 and error["type"] == "literal_error":
            return UnknownError(
                "condition", str(error["input"]), list(OPPOSITE), field=f"sheet.conditions.{loc[1]}"
            )
    where = [".".join(str(p) for p in e["loc"]) for e in errors]
    messages = "; ".join(
        f"sheet.{w}: {_hint(e['msg'], w)}" if w else f"sheet: {e['msg']}"
        for w, e in zip(where, errors, strict=True)
    )
    return InvalidParameter(messages, f"sheet.{where[0]}" if where[0] else "sheet")


def _hint(message: str, where: str) -> str:
    if message == "Extra inputs are not permitted" and "." not in where:
        return f"not a field of a Go Forth sheet (fields: {', '.join(Sheet.model_fields)})"
    if where.startswith("momentum."):
        return f"{message} ({MOMENTUM.name}: {MOMENTUM.min} to {MOMENTUM.max} in all)"
    if where.startswith("wounds") and "." not in where:
        return f"{message} ({WOUNDS.name}: {WOUNDS.min} to {WOUNDS.max})"
    return message


# --- roll parameters from the sheet ------------------------------------------------------------


def called_attribute(given: dict[str, Any]) -> Attribute:
    name = given.get("attribute")
    if name is None:
        raise InvalidParameter(
            "params.attribute is needed: the GM tells you which attribute applies "
            f"({', '.join(ATTRIBUTES)})",
            "params.attribute",
        )
    if name not in ATTRIBUTES:
        raise UnknownError("attribute", str(name), list(ATTRIBUTES), field="params.attribute")
    return cast(Attribute, name)


def _check(sheet: Sheet, given: dict[str, Any]) -> dict[str, Any]:
    name = called_attribute(given)
    easy = sum(name in attrs for c, attrs in EASY_CONDITIONS.items() if c in sheet.conditions)
    hard = sum(w.hard_attribute() == name for w in sheet.wounds)
    return {
        "roll_bonus": sheet.bonuses(name)[0],
        "pool": sheet.momentum.model_dump(),
        "favored": "favored" in sheet.conditions,
        "hindered": "hindered" in sheet.conditions,
        "easy": (given.get("easy") or 0) + min(easy, 1),
        "hard": (given.get("hard") or 0) + min(hard, 1),
    }


def _effort(sheet: Sheet, given: dict[str, Any]) -> dict[str, Any]:
    return _check(sheet, given) | {"effort_bonus": sheet.bonuses(called_attribute(given))[1]}


def _contest(sheet: Sheet, given: dict[str, Any]) -> dict[str, Any]:
    return {"roll_bonus": sheet.bonuses(called_attribute(given))[0]}


def _attributes(sheet: Sheet, given: dict[str, Any]) -> dict[str, Any]:
    splits = {}
    for name, split in sheet.attributes.items():
        roll, effort = sheet.bonuses(name)
        splits[name] = {"score": split.score, "roll": roll, "effort": effort}
    return {"attributes": splits, "level": sheet.level}


def _momentum(sheet: Sheet, given: dict[str, Any]) -> dict[str, Any]:
    for wound in sheet.wounds:
        action = FORBIDDEN_ACTIONS.get(wound.effect)
        if action is not None and given.get("action") == action:
            raise InvalidParameter(
                f"params.action: a {wound.defense.title()} Wound says {wound.effect!r}",
                "params.action",
            )
    return {"pool": sheet.momentum.model_dump()}


def _wound(sheet: Sheet, given: dict[str, Any]) -> dict[str, Any]:
    return {
        "attributes": {name: split.score for name, split in sheet.attributes.items()},
        "existing_wounds": len(sheet.wounds),
    }


def _conditions(sheet: Sheet, given: dict[str, Any]) -> dict[str, Any]:
    return {"current": list(sheet.conditions)}


def _nothing(sheet: Sheet, given: dict[str, Any]) -> dict[str, Any]:
    return {}


# kind -> (the parameters the sheet holds, the function that fills them in)
FILL = {
    "check": (("roll_bonus", "pool", "favored", "hindered"), _check),
    "effort": (("roll_bonus", "effort_bonus", "pool", "favored", "hindered"), _effort),
    "contest": (("roll_bonus",), _contest),
    "encounter_tn": ((), _nothing),
    "attributes": (("attributes", "level"), _attributes),
    "momentum": (("pool",), _momentum),
    "wound": (("attributes", "existing_wounds"), _wound),
    "conditions": (("current",), _conditions),
    "table": ((), _nothing),
    "oracle": ((), _nothing),
    "expression": ((), _nothing),
}


def roll_params(sheet: Sheet, kind: str, given: dict[str, Any]) -> dict[str, Any]:
    if kind not in FILL:
        raise UnknownError("roll kind", kind, list(FILL), field="kind")
    held, fill = FILL[kind]
    for name in held:
        if name in given:
            raise InvalidParameter(
                f"params.{name} comes from the character sheet; do not give it", f"params.{name}"
            )
    if given.get("attribute") is not None:
        called_attribute(given)  # an unknown attribute is unknown, not out of range
    check_gm_params(kind, given)
    return dict(given) | fill(sheet, given)


# --- applying a resolution ---------------------------------------------------------------------


def clamp_pool(pool: Pool, deltas: dict[str, int]) -> Pool:
    """The pool moved by the deltas, kept valid: no area below 0, no more locked dice than Lock
    slots (the excess goes to Fatigue, as a removed lock does), no more dice than the cap."""
    counts = {area: max(0, pool.count(area) + deltas.get(area, 0)) for area in AREAS}
    excess = max(0, counts["locked"] - pool.lock_slots)
    counts["locked"] -= excess
    counts["fatigue"] += excess
    overflow = sum(counts.values()) - MAX_POOL_DICE
    for area in LOSS_ORDER:
        taken = min(max(0, overflow), counts[area])
        counts[area] -= taken
        overflow -= taken
    return Pool(lock_slots=pool.lock_slots, **counts)


def lose_dice(pool: Pool, delta: int) -> Pool:
    """A permanent change of the number of dice: lost from LOSS_ORDER, gained into Stamina."""
    if delta >= 0:
        return clamp_pool(pool, {"stamina": delta})
    deltas: dict[str, int] = {}
    left = -delta
    for area in LOSS_ORDER:
        taken = min(left, pool.count(area))
        deltas[area] = -taken
        left -= taken
    return clamp_pool(pool, deltas)


def wound_of(resolution: Resolution) -> Wound | None:
    """The Wound a wound roll records (None for a resolution that is not one)."""
    if resolution.kind != "wound" or resolution.outcome not in SEVERITIES:
        return None
    try:
        return Wound(
            severity=resolution.outcome,
            defense=resolution.details.get("defense"),
            roll=resolution.scores.get("wound", 0),
            sessions=resolution.scores.get("sessions"),
        )
    except ValidationError:
        return None


def apply_resolution(sheet: Sheet, resolution: Resolution) -> SheetUpdate:
    deltas: dict[str, int] = {}
    lost = 0
    conditions: list[str] = list(sheet.conditions)
    wounds = list(sheet.wounds)
    dying = sheet.dying
    applied: list[StateChange] = []
    other: list[StateChange] = []
    for change in resolution.changes:
        head, _, rest = change.target.partition(".")
        if head == "momentum" and rest in AREAS and change.delta is not None:
            deltas[rest] = deltas.get(rest, 0) + change.delta
        elif change.target == "momentum.dice" and change.delta is not None:
            lost += change.delta
        elif head == "condition" and rest in OPPOSITE and change.set_to is not None:
            if change.set_to:
                conditions, _ = apply_conditions(conditions, [rest])
            elif rest in conditions:
                conditions.remove(rest)
        elif change.target == "wounds" and (wound := wound_of(resolution)) is not None:
            room = len(wounds) < WOUNDS.max
            wounds += [wound] if room else []
            note = change.note if room else f"no room: {WOUNDS.max} Wounds at most"
            applied.append(StateChange(target="wounds", delta=int(room), note=note))
        elif change.target == "death":
            dying = True
            applied.append(change)
        else:
            other.append(change)
    if resolution.kind == "momentum" and resolution.outcome == "short_rest":
        # "Short Rest: After every Encounter: Move all Momentum to Stamina; Flesh Wounds disappear"
        healed = [w for w in wounds if w.severity == "flesh"]
        if healed:
            wounds = [w for w in wounds if w.severity != "flesh"]
            applied.append(
                StateChange(target="wounds", delta=-len(healed), note="Flesh Wounds disappear")
            )
    moved = clamp_pool(sheet.momentum, deltas)
    pool = lose_dice(moved, lost) if lost else moved
    applied = pool_changes(sheet.momentum, moved) + _loss_changes(moved, pool) + applied
    applied += [
        StateChange(target=f"condition.{c}", set_to=0)
        for c in sheet.conditions
        if c not in conditions
    ]
    applied += [
        StateChange(target=f"condition.{c}", set_to=1)
        for c in conditions
        if c not in sheet.conditions
    ]
    new = sheet.model_copy(
        update={"momentum": pool, "conditions": conditions, "wounds": wounds, "dying": dying}
    )
    return SheetUpdate(sheet=new, applied=applied, other=other)


def _loss_changes(before: Pool, after: Pool) -> list[StateChange]:
    return [c.model_copy(update={"note": "permanently"}) for c in pool_changes(before, after)]


# --- tracks ------------------------------------------------------------------------------------

TRACK_TYPES = [
    TrackType(
        id="heart",
        name="Heart (10 Effort; the target's Hearts remaining are params.hearts)",
        target=HEART,
        hearts=True,
        citation=HEARTS,
    )
]


def progress_roll(
    sheet: Sheet, track_type: str, progress: int, given: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    if track_type not in {t.id for t in TRACK_TYPES}:
        raise UnknownError("track type", track_type, [t.id for t in TRACK_TYPES], "track_type")
    if not 0 <= progress < HEART:
        raise InvalidParameter(
            f"progress: a Heart holds 0 to {HEART - 1} Effort ({HEART} overcomes it); "
            f"got {progress}",
            "progress",
        )
    if "heart_effort" in given:
        raise InvalidParameter(
            "params.heart_effort comes from the track's progress", "params.heart_effort"
        )
    return "effort", roll_params(
        sheet, "effort", {"hearts": 1} | given | {"heart_effort": progress}
    )


# --- the rules object --------------------------------------------------------------------------


class GoForthSheetRules:
    """rules.sheets.SheetRules for Go Forth."""

    rest_kinds: list[RestKind] = REST_KINDS

    def rest(self, sheet: BaseModel, kind: str) -> SheetUpdate:
        s = as_sheet(sheet)
        short = None
        if kind == "short":
            from rules.registry import resolve_roll  # the system imports this module

            params = roll_params(s, "momentum", {"action": "short_rest"})
            short = self.apply(s, resolve_roll(SYSTEM_ID, "momentum", params, seed=0))
        return rest_update(s, kind, short)

    model: type[BaseModel] = Sheet
    gm_params: list[GmParam] = GM_PARAMS
    track_types: list[TrackType] = TRACK_TYPES

    def validate(self, data: dict[str, Any]) -> BaseModel:
        return validate_sheet(data)

    def roll_params(self, sheet: BaseModel, kind: str, given: dict[str, Any]) -> dict[str, Any]:
        return roll_params(as_sheet(sheet), kind, given)

    def apply(self, sheet: BaseModel, resolution: Resolution) -> SheetUpdate:
        return apply_resolution(as_sheet(sheet), resolution)

    def choices(self, kind: str, params: dict[str, Any], resolution: Resolution) -> list[Choice]:
        return choosing.choices(kind, params, resolution)

    def progress_roll(
        self, sheet: BaseModel, track_type: str, progress: int, given: dict[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        return progress_roll(as_sheet(sheet), track_type, progress, given)


SHEET_RULES = GoForthSheetRules()
