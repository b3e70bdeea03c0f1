"""Sundered Isles suffer moves: meter arithmetic as state changes (never applied).

Helper of ``system.py``. Each kind takes the current meters in its params,
performs the move's roll where the move has one, and returns the implied changes as deltas, in
the order they happen (apply them in order).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.dice import DiceSource
from rules.errors import InvalidParameter
from rules.ironsworn import MOMENTUM_MIN, momentum_max
from rules.models import Resolution, Ruling, StateChange
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
from rules.systems.sundered_isles.moves import TABLES, get_move
from rules.tables import roll_table, table_resolution

METER_MAX = 5
MeterField = Field(ge=0, le=METER_MAX)
SUFFER = "SUFFER MOVES"
RECOVER = "RECOVER MOVES"

METER_RULINGS = [
    Ruling(
        id="momentum_floor",
        text=(
            "Losing momentum stops at -6. Only when momentum is already -6 does a further loss "
            "turn into the text's choice (apply the cost to another suffer move, or clear 1 unit "
            "of progress per rank); the kind then changes nothing and says so."
        ),
        quote=(
            "When your momentum is at its minimum (-6) and you must suffer -momentum, choose one."
        ),
        citation=cite("SUFFER MOVES > LOSE MOMENTUM"),
    ),
    Ruling(
        id="meter_overflow_to_momentum",
        text=(
            "Harm (stress, damage) beyond what the meter holds becomes lost momentum; an "
            "'additional -1' on a miss at 0 is treated the same way."
        ),
        quote="If your health is 0, Lose Momentum equal to any remaining harm.",
        citation=cite("SUFFER MOVES > ENDURE HARM"),
    ),
    Ruling(
        id="suffer_roll_after_loss",
        text=(
            "The resist roll of a suffer move uses the meter after the loss, and the momentum "
            "after any momentum it lost (so negative momentum may cancel the action die)."
        ),
        quote="Then, if your health is 0 or you choose to resist the harm, roll +health or +iron, "
        "whichever is higher.",
        citation=cite("SUFFER MOVES > ENDURE HARM"),
    ),
    Ruling(
        id="impact_caps_momentum",
        text=(
            "Marking an impact lowers max momentum at once: momentum above the new max drops to "
            "it. Clearing an impact raises max momentum and the reset but not momentum itself."
        ),
        quote="Your max momentum is reduced by 1 for each marked impact.",
        citation=cite("SUFFER MOVES"),
    ),
    Ruling(
        id="choices_are_the_players",
        text=(
            "Where a move says 'choose one', the choice is a parameter (strong_hit_choice, "
            "weak_hit_choice, miss_choice, at_zero); left out, the kind changes nothing for that "
            "choice and lists the options in details.choices."
        ),
        quote="On a strong hit, choose one.",
        citation=cite("SUFFER MOVES > ENDURE HARM"),
    ),
    Ruling(
        id="automatic_strong_hit",
        text=(
            "A recover move taken through Sojourn (automatic_strong_hit) consumes no dice and "
            "resolves as a strong hit."
        ),
        quote="Instead of rolling, assume an automatic strong hit for each.",
        citation=cite("RECOVER MOVES > SOJOURN"),
    ),
]


# --- running state -----------------------------------------------------------------------------


@dataclass
class Sheet:
    """Meters while a move resolves; every change is also recorded as a StateChange."""

    momentum: int
    impacts: int
    meters: dict[str, int] = field(default_factory=dict)
    changes: list[StateChange] = field(default_factory=list)
    rulings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def rule(self, ruling: str) -> None:
        if ruling not in self.rulings:
            self.rulings.append(ruling)

    def lose_momentum(self, amount: int, note: str) -> None:
        if amount <= 0:
            return
        self.rule("momentum_floor")
        if self.momentum <= MOMENTUM_MIN:
            self.notes.append(
                f"momentum is at its minimum (-6): instead of -{amount} momentum, apply the "
                "cost to a different suffer move, or clear 1 unit of progress per rank "
                "(troublesome=3 boxes; dangerous=2 boxes; formidable=1 box; extreme=2 ticks; "
                "epic=1 tick)"
            )
            return
        new = max(MOMENTUM_MIN, self.momentum - amount)
        self.changes.append(StateChange(target="momentum", delta=new - self.momentum, note=note))
        self.momentum = new

    def take_momentum(self, amount: int, note: str) -> None:
        new = min(momentum_max(self.impacts), self.momentum + amount)
        if new != self.momentum:
            self.changes.append(
                StateChange(target="momentum", delta=new - self.momentum, note=note)
            )
            self.momentum = new

    def meter(self, name: str, delta: int, note: str) -> int:
        """Change a 0..5 meter; returns the part of a loss the meter could not absorb."""
        old = self.meters[name]
        new = max(0, min(METER_MAX, old + delta))
        if new != old:
            self.changes.append(StateChange(target=name, delta=new - old, note=note))
        self.meters[name] = new
        return max(0, -delta - old) if delta < 0 else 0

    def suffer(self, name: str, amount: int, note: str) -> None:
        remaining = self.meter(name, -amount, note)
        if remaining:
            self.rule("meter_overflow_to_momentum")
            self.lose_momentum(remaining, f"{name} is 0: remaining -{remaining} as momentum")

    def mark_impact(self, impact: str) -> None:
        self.changes.append(StateChange(target=impact, set_to=1, note=f"mark {impact}"))
        self.changes.append(StateChange(target="impacts", delta=1, note=f"{impact} marked"))
        self.impacts += 1
        top = momentum_max(self.impacts)
        if self.momentum > top:
            self.rule("impact_caps_momentum")
            self.changes.append(
                StateChange(
                    target="momentum", delta=top - self.momentum, note="max momentum lowered"
                )
            )
            self.momentum = top

    def clear_impact(self, impact: str) -> None:
        self.changes.append(StateChange(target=impact, set_to=0, note=f"clear {impact}"))
        self.changes.append(StateChange(target="impacts", delta=-1, note=f"{impact} cleared"))
        self.impacts -= 1


def _resolution(
    sheet: Sheet,
    move_id: str,
    outcome: str,
    roll: Resolution | None,
    extra_dice: list[Any] | None = None,
    details: dict[str, Any] | None = None,
    scores: dict[str, int] | None = None,
) -> Resolution:
    move = get_move(move_id)
    base = roll or Resolution(outcome=outcome, citation=move.citation)
    texts = []
    if roll is not None:
        if outcome in ("strong_hit", "weak_hit") and "hit" in move.outcomes:
            texts.append(move.outcomes["hit"])
        texts.append(move.outcomes.get(outcome, ""))
    return base.model_copy(
        update={
            "outcome": outcome,
            "text": "\n\n".join(t for t in texts if t) or move.trigger,
            "dice": [*base.dice, *(extra_dice or [])],
            "changes": [*base.changes, *sheet.changes],
            "citation": move.citation,
            "rulings": [*base.rulings, *sheet.rulings],
            "scores": {**base.scores, **(scores or {})},
            "details": {
                **base.details,
                "move": move_id,
                "notes": sheet.notes,
                "after": {"momentum": sheet.momentum, "impacts": sheet.impacts, **sheet.meters},
                **(details or {}),
            },
        }
    )


def _take_burn(roll: Resolution, sheet: Sheet) -> Resolution:
    """Move a burn's momentum reset into the sheet, in the order it happened."""
    for change in roll.changes:
        if change.set_to is not None:
            sheet.momentum = change.set_to
        sheet.changes.append(change)
    return roll.model_copy(update={"changes": []})


