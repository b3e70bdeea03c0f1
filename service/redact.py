"""No secret in a log line: the API keys, the model key and the database password are redacted
from every record, and so are the values of `Authorization` and `X-API-Key` headers and of an
`api_key=` query parameter (which a client may send with any key, configured or not).

``install_redaction(settings)`` runs when the service starts (the app's lifespan, in each worker
process). It attaches one ``Redactor`` filter to every handler that exists then (uvicorn's, the
root logger's, any library's) and to ``logging.lastResort`` (which prints warnings of loggers
without a handler), and to the root and uvicorn loggers. Handlers are what matter: a filter on a
logger sees only the records logged to that logger, not those its children propagate to it.

A record is redacted in place, keeping its shape: a string argument that holds a secret is
replaced by its redacted text, other arguments by theirs only when their text holds one (so that
uvicorn's access formatter, which unpacks its five arguments, still works); an exception's
traceback is formatted and redacted once, into ``exc_text``, which formatters print as is.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable
from typing import Any

from service.settings import Settings

REDACTED = "[redacted]"
# `Authorization: Bearer x`, `'x-api-key': 'x'`, `(b'authorization', b'Bearer x')`, `api_key=x`
_NAMED = re.compile(  # atomic groups (?>...): no backtracking into a shorter separator
    r"(?i)(\b(?:authorization|x-api-key|api[_-]?key)\b(?>[\"']?\s*[:=,]\s*(?:(?-i:b)?[\"'])?)"
    r"(?>(?:(?:bearer|basic)\s+)?))(?!\[redacted\])[^\s\"',&;)}\]]+"
)
_UVICORN = ("uvicorn", "uvicorn.error", "uvicorn.access")


class Redactor(logging.Filter):
    """Redacts the known secrets and named credentials from every record it sees; never drops
    a record."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._secrets: tuple[str, ...] = ()
        self.add(secrets)

    def add(self, secrets: Iterable[str]) -> None:
        with self._lock:
            known = set(self._secrets) | {s for s in secrets if s}
            # The longest first: a secret that contains another is replaced whole.
            self._secrets = tuple(sorted(known, key=len, reverse=True))

    def redact(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        return _NAMED.sub(lambda m: m.group(1) + REDACTED, text)

    def _arg(self, value: Any) -> Any:
        if isinstance(value, (int, float, bool)) or value is None:
            return value
        try:
            text = value if isinstance(value, str) else str(value)
        except Exception:  # an object that cannot say what it is holds nothing to redact
            return value
        cleaned = self.redact(text)
        return value if cleaned == text else cleaned

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = self.redact(record.msg)
        else:
            record.msg = self._arg(record.msg)
        if isinstance(record.args, dict):
            record.args = {k: self._arg(v) for k, v in record.args.items()}
        elif record.args:
            record.args = tuple(self._arg(a) for a in record.args)
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


REDACTOR = Redactor()


def secrets_of(settings: Settings) -> list[str]:
    """The configured secrets: the API keys, the model's key, the database URL's password."""
    secrets = [key.get_secret_value() for key in settings.api_keys]
    if settings.openai_api_key is not None:
        secrets.append(settings.openai_api_key.get_secret_value())
    if settings.database_url:
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError

        try:
            password = make_url(settings.database_url).password
        except ArgumentError:
            password = None
        if password:
            secrets.append(str(password))
    return secrets


def _attach(target: logging.Logger | logging.Handler, redactor: Redactor) -> None:
    if redactor not in target.filters:
        target.addFilter(redactor)


def install_redaction(settings: Settings, redactor: Redactor = REDACTOR) -> Redactor:
    """Redact ``settings``' secrets from every handler there is now (idempotent; the secrets
    of several apps in one process add up)."""
    redactor.add(secrets_of(settings))
    loggers = [logging.getLogger(), *(logging.getLogger(name) for name in _UVICORN)]
    loggers += [
        each for each in logging.Logger.manager.loggerDict.values()
        if isinstance(each, logging.Logger)
    ]  # fmt: skip
    handlers = {id(h): h for each in loggers for h in each.handlers}
    if logging.lastResort is not None:
        handlers[id(logging.lastResort)] = logging.lastResort
    targets: list[logging.Logger | logging.Handler] = [*loggers[: 1 + len(_UVICORN)]]
    for target in [*targets, *handlers.values()]:
        _attach(target, redactor)
    return redactor
