"""How `--help` shows options: the way Click, gh and llm do, not Typer's internal type names.

Typer (0.2x) puts a ``<bool>`` placeholder beside every flag, ``<str>``/``<list[str]>`` beside
values and prints a float default in full (``[default: 0.6666666666666666]``). :func:`apply`
adjusts the three places that produce them, once, when the app is built:

- a flag shows no placeholder (it takes no value);
- a value shows its metavar, else ``TEXT``/``INTEGER``/``FLOAT``/``PATH``/the choices;
- a float default is shown to three significant digits.

Piped help (``interview batch --help | less``) is laid out for a terminal of
:data:`PIPED_WIDTH` columns instead of Rich's 80; an explicit ``COLUMNS`` or
``TERMINAL_WIDTH`` still wins. At any width an option's name is shown whole: Typer gives the
name, its short form, its ``--no-`` form and that one's short form a column each, and at 80
columns Rich cut "--respondent-provider" to "--respondent-p…" to fit them all.
:func:`_options_panel` puts the ``--no-`` form under the name in one column that never wraps
or shrinks, so the help text is the column that gives way.

Start-up: ``typer.rich_utils`` imports ``rich.markdown`` (markdown-it) and ``rich.traceback``
(pygments, via rich.syntax) when it loads, about 30 ms, though help only needs them for text
outside the Markdown that :mod:`interview_cli.cli.helptext` draws, and a traceback only after a
failure under ``--debug``. :func:`_import_rich_utils` loads it with stand-ins for the two
classes that import the real module the first time they are used.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
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


def _deferred(module: str, name: str) -> type:
    """A stand-in for class ``module.name``: calling it, or reading an attribute of it
    (``Traceback.from_exception``), imports the real module and forwards to the real class."""

    def real() -> Any:
        return getattr(importlib.import_module(module), name)

    class Deferred(type):
        def __call__(cls, *args: Any, **kwargs: Any) -> Any:
            return real()(*args, **kwargs)

        def __getattr__(cls, attr: str) -> Any:
            return getattr(real(), attr)

        def __instancecheck__(cls, instance: Any) -> bool:
            return module in sys.modules and isinstance(instance, real())

    return Deferred(name, (), {"__module__": module})


def _import_rich_utils() -> Any:
    """``typer.rich_utils`` without importing rich.markdown and rich.traceback (see above).

    The stand-in modules are in ``sys.modules`` only while it loads: any other import of
    rich.markdown or rich.traceback gets the real module."""
    if "typer.rich_utils" in sys.modules:
        return sys.modules["typer.rich_utils"]
    stand_ins = {}
    for module, name in (("rich.markdown", "Markdown"), ("rich.traceback", "Traceback")):
        if module not in sys.modules:
            stand_in = types.ModuleType(module)
            setattr(stand_in, name, _deferred(module, name))
            stand_ins[module] = stand_in
    sys.modules.update(stand_ins)
    try:
        return importlib.import_module("typer.rich_utils")
    finally:
        for module, stand_in in stand_ins.items():
            if sys.modules.get(module) is stand_in:
                del sys.modules[module]


def apply() -> None:
    """Install the adjustments (idempotent)."""
    rich_utils = _import_rich_utils()
    from typer import core

    from interview_cli.cli.helptext import light_markdown

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

    def readable_default(
        obj: Any, *, ctx: Any, show_default_is_str: bool, default_value: Any
    ) -> str:
        if isinstance(default_value, float) and not show_default_is_str:
            return f"{default_value:.3g}"
        return default_string(
            obj, ctx=ctx, show_default_is_str=show_default_is_str, default_value=default_value
        )

    core._get_default_string = readable_default
    make_console = rich_utils._get_rich_console

    def console(stderr: bool = False) -> Any:
        made = make_console(stderr=stderr)
        width = _piped_width()
        if width is not None and rich_utils.MAX_WIDTH is None:
            made.width = width
        return made

    rich_utils._get_rich_console = console
    rich_utils._print_options_panel = _options_panel
    make_rich_text = rich_utils._make_rich_text

    def rich_text(*, text: str, style: str = "", markup_mode: Any) -> Any:
        # Markdown this module can draw is drawn without markdown-it (same output).
        light = light_markdown(text, style) if markup_mode == "markdown" else None
        if light is not None:
            return light
        return make_rich_text(text=text, style=style, markup_mode=markup_mode)

    rich_text.__wrapped__ = make_rich_text  # type: ignore[attr-defined]  # for the tests
    rich_utils._make_rich_text = rich_text


def _options_panel(
    *, name: str, params: list[Any], ctx: Any, markup_mode: Any, console: Any
) -> None:
    """Typer's options (or arguments) panel, with every option name whole (see above)."""
    from rich.panel import Panel
    from rich.table import Table
    from typer import rich_utils as ru

    rows = [_option_row(param, ctx, markup_mode) for param in params]
    required = any(bool(param.required) for param in params)
    if not rows:
        return
    table = Table(
        highlight=True,
        show_header=False,
        expand=True,
        box=None,
        show_lines=ru.STYLE_OPTIONS_TABLE_SHOW_LINES,
        leading=ru.STYLE_OPTIONS_TABLE_LEADING,
        row_styles=ru.STYLE_OPTIONS_TABLE_ROW_STYLES,
        pad_edge=ru.STYLE_OPTIONS_TABLE_PAD_EDGE,
        padding=ru.STYLE_OPTIONS_TABLE_PADDING,
    )
    if required:
        table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)  # names: never wrapped, never cut
    table.add_column(no_wrap=True)
    table.add_column(max_width=24)  # the type: folds when a choice list is long
    table.add_column(ratio=1, overflow="fold")  # the help text gives way
    for row in rows:
        table.add_row(*(row if required else row[1:]))
    console.print(
        Panel(
            table,
            border_style=ru.STYLE_OPTIONS_PANEL_BORDER,
            title=name,
            title_align=ru.ALIGN_OPTIONS_PANEL,
        )
    )


