"""Any parameters and any dice, for every roll kind: a 200 or a 4xx that names a field, never a 500.

Parameters are drawn from each roll kind's own JSON schema (mostly valid, so they reach the
resolver, with values a little past their bounds now and then), and dice from plain integer lists
(mostly wrong, so they must be reported). The schema-to-strategy translation below covers the
keywords pydantic emits for our parameter models (hypothesis-jsonschema does not work with the
hypothesis release installed here).
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.registry import all_systems

Schema = dict[str, Any]


def _integer(schema: Schema) -> st.SearchStrategy[Any]:
    low, high = schema.get("minimum", -20), schema.get("maximum", 120)
    return st.integers(low, high) | st.integers(low - 2, high + 2)


def _string(schema: Schema) -> st.SearchStrategy[Any]:
    if "pattern" in schema:
        return st.from_regex(schema["pattern"], fullmatch=True)
    return st.text(
        min_size=schema.get("minLength", 0), max_size=min(schema.get("maxLength", 12), 12)
    )


def strategy(
    schema: Schema, defs: dict[str, Schema], ids: dict[str, list[str]] | None = None
) -> st.SearchStrategy[Any]:
    """``ids`` offers the system's real ids for free-text fields such as ``move`` and ``table``."""
    if "$ref" in schema:
        return st.deferred(lambda: strategy(defs[schema["$ref"].rsplit("/", 1)[1]], defs))
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "const" in schema:
        return st.just(schema["const"])
    if "anyOf" in schema:
        return st.one_of([strategy(s, defs) for s in schema["anyOf"]])
    kind = schema.get("type")
    if kind == "integer":
        return _integer(schema)
    if kind == "number":
        return st.floats(-10, 10, allow_nan=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "string":
        return _string(schema)
    if kind == "null":
        return st.none()
    if kind == "array":
        return st.lists(
            strategy(schema.get("items", {"type": "integer"}), defs),
            min_size=schema.get("minItems", 0),
            max_size=min(schema.get("maxItems", 4), 4),
        )
    if kind == "object" and "properties" in schema:
        props = schema["properties"]
        required = set(schema.get("required", []))

        def field(name: str) -> st.SearchStrategy[Any]:
            known = (ids or {}).get(name)
            plain = strategy(props[name], defs)
            return st.sampled_from(known) | plain if known else plain

        return st.fixed_dictionaries(
            {name: field(name) for name in required},
            optional={name: field(name) for name in props if name not in required},
        )
    if kind == "object":
        names = strategy(schema.get("propertyNames", {"type": "string"}), defs)
        values = strategy(schema.get("additionalProperties", {"type": "integer"}), defs)
        return st.dictionaries(names, values, min_size=schema.get("minProperties", 0), max_size=3)
    return st.integers(-2, 20)


KINDS = [
    (s.id, k.id, k.params.model_json_schema()) for s in all_systems() for k in s.roll_kinds.values()
]
IDS = {s.id: {"move": [m.id for m in s.moves], "table": list(s.tables)} for s in all_systems()}


@pytest.mark.parametrize(
    ("system_id", "kind", "schema"), KINDS, ids=[f"{s}.{k}" for s, k, _ in KINDS]
)
def test_roll_kind_never_500(client: TestClient, system_id: str, kind: str, schema: Schema) -> None:
    @settings(
        max_examples=int(os.environ.get("FUZZ_EXAMPLES", "15")),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(
        params=strategy(schema, schema.get("$defs", {}), IDS[system_id]),
        dice=st.none() | st.lists(st.integers(min_value=-1, max_value=101), max_size=12),
        seed=st.none() | st.integers(min_value=0, max_value=2**63 - 1),
    )
    def check(params: dict[str, Any], dice: list[int] | None, seed: int | None) -> None:
        body = {"system": system_id, "kind": kind, "params": params, "dice": dice, "seed": seed}
        response = client.post("/v1/rolls", json=body)
        assert response.status_code in (200, 422), response.text
        if response.status_code == 422:
            error = response.json()["error"]
            assert error["message"] and error["field"], error

    check()
