"""Rich views for ``interview report``: metrics, content codes, the implication matrix and a
readable terminal rendering of the hierarchical value map (most abstract level first, each code
with the links that lead into it)."""

from __future__ import annotations

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.pager import Pager
from rich.rule import Rule
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from interview_cli.analysis.report.build import MethodSection, Report
from interview_cli.analysis.report.implication import most_linked_codes
from interview_cli.analysis.report.question_card import CARD_HEADERS, card_cells, card_legend
from interview_cli.analysis.report.shapes import valence_bar
from interview_cli.analysis.report.to_markdown import (
    ELEMENT_ALIGN,
    ELEMENT_HEADERS,
    ELEMENT_NOTE,
    PARTICIPANT_HEADERS,
    element_rows,
    element_title,
    fmt_recall,
    fork_note,
    matrix_window,
    mix,
    participant_row,
    unmatched_merge_lines,
    where_text,
)
from interview_cli.config.plurals import plural
from interview_cli.llm.spend import format_cost
from interview_cli.ui.interview import dual_graph_table
from interview_cli.ui.why import ended_because

MATRIX_MAX_CODES = 14
MATRIX_NAME_WIDTH = 26  # the row names' column, with the table's edges
MATRIX_CELL_WIDTH = 7  # a count such as "12.34" with its padding


NUMBER_COLUMNS = ("turns", "nodes", "edges", "e/n", "depth", "chains", "value", "recall")


class SessionTables:
    """The numbers per session, then how each session went. Session ids are never broken
    inside (they are typed back into other commands): when the longest does not fit beside
    the numbers at the terminal's width, rows are keyed #1, #2... and the ids are listed
    below, whole."""

    def __init__(self, report: Report) -> None:
        self.report = report

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        sessions = self.report.sessions
        longest = max((len(r.id) for r in sessions), default=0)
        need = longest + sum(len(n) for n in NUMBER_COLUMNS) + 3 * len(NUMBER_COLUMNS) + 2
        keys = [f"#{i}" for i in range(1, len(sessions) + 1)] if need > options.max_width else []
        names = keys or [r.id for r in sessions]
        yield _numbers_table(self.report, names)
        yield _how_table(self.report, names, keyed=bool(keys))
        yield questions_table(self.report, names)
        if keys:
            legend = Table.grid(padding=(0, 1))
            legend.add_column(no_wrap=True, justify="right")
            legend.add_column(overflow="fold")
            for key, r in zip(keys, sessions, strict=True):
                legend.add_row(key, Text(r.id + (f" ({fork_note(r)})" if r.fork_of else "")))
            yield legend


def metrics_tables(report: Report) -> list[RenderableType]:
    return [SessionTables(report)]


def _numbers_table(report: Report, names: list[str]) -> Table:
    a = report.aggregate
    numbers = Table(
        title="Metrics per session", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False
    )
    numbers.add_column("session", no_wrap=True)
    for name in NUMBER_COLUMNS:
        numbers.add_column(name, justify="right", no_wrap=True)
    for name, r in zip(names, report.sessions, strict=True):
        values = [name, r.turns, r.nodes, r.edges, f"{r.edge_node_ratio:.2f}", r.max_depth]
        values += [r.chains_completed, "yes" if r.terminal_reached else "no", fmt_recall(r.recall)]
        numbers.add_row(*_cells(*map(str, values)))
    # A mean like the other figures of the row, not the sum of chains.
    chains_mean = a.chains_completed_total / a.sessions if a.sessions else 0.0
    totals = [f"all {a.sessions} (mean)", f"{a.turns_mean:g}", f"{a.nodes_mean:g}"]
    totals += [f"{a.edges_mean:g}", f"{a.edge_node_ratio_mean:.2f}", f"{a.max_depth_mean:g}"]
    totals += [f"{chains_mean:.3g}", f"{a.terminal_reached_share:.0%}"]
    totals += [fmt_recall(a.recall_mean)]
    numbers.add_row(*_cells(*totals), style="bold")
    return numbers


