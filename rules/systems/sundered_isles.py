"""Sundered Isles (Ironsworn: Starforged family).

Source: sundered_isles.md (Sundered Isles moves reference, Shawn Tomkin, CC BY 4.0), completed
where the text defers to the Starforged rulebook by the published Starforged core rules.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.dice import DiceSource
from rules.ironsworn import (
    ACTION_SCORE_CAP,
    MOMENTUM_MAX,
    MOMENTUM_MIN,
    is_match,
    is_oracle_match,
    momentum_reset,
    outcome_band,
)
from rules.models import Citation, Resolution, Ruling, StateChange
from rules.registry import MeterSpec, RollKind, build_system

SOURCE = "sundered_isles.md"
STATS = ["edge", "heart", "iron", "shadow", "wits"]
METERS = [
    MeterSpec(id="health", name="Health", min=0, max=5, start=5),
    MeterSpec(id="spirit", name="Spirit", min=0, max=5, start=5),
    MeterSpec(id="supply", name="Supply", min=0, max=5, start=5),
    MeterSpec(
        id="momentum",
        name="Momentum",
        min=MOMENTUM_MIN,
        max=MOMENTUM_MAX,
        start=2,
        note="max is 10 less 1 per impact; reset +2, +1 with one impact, 0 with more",
    ),
]


def _cite(heading: str) -> Citation:
    return Citation(source=SOURCE, heading=heading)


QUICK_REFERENCE = _cite("QUICK REFERENCE")

# --- rulings -----------------------------------------------------------------------------------

RULINGS = [
    Ruling(
        id="action_score_cap",
        text="The action score (action die + stat + adds) is capped at 10 (Starforged core rule).",
        quote="For most action rolls, your action die + stat + adds is your final action score.",
        citation=QUICK_REFERENCE,
    ),
    Ruling(
        id="negative_momentum_cancels_action_die",
        text=(
            "With negative momentum, an action die equal to its absolute value is cancelled: the "
            "action score is then stat + adds only (Starforged core rule). Progress rolls ignore it."
        ),
        quote="You may not burn momentum on a progress move and are not affected by negative momentum.",
        citation=QUICK_REFERENCE,
    ),
    Ruling(
        id="burn_momentum",
        text=(
            "Burning momentum replaces the action score with momentum (only when momentum is "
            "positive and would beat more challenge dice), then momentum resets to its reset value. "
            "The cap of 10 does not apply to burned momentum. Not allowed on progress rolls."
        ),
        quote="You may not burn momentum on a progress move",
        citation=QUICK_REFERENCE,
    ),
    Ruling(
        id="oracle_match",
        text="A yes/no oracle roll of 11, 22, 33, ... 99 or 100 is a match (Starforged core rule).",
        quote="A match on your oracle dice when rolling on the yes/no table indicates an extreme "
        "result, interesting twist, or dramatic complication.",
        citation=_cite("FATE MOVES"),
    ),
]

# --- parameters --------------------------------------------------------------------------------

Rollable = Literal["edge", "heart", "iron", "shadow", "wits", "health", "spirit", "supply"]


class ActionParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    stat: Rollable = Field(description="the stat or meter rolled with")
    stat_value: int = Field(ge=0, le=5, description="its current value")
    adds: int = Field(0, ge=0, le=10, description="every +x added to this roll")
    momentum: int = Field(2, ge=MOMENTUM_MIN, le=MOMENTUM_MAX)
    impacts: int = Field(0, ge=0, le=10, description="impacts marked (sets the momentum reset)")
    burn_momentum: bool = Field(
        False, description="burn momentum if that improves the outcome (only ever improves it)"
    )


class OracleParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    odds: Literal["small_chance", "unlikely", "50_50", "likely", "almost_certain"] = "50_50"


ODDS = {"small_chance": 10, "unlikely": 25, "50_50": 50, "likely": 75, "almost_certain": 90}

# --- resolvers ---------------------------------------------------------------------------------


def resolve_action(params: ActionParams, source: DiceSource) -> Resolution:
    action = source.roll(6, "action")
    challenge_dice = [source.roll(10, "challenge"), source.roll(10, "challenge")]
    challenge = (challenge_dice[0].value, challenge_dice[1].value)
    rulings: list[str] = []
    cancelled = params.momentum < 0 and action.value == -params.momentum
    if cancelled:
        action = action.model_copy(update={"cancelled": True})
        rulings.append("negative_momentum_cancels_action_die")
    raw = (0 if cancelled else action.value) + params.stat_value + params.adds
    score = min(ACTION_SCORE_CAP, raw)
    if score < raw:
        rulings.append("action_score_cap")
    band = outcome_band(score, challenge)
    changes: list[StateChange] = []
    burned = False
    if params.burn_momentum and params.momentum > 0:
        burn_band = outcome_band(params.momentum, challenge)
        if _rank(burn_band) > _rank(band):
            burned = True
            band = burn_band
            reset = momentum_reset(params.impacts)
            changes.append(
                StateChange(
                    target="momentum",
                    set_to=reset,
                    delta=reset - params.momentum,
                    note="momentum burned",
                )
            )
            rulings.append("burn_momentum")
    return Resolution(
        outcome=band,
        match=is_match(challenge),
        scores={
            "action_score": score,
            "momentum": params.momentum,
            "challenge_1": challenge[0],
            "challenge_2": challenge[1],
        },
        dice=[action, *challenge_dice],
        changes=changes,
        citation=QUICK_REFERENCE,
        rulings=rulings,
        details={
            "burned_momentum": burned,
            "burn_would_improve": (
                not burned
                and params.momentum > 0
                and _rank(outcome_band(params.momentum, challenge)) > _rank(band)
            ),
        },
    )


def _rank(band: str) -> int:
    return ("miss", "weak_hit", "strong_hit").index(band)


def resolve_oracle(params: OracleParams, source: DiceSource) -> Resolution:
    die = source.roll(100, "oracle")
    threshold = ODDS[params.odds]
    return Resolution(
        outcome="yes" if die.value <= threshold else "no",
        match=is_oracle_match(die.value),
        scores={"roll": die.value, "threshold": threshold},
        dice=[die],
        citation=_cite("FATE MOVES > ASK THE ORACLE"),
        rulings=["oracle_match"] if is_oracle_match(die.value) else [],
    )


SYSTEM = build_system(
    id="sundered_isles",
    name="Sundered Isles",
    source=SOURCE,
    summary="Ironsworn: Starforged family. d6 action die + stat + adds vs two d10 challenge dice.",
    stats=STATS,
    meters=METERS,
    roll_kinds=[
        RollKind(
            id="action",
            summary="Action roll: d6 + stat + adds (max 10) vs two d10.",
            params=ActionParams,
            resolve=resolve_action,
            dice_order="action d6, then challenge d10, challenge d10",
            examples=[{"stat": "edge", "stat_value": 2, "adds": 1, "momentum": 3}],
        ),
        RollKind(
            id="oracle",
            summary="Ask the Oracle, yes/no: d100, yes if at or under the odds.",
            params=OracleParams,
            resolve=resolve_oracle,
            dice_order="one d100 (give 100 for 00)",
            examples=[{"odds": "likely"}],
        ),
    ],
    rulings=RULINGS,
)
