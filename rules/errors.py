"""Errors raised by the rules engine.

    RulesError                 base: a message and the offending field
    ├── UnknownError           an id that does not exist (system, roll kind, table, move, stat)
    ├── InvalidParameter       a parameter is missing, of the wrong type or out of range
    └── DiceError              a die given by hand is missing, extra or impossible

``field`` is a dotted path into the request (``params.stat``, ``dice[2]``) so that a caller can
point at what to fix. Only ``service/`` turns these into HTTP responses (404 for UnknownError,
422 for the rest).
"""

from __future__ import annotations


class RulesError(Exception):
    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class UnknownError(RulesError):
    """An id (system, roll kind, table, move, stat, condition...) that does not exist."""

    def __init__(self, what: str, value: str, known: list[str], field: str | None = None) -> None:
        shown = ", ".join(sorted(known)[:40])
        super().__init__(f"unknown {what} {value!r}; known: {shown}", field or what)
        self.what = what
        self.value = value
        self.known = known


class InvalidParameter(RulesError):
    """A parameter that is present but not acceptable."""


class DiceError(RulesError):
    """A die given by hand that is missing, extra or out of range for its sides."""

    def __init__(
        self,
        message: str,
        *,
        index: int,
        role: str | None = None,
        sides: int | None = None,
        value: int | None = None,
    ) -> None:
        super().__init__(message, f"dice[{index}]")
        self.index = index
        self.role = role
        self.sides = sides
        self.value = value