def _how_table(report: Report, names: list[str], *, keyed: bool = False) -> Table:
    """How each session went; a fork says so (with its origin when ids are shown whole,
    else in the legend of keys below)."""
    a = report.aggregate
    how = Table(
        title="How each session went", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False
    )
    # The session cell never wraps; the cells of several words wrap between words.
    how.add_column("session", no_wrap=True)
    how.add_column("status")
    how.add_column("cost", justify="right", no_wrap=True)
    how.add_column("ended because")
    how.add_column("strategy mix")
    for name, r in zip(names, report.sessions, strict=True):
        persona = f"({r.persona})" if r.persona else ""
        who = " ".join(x for x in (persona, f"[{r.participant}]" if r.participant else "") if x)
        fork = f"fork at turn {r.fork_turn}" if keyed and r.fork_of else fork_note(r)
        who = "\n".join(x for x in (who, fork) if x)
        how.add_row(
            *_cells(
                name + (f"\n{who}" if who else ""),
                r.status,
                format_cost(r.cost_usd, r.unpriced),
                ended_because(r.termination_reason),
                mix(r.strategy_mix),
            )
        )
    how.add_row(
        *_cells(
            f"all {a.sessions}",
            ", ".join(f"{k} {v}" for k, v in a.by_status.items()),
            format_cost(a.cost_usd_total, a.unpriced),
            ", ".join(
                f"{'not ended' if k == '—' else ended_because(k)} {v}"
                for k, v in a.termination_reasons.items()
            ),
            mix(a.strategy_mix, limit=6),
        ),
        style="bold",
    )
    return how


def questions_table(report: Report, names: list[str]) -> Table:
    """The question report card per session and over all, its legend as the caption."""
    table = Table(
        title="Questions (per 100 asked)",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        caption="\n".join(card_legend()),
        caption_justify="left",
    )
    table.add_column("session", no_wrap=True)
    for name in CARD_HEADERS:
        table.add_column(name, justify="right")
    for name, r in zip(names, report.sessions, strict=True):
        table.add_row(*_cells(name, *card_cells(r.question_card)))
    a = report.aggregate
    table.add_row(*_cells(f"all {a.sessions}", *card_cells(a.question_card)), style="bold")
    return table


def _cells(*values: str) -> list[Text]:
    # Labels come from respondents' words: never let Rich read "[...]" in them as markup.
    return [Text(v) for v in values]


def codes_table(section: MethodSection, limit: int) -> Table:
    codes = sorted(section.codebook.codes, key=lambda c: (-c.respondents, -c.mentions, c.id))
    table = Table(
        title=f"Content codes ({len(codes)}; top {min(limit, len(codes))} by respondents)",
        title_justify="left",
        box=box.SIMPLE_HEAD,
    )
    for col in ("code", "name", "type", "resp.", "mentions", "said as"):
        table.add_column(
            col, justify="right" if col in ("resp.", "mentions") else "left", overflow="fold"
        )
    for c in codes[:limit]:
        table.add_row(
            *_cells(
                c.id,
                c.name,
                c.node_type.replace("_", " "),
                str(c.respondents),
                str(c.mentions),
                "; ".join(c.variants[:3]) + (" …" if len(c.variants) > 3 else ""),
            )
        )
    return table


class MatrixView:
    """The implication matrix at the console's width: as many code columns as fit beside the
    row names, at most :data:`MATRIX_MAX_CODES` (see :func:`matrix_table`)."""

    def __init__(self, section: MethodSection, full: bool = False) -> None:
        self.section, self.full = section, full

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        fit = (options.max_width - MATRIX_NAME_WIDTH) // MATRIX_CELL_WIDTH
        yield matrix_table(self.section, self.full, limit=max(4, min(MATRIX_MAX_CODES, fit)))


