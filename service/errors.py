"""Map engine errors and request-validation errors to JSON: a message and the offending field."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from rules.errors import RulesError, UnknownError


def _body(message: str, field: str | None, status: int) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "field": field}}, status_code=status)


def _loc(loc: tuple | list) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path")]
    out = ""
    for part in parts:
        out += f"[{part}]" if part.isdigit() else (f".{part}" if out else part)
    return out


async def _rules_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RulesError)
    # An unknown id in the URL is "not found"; an unknown id in a request body is invalid input.
    in_path = isinstance(exc, UnknownError) and (exc.field or "").startswith("path.")
    return _body(exc.message, exc.field, 404 if in_path else 422)


async def _validation_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    first = _loc(errors[0]["loc"]) if errors else None
    message = "; ".join(f"{_loc(e['loc']) or 'body'}: {e['msg']}" for e in errors)
    return _body(message, first or None, 422)


async def _http_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    return _body(str(exc.detail), None, exc.status_code)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RulesError, _rules_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
