from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import MAX_DICE_PER_RESOLUTION, GivenDice, SeededDice
from rules.errors import DiceError


@given(st.integers(min_value=0, max_value=2**63 - 1), st.integers(min_value=2, max_value=100))
def test_same_seed_same_dice(seed: int, sides: int) -> None:
    a, b = SeededDice(seed), SeededDice(seed)
    assert [a.roll(sides, "x").value for _ in range(5)] == [
        b.roll(sides, "x").value for _ in range(5)
    ]


@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=2, max_value=100))
def test_seeded_dice_in_range(seed: int, sides: int) -> None:
    source = SeededDice(seed)
    assert all(1 <= source.roll(sides, "x").value <= sides for _ in range(20))


def test_given_dice_consumed_in_order() -> None:
    source = GivenDice([6, 3, 9])
    assert [
        source.roll(6, "action").value,
        source.roll(10, "c").value,
        source.roll(10, "c").value,
    ] == [6, 3, 9]
    source.finish()


# DESIGN.md (Dice): "Too few dice, or a value out of range for its die, is a clear 422 error naming
# the die that was wrong."
def test_too_few_dice_names_the_missing_die() -> None:
    source = GivenDice([4])
    source.roll(6, "action")
    with pytest.raises(DiceError) as err:
        source.roll(10, "challenge")
    assert err.value.field == "dice[1]"
    assert "challenge" in err.value.message and "d10" in err.value.message


def test_out_of_range_die_names_value_and_sides() -> None:
    with pytest.raises(DiceError) as err:
        GivenDice([7]).roll(6, "action")
    assert err.value.field == "dice[0]"
    assert err.value.value == 7 and err.value.sides == 6


@pytest.mark.parametrize("value", [0, -1])
def test_non_positive_die_rejected(value: int) -> None:
    with pytest.raises(DiceError):
        GivenDice([value]).roll(10, "challenge")


def test_extra_dice_rejected() -> None:
    source = GivenDice([1, 2, 3])
    source.roll(6, "action")
    with pytest.raises(DiceError) as err:
        source.finish()
    assert err.value.field == "dice[1]"
    assert "too many dice" in err.value.message


def test_dice_cap_per_resolution() -> None:
    source = SeededDice(1)
    for _ in range(MAX_DICE_PER_RESOLUTION):
        source.roll(6, "x")
    with pytest.raises(DiceError):
        source.roll(6, "x")
