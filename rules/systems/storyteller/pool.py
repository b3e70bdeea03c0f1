"""Storyteller dice pools: counting successes, 1s and botches, and the degree of success.

Source: storyteller.txt ("Difficulties", "Botches", "Automatic Success"). The counting rule is
one pure function, ``count_pool``, that every storyteller roll kind calls; the rulings it applies
are written in ``rulings.py``. Also here: the parameter types and the small helpers the roll
kinds share (simple and extended in ``system.py``, resisted in ``contest.py``, teamwork and
multiple actions in ``group.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from rules.catalog import load_tables
from rules.dice import DiceSource
from rules.models import Die, StateChange
from rules.tables import Table

SOURCE = "storyteller.txt"
SYSTEM_ID = "storyteller"
SIDES = 10
MIN_DIFFICULTY = 2
MAX_DIFFICULTY = 10
MAX_POOL = 30
MAX_GOAL = 100
MAX_MEMBERS = 6
MAX_ACTIONS = 6
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


# --- shared parameter types --------------------------------------------------------------------

Pool = Annotated[int, Field(ge=1, le=MAX_POOL, description=f"dice in the pool (1..{MAX_POOL})")]
Difficulty = Annotated[
    int,
    Field(
        ge=MIN_DIFFICULTY,
        le=MAX_DIFFICULTY,
        description="difficulty 2..10 (3 trivial, 6 standard, 9 extremely difficult)",
    ),
]
Goal = Annotated[int, Field(ge=1, le=MAX_GOAL, description="successes needed to finish")]
Accumulated = Annotated[
    int, Field(ge=0, le=MAX_GOAL, description="successes accumulated on earlier turns")
]
Willpower = Annotated[
    bool, Field(description="spend a willpower point for one guaranteed success on this roll")
]


class StrictParams(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- shared resolver helpers -------------------------------------------------------------------

DEGREE_TABLE = load_tables(SYSTEM_ID)["degree_of_success"]


def pool_rulings(roll: PoolRoll) -> list[str]:
    t = roll.tally
    rulings: list[str] = []
    tens = [d for d in roll.dice if d.value == 10]
    if tens and (roll.difficulty == 10 or any(d.cancelled for d in tens)):
        rulings.append("ten_always_succeeds")
    if t.cancelled:
        rulings.append("ones_cancel_successes")
    if t.ones and t.cancelled == t.successes and not t.willpower:
        # no success at all (a botch), or successes all cancelled (no botch: a failure)
        rulings.append("botch_needs_zero_successes")
    if t.willpower:
        rulings.append("willpower_success")
    return rulings


def band(roll: PoolRoll) -> str:
    if roll.tally.botch:
        return "botch"
    return "success" if roll.tally.net > 0 else "failure"


def willpower_change(spent: bool, target: str = "willpower") -> list[StateChange]:
    return [StateChange(target=target, delta=-1, note="willpower point spent")] if spent else []


def degree_of(net: int) -> tuple[str | None, str | None]:
    found = degree_row(DEGREE_TABLE, net)
    return (found[0], found[1]) if found else (None, None)


def unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))
