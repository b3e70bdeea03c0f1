"""The FastAPI application factory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi_offline import FastAPIOffline

from service.errors import install_error_handlers
from service.limits import DOCS_ASSETS, install_limits
from service.mcp_server import mount_mcp, serve_mcp
from service.narrator.model import build_model
from service.openapi import install_openapi
from service.redact import install_redaction
from service.retrieval import Retrieval
from service.routers import health, narrator, rolls, rules_search, sessions, systems, turns
from service.routers.openai_compat import build_router as build_chat_router
from service.sessions import install_session_errors
from service.sessions.db import database_of
from service.sessions.idempotency import install_idempotency
from service.settings import Settings, get_settings
from service.web import install_web


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Start-up work runs here, so that building an app (a test, a script) starts nothing."""
    install_redaction(app.state.settings)  # before anything logs: no secret in a log line
    database = database_of(app)
    database.upgrade()  # schema migrations, first: a database that cannot migrate stops start-up
    retrieval: Retrieval = app.state.retrieval  # read now: tests may have swapped it in
    if app.state.settings.retrieval_warm_start:
        retrieval.warm()
    try:
        async with serve_mcp(app):  # /mcp: the MCP session manager's task group
            yield
    finally:
        # In a finally: a forced stop (a second Ctrl-C) skips the shutdown event and cancels us.
        retrieval.close()
        database.close()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    # The docs pages load Swagger UI's and ReDoc's assets from the package, not a CDN: offline,
    # /docs works as well as the API does.
    app = FastAPIOffline(
        title="fateweaver",
        version="0.1.0",
        description=(
            "Solo tabletop RPG companion: a deterministic rules engine for five game systems, "
            "rules search over the source texts, and a narrator that never changes a number."
        ),
        lifespan=lifespan,
        static_url=DOCS_ASSETS,
    )
    app.state.settings = settings
    # Rules search: the index is opened on first use (or at start-up, in the background).
    app.state.retrieval = Retrieval(settings)
    # The narrator's model (None: the offline narrator); building it sends nothing.
    app.state.narrator_model = build_model(settings)
    install_error_handlers(app)
    install_session_errors(app)
    install_limits(app)  # body size, requests per API key
    install_idempotency(app)
    app.include_router(health.router)
    app.include_router(systems.router)
    app.include_router(rolls.build_router())
    app.include_router(rules_search.router)
    app.include_router(narrator.router)
    app.include_router(sessions.build_router(settings))
    app.include_router(turns.build_router(settings))
    app.include_router(build_chat_router(settings))  # /v1/models, /v1/chat/completions
    mount_mcp(app)  # /mcp: the MCP server (service/mcp_server.py)
    install_web(app)  # the page at / (issue 17)
    install_openapi(app)
    return app
