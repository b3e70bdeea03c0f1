"""OpenAPI: one request schema per (system, roll kind), and every error answer documented.

- Each roll kind's parameter model is a named schema (``sundered_isles.action``), with the ids it
  accepts (``table``, ``move``) listed as an enum for its system.
- ``RollRequest`` is a ``oneOf`` of per-kind request schemas
  (``RollRequest.sundered_isles.action``): ``system`` and ``kind`` constants, ``params`` that
  kind's parameters, ``dice`` or ``seed``. So a request fits the schema exactly when its shape is
  one the service accepts; the engine's rules beyond a schema's reach (which dice a roll
  consumes, cross-field limits) answer 422 naming the field.
- Request-validation answers (422) are ``ErrorResponse``, not FastAPI's ``HTTPValidationError``:
  the service answers ``{"error": {"message", "field"}}``, on every route, present or future; a
  route with a request body also documents the 400 of a body that cannot be read.
- Every session route (``/v1/sessions...``) documents the 503 of a database busy or unreachable
  for a moment, with its ``Retry-After`` (``service/sessions/errors.py``).
- Integer bounds are written as integers (FastAPI writes floats: ``2**63 - 1`` became ``2**63``).

tests/service/test_contract.py holds the service to this document with schemathesis.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import (
    get_definitions,
    get_fields_from_routes,
    get_flat_models_from_fields,
    get_model_name_map,
    get_openapi,
)

from rules.registry import GameSystem, RollKind, all_systems
from service.errors import ERROR_DESCRIPTIONS
from service.limits import document_limits
from service.schemas import DICE_OR_SEED, ErrorResponse, RollRequest

REF = "#/components/schemas/"


def _known_ids(system: GameSystem, kind: RollKind) -> dict[str, list[str]]:
    """Parameters that name one of the system's ids; any other value is refused by the engine."""
    if kind.id == "table":
        return {"table": list(system.tables)}
    if kind.id == "move":
        return {"move": [m.id for m in system.moves]}
    return {}


def _params_schemas(system: GameSystem, kind: RollKind) -> dict[str, dict[str, Any]]:
    """The kind's parameter schema and the models nested in it, by component name."""
    name = f"{system.id}.{kind.id}"
    schema = kind.params.model_json_schema(ref_template=f"{REF}{name}.{{model}}")
    schemas = {f"{name}.{d}": definition for d, definition in schema.pop("$defs", {}).items()}
    for field, ids in _known_ids(system, kind).items():
        schema["properties"][field]["enum"] = ids
    schema["title"] = f"{system.name}: {kind.id}"
    schema["description"] = f"{kind.summary}\n\nDice order: {kind.dice_order}"
    schemas[name] = schema
    return schemas


def _request_schema(
    system: GameSystem, kind: RollKind, params: dict[str, Any], common: dict[str, Any]
) -> dict[str, Any]:
    """A request for one roll kind: ``params`` (required when the kind has required parameters),
    and ``dice`` or ``seed``, not both."""
    required = ["system", "kind"] + (["params"] if params.get("required") else [])
    return {
        "title": f"{system.name}: {kind.id} roll",
        "type": "object",
        "properties": {
            "system": {"const": system.id},
            "kind": {"const": kind.id},
            "params": {"$ref": f"{REF}{system.id}.{kind.id}"},
            "dice": common["dice"],
            "seed": common["seed"],
        },
        "required": required,
        "additionalProperties": False,
        **DICE_OR_SEED,
    }


def _roll_schemas() -> dict[str, dict[str, Any]]:
    common = RollRequest.model_json_schema()["properties"]  # dice and seed
    schemas: dict[str, dict[str, Any]] = {}
    requests = []
    for system in all_systems():
        for kind in system.roll_kinds.values():
            params = _params_schemas(system, kind)
            schemas.update(params)
            request = f"RollRequest.{system.id}.{kind.id}"
            schemas[request] = _request_schema(
                system, kind, params[f"{system.id}.{kind.id}"], common
            )
            requests.append({"$ref": f"{REF}{request}"})
    schemas["RollRequest"] = {
        "title": "RollRequest",
        "description": "A roll of one kind of one system: the schema of each kind is one of these.",
        "oneOf": requests,
    }
    return schemas


