"""Levelled graphs as Mermaid, Graphviz DOT and a self-laid-out SVG.

One small model (:class:`Drawing`: nodes with a level, edges with a label, weight and style)
serves both the HVM of a report and the export of one session's graph. Levels follow the
methodology's ontology (1 = most concrete), drawn bottom-up as laddering maps are: attributes
at the bottom, values at the top.

The SVG is laid out here, without Graphviz or JavaScript, so the HTML report stays one
self-contained file: one band per level, nodes ordered within a band by the barycentre of their
neighbours (a few sweeps of the classic Sugiyama heuristic, enough to untangle small maps),
edges as cubic curves with arrowheads, stroke width by weight, dashed for indirect links.

A map is never wider than :data:`MAX_WIDTH` (the HTML report's column): a level with more
codes than fit in one row wraps onto several rows of even length within its band, so a map of
many sessions (19 consequences in a row made it 3,400 px wide, every value off a 1280 px
screen) grows downwards at full size instead of sideways or shrunk to unreadable text. Values
stay on top.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple
from xml.sax.saxutils import escape

PALETTE = ("#dbeafe", "#dcfce7", "#fef9c3", "#fde2e4", "#ede9fe", "#e0f2f1", "#fff1e6")
STROKES = ("#1d4ed8", "#15803d", "#a16207", "#be123c", "#6d28d9", "#0f766e", "#c2410c")


@dataclass(frozen=True)
class DrawNode:
    id: str
    label: str
    level: int
    group: str = ""  # node type: the legend and the colour
    tooltip: str = ""


@dataclass(frozen=True)
class DrawEdge:
    source: str
    target: str
    label: str = ""
    weight: float = 1.0
    dashed: bool = False


@dataclass(frozen=True)
class Drawing:
    title: str
    nodes: tuple[DrawNode, ...]
    edges: tuple[DrawEdge, ...]
    level_names: Mapping[int, str] = field(default_factory=dict)

    def levels(self) -> list[int]:
        return sorted({n.level for n in self.nodes})


# --------------------------------------------------------------------------------------------
# Mermaid
# --------------------------------------------------------------------------------------------


# Mermaid's own entity codes (``#name;`` or decimal ``#35;``), not HTML's ``&...;``: Mermaid
# reads any ``#word;`` in a label as an entity, so a label such as "#hash; end" would lose its
# text unless ``#`` and ``;`` are encoded too. One pass, character by character, so an
# inserted code is never escaped again.
_MERMAID_CODES = {
    "#": "#35;",
    ";": "#59;",
    '"': "#quot;",
    "&": "#amp;",
    "<": "#lt;",
    ">": "#gt;",
    "`": "#96;",  # a backquote would start a Markdown string
}


def _mermaid_text(text: str) -> str:
    return "".join(_MERMAID_CODES.get(ch, ch) for ch in text.replace("\n", " "))


def _mermaid_ids(nodes: tuple[DrawNode, ...]) -> dict[str, str]:
    """A Mermaid id per node id: ``n<position>`` plus the id's letters when they are plain
    ASCII. Unique by construction (ids such as "A-->B" and "A->-B" would both be "A___B"),
    and never a keyword (an id "end" or "graph" breaks the whole diagram)."""
    ids: dict[str, str] = {}
    for node in nodes:
        if node.id not in ids:
            tail = "".join(ch for ch in node.id if ch.isascii() and ch.isalnum())[:24]
            ids[node.id] = f"n{len(ids)}" + (f"_{tail}" if tail else "")
    return ids


def to_mermaid(drawing: Drawing) -> str:
    """A Mermaid flowchart, bottom-up; renders in GitHub/GitLab Markdown."""
    ids = _mermaid_ids(drawing.nodes)
    lines = ["flowchart BT"]
    for node in drawing.nodes:
        lines.append(f'  {ids[node.id]}["{_mermaid_text(node.label)}"]')
    for e in drawing.edges:
        if e.source not in ids or e.target not in ids:
            continue
        arrow = "-.->" if e.dashed else "-->"
        label = f'|"{_mermaid_text(e.label)}"|' if e.label else ""
        lines.append(f"  {ids[e.source]} {arrow}{label} {ids[e.target]}")
    levels = drawing.levels()
    for i, level in enumerate(levels):
        fill, stroke = PALETTE[i % len(PALETTE)], STROKES[i % len(STROKES)]
        lines.append(f"  classDef level{level} fill:{fill},stroke:{stroke},color:#111")
        members = ",".join(ids[n.id] for n in drawing.nodes if n.level == level)
        lines.append(f"  class {members} level{level}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------
# Graphviz DOT
# --------------------------------------------------------------------------------------------


def dot_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(drawing: Drawing, *, name: str = "G") -> str:
    """A DOT digraph, bottom-up, one ``rank=same`` group per level."""
    lines = [
        f"digraph {dot_quote(name)} {{",
        "  rankdir=BT;",
        f"  label={dot_quote(drawing.title)};",
        "  labelloc=t;",
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=11];',
        '  edge [fontname="Helvetica", fontsize=9, color="#555555"];',
    ]
    for i, level in enumerate(drawing.levels()):
        members = [n for n in drawing.nodes if n.level == level]
        fill = PALETTE[i % len(PALETTE)]
        lines.append(f"  subgraph {dot_quote(f'level_{level}')} {{")
        lines.append("    rank=same;")
        for n in members:
            tooltip = f", tooltip={dot_quote(n.tooltip)}" if n.tooltip else ""
            lines.append(
                f"    {dot_quote(n.id)} [label={dot_quote(n.label)}, "
                f"fillcolor={dot_quote(fill)}{tooltip}];"
            )
        lines.append("  }")
    weights = [e.weight for e in drawing.edges] or [1.0]
    lo, hi = min(weights), max(weights)
    for e in drawing.edges:
        attrs = [f"penwidth={_scale(e.weight, lo, hi, 1.0, 4.0):.2f}"]
        if e.label:
            attrs.append(f"label={dot_quote(e.label)}")
        if e.dashed:
            attrs.append("style=dashed")
        lines.append(f"  {dot_quote(e.source)} -> {dot_quote(e.target)} [{', '.join(attrs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _scale(value: float, lo: float, hi: float, out_lo: float, out_hi: float) -> float:
    if hi <= lo:
        return (out_lo + out_hi) / 2 if hi > 0 else out_lo
    return out_lo + (value - lo) / (hi - lo) * (out_hi - out_lo)


# --------------------------------------------------------------------------------------------
# SVG
# --------------------------------------------------------------------------------------------

CHAR_W = 6.6  # average glyph width at 11px sans-serif
LINE_H = 14
WRAP = 24
MAX_LINES = 3
PAD_X, PAD_Y = 10, 8
GAP_X, GAP_Y = 18, 70
ROW_GAP = 26  # between the wrapped rows of one level
LEFT = 150  # room for the level names
RIGHT = 30
TOP = 44
TITLE_CHAR_W = 8.2  # average glyph width of the 14px bold title
MAX_WIDTH = 1180  # the HTML report's column (1200 px) less the figure's border and padding


@dataclass
class _Box:
    node: DrawNode
    lines: list[str]
    w: float
    h: float
    x: float = 0.0  # centre
    y: float = 0.0  # centre


def _attr(text: str) -> str:
    return escape(text, {'"': "&quot;"})


def _wrap(label: str) -> list[str]:
    lines = textwrap.wrap(label, WRAP, break_long_words=True) or [""]
    if len(lines) > MAX_LINES:
        lines = lines[:MAX_LINES]
        lines[-1] = lines[-1][: WRAP - 1].rstrip() + "…"
    return lines


def order_rows(drawing: Drawing, sweeps: int = 4) -> dict[int, list[str]]:
    """Node ids per level, ordered to reduce crossings (barycentre heuristic)."""
    rows: dict[int, list[str]] = {}
    for n in sorted(drawing.nodes, key=lambda n: (n.level, n.group, n.label, n.id)):
        rows.setdefault(n.level, []).append(n.id)
    neighbours: dict[str, list[str]] = {n.id: [] for n in drawing.nodes}
    for e in drawing.edges:
        if e.source in neighbours and e.target in neighbours and e.source != e.target:
            neighbours[e.source].append(e.target)
            neighbours[e.target].append(e.source)
    levels = sorted(rows)
    for sweep in range(sweeps):
        position = {nid: i / max(len(row), 1) for row in rows.values() for i, nid in enumerate(row)}
        sequence = levels if sweep % 2 == 0 else list(reversed(levels))
        for level in sequence:
            row = rows[level]
            members = set(row)
            index = {nid: i for i, nid in enumerate(row)}
            keys: dict[str, tuple[float, int]] = {}
            for nid in row:
                others = [position[m] for m in neighbours[nid] if m not in members]
                here = index[nid] / max(len(row), 1)
                keys[nid] = (sum(others) / len(others) if others else here, index[nid])
            rows[level] = sorted(row, key=keys.__getitem__)
            position.update({nid: i / max(len(row), 1) for i, nid in enumerate(rows[level])})
    return rows


def _line_width(ids: Sequence[str], boxes: Mapping[str, _Box]) -> float:
    return sum(boxes[i].w for i in ids) + GAP_X * max(len(ids) - 1, 0)


def wrap_row(ids: Sequence[str], boxes: Mapping[str, _Box], room: float) -> list[list[str]]:
    """A level's nodes (in their order) as the fewest rows of even length within ``room``."""
    if not ids:
        return []
    count = max(1, math.ceil(_line_width(ids, boxes) / room))
    while True:
        per = math.ceil(len(ids) / count)
        lines = [list(ids[i : i + per]) for i in range(0, len(ids), per)]
        if per == 1 or all(_line_width(line, boxes) <= room for line in lines):
            return lines
        count += 1


