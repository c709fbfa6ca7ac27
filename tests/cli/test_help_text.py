"""Help Markdown drawn without markdown-it (cli.helptext) is byte for byte what Rich's
Markdown draws, for every help text of the app; anything outside the small subset it knows
goes to Rich's Markdown."""

from __future__ import annotations

import inspect
import io
from typing import Any

import pytest
import typer
from rich.console import Console
from rich.emoji import Emoji
from rich.markdown import Markdown
from typer import rich_utils
from typer.testing import CliRunner

from interview_cli.cli.app import app
from interview_cli.cli.helptext import light_markdown, parse


def _paths() -> list[list[str]]:
    """The argument paths of every command and sub-command ([] is the root)."""
    paths: list[list[str]] = []

    def walk(command: Any, path: list[str]) -> None:
        paths.append(path)
        if hasattr(command, "list_commands"):
            ctx = typer.Context(command)
            for name in command.list_commands(ctx):
                walk(command.get_command(ctx, name), [*path, name])

    walk(typer.main.get_command(app), [])
    return paths


def _draw(renderable: Any, width: int) -> str:
    console = Console(
        width=width, file=io.StringIO(), force_terminal=True, color_system="truecolor"
    )
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def _as_rich_draws(text: str, style: str) -> Markdown:
    """What Typer draws for help text in markdown mode."""
    return Markdown(Emoji.replace(inspect.cleandoc(text)), style=style)


@pytest.fixture(scope="module")
def help_texts() -> list[tuple[str, str]]:
    """Every (text, style) Typer renders for the app's --help pages."""
    seen: list[tuple[str, str]] = []
    drawn = rich_utils._make_rich_text

    def spy(*, text: str, style: str = "", markup_mode: Any) -> Any:
        seen.append((text, style))
        return drawn(text=text, style=style, markup_mode=markup_mode)

    rich_utils._make_rich_text = spy  # type: ignore[assignment]
    try:
        for path in _paths():
            result = CliRunner().invoke(app, [*path, "--help"])
            assert result.exit_code == 0, (path, result.output)
    finally:
        rich_utils._make_rich_text = drawn  # type: ignore[assignment]
    return seen


def test_every_help_text_is_drawn_as_rich_markdown_draws_it(help_texts) -> None:
    light = [(text, style) for text, style in help_texts if light_markdown(text, style)]
    # Nearly all of it takes the light path (the rest has a code block or similar).
    assert len(light) >= 0.9 * len(help_texts) and len(help_texts) > 100
    for text, style in light:
        for width in (24, 60, 100):
            assert _draw(light_markdown(text, style), width) == _draw(
                _as_rich_draws(text, style), width
            ), (width, text)


def test_every_help_page_is_the_same_with_and_without_the_light_path() -> None:
    drawn = rich_utils._make_rich_text
    pages: list[list[str]] = [[], []]
    try:
        for pages_of, make in zip(pages, (drawn, drawn.__wrapped__), strict=True):
            rich_utils._make_rich_text = make  # type: ignore[assignment]
            for path in _paths():
                result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "90"})
                pages_of.append(result.stdout)
    finally:
        rich_utils._make_rich_text = drawn  # type: ignore[assignment]
    assert pages[0] == pages[1]
    assert len(pages[0]) > 10


@pytest.mark.parametrize(
    "text",
    [
        "Lone stars: seed S*1000+R-1, x_y_z and INTERVIEW_SESSIONS_DIR; Reynolds & Gutman.",
        "First\nline, with `code` and **Strong** words.\n\n**Examples**\n\n* `a`\n* `b\n  c` d",
        "* one\n  lazy continuation\n* two :smile: and [brackets] kept",
        "",
    ],
)
def test_the_subset_is_drawn_the_same(text: str) -> None:
    light = light_markdown(text, "dim")
    assert light is not None
    for width in (20, 80):
        assert _draw(light, width) == _draw(_as_rich_draws(text, "dim"), width)


@pytest.mark.parametrize(
    "text",
    [
        "# Heading",
        "a\n- list",
        "a\n* list interrupting",
        "1. ordered",
        "> quote",
        "x _emphasis_ y",
        "x *emphasis* y",
        "**a** and *b*",
        r"an \* escape",
        "an &amp; entity",
        "LLM_<CLIENT>_MODEL",
        "[a link](https://example.org)",
        "![an image](x.png)",
        "~~struck~~",
        "* a\n\n* loose list",
        "* a\n  * nested",
        "    indented code",
        "```\nfenced\n```",
        "hard  \nbreak",
        "a\n---",
        "| a | b |\n|---|---|",
        "[ref]: https://example.org",
        "``double backticks``",
        "unclosed `code",
    ],
)
def test_anything_else_goes_to_rich_markdown(text: str) -> None:
    assert parse(text) is None
