"""Every table of every system: rows partition the die range; every value reaches one row."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import GivenDice, SeededDice
from rules.registry import all_systems
from rules.tables import Table, TableRow, roll_table

ALL_TABLES = [(s.id, t) for s in all_systems() for t in s.tables.values()]


@pytest.mark.parametrize(
    ("system_id", "table"), ALL_TABLES, ids=[f"{s}.{t.id}" for s, t in ALL_TABLES]
)
def test_every_value_reaches_exactly_one_row(system_id: str, table: Table) -> None:
    low, high = table.value_range
    hits = {id(row): 0 for row in table.rows}
    for value in range(low, high + 1):
        matching = [row for row in table.rows if row.low <= value <= row.high]
        assert len(matching) == 1, f"{system_id}.{table.id}: {value} matches {len(matching)} rows"
        hits[id(matching[0])] += 1
    assert all(hits.values()), f"{system_id}.{table.id}: a row no value reaches"
    assert table.heading and table.source, "every table cites its source"


SIMPLE = Table(
    id="t",
    name="t",
    dice="d10",
    heading="H",
    source="s.md",
    rows=[
        TableRow(low=1, high=4, text="a"),
        TableRow(low=5, high=8, text="b"),
        TableRow(low=9, high=10, text="Roll twice", roll_twice=True),
    ],
)


# Ruling table_roll_twice. Pay the Price: "| 96 - 100 | Roll twice |"; and "If the result doesn't
# fit the situation, roll again." (sundered_isles.md, FATE MOVES > PAY THE PRICE)
def test_roll_twice_rolls_two_more() -> None:
    result = roll_table(SIMPLE, GivenDice([10, 2, 6]))
    assert result.texts() == ["a", "b"]


def test_roll_twice_rerolls_repeats_and_nested_roll_twice() -> None:
    source = GivenDice([9, 1, 10, 3, 7])
    result = roll_table(SIMPLE, source)
    source.finish()
    assert result.texts() == ["a", "b"]
    assert [d.rerolled for d in result.dice] == [False, False, True, True, False]


def test_two_dice_table_sums() -> None:
    table = Table(
        id="s",
        name="s",
        dice="2d6",
        heading="H",
        source="s.md",
        rows=[TableRow(low=2, high=6, text="low"), TableRow(low=7, high=12, text="high")],
    )
    assert roll_table(table, GivenDice([3, 4])).texts() == ["high"]


def test_rows_must_partition_the_range() -> None:
    with pytest.raises(ValueError, match="expected"):
        Table(
            id="bad",
            name="b",
            dice="d6",
            heading="H",
            rows=[TableRow(low=1, high=3, text="a"), TableRow(low=5, high=6, text="b")],
        )


@given(st.integers(min_value=0, max_value=2**40))
def test_table_roll_reproducible(seed: int) -> None:
    assert roll_table(SIMPLE, SeededDice(seed)) == roll_table(SIMPLE, SeededDice(seed))


# Pay the Price: "| 96 - 100 | Roll twice |": each result is the row of its own roll, which the
# Iron Vault export writes beside it (not the 96-100 that sent you there)
@given(st.sampled_from(ALL_TABLES), st.integers(min_value=0, max_value=2**40))
def test_each_result_has_the_roll_of_its_own_row(entry: tuple[str, Table], seed: int) -> None:
    system_id, table = entry
    tables = next(s for s in all_systems() if s.id == system_id).tables
    result = roll_table(table, SeededDice(seed), tables)
    texts, rolls = result.texts(), result.rolls()
    assert len(rolls) == len(texts)
    if not result.then:
        assert rolls == [result.value] and table.row_for(result.value).text == texts[0]
    if result.row.roll_twice:
        assert [table.row_for(v).text for v in rolls] == texts
