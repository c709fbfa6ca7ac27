"""``interview export``: one session's graph and turns in formats other tools read.

=========  ===================================================================================
format     for
=========  ===================================================================================
graphml    Gephi, yEd, networkx, igraph: nodes with label, type, level, mentions, first quote;
           edges with relation(s), confidence, turns, quote (written by networkx)
dot        Graphviz (``dot -Tsvg``): bottom-up by ontology level, edges labelled by relation
mermaid    Markdown renderers (GitHub, GitLab, Obsidian)
csv        pandas, R, spreadsheets: a nodes table and an edges table (one row per relation)
jsonl      one JSON object per turn: question, answer, extraction, decision, continuation ...
md         a readable transcript with the concepts extracted from each answer
=========  ===================================================================================

Superseded nodes (merged away by a later correction) are left out of the drawings but kept in
the CSV and GraphML with their ``superseded_by``, so nothing recorded is hidden from analysis.
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import TYPE_CHECKING, Any

import networkx as nx

from interview_cli.analysis.export import CSV, export_format
from interview_cli.analysis.export.drawing import (
    DrawEdge,
    Drawing,
    DrawNode,
    level_names,
    to_dot,
    to_mermaid,
)
from interview_cli.analysis.sources import session_graph, snapshot_methodology
from interview_cli.config.plurals import plural
from interview_cli.core.graph.knowledge import DISOWNED, KnowledgeGraph
from interview_cli.session.schema import SessionFile, TurnRecord

NODE_COLUMNS = (
    "id",
    "label",
    "node_type",
    "level",
    "created_turn",
    "mentions",
    "aliases",
    "stance",
    "confidence",
    "superseded_by",
    "element_id",
    "first_quote",
)
EDGE_COLUMNS = (
    "source",
    "target",
    "source_label",
    "target_label",
    "relation",
    "confidence",
    "created_turn",
    "turns",
    "quote",
)

if TYPE_CHECKING:
    from interview_cli.core.graph.depth import Digraph


def _graph(session: SessionFile) -> KnowledgeGraph:
    return session_graph(session)


def _levels(session: SessionFile) -> dict[str, int]:
    return snapshot_methodology(session).ontology.levels


def node_rows(session: SessionFile) -> list[dict[str, Any]]:
    graph, levels = _graph(session), _levels(session)
    rows = []
    for n in graph.nodes():
        rows.append(
            {
                "id": n.id,
                "label": n.label,
                "node_type": n.node_type,
                "level": levels.get(n.node_type, 0),
                "created_turn": n.created_turn,
                "mentions": n.mention_count,
                "aliases": "; ".join(n.aliases),
                "stance": n.stance,
                "confidence": float(n.confidence),
                "superseded_by": n.superseded_by or "",
                "element_id": n.element_id or "",
                "first_quote": n.provenance[0]["quote"] if n.provenance else "",
            }
        )
    return rows


def edge_rows(session: SessionFile) -> list[dict[str, Any]]:
    graph = _graph(session)
    rows = []
    for r in graph.edges():
        turns = sorted({p["turn"] for p in r.provenance})
        rows.append(
            {
                "source": r.source,
                "target": r.target,
                "source_label": graph.node(r.source).label,
                "target_label": graph.node(r.target).label,
                "relation": r.relation,
                "confidence": float(r.confidence),
                "created_turn": r.created_turn,
                "turns": ";".join(map(str, turns)),
                "quote": r.quotes[0] if r.quotes else "",
            }
        )
    return rows


# A text cell a spreadsheet would run as a formula (``=HYPERLINK(...)``, ``+cmd|...``,
# ``@SUM``), also in the fullwidth forms some of them accept, and the tab and carriage return
# that hide such a start: answers and labels are the respondent's words.
_FORMULA_START = tuple("=+-@\t\r\uff1d\uff0b\uff0d\uff20")


def csv_cell(value: Any) -> Any:
    """``value`` as a CSV cell: text that a spreadsheet would take for a formula gets a
    leading apostrophe (shown as text, as typed); numbers stay numbers."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def _csv(rows: list[dict[str, Any]], columns: tuple[str, ...]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: csv_cell(v) for k, v in row.items()} for row in rows)
    return buffer.getvalue()


