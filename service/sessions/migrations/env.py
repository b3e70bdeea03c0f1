"""Alembic's environment: the app's engine and models.

``service.sessions.db.migrate`` hands in a connection already in a transaction (``attributes``);
run by Alembic's own command line, it connects with the settings' URL.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from service.sessions.db import database_url, make_engine
from service.sessions.models import Base
from service.settings import get_settings

target_metadata = Base.metadata


def run_online(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        compare_type=True,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite's ALTER TABLE is limited
    )
    with context.begin_transaction():
        context.run_migrations()


def run() -> None:
    if context.is_offline_mode():
        context.configure(
            url=database_url(get_settings()),
            target_metadata=target_metadata,
            literal_binds=True,
            dialect_opts={"paramstyle": "named"},
        )
        with context.begin_transaction():
            context.run_migrations()
        return
    connection = context.config.attributes.get("connection")
    if connection is not None:
        run_online(connection)
        return
    engine = make_engine(get_settings())
    try:
        with engine.connect() as own:
            run_online(own)
    finally:
        engine.dispose()


run()
