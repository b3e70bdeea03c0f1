"""The errors of the session store, answered as ``{"error": {"message", "field"}}``:

    SessionError       base: an HTTP status, a message and the offending field
    ├── Unauthorized   401: no API key, or an unknown one (``WWW-Authenticate: Bearer``)
    ├── NotFound       404: an unknown session or turn, or another owner's (the same answer)
    └── ReadOnly       409: the session has ended

``install_session_errors(app)`` installs their handler.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse


class SessionError(Exception):
    def __init__(
        self,
        status: int,
        message: str,
        field: str | None = None,
        *,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.field = field
        self.headers = headers


class Unauthorized(SessionError):
    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(401, message, field, headers={"WWW-Authenticate": "Bearer"})


class NotFound(SessionError):
    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(404, message, field)


class ReadOnly(SessionError):
    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(409, message, field)


async def _session_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, SessionError)
    return JSONResponse(
        {"error": {"message": exc.message, "field": exc.field}},
        status_code=exc.status,
        headers=exc.headers,
    )


def install_session_errors(app: FastAPI) -> None:
    app.add_exception_handler(SessionError, _session_error)
