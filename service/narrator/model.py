"""Model plumbing: LangChain ``ChatOpenAI`` behind one small interface, with call counting.

Kept apart from the prompts and from the narration logic (as simonw/llm does): everything above
this module sees ``ChatModel`` and ``ModelError`` only, so tests can swap the model and every
failure of a model call, whatever its cause, arrives as one error with a readable reason.

Retries are ours, not the OpenAI client's (it is built with ``max_retries=0``), so that every
HTTP request sent to the model is counted in the response's record.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import openai
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from prompts import RenderedPrompt
from service.settings import Settings

log = logging.getLogger(__name__)
DEFAULT_MODEL = "gpt-4o-mini"


class ModelError(Exception):
    """A model call that produced no usable reply: the reason is shown to the caller."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Calls:
    """The model calls of one request (each HTTP request sent to the model counts once)."""

    count: int = 0
    log: list[str] = field(default_factory=list)

    def add(self, what: str) -> None:
        self.count += 1
        self.log.append(what)


class ChatModel(Protocol):
    name: str

    async def complete(
        self,
        prompt: RenderedPrompt,
        calls: Calls,
        *,
        json_reply: bool = False,
        schema: dict[str, Any] | None = None,
        grammar: str | None = None,
    ) -> str: ...

    def stream(
        self, prompt: RenderedPrompt, calls: Calls, *, grammar: str | None = None
    ) -> AsyncIterator[str]: ...


def _messages(prompt: RenderedPrompt) -> list[BaseMessage]:
    shown: list[BaseMessage] = []
    for example in prompt.examples:
        shown += [HumanMessage(example.user), AIMessage(example.assistant)]
    return [SystemMessage(prompt.system), *shown, HumanMessage(prompt.user)]


def _reason(exc: BaseException) -> str:
    """A short, key-free description of why a call failed."""
    if isinstance(exc, TimeoutError | openai.APITimeoutError):
        return "the model did not answer in time"
    if isinstance(exc, openai.APIStatusError):
        return f"the model server answered HTTP {exc.status_code}"
    if isinstance(exc, openai.APIConnectionError):
        return "the model server could not be reached"
    return f"the model call failed ({type(exc).__name__})"


def _retryable(exc: BaseException) -> bool:
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code >= 500 or exc.status_code == 429
    return isinstance(exc, TimeoutError | openai.APITimeoutError | openai.APIConnectionError)


def _refuses(exc: BaseException, *fields: str) -> bool:
    """A 4xx that names one of the request's ``fields``: the server does not take it."""
    if not isinstance(exc, openai.APIStatusError) or not 400 <= exc.status_code < 500:
        return False
    text = f"{exc.message} {exc.body}".lower()
    return any(field in text for field in fields)


def _refuses_response_format(exc: BaseException) -> bool:
    return _refuses(exc, "response_format", "json_object", "json_schema")