def matrix_table(
    section: MethodSection, full: bool = False, limit: int | None = None
) -> RenderableType:
    """The codes at the cut-off (``report.to_markdown.matrix_window``); when they are more than
    ``limit`` (default :data:`MATRIX_MAX_CODES`), the most linked of them. With ``full``,
    every code, its columns in blocks of ``limit`` one under the other."""
    assert section.ladder is not None
    m, hvm = section.ladder.matrix, section.ladder.hvm
    limit = limit or MATRIX_MAX_CODES
    window = matrix_window(section, full)
    rows, cols = window.rows, window.cols
    if not rows:
        return Text(window.note() or "No ladder relations between codes yet.", style="dim")
    linked = list(dict.fromkeys(rows + cols))
    title = Text(f"Implication matrix, direct.indirect, counted {m.counting_text()}")
    if window.note():
        title.append(f"\n{window.note()}", style="yellow")
    if full and len(cols) > limit:
        blocks = [cols[i : i + limit] for i in range(0, len(cols), limit)]
        title.append(f"\nall {len(linked)} codes; columns in {len(blocks)} blocks")
        return Group(
            title,
            *(
                _matrix_grid(section, rows, block, Text(f"columns {block[0]} to {block[-1]}"))
                for block in blocks
            ),
        )
    if len(linked) > limit and not full:
        # One set of codes for rows and columns, chosen by how many links they carry (each
        # level's most linked first, so value columns stay), not the first N of each axis.
        levels = {c: section.codebook.code(c).level for c in linked}
        shown = set(most_linked_codes(m, limit, levels, among=linked, min_total=hvm.cutoff))
        # A chosen code whose links all lead outside the window would be an empty line.
        rows = [r for r in rows if r in shown and any(m.cell(r, c).total for c in shown)]
        cols = [c for c in cols if c in shown and any(m.cell(r, c).total for r in rows)]
        count = len(set(rows) | set(cols))
        title.append(
            f"\ncut to fit: showing {count} of these {len(linked)} codes, those with the most "
            "links (each level's most linked included); --format md or html has them all",
            style="yellow",
        )
    return _matrix_grid(section, rows, cols, title)


def _matrix_grid(section: MethodSection, rows: list[str], cols: list[str], title: Text) -> Table:
    assert section.ladder is not None
    m, hvm = section.ladder.matrix, section.ladder.hvm
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
    # A row is one line: its code id first, the name cut if need be (the codes table above
    # has it whole); a count is never cut.
    table.add_column("from \\ to", max_width=MATRIX_NAME_WIDTH - 4, no_wrap=True)
    for c in cols:
        table.add_column(Text(c), justify="center", no_wrap=True)
    for r in rows:
        cells = []
        for c in cols:
            cell = m.cell(r, c)
            text = cell.notation() if cell.total else ""
            kept = cell.total and cell.total >= hvm.cutoff
            cells.append(Text(text, style="bold green" if kept else ""))
        table.add_row(Text(f"{r} {section.code_name(r)}"), *cells)
    return table


def hvm_tree(section: MethodSection) -> Tree:
    """Levels top-down; under each code, the codes that lead to it."""
    assert section.ladder is not None
    hvm = section.ladder.hvm
    book = section.codebook
    target = f"chosen to keep ≥{hvm.keep_share:.0%}" if hvm.keep_share else "given"
    root = Tree(
        Text.assemble(
            ("Hierarchical value map", "bold"),
            f"  cut-off {hvm.cutoff} ({target}) keeps {hvm.share_kept:.0%} of links, "
            f"{hvm.relations_kept}/{hvm.relations_total} relations",
        )
    )
    incoming: dict[str, list[str]] = {}
    for link in hvm.links:
        arrow = "⇠" if link.kind == "indirect" else "←"
        incoming.setdefault(link.target, []).append(
            f"{arrow} {book.code(link.source).name}  ({link.direct}.{link.indirect})"
        )
    levels = sorted({book.code(c).level for c in hvm.codes}, reverse=True)
    for level in levels:
        name = section.level_names.get(level, f"level {level}")
        branch = root.add(Text(name, style="bold cyan"))
        for cid in (c for c in hvm.codes if book.code(c).level == level):
            code = book.code(cid)
            node = branch.add(
                Text.assemble((code.name, "bold"), (f"  {cid}, {code.respondents} resp.", "dim"))
            )
            for line in incoming.get(cid, []):
                node.add(Text(line))
    if not hvm.links:
        root.add(Text("(no links reach the cut-off)", style="dim"))
    return root


