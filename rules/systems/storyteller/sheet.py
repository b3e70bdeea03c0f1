"""Storyteller character sheet (storyteller.txt, "Ratings", "Dice Pools", "Automatic Success",
"Extended Actions"): what a session keeps between turns, and how each roll kind reads and
changes it (the protocol is rules/sheets.py).

- ``Sheet``: a name, traits (attributes and abilities by name, 0-10 dots) and the meters Willpower,
  Rage and Gnosis (0-10). The text gives no starting ratings, so every default is the lowest.
- ``roll_params``: the player names the trait(s) (param ``traits``); the sheet gives the ``pool``.
  The character is the actor of simple, extended, resisted and extended_resisted; the first member
  of teamwork (the teammates' pools are given); every action of multiple. Spending willpower
  (param ``willpower``) needs a point on the sheet. ``table`` and ``expression`` take nothing.
- ``apply``: the character's willpower spent (``willpower``; ``member:1:willpower`` in teamwork);
  ``progress``, ``opponent_progress``, ``opponent_willpower`` and the other members' willpower
  go to ``other`` (the session's tracks and its non-player characters).
- ``choices``: one, in ``simple``: an automatic success may be declined, and the pool rolled
  (param ``decline_automatic``, more dice). No other kind leaves a decision after its roll:
  willpower is spent to "guarantee" a success, so it is declared with the roll, not after it;
  the split of a multiple action is declared before it ("The player first declares"); a botch,
  a tie, a teammate's botch are the storyteller's to narrate. Left out: the text lists
  "Spending Rage" and "Extra actions gained from Rage" but gives no cost, so a Rage action
  spends nothing here.
- ``gm_params``: the difficulty (2-10, proposed 6 "Standard"), whether the action is stressful,
  an extended action's goal, and the storyteller's characters' pools and difficulties.
- Track types: ``extended_action`` (kind ``extended``) and ``extended_contest`` (kind
  ``extended_resisted``), counted in successes; each action's goal is the storyteller's (``goal``).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, ValidationError, field_validator
from pydantic_core import ErrorDetails, PydanticCustomError

from rules.errors import InvalidParameter, RulesError, UnknownError
from rules.models import Citation, Frozen, Resolution, Ruling, StateChange
from rules.registry import get_system
from rules.sheets import Choice, ChoiceOption, GmParam, SheetUpdate, TrackType
from rules.systems.storyteller.pool import (
    MAX_DIFFICULTY,
    MAX_GOAL,
    MAX_POOL,
    MIN_DIFFICULTY,
    SOURCE,
    SYSTEM_ID,
)
from rules.systems.storyteller.rulings import AUTOMATIC, DIFFICULTY_LABELS, EXTENDED, RESISTED
from rules.systems.storyteller.traits import (
    MAX_POOL_TRAITS,
    MAX_RATING,
    METER_IDS,
    METERS,
    MIN_RATING,
    SOLE_POOL_TRAITS,
    Rating,
    TraitName,
    pool_of,
)

RATINGS = Citation(source=SOURCE, heading="Ratings")
DICE_POOLS = Citation(source=SOURCE, heading="Dice Pools")
_SPECS = {m.id: m for m in METERS}
STANDARD_DIFFICULTY = 6  # "6 | Standard (firing a gun)"


def _meter(meter_id: str) -> Any:
    spec = _SPECS[meter_id]
    start = spec.min if spec.start is None else spec.start
    return Field(
        start, ge=spec.min, le=spec.max, description=f"{spec.name}, {spec.min}..{spec.max}"
    )


class Sheet(Frozen):
    name: str = Field(min_length=1, max_length=100, description="the character's name")
    traits: dict[TraitName, Rating] = Field(
        default_factory=dict,
        max_length=100,
        description="attributes and abilities by name, with their dots "
        f"({MIN_RATING}..{MAX_RATING}): dexterity, athletics...",
    )
    willpower: int = _meter("willpower")
    rage: int = _meter("rage")
    gnosis: int = _meter("gnosis")

    @field_validator("traits")
    @classmethod
    def _meters_are_not_dotted(cls, traits: dict[str, int]) -> dict[str, int]:
        for name in traits:
            if name in METER_IDS:
                raise PydanticCustomError(
                    "meter_as_trait",
                    "{trait} is a meter of its own: set it as sheet.{trait}, not as a trait",
                    {"trait": name},
                )
        return traits

    def ratings(self) -> dict[str, int]:
        """Every trait a pool can be made of: the dotted ones and the 10-max ones."""
        return {**self.traits, **{m: getattr(self, m) for m in METER_IDS}}


# --- the readings of the text this sheet applies (each has a named test in test_sheet.py) -------

SHEET_RULINGS = [
    Ruling(
        id="sheet_trait_ratings",
        text=(
            f"A trait is rated {MIN_RATING} to {MAX_RATING} dots: 0 is the lowest row of the "
            "ratings table, ratings go above 5, and 10 is the only maximum the text names."
        ),
        quote=(
            "Ratings are often between 1-5, but there are exceptions. Werewolf transformations "
            "can push above 5 dots, for example."
        ),
        citation=RATINGS,
    ),
    Ruling(
        id="sheet_pool_from_traits",
        text=(
            f"A pool is made of 1 to {MAX_POOL_TRAITS} traits the player names (an attribute and "
            "an ability): the sum of their dots. Rage, Willpower or Gnosis among them makes the "
            "pool alone, from the sheet's current value; two of them are refused, and so is a "
            "pool of 0 dice (nothing to roll)."
        ),
        quote=(
            "You roll one die for each point in the required trait(s). If one of the traits has "
            "a maximum rating of 10 (Rage, Willpower, Gnosis) only that trait’s value is used "
            "for the dice pool."
        ),
        citation=DICE_POOLS,
    ),
    Ruling(
        id="sheet_willpower_declared_with_the_roll",
        text=(
            "Willpower is spent with the roll (param `willpower`), not offered after it: the "
            "point guarantees the success, so it is declared before the dice decide. It needs a "
            "point on the sheet, and spends it."
        ),
        quote="Players may spend a willpower point to guarantee a success on a roll",
        citation=AUTOMATIC,
    ),
    Ruling(
        id="sheet_decline_automatic_success",
        text=(
            "An automatic success is offered as a choice: keep it (one success), or decline it "
            "and roll the pool (param `decline_automatic`, more dice)."
        ),
        quote="A player may risk failure and not use an automatic success.",
        citation=AUTOMATIC,
    ),
    Ruling(
        id="sheet_extended_progress_in_successes",
        text=(
            "An extended action is a track counted in successes towards a goal the storyteller "
            "sets for that action; the session keeps it, the sheet does not."
        ),
        quote="it will take a collective 15 successes to break in.",
        citation=EXTENDED,
    ),
]

# --- what the storyteller sets -----------------------------------------------------------------

_DIFFICULTY_SCALE = "; ".join(f"{v} {label}" for v, label in DIFFICULTY_LABELS.items())
_ONE_DIFFICULTY = ["simple", "extended", "resisted", "extended_resisted", "teamwork"]

GM_PARAMS = [
    GmParam(
        param="difficulty",
        kinds=_ONE_DIFFICULTY,
        description=f"the difficulty the storyteller announces, usually 3..9: {_DIFFICULTY_SCALE}",
        default=STANDARD_DIFFICULTY,
        minimum=MIN_DIFFICULTY,
        maximum=MAX_DIFFICULTY,
    ),
    GmParam(
        param="actions.*.difficulty",
        kinds=["multiple"],
        description="each action's difficulty, raised for wildly disparate actions",
        default=STANDARD_DIFFICULTY,
        minimum=MIN_DIFFICULTY,
        maximum=MAX_DIFFICULTY,
    ),
    GmParam(
        param="stressful",
        kinds=["simple"],
        description="combat or another stressful situation: no automatic success",
        default=False,
        choices=[False, True],
    ),
    GmParam(
        param="goal",
        kinds=["extended", "extended_resisted"],
        description="the successes the action needs (the text's example: 15 to break in)",
        minimum=1,
        maximum=MAX_GOAL,
    ),
    GmParam(
        param="opponent_pool",
        kinds=["resisted", "extended_resisted"],
        description="the opposing character's dice pool",
        minimum=1,
        maximum=MAX_POOL,
    ),
    GmParam(
        param="opponent_difficulty",
        kinds=["resisted", "extended_resisted"],
        description="the opposing character's difficulty",
        default=STANDARD_DIFFICULTY,
        minimum=MIN_DIFFICULTY,
        maximum=MAX_DIFFICULTY,
    ),
    GmParam(
        param="members.*.pool",
        kinds=["teamwork"],
        description="each teammate's dice pool (the members after the character, who is first)",
        minimum=1,
        maximum=MAX_POOL,
    ),
]

TRACK_TYPES = [
    TrackType(id="extended_action", name="Extended action", citation=EXTENDED),
    TrackType(id="extended_contest", name="Extended resisted action", citation=RESISTED),
]
_TRACK_KINDS = {"extended_action": "extended", "extended_contest": "extended_resisted"}

# --- validating a sheet ------------------------------------------------------------------------


def _sheet_error(error: ErrorDetails) -> RulesError:
    loc = [str(p) for p in error["loc"]]
    where = ".".join(["sheet", *loc])
    if error["type"] == "extra_forbidden" and len(loc) == 1:
        return UnknownError("sheet field", loc[0], list(Sheet.model_fields), field=where)
    if loc[:1] == ["traits"] and len(loc) >= 2:
        if loc[-1] == "[key]":
            return InvalidParameter(
                f"trait name {loc[1]!r}: lowercase letters, digits and _ (e.g. 'dexterity')",
                f"sheet.traits.{loc[1]}",
            )
        allowed = f"a trait is rated {MIN_RATING}..{MAX_RATING} dots"
        return InvalidParameter(f"{where}: {error['msg']}; {allowed}", where)
    if loc and loc[0] in _SPECS:
        spec = _SPECS[loc[0]]
        allowed = f"{spec.name} is {spec.min}..{spec.max}"
        return InvalidParameter(f"{where}: {error['msg']}; {allowed}", where)
    trait = (error.get("ctx") or {}).get("trait")
    if trait:
        return InvalidParameter(error["msg"], f"sheet.traits.{trait}")
    return InvalidParameter(f"{where}: {error['msg']}", where)


def _own(sheet: BaseModel) -> Sheet:
    if not isinstance(sheet, Sheet):
        raise InvalidParameter("not a storyteller character sheet", "sheet")
    return sheet


# --- the pool from the sheet -------------------------------------------------------------------


def _with_pool(sheet: Sheet, entry: Any, where: str) -> dict[str, Any]:
    """``entry`` (the roll's or one member's or action's parameters) with its pool from the sheet;
    ``where`` is the entry's path in the params ("", "members.0.", "actions.1.")."""
    if not isinstance(entry, dict):
        raise InvalidParameter("expected an object of parameters", f"params.{where[:-1]}")
    if "pool" in entry:
        raise InvalidParameter(
            f"params.{where}pool comes from the character sheet: name the trait(s) in "
            f"params.{where}traits instead",
            f"params.{where}pool",
        )
    field = f"params.{where}traits"
    ratings = sheet.ratings()
    names = entry.get("traits")
    if (
        not isinstance(names, list)
        or not 1 <= len(names) <= MAX_POOL_TRAITS
        or not all(isinstance(n, str) for n in names)
    ):
        raise InvalidParameter(
            f"name 1 to {MAX_POOL_TRAITS} traits of the sheet the pool is made of, e.g. "
            f'["dexterity", "athletics"]; the sheet has: {", ".join(sorted(ratings))}',
            field,
        )
    if len(set(names)) != len(names):
        raise InvalidParameter("a trait counts once in a pool", field)
    for i, name in enumerate(names):
        if name not in ratings:
            raise UnknownError("trait", name, list(ratings), field=f"{field}.{i}")
    if len([n for n in names if n in SOLE_POOL_TRAITS]) > 1:
        raise InvalidParameter(
            f"{' and '.join(names)} each make a pool alone: name one of them", field
        )
    pool = pool_of(ratings, names)
    if pool < 1:
        raise InvalidParameter(f"{' + '.join(names)} make a pool of 0 dice: nothing to roll", field)
    if entry.get("willpower") is True and sheet.willpower < 1:
        raise InvalidParameter(
            "no willpower point to spend: sheet.willpower is 0", f"params.{where}willpower"
        )
    return {**entry, "traits": list(names), "pool": pool}


def _listed(given: dict[str, Any], key: str, what: str) -> list[Any]:
    entries = given.get(key)
    if not isinstance(entries, list) or not entries:
        raise InvalidParameter(f"params.{key}: {what}", f"params.{key}")
    return entries


def _teamwork(sheet: Sheet, given: dict[str, Any]) -> dict[str, Any]:
    members = _listed(
        given, "members", "the character first (its traits), then each teammate's pool"
    )
    return {**given, "members": [_with_pool(sheet, members[0], "members.0."), *members[1:]]}


def _multiple(sheet: Sheet, given: dict[str, Any]) -> dict[str, Any]:
    actions = _listed(given, "actions", "each action with its traits and difficulty")
    return {
        **given,
        "actions": [_with_pool(sheet, a, f"actions.{i}.") for i, a in enumerate(actions)],
    }


_ACTOR_KINDS = ("simple", "extended", "resisted", "extended_resisted")

# --- applying a resolution ---------------------------------------------------------------------


def _meter_of(target: str) -> str | None:
    """The sheet's meter a change's target names: the character's own, never an opponent's or a
    teammate's (in teamwork the character is member 1)."""
    if target in METER_IDS:
        return target
    return "willpower" if target == "member:1:willpower" else None


def _applied(change: StateChange, meter: str, before: int) -> StateChange:
    spec = _SPECS[meter]
    wanted = change.set_to if change.set_to is not None else before + (change.delta or 0)
    after = min(spec.max, max(spec.min, wanted))
    note = change.note
    if after != wanted:
        note = f"{note or meter}: kept within {spec.min}..{spec.max}"
    return StateChange(target=meter, delta=after - before, set_to=after, note=note)


class StorytellerSheetRules:
    model: type[BaseModel] = Sheet
    gm_params: list[GmParam] = GM_PARAMS
    track_types: list[TrackType] = TRACK_TYPES

    def validate(self, data: dict[str, Any]) -> BaseModel:
        if not isinstance(data, dict):
            raise InvalidParameter("a character sheet is a JSON object", "sheet")
        try:
            return Sheet.model_validate(data)
        except ValidationError as exc:
            raise _sheet_error(exc.errors()[0]) from None

    def roll_params(self, sheet: BaseModel, kind: str, given: dict[str, Any]) -> dict[str, Any]:
        own = _own(sheet)
        get_system(SYSTEM_ID).roll_kind(kind)  # an unknown kind: UnknownError naming "kind"
        if kind in _ACTOR_KINDS:
            return _with_pool(own, given, "")
        if kind == "teamwork":
            return _teamwork(own, given)
        if kind == "multiple":
            return _multiple(own, given)
        return dict(given)

    def apply(self, sheet: BaseModel, resolution: Resolution) -> SheetUpdate:
        own = _own(sheet)
        values = {m: getattr(own, m) for m in METER_IDS}
        applied: list[StateChange] = []
        other: list[StateChange] = []
        for change in resolution.changes:
            meter = _meter_of(change.target)
            if meter is None:
                other.append(change)
                continue
            done = _applied(change, meter, values[meter])
            values[meter] = values[meter] + (done.delta or 0)
            applied.append(done)
        return SheetUpdate(sheet=own.model_copy(update=values), applied=applied, other=other)

    def choices(self, kind: str, params: dict[str, Any], resolution: Resolution) -> list[Choice]:
        if kind != "simple" or "decline_automatic" in params:
            return []
        if resolution.details.get("automatic") is not True:
            return []
        return [
            Choice(
                param="decline_automatic",
                prompt=(
                    "The pool is at least the difficulty: the action succeeds automatically, "
                    "with a single success. Take it, or risk failure and roll for more?"
                ),
                options=[
                    ChoiceOption(value=False, label="the character succeeds automatically"),
                    ChoiceOption(value=True, label="risk failure and not use an automatic success"),
                ],
                citation=AUTOMATIC,
                extra_dice=True,
            )
        ]

    def progress_roll(
        self, sheet: BaseModel, track_type: str, progress: int, given: dict[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        if track_type not in _TRACK_KINDS:
            raise UnknownError("track type", track_type, list(_TRACK_KINDS), field="track_type")
        if not 0 <= progress <= MAX_GOAL:
            raise InvalidParameter(f"progress is counted in successes, 0..{MAX_GOAL}", "progress")
        if "accumulated" in given:
            raise InvalidParameter(
                "params.accumulated comes from the track's progress", "params.accumulated"
            )
        kind = _TRACK_KINDS[track_type]
        return kind, self.roll_params(sheet, kind, {**given, "accumulated": progress})


SHEET_RULES = StorytellerSheetRules()