def to_svg(drawing: Drawing, *, max_width: float = MAX_WIDTH) -> str:
    """A standalone ``<svg>`` element (inline in HTML, or saved as a .svg file), at most
    ``max_width`` wide (a node wider than that alone in its row excepted)."""
    nodes = {n.id: n for n in drawing.nodes}
    lay = _layout(drawing, max_width)
    boxes, levels, title, width, height = lay.boxes, lay.levels, lay.title, lay.width, lay.height
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" role="img" aria-label="{_attr(drawing.title)}" '
        'font-family="Helvetica, Arial, sans-serif" font-size="11">',
        "<defs>",
        '<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
        'fill="#555"/></marker>',
        "</defs>",
    ]
    out += [
        f'<text x="12" y="{24 + i * 18}" font-size="14" font-weight="bold">{escape(line)}</text>'
        for i, line in enumerate(title)
    ]
    out += _level_labels_svg(drawing, levels, lay.level_y)
    weights = [e.weight for e in drawing.edges] or [1.0]
    lo, hi = min(weights), max(weights)
    for e in drawing.edges:
        if e.source not in boxes or e.target not in boxes:
            continue
        out.append(
            _edge_svg(boxes[e.source], boxes[e.target], e, _scale(e.weight, lo, hi, 1.0, 4.5))
        )
    out += _nodes_svg(boxes, nodes, levels)
    out.append("</svg>")
    return "\n".join(out)


