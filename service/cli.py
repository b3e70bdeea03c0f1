"""The ``fateweaver`` command line: the same functions the HTTP routers call."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from rules.errors import RulesError
from rules.registry import resolve_roll
from service.settings import get_settings

app = typer.Typer(help="fateweaver: solo tabletop RPG companion", no_args_is_help=True)


@app.command()
def serve(
    host: Annotated[str | None, typer.Option(help="bind address")] = None,
    port: Annotated[int | None, typer.Option(help="port")] = None,
) -> None:
    """Start the HTTP service on the embedded defaults (OpenAPI docs at /docs)."""
    import uvicorn

    from service.app import create_app

    settings = get_settings()
    uvicorn.run(
        create_app(settings),
        host=host or settings.host,
        port=port or settings.port,
        log_level=settings.log_level,
    )


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
) -> None:
    """Resolve one roll and print the resolution as JSON."""
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
    typer.echo(resolution.model_dump_json(indent=2))


def main() -> None:
    app()
