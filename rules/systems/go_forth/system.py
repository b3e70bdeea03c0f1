"""Go Forth.

Source: go_forth.txt ("Basics of Play": Resolution, Encounter Target Numbers, Easy vs Hard,
Attributes, Checks, Effort & Contests, Momentum, Wounds, Combat, Effort, Hearts, Conditions). The
text names no authors or licence.

Core roll: d20 + the attribute's +Roll vs a Target Number, with an Effort die (+Effort) for impact.
Checks, Effort and Contests are in checks.py, the attribute split in attributes.py, the Momentum
pool in momentum.py, Wounds and Conditions in wounds.py; this module holds the rulings and the
system.
"""

from __future__ import annotations

from rules.models import Ruling
from rules.oracle import ORACLE_KIND, oracle_ruling
from rules.registry import RollKind, build_system
from rules.systems.go_forth.attributes import SPLIT, AttributesParams, resolve_attributes
from rules.systems.go_forth.checks import (
    ATTACKING,
    CHECKS,
    TN_HEADING,
    CheckParams,
    ContestParams,
    EffortParams,
    EncounterParams,
    resolve_check,
    resolve_contest,
    resolve_effort,
    resolve_encounter,
)
from rules.systems.go_forth.momentum import MomentumParams, cite, resolve_momentum
from rules.systems.go_forth.rest import REST_RULINGS
from rules.systems.go_forth.sheet import METERS, SHEET_RULES
from rules.systems.go_forth.wounds import (
    ATTRIBUTES,
    ConditionsParams,
    WoundParams,
    resolve_conditions,
    resolve_wound,
)

SOURCE = "go_forth.txt"
EASY_HARD = cite("Resolution > Easy vs Hard")
BOOST = cite("Momentum > Boost Example")

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

# --- the system --------------------------------------------------------------------------------

TN_ORDER = (
    "when params.difficulty is given, first its TN dice (none for very_easy, 1d4 easy, 1d6 "
    "common, 1d8 challenge, 2d4/2d6/2d8 extreme, 2d12 doom); "
)
ORACLE_RULING = oracle_ruling(
    cite("Encounter Target Numbers (TN)"),
    "Add your Attribute Modifier to the d20. The GM tells you which attribute applies to the action you're attempting.",
)

SYSTEM = build_system(
    id="go_forth",
    name="Go Forth",
    source=SOURCE,
    summary="d20 + attribute's +Roll vs a Target Number (Easy -3 / Hard +3); an Effort die "
    "(+Effort) against Hearts of 10; a Momentum pool of d6s (Stamina, Power, Fatigue).",
    stats=list(ATTRIBUTES),
    meters=METERS,
    roll_kinds=[
        ORACLE_KIND,
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
    rulings=[*RULINGS, *REST_RULINGS, ORACLE_RULING],
    sheet=SHEET_RULES,
)
