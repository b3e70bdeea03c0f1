from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Body
from pydantic import ValidationError

from rules.errors import InvalidParameter
from rules.models import Resolution
from rules.registry import all_systems, get_system, resolve_roll, validate_params
from service.errors import error_responses
from service.schemas import RollRequest


def _examples() -> dict[str, dict[str, Any]]:
    examples: dict[str, dict[str, Any]] = {}
    for system in all_systems():
        for kind in system.roll_kinds.values():
            for i, params in enumerate(kind.examples):
                name = f"{system.id}.{kind.id}" + (f".{i + 1}" if i else "")
                examples[name] = {
                    "summary": f"{system.name}: {kind.id}",
                    "description": f"{kind.summary}\n\nDice order: {kind.dice_order}",
                    "value": {"system": system.id, "kind": kind.id, "params": params, "seed": 42},
                }
    return examples


def _description() -> str:
    lines = [
        "Resolve any roll kind of any system, statelessly. Give `seed` for a reproducible roll, "
        "or `dice` (rolled by hand) consumed in the order below; with neither, a seed is drawn "
        "and returned. Every roll kind's parameter schema is in `GET /v1/systems`.",
        "",
        "The request schema is one schema per system and roll kind. The engine then applies the "
        "game's own rules, which a schema cannot state (e.g. the dice a roll consumes, or "
        "momentum above its maximum), and answers 422 naming the field when one is broken.",
        "",
    ]
    for system in all_systems():
        for kind in system.roll_kinds.values():
            lines.append(f"- **{system.id} / {kind.id}**: {kind.summary} *Dice:* {kind.dice_order}")
    return "\n".join(lines)


def check_params(request: RollRequest) -> None:
    """``params`` as the engine reads them, then as strictly as the schema states them.

    The engine's own validation (with its messages) comes first; then no coercion the schema
    does not allow: no ``"2"`` for 2, no ``true`` for 1. An unknown system or kind is the
    engine's error too."""
    kind = get_system(request.system).roll_kind(request.kind)
    validate_params(kind, request.params)
    try:
        kind.params.model_validate_json(json.dumps(request.params), strict=True)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        where = ".".join(str(p) for p in errors[0]["loc"])
        message = "; ".join(
            f"params.{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in errors
        )
        raise InvalidParameter(message, f"params.{where}" if where else "params") from None


def build_router() -> APIRouter:
    """Built per app: the examples and description are generated from the registry."""
    router = APIRouter(prefix="/v1", tags=["rolls"])

    @router.post("/rolls", description=_description(), responses=error_responses(422))
    def roll(request: Annotated[RollRequest, Body(openapi_examples=_examples())]) -> Resolution:
        check_params(request)
        return resolve_roll(
            request.system, request.kind, request.params, dice=request.dice, seed=request.seed
        )

    return router
