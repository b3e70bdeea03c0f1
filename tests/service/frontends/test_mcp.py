"""The MCP server, driven by the SDK's own client: over streamable HTTP (the in-process app, through
httpx2's ASGI transport) and over stdio (a `fateweaver mcp` subprocess)."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import StdioServerParameters
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client

from service.retrieval import Retrieval
from tests.service.frontends.conftest import SHEET, app_for, running
from tests.vectorstore.fakes import memory_library

BASE = "http://127.0.0.1:8000"
pytestmark = pytest.mark.anyio
READ_ONLY = {"guide", "list_systems", "list_sessions", "get_state", "journal_tail", "export",
             "lookup_rule", "roll", "ask_oracle", "roll_table"}  # fmt: skip


@asynccontextmanager
async def http_client(
    tmp_path: Path, key: str | None = "k1", **settings: Any
) -> AsyncIterator[Client]:
    app = app_for(tmp_path, **({"api_keys": ["k1", "k2"]} | settings))
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    async with (
        running(app),
        httpx2.AsyncClient(
            transport=httpx2.ASGITransport(app=app), base_url=BASE, headers=headers
        ) as http,
        Client(streamable_http_client(f"{BASE}/mcp", http_client=http)) as client,
    ):
        yield client


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    data: dict[str, Any] = json.loads(result.content[0].text)  # type: ignore[union-attr]
    assert result.is_error == ("error" in data), data
    return data


async def play_three_turns(client: Client) -> str:
    """A session, three turns (a proposal accepted, a miss that waits for the player's choice,
    an oracle turn), asserting what each answers; returns the session id."""
    session = await call(client, "new_session", system="sundered_isles", name="Drowned", sheet=SHEET,
                         operation_id="new-1")  # fmt: skip
    sid = session["session"]["id"]

    # 1: words alone: a move is proposed, nothing is rolled; accept rolls it
    proposed = await call(client, "take_turn", session_id=sid, words="I dodge the falling mast")
    assert proposed["turn"]["status"] == "proposed"
    assert proposed["turn"]["resolution"] is None
    assert "accept" in proposed["allowed_next"]
    accepted = await call(client, "accept", session_id=sid, turn=proposed["turn"]["number"], seed=7)
    assert accepted["turn"]["resolution"]["dice"]

    # 2: Face Danger with dice rolled by hand (1 vs 9, 9: a miss) waits for the player's choice
    missed = await call(client, "take_turn", session_id=sid, words="I leap the gap",
                        move="face_danger", params={"stat": "edge"}, hand_rolled_dice=[1, 9, 9],
                        operation_id="turn-2")  # fmt: skip
    assert missed["turn"]["status"] == "awaiting_choice"
    assert missed["allowed_next"][0] == "choose"
    state = await call(client, "get_state", session_id=sid)
    assert state["pending"]["number"] == missed["turn"]["number"]
    refused = await call(client, "take_turn", session_id=sid, words="I run", move="face_danger",
                         params={"stat": "edge"})  # fmt: skip
    assert refused["error"]["code"] == "conflict"
    assert refused["error"]["allowed_next"][0] == "choose"
    param = missed["turn"]["choices"][0]["param"]
    value = missed["turn"]["choices"][0]["options"][-1]["value"]
    chosen = await call(client, "choose", session_id=sid, turn=missed["turn"]["number"],
                        choices={param: value})  # fmt: skip
    assert chosen["turn"]["status"] in ("resolved", "awaiting_choice")
    if chosen["turn"]["status"] == "awaiting_choice":  # a second choice, in order
        nxt = chosen["turn"]["choices"][0]
        chosen = await call(client, "choose", session_id=sid, turn=missed["turn"]["number"],
                            choices={nxt["param"]: nxt["options"][-1]["value"]})  # fmt: skip
    assert chosen["turn"]["status"] == "resolved"
    assert chosen["turn"]["narration"]
    assert [d["value"] for d in chosen["turn"]["resolution"]["dice"]][:3] == [1, 9, 9]

    # 3: an oracle turn, in the journal
    oracle = await call(client, "take_turn", session_id=sid, words="Is the harbour guarded?",
                        kind="oracle", params={"odds": "likely"})  # fmt: skip
    assert oracle["turn"]["resolution"]["kind"] == "oracle"
    tail = await call(client, "journal_tail", session_id=sid, last=10)
    assert [t["status"] for t in tail["turns"]] == ["resolved", "resolved", "resolved"]
    return sid


async def test_tools_over_http(tmp_path: Path) -> None:
    async with http_client(tmp_path) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert 14 <= len(tools) <= 18
        for name, tool in tools.items():
            assert tool.annotations is not None
            assert tool.annotations.read_only_hint is (name in READ_ONLY), name
        # the dice are the server's: hand-rolled ones only through the labelled parameter
        for name in ("take_turn", "accept", "choose", "roll", "ask_oracle"):
            props = tools[name].input_schema["properties"]
            assert "never invent" in props["hand_rolled_dice"]["description"].lower()
            assert "dice" not in props
        for name, tool in tools.items():
            assert ("operation_id" in tool.input_schema["properties"]) is (name not in READ_ONLY)
        guide = await client.read_resource("fateweaver://guide")
        text = guide.contents[0].text  # type: ignore[union-attr]
        assert "propose -> accept -> choose" in text and "Never invent a die" in text
        told = await client.call_tool("guide", {})
        assert told.content[0].text == text  # type: ignore[union-attr]


async def test_three_turns_with_a_choice_over_http(tmp_path: Path) -> None:
    async with http_client(tmp_path) as client:
        sid = await play_three_turns(client)
        exported = await call(client, "export", session_id=sid)
        assert "I leap the gap" in exported["markdown"]


async def test_a_retried_call_with_the_same_operation_id_rolls_once(tmp_path: Path) -> None:
    async with http_client(tmp_path) as client:
        session = await call(client, "new_session", system="sundered_isles", name="D", sheet=SHEET,
                             operation_id="s-1")  # fmt: skip
        again = await call(client, "new_session", system="sundered_isles", name="D", sheet=SHEET,
                           operation_id="s-1")  # fmt: skip
        assert again["replayed"] is True
        assert again["session"]["id"] == session["session"]["id"]
        sid = session["session"]["id"]
        args = {"session_id": sid, "words": "Is it raining?", "kind": "oracle",
                "params": {"odds": "50_50"}, "operation_id": "op-1"}  # fmt: skip
        first = await call(client, "take_turn", **args)
        retry = await call(client, "take_turn", **args)
        assert (first["replayed"], retry["replayed"]) == (False, True)
        assert retry["turn"] == first["turn"]  # the same dice, the same narration
        tail = await call(client, "journal_tail", session_id=sid)
        assert len(tail["turns"]) == 1
        # the same id for another call is refused, naming it
        other = await call(client, "take_turn", **(args | {"words": "Is it snowing?"}))
        assert other["error"]["code"] == "operation_id_reused"
        assert other["error"]["field"] == "operation_id"
        assert len((await call(client, "journal_tail", session_id=sid))["turns"]) == 1


async def test_another_owners_key_is_refused(tmp_path: Path) -> None:
    app = app_for(tmp_path, api_keys=["k1", "k2"])
    async with (
        running(app),
        httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=BASE) as http,
    ):

        async def session_of(key: str) -> Client:
            http.headers["Authorization"] = f"Bearer {key}"
            return Client(streamable_http_client(f"{BASE}/mcp", http_client=http))

        async with await session_of("k1") as owner:
            sid = (await call(owner, "new_session", system="sundered_isles", name="Mine",
                              sheet=SHEET))["session"]["id"]  # fmt: skip
        async with await session_of("k2") as other:
            for tool, args in (("get_state", {}), ("take_turn", {"words": "I steal it"}),
                               ("undo", {})):  # fmt: skip
                refused = await call(other, tool, session_id=sid, **args)
                assert refused["error"]["code"] == "not_found", refused
            assert (await call(other, "list_sessions"))["sessions"] == []
        # no key, or an unknown one: the endpoint answers 401, as every route does
        for auth in ("", "Bearer nope"):
            response = await http.post("/mcp/", json={}, headers={"Authorization": auth})
            assert response.status_code == 401
            assert response.json()["error"]["field"] == "header.Authorization"


async def test_errors_carry_a_code_the_field_and_what_comes_next(tmp_path: Path) -> None:
    async with http_client(tmp_path) as client:
        bad = await call(client, "new_session", system="sundered_isles", name="D",
                         sheet={"name": "K", "stats": {"edge": 9}})  # fmt: skip
        assert bad["error"]["code"] == "invalid_parameter"
        assert bad["error"]["field"].startswith("sheet")
        assert "new_session" in bad["error"]["allowed_next"]
        sid = (await call(client, "new_session", system="sundered_isles", name="D",
                          sheet=SHEET))["session"]["id"]  # fmt: skip
        dice = await call(client, "take_turn", session_id=sid, words="I strike",
                          move="face_danger", params={"stat": "edge"}, hand_rolled_dice=[7, 1, 1])  # fmt: skip
        assert dice["error"]["code"] == "bad_dice"
        assert dice["error"]["field"].startswith("hand_rolled_dice")
        assert "take_turn" in dice["error"]["allowed_next"]
        missing = await call(client, "get_state", session_id="nope")
        assert missing["error"] | {"message": ""} == {
            "code": "not_found", "message": "", "field": "session_id",
            "allowed_next": ["list_systems", "new_session", "list_sessions", "guide"],
        }  # fmt: skip


async def test_stdio_subprocess(tmp_path: Path) -> None:
    """`fateweaver mcp` as Claude Desktop starts it: the local owner, the same tools."""
    env = {**os.environ, "FATEWEAVER_DATA_DIR": str(tmp_path), "FATEWEAVER_NARRATOR": "offline",
           "FATEWEAVER_RETRIEVAL_WARM_START": "false", "FATEWEAVER_API_KEYS": ""}  # fmt: skip
    env.pop("DATABASE_URL", None)
    command = str(Path(sys.executable).with_name("fateweaver"))
    params = StdioServerParameters(command=command, args=["mcp"], env=env)
    with anyio.fail_after(90):
        async with Client(params) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            assert {"take_turn", "accept", "choose", "undo", "guide"} <= tools
            sid = await play_three_turns(client)
            undone = await call(client, "undo", session_id=sid, operation_id="u-1")
            assert undone["turn"]["status"] == "undone"
            retried = await call(client, "undo", session_id=sid, operation_id="u-1")
            assert retried["replayed"] and retried["turn"]["number"] == undone["turn"]["number"]
            state = await call(client, "get_state", session_id=sid)
            assert state["session"]["turns"] == 3


def test_the_readme_config_snippets_are_json() -> None:
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    blocks = [
        json.loads(b) for b in re.findall(r"```json\n(\{\"mcpServers\".*?)\n```", readme, re.S)
    ]
    servers = [b["mcpServers"]["fateweaver"] for b in blocks]
    assert {"command": servers[0]["command"], "args": ["mcp"]} == servers[0]
    assert servers[0]["command"].endswith(".venv/bin/fateweaver")
    assert "http://127.0.0.1:8000/mcp" in servers[1]["args"]
    assert servers[2]["url"] == "http://127.0.0.1:8000/mcp"


async def test_the_other_tools(tmp_path: Path) -> None:
    app = app_for(tmp_path)  # no API keys: the local owner
    library, _, _ = memory_library(tmp_path / "index")
    app.state.retrieval = Retrieval(app.state.settings, library=library)
    async with (
        running(app),
        httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=BASE) as http,
        Client(streamable_http_client(f"{BASE}/mcp", http_client=http)) as client,
    ):
        systems = await call(client, "list_systems")
        assert {s["id"] for s in systems["systems"]} >= {"sundered_isles", "roll_under"}
        one = await call(client, "list_systems", system="sundered_isles")
        assert "stats" in one["sheet_schema"]["properties"] and "face_danger" in str(one["moves"])
        found = await call(client, "lookup_rule", question="What does a strong hit on Strike do?",
                           system="sundered_isles")  # fmt: skip
        assert found["passages"] and found["passages"][0]["citation"]
        answered = await call(client, "lookup_rule", question="What happens on a miss?",
                              system="sundered_isles", mode="ask")  # fmt: skip
        assert answered["answer"]
        rolled = await call(client, "roll", system="roll_under", kind="save",
                            params={"ability": "finesse", "score": 12, "advantage": True},
                            hand_rolled_dice=[15, 4])  # fmt: skip
        assert [d["value"] for d in rolled["dice"]] == [15, 4]
        oracle = await call(client, "ask_oracle", system="sundered_isles",
                            question="Is the harbour guarded?", odds="likely", seed=3)  # fmt: skip
        assert oracle["answer"] in ("yes", "no") and oracle["narration"]
        spark = await call(client, "roll_table", system="sundered_isles", table="pay_the_price")
        assert spark["resolution"]["dice"]
        sid = (await call(client, "new_session", system="sundered_isles", name="D",
                          sheet=SHEET))["session"]["id"]  # fmt: skip
        opened = await call(client, "tracks_and_clocks", session_id=sid, action="open_track",
                            type="vow", name="Find my sister", rank="dangerous")  # fmt: skip
        marked = await call(client, "tracks_and_clocks", session_id=sid, action="mark_progress",
                            track="t1", times=2)  # fmt: skip
        assert (opened["turn"]["number"], marked["turn"]["number"]) == (1, 2)
        clock = await call(client, "tracks_and_clocks", session_id=sid, action="open_clock",
                           name="The tide", segments=6)  # fmt: skip
        assert clock["turn"]["changes"]
        state = await call(client, "get_state", session_id=sid)
        assert state["session"]["state"]["tracks"]["t1"]["ticks"] == 16
        assert "c1" in state["session"]["state"]["clocks"] and state["pending"] is None
        missing = await call(client, "tracks_and_clocks", session_id=sid, action="close_track")
        assert missing["error"]["field"] == "track"
        told = await call(client, "take_turn", session_id=sid, words="Is it raining?",
                          kind="oracle", params={"odds": "50_50"})  # fmt: skip
        again = await call(client, "renarrate", session_id=sid, turn=told["turn"]["number"])
        assert again["turn"]["resolution"] == told["turn"]["resolution"]
        exported = await call(client, "export", session_id=sid, format="iron_vault")
        assert "Find my sister" in exported["markdown"]


async def test_without_api_keys_only_loopback_hosts(tmp_path: Path) -> None:
    """DNS rebinding: without keys the service is local, and /mcp answers loopback names only."""
    app = app_for(tmp_path)
    async with running(app), httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app)) as http:
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        headers = {"accept": "application/json, text/event-stream",
                   "mcp-protocol-version": "2025-06-18"}  # fmt: skip
        ok = await http.post("http://localhost:8000/mcp", json=body, headers=headers)
        assert ok.status_code == 200 and ok.json()["result"]["tools"]
        evil = await http.post("http://evil.example/mcp", json=body, headers=headers)
        assert evil.status_code == 421
        origin = await http.post("http://localhost:8000/mcp", json=body,
                                 headers=headers | {"origin": "http://evil.example"})  # fmt: skip
        assert origin.status_code == 403
