"""Storyteller: d10 dice pools against a difficulty (a World of Darkness style system).

Source: storyteller.txt (a summary of the Storyteller rules for a Werewolf game: actions, dice
pools, difficulties, degrees of success, multiple, extended and resisted actions, botches,
automatic success, willpower and teamwork). The text names no authors and no licence.
Rulings: rulings.py; counting a pool: pool.py; resisted actions: contest.py; teamwork and
multiple actions: group.py; this module holds the simple and extended actions and SYSTEM.
"""

from __future__ import annotations

from pydantic import Field

from rules.dice import DiceSource
from rules.errors import InvalidParameter
from rules.models import Citation, Resolution, StateChange
from rules.oracle import ORACLE_KIND, oracle_ruling
from rules.registry import RollKind, build_system
from rules.systems.storyteller.contest import (
    ExtendedResistedParams,
    ResistedParams,
    resolve_extended_resisted,
    resolve_resisted,
)
from rules.systems.storyteller.group import (
    MultipleParams,
    TeamworkParams,
    resolve_multiple,
    resolve_teamwork,
)
from rules.systems.storyteller.pool import (
    SOURCE,
    SYSTEM_ID,
    Accumulated,
    Difficulty,
    Goal,
    Pool,
    StrictParams,
    Willpower,
    band,
    degree_of,
    pool_rulings,
    roll_pool,
    unique,
    willpower_change,
)
from rules.systems.storyteller.rulings import (
    AUTOMATIC,
    BOTCHES,
    DIFFICULTIES,
    DIFFICULTY_LABELS,
    EXTENDED,
    RULINGS,
)
from rules.systems.storyteller.sheet import SHEET_RULES
from rules.systems.storyteller.traits import METERS, Traits

# --- parameters --------------------------------------------------------------------------------


class SimpleParams(StrictParams):
    pool: Pool
    traits: Traits = Field(default_factory=list)
    difficulty: Difficulty
    willpower: Willpower = False
    stressful: bool = Field(
        False, description="combat or another stressful situation: no automatic success"
    )
    decline_automatic: bool = Field(
        False, description="risk failure: roll even when the success would be automatic"
    )


class ExtendedParams(StrictParams):
    pool: Pool
    traits: Traits = Field(default_factory=list)
    difficulty: Difficulty
    goal: Goal
    accumulated: Accumulated = 0
    willpower: Willpower = False


# --- resolvers ---------------------------------------------------------------------------------


def resolve_simple(params: SimpleParams, source: DiceSource) -> Resolution:
    label = DIFFICULTY_LABELS.get(params.difficulty)
    if params.pool >= params.difficulty and not params.stressful and not params.decline_automatic:
        degree, text = degree_of(1)
        return Resolution(
            outcome="success",
            text=text,
            scores={"successes": 1, "ones": 0, "net": 1, "difficulty": params.difficulty},
            dice=[],
            citation=AUTOMATIC,
            rulings=["automatic_success", "automatic_success_simple_only"],
            details={
                "automatic": True,
                "degree": degree,
                "difficulty_label": label,
                "willpower_spent": False,
                "note": "automatic success: no dice rolled"
                + ("; willpower is not spent on it" if params.willpower else ""),
            },
        )
    roll = roll_pool(source, params.pool, params.difficulty, "pool", params.willpower)
    degree, text = degree_of(roll.tally.net)
    rulings = pool_rulings(roll)
    if roll.tally.net:
        rulings.append("degree_by_net_successes")
    return Resolution(
        outcome=band(roll),
        text=text,
        scores={
            "successes": roll.tally.successes,
            "ones": roll.tally.ones,
            "net": roll.tally.net,
            "difficulty": params.difficulty,
        },
        dice=roll.dice,
        changes=willpower_change(params.willpower),
        citation=BOTCHES if roll.tally.botch else DIFFICULTIES,
        rulings=unique(rulings),
        details={
            "automatic": False,
            "degree": degree,
            "difficulty_label": label,
            "willpower_spent": params.willpower,
            "roll": roll.details(),
        },
    )


