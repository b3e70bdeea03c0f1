"""`fateweaver play`: its parsing and rendering as pure functions, the loop driven in-process
with scripted lines, and the real command driven in a pseudo-terminal (pexpect) for a few turns."""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from rich.console import Console, RenderableType

from rules.errors import UnknownError
from rules.registry import get_system
from service.narrator.model import ModelError
from service.sessions.db import Database
from service.sessions.errors import SessionError
from service.sessions.owners import owner_id
from service.sessions.schemas import SessionCreate
from service.sessions.turn_models import TurnOut
from service.settings import Settings
from service.terminal import (
    Cancelled,
    ParseError,
    Play,
    ask_sheet,
    clock_text,
    create_session,
    error_text,
    owner_for,
    parse_count,
    parse_dice,
    parse_line,
    parse_override,
    parse_sheet,
    parse_track,
    render_choices,
    render_dice,
    render_journal,
    render_outcome,
    render_proposal,
    render_resolution,
    render_status,
    split_params,
    tokens,
    track_boxes,
)

ROOT = Path(__file__).resolve().parents[2]
SUNDERED = {"name": "Kay", "stats": {"edge": 1, "heart": 2, "iron": 3, "shadow": 1, "wits": 2}}


def text_of(renderable: RenderableType) -> str:
    console = Console(record=True, width=100, color_system=None)
    console.print(renderable)
    return console.export_text()


# --- parsing ------------------------------------------------------------------------------------


def test_plain_words_are_a_turn_and_a_slash_a_command() -> None:
    assert parse_line("  I leap the gap ") == parse_line("I leap the gap")
    said = parse_line("I leap the gap")
    assert said is not None and (said.name, said.text) == ("say", "I leap the gap")
    command = parse_line('/Roll table table=pay_the_price name="Old Tom"')
    assert command is not None and command.name == "roll"
    assert command.args == ["table", "table=pay_the_price", "name=Old Tom"]
    assert parse_line("   ") is None
    unclosed = parse_line("/move strike I don't stop")
    assert unclosed is not None and unclosed.args == ["strike", "I", "don't", "stop"]


def test_key_values_are_json_and_the_rest_are_words() -> None:
    params, request, words = split_params(
        ["odds=likely", "adds=2", "burn=true", 'traits=["wits","guile"]', "Is", "it", "there?"]
    )
    assert params == {"odds": "likely", "adds": 2, "burn": True, "traits": ["wits", "guile"]}
    assert request == {} and words == "Is it there?"


def test_request_keys_leave_the_params() -> None:
    params, request, words = split_params(
        ["track=t1", "dice=4,2,9", "seed=7", "stat=iron", "go"], ("track", "dice", "seed")
    )
    assert params == {"stat": "iron"}
    assert request == {"track": "t1", "dice": [4, 2, 9], "seed": 7}
    assert words == "go"


@pytest.mark.parametrize(
    ("text", "dice"), [("4,2,9", [4, 2, 9]), ("4 2  9", [4, 2, 9]), ("[6, 1]", [6, 1]), ("5", [5])]
)
def test_dice_lists(text: str, dice: list[int]) -> None:
    assert parse_dice(text) == dice


