"""Iron Vault round trip (issue 14): what Iron Vault's own parser and renderer found wrong in
our blocks, each checked against its documented format (docs/Blocks/Mechanics Blocks.md)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import kdl
import pytest

from rules.registry import get_system, resolve_roll
from service.sessions.iron_vault import datasworn_id, iron_vault_nodes, kdl_string
from service.sessions.play import initial_state

KELL = {"name": "Kell", "stats": {"edge": 2, "heart": 2, "iron": 3, "shadow": 1, "wits": 1}}


def _turn(system: str, kind: str, params: dict[str, Any], dice: list[int], **more: Any) -> Any:
    resolution = resolve_roll(system, kind, params, dice=dice)
    return SimpleNamespace(
        status=more.get("status", "resolved"), words="x", request=more.get("request", {}),
        resolution=resolution.model_dump(mode="json"),
        state_before=more.get("before", {}), state_after=more.get("after", {}),
    )  # fmt: skip


def _nodes(system: str, turn: Any) -> Any:
    return kdl.parse("\n".join(iron_vault_nodes(system, turn))).nodes


def _children(system: str, turn: Any) -> list[Any]:
    [move] = _nodes(system, turn)
    return list(move.nodes)


def test_a_control_character_in_a_name_is_kdl_v1() -> None:
    # json.dumps wrote \u0007, which is not a KDL v1 escape: the whole block failed to parse.
    name = 'Bell\u0007 "tower"\n\\end'
    parsed = kdl.parse(f'track name={kdl_string(name)} status="added"')
    assert parsed.nodes[0].props["name"] == name


def test_a_cancelled_action_die_is_action_0() -> None:
    # Starforged: negative momentum cancels an action die of its value; Iron Vault writes 0.
    turn = _turn("sundered_isles", "move", {"move": "face_danger", "stat": "edge",
                                            "stat_value": 2, "momentum": -3}, [3, 5, 9])  # fmt: skip
    [roll] = [n for n in _children("sundered_isles", turn) if n.name == "roll"]
    assert roll.props["action"] == 0 and roll.props["stat"] == 2 and roll.props["adds"] == 0


def test_an_elegy_reroll_is_the_roll_then_reroll() -> None:
    # elegy.md: at -3 focus a challenge die of 1 is rerolled once; Iron Vault: `reroll vs2=`.
    turn = _turn("elegy", "action", {"stat": "heart", "stat_value": 2, "focus": -3}, [8, 1, 1])
    children = _children("elegy", turn)
    roll = next(n for n in children if n.name == "roll")
    assert (roll.props["vs1"], roll.props["vs2"]) == (8, 1)
    assert [(n.name, dict(n.props)) for n in children if n.name == "reroll"] == [
        ("reroll", {"vs2": 1})
    ]


def test_an_elegy_conclusion_is_a_named_progress_roll() -> None:
    before = {"tracks": {"t1": {"id": "t1", "name": "The Tsar's Elegy", "ticks": 20}}}
    turn = _turn("elegy", "conclusion", {"track": "elegy", "ticks": 20, "rank": "dangerous"},
                 [3, 7], request={"track": "t1"}, before=before, after=before)  # fmt: skip
    [roll] = [n for n in _children("elegy", turn) if n.name == "progress-roll"]
    assert dict(roll.props) == {"name": "The Tsar's Elegy", "score": 5, "vs1": 3, "vs2": 7}


@pytest.mark.parametrize(
    ("move", "expected"),
    [
        ("face_danger", "move:starforged/adventure/face_danger"),
        ("set_a_course", "move:sundered_isles/exploration/set_a_course"),
        ("begin_a_scene", "move:starforged/scene_challenge/begin_the_scene"),
        ("face_danger_scene_challenge", "move:starforged/scene_challenge/face_danger"),
    ],
)
def test_moves_carry_their_datasworn_id(move: str, expected: str) -> None:
    assert datasworn_id(get_system("sundered_isles"), move) == expected


def test_the_sheet_as_iron_vault_writes_it() -> None:
    # A burn is its `burn` node alone; impacts are `impact` nodes; the held +1 and legacy
    # ticks are no meters; the position is a `position` node.
    state = initial_state(get_system("sundered_isles"), {**KELL, "momentum": 6})
    after = {**state, "sheet": {**state["sheet"], "momentum": 3, "impacts": ["wounded"],
                                "next_roll_adds": 1, "position": "bad_spot",
                                "legacy": {**state["sheet"]["legacy"],
                                           "quests": {"ticks": 2, "cleared": 0}}}}  # fmt: skip
    turn = _turn("sundered_isles", "move", {"move": "face_danger", "stat": "edge",
                                            "stat_value": 2, "momentum": 6,
                                            "burn_momentum": True}, [1, 3, 9],
                 before=state, after=after)  # fmt: skip
    children = _children("sundered_isles", turn)
    names = [n.name for n in children]
    assert names.count("burn") == 1 and "meter" not in names
    assert any(n.name == "impact" and n.args == ["wounded", True] for n in children)
    assert any(n.name == "position" and n.props["to"] == "in a bad spot" for n in children)
    legacy = next(n for n in children if n.name == "track")
    assert legacy.props["name"] == "Quests legacy" and legacy.props["to"] == 2


def test_the_bad_spot_downgrade_is_recorded() -> None:
    # "If you are in a bad spot, count a strong hit without a match as a weak hit"
    turn = _turn("sundered_isles", "move", {"move": "take_decisive_action", "progress_ticks": 30,
                                            "position": "bad_spot"}, [3, 5])  # fmt: skip
    dashes = [n.args[0] for n in _children("sundered_isles", turn) if n.name == "-"]
    assert dashes == ["in a bad spot: the strong hit counts as a weak hit"]


def test_an_undone_turn_is_no_roll() -> None:
    turn = _turn("sundered_isles", "move", {"move": "face_danger", "stat": "edge",
                                            "stat_value": 2}, [6, 1, 1], status="undone")  # fmt: skip
    nodes = _nodes("sundered_isles", turn)
    assert [(n.name, n.args) for n in nodes] == [("-", ["undone: Face Danger"])]


def test_track_status_and_progress_name_their_track_as_a_property() -> None:
    # `track` is "not BOA": `track "name" status=..` left Iron Vault without the name.
    before = {"tracks": {"t1": {"id": "t1", "name": "Find her", "ticks": 24, "status": "open"}}}
    after = {"tracks": {"t1": {"id": "t1", "name": "Find her", "ticks": 24,
                               "status": "completed"}}}  # fmt: skip
    turn = _turn("sundered_isles", "move", {"move": "fulfill_your_vow", "progress_ticks": 24},
                 [2, 3], request={"track": "t1"}, before=before, after=after)  # fmt: skip
    children = _children("sundered_isles", turn)
    assert next(n for n in children if n.name == "progress-roll").props["name"] == "Find her"
    track = next(n for n in children if n.name == "track")
    assert track.args == [] and dict(track.props) == {"name": "Find her", "status": "completed"}


def test_the_price_an_elegy_move_rolled_is_an_oracle_node() -> None:
    # Elegy: "On a weak hit, you succeed, but not without a cost. Pay the Price." Rolled on the
    # list, the price was kept only under details["pay_the_price"] and the export, reading
    # details["tables_rolled"] as Sundered Isles records it, dropped it.
    params = {"move": "face_danger", "stat": "dexterity", "stat_value": 3, "pay_the_price": True}
    turn = _turn("elegy", "move", params, [7, 2, 84])
    oracles = [n for n in _children("elegy", turn) if n.name == "oracle"]
    assert [(o.props["name"], o.props["roll"], o.props["result"]) for o in oracles] == [
        ("Pay the Price", 84, "You are stressed")
    ]


@pytest.mark.parametrize(
    ("kind", "params", "dice"),
    [
        # a move's table: exported with the 98 that sent you to them, Iron Vault showed a roll
        # of 98 for "You waste blood", a row that is 69–74
        (
            "move",
            {"move": "face_danger", "stat": "dexterity", "stat_value": 3, "pay_the_price": True},
            [9, 8, 98, 34, 71],
        ),
        # a table rolled on its own: both results were exported with its first die, 98
        ("table", {"table": "pay_the_price"}, [98, 34, 71]),
    ],
)
def test_a_roll_twice_row_exports_each_result_with_its_own_roll(
    kind: str, params: dict[str, Any], dice: list[int]
) -> None:
    # Elegy's Pay the Price: "96–100 Roll twice". The two results came from their own rolls (34
    # and 71).
    turn = _turn("elegy", kind, params, dice)
    nodes = _children("elegy", turn) if kind == "move" else list(_nodes("elegy", turn))
    oracles = [n for n in nodes if n.name == "oracle"]
    assert [(o.props["roll"], o.props["result"]) for o in oracles] == [
        (34, "Something of value is lost or destroyed"),
        (71, "You waste blood"),
    ]


def test_a_table_turn_stored_before_rolls_were_kept_still_exports() -> None:
    # an older turn's record has no "rolls": each result gets the table's roll, as before
    turn = _turn("elegy", "table", {"table": "pay_the_price"}, [98, 34, 71])
    del turn.resolution["details"]["rolls"]
    oracles = [n for n in _nodes("elegy", turn) if n.name == "oracle"]
    assert [o.props["roll"] for o in oracles] == [98, 98]
