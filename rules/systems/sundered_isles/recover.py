"""Sundered Isles recover moves (Heal, Hearten, Resupply, Repair, Sojourn) as state changes.

Helper of ``system.py``; the running sheet and the shared rulings are in
``meters.py``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.dice import DiceSource
from rules.errors import InvalidParameter
from rules.models import Resolution, Ruling
from rules.registry import RollKind
from rules.systems.sundered_isles.core import (
    AddsField,
    BurnField,
    ImpactsField,
    MomentumField,
    check_momentum,
    cite,
    roll_action,
)
from rules.systems.sundered_isles.meters import (
    ACTION_DICE,
    MeterField,
    Sheet,
    _resolution,
    _take_burn,
    sacrifice,
)
from rules.systems.sundered_isles.moves import (
    choose_stat,
    get_move,
    roll_named_tables,
    tables_named,
)

_RECOVER_DICE = ACTION_DICE + "; none with automatic_strong_hit"

# --- Heal, Hearten, Resupply, Repair, Sojourn ---------------------------------------------------


class _RecoverBase(BaseModel):
    model_config = ConfigDict(extra="forbid")
    stat: str | None = Field(None, description="the stat rolled (one of the move's options)")
    stat_value: int | None = Field(None, ge=0, le=5)
    stats: dict[str, int] | None = Field(None, description="'whichever is lower' option values")
    adds: int = AddsField
    momentum: int = MomentumField
    impacts: int = ImpactsField
    burn_momentum: bool = BurnField
    automatic_strong_hit: bool = Field(False, description="taken through Sojourn: no roll")
    roll_tables: bool = Field(
        False, description="on a miss, also roll the table it names (Pay the Price)"
    )


def _with_tables(resolution: Resolution, params: Any, source: DiceSource) -> Resolution:
    """A miss's Pay the Price, as the move kind offers it ("On a miss, the aid is ineffective
    and the situation worsens. PAY THE PRICE."): named, and rolled when roll_tables is set."""
    if resolution.outcome != "miss":
        return resolution
    move = get_move(str(resolution.details["move"]))
    to_roll = tables_named(move, [move.outcomes.get("miss", "")])
    if not to_roll:
        return resolution
    details = {**resolution.details, "tables_named": to_roll, "tables_rolled": []}
    if not params.roll_tables:
        return resolution.model_copy(update={"details": details})
    dice, results, texts = roll_named_tables(to_roll, source)
    return resolution.model_copy(
        update={
            "dice": [*resolution.dice, *dice],
            "text": "\n\n".join([resolution.text or "", *texts]),
            "rulings": [*resolution.rulings, "move_tables_on_request"],
            "details": {**details, "tables_rolled": results},
        }
    )


def _recover_roll(move_id: str, params: Any, sheet: Sheet, source: DiceSource) -> Resolution | None:
    check_momentum(params.momentum, params.impacts)
    if params.automatic_strong_hit:
        sheet.rule("automatic_strong_hit")
        return None
    move = get_move(move_id)
    stat, value = choose_stat(move, params.stat, params.stat_value, params.stats)
    roll = roll_action(
        source,
        stat_value=value,
        adds=params.adds,
        momentum=params.momentum,
        impacts=params.impacts,
        burn_momentum=params.burn_momentum,
        citation=move.citation,
        stat=stat,
    )
    return _take_burn(roll, sheet)


class HealParams(_RecoverBase):
    health: int = MeterField
    wounded: bool = False
    supply: int = Field(5, ge=0, le=5, description="for a weak hit paid with supply")
    unprepared: bool = False
    weak_hit_choice: Literal["lose_momentum", "sacrifice_resources"] | None = None


