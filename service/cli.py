"""The ``fateweaver`` command line: the same functions the HTTP routers call."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from typing import Annotated, Any

import click
import typer
from typer.core import TyperGroup

from rules.errors import RulesError
from rules.models import Resolution
from rules.registry import resolve_roll
from service.narrator import facts
from service.sessions.journal import change_words
from service.settings import get_settings
from service.terminal import play

app = typer.Typer(help="fateweaver: solo tabletop RPG companion", no_args_is_help=True)


@app.command()
def serve(
    host: Annotated[str | None, typer.Option(help="bind address")] = None,
    port: Annotated[int | None, typer.Option(help="port")] = None,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            max=64,
            help="worker processes on the one port (PostgreSQL, or SQLite on one machine); "
            "each builds the app from the environment",
        ),
    ] = 1,
) -> None:
    """Start the HTTP service on the embedded defaults (OpenAPI docs at /docs).

    Without API keys (FATEWEAVER_API_KEYS) it listens on a loopback address only.
    Ctrl-C (SIGINT) or SIGTERM stops it at any moment, with exit status 0."""
    # uvicorn handles both signals while it serves (a graceful shutdown, the app's lifespan
    # included), then raises them again for the handlers it found: these. Stopping is how a
    # service ends, so they exit 0; by default SIGTERM would end the process with status 143.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, _stopped)
    import uvicorn

    from service.app import create_app
    from service.sessions.owners import bind_host

    settings = get_settings()
    where: dict[str, Any] = {
        "host": bind_host(host or settings.host, settings),
        "port": port or settings.port,
        "log_level": settings.log_level,
    }
    if workers > 1:
        # uvicorn's supervisor starts the processes; each calls the factory (its own engine,
        # its own model client): nothing is shared but the database and the index on disk.
        uvicorn.run("service.app:create_app", factory=True, workers=workers, **where)
    else:
        uvicorn.run(create_app(settings), **where)


@app.command()
def mcp() -> None:
    """The MCP server over stdio (for Claude Desktop's config, Claude Code, LM Studio...),
    as the local owner: the tools of `/mcp`, on this machine's sessions."""
    from service.mcp_server import run_stdio

    run_stdio(get_settings())


def _stopped(signum: int, frame: object) -> None:
    raise SystemExit(0)


def _parse_params(pairs: list[str]) -> dict[str, object]:
    params: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise typer.BadParameter(f"{pair!r}: expected key=value", param_hint="--param")
        try:
            params[key] = json.loads(value)
        except json.JSONDecodeError:
            params[key] = value
    return params


@app.command()
def roll(
    system: Annotated[str, typer.Argument(help="system id, e.g. sundered_isles")],
    kind: Annotated[str, typer.Argument(help="roll kind, e.g. action, oracle, table")],
    param: Annotated[
        list[str] | None, typer.Option("--param", "-p", help="parameter as key=value (JSON value)")
    ] = None,
    dice: Annotated[str | None, typer.Option(help="dice rolled by hand, e.g. 6,3,9")] = None,
    seed: Annotated[int | None, typer.Option(help="seed for a reproducible roll")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="print the whole resolution as JSON")
    ] = False,
) -> None:
    """Resolve one roll and print a one-line summary (the whole resolution with --json)."""
    try:
        given = [int(d) for d in dice.split(",")] if dice else None
    except ValueError:
        raise typer.BadParameter(
            f"{dice!r}: expected integers separated by commas", param_hint="--dice"
        ) from None
    try:
        resolution = resolve_roll(system, kind, _parse_params(param or []), dice=given, seed=seed)
    except RulesError as exc:
        typer.echo(f"error ({exc.field}): {exc.message}", err=True)
        raise typer.Exit(2) from None
    typer.echo(resolution.model_dump_json(indent=2) if as_json else roll_line(resolution))


