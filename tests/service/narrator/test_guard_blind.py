"""The guard scored on two sets written blind (blind_narrations.yaml): by people who had read
neither the guard nor the other sets. b2 (heldout_blind) was tuned on after it measured 19/27;
b3 (heldout_blind3) measured 16/30 caught, 0/30 false alarms when it arrived, then was tuned on
too. Neither is blind any more: the floors are regression checks at what each measures now, and
the target (>= 90% caught, <= 5% false alarms) is the next blind set's to judge."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

import pytest
import yaml
from pydantic import BaseModel, ConfigDict

from service.narrator.guard import (
    CHECKS,
    ChangeFact,
    Expectation,
    _system_names,
    polarity_of,
)
from tests.service.narrator.test_guard_real_model import score

DATA = Path(__file__).with_name("blind_narrations.yaml")
CATCH_FLOOR = {"heldout_blind": 0.95, "heldout_blind3": 0.70}  # 27/27 and 22/30 now
FALSE_ALARMS_AT_MOST = 0.05


class Change(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    target: str
    delta: int | None = None


class Blind(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    system: str
    kind: str
    move: str | None = None
    stat: str | None = None
    outcome: str
    match: bool | None
    numbers: list[int]
    changes: list[Change]
    character: str | None
    text: str
    label: Literal["consistent", "contradicting"]
    check: str | None = None

    def expectation(self) -> Expectation:
        """What a real request's facts would hold (guard.expectation_from builds the same from
        a resolution): the changes, the move and stat rolled, the others as names not to use."""
        moves, stats = _system_names(self.system)
        move = moves.get(self.move or "")
        # the moves a band's own text sends to are the roll's too (as expectation_from reads)
        sent_to = {"pay the price", "endure harm", "endure stress"}
        return Expectation(
            system=self.system,
            outcome=self.outcome,
            polarity=polarity_of(self.system, self.kind, self.outcome),
            match=self.match,
            # expectation_from counts the changes' amounts among the engine's numbers too
            numbers=frozenset(abs(n) for n in self.numbers)
            | frozenset(abs(c.delta) for c in self.changes if c.delta is not None),
            character=self.character,
            changes=tuple(ChangeFact(target=c.target, delta=c.delta) for c in self.changes),
            move=move,
            stat=self.stat if self.stat in stats else None,
            other_moves=frozenset(
                n for n in moves.values() if n != move and n.lower() not in sent_to
            ),
            other_stats=frozenset(s for s in stats if s != self.stat)
            if self.stat in stats
            else frozenset(),
        )


@cache
def blind(split: str = "heldout_blind") -> list[Blind]:
    raw = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    return [Blind.model_validate(e) for e in raw[split]]


@pytest.mark.parametrize("split", sorted(CATCH_FLOOR))
def test_the_blind_set_is_well_formed(split: str) -> None:
    entries = blind(split)
    assert len({e.id for e in entries}) == len(entries) >= 50
    for e in entries:
        assert (e.check is None) == (e.label == "consistent"), e.id
        assert e.check is None or e.check in CHECKS, e.id


@pytest.mark.parametrize("split", sorted(CATCH_FLOOR))
def test_catch_rate_and_false_alarms_on_the_blind_sets(
    split: str, guard_rates: dict[str, str]
) -> None:
    name = {"heldout_blind": "blind_b2", "heldout_blind3": "blind_b3"}[split]
    catch, false, line, missed = score(name, blind(split))
    guard_rates[name] = f"{line} [written blind, since tuned on]"
    assert catch >= CATCH_FLOOR[split], (line, missed)
    assert false <= FALSE_ALARMS_AT_MOST, (line, missed)
