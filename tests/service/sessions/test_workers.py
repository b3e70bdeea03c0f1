"""Two service processes over one database (PostgreSQL, and SQLite on one machine) lose no
update: turns sent to either, one after the other or at once, form one journal; a retry with
the same idempotency key sent to the other process gets the first one's answer."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from tests.service.sessions.conftest import settings_for
from tests.service.sessions.faults import ModelServer, Service, service_env
from tests.service.sessions.test_play import SHEETS

ROLL = {"words": "I pick the harbour lock", "kind": "simple",
        "params": {"traits": ["dexterity", "athletics"], "difficulty": 6}}  # fmt: skip


def test_two_processes_play_one_session_and_lose_nothing(tmp_path: Path) -> None:
    settings = settings_for(tmp_path)
    with (
        ModelServer() as model,
        Service(service_env(settings, model), tmp_path / "a.log") as a,
        Service(service_env(settings, model), tmp_path / "b.log") as b,
    ):
        first, second = a.ready(), b.ready()
        workers = [first, second]
        body = {"system": "storyteller", "name": "Two tabs", "sheet": SHEETS["storyteller"]}
        sid = first.post("/v1/sessions", json=body).json()["id"]
        url = f"/v1/sessions/{sid}/turns"

        # One after the other, alternating processes: each sees what the other wrote.
        for n in range(6):
            answer = workers[n % 2].post(url, json={**ROLL, "seed": n})
            assert answer.status_code == 201, answer.text
            assert answer.json()["number"] == n + 1

        # At once: twelve turns, six to each process.
        def send(n: int) -> httpx.Response:
            return workers[n % 2].post(url, json={**ROLL, "seed": 100 + n})

        with ThreadPoolExecutor(12) as pool:
            burst = list(pool.map(send, range(12)))
        assert [r.status_code for r in burst] == [201] * 12, [r.text for r in burst]

        # A retry with the same key, sent to the other process: the first answer, nothing new.
        keyed = {"Idempotency-Key": "tab-1"}
        original = first.post(url, json=ROLL, headers=keyed)
        retried = second.post(url, json=ROLL, headers=keyed)
        assert retried.status_code == original.status_code == 201
        assert retried.json() == original.json()
        assert retried.headers["Idempotent-Replayed"] == "true"

        journals: list[Any] = [w.get(url).json() for w in workers]
        replay = second.post(f"/v1/sessions/{sid}/replay").json()
        states = [w.get(f"/v1/sessions/{sid}").json()["state"] for w in workers]
        for w in workers:
            w.close()
    assert journals[0] == journals[1]
    assert [t["number"] for t in journals[0]] == list(range(1, 6 + 12 + 2))
    seeds = sorted(t["resolution"]["seed"] for t in journals[0][:-1])
    assert seeds == [*range(6), *range(100, 112)]  # each request rolled once
    assert replay == {"ok": True, "turns": 6 + 12 + 1, "mismatches": []}
    assert states[0] == states[1]
