"""Scoring: compound keys, bin edges, phase arithmetic, joint and two-stage ranking, tie-breaks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from interview_cli.config.schemas import PhaseSpec, StrategySpec
from interview_cli.config.tuning import Tuning
from interview_cli.core.decide.scored import NodeInfo
from interview_cli.core.decide.scoring import (
    contribution_for,
    final_score,
    partition_signal_weights,
    rank_strategy_node_pairs,
    rank_two_stage,
)

TUNING = Tuning()


def contrib(key: str, signals: Mapping[str, Any], weight: float = 1.0) -> float | None:
    c = contribution_for(key, weight, signals, TUNING)
    return None if c is None else c.contribution


@pytest.mark.parametrize(
    ("value", "low", "mid", "high"),
    [
        (0.0, 1.0, 0.0, 0.0),
        (0.25, 1.0, 0.0, 0.0),  # inclusive low edge
        (0.2500001, 0.0, 1.0, 0.0),
        (0.5, 0.0, 1.0, 0.0),
        (0.7499999, 0.0, 1.0, 0.0),
        (0.75, 0.0, 0.0, 1.0),  # inclusive high edge
        (1.0, 0.0, 0.0, 1.0),
    ],
)
def test_float_bins_have_inclusive_edges(value: float, low: float, mid: float, high: float) -> None:
    signals = {"graph.node.exhaustion_score": value}
    assert contrib("graph.node.exhaustion_score.low", signals) == low
    assert contrib("graph.node.exhaustion_score.mid", signals) == mid
    assert contrib("graph.node.exhaustion_score.high", signals) == high


def test_custom_bin_edges_come_from_tuning() -> None:
    tuning = Tuning(bin_low=0.4, bin_high=0.6)
    c = contribution_for("llm.engagement.low", 2.0, {"llm.engagement": 0.4}, tuning)
    assert c is not None and c.contribution == 2.0


def test_plain_numbers_multiply_and_bools_count_one_or_zero() -> None:
    repetition = {"temporal.strategy_repetition_count": 3}
    assert contrib("temporal.strategy_repetition_count", repetition, -0.3) == pytest.approx(-0.9)
    assert contrib("graph.depth_ratio", {"graph.depth_ratio": 0.5}, 0.8) == pytest.approx(0.4)
    assert contrib("graph.node.is_orphan", {"graph.node.is_orphan": True}, 0.7) == 0.7
    assert contrib("graph.node.is_orphan", {"graph.node.is_orphan": False}, 0.7) == 0.0


def test_bool_and_categorical_qualifiers() -> None:
    signals = {"graph.chain_completion.has_complete": False, "llm.response_depth": "deep"}
    assert contrib("graph.chain_completion.has_complete.false", signals) == 1.0
    assert contrib("graph.chain_completion.has_complete.true", signals) == 0.0
    assert contrib("llm.response_depth.deep", signals) == 1.0
    assert contrib("llm.response_depth.surface", signals) == 0.0
    # A categorical value under a plain key has no magnitude.
    assert contrib("llm.response_depth", signals) == 0.0


def test_undetected_signals_are_skipped() -> None:
    assert contrib("llm.engagement.high", {}) is None
    assert contrib("coverage.ratio", {"coverage.ratio": None}) is None


def test_partition_by_node_prefixes() -> None:
    weights = {
        "llm.engagement.high": 0.5,
        "graph.node.exhausted.true": -1.0,
        "technique.node.strategy_repetition.high": -0.5,
        "meta.node.opportunity.fresh": 0.4,
        "meta.interview.phase.late": 0.2,
    }
    global_w, node_w = partition_signal_weights(weights)
    assert list(global_w) == ["llm.engagement.high", "meta.interview.phase.late"]
    assert list(node_w) == [
        "graph.node.exhausted.true",
        "technique.node.strategy_repetition.high",
        "meta.node.opportunity.fresh",
    ]


def test_phase_multiplier_then_bonus() -> None:
    # Seed 001: final = (base * multiplier) + bonus.
    assert final_score(0.8, 1.5, 0.2) == pytest.approx(1.4)
    assert final_score(-0.5, 2.0, 0.3) == pytest.approx(-0.7)
    deepen = StrategySpec(
        name="deepen", family="deepen", signal_weights={"llm.engagement.high": 0.8}
    )
    phase = PhaseSpec(signal_weights={"deepen": 1.5}, phase_bonuses={"deepen": 0.2})
    ranking = rank_strategy_node_pairs(
        [deepen], {"llm.engagement": 1.0}, {}, {}, tuning=TUNING, phase=phase
    )
    (c,) = ranking.candidates
    assert (c.base_score, c.phase_multiplier, c.phase_bonus) == (0.8, 1.5, 0.2)
    assert c.final_score == pytest.approx(1.4)


STRATEGIES = [
    StrategySpec(
        name="deepen",
        family="deepen",
        signal_weights={"llm.engagement.high": 0.5, "graph.node.exhausted.true": -1.0},
    ),
    StrategySpec(
        name="explore",
        family="explore",
        signal_weights={"graph.node.is_orphan.true": 0.6, "llm.engagement.high": 0.1},
    ),
    StrategySpec(
        name="reflect",
        family="summary",
        node_binding="none",
        generates_closing_question=True,
        signal_weights={"meta.interview.phase.late": 1.0},
    ),
]
NODES = {"n1": NodeInfo("price", 1), "n2": NodeInfo("taste", 2), "n3": NodeInfo("health", 2)}
NODE_SIGNALS: dict[str, dict[str, Any]] = {
    "n1": {"graph.node.exhausted": True, "graph.node.is_orphan": False},
    "n2": {"graph.node.exhausted": False, "graph.node.is_orphan": True},
    "n3": {"graph.node.exhausted": False, "graph.node.is_orphan": False},
}
GLOBAL: dict[str, Any] = {"llm.engagement": 1.0, "meta.interview.phase": "mid"}


def test_joint_scores_every_strategy_node_pair_and_node_less_strategies_once() -> None:
    ranking = rank_strategy_node_pairs(STRATEGIES, GLOBAL, NODE_SIGNALS, NODES, tuning=TUNING)
    pairs = [(c.strategy, c.node_id, round(c.final_score, 6)) for c in ranking.candidates]
    assert pairs == [
        ("explore", "n2", 0.7),
        ("deepen", "n2", 0.5),  # tie with n3: same created turn -> natural node id order
        ("deepen", "n3", 0.5),
        ("explore", "n3", 0.1),
        ("explore", "n1", 0.1),  # tie with n3: newer node first
        ("reflect", None, 0.0),
        ("deepen", "n1", -0.5),
    ]
    assert [c.rank for c in ranking.candidates] == list(range(1, 8))
    assert ranking.selected is not None and ranking.selected.node_label == "taste"
    assert [c.selected for c in ranking.candidates] == [True] + [False] * 6
    explore_n2 = ranking.candidates[0]
    assert [(s.key, s.contribution) for s in explore_n2.signal_contributions] == [
        ("llm.engagement.high", 0.1),
        ("graph.node.is_orphan.true", 0.6),
    ]


def test_ties_between_strategies_follow_yaml_order() -> None:
    a = StrategySpec(name="a", family="generic", node_binding="none", signal_weights={"x": 1.0})
    b = StrategySpec(name="b", family="generic", node_binding="none", signal_weights={"x": 1.0})
    for order in ([a, b], [b, a]):
        ranking = rank_strategy_node_pairs(order, {"x": 1}, {}, {}, tuning=TUNING)
        assert ranking.selected is not None and ranking.selected.strategy == order[0].name


def test_node_bound_strategy_without_nodes_gets_one_node_less_candidate() -> None:
    ranking = rank_strategy_node_pairs(STRATEGIES, GLOBAL, {}, {}, tuning=TUNING)
    assert [(c.strategy, c.node_id) for c in ranking.candidates] == [
        ("deepen", None),
        ("explore", None),
        ("reflect", None),
    ]


def test_vetoed_candidates_stay_listed_and_are_never_selected() -> None:
    def veto(strategy: StrategySpec, node_id: str | None) -> str | None:
        return "knowledge_ceiling" if node_id == "n2" else None

    ranking = rank_strategy_node_pairs(
        STRATEGIES, GLOBAL, NODE_SIGNALS, NODES, tuning=TUNING, veto=veto
    )
    assert ranking.selected is not None
    assert (ranking.selected.strategy, ranking.selected.node_id) == ("deepen", "n3")
    vetoed = [c for c in ranking.candidates if c.vetoed_by]
    assert {(c.strategy, c.node_id) for c in vetoed} == {("explore", "n2"), ("deepen", "n2")}
    assert all(not c.selected for c in vetoed)
    assert ranking.candidates[-2:] == tuple(vetoed)  # ranked after every admissible candidate
    assert ranking.fallback is None


def test_all_vetoed_falls_back_to_the_softest_veto() -> None:
    def veto(strategy: StrategySpec, node_id: str | None) -> str:
        if strategy.name == "deepen" and node_id == "n3":
            return "recent_redundancy"
        return "knowledge_ceiling"

    ranking = rank_strategy_node_pairs(
        STRATEGIES, GLOBAL, NODE_SIGNALS, NODES, tuning=TUNING, veto=veto
    )
    assert ranking.selected is not None
    assert (ranking.selected.strategy, ranking.selected.node_id) == ("deepen", "n3")
    assert ranking.selected.vetoed_by == "recent_redundancy"
    assert ranking.fallback == "all candidates vetoed; relaxed 'recent_redundancy'"
    assert sum(c.selected for c in ranking.candidates) == 1


def test_two_stage_ranks_strategies_on_global_signals_then_nodes() -> None:
    ranking = rank_two_stage(STRATEGIES, GLOBAL, NODE_SIGNALS, NODES, tuning=TUNING)
    stage1 = [c for c in ranking.candidates if c.stage == "strategy"]
    stage2 = [c for c in ranking.candidates if c.stage == "node"]
    # Stage 1: global weights only -> deepen 0.5, explore 0.1, reflect 0.
    assert [(c.strategy, c.final_score) for c in stage1] == [
        ("deepen", 0.5),
        ("explore", 0.1),
        ("reflect", 0.0),
    ]
    assert all(c.node_id is None for c in stage1)
    # Stage 2: deepen's nodes with its full weights; exhausted n1 last.
    assert [(c.node_id, c.final_score) for c in stage2] == [("n2", 0.5), ("n3", 0.5), ("n1", -0.5)]
    assert ranking.selected is not None
    assert (ranking.selected.strategy, ranking.selected.node_id) == ("deepen", "n2")
    selected = [(c.strategy, c.node_id, c.stage) for c in ranking.candidates if c.selected]
    assert selected == [("deepen", "n2", "node")]


def test_two_stage_moves_to_next_strategy_when_all_nodes_are_vetoed() -> None:
    def veto(strategy: StrategySpec, node_id: str | None) -> str | None:
        return "knowledge_ceiling" if strategy.name == "deepen" else None

    ranking = rank_two_stage(STRATEGIES, GLOBAL, NODE_SIGNALS, NODES, tuning=TUNING, veto=veto)
    assert ranking.selected is not None
    assert (ranking.selected.strategy, ranking.selected.node_id) == ("explore", "n2")
    stage2 = [(c.strategy, c.node_id) for c in ranking.candidates if c.stage == "node"]
    assert stage2[:3] == [("deepen", "n2"), ("deepen", "n3"), ("deepen", "n1")]
    assert ("explore", "n2") in stage2


def test_two_stage_node_less_winner_needs_no_second_stage() -> None:
    late = {**GLOBAL, "meta.interview.phase": "late", "llm.engagement": 0.0}
    ranking = rank_two_stage(STRATEGIES, late, NODE_SIGNALS, NODES, tuning=TUNING)
    assert ranking.selected is not None
    assert (ranking.selected.strategy, ranking.selected.node_id) == ("reflect", None)
    assert all(c.stage == "strategy" for c in ranking.candidates)
