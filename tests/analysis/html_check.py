"""Checking generated HTML without a browser: balanced tags, nothing fetched from outside."""

from __future__ import annotations

import re
from html.parser import HTMLParser

VOID = {"meta", "link", "br", "hr", "img", "input", "col", "area", "base", "source", "wbr"}
# SVG elements written self-closing (<path .../>) arrive through handle_startendtag.
EXTERNAL = re.compile(r"^\s*(https?:|//)", re.I)
# url(#id) points inside the document (an SVG marker); any other url() fetches something.
FETCHING_URL = re.compile(r"url\(\s*(?!['\"]?#)", re.I)


class StrictHTML(HTMLParser):
    """Records tags, and every problem: unbalanced tags, scripts, external resources."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.problems: list[str] = []
        self.tags: dict[str, int] = {}
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self._attrs(tag, attrs)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self._attrs(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes <{self.stack[-1] if self.stack else 'nothing'}>")
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def _attrs(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.problems.append("a <script> element")
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"an event handler {name} on <{tag}>")
            if name in ("src", "href") and value and EXTERNAL.match(value):
                self.problems.append(f"an external resource {value} on <{tag}>")
            if name == "style" and value and FETCHING_URL.search(value):
                self.problems.append(f"a url() in a style on <{tag}>")


def check_html(text: str) -> StrictHTML:
    parser = StrictHTML()
    parser.feed(text)
    parser.close()
    if parser.stack:
        parser.problems.append(f"unclosed: {parser.stack}")
    if "@import" in text or FETCHING_URL.search(text):
        parser.problems.append("CSS that fetches something")
    return parser
