"""Free-form dice expressions ("2d6+1", "10+2d8") through the maintained ``dice`` package.

We do not parse dice notation ourselves; we hand the package a ``random``-like object whose
``randint`` draws from our dice source, so expressions are seeded or given by hand like any roll.
"""

from __future__ import annotations

import warnings

# The `dice` package still calls pyparsing's camelCase API; those deprecation warnings are its own.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import dice as dice_lib  # type: ignore[import-untyped]

from rules.dice import DiceSource
from rules.errors import InvalidParameter, RulesError
from rules.models import Citation, Die, Resolution

_CITATION = Citation(source="dice notation", heading="NdS+M")


class _DiceAsRandom:
    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.dice: list[Die] = []

    def randint(self, low: int, high: int) -> int:
        if low != 1:
            raise InvalidParameter(
                f"dice from {low} to {high} are not supported", "params.expression"
            )
        die = self.source.roll(high, "expression")
        self.dice.append(die)
        return die.value


def resolve_expression(expression: str, source: DiceSource) -> Resolution:
    rng = _DiceAsRandom(source)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            result = dice_lib.roll(expression, random=rng)
    except RulesError:
        raise
    except (dice_lib.DiceBaseException, RecursionError, ValueError, ZeroDivisionError) as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InvalidParameter(
            f"params.expression: {expression!r} is not valid dice notation ({message})",
            "params.expression",
        ) from None
    total = int(sum(result)) if isinstance(result, list) else int(result)
    return Resolution(
        outcome=str(total),
        scores={"total": total},
        dice=rng.dice,
        citation=_CITATION,
        details={"expression": expression},
    )