def _roll_table(table_id: str, source: DiceSource) -> tuple[list[Any], dict[str, Any]]:
    table = TABLES[table_id]
    rolled = table_resolution(table, roll_table(table, source, TABLES))
    return list(rolled.dice), {
        "table": table_id,
        "roll": rolled.scores["roll"],
        "results": rolled.details["results"],
    }


# --- Lose Momentum, Sacrifice Resources (no roll) ------------------------------------------------


class LoseMomentumParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    momentum: int = MomentumField
    impacts: int = ImpactsField
    amount: int = Field(ge=1, le=16, description="-1 minor, -2 serious, -3 major setback")


def resolve_lose_momentum(params: LoseMomentumParams, source: DiceSource) -> Resolution:
    check_momentum(params.momentum, params.impacts)
    sheet = Sheet(momentum=params.momentum, impacts=params.impacts)
    sheet.lose_momentum(params.amount, f"Lose Momentum (-{params.amount})")
    at_minimum = params.momentum <= MOMENTUM_MIN
    return _resolution(
        sheet, "lose_momentum", "at_minimum" if at_minimum else "momentum_lost", None
    )


class SacrificeResourcesParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    supply: int = MeterField
    amount: int = Field(ge=1, le=5, description="-1 minor, -2 serious, -3 major loss")
    unprepared: bool = Field(False, description="the unprepared impact is marked")
    momentum: int = MomentumField
    impacts: int = ImpactsField


