"""Storyteller dice pools: counting successes, 1s and botches, and the degree of success.

Source: storyteller.txt ("Difficulties", "Botches", "Automatic Success"). The counting rule is
one pure function, ``count_pool``, that every storyteller roll kind calls; the rulings it applies
are written in ``rules/systems/storyteller.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.dice import DiceSource
from rules.models import Die
from rules.tables import Table

SIDES = 10
MIN_DIFFICULTY = 2
MAX_DIFFICULTY = 10
MAX_POOL = 30
DEGREE_ROWS = 5  # "Five or more is a momentous occasion": 5+ net successes read the last row


@dataclass(frozen=True)
class Tally:
    """What one roll of a pool counts to."""

    successes: int  # dice at or above the difficulty (a 10 always), before any 1 cancels them
    ones: int
    cancelled: int  # successes cancelled by 1s
    willpower: int  # 1 when a willpower success was spent on this roll
    net: int  # successes - cancelled + willpower, never below 0
    botch: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "successes": self.successes,
            "ones": self.ones,
            "cancelled": self.cancelled,
            "willpower": self.willpower,
            "net": self.net,
            "botch": self.botch,
        }


def is_success(value: int, difficulty: int) -> bool:
    """A die at or above the difficulty succeeds; "A “10” is always a success." """
    return value == SIDES or value >= difficulty


def count_pool(values: list[int], difficulty: int, willpower: bool = False) -> Tally:
    """Count a rolled pool: each 1 cancels one success (a 10 included); a botch is a roll with
    at least one 1 and no success at all (cancelled successes still count against a botch); a
    willpower success is added after the 1s cancel and so also prevents a botch."""
    successes = sum(1 for v in values if is_success(v, difficulty))
    ones = sum(1 for v in values if v == 1)
    cancelled = min(successes, ones)
    bonus = 1 if willpower else 0
    return Tally(
        successes=successes,
        ones=ones,
        cancelled=cancelled,
        willpower=bonus,
        net=successes - cancelled + bonus,
        botch=ones > 0 and successes == 0 and not willpower,
    )


def mark_cancelled(dice: list[Die], difficulty: int, cancelled: int) -> list[Die]:
    """Mark the successes the 1s cancelled: the lowest successes first (a 10 last), then by
    position. Only the record changes; the count is the same whichever successes are marked."""
    successes = sorted(
        (i for i, d in enumerate(dice) if is_success(d.value, difficulty)),
        key=lambda i: (dice[i].value, i),
    )
    chosen = set(successes[:cancelled])
    return [
        d.model_copy(update={"cancelled": True}) if i in chosen else d for i, d in enumerate(dice)
    ]


@dataclass(frozen=True)
class PoolRoll:
    dice: list[Die]
    tally: Tally
    difficulty: int

    def details(self) -> dict[str, Any]:
        return {
            "pool": len(self.dice),
            "difficulty": self.difficulty,
            "values": [d.value for d in self.dice],
            **self.tally.as_dict(),
        }


def roll_pool(
    source: DiceSource, pool: int, difficulty: int, role: str, willpower: bool = False
) -> PoolRoll:
    """Roll ``pool`` d10 for ``role`` and count them."""
    dice = [source.roll(SIDES, role) for _ in range(pool)]
    tally = count_pool([d.value for d in dice], difficulty, willpower)
    return PoolRoll(mark_cancelled(dice, difficulty, tally.cancelled), tally, difficulty)


def degree_row(table: Table, net: int) -> tuple[str, str] | None:
    """The degree of success for ``net`` successes: (id, text), or None for no success."""
    if net <= 0:
        return None
    row = table.row_for(min(net, DEGREE_ROWS))
    return row.text.split(" ", 1)[0].lower(), row.text
