"""Go Forth: the Momentum dice pool as an immutable state machine.

Source: go_forth.txt, "Momentum" (Momentum Pool, Preparing, Spending Momentum, Locking Momentum,
Hits & Beats, Building, Short Rest) and "Advanced Actions" (Rally).

A ``Pool`` counts the d6 Momentum dice in each area. Every transition is a pure function that
returns a new pool and never changes the number of dice (only a Soul wound's "Lose 1 Momentum
permanently" does, and that is a state change of the wound roll, not a pool transition).
Transitions raise ``InvalidParameter`` naming the parameter that asked for the impossible move.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from rules.dice import DiceSource
from rules.errors import InvalidParameter
from rules.models import Citation, Die, Resolution, StateChange

SOURCE = "go_forth.txt"
AREAS: tuple[Area, ...] = ("stamina", "power", "fatigue", "locked", "building")
Area = Literal["stamina", "power", "fatigue", "locked", "building"]
# "It can come from: Stamina Power Building Locked" (in that order when the player does not choose).
HIT_ORDER: tuple[Area, ...] = ("stamina", "power", "building", "locked")
MAX_POOL_DICE = 30


def cite(heading: str) -> Citation:
    return Citation(source=SOURCE, heading=heading)


MOMENTUM = cite("Momentum")


class Pool(BaseModel):
    """Where the Momentum dice sit. "You start with 3 Momentum dice (d6s)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    lock_slots: int = Field(1, ge=0, le=10, description="'You begin with 1 Lock slot.'")
    stamina: int = Field(3, ge=0, le=MAX_POOL_DICE, description="the reserve")
    power: int = Field(0, ge=0, le=MAX_POOL_DICE, description="active fuel, ready to spend")
    fatigue: int = Field(0, ge=0, le=MAX_POOL_DICE, description="exhausted, burned out")
    locked: int = Field(0, ge=0, le=10, description="dice in Lock slots")
    building: int = Field(0, ge=0, le=MAX_POOL_DICE, description="pushed out for allies to use")

    @field_validator("locked")
    @classmethod
    def _fits_the_slots(cls, locked: int, info: ValidationInfo) -> int:
        slots = info.data.get("lock_slots", 1)
        if locked > slots:
            raise ValueError(f"{locked} dice locked but only {slots} Lock slot(s)")
        return locked

    @model_validator(mode="after")
    def _at_most_the_cap_in_all(self) -> Pool:
        # Every transition conserves the total, and a short rest puts it all in Stamina: the cap
        # holds for the whole pool, not only per area.
        if self.total > MAX_POOL_DICE:
            raise ValueError(f"{self.total} Momentum dice in all; at most {MAX_POOL_DICE}")
        return self

    @property
    def total(self) -> int:
        return sum(self.count(area) for area in AREAS)

    def count(self, area: Area) -> int:
        return int(getattr(self, area))

    def move(self, source: Area, target: Area, n: int = 1, field: str = "params.action") -> Pool:
        """Move ``n`` dice from one area to another (the one primitive every transition uses)."""
        if n < 0:
            raise InvalidParameter(f"cannot move {n} dice", field)
        if self.count(source) < n:
            raise InvalidParameter(
                f"cannot move {n} Momentum from {source} to {target}: "
                f"{source} holds {self.count(source)}",
                field,
            )
        if target == "locked" and self.locked + n > self.lock_slots:
            raise InvalidParameter(
                f"no free Lock slot: {self.locked} of {self.lock_slots} in use", field
            )
        if source == target or n == 0:
            return self
        return self.model_copy(
            update={source: self.count(source) - n, target: self.count(target) + n}
        )

    def all_fatigued(self) -> bool:
        return all(self.count(area) == 0 for area in HIT_ORDER)


# --- transitions -------------------------------------------------------------------------------

Direction = Literal["stamina_to_power", "fatigue_to_stamina"]


def turn_returns(pool: Pool) -> Pool:
    """Building dice unused when the builder's turn returns go to Fatigue."""
    return pool.move("building", "fatigue", pool.building)


def prepare(pool: Pool, direction: Direction, field: str = "params.direction") -> Pool:
    """Start of turn: unused Building dice go to Fatigue, then move 1 die as prepared."""
    pool = turn_returns(pool)
    if direction == "stamina_to_power":
        return pool.move("stamina", "power", 1, field)
    return pool.move("fatigue", "stamina", 1, field)


def spend(pool: Pool, source: Area, n: int = 1, field: str = "params.area") -> Pool:
    """Spent dice (boosts, gambits, extra actions, dice used from Building) go to Fatigue."""
    if source not in ("stamina", "power", "building"):
        raise InvalidParameter(
            f"Momentum is spent from stamina, power or building, not {source}", field
        )
    return pool.move(source, "fatigue", n, field)


def lock(pool: Pool, source: Area = "power", field: str = "params.area") -> Pool:
    if source not in ("stamina", "power"):
        raise InvalidParameter(f"a die is locked from stamina or power, not {source}", field)
    return pool.move(source, "locked", 1, field)


def unlock(pool: Pool, field: str = "params.action") -> Pool:
    """A lock removed (or its effect Spent) sends its die to Fatigue."""
    return pool.move("locked", "fatigue", 1, field)


def build(pool: Pool, n: int, field: str = "params.count") -> Pool:
    return pool.move("power", "building", n, field)


def take_hit(pool: Pool, prefer: Area | None = None) -> tuple[Pool, Area | None]:
    """Move 1 die into Fatigue; ``None`` as the area means everything was fatigued: a Beat."""
    if pool.all_fatigued():
        return pool, None
    order = ([prefer] if prefer else []) + [a for a in HIT_ORDER if a != prefer]
    area = next(a for a in order if pool.count(a) > 0)
    return pool.move(area, "fatigue", 1), area