def _option_row(param: Any, ctx: Any, markup_mode: Any) -> list[Any]:
    """One option's cells: required mark, long names, short names, type, help."""
    from rich.console import Group
    from rich.text import Text
    from typer import rich_utils as ru
    from typer.core import TyperArgument

    shown = None  # an argument is shown by its metavar
    if isinstance(param, TyperArgument):
        shown = param.display_name_raw + (
            "..." if param.metavar is None and param.nargs != 1 else ""
        )
    names = [o for o in param.opts if o.startswith("--")]
    shorts = [shown or o for o in param.opts if not o.startswith("--")]
    negative = [o for o in param.secondary_opts if o.startswith("--")]
    negative_short = [o for o in param.secondary_opts if not o.startswith("--")]
    name_cell = ru.highlighter(",".join(names))
    short_cell = ru.highlighter(",".join(shorts))
    if negative or negative_short:
        name_cell.append("\n")
        name_cell.append_text(ru.negative_highlighter(",".join(negative)))
        short_cell.append("\n")
        short_cell.append_text(ru.negative_highlighter(",".join(negative_short)))
    types = Text(style=ru.STYLE_TYPES, overflow="fold")
    types.append(param.display_type_rich(ctx=ctx) or "")
    number_range = param._get_number_range_help_str()
    if number_range:
        types.append(ru.RANGE_STRING.format(number_range))
    mark = Text(ru.REQUIRED_SHORT_STRING, style=ru.STYLE_REQUIRED_SHORT) if param.required else ""
    help_cell: Any = ru._get_parameter_help(param=param, ctx=ctx, markup_mode=markup_mode)
    # One part a line (the help, the env var, the default) in the column's own overflow,
    # so a long word such as 'interview-cli[embeddings]' folds instead of being cut.
    help_cell = Group(*getattr(help_cell, "renderables", [help_cell]))
    return [mark, name_cell, short_cell, ru.types_highlighter(types), help_cell]
