"""Markdown text that shows what was said as written: one-line cells escaped (pipes,
backslashes, HTML), free text kept as paragraphs, and GitHub-flavoured tables. Used by the
report, the shape sections and the transcript export."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

# "&" starts a character reference only when a name or number and ";" follow ("&lt;", "&#60;");
# any other "&" ("Oat & pea") is shown as it is and stays readable in the Markdown source.
_ENTITY = re.compile(r"&(?=#?\w+;)")


def _html_text(text: str) -> str:
    """``text`` with nothing a Markdown renderer would pass on as HTML."""
    return _ENTITY.sub("&amp;", text).replace("<", "&lt;").replace(">", "&gt;")


def md_escape(text: Any) -> str:
    """One line of text for Markdown: pipes and backslashes escaped, and HTML (``<script>``,
    ``<img onerror=...>``) shown as text, since Markdown renderers pass raw HTML through."""
    return _html_text(str(text)).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


# What makes a line start a heading, quote, list, rule or code fence in Markdown.
_BLOCK_START = re.compile(r"^(\s*)([#>*+=`~-]|\d+[.)])")


def md_text(text: Any) -> str:
    """Free text (an answer, a question, a comment) as a Markdown paragraph that shows it as
    written: HTML escaped, each line break kept, and no line turned into a heading, list,
    quote or code fence."""
    lines = _html_text(str(text)).replace("\\", "\\\\").splitlines() or [""]
    return "  \n".join(_BLOCK_START.sub(r"\1\\\2", line) for line in lines)


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]], align: str = "") -> str:
    """A GitHub-flavoured Markdown table; ``align`` holds one 'l' or 'r' per column."""
    marks = [("---:" if (align[i : i + 1] == "r") else "---") for i in range(len(headers))]
    lines = [
        "| " + " | ".join(md_escape(h) for h in headers) + " |",
        "| " + " | ".join(marks) + " |",
    ]
    lines += ["| " + " | ".join(md_escape(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


__all__ = ["md_escape", "md_text", "table"]