class _Layout(NamedTuple):
    boxes: dict[str, _Box]
    levels: list[int]
    level_y: dict[int, float]
    title: list[str]
    width: float
    height: float


def _layout(drawing: Drawing, max_width: float) -> _Layout:
    """Box sizes and centres, level by level from the most abstract on top, the wrapped title
    and the picture's size."""
    boxes: dict[str, _Box] = {}
    for n in drawing.nodes:
        lines = _wrap(n.label)
        width = max(len(line) for line in lines) * CHAR_W + 2 * PAD_X
        boxes[n.id] = _Box(n, lines, max(width, 48.0), len(lines) * LINE_H + 2 * PAD_Y)
    rows = order_rows(drawing)
    levels = sorted(rows)
    bands = {lv: wrap_row(rows[lv], boxes, max_width - LEFT - RIGHT) for lv in levels}
    inner_w = max((_line_width(row, boxes) for b in bands.values() for row in b), default=200)
    title_room = max(inner_w + LEFT + RIGHT, min(max_width, 24 + len(drawing.title) * TITLE_CHAR_W))
    title = textwrap.wrap(drawing.title, int((title_room - 24) / TITLE_CHAR_W)) or [""]
    width = max(LEFT + inner_w + RIGHT, title_room)
    y: float = TOP + (len(title) - 1) * 18
    level_y: dict[int, float] = {}
    for lv in reversed(levels):  # the most abstract level on top
        top = y
        for row in bands[lv]:
            row_h = max(boxes[i].h for i in row)
            x = LEFT + (inner_w - _line_width(row, boxes)) / 2
            for nid in row:
                box = boxes[nid]
                box.x, box.y = x + box.w / 2, y + row_h / 2
                x += box.w + GAP_X
            y += row_h + ROW_GAP
        level_y[lv] = (top + y - ROW_GAP) / 2
        y += GAP_Y - ROW_GAP
    height = y - GAP_Y + 30 if levels else TOP + 40
    return _Layout(boxes, levels, level_y, title, width, height)


