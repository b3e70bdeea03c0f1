"""Where dice come from: a seeded RNG or a list of dice a person rolled by hand.

One source per resolution. Each roll kind documents the order in which it consumes dice; a
``GivenDice`` source names the exact die that is missing, extra or impossible.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Protocol

from rules.errors import DiceError
from rules.models import Die

MAX_DICE_PER_RESOLUTION = 200


@lru_cache(maxsize=4096)
def make_die(sides: int, value: int, role: str) -> Die:
    """Dice are frozen values: a die of the same sides, value and role is shared (a hot path)."""
    return Die(sides=sides, value=value, role=role)


class DiceSource(Protocol):
    def roll(self, sides: int, role: str) -> Die: ...

    def finish(self) -> None:
        """Called after a resolution: raises if dice were given that were not used."""


class _Counted:
    def __init__(self) -> None:
        self.used = 0

    def _count(self, sides: int, role: str) -> None:
        if self.used >= MAX_DICE_PER_RESOLUTION:
            raise DiceError(
                f"a resolution may use at most {MAX_DICE_PER_RESOLUTION} dice",
                index=self.used,
                role=role,
                sides=sides,
            )
        self.used += 1


class SeededDice(_Counted):
    """Dice from a private ``random.Random``: the same seed gives the same dice, always."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed
        self._rng = random.Random(seed)

    def roll(self, sides: int, role: str) -> Die:
        self._count(sides, role)
        # random() * sides is uniform over 1..sides and cheaper than randint (a hot path).
        return make_die(sides, int(self._rng.random() * sides) + 1, role)

    def finish(self) -> None:
        return None

    def randint(self, low: int, high: int) -> int:
        """For libraries that take a ``random``-like object (the ``dice`` expression package)."""
        return self._rng.randint(low, high)


class GivenDice(_Counted):
    """Dice rolled by hand, consumed in order. A d100 is given as 1..100 (00 is 100)."""

    def __init__(self, values: list[int]) -> None:
        super().__init__()
        self.values = list(values)

    def roll(self, sides: int, role: str) -> Die:
        index = self.used
        if index >= len(self.values):
            raise DiceError(
                f"too few dice: dice[{index}] is needed as the {role} die (d{sides}) "
                f"but only {len(self.values)} were given",
                index=index,
                role=role,
                sides=sides,
            )
        value = self.values[index]
        if not 1 <= value <= sides:
            raise DiceError(
                f"dice[{index}] = {value} is impossible for the {role} die (d{sides}): "
                f"it must be between 1 and {sides}",
                index=index,
                role=role,
                sides=sides,
                value=value,
            )
        self._count(sides, role)
        return make_die(sides, value, role)

    def finish(self) -> None:
        if self.used < len(self.values):
            extra = self.values[self.used :]
            raise DiceError(
                f"too many dice: this roll used {self.used} dice, "
                f"{len(extra)} more were given ({extra})",
                index=self.used,
                value=extra[0],
            )


def roll_many(source: DiceSource, count: int, sides: int, role: str) -> list[Die]:
    return [source.roll(sides, role) for _ in range(count)]