def roll_line(resolution: Resolution) -> str:
    """A roll in one line: what was rolled, the dice, the outcome, the seed to replay it.
    ``Action roll: dice 5 | 3 8 (action 7) -> weak hit: you succeed, but at a cost [seed 42]``"""
    dice = " ".join(
        f"{d.value}{'' if d.kept and not d.cancelled else '*'}" for d in resolution.dice
    )
    shown = {k: v for k, v in resolution.scores.items() if k in _SCORES_SHOWN}
    scores = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in shown.items())
    line = f"{facts.title(resolution)[:1].upper()}{facts.title(resolution)[1:]}: dice {dice}"
    line += f" ({scores})" if scores else ""
    line += f" -> {facts.outcome_words(resolution)}"
    line += " (match)" if resolution.match else ""
    changes = "; ".join(change_words(c.model_dump()) for c in resolution.changes)
    line += f"; {changes}" if changes else ""
    return line + (f" [seed {resolution.seed}]" if resolution.seed is not None else "")


# The scores a one-line summary shows: the totals a player compares, not every part of them.
_SCORES_SHOWN = ("action_score", "progress_score", "total", "tn", "net", "difficulty", "score",
                 "threshold", "effort")  # fmt: skip


@app.command()
def systems(
    system: Annotated[str | None, typer.Argument(help="one system id for its roll kinds")] = None,
) -> None:
    """List the game systems, or one system's roll kinds with their dice order."""
    from rules.registry import all_systems, get_system

    if system is None:
        for each in all_systems():
            typer.echo(f"{each.id:16s} {each.name}: {', '.join(each.roll_kinds)}")
        return
    try:
        chosen = get_system(system)
    except RulesError as exc:
        typer.echo(f"error ({exc.field}): {exc.message}", err=True)
        raise typer.Exit(2) from None
    for kind in chosen.roll_kinds.values():
        typer.echo(f"{kind.id}: {kind.summary}\n    dice: {kind.dice_order}")


def main() -> None:
    app()


# -- ingest: a person's own texts in the rules index ---------------------------------------------


class _AddByDefault(TyperGroup):
    """``fateweaver ingest PATH…`` means ``fateweaver ingest add PATH…``; SIGTERM stops it as
    Ctrl-C does, with exit status 130."""

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args.insert(0, "add")
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        # Both signals raise KeyboardInterrupt at the next Python step, never inside a model run
        # or a store write. What was stored stays; a text is listed only once all of it is
        # stored, so running the command again (or starting the service) completes the index.
        previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            typer.echo("\nstopped: run the command again to finish indexing", err=True)
            raise typer.Exit(130) from None
        finally:
            signal.signal(signal.SIGTERM, previous)


ingest_app = typer.Typer(
    cls=_AddByDefault,
    no_args_is_help=True,
    help="Add your own rules, house rules or setting notes to rules search; list; remove.",
)
app.add_typer(ingest_app, name="ingest")


def _progress_library(label: str) -> Any:
    """Build the library with a progress bar on stderr for whatever it has to embed."""
    from service.retrieval import build_library

    bar: Any = None

    def progress(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = click.progressbar(length=total, label=label, file=sys.stderr)
            bar.__enter__()
        bar.update(done - bar.pos)
        if done >= total:
            bar.__exit__(None, None, None)
            bar = None

    return build_library(get_settings(), progress), progress


def _texts(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.suffix in (".md", ".txt")))
        elif path.is_file():
            files.append(path)
        else:
            raise typer.BadParameter(f"{path}: no such file or folder", param_hint="PATH")
    return files


@ingest_app.command("add")
def ingest_add(
    paths: Annotated[list[Path], typer.Argument(help="markdown or plain-text files, or folders")],
    system: Annotated[
        str | None, typer.Option(help="the system these texts belong to, e.g. sundered_isles")
    ] = None,
    house_rules: Annotated[
        bool, typer.Option("--house-rules", help="house rules (for --system, or for every system)")
    ] = False,
) -> None:
    """Index texts; an unchanged text is skipped, a changed one re-indexed. A file over
    FATEWEAVER_MAX_INGEST_BYTES stops the command before anything is indexed (exit status 2)."""
    files = _texts(paths)
    limit = get_settings().max_ingest_bytes
    too_large = [path for path in files if path.stat().st_size > limit]
    if too_large:
        for path in too_large:
            typer.echo(
                f"error: {path} is {path.stat().st_size} bytes, over the limit of {limit} bytes "
                "(FATEWEAVER_MAX_INGEST_BYTES); split it into smaller files",
                err=True,
            )
        typer.echo("nothing was indexed", err=True)
        raise typer.Exit(2)
    library, progress = _progress_library("indexing")
    try:
        for path in files:
            text = _read_at_most(path, limit)
            result = library.add_text(
                text, source=path.name, system=system, house=house_rules, progress=progress
            )
            typer.echo(f"{result.status:9} {result.doc} ({result.chunks} passages)")
    except RulesError as exc:
        typer.echo(f"error ({exc.field}): {exc.message}", err=True)
        raise typer.Exit(2) from None
    except UnicodeDecodeError as exc:
        typer.echo(f"error: {path} is not UTF-8 text ({exc.reason})", err=True)
        raise typer.Exit(2) from None


