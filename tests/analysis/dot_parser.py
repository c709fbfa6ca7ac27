"""A small DOT parser for tests: enough of the Graphviz grammar to check what we write.

Handles ``digraph``/``graph`` with an optional name, nested ``subgraph`` blocks, graph
attributes (``key=value;``), ``node``/``edge`` defaults, node statements with attribute lists
and ``->`` edge chains; quoted strings with backslash escapes. Anything else is a syntax error,
so a malformed export fails the test instead of passing unnoticed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

TOKEN = re.compile(
    r'\s*(?:(?P<str>"(?:[^"\\]|\\.)*")|(?P<arrow>->|--)|(?P<sym>[{}\[\];=,])|(?P<id>[A-Za-z0-9_.#\-]+))',
    re.S,
)


class DotSyntaxError(ValueError):
    pass


@dataclass
class DotGraph:
    name: str
    directed: bool
    attrs: dict[str, str] = field(default_factory=dict)
    nodes: dict[str, dict[str, str]] = field(default_factory=dict)
    edges: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)
    subgraphs: list[str] = field(default_factory=list)


def _unquote(token: str) -> str:
    if token.startswith('"'):
        body = token[1:-1]
        return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), body)
    return token


def tokenize(text: str) -> list[str]:
    tokens: list[str] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise DotSyntaxError(f"unexpected text at {pos}: {text[pos : pos + 20]!r}")
        tokens.append(next(v for v in m.groupdict().values() if v is not None))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return tokens


class _Parser:
    def __init__(self, tokens: list[str]) -> None:
        self.t = tokens
        self.i = 0

    def peek(self) -> str | None:
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            raise DotSyntaxError(f"expected {expected!r}, got {tok!r} at token {self.i}")
        self.i += 1
        return tok

    def is_id(self, tok: str | None) -> bool:
        return tok is not None and tok not in "{}[];=," and tok not in ("->", "--")

    def attr_list(self) -> dict[str, str]:
        attrs: dict[str, str] = {}
        self.take("[")
        while self.peek() != "]":
            key = _unquote(self.take())
            self.take("=")
            attrs[key] = _unquote(self.take())
            if self.peek() in (",", ";"):
                self.take()
        self.take("]")
        return attrs

    def statements(self, g: DotGraph) -> None:
        while self.peek() != "}":
            tok = self.peek()
            if tok is None:
                raise DotSyntaxError("missing '}'")
            if tok == "subgraph":
                self.take()
                name = (
                    _unquote(self.take()) if self.is_id(self.peek()) and self.peek() != "{" else ""
                )
                self.take("{")
                g.subgraphs.append(name)
                self.statements(g)
                self.take("}")
            elif tok in ("node", "edge", "graph") and self.t[self.i + 1] == "[":
                self.take()
                self.attr_list()
            else:
                first = _unquote(self.take())
                if self.peek() == "=":
                    self.take()
                    g.attrs[first] = _unquote(self.take())
                else:
                    chain = [first]
                    while self.peek() in ("->", "--"):
                        arrow = self.take()
                        if (arrow == "->") != g.directed:
                            raise DotSyntaxError(f"{arrow} in a {'di' if g.directed else ''}graph")
                        chain.append(_unquote(self.take()))
                    attrs = self.attr_list() if self.peek() == "[" else {}
                    if len(chain) == 1:
                        g.nodes.setdefault(first, {}).update(attrs)
                    for a, b in zip(chain, chain[1:], strict=False):
                        g.nodes.setdefault(a, {})
                        g.nodes.setdefault(b, {})
                        g.edges.append((a, b, attrs))
            if self.peek() == ";":
                self.take()


def parse_dot(text: str) -> DotGraph:
    p = _Parser(tokenize(text))
    kind = p.take()
    if kind not in ("digraph", "graph"):
        raise DotSyntaxError(f"expected digraph or graph, got {kind!r}")
    name = _unquote(p.take()) if p.peek() != "{" else ""
    g = DotGraph(name, kind == "digraph")
    p.take("{")
    p.statements(g)
    p.take("}")
    if p.peek() is not None:
        raise DotSyntaxError(f"text after the graph: {p.peek()!r}")
    return g
