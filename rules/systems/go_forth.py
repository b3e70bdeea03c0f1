"""Go Forth.

Source: go_forth.txt ("Basics of Play": Resolution, Encounter Target Numbers, Easy vs Hard,
Attributes, Checks, Effort & Contests, Momentum, Wounds, Combat, Effort, Hearts, Conditions). The
text names no authors or licence.

Core roll: d20 + the attribute's +Roll vs a Target Number, with an Effort die (+Effort) for impact.
The Momentum pool is in go_forth_momentum.py, Wounds and Conditions in go_forth_wounds.py.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.dice import DiceSource
from rules.errors import InvalidParameter
from rules.models import Die, Resolution, Ruling, StateChange
from rules.registry import MeterSpec, RollKind, build_system
from rules.systems.go_forth_momentum import (
    MomentumParams,
    Pool,
    cite,
    pool_changes,
    resolve_momentum,
    spend,
)
from rules.systems.go_forth_wounds import (
    ATTRIBUTES,
    Attribute,
    ConditionsParams,
    WoundParams,
    resolve_conditions,
    resolve_wound,
)

SOURCE = "go_forth.txt"
HEART = 10
EASY_HARD_STEP = 3
FIRST_LEVEL_CAP = 5

RESOLUTION = cite("Resolution")
TN_HEADING = cite("Resolution > Encounter Target Numbers (TN)")
EASY_HARD = cite("Resolution > Easy vs Hard")
CHECKS = cite("Checks, Effort & Contests")
SPLIT = cite("Checks, Effort & Contests > Roll vs Effort Bonus")
ATTACKING = cite("Actions > Attacking")
BOOST = cite("Momentum > Boost Example")
HEARTS = cite("Combat > Effort > Hearts")
WOUNDS = cite("Momentum > Wounds")

# --- rulings -----------------------------------------------------------------------------------

RULINGS = [
    Ruling(
        id="meet_tn_succeeds",
        text="A check succeeds when d20 + bonuses is at least the TN (meeting it succeeds), as "
        "the Boost Example's 13 against TN 13 shows, though the text says 'beat'.",
        quote="Apply the Momentum result to the Skill Die: Add 4 to the d20 (9) to get 13. "
        "Success!",
        citation=BOOST,
    ),
    Ruling(
        id="roll_bonus_added",
        text="The attribute's +Roll is always added to the d20, as the Attributes rules say; the "
        "Boost Example (Finesse +3, d20 9 + 4 Momentum = 13) leaves it out, so we do not follow "
        "its arithmetic.",
        quote="You add your +Roll bonus to the d20 and your +Effort bonus to the Effort die.",
        citation=SPLIT,
    ),
    Ruling(
        id="easy_hard_no_stack",
        text="Any number of reasons for Easy make the roll Easy once (TN -3), any number for Hard "
        "make it Hard once (TN +3); when there is at least one of each, the roll is neither.",
        quote="Easy and Hard do not stack. They offset each other",
        citation=EASY_HARD,
    ),
    Ruling(
        id="extreme_default_2d6",
        text="Extreme encounters roll 10 + 2d4, 2d6 or 2d8 as the GM chooses; when no choice is "
        "given, 2d6 (the middle option).",
        quote="Extreme TN 10 + 2d4, 2d6, or 2d8",
        citation=TN_HEADING,
    ),
    Ruling(
        id="tn_at_least_one",
        text="Easy can lower a given TN below 1; a TN below 1 counts as 1 (every check succeeds).",
        quote="Lower the target number by 3",
        citation=EASY_HARD,
    ),
    Ruling(
        id="effort_not_negative",
        text="Effort dealt is never below 0: a Graze with a negative +Effort deals 0, and so "
        "does a strike whose Effort a Shield reduces below 0.",
        quote="If you miss: You Graze, dealing your Effort modifier in damage",
        citation=ATTACKING,
    ),
    Ruling(
        id="effort_boost_on_graze",
        text="Power spent to boost Effort adds its d6 to the Effort dealt, a Graze included.",
        quote="Boost a Roll — Add to Check or Effort",
        citation=cite("Momentum > Spending Momentum"),
    ),
    Ruling(
        id="shield_every_strike",
        text="A Shield reduces the Effort of every check or attack, Grazes included, before "
        "Fortified Hearts and Breaking Point are checked.",
        quote="Shields Flat Effort reduction per check/attack",
        citation=cite("Combat > Effort > Variations"),
    ),
    Ruling(
        id="fortified_all_or_nothing",
        text="Against a Fortified Heart a strike of less than 10 Effort (after Shields) does "
        "nothing; 10 or more overcomes the Heart. Effort does not accumulate on it.",
        quote="Fortified Hearts Require 10+ Effort in a single strike",
        citation=cite("Combat > Effort > Variations"),
    ),
    Ruling(
        id="breaking_point",
        text="Effort (after Shields) at or above the Breaking Point in one action overcomes every "
        "remaining Heart at once.",
        quote="Breaking Point Deal X Effort in one action to complete entirely, no matter how "
        "many Hearts remain",
        citation=cite("Combat > Effort > Variations"),
    ),
    Ruling(
        id="contest_tie_status_quo",
        text="In a Contest neither side wins a tie: the situation stays as it was before the "
        "Contest (the outcome is 'tie').",
        quote="Both roll — higher total wins.",
        citation=CHECKS,
    ),
    Ruling(
        id="negative_attribute_no_split",
        text="A negative attribute cannot be split: its +Roll and +Effort both equal the score "
        "(a -1 attribute is -1 Roll / -1 Effort).",
        quote="If you have a -1 Attribute, you must reduce both Roll and Effort by 1.",
        citation=SPLIT,
    ),
    Ruling(
        id="split_not_below_zero",
        text="Splitting a 0 or positive attribute cannot take +Roll or +Effort below 0; negative "
        "bonuses come only from negative attributes.",
        quote="For each point you reduce one value, increase the other by the same amount.",
        citation=SPLIT,
    ),
    Ruling(
        id="split_cap_first_level",
        text="The +5 cap on +Roll and +Effort is enforced at level 1 only; the text states no cap "
        "for later levels.",
        quote="Neither Roll nor Effort can exceed +5 at first level.",
        citation=SPLIT,
    ),
    Ruling(
        id="building_returns_at_prepare",
        text="Built dice still in Building when you Prepare (the start of your turn) go to your "
        "Fatigue before the Prepare move.",
        quote="If unused when your turn returns, they move to your Fatigue",
        citation=cite("Momentum > Building"),
    ),
    Ruling(
        id="lock_from_power",
        text="A die is locked from Power unless the ability says Stamina (Increase Defense is a "
        "Power option).",
        quote="Increase Defense — Lock and roll 1 Momentum",
        citation=cite("Momentum > Spending Momentum"),
    ),
    Ruling(
        id="unlock_to_fatigue",
        text="A locked die that is removed, or whose effect is Spent, goes to Fatigue.",
        quote="On your turn, you can opt to remove it, or replace it with a new Lock ability "
        "you've activated",
        citation=cite("Momentum > Locking Momentum"),
    ),
    Ruling(
        id="hit_order",
        text="A Hit takes its die from the area the player chooses; when none is chosen (or it is "
        "empty), from Stamina, then Power, then Building, then Locked (the order listed).",
        quote="It can come from: Stamina Power Building Locked",
        citation=cite("Momentum > Hits & Beats"),
    ),
    Ruling(
        id="short_rest_gathers_everything",
        text="A Short Rest moves every die to Stamina, Locked and Building ones included (their "
        "effects end).",
        quote="Move all Momentum to Stamina",
        citation=cite("Momentum > Wounds > Recovery > Short Rest"),
    ),
    Ruling(
        id="severity_minus_six",
        text="The Severity Table gives -6 to both Death ('-6 or less') and Permanent ('-6 to 0'): "
        "-6 is a Permanent Wound; Death is -7 or less.",
        quote="-6 or less Death (at end of encounter) / -6 to 0 Permanent Wound",
        citation=cite("Momentum > Wounds > Severity Table"),
    ),
    Ruling(
        id="severity_clamp",
        text="A severity below -7 reads the Death row (as -7) and one above 20 the Flesh Wound "
        "row (as 20); the rows are open-ended, so the result is the same.",
        quote="-6 or less ... 16+",
        citation=cite("Momentum > Wounds > Severity Table"),
    ),
    Ruling(
        id="death_still_rolls_wound",
        text="Every severity, Death included, rolls the d8 wound of the Defense: Death comes at "
        "the end of the encounter and the hero carries the wound until then.",
        quote="Roll d8 on the matching Defense chart.",
        citation=cite("Momentum > Wounds > Determining the Wound"),
    ),
    Ruling(
        id="conditions_held_once",
        text="A condition already held is not held twice ('stack' means carrying several "
        "different conditions); an added condition cancels its held opposite, both gone.",
        quote="You can carry multiple conditions at once; Empowered and Protected, Weakened and "
        "Trapped. Stack away.",
        citation=cite("Conditions"),
    ),
]

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
    roll_bonus: int = Field(0, ge=-5, le=15, description="your +Roll")
    opponent_bonus: int = Field(0, ge=-5, le=15, description="the opponent's +Roll")


class Split(BaseModel):
    model_config = ConfigDict(extra="forbid")
    score: int = Field(ge=-3, le=10)
    roll: int | None = Field(None, ge=-3, le=20, description="+Roll (default: the score)")
    effort: int | None = Field(None, ge=-3, le=20, description="+Effort (default: the score)")


class AttributesParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    attributes: dict[Attribute, Split] = Field(min_length=1)
    level: int = Field(1, ge=1, le=20)


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


def _check(params: CheckParams, source: DiceSource) -> dict:
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


def _spend_boosts(params: CheckParams, effort_boosts: int = 0) -> tuple[list[StateChange], dict]:
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
    check = _check(params, source)
    boosts = _boost_dice(len(params.boosts), source)
    total = check["d20"].value + params.roll_bonus + sum(d.value for d in boosts)
    success = total >= check["tn"]
    rulings = check["rulings"] + (["roll_bonus_added"] if params.roll_bonus else [])
    if total == check["tn"]:
        rulings.append("meet_tn_succeeds")
    changes, pool = _spend_boosts(params)
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
    """Effort (after Shields) on the target's Hearts: (hearts left, effort on heart, overcome, rulings)."""
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
    changes, pool = _spend_boosts(params, params.effort_boosts)
    changes += _used_conditions(params)
    scores = {"total": total, "tn": check["tn"], "d20": check["d20"].value, "effort": effort}
    details: dict = {"mode": check["mode"], "base_tn": check["base_tn"], "effort_die": sides}
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
    elif params.fortified or params.breaking_point is not None or params.heart_effort:
        raise InvalidParameter(
            "fortified, breaking_point and heart_effort need params.hearts", "params.hearts"
        )
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


