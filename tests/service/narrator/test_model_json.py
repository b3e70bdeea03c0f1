"""JSON from a model: bare, fenced, amid prose; nothing else is trusted."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.narrator.model import parse_json_object

PROPOSAL = {"kind": "action", "params": {"stat": "edge", "stat_value": 2}, "dice": [5, 3, 8]}


@pytest.mark.parametrize(
    "reply",
    [
        json.dumps(PROPOSAL),
        "```json\n" + json.dumps(PROPOSAL, indent=2) + "\n```",
        "Sure! " + json.dumps(PROPOSAL) + " Let me know.",
        "{not json} then " + json.dumps(PROPOSAL),
    ],
)
def test_the_first_json_object_is_found(reply: str) -> None:
    assert parse_json_object(reply) == PROPOSAL


@pytest.mark.parametrize("reply", ["", "no json here", "[1, 2, 3]", '{"kind": "action"'])
def test_no_object_is_an_error(reply: str) -> None:
    with pytest.raises(ValueError):
        parse_json_object(reply)


@given(
    st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=8), max_size=5),
    st.text(alphabet="abc .!", max_size=30),
)
def test_an_object_amid_prose_round_trips(value: dict[str, object], prose: str) -> None:
    assert parse_json_object(f"{prose}{json.dumps(value)}{prose}") == value