def sacrifice(sheet: Sheet, amount: int, unprepared: bool) -> bool:
    """Sacrifice Resources on a sheet with 'supply'; returns whether unprepared is now marked."""
    if unprepared:
        sheet.notes.append(
            "you are unprepared: envision how this causes you hardship and apply the cost "
            "to a different suffer move"
        )
        return True
    sheet.meter("supply", -amount, f"Sacrifice Resources (-{amount})")
    if sheet.meters["supply"] == 0:
        sheet.mark_impact("unprepared")
        return True
    return False


def resolve_sacrifice_resources(params: SacrificeResourcesParams, source: DiceSource) -> Resolution:
    check_momentum(params.momentum, params.impacts)
    sheet = Sheet(
        momentum=params.momentum, impacts=params.impacts, meters={"supply": params.supply}
    )
    sacrifice(sheet, params.amount, params.unprepared)
    outcome = "unprepared" if params.unprepared else "supply_lost"
    return _resolution(sheet, "sacrifice_resources", outcome, None)


# --- Endure Harm, Endure Stress, Companion Takes a Hit, Withstand Damage -------------------------


@dataclass(frozen=True)
class SufferSpec:
    move: str
    meter: str
    stat: str | None  # rolled "whichever is higher" with the meter
    impact: str | None  # blocks "shake it off" / the weak-hit trade
    strong: tuple[str, str] | None  # (+1 meter option, +1 momentum option)
    at_zero: tuple[str, ...]  # choices at 0 on a miss; "roll_table" rolls the move's table


class _SufferBase(BaseModel):
    model_config = ConfigDict(extra="forbid")
    amount: int = Field(ge=1, le=5, description="-1 minor, -2 serious, -3 major")
    resist: bool = Field(False, description="roll even though the meter is above 0")
    momentum: int = MomentumField
    impacts: int = ImpactsField
    adds: int = AddsField
    burn_momentum: bool = BurnField
    weak_hit_choice: Literal["trade", "press_on"] | None = Field(
        None, description="weak hit: Lose Momentum (-1) in exchange for +1 meter, or press on"
    )
    miss_choice: Literal["meter", "momentum"] | None = Field(
        None, description="miss: an additional -1 meter, or Lose Momentum (-2)"
    )


class EndureHarmParams(_SufferBase):
    health: int = MeterField
    iron: int = Field(ge=0, le=5)
    wounded: bool = False
    strong_hit_choice: Literal["shake_it_off", "embrace_the_pain"] | None = None
    at_zero: Literal["mark_wounded", "mark_permanently_harmed", "roll_table"] | None = None


class EndureStressParams(_SufferBase):
    spirit: int = MeterField
    heart: int = Field(ge=0, le=5)
    shaken: bool = False
    strong_hit_choice: Literal["shake_it_off", "embrace_the_darkness"] | None = None
    at_zero: Literal["mark_shaken", "mark_traumatized", "roll_table"] | None = None


AssetField = Field(
    None,
    max_length=80,
    description="the asset on the character sheet (a session fills it); the engine only records it",
)


class CompanionHitParams(_SufferBase):
    companion_health: int = MeterField
    asset: str | None = AssetField