# --- the system --------------------------------------------------------------------------------

TN_ORDER = (
    "when params.difficulty is given, first its TN dice (none for very_easy, 1d4 easy, 1d6 "
    "common, 1d8 challenge, 2d4/2d6/2d8 extreme, 2d12 doom); "
)
SYSTEM = build_system(
    id="go_forth",
    name="Go Forth",
    source=SOURCE,
    summary="d20 + attribute's +Roll vs a Target Number (Easy -3 / Hard +3); an Effort die "
    "(+Effort) against Hearts of 10; a Momentum pool of d6s (Stamina, Power, Fatigue).",
    stats=list(ATTRIBUTES),
    meters=[
        MeterSpec(id="momentum", name="Momentum dice", min=0, max=30, start=3, note="d6s"),
        MeterSpec(id="wounds", name="Wounds", min=0, max=10, start=0, note="-5 severity each"),
    ],
    roll_kinds=[
        RollKind(
            id="check",
            summary="Check: d20 + roll_bonus (+ Momentum boosts) vs a TN given or rolled from "
            "the encounter difficulty; Easy -3 / Hard +3 (no stacking, they offset).",
            params=CheckParams,
            resolve=resolve_check,
            dice_order=TN_ORDER
            + "then the d20; then one d6 per Momentum boost, in the order of params.boosts.",
            examples=[
                {"roll_bonus": 3, "tn": 13},
                {"roll_bonus": 2, "difficulty": "challenge", "hard": 1},
                {
                    "roll_bonus": 3,
                    "tn": 13,
                    "boosts": ["power"],
                    "pool": {"stamina": 2, "power": 1},
                },
            ],
        ),
        RollKind(
            id="effort",
            summary="Check plus Effort die: a hit deals die + effort_bonus, a miss grazes for "
            "effort_bonus; optionally applied to the target's Hearts (fortified, shield, "
            "breaking point).",
            params=EffortParams,
            resolve=resolve_effort,
            dice_order=TN_ORDER + "then the d20; then the Effort die (d4 bare hands, d6 "
            "weapon/tool, or effort_die); then one d6 per check boost; then one d6 per effort boost.",
            examples=[
                {"roll_bonus": 3, "effort_bonus": 3, "effort_die": 8, "tn": 13},
                {"roll_bonus": 2, "effort_bonus": 2, "tn": 12, "hearts": 3, "heart_effort": 4},
                {
                    "roll_bonus": 3,
                    "effort_bonus": 3,
                    "tn": 13,
                    "effort_boosts": 1,
                    "pool": {"stamina": 1, "power": 2},
                    "hearts": 2,
                    "shield": 1,
                },
            ],
        ),
        RollKind(
            id="contest",
            summary="Contest: both roll d20 + their +Roll; higher total wins; a tie keeps the "
            "status quo.",
            params=ContestParams,
            resolve=resolve_contest,
            dice_order="your d20, then the opponent's d20",
            examples=[{"roll_bonus": 2, "opponent_bonus": 1}],
        ),
        RollKind(
            id="encounter_tn",
            summary="Roll an Encounter TN: Very Easy 10, Easy 10+1d4, Common 10+1d6, Challenge "
            "10+1d8, Extreme 10+2d4/2d6/2d8, Doom 10+2d12.",
            params=EncounterParams,
            resolve=resolve_encounter,
            dice_order="the difficulty's dice (none for very_easy)",
            examples=[{"difficulty": "common"}, {"difficulty": "extreme", "extreme_dice": "2d8"}],
        ),
        RollKind(
            id="attributes",
            summary="Validate attributes and their +Roll/+Effort split (sum kept; +5 cap at "
            "level 1; negative attributes cannot split). No dice.",
            params=AttributesParams,
            resolve=resolve_attributes,
            dice_order="no dice",
            examples=[
                {
                    "attributes": {
                        "might": {"score": 3, "roll": 2},
                        "reason": {"score": 2, "roll": 3},
                        "guile": {"score": -1},
                    }
                }
            ],
        ),
        RollKind(
            id="momentum",
            summary="One Momentum pool transition (prepare, spend, lock, unlock, build, take_hit, "
            "rally, short_rest): the new pool in details.pool_after and as state changes.",
            params=MomentumParams,
            resolve=resolve_momentum,
            dice_order="one d6 when spending for a roll or effort boost, or locking for defense; "
            "no dice otherwise",
            examples=[
                {"action": "prepare", "direction": "stamina_to_power"},
                {
                    "action": "spend",
                    "area": "power",
                    "use": "effort",
                    "pool": {"stamina": 2, "power": 1},
                },
                {
                    "action": "take_hit",
                    "count": 2,
                    "pool": {"stamina": 0, "fatigue": 2, "power": 1},
                },
            ],
        ),
        RollKind(
            id="wound",
            summary="Knocked out: severity d20 + the Defense's two attributes - 5 per Wound on "
            "the Severity Table, then d8 on that Defense's wound table.",
            params=WoundParams,
            resolve=resolve_wound,
            dice_order="severity d20, then the d8 wound die, then a d4 (sessions) for a Vicious "
            "Wound",
            examples=[
                {"defense": "body", "attributes": {"might": 2, "agility": 1}, "existing_wounds": 1}
            ],
        ),
        RollKind(
            id="conditions",
            summary="Add conditions to those held: opposite pairs cancel (both gone). No dice.",
            params=ConditionsParams,
            resolve=resolve_conditions,
            dice_order="no dice",
            examples=[{"current": ["weakened", "trapped"], "add": ["empowered", "protected"]}],
        ),
    ],
    rulings=RULINGS,
)
