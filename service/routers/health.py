from __future__ import annotations

from fastapi import APIRouter

from rules.registry import all_systems

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz")
def readyz() -> dict[str, object]:
    return {"status": "ready", "systems": [s.id for s in all_systems()]}
