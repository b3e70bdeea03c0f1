"""Elegy's roll parameters: strict pydantic models, so a bad input is a 422 naming its field."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from rules.progress import MAX_TICKS
from rules.systems.elegy.mechanics import (
    FOCUS_MAX,
    FOCUS_MIN,
    METER_MAX,
    Impact,
    Meter,
    Rank,
    Stat,
    Weapon,
)

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


class _Action(_Impacts):
    stat_value: int = Field(ge=0, le=5, description="the stat's value")
    adds: int = Field(0, ge=0, le=10, description="every +x added to this roll")
    focus: int = Field(2, ge=FOCUS_MIN, le=FOCUS_MAX, description="current focus, -6..+10")
    burn_focus: bool = Field(
        False, description="burn focus if that improves the outcome (only ever improves it)"
    )


class ActionParams(_Action):
    stat: Stat = Field(description="dexterity, heart, force, glamour or intellect")


class PowerParams(ActionParams):
    blood: int | None = Field(
        None, ge=0, le=METER_MAX, description="current blood (spending at 0 marks Starving...)"
    )


class RitualParams(_Action):
    consume: Meter = Field(
        "blood", description="what the ritual consumes on a weak hit (or 81-00 on a miss)"
    )
    meter_value: int | None = Field(
        None, ge=0, le=METER_MAX, description="current value of the consumed meter"
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
            "spirit (Endure Stress), blood (Endure Hunger, Use Power, Perform Ritual, Heal)"
        ),
    )
    amount: int = Field(
        0, ge=0, le=20, description="Endure moves: the -health/-spirit/-blood suffered"
    )
    pay_the_price: bool = Field(
        False, description="roll the Pay the Price table when the outcome says Pay the Price"
    )
