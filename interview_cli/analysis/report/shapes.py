"""The report's journey and grid sections (methodologies of ``shape: journey`` / ``grid``).

Journey: each session's journey map (stages in order with touchpoints, actions, emotions
and pain points) and the emotion curve: the mean valence per stage over the sessions that
told it. Grid: each session's grid (a grid is one person's construing, so grids are not
pooled), with construct-construct and element-element similarity (matching scores) and the
share of variance of the first two principal components (``grid_stats``). Rendered to
Markdown (tables and a text curve), HTML (tables and an inline SVG curve) and JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from interview_cli.analysis.export.markdown import md_escape, table
from interview_cli.analysis.report.grid_stats import (
    construct_similarity,
    element_similarity,
    first_two_share,
)
from interview_cli.analysis.sources import SessionSource, session_graph, snapshot_concept
from interview_cli.config.schemas import Methodology
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.grid import Grid, build_grid
from interview_cli.core.journey import JourneyMap, build_journey


@dataclass
class CurvePoint:
    stage: str
    valence: float | None
    sessions: int


@dataclass
class JourneyAnalysis:
    maps: list[tuple[str, JourneyMap]] = field(default_factory=list)
    curve: list[CurvePoint] = field(default_factory=list)
    scale: tuple[int, int] = (-2, 2)

    def to_dict(self) -> dict[str, Any]:
        return {
            "valence_scale": list(self.scale),
            "emotion_curve": [
                {"stage": p.stage, "valence": p.valence, "sessions": p.sessions} for p in self.curve
            ],
            "sessions": [{"id": sid, "stages": m.to_dict()} for sid, m in self.maps],
        }


@dataclass
class GridResult:
    session_id: str
    grid: Grid
    construct_similarity: list[list[float]]
    element_similarity: list[list[float]]
    first_two_components: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.session_id,
            **self.grid.to_dict(),
            "construct_similarity": self.construct_similarity,
            "element_similarity": self.element_similarity,
            "first_two_components_variance": self.first_two_components,
        }


@dataclass
class GridAnalysis:
    grids: list[GridResult] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"sessions": [g.to_dict() for g in self.grids]}


def _graph(source: SessionSource, parsed: Mapping[str, KnowledgeGraph]) -> KnowledgeGraph:
    """The session's graph: the report's own parse when it has one, else parsed here."""
    known = parsed.get(source.session.id)
    if known is not None:
        return known
    return session_graph(source.session, str(source.path))


def _elements(source: SessionSource) -> list[tuple[str, str]]:
    return [(e.id, e.label) for e in snapshot_concept(source.session).elements]


def journey_analysis(
    methodology: Methodology,
    sources: Sequence[SessionSource],
    parsed: Mapping[str, KnowledgeGraph] | None = None,
) -> JourneyAnalysis:
    analysis = JourneyAnalysis(
        scale=methodology.journey.valence_scale if methodology.journey else (-2, 2)
    )
    for source in sources:
        journey = build_journey(_graph(source, parsed or {}), methodology, _elements(source))
        analysis.maps.append((source.session.id, journey))
    order: list[str] = []
    values: dict[str, list[float]] = {}
    told: dict[str, int] = {}
    for _, journey in analysis.maps:
        for stage in journey.stages:
            if stage.label not in order:
                order.append(stage.label)
            if stage.told:
                told[stage.label] = told.get(stage.label, 0) + 1
            if stage.valence is not None:
                values.setdefault(stage.label, []).append(stage.valence)
    for label in order:
        found = values.get(label, [])
        mean = round(sum(found) / len(found), 2) if found else None
        analysis.curve.append(CurvePoint(label, mean, told.get(label, 0)))
    return analysis


def grid_analysis(
    methodology: Methodology,
    sources: Sequence[SessionSource],
    parsed: Mapping[str, KnowledgeGraph] | None = None,
) -> GridAnalysis:
    analysis = GridAnalysis()
    for source in sources:
        grid = build_grid(_graph(source, parsed or {}), methodology, _elements(source))
        rows = [list(c.ratings) for c in grid.constructs]
        analysis.grids.append(
            GridResult(
                source.session.id,
                grid,
                construct_similarity(rows, grid.scale),
                element_similarity(rows, grid.scale),
                first_two_share(rows),
            )
        )
    return analysis


# --------------------------------------------------------------------------------------------
# Markdown
# --------------------------------------------------------------------------------------------


def _md_table_lines(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    return table(headers, rows).split("\n")


def _fmt(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:+.{digits}f}"


def valence_bar(value: float | None, scale: tuple[int, int], width: int = 8) -> str:
    """A text bar for the Markdown curve: left of the bar is negative, right positive."""
    if value is None:
        return "·"
    span = max(abs(scale[0]), abs(scale[1])) or 1
    n = round(abs(value) / span * width)
    return ("◀" * n).rjust(width) + "|" if value < 0 else " " * width + "|" + "▶" * n


JOURNEY_COLUMNS = ("stage", "touchpoints", "actions", "emotions", "valence", "pain points")


def journey_rows(journey: JourneyMap, *, unfollowed: str) -> list[tuple[str, ...]]:
    """One row a stage of a journey map, for the Markdown and the HTML table alike."""
    return [
        (
            s.label + ("" if s.told else " (not told)"),
            "; ".join(s.touchpoints),
            "; ".join(s.actions),
            "; ".join(e.label for e in s.emotions),
            _fmt(s.valence),
            "; ".join(
                p.label + (f" → {', '.join(p.fixes)}" if p.fixes else unfollowed) for p in s.pains
            ),
        )
        for s in journey.stages
    ]


def journey_markdown(analysis: JourneyAnalysis) -> list[str]:
    out = ["### Journey: emotion curve", ""]
    out += _md_table_lines(
        ("stage", "valence", "curve", "sessions"),
        [
            (p.stage, _fmt(p.valence), f"`{valence_bar(p.valence, analysis.scale)}`", p.sessions)
            for p in analysis.curve
        ],
    )
    for session_id, journey in analysis.maps:
        out += ["", f"### Journey map: {md_escape(session_id)}", ""]
        out += _md_table_lines(
            JOURNEY_COLUMNS, journey_rows(journey, unfollowed=" (not followed up)")
        )
    return out + [""]


def _matrix_rows(names: Sequence[str], matrix: Sequence[Sequence[float]]) -> list[list[Any]]:
    return [[name, *(f"{v:.2f}" for v in row)] for name, row in zip(names, matrix, strict=True)]


def grid_markdown(analysis: GridAnalysis) -> list[str]:
    out: list[str] = []
    for result in analysis.grids:
        grid = result.grid
        low, high = grid.scale
        out += [f"### Repertory grid: {md_escape(result.session_id)}", ""]
        out.append(f"Ratings {low} (left pole) to {high} (right pole).")
        out.append("")
        out += _md_table_lines(
            ("construct", *grid.elements),
            [
                (c.label, *("" if r is None else f"{r:g}" for r in c.ratings))
                for c in grid.constructs
            ],
        )
        labels = [c.label for c in grid.constructs]
        if labels:
            out += ["", "Construct similarity (matching score, either pole order):", ""]
            out += _md_table_lines(("", *labels), _matrix_rows(labels, result.construct_similarity))
            out += ["", "Element similarity (matching score):", ""]
            out += _md_table_lines(
                ("", *grid.elements), _matrix_rows(grid.elements, result.element_similarity)
            )
        share = result.first_two_components
        out += [
            "",
            "First two principal components: "
            + ("–" if share is None else f"{share:.0%} of the variance"),
            "",
        ]
    return out


# --------------------------------------------------------------------------------------------
# HTML
# --------------------------------------------------------------------------------------------


def emotion_svg(curve: Sequence[CurvePoint], scale: tuple[int, int]) -> str:
    """The emotion curve as an inline SVG line chart (stages along, valence up)."""
    width, height, pad = max(320, 120 * len(curve)), 200, 40
    low, high = scale
    span = (high - low) or 1

    def y(value: float) -> float:
        return pad + (high - value) / span * (height - 2 * pad)

    def x(i: int) -> float:
        return pad + i * (width - 2 * pad) / max(1, len(curve) - 1)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 30}" '
        f'role="img" aria-label="emotion curve">',
        f'<line x1="{pad}" y1="{y(0):.1f}" x2="{width - pad}" y2="{y(0):.1f}" '
        'stroke="#9ca3af" stroke-dasharray="4 3"/>',
        f'<text x="4" y="{y(high) + 4:.1f}" font-size="11">{high:+d}</text>',
        f'<text x="4" y="{y(low) + 4:.1f}" font-size="11">{low:+d}</text>',
    ]
    points = [(x(i), y(p.valence)) for i, p in enumerate(curve) if p.valence is not None]
    if len(points) > 1:
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="#2563eb" stroke-width="2"/>')
    for i, p in enumerate(curve):
        if p.valence is not None:
            colour = "#16a34a" if p.valence >= 0 else "#dc2626"
            parts.append(
                f'<circle cx="{x(i):.1f}" cy="{y(p.valence):.1f}" r="5" fill="{colour}">'
                f"<title>{escape(p.stage)}: {p.valence:+.1f}</title></circle>"
            )
        parts.append(
            f'<text x="{x(i):.1f}" y="{height + 15}" font-size="11" text-anchor="middle">'
            f"{escape(p.stage[:22])}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _html_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def journey_html(analysis: JourneyAnalysis) -> list[str]:
    out = ["<h3>Journey: emotion curve</h3>"]
    out.append(f'<div class="figure">{emotion_svg(analysis.curve, analysis.scale)}</div>')
    for session_id, journey in analysis.maps:
        out.append(f"<h3>Journey map: {escape(session_id)}</h3>")
        out.append(
            _html_table(JOURNEY_COLUMNS, journey_rows(journey, unfollowed=" (not followed up)"))
        )
    return out


def grid_html(analysis: GridAnalysis) -> list[str]:
    out: list[str] = []
    for result in analysis.grids:
        grid = result.grid
        labels = [c.label for c in grid.constructs]
        out.append(f"<h3>Repertory grid: {escape(result.session_id)}</h3>")
        out.append(
            _html_table(
                ("construct", *grid.elements),
                [
                    (c.label, *("" if r is None else f"{r:g}" for r in c.ratings))
                    for c in grid.constructs
                ],
            )
        )
        if labels:
            out.append('<p class="note">Construct similarity (matching score):</p>')
            out.append(
                _html_table(("", *labels), _matrix_rows(labels, result.construct_similarity))
            )
            out.append('<p class="note">Element similarity (matching score):</p>')
            out.append(
                _html_table(
                    ("", *grid.elements), _matrix_rows(grid.elements, result.element_similarity)
                )
            )
        share = result.first_two_components
        out.append(
            '<p class="note">First two principal components: '
            + ("–" if share is None else f"{share:.0%} of the variance")
            + "</p>"
        )
    return out
