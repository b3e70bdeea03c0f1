"""The journal's change words (service/web/static/changes.js), run under node: every kind of
state change the five systems record reads as words, never as the engine's keys."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from service.web import STATIC

NODE = shutil.which("node")

CTX = {
    "meters": {"health": "Health", "momentum": "Momentum", "blood": "Blood", "hp": "HP"},
    "tracks": {
        "t1": {"name": "Find my sister", "type": "vow", "rank": "dangerous", "counted": False},
        "t2": {"name": "The long climb", "type": "extended_action", "rank": None, "counted": True},
    },
    "clocks": {"c1": {"name": "The storm breaks"}},
}
# (change, words): every change kind of the five systems (rules.models.StateChange records).
CASES = [
    # Sundered Isles / Elegy: meters, momentum, impacts, progress, legacies, held adds, position.
    ({"target": "health", "delta": -2, "note": "suffer harm"}, "Health \u22122 (suffer harm)"),
    ({"target": "momentum", "delta": 1}, "Momentum +1"),
    ({"target": "momentum", "set_to": 2, "delta": -4, "note": "momentum burned"},
     "Momentum 6 \u2192 2 (momentum burned)"),
    ({"target": "momentum", "delta": 0, "note": "at its limit"}, "Momentum unchanged (at its limit)"),
    ({"target": "wounded", "set_to": 1, "note": "mark wounded"}, "Wounded marked"),
    ({"target": "impacts", "delta": 1, "note": "wounded marked"}, "Wounded marked"),
    ({"target": "impacts.shaken", "set_to": 0, "note": "by hand"}, "Shaken cleared (by hand)"),
    ({"target": "meters.blood", "delta": -1, "note": "by hand"}, "Blood \u22121 (by hand)"),
    ({"target": "tracks.t1", "set_to": 0, "note": "opened: Find my sister"},
     "Find my sister: dangerous vow opened"),
    ({"target": "tracks.t1", "delta": 8, "note": "progress"}, "Find my sister: progress +2 boxes"),
    ({"target": "tracks.t1", "delta": 6}, "Find my sister: progress +1 box 2 ticks"),
    ({"target": "tracks.t1", "note": "completed"}, "Find my sister: completed"),
    ({"target": "tracks.t2", "delta": 3}, "The long climb: progress +3"),
    ({"target": "progress", "delta": 2, "note": "mark progress x1"}, "Progress +2 ticks"),
    ({"target": "progress_marks", "delta": 2, "note": "mark progress"}, "Mark progress \u00d72"),
    ({"target": "legacy:quests", "delta": 4, "note": "+4 ticks"}, "Quests legacy: +1 box"),
    ({"target": "quests:cleared", "set_to": 1, "note": "tenth box filled: cleared"},
     "Quests legacy: tenth box filled, cleared"),
    ({"target": "experience", "delta": -3, "note": "Advance: an asset"},
     "Experience \u22123 (Advance: an asset)"),
    ({"target": "rank", "note": "formidable"}, "Rank raised to formidable"),
    ({"target": "next_roll_adds", "delta": 1, "note": "add +1"}, "+1 on your next roll (add +1)"),
    ({"target": "next_roll_adds", "set_to": 0, "note": "added to this roll"},
     "Adds held: used on this roll"),
    ({"target": "position", "note": "in_control"}, "Position: in control"),
    ({"target": "position", "note": "bad_spot"}, "Position: in a bad spot"),
    ({"target": "track_status", "note": "forsaken"}, "The track is forsaken"),
    ({"target": "tension_clock", "delta": 1}, "Tension clock +1 segment"),
    # Clocks (every system's session).
    ({"target": "clocks.c1", "set_to": 0, "note": "The storm breaks"},
     "The storm breaks: clock started"),
    ({"target": "clocks.c1", "delta": 2, "note": "The storm breaks"}, "The storm breaks: +2 segments"),
    # Go Forth: wounds, conditions, momentum areas, hearts.
    ({"target": "wounds", "delta": 1, "note": "Severe: a broken arm"},
     "Wound taken: Severe: a broken arm"),
    ({"target": "wounds", "delta": -1, "note": "a Vicious Wound fades"},
     "1 wound healed (a Vicious Wound fades)"),
    ({"target": "wounds.vicious", "delta": -1, "note": "2 left"}, "Vicious wound: 2 left"),
    ({"target": "condition.dazed", "set_to": 1}, "Dazed: marked"),
    ({"target": "momentum.fatigue", "delta": 2}, "Momentum in fatigue +2"),
    ({"target": "momentum.dice", "delta": -1, "note": "permanently"},
     "Momentum dice \u22121 (permanently)"),
    ({"target": "tracks.t1.hearts", "delta": -1}, "Find my sister: hearts \u22121"),
    ({"target": "target.hearts", "delta": -1}, "The target's hearts \u22121"),
    ({"target": "death", "note": "at end of encounter"}, "Death: at end of encounter"),
    ({"target": "beat", "delta": 1, "note": "a Hit"}, "+1 beat (a Hit)"),
    # Storyteller: willpower, contests (the total and the change).
    ({"target": "willpower", "delta": -1, "note": "willpower point spent"},
     "Willpower \u22121 (willpower point spent)"),
    ({"target": "progress", "set_to": 5, "delta": 2}, "Progress 3 \u2192 5"),
    ({"target": "opponent_progress", "set_to": 4, "delta": 1}, "Opponent's progress 3 \u2192 4"),
    # Roll-under: HP, abilities, conditions, status.
    ({"target": "hp", "set_to": 8, "delta": 3, "note": "short rest"}, "HP 5 \u2192 8 (short rest)"),
    ({"target": "brawn", "delta": -2}, "Brawn \u22122"),
    ({"target": "conditions.exhausted", "set_to": 0, "note": "a night's rest"},
     "Exhausted: cleared (a night's rest)"),
    ({"target": "status", "note": "routed"}, "Status: routed"),
]  # fmt: skip


@pytest.mark.skipif(NODE is None, reason="node is not installed (the browser test reads some)")
def test_every_change_kind_reads_as_words() -> None:
    assert NODE
    script = (
        f'import {{ describeChange }} from "{(STATIC / "changes.js").as_uri()}";\n'
        f"const cases = {json.dumps([c for c, _ in CASES])};\n"
        f"const ctx = {json.dumps(CTX)};\n"
        "console.log(JSON.stringify(cases.map((c) => describeChange(c, ctx))));\n"
    )
    out = subprocess.run(
        [NODE, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30
    )
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    wrong = [(want, said) for (_, want), said in zip(CASES, got, strict=True) if said != want]
    assert not wrong, wrong
    for said in got:  # no engine key left: no dotted id (tracks.t1), no snake_case
        assert not re.search(r"[a-z]\.[a-z0-9]|\w_\w|[a-z]:[a-z]", said), said