def resolve_extended(params: ExtendedParams, source: DiceSource) -> Resolution:
    if params.accumulated >= params.goal:
        raise InvalidParameter(
            f"accumulated ({params.accumulated}) already reaches the goal ({params.goal}): "
            "the extended action is finished",
            "params.accumulated",
        )
    roll = roll_pool(source, params.pool, params.difficulty, "pool", params.willpower)
    rulings = [*pool_rulings(roll), "extended_accumulates_net_successes"]
    if roll.tally.botch:
        total, outcome = 0, "botch"
        rulings.append("extended_botch_wipes_progress")
    else:
        total = params.accumulated + roll.tally.net
        outcome = "completed" if total >= params.goal else band(roll)
    return Resolution(
        outcome=outcome,
        scores={
            "successes": roll.tally.successes,
            "ones": roll.tally.ones,
            "net": roll.tally.net,
            "accumulated": params.accumulated,
            "total": total,
            "goal": params.goal,
        },
        dice=roll.dice,
        changes=[
            StateChange(
                target="progress",
                set_to=total,
                delta=total - params.accumulated,
                note="progress wiped by a botch" if roll.tally.botch else None,
            ),
            *willpower_change(params.willpower),
        ],
        citation=EXTENDED,
        rulings=unique(rulings),
        details={
            "done": total >= params.goal,
            "remaining": max(0, params.goal - total),
            "willpower_spent": params.willpower,
            "roll": roll.details(),
        },
    )


ORACLE_RULING = oracle_ruling(
    Citation(source=SOURCE, heading="Summary"),
    "The storyteller announces the difficulty and the players roll their dice pools.",
)

SYSTEM = build_system(
    id=SYSTEM_ID,
    name="Storyteller",
    source=SOURCE,
    summary=(
        "d10 dice pools against a difficulty of 2-10: each die at or above it is a success, "
        "each 1 cancels one, a 1 with no success at all is a botch."
    ),
    stats=[],
    meters=METERS,
    roll_kinds=[
        ORACLE_KIND,
        RollKind(
            id="simple",
            summary="Simple action: roll the pool against the difficulty (automatic success possible).",
            params=SimpleParams,
            resolve=resolve_simple,
            dice_order=(
                "`pool` d10, in order; none at all when the success is automatic "
                "(pool >= difficulty, not stressful, not declined)"
            ),
            examples=[
                {"pool": 5, "difficulty": 6, "stressful": True},
                {"pool": 4, "difficulty": 7, "willpower": True},
                {"pool": 6, "difficulty": 4},
            ],
        ),
        RollKind(
            id="extended",
            summary="One roll of an extended action: net successes add to the total; a botch wipes it.",
            params=ExtendedParams,
            resolve=resolve_extended,
            dice_order="`pool` d10, in order",
            examples=[{"pool": 6, "difficulty": 7, "goal": 15, "accumulated": 4}],
        ),
        RollKind(
            id="resisted",
            summary="Resisted action: both roll; more net successes wins, a tie changes nothing.",
            params=ResistedParams,
            resolve=resolve_resisted,
            dice_order="`pool` d10 for the actor, then `opponent_pool` d10 for the opponent",
            examples=[{"pool": 5, "difficulty": 6, "opponent_pool": 4, "opponent_difficulty": 6}],
        ),
        RollKind(
            id="extended_resisted",
            summary="One turn of an extended resisted action: the first to reach the goal wins.",
            params=ExtendedResistedParams,
            resolve=resolve_extended_resisted,
            dice_order="`pool` d10 for the actor, then `opponent_pool` d10 for the opponent",
            examples=[
                {
                    "pool": 4,
                    "difficulty": 6,
                    "opponent_pool": 5,
                    "opponent_difficulty": 6,
                    "goal": 5,
                    "accumulated": 2,
                    "opponent_accumulated": 1,
                }
            ],
        ),
        RollKind(
            id="teamwork",
            summary="Teamwork: each member rolls; net successes are added; one botch botches all.",
            params=TeamworkParams,
            resolve=resolve_teamwork,
            dice_order="each member's pool of d10 in the order the members are listed",
            examples=[{"difficulty": 7, "members": [{"pool": 4}, {"pool": 3}]}],
        ),
        RollKind(
            id="multiple",
            summary="Multiple actions: the smallest pool is split among the actions (Rage extras roll full).",
            params=MultipleParams,
            resolve=resolve_multiple,
            dice_order=(
                "each action's dice in the order the actions are listed: its allocated share of "
                "the smallest pool (an even split when none is given), or its full pool for a "
                "Rage action"
            ),
            examples=[
                {
                    "actions": [
                        {"pool": 6, "difficulty": 6},
                        {"pool": 5, "difficulty": 7},
                        {"pool": 7, "difficulty": 6, "rage": True},
                    ]
                },
                {
                    "actions": [
                        {"pool": 6, "difficulty": 6, "allocated": 4},
                        {"pool": 5, "difficulty": 7, "allocated": 1, "willpower": True},
                    ]
                },
            ],
        ),
    ],
    rulings=[*RULINGS, ORACLE_RULING],
    sheet=SHEET_RULES,
)
