"""Go Forth: Wounds (severity roll, defense wound tables) and Conditions (opposite pairs cancel).

Source: go_forth.txt, "Momentum > Wounds" and "Conditions". The tables are data
(rules/data/go_forth/tables.yaml: severity, wound_body, wound_mind, wound_soul).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.catalog import load_tables
from rules.dice import DiceSource
from rules.errors import InvalidParameter
from rules.models import Resolution, StateChange
from rules.systems.go_forth.momentum import cite

SYSTEM_ID = "go_forth"
Attribute = Literal[
    "might", "agility", "finesse", "instinct", "reason", "vigor", "presence", "guile"
]
ATTRIBUTES: tuple[Attribute, ...] = (
    "might",
    "agility",
    "finesse",
    "instinct",
    "reason",
    "vigor",
    "presence",
    "guile",
)
Defense = Literal["body", "mind", "soul"]
# "Body: Might + Agility / Mind: Instinct + Reason / Soul: Presence + Vigor"
DEFENSE_ATTRIBUTES: dict[str, tuple[Attribute, Attribute]] = {
    "body": ("might", "agility"),
    "mind": ("instinct", "reason"),
    "soul": ("presence", "vigor"),
}
WOUND_PENALTY = 5
SEVERITIES = ("death", "permanent", "vicious", "shallow", "flesh")  # the severity rows, in order

# --- conditions --------------------------------------------------------------------------------

Condition = Literal[
    "bolstered",
    "shaken",
    "empowered",
    "weakened",
    "favored",
    "hindered",
    "focused",
    "dazed",
    "mobile",
    "trapped",
    "protected",
    "vulnerable",
]
PAIRS = (
    ("bolstered", "shaken"),
    ("empowered", "weakened"),
    ("favored", "hindered"),
    ("focused", "dazed"),
    ("mobile", "trapped"),
    ("protected", "vulnerable"),
)
OPPOSITE = {a: b for a, b in PAIRS} | {b: a for a, b in PAIRS}
POSITIVE = frozenset(a for a, _ in PAIRS)


def apply_conditions(current: list[str], added: list[str]) -> tuple[list[str], list[str]]:
    """Add conditions one by one; each added condition removes its opposite (both gone).

    Returns (conditions held after, conditions cancelled). A condition already held is held once.
    """
    held = list(dict.fromkeys(current))
    cancelled: list[str] = []
    # Opposites already held together cancel first ("Opposites don't coexist").
    for name in list(held):
        if name in held and OPPOSITE[name] in held:
            held.remove(name)
            held.remove(OPPOSITE[name])
            cancelled += [name, OPPOSITE[name]]
    for name in added:
        if OPPOSITE[name] in held:
            held.remove(OPPOSITE[name])
            cancelled += [OPPOSITE[name], name]
        elif name not in held:
            held.append(name)
    return held, cancelled


class ConditionsParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    current: list[Condition] = Field(default_factory=list, max_length=24)
    add: list[Condition] = Field(default_factory=list, max_length=24)


def resolve_conditions(params: ConditionsParams, source: DiceSource) -> Resolution:
    held, cancelled = apply_conditions(list(params.current), list(params.add))
    before = set(params.current)
    changes = [StateChange(target=f"condition.{c}", set_to=0) for c in sorted(before - set(held))]
    changes += [StateChange(target=f"condition.{c}", set_to=1) for c in held if c not in before]
    return Resolution(
        outcome="cancelled" if cancelled else "unchanged" if set(held) == before else "added",
        changes=changes,
        citation=cite("Conditions"),
        rulings=["conditions_held_once"]
        if len(set(params.current)) < len(params.current) or set(params.current) & set(params.add)
        else [],
        details={
            "conditions": held,
            "cancelled": cancelled,
            "positive": [c for c in held if c in POSITIVE],
            "negative": [c for c in held if c not in POSITIVE],
        },
    )


# --- wounds ------------------------------------------------------------------------------------


class WoundParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    defense: Defense = Field(description="the Defense that dropped you")
    attributes: dict[Attribute, int] = Field(
        description="attribute scores; the two of that Defense are needed "
        "(Body: might+agility, Mind: instinct+reason, Soul: presence+vigor)",
    )
    existing_wounds: int = Field(0, ge=0, le=10, description="Wounds already taken (-5 each)")


def severity_of(value: int) -> tuple[int, str]:
    """Clamp a severity value into the table's span and name its row."""
    table = load_tables(SYSTEM_ID)["severity"]
    low, high = table.value_range
    clamped = max(low, min(high, value))
    return clamped, SEVERITIES[table.rows.index(table.row_for(clamped))]


def resolve_wound(params: WoundParams, source: DiceSource) -> Resolution:
    tables = load_tables(SYSTEM_ID)
    first, second = DEFENSE_ATTRIBUTES[params.defense]
    for name in (first, second):
        if name not in params.attributes:
            raise InvalidParameter(
                f"params.attributes.{name} is needed: a {params.defense.title()} wound adds "
                f"{first} + {second}",
                f"params.attributes.{name}",
            )
        if not -5 <= params.attributes[name] <= 10:
            raise InvalidParameter(
                f"params.attributes.{name} must be between -5 and 10", f"params.attributes.{name}"
            )
    severity_die = source.roll(20, "severity")
    penalty = WOUND_PENALTY * params.existing_wounds
    value = severity_die.value + params.attributes[first] + params.attributes[second] - penalty
    clamped, severity = severity_of(value)
    rulings = []
    if value == -6:
        rulings.append("severity_minus_six")
    if clamped != value:
        rulings.append("severity_clamp")
    severity_row = tables["severity"].row_for(clamped)
    wound_table = tables[f"wound_{params.defense}"]
    wound_die = source.roll(8, f"table:{wound_table.id}")
    wound_row = wound_table.row_for(wound_die.value)
    dice = [severity_die, wound_die]
    scores = {
        "severity": value,
        "severity_row": clamped,
        "penalty": penalty,
        "wound": wound_die.value,
    }
    if severity == "death":
        rulings.append("death_still_rolls_wound")
    changes = [StateChange(target="wounds", delta=1, note=f"{severity_row.text}: {wound_row.text}")]
    if severity == "vicious":
        duration = source.roll(4, "duration")
        dice.append(duration)
        scores["sessions"] = duration.value
    if severity == "death":
        changes.append(StateChange(target="death", note="at end of encounter"))
    if wound_die.value == 1:
        condition = wound_row.text.split()[0].lower()
        changes.append(StateChange(target=f"condition.{condition}", set_to=1))
    if params.defense == "soul" and wound_die.value == 8:
        changes.append(StateChange(target="momentum.dice", delta=-1, note="permanently"))
    return Resolution(
        outcome=severity,
        text=f"{severity_row.text}; {wound_row.text}",
        scores=scores,
        dice=dice,
        changes=changes,
        citation=cite("Momentum > Wounds"),
        rulings=rulings,
        details={
            "severity": severity_row.text,
            "wound": wound_row.text,
            "attributes": [first, second],
            "defense": params.defense,
        },
    )
