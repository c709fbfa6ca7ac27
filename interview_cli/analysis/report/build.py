"""``interview report``: what a set of sessions says, per session and together.

:func:`build_report` turns session files into one :class:`Report` value that every output
format renders (terminal, Markdown, HTML, JSON), so the formats cannot disagree:

- metrics per session and in aggregate (``metrics``);
- for concept tests, each stimulus element across its concept's sessions: respondents who
  mentioned it, the reactions, the ladders from it (``elements``);
- per methodology, content codes shared by its sessions (``codes``), then
  - for ``means_end_chain``: the implication matrix over the ladder relations, the cut-off and
    the hierarchical value map (``implication``), drawn by ``drawing``;
  - for other methods: the most frequent node types, codes and connections, and for the "hub"
    type (the one linked to the most other types, e.g. the job statement of Jobs-to-be-Done)
    each frequent hub code with its neighbours by type (a job with its pains and gains).

Ladder relations are the ontology's upward edge types (some permitted connection goes from a
lower to a higher level: ``leads_to`` in MEC), so same-level edges such as ``contrasts_with``
or ``revises`` do not become means-end links.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from interview_cli.analysis.export.drawing import DrawEdge, Drawing, DrawNode, level_names
from interview_cli.analysis.report.codes import (
    CodeBook,
    RespondentGraph,
    build_codebook,
    graph_ladders,
    slot_names,
    unmatched_merges,
)
from interview_cli.analysis.report.elements import ConceptElements, element_tables
from interview_cli.analysis.report.implication import (
    DEFAULT_KEEP_SHARE,
    HVM,
    ImplicationMatrix,
    build_hvm,
    ladder_matrix,
)
from interview_cli.analysis.report.ladder_sheet import LadderSheet, sheets_graphs
from interview_cli.analysis.report.metrics import (
    AggregateMetrics,
    SessionMetrics,
    aggregate,
    metrics_for,
)
from interview_cli.analysis.report.participants import ParticipantRow, participant_rows
from interview_cli.analysis.report.selection import Selection
from interview_cli.analysis.report.shapes import (
    GridAnalysis,
    JourneyAnalysis,
    grid_analysis,
    journey_analysis,
)
from interview_cli.analysis.sources import (
    SessionSource,
    methodology_groups,
    said_graph,
    session_graph,
    snapshot_methodology,
)
from interview_cli.config.plurals import plural
from interview_cli.config.schemas import Methodology
from interview_cli.core.graph.dedup import Embedder

LADDER_METHOD = "means_end_chain"


@dataclass(frozen=True)
class ReportOptions:
    keep_share: float = DEFAULT_KEEP_SHARE
    cutoff: int | None = None
    merges: Mapping[str, Sequence[str]] | None = None
    top: int = 12
    use_slots: bool = True  # code by canonical slots where the sessions recorded them
    # group codes that say the same thing in other words across sessions (codes.py)
    group_by_meaning: bool = True
    counting: str = "ladder"  # implication.COUNTING_RULES
    full_matrix: bool = False  # every code in the implication matrix, not only those at cut-off


@dataclass(frozen=True)
class Connection:
    source: str  # code id
    relation: str
    target: str
    respondents: int


@dataclass(frozen=True)
class Hub:
    code: str
    neighbours: dict[str, list[tuple[str, int]]]  # node type -> [(code id, respondents)]


@dataclass
class LadderAnalysis:
    matrix: ImplicationMatrix
    hvm: HVM
    drawing: Drawing


@dataclass
class StructureAnalysis:
    node_types: list[dict[str, Any]]
    type_links: list[dict[str, Any]]
    connections: list[Connection]
    hub_type: str | None
    hubs: list[Hub]
    drawing: Drawing


@dataclass(frozen=True)
class ConceptCount:
    id: str
    name: str
    sessions: int


@dataclass
class MethodSection:
    methodology: str
    version: str
    session_ids: list[str]
    codebook: CodeBook
    levels: dict[str, int]
    level_names: dict[int, str]
    ladder: LadderAnalysis | None = None
    structure: StructureAnalysis | None = None
    # Sessions are grouped by methodology only, so one section may pool interviews about
    # different concepts into one matrix and map; the reader must be told which ones.
    concepts: list[ConceptCount] = field(default_factory=list)
    # Coding sheets whose hand-coded ladders joined this section ("file: 3 respondents, 7 ladders").
    sheets: list[str] = field(default_factory=list)
    # Methodologies of shape journey / grid: the journey maps and the grids.
    journey: JourneyAnalysis | None = None
    grid: GridAnalysis | None = None

    def concepts_text(self) -> str:
        """Each concept with its session count: "Oat milk (oat_milk_mec) 2, ..."."""
        return ", ".join(f"{c.name} ({c.id}) {c.sessions}" for c in self.concepts)

    def code_name(self, code_id: str) -> str:
        return self.codebook.code(code_id).name


@dataclass
class Report:
    sessions: list[SessionMetrics]
    aggregate: AggregateMetrics
    sections: list[MethodSection]
    options: ReportOptions
    skipped: list[str] = field(default_factory=list)
    # Surface vs canonical graph per session (dual graph; core.canonical).
    dual_graph: list[dict[str, Any]] = field(default_factory=list)
    # Analyst merge labels that no session's node is called: (code name, label).
    unmatched_merges: list[tuple[str, str]] = field(default_factory=list)
    participants: list[ParticipantRow] = field(default_factory=list)
    where: list[tuple[str, str]] = field(default_factory=list)  # the --where selection
    # Concept tests: per concept with stimulus elements, each element across its sessions.
    elements: list[ConceptElements] = field(default_factory=list)
    # Which sessions by status and origin (None: sessions chosen by the caller, or none).
    selection: Selection | None = None


def ladder_relations(methodology: Methodology) -> set[str]:
    levels = methodology.ontology.levels
    upward = {
        e.name
        for e in methodology.ontology.edges
        if any(levels.get(a, 0) < levels.get(b, 0) for a, b in e.permitted_connections)
    }
    return upward or {e.name for e in methodology.ontology.edges}


def _graphs(sources: Sequence[SessionSource], use_slots: bool) -> list[RespondentGraph]:
    return [
        RespondentGraph(
            id=s.session.id,
            graph=said_graph(s.session, str(s.path)),
            slots=slot_names(s.session.canonical) if use_slots else {},
        )
        for s in sources
    ]


def code_ladders(
    book: CodeBook, respondent: int, graph: RespondentGraph, relations: set[str]
) -> list[list[str]]:
    """The respondent's ladders as code sequences (rungs without a code are left out)."""
    node_ladders = (
        graph.ladders if graph.ladders is not None else graph_ladders(graph.graph, relations)
    )
    out = []
    for ladder in node_ladders:
        codes = [c for n in ladder if (c := book.code_of(respondent, n)) is not None]
        if len(codes) > 1:
            out.append(codes)
    return out


