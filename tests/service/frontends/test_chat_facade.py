"""The OpenAI-compatible facade, driven by the official `openai` client (through httpx's ASGI
transport into the in-process app), plain and streaming."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from unittest.mock import patch

import httpx
import pytest
import respx
from openai import AsyncOpenAI, NotFoundError

from service.chat_facade import MARKER, STARTER_SHEETS, background_answer, parse
from service.sessions.schemas import validate_sheet
from tests.service.frontends.conftest import app_for, running
from tests.service.narrator.mock_model import BASE_URL, CHAT_URL, completion

pytestmark = pytest.mark.anyio
MODEL = "fateweaver-sundered_isles"
# Open WebUI's title task, as it sends it to the chat model when no task model is set.
TITLE_TASK = (
    "### Task:\nGenerate a concise, 3-5 word title with an emoji summarizing the chat history.\n"
    "### Guidelines:\n- The title should clearly represent the main theme\n### Output:\n"
    'JSON format: { "title": "your concise title here" }\n### Chat History:\n<chat_history>\n'
    "USER: I dodge the falling mast\n</chat_history>"
)
TAGS_TASK = "### Task:\nGenerate 1-3 broad tags categorizing the main themes of the chat history"
FOLLOW_UPS_TASK = "### Task:\nSuggest 3-5 relevant follow-up questions or prompts"


class Chat:
    """An OpenAI client on the app, and the app's own API to check what was played."""

    def __init__(self, ai: AsyncOpenAI, api: httpx.AsyncClient) -> None:
        self.ai = ai
        self.api = api
        self.history: list[dict[str, Any]] = []

    async def say(self, text: str, stream: bool = False, model: str = MODEL) -> str:
        self.history.append({"role": "user", "content": text})
        reply = await self.ask(self.history, stream=stream, model=model)
        self.history.append({"role": "assistant", "content": reply})
        return reply

    async def ask(self, messages: list[dict[str, Any]], stream: bool = False,
                  model: str = MODEL) -> str:  # fmt: skip
        if not stream:
            completion = await self.ai.chat.completions.create(model=model, messages=messages)  # type: ignore[arg-type]
            assert completion.object == "chat.completion"
            return completion.choices[0].message.content or ""
        chunks = await self.ai.chat.completions.create(model=model, messages=messages, stream=True)  # type: ignore[arg-type]
        parts, finish = [], None
        async for chunk in chunks:
            assert chunk.object == "chat.completion.chunk"
            parts.append(chunk.choices[0].delta.content or "")
            finish = chunk.choices[0].finish_reason or finish
        assert finish == "stop"
        return "".join(parts)

    async def sessions(self) -> list[dict[str, Any]]:
        response = await self.api.get("/v1/sessions")
        assert response.status_code == 200
        result: list[dict[str, Any]] = response.json()
        return result

    async def journal(self, sid: str) -> list[dict[str, Any]]:
        response = await self.api.get(f"/v1/sessions/{sid}/turns")
        assert response.status_code == 200
        result: list[dict[str, Any]] = response.json()
        return result


@asynccontextmanager
async def chat(tmp_path: Path, **settings: Any) -> AsyncIterator[Chat]:
    app = app_for(tmp_path, **({"api_keys": ["k1", "k2"]} | settings))
    transport = httpx.ASGITransport(app=app)
    headers = {"Authorization": "Bearer k1"}
    async with (
        running(app),
        httpx.AsyncClient(
            transport=transport, base_url="http://127.0.0.1:8000", headers=headers
        ) as api,
        httpx.AsyncClient(transport=transport) as http,
    ):
        ai = AsyncOpenAI(api_key="k1", base_url="http://127.0.0.1:8000/v1", http_client=http,
                         max_retries=0)  # fmt: skip
        yield Chat(ai, api)


def marked(reply: str) -> tuple[str, int]:
    found = list(MARKER.finditer(reply))
    assert found, reply
    return found[-1].group("sid"), int(found[-1].group("turn"))


def mechanics(reply: str) -> str:
    lines = re.findall(r"^`(.+)`$", reply, re.MULTILINE)
    assert lines, reply
    return lines[0]


