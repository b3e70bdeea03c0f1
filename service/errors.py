"""Map engine errors and request-validation errors to JSON: a message and the offending field.

    400  a request body that cannot be read at all (not UTF-8)               HTTPException
    404  an unknown id in the URL (its path, or its query: ``?system=``)       UnknownInUrl
    405  a method the path does not have, with ``Allow`` listing the ones it has
    422  any other bad input: request validation, or a rule of the engine     RulesError
    503  (and other HTTPExceptions) as raised, e.g. rules search unavailable
    500  a bug: JSON too, with no detail of it (the log has the trace)

Every one of them answers ``{"error": {"message": ..., "field": ...}}`` (``ErrorResponse``);
``field`` names the part of the request at fault: ``body`` (missing, not JSON, nested too deep),
a field (``params.stat``), a path or query parameter, ``path`` (no such route), ``method``;
``error_responses`` documents them on a route.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from rules.errors import RulesError, UnknownError
from service.schemas import ErrorResponse

ERROR_DESCRIPTIONS = {
    400: "Unreadable body (e.g. not UTF-8); a body that is not JSON, or not the schema's, is a 422",
    404: "Not found: an unknown id in the URL; the message lists the known ones",
    413: "Too large: the message names the limit (and, for an export, how to ask for less)",
    422: "Invalid input: the message says what is wrong, `field` names the field",
    429: "Too many requests: wait `Retry-After` seconds",
    503: "Unavailable: the message says why (e.g. rules search could not open its index)",
}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route that can answer these error statuses (as ErrorResponse)."""
    return {
        s: {"model": ErrorResponse, "description": ERROR_DESCRIPTIONS.get(s, HTTPStatus(s).phrase)}
        for s in statuses
    }


class UnknownInUrl(UnknownError):
    """An id in the URL (its path or its query) that does not exist: answered 404."""

    @classmethod
    def of(cls, exc: UnknownError, field: str) -> UnknownInUrl:
        return cls(exc.what, exc.value, exc.known, field=field)


def _body(
    message: str, field: str | None, status: int, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(
        {"error": {"message": message, "field": field}}, status_code=status, headers=headers
    )


def _loc(loc: tuple[Any, ...] | list[Any]) -> str:
    """``("body", "params", "stat")`` as ``params.stat``; the body itself (missing, or not JSON)
    as ``body``."""
    parts = [str(p) for p in loc if p not in ("body", "query", "path")]
    out = ""
    for part in parts:
        out += f"[{part}]" if part.isdigit() else (f".{part}" if out else part)
    return out or (str(loc[0]) if loc else "body")


def _message(error: dict[str, Any]) -> str:
    if error.get("type") == "json_invalid":
        # pydantic's loc for it is (body, <offset>): say where, not "[0]"
        offset = error["loc"][-1] if len(error["loc"]) > 1 else 0
        return f"body: not valid JSON (at character {offset}): {error['msg']}"
    return f"{_loc(error['loc'])}: {error['msg']}"


async def _rules_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RulesError)
    # An unknown id in the URL is "not found"; an unknown id in a request body is invalid input.
    in_url = isinstance(exc, UnknownInUrl) or (
        isinstance(exc, UnknownError) and (exc.field or "").startswith("path.")
    )
    return _body(exc.message, exc.field, 404 if in_url else 422)


async def _validation_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    first = errors[0] if errors else {"loc": ("body",)}
    field = "body" if first.get("type") == "json_invalid" else _loc(first["loc"])
    message = "; ".join(_message(e) for e in errors) or "body: invalid"
    return _body(message, field, 422)


_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE")


def _allowed(request: Request) -> str:
    """Every method some route answers at this path. The router's own `Allow` lists only the
    route it tried, and a path can have several (``GET`` and ``POST /v1/sessions``)."""
    routes = request.app.router.routes
    allowed = [
        method
        for method in _METHODS
        if any(r.matches({**request.scope, "method": method})[0] is Match.FULL for r in routes)
    ]
    return ", ".join(allowed)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    # Keep the exception's headers (a 401's `WWW-Authenticate`...); a 405 lists in `Allow` the
    # methods the path has (RFC 9110).
    headers = dict(exc.headers or {})
    if exc.status_code == 405:
        headers["Allow"] = _allowed(request) or headers.get("Allow", "")
    return _body(str(exc.detail), _field_of(exc), exc.status_code, headers or None)


# The part of the request an HTTP error is about: the body it could not read, the credentials,
# the path nothing answers, the method the path lacks.
HTTP_ERROR_FIELDS = {400: "body", 401: "header.Authorization", 404: "path", 405: "method"}


def _field_of(exc: StarletteHTTPException) -> str | None:
    return getattr(exc, "field", None) or HTTP_ERROR_FIELDS.get(exc.status_code)


async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
    """A bug: still JSON, and no detail of it for the client (it is logged, with its trace)."""
    return _body("internal error: the request could not be completed", None, 500)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RulesError, _rules_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected)