def _tooltip(section_codes: CodeBook, code_id: str) -> str:
    c = section_codes.code(code_id)
    variants = ", ".join(c.variants[:6]) + (" …" if len(c.variants) > 6 else "")
    return (
        f"{c.name} [{c.node_type}] - {plural(c.respondents, 'respondent')}, "
        f"{plural(c.mentions, 'mention')}; "
        f"said as: {variants}"
    )


def _ladder(
    section: MethodSection,
    graphs: list[RespondentGraph],
    relations: set[str],
    options: ReportOptions,
) -> LadderAnalysis:
    book = section.codebook
    ladders = [code_ladders(book, i, g, relations) for i, g in enumerate(graphs)]
    matrix = ladder_matrix(ladders, counting=options.counting, order=[c.id for c in book.codes])
    hvm = build_hvm(matrix, cutoff=options.cutoff, keep_share=options.keep_share)
    nodes = tuple(
        DrawNode(
            cid,
            book.code(cid).name,
            book.code(cid).level,
            book.code(cid).node_type,
            _tooltip(book, cid),
        )
        for cid in hvm.codes
    )
    edges = tuple(
        DrawEdge(
            link.source,
            link.target,
            f"{link.direct}.{link.indirect}",
            link.total,
            dashed=link.kind == "indirect",
        )
        for link in hvm.links
    )
    title = (
        f"Hierarchical value map - {plural(len(graphs), 'respondent')}, "
        f"{matrix.ladders_text()} "
        f"counted per {matrix.counting}, cut-off {hvm.cutoff}, {hvm.share_kept:.0%} of links"
    )
    return LadderAnalysis(matrix, hvm, Drawing(title, nodes, edges, section.level_names))