def nodes_csv(session: SessionFile) -> str:
    return _csv(node_rows(session), NODE_COLUMNS)


def edges_csv(session: SessionFile) -> str:
    return _csv(edge_rows(session), EDGE_COLUMNS)


def export_graphml(session: SessionFile) -> str:
    g: Digraph = nx.DiGraph(
        name=session.id,
        concept=session.concept.id,
        methodology=session.methodology.name,
    )
    # set after: spread into the constructor, a participant field could meet its positional
    # parameters (mypy says so wherever numpy's types are installed)
    g.graph.update({k: xml_text(v) for k, v in participant_fields(session, flat=True).items()})
    for row in node_rows(session):
        g.add_node(row["id"], **{k: v for k, v in row.items() if k != "id"})
    for row in edge_rows(session):
        u, v = row["source"], row["target"]
        if g.has_edge(u, v):  # several relations between one pair: one GraphML edge
            data = g.edges[u, v]
            data["relation"] += f"; {row['relation']}"
            data["confidence"] = max(data["confidence"], row["confidence"])
            turns = {t for t in (*data["turns"].split(";"), *row["turns"].split(";")) if t}
            data["turns"] = ";".join(sorted(turns, key=int))
            continue
        g.add_edge(
            u,
            v,
            **{k: row[k] for k in ("relation", "confidence", "created_turn", "turns", "quote")},
        )
    for data in [*g.nodes.values(), *(d for _source, _target, d in g.edges(data=True))]:
        for key, value in data.items():
            if isinstance(value, str):
                data[key] = xml_text(value)
    return "\n".join(nx.generate_graphml(g, prettyprint=True)) + "\n"


# Characters XML 1.0 cannot hold at all, escaped or not (C0 controls but tab and newlines,
# lone surrogates, U+FFFE/U+FFFF). Model text is cleaned where it enters the program; this
# keeps GraphML valid for sessions written before that, or edited by hand.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    return _NOT_XML.sub("", text)


def session_drawing(session: SessionFile) -> Drawing:
    graph, m = _graph(session), snapshot_methodology(session)
    levels = m.ontology.levels
    # what the respondent revised or took back ("that was a joke") is no part of the map
    live = [n for n in graph.nodes() if n.superseded_by is None and n.confidence != DISOWNED]
    ids = {n.id for n in live}
    nodes = tuple(
        DrawNode(
            n.id,
            n.label,
            levels.get(n.node_type, 0),
            n.node_type,
            f"{n.label} [{n.node_type}] - turn {n.created_turn}, "
            f"{plural(n.mention_count, 'mention')}",
        )
        for n in live
    )
    edges = tuple(
        DrawEdge(r.source, r.target, r.relation, len(r.provenance) or 1)
        for r in graph.edges()
        if r.source in ids and r.target in ids and r.source != r.target
    )
    title = f"{session.concept.name} - {session.id}"
    if session.participant is not None:
        title += f" - participant {session.participant.id}"
    return Drawing(title, nodes, edges, level_names([(n.name, n.level) for n in m.ontology.nodes]))


def export_dot(session: SessionFile) -> str:
    return to_dot(session_drawing(session), name=session.id)


def export_mermaid(session: SessionFile) -> str:
    text = to_mermaid(session_drawing(session))
    who = session.participant
    if who is not None:  # a Mermaid comment: the diagram has no title to carry it
        facts = "".join(f", {k}={v}" for k, v in who.meta.items())
        text += f"%% participant {xml_text(who.id)}{xml_text(facts)}\n"
    return text


def participant_fields(session: SessionFile, *, flat: bool = False) -> dict[str, Any]:
    """``run --participant/--meta`` for an export: nothing when the session has none."""
    who = session.participant
    if who is None:
        return {}
    if flat:  # GraphML attributes are scalars
        return {"participant": who.id, **{f"participant_{k}": v for k, v in who.meta.items()}}
    return {"participant": {"id": who.id, "meta": dict(who.meta)}}


def export_jsonl(session: SessionFile) -> str:
    lines = []
    for t in session.turns:
        record = {"session": session.id, **participant_fields(session), **t.model_dump(mode="json")}
        lines.append(json.dumps(record, ensure_ascii=False, sort_keys=False))
    return "\n".join(lines) + ("\n" if lines else "")


