"""Pure pieces of the journey and grid shapes: triads, grid statistics, shape signals."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from interview_cli.analysis.report.grid_stats import (
    construct_similarity,
    first_two_share,
    jacobi_eigenvalues,
    variance_shares,
)
from interview_cli.config.schemas import Methodology, StrategySpec
from interview_cli.config.tuning import VetoTuning
from interview_cli.config.yamlio import load_yaml
from interview_cli.core.decide.vetoes import VetoContext, VetoRecorder, focus_type_problem
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.grid import triad
from interview_cli.core.tracker import NodeStateTracker


def first_veto(strategy: StrategySpec, node_id: str | None, ctx: VetoContext) -> str | None:
    """The first enabled veto that rejects the candidate, as scoring asks it, or None."""
    return VetoRecorder(ctx)(strategy, node_id)


@pytest.mark.parametrize("count", [6, 7, 10])
def test_triads_are_three_distinct_elements_and_start_with_every_element_early(count: int) -> None:
    triads = [triad(i, count) for i in range(count)]
    assert all(len(set(t)) == 3 and max(t) < count for t in triads)
    assert set().union(*triads[: math.ceil(count / 3)]) == set(range(count))


def test_jacobi_eigenvalues_of_a_known_matrix() -> None:
    values = jacobi_eigenvalues([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])
    # trace and determinant are preserved; the eigenvalues of this matrix are 3 and 3 +- sqrt 3
    assert values == pytest.approx([3 + math.sqrt(3), 3.0, 3 - math.sqrt(3)], abs=1e-9)


def test_variance_shares_and_similarity() -> None:
    rows = [[1, 2, 3, 4, 5, 5], [1, 2, 3, 4, 5, 5], [5, 4, 3, 2, 1, 1]]
    # three constructs that are one dimension (the third reversed): one component carries all
    assert variance_shares(rows)[0] == pytest.approx(1.0)
    assert first_two_share(rows) == pytest.approx(1.0)
    sims = construct_similarity(rows, (1, 5))
    assert sims[0][1] == 1.0 and sims[0][2] == 1.0  # reversal counts as the same construct
    assert first_two_share([[3, 3, 3], [2, 2, 2]]) is None  # no variance at all
    assert construct_similarity([[1, None, 5], [5, 5, None]], (1, 5))[0][1] == 1.0


def _methodology(name: str) -> Methodology:
    root = Path(__file__).resolve().parents[2]
    data = load_yaml((root / "methodologies" / f"{name}.yaml").read_text(encoding="utf-8"))
    return Methodology.model_validate(data)


def test_a_strategy_about_a_construct_is_vetoed_without_one() -> None:
    grid = _methodology("repertory_grid")
    graph = KnowledgeGraph()
    rate, validate = grid.strategy("rate_elements"), grid.strategy("validate")
    elicit = grid.strategy("elicit_construct")
    assert "none to focus yet" in (focus_type_problem(rate, None, graph) or "")
    assert "has none yet" in (focus_type_problem(validate, None, graph) or "")
    assert focus_type_problem(elicit, None, graph) is None
    car = graph.add_node("car", "element", methodology=grid, turn=1)
    assert "'car' is of type element" in (focus_type_problem(rate, car.id, graph) or "")
    construct = graph.add_node("private vs shared", "construct", methodology=grid, turn=1)
    assert focus_type_problem(rate, construct.id, graph) is None
    assert focus_type_problem(validate, None, graph) is None


def test_a_methodology_without_focus_types_is_never_vetoed_for_them() -> None:
    """Older snapshots list no focus types: the decision runs exactly as recorded."""
    grid = _methodology("repertory_grid")
    rate = grid.strategy("rate_elements")
    ctx = VetoContext(
        tuning=VetoTuning(), tracker=NodeStateTracker(), turn_number=1, graph=KnowledgeGraph()
    )
    vetoed = first_veto(rate, None, ctx)
    assert vetoed == "focus_type"  # checked first, hardest
    plain = rate.model_copy(update={"focus_types": []})
    assert first_veto(plain, None, ctx) is None
    deepen = _methodology("means_end_chain").strategy("deepen")
    assert (
        first_veto(
            deepen,
            None,
            VetoContext(tuning=VetoTuning(), tracker=NodeStateTracker(), turn_number=1),
        )
        is None
    )
