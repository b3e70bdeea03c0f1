"""JSON from a model: bare, fenced, amid prose; nothing else is trusted."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import respx
from hypothesis import given
from hypothesis import strategies as st

from prompts import RenderedPrompt
from rules.registry import get_system
from service.narrator.model import Calls, OpenAICompatibleModel, parse_json_object
from service.sessions.propose import proposal_schema
from service.settings import Settings
from tests.service.narrator.mock_model import BASE_URL, CHAT_URL, completion, sent

PROPOSAL = {"kind": "action", "params": {"stat": "edge", "stat_value": 2}, "dice": [5, 3, 8]}


@pytest.mark.parametrize(
    "reply",
    [
        json.dumps(PROPOSAL),
        "```json\n" + json.dumps(PROPOSAL, indent=2) + "\n```",
        "Sure! " + json.dumps(PROPOSAL) + " Let me know.",
        "{not json} then " + json.dumps(PROPOSAL),
    ],
)
def test_the_first_json_object_is_found(reply: str) -> None:
    assert parse_json_object(reply) == PROPOSAL


@pytest.mark.parametrize("reply", ["", "no json here", "[1, 2, 3]", '{"kind": "action"'])
def test_no_object_is_an_error(reply: str) -> None:
    with pytest.raises(ValueError):
        parse_json_object(reply)


@given(
    st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=8), max_size=5),
    st.text(alphabet="abc .!", max_size=30),
)
def test_an_object_amid_prose_round_trips(value: dict[str, object], prose: str) -> None:
    assert parse_json_object(f"{prose}{json.dumps(value)}{prose}") == value


# --- a schema beside json_object (issue 15): move ids and stats as enums ----------------------
# "Where the server honours {"type": "json_object", "schema": …} (llama.cpp does; it refuses
# json_schema), constrain move ids and stats with an enum."


def _model(mode: str) -> OpenAICompatibleModel:
    settings = Settings(
        model="gpt-test", openai_base_url=BASE_URL, openai_api_key="sk-test",
        model_json_mode=mode, model_max_retries=0,
    )  # fmt: skip
    return OpenAICompatibleModel(settings)


PROMPT = RenderedPrompt(system="Reply with JSON.", user="I dodge the falling mast")


def test_the_proposal_schema_enumerates_the_systems_moves_kinds_and_stats() -> None:
    isles_schema = proposal_schema(get_system("sundered_isles"))
    isles = isles_schema["properties"]
    assert "face_danger" in isles["move"]["enum"] and None in isles["move"]["enum"]
    assert "move" in isles_schema["required"]  # a move roll without its move: refused at accept
    assert isles["params"]["properties"]["stat"]["enum"] == list(get_system("sundered_isles").stats)
    # Go Forth has no moves, and its GM names an attribute (not a stat) and a TN in its range
    forth = proposal_schema(get_system("go_forth"))["properties"]
    assert "move" not in forth
    assert forth["params"]["properties"]["attribute"]["enum"][:2] == ["might", "agility"]
    assert forth["params"]["properties"]["tn"] == {"type": "integer", "minimum": 10, "maximum": 34}
    assert "stat" not in forth["params"]["properties"]


@respx.mock
def test_the_schema_is_sent_beside_json_object_and_dropped_when_refused() -> None:
    route = respx.post(CHAT_URL)
    schema = proposal_schema(get_system("sundered_isles"))
    refused = httpx.Response(
        400, json={"error": {"message": "response_format: unknown field schema"}}
    )
    route.side_effect = [refused, completion("{}"), completion("{}")]
    model = _model("json_object_schema")
    asyncio.run(model.complete(PROMPT, Calls(), json_reply=True, schema=schema))
    assert sent(route.calls[0].request)["response_format"] == {
        "type": "json_object",
        "schema": schema,
    }
    # refused: json_object alone, at once and from then on
    assert sent(route.calls[1].request)["response_format"] == {"type": "json_object"}
    asyncio.run(model.complete(PROMPT, Calls(), json_reply=True, schema=schema))
    assert sent(route.calls[2].request)["response_format"] == {"type": "json_object"}


@respx.mock
def test_without_the_setting_no_schema_is_sent() -> None:
    route = respx.post(CHAT_URL).mock(return_value=completion("{}"))
    schema = proposal_schema(get_system("sundered_isles"))
    asyncio.run(_model("json_object").complete(PROMPT, Calls(), json_reply=True, schema=schema))
    assert sent(route.calls[0].request)["response_format"] == {"type": "json_object"}