class WithstandDamageParams(_SufferBase):
    integrity: int = MeterField
    battered: bool = False
    vehicle: Literal["command", "support", "incidental"] = "command"
    asset: str | None = AssetField
    strong_hit_choice: Literal["damage_control", "hold_fast"] | None = None
    at_zero: (
        Literal["mark_battered", "mark_cursed", "break_module", "destroy_module", "roll_table"]
        | None
    ) = None


SPECS = {
    "endure_harm": SufferSpec(
        "endure_harm",
        "health",
        "iron",
        "wounded",
        ("shake_it_off", "embrace_the_pain"),
        ("mark_wounded", "mark_permanently_harmed", "roll_table"),
    ),
    "endure_stress": SufferSpec(
        "endure_stress",
        "spirit",
        "heart",
        "shaken",
        ("shake_it_off", "embrace_the_darkness"),
        ("mark_shaken", "mark_traumatized", "roll_table"),
    ),
    "companion_takes_a_hit": SufferSpec(
        "companion_takes_a_hit", "companion_health", None, None, None, ()
    ),
    "withstand_damage": SufferSpec(
        "withstand_damage",
        "integrity",
        None,
        "battered",
        ("damage_control", "hold_fast"),
        ("mark_battered", "mark_cursed", "break_module", "destroy_module", "roll_table"),
    ),
}
_VEHICLE_AT_ZERO = {
    "command": SPECS["withstand_damage"].at_zero,
    "support": ("mark_battered", "roll_table"),
    "incidental": ("roll_table",),
}


def resolve_suffer(spec: SufferSpec, params: Any, source: DiceSource) -> Resolution:
    check_momentum(params.momentum, params.impacts)
    meter = spec.meter
    sheet = Sheet(
        momentum=params.momentum, impacts=params.impacts, meters={meter: getattr(params, meter)}
    )
    impacted = bool(getattr(params, spec.impact)) if spec.impact else False
    sheet.suffer(meter, params.amount, f"{get_move(spec.move).name} (-{params.amount})")
    if sheet.meters[meter] > 0 and not params.resist:
        return _resolution(sheet, spec.move, "no_roll", None)
    sheet.rule("suffer_roll_after_loss")
    value = sheet.meters[meter]
    rolled_with = meter
    if spec.stat is not None and getattr(params, spec.stat) > value:
        value, rolled_with = getattr(params, spec.stat), spec.stat
    roll = roll_action(
        source,
        stat_value=value,
        adds=params.adds,
        momentum=sheet.momentum,
        impacts=sheet.impacts,
        burn_momentum=params.burn_momentum,
    )
    roll = _take_burn(roll, sheet)
    band = roll.outcome
    choices: dict[str, list[str]] = {}
    extra_dice: list[Any] = []
    details: dict[str, Any] = {"rolled_with": rolled_with}
    if band == "strong_hit":
        if spec.strong is None:  # companion rallies
            sheet.meter(meter, 1, "your companion rallies")
        else:
            choice = params.strong_hit_choice
            if choice is None:
                choices["strong_hit_choice"] = list(spec.strong)
            elif choice == spec.strong[0]:
                if impacted:
                    sheet.notes.append(f"you are {spec.impact}: no +1 {meter}")
                else:
                    sheet.meter(meter, 1, choice)
            else:
                sheet.take_momentum(1, choice)
    elif band == "weak_hit":
        allowed = sheet.meters[meter] > 0 if spec.impact is None else not impacted
        if params.weak_hit_choice is None and allowed:
            choices["weak_hit_choice"] = ["trade", "press_on"]
        elif params.weak_hit_choice == "trade" and allowed:
            sheet.lose_momentum(1, f"Lose Momentum (-1) for +1 {meter}")
            sheet.meter(meter, 1, f"+1 {meter} for momentum")
    else:
        if params.miss_choice is None:
            choices["miss_choice"] = ["meter", "momentum"]
        elif params.miss_choice == "meter":
            sheet.suffer(meter, 1, f"an additional -1 {meter}")
        else:
            sheet.lose_momentum(2, "Lose Momentum (-2)")
        if sheet.meters[meter] == 0:
            details.update(_at_zero(spec, params, sheet, roll, source, choices, extra_dice))
    if choices:
        sheet.rule("choices_are_the_players")
    details["choices"] = choices
    return _resolution(sheet, spec.move, band, roll, extra_dice, details)


