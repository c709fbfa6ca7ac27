"""The `interview` Typer application: root options and the registration of every command.

Each command group lives in its own module with a ``register(app)`` function; to add one,
import the module below and call its ``register`` in :func:`_register_commands`. Command
modules must be cheap to import (no SDKs, no pydantic at module level): `interview --help`
imports all of them, and tests check what it loads (tests/cli/test_startup.py). Typer reads a
command's options only when the command is used (:mod:`interview_cli.cli.deferred`), and help
Markdown is drawn without markdown-it (:mod:`interview_cli.cli.helptext`).

Errors raised by any command are printed by :class:`~interview_cli.cli.common.InterviewGroup`
(one line, exit code from the exception; ``--debug`` shows the traceback).
"""

from __future__ import annotations

from typing import Annotated

import typer

from interview_cli import __version__
from interview_cli.cli import deferred, helpstyle
from interview_cli.cli.common import DEBUG_ENV, InterviewGroup, set_debug

helpstyle.apply()
deferred.install()  # commands read their options only when used (start-up)

app = typer.Typer(
    name="interview",
    cls=InterviewGroup,
    help="Adaptive qualitative research interviews in the terminal, with a knowledge graph "
    "behind every question.\n\n"
    "Each answer is turned into a knowledge graph; the next question is chosen from signals "
    "on that graph by the methodology's strategies (Means-End Chain laddering, "
    "Jobs-to-be-Done, Critical Incident), and every decision is recorded so it can be "
    "explained (/why) and replayed.",
    epilog="**Start here**\n\n"
    "* `interview concepts` lists what can be studied\n"
    "* `interview run --concept headphones_mec --provider offline` runs an interview, no API key\n"
    "* `interview validate` checks the library after you edit its YAML\n\n"
    "Run `interview COMMAND --help` for a command's options and examples.",
    # A bare `interview` prints the help and exits 0 (see root): asking what the tool does is
    # not a usage error.
    invoke_without_command=True,
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_show_locals=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"interview-cli {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
    debug: Annotated[
        bool,
        typer.Option(
            "--debug",
            envvar=DEBUG_ENV,
            help="Show the full traceback when something fails (also INTERVIEW_DEBUG=1).",
        ),
    ] = False,
) -> None:
    """Adaptive qualitative research interviews in the terminal."""
    set_debug(ctx, debug)
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(0)


def _register_commands() -> None:
    # Order here is the order in `interview --help`. Later issues add, in workflow order:
    # run (live interview), sessions, batch, replay, report, export.
    from interview_cli.cli import batch as batch_cmd
    from interview_cli.cli import export as export_cmd
    from interview_cli.cli import fork as fork_cmd
    from interview_cli.cli import library_cmds, prompts_cmd, run, sessions_cmd
    from interview_cli.cli import replay as replay_cmd
    from interview_cli.cli import report as report_cmd

    run.register(app)
    sessions_cmd.register(app)
    batch_cmd.register(app)
    replay_cmd.register(app)
    fork_cmd.register(app)
    prompts_cmd.register(app)
    report_cmd.register(app)
    export_cmd.register(app)
    library_cmds.register(app)


_register_commands()


def main() -> None:
    app()
