from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body

from rules.models import Resolution
from rules.registry import all_systems, resolve_roll
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
    ]
    for system in all_systems():
        for kind in system.roll_kinds.values():
            lines.append(f"- **{system.id} / {kind.id}**: {kind.summary} *Dice:* {kind.dice_order}")
    return "\n".join(lines)


def build_router() -> APIRouter:
    """Built per app: the examples and description are generated from the registry."""
    router = APIRouter(prefix="/v1", tags=["rolls"])

    @router.post("/rolls", description=_description())
    def roll(request: Annotated[RollRequest, Body(openapi_examples=_examples())]) -> Resolution:
        return resolve_roll(
            request.system, request.kind, request.params, dice=request.dice, seed=request.seed
        )

    return router
