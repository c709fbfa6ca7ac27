"""The `interview` Typer application (commands are registered from one module each)."""

from __future__ import annotations

import typer

from interview_cli import __version__

app = typer.Typer(
    name="interview",
    help="Adaptive qualitative research interviews in the terminal, with a knowledge graph "
    "behind every question.",
    no_args_is_help=True,
    rich_markup_mode="rich",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"interview-cli {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Adaptive qualitative research interviews in the terminal."""


def main() -> None:
    app()
