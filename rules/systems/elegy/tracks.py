"""Elegy's roll-free kinds: progress, harm dealt to foes, harm/stress/hunger and their impact
chains, and spending experience. Pure functions of their parameters; no dice.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.dice import DiceSource
from rules.errors import InvalidParameter
from rules.models import Citation, Resolution, StateChange
from rules.progress import MAX_TICKS, TICKS_PER_BOX, ProgressTrack
from rules.systems.elegy import mechanics as m
from rules.systems.elegy.mechanics import cite
from rules.systems.elegy.params import (
    AdvanceParams,
    FoeHarmParams,
    HarmParams,
    HungerParams,
    ProgressParams,
    StressParams,
)


def resolve_progress(params: ProgressParams, _source: DiceSource) -> Resolution:
    track = ProgressTrack(rank=params.rank, ticks=params.ticks)
    marked = track.mark(m.RANK_TICKS[params.rank], params.times)
    return Resolution(
        outcome="marked",
        scores={"ticks": marked.ticks, "progress": marked.score},
        changes=[
            StateChange(
                target="progress",
                delta=marked.ticks - track.ticks,
                note=f"{params.rank} x{params.times}",
            )
        ],
        citation=cite("Progress Tracks > Marking Progress"),
        details={"boxes": marked.boxes},
    )


def resolve_foe_harm(params: FoeHarmParams, _source: DiceSource) -> Resolution:
    ticks = m.harm_to_foe_ticks(params.rank, params.weapon, params.harm)
    new = min(MAX_TICKS, params.ticks + ticks)
    return Resolution(
        outcome="harmed",
        scores={
            "multiplier": m.WEAPON_MULTIPLIER[params.weapon],
            "harm_ticks": ticks,
            "ticks": new,
            "progress": new // TICKS_PER_BOX,
        },
        changes=[StateChange(target="progress", delta=new - params.ticks, note="harm the foe")],
        citation=m.HARM,
    )


def _suffer_amount(params: HarmParams | StressParams) -> int:
    if (params.amount is None) == (params.foe_rank is None):
        raise InvalidParameter("give either amount or foe_rank (exactly one)", "params.amount")
    if params.amount is not None:
        return params.amount
    assert params.foe_rank is not None
    return m.FOE_HARM[params.foe_rank]


def _chain_resolution(
    meter: str,
    amount: int,
    value: int,
    impacts: Sequence[str],
    citation: Citation,
    rulings: list[str],
    note: str,
) -> Resolution:
    changes = m.Changes(focus=0)
    step = m.lose(changes, meter, amount, value, impacts, note)
    if step is not None:
        rulings = [*rulings, "impact_overflow"]
    return Resolution(
        outcome=step or f"lose_{meter}",
        scores={"amount": amount, meter: max(0, value - amount)},
        changes=changes.items,
        citation=citation,
        rulings=rulings,
    )


def resolve_harm(params: HarmParams, _source: DiceSource) -> Resolution:
    rulings: list[str] = []
    if params.foe_rank is not None and params.amount is None:
        amount = m.foe_harm(
            params.foe_rank,
            superstition=params.superstition,
            authentic_faith=params.authentic_faith,
        )
        if params.superstition or params.authentic_faith:
            rulings.append("superstition_and_faith")
    else:
        if params.authentic_faith:
            raise InvalidParameter(
                "authentic faith raises a foe's rank: give foe_rank", "params.authentic_faith"
            )
        amount = _suffer_amount(params) + (1 if params.superstition else 0)
    return _chain_resolution(
        "health", amount, params.health, params.impacts, m.HARM, rulings, "harm"
    )


def resolve_stress(params: StressParams, _source: DiceSource) -> Resolution:
    amount = _suffer_amount(params)
    rulings = ["stress_from_foe"] if params.foe_rank else []
    resolution = _chain_resolution(
        "spirit", amount, params.spirit, params.impacts, m.STRESS, rulings, "stress"
    )
    level = m.STRESS_LEVELS.get(min(amount, 5))
    return resolution.model_copy(update={"text": level})


def resolve_hunger(params: HungerParams, _source: DiceSource) -> Resolution:
    return _chain_resolution(
        "blood", params.spend, params.blood, params.impacts, m.HUNGER, [], "spend blood"
    )


def resolve_advance(params: AdvanceParams, _source: DiceSource) -> Resolution:
    cost = m.ASSET_COST[params.purchase]
    if params.experience < cost:
        raise InvalidParameter(
            f"{params.purchase.replace('_', ' ')} costs {cost} xp; you have {params.experience}",
            "params.experience",
        )
    return Resolution(
        outcome=params.purchase,
        scores={"cost": cost, "experience": params.experience - cost},
        changes=[StateChange(target="experience", delta=-cost, note=params.purchase)],
        citation=m.EXPERIENCE,
    )