SESSIONS = "/v1/sessions"


def _database_unavailable(content: dict[str, Any]) -> dict[str, Any]:
    retry_after = {"description": "seconds to wait before retrying", "schema": {"type": "integer"}}
    return {
        "description": "Unavailable: the database is busy (a lock held too long) or cannot be "
        "reached for a moment; retry after `Retry-After` seconds",
        "headers": {"Retry-After": retry_after},
        "content": content,
    }


def _error_answers(spec: dict[str, Any], components: dict[str, Any]) -> None:
    """Every 422 (FastAPI documents its own HTTPValidationError) answers ``ErrorResponse``, and
    every operation with a request body documents the 400 of a body that cannot be read, every
    session operation the 503 of its database."""
    components.setdefault(
        "ErrorResponse", ErrorResponse.model_json_schema(ref_template=f"{REF}{{model}}")
    )
    for defs_name, definition in components["ErrorResponse"].pop("$defs", {}).items():
        components.setdefault(defs_name, definition)
    error = {"application/json": {"schema": {"$ref": f"{REF}ErrorResponse"}}}
    for route, path in spec.get("paths", {}).items():
        for operation in path.values():
            if route.startswith(SESSIONS):
                operation["responses"].setdefault("503", _database_unavailable(error))
            if "requestBody" in operation:
                unreadable = {"description": ERROR_DESCRIPTIONS[400], "content": error}
                operation["responses"].setdefault("400", unreadable)
            answer = operation.get("responses", {}).get("422")
            if answer is None:
                continue
            schema = answer.get("content", {}).get("application/json", {}).get("schema", {})
            if schema.get("$ref") == f"{REF}HTTPValidationError":
                operation["responses"]["422"] = {
                    "description": ERROR_DESCRIPTIONS[422],
                    "content": error,
                }
    if f'"{REF}HTTPValidationError"' not in json.dumps(spec["paths"]):
        components.pop("HTTPValidationError", None)
        components.pop("ValidationError", None)  # only HTTPValidationError refers to it


_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def _restore_bounds(written: Any, exact: Any) -> None:
    """Put back the integer bounds of ``exact`` where ``written`` has them as floats."""
    if isinstance(written, dict) and isinstance(exact, dict):
        for key, value in written.items():
            if key in _BOUNDS and isinstance(value, float) and type(exact.get(key)) is int:
                written[key] = exact[key]
            else:
                _restore_bounds(value, exact.get(key))
    elif isinstance(written, list) and isinstance(exact, list):
        for w, e in zip(written, exact, strict=False):
            _restore_bounds(w, e)


def _exact_bounds(app: FastAPI, components: dict[str, Any]) -> None:
    """FastAPI writes every bound of its component schemas as a float (its OpenAPI model types
    them so), and ``2**63 - 1`` as a float is ``2**63``: a seed one past the limit would fit
    the document. The schemas as pydantic wrote them, from the functions ``get_openapi`` uses,
    give the integers back."""
    fields = get_fields_from_routes(list(app.routes))
    names = get_model_name_map(get_flat_models_from_fields(fields, known_models=set()))
    _, definitions = get_definitions(fields=fields, model_name_map=names)
    for name, schema in components.items():
        _restore_bounds(schema, definitions.get(name))


def install_openapi(app: FastAPI) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        spec = get_openapi(
            title=app.title, version=app.version, description=app.description, routes=app.routes
        )
        components = spec.setdefault("components", {}).setdefault("schemas", {})
        _exact_bounds(app, components)
        components.update(_roll_schemas())
        _error_answers(spec, components)
        document_limits(app, spec)  # 413 (request body), 429 (rate limit)
        app.openapi_schema = spec
        return spec

    app.openapi = openapi  # type: ignore[method-assign]
