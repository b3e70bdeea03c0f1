"""``kill -9`` in the middle of a turn loses nothing committed and doubles nothing.

The service runs as it is deployed (``python -m service serve``, a subprocess) with a model on
loopback that can hang, so that the kill lands where the test wants it: while the model proposes
(before the commit: nothing is recorded), while it narrates (after the commit: the turn is there,
once, with its dice, and can be narrated again), and at random moments of continuous play.

The process that comes after a kill is started while the one before still runs, as a supervisor
keeps one ready: the test waits for one start, not one per kill (a start costs seconds here). It
has done nothing with the database before the kill but migrate it (a no-op), which a process
started after does too.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from service.sessions import store
from service.sessions.db import Database
from service.sessions.journal import replay_session, turn_out
from service.sessions.models import SessionRow
from tests.service.sessions.conftest import settings_for
from tests.service.sessions.faults import NARRATION, ModelServer, Service, service_env

SHEET = {"name": "Ash", "attributes": {"might": 3}}
CHECK = {"kind": "check", "params": {"attribute": "might", "tn": 12}}
Services = Callable[[int], list[Service]]


@pytest.fixture
def model() -> Iterator[ModelServer]:
    with ModelServer() as model:
        yield model


@pytest.fixture
def database(tmp_path: Path) -> Iterator[Database]:
    """The store the services use, read by the test directly."""
    database = Database(settings_for(tmp_path))
    yield database
    database.close()


@pytest.fixture
def services(tmp_path: Path, model: ModelServer) -> Iterator[Services]:
    """``services(n)``: n processes of the service on the test's store, all starting at once."""
    env, log = service_env(settings_for(tmp_path), model), tmp_path / "service.log"
    started: list[Service] = []

    def start(n: int) -> list[Service]:
        started.extend(Service(env, log) for _ in range(n))
        return started[-n:]

    yield start
    for service in started:
        service.close()
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


def new_session(client: httpx.Client) -> str:
    r = client.post("/v1/sessions", json={"system": "go_forth", "name": "Drowned", "sheet": SHEET})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def in_background(client: httpx.Client, path: str, body: dict[str, Any]) -> Future[Any]:
    """A request that the kill will cut: its future ends with the connection's error."""
    pool = ThreadPoolExecutor(1)
    future = pool.submit(client.post, path, json=body)
    pool.shutdown(wait=False)
    return future


def assert_whole(database: Database, sid: str) -> list[dict[str, Any]]:
    """The session as a kill left it (read from the store): turn numbers contiguous and counted,
    no request recorded twice, every turn's replay reaching its recorded state, and the
    session's state the last resolved turn's ``state_after``. Its journal, as the API shows it."""
    with database.transaction(write=False) as db:
        row = db.scalars(select(SessionRow).where(SessionRow.id == sid)).one()
        turns = list(store.list_turns(db, row))
        assert [t.number for t in turns] == list(range(1, len(turns) + 1))
        assert row.turn_count == len(turns)
        words = [t.words for t in turns]
        assert len(set(words)) == len(words), "a request recorded twice"
        report = replay_session(row, turns)
        assert report.ok, report
        resolved = [t for t in turns if t.status == "resolved"]
        assert row.state == (resolved[-1].state_after if resolved else row.initial_state)
        return [turn_out(t).model_dump(mode="json") for t in turns]


def play(
    client: httpx.Client,
    sid: str,
    rng: random.Random,
    acknowledged: list[int],
    playing: threading.Event,
) -> None:
    """Turns as fast as they are answered (rolls, choices, clocks) until the connection fails;
    the number of every turn whose answer arrived is appended to ``acknowledged``, and
    ``playing`` set once one has."""
    while True:
        tag = f"{rng.getrandbits(64):016x}"  # each request's words are its own
        try:
            if rng.random() < 0.3:
                body = {"name": f"Clock {tag}", "segments": 4}
                r = client.post(f"/v1/sessions/{sid}/clocks", json=body)
            else:
                body = {"words": f"I push on {tag}", **CHECK, "seed": rng.getrandbits(31)}
                r = client.post(f"/v1/sessions/{sid}/turns", json=body)
            if r.status_code == 409:  # the last turn awaits a choice (made before a kill)
                last = client.get(f"/v1/sessions/{sid}/turns").json()[-1]
                r = choose(client, sid, last)
            assert r.status_code in (200, 201), r.text
            turn = r.json()
            if turn["status"] == "awaiting_choice":
                r = choose(client, sid, turn)
                assert r.status_code == 200, r.text
                turn = r.json()
            acknowledged.append(turn["number"])
            playing.set()
        except httpx.HTTPError:
            return


