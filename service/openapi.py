"""OpenAPI: each roll kind's parameter model as a named schema, and `params` as one of them.

The engine validates `params` against the roll kind's model; this only documents it, so that
/docs shows every kind's fields, bounds and defaults next to its dice order and examples.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from rules.registry import all_systems


def _roll_kind_schemas() -> dict[str, dict[str, Any]]:
    schemas: dict[str, dict[str, Any]] = {}
    for system in all_systems():
        for kind in system.roll_kinds.values():
            name = f"{system.id}.{kind.id}"
            schema = kind.params.model_json_schema(
                ref_template=f"#/components/schemas/{name}.{{model}}"
            )
            for def_name, definition in schema.pop("$defs", {}).items():
                schemas[f"{name}.{def_name}"] = definition
            schema["title"] = f"{system.name}: {kind.id}"
            schema["description"] = f"{kind.summary}\n\nDice order: {kind.dice_order}"
            schemas[name] = schema
    return schemas


def install_openapi(app: FastAPI) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        spec = get_openapi(
            title=app.title, version=app.version, description=app.description, routes=app.routes
        )
        components = spec.setdefault("components", {}).setdefault("schemas", {})
        kinds = _roll_kind_schemas()
        components.update(kinds)
        request = components.get("RollRequest", {}).get("properties", {})
        if "params" in request:
            request["params"] = {
                "description": request["params"].get("description", ""),
                "anyOf": [
                    {"$ref": f"#/components/schemas/{name}"}
                    for name in kinds
                    if name.count(".") == 1  # the kinds themselves, not their nested models
                ],
            }
        app.openapi_schema = spec
        return spec

    app.openapi = openapi  # type: ignore[method-assign]
