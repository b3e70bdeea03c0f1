"""The session store's database: one engine per app, transactions, and schema migrations.

SQLite by default (``data_dir/fateweaver.db``, WAL), PostgreSQL when ``DATABASE_URL`` names one.
The schema is Alembic's (``migrations/``): ``upgrade`` runs at start-up (the app's lifespan), on
first use of the store when an app was built without its lifespan (tests), and by
``fateweaver db upgrade``; it runs once per process and is idempotent.

SQLite transactions: SQLAlchemy emits ``BEGIN`` itself (pysqlite's own transaction handling does
not wrap SELECTs or DDL), and a writing transaction begins ``IMMEDIATE``: it takes the database's
write lock before its first read, so that two writers queue (``busy_timeout``) instead of one
failing on a stale read. On PostgreSQL, ``get_session(..., for_update=True)`` locks the row.

Waits are bounded, so that a fault answers 503 (``errors.py``) instead of holding a request:
a lock another transaction holds is waited for ``database_lock_timeout`` seconds (SQLite's
busy timeout; PostgreSQL's ``lock_timeout``, set on every connection: without it a transaction
stuck holding a session's row would hold every request on that session, and the pool's
connections with them; our own transactions hold a lock for milliseconds, never across a model
call), and a PostgreSQL connection is attempted for ``database_connect_timeout`` seconds.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import partial
from pathlib import Path
from typing import Annotated, Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from fastapi import Depends, FastAPI, Request
from sqlalchemy import URL, Connection, Engine, create_engine, event, make_url, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from service.settings import Settings

MIGRATIONS = Path(__file__).parent / "migrations"
# busy_timeout: pysqlite's ``timeout`` (``database_lock_timeout``)
SQLITE_PRAGMAS = ("journal_mode=WAL", "foreign_keys=ON", "synchronous=NORMAL")
MIGRATION_LOCK = 0x66617465  # a PostgreSQL advisory lock: one migration at a time
READS = frozenset({"GET", "HEAD", "OPTIONS"})
# Beyond the pool: anyio's 40 worker threads may each hold one (a connection opened per
# transaction beyond the pool was a new PostgreSQL backend per turn under load).
MAX_OVERFLOW = 30


def database_url(settings: Settings) -> URL:
    """``database_url`` (``postgres://`` and ``postgresql://`` use psycopg), or the SQLite file."""
    if settings.database_url:
        url = make_url(settings.database_url)
        if url.drivername in ("postgres", "postgresql"):
            url = url.set(drivername="postgresql+psycopg")
        return url
    return URL.create("sqlite", database=str(settings.data_dir / "fateweaver.db"))


def make_engine(settings: Settings) -> Engine:
    url = database_url(settings)
    if url.get_backend_name() != "sqlite":
        engine = create_engine(
            url,
            pool_pre_ping=True,
            pool_size=settings.database_pool_size,
            max_overflow=MAX_OVERFLOW,
            connect_args={"connect_timeout": settings.database_connect_timeout},
        )
        event.listen(engine, "connect", partial(_postgres_connect, settings))
        return engine
    if url.database and url.database != ":memory:":
        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    # Connections move between threads (FastAPI runs sync routes and dependencies in a pool),
    # one request at a time each.
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": settings.database_lock_timeout},
        pool_size=settings.database_pool_size,
        max_overflow=MAX_OVERFLOW,
    )
    event.listen(engine, "connect", partial(_sqlite_connect, settings))
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(settings: Settings, dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # pysqlite emits no BEGIN: _sqlite_begin does
    cursor = dbapi_connection.cursor()
    deadline = time.monotonic() + settings.database_lock_timeout
    for pragma in SQLITE_PRAGMAS:
        while True:
            try:
                cursor.execute(f"PRAGMA {pragma}")
                break
            # `journal_mode=WAL` can answer "locked" at once, without SQLite's busy handler,
            # while another process (starting too) migrates: wait for it as a write would.
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)
    cursor.close()


def _postgres_connect(settings: Settings, dbapi_connection: Any, _record: Any) -> None:
    """``lock_timeout`` for the connection's life (the URL's own ``options`` are kept)."""
    autocommit = dbapi_connection.autocommit
    dbapi_connection.autocommit = True
    milliseconds = max(1, round(settings.database_lock_timeout * 1000))
    dbapi_connection.execute(f"SET lock_timeout = {milliseconds}")
    dbapi_connection.autocommit = autocommit


def _sqlite_begin(connection: Connection) -> None:
    mode = connection.get_execution_options().get("sqlite_begin", "DEFERRED")
    connection.exec_driver_sql(f"BEGIN {mode}")


