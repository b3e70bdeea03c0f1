"""Storyteller group rolls: teamwork and multiple actions (storyteller.txt, "Teamwork" and
"Multiple Actions")."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from rules.dice import DiceSource
from rules.errors import InvalidParameter
from rules.models import Resolution
from rules.systems.storyteller.pool import (
    MAX_ACTIONS,
    MAX_MEMBERS,
    MAX_POOL,
    Difficulty,
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
from rules.systems.storyteller.rulings import MULTIPLE, TEAMWORK
from rules.systems.storyteller.traits import Traits


class TeamMember(StrictParams):
    pool: Pool
    traits: Traits = Field(default_factory=list)
    willpower: Willpower = False


class TeamworkParams(StrictParams):
    difficulty: Difficulty
    members: list[TeamMember] = Field(
        min_length=2, max_length=MAX_MEMBERS, description="one entry per character working together"
    )


class Action(StrictParams):
    pool: Pool = Field(description="this action's full dice pool")
    traits: Traits = Field(default_factory=list)
    difficulty: Difficulty
    allocated: int | None = Field(
        None,
        ge=1,
        le=MAX_POOL,
        description="dice given to this action from the split (none: an even split)",
    )
    rage: bool = Field(False, description="an extra action from Rage: full pool, not split")
    willpower: Willpower = False


class MultipleParams(StrictParams):
    actions: list[Action] = Field(min_length=2, max_length=MAX_ACTIONS)


def resolve_teamwork(params: TeamworkParams, source: DiceSource) -> Resolution:
    rolls = [
        roll_pool(source, m.pool, params.difficulty, f"member:{i + 1}", m.willpower)
        for i, m in enumerate(params.members)
    ]
    team_net = sum(r.tally.net for r in rolls)
    botched = [i + 1 for i, r in enumerate(rolls) if r.tally.botch]
    rulings = [r for roll in rolls for r in pool_rulings(roll)]
    rulings.append("teamwork_adds_net_successes")
    if botched:
        rulings.append("teamwork_botch_affects_all")
        outcome = "botch"
    else:
        outcome = "success" if team_net > 0 else "failure"
    degree, text = degree_of(team_net) if not botched else (None, None)
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
            for c in willpower_change(m.willpower, f"member:{i + 1}:willpower")
        ],
        citation=TEAMWORK,
        rulings=unique(rulings),
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
    rulings = [r for roll in rolls for r in pool_rulings(roll)]
    rulings.append("multiple_actions_split_smallest_pool")
    if any(a.rage for a in params.actions):
        rulings.append("rage_actions_not_split")
    results: list[dict[str, Any]] = []
    for i, roll in enumerate(rolls):
        degree, text = degree_of(roll.tally.net)
        if degree:
            rulings.append("degree_by_net_successes")
        results.append(
            {
                "outcome": band(roll),
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
        changes=willpower_change(bool(spenders)),
        citation=MULTIPLE,
        rulings=unique(rulings),
        details={"actions": results},
    )
