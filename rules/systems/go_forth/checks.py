"""Go Forth: checks, Encounter TNs, Easy/Hard, Effort against Hearts, and Contests.

Source: go_forth.txt ("Resolution", "Checks, Effort & Contests", "Actions > Attacking",
"Momentum > Boost Example", "Combat > Effort"). Rulings are declared in system.py.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.dice import DiceSource
from rules.errors import InvalidParameter
from rules.models import Die, Resolution, StateChange
from rules.systems.go_forth.momentum import Pool, cite, pool_changes, spend
from rules.systems.go_forth.wounds import Attribute

HEART = 10
EASY_HARD_STEP = 3

TN_HEADING = cite("Resolution > Encounter Target Numbers (TN)")
CHECKS = cite("Checks, Effort & Contests")
ATTACKING = cite("Actions > Attacking")
HEARTS = cite("Combat > Effort > Hearts")

# --- parameters --------------------------------------------------------------------------------

Difficulty = Literal["very_easy", "easy", "common", "challenge", "extreme", "doom"]
ExtremeDice = Literal["2d4", "2d6", "2d8"]
# "Very Easy TN 10 / Easy TN 10 + 1d4 / ... / Doom TN 10 + 2d12": (count, sides) of the added dice
TN_DICE: dict[str, tuple[int, int]] = {
    "very_easy": (0, 0),
    "easy": (1, 4),
    "common": (1, 6),
    "challenge": (1, 8),
    "doom": (2, 12),
}
EXTREME_DICE = {"2d4": (2, 4), "2d6": (2, 6), "2d8": (2, 8)}
EFFORT_DICE = {"bare_hands": 4, "weapon": 6, "tool": 6}


class EncounterParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    difficulty: Difficulty = Field(description="Very Easy 10, Easy 10+1d4 ... Doom 10+2d12")
    extreme_dice: ExtremeDice | None = Field(None, description="Extreme only: 2d4, 2d6 or 2d8")


class CheckParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    attribute: Attribute | None = Field(
        None, description="the attribute the GM calls (recorded; roll_bonus is its +Roll)"
    )
    roll_bonus: int = Field(0, ge=-5, le=15, description="the attribute's +Roll")
    tn: int | None = Field(None, ge=1, le=60, description="a given TN (encounter or unique)")
    difficulty: Difficulty | None = Field(None, description="roll the encounter TN instead")
    extreme_dice: ExtremeDice | None = None
    easy: int = Field(0, ge=0, le=10, description="how many reasons make the roll Easy")
    hard: int = Field(0, ge=0, le=10, description="how many reasons make the roll Hard")
    favored: bool = Field(False, description="Favored condition: this action is Easy (then gone)")
    hindered: bool = Field(False, description="Hindered condition: this action is Hard (then gone)")
    boosts: list[Literal["stamina", "power"]] = Field(
        default_factory=list, max_length=20, description="Momentum dice rolled and added to the d20"
    )
    pool: Pool | None = Field(None, description="the Momentum pool, to check and move boosts")


class EffortParams(CheckParams):
    effort_bonus: int = Field(0, ge=-5, le=15, description="the attribute's +Effort")
    using: Literal["bare_hands", "weapon", "tool"] = Field(
        "weapon", description="bare hands d4; weapon or tool d6"
    )
    effort_die: Literal[4, 6, 8, 10, 12, 20] | None = Field(
        None, description="another Effort die size (a gambit, a ranged weapon's d8...)"
    )
    effort_boosts: int = Field(0, ge=0, le=20, description="Power dice added to Effort")
    hearts: int | None = Field(None, ge=1, le=100, description="target's Hearts remaining")
    heart_effort: int = Field(0, ge=0, le=HEART - 1, description="Effort already on this Heart")
    fortified: bool = False
    shield: int = Field(0, ge=0, le=50, description="flat Effort reduction per check/attack")
    breaking_point: int | None = Field(None, ge=1, le=200)


class ContestParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    attribute: Attribute | None = Field(
        None, description="the attribute the GM calls (recorded; roll_bonus is its +Roll)"
    )
    roll_bonus: int = Field(0, ge=-5, le=15, description="your +Roll")
    opponent_bonus: int = Field(0, ge=-5, le=15, description="the opponent's +Roll")


# --- checks ------------------------------------------------------------------------------------


def roll_tn(
    difficulty: Difficulty, extreme: ExtremeDice | None, source: DiceSource
) -> tuple[int, list[Die], list[str]]:
    rulings: list[str] = []
    if difficulty == "extreme":
        if extreme is None:
            rulings.append("extreme_default_2d6")
        count, sides = EXTREME_DICE[extreme or "2d6"]
    else:
        if extreme is not None:
            raise InvalidParameter(
                "params.extreme_dice applies only to the extreme difficulty", "params.extreme_dice"
            )
        count, sides = TN_DICE[difficulty]
    dice = [source.roll(sides, "tn") for _ in range(count)]
    return 10 + sum(d.value for d in dice), dice, rulings


def resolve_encounter(params: EncounterParams, source: DiceSource) -> Resolution:
    tn, dice, rulings = roll_tn(params.difficulty, params.extreme_dice, source)
    return Resolution(
        outcome=str(tn),
        scores={"tn": tn},
        dice=dice,
        citation=TN_HEADING,
        rulings=rulings,
        details={"difficulty": params.difficulty},
    )


def easy_hard(easy: int, hard: int) -> tuple[str, int, list[str]]:
    """The net adjustment to the TN: Easy -3, Hard +3, not stacking, offsetting."""
    rulings = ["easy_hard_no_stack"] if easy > 1 or hard > 1 or (easy and hard) else []
    if easy and hard:
        return "normal", 0, rulings
    if easy:
        return "easy", -EASY_HARD_STEP, rulings
    if hard:
        return "hard", EASY_HARD_STEP, rulings
    return "normal", 0, rulings


def _check(params: CheckParams, source: DiceSource) -> dict[str, Any]:
    """The shared first half of check and effort: the TN, then the d20."""
    rulings: list[str] = []
    dice: list[Die] = []
    if (params.tn is None) == (params.difficulty is None):
        raise InvalidParameter(
            "give either params.tn or params.difficulty (one of them)", "params.tn"
        )
    if params.difficulty is not None:
        base_tn, dice, rulings = roll_tn(params.difficulty, params.extreme_dice, source)
    else:
        if params.extreme_dice is not None:
            raise InvalidParameter(
                "params.extreme_dice applies only with params.difficulty", "params.extreme_dice"
            )
        base_tn = params.tn or 0
    mode, shift, more = easy_hard(
        params.easy + int(params.favored), params.hard + int(params.hindered)
    )
    rulings += more
    tn = base_tn + shift
    if tn < 1:
        tn = 1
        rulings.append("tn_at_least_one")
    d20 = source.roll(20, "d20")
    dice.append(d20)
    return {
        "base_tn": base_tn,
        "tn": tn,
        "mode": mode,
        "d20": d20,
        "dice": dice,
        "rulings": rulings,
    }


def _spend_boosts(
    params: CheckParams, effort_boosts: int = 0
) -> tuple[list[StateChange], dict[str, Any]]:
    """Boost dice go to Fatigue ("Roll and Fatigue Stamina or Power"), checked against the pool."""
    stamina = params.boosts.count("stamina")
    power = params.boosts.count("power") + effort_boosts
    if params.pool is None:
        changes = [
            StateChange(target=f"momentum.{area}", delta=-n)
            for area, n in (("stamina", stamina), ("power", power))
            if n
        ]
        if stamina + power:
            changes.append(StateChange(target="momentum.fatigue", delta=stamina + power))
        return changes, {}
    power_field = "params.effort_boosts" if effort_boosts else "params.boosts"
    after = spend(params.pool, "stamina", stamina, "params.boosts")
    after = spend(after, "power", power, power_field)
    return pool_changes(params.pool, after), {"pool_after": after.model_dump()}


def _boost_dice(count: int, source: DiceSource) -> list[Die]:
    return [source.roll(6, "momentum") for _ in range(count)]


def resolve_check(params: CheckParams, source: DiceSource) -> Resolution:
    changes, pool = _spend_boosts(params)  # refuse boosts the pool cannot pay before any die
    check = _check(params, source)
    boosts = _boost_dice(len(params.boosts), source)
    total = check["d20"].value + params.roll_bonus + sum(d.value for d in boosts)
    success = total >= check["tn"]
    rulings = check["rulings"] + (["roll_bonus_added"] if params.roll_bonus else [])
    if total == check["tn"]:
        rulings.append("meet_tn_succeeds")
    changes += _used_conditions(params)
    return Resolution(
        outcome="success" if success else "failure",
        scores={"total": total, "tn": check["tn"], "d20": check["d20"].value},
        dice=[*check["dice"], *boosts],
        changes=changes,
        citation=CHECKS,
        rulings=rulings,
        details={"mode": check["mode"], "base_tn": check["base_tn"], "boost": _sum(boosts)} | pool,
    )


def _used_conditions(params: CheckParams) -> list[StateChange]:
    used = [name for name in ("favored", "hindered") if getattr(params, name)]
    return [StateChange(target=f"condition.{n}", set_to=0, note="next action used") for n in used]


def _sum(dice: list[Die]) -> int:
    return sum(d.value for d in dice)


# --- effort ------------------------------------------------------------------------------------


def apply_to_hearts(effort: int, params: EffortParams) -> tuple[int, int, int, list[str]]:
    """Effort (after Shields) on the target's Hearts.

    Returns (Hearts left, Effort on the current Heart, Hearts overcome, rulings applied).
    """
    assert params.hearts is not None
    rulings: list[str] = []
    if params.breaking_point is not None and effort >= params.breaking_point:
        return 0, 0, params.hearts, ["breaking_point"]
    if params.fortified:
        rulings.append("fortified_all_or_nothing")
        if effort >= HEART:
            return params.hearts - 1, 0, 1, rulings
        return params.hearts, params.heart_effort, 0, rulings
    # "You target only 1 Heart at a time"; "Excess Effort beyond 10 is wasted"
    on_heart = params.heart_effort + effort
    if on_heart >= HEART:
        return params.hearts - 1, 0, 1, rulings
    return params.hearts, on_heart, 0, rulings


def resolve_effort(params: EffortParams, source: DiceSource) -> Resolution:
    if params.hearts is None and (
        params.fortified or params.breaking_point is not None or params.heart_effort
    ):
        raise InvalidParameter(
            "fortified, breaking_point and heart_effort need params.hearts", "params.hearts"
        )
    changes, pool = _spend_boosts(params, params.effort_boosts)
    check = _check(params, source)
    sides = params.effort_die or EFFORT_DICE[params.using]
    effort_die = source.roll(sides, "effort")
    roll_boosts = _boost_dice(len(params.boosts), source)
    effort_boosts = _boost_dice(params.effort_boosts, source)
    total = check["d20"].value + params.roll_bonus + _sum(roll_boosts)
    hit = total >= check["tn"]
    rulings = check["rulings"] + (["roll_bonus_added"] if params.roll_bonus else [])
    if total == check["tn"]:
        rulings.append("meet_tn_succeeds")
    base = effort_die.value + params.effort_bonus if hit else params.effort_bonus
    raw = base + _sum(effort_boosts)
    if effort_boosts and not hit:
        rulings.append("effort_boost_on_graze")
    effort = raw - params.shield
    if params.shield:
        rulings.append("shield_every_strike")
    if effort < 0:
        effort = 0
        rulings.append("effort_not_negative")
    if not hit:
        effort_die = effort_die.model_copy(update={"kept": False})
    changes += _used_conditions(params)
    scores = {"total": total, "tn": check["tn"], "d20": check["d20"].value, "effort": effort}
    details: dict[str, Any] = {
        "mode": check["mode"],
        "base_tn": check["base_tn"],
        "effort_die": sides,
    }
    heading = ATTACKING
    if params.hearts is not None:
        hearts, on_heart, overcome, more = apply_to_hearts(effort, params)
        rulings += more
        scores |= {"hearts": hearts, "heart_effort": on_heart, "hearts_overcome": overcome}
        if overcome:
            changes.append(StateChange(target="target.hearts", delta=-overcome))
        if on_heart != params.heart_effort:
            changes.append(
                StateChange(target="target.heart_effort", delta=on_heart - params.heart_effort)
            )
        details["wasted"] = _wasted(effort, params, overcome)
        heading = HEARTS
    return Resolution(
        outcome="hit" if hit else "graze",
        scores=scores,
        dice=[*check["dice"], effort_die, *roll_boosts, *effort_boosts],
        changes=changes,
        citation=heading,
        rulings=rulings,
        details=details
        | {"roll_boost": _sum(roll_boosts), "effort_boost": _sum(effort_boosts)}
        | pool,
    )


def _wasted(effort: int, params: EffortParams, overcome: int) -> int:
    if not overcome or (params.breaking_point and effort >= params.breaking_point):
        return 0
    if params.fortified:
        return effort - HEART
    return params.heart_effort + effort - HEART


# --- contests ----------------------------------------------------------------------------------


def resolve_contest(params: ContestParams, source: DiceSource) -> Resolution:
    mine, theirs = source.roll(20, "d20"), source.roll(20, "opponent")
    total, opposed = mine.value + params.roll_bonus, theirs.value + params.opponent_bonus
    outcome = "win" if total > opposed else "loss" if total < opposed else "tie"
    return Resolution(
        outcome=outcome,
        scores={"total": total, "opponent_total": opposed},
        dice=[mine, theirs],
        citation=CHECKS,
        rulings=["contest_tie_status_quo"] if outcome == "tie" else [],
    )