def _at_zero(
    spec: SufferSpec,
    params: Any,
    sheet: Sheet,
    roll: Resolution,
    source: DiceSource,
    choices: dict[str, list[str]],
    extra_dice: list[Any],
) -> dict[str, Any]:
    if spec.move == "companion_takes_a_hit":
        if roll.match:
            sheet.notes.append("miss with a match at 0 health: your companion is dead or destroyed")
            return {"companion": "dead"}
        sheet.notes.append("your companion is out of action until given aid")
        return {"companion": "out_of_action"}
    allowed = spec.at_zero
    if spec.move == "withstand_damage":
        allowed = _VEHICLE_AT_ZERO[params.vehicle]
    choice = params.at_zero
    if choice is None and allowed == ("roll_table",):
        choice = "roll_table"
    if choice is None:
        choices["at_zero"] = list(allowed)
        return {}
    if choice not in allowed:
        raise InvalidParameter(
            f"at 0 {spec.meter} the choices are {', '.join(allowed)}", "params.at_zero"
        )
    if choice == "roll_table":
        dice, result = _roll_table(spec.move, source)
        extra_dice.extend(dice)
        return {"at_zero": choice, "table": result}
    if choice == "break_module" or choice == "destroy_module":
        sheet.notes.append(choice.replace("_", " "))
    else:
        sheet.mark_impact(choice.removeprefix("mark_"))
    return {"at_zero": choice}


def _suffer_kind(move_id: str, params: type[BaseModel], example: dict[str, Any]) -> RollKind:
    spec = SPECS[move_id]
    return RollKind(
        id=move_id,
        summary=f"{get_move(move_id).name}: suffer -{spec.meter}, then the resist roll if any.",
        params=params,
        resolve=lambda p, source: resolve_suffer(spec, p, source),
        dice_order=(
            f"none if {spec.meter} stays above 0 and resist is false; otherwise action d6, "
            "challenge d10, challenge d10; then, on a miss at 0 with at_zero=roll_table"
            + (" (always for an incidental vehicle)" if move_id == "withstand_damage" else "")
            + ", one d100 on the move's table"
            if spec.at_zero
            else f"none if {spec.meter} stays above 0 and resist is false; otherwise action d6, "
            "challenge d10, challenge d10"
        ),
        examples=[example],
    )


# --- the roll kinds ------------------------------------------------------------------------------

ACTION_DICE = "action d6, challenge d10, challenge d10"


METER_KINDS = [
    RollKind(
        id="lose_momentum",
        summary="Lose Momentum: -1/-2/-3 momentum, floored at -6 (then the text's choice).",
        params=LoseMomentumParams,
        resolve=resolve_lose_momentum,
        dice_order="none",
        examples=[{"momentum": 3, "amount": 2}, {"momentum": -6, "amount": 1}],
    ),
    RollKind(
        id="sacrifice_resources",
        summary="Sacrifice Resources: -supply; at 0 mark unprepared.",
        params=SacrificeResourcesParams,
        resolve=resolve_sacrifice_resources,
        dice_order="none",
        examples=[{"supply": 2, "amount": 2, "momentum": 6}],
    ),
    _suffer_kind(
        "endure_harm",
        EndureHarmParams,
        {
            "health": 2,
            "amount": 3,
            "iron": 2,
            "momentum": 4,
            "miss_choice": "momentum",
            "at_zero": "roll_table",
        },
    ),
    _suffer_kind(
        "endure_stress",
        EndureStressParams,
        {
            "spirit": 4,
            "amount": 2,
            "heart": 3,
            "resist": True,
            "strong_hit_choice": "embrace_the_darkness",
        },
    ),
    _suffer_kind(
        "companion_takes_a_hit",
        CompanionHitParams,
        {"companion_health": 1, "amount": 2, "momentum": 2},
    ),
    _suffer_kind(
        "withstand_damage",
        WithstandDamageParams,
        {"integrity": 1, "amount": 1, "vehicle": "incidental"},
    ),
]
