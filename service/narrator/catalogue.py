"""A system's roll kinds in a few words each, for the roll-proposal prompt (built from the
engine's own parameter schemas, so the model is offered exactly what the engine accepts)."""

from __future__ import annotations

from functools import cache
from typing import Any

from rules.registry import get_system


def _type(schema: dict[str, Any]) -> str:
    if "enum" in schema:
        return "|".join(str(v) for v in schema["enum"])
    if "anyOf" in schema:
        return "/".join(_type(s) for s in schema["anyOf"] if s.get("type") != "null")
    kind = str(schema.get("type", "any"))
    if kind == "integer" and ("minimum" in schema or "maximum" in schema):
        return f"int {schema.get('minimum', '')}..{schema.get('maximum', '')}"
    return kind


def _first_sentence(text: str, most: int = 160) -> str:
    head = text.split(". ")[0]
    return head if len(head) <= most else head[:most].rsplit(" ", 1)[0] + "…"


@cache
def catalogue(system_id: str) -> str:
    lines = []
    for kind in get_system(system_id).roll_kinds.values():
        if kind.id == "expression":
            continue
        schema = kind.params.model_json_schema()
        required = set(schema.get("required", []))
        params = ", ".join(
            f"{name}{'' if name in required else '?'}: {_type(spec)}"
            for name, spec in schema.get("properties", {}).items()
        )
        lines.append(f"- {kind.id}({params}); dice: {_first_sentence(kind.dice_order)}")
    return "\n".join(lines)
