"""Sessions keep every state rule the texts give (issue 19): Go Forth's Hearts that fall, rests
and healing. Played through the session API on both stores."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.service.sessions.conftest import create
from tests.service.sessions.test_play import SHEETS, state, turn


def _heart(client: TestClient, **track: Any) -> str:
    sid: str = create(client, "go_forth", SHEETS["go_forth"])["id"]
    body = {"type": "heart", "name": "Ogre", **track}
    opened = client.post(f"/v1/sessions/{sid}/tracks", json=body)
    assert opened.status_code == 201, opened.text
    return sid


def _hew(client: TestClient, sid: str, dice: list[int]) -> Any:
    # might: +3 Roll / +3 Effort; TN 12
    return turn(client, sid, words="I hew at the ogre", track="t1",
                params={"attribute": "might", "tn": 12}, dice=dice)  # fmt: skip


def test_a_heart_overcome_completes_its_track(client: TestClient) -> None:
    # go_forth.txt: "Accumulate enough Effort against a Heart (10 points) to overcome it." and
    # "Excess Effort beyond 10 is wasted". 9 Effort, then 6 + 3 = 9 more: 18, the Heart falls;
    # the track shows it overcome (full, completed), not reset to 0 and open.
    sid = _heart(client)
    _hew(client, sid, [15, 6])
    _hew(client, sid, [15, 6])
    track = state(client, sid)["tracks"]["t1"]
    assert (track["units"], track["status"], track["hearts"]) == (10, "completed", 0)
    assert track["overcome"] == 1


def test_a_foe_with_three_hearts_loses_one_and_the_count_restarts(client: TestClient) -> None:
    # go_forth.txt: "3 Hearts = 30 Effort" and "You target only 1 Heart at a time": the session
    # keeps the Hearts left (not passed on every turn); the count on the next Heart restarts.
    sid = _heart(client, hearts=3)
    _hew(client, sid, [15, 6])  # 9
    hit = _hew(client, sid, [15, 6])  # 18: one Heart falls, the 8 beyond 10 are wasted
    assert hit["resolution"]["params"]["hearts"] == 3  # from the track
    track = state(client, sid)["tracks"]["t1"]
    assert (track["hearts"], track["overcome"], track["units"], track["status"]) == (
        2,
        1,
        0,
        "open",
    )
    again = _hew(client, sid, [15, 6])
    assert again["resolution"]["params"]["hearts"] == 2
    assert state(client, sid)["tracks"]["t1"]["units"] == 9


def test_hearts_is_for_a_go_forth_heart_track(client: TestClient) -> None:
    sid = create(client, "storyteller", SHEETS["storyteller"])["id"]
    r = client.post(
        f"/v1/sessions/{sid}/tracks",
        json={"type": "extended_action", "name": "Door", "target": 3, "hearts": 2},
    )
    assert r.status_code == 422 and r.json()["error"]["field"] == "hearts"
