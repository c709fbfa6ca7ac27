"""The report as Markdown: tables, the implication matrix, and the HVM as Mermaid and DOT.

Renders a :class:`~interview_cli.analysis.report.build.Report`; nothing is computed here. Mermaid
blocks render in GitHub/GitLab; the DOT block is for ``dot -Tsvg``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from interview_cli.analysis.export.drawing import to_dot, to_mermaid
from interview_cli.analysis.export.markdown import md_escape, table
from interview_cli.analysis.report.build import (
    LadderAnalysis,
    MethodSection,
    Report,
    StructureAnalysis,
)
from interview_cli.analysis.report.codes import CodeBook
from interview_cli.analysis.report.elements import ConceptElements, reactions_text
from interview_cli.analysis.report.implication import ImplicationMatrix, codes_at_cutoff
from interview_cli.analysis.report.metrics import AggregateMetrics, SessionMetrics
from interview_cli.analysis.report.participants import ParticipantRow
from interview_cli.analysis.report.question_card import CARD_HEADERS, card_cells, card_legend
from interview_cli.analysis.report.shapes import grid_markdown, journey_markdown
from interview_cli.config.plurals import plural
from interview_cli.llm.spend import format_cost


def mix(strategy_mix: dict[str, int], limit: int = 4) -> str:
    items = list(strategy_mix.items())
    text = ", ".join(f"{k} {v}" for k, v in items[:limit])
    return text + (" …" if len(items) > limit else "")


def fmt_recall(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


METRIC_HEADERS = (
    "session",
    "turns",
    "ended",
    "nodes",
    "edges",
    "edges/node",
    "max depth",
    "chains",
    "terminal",
    "strategies",
    "cost",
    "recall",
)


PARTICIPANT_HEADERS = ("participant", "facts", "sessions", "turns")


def participant_row(p: ParticipantRow) -> list[str]:
    facts = ", ".join(f"{k}={v}" for k, v in sorted(p.meta.items())) or "—"
    return [p.id, facts, ", ".join(p.sessions), str(p.turns)]


def where_text(where: Sequence[tuple[str, str]]) -> str:
    return " and ".join(f"{k}={v}" for k, v in where)


def fork_note(r: SessionMetrics) -> str:
    """Where a fork comes from ("fork of ID at turn K"); empty for any other session."""
    return f"fork of {r.fork_of} at turn {r.fork_turn}" if r.fork_of else ""


def metric_row(r: SessionMetrics) -> list[str]:
    return [
        r.id
        + (f" ({r.persona})" if r.persona else "")
        + (f" [{r.participant}]" if r.participant else "")
        + (f", {fork_note(r)}" if r.fork_of else ""),
        str(r.turns),
        r.termination_reason or r.status,
        str(r.nodes),
        str(r.edges),
        f"{r.edge_node_ratio:.2f}",
        str(r.max_depth),
        str(r.chains_completed),
        "yes" if r.terminal_reached else "no",
        mix(r.strategy_mix),
        format_cost(r.cost_usd, r.unpriced),
        fmt_recall(r.recall),
    ]


def aggregate_row(a: AggregateMetrics) -> list[str]:
    return [
        f"all {a.sessions} sessions",
        f"{a.turns_total} (mean {a.turns_mean:g})",
        ", ".join(f"{k} {v}" for k, v in list(a.termination_reasons.items())[:2]),
        f"{a.nodes_mean:g}",
        f"{a.edges_mean:g}",
        f"{a.edge_node_ratio_mean:.2f}",
        f"{a.max_depth_mean:g} (max {a.max_depth_max})",
        str(a.chains_completed_total),
        f"{a.terminal_reached_share:.0%}",
        mix(a.strategy_mix),
        format_cost(a.cost_usd_total, a.unpriced),
        fmt_recall(a.recall_mean),
    ]


DUAL_GRAPH_HEADERS = (
    "session",
    "surface nodes",
    "surface edges",
    "edges/node",
    "slots (active)",
    "canonical edges",
    "unmapped",
)
DUAL_GRAPH_NOTE = (
    "Surface graph: the respondents' own concepts; canonical graph: the stable slots they "
    "map to (dual graph, seed 001). Unmapped: surface concepts without a slot yet."
)


def dual_graph_row(r: Mapping[str, Any]) -> list[str]:
    """One ``Report.dual_graph`` row (``core.canonical.slots.dual_graph_comparison`` figures)."""
    on = bool(r.get("canonical_enabled", False))
    return [
        str(r.get("id", "")),
        str(r.get("surface_nodes", 0)),
        str(r.get("surface_edges", 0)),
        f"{float(r.get('edge_node_ratio', 0.0)):.2f}",
        f"{r.get('canonical_slots', 0)} ({r.get('active_slots', 0)})" if on else "—",
        str(r.get("canonical_edges", 0)) if on else "—",
        f"{r.get('unmapped', 0)} ({float(r.get('unmapped_share', 0.0)):.0%})" if on else "—",
    ]


QUESTION_HEADERS = ("session", *CARD_HEADERS)


ELEMENT_HEADERS: tuple[str, ...] = (
    "element",
    "mentioned",
    "unprompted",
    "raised",
    "reactions (latest)",
    "ladders (respondents)",
)
ELEMENT_ALIGN = "lrrrlr"
ELEMENT_NOTE = (
    "Per stimulus element: respondents who mentioned it (of the concept's sessions), those who "
    "did so before the interviewer raised it, those it was raised with, each respondent's "
    "latest reaction, and the ladders climbing from it (respondents with one)."
)


def element_rows(table_: ConceptElements) -> list[list[str]]:
    """A concept test's element table as rows (every format renders these)."""
    n = table_.sessions
    return [
        [
            r.label,
            f"{r.mentioned} of {n} ({r.mentioned / n:.0%})" if n else "0",
            str(r.volunteered),
            str(r.raised),
            reactions_text(r.reactions),
            f"{r.ladders} ({r.laddered})",
        ]
        for r in table_.rows
    ]