def _read_at_most(path: Path, limit: int) -> str:
    """The file's text, reading no more than ``limit`` bytes (it may have grown since)."""
    with path.open("rb") as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        typer.echo(f"error: {path} is over the limit of {limit} bytes", err=True)
        raise typer.Exit(2)
    # Universal newlines, as Path.read_text reads them.
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


@ingest_app.command("list")
def ingest_list() -> None:
    """Every indexed text with its system, kind and passage count."""
    library, _ = _progress_library("indexing the rulebooks")
    for s in library.sources():
        typer.echo(f"{s.doc:50} {s.system:16} {s.kind:8} {s.chunks:4} passages")


@ingest_app.command("remove")
def ingest_remove(
    doc: Annotated[str, typer.Argument(help="a document id from `ingest list`, or a file name")],
) -> None:
    """Remove a user text or house rules from the index."""
    library, _ = _progress_library("indexing the rulebooks")
    try:
        if doc.startswith("builtin/"):
            raise RulesError("the built-in rulebooks cannot be removed", "doc")
        result = library.remove(doc)
    except RulesError as exc:
        typer.echo(f"error ({exc.field}): {exc.message}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"removed {result.doc} ({result.chunks} passages)")


@ingest_app.command("rebuild")
def ingest_rebuild() -> None:
    """Check the index against the sources and re-embed whatever is missing or changed."""
    library, _ = _progress_library("indexing")
    typer.echo(f"{len(library.sources())} texts indexed")


# -- db: the session store ---------------------------------------------------------------------

db_app = typer.Typer(no_args_is_help=True, help="The session store's database.")
app.add_typer(db_app, name="db")


@db_app.command("upgrade")
def db_upgrade() -> None:
    """Migrate the session store to the newest schema (the service also does at start-up)."""
    from sqlalchemy.exc import SQLAlchemyError

    from service.sessions.db import database_url, upgrade_database

    settings = get_settings()
    where = database_url(settings).render_as_string(hide_password=True)
    try:
        revision = upgrade_database(settings)
    except SQLAlchemyError as exc:
        typer.echo(f"error: {where}: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"{where}: at revision {revision}")


@app.command("sessions")
def list_sessions(
    key: Annotated[
        str | None, typer.Option(help="your API key, when FATEWEAVER_API_KEYS is set")
    ] = None,
) -> None:
    """List your sessions, the most recent first: id, system, character, turns, last change."""
    from service.sessions import store
    from service.sessions.db import Database, transaction
    from service.terminal import owner_for

    settings = get_settings()
    database = Database(settings)
    try:
        database.upgrade()
        with transaction(database, write=False) as db:
            rows = store.list_sessions(db, owner_for(settings, key))
            lines = [session_line(row) for row in rows]
    except RulesError as exc:
        typer.echo(f"error ({exc.field}): {exc.message}", err=True)
        raise typer.Exit(2) from None
    finally:
        database.close()
    typer.echo("\n".join(lines) if lines else "no sessions yet: start one with fateweaver play")


def session_line(row: Any) -> str:
    character = (row.state.get("sheet") or {}).get("name") or "-"
    when = row.updated_at.strftime("%Y-%m-%d %H:%M")
    ended = "" if row.status == "active" else f" ({row.status})"
    return (
        f"{row.id}  {row.system:14s} {character[:24]:24s} {row.name[:40]!r:42s} "
        f"{row.turn_count:4d} turns  {when}{ended}"
    )


# -- play: a session in the terminal (service/terminal.py) ------------------------------------

app.command()(play)