@pytest.mark.parametrize("text", ["", "4,x", "1.5"])
def test_dice_that_are_not_numbers_name_the_field(text: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_dice(text)
    assert caught.value.field == "dice"


def test_overrides_are_accept_fields() -> None:
    assert parse_override("move=strike stat=iron dice=3,4,5") == {
        "move": "strike",
        "dice": [3, 4, 5],
        "params": {"stat": "iron"},
    }
    with pytest.raises(ParseError, match="key=value"):
        parse_override("strike with iron")


def test_a_json_list_or_object_is_one_value_quotes_and_all() -> None:
    # played at stop 37: 'weapons=[{"die":6}]' reached the engine as the text "[{die:6}]"
    said = 'kind=attack weapons=[{"die": 6}] targets=[{"name": "first mate", "armor": 1}]'
    assert parse_override(said) == {
        "kind": "attack",
        "params": {"weapons": [{"die": 6}], "targets": [{"name": "first mate", "armor": 1}]},
    }
    assert tokens('x=["a","b"] name="Old Tom" y=[broken') == [
        'x=["a","b"]',
        "name=Old Tom",
        "y=[broken",
    ]


def test_a_track_rank_is_read_when_the_type_has_ranks() -> None:
    ranks = {"vow": ["dangerous", "epic"], "heart": []}
    assert parse_track(["vow", "dangerous", "Find", "her"], ranks) == {
        "type": "vow",
        "rank": "dangerous",
        "name": "Find her",
    }
    assert parse_track(["heart", "Ogre"], ranks) == {"type": "heart", "rank": None, "name": "Ogre"}
    with pytest.raises(ParseError, match="dangerous, epic"):
        parse_track(["vow", "Find", "her"], ranks)
    with pytest.raises(ParseError):
        parse_track(["vow"], ranks)


def test_counts_and_sheets(tmp_path: Path) -> None:
    assert parse_count(["t1"], 1, 1, "times") == 1
    assert parse_count(["t1", "3"], 1, 1, "times") == 3
    with pytest.raises(ParseError):
        parse_count(["t1", "x"], 1, 1, "times")
    assert parse_sheet('{"name": "Ash"}') == {"name": "Ash"}
    (tmp_path / "sheet.json").write_text(json.dumps(SUNDERED))
    assert parse_sheet(str(tmp_path / "sheet.json")) == SUNDERED
    for bad in ("[1]", "{nope", str(tmp_path / "missing.json")):
        with pytest.raises(ParseError):
            parse_sheet(bad)


# --- rendering ----------------------------------------------------------------------------------


def die(value: int, sides: int = 10, role: str = "challenge", **marks: bool) -> dict[str, Any]:
    return {"sides": sides, "value": value, "role": role, **marks}


def test_dice_are_shown_as_dice_with_their_marks() -> None:
    dice = [
        die(4, 6, "action"),
        die(2),
        die(9),
        die(7, rerolled=True),
        die(1, cancelled=True),
        die(3, kept=False),
    ]
    shown = text_of(render_dice(dice))
    assert shown.startswith("action [d6 4]  challenge [d10 2] [d10 9]")
    assert "[d10 7 rerolled]" in shown and "[d10 1 cancelled]" in shown
    assert "[d10 3 not kept]" in shown
    assert text_of(render_dice([die(15, 20, "d20")])).strip() == "[d20 15]"


def test_the_row_a_move_rolled_on_its_price_table_is_shown() -> None:
    # Elegy: "On a weak hit, you succeed, but not without a cost. Pay the Price." Chosen as
    # "Roll on the list below", the d100's row is the price; played at stop 28, the terminal
    # showed the d100 and not the row
    from rules.registry import resolve_roll

    params = {"move": "face_danger", "stat": "dexterity", "stat_value": 3, "pay_the_price": True}
    roll = resolve_roll("elegy", "move", params, dice=[7, 2, 84]).model_dump(mode="json")
    shown = text_of(render_resolution(roll))
    assert "table:pay_the_price [d100 84]" in shown
    assert "Pay the Price: You are stressed" in shown
    table = resolve_roll("elegy", "table", {"table": "pay_the_price"}, dice=[84])
    assert text_of(render_resolution(table.model_dump(mode="json"))).count("You are stressed") == 1


def test_the_outcome_band_and_the_match() -> None:
    strong = {
        "system": "sundered_isles",
        "kind": "move",
        "outcome": "strong_hit",
        "match": True,
        "details": {"name": "Face Danger"},
    }
    assert text_of(render_outcome(strong)).strip() == "Face Danger: STRONG HIT   MATCH"
    miss = {"system": "sundered_isles", "kind": "action", "outcome": "miss", "match": False}
    assert text_of(render_outcome(miss)).strip() == "action roll: MISS  no match"


def test_track_boxes_and_clocks() -> None:
    assert track_boxes(0) == "[    ]" * 10
    assert track_boxes(6) == "[####][##  ]" + "[    ]" * 8
    assert track_boxes(40) == "[####]" * 10
    assert clock_text(2, 6) == "■■□□□□ 2/6"


def test_the_status_shows_the_sheets_numbers_tracks_and_clocks() -> None:
    state = {
        "sheet": {**SUNDERED, "health": 4, "momentum": -1, "impacts": ["wounded"], "assets": []},
        "tracks": {
            "t1": {
                "id": "t1",
                "type": "vow",
                "name": "Find my sister",
                "rank": "dangerous",
                "ticks": 9,
                "units": 0,
                "target": None,
                "status": "open",
            },
            "t2": {
                "id": "t2",
                "type": "heart",
                "name": "Ogre",
                "rank": None,
                "ticks": 0,
                "units": 3,
                "target": 10,
                "status": "open",
            },
            "t3": {
                "id": "t3",
                "type": "vow",
                "name": "Done",
                "rank": "epic",
                "ticks": 40,
                "units": 0,
                "target": None,
                "status": "completed",
            },
        },
        "clocks": {"c1": {"id": "c1", "name": "The storm", "segments": 4, "filled": 3}},
    }
    shown = text_of(render_status(state))
    assert "health 4 · momentum -1" in shown
    assert "edge 1 · heart 2 · iron 3" in shown and "wounded" in shown
    assert "t1 Find my sister · vow (dangerous)" in shown
    assert "[####][####][#   ]" + "[    ]" * 7 + " 2/10 boxes" in shown
    assert "t2 Ogre · heart" in shown and "3/10" in shown
    assert "Done" not in shown  # closed tracks are not shown
    assert "c1 The storm ■■■□ 3/4" in shown


def test_choices_are_a_numbered_menu() -> None:
    choice = {
        "param": "roll_tables",
        "prompt": "Pay the Price: choose one.",
        "options": [
            {"value": True, "label": "Roll on the table"},
            {"value": False, "label": "The obvious outcome"},
        ],
    }
    assert text_of(render_choices(choice)).splitlines() == [
        "Pay the Price: choose one.",
        "  1. Roll on the table",
        "  2. The obvious outcome",
    ]


def test_a_proposal_marks_the_game_masters_parameters() -> None:
    proposal = {
        "move": None,
        "kind": "check",
        "params": {"attribute": "might", "tn": 12},
        "why": "the basic roll",
        "source": "offline",
    }
    shown = text_of(render_proposal(proposal, {"tn"}))
    assert "roll check" in shown and 'attribute = "might"' in shown
    assert "tn = 12  (GM)" in shown and "why: the basic roll" in shown


def test_the_journal_lists_every_turn() -> None:
    turns = [
        TurnOut(
            number=1,
            kind="move",
            status="resolved",
            words="I leap",
            resolution={"outcome": "strong_hit", "match": True},
            narration_status="done",
        ),
        TurnOut(number=2, kind="track", status="undone", words="open vow: X"),
    ]
    shown = text_of(render_journal(turns))
    assert re.search(r"1\s+resolved\s+move\s+I leap\s+strong_hit MATCH\s+done", shown)
    assert re.search(r"2\s+undone\s+track\s+open vow: X", shown)


def test_errors_show_their_message_and_field() -> None:
    assert error_text(UnknownError("move", "x", ["strike"], "move")).plain == (
        "error (move): unknown move 'x'; known: strike"
    )
    waiting = SessionError(409, "turn 3 awaits your choice: POST ...", "path.session_id")
    assert error_text(waiting).plain.endswith("(type /choose)")
    with pytest.raises(ValidationError) as caught:
        SessionCreate.model_validate({"system": "go_forth", "name": 3, "sheet": {}})
    assert error_text(caught.value).plain.startswith("error: name: ")
    assert error_text(KeyError("boom")).plain == "error (KeyError): 'boom'"


def test_the_owner_is_local_or_the_keys() -> None:
    assert owner_for(Settings(api_keys=[]), None) == "local"
    keyed = Settings(api_keys="k1,k2")
    assert owner_for(keyed, "k2") == owner_id("k2")
    for key in (None, "k3"):
        with pytest.raises(ParseError) as caught:
            owner_for(keyed, key)
        assert caught.value.field == "key"


# --- a sheet asked field by field ---------------------------------------------------------------


def scripted(lines: list[str]) -> Any:
    """A ``read`` that answers with these lines, then EOF (as Ctrl-D does)."""
    answers = iter(lines)
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    read.asked = asked  # type: ignore[attr-defined]
    return read


def test_a_sheet_asked_stat_by_stat() -> None:
    read = scripted(["1", "2", "3", "1", "x", "2", "", "4", "", "", ""])
    sheet = ask_sheet(get_system("sundered_isles"), "Kay", read)
    assert sheet["stats"] == SUNDERED["stats"] and sheet["spirit"] == 4
    assert "health [5]: " in read.asked and "stats edge: " in read.asked
    assert SessionCreate(system="sundered_isles", name="Kay", sheet=sheet).initial_state()


def test_a_required_mapping_and_its_maximum() -> None:
    read = scripted(["10", "9", "8", "", "", "", "6", "", "", ""])
    sheet = ask_sheet(get_system("roll_under"), "Bo", read)
    assert (
        sheet["abilities"] == sheet["max_abilities"] == {"brawn": 10, "finesse": 9, "intellect": 8}
    )
    assert sheet["hp"] == sheet["max_hp"] == 6
    assert "max_abilities brawn [10]: " in read.asked
    assert SessionCreate(system="roll_under", name="Bo", sheet=sheet).initial_state()


def test_free_traits_as_pairs() -> None:
    sheet = ask_sheet(
        get_system("storyteller"), "Mara", scripted(["wits=3 athletics=2", "3", "", ""])
    )
    assert sheet["traits"] == {"wits": 3, "athletics": 2} and sheet["willpower"] == 3


# --- the loop, in-process -----------------------------------------------------------------------


@pytest.fixture
def database(tmp_path: Path) -> Iterator[Database]:
    db = Database(Settings(data_dir=tmp_path, narrator="offline", retrieval_warm_start=False))
    yield db
    db.close()


def play(database: Database, session_id: str, lines: list[str], seed: int = 7) -> str:
    console = Console(record=True, width=100, color_system=None, markup=False)
    game = Play(console, scripted(lines), database, "local", session_id, None, seed)
    assert game.run() == 0
    return console.export_text()


def new_session(database: Database, system: str, sheet: dict[str, Any]) -> str:
    console = Console(record=True, width=100, color_system=None, markup=False)
    return create_session(console, scripted([]), database, "local", system, None, json.dumps(sheet))


def test_a_session_played_in_process(database: Database) -> None:
    sid = new_session(database, "sundered_isles", SUNDERED)
    shown = play(
        database,
        sid,
        [
            "I leap across the gap",
            "o",
            "move=face_danger stat=iron dice=4,3,3",
            "/roll oracle odds=likely dice=30 Is the ship there?",
            "/track vow dangerous Find my sister",
            "/progress t1 2",
            "/clock 6 The storm",
            "/advance c1 2",
            "/dice 2,9,9",
            "/move face_danger stat=iron I slip past",
            "1",
            "50",
            "/undo",
            "/renarrate 2",
            "/journal",
            "/export",
            "/sheet",
            "/help",
            "/close t1",
            "/clock 5 Bad",
            "/bogus",
            "/roll nope",
            "/progress t9",
        ],
    )
    assert "move face_danger" in shown and "why: your words fit its trigger" in shown
    assert "action [d6 4]  challenge [d10 3] [d10 3]" in shown
    assert "Face Danger: STRONG HIT   MATCH" in shown and "momentum +1" in shown
    assert "[d100 30]" in shown and "YES" in shown
    assert "[####][####][####][####]" in shown and "■■□□□□ 2/6" in shown
    assert "Pay the Price" in shown and "  1. " in shown  # the miss waits for a choice
    assert "table:pay_the_price [d100 50]" in shown  # rolled on the table with the dice given
    assert "undone" in shown and "told again" in shown and "narration · offline" in shown
    assert "# Kay" in shown and '"iron": 3' in shown and "/renarrate [n]" in shown
    assert "completed: t1" in shown and "error: segments: Input should be 4, 6, 8 or 10" in shown
    assert "error (command): unknown command /bogus" in shown
    assert "error (kind): unknown roll kind 'nope'" in shown
    assert "error (path.track_id): unknown track 't9'" in shown
    assert shown.rstrip().endswith(f"Bye. Resume with: fateweaver play {sid}")


def test_a_choice_left_for_later_is_offered_again_on_resume(database: Database) -> None:
    sid = new_session(database, "sundered_isles", SUNDERED)
    first = play(database, sid, ["/move face_danger stat=iron dice=1,9,9 I slip", "q", "more"])
    assert "the turn waits for your choice" in first and "(type /choose)" in first
    resumed = play(database, sid, ["1", "50"])  # the table, with a die rolled by hand
    assert "this rolls more dice" in resumed and "table:pay_the_price [d100 50]" in resumed
    assert "narration · offline" in resumed


def test_a_command_typed_at_a_question_runs(database: Database) -> None:
    sid = new_session(database, "go_forth", {"name": "Ash", "attributes": {"might": 3}})
    shown = play(database, sid, ["I smash the door", "/roll check attribute=might tn=12 dice=15 x"])
    assert "not rolled" in shown and "[d20 15]" in shown and "SUCCESS" in shown


class StreamingModel:
    """A model that streams its narrations piece by piece, or fails (ModelError)."""

    name = "fake"

    def __init__(self, *replies: list[str] | Exception) -> None:
        self.replies = list(replies)

    async def complete(
        self,
        prompt: Any,
        calls: Any,
        *,
        json_reply: bool = False,
        schema: Any = None,
        grammar: str | None = None,
    ) -> str:
        raise ModelError("no completions here")

    async def stream(
        self, prompt: Any, calls: Any, *, grammar: str | None = None
    ) -> AsyncIterator[str]:
        calls.add("stream")
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        for piece in reply:
            yield piece


def test_a_models_narration_is_streamed_and_a_failed_one_is_pending(database: Database) -> None:
    sid = new_session(database, "sundered_isles", SUNDERED)
    model = StreamingModel(
        ["Yes. Two lanterns ", "burn on the harbour wall."], ModelError("the model timed out")
    )
    console = Console(record=True, width=100, color_system=None, markup=False)
    lines = ["/roll oracle odds=likely dice=24 Is the ship in port?", "/renarrate"]
    assert Play(console, scripted(lines), database, "local", sid, model).run() == 0  # type: ignore[arg-type]
    shown = console.export_text()
    assert "narrator fake" in shown and "[d100 24]" in shown
    assert "Yes. Two lanterns burn on the harbour wall." in shown
    assert "narration · offline · pending: the model failed; /renarrate to try again" in shown


def test_a_narration_the_guard_refused_says_so(database: Database) -> None:
    # A "Yes" for the engine's no is refused by the guard and told offline; the title says the
    # guard refused it, not that the model failed (it answered).
    sid = new_session(database, "sundered_isles", SUNDERED)
    model = StreamingModel(["Yes. The ship ", "is in port."])
    console = Console(record=True, width=120, color_system=None, markup=False)
    lines = ["/roll oracle odds=likely dice=99 Is the ship in port?"]
    assert Play(console, scripted(lines), database, "local", sid, model).run() == 0  # type: ignore[arg-type]
    shown = console.export_text()
    assert "pending: the guard refused the model's words; /renarrate to try again" in shown
    assert "the model failed" not in shown


def test_a_cancelled_question_names_its_command() -> None:
    with pytest.raises(Cancelled) as caught:
        raise Cancelled("not rolled", "/undo")
    assert caught.value.line == "/undo"


# --- the real command, in a pseudo-terminal -----------------------------------------------------

pexpect = pytest.importorskip("pexpect")
WAIT = 30  # seconds, for every expectation: a stuck prompt fails the test, never hangs it
PROMPT = "\r\n> "


def spawn(tmp_path: Path, *args: str) -> Any:
    env = {
        **os.environ,
        "FATEWEAVER_DATA_DIR": str(tmp_path / "data"),
        "FATEWEAVER_NARRATOR": "offline",
        "FATEWEAVER_RETRIEVAL_WARM_START": "false",
        "FATEWEAVER_API_KEYS": "",
        "PYTHONPATH": str(ROOT),
        "TERM": "dumb",
        "NO_COLOR": "1",
    }
    return pexpect.spawn(
        sys.executable,
        ["-m", "service", "play", *args],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=WAIT,
        dimensions=(50, 110),
    )


def send(child: Any, line: str, *expect: str) -> str:
    """Type a line; wait for each expected text in turn; what the screen showed on the way."""
    child.sendline(line)
    shown = ""
    for text in expect:
        child.expect_exact(text)
        shown += child.before + text
    return shown


def finish(child: Any, line: str | None) -> str:
    if line is None:
        child.sendeof()
    else:
        child.sendline(line)
    child.expect_exact("Bye. Resume with: fateweaver play ")
    child.expect(r"([0-9a-f]{32})")
    session_id: str = child.match.group(1)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return session_id


def test_play_go_forth_in_a_terminal(tmp_path: Path) -> None:
    sheet = '{"name":"Ash","attributes":{"might":3}}'
    child = spawn(
        tmp_path, "--system", "go_forth", "--name", "Ash", "--sheet", sheet, "--seed", "7"
    )
    try:
        child.expect(r"session ([0-9a-f]{32}) created")
        created = child.match.group(1)
        child.expect_exact(PROMPT)
        shown = send(child, "I smash the door open", "Roll it? [y]es / [o]verride / [n]o: ")
        assert "roll check" in shown and "tn = 12  (GM)" in shown
        child.sendline("y")
        child.expect(r"check roll: (SUCCESS|FAILURE)")
        if child.expect_exact(["choose 1-", PROMPT]) == 0:  # a failure offers Momentum
            send(child, "1", "narration · offline", PROMPT)
        shown = send(
            child,
            "/roll check attribute=might tn=12 dice=15 I climb the wall",
            "check roll: SUCCESS",
            PROMPT,
        )
        assert "[d20 15]" in shown and "total 18" in shown
        shown = send(child, "/undo", PROMPT)
        assert "undone: I climb the wall" in shown
        shown = send(child, "/renarrate", "told again", "narration · offline", PROMPT)
        assert "I smash the door open" in shown
        assert finish(child, "/quit") == created
    finally:
        child.close(force=True)


def test_play_sundered_isles_in_a_terminal_then_resume(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--system", "sundered_isles", "--sheet", json.dumps(SUNDERED))
    try:
        child.expect_exact(PROMPT)
        shown = send(
            child,
            "/move face_danger stat=iron dice=4,3,3 I leap the gap",
            "Face Danger: STRONG HIT",
            "MATCH",
            PROMPT,
        )
        assert "action [d6 4]  challenge [d10 3] [d10 3]" in shown and "momentum +1" in shown
        shown = send(child, "/track vow dangerous Find my sister", PROMPT)
        assert "[    ]" * 10 in shown
        session_id = finish(child, None)  # Ctrl-D
    finally:
        child.close(force=True)
    child = spawn(tmp_path, session_id)
    try:
        child.expect_exact(PROMPT)
        shown = child.before
        assert "2 turns so far" in shown and "momentum 3" in shown and "Find my sister" in shown
        assert finish(child, "/quit") == session_id
    finally:
        child.close(force=True)


# --- issue 14: what a newcomer met in 40 turns ----------------------------------------------------


def test_dice_that_failed_a_roll_are_not_kept_for_the_next(database: Database) -> None:
    sid = new_session(database, "sundered_isles", SUNDERED)
    shown = play(database, sid, ["/dice 3", "/move face_danger stat=iron I leap",
                                 "/roll oracle odds=likely Is the ship there?"])  # fmt: skip
    assert "error (dice" in shown and "the dice you gave were not used" in shown
    assert "[d100 3]" not in shown and "oracle roll" in shown.lower()  # rolled by the seed


def test_export_to_a_file_and_a_path_that_cannot_be_written(
    database: Database, tmp_path: Path
) -> None:
    sid = new_session(database, "sundered_isles", SUNDERED)
    out = tmp_path / "journal.md"
    vault = tmp_path / "vault.md"
    shown = play(database, sid, ["/roll oracle odds=likely dice=30 Is the ship there?",
                                 f"/export {out}", f"/export iron_vault {vault}",
                                 f"/export {tmp_path}/no/such/folder/x.md"])  # fmt: skip
    assert out.read_text().startswith("# ") and "```iron-vault-mechanics" in vault.read_text()
    assert "wrote the journal (markdown) to" in shown
    assert "error (file): could not write" in shown and "Traceback" not in shown


def test_a_sheet_field_out_of_range_is_asked_again_saying_why() -> None:
    # Sundered Isles stats are 0..5 in the engine: a 9 is refused at once, not at the end.
    read = scripted(["9", "2", "2", "3", "1", "x", "1", "", "", "", "", ""])
    sheet = ask_sheet(get_system("sundered_isles"), "Kay", read)
    assert sheet["stats"]["edge"] == 2
    assert "9 is not within 0..5. stats edge: " in read.asked
    assert "'x' is not a whole number. stats wits: " in read.asked


def test_words_no_move_fits_say_so_and_a_question_asks_the_oracle(database: Database) -> None:
    from service.sessions.propose import offline_proposal

    system = get_system("sundered_isles")
    nothing = offline_proposal(system, "I hum a little tune")
    assert nothing.move == "face_danger" and nothing.why.startswith("nothing in your words")
    question = offline_proposal(system, "Is the harbour guarded?")
    assert question.move == "ask_the_oracle" and "ask the oracle" in question.why
    assert offline_proposal(get_system("go_forth"), "Is the door locked?").kind == "oracle"


def test_a_word_describing_someone_else_is_not_the_players_move() -> None:
    # Elegy's Rest: "When you rest ..." is the player's act; in "I slip past the sleeping
    # gravedigger" the gravedigger sleeps, and the player attempts something risky (Face Danger:
    # "When you attempt something risky or react to an imminent threat"). Played at stop 28,
    # the offline proposal was Rest.
    from service.sessions.propose import offline_proposal

    elegy = get_system("elegy")
    assert offline_proposal(elegy, "I slip past the sleeping gravedigger").move == "face_danger"
    assert offline_proposal(elegy, "I sleep in the crypt until dusk").move == "rest"
    assert offline_proposal(elegy, "I take a rest by the fire").move == "rest"


def test_the_first_ctrl_c_leaves(tmp_path: Path) -> None:
    # Issue 14: the first Ctrl-C at the prompt was swallowed (asyncio.run's handler cancelled
    # a task the blocked prompt never returned to).
    child = spawn(tmp_path, "--system", "sundered_isles", "--sheet", json.dumps(SUNDERED))
    try:
        child.expect_exact(PROMPT)
        # A person presses Ctrl-C at a prompt that waits: on a loaded machine the interrupt sent
        # the instant "> " is written can reach readline before it has taken the terminal.
        time.sleep(0.5)
        child.sendintr()
        child.expect_exact("Bye. Resume with: fateweaver play ", timeout=30)
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


def test_the_sheet_edited_by_hand_and_a_rest(database: Database) -> None:
    sid = new_session(database, "sundered_isles", SUNDERED)
    shown = play(database, sid, ["/edit health -2 impacts +wounded", "/edit health x", "/rest"])
    assert "health -2 (by hand)" in shown and "impacts.wounded = 1 (by hand)" in shown
    assert "error (edit): 'x': +N, -N, =N, +item or -item" in shown
    assert "error (rest): Sundered Isles has no rests" in shown
    ru = new_session(database, "roll_under", {"name": "Bo", "abilities": {"brawn": 10,
                     "finesse": 9, "intellect": 8}, "hp": 6})  # fmt: skip
    shown = play(database, ru, ["/edit hp -4", "/rest", "/rest short"])
    assert "short: A few moments' rest after an encounter" in shown
    assert "hp +4" in shown
