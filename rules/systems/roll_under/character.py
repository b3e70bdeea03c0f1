"""roll_under: the character sheet's model (roll_under.md, "Playing the Game"), validated.

The Abilities Brawn, Finesse and Intellect (0-20, with the maximum lost points heal back to); HP
and its maximum ("restores all lost HP"); Armor; a shield; weapons (damage die, piercing, blast);
Fatigue; conditions; scars. The text gives no starting Abilities or HP (character creation is not
part of it), so those are required; the rest starts empty. ``dead``, ``limbs_useless`` and
``madness`` follow Brawn, Finesse and Intellect at 0. ``validate`` turns pydantic's errors into
rules errors naming ``sheet.<field>``.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from rules.errors import InvalidParameter, RulesError, UnknownError
from rules.models import Frozen
from rules.systems.roll_under.damage import (
    ARMOR_MAX,
    FATIGUE_MAX,
    HP_MAX,
    METERS,
    UNCONSCIOUS,
    ZERO_EFFECTS,
)
from rules.systems.roll_under.saves import ABILITIES, NAME_PATTERN, SCORE_MAX

ENGINE_NAME = "character"  # the character's name in the engine when its own does not fit
_NAME_MAX = 40  # the engine's longest participant name
_METER = {m.id: m for m in METERS}

# Conditions by id, in the order a sheet lists them. The first three follow an Ability at 0.
ZERO_CONDITIONS = {"brawn": "dead", "finesse": "limbs_useless", "intellect": "madness"}
CONDITIONS = {
    "dead": "Brawn is zero: the character dies",
    "limbs_useless": "Finesse is zero: the character can no longer make use of their limbs",
    "madness": "Intellect is zero: stricken with madness; the GM might determine their actions",
    "unconscious": "a Critical Injury: " + UNCONSCIOUS,
    "deprived": "deprived of a crucial need: cannot heal HP or Ability scores",
}
STATUS_CONDITIONS = {
    UNCONSCIOUS: "unconscious",
    **{ZERO_EFFECTS[a]: c for a, c in ZERO_CONDITIONS.items()},
}

Score = Annotated[int, Field(ge=0, le=SCORE_MAX)]


def _meter(meter_id: str, what: str = "", **kwargs: Any) -> Any:
    spec = _METER[meter_id]
    described = f"{what or spec.name}, {spec.min}..{spec.max}"
    return Field(ge=spec.min, le=spec.max, description=described, **kwargs)


class Weapon(Frozen):
    name: str = Field(min_length=1, max_length=_NAME_MAX, description="how the player names it")
    die: Literal[4, 6, 8, 10, 12] = Field(description="its damage die: 4, 6, 8, 10 or 12")
    piercing: int = Field(0, ge=0, le=ARMOR_MAX, description="armour points it ignores")
    blast: bool = Field(False, description="affects all targets in a zone")
    ignores_armor: bool = Field(False, description="e.g. a burning attack")


def _maxima_optional(schema: dict[str, Any]) -> None:
    """The maxima default to the current values (a validator fills them): not required."""
    schema["required"] = [f for f in schema.get("required", []) if not f.startswith("max_")]


# What the schema says of the abilities: each one, by name (the engine's list).
_ABILITY_KEYS: dict[str, Any] = {"required": ABILITIES, "propertyNames": {"enum": ABILITIES}}


class Sheet(Frozen):
    model_config = ConfigDict(json_schema_extra=_maxima_optional)

    name: str = Field(min_length=1, max_length=100, description="the character's name")
    abilities: dict[str, Score] = Field(
        description=f"the current scores, 0..{SCORE_MAX}: brawn, finesse and intellect",
        json_schema_extra=_ABILITY_KEYS,
    )
    max_abilities: dict[str, Score] = Field(
        description="the scores lost points heal back to (default: the current scores)",
        json_schema_extra=_ABILITY_KEYS,
    )
    hp: int = _meter("hp")
    max_hp: int = _meter("hp", "the HP rest restores (default: hp)")
    armor: int = Field(0, ge=0, le=ARMOR_MAX, description=f"Armor, 0..{ARMOR_MAX}")
    shield: bool = Field(False, description="a shield equipped (it may be sundered)")
    weapons: list[Weapon] = Field(default_factory=list, max_length=10)
    fatigue: int = _meter("fatigue", default=_METER["fatigue"].start)
    conditions: list[str] = Field(
        default_factory=list,
        validate_default=True,  # an Ability at 0 adds its condition to an empty list too
        description=f"any of: {', '.join(CONDITIONS)}",
        json_schema_extra={"items": {"enum": list(CONDITIONS)}, "uniqueItems": True},
    )
    scars: list[Annotated[str, Field(min_length=1, max_length=200)]] = Field(
        default_factory=list, max_length=50, description="each time HP fell to exactly zero"
    )

    @model_validator(mode="before")
    @classmethod
    def _maxima_default_to_current(cls, data: Any) -> Any:
        if isinstance(data, dict):
            if "max_abilities" not in data and "abilities" in data:
                data = {**data, "max_abilities": data["abilities"]}
            if "max_hp" not in data and "hp" in data:
                data = {**data, "max_hp": data["hp"]}
        return data

    @field_validator("abilities", "max_abilities")
    @classmethod
    def _every_ability(cls, scores: dict[str, int]) -> dict[str, int]:
        for name in scores:
            if name not in ABILITIES:
                raise PydanticCustomError("unknown_ability", "unknown ability", {"value": name})
        for name in ABILITIES:
            if name not in scores:
                raise PydanticCustomError(
                    "missing_ability", "missing: every Ability needs a score", {"ability": name}
                )
        return {a: scores[a] for a in ABILITIES}

    @field_validator("weapons")
    @classmethod
    def _weapon_names_differ(cls, weapons: list[Weapon]) -> list[Weapon]:
        names = [w.name for w in weapons]
        for i, name in enumerate(names):
            if name in names[:i]:
                raise PydanticCustomError(
                    "duplicate_weapon", "'{value}' is given twice", {"value": name, "at": i}
                )
        return weapons

    @field_validator("conditions")
    @classmethod
    def _known_conditions(cls, conditions: list[str], info: ValidationInfo) -> list[str]:
        for i, name in enumerate(conditions):
            if name not in CONDITIONS:
                raise PydanticCustomError("unknown_condition", "unknown", {"value": name, "at": i})
            if name in conditions[:i]:
                raise PydanticCustomError(
                    "duplicate_condition", "'{value}' is given twice", {"value": name, "at": i}
                )
        listed = set(conditions)
        abilities: dict[str, int] | None = info.data.get("abilities")
        if abilities is not None:
            for ability, condition in ZERO_CONDITIONS.items():
                at_zero = abilities[ability] == 0
                if condition in listed and not at_zero:
                    raise PydanticCustomError(
                        "condition_without_zero",
                        "'{value}' lasts until {ability} is restored, and it is "
                        "{score}: remove '{value}' or set {ability} to 0",
                        {
                            "value": condition,
                            "at": conditions.index(condition),
                            "ability": ability,
                            "score": abilities[ability],
                        },
                    )
                if at_zero:
                    listed.add(condition)  # an Ability at 0 always shows its effect
        return [c for c in CONDITIONS if c in listed]

    @model_validator(mode="after")
    def _within_maxima(self) -> Sheet:
        for ability in ABILITIES:
            if self.abilities[ability] > self.max_abilities[ability]:
                raise PydanticCustomError(
                    "above_max",
                    "{value} is above max_abilities.{ability} ({max})",
                    {
                        "field": f"abilities.{ability}",
                        "value": self.abilities[ability],
                        "ability": ability,
                        "max": self.max_abilities[ability],
                    },
                )
        if self.hp > self.max_hp:
            raise PydanticCustomError(
                "above_max",
                "{value} is above max_hp ({max})",
                {"field": "hp", "value": self.hp, "max": self.max_hp},
            )
        return self

    def weapon(self, name: str, field: str) -> Weapon:
        for weapon in self.weapons:
            if weapon.name == name:
                return weapon
        raise UnknownError("weapon", name, [w.name for w in self.weapons], field=field)

    @property
    def engine_name(self) -> str:
        """The name the character goes by in the engine's params (it allows fewer letters)."""
        fits = len(self.name) <= _NAME_MAX and re.fullmatch(NAME_PATTERN, self.name)
        return self.name if fits else ENGINE_NAME