def resolve_heal(params: HealParams, source: DiceSource) -> Resolution:
    sheet = Sheet(
        momentum=params.momentum,
        impacts=params.impacts,
        meters={"health": params.health, "supply": params.supply},
    )
    roll = _recover_roll("heal", params, sheet, source)
    band = roll.outcome if roll else "strong_hit"
    choices: dict[str, list[str]] = {}
    if band != "miss":
        if params.wounded:
            sheet.clear_impact("wounded")
            sheet.meter("health", 2, "Heal: wounded cleared, +2 health")
        else:
            sheet.meter("health", 3, "Heal: +3 health")
    if band == "weak_hit":
        if params.weak_hit_choice == "lose_momentum":
            sheet.lose_momentum(2, "Heal weak hit: Lose Momentum (-2)")
        elif params.weak_hit_choice == "sacrifice_resources":
            sacrifice(sheet, 2, params.unprepared)
        else:
            choices["weak_hit_choice"] = ["lose_momentum", "sacrifice_resources"]
            sheet.rule("choices_are_the_players")
    return _with_tables(
        _resolution(sheet, "heal", band, roll, details={"choices": choices}), params, source
    )


class HeartenParams(_RecoverBase):
    spirit: int = MeterField
    shaken: bool = False
    sojourn: bool = Field(False, description="made as you Sojourn: +1 more spirit")


def resolve_hearten(params: HeartenParams, source: DiceSource) -> Resolution:
    sheet = Sheet(
        momentum=params.momentum, impacts=params.impacts, meters={"spirit": params.spirit}
    )
    roll = _recover_roll("hearten", params, sheet, source)
    band = roll.outcome if roll else "strong_hit"
    if band != "miss":
        more = 1 if params.sojourn else 0
        if params.shaken:
            sheet.clear_impact("shaken")
            sheet.meter("spirit", 1 + more, "Hearten: shaken cleared, +1 spirit")
        else:
            sheet.meter("spirit", 2 + more, "Hearten: +2 spirit")
    if band == "weak_hit":
        sheet.lose_momentum(1, "Hearten weak hit: Lose Momentum (-1)")
    return _with_tables(_resolution(sheet, "hearten", band, roll), params, source)


class ResupplyParams(_RecoverBase):
    supply: int = MeterField
    unprepared: bool = False
    hit_choice: Literal["supply", "item"] | None = Field(
        None, description="+supply, or acquire a specific item (+1 momentum)"
    )


def resolve_resupply(params: ResupplyParams, source: DiceSource) -> Resolution:
    sheet = Sheet(
        momentum=params.momentum, impacts=params.impacts, meters={"supply": params.supply}
    )
    roll = _recover_roll("resupply", params, sheet, source)
    band = roll.outcome if roll else "strong_hit"
    choices: dict[str, list[str]] = {}
    if band != "miss":
        if params.hit_choice == "supply":
            if params.unprepared:
                sheet.clear_impact("unprepared")
                sheet.meter("supply", 1, "Resupply: unprepared cleared, +1 supply")
            else:
                sheet.meter("supply", 2, "Resupply: +2 supply")
        elif params.hit_choice == "item":
            sheet.take_momentum(1, "Resupply: item acquired, +1 momentum")
        else:
            choices["hit_choice"] = ["supply", "item"]
            sheet.rule("choices_are_the_players")
    return _with_tables(
        _resolution(sheet, "resupply", band, roll, details={"choices": choices}), params, source
    )


REPAIR_POINTS = {
    "facility": (7, 5),
    "anchor": (4, 2),
    "underway": (3, 1),
    "under_fire": (2, 0),
}
REPAIR_RULING = Ruling(
    id="repair_points",
    text=(
        "Repair points on a hit come from the situation table (strong/weak): facility 7/5, "
        "anchor 4/2, underway 3/1, under fire 2/0; making your own repairs (not at a facility) "
        "you may also spend up to 3 supply for 1 point each, applied as Sacrifice Resources."
    ),
    quote=("exchange each -1 of supply for 1 extra repair point (up to 3 points)."),
    citation=cite("RECOVER MOVES > REPAIR"),
)
RECOVER_RULINGS = [REPAIR_RULING]


class RepairParams(_RecoverBase):
    situation: Literal["facility", "anchor", "underway", "under_fire"]
    supply: int = Field(5, ge=0, le=5)
    unprepared: bool = False
    supply_spent: int = Field(0, ge=0, le=3, description="own repairs: -supply for +1 point each")