async def turn(c: Chat, text: str, number: int, stream: bool) -> str:
    """A turn said, and its choices (if the dice left one) answered with the first option."""
    reply = await c.say(text, stream=stream)
    assert "dice" in mechanics(reply)
    while "awaits a choice" in reply:
        assert marked(reply)[1] == number
        reply = await c.say("1", stream=stream)
    assert marked(reply)[1] == number
    return reply


async def play_three_turns(c: Chat, stream: bool) -> str:
    sid = marked(await turn(c, "I dodge the falling mast", 1, stream))[0]
    second = await turn(c, "/oracle likely Is the harbour guarded?", 2, stream)
    assert "oracle" in mechanics(second).lower()
    third = await turn(c, "/move face_danger edge I leap the gap", 3, stream)
    assert "face danger" in mechanics(third).lower()
    assert {marked(m["content"])[0] for m in c.history if m["role"] == "assistant"} == {sid}
    journal = await c.journal(sid)
    assert [t["status"] for t in journal] == ["resolved"] * 3
    assert [t["words"] for t in journal] == [
        "I dodge the falling mast", "Is the harbour guarded?", "I leap the gap",
    ]  # fmt: skip
    return sid


@pytest.mark.parametrize("stream", [False, True])
async def test_a_chat_plays_a_session(tmp_path: Path, stream: bool) -> None:
    async with chat(tmp_path) as c:
        sid = await play_three_turns(c, stream)
        assert [s["id"] for s in await c.sessions()] == [sid]
        # regenerate: the same history less the last reply re-tells turn 3, the same dice
        before = await c.journal(sid)
        again = await c.ask(c.history[:-1], stream=stream)
        assert marked(again) == marked(c.history[-1]["content"])
        assert mechanics(again) == mechanics(c.history[-1]["content"])
        after = await c.journal(sid)
        assert [t["resolution"] for t in after] == [t["resolution"] for t in before]
        assert len(after) == len(before)


async def test_regenerating_the_first_reply_opens_no_second_session(tmp_path: Path) -> None:
    async with chat(tmp_path) as c:
        first = await c.say("I search the wreck")
        again = await c.ask(c.history[:1], stream=True)
        assert marked(again) == marked(first)
        assert mechanics(again) == mechanics(first)
        assert len(await c.sessions()) == 1


async def test_background_calls_change_nothing(tmp_path: Path) -> None:
    async with chat(tmp_path) as c:
        sid = marked(await c.say("I dodge the falling mast"))[0]
        before = (await c.sessions(), await c.journal(sid))
        for task, key in ((TITLE_TASK, "title"), (TAGS_TASK, "tags"),
                          (FOLLOW_UPS_TASK, "follow_ups")):  # fmt: skip
            answer = await c.ask([*c.history, {"role": "user", "content": task}])
            assert key in answer and "fateweaver session" not in answer
        # a title asked with no history at all opens no session either
        assert "title" in await c.ask([{"role": "user", "content": TITLE_TASK}])
        assert (await c.sessions(), await c.journal(sid)) == before


async def test_the_session_in_the_model_name_and_undo(tmp_path: Path) -> None:
    async with chat(tmp_path) as c:
        sid = marked(await c.say("/oracle likely Is it night?"))[0]  # an oracle: no choice
        pinned = f"{MODEL}:{sid}"
        other = Chat(c.ai, c.api)  # another chat window, the session named in the model
        reply = await other.say("/oracle Is it raining?", model=pinned)
        assert marked(reply) == (sid, 2), reply
        undone = await other.say("/undo", model=pinned)
        assert "Turn 2" in undone and marked(undone) == (sid, 1)
        again = await other.ask(other.history[:-1], model=pinned)  # a regenerate of the undo
        assert marked(again) == (sid, 1)
        assert [t["status"] for t in await c.journal(sid)] == ["resolved", "undone"]
        with pytest.raises(NotFoundError):
            await other.say("hello", model=f"{MODEL}:nosuchsession")
        with pytest.raises(NotFoundError):
            await other.say("hello", model="gpt-4o")


