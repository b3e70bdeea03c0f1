"""Go Forth: the decisions an outcome leaves to the player, each a parameter of the same roll.

Source: go_forth.txt ("Actions > Attacking", "Momentum > Spending Momentum", "Momentum > Boost
Example", "Momentum > Hits & Beats"). The protocol is rules/sheets.py.

  check    a failure: boost the d20 with Stamina and/or Power dice (``boosts``), or take it
  effort   a graze: boost the d20 (``boosts``) or graze; then, once no boost of the d20 is left
           to decide, add Power dice to the Effort (``effort_boosts``) when more Effort would
           count (no Heart given, the Heart not yet overcome, or a Breaking Point not reached)
  momentum a Hit with dice in more than one area: which area it takes its die from (``area``)

Nothing else is left to the player by an outcome: the contest, the Encounter TN, the attribute
split, the wound roll and the conditions decide themselves (paired conditions cancel without a
choice). Boosts roll more dice: the re-resolution consumes one d6 per die after the dice of the
first resolution, so the same dice (or seed) replay it.
"""

from __future__ import annotations

from typing import Any

from rules.models import Resolution
from rules.sheets import Choice, ChoiceOption
from rules.systems.go_forth.momentum import HIT_ORDER, Pool, cite

MAX_BOOSTS = 20  # CheckParams.boosts and EffortParams.effort_boosts take at most 20 dice
BOOST_SIDES = 6
SPEND = cite("Momentum > Spending Momentum")
BOOST = cite("Momentum > Boost Example")
HITS = cite("Momentum > Hits & Beats")


def _pool_after(resolution: Resolution) -> Pool | None:
    after = resolution.details.get("pool_after")
    return Pool.model_validate(after) if after is not None else None


def _dice(n: int, area: str) -> str:
    return f"{n} {area.title()} {'die' if n == 1 else 'dice'}"


def boost_choice(needed: int, pool: Pool, decline: str) -> Choice | None:
    """Stamina and Power dice that could close a gap of ``needed`` (one d6 each): at least enough
    dice to reach it, at most as many as make it certain (each die is at least 1)."""
    options = [ChoiceOption(value=[], label=decline)]
    fewest = -(-needed // BOOST_SIDES)
    for n in range(fewest, min(needed, pool.stamina + pool.power, MAX_BOOSTS) + 1):
        for stamina in range(max(0, n - pool.power), min(pool.stamina, n) + 1):
            power = n - stamina
            parts = [_dice(k, a) for k, a in ((stamina, "stamina"), (power, "power")) if k]
            options.append(
                ChoiceOption(
                    value=["stamina"] * stamina + ["power"] * power,
                    label=f"Boost the roll with {' and '.join(parts)} (rolled, added to the d20)",
                )
            )
    if len(options) < 2:
        return None
    return Choice(
        param="boosts",
        prompt=f"The roll is {needed} short of the TN: spend Momentum to boost it?",
        options=options,
        citation=SPEND,
        extra_dice=True,
    )


def _effort_counts(params: dict[str, Any], resolution: Resolution) -> bool:
    """More Effort would change the result: no Heart given, or the Heart not yet overcome, or a
    Breaking Point still out of reach ("Excess Effort beyond 10 is wasted")."""
    if params.get("hearts") is None:
        return True
    breaking = params.get("breaking_point")
    if breaking is not None and resolution.scores.get("effort", 0) < breaking:
        return True
    return resolution.scores.get("hearts_overcome", 0) == 0


def effort_choice(pool: Pool, hit: bool) -> Choice | None:
    if pool.power == 0:
        return None
    first = "Deal the Effort rolled" if hit else "Graze for your Effort modifier"
    options = [ChoiceOption(value=0, label=first)] + [
        ChoiceOption(value=n, label=f"Boost the Effort with {_dice(n, 'power')} (rolled, added)")
        for n in range(1, min(pool.power, MAX_BOOSTS) + 1)
    ]
    return Choice(
        param="effort_boosts",
        prompt="Spend Power to add to the Effort?",
        options=options,
        citation=BOOST,
        extra_dice=True,
    )


def _check(params: dict[str, Any], resolution: Resolution) -> list[Choice]:
    pool = _pool_after(resolution)
    if resolution.outcome != "failure" or "boosts" in params or pool is None:
        return []
    needed = resolution.scores["tn"] - resolution.scores["total"]
    choice = boost_choice(needed, pool, "Take the failure (spend no Momentum)")
    return [choice] if choice else []


def _effort(params: dict[str, Any], resolution: Resolution) -> list[Choice]:
    pool = _pool_after(resolution)
    if pool is None:
        return []
    hit = resolution.outcome == "hit"
    if not hit and "boosts" not in params:
        needed = resolution.scores["tn"] - resolution.scores["total"]
        # "If you miss: You Graze, dealing your Effort modifier in damage — or you may spend
        #  Momentum."
        choice = boost_choice(needed, pool, "Graze for your Effort modifier")
        if choice:
            return [choice]
    if "effort_boosts" in params or not _effort_counts(params, resolution):
        return []
    choice = effort_choice(pool, hit)
    return [choice] if choice else []


AREA_LABELS = {
    "stamina": "from Stamina",
    "power": "from Power",
    "building": "from Building",
    "locked": "from Locked (ending the effect)",
}


def _momentum(params: dict[str, Any], resolution: Resolution) -> list[Choice]:
    if params.get("action") != "take_hit" or "area" in params:
        return []
    before = Pool.model_validate(resolution.details["pool_before"])
    areas = [a for a in HIT_ORDER if before.count(a) > 0]
    if len(areas) < 2:
        return []
    return [
        Choice(
            param="area",
            prompt="The Hit moves a Momentum die into Fatigue: from which area?",
            options=[ChoiceOption(value=a, label=AREA_LABELS[a]) for a in areas],
            citation=HITS,
        )
    ]


CHOOSERS = {"check": _check, "effort": _effort, "momentum": _momentum}


def choices(kind: str, params: dict[str, Any], resolution: Resolution) -> list[Choice]:
    chooser = CHOOSERS.get(kind)
    return chooser(params, resolution) if chooser else []