def resolve_repair(params: RepairParams, source: DiceSource) -> Resolution:
    if params.supply_spent and params.situation == "facility":
        raise InvalidParameter(
            "supply can be exchanged for points only when you make your own repairs",
            "params.supply_spent",
        )
    if params.supply_spent > params.supply:
        raise InvalidParameter(
            f"supply_spent ({params.supply_spent}) exceeds supply ({params.supply})",
            "params.supply_spent",
        )
    sheet = Sheet(
        momentum=params.momentum, impacts=params.impacts, meters={"supply": params.supply}
    )
    roll = _recover_roll("repair", params, sheet, source)
    band = roll.outcome if roll else "strong_hit"
    points = 0
    if band != "miss":
        strong, weak = REPAIR_POINTS[params.situation]
        points = strong if band == "strong_hit" else weak
        if params.supply_spent:
            sacrifice(sheet, params.supply_spent, params.unprepared)
            points += params.supply_spent
        sheet.rule("repair_points")
    resolution = _resolution(
        sheet,
        "repair",
        band,
        roll,
        scores={"repair_points": points},
        details={"repair_points": points},
    )
    return _with_tables(resolution, params, source)


class SojournParams(_RecoverBase):
    pass


def resolve_sojourn(params: SojournParams, source: DiceSource) -> Resolution:
    if params.automatic_strong_hit:
        raise InvalidParameter("Sojourn itself is rolled", "params.automatic_strong_hit")
    sheet = Sheet(momentum=params.momentum, impacts=params.impacts)
    roll = _recover_roll("sojourn", params, sheet, source)
    assert roll is not None
    band = roll.outcome
    recover = {"strong_hit": 2, "weak_hit": 1, "miss": 0}[band]
    details: dict[str, Any] = {
        "recover_moves_each": recover,
        "recover_moves": ["heal", "hearten", "repair", "resupply"] if recover else [],
        "automatic_strong_hit": recover > 0,
    }
    if band == "weak_hit":
        details["group_limit"] = 3
    return _resolution(sheet, "sojourn", band, roll, details=details)


RECOVER_KINDS = [
    RollKind(
        id="heal",
        summary="Heal: +health (wounded cleared) on a hit; weak hit costs momentum or supply.",
        params=HealParams,
        resolve=resolve_heal,
        dice_order=_RECOVER_DICE,
        examples=[
            {
                "stats": {"iron": 3, "wits": 2},
                "health": 1,
                "wounded": True,
                "weak_hit_choice": "lose_momentum",
            },
            {"stat": "wits", "stat_value": 2, "health": 2},
        ],
    ),
    RollKind(
        id="hearten",
        summary="Hearten: +spirit (shaken cleared) on a hit; weak hit -1 momentum.",
        params=HeartenParams,
        resolve=resolve_hearten,
        dice_order=_RECOVER_DICE,
        examples=[{"stat": "heart", "stat_value": 2, "spirit": 3, "sojourn": True}],
    ),
    RollKind(
        id="resupply",
        summary="Resupply: +supply (unprepared cleared) or an item (+1 momentum) on a hit.",
        params=ResupplyParams,
        resolve=resolve_resupply,
        dice_order=_RECOVER_DICE,
        examples=[
            {
                "stat": "wits",
                "stat_value": 2,
                "supply": 0,
                "unprepared": True,
                "hit_choice": "supply",
                "impacts": 1,
            }
        ],
    ),
    RollKind(
        id="repair",
        summary="Repair: repair points by situation and outcome, +1 per supply spent.",
        params=RepairParams,
        resolve=resolve_repair,
        dice_order=_RECOVER_DICE,
        examples=[{"stat": "wits", "stat_value": 3, "situation": "anchor", "supply_spent": 2}],
    ),
    RollKind(
        id="sojourn",
        summary="Sojourn: how many automatic-strong-hit recover moves you each take.",
        params=SojournParams,
        resolve=resolve_sojourn,
        dice_order=ACTION_DICE,
        examples=[{"stat": "heart", "stat_value": 2}],
    ),
]
