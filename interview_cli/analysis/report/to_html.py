"""The report as one self-contained HTML file: inline CSS, tables and inline SVG maps.

No script, no web font, no external stylesheet or image: the file opens the same offline,
from an e-mail attachment or a shared drive. The maps are laid out by ``export.drawing.to_svg``; a
node's tooltip (``<title>``) lists the words respondents used for its code.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from interview_cli.analysis.export.drawing import to_dot, to_mermaid, to_svg
from interview_cli.analysis.report.build import (
    LadderAnalysis,
    MethodSection,
    Report,
    StructureAnalysis,
)
from interview_cli.analysis.report.codes import CodeBook
from interview_cli.analysis.report.question_card import card_legend
from interview_cli.analysis.report.shapes import grid_html, journey_html
from interview_cli.analysis.report.to_markdown import (
    DUAL_GRAPH_HEADERS,
    DUAL_GRAPH_NOTE,
    ELEMENT_ALIGN,
    ELEMENT_HEADERS,
    ELEMENT_NOTE,
    METRIC_HEADERS,
    PARTICIPANT_HEADERS,
    QUESTION_HEADERS,
    aggregate_row,
    dual_graph_row,
    element_rows,
    element_title,
    matrix_window,
    metric_row,
    participant_row,
    question_rows,
    unmatched_merge_lines,
    where_text,
)
from interview_cli.config.plurals import plural

CSS = """
body { font-family: Helvetica, Arial, sans-serif; margin: 2em auto; max-width: 1200px;
       padding: 0 1em; color: #1f2937; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }
th, td { border: 1px solid #d1d5db; padding: 3px 7px; vertical-align: top; }
th { background: #f3f4f6; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.total td { font-weight: bold; background: #f9fafb; }
table.matrix td { text-align: center; min-width: 2.2em; }
table.matrix td.kept { background: #dcfce7; font-weight: bold; }
.figure { overflow-x: auto; border: 1px solid #e5e7eb; padding: 0.5em; background: #fff; }
.figure svg { max-width: 100%; height: auto; }
.scroll { overflow-x: auto; }
.note { color: #4b5563; font-size: 0.9em; }
pre { background: #f6f8fa; padding: 0.8em; overflow-x: auto; font-size: 0.85em; }
"""


def _cell(value: Any, numeric: bool = False, cls: str = "") -> str:
    classes = " ".join(c for c in ("n" if numeric else "", cls) if c)
    attr = f' class="{classes}"' if classes else ""
    return f"<td{attr}>{escape(str(value))}</td>"


def html_table(
    headers: Sequence[str],
    rows: Iterable[Sequence[Any]],
    numeric: str = "",
    *,
    css: str = "",
    total_last: bool = False,
) -> str:
    rows = list(rows)
    out = [f'<table class="{css}">' if css else "<table>", "<thead><tr>"]
    out += [f"<th>{escape(str(h))}</th>" for h in headers]
    out.append("</tr></thead><tbody>")
    for i, row in enumerate(rows):
        cls = ' class="total"' if total_last and i == len(rows) - 1 else ""
        out.append(f"<tr{cls}>")
        out += [_cell(v, numeric[j : j + 1] == "r") for j, v in enumerate(row)]
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _matrix_html(section: MethodSection, full: bool = False) -> str:
    assert section.ladder is not None
    m, hvm, book = section.ladder.matrix, section.ladder.hvm, section.codebook
    window = matrix_window(section, full)
    rows, cols = window.rows, window.cols
    note = f'<p class="note">{escape(window.note())}</p>' if window.note() else ""
    if not rows:
        return note or "<p>No ladder relations between codes yet.</p>"
    head = "".join(f'<th title="{escape(book.code(c).name)}">{escape(c)}</th>' for c in cols)
    body = []
    for r in rows:
        cells = []
        for c in cols:
            cell = m.cell(r, c)
            kept = ' class="kept"' if cell.total and cell.total >= hvm.cutoff else ""
            cells.append(f"<td{kept}>{cell.notation() if cell.total else ''}</td>")
        body.append(f"<tr><th>{escape(r)} {escape(book.code(r).name)}</th>{''.join(cells)}</tr>")
    return (
        f'{note}<div class="scroll"><table class="matrix"><thead><tr><th>from \\ to</th>{head}'
        f"</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


def _section_html(s: MethodSection, top: int, *, full_matrix: bool = False) -> list[str]:
    book = s.codebook
    out = [
        f"<h2>{escape(s.methodology)} (version {escape(s.version)}): "
        f"{plural(len(s.session_ids), 'session')}</h2>"
    ]
    if s.concepts:
        # Sessions are grouped by methodology only: name the concepts pooled here.
        out.append(f'<p class="note">Concepts (sessions): {escape(s.concepts_text())}.</p>')
    out += [f'<p class="note">Ladders coded by hand: {escape(sheet)}.</p>' for sheet in s.sheets]
    if s.ladder is not None:
        out += _ladder_html(s, s.ladder, full_matrix)
    if s.structure is not None:
        out += _structure_html(book, s.structure, top)
    out += _codes_html(book)
    if s.journey is not None:
        out += journey_html(s.journey)
    if s.grid is not None:
        out += grid_html(s.grid)
    drawing = (
        s.ladder.drawing if s.ladder is not None else s.structure.drawing if s.structure else None
    )
    if drawing is not None:
        out += [
            "<details><summary>Mermaid and Graphviz DOT source</summary>",
            f"<pre>{escape(to_mermaid(drawing))}</pre>",
            f"<pre>{escape(to_dot(drawing, name=s.methodology))}</pre>",
            "</details>",
        ]
    return out


def _ladder_html(s: MethodSection, ladder: LadderAnalysis, full_matrix: bool) -> list[str]:
    """The hierarchical value map and the implication matrix of a laddering section."""
    out: list[str] = []
    hvm = ladder.hvm
    target = f"chosen to keep at least {hvm.keep_share:.0%} of links" if hvm.keep_share else "given"
    out += [
        "<h3>Hierarchical value map</h3>",
        f'<p class="note">Cut-off <b>{hvm.cutoff}</b> ({target}): keeps '
        f"<b>{hvm.share_kept:.0%}</b> of all links, {hvm.relations_kept} of "
        f"{hvm.relations_total} relations, {len(hvm.codes)} codes. Solid lines are direct "
        "links, dashed lines indirect-only ones; labels read direct.indirect; hover a box "
        "for the respondents' own words.</p>",
        f'<div class="figure">{to_svg(ladder.drawing)}</div>',
        "<h3>Implication matrix</h3>",
        f'<p class="note">Counts direct.indirect (Reynolds &amp; Gutman 1988) over '
        f"{plural(ladder.matrix.respondents, 'respondent')} and "
        f"{ladder.matrix.ladders_text()}, counted {escape(ladder.matrix.counting_text())}; "
        "relations are "
        "counted within a ladder, never across ladders; rows lead to columns. "
        "Highlighted cells are at or above the cut-off.</p>",
        _matrix_html(s, full_matrix),
    ]
    return out


def _structure_html(book: CodeBook, st: StructureAnalysis, top: int) -> list[str]:
    """The connections drawing and table, node types and hubs of a non-laddering section."""
    out: list[str] = []
    out += [
        "<h3>Most frequent connections</h3>",
        f'<div class="figure">{to_svg(st.drawing)}</div>',
        html_table(
            ("from", "relation", "to", "respondents"),
            (
                (book.code(c.source).name, c.relation, book.code(c.target).name, c.respondents)
                for c in st.connections[:top]
            ),
            "lllr",
        ),
        "<h3>Node types</h3>",
        html_table(
            ("type", "level", "nodes", "sessions", "codes"),
            (
                (t["node_type"], t["level"], t["nodes"], t["sessions"], t["codes"])
                for t in st.node_types
            ),
            "lrrrr",
        ),
    ]
    if st.hubs:
        out.append(f"<h3>Each {escape(str(st.hub_type))} with what it connects to</h3><ul>")
        for hub in st.hubs:
            code = book.code(hub.code)
            parts = "".join(
                f"<li>{escape(kind.replace('_', ' '))}: "
                + escape(", ".join(f"{book.code(cid).name} ({n})" for cid, n in items[:6]))
                + "</li>"
                for kind, items in hub.neighbours.items()
            )
            out.append(
                f"<li><b>{escape(code.name)}</b> ({plural(code.respondents, 'respondent')})"
                f"<ul>{parts}</ul></li>"
            )
        out.append("</ul>")
    return out


def _codes_html(book: CodeBook) -> list[str]:
    out: list[str] = []
    out += [
        "<h3>Content codes</h3>",
        html_table(
            ("code", "name", "type", "respondents", "mentions", "said as", "from"),
            (
                (
                    c.id,
                    c.name,
                    c.node_type,
                    c.respondents,
                    c.mentions,
                    "; ".join(c.variants[:6]),
                    c.source,
                )
                for c in book.codes
            ),
            "lllrrll",
        ),
    ]
    return out


def _legend_html(lines: list[str]) -> str:
    items = "".join(f"<li>{escape(line)}</li>" for line in lines[1:])
    return f'<p class="note">{escape(lines[0])}</p><ul class="note">{items}</ul>'


def _selection_notes(report: Report) -> list[str]:
    """Which sessions the report is about: by status and origin, and by --where."""
    notes = []
    if report.selection is not None:
        notes.append(f'<p class="note">Sessions: {escape(report.selection.describe())}</p>')
    if report.where:
        notes.append(
            f'<p class="note">Sessions whose participant has '
            f"{escape(where_text(report.where))}.</p>"
        )
    return notes


def _elements_html(report: Report) -> list[str]:
    """A concept test's stimulus elements across its sessions, one table per concept."""
    parts: list[str] = []
    for t in report.elements:
        parts += [
            f"<h2>{escape(element_title(t))}</h2>",
            f'<p class="note">{escape(ELEMENT_NOTE)}</p>',
            html_table(ELEMENT_HEADERS, element_rows(t), ELEMENT_ALIGN),
        ]
    return parts


def report_html(report: Report) -> str:
    a = report.aggregate
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>Interview report</title>",
        f"<style>{CSS}</style></head><body>",
        "<h1>Interview report</h1>",
        f'<p class="note">{a.sessions} session(s), {a.turns_total} answered turns; '
        + escape(", ".join(f"{k} {v}" for k, v in a.by_status.items()))
        + ".</p>"
        if report.sessions
        else '<p class="note">No interview sessions: ladders from coding sheets only.</p>',
    ]
    if report.sessions:  # a report over coding sheets alone has no interview metrics
        parts += [
            "<h2>Metrics</h2>",
            html_table(
                METRIC_HEADERS,
                [*map(metric_row, report.sessions), aggregate_row(a)],
                "lrlrrrrrrlrr",
                total_last=True,
            ),
            "<h2>Questions</h2>",
            html_table(QUESTION_HEADERS, question_rows(report), "lrrrrrrrr", total_last=True),
            _legend_html(card_legend()),
        ]
    parts += _selection_notes(report)
    if report.participants:
        parts += [
            "<h2>Participants</h2>",
            html_table(PARTICIPANT_HEADERS, map(participant_row, report.participants), "lllr"),
        ]
    if a.recall_sessions:
        parts.append(
            f'<p class="note">Ground-truth recall over {a.recall_sessions} simulated '
            f"session(s): mean {a.recall_mean:.0%}, median {a.recall_median:.0%}.</p>"
        )
    parts += _elements_html(report)
    if report.dual_graph:
        parts += [
            "<h2>Surface vs canonical graph</h2>",
            f'<p class="note">{escape(DUAL_GRAPH_NOTE)}</p>',
            html_table(DUAL_GRAPH_HEADERS, map(dual_graph_row, report.dual_graph), "lrrrrrr"),
        ]
    for section in report.sections:
        parts += _section_html(section, report.options.top, full_matrix=report.options.full_matrix)
    if report.unmatched_merges:
        parts.append("<h2>Unmatched merges</h2><ul>")
        parts += [f"<li>{escape(line)}</li>" for line in unmatched_merge_lines(report)]
        parts.append("</ul>")
    if report.skipped:
        parts.append("<h2>Skipped files</h2><ul>")
        parts += [f"<li>{escape(s)}</li>" for s in report.skipped]
        parts.append("</ul>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
