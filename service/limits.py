"""What one client may send: the size of a request body, and requests per API key.

    BodyLimit         413 for a body over ``max_body_bytes``: by its Content-Length, before the
                      app runs; or counted as a streamed (chunked) body arrives, so that no more
                      than the limit (and the one chunk that crossed it) is ever held
    JsonDepthLimit    422 for a JSON body nested deeper than ``MAX_JSON_DEPTH``, before it is
                      parsed (deep nesting overflows the parser, validation or serialization)
    RateLimit         429 with ``Retry-After`` for a client over ``rate_limit``: keyed by the
                      owner of its API key, or by its address (without API keys configured, or
                      for a request whose key is missing or unknown); the `limits` library's
                      moving window, its counts in ``rate_limit_storage``
    install_limits    both middlewares on an app, from its settings
    document_limits   the 413 and 429 answers in the OpenAPI document

Both are pure ASGI middlewares (no request object built, a streamed response untouched), and
answer as every error does: ``{"error": {"message", "field"}}``.
"""

from __future__ import annotations

import logging
import math
import re
import time
from typing import Any

from anyio import to_thread
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.security.utils import get_authorization_scheme_param
from limits import RateLimitItem, parse_many
from limits.errors import ConfigurationError
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.sessions.owners import owner_id
from service.settings import Settings

log = logging.getLogger("fateweaver.limits")

ERROR_SCHEMA = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}}
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
DOCS_ASSETS = "/docs-assets"  # Swagger UI's and ReDoc's files, served from the package by the app
NOT_LIMITED = ("/healthz", "/readyz", "/docs", "/redoc", "/")  # and /openapi.json, the docs' assets
PAGE_ASSETS = "/ui/"  # the page's CSS and JavaScript (service.web)


