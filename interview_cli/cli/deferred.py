"""Commands whose options are read from their functions only when something needs them.

Typer turns every command of the app into a Click command whenever the app runs: it reads
each function's signature and evaluates its annotations (twice), about 12 ms for the app's
commands. `interview --help` only lists them (name, first line of help, panel) and
`interview personas` runs one. :func:`install` makes Typer build each command as a
:class:`DeferredCommand`: the same command, constructed with everything but its parameters
and callback; the first read of either builds the real command from the same declaration
(Typer's own ``get_command_from_info``) and the object takes on its state, so code that holds
it sees an ordinary ``TyperCommand``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from typer.core import TyperCommand

_LAZY = ("params", "callback")  # what only the real command has
# The keywords of Typer's get_command_from_info as written against (Typer 0.29); any other
# signature and install() leaves Typer alone.
_KEYWORDS = frozenset({"command_info", "pretty_exceptions_short", "rich_markup_mode"})


class DeferredCommand(TyperCommand):
    """A TyperCommand that builds its parameters and callback on first use."""

    def __init__(self, build: Callable[[], Any], **settings: Any) -> None:
        super().__init__(**settings)
        for name in _LAZY:
            del self.__dict__[name]
        self.__dict__["_build"] = build

    def __getattr__(self, name: str) -> Any:
        # Only reached for attributes the object does not have: params and callback until
        # the real command is built, and names no command has (hasattr(cmd, "commands")).
        build = self.__dict__.get("_build")
        if build is None or name not in _LAZY:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        real = build()
        del self.__dict__["_build"]
        self.__dict__.update(vars(real))
        return self.__dict__[name]

    @property
    def built(self) -> bool:
        return "_build" not in self.__dict__


def install() -> None:
    """Make Typer build commands of the default class deferred (idempotent)."""
    import typer.main as typer_main

    build = getattr(typer_main, "get_command_from_info", None)
    if build is None or getattr(build, "_interview_deferred", False):
        return
    if not _KEYWORDS <= set(inspect.signature(build).parameters):
        return  # another Typer than the one this was written for: commands are built eagerly

    def deferred(command_info: Any, *, pretty_exceptions_short: bool, rich_markup_mode: Any) -> Any:
        def real() -> Any:
            return build(
                command_info,
                pretty_exceptions_short=pretty_exceptions_short,
                rich_markup_mode=rich_markup_mode,
            )

        callback = command_info.callback
        if command_info.cls not in (None, TyperCommand) or callback is None:
            return real()  # a class of its own may construct itself differently
        # Name and help exactly as Typer's get_command_from_info derives them.
        name = command_info.name or typer_main.get_command_name(callback.__name__)
        help = command_info.help
        help = inspect.getdoc(callback) if help is None else inspect.cleandoc(help)
        return DeferredCommand(
            real,
            name=name,
            context_settings=command_info.context_settings,
            help=help,
            epilog=command_info.epilog,
            short_help=command_info.short_help,
            options_metavar=command_info.options_metavar,
            add_help_option=command_info.add_help_option,
            no_args_is_help=command_info.no_args_is_help,
            hidden=command_info.hidden,
            deprecated=command_info.deprecated,
            rich_markup_mode=rich_markup_mode,
            rich_help_panel=command_info.rich_help_panel,
        )

    deferred._interview_deferred = True  # type: ignore[attr-defined]
    typer_main.get_command_from_info = deferred
