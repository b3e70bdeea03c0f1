"""Elegy's roll parameters: strict pydantic models, so a bad input is a 422 naming its field."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from rules.progress import MAX_TICKS
from rules.systems.elegy.mechanics import (
    ADDS_MAX,
    FOCUS_MAX,
    FOCUS_MIN,
    METER_MAX,
    STAT_MAX,
    STAT_MIN,
    Impact,
    Meter,
    Rank,
    Stat,
    Weapon,
)
from rules.systems.elegy.options import Benefit, Cost, MoveChoice

Odds = Literal["almost_certain", "likely", "50_50", "unlikely", "small_chance"]
TrackKind = Literal["combat", "connection", "elegy"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Impacts(_Strict):
    impacts: list[Impact] = Field(
        default_factory=list,
        description="impacts currently marked (their count sets the focus reset)",
        max_length=8,
    )

    @field_validator("impacts")
    @classmethod
    def _unique(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("each impact may be listed once")
        return value


def _meter(name: str, why: str) -> Any:
    return Field(None, ge=0, le=METER_MAX, description=f"current {name} ({why})")


class _Action(_Impacts):
    stat_value: int = Field(ge=STAT_MIN, le=STAT_MAX, description="the stat's value")
    adds: int = Field(0, ge=0, le=ADDS_MAX, description="every +x added to this roll")
    focus: int = Field(2, ge=FOCUS_MIN, le=FOCUS_MAX, description="current focus, -6..+10")
    burn_focus: bool = Field(
        False, description="burn focus if that improves the outcome (only ever improves it)"
    )
    benefit: Benefit | None = Field(
        None, description="on a hit: the benefit chosen (left out, none is applied)"
    )
    health: int | None = _meter("health", "a harm cost at 0 marks Wounded...")
    spirit: int | None = _meter("spirit", "a stress cost at 0 marks Shaken...")
    blood: int | None = _meter("blood", "spending at 0 marks Starving...")
    rank: Rank | None = Field(None, description="the track the mark_progress benefit marks")
    ticks: int = Field(0, ge=0, le=MAX_TICKS, description="ticks already on that track")


class ActionParams(_Action):
    stat: Stat = Field(description="dexterity, heart, force, glamour or intellect")
    cost: Cost | None = Field(
        None,
        description="on a weak hit or miss (a power: on a miss, its second cost): the cost "
        "chosen (left out, none is applied)",
    )


class PowerParams(ActionParams):
    """A power is an Action Roll; the blood it spends is the Action Roll's ``blood``."""


class RitualParams(_Action):
    consume: Meter = Field(
        "blood", description="what the ritual consumes on a weak hit (or 81-00 on a miss)"
    )
    meter_value: int | None = Field(
        None,
        ge=0,
        le=METER_MAX,
        description="current value of the consumed meter (left out: its own field, e.g. blood)",
    )


class ConclusionParams(_Strict):
    track: TrackKind = Field(description="combat, connection or elegy")
    rank: Rank
    ticks: int = Field(ge=0, le=MAX_TICKS, description="ticks marked on the track (4 a box)")
    recommit: bool = Field(
        False, description="on a connection miss: recommit (clear half the boxes, rank up)"
    )
    set_things_right: bool = Field(
        False, description="on an elegy weak hit: you sing an elegy to set things right (full xp)"
    )


class ProgressParams(_Strict):
    rank: Rank
    ticks: int = Field(0, ge=0, le=MAX_TICKS, description="ticks already marked")
    times: int = Field(1, ge=1, le=40, description="how many times progress is marked")


class FoeHarmParams(_Strict):
    rank: Rank = Field(description="the foe's rank")
    weapon: Weapon = Field(description="sets the multiplier: 1x improvised/light, 2x the rest")
    harm: int = Field(1, ge=1, le=10, description="points of harm inflicted (before the weapon)")
    ticks: int = Field(0, ge=0, le=MAX_TICKS, description="ticks already on the foe's track")


class _Suffer(_Impacts):
    amount: int | None = Field(None, ge=1, le=20, description="as appropriate to the situation")
    foe_rank: Rank | None = Field(None, description="instead of amount: the foe's rank")


class HarmParams(_Suffer):
    health: int = Field(ge=0, le=METER_MAX, description="current health")
    superstition: bool = Field(False, description="garlic, sacred symbols, holy water: +1 harm")
    authentic_faith: bool = Field(False, description="the foe counts as one rank higher")


class StressParams(_Suffer):
    spirit: int = Field(ge=0, le=METER_MAX, description="current spirit")


class HungerParams(_Impacts):
    blood: int = Field(ge=0, le=METER_MAX, description="current blood")
    spend: int = Field(1, ge=1, le=10, description="blood to spend")


class OracleParams(_Strict):
    odds: Odds = "50_50"


class AdvanceParams(_Strict):
    purchase: Literal["new_asset", "upgrade"]
    experience: int = Field(ge=0, le=1000, description="unspent experience")


class MoveParams(_Impacts):
    move: str = Field(description="move id, as listed by GET /v1/systems/elegy/moves")
    stat: Stat | None = Field(None, description="the stat rolled (one the move allows)")
    stat_value: int = Field(0, ge=0, le=5)
    adds: int = Field(0, ge=0, le=10)
    focus: int = Field(2, ge=FOCUS_MIN, le=FOCUS_MAX)
    burn_focus: bool = False
    rank: Rank | None = Field(None, description="rank of the track (conclusion and progress moves)")
    ticks: int = Field(0, ge=0, le=MAX_TICKS, description="ticks on the track the move concerns")
    recommit: bool = Field(False, description="on a conclusion miss, choose to recommit")
    meter_value: int | None = Field(
        None,
        ge=0,
        le=METER_MAX,
        description=(
            "current value of the meter the move suffers or spends: health (Endure Harm), "
            "spirit (Endure Stress; Feed, whose kill option loses spirit), blood (Endure "
            "Hunger, Use Power, Perform Ritual, Heal, Rest)"
        ),
    )
    amount: int = Field(
        0, ge=0, le=20, description="Endure moves: the -health/-spirit/-blood suffered"
    )
    pay_the_price: bool = Field(
        False, description="roll the Pay the Price table when the outcome says Pay the Price"
    )
    strong_hit_choice: MoveChoice | None = Field(
        None, description="on a strong hit, the move's 'choose one' option (one it offers)"
    )
    weak_hit_choice: MoveChoice | None = Field(
        None, description="on a weak hit, the move's 'choose one' option (one it offers)"
    )
    miss_choice: MoveChoice | None = Field(
        None, description="on a miss, the move's 'choose one' option (one it offers)"
    )
    set_things_right: bool = Field(
        False, description="Fulfill Your Elegy weak hit: you Sing an Elegy to set things right (+1)"
    )
