"""``Idempotency-Key``: a retried request gets the original response and rolls nothing again."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from service.sessions import idempotency, process
from service.sessions.idempotency import REPLAYED, WAIT_FOR_FIRST
from service.sessions.models import IdempotencyRow
from tests.service.sessions.conftest import create, session_app
from tests.service.sessions.test_play import SHEETS

# A roll that leaves no choice (a Storyteller simple roll), without dice or seed: the engine
# draws it, so rolling it twice would (almost always) differ.
CHECK = {"words": "I climb the sea wall", "kind": "simple",
         "params": {"traits": ["dexterity", "athletics"], "difficulty": 6}}  # fmt: skip


@pytest.fixture
def sid(client: TestClient) -> str:
    return str(create(client, "storyteller", SHEETS["storyteller"])["id"])


def _key(key: str) -> dict[str, str]:
    return {"Idempotency-Key": key}


def _journal(client: TestClient, sid: str) -> list[Any]:
    return list(client.get(f"/v1/sessions/{sid}/turns").json())


def test_a_retried_turn_gets_the_original_and_rolls_nothing(client: TestClient, sid: str) -> None:
    # No dice and no seed: the engine draws the roll, so a second roll would differ.
    first = client.post(f"/v1/sessions/{sid}/turns", json=CHECK, headers=_key("turn-1"))
    again = client.post(f"/v1/sessions/{sid}/turns", json=CHECK, headers=_key("turn-1"))
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.headers[REPLAYED] == "true" and REPLAYED not in first.headers
    assert len(_journal(client, sid)) == 1
    # Without a key (or with a new one) the same body is a new turn.
    other = client.post(f"/v1/sessions/{sid}/turns", json=CHECK, headers=_key("turn-2"))
    assert other.json()["number"] == 2


def test_the_same_key_for_another_request_is_a_409(client: TestClient, sid: str) -> None:
    client.post(f"/v1/sessions/{sid}/turns", json=CHECK, headers=_key("k"))
    changed = client.post(
        f"/v1/sessions/{sid}/turns", json={**CHECK, "words": "I swim"}, headers=_key("k")
    )
    assert changed.status_code == 409
    assert changed.json()["error"]["field"] == "header.Idempotency-Key"
    elsewhere = client.post(f"/v1/sessions/{sid}/undo", headers=_key("k"))
    assert elsewhere.status_code == 409
    assert len(_journal(client, sid)) == 1
    assert _journal(client, sid)[0]["status"] == "resolved"  # the undo did not happen


@pytest.mark.parametrize("bad", ["", "x" * 256, "na\xefve".encode("latin-1"), "two words"])
def test_a_malformed_key_is_a_422_naming_the_header(
    client: TestClient, sid: str, bad: str | bytes
) -> None:
    response = client.post(
        f"/v1/sessions/{sid}/turns", json=CHECK, headers={"Idempotency-Key": bad}
    )
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "header.Idempotency-Key"
    assert _journal(client, sid) == []


def test_keys_belong_to_their_owner(tmp_path: Path) -> None:
    alice, bob = "alice-key-0123456789", "bob-key-9876543210"
    with TestClient(session_app(tmp_path, api_keys=[alice, bob])) as client:
        sessions = {}
        for who in (alice, bob):
            headers = {"Authorization": f"Bearer {who}", "Idempotency-Key": "same"}
            body = {"system": "go_forth", "name": "Drowned", "sheet": SHEETS["go_forth"]}
            sessions[who] = client.post("/v1/sessions", json=body, headers=headers).json()
        assert sessions[alice]["id"] != sessions[bob]["id"]


def test_every_play_route_is_idempotent(client: TestClient, sid: str) -> None:
    """Choose, accept, undo, renarrate, tracks, clocks and session creation: each retried."""
    base = f"/v1/sessions/{sid}"
    calls: list[tuple[str, dict[str, Any] | None]] = [
        (f"{base}/turns", {"words": "I look for a way across the ravine"}),  # a proposal
        (f"{base}/turns/1/accept", {}),
        (f"{base}/turns/1/renarrate", None),
        (f"{base}/clocks", {"name": "The tide", "segments": 6}),
        (f"{base}/clocks/c1/advance", {"by": 2}),
        (f"{base}/undo", None),
    ]
    for n, (url, body) in enumerate(calls):
        first = client.post(url, json=body, headers=_key(f"k{n}"))
        assert first.status_code in (200, 201), (url, first.text)
        before = _journal(client, sid)
        state = client.get(base).json()["state"]
        again = client.post(url, json=body, headers=_key(f"k{n}"))
        assert (again.status_code, again.json()) == (first.status_code, first.json()), url
        assert _journal(client, sid) == before and client.get(base).json()["state"] == state
    body = {"system": "go_forth", "name": "Twice", "sheet": SHEETS["go_forth"]}
    made = [client.post("/v1/sessions", json=body, headers=_key("new")) for _ in range(2)]
    assert made[0].status_code == made[1].status_code == 201
    assert made[0].json() == made[1].json()
    assert [s["name"] for s in client.get("/v1/sessions").json()].count("Twice") == 1


def test_a_retried_choice_is_made_once(client: TestClient) -> None:
    sid = create(client, "go_forth", SHEETS["go_forth"])["id"]
    # A miss by 6 on TN 12 offers to spend Momentum (go_forth.txt, "Spending Momentum").
    rolled = client.post(
        f"/v1/sessions/{sid}/turns",
        json={"words": "I climb", "kind": "check",
              "params": {"attribute": "might", "tn": 12}, "dice": [3]},
    ).json()  # fmt: skip
    assert rolled["status"] == "awaiting_choice", rolled
    choose = f"/v1/sessions/{sid}/turns/1/choose"
    body = {"choices": {"boosts": ["stamina"]}, "dice": [4]}  # the Stamina die, rolled by hand
    first = client.post(choose, json=body, headers=_key("c"))
    again = client.post(choose, json=body, headers=_key("c"))
    assert first.status_code == 200, first.text
    assert again.json() == first.json()
    # Without the key, the retry is refused: the choice was made.
    assert client.post(choose, json=body).status_code == 409


def test_a_failed_request_recorded_nothing_and_its_retry_runs(client: TestClient) -> None:
    sid = create(client, "go_forth", SHEETS["go_forth"])["id"]
    waiting = {"words": "I climb", "kind": "check",
               "params": {"attribute": "might", "tn": 12}, "dice": [3]}  # fmt: skip
    client.post(f"/v1/sessions/{sid}/turns", json=waiting)
    climb = {**waiting, "params": {"attribute": "agility", "tn": 10}, "dice": [20]}
    blocked = client.post(f"/v1/sessions/{sid}/turns", json=climb, headers=_key("later"))
    assert blocked.status_code == 409  # turn 1 awaits a choice
    client.post(f"/v1/sessions/{sid}/turns/1/choose", json={"choices": {"boosts": []}})
    retried = client.post(f"/v1/sessions/{sid}/turns", json=climb, headers=_key("later"))
    assert retried.status_code == 201 and retried.json()["number"] == 2


def test_a_streamed_retry_gets_the_stored_turn_as_events(client: TestClient, sid: str) -> None:
    first = client.post(f"/v1/sessions/{sid}/turns", json=CHECK, headers=_key("s")).json()
    streamed = client.post(
        f"/v1/sessions/{sid}/turns",
        json=CHECK,
        headers={**_key("s"), "Accept": "text/event-stream"},
    )
    assert streamed.headers["content-type"].startswith("text/event-stream")
    events = [
        json.loads(line[len("data: ") :])
        for line in streamed.text.splitlines()
        if line.startswith("data: ")
    ]
    assert events == [first, first]  # mechanics, then final: the original turn both times


def test_a_first_request_that_stopped_before_answering_gives_its_turn(
    client: TestClient, sid: str
) -> None:
    """The process stopped after committing the turn but before keeping its response: the
    retry gets the committed turn, and nothing is rolled again."""
    first = client.post(f"/v1/sessions/{sid}/turns", json=CHECK, headers=_key("crash")).json()
    long_ago = datetime.now(UTC) - timedelta(seconds=2 * WAIT_FOR_FIRST)
    with client.app.state.database.transaction() as db:  # type: ignore[attr-defined]
        db.execute(update(IdempotencyRow).values(response=None, created_at=long_ago))
    again = client.post(f"/v1/sessions/{sid}/turns", json=CHECK, headers=_key("crash"))
    assert again.status_code == 201
    assert again.json()["resolution"] == first["resolution"]
    assert len(_journal(client, sid)) == 1


def test_a_retry_does_not_wait_for_a_process_that_is_gone(client: TestClient, sid: str) -> None:
    """Issue 14: after a crash between the commit and the stored answer, a retry waited 15 s
    before answering. The process that held the key is gone (here: a pid that ran and exited),
    so nothing more will come: the retry answers at once with the committed turn."""
    exited = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                            capture_output=True, text=True, check=True)  # fmt: skip
    dead = f"{socket.gethostname()}/{exited.stdout.strip()}/1"
    first = client.post(f"/v1/sessions/{sid}/turns", json=CHECK, headers=_key("gone")).json()
    with client.app.state.database.transaction() as db:  # type: ignore[attr-defined]
        db.execute(update(IdempotencyRow).values(response=None, holder=dead))
    started = time.monotonic()
    again = client.post(f"/v1/sessions/{sid}/turns", json=CHECK, headers=_key("gone"))
    assert time.monotonic() - started < WAIT_FOR_FIRST / 3
    assert again.status_code == 201 and again.json()["resolution"] == first["resolution"]
    assert len(_journal(client, sid)) == 1


def test_a_retry_waits_for_a_process_that_still_runs(
    client: TestClient, sid: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The holder is this very process, still answering: the retry waits for it (up to
    WAIT_FOR_FIRST), then gets the committed turn as it is."""
    monkeypatch.setattr(idempotency, "WAIT_FOR_FIRST", 1.0)
    first = client.post(f"/v1/sessions/{sid}/turns", json=CHECK, headers=_key("alive")).json()
    with client.app.state.database.transaction() as db:  # type: ignore[attr-defined]
        db.execute(
            update(IdempotencyRow).values(
                response=None, holder=process.identity(), created_at=datetime.now(UTC)
            )
        )
    started = time.monotonic()
    again = client.post(f"/v1/sessions/{sid}/turns", json=CHECK, headers=_key("alive"))
    assert time.monotonic() - started >= 0.9
    assert again.status_code == 201 and again.json()["resolution"] == first["resolution"]