def _structure(
    section: MethodSection, graphs: list[RespondentGraph], options: ReportOptions
) -> StructureAnalysis:
    book = section.codebook
    type_nodes, type_sessions, type_links, connections = _type_counts(section, graphs)
    node_types = [
        {
            "node_type": t,
            "level": section.levels.get(t, 0),
            "nodes": type_nodes[t],
            "sessions": type_sessions[t],
            "codes": sum(1 for c in book.codes if c.node_type == t),
        }
        for t in sorted(type_nodes, key=lambda t: (-type_nodes[t], t))
    ]
    top_links = [
        {"source_type": a, "relation": r, "target_type": b, "edges": n}
        for (a, r, b), n in sorted(type_links.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
    ranked = sorted(connections.items(), key=lambda kv: (-kv[1], kv[0]))
    top = [Connection(a, r, b, n) for (a, r, b), n in ranked[: options.top * 2]]
    hub_type, hubs = _hubs(section, type_links, connections, options)
    drawing = _connections_drawing(section, len(graphs), top)
    return StructureAnalysis(node_types, top_links, top, hub_type, hubs, drawing)


_Link = tuple[str, str, str]


def _type_counts(
    section: MethodSection, graphs: list[RespondentGraph]
) -> tuple[Counter[str], Counter[str], Counter[_Link], Counter[_Link]]:
    """Nodes and sessions per node type, links per (type, relation, type), and connections
    between codes counted once per respondent."""
    book = section.codebook
    type_nodes: Counter[str] = Counter()
    type_sessions: Counter[str] = Counter()
    type_links: Counter[_Link] = Counter()
    connections: Counter[_Link] = Counter()
    for i, g in enumerate(graphs):
        types = g.graph.node_types()
        type_nodes.update(types.values())
        type_sessions.update(set(types.values()))
        mine: set[_Link] = set()
        for rel in g.graph.edges():
            type_links[(types[rel.source], rel.relation, types[rel.target])] += 1
            a, b = book.code_of(i, rel.source), book.code_of(i, rel.target)
            if a and b and a != b:
                mine.add((a, rel.relation, b))
        connections.update(mine)  # each respondent once
    return type_nodes, type_sessions, type_links, connections


def _hubs(
    section: MethodSection,
    type_links: Counter[_Link],
    connections: Counter[_Link],
    options: ReportOptions,
) -> tuple[str | None, list[Hub]]:
    """The hub type (linked to the most other node types; ties: the higher level) and its top
    codes, each with the codes it connects to grouped by type."""
    book = section.codebook
    partners: dict[str, set[str]] = {}
    for a, _, b in type_links:
        if a != b:
            partners.setdefault(a, set()).add(b)
            partners.setdefault(b, set()).add(a)
    hub_type = (
        max(partners, key=lambda t: (len(partners[t]), section.levels.get(t, 0), t))
        if partners
        else None
    )
    hubs: list[Hub] = []
    if hub_type is None:
        return hub_type, hubs
    hub_codes = [c for c in book.codes if c.node_type == hub_type]
    hub_codes.sort(key=lambda c: (-c.respondents, c.name))
    for code in hub_codes[: options.top]:
        by_type: dict[str, Counter[str]] = {}
        for (a, _, b), n in connections.items():
            other = b if a == code.id else a if b == code.id else None
            if other is not None:
                kind = book.code(other).node_type
                by_type.setdefault(kind, Counter())[other] += n
        hubs.append(
            Hub(
                code.id,
                {
                    t: sorted(cnt.items(), key=lambda kv: (-kv[1], book.code(kv[0]).name))
                    for t, cnt in sorted(by_type.items())
                },
            )
        )
    return hub_type, hubs


def _connections_drawing(section: MethodSection, sessions: int, top: list[Connection]) -> Drawing:
    book = section.codebook
    shown = {x for c in top for x in (c.source, c.target)}
    return Drawing(
        f"Most frequent connections - {plural(sessions, 'session')}",
        tuple(
            DrawNode(
                cid,
                book.code(cid).name,
                book.code(cid).level,
                book.code(cid).node_type,
                _tooltip(book, cid),
            )
            for cid in (c.id for c in book.codes)
            if cid in shown
        ),
        tuple(
            DrawEdge(c.source, c.target, f"{c.relation} ({c.respondents})", c.respondents)
            for c in top
        ),
        section.level_names,
    )


def build_section(
    methodology: Methodology,
    sources: Sequence[SessionSource],
    options: ReportOptions,
    *,
    graphs: Sequence[RespondentGraph] | None = None,
    embedder: Embedder | None = None,
) -> MethodSection:
    """One methodology's analysis; ``graphs``: the sources' graphs, if already parsed;
    ``embedder``: the embedding tier for grouping codes by meaning (None: words)."""
    levels = methodology.ontology.levels
    graphs = list(graphs) if graphs is not None else _graphs(sources, options.use_slots)
    section = MethodSection(
        methodology=methodology.name,
        version=methodology.method.version,
        session_ids=[s.session.id for s in sources],
        codebook=build_codebook(
            graphs,
            levels=levels,
            merges=options.merges,
            by_meaning=options.group_by_meaning,
            embedder=embedder,
        ),
        levels=levels,
        level_names=level_names([(n.name, n.level) for n in methodology.ontology.nodes]),
        concepts=concept_counts(sources),
    )
    if methodology.name == LADDER_METHOD:
        section.ladder = _ladder(section, graphs, ladder_relations(methodology), options)
    else:
        section.structure = _structure(section, graphs, options)
    parsed = {g.id: g.graph for g in graphs}  # the graphs parsed above, not parsed again
    if methodology.shape == "journey":
        section.journey = journey_analysis(methodology, sources, parsed)
    elif methodology.shape == "grid":
        section.grid = grid_analysis(methodology, sources, parsed)
    return section


def build_report(
    sources: Sequence[SessionSource],
    options: ReportOptions | None = None,
    *,
    skipped: Sequence[str] = (),
    sheets: Sequence[LadderSheet] = (),
    sheet_methodology: Methodology | None = None,
    embedder: Embedder | None = None,
) -> Report:
    """The report over session files and coding sheets (``sheets``, coded by hand).

    A sheet's respondents join the section of ``sheet_methodology`` (means-end chains), pooled
    with its sessions when there are any, so hand-coded and interviewed ladders share codes,
    one implication matrix and one map. ``embedder``: the embedding tier for grouping codes
    by meaning (None: words).
    """
    options = options or ReportOptions()
    rows = metrics_for(sources)
    # Each session's graph is parsed once, for its section and for the merge check alike
    # (keyed by object: the groups hold the very sources passed in).
    graphs = _graphs(sources, options.use_slots)
    graph_of = {id(s): g for s, g in zip(sources, graphs, strict=True)}
    groups = methodology_groups(sources)
    if sheets and sheet_methodology is None:
        raise ValueError("coding sheets need the methodology their levels belong to")
    sheet_name = sheet_methodology.name if sheet_methodology is not None and sheets else None
    sheet_graphs = sheets_graphs(sheets, sheet_methodology) if sheet_methodology else []
    if sheet_name is not None and sheet_name not in groups:
        groups[sheet_name] = []
    sections = []
    for name, group in groups.items():
        extra = sheet_graphs if name == sheet_name else []
        # The first session's snapshot stands for the group (same name, normally same file).
        methodology = snapshot_methodology(group[0].session) if group else sheet_methodology
        assert methodology is not None
        section = build_section(
            methodology,
            group,
            options,
            graphs=[graph_of[id(s)] for s in group] + extra,
            embedder=embedder,
        )
        if extra:
            section.sheets = [sheet.describe() for sheet in sheets]
        sections.append(section)
    return Report(
        rows,
        aggregate(rows),
        sections,
        options,
        list(skipped),
        dual_graph_rows(sources),
        unmatched_merges=unmatched_merges(
            (g.graph for g in [*graphs, *sheet_graphs]), options.merges
        ),
        participants=participant_rows(rows),
        elements=element_tables([s.session for s in sources], {g.id: g.graph for g in graphs}),
    )


def concept_counts(sources: Sequence[SessionSource]) -> list[ConceptCount]:
    """The concepts of a group's sessions, most sessions first (ties: first seen)."""
    counts: Counter[str] = Counter()
    names: dict[str, str] = {}
    for s in sources:
        counts[s.session.concept.id] += 1
        names.setdefault(s.session.concept.id, s.session.concept.name)
    return [ConceptCount(cid, names[cid], n) for cid, n in counts.most_common()]


def dual_graph_rows(sources: Sequence[SessionSource]) -> list[dict[str, Any]]:
    """Seed 002's surface-vs-canonical figures for every session that kept canonical slots."""
    from interview_cli.core.canonical.slots import CanonicalState, dual_graph_comparison

    rows = []
    for s in sources:
        session = s.session
        if not session.settings.enable_canonical_slots or not session.graph.get("nodes"):
            continue
        canonical = CanonicalState.from_dict(session.canonical)
        figures = dual_graph_comparison(session_graph(session, str(s.path)), canonical)
        rows.append({"id": session.id, **figures})
    return rows
