"""Sundered Isles core rolls: action roll, progress roll, yes/no oracle.

Source: sundered_isles.md (Sundered Isles moves reference, Shawn Tomkin, CC BY 4.0), completed
where the text defers to the Starforged rulebook by the published Starforged core rules.
Helper of ``system.py`` (which defines SYSTEM).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.dice import DiceSource
from rules.errors import InvalidParameter
from rules.ironsworn import (
    ACTION_SCORE_CAP,
    MOMENTUM_MAX,
    MOMENTUM_MIN,
    ODDS,
    Band,
    OracleOdds,
    burn_band,
    is_match,
    is_oracle_match,
    momentum_max,
    momentum_reset,
    outcome_band,
)
from rules.models import Citation, Resolution, Ruling, StateChange
from rules.progress import BOXES, MAX_TICKS, TICKS_PER_BOX

SOURCE = "sundered_isles.md"


def cite(heading: str) -> Citation:
    return Citation(source=SOURCE, heading=heading)


QUICK_REFERENCE = cite("QUICK REFERENCE")
PROGRESS_MOVE = cite('QUICK REFERENCE > "PROGRESS MOVE"')
ASK_THE_ORACLE = cite("FATE MOVES > ASK THE ORACLE")

# --- rulings -----------------------------------------------------------------------------------

CORE_RULINGS = [
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
            "positive and would beat more challenge dice: a miss becomes a weak or strong hit, a "
            "weak hit a strong hit), then momentum resets to its reset value. The cap of 10 does "
            "not apply to burned momentum. Not allowed on progress rolls."
        ),
        quote="You may not burn momentum on a progress move",
        citation=QUICK_REFERENCE,
    ),
    Ruling(
        id="momentum_within_max",
        text=(
            "Momentum given with a roll must lie between -6 and the max momentum, which is 10 less "
            "1 per marked impact; otherwise the request is rejected (field params.momentum)."
        ),
        quote="Your max momentum is reduced by 1 for each marked impact.",
        citation=cite("SUFFER MOVES"),
    ),
    Ruling(
        id="progress_roll",
        text=(
            "A progress roll rolls only the two challenge dice against the progress score (full "
            "boxes only: ticks // 4, 0..10); it takes no momentum, so it can neither burn it nor "
            "suffer from negative momentum. Ties do not beat a challenge die."
        ),
        quote=(
            "tally the number of filled boxes on your progress track as your progress score. "
            "Only add fully filled boxes (those with four ticks)."
        ),
        citation=PROGRESS_MOVE,
    ),
    Ruling(
        id="cleared_legacy_track_rolls_as_ten",
        text="A progress roll against a legacy track that has been cleared uses a score of 10.",
        quote=(
            "If you make a progress roll against this track, resolve the outcome as if at 10 "
            "progress"
        ),
        citation=cite("LEGACY MOVES > EARN EXPERIENCE"),
    ),
    Ruling(
        id="oracle_match",
        text="A yes/no oracle roll of 11, 22, 33, ... 99 or 100 is a match (Starforged core rule).",
        quote="A match on your oracle dice when rolling on the yes/no table indicates an extreme "
        "result, interesting twist, or dramatic complication.",
        citation=cite("FATE MOVES"),
    ),
]

# --- parameters --------------------------------------------------------------------------------

Rollable = Literal[
    "edge",
    "heart",
    "iron",
    "shadow",
    "wits",
    "health",
    "spirit",
    "supply",
    "integrity",
    "companion_health",
    "connection_rank",
]
Odds = OracleOdds  # Ask the Oracle's odds (rules/ironsworn.py)

MomentumField = Field(2, ge=MOMENTUM_MIN, le=MOMENTUM_MAX, description="current momentum")
ImpactsField = Field(0, ge=0, le=10, description="impacts marked (max momentum and reset)")
ADDS_MAX = 10
AddsField = Field(0, ge=0, le=ADDS_MAX, description="every +x added to this roll")
BurnField = Field(
    False, description="burn momentum if that improves the outcome (only ever improves it)"
)


class ActionParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    stat: Rollable = Field(description="the stat or meter rolled with")
    stat_value: int = Field(ge=0, le=5, description="its current value")
    adds: int = AddsField
    momentum: int = MomentumField
    impacts: int = ImpactsField
    burn_momentum: bool = BurnField


class ProgressParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    score: int | None = Field(None, ge=0, le=BOXES, description="progress score (full boxes)")
    ticks: int | None = Field(None, ge=0, le=MAX_TICKS, description="or: ticks on the track")
    legacy_cleared: bool = Field(
        False, description="rolling against a legacy track already cleared: counts as 10"
    )


class OracleParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    odds: Odds = "50_50"


# --- shared arithmetic -------------------------------------------------------------------------


def check_momentum(momentum: int, impacts: int, field: str = "params.momentum") -> None:
    top = momentum_max(impacts)
    if momentum > top:
        raise InvalidParameter(
            f"momentum {momentum} is above the max momentum {top} (10 less 1 per impact, "
            f"{impacts} marked)",
            field,
        )


def progress_score(
    score: int | None, ticks: int | None, legacy_cleared: bool, prefix: str = "params."
) -> tuple[int, list[str]]:
    """The progress score from a score or ticks (exactly one), or 10 for a cleared legacy track."""
    if legacy_cleared:
        return BOXES, ["cleared_legacy_track_rolls_as_ten"]
    if score is None and ticks is None:
        raise InvalidParameter("give the progress score or the ticks", f"{prefix}score")
    if score is not None and ticks is not None:
        raise InvalidParameter("give the progress score or the ticks, not both", f"{prefix}ticks")
    return (score if score is not None else (ticks or 0) // TICKS_PER_BOX), []


# --- resolvers ---------------------------------------------------------------------------------


def roll_action(
    source: DiceSource,
    *,
    stat_value: int,
    adds: int = 0,
    momentum: int = 2,
    impacts: int = 0,
    burn_momentum: bool = False,
    citation: Citation = QUICK_REFERENCE,
    stat: str | None = None,
) -> Resolution:
    """d6 + stat + adds (max 10) vs two d10. Dice: action d6, challenge d10, challenge d10."""
    check_momentum(momentum, impacts)
    action = source.roll(6, "action")
    challenge_dice = [source.roll(10, "challenge"), source.roll(10, "challenge")]
    challenge = (challenge_dice[0].value, challenge_dice[1].value)
    rulings: list[str] = []
    cancelled = momentum < 0 and action.value == -momentum
    if cancelled:
        action = action.model_copy(update={"cancelled": True})
        rulings.append("negative_momentum_cancels_action_die")
    raw = (0 if cancelled else action.value) + stat_value + adds
    score = min(ACTION_SCORE_CAP, raw)
    if score < raw:
        rulings.append("action_score_cap")
    band: Band = outcome_band(score, challenge)
    changes: list[StateChange] = []
    better = burn_band(momentum, band, challenge)
    improves = better is not None
    burned = burn_momentum and better is not None
    if burned and better is not None:
        band = better
        reset = momentum_reset(impacts)
        changes.append(
            StateChange(
                target="momentum", set_to=reset, delta=reset - momentum, note="momentum burned"
            )
        )
        rulings.append("burn_momentum")
    return Resolution(
        outcome=band,
        match=is_match(challenge),
        scores={
            "action_score": score,
            "stat": stat_value,
            "adds": adds,
            "momentum": momentum,
            "challenge_1": challenge[0],
            "challenge_2": challenge[1],
        },
        dice=[action, *challenge_dice],
        changes=changes,
        citation=citation,
        rulings=rulings,
        details={
            "burned_momentum": burned,
            "burn_would_improve": improves and not burned,
            **({"stat": stat} if stat else {}),
        },
    )


def roll_progress(
    source: DiceSource,
    score: int,
    citation: Citation = PROGRESS_MOVE,
    rulings: tuple[str, ...] = (),
) -> Resolution:
    """Progress score vs two d10. Dice: challenge d10, challenge d10."""
    challenge_dice = [source.roll(10, "challenge"), source.roll(10, "challenge")]
    challenge = (challenge_dice[0].value, challenge_dice[1].value)
    return Resolution(
        outcome=outcome_band(score, challenge),
        match=is_match(challenge),
        scores={"progress_score": score, "challenge_1": challenge[0], "challenge_2": challenge[1]},
        dice=challenge_dice,
        citation=citation,
        rulings=["progress_roll", *rulings],
    )


def resolve_action(params: ActionParams, source: DiceSource) -> Resolution:
    return roll_action(
        source,
        stat_value=params.stat_value,
        adds=params.adds,
        momentum=params.momentum,
        impacts=params.impacts,
        burn_momentum=params.burn_momentum,
        stat=params.stat,
    )


def resolve_progress(params: ProgressParams, source: DiceSource) -> Resolution:
    score, rulings = progress_score(params.score, params.ticks, params.legacy_cleared)
    return roll_progress(source, score, rulings=tuple(rulings))


def ask_oracle(odds: str, source: DiceSource) -> Resolution:
    die = source.roll(100, "oracle")
    threshold = ODDS[odds]
    match = is_oracle_match(die.value)
    return Resolution(
        outcome="yes" if die.value <= threshold else "no",
        match=match,
        scores={"roll": die.value, "threshold": threshold},
        dice=[die],
        citation=ASK_THE_ORACLE,
        rulings=["oracle_match"] if match else [],
        details={"odds": odds},
    )


def resolve_oracle(params: OracleParams, source: DiceSource) -> Resolution:
    return ask_oracle(params.odds, source)
