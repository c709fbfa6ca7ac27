"""What every `interview` command shares: error handling, consoles, common options, JSON output.

The ONE error path (ARCHITECTURE "Contracts": exit 0 success, 1 runtime failure, 2 bad input):

- an :class:`~interview_cli.errors.InterviewError` prints ``error: <message>`` on stderr, one
  line (a ConfigError prints one ``error:`` line per problem), and exits with its ``exit_code``;
- an ``OSError`` is turned into one by :func:`interview_cli.config.files.translate_os_error` (the
  path, why, what to do; exit 2);
- any other exception prints one line naming it, plus how to see the traceback, and exits 1;
- with ``interview --debug ...`` or ``INTERVIEW_DEBUG=1`` the exception is re-raised instead.

:class:`InterviewGroup` applies this around every sub-command, so a command registered later
gets it for free: commands just raise. :func:`handle_errors` is the same logic as a context
manager for code that runs outside a sub-command.

This module stays light to import: `interview --help` must not pull in pydantic, SDKs, etc.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperGroup

from interview_cli.errors import ConfigError, InterviewError

if TYPE_CHECKING:
    from interview_cli.config.library import Library

DEBUG_ENV = "INTERVIEW_DEBUG"
_DEBUG_META_KEY = "interview_cli.debug"


def _passthrough() -> tuple[type[BaseException], ...]:
    """Exceptions the CLI framework itself handles (exit codes, usage errors, aborts)."""
    from typer.exceptions import TyperException  # the pinned Typer vendors click

    # BrokenPipeError: `interview ... | head` closed stdout; the framework exits quietly.
    return (typer.Exit, typer.Abort, BrokenPipeError, TyperException)


# --------------------------------------------------------------------------------------------
# Consoles and output
# --------------------------------------------------------------------------------------------


def stdout_console() -> Console:
    """A console on the current stdout (created per call so test runners' streams are used)."""
    return Console(highlight=False)


def stderr_console() -> Console:
    return Console(stderr=True, highlight=False)


def _printable(message: str) -> str:
    """A message without terminal controls or credentials: it may quote a file name, a value,
    a base URL or a provider's error body, and none of them may act on the terminal or show
    a key."""
    from interview_cli.safe_text import redact_secrets, strip_controls

    return redact_secrets(strip_controls(message.replace("\n", " ")))


def print_error(message: str, *, console: Console | None = None, prefix: str = "error") -> None:
    """``error: message`` on stderr as exactly one line (no wrapping, no markup in message)."""
    console = console or stderr_console()
    line = Text.assemble((f"{prefix}:", "bold red"), " ", _printable(message))
    console.print(line, soft_wrap=True, markup=False, highlight=False)


def print_warning(message: str, *, console: Console | None = None) -> None:
    console = console or stderr_console()
    line = Text.assemble(("warning:", "bold yellow"), " ", _printable(message))
    console.print(line, soft_wrap=True, markup=False, highlight=False)


def print_json(data: Any) -> None:
    """Machine-readable output for ``--json``: plain JSON on stdout, no colour, no wrapping."""
    import json

    typer.echo(json.dumps(data, indent=2, ensure_ascii=False, default=_json_default))


def _json_default(value: Any) -> Any:
    if isinstance(value, Path):
        return str(value)
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


# --------------------------------------------------------------------------------------------
# Error handling
# --------------------------------------------------------------------------------------------


def debug_enabled(ctx: typer.Context | None = None) -> bool:
    """``--debug`` on the root command (stored in the context) or ``INTERVIEW_DEBUG=1``."""
    if os.environ.get(DEBUG_ENV, "").strip().lower() in ("1", "true", "yes", "on"):
        return True
    # Context.meta is shared by a context and all its children, so the root's flag is visible.
    return bool(ctx is not None and ctx.meta.get(_DEBUG_META_KEY))


def set_debug(ctx: typer.Context, enabled: bool) -> None:
    ctx.meta[_DEBUG_META_KEY] = enabled


def report_error(exc: BaseException) -> int:
    """Print ``exc`` the user-facing way and return the exit code to use."""
    console = stderr_console()
    if isinstance(exc, ConfigError):
        for problem in exc.problems:
            print_error(problem, console=console)
        if len(exc.problems) > 1 and exc.message not in exc.problems:
            console.print(exc.message, soft_wrap=True, markup=False, highlight=False)
        return exc.exit_code
    if isinstance(exc, OSError) and not isinstance(exc, BrokenPipeError):
        # A file or directory that cannot be read or written: the path and what to do.
        from interview_cli.config.files import translate_os_error

        exc = translate_os_error(exc)
    if isinstance(exc, InterviewError):
        print_error(exc.message.replace("\n", " "), console=console)
        return exc.exit_code
    detail = str(exc).replace("\n", " ").strip()
    print_error(
        f"unexpected {type(exc).__name__}" + (f": {detail}" if detail else ""), console=console
    )
    console.print(
        f"run with --debug (interview --debug <command> ...) or {DEBUG_ENV}=1 for the traceback",
        soft_wrap=True,
        markup=False,
        highlight=False,
    )
    return 1


@contextlib.contextmanager
def handle_errors(debug: bool = False) -> Iterator[None]:
    """Turn exceptions into one-line messages and exit codes (re-raise when debugging)."""
    try:
        yield
    except _passthrough():
        raise
    except Exception as exc:
        if debug or debug_enabled():
            raise
        raise typer.Exit(report_error(exc)) from None


def _usage_error() -> type[Exception]:
    """The framework's UsageError (vendored click in typer >= 0.16, click before)."""
    return next(k for k in typer.BadParameter.__mro__ if k.__name__ == "UsageError")


def _one_line_usage(exc: Exception) -> typer.Exit:
    """A bad option or argument as one ``error:`` line (exit 2), not the framework's usage
    text and boxed message; the help hint names the command that was misused."""
    ctx = getattr(exc, "ctx", None)
    hint = f" (see `{ctx.command_path} --help`)" if ctx is not None else ""
    message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    # Typer validates some values with pydantic, whose messages start "Value error, ".
    message = message.replace("Value error, ", "")
    print_error(" ".join(message.split()).rstrip(".") + hint)
    return typer.Exit(2)


class InterviewGroup(TyperGroup):
    """The root command group: runs every sub-command inside :func:`handle_errors`, and
    prints bad usage (unknown options, out-of-range values, missing arguments) as one line."""

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        # The root's own options are parsed here, before invoke().
        try:
            return super().make_context(*args, **kwargs)
        except _usage_error() as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # `interview` alone: the help
                raise
            raise _one_line_usage(exc) from None

    def invoke(self, ctx: typer.Context) -> Any:  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except _usage_error() as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":
                raise
            raise _one_line_usage(exc) from None
        except _passthrough():
            raise
        except Exception as exc:
            if debug_enabled(ctx):
                raise
            raise typer.Exit(report_error(exc)) from None

    def list_commands(self, ctx: typer.Context) -> list[str]:  # type: ignore[override]
        # Keep registration order in --help (it follows the workflow), not alphabetical.
        return list(self.commands)


# --------------------------------------------------------------------------------------------
# Options shared by commands
# --------------------------------------------------------------------------------------------

LibraryOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--library",
        "-L",
        metavar="DIR",
        help="A library directory (holding methodologies/, concepts/, personas/) searched "
        "before the others; repeatable. Also: INTERVIEW_LIBRARY (dirs separated by "
        f"'{os.pathsep}').",
        show_default=False,
    ),
]