def test_process_identity_tells_a_gone_process() -> None:
    assert not process.gone(process.identity())
    assert not process.gone(None) and not process.gone("another-host/1/1")
    assert process.gone(process.identity() + "0")  # this pid, but started at another time


@pytest.fixture
def two_workers(tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    """Two apps over one database: two worker processes, as far as the store can tell."""
    first, second = session_app(tmp_path), session_app(tmp_path)
    yield first, second
    first.state.database.close()
    second.state.database.close()


def test_the_same_key_sent_at_once_to_two_workers_rolls_once(two_workers: tuple[Any, Any]) -> None:
    async def play() -> tuple[list[httpx.Response], list[Any]]:
        clients = [
            httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://fw")
            for app in two_workers
        ]
        body = {"system": "storyteller", "name": "Both", "sheet": SHEETS["storyteller"]}
        sid = (await clients[0].post("/v1/sessions", json=body)).json()["id"]
        url = f"/v1/sessions/{sid}/turns"
        answers = await asyncio.gather(
            *(clients[n % 2].post(url, json=CHECK, headers=_key("once")) for n in range(10))
        )
        journal = (await clients[1].get(url)).json()
        for c in clients:
            await c.aclose()
        return list(answers), journal

    answers, journal = asyncio.run(play())
    assert len(journal) == 1
    assert {a.status_code for a in answers} == {201}, [a.text for a in answers]
    assert all(a.json()["resolution"] == journal[0]["resolution"] for a in answers)
