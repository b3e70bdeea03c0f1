"""Schema migrations: on an empty database, twice, from the command line, at start-up, lazily."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text
from typer.testing import CliRunner

from service.cli import app as cli
from service.sessions import db as db_module
from service.sessions.db import (
    Database,
    current_revision,
    database_url,
    head_revision,
    make_engine,
    upgrade_database,
)
from service.sessions.models import Base
from service.settings import Settings, get_settings
from tests.service.sessions.conftest import session_app, settings_for

TABLES = {"alembic_version", "sessions", "turns", "idempotency_keys"}


def _tables(settings: Settings) -> set[str]:
    engine = make_engine(settings)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_upgrade_creates_the_tables_on_an_empty_database(tmp_path: Path, backend: str) -> None:
    settings = settings_for(tmp_path / "new")  # the folder does not exist yet
    assert upgrade_database(settings) == head_revision() == "0003"
    assert _tables(settings) == TABLES
    assert (tmp_path / "new" / "fateweaver.db").is_file() == (backend == "sqlite")


def test_upgrading_twice_changes_nothing(tmp_path: Path) -> None:
    settings = settings_for(tmp_path)
    upgrade_database(settings)
    engine = make_engine(settings)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO sessions (id, owner, system, name, state, initial_state, "
                "created_at, updated_at) VALUES ('s1', 'local', 'go_forth', 'kept', '{}', '{}', "
                "'2025-01-01 00:00:00', '2025-01-01 00:00:00')"
            )
        )
    assert upgrade_database(settings) == "0003"
    with engine.connect() as connection:
        assert connection.execute(text("SELECT name FROM sessions")).scalars().all() == ["kept"]
    engine.dispose()


def test_the_migrations_build_the_models_schema(tmp_path: Path) -> None:
    settings = settings_for(tmp_path)
    upgrade_database(settings)
    engine = make_engine(settings)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []
    engine.dispose()


@pytest.mark.sqlite_only
def test_sqlite_runs_with_wal_and_foreign_keys(tmp_path: Path) -> None:
    engine = make_engine(settings_for(tmp_path))
    with engine.connect() as connection:
        pragmas = {
            p: connection.exec_driver_sql(f"PRAGMA {p}").scalar()
            for p in ("journal_mode", "foreign_keys", "busy_timeout", "synchronous")
        }
    engine.dispose()
    assert pragmas == {
        "journal_mode": "wal",
        "foreign_keys": 1,
        "busy_timeout": 5000,
        "synchronous": 1,
    }


@pytest.mark.sqlite_only
def test_database_url_defaults_to_sqlite_in_the_data_folder_and_reads_postgres_urls(
    tmp_path: Path,
) -> None:
    assert database_url(settings_for(tmp_path)).database == str(tmp_path / "fateweaver.db")
    for given in ("postgres://fw@db/fateweaver", "postgresql://fw@db/fateweaver"):
        url = database_url(settings_for(tmp_path, database_url=given))
        assert (url.drivername, url.host, url.database) == (
            "postgresql+psycopg",
            "db",
            "fateweaver",
        )
    url = database_url(settings_for(tmp_path, database_url="postgresql+psycopg2://fw@db/x"))
    assert url.drivername == "postgresql+psycopg2"


@pytest.mark.sqlite_only
def test_database_url_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/env.db")
    assert Settings().database_url == f"sqlite:///{tmp_path}/env.db"
    monkeypatch.delenv("DATABASE_URL")
    monkeypatch.setenv("FATEWEAVER_DATABASE_URL", "postgresql://fw@db/x")
    assert Settings().database_url == "postgresql://fw@db/x"


@pytest.mark.sqlite_only
def test_the_db_upgrade_command(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("FATEWEAVER_DATABASE_URL", raising=False)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/cli.db")
    get_settings.cache_clear()
    try:
        first = CliRunner().invoke(cli, ["db", "upgrade"])
        again = CliRunner().invoke(cli, ["db", "upgrade"])
    finally:
        get_settings.cache_clear()
    assert first.exit_code == 0, first.output
    assert first.output.strip() == f"sqlite:///{tmp_path}/cli.db: at revision 0003"
    assert again.exit_code == 0 and again.output == first.output
    engine = make_engine(settings_for(tmp_path, database_url=f"sqlite:///{tmp_path}/cli.db"))
    assert current_revision(engine) == "0003"
    engine.dispose()


def test_the_app_migrates_at_start_up_and_closes_its_engine(tmp_path: Path) -> None:
    app = session_app(tmp_path)
    with TestClient(app):
        assert _tables(settings_for(tmp_path)) == TABLES  # before any request
        assert app.state.database._engine is not None
    assert app.state.database._engine is None  # disposed at shutdown


def test_an_app_not_started_migrates_on_first_use(tmp_path: Path) -> None:
    client = TestClient(session_app(tmp_path))  # no lifespan
    assert not (tmp_path / "fateweaver.db").exists()
    assert client.get("/v1/sessions").json() == []
    assert _tables(settings_for(tmp_path)) == TABLES


def test_the_first_uses_migrate_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls: list[int] = []
    migrate = db_module.migrate

    def counting(engine: object) -> None:
        calls.append(1)
        migrate(engine)  # type: ignore[arg-type]

    monkeypatch.setattr(db_module, "migrate", counting)
    database = Database(settings_for(tmp_path))
    start = threading.Barrier(8)

    def use() -> None:
        start.wait()
        with database.transaction(write=False) as db:
            db.execute(text("SELECT count(*) FROM sessions"))

    threads = [threading.Thread(target=use) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    database.close()
    assert calls == [1]
