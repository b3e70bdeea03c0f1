"""The page: a small ES-module app over the public JSON API, served at ``/`` and ``/play/{id}``.

No build step and nothing fetched from elsewhere: ``static/`` holds the HTML, one CSS file and
the JavaScript modules, served under ``/ui``. The page's own requests go to the public ``/v1``
API only (the same one the docs describe), with the API key the player typed when the service
asks for one. Model and player text is put in the page as text, never as HTML; the page's
Content-Security-Policy allows scripts from this origin only, as a second guard.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, FastAPI
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from starlette.responses import Response
from starlette.staticfiles import PathLike
from starlette.types import Scope

STATIC = Path(__file__).parent / "static"
ASSETS = "/ui"  # the page's CSS and JavaScript (not rate limited: service.limits)
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


class Assets(StaticFiles):
    """The page's files with ``Cache-Control: no-cache``: a browser keeps them but asks each
    time (If-None-Match on StaticFiles' ETag, answered 304 while unchanged), so a new version
    of the service is picked up on the next load. A version in the URL would not do: the ES
    modules import one another by relative path, which a query string does not follow."""

    def file_response(
        self, full_path: PathLike, stat_result: os.stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = "no-cache"  # on a 304 too
        return response


def _page() -> FileResponse:
    return FileResponse(
        STATIC / "index.html",
        media_type="text/html; charset=utf-8",
        headers={"Content-Security-Policy": POLICY, "Cache-Control": "no-cache"},
    )


def install_web(app: FastAPI) -> None:
    """The page at ``/`` and ``/play/{session_id}``, its assets under ``/ui``."""
    router = APIRouter(include_in_schema=False)

    @router.api_route("/", methods=["GET", "HEAD"])
    def start() -> FileResponse:
        return _page()

    @router.api_route("/play/{session_id}", methods=["GET", "HEAD"])
    def play(session_id: Annotated[str, PathParam(max_length=64)]) -> FileResponse:
        return _page()  # the page reads the id from its URL and asks the API for it

    app.include_router(router)
    app.mount(ASSETS, Assets(directory=STATIC), name="ui")