DiscourseHintsOption = Annotated[
    bool,
    typer.Option(
        "--discourse-hints/--no-discourse-hints",
        help="Pass causal/temporal markers and simple frames found in answers to extraction "
        "as hints (new sessions; a resumed one keeps its setting).",
    ),
]

EmbeddingsOption = Annotated[
    bool,
    typer.Option(
        "--embeddings",
        envvar="INTERVIEW_EMBEDDINGS",
        help="Use sentence embeddings for de-duplication and slots when installed "
        "(pip install 'interview-cli[embeddings]'); else fuzzy matching.",
    ),
]

JsonOption = Annotated[
    bool,
    typer.Option("--json", help="Print machine-readable JSON on stdout instead of a table."),
]


def open_library(library: list[Path] | None) -> Library:
    """The library search path for a command's ``--library`` values (imports lazily)."""
    from interview_cli.config.library import Library

    return Library.discover(extra_roots=library or ())


def in_library(path: Path, lib: Library) -> Path:
    """``path`` itself, else the same relative path under a library root: the shipped
    ``personas/`` and ``ladders/headphones_sample.csv`` are found from any directory, since
    the library is installed with the package."""
    if path.exists() or path.is_absolute():
        return path
    for root in lib.roots:
        candidate = root.path / path
        if candidate.exists():
            return candidate
    return path


def optional_models(*, embeddings: bool, discourse: bool) -> tuple[Any, Any]:
    """The embedding tier and spaCy frames, when asked for and installed (one-line notices).

    ``embeddings`` is the flag (``INTERVIEW_EMBEDDINGS`` counts too); either model missing is
    a notice and the built-in fallback, never an error.
    """
    from interview_cli.llm.embeddings import load_embedder, load_frame_parser, requested

    embedder = load_embedder(requested(embeddings), notice=print_warning)
    parser = load_frame_parser(notice=print_warning) if discourse else None
    return embedder, parser
