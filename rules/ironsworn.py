"""Mechanics shared by the Ironsworn-family systems (sundered_isles, elegy).

The outcome band (an action score against two challenge dice) is computed here and nowhere else.
"""

from __future__ import annotations

from typing import Literal

Band = Literal["strong_hit", "weak_hit", "miss"]

ACTION_SCORE_CAP = 10  # Starforged core rule: "Your action score can't exceed 10."
MOMENTUM_MIN = -6
MOMENTUM_MAX = 10


BANDS: tuple[Band, Band, Band] = ("miss", "weak_hit", "strong_hit")  # worst to best


def outcome_band(score: int, challenge: tuple[int, int]) -> Band:
    """Strong hit beats both challenge dice, weak hit beats one; ties do not beat."""
    beaten = sum(1 for c in challenge if score > c)
    return BANDS[beaten]


def band_rank(band: str) -> int:
    return BANDS.index(band)


def burn_band(meter: int, band: Band, challenge: tuple[int, int]) -> Band | None:
    """The band burning ``meter`` (momentum, focus) would give, if that is better than ``band``.

    Burning replaces the action score with the meter; only a positive meter can be burned, and
    a burn that does not improve the outcome is never worth its reset."""
    if meter <= 0:
        return None
    burned = outcome_band(meter, challenge)
    return burned if band_rank(burned) > band_rank(band) else None


def is_match(challenge: tuple[int, int]) -> bool:
    return challenge[0] == challenge[1]


def momentum_max(impacts: int) -> int:
    """Max momentum is 10, less 1 for each impact marked."""
    return MOMENTUM_MAX - impacts


def momentum_reset(impacts: int) -> int:
    """Reset is +2 with no impacts, +1 with one, 0 with more than one."""
    return 2 if impacts == 0 else 1 if impacts == 1 else 0


OracleOdds = Literal["small_chance", "unlikely", "50_50", "likely", "almost_certain"]
# Ask the Oracle: "roll d100 ... a yes when the roll is at or below" these
ODDS: dict[str, int] = {
    "small_chance": 10,
    "unlikely": 25,
    "50_50": 50,
    "likely": 75,
    "almost_certain": 90,
}


def is_oracle_match(roll: int) -> bool:
    """A d100 oracle roll of 11, 22, ... 99 or 100 is a match."""
    return roll == 100 or (roll % 11 == 0)