# -- migrations --------------------------------------------------------------------------------


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration, found from this package (an installed one or a clone)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    config.attributes["connection"] = connection
    return config


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def migrate(engine: Engine) -> None:
    """``alembic upgrade head`` in one transaction that holds the write lock (SQLite) or an
    advisory lock (PostgreSQL): processes starting together migrate one after the other."""
    with engine.connect() as connection:
        connection.execution_options(sqlite_begin="IMMEDIATE")
        with connection.begin():
            if connection.dialect.name == "postgresql":
                # processes starting together wait for the first one's migration, however long
                connection.execute(text("SET LOCAL lock_timeout = 0"))
                connection.execute(
                    text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK}
                )
            command.upgrade(alembic_config(connection), "head")


def upgrade_database(settings: Settings) -> str | None:
    """Migrate the database the settings name to the newest schema; its revision after."""
    engine = make_engine(settings)
    try:
        migrate(engine)
        return current_revision(engine)
    finally:
        engine.dispose()


# -- one database per app ----------------------------------------------------------------------


class Database:
    """The engine (made on first use), the schema (migrated once) and transactions."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._lock = threading.RLock()
        # SQLite has one writer at a time: this process's writers queue here, in order, rather
        # than poll SQLite's busy handler (whose back-off sleeps made waits of seconds under
        # load); the busy timeout still bounds the wait for another process's writer.
        self._sqlite_writer = threading.Lock()
        self._sqlite = database_url(settings).get_backend_name() == "sqlite"
        self._engine: Engine | None = None
        self._writer: Engine | None = None
        self._migrated = False

    @property
    def engine(self) -> Engine:
        return self._engines()[0]

    def _engines(self) -> tuple[Engine, Engine]:
        """The engine, and the same with a writer's BEGIN."""
        with self._lock:
            if self._engine is None or self._writer is None:
                self._engine = make_engine(self.settings)
                self._writer = self._engine.execution_options(sqlite_begin="IMMEDIATE")
            return self._engine, self._writer

    def upgrade(self) -> None:
        """Migrate the schema to the newest revision, once (later calls return at once)."""
        with self._lock:
            if not self._migrated:
                migrate(self.engine)
                self._migrated = True

    @contextmanager
    def transaction(self, *, write: bool = True) -> Iterator[Session]:
        """One transaction: committed when the block ends, rolled back if it raises.

        ``write``: on SQLite, take the write lock at BEGIN (see the module's docstring)."""
        self.upgrade()
        reader, writer = self._engines()
        queued = write and self._sqlite
        if queued and not self._sqlite_writer.acquire(timeout=self.settings.database_lock_timeout):
            # answered as SQLite's own would be: 503, the database is busy (errors.py)
            raise OperationalError(
                "BEGIN IMMEDIATE", None, sqlite3.OperationalError("database is locked")
            )
        try:
            with Session(writer if write else reader, expire_on_commit=False) as db, db.begin():
                yield db
        finally:
            if queued:
                self._sqlite_writer.release()

    def close(self) -> None:
        """Close every connection (a later transaction opens new ones)."""
        with self._lock:
            if self._engine is not None:
                self._engine.dispose()
            self._engine = self._writer = None


def transaction(database: Database, *, write: bool = True) -> AbstractContextManager[Session]:
    """``database.transaction(write=write)``: one transaction, committed or rolled back whole."""
    return database.transaction(write=write)


_CREATING = threading.Lock()


def database_of(app: FastAPI) -> Database:
    """The app's database, made (without I/O) on first call from the app's settings."""
    with _CREATING:
        database: Database | None = getattr(app.state, "database", None)
        if database is None:
            database = app.state.database = Database(app.state.settings)
    return database


def get_database(request: Request) -> Database:
    return database_of(request.app)


DatabaseDep = Annotated[Database, Depends(get_database)]


def db_session(request: Request, database: DatabaseDep) -> Iterator[Session]:
    """A read transaction around a route that reads. A route that writes runs its transaction
    in one call instead (``with transaction(database) as db``): FastAPI enters, runs and leaves
    a dependency in separate worker threads, and a writer holding the lock across those hops
    waits for a thread that the writers queued behind it hold."""
    if request.method not in READS:
        raise RuntimeError(f"DbDep is for reads: {request.method} {request.url.path}")
    with database.transaction(write=False) as db:
        yield db


# scope="function": the transaction ends (commits) before the response is sent, so that a
# failed commit is the answer, not a success already sent.
DbDep = Annotated[Session, Depends(db_session, scope="function")]
