"""Go Forth: the parameters a GM sets, proposed with a roll for the player to see.

Source: go_forth.txt ("Resolution > Encounter Target Numbers (TN)", "Easy vs Hard", "Attributes",
"Checks, Effort & Contests", "Wounds", "Combat > Effort > Variations").

"The GM sets a baseline TN for the scene" (or rolls it from the encounter's difficulty), "The GM
tells you which attribute applies", "The GM calls for Easy or Hard based on the fiction"; the GM
also runs the opponent of a contest, the attack that dropped the hero (its Defense), and the
target's Hearts and their variations. The TN's range is the Encounter TN table's span (10 to 34);
where the text gives no range, the engine's parameter range.
"""

from __future__ import annotations

from typing import Any, get_args

from pydantic import BaseModel

from rules.errors import InvalidParameter
from rules.sheets import GmParam
from rules.systems.go_forth.checks import (
    EXTREME_DICE,
    TN_DICE,
    ContestParams,
    Difficulty,
    EffortParams,
    ExtremeDice,
)
from rules.systems.go_forth.wounds import ATTRIBUTES, DEFENSE_ATTRIBUTES

VERY_EASY_TN = 10  # "Very Easy TN 10": every Encounter TN is 10 + its dice
HIGHEST_TN = VERY_EASY_TN + max(n * s for n, s in [*TN_DICE.values(), *EXTREME_DICE.values()])
CHECK_KINDS = ["check", "effort"]


def bound(model: type[BaseModel], name: str, which: str) -> int:
    """A bound of an engine parameter (the GM's range is the engine's where the text has none)."""
    for constraint in model.model_fields[name].metadata:
        if hasattr(constraint, which):
            return int(getattr(constraint, which))
    raise ValueError(f"{model.__name__}.{name} has no {which} bound")


GM_PARAMS = [
    GmParam(
        param="attribute",
        kinds=["check", "effort", "contest"],
        description="the attribute the GM calls: 'The GM tells you which attribute applies'",
        choices=list(ATTRIBUTES),
    ),
    GmParam(
        param="tn",
        kinds=CHECK_KINDS,
        description="the Encounter TN the GM set for the scene, or a creature's or hazard's "
        "unique TN (give this or difficulty)",
        minimum=VERY_EASY_TN,
        maximum=HIGHEST_TN,
    ),
    GmParam(
        param="difficulty",
        kinds=[*CHECK_KINDS, "encounter_tn"],
        description="roll the Encounter TN: Very Easy 10, Easy 10+1d4, Common 10+1d6, "
        "Challenge 10+1d8, Extreme 10+2d4/2d6/2d8, Doom 10+2d12",
        choices=list(get_args(Difficulty)),
    ),
    GmParam(
        param="extreme_dice",
        kinds=[*CHECK_KINDS, "encounter_tn"],
        description="Extreme only: 10 + 2d4, 2d6 or 2d8 (2d6 when not given)",
        choices=list(get_args(ExtremeDice)),
    ),
    GmParam(
        param="easy",
        kinds=CHECK_KINDS,
        description="1 when the GM calls the roll Easy (TN -3); Easy and Hard do not stack and "
        "offset each other",
        default=0,
        minimum=0,
        maximum=1,
    ),
    GmParam(
        param="hard",
        kinds=CHECK_KINDS,
        description="1 when the GM calls the roll Hard (TN +3)",
        default=0,
        minimum=0,
        maximum=1,
    ),
    GmParam(
        param="opponent_bonus",
        kinds=["contest"],
        description="the opposing character's +Roll",
        default=0,
        minimum=bound(ContestParams, "opponent_bonus", "ge"),
        maximum=bound(ContestParams, "opponent_bonus", "le"),
    ),
    GmParam(
        param="defense",
        kinds=["wound"],
        description="the Defense that dropped the hero (Body, Mind or Soul)",
        choices=list(DEFENSE_ATTRIBUTES),
    ),
    GmParam(
        param="hearts",
        kinds=["effort"],
        description="the target's Hearts remaining (each Heart = 10 Effort)",
        minimum=1,
        maximum=bound(EffortParams, "hearts", "le"),
    ),
    GmParam(
        param="fortified",
        kinds=["effort"],
        description="Fortified Hearts: require 10+ Effort in a single strike",
        default=False,
        choices=[False, True],
    ),
    GmParam(
        param="shield",
        kinds=["effort"],
        description="Shields: flat Effort reduction per check/attack",
        default=0,
        minimum=0,
        maximum=bound(EffortParams, "shield", "le"),
    ),
    GmParam(
        param="breaking_point",
        kinds=["effort"],
        description="Breaking Point: this much Effort in one action overcomes every Heart",
        minimum=1,
        maximum=bound(EffortParams, "breaking_point", "le"),
    ),
]


def check_gm_params(kind: str, given: dict[str, Any]) -> None:
    for gm in GM_PARAMS:
        value = given.get(gm.param)
        if kind not in gm.kinds or value is None:
            continue
        if gm.choices is not None and value not in gm.choices:
            raise InvalidParameter(
                f"params.{gm.param}: {value!r} is not one of {gm.choices} ({gm.description})",
                f"params.{gm.param}",
            )
        if gm.minimum is not None and gm.maximum is not None:
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidParameter(f"params.{gm.param} must be a number", f"params.{gm.param}")
            if not gm.minimum <= value <= gm.maximum:
                raise InvalidParameter(
                    f"params.{gm.param} must be between {gm.minimum} and {gm.maximum} "
                    f"({gm.description}); got {value}",
                    f"params.{gm.param}",
                )
