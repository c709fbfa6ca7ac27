"""How `--help` shows options: the way Click, gh and llm do, not Typer's internal type names.

Typer (0.2x) puts a ``<bool>`` placeholder beside every flag, ``<str>``/``<list[str]>`` beside
values and prints a float default in full (``[default: 0.6666666666666666]``). :func:`apply`
adjusts the three places that produce them, once, when the app is built:

- a flag shows no placeholder (it takes no value);
- a value shows its metavar, else ``TEXT``/``INTEGER``/``FLOAT``/``PATH``/the choices;
- a float default is shown to three significant digits.

Piped help (``interview batch --help | less``) is laid out for a terminal of
:data:`PIPED_WIDTH` columns instead of Rich's 80, so long option names are never cut; an
explicit ``COLUMNS`` or ``TERMINAL_WIDTH`` still wins.
"""

from __future__ import annotations

import os
import sys
from typing import Any

PIPED_WIDTH = 120
_PLAIN = {
    "str": "TEXT",
    "int": "INTEGER",
    "float": "FLOAT",
    "int range": "INTEGER",
    "float range": "FLOAT",
    "file": "FILE",
    "directory": "DIR",
    "path": "PATH",
    "uuid": "UUID",
    "datetime": "DATETIME",
}


def plain_type(label: str | None, *, is_flag: bool) -> str | None:
    """Typer's ``<label>`` as Click would show it; None for a flag."""
    if is_flag or label is None:
        return None
    inner = label[1:-1] if label.startswith("<") and label.endswith(">") else label
    if inner == "bool":
        return None
    many = inner.startswith("list[") and inner.endswith("]")
    if many:
        inner = inner[5:-1]
    shown = _PLAIN.get(inner, inner if "|" in inner else inner.upper())
    return f"{shown}..." if many else shown


def _piped_width() -> int | None:
    if os.environ.get("COLUMNS") or os.environ.get("TERMINAL_WIDTH"):
        return None
    try:
        return None if sys.stdout.isatty() else PIPED_WIDTH
    except (AttributeError, ValueError):  # a closed or replaced stdout
        return None


def apply() -> None:
    """Install the adjustments (idempotent)."""
    from typer import core, rich_utils

    if getattr(core, "_interview_help_style", False):
        return
    core._interview_help_style = True  # type: ignore[attr-defined]
    base_display = core._TyperParameter.display_type_rich
    option_display = core.TyperOption.display_type_rich

    def parameter_type(self: Any, ctx: Any) -> str | None:
        if getattr(self, "param_type_name", "") == "argument":
            return None  # the argument's name is already its placeholder
        return plain_type(base_display(self, ctx), is_flag=False)

    def option_type(self: Any, ctx: Any) -> str | None:
        if self.metavar is not None:
            return str(self.metavar)
        return plain_type(option_display(self, ctx), is_flag=self.is_flag)

    core._TyperParameter.display_type_rich = parameter_type  # type: ignore[method-assign]
    core.TyperOption.display_type_rich = option_type  # type: ignore[method-assign]

    default_string = core._get_default_string

    def readable_default(obj: Any, *, ctx: Any, show_default_is_str: bool, default_value: Any):
        if isinstance(default_value, float) and not show_default_is_str:
            return f"{default_value:.3g}"
        return default_string(
            obj, ctx=ctx, show_default_is_str=show_default_is_str, default_value=default_value
        )

    core._get_default_string = readable_default  # type: ignore[assignment]
    make_console = rich_utils._get_rich_console

    def console(stderr: bool = False) -> Any:
        made = make_console(stderr=stderr)
        width = _piped_width()
        if width is not None and rich_utils.MAX_WIDTH is None:
            made.width = width
        return made

    rich_utils._get_rich_console = console  # type: ignore[assignment]
