"""Concurrent turns on one session are serialized: every turn sees the state the one before it
left, numbers are contiguous, and the state is what replaying the journal gives."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from tests.service.sessions.conftest import session_app
from tests.service.sessions.test_play import SHEETS

CONCURRENT = 20


async def _play_concurrently(tmp_path: Path) -> tuple[list[httpx.Response], list[Any], Any, Any]:
    app = session_app(tmp_path)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://fw") as client:
        created = await client.post(
            "/v1/sessions",
            json={"system": "storyteller", "name": "Siege", "sheet": SHEETS["storyteller"]},
        )
        sid = created.json()["id"]
        track = await client.post(
            f"/v1/sessions/{sid}/tracks",
            json={"type": "extended_action", "name": "Break the siege", "target": 100},
        )
        assert track.status_code == 201, track.text
        # An extended action: every roll's successes add to the one track (a lost update
        # would lose some of them).
        body = {"words": "I dig under the wall", "track": "t1",
                "params": {"traits": ["dexterity", "athletics"], "difficulty": 6, "goal": 100}}  # fmt: skip
        answers = await asyncio.gather(
            *(
                client.post(f"/v1/sessions/{sid}/turns", json={**body, "seed": seed})
                for seed in range(CONCURRENT)
            )
        )
        journal = (await client.get(f"/v1/sessions/{sid}/turns")).json()
        session = (await client.get(f"/v1/sessions/{sid}")).json()
        replay = (await client.post(f"/v1/sessions/{sid}/replay")).json()
    app.state.database.close()
    return answers, journal, session, replay


def test_twenty_concurrent_turns_are_serialized(tmp_path: Path) -> None:
    answers, journal, session, replay = asyncio.run(_play_concurrently(tmp_path))
    assert [a.status_code for a in answers] == [201] * CONCURRENT, [a.text for a in answers]
    numbers = sorted(a.json()["number"] for a in answers)
    assert numbers == list(range(2, CONCURRENT + 2))  # turn 1 opened the track
    assert [t["number"] for t in journal] == list(range(1, CONCURRENT + 2))
    # Each turn started from the state the one before it left: nothing lost, nothing doubled.
    stored = {t["number"]: t for t in journal}
    assert replay == {"ok": True, "turns": CONCURRENT + 1, "mismatches": []}
    gained = [
        c["delta"] or 0
        for t in journal
        for c in t["changes"]
        if c["target"].startswith("tracks.t1") and t["number"] > 1
    ]
    assert session["state"]["tracks"]["t1"]["units"] == sum(gained)
    seeds = sorted(stored[n]["resolution"]["seed"] for n in numbers)
    assert seeds == list(range(CONCURRENT))  # every request rolled once, none twice