def structure_views(section: MethodSection, limit: int) -> list[RenderableType]:
    assert section.structure is not None
    st, book = section.structure, section.codebook
    types = Table(title="Node types", title_justify="left", box=box.SIMPLE_HEAD)
    for col in ("type", "level", "nodes", "sessions", "codes"):
        types.add_column(col, justify="left" if col == "type" else "right")
    for t in st.node_types:
        types.add_row(
            *_cells(
                t["node_type"],
                str(t["level"]),
                str(t["nodes"]),
                str(t["sessions"]),
                str(t["codes"]),
            )
        )
    links = Table(title="Most frequent connections", title_justify="left", box=box.SIMPLE_HEAD)
    for col in ("from", "relation", "to", "resp."):
        links.add_column(col, justify="right" if col == "resp." else "left", overflow="fold")
    for c in st.connections[:limit]:
        links.add_row(
            *_cells(
                book.code(c.source).name, c.relation, book.code(c.target).name, str(c.respondents)
            )
        )
    out: list[RenderableType] = [types, links]
    if st.hubs:
        tree = Tree(Text(f"Each {st.hub_type} with what it connects to", style="bold"))
        for hub in st.hubs:
            code = book.code(hub.code)
            node = tree.add(
                Text.assemble((code.name, "bold"), (f"  {code.respondents} resp.", "dim"))
            )
            for kind, items in hub.neighbours.items():
                names = ", ".join(f"{book.code(cid).name} ({n})" for cid, n in items[:5])
                node.add(Text(f"{kind.replace('_', ' ')}: {names}"))
        out.append(tree)
    return out


def participants_table(report: Report) -> Table:
    title = "Participants" + (f" ({where_text(report.where)})" if report.where else "")
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    for name in PARTICIPANT_HEADERS:
        table.add_column(name, overflow="fold", justify="right" if name == "turns" else "left")
    for p in report.participants:
        table.add_row(*_cells(*participant_row(p)))
    return table


def element_tables(report: Report) -> list[Table]:
    """A concept test's stimulus elements across its sessions, one table per concept."""
    out = []
    for t in report.elements:
        table = Table(
            title=element_title(t),
            title_justify="left",
            caption=ELEMENT_NOTE,
            caption_justify="left",
            box=box.SIMPLE_HEAD,
            pad_edge=False,
        )
        for name, align in zip(ELEMENT_HEADERS, ELEMENT_ALIGN, strict=True):
            table.add_column(name, overflow="fold", justify="right" if align == "r" else "left")
        for row in element_rows(t):
            table.add_row(*_cells(*row))
        out.append(table)
    return out


def show_report(console: Console, report: Report, *, pager: Pager | None = None) -> None:
    """The terminal report. On a terminal, a report taller than the screen goes through a
    pager (``$PAGER``, else ``less``; ``PAGER=cat`` turns it off) instead of scrolling its
    first pages out of sight; piped or redirected, it is printed as it is."""
    view = report_view(report)
    if not console.is_terminal:
        console.print(view)
        return
    height = len(console.render_lines(view, console.options, pad=False))
    if height <= console.height:
        console.print(view)
        return
    with console.pager(pager=pager, styles=False):
        console.print(view)


