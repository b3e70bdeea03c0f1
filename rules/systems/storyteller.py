"""Storyteller: d10 dice pools against a difficulty (a World of Darkness style system).

Source: storyteller.txt (a summary of the Storyteller rules for a Werewolf game: actions, dice
pools, difficulties, degrees of success, multiple, extended and resisted actions, botches,
automatic success, willpower and teamwork). The text names no authors and no licence.
The counting of a pool lives in ``rules/systems/storyteller_pool.py``.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from rules.catalog import load_tables
from rules.dice import DiceSource
from rules.errors import InvalidParameter
from rules.models import Citation, Resolution, Ruling, StateChange
from rules.registry import MeterSpec, RollKind, build_system
from rules.systems.storyteller_pool import (
    MAX_DIFFICULTY,
    MAX_POOL,
    MIN_DIFFICULTY,
    PoolRoll,
    degree_row,
    roll_pool,
)

SOURCE = "storyteller.txt"
SYSTEM_ID = "storyteller"
MAX_GOAL = 100
MAX_MEMBERS = 6
MAX_ACTIONS = 6


def _cite(heading: str) -> Citation:
    return Citation(source=SOURCE, heading=heading)


DIFFICULTIES = _cite("Difficulties")
BOTCHES = _cite("Botches")
AUTOMATIC = _cite("Automatic Success")
EXTENDED = _cite("Extended Actions")
RESISTED = _cite("Resisted Actions")
TEAMWORK = _cite("Teamwork")
MULTIPLE = _cite("Multiple Actions")
SUMMARY = _cite("Summary")

# The difficulty table of the text ("Difficulties"): 3..10 do not fit a rollable table's die
# range, so the labels are kept here, verbatim, to describe a roll's difficulty.
DIFFICULTY_LABELS = {
    3: "Trivial (scanning a small crowd for a familiar face)",
    4: "Easy (following a trail by blood scent)",
    5: "Straightforward (harrying prey that is old or ill)",
    6: "Standard (firing a gun)",
    7: "Challenging (discovering a hiding spirit)",
    8: "Difficult (convincing a cop that your unlicensed gun is not his problem)",
    9: "Extremely difficult (walking a tightrope)",
    10: "Essentially impossible",
}

# --- rulings -----------------------------------------------------------------------------------

RULINGS = [
    Ruling(
        id="pool_size",
        text=(
            f"A dice pool has 1 to {MAX_POOL} dice: a pool of 0 rolls nothing, and ratings are "
            f"usually 1-5 (10 at most for Rage, Willpower and Gnosis), so {MAX_POOL} is a generous cap."
        ),
        quote="You roll one die for each point in the required trait(s).",
        citation=_cite("Dice Pools"),
    ),
    Ruling(
        id="ten_always_succeeds",
        text=(
            "A 10 is a success at every difficulty (with difficulties 2-10 this holds by "
            "construction). It is not protected from 1s: each 1 cancels any success, a 10 "
            "included; the record marks the lowest successes cancelled first, a 10 last."
        ),
        quote="A “10” is always a success.",
        citation=_cite("Difficulties > Note"),
    ),
    Ruling(
        id="ones_cancel_successes",
        text=(
            "Each 1 cancels one success; net successes never go below zero, and 1s beyond the "
            "successes only matter for a botch."
        ),
        quote="Every botched roll cancels out 1 success.",
        citation=BOTCHES,
    ),
    Ruling(
        id="botch_needs_zero_successes",
        text=(
            "A roll botches only when it shows at least one 1 and no success at all: successes "
            "cancelled by 1s still prevent a botch (the roll is then a plain failure)."
        ),
        quote=(
            "If you roll a botch while having zero successes (does not matter if they are "
            "cancelled out by a botched roll, they count as a success for this) the action is "
            "botched."
        ),
        citation=BOTCHES,
    ),
    Ruling(
        id="degree_by_net_successes",
        text=(
            "The degree of success is read from the Degree of Success table with the net "
            "successes (after 1s cancel, a willpower success included); five or more read the "
            "last row (Phenomenal). Zero net successes is a failure (or a botch)."
        ),
        quote=(
            "One success is marginal success, three or more is a complete success. Five or more "
            "is a momentous occasion."
        ),
        citation=DIFFICULTIES,
    ),
    Ruling(
        id="automatic_success",
        text=(
            "When the pool is at least the difficulty, outside combat or other stressful "
            "situations (param `stressful`), the action succeeds automatically with exactly one "
            "success: no dice are rolled, so it cannot botch, and no willpower is spent on it. "
            "The player may decline it and roll (param `decline_automatic`)."
        ),
        quote=(
            "If the number of dice in a given dice pool is equal to or greater than the "
            "difficulty, the character succeeds automatically. This does not apply to combat or "
            "other stressful situations. Automatic successes only count as having a single "
            "success. A player may risk failure and not use an automatic success."
        ),
        citation=AUTOMATIC,
    ),
    Ruling(
        id="automatic_success_simple_only",
        text=(
            "Automatic success applies to a simple action only (roll kind `simple`); extended, "
            "resisted, teamwork and multiple actions always roll."
        ),
        quote="Automatic success is possible.",
        citation=SUMMARY,
    ),
    Ruling(
        id="willpower_success",
        text=(
            "A willpower point adds one success after the 1s cancel, so it cannot be cancelled "
            "and the roll cannot botch (the success is guaranteed). One per roll: in a multiple "
            "action turn only one action may have it; each roll of an extended action is a turn."
        ),
        quote=(
            "Players may spend a willpower point to guarantee a success on a roll, applying one "
            "success to the role. This can only be performed once per turn."
        ),
        citation=AUTOMATIC,
    ),
    Ruling(
        id="extended_accumulates_net_successes",
        text=(
            "Each roll of an extended action adds its net successes to the total; the action is "
            "done when the total reaches the goal."
        ),
        quote="it will take a collective 15 successes to break in.",
        citation=EXTENDED,
    ),
    Ruling(
        id="extended_botch_wipes_progress",
        text="A botched roll of an extended action sets the accumulated successes back to 0.",
        quote="Botching an extended action removes all progress up to that point",
        citation=EXTENDED,
    ),
    Ruling(
        id="resisted_compares_net_successes",
        text=(
            "Both parties roll their pools (each against its own difficulty) and compare net "
            "successes; the margin is the difference. A party that botches is reported as "
            "botched; the acting character's botch is the outcome `botch`."
        ),
        quote="They compare their number of successes; the character with the most successes wins.",
        citation=SUMMARY,
    ),
    Ruling(
        id="resisted_tie_status_quo",
        text=(
            "Equal net successes is a tie: neither party wins and the situation stays as it was "
            "(the acting character does not get what the action sought)."
        ),
        quote="Whoever gets more successes wins.",
        citation=RESISTED,
    ),
    Ruling(
        id="extended_resisted_first_to_goal",
        text=(
            "Each turn both parties roll and add their net successes to their own totals (a "
            "botch wipes that party's total). The first to reach the goal wins; if both reach it "
            "on the same turn, the higher total wins, and equal totals are a tie (neither wins)."
        ),
        quote=(
            "An extended resisted action has a fixed success goal, and each party rolls their "
            "dice pools. The first to reach the goal wins."
        ),
        citation=RESISTED,
    ),
    Ruling(
        id="teamwork_adds_net_successes",
        text=(
            "Each member rolls separately against the same difficulty; each member's 1s cancel "
            "only that member's successes, and the members' net successes are added together."
        ),
        quote="each player makes a separate roll and adds their successes together.",
        citation=TEAMWORK,
    ),
    Ruling(
        id="teamwork_botch_affects_all",
        text=(
            "If any member botches, the team's action is a botch for everyone (outcome `botch`); "
            "the team's successes are still reported for a storyteller who rules otherwise."
        ),
        quote="However, one member botching can affect everyone involved.",
        citation=TEAMWORK,
    ),
    Ruling(
        id="multiple_actions_split_smallest_pool",
        text=(
            "The dice to split are the smallest pool among the declared actions; all of them are "
            "allocated, at least one die per action, as the player chooses (param `allocated`) "
            "or, when no allocation is given, evenly (earlier actions take the remainder). "
            "Raised difficulties for disparate actions are given per action."
        ),
        quote=(
            "The player first declares how many actions they wish to take, and determines which "
            "one has the smallest dice pool. They may then allocate that number of dice among the "
            "actions as they see fit."
        ),
        citation=MULTIPLE,
    ),
    Ruling(
        id="rage_actions_not_split",
        text=(
            "An extra action gained from Rage (param `rage`) rolls its full pool: it takes no "
            "part in the split and does not count towards the smallest pool."
        ),
        quote="Extra actions gained from Rage cannot be split but do not suffer a dice penalty.",
        citation=MULTIPLE,
    ),
]

# --- parameters --------------------------------------------------------------------------------

Pool = Annotated[int, Field(ge=1, le=MAX_POOL, description=f"dice in the pool (1..{MAX_POOL})")]
Difficulty = Annotated[
    int,
    Field(
        ge=MIN_DIFFICULTY,
        le=MAX_DIFFICULTY,
        description="difficulty 2..10 (3 trivial, 6 standard, 9 extremely difficult)",
    ),
]
Goal = Annotated[int, Field(ge=1, le=MAX_GOAL, description="successes needed to finish")]
Accumulated = Annotated[
    int, Field(ge=0, le=MAX_GOAL, description="successes accumulated on earlier turns")
]
Willpower = Annotated[
    bool, Field(description="spend a willpower point for one guaranteed success on this roll")
]


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SimpleParams(_Params):
    pool: Pool
    difficulty: Difficulty
    willpower: Willpower = False
    stressful: bool = Field(
        False, description="combat or another stressful situation: no automatic success"
    )
    decline_automatic: bool = Field(
        False, description="risk failure: roll even when the success would be automatic"
    )


class ExtendedParams(_Params):
    pool: Pool
    difficulty: Difficulty
    goal: Goal
    accumulated: Accumulated = 0
    willpower: Willpower = False


class ResistedParams(_Params):
    pool: Pool
    difficulty: Difficulty
    opponent_pool: Pool
    opponent_difficulty: Difficulty
    willpower: Willpower = False
    opponent_willpower: Willpower = False


class ExtendedResistedParams(ResistedParams):
    goal: Goal
    accumulated: Accumulated = 0
    opponent_accumulated: Accumulated = 0


class TeamMember(_Params):
    pool: Pool
    willpower: Willpower = False


class TeamworkParams(_Params):
    difficulty: Difficulty
    members: list[TeamMember] = Field(
        min_length=2, max_length=MAX_MEMBERS, description="one entry per character working together"
    )


class Action(_Params):
    pool: Pool = Field(description="this action's full dice pool")
    difficulty: Difficulty
    allocated: int | None = Field(
        None,
        ge=1,
        le=MAX_POOL,
        description="dice given to this action from the split (none: an even split)",
    )
    rage: bool = Field(False, description="an extra action from Rage: full pool, not split")
    willpower: Willpower = False


class MultipleParams(_Params):
    actions: list[Action] = Field(min_length=2, max_length=MAX_ACTIONS)


# --- resolvers ---------------------------------------------------------------------------------

DEGREE_TABLE = load_tables(SYSTEM_ID)["degree_of_success"]


def _pool_rulings(roll: PoolRoll) -> list[str]:
    t = roll.tally
    rulings: list[str] = []
    tens = [d for d in roll.dice if d.value == 10]
    if tens and (roll.difficulty == 10 or any(d.cancelled for d in tens)):
        rulings.append("ten_always_succeeds")
    if t.cancelled:
        rulings.append("ones_cancel_successes")
    if t.ones and t.cancelled == t.successes and not t.willpower:
        # no success at all (a botch), or successes all cancelled (no botch: a failure)
        rulings.append("botch_needs_zero_successes")
    if t.willpower:
        rulings.append("willpower_success")
    return rulings


def _band(roll: PoolRoll) -> str:
    if roll.tally.botch:
        return "botch"
    return "success" if roll.tally.net > 0 else "failure"


def _willpower_change(spent: bool, target: str = "willpower") -> list[StateChange]:
    return [StateChange(target=target, delta=-1, note="willpower point spent")] if spent else []


def _degree(net: int) -> tuple[str | None, str | None]:
    found = degree_row(DEGREE_TABLE, net)
    return (found[0], found[1]) if found else (None, None)


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def resolve_simple(params: SimpleParams, source: DiceSource) -> Resolution:
    label = DIFFICULTY_LABELS.get(params.difficulty)
    if params.pool >= params.difficulty and not params.stressful and not params.decline_automatic:
        degree, text = _degree(1)
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
    degree, text = _degree(roll.tally.net)
    rulings = _pool_rulings(roll)
    if roll.tally.net:
        rulings.append("degree_by_net_successes")
    return Resolution(
        outcome=_band(roll),
        text=text,
        scores={
            "successes": roll.tally.successes,
            "ones": roll.tally.ones,
            "net": roll.tally.net,
            "difficulty": params.difficulty,
        },
        dice=roll.dice,
        changes=_willpower_change(params.willpower),
        citation=BOTCHES if roll.tally.botch else DIFFICULTIES,
        rulings=_unique(rulings),
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
    rulings = [*_pool_rulings(roll), "extended_accumulates_net_successes"]
    if roll.tally.botch:
        total, outcome = 0, "botch"
        rulings.append("extended_botch_wipes_progress")
    else:
        total = params.accumulated + roll.tally.net
        outcome = "completed" if total >= params.goal else _band(roll)
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
            *_willpower_change(params.willpower),
        ],
        citation=EXTENDED,
        rulings=_unique(rulings),
        details={
            "done": total >= params.goal,
            "remaining": max(0, params.goal - total),
            "willpower_spent": params.willpower,
            "roll": roll.details(),
        },
    )


def _contest(params: ResistedParams, source: DiceSource) -> tuple[PoolRoll, PoolRoll]:
    mine = roll_pool(source, params.pool, params.difficulty, "pool", params.willpower)
    theirs = roll_pool(
        source,
        params.opponent_pool,
        params.opponent_difficulty,
        "opponent",
        params.opponent_willpower,
    )
    return mine, theirs


def _contest_changes(params: ResistedParams) -> list[StateChange]:
    return [
        *_willpower_change(params.willpower),
        *_willpower_change(params.opponent_willpower, "opponent_willpower"),
    ]


def resolve_resisted(params: ResistedParams, source: DiceSource) -> Resolution:
    mine, theirs = _contest(params, source)
    margin = mine.tally.net - theirs.tally.net
    winner = "actor" if margin > 0 else "opponent" if margin < 0 else None
    rulings = [*_pool_rulings(mine), *_pool_rulings(theirs), "resisted_compares_net_successes"]
    if winner is None:
        rulings.append("resisted_tie_status_quo")
    if mine.tally.botch:
        outcome = "botch"
    else:
        outcome = {"actor": "win", "opponent": "loss", None: "tie"}[winner]
    return Resolution(
        outcome=outcome,
        scores={"net": mine.tally.net, "opponent_net": theirs.tally.net, "margin": margin},
        dice=[*mine.dice, *theirs.dice],
        changes=_contest_changes(params),
        citation=RESISTED,
        rulings=_unique(rulings),
        details={
            "winner": winner,
            "actor_botched": mine.tally.botch,
            "opponent_botched": theirs.tally.botch,
            "roll": mine.details(),
            "opponent_roll": theirs.details(),
        },
    )


def resolve_extended_resisted(params: ExtendedResistedParams, source: DiceSource) -> Resolution:
    for name in ("accumulated", "opponent_accumulated"):
        if getattr(params, name) >= params.goal:
            raise InvalidParameter(
                f"{name} ({getattr(params, name)}) already reaches the goal ({params.goal}): "
                "the contest is decided",
                f"params.{name}",
            )
    mine, theirs = _contest(params, source)
    rulings = [*_pool_rulings(mine), *_pool_rulings(theirs), "extended_resisted_first_to_goal"]
    totals = []
    for roll, before in ((mine, params.accumulated), (theirs, params.opponent_accumulated)):
        if roll.tally.botch:
            rulings.append("extended_botch_wipes_progress")
        totals.append(0 if roll.tally.botch else before + roll.tally.net)
    total, opponent_total = totals
    reached = (total >= params.goal, opponent_total >= params.goal)
    winner: str | None = None
    if reached[0] and (not reached[1] or total > opponent_total):
        winner = "actor"
    elif reached[1] and (not reached[0] or opponent_total > total):
        winner = "opponent"
    if reached == (True, True) and winner is None:
        outcome = "tie"
    elif winner == "actor":
        outcome = "win"
    elif winner == "opponent":
        outcome = "loss"
    else:
        outcome = "botch" if mine.tally.botch else "continue"
    return Resolution(
        outcome=outcome,
        scores={
            "net": mine.tally.net,
            "opponent_net": theirs.tally.net,
            "total": total,
            "opponent_total": opponent_total,
            "goal": params.goal,
        },
        dice=[*mine.dice, *theirs.dice],
        changes=[
            StateChange(target="progress", set_to=total, delta=total - params.accumulated),
            StateChange(
                target="opponent_progress",
                set_to=opponent_total,
                delta=opponent_total - params.opponent_accumulated,
            ),
            *_contest_changes(params),
        ],
        citation=RESISTED,
        rulings=_unique(rulings),
        details={
            "winner": winner,
            "done": any(reached),
            "actor_botched": mine.tally.botch,
            "opponent_botched": theirs.tally.botch,
            "roll": mine.details(),
            "opponent_roll": theirs.details(),
        },
    )


def resolve_teamwork(params: TeamworkParams, source: DiceSource) -> Resolution:
    rolls = [
        roll_pool(source, m.pool, params.difficulty, f"member:{i + 1}", m.willpower)
        for i, m in enumerate(params.members)
    ]
    team_net = sum(r.tally.net for r in rolls)
    botched = [i + 1 for i, r in enumerate(rolls) if r.tally.botch]
    rulings = [r for roll in rolls for r in _pool_rulings(roll)]
    rulings.append("teamwork_adds_net_successes")
    if botched:
        rulings.append("teamwork_botch_affects_all")
        outcome = "botch"
    else:
        outcome = "success" if team_net > 0 else "failure"
    degree, text = _degree(team_net) if not botched else (None, None)
    if degree:
        rulings.append("degree_by_net_successes")
    return Resolution(
        outcome=outcome,
        text=text,
        scores={"net": team_net, "difficulty": params.difficulty},
        dice=[d for r in rolls for d in r.dice],
        changes=[
            c
            for i, m in enumerate(params.members)
            for c in _willpower_change(m.willpower, f"member:{i + 1}:willpower")
        ],
        citation=TEAMWORK,
        rulings=_unique(rulings),
        details={
            "degree": degree,
            "botched_members": botched,
            "members": [r.details() for r in rolls],
        },
    )


def split_dice(actions: list[Action]) -> list[int]:
    """Dice each action rolls: Rage actions their full pool; the others share the smallest pool."""
    split = [i for i, a in enumerate(actions) if not a.rage]
    for i, a in enumerate(actions):
        if a.rage and a.allocated is not None:
            raise InvalidParameter(
                "an action from Rage rolls its full pool and takes no allocation",
                f"params.actions.{i}.allocated",
            )
    if not split:
        raise InvalidParameter(
            "at least one action must be an ordinary one: Rage only gives extra actions",
            "params.actions",
        )
    smallest = min(actions[i].pool for i in split)
    if smallest < len(split):
        raise InvalidParameter(
            f"the smallest pool ({smallest}) cannot give one die to each of {len(split)} actions",
            "params.actions",
        )
    given = [actions[i].allocated for i in split]
    if all(g is None for g in given):
        base, extra = divmod(smallest, len(split))
        shares = [base + (1 if n < extra else 0) for n in range(len(split))]
    elif any(g is None for g in given):
        missing = next(i for i in split if actions[i].allocated is None)
        raise InvalidParameter(
            "give `allocated` for every action that is split, or for none (an even split)",
            f"params.actions.{missing}.allocated",
        )
    else:
        shares = [g for g in given if g is not None]
        if sum(shares) != smallest:
            raise InvalidParameter(
                f"the allocations add up to {sum(shares)}; the smallest pool is {smallest} "
                "and all of its dice are allocated",
                "params.actions",
            )
    dice = [a.pool for a in actions]
    for i, share in zip(split, shares, strict=True):
        dice[i] = share
    return dice


def resolve_multiple(params: MultipleParams, source: DiceSource) -> Resolution:
    spenders = [i for i, a in enumerate(params.actions) if a.willpower]
    if len(spenders) > 1:
        raise InvalidParameter(
            "willpower can be spent only once per turn: on one action at most",
            f"params.actions.{spenders[1]}.willpower",
        )
    counts = split_dice(params.actions)
    rolls = [
        roll_pool(source, n, a.difficulty, f"action:{i + 1}", a.willpower)
        for i, (a, n) in enumerate(zip(params.actions, counts, strict=True))
    ]
    rulings = [r for roll in rolls for r in _pool_rulings(roll)]
    rulings.append("multiple_actions_split_smallest_pool")
    if any(a.rage for a in params.actions):
        rulings.append("rage_actions_not_split")
    results: list[dict[str, Any]] = []
    for i, roll in enumerate(rolls):
        degree, text = _degree(roll.tally.net)
        if degree:
            rulings.append("degree_by_net_successes")
        results.append(
            {
                "outcome": _band(roll),
                "degree": degree,
                "text": text,
                "rage": params.actions[i].rage,
                "roll": roll.details(),
            }
        )
    scores: dict[str, int] = {}
    for i, roll in enumerate(rolls):
        scores[f"action_{i + 1}_dice"] = len(roll.dice)
        scores[f"action_{i + 1}_net"] = roll.tally.net
    return Resolution(
        outcome=",".join(r["outcome"] for r in results),
        scores=scores,
        dice=[d for r in rolls for d in r.dice],
        changes=_willpower_change(bool(spenders)),
        citation=MULTIPLE,
        rulings=_unique(rulings),
        details={"actions": results},
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
    meters=[
        MeterSpec(id="willpower", name="Willpower", min=0, max=10),
        MeterSpec(id="rage", name="Rage", min=0, max=10),
        MeterSpec(id="gnosis", name="Gnosis", min=0, max=10),
    ],
    roll_kinds=[
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
    rulings=RULINGS,
)
