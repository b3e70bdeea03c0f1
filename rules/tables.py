"""Random tables as data: a die expression, rows over value ranges, rows that roll again.

A table is rolled by itself (roll kind ``table``) or by the move or rule that uses it; both go
through ``roll_table`` so a table has one behaviour.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import Field, model_validator

from rules.dice import DiceSource
from rules.errors import InvalidParameter
from rules.models import Citation, Die, Frozen, Resolution, Ruling

_DICE_SPEC = re.compile(r"^(\d*)d(\d+)$")

# Ironsworn-family convention, applied to every "roll twice" row of every system's tables.
ROLL_TWICE_RULING = Ruling(
    id="table_roll_twice",
    text=(
        "A 'roll twice' row is replaced by two further rolls on the same table; a further "
        "'roll twice' among them, or a repeat of a result already kept, is rerolled (the "
        "rerolled die is kept in the record, marked rerolled)."
    ),
    quote="Roll twice",
    citation=Citation(source="sundered_isles.md", heading="FATE MOVES > PAY THE PRICE"),
)
MAX_TABLE_REROLLS = 20


class TableRow(Frozen):
    low: int
    high: int
    text: str
    roll_twice: bool = False
    roll_on: list[str] = Field(default_factory=list, description="other tables this row rolls on")

    @model_validator(mode="after")
    def _ordered(self) -> TableRow:
        if self.low > self.high:
            raise ValueError(f"row {self.low}-{self.high}: low is above high")
        return self


class Table(Frozen):
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    dice: str = Field(description="die expression: d100, d6, 2d6, d20 ...", examples=["d100"])
    heading: str = Field(description="heading path in the source text")
    source: str = ""
    rows: list[TableRow]
    note: str | None = None
    span: tuple[int, int] | None = Field(
        None,
        description="the values the rows cover when a rule adds modifiers to the dice (e.g. "
        "d20 + attributes - 5 per wound, clamped into this span); default: the dice range",
    )

    @model_validator(mode="after")
    def _rows_partition_the_range(self) -> Table:
        low, high = self.value_range
        count, sides = self.dice_count_sides
        if self.span is not None and not low <= count <= count * sides <= high:
            raise ValueError(f"table {self.id}: span {self.span} does not cover its dice")
        expected = low
        for row in self.rows:
            if row.low != expected:
                raise ValueError(f"table {self.id}: row starting at {row.low}, expected {expected}")
            expected = row.high + 1
        if expected - 1 != high:
            raise ValueError(f"table {self.id}: rows end at {expected - 1}, not {high}")
        return self

    @property
    def value_range(self) -> tuple[int, int]:
        """The lowest and highest value the rows cover (the dice range unless ``span`` widens it)."""
        if self.span is not None:
            return self.span
        count, sides = self.dice_count_sides
        return count, count * sides

    @property
    def dice_count_sides(self) -> tuple[int, int]:
        match = _DICE_SPEC.match(self.dice)
        if not match:
            raise ValueError(f"table dice {self.dice!r} is not of the form NdS")
        return int(match.group(1) or 1), int(match.group(2))

    @property
    def citation(self) -> Citation:
        return Citation(source=self.source, heading=self.heading)

    def row_for(self, value: int) -> TableRow:
        for row in self.rows:
            if row.low <= value <= row.high:
                return row
        raise InvalidParameter(f"table {self.id} has no row for {value}", "dice")


class TableResult(Frozen):
    table: str
    value: int
    row: TableRow
    dice: list[Die]
    then: list[TableResult] = Field(default_factory=list)

    def texts(self) -> list[str]:
        """The final results, with 'roll twice' and 'roll on' rows replaced by what they led to."""
        if self.then:
            own = [] if self.row.roll_twice else [self.row.text]
            return own + [t for result in self.then for t in result.texts()]
        return [self.row.text]

    def rolls(self) -> list[int]:
        """The roll each of texts() came from: a 'roll twice' row's two results their own
        rolls, not the 96-100 that sent you to them."""
        if self.then:
            own = [] if self.row.roll_twice else [self.value]
            return own + [v for result in self.then for v in result.rolls()]
        return [self.value]


def _roll_once(table: Table, source: DiceSource, role: str) -> tuple[int, list[Die]]:
    count, sides = table.dice_count_sides
    dice = [source.roll(sides, role) for _ in range(count)]
    return sum(d.value for d in dice), dice


def roll_table(
    table: Table,
    source: DiceSource,
    tables: dict[str, Table] | None = None,
    *,
    depth: int = 0,
) -> TableResult:
    """Roll ``table``; follow 'roll twice' and 'roll on' rows (``tables`` resolves the latter)."""
    role = f"table:{table.id}"
    value, dice = _roll_once(table, source, role)
    row = table.row_for(value)
    then: list[TableResult] = []
    if row.roll_twice and depth == 0:
        kept: list[TableResult] = []
        rerolls = 0
        while len(kept) < 2:
            sub_value, sub_dice = _roll_once(table, source, role)
            sub_row = table.row_for(sub_value)
            repeat = any(k.row == sub_row for k in kept)
            if (sub_row.roll_twice or repeat) and rerolls < MAX_TABLE_REROLLS:
                rerolls += 1
                dice.extend(d.model_copy(update={"rerolled": True}) for d in sub_dice)
                continue
            dice.extend(sub_dice)
            kept.append(TableResult(table=table.id, value=sub_value, row=sub_row, dice=sub_dice))
        then = kept
    for other_id in row.roll_on:
        other = (tables or {}).get(other_id)
        if other is None:
            raise InvalidParameter(f"table {table.id} refers to unknown table {other_id}", "table")
        sub = roll_table(other, source, tables, depth=depth + 1)
        dice.extend(sub.dice)
        then.append(sub)
    return TableResult(table=table.id, value=value, row=row, dice=dice, then=then)


def rolled_on(table: Table, result: TableResult) -> dict[str, Any]:
    """A table a move rolled on, as the move's ``details["tables_rolled"]`` holds it: what the
    narrator's brief, the terminal and the Iron Vault export read, whichever system rolled it."""
    return {
        "table": table.id,
        "name": table.name,
        "roll": result.value,
        "results": result.texts(),
        "rolls": result.rolls(),
    }


def rows_not_told(details: dict[str, Any], text: str | None) -> list[tuple[str, list[str]]]:
    """The tables a move rolled on, by name, with the rows ``text`` (the rule's outcome text)
    does not carry already: Sundered Isles appends its tables' rows to the text, Elegy does not.
    What the narrator's brief, the offline narration and the terminal show."""
    told = text or ""
    found = []
    for table in details.get("tables_rolled") or []:
        if not isinstance(table, dict):
            continue
        rows = [str(row) for row in table.get("results", []) if str(row) not in told]
        if rows:
            found.append((str(table.get("name") or table.get("table") or "Table"), rows))
    return found


def table_resolution(table: Table, result: TableResult) -> Resolution:
    texts = result.texts()
    return Resolution(
        outcome=f"{result.row.low}-{result.row.high}",
        text="; ".join(texts),
        scores={"roll": result.value},
        dice=result.dice,
        citation=table.citation,
        rulings=[ROLL_TWICE_RULING.id] if result.row.roll_twice else [],
        details={
            "table": table.id,
            "name": table.name,
            "results": texts,
            "rolls": result.rolls(),  # each result's own roll (a "roll twice" row's two)
            "result": result.model_dump(exclude={"dice"}),
        },
    )