def element_title(table_: ConceptElements) -> str:
    return f"Stimulus elements: {table_.concept_name} ({table_.concept_id}), " + plural(
        table_.sessions, "session"
    )


def _elements_md(report: Report) -> list[str]:
    out: list[str] = []
    for t in report.elements:
        out += [
            f"## {md_escape(element_title(t))}",
            "",
            md_escape(ELEMENT_NOTE),
            "",
            table(ELEMENT_HEADERS, element_rows(t), ELEMENT_ALIGN),
            "",
        ]
    return out


def question_rows(report: Report) -> list[list[str]]:
    """The question report card per session, then over all of them."""
    rows = [[r.id, *card_cells(r.question_card)] for r in report.sessions]
    return rows + [
        [f"all {report.aggregate.sessions}", *card_cells(report.aggregate.question_card)]
    ]


def unmatched_merge_lines(report: Report) -> list[str]:
    return [
        f"'{label}' (code '{code}') matches no label in these sessions"
        for code, label in report.unmatched_merges
    ]


def matrix_codes(matrix: ImplicationMatrix) -> tuple[list[str], list[str]]:
    """Rows (codes with an outgoing relation) and columns (with an incoming one)."""
    cells = matrix.cells()
    sources = {c.source for c in cells}
    targets = {c.target for c in cells}
    return [c for c in matrix.codes if c in sources], [c for c in matrix.codes if c in targets]


@dataclass(frozen=True)
class MatrixWindow:
    """The part of the implication matrix a report shows (:func:`matrix_window`)."""

    rows: list[str]
    cols: list[str]
    codes: int  # codes in the whole matrix (with any relation)
    hidden: int  # of those, not shown
    cutoff: int

    def note(self) -> str:
        """What was left out and how to see it; empty when nothing was."""
        if not self.hidden:
            return ""
        if not self.rows:
            return (
                f"No relation reaches the cut-off ({self.cutoff}): --full-matrix shows all "
                f"{self.codes} codes, --json every cell."
            )
        return (
            f"Showing {self.codes - self.hidden} of {self.codes} codes: {self.hidden} with no "
            f"relation at or above the cut-off ({self.cutoff}) are hidden; --full-matrix shows "
            "them, --json has every cell."
        )


