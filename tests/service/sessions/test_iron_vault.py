"""The Iron Vault export: every `iron-vault-mechanics` block parses as KDL and uses only the
nodes and properties Iron Vault documents (docs/Blocks/Mechanics Blocks.md of
iron-vault-plugin/iron-vault), with the values its renderer needs."""

from __future__ import annotations

import re
from typing import Any

import kdl
from fastapi.testclient import TestClient

from tests.service.sessions.conftest import create

# Iron Vault's documented mechanics nodes: positional arguments allowed, properties allowed,
# properties required (a node takes its arguments "by order of arguments" or as properties).
NODES: dict[str, tuple[int, set[str], set[str]]] = {
    "move": (1, {"id", "name"}, set()),
    "-": (1, set(), set()),
    "add": (2, {"amount", "from"}, set()),
    "roll": (6, {"stat-name", "action", "stat", "adds", "score", "vs1", "vs2"},
             {"action", "stat", "vs1", "vs2"}),
    # Iron Vault writes progress-roll with the track's name (without it, it renders "undefined")
    "progress-roll": (4, {"name", "score", "vs1", "vs2"}, {"name", "score", "vs1", "vs2"}),
    "reroll": (0, {"action", "vs1", "vs2"}, set()),
    "meter": (3, {"name", "from", "to"}, {"from", "to"}),
    "burn": (2, {"from", "to"}, {"from", "to"}),
    # "(not BOA)": a track's name is a property, never an argument
    "progress": (0, {"name", "from", "from-boxes", "from-ticks", "rank", "steps"}, {"name"}),
    "track": (0, {"name", "status", "from", "from-boxes", "from-ticks", "to", "to-boxes",
                  "to-ticks"}, {"name"}),
    "xp": (2, {"from", "to"}, {"from", "to"}),
    "clock": (1, {"name", "status", "from", "to", "out-of"}, set()),
    "oracle": (3, {"name", "roll", "result"}, {"roll", "result"}),
    "impact": (2, {"name", "marked"}, set()),
    "position": (2, {"from", "to"}, set()),
    "initiative": (2, {"from", "to"}, set()),
    # Iron Vault's Roll dice command: dice-expr expr="3d6 - 1d4" result=2 { rolls 1 2 3 dice="3d6" }
    "dice-expr": (0, {"expr", "result"}, {"expr", "result"}),
    "rolls": (100, {"dice"}, {"dice"}),
}  # fmt: skip
STATUSES = {"track": {"added", "completed", "removed", "reopened"}, "clock": {"added", "removed"}}
BLOCK = re.compile(r"```iron-vault-mechanics\n(.*?)```", re.DOTALL)


def check_node(node: Any, inside_move: bool = False) -> None:
    assert node.name in NODES, f"{node.name!r} is not an Iron Vault mechanics node"
    most_args, props, required = NODES[node.name]
    assert len(node.args) <= most_args, (node.name, node.args)
    assert set(node.props) <= props, (node.name, set(node.props) - props)
    assert required <= set(node.props), (node.name, required - set(node.props))
    if node.name in STATUSES and "status" in node.props:
        assert node.props["status"] in STATUSES[node.name]
    if node.name == "roll":
        # "roll ... <action-die> <stat> <adds> <vs1> <vs2>": dice within their sides
        assert 0 <= node.props["action"] <= 6
        assert all(1 <= node.props[v] <= 10 for v in ("vs1", "vs2"))
    if node.name == "move":
        assert not inside_move, "a move cannot contain a move"
        assert node.args and isinstance(node.args[0], str)
    for child in node.nodes:
        check_node(child, inside_move=node.name == "move")


def export_blocks(text: str) -> list[Any]:
    blocks = BLOCK.findall(text)
    assert blocks, "no iron-vault-mechanics block"
    return [kdl.parse(block) for block in blocks]


