"""Help text in Markdown without markdown-it: the same output, a fifth of `--help`'s start-up.

The help of every command is written in Markdown (``rich_markup_mode="markdown"``), and Typer
hands each piece of it to ``rich.markdown.Markdown``, whose import (markdown-it and its rule
modules) cost about 20 ms of a 110 ms `interview --help`. The help uses a small part of
Markdown: paragraphs, ``* `` bullet lists, ``**strong**`` and ```code``` spans.
:func:`light_markdown` parses that part and draws it with Rich's own primitives, in the same
styles and the same spans as ``rich.markdown`` would; for any text with something else in it
(a heading, a link, an escape, emphasis, an entity, HTML, a table, a nested or loose list...)
it returns None and the caller uses ``rich.markdown``. No help text is copied: the renderer
reads the same declarations Typer does, and tests/cli/test_help_text.py renders every help
text of the app both ways and requires the same bytes.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult
    from rich.style import Style

# A line (stripped) that could start another kind of block, or interrupt a paragraph:
# heading, quote, setext underline, "-"/"+"/"*"/ordered list, fence, HTML, table, link
# definition.
_OTHER_BLOCK = re.compile(r"[#>=+\-|:<\[]|`{3}|~{3}|\d+[.)]|\* |\*$")
_RULE = re.compile(r"([*_\-])(?:\s*\1){2,}\s*$")
_BULLET = re.compile(r"\* (?=\S)")
# Inline: a code span, or strong text between whitespace (or a line's edges) and punctuation.
_INLINE = re.compile(
    r"`([^`\s](?:[^`]*[^`\s])?)`"
    r"|(?:(?<=\s)|^)\*\*([^*`\s](?:[^*`\n]*[^*`\s])?)\*\*(?=[\s.,;:)]|$)"
)
# What is left must be plain: no escapes, entities, HTML, links, images, strikeout, code, and
# no "_" that could open or close emphasis. A lone "*" (S*1000) cannot pair: it is counted.
_NOT_PLAIN = re.compile(
    r"[\\<`]|&#?[A-Za-z0-9]+;|~~|\]\(|\]\[|!\[|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])"
)
_EMOJI = re.compile(r":\S*?:")

Run = tuple[str, str]  # (text, "" | "strong" | "code")
Block = tuple[str, list[list[Run]]]  # ("p", [runs]) or ("ul", [runs per item])


def _inline(lines: list[str]) -> list[Run] | None:
    """The runs of one paragraph (soft breaks are a space of their own), or None."""
    if any(line != line.rstrip() for line in lines):
        return None  # trailing spaces: a hard break or a stripped space
    text = "\n".join(line.lstrip() for line in lines)
    runs: list[Run] = []

    def plain(part: str) -> None:
        for number, piece in enumerate(part.split("\n")):
            if number:
                runs.append((" ", ""))
            runs.append((piece, ""))

    done = 0
    for match in _INLINE.finditer(text):
        plain(text[done : match.start()])
        code, strong = match.groups()
        runs.append((code.replace("\n", " "), "code") if code is not None else (strong, "strong"))
        done = match.end()
    plain(text[done:])
    stars = 0
    for part, kind in runs:
        if kind != "code" and _NOT_PLAIN.search(part):
            return None
        stars += part.count("*") if kind == "" else 0
    return runs if stars <= 1 else None


def _starts_block(line: str) -> bool:
    stripped = line.lstrip()
    return bool(_OTHER_BLOCK.match(stripped) or _RULE.match(stripped))


def parse(text: str) -> list[Block] | None:
    """Paragraphs and tight bullet lists, or None when ``text`` holds anything else."""
    if "\t" in text or "\r" in text or "\x00" in text:
        return None
    blocks: list[Block] = []
    chunks: list[list[str]] = [[]]
    for line in text.split("\n"):
        if line.strip():
            chunks[-1].append(line)
        elif chunks[-1]:
            chunks.append([])
    for chunk in filter(None, chunks):
        if chunk[0][0] == " ":
            return None  # indented: code, or part of the list above
        if _BULLET.match(chunk[0]):
            if blocks and blocks[-1][0] == "ul":
                return None  # a blank line inside a list makes it loose
            items: list[list[str]] = []
            for line in chunk:
                if _BULLET.match(line) and not _starts_block(line[2:]):
                    items.append([line[2:]])
                elif _BULLET.match(line) or _starts_block(line):
                    return None
                else:
                    items[-1].append(line)
            kind, lines_of = "ul", items
        elif any(_starts_block(line) for line in chunk):
            return None
        else:
            kind, lines_of = "p", [chunk]
        parsed = [_inline(lines) for lines in lines_of]
        if any(runs is None for runs in parsed):
            return None
        blocks.append((kind, [runs for runs in parsed if runs is not None]))
    return blocks


class LightMarkdown:
    """Paragraphs and bullet lists drawn as ``rich.markdown.Markdown`` draws them.

    Like Markdown it has no ``__rich_measure__``: Columns and Align give it the full width.
    """

    def __init__(self, blocks: list[Block], style: str | Style = "none") -> None:
        self.blocks = blocks
        self.style = style

    def _paragraph(self, console: Console, style: Style, runs: list[Run]) -> Any:
        from rich.text import Text

        styles = {
            "": style + console.get_style("markdown.paragraph", default="none"),
        }
        styles["strong"] = styles[""] + console.get_style("markdown.strong", default="none")
        styles["code"] = styles[""] + console.get_style("markdown.code", default="none")
        text = Text(justify="left")
        for part, kind in runs:
            text.append(part, styles[kind])
        return text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.containers import Renderables
        from rich.segment import Segment

        base = console.get_style(self.style, default="none")
        options = options.update(height=None)
        for number, (kind, content) in enumerate(self.blocks):
            if number or kind == "ul":  # Rich closes a list's items before the list itself
                yield Segment.line()
            if kind == "p":
                yield from console.render(self._paragraph(console, base, content[0]), options)
                continue
            item_style = base + console.get_style("markdown.item", default="none")
            bullet_style = console.get_style("markdown.item.bullet", default="none")
            bullet = Segment(" • ", bullet_style)
            padding = Segment(" " * 3, bullet_style)
            item_options = options.update(width=options.max_width - 3)
            for runs in content:
                paragraph = self._paragraph(console, item_style, runs)
                lines = console.render_lines(
                    Renderables([paragraph]), item_options, style=item_style
                )
                for index, line in enumerate(lines):
                    yield bullet if index == 0 else padding
                    yield from line
                    yield Segment("\n")


def light_markdown(text: str, style: str = "") -> LightMarkdown | None:
    """``text`` (as Typer passes it: not yet dedented) drawn without markdown-it, or None."""
    import inspect

    text = inspect.cleandoc(text)
    if _EMOJI.search(text):  # Typer replaces :emoji: codes before parsing
        from rich.emoji import Emoji

        text = Emoji.replace(text)
    blocks = parse(text)
    return None if blocks is None else LightMarkdown(blocks, style=style)