def _error(
    status: int, message: str, field: str | None, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(
        {"error": {"message": message, "field": field}}, status_code=status, headers=headers
    )


# --- request body size --------------------------------------------------------------------------


class BodyTooLarge(HTTPException):
    """Raised by the body's ``receive`` once more than the limit has arrived. An HTTPException, so
    that FastAPI lets it through its body parsing (another exception becomes a 400) to the
    handler ``install_limits`` installs."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is over the limit of {limit} bytes")
        self.limit = limit


def _too_large(limit: int) -> JSONResponse:
    # The rest of the body is not read: the connection closes after the answer.
    return _error(413, BodyTooLarge(limit).detail, "body", {"Connection": "close"})


async def _body_too_large(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, BodyTooLarge)
    return _too_large(exc.limit)


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await _too_large(self.max_bytes)(scope, receive, send)
            return
        received = 0
        started = False

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)  # this chunk is not handed on
            return message

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, sending)
        except BodyTooLarge:
            # Raised where the app does not answer it (e.g. read while a response streams).
            if started:
                log.warning("request body over %d bytes while answering: cut", self.max_bytes)
                return
            await _too_large(self.max_bytes)(scope, receive, send)


# --- nesting depth of a JSON body ---------------------------------------------------------------

# No request of this API nests deeper than a dozen levels; pydantic's serializer gives up at 255,
# and Python's recursion (the JSON parser, validators) a few hundred further on.
MAX_JSON_DEPTH = 64
# A JSON string as one token (its brackets are not structure), or one bracket.
_JSON_TOKENS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def json_depth(body: bytes) -> int:
    """How deep a JSON text nests its arrays and objects (malformed text is measured as it
    reads: the parser reports what is wrong with it)."""
    depth = deepest = 0
    for token in _JSON_TOKENS.finditer(body):
        char = token.group()[:1]
        if char in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in b"]}":
            depth -= 1
    return deepest


class JsonDepthLimit:
    """Reads a JSON request body (already bounded by BodyLimit), measures its nesting and hands
    it on unchanged, or answers 422 naming ``body``."""

    def __init__(self, app: ASGIApp, max_depth: int = MAX_JSON_DEPTH) -> None:
        self.app = app
        self.max_depth = max_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or "json" not in Headers(scope=scope).get("content-type", ""):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                await self.app(scope, _replay([message], receive), send)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if (depth := json_depth(body)) > self.max_depth:
            message = (
                f"the JSON body nests {depth} levels deep; at most {self.max_depth} are accepted"
            )
            await _error(422, message, "body")(scope, receive, send)
            return
        whole: Message = {"type": "http.request", "body": body, "more_body": False}
        await self.app(scope, _replay([whole], receive), send)


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that gives these messages first, then the connection's own."""
    queued = list(messages)

    async def replayed() -> Message:
        return queued.pop(0) if queued else await receive()

    return replayed


# --- requests per API key -------------------------------------------------------------------------


class RateLimit:
    def __init__(
        self, app: ASGIApp, settings: Settings, storage: Storage, exempt: frozenset[str]
    ) -> None:
        self.app = app
        self.exempt = exempt
        self.items: list[RateLimitItem] = parse_many(settings.rate_limit)
        self.limiter = MovingWindowRateLimiter(storage)
        # In-process counts are read at once; a server's (redis://...) in a worker thread.
        self.inline = isinstance(storage, MemoryStorage)
        self.owners = frozenset(owner_id(k.get_secret_value()) for k in settings.api_keys)

    def _who(self, scope: Scope) -> tuple[str, str | None]:
        """The key the request is counted under, and the field a 429 names."""
        if self.owners:
            headers = Headers(scope=scope)
            scheme, credentials = get_authorization_scheme_param(headers.get("authorization"))
            bearer = credentials if scheme.lower() == "bearer" and credentials else None
            key = bearer or headers.get("x-api-key")
            if key and (owner := owner_id(key)) in self.owners:
                return f"owner:{owner}", "header.Authorization" if bearer else "header.X-API-Key"
        client = scope.get("client")
        return f"address:{client[0] if client else 'unknown'}", None

    def _over(self, key: str) -> tuple[RateLimitItem, int] | None:
        """The first limit this request goes over, and the seconds until it would not."""
        for item in self.items:
            if not self.limiter.hit(item, key):
                reset = self.limiter.get_window_stats(item, key).reset_time
                return item, max(1, math.ceil(reset - time.time()))
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or is_exempt(scope["path"], self.exempt):
            await self.app(scope, receive, send)
            return
        key, field = self._who(scope)
        try:
            over = self._over(key) if self.inline else await to_thread.run_sync(self._over, key)
        except Exception:  # the counts' server is down: serve, rather than fail every request
            log.warning("rate limit storage unavailable; request not counted", exc_info=True)
            over = None
        if over is None:
            await self.app(scope, receive, send)
            return
        item, retry = over
        whose = "this API key" if field else "this client address"
        message = f"too many requests: over {item} for {whose}; retry in {retry} s"
        await _error(429, message, field, {"Retry-After": str(retry)})(scope, receive, send)


def exempt_paths(app: FastAPI) -> frozenset[str]:
    docs = (app.openapi_url, app.docs_url, app.redoc_url, app.swagger_ui_oauth2_redirect_url)
    return frozenset([*NOT_LIMITED, *(p for p in docs if p)])


def is_exempt(path: str, paths: frozenset[str]) -> bool:
    """Health, the docs, the page and their own assets are never counted."""
    return path in paths or path.startswith((DOCS_ASSETS + "/", PAGE_ASSETS))


def rate_limit_storage(settings: Settings) -> Storage:
    """The counts' storage; ValueError for a URI `limits` cannot use (an unknown scheme, or its
    driver not installed), without the URI itself (it may hold a password)."""
    try:
        storage = storage_from_string(settings.rate_limit_storage)
    except ConfigurationError as exc:
        where = settings.rate_limit_storage.split("://", 1)[0] + "://..."
        message = str(exc).replace(settings.rate_limit_storage, where)
        raise ValueError(f"FATEWEAVER_RATE_LIMIT_STORAGE ({where}): {message}") from None
    if not isinstance(storage, Storage):
        raise ValueError("FATEWEAVER_RATE_LIMIT_STORAGE: an async+ storage cannot be used")
    return storage


def install_limits(app: FastAPI) -> None:
    """The body limit (and the depth of a JSON body within it), then (outermost: counted before
    anything is read) the rate limit."""
    settings: Settings = app.state.settings
    app.add_exception_handler(BodyTooLarge, _body_too_large)
    app.add_middleware(JsonDepthLimit)  # inside BodyLimit: it reads a body of bounded size
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    if settings.rate_limit:
        storage = rate_limit_storage(settings)  # built now: a bad URI stops start-up
        app.add_middleware(RateLimit, settings=settings, storage=storage, exempt=exempt_paths(app))


def document_limits(app: FastAPI, spec: dict[str, Any]) -> None:
    """413 on every operation with a request body; 429 (with ``Retry-After``) on every one the
    rate limit counts, when there is one."""
    settings: Settings = app.state.settings
    exempt = exempt_paths(app)
    too_large = {
        "description": f"Request body over {settings.max_body_bytes} bytes (max_body_bytes)",
        "content": ERROR_SCHEMA,
    }
    too_many = {
        "description": f"Too many requests for this API key (rate_limit: {settings.rate_limit}); "
        "wait `Retry-After` seconds",
        "headers": {
            "Retry-After": {
                "description": "seconds until the request would be served",
                "schema": {"type": "integer", "minimum": 1},
            }
        },
        "content": ERROR_SCHEMA,
    }
    for path, item in spec.get("paths", {}).items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            answers = operation.setdefault("responses", {})
            if "requestBody" in operation:
                answers.setdefault("413", too_large)
            if settings.rate_limit and path not in exempt:
                answers.setdefault("429", too_many)