def test_a_sundered_isles_journal_exports_valid_blocks(client: TestClient) -> None:
    sheet = {"name": "Kell", "stats": {"edge": 2, "heart": 2, "iron": 3, "shadow": 1, "wits": 1}}
    sid = create(client, "sundered_isles", sheet)["id"]
    post = lambda path, body: client.post(f"/v1/sessions/{sid}{path}", json=body)  # noqa: E731
    post("/tracks", {"type": "vow", "name": 'Find "Marrow" Reef', "rank": "dangerous"})
    post("/tracks", {"type": "combat", "name": "The bosun", "rank": "dangerous"})
    post("/turns", {"words": "I strike", "move": "strike", "params": {"stat": "iron"},
                    "dice": [5, 3, 8]})  # fmt: skip
    post("/tracks/t1/progress", {"times": 3})
    post("/turns", {"words": "I fulfil it", "track": "t1", "move": "fulfill_your_vow",
                    "dice": [2, 3]})  # fmt: skip
    post("/turns", {"words": "Guarded?", "kind": "oracle", "params": {"odds": "likely"},
                    "dice": [24]})  # fmt: skip
    post("/clocks", {"name": "The tide turns", "segments": 6})
    post("/clocks/c1/advance", {"by": 2})
    text = client.get(f"/v1/sessions/{sid}/export", params={"format": "iron_vault"}).text
    docs = export_blocks(text)
    names = [n.name for doc in docs for n in doc.nodes]
    assert {"move", "track", "oracle", "clock"} <= set(names)
    for doc in docs:
        for node in doc.nodes:
            check_node(node)
    # The action roll as Iron Vault reads it: action 5 + iron 3 = 8 beats 3, not 8: weak hit.
    strike = next(n for doc in docs for n in doc.nodes if n.name == "move")
    roll = next(c for c in strike.nodes if c.name == "roll")
    assert (roll.props["action"], roll.props["stat"], roll.props["vs1"], roll.props["vs2"]) == (
        5, 3, 3, 8,
    )  # fmt: skip


def test_an_elegy_journal_exports_valid_blocks(client: TestClient) -> None:
    sheet = {"name": "Vesna", "stats": {"dexterity": 2, "heart": 2, "force": 1, "glamour": 3,
                                        "intellect": 1}}  # fmt: skip
    sid = create(client, "elegy", sheet)["id"]
    client.post(f"/v1/sessions/{sid}/turns", json={"words": "I slip past", "move": "face_danger",
                "params": {"stat": "dexterity"}, "dice": [1, 1]})  # fmt: skip
    text = client.get(f"/v1/sessions/{sid}/export", params={"format": "iron_vault"}).text
    for doc in export_blocks(text):
        for node in doc.nodes:
            check_node(node)


OTHER_GAMES: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {
    "go_forth": ({"name": "Ash", "attributes": {"might": 3}}, [
        {"kind": "effort", "track": "t1", "params": {"attribute": "might", "tn": 12},
         "dice": [15, 6]},
        {"kind": "oracle", "params": {"odds": "likely"}, "dice": [33]},
    ]),
    "storyteller": ({"name": "Mara", "traits": {"dexterity": 3, "athletics": 2}}, [
        {"kind": "simple", "params": {"traits": ["dexterity", "athletics"], "difficulty": 6},
         "dice": [8, 7, 1, 3, 9]},
    ]),
    "roll_under": ({"name": "Ash", "abilities": {"brawn": 12, "finesse": 14, "intellect": 9},
                    "hp": 6}, [{"kind": "harm", "params": {"damage": 8}, "dice": [15]}]),
}  # fmt: skip


