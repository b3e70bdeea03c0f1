"""The values every resolution is made of: dice, citations, state changes, the resolution itself.

All frozen: a resolution is a record, serialised as it is into an API response and a journal row.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Citation(Frozen):
    """Where a rule comes from: the source file and the heading path inside it."""

    source: str = Field(examples=["sundered_isles.md"])
    heading: str = Field(examples=["ADVENTURE MOVES > FACE DANGER"])


class Die(Frozen):
    sides: int = Field(ge=2)
    value: int
    role: str = Field(description="what the die is for: action, challenge, oracle, table, ...")
    rerolled: bool = Field(False, description="this die was rolled again; a later die replaces it")
    cancelled: bool = Field(False, description="this die does not count (e.g. negative momentum)")
    kept: bool = Field(True, description="false for a die rolled but not used (e.g. advantage)")


class StateChange(Frozen):
    """A change the resolution implies, as a delta; nothing is applied by the engine."""

    target: str = Field(examples=["momentum", "health", "progress", "blood"])
    delta: int | None = None
    set_to: int | None = None
    note: str | None = None


class Ruling(Frozen):
    """A reading of an ambiguous (or incomplete) source text, chosen and written down."""

    id: str
    text: str
    quote: str = Field(description="the sentence of the source text this ruling reads")
    citation: Citation


class Resolution(Frozen):
    """The record of one resolved roll. Every number the narrator may mention is in here."""

    system: str = ""
    kind: str = ""
    outcome: str = Field(description="the outcome band or answer, e.g. strong_hit, yes, success")
    text: str | None = Field(None, description="outcome text or table result from the source")
    match: bool | None = None
    scores: dict[str, int] = Field(default_factory=dict)
    dice: list[Die] = Field(default_factory=list, description="every die, in the order consumed")
    changes: list[StateChange] = Field(default_factory=list)
    seed: int | None = None
    citation: Citation
    rulings: list[str] = Field(default_factory=list, description="ids of rulings applied")
    details: dict[str, Any] = Field(default_factory=dict)
    params: dict[str, Any] = Field(default_factory=dict, description="the validated parameters")

    def dice_values(self) -> list[int]:
        """The values in consumption order: given back as ``dice`` they replay this roll."""
        return [d.value for d in self.dice]
