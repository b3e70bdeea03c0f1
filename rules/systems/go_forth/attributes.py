"""Go Forth: attributes and their +Roll / +Effort split.

Source: go_forth.txt, "Attributes" and "Checks, Effort & Contests > Roll vs Effort Bonus".
Rulings are declared in system.py.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from rules.dice import DiceSource
from rules.errors import InvalidParameter
from rules.models import Resolution
from rules.systems.go_forth.momentum import cite
from rules.systems.go_forth.wounds import ATTRIBUTES, Attribute

FIRST_LEVEL_CAP = 5
SPLIT = cite("Checks, Effort & Contests > Roll vs Effort Bonus")


class Split(BaseModel):
    model_config = ConfigDict(extra="forbid")
    score: int = Field(ge=-3, le=10)
    roll: int | None = Field(None, ge=-3, le=20, description="+Roll (default: the score)")
    effort: int | None = Field(None, ge=-3, le=20, description="+Effort (default: the score)")


class AttributesParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    attributes: dict[Attribute, Split] = Field(min_length=1)
    level: int = Field(1, ge=1, le=20)


# --- attributes --------------------------------------------------------------------------------


def split_attribute(name: str, split: Split, level: int) -> tuple[int, int, list[str]]:
    """Validate one attribute's +Roll/+Effort split: (roll, effort, rulings applied)."""
    field = f"params.attributes.{name}"
    score = split.score
    roll = (
        split.roll
        if split.roll is not None
        else (2 * score - split.effort if split.effort is not None else score)
    )
    effort = split.effort if split.effort is not None else 2 * score - roll
    rulings: list[str] = []
    if roll + effort != 2 * score:
        raise InvalidParameter(
            f"{field}: {name} {score:+d} splits into Roll and Effort that add up to {2 * score:+d} "
            f"(each point taken from one goes to the other); {roll:+d} Roll needs "
            f"{2 * score - roll:+d} Effort",
            f"{field}.effort",
        )
    if score < 0 and (roll != score or effort != score):
        bad = "roll" if roll != score else "effort"
        raise InvalidParameter(
            f"{field}: a negative attribute cannot be split: {name} {score:+d} is "
            f"{score:+d} Roll / {score:+d} Effort",
            f"{field}.{bad}",
        )
    if score < 0:
        rulings.append("negative_attribute_no_split")
    for part, value in (("roll", roll), ("effort", effort)):
        if score >= 0 and value < 0:
            raise InvalidParameter(
                f"{field}.{part}: a split cannot take {part} below 0 ({value:+d}; ruling "
                "split_not_below_zero)",
                f"{field}.{part}",
            )
        if level == 1 and value > FIRST_LEVEL_CAP:
            raise InvalidParameter(
                f"{field}.{part}: neither Roll nor Effort can exceed +{FIRST_LEVEL_CAP} at first "
                f"level ({value:+d})",
                f"{field}.{part}",
            )
    if level > 1 and max(roll, effort) > FIRST_LEVEL_CAP:
        rulings.append("split_cap_first_level")
    return roll, effort, rulings


def resolve_attributes(params: AttributesParams, source: DiceSource) -> Resolution:
    scores: dict[str, int] = {}
    rulings: list[str] = []
    sheet = {}
    for name in ATTRIBUTES:
        if name not in params.attributes:
            continue
        split = params.attributes[name]
        roll, effort, more = split_attribute(name, split, params.level)
        rulings += [r for r in more if r not in rulings]
        scores |= {f"{name}_roll": roll, f"{name}_effort": effort}
        sheet[name] = {"score": split.score, "roll": roll, "effort": effort}
    return Resolution(
        outcome="valid",
        scores=scores,
        citation=SPLIT,
        rulings=rulings,
        details={"attributes": sheet, "level": params.level},
    )
