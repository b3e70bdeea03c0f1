"""The store on a temporary SQLite file: owners, turn numbers, transactions, cascades."""

from __future__ import annotations

import threading
from datetime import UTC
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from service.sessions import NotFound, ReadOnly, store
from service.sessions.db import Database

STATE: dict[str, Any] = {"sheet": {"name": "Kell"}, "tracks": {}, "clocks": {}}


def _new(database: Database, owner: str = "local", name: str = "Drowned") -> str:
    with database.transaction() as db:
        return store.create_session(db, owner, "go_forth", name, STATE).id


def _turn(database: Database, session_id: str, **fields: Any) -> int:
    with database.transaction() as db:
        row = store.get_session(db, "local", session_id, for_update=True)
        turn = store.add_turn(db, row, kind="roll", status="resolved", request={}, **fields)
        return turn.number


def _count(database: Database, table: str) -> int:
    with database.transaction(write=False) as db:
        return int(db.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())


def test_a_session_round_trips_with_its_state_and_utc_stamps(database: Database) -> None:
    session_id = _new(database)
    with database.transaction(write=False) as db:
        row = store.get_session(db, "local", session_id)
    assert (row.system, row.name, row.status, row.turn_count) == (
        "go_forth",
        "Drowned",
        "active",
        0,
    )
    assert row.state == STATE and row.initial_state == STATE
    assert row.summary == ""
    assert len(row.id) == 32
    assert row.created_at.tzinfo is UTC and row.updated_at.tzinfo is UTC


def test_another_owners_session_is_not_found(database: Database) -> None:
    session_id = _new(database, owner="alice")
    with database.transaction(write=False) as db, pytest.raises(NotFound) as caught:
        store.get_session(db, "bob", session_id)
    assert (caught.value.status, caught.value.field) == (404, "path.session_id")


def test_sessions_are_listed_per_owner_most_recent_first(database: Database) -> None:
    first = _new(database, name="first")
    second = _new(database, name="second")
    _new(database, owner="bob")
    with database.transaction() as db:
        store.rename(store.get_session(db, "local", first), "first, renamed")
    with database.transaction(write=False) as db:
        assert [r.id for r in store.list_sessions(db, "local")] == [first, second]
        assert store.list_sessions(db, "nobody") == []


def test_turn_numbers_count_per_session(database: Database) -> None:
    one, two = _new(database), _new(database)
    assert [_turn(database, one), _turn(database, one), _turn(database, two)] == [1, 2, 1]
    with database.transaction(write=False) as db:
        assert store.get_session(db, "local", one).turn_count == 2


def test_a_duplicate_turn_number_is_an_integrity_error(database: Database) -> None:
    session_id = _new(database)
    _turn(database, session_id, number=1)
    with pytest.raises(IntegrityError):
        _turn(database, session_id, number=1)
    assert _count(database, "turns") == 1


def test_a_failed_transaction_leaves_nothing(database: Database) -> None:
    with pytest.raises(RuntimeError), database.transaction() as db:
        row = store.create_session(db, "local", "go_forth", "Doomed", STATE)
        store.add_turn(db, row, kind="roll", status="resolved", request={})
        raise RuntimeError("the narrator failed")
    assert _count(database, "sessions") == _count(database, "turns") == 0


def test_a_failed_turn_leaves_the_session_as_it_was(database: Database) -> None:
    session_id = _new(database)
    with pytest.raises(RuntimeError), database.transaction() as db:
        row = store.get_session(db, "local", session_id, for_update=True)
        store.add_turn(db, row, kind="roll", status="resolved", request={})
        store.set_state(row, {**row.state, "tracks": {"vow": {"ticks": 4}}})
        raise RuntimeError("boom")
    with database.transaction(write=False) as db:
        row = store.get_session(db, "local", session_id)
        assert (row.turn_count, row.state) == (0, STATE)
        assert store.list_turns(db, row) == []


def test_deleting_a_session_deletes_its_turns(database: Database) -> None:
    kept, deleted = _new(database), _new(database)
    _turn(database, kept)
    _turn(database, deleted)
    _turn(database, deleted)
    with database.transaction() as db:
        store.delete(db, store.get_session(db, "local", deleted))
    assert _count(database, "sessions") == 1
    assert _count(database, "turns") == 1  # the database cascades (SQLite: foreign_keys=ON)


def test_an_ended_session_is_read_only(database: Database) -> None:
    session_id = _new(database)
    with database.transaction() as db:
        store.end(store.get_session(db, "local", session_id))
    with database.transaction() as db:
        row = store.get_session(db, "local", session_id)
        assert row.status == "ended"
        for change in (
            lambda: store.rename(row, "again"),
            lambda: store.end(row),
            lambda: store.add_turn(db, row, kind="roll", status="resolved", request={}),
        ):
            with pytest.raises(ReadOnly) as caught:
                change()
            assert (caught.value.status, caught.value.field) == (409, "path.session_id")
            assert caught.value.message == "the session has ended; it is read-only"


def test_turns_are_found_by_number_listed_in_order_and_the_last_by_status(
    database: Database,
) -> None:
    session_id = _new(database)
    _turn(database, session_id)
    with database.transaction() as db:
        row = store.get_session(db, "local", session_id, for_update=True)
        store.add_turn(db, row, kind="oracle", status="undone", request={"q": "?"})
    with database.transaction(write=False) as db:
        row = store.get_session(db, "local", session_id)
        assert [t.number for t in store.list_turns(db, row)] == [1, 2]
        assert store.get_turn(db, row, 2).kind == "oracle"
        last = store.last_turn(db, row)
        resolved = store.last_turn(db, row, statuses=["resolved"])
        assert last is not None and last.number == 2
        assert resolved is not None and resolved.number == 1
        assert store.last_turn(db, row, statuses=["proposed"]) is None
        with pytest.raises(NotFound) as caught:
            store.get_turn(db, row, 3)
        assert (caught.value.status, caught.value.field) == (404, "path.number")


def test_a_turn_has_its_defaults_and_none_is_sql_null(database: Database) -> None:
    session_id = _new(database)
    _turn(database, session_id)
    with database.transaction(write=False) as db:
        turn = store.get_turn(db, store.get_session(db, "local", session_id), 1)
        assert (turn.choices, turn.chosen, turn.changes) == ([], {}, [])
        assert (turn.words, turn.narration, turn.narration_status) == ("", "", "none")
        assert turn.proposal is None and turn.narrator is None
        nulls = db.execute(text("SELECT count(*) FROM turns WHERE proposal IS NULL")).scalar_one()
    assert nulls == 1


def test_concurrent_turns_on_one_session_get_distinct_numbers(database: Database) -> None:
    """Writers queue on SQLite (BEGIN IMMEDIATE, busy_timeout): none fails, none repeats."""
    session_id = _new(database)
    numbers: list[int] = []
    errors: list[BaseException] = []
    start = threading.Barrier(6)

    def play() -> None:
        try:
            start.wait()
            for _ in range(5):
                numbers.append(_turn(database, session_id))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=play) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(numbers) == list(range(1, 31))
