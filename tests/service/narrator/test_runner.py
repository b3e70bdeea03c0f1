"""The runner: one narrated reply, released a sentence at a time after the guard passes it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from prompts import RenderedPrompt
from rules.registry import resolve_roll
from service.narrator.guard import expectation_from
from service.narrator.model import Calls, ModelError
from service.narrator.runner import Discard, Done, Event, Token, guard_for, narrate

PROMPT = RenderedPrompt(system="s", user="u")
# "likely" is yes on 75 or less (Sundered Isles, Ask the Oracle).
YES = expectation_from(resolve_roll("sundered_isles", "oracle", {"odds": "likely"}, dice=[24]))


class FakeModel:
    """Streams the given pieces; records whether its stream was closed early."""

    name = "fake"

    def __init__(self, *replies: list[str] | Exception) -> None:
        self.replies = list(replies)
        self.closed_early = False
        self.grammars: list[str | None] = []

    async def complete(
        self,
        prompt: RenderedPrompt,
        calls: Calls,
        *,
        json_reply: bool = False,
        schema: dict[str, object] | None = None,
        grammar: str | None = None,
    ) -> str:
        self.grammars.append(grammar)
        pieces = await self._next(calls)
        return "".join(pieces)

    async def _next(self, calls: Calls) -> list[str]:
        calls.add("call")
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply

    async def stream(
        self, prompt: RenderedPrompt, calls: Calls, *, grammar: str | None = None
    ) -> AsyncIterator[str]:
        self.grammars.append(grammar)
        pieces = await self._next(calls)
        finished = False
        try:
            for piece in pieces:
                yield piece
            finished = True
        finally:
            self.closed_early = not finished


def run(model: FakeModel, *, stream: bool = True, stop_after: int | None = None) -> list[Event]:
    async def go() -> list[Event]:
        events: list[Event] = []
        gen = narrate(
            model=model, prompt=lambda c: PROMPT, offline="Yes. (offline)",
            check=guard_for(YES), calls=Calls(), stream=stream,
        )  # fmt: skip
        async for event in gen:
            events.append(event)
            if stop_after is not None and len(events) >= stop_after:
                await gen.aclose()  # the client went away
                break
        return events

    return asyncio.run(go())


def test_text_is_released_a_whole_sentence_at_a_time() -> None:
    events = run(FakeModel(["Yes. The ha", "rbour is wat", "ched. Lamps burn."]))
    tokens = [e.text for e in events if isinstance(e, Token)]
    assert tokens == ["Yes. ", "The harbour is watched. ", "Lamps burn."]
    assert isinstance(events[-1], Done) and events[-1].narrated.narrator == "model"


def test_a_quotation_is_not_split_across_releases() -> None:
    events = run(FakeModel(['The bosun says "Stop. ', 'Now." and waits. Then rain.']))
    tokens = [e.text for e in events if isinstance(e, Token)]
    assert tokens == ['The bosun says "Stop. Now." and waits. ', "Then rain."]


def test_a_client_that_leaves_closes_the_model_stream_and_costs_no_more_calls() -> None:
    model = FakeModel(["Yes. ", "The harbour ", "is watched. ", "More. "], ["never asked"])
    events = run(model, stop_after=1)
    assert events == [Token("Yes. ")]
    assert model.closed_early and len(model.replies) == 1


def test_a_rejected_sentence_is_never_released_and_the_retry_is_shown() -> None:
    events = run(FakeModel(["No, nobody ", "guards it. "], ["Yes. Guards pace the wall."]))
    tokens = "".join(e.text for e in events if isinstance(e, Token))
    assert tokens == "Yes. Guards pace the wall."
    done = events[-1]
    assert isinstance(done, Done) and done.narrated.calls == 2 and done.narrated.rejected


def test_a_late_contradiction_discards_what_was_shown() -> None:
    events = run(FakeModel(["Guards pace. ", "No, nobody is there. "], ["No, it is empty. "]))
    assert any(isinstance(e, Discard) for e in events)
    done = events[-1]
    assert isinstance(done, Done) and done.text == "Yes. (offline)"
    assert done.narrated.narrator == "offline" and "twice" in done.narrated.reason


def test_a_model_error_falls_back_at_once_without_a_retry() -> None:
    model = FakeModel(ModelError("the model server answered HTTP 500"), ["unused"])
    done = run(model)[-1]
    assert isinstance(done, Done) and done.narrated.reason == "the model server answered HTTP 500"
    assert done.narrated.calls == 1 and len(model.replies) == 1


def test_plain_requests_use_one_complete_call() -> None:
    done = run(FakeModel(["Yes. It is guarded."]), stream=False)[-1]
    assert isinstance(done, Done) and done.text == "Yes. It is guarded."


def test_a_last_sentence_cut_off_by_the_token_limit_is_not_shown() -> None:
    # a real model's reply stopped at max_tokens ended "... spotted you, but he"
    events = run(FakeModel(["Yes. The harbour is watched. ", "Lamps burn, but he"]))
    done = events[-1]
    assert isinstance(done, Done) and done.text == "Yes. The harbour is watched."
    assert "Lamps burn" not in "".join(e.text for e in events if isinstance(e, Token))
    plain = run(FakeModel(["Yes. The harbour is watched. Lamps burn, but he"]), stream=False)
    assert isinstance(plain[-1], Done) and plain[-1].text == "Yes. The harbour is watched."
    # one sentence without its full stop is kept whole
    alone = run(FakeModel(["Yes, the harbour is watched"]), stream=False)
    assert isinstance(alone[-1], Done) and alone[-1].text == "Yes, the harbour is watched"