def report_view(report: Report) -> Group:
    limit = report.options.top
    parts: list[RenderableType] = []
    if report.selection is not None:
        parts.append(Text(f"Sessions: {report.selection.describe()}", style="dim"))
    parts += [*metrics_tables(report)] if report.sessions else []
    if report.participants:
        parts.append(participants_table(report))
    parts += element_tables(report)
    if report.dual_graph:
        parts.append(dual_graph_table(report.dual_graph))
    a = report.aggregate
    if a.recall_sessions:
        parts.append(
            Text(
                f"Ground-truth recall over {plural(a.recall_sessions, 'simulated session')}: "
                f"mean {a.recall_mean:.0%}, median {a.recall_median:.0%}."
            )
        )
    for section in report.sections:
        parts.append(
            Rule(
                Text(
                    f"{section.methodology} {section.version} · "
                    + plural(len(section.session_ids), "session")
                    + "".join(f" · hand-coded {sheet}" for sheet in section.sheets)
                ),
                align="left",
            )
        )
        if section.concepts:
            # Grouped by methodology only: say which concepts this matrix and map pool.
            parts.append(Text(f"Concepts (sessions): {section.concepts_text()}", style="bold"))
        parts.append(codes_table(section, limit))
        if section.ladder is not None:
            parts += [
                MatrixView(section, report.options.full_matrix),
                hvm_tree(section),
                Text("Mermaid / DOT of the map: --format md or html, or --json.", style="dim"),
            ]
        if section.structure is not None:
            parts += structure_views(section, limit)
        parts += shape_views(section)
    # The same wording as md and html: the formats draw one report and must not disagree.
    for line in unmatched_merge_lines(report):
        parts.append(Text(line, style="yellow"))
    for skipped in report.skipped:
        parts.append(Text(f"skipped: {skipped}", style="yellow"))
    return Group(*parts)


def shape_views(section: MethodSection) -> list[RenderableType]:
    """The journey map and emotion curve, or the grids, of a journey / grid methodology."""
    parts: list[RenderableType] = []
    if section.journey is not None:
        journey = section.journey
        curve = Table(title="Emotion curve by stage", title_justify="left", box=box.SIMPLE_HEAD)
        for name in ("stage", "valence", "curve", "sessions"):
            curve.add_column(name)
        for p in journey.curve:
            value = "–" if p.valence is None else f"{p.valence:+.1f}"
            curve.add_row(
                Text(p.stage), value, Text(valence_bar(p.valence, journey.scale)), str(p.sessions)
            )
        parts.append(curve)
        for session_id, jmap in journey.maps:
            table = Table(
                title=f"Journey map: {session_id}", title_justify="left", box=box.SIMPLE_HEAD
            )
            for name in ("stage", "touchpoints / actions", "emotions", "pain points"):
                table.add_column(name)
            for s in jmap.stages:
                table.add_row(
                    Text(s.label + ("" if s.told else " (not told)")),
                    Text("; ".join((*s.touchpoints, *s.actions))),
                    Text("; ".join(e.label for e in s.emotions)),
                    Text("; ".join(p.label for p in s.pains)),
                )
            parts.append(table)
    if section.grid is not None:
        for result in section.grid.grids:
            grid = result.grid
            table = Table(
                title=f"Repertory grid: {result.session_id}",
                title_justify="left",
                box=box.SIMPLE_HEAD,
            )
            table.add_column("construct")
            for element in grid.elements:
                table.add_column(element, justify="right")
            for c in grid.constructs:
                table.add_row(Text(c.label), *("" if r is None else f"{r:g}" for r in c.ratings))
            parts.append(table)
            share = result.first_two_components
            parts.append(
                Text(
                    "First two principal components: "
                    + ("–" if share is None else f"{share:.0%} of the variance")
                    + "; similarities: --format md, html or json."
                )
            )
    return parts