def _level_labels_svg(drawing: Drawing, levels: list[int], level_y: dict[int, float]) -> list[str]:
    out: list[str] = []
    for i, lv in enumerate(levels):
        name = drawing.level_names.get(lv, f"level {lv}")
        parts = name.split(" / ")
        first = level_y[lv] + 4 - (len(parts) - 1) * LINE_H / 2
        spans = "".join(
            f'<tspan x="12" y="{first + j * LINE_H:.1f}">{escape(part)}</tspan>'
            for j, part in enumerate(parts)
        )
        out.append(f'<text fill="{STROKES[i % len(STROKES)]}" font-weight="bold">{spans}</text>')
    return out


def _nodes_svg(boxes: dict[str, _Box], nodes: dict[str, DrawNode], levels: list[int]) -> list[str]:
    out: list[str] = []
    colour = {lv: i for i, lv in enumerate(levels)}
    for nid, box in boxes.items():
        k = colour[nodes[nid].level]
        left, top = box.x - box.w / 2, box.y - box.h / 2
        tip = box.node.tooltip or box.node.label
        out.append(
            f'<g class="node" data-id="{_attr(nid)}" data-level="{box.node.level}">'
            f"<title>{escape(tip)}</title>"
        )
        out.append(
            f'<rect x="{left:.1f}" y="{top:.1f}" width="{box.w:.1f}" height="{box.h:.1f}" rx="6" '
            f'fill="{PALETTE[k % len(PALETTE)]}" stroke="{STROKES[k % len(STROKES)]}"/>'
        )
        for j, line in enumerate(box.lines):
            ty = top + PAD_Y + LINE_H * (j + 0.8)
            out.append(
                f'<text x="{box.x:.1f}" y="{ty:.1f}" text-anchor="middle">{escape(line)}</text>'
            )
        out.append("</g>")
    return out


def _edge_svg(a: _Box, b: _Box, e: DrawEdge, stroke: float) -> str:
    if a is b:
        return ""
    if abs(a.y - b.y) < 1:  # same row: an arc above the row
        x1, y1 = a.x, a.y - a.h / 2
        x2, y2 = b.x, b.y - b.h / 2
        lift = 30 + abs(x2 - x1) / 6
        path = (
            f"M {x1:.1f} {y1:.1f} C {x1:.1f} {y1 - lift:.1f}, "
            f"{x2:.1f} {y2 - lift:.1f}, {x2:.1f} {y2:.1f}"
        )
        mx, my = (x1 + x2) / 2, y1 - lift * 0.75
    else:
        up = b.y < a.y
        x1, y1 = a.x, a.y - a.h / 2 if up else a.y + a.h / 2
        x2, y2 = b.x, b.y + b.h / 2 if up else b.y - b.h / 2
        ym = (y1 + y2) / 2
        path = f"M {x1:.1f} {y1:.1f} C {x1:.1f} {ym:.1f}, {x2:.1f} {ym:.1f}, {x2:.1f} {y2:.1f}"
        mx, my = (x1 + x2) / 2, ym
    dash = ' stroke-dasharray="5 4"' if e.dashed else ""
    parts = [
        f'<path d="{path}" fill="none" stroke="#555" stroke-opacity="0.75" '
        f'stroke-width="{stroke:.2f}"{dash} marker-end="url(#arrow)"/>'
    ]
    if e.label:
        parts.append(
            f'<text x="{mx:.1f}" y="{my:.1f}" text-anchor="middle" font-size="9" fill="#333" '
            f'paint-order="stroke" stroke="#fff" stroke-width="3">{escape(e.label)}</text>'
        )
    return "".join(parts)


def level_names(node_types: Sequence[tuple[str, int]]) -> dict[int, str]:
    """Readable row names: the node types of each level ("functional consequence")."""
    names: dict[int, list[str]] = {}
    for name, level in node_types:
        names.setdefault(level, []).append(name.replace("_", " "))
    return {lv: " / ".join(v) for lv, v in names.items()}