def _text(content: Any) -> str:
    """Message content as text (a few servers send a list of parts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    return ""


class OpenAICompatibleModel:
    """An OpenAI-compatible chat endpoint through LangChain's ChatOpenAI."""

    def __init__(self, settings: Settings) -> None:
        from langchain_openai import ChatOpenAI

        key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
        limit = _own_server_limit(settings)
        self.name = settings.model or DEFAULT_MODEL
        self.timeout = settings.model_timeout
        self.retries = settings.model_max_retries
        # Local servers (llama.cpp, Ollama, LM Studio) need no key, but the client insists on one.
        self.chat = ChatOpenAI(
            model=self.name,
            api_key=key or "not-needed",  # type: ignore[arg-type]
            base_url=settings.openai_base_url,
            timeout=settings.model_timeout,
            max_retries=0,
            temperature=settings.model_temperature,
            max_tokens=settings.model_max_tokens,  # type: ignore[call-arg]
            # langchain-openai sends the limit as max_completion_tokens, which llama.cpp's
            # server (and others before it) ignores: a server of one's own gets max_tokens too
            extra_body=limit,
        )
        self.extra_body = limit or {}
        self.grammar = _sends_grammar(settings)
        self.json_mode = settings.model_json_mode != "none"
        self.json_schema = settings.model_json_mode == "json_object_schema"

    async def complete(
        self,
        prompt: RenderedPrompt,
        calls: Calls,
        *,
        json_reply: bool = False,
        schema: dict[str, Any] | None = None,
        grammar: str | None = None,
    ) -> str:
        """The model's reply. ``json_reply`` asks for a JSON object; ``schema`` constrains it
        where the server takes a schema beside json_object (llama.cpp's grammar); ``grammar``
        (GBNF) constrains a plain reply where settings.model_grammar says the server takes one."""
        attempt = 0
        while True:
            use_format = json_reply and self.json_mode
            with_schema = use_format and self.json_schema and schema is not None
            response_format: dict[str, Any] = {"type": "json_object"}
            if with_schema:
                response_format["schema"] = schema
            with_grammar = self._grammar(grammar)
            chat: Any = self._chat(with_grammar)
            if use_format:
                chat = chat.bind(response_format=response_format)
            calls.add("json" if json_reply else "complete")
            try:
                async with asyncio.timeout(self.timeout):
                    reply = await chat.ainvoke(_messages(prompt))
                text = _text(reply.content)
                if not text.strip():
                    raise ModelError("the model's reply was empty")
                return text
            except ModelError:
                raise
            except Exception as exc:
                if with_grammar and self._dropped_grammar(exc):
                    continue
                if with_schema and _refuses_response_format(exc):
                    # A schema beside json_object is llama.cpp's; another server may refuse it
                    log.warning("the model server refuses a schema in response_format; dropped")
                    self.json_schema = False
                    continue
                if use_format and _refuses_response_format(exc):
                    # The server refuses response_format (llama.cpp refuses json_schema; some
                    # refuse json_object): ask for JSON in the prompt only, from now on.
                    log.warning("the model server refuses response_format; asking in the prompt")
                    self.json_mode = False
                    continue
                if attempt < self.retries and _retryable(exc):
                    attempt += 1
                    continue
                log.warning("model call failed: %s", _reason(exc))
                raise ModelError(_reason(exc)) from None

    def _grammar(self, grammar: str | None) -> str | None:
        return grammar if self.grammar and grammar else None

    def _dropped_grammar(self, exc: BaseException) -> bool:
        """Whether the server refused the grammar: then none is sent from now on."""
        if not _refuses(exc, "grammar"):
            return False
        log.warning("the model server refuses a grammar; dropped")
        self.grammar = False
        return True

    def _chat(self, grammar: str | None) -> Any:
        """The chat model, with the grammar beside the request where one is sent (in the same
        extra body as max_tokens: a bound extra_body replaces the constructor's)."""
        if grammar is None:
            return self.chat
        return self.chat.bind(extra_body={**self.extra_body, "grammar": grammar})

    async def stream(
        self, prompt: RenderedPrompt, calls: Calls, *, grammar: str | None = None
    ) -> AsyncIterator[str]:
        attempt = 0
        while True:
            calls.add("stream")
            started = False
            finished = False
            with_grammar = self._grammar(grammar)
            chunks = self._chat(with_grammar).astream(_messages(prompt)).__aiter__()
            try:
                while True:
                    # The deadline is per chunk (never across a yield): a server that stops
                    # sending times out, a long reply that keeps coming does not.
                    try:
                        async with asyncio.timeout(self.timeout):
                            chunk = await chunks.__anext__()
                    except StopAsyncIteration:
                        break
                    if chunk.response_metadata.get("finish_reason"):
                        finished = True
                    text = _text(chunk.content)
                    if text:
                        started = True
                        yield text
                if not started:
                    raise ModelError("the model's reply was empty")
                if not finished:
                    raise ModelError("the model's stream ended before the reply was finished")
                return
            except ModelError:
                raise
            except Exception as exc:
                if not started and with_grammar and self._dropped_grammar(exc):
                    continue
                if not started and attempt < self.retries and _retryable(exc):
                    attempt += 1
                    continue
                log.warning("model stream failed: %s", _reason(exc))
                raise ModelError(_reason(exc)) from None
            finally:
                # A client that disconnects closes this generator: the model's stream goes too.
                await chunks.aclose()  # type: ignore[attr-defined]


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def parse_json_object(text: str) -> dict[str, Any]:
    """The first JSON object in a reply: bare, in a code fence, or amid prose. ValueError if none."""
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    for candidate in candidates:
        start = candidate.find("{")
        while start != -1:
            try:
                value, _ = json.JSONDecoder().raw_decode(candidate[start:])
            except json.JSONDecodeError:
                start = candidate.find("{", start + 1)
                continue
            if isinstance(value, dict):
                return value
            start = candidate.find("{", start + 1)
    raise ValueError("no JSON object in the reply")


def build_model(settings: Settings) -> ChatModel | None:
    """The configured model, or None for the offline narrator."""
    return OpenAICompatibleModel(settings) if settings.model_configured else None


def _own_server(settings: Settings) -> bool:
    url = settings.openai_base_url or ""
    return bool(url) and "api.openai.com" not in url


def _sends_grammar(settings: Settings) -> bool:
    """Whether the continuation's grammar is sent: ``auto`` sends it to a server of one's own
    (where a small model is likeliest; a server that refuses it costs one call, once), never to
    OpenAI's, which refuses the field."""
    if settings.model_grammar == "auto":
        return _own_server(settings)
    return settings.model_grammar == "gbnf"


def _own_server_limit(settings: Settings) -> dict[str, int] | None:
    """``max_tokens`` for an OpenAI-compatible server other than OpenAI's (which refuses both
    limits at once, and has ``max_completion_tokens``)."""
    return {"max_tokens": settings.model_max_tokens} if _own_server(settings) else None