def test_the_other_games_export_iron_vaults_dice_expr(client: TestClient) -> None:
    # Iron Vault has no moves for Go Forth, Storyteller or Roll Under: their dice are its Roll
    # dice command's dice-expr node, the outcome a comment, the sheet's numbers meters.
    for system, (sheet, turns) in OTHER_GAMES.items():
        sid = create(client, system, sheet)["id"]
        if system == "go_forth":
            client.post(f"/v1/sessions/{sid}/tracks", json={"type": "heart", "name": "Ogre"})
        for body in turns:
            r = client.post(f"/v1/sessions/{sid}/turns", json={"words": "I act", **body})
            assert r.status_code == 201, r.text
        text = client.get(f"/v1/sessions/{sid}/export", params={"format": "iron_vault"}).text
        nodes = [node for doc in export_blocks(text) for node in doc.nodes]
        for node in nodes:
            check_node(node)
        expr = next(n for n in nodes if n.name == "dice-expr")
        rolled = [v for child in expr.nodes for v in child.args]
        assert expr.props["result"] == sum(rolled), system
    assert 'meter "brawn" from=12 to=10' in text and 'meter "hp" from=6 to=0' in text


def test_a_sundered_isles_session_as_an_obsidian_vault(client: TestClient) -> None:
    # Issue 14: an Iron Vault user continues the campaign in Obsidian: the journal, a character
    # note and a note per track and clock, with Iron Vault's `iron-vault-kind` frontmatter.
    import io
    import zipfile

    import yaml

    sheet = {"name": "Kell", "stats": {"edge": 2, "heart": 2, "iron": 3, "shadow": 1, "wits": 1}}
    sid = create(client, "sundered_isles", sheet, name="The Drowned: Lighthouse")["id"]
    post = lambda path, body: client.post(f"/v1/sessions/{sid}{path}", json=body)  # noqa: E731
    post("/tracks", {"type": "vow", "name": "Find my sister", "rank": "dangerous"})
    post("/tracks/t1/progress", {"times": 2})
    post("/clocks", {"name": "The tide turns", "segments": 6})
    post("/sheet", {"edits": [{"field": "impacts", "add": "wounded"}]})
    answer = client.get(f"/v1/sessions/{sid}/export", params={"format": "iron_vault_zip"})
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/zip"
    files = zipfile.ZipFile(io.BytesIO(answer.content))
    texts = {name: files.read(name).decode() for name in files.namelist()}
    root = "The Drowned Lighthouse"  # ":" is no file name character
    assert set(texts) == {f"{root}/Journal.md", f"{root}/Characters/Kell.md",
                          f"{root}/Progress/Find my sister.md",
                          f"{root}/Clocks/The tide turns.md"}  # fmt: skip

    def front(path: str) -> Any:
        return yaml.safe_load(texts[f"{root}/{path}"].split("---\n")[1])

    kell = front("Characters/Kell.md")
    assert kell["iron-vault-kind"] == "character" and kell["iron"] == 3 and kell["wounded"] is True
    vow = front("Progress/Find my sister.md")
    assert (vow["iron-vault-kind"], vow["progress"], vow["rank"], vow["track-type"]) == (
        "progress", 16, "dangerous", "Vow",
    )  # fmt: skip
    clock = front("Clocks/The tide turns.md")
    assert (clock["iron-vault-kind"], clock["segments"], clock["progress"]) == ("clock", 6, 0)
    journal = texts[f"{root}/Journal.md"]
    assert "[[Progress/Find my sister|Find my sister]]" in journal
    assert "[[Characters/Kell|Kell]]" in journal and "```iron-vault-mechanics" in journal


def test_a_recover_move_is_a_move_block(client: TestClient) -> None:
    # Heal resolved by its own kind is still Iron Vault's move, linked to Datasworn.
    from tests.service.sessions.test_play_ironsworn import KELL

    sid = create(client, "sundered_isles", {**KELL, "health": 3})["id"]
    body = {"words": "I bind it", "move": "heal", "params": {"stat": "iron"}, "dice": [6, 1, 2]}
    assert client.post(f"/v1/sessions/{sid}/turns", json=body).status_code == 201
    text = client.get(f"/v1/sessions/{sid}/export?format=iron_vault").text
    assert 'move "[Heal](datasworn:move:starforged/recover/heal)" {' in text
    assert 'meter "health" from=3 to=5' in text