def matrix_window(section: MethodSection, full: bool = False) -> MatrixWindow:
    """The codes worth showing: those with a relation at or above the HVM cut-off
    (``implication.codes_at_cutoff``), or every code with ``full``."""
    assert section.ladder is not None
    m, cutoff = section.ladder.matrix, section.ladder.hvm.cutoff
    all_rows, all_cols = matrix_codes(m)
    rows, cols = (all_rows, all_cols) if full else codes_at_cutoff(m, cutoff)
    codes = len(set(all_rows) | set(all_cols))
    return MatrixWindow(rows, cols, codes, codes - len(set(rows) | set(cols)), cutoff)


def _section_md(s: MethodSection, top: int, *, full_matrix: bool = False) -> list[str]:
    book = s.codebook
    out = [f"## {s.methodology} (version {s.version}): {plural(len(s.session_ids), 'session')}", ""]
    for sheet in s.sheets:
        out += [f"Ladders coded by hand: {md_escape(sheet)}.", ""]
    if s.concepts:
        # Sessions are grouped by methodology only: name the concepts pooled here.
        out += [f"Concepts (sessions): {md_escape(s.concepts_text())}.", ""]
    out += _codes_md(book)
    if s.ladder is not None:
        out += _ladder_md(s, s.ladder, full_matrix)
    if s.structure is not None:
        out += _structure_md(book, s.structure, top)
    if s.journey is not None:
        out += journey_markdown(s.journey)
    if s.grid is not None:
        out += grid_markdown(s.grid)
    return out


def _codes_md(book: CodeBook) -> list[str]:
    out: list[str] = []
    out += ["### Content codes", ""]
    out.append(
        table(
            ("code", "name", "type", "respondents", "mentions", "said as", "from"),
            (
                (
                    c.id,
                    c.name,
                    c.node_type,
                    c.respondents,
                    c.mentions,
                    "; ".join(c.variants[:5]) + (" …" if len(c.variants) > 5 else ""),
                    c.source,
                )
                for c in book.codes
            ),
            "lllrrll",
        )
    )
    out.append("")
    return out


def _ladder_md(s: MethodSection, ladder: LadderAnalysis, full_matrix: bool) -> list[str]:
    """The implication matrix and the hierarchical value map of a laddering section."""
    book = s.codebook
    out: list[str] = []
    m, hvm = ladder.matrix, ladder.hvm
    window = matrix_window(s, full_matrix)
    rows, cols = window.rows, window.cols
    out += [
        "### Implication matrix",
        "",
        f"Cells are *direct.indirect* counts (Reynolds & Gutman 1988) over "
        f"{plural(m.respondents, 'respondent')} and {m.ladders_text()}, counted "
        f"{m.counting_text()}; relations are counted within a ladder, never across "
        f"ladders; rows lead to columns; {m.total_links} links in all.",
        "",
    ]
    if window.note():
        out += [md_escape(window.note()), ""]
    if rows:
        body = []
        for r in rows:
            cells = [m.cell(r, c) for c in cols]
            body.append(
                [f"{r} {book.code(r).name}"] + [x.notation() if x.total else "" for x in cells]
            )
        out.append(table(["from \\ to", *cols], body, "l" + "r" * len(cols)))
    elif not window.codes:
        out.append("No ladder relations between codes yet.")
    target = f" (chosen to keep at least {hvm.keep_share:.0%})" if hvm.keep_share else " (given)"
    out += [
        "",
        "### Hierarchical value map",
        "",
        f"Cut-off **{hvm.cutoff}**{target}: keeps **{hvm.share_kept:.0%}** of all links, "
        f"{hvm.relations_kept} of {hvm.relations_total} relations; {len(hvm.codes)} codes "
        f"on the map. Solid: direct links; dashed: indirect only. Labels: direct.indirect.",
        "",
        "```mermaid",
        to_mermaid(ladder.drawing).rstrip(),
        "```",
        "",
        "<details><summary>Graphviz DOT</summary>",
        "",
        "```dot",
        to_dot(ladder.drawing, name="HVM").rstrip(),
        "```",
        "",
        "</details>",
        "",
    ]
    return out