# --- validating a sheet ------------------------------------------------------------------------

_ALLOWED = {
    "abilities": f"an Ability score is 0..{SCORE_MAX}: brawn, finesse, intellect",
    "max_abilities": f"an Ability score is 0..{SCORE_MAX}: brawn, finesse, intellect",
    "hp": f"HP is 0..{HP_MAX}; the text gives no starting HP, so the sheet says it",
    "max_hp": f"HP is 0..{HP_MAX}",
    "armor": f"Armor is 0..{ARMOR_MAX}",
    "fatigue": f"Fatigue is 0..{FATIGUE_MAX}",
    "weapons": f"a weapon is a name, a die (4, 6, 8, 10 or 12), piercing 0..{ARMOR_MAX}, blast, "
    "ignores_armor",
    "conditions": f"conditions are: {', '.join(CONDITIONS)}",
}


def _sheet_error(error: ErrorDetails) -> RulesError:
    loc = [str(p) for p in error["loc"]]
    ctx: dict[str, Any] = dict(error.get("ctx") or {})
    kind = error["type"]
    if kind == "extra_forbidden" and len(loc) == 1:
        return UnknownError(
            "sheet field", loc[0], list(Sheet.model_fields), field=f"sheet.{loc[0]}"
        )
    if kind == "unknown_ability":
        field = f"sheet.{loc[0]}.{ctx['value']}"
        return UnknownError("ability", ctx["value"], ABILITIES, field=field)
    if kind == "unknown_condition":
        field = f"sheet.conditions.{ctx['at']}"
        return UnknownError("condition", ctx["value"], list(CONDITIONS), field=field)
    if "field" in ctx:  # a check across fields names the one to fix
        loc = str(ctx["field"]).split(".")
    elif "at" in ctx:  # a check of a whole list names the entry
        loc = [*loc, str(ctx["at"]), *(["name"] if loc == ["weapons"] else [])]
    elif "ability" in ctx:  # a missing key of the abilities
        loc = [*loc, str(ctx["ability"])]
    where = ".".join(["sheet", *loc])
    allowed = _ALLOWED.get(loc[0]) if loc else None
    message = f"{where}: {error['msg']}" + (f"; {allowed}" if allowed else "")
    return InvalidParameter(message, where)


def own(sheet: BaseModel) -> Sheet:
    """The sheet as this system's (a session passes it as a plain BaseModel)."""
    if not isinstance(sheet, Sheet):
        raise InvalidParameter("not a roll_under character sheet", "sheet")
    return sheet


def validate(data: Any) -> Sheet:
    if not isinstance(data, dict):
        raise InvalidParameter("a character sheet is a JSON object", "sheet")
    try:
        return Sheet.model_validate(data)
    except ValidationError as exc:
        raise _sheet_error(exc.errors()[0]) from None
