"""The log filter that keeps secrets out of log lines (service/redact.py)."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from uvicorn.logging import AccessFormatter

from service.redact import REDACTED, Redactor, install_redaction, secrets_of
from service.settings import Settings

KEY, MODEL_KEY = "alice-key-0123456789", "sk-model-abcdef123456"


@pytest.fixture
def redactor() -> Redactor:
    return Redactor([KEY, MODEL_KEY])


@pytest.fixture
def logged() -> Iterator[tuple[logging.Logger, io.StringIO, logging.Handler]]:
    """A logger of its own writing to a string, as uvicorn's loggers write to stderr."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logger = logging.getLogger("tests.redact")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    yield logger, out, handler
    logger.removeHandler(handler)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"key {KEY} and {MODEL_KEY}", f"key {REDACTED} and {REDACTED}"),
        ("Authorization: Bearer abc.def", f"Authorization: Bearer {REDACTED}"),
        ("{'authorization': 'Bearer abc', 'x': 1}", f"{{'authorization': 'Bearer {REDACTED}', 'x': 1}}"),
        ("(b'Authorization', b'Bearer abc')", f"(b'Authorization', b'Bearer {REDACTED}')"),
        ("X-API-Key: someone-elses", f"X-API-Key: {REDACTED}"),
        ("GET /v1/sessions?api_key=zzz&x=1 HTTP/1.1", f"GET /v1/sessions?api_key={REDACTED}&x=1 HTTP/1.1"),
        ("unknown API key", "unknown API key"),
        ("the harbour is guarded", "the harbour is guarded"),
    ],
    ids=["configured", "bearer", "dict", "bytes-pair", "x-api-key", "query", "words", "plain"],
)  # fmt: skip
def test_redacts_secrets_and_named_credentials(
    redactor: Redactor, text: str, expected: str
) -> None:
    assert redactor.redact(text) == expected
    assert redactor.redact(redactor.redact(text)) == expected, "redacting twice changes nothing"


def test_a_secret_inside_another_is_replaced_whole() -> None:
    assert Redactor(["abcdef", "abcdef-longer"]).redact("x abcdef-longer y") == f"x {REDACTED} y"


def test_message_arguments_and_traceback_are_redacted(
    redactor: Redactor, logged: tuple[logging.Logger, io.StringIO, logging.Handler]
) -> None:
    logger, out, handler = logged
    handler.addFilter(redactor)
    logger.info("call with %s and %d retries", {"headers": {"key": KEY}}, 3)
    logger.debug("named %(who)s", {"who": MODEL_KEY})
    try:
        raise RuntimeError(f"refused: {MODEL_KEY}")
    except RuntimeError:
        logger.exception("model call failed for %s", KEY)
    text = out.getvalue()
    assert KEY not in text and MODEL_KEY not in text, text
    assert "3 retries" in text and "RuntimeError: refused: [redacted]" in text
    assert text.count(REDACTED) == 4


def test_the_access_log_keeps_its_shape(redactor: Redactor) -> None:
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", f"/v1/sessions?api_key={KEY}", "1.1", 401), None,
    )  # fmt: skip
    assert redactor.filter(record) is True
    fmt = '%(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s'  # uvicorn's
    line = AccessFormatter(fmt, use_colors=False).format(record)
    assert line.endswith(f'"GET /v1/sessions?api_key={REDACTED} HTTP/1.1" 401 Unauthorized')


def test_secrets_of_settings(tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path, api_keys=[KEY, "bob-key-1"], openai_api_key=MODEL_KEY,
        database_url="postgresql://fw:db-pass-word@127.0.0.1/x",
    )  # fmt: skip
    assert sorted(secrets_of(settings)) == sorted([KEY, "bob-key-1", MODEL_KEY, "db-pass-word"])
    assert secrets_of(Settings(data_dir=tmp_path, api_keys=[], database_url="sqlite://")) == []


def test_install_reaches_handlers_of_other_loggers_and_the_last_resort(
    tmp_path: Path, logged: tuple[logging.Logger, io.StringIO, logging.Handler]
) -> None:
    _, out, handler = logged
    redactor = Redactor()
    try:
        install_redaction(Settings(data_dir=tmp_path, api_keys=[KEY]), redactor)
        install_redaction(Settings(data_dir=tmp_path, api_keys=[MODEL_KEY]), redactor)
        assert handler.filters.count(redactor) == 1, "installed once, whatever the calls"
        assert logging.lastResort is not None and redactor in logging.lastResort.filters
        assert redactor in logging.getLogger("uvicorn.access").filters
        # A child logger's record reaches the handler: the filter there redacts it.
        logging.getLogger("tests.redact.child").warning("keys %s %s", KEY, MODEL_KEY)
        assert out.getvalue() == f"WARNING keys {REDACTED} {REDACTED}\n"
    finally:
        for each in (logging.getLogger(), *map(logging.getLogger, ("uvicorn", "uvicorn.error",
                     "uvicorn.access")), logging.lastResort, handler):  # fmt: skip
            if each is not None:
                each.removeFilter(redactor)
