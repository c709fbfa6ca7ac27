"""Checks of a methodology's shape (``shape: ladder | journey | grid``) and of the concepts
and personas that go with it.

ladder
    the chain-shaped default: no ``journey:`` or ``grid:`` section (they would be ignored).
journey
    a ``journey:`` section whose stage, touchpoint, action, emotion and pain types are node
    types of the ontology; its ``sequence_relation`` permits stage -> stage and its
    ``emotion_relation`` permits stage -> emotion; the valence scale runs from below zero to
    above it.
grid
    a ``grid:`` section whose element and construct types are node types; its
    ``rating_relation`` permits element -> construct; ``rating_scale`` is [1, 5] or [1, 7];
    ``min_elements`` is at least six.
concept
    a grid concept lists at least ``min_elements`` elements (a journey concept's elements
    are its stages in order, and may be left out: the stages are then elicited).
persona
    journey and grid ground truth is keyed by a concept whose methodology has that shape;
    grid ratings are within that methodology's scale.

Each check returns ``(loc, message)`` pairs like ``config.validation``. Nothing here reads files.
"""

from __future__ import annotations

from collections.abc import Callable

from interview_cli.config.schemas import Concept, Methodology, Persona
from interview_cli.config.shapes import GRID_SCALES, MIN_GRID_ELEMENTS

Loc = tuple[str | int, ...]
Issue = tuple[Loc, str]


def _types(m: Methodology) -> list[str]:
    return [n.name for n in m.ontology.nodes]


def _type_issue(m: Methodology, section: str, key: str, value: str) -> Issue | None:
    names = _types(m)
    if value in names:
        return None
    return (
        (section, key),
        f"'{value}' is not a node type of the ontology; types: {', '.join(names)}",
    )


def _relation_issue(
    m: Methodology, section: str, key: str, relation: str, pair: tuple[str, str]
) -> Issue | None:
    edge = m.ontology.edge_type(relation)
    if edge is None:
        edges = ", ".join(e.name for e in m.ontology.edges)
        return ((section, key), f"'{relation}' is not an edge type of the ontology; edges: {edges}")
    if pair not in {tuple(p) for p in edge.permitted_connections}:
        return (
            (section, key),
            f"edge '{relation}' must permit [{pair[0]}, {pair[1]}] for a {section}; add it to "
            "its permitted_connections",
        )
    return None


def _journey_issues(m: Methodology) -> list[Issue]:
    spec = m.journey
    if spec is None:
        return [
            (
                ("journey",),
                "shape: journey needs a `journey:` section naming its stage, touchpoint, "
                "action, emotion and pain_point node types (defaults: stage, touchpoint, "
                "action, emotion, pain_point)",
            )
        ]
    issues: list[Issue | None] = [
        _type_issue(m, "journey", key, getattr(spec, key))
        for key in ("stage_type", "touchpoint_type", "action_type", "emotion_type", "pain_type")
    ]
    types = set(_types(m))
    if spec.stage_type in types:
        pair = (spec.stage_type, spec.stage_type)
        issues.append(
            _relation_issue(m, "journey", "sequence_relation", spec.sequence_relation, pair)
        )
        if spec.emotion_type in types:
            pair = (spec.stage_type, spec.emotion_type)
            issues.append(
                _relation_issue(m, "journey", "emotion_relation", spec.emotion_relation, pair)
            )
    low, high = spec.valence_scale
    if not low < 0 < high:
        issues.append(
            (
                ("journey", "valence_scale"),
                f"valence_scale must run from a negative to a positive number (e.g. [-2, 2]), "
                f"got [{low}, {high}]",
            )
        )
    return [i for i in issues if i is not None]


def _grid_issues(m: Methodology) -> list[Issue]:
    spec = m.grid
    if spec is None:
        return [
            (
                ("grid",),
                "shape: grid needs a `grid:` section naming its element and construct node "
                "types, the rating relation and rating_scale ([1, 5] or [1, 7])",
            )
        ]
    issues: list[Issue | None] = [
        _type_issue(m, "grid", key, getattr(spec, key))
        for key in ("element_type", "construct_type")
    ]
    types = set(_types(m))
    if spec.element_type in types and spec.construct_type in types:
        pair = (spec.element_type, spec.construct_type)
        issues.append(_relation_issue(m, "grid", "rating_relation", spec.rating_relation, pair))
    if tuple(spec.rating_scale) not in GRID_SCALES:
        issues.append(
            (
                ("grid", "rating_scale"),
                f"rating_scale must be [1, 5] or [1, 7], got {list(spec.rating_scale)}",
            )
        )
    if spec.min_elements < MIN_GRID_ELEMENTS:
        issues.append(
            (
                ("grid", "min_elements"),
                f"a repertory grid needs at least {MIN_GRID_ELEMENTS} elements, got "
                f"{spec.min_elements}",
            )
        )
    return [i for i in issues if i is not None]


def shape_issues(m: Methodology) -> list[Issue]:
    """Problems of the shape declaration and its section."""
    issues: list[Issue] = []
    for section in ("journey", "grid"):
        if getattr(m, section) is not None and m.shape != section:
            issues.append(
                (
                    (section,),
                    f"a `{section}:` section needs `shape: {section}` (this methodology's shape "
                    f"is {m.shape}); set the shape or remove the section",
                )
            )
    if m.shape == "journey":
        issues += _journey_issues(m)
    elif m.shape == "grid":
        issues += _grid_issues(m)
    return issues


def concept_shape_issues(c: Concept, m: Methodology | None) -> list[Issue]:
    """A concept against the shape of its methodology (None: not loadable, not checked)."""
    issues: list[Issue] = []
    if m is None:
        return issues
    if m.shape == "grid" and m.grid is not None and len(c.elements) < m.grid.min_elements:
        issues.append(
            (
                ("elements",),
                f"a repertory grid ({m.name}) needs at least {m.grid.min_elements} elements, "
                f"this concept lists {len(c.elements)}; add elements to compare",
            )
        )
    return issues


def persona_shape_issues(
    p: Persona, methodology_of: Callable[[str], Methodology | None]
) -> list[Issue]:
    """Journey and grid ground truth against the concepts they are keyed by (and those
    concepts' methodologies): the right shape, ratings within the scale. A topic the library
    does not have is left to ``validation`` (a typo, or a warning)."""
    issues: list[Issue] = []
    for section, wanted in (("journeys", "journey"), ("grids", "grid")):
        for topic in getattr(p, section):
            spec = methodology_of(topic)
            if spec is not None and spec.shape != wanted:
                issues.append(
                    (
                        (section, topic),
                        f"'{topic}' is a {spec.shape} study; {section} is ground truth for "
                        f"a {wanted} study",
                    )
                )
    for topic, constructs in p.grids.items():
        spec = methodology_of(topic)
        if spec is None or spec.grid is None:
            continue
        low, high = spec.grid.rating_scale
        for i, construct in enumerate(constructs):
            for element, rating in construct.ratings.items():
                if not low <= rating <= high:
                    issues.append(
                        (
                            ("grids", topic, i, "ratings", element),
                            f"rating {rating} is outside the scale {low}-{high} of '{spec.name}'",
                        )
                    )
    return issues
