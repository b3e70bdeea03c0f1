"""Who is asking: the owner of the sessions a request may see.

With API keys configured (``FATEWEAVER_API_KEYS=key1,key2``) a request names its key in
``Authorization: Bearer <key>`` or ``X-API-Key: <key>``; its owner is a hash of the key (the key
itself is never stored or logged). Without keys there is one implicit owner, ``local``, and
``fateweaver serve`` binds to a loopback address only.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.routing import APIRoute
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from service.sessions.errors import Unauthorized
from service.settings import Settings

LOCAL_OWNER = "local"
LOOPBACK = "127.0.0.1"

log = logging.getLogger("fateweaver.sessions")

_bearer = HTTPBearer(
    auto_error=False, scheme_name="bearer", description="`Authorization: Bearer <API key>`"
)
_api_key = APIKeyHeader(
    name="X-API-Key", auto_error=False, scheme_name="apiKey", description="`X-API-Key: <API key>`"
)


def owner_id(key: str) -> str:
    """The owner a key stands for: 64 hex digits, from which the key cannot be recovered."""
    return hashlib.sha256(b"fateweaver owner\0" + key.encode()).hexdigest()


def _owners(settings: Settings) -> list[str]:
    return [owner_id(key.get_secret_value()) for key in settings.api_keys]


def owner_of(
    request: Request,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    api_key: Annotated[str | None, Depends(_api_key)],
) -> str:
    """The request's owner; Unauthorized (401) for a missing or unknown key."""
    settings: Settings = request.app.state.settings
    key = bearer.credentials if bearer else api_key
    return owner_of_key(settings, key, "header.Authorization" if bearer else "header.X-API-Key")


def owner_of_key(settings: Settings, key: str | None, field: str = "header.Authorization") -> str:
    """The owner of an API key (``local`` when no keys are configured); Unauthorized (401) for
    a missing or unknown key. ``field`` names where the key came from."""
    if not settings.api_keys:
        return LOCAL_OWNER
    if not key:
        raise Unauthorized(
            "an API key is required: send `Authorization: Bearer <key>` or `X-API-Key: <key>`",
            "header.Authorization",
        )
    owner = owner_id(key)
    # Compared in constant time, against every key.
    if not any([hmac.compare_digest(owner, known) for known in _owners(settings)]):
        raise Unauthorized("unknown API key", field)
    return owner


def owner_of_headers(settings: Settings, headers: Mapping[str, str]) -> str:
    """``owner_of`` for a request known by its headers only (the MCP endpoint's)."""
    auth = headers.get("authorization") or ""
    scheme, _, credentials = auth.partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        return owner_of_key(settings, credentials.strip(), "header.Authorization")
    return owner_of_key(settings, headers.get("x-api-key"), "header.X-API-Key")


OwnerDep = Annotated[str, Depends(owner_of)]


def document_auth(router: APIRouter, settings: Settings) -> APIRouter:
    """Without API keys, mark the router's routes as needing none (OpenAPI ``security: [{}]``
    next to the key schemes): the docs then say what the service does."""
    if not settings.api_keys:
        optional: dict[str, Any] = {"security": [{}]}
        for route in router.routes:
            if isinstance(route, APIRoute):
                route.openapi_extra = {**(route.openapi_extra or {}), **optional}
    return router


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bind_host(host: str, settings: Settings) -> str:
    """Where ``serve`` listens: ``host``, except that without API keys only a loopback address
    may be used (another one is replaced by 127.0.0.1, with a warning)."""
    if settings.api_keys or is_loopback(host):
        return host
    log.warning(
        "no API keys configured (FATEWEAVER_API_KEYS): serving on %s only, not %s",
        LOOPBACK,
        host,
    )
    return LOOPBACK
