"""The shipped laddering methodology and a turn through ``advance()`` for the moderation
tests: answers given as extracted nodes and an assessment, the rest as the core decides."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.config.yamlio import load_yaml
from interview_cli.core.models import (
    Assessment,
    ExtractedEdge,
    ExtractedNode,
    Extraction,
    RubricScore,
)
from interview_cli.core.turn import CoreState, TurnInput, advance

ROOT = Path(__file__).resolve().parents[2]


@cache
def mec() -> Methodology:
    text = (ROOT / "methodologies" / "means_end_chain.yaml").read_text(encoding="utf-8")
    return Methodology.model_validate(load_yaml(text))


def assessment(depth: int = 3, **extra: Any) -> Assessment:
    mid = RubricScore(score=3)
    scores = {
        name: extra.pop(name, mid)
        for name in ("specificity", "certainty", "valence", "engagement", "intellectual_engagement")
    }
    return Assessment(response_depth=RubricScore(score=depth), **scores, **extra)


CONCEPT = Concept.model_validate(
    {"id": "bikes", "name": "Bikes", "methodology": "means_end_chain", "objective": "why bikes"}
)


def answer(state_: CoreState, nodes: list[tuple[str, str]], **extra: Any) -> Any:
    ext = Extraction(
        extractable=bool(nodes),
        nodes=[ExtractedNode(label=label, node_type=kind, quote=label) for label, kind in nodes],
    )
    return advance(
        state_,
        TurnInput(
            methodology=mec(),
            concept=CONCEPT,
            extraction=ext,
            assessment=assessment(**extra),
            utterance_id=f"u{state_.turn_count + 1}",
            max_turns=20,
        ),
    )


@cache
def shipped(name: str) -> Methodology:
    text = (ROOT / "methodologies" / f"{name}.yaml").read_text(encoding="utf-8")
    return Methodology.model_validate(load_yaml(text))


def told(
    state_: CoreState,
    methodology: Methodology,
    nodes: list[tuple[str, str, int]],
    edges: list[tuple[str, str, str]] = (),  # type: ignore[assignment]
    **extra: Any,
) -> Any:
    """``answer`` in any shipped methodology: nodes as (label, type, stance), edges as
    (source label, target label, relation)."""
    ext = Extraction(
        extractable=bool(nodes),
        nodes=[
            ExtractedNode(label=label, node_type=kind, quote=label, stance=stance)
            for label, kind, stance in nodes
        ],
        edges=[ExtractedEdge(source=a, target=b, relation=r, quote=b) for a, b, r in edges],
    )
    concept = CONCEPT.model_copy(update={"methodology": methodology.name})
    return advance(
        state_,
        TurnInput(
            methodology=methodology,
            concept=concept,
            extraction=ext,
            assessment=assessment(**extra),
            utterance_id=f"u{state_.turn_count + 1}",
            max_turns=20,
        ),
    )
