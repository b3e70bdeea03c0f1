from __future__ import annotations

from fastapi import APIRouter, Request

from rules.registry import all_systems

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz")
def readyz(request: Request) -> dict[str, object]:
    """The engine is ready at once; rules search reports its own state (the index may be building)."""
    return {
        "status": "ready",
        "systems": [s.id for s in all_systems()],
        "retrieval": request.app.state.retrieval.state,
    }