def _structure_md(book: CodeBook, st: StructureAnalysis, top: int) -> list[str]:
    """Node types, the most frequent connections and the hubs of a non-laddering section."""
    out: list[str] = []
    out += ["### Node types", ""]
    out.append(
        table(
            ("type", "level", "nodes", "sessions", "codes"),
            (
                (t["node_type"], t["level"], t["nodes"], t["sessions"], t["codes"])
                for t in st.node_types
            ),
            "lrrrr",
        )
    )
    out += ["", "### Most frequent connections", ""]
    out.append(
        table(
            ("from", "relation", "to", "respondents"),
            (
                (book.code(c.source).name, c.relation, book.code(c.target).name, c.respondents)
                for c in st.connections[:top]
            ),
            "lllr",
        )
    )
    if st.hubs:
        out += ["", f"### Each {st.hub_type} with what it connects to", ""]
        for hub in st.hubs:
            code = book.code(hub.code)
            out.append(f"- **{md_escape(code.name)}** ({plural(code.respondents, 'respondent')})")
            for kind, items in hub.neighbours.items():
                names = ", ".join(f"{md_escape(book.code(cid).name)} ({n})" for cid, n in items[:6])
                out.append(f"  - {kind.replace('_', ' ')}: {names}")
    out += ["", "```mermaid", to_mermaid(st.drawing).rstrip(), "```", ""]
    return out


def _metrics_md(report: Report) -> list[str]:
    """The metrics per session and over all, then the question report card with its legend."""
    legend = card_legend()
    return [
        "## Metrics",
        "",
        table(
            METRIC_HEADERS,
            [*map(metric_row, report.sessions), aggregate_row(report.aggregate)],
            "lrlrrrrrllrr",
        ),
        "",
        "## Questions",
        "",
        table(QUESTION_HEADERS, question_rows(report), "lrrrrrrrr"),
        "",
        md_escape(legend[0]),
        "",
        *(f"- {md_escape(line)}" for line in legend[1:]),
        "",
    ]


def report_markdown(report: Report) -> str:
    a = report.aggregate
    out = [
        "# Interview report",
        "",
        f"{plural(a.sessions, 'session')}, {plural(a.turns_total, 'answered turn')}, "
        f"{', '.join(f'{k} {v}' for k, v in a.by_status.items())}."
        if report.sessions
        else "No interview sessions: ladders from coding sheets only.",
        "",
    ]
    if report.sessions:  # a report over coding sheets alone has no interview metrics
        out += _metrics_md(report)
    if report.selection is not None:
        out += [f"Sessions: {md_escape(report.selection.describe())}", ""]
    if report.where:
        out += [f"Sessions whose participant has {where_text(report.where)}.", ""]
    if report.participants:
        out += [
            "## Participants",
            "",
            table(PARTICIPANT_HEADERS, map(participant_row, report.participants), "lllr"),
            "",
        ]
    if a.recall_sessions:
        out += [
            f"Ground-truth recall over {plural(a.recall_sessions, 'simulated session')}: mean "
            f"{a.recall_mean:.0%}, median {a.recall_median:.0%}.",
            "",
        ]
    out += _elements_md(report)
    if report.dual_graph:
        out += [
            "## Surface vs canonical graph",
            "",
            DUAL_GRAPH_NOTE,
            "",
            table(DUAL_GRAPH_HEADERS, map(dual_graph_row, report.dual_graph), "lrrrrrr"),
            "",
        ]
    for section in report.sections:
        out += _section_md(section, report.options.top, full_matrix=report.options.full_matrix)
    if report.unmatched_merges:
        out += ["## Unmatched merges", ""]
        out += [f"- {md_escape(line)}" for line in unmatched_merge_lines(report)] + [""]
    if report.skipped:
        out += ["## Skipped files", ""] + [f"- {md_escape(s)}" for s in report.skipped] + [""]
    return "\n".join(out).rstrip() + "\n"
