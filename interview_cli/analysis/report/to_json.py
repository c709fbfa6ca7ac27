"""``interview report --format json``: a built report as JSON-ready data.

One entry per methodology section (codes, coding sheets, the implication matrix and value
map for laddering, the structure analysis otherwise, with each drawing as Mermaid and DOT
text) the per-session metrics with their aggregate, and for concept tests every stimulus element
with its coverage across the concept's sessions (``elements``).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from interview_cli.analysis.export.drawing import to_dot, to_mermaid
from interview_cli.analysis.report.build import MethodSection, Report


def section_to_dict(section: MethodSection) -> dict[str, Any]:
    out: dict[str, Any] = {
        "methodology": section.methodology,
        "version": section.version,
        "sessions": section.session_ids,
        "concepts": [asdict(c) for c in section.concepts],
        "coding_sheets": section.sheets,
        "codes": [c.to_dict() for c in section.codebook.codes],
    }
    if section.ladder is not None:
        lad = section.ladder
        out["implication_matrix"] = lad.matrix.to_dict()
        out["hvm"] = {
            **lad.hvm.to_dict(),
            "mermaid": to_mermaid(lad.drawing),
            "dot": to_dot(lad.drawing, name="HVM"),
        }
    if section.structure is not None:
        st = section.structure
        out["structure"] = {
            "node_types": st.node_types,
            "type_links": st.type_links,
            "connections": [
                {
                    "source": c.source,
                    "relation": c.relation,
                    "target": c.target,
                    "respondents": c.respondents,
                }
                for c in st.connections
            ],
            "hub_type": st.hub_type,
            "hubs": [
                {
                    "code": h.code,
                    "neighbours": {t: [list(x) for x in v] for t, v in h.neighbours.items()},
                }
                for h in st.hubs
            ],
            "mermaid": to_mermaid(st.drawing),
        }
    if section.journey is not None:
        out["journey"] = section.journey.to_dict()
    if section.grid is not None:
        out["grid"] = section.grid.to_dict()
    return out


def report_to_dict(report: Report) -> dict[str, Any]:
    return {
        "options": {
            "keep_share": report.options.keep_share,
            "cutoff": report.options.cutoff,
            "merges": dict(report.options.merges or {}),
            "use_slots": report.options.use_slots,
            "group_by_meaning": report.options.group_by_meaning,
            "counting": report.options.counting,
        },
        "where": {key: value for key, value in report.where},
        "selection": report.selection.to_dict() if report.selection is not None else None,
        "sessions": [r.to_dict() for r in report.sessions],
        "participants": [p.to_dict() for p in report.participants],
        "aggregate": report.aggregate.to_dict(),
        "dual_graph": report.dual_graph,
        "unmatched_merges": [
            {"code": code, "label": label} for code, label in report.unmatched_merges
        ],
        "elements": [t.to_dict() for t in report.elements],
        "methodologies": [section_to_dict(s) for s in report.sections],
        "skipped": report.skipped,
    }