def rally(pool: Pool, field: str = "params.action") -> Pool:
    return pool.move("fatigue", "stamina", 1, field)


def short_rest(pool: Pool) -> Pool:
    """After every Encounter: all Momentum (locked and building included) to Stamina."""
    return Pool(lock_slots=pool.lock_slots, stamina=pool.total)


def pool_changes(before: Pool, after: Pool) -> list[StateChange]:
    return [
        StateChange(target=f"momentum.{area}", delta=after.count(area) - before.count(area))
        for area in AREAS
        if after.count(area) != before.count(area)
    ]


# --- the roll kind -----------------------------------------------------------------------------

Action = Literal["prepare", "spend", "lock", "unlock", "build", "take_hit", "rally", "short_rest"]
Use = Literal["roll", "effort", "gambit", "extra_action", "defense", "ability"]


class MomentumParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pool: Pool = Field(
        default_factory=Pool,
        description="the Momentum pool before the action (default: 3 dice in Stamina)",
    )
    action: Action
    direction: Direction | None = Field(None, description="prepare: which die to move")
    area: Literal["stamina", "power", "building", "locked"] | None = Field(
        None,
        description="spend: stamina, power or building (an ally using your Built dice); "
        "lock: stamina or power (default power); take_hit: the area the player chooses first",
    )
    use: Use | None = Field(
        None,
        description="spend: roll/effort (a d6 is rolled), gambit or extra_action; "
        "lock: defense (a d6 is rolled: +that to all Defenses) or ability",
    )
    count: int = Field(1, ge=1, le=MAX_POOL_DICE, description="build: dice; take_hit: hits")


def _need(value: object, name: str, action: str) -> None:
    if value is None:
        raise InvalidParameter(f"params.{name} is required for {action}", f"params.{name}")


def _forbid(params: MomentumParams, allowed: set[str]) -> None:
    for name in ("direction", "area", "use"):
        if name not in allowed and getattr(params, name) is not None:
            raise InvalidParameter(
                f"params.{name} does not apply to {params.action}", f"params.{name}"
            )
    if "count" not in allowed and params.count != 1:
        raise InvalidParameter(f"params.count does not apply to {params.action}", "params.count")


def resolve_momentum(params: MomentumParams, source: DiceSource) -> Resolution:
    before, action = params.pool, params.action
    dice: list[Die] = []
    rulings: list[str] = []
    details: dict[str, object] = {}
    beats = 0
    heading = "Momentum"
    if action == "prepare":
        _forbid(params, {"direction"})
        _need(params.direction, "direction", action)
        assert params.direction is not None
        after = prepare(before, params.direction)
        heading = "Momentum > Preparing"
        if before.building:
            rulings.append("building_returns_at_prepare")
    elif action == "spend":
        _forbid(params, {"area", "use"})
        _need(params.area, "area", action)
        _need(params.use, "use", action)
        assert params.area is not None and params.use is not None
        if params.use not in ("roll", "effort", "gambit", "extra_action"):
            raise InvalidParameter(
                f"spend is for roll, effort, gambit or extra_action, not {params.use} "
                "(lock a die to increase Defense)",
                "params.use",
            )
        if params.area == "stamina" and params.use in ("effort", "extra_action"):
            raise InvalidParameter(
                f"Stamina cannot be spent on {params.use}: only Power (or Built dice) can",
                "params.use",
            )
        after = spend(before, params.area)
        heading = "Momentum > Spending Momentum"
        if params.use in ("roll", "effort"):
            dice.append(source.roll(6, "momentum"))
            details["boost"] = dice[0].value
    elif action == "lock":
        _forbid(params, {"area", "use"})
        area = params.area or "power"
        if params.area is None:
            rulings.append("lock_from_power")
        if params.use not in (None, "defense", "ability"):
            raise InvalidParameter(
                f"a lock is for defense or ability, not {params.use}", "params.use"
            )
        after = lock(before, area)
        heading = "Momentum > Locking Momentum"
        if params.use == "defense":
            dice.append(source.roll(6, "momentum"))
            details["defense_bonus"] = dice[0].value
    elif action == "unlock":
        _forbid(params, set())
        after = unlock(before)
        heading = "Momentum > Locking Momentum"
        rulings.append("unlock_to_fatigue")
    elif action == "build":
        _forbid(params, {"count"})
        after = build(before, params.count)
        heading = "Momentum > Building"
    elif action == "take_hit":
        _forbid(params, {"area", "count"})
        after = before
        sources: list[str] = []
        for _ in range(params.count):
            after, area_hit = take_hit(after, params.area)
            if area_hit is None:
                beats += 1
            else:
                sources.append(area_hit)
        details["hit_from"] = sources
        if params.area is None and sources:
            rulings.append("hit_order")
        heading = "Momentum > Hits & Beats"
    elif action == "rally":
        _forbid(params, set())
        after = rally(before)
        heading = "Combat > Advanced Actions"
    else:
        _forbid(params, set())
        after = short_rest(before)
        heading = "Momentum > Wounds > Recovery > Short Rest"
        if before.locked or before.building:
            rulings.append("short_rest_gathers_everything")
    changes = pool_changes(before, after)
    if beats:
        changes.append(
            StateChange(target="beat", delta=beats, note="a Hit with all Momentum in Fatigue")
        )
    return Resolution(
        outcome="beat" if beats else action,
        scores={area: after.count(area) for area in AREAS} | {"beats": beats},
        dice=dice,
        changes=changes,
        citation=cite(heading),
        rulings=rulings,
        details={"pool_before": before.model_dump(), "pool_after": after.model_dump()} | details,
    )
