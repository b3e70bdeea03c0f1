"""Storyteller traits: ratings and the dice pool they make (storyteller.txt, "Ratings" and
"Dice Pools").

The character sheet (sheet.py) holds the ratings; this module says what a rating may be and how
the traits a player names become a pool. system.py takes its meters from here, so the engine's
ranges and the sheet's are one list.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated

from pydantic import Field

from rules.registry import MeterSpec

# "If one of the traits has a maximum rating of 10 (Rage, Willpower, Gnosis)": the text's
# traits with a maximum; the sheet keeps them apart from the dotted attributes and abilities.
METERS = [
    MeterSpec(id="willpower", name="Willpower", min=0, max=10),
    MeterSpec(id="rage", name="Rage", min=0, max=10),
    MeterSpec(id="gnosis", name="Gnosis", min=0, max=10),
]
METER_IDS = tuple(m.id for m in METERS)
# A pool from one of these is "only that trait's value" (derived from the maxima, not listed).
SOLE_POOL_TRAITS = tuple(m.id for m in METERS if m.max == 10)

# "0 | Abysmal" is the lowest row of the ratings table; ratings go above 5 ("Werewolf
# transformations can push above 5 dots") and the only maximum the text names is 10.
MIN_RATING = 0
MAX_RATING = 10
# "one die for each point in the required trait(s)": an attribute and an ability, or one trait.
MAX_POOL_TRAITS = 2

TraitName = Annotated[
    str,
    Field(
        pattern=r"^[a-z][a-z0-9_]*$",
        max_length=40,
        description="a trait's name on the sheet, lowercase: dexterity, athletics, willpower",
    ),
]
Rating = Annotated[
    int,
    Field(ge=MIN_RATING, le=MAX_RATING, description=f"dots, {MIN_RATING}..{MAX_RATING}"),
]
# The engine records which traits made a pool; it rolls `pool` and never reads these.
Traits = Annotated[
    list[TraitName],
    Field(
        max_length=MAX_POOL_TRAITS,
        description="the character's traits the pool is made of, as named on the character "
        "sheet (filled in by a session; the engine rolls `pool`)",
    ),
]


def pool_of(ratings: Mapping[str, int], traits: list[str]) -> int:
    """Dice for the named traits: the sum of their dots, or a 10-max trait's value alone."""
    sole = [t for t in traits if t in SOLE_POOL_TRAITS]
    if sole:
        return ratings[sole[0]]
    return sum(ratings[t] for t in traits)
