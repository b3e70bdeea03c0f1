"""Storyteller contests: resisted and extended resisted actions (storyteller.txt, "Resisted Actions")."""

from __future__ import annotations

from pydantic import Field

from rules.dice import DiceSource
from rules.errors import InvalidParameter
from rules.models import Resolution, StateChange
from rules.systems.storyteller.pool import (
    Accumulated,
    Difficulty,
    Goal,
    Pool,
    PoolRoll,
    StrictParams,
    Willpower,
    pool_rulings,
    roll_pool,
    unique,
    willpower_change,
)
from rules.systems.storyteller.rulings import RESISTED
from rules.systems.storyteller.traits import Traits


class ResistedParams(StrictParams):
    pool: Pool
    traits: Traits = Field(default_factory=list)
    difficulty: Difficulty
    opponent_pool: Pool
    opponent_difficulty: Difficulty
    willpower: Willpower = False
    opponent_willpower: Willpower = False


class ExtendedResistedParams(ResistedParams):
    goal: Goal
    accumulated: Accumulated = 0
    opponent_accumulated: Accumulated = 0


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
        *willpower_change(params.willpower),
        *willpower_change(params.opponent_willpower, "opponent_willpower"),
    ]


def resolve_resisted(params: ResistedParams, source: DiceSource) -> Resolution:
    mine, theirs = _contest(params, source)
    margin = mine.tally.net - theirs.tally.net
    winner = "actor" if margin > 0 else "opponent" if margin < 0 else None
    rulings = [*pool_rulings(mine), *pool_rulings(theirs), "resisted_compares_net_successes"]
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
        rulings=unique(rulings),
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
    rulings = [*pool_rulings(mine), *pool_rulings(theirs), "extended_resisted_first_to_goal"]
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
        rulings=unique(rulings),
        details={
            "winner": winner,
            "done": any(reached),
            "actor_botched": mine.tally.botch,
            "opponent_botched": theirs.tally.botch,
            "roll": mine.details(),
            "opponent_roll": theirs.details(),
        },
    )