async def test_words_the_turn_refuses_are_a_refusal_in_the_chat_not_a_500(tmp_path: Path) -> None:
    # Words of control characters only are no words: the turn's request refuses them (a 500
    # through the facade before), and the chat says so with the field; nothing is played.
    async with chat(tmp_path) as c:
        sid = marked(await c.say("/oracle likely Is it night?"))[0]
        reply = await c.say("\u0000\u0007")
        assert "The engine refused that: words:" in reply and marked(reply) == (sid, 1)
        assert len(await c.journal(sid)) == 1


async def test_models_and_tool_calls(tmp_path: Path) -> None:
    async with chat(tmp_path) as c:
        models = [m.id async for m in c.ai.models.list()]
        assert models == [f"fateweaver-{s}" for s in STARTER_SHEETS]
        reply = await c.ask([
            {"role": "system", "content": "You are a game master."},
            {"role": "user", "content": [{"type": "text", "text": "I search the wreck"}]},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_1", "type": "function",
                 "function": {"name": "roll", "arguments": "{\"dice\": [6, 10, 10]}"}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": "6"},
            {"role": "user", "content": "I search the wreck again"},
        ])  # fmt: skip
        sid, turn = marked(reply)
        assert turn == 1 and len(await c.journal(sid)) == 1


def test_every_starter_sheet_is_a_valid_sheet() -> None:
    for system, sheet in STARTER_SHEETS.items():
        validate_sheet(system, sheet)


@pytest.mark.parametrize(
    ("text", "kind"),
    [("I leap", "words"), ("/undo", "undo"), ("2", "choose"), ("/choose x=1", "choose"),
     ("/oracle likely Is it?", "oracle"), ("/move face_danger edge I run", "move"),
     ("/dance", "help"), ("  ", "help")],
)  # fmt: skip
def test_commands(text: str, kind: str) -> None:
    assert parse(text, "sundered_isles").kind == kind


def test_a_turn_is_not_a_background_call() -> None:
    assert background_answer("What is the title of the captain?", "sundered_isles") is None
    assert background_answer(TITLE_TASK, "sundered_isles") is not None


async def test_a_choice_is_the_players_and_its_regenerate_keeps_it(tmp_path: Path) -> None:
    async with chat(tmp_path) as c:
        with patch("rules.registry.secrets.randbits", return_value=1):  # seed 1: 1 vs 9, 8
            missed = await c.say("/move face_danger edge I leap the gap")
        assert "awaits a choice" in missed and "miss" in mechanics(missed)
        sid = marked(missed)[0]
        # words while a choice waits: the choice is shown again, nothing is rolled
        assert "waits for your choice" in await c.ask(
            [*c.history, {"role": "user", "content": "I run"}]
        )
        chosen = await c.say("2")  # the second option, in the player's words
        while "awaits a choice" in chosen:
            chosen = await c.say("2")
        assert marked(chosen) == (sid, 1)
        again = await c.ask(c.history[:-1])
        assert marked(again) == (sid, 1) and mechanics(again) == mechanics(chosen)
        journal = await c.journal(sid)
        assert len(journal) == 1 and journal[0]["status"] == "resolved"
        assert [d["value"] for d in journal[0]["resolution"]["dice"]][:3] == [1, 9, 8]


async def test_the_services_narrator_tells_the_turn(tmp_path: Path) -> None:
    """With a model configured, the reply is the service's narrator's (its guard passed it); the
    facade adds the engine's mechanics line, never the model's numbers."""
    told = "Lanterns sway on the harbour wall, and a bored sentry leans on his spear."
    model = {"narrator": "model", "model": "gpt-test", "openai_base_url": BASE_URL,
             "openai_api_key": "sk-test", "model_max_retries": 0, "model_timeout": 2.0}  # fmt: skip
    with respx.mock(assert_all_called=False) as mock:
        route = mock.post(CHAT_URL).mock(return_value=completion(told))
        async with chat(tmp_path, **model) as c:
            with patch("rules.registry.secrets.randbits", return_value=1):
                reply = await c.say("/oracle likely Is the harbour guarded?")
    assert route.called
    assert reply.startswith(told)
    assert "oracle" in mechanics(reply).lower()