def choose(client: httpx.Client, sid: str, turn: dict[str, Any]) -> httpx.Response:
    """The first option of every choice the turn offers."""
    chosen = {c["param"]: c["options"][0]["value"] for c in turn["choices"]}
    return client.post(
        f"/v1/sessions/{sid}/turns/{turn['number']}/choose", json={"choices": chosen}
    )


def test_kill_9_mid_turn_loses_nothing_committed_and_doubles_nothing(
    services: Services, model: ModelServer, database: Database
) -> None:
    """One kill lands on three sessions at once: one whose turn waits for the model's proposal
    (before its commit), one whose committed turn waits for its narration, one played as fast
    as it answers (a random moment of play). The next process plays on, and is killed at a
    random moment too."""
    seed = random.SystemRandom().getrandbits(32)
    rng = random.Random(seed)
    first, second = services(2)
    client = first.ready()
    proposing, narrating, played = (new_session(client) for _ in range(3))
    # the proposal quotes the player's words; the narration's lead says them to "you"
    model.hang_for = ("I look for a way", "You smash the door")
    cut = [
        in_background(client, f"/v1/sessions/{proposing}/turns", {"words": "I look for a way"}),
        in_background(client, f"/v1/sessions/{narrating}/turns",
                      {"words": "I smash the door", **CHECK, "dice": [15]}),  # 15 + 3 meets 12
    ]  # fmt: skip
    deadline = time.monotonic() + 60
    while len(model.requests) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    acknowledged: list[int] = []
    play_until_killed(first, client, played, rng, acknowledged)  # the kill
    assert all(isinstance(f.exception(10), httpx.HTTPError) for f in cut)
    asked = [str(r["messages"]) for r in model.requests]
    for words in model.hang_for:  # the model was waiting on both when the kill came
        assert sum(words in a for a in asked) == 1, f"the model was not asked of {words!r}"
    model.hang_for = ()
    model.release.set()

    # Before the commit: nothing recorded.
    assert assert_whole(database, proposing) == []
    # After the commit: the turn, once, with its dice; its narration still to tell.
    [kept] = assert_whole(database, narrating)
    assert kept["status"] == "resolved" and kept["resolution"]["outcome"] == "success"
    assert [d["value"] for d in kept["resolution"]["dice"]] == [15]
    assert kept["narration"] == "" and kept["narration_status"] != "done"
    # Play: every turn whose answer arrived is there, and nothing twice.
    numbers = {t["number"] for t in assert_whole(database, played)}
    assert set(acknowledged) <= numbers, f"seed {seed}: an answered turn was lost"

    # The next process: the next request succeeds.
    client = second.ready()
    assert client.post(f"/v1/sessions/{narrating}/replay").json()["ok"] is True
    told = client.post(f"/v1/sessions/{narrating}/turns/1/renarrate").json()
    # the lead (service/narrator/lead.py) tells the success; the model's words follow it
    assert told["narration"] == f"You smash the door, and it works. {NARRATION}"
    assert told["narration_status"] == "done"
    assert told["resolution"] == kept["resolution"]
    for sid, number in ((narrating, 2), (proposing, 1)):
        body = {"words": "I run", **CHECK, "dice": [12]}
        r = client.post(f"/v1/sessions/{sid}/turns", json=body)
        assert r.status_code == 201 and r.json()["number"] == number
    play_until_killed(second, client, played, rng, acknowledged)
    numbers = {t["number"] for t in assert_whole(database, played)}
    assert set(acknowledged) <= numbers, f"seed {seed}: an answered turn was lost"


def play_until_killed(
    service: Service, client: httpx.Client, sid: str, rng: random.Random, acknowledged: list[int]
) -> None:
    """Play the session from another thread; once a turn is answered, ``kill -9`` the service
    at a random moment within a second."""
    moment, playing = rng.uniform(0, 1.0), threading.Event()
    with ThreadPoolExecutor(1) as pool:
        player = pool.submit(
            play, client, sid, random.Random(rng.getrandbits(32)), acknowledged, playing
        )
        playing.wait(60)  # a process's first turn is slower (imports on first use)
        time.sleep(moment)
        service.kill()
        player.result(30)  # its failure, if it failed before the kill
