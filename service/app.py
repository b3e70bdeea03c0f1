"""The FastAPI application factory."""

from __future__ import annotations

from fastapi import FastAPI

from service.errors import install_error_handlers
from service.routers import health, rolls, systems
from service.settings import Settings, get_settings


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    app = FastAPI(
        title="fateweaver",
        version="0.1.0",
        description=(
            "Solo tabletop RPG companion: a deterministic rules engine for five game systems, "
            "rules search over the source texts, and a narrator that never changes a number."
        ),
    )
    app.state.settings = settings
    install_error_handlers(app)
    app.include_router(health.router)
    app.include_router(systems.router)
    app.include_router(rolls.build_router())
    return app