def export_markdown(session: SessionFile) -> str:
    from interview_cli.analysis.export.markdown import md_escape, md_text, table
    from interview_cli.analysis.report.elements import (
        ELEMENT_COLUMNS,
        element_cells,
        element_marks,
        shown_coverage,
    )

    out = [
        f"# {session.concept.name}",
        "",
        f"Session `{session.id}` · {session.methodology.name} {session.methodology.version} · "
        f"{session.status}"
        + (f" ({session.termination_reason})" if session.termination_reason else ""),
        "",
    ]
    if session.participant is not None:
        facts = ", ".join(f"{k}={v}" for k, v in session.participant.meta.items())
        out += [
            f"Participant `{md_escape(session.participant.id)}`"
            + (f" · {md_escape(facts)}" if facts else ""),
            "",
        ]
    if session.stimulus is not None:
        out += ["Shown before the first question:", "", f"> {md_text(session.stimulus.text)}", ""]
        if session.stimulus.image:
            out += [f"Image: `{md_escape(session.stimulus.image)}`", ""]
    coverage = shown_coverage(session)
    for t in session.turns:
        out += _turn_markdown(t)
        marks = element_marks(coverage, t.turn_number)
        out += [*(f"*{md_escape(line)}*  " for line in marks), ""] if marks else []
    if session.closing and session.closing.question:
        out += ["## Closing", "", f"**Q:** {md_text(session.closing.question)}", ""]
        if session.closing.comment:
            out += [f"**A:** {md_text(session.closing.comment)}", ""]
        if session.closing.summary:
            out += ["What was learned:", "", md_text(session.closing.summary), ""]
        if session.closing.rating:
            out += [f"Summary rated {session.closing.rating}/4 for accuracy.", ""]
    if coverage is not None:
        out += [
            f"## Stimulus elements: {len(coverage.covered)} of {len(coverage.elements)} covered",
            "",
            table(ELEMENT_COLUMNS, [element_cells(e) for e in coverage.elements], "lllll"),
            "",
        ]
    return "\n".join(out).rstrip() + "\n"


def _turn_markdown(t: TurnRecord) -> list[str]:
    """One turn: the question and how it was chosen, the answer, what was extracted."""
    from interview_cli.analysis.export.markdown import md_escape, md_text

    out: list[str] = []
    q = t.question
    how = " · ".join(x for x in (q.strategy, q.focus_label and f"focus: {q.focus_label}") if x)
    out += [
        f"## Turn {t.turn_number}",
        "",
        f"**Q:** {md_text(q.text)}" + (f"  \n*{md_escape(how)}*" if how else ""),
        "",
    ]
    out += [f"**A:** {md_text(t.answer.text)}", ""]
    if t.status != "complete":
        out += ["*(answered; not processed - the interview was interrupted)*", ""]
        return out
    if t.extraction and t.extraction.nodes:
        out.append("Extracted:")
        out += [
            f"- {md_escape(n.label)} *({n.node_type})* - “{md_escape(n.quote)}”"
            for n in t.extraction.nodes
        ]
        out += [
            f"- {md_escape(e.source)} → {md_escape(e.target)} *({e.relation})*"
            for e in t.extraction.edges
        ]
        out.append("")
    elif t.extraction is not None:
        out += [
            f"Nothing extracted ({md_escape(t.extraction.reason or 'no reason given')}).",
            "",
        ]
    rejected = list(t.extraction.rejected) if t.extraction else []
    if rejected:
        out.append("Rejected:")
        out += [
            f"- {r.kind} {md_escape(r.item.get('label', '') or r.item)}: {md_escape(r.reason)}"
            for r in rejected
        ]
        out.append("")
    return out


def export(session: SessionFile, fmt: str, *, table: str = "nodes") -> str:
    """The text of ``session`` in ``fmt``, by the writer ``FORMATS`` names for it (for csv,
    the ``table``: nodes or edges)."""
    if fmt == CSV:
        return nodes_csv(session) if table == "nodes" else edges_csv(session)
    return export_format(fmt).write()(session)
