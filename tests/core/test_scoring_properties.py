"""Property tests: scoring is deterministic and independent of the order of signals and nodes."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from interview_cli.config.schemas import PhaseSpec, StrategySpec
from interview_cli.config.tuning import Tuning
from interview_cli.core.decide.scored import NodeInfo, Ranking
from interview_cli.core.decide.scoring import (
    base_score,
    partition_signal_weights,
    rank_strategy_node_pairs,
    rank_two_stage,
    score_weights,
)

TUNING = Tuning()
GLOBAL_NAMES = ["llm.engagement", "graph.depth_ratio", "meta.interview.progress"]
NODE_FLOATS = ["graph.node.exhaustion_score", "graph.node.recency_score"]
NODE_BOOLS = ["graph.node.is_orphan", "graph.node.exhausted"]
KEYS = (
    [f"{n}{q}" for n in GLOBAL_NAMES + NODE_FLOATS for q in ("", ".low", ".mid", ".high")]
    + [f"{n}{q}" for n in NODE_BOOLS for q in ("", ".true", ".false")]
    + ["llm.response_depth.deep", "llm.response_depth.surface", "graph.node.focus_streak.high"]
)

# Coarse weights and values make exact ties likely, which is what tie-breaking must survive.
weights = st.sampled_from([-1.0, -0.5, 0.0, 0.25, 0.5, 1.0])
unit = st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0, 0.1, 0.9])

strategy_specs = st.lists(
    st.builds(
        lambda i, w, binding: StrategySpec(
            name=f"s{i}", family="generic", signal_weights=w, node_binding=binding
        ),
        st.integers(0, 1000),
        st.dictionaries(st.sampled_from(KEYS), weights, max_size=6),
        st.sampled_from(["required", "required", "none"]),
    ),
    min_size=1,
    max_size=4,
    unique_by=lambda s: s.name,
)


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    n_nodes = draw(st.integers(0, 6))
    node_ids = [f"n{i}" for i in draw(st.permutations(range(1, n_nodes + 1)))]
    nodes = {nid: NodeInfo(label=nid, created_turn=draw(st.integers(1, 3))) for nid in node_ids}
    node_signals = {
        nid: {
            **{k: draw(unit) for k in NODE_FLOATS},
            **{k: draw(st.booleans()) for k in NODE_BOOLS},
            "graph.node.focus_streak": draw(st.sampled_from(["none", "low", "high"])),
        }
        for nid in node_ids
    }
    global_signals: dict[str, Any] = {k: draw(unit) for k in GLOBAL_NAMES}
    global_signals["llm.response_depth"] = draw(st.sampled_from(["surface", "deep"]))
    strategies = draw(strategy_specs)
    phase = PhaseSpec(
        signal_weights={s.name: draw(st.sampled_from([0.5, 1.0, 1.5])) for s in strategies},
        phase_bonuses={s.name: draw(st.sampled_from([0.0, 0.2])) for s in strategies},
    )
    vetoed = draw(st.sets(st.sampled_from(node_ids), max_size=2)) if node_ids else set()
    return {
        "strategies": strategies,
        "global": global_signals,
        "node_signals": node_signals,
        "nodes": nodes,
        "phase": phase,
        "vetoed": vetoed,
        "seed": draw(st.integers(0, 2**32 - 1)),
    }


def _shuffled(mapping: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    items = list(mapping.items())
    rng.shuffle(items)
    return dict(items)


def _run(rank: Any, sc: dict[str, Any], *, shuffle: bool) -> Ranking:
    rng = random.Random(sc["seed"])
    g, ns, nodes = sc["global"], sc["node_signals"], sc["nodes"]
    if shuffle:
        g = _shuffled(g, rng)
        ns = _shuffled({k: _shuffled(v, rng) for k, v in ns.items()}, rng)
        nodes = _shuffled(nodes, rng)
    vetoed = sc["vetoed"]

    def veto(strategy: StrategySpec, node_id: str | None) -> str | None:
        return "knowledge_ceiling" if node_id in vetoed else None

    return rank(sc["strategies"], g, ns, nodes, tuning=TUNING, phase=sc["phase"], veto=veto)


def _summary(r: Ranking) -> list[tuple[Any, ...]]:
    return [
        (c.strategy, c.node_id, c.final_score, c.rank, c.selected, c.vetoed_by, c.stage)
        for c in r.candidates
    ]


@settings(max_examples=150, deadline=None)
@given(scenarios())
def test_joint_ranking_is_deterministic_and_order_independent(sc: dict[str, Any]) -> None:
    first = _run(rank_strategy_node_pairs, sc, shuffle=False)
    assert _run(rank_strategy_node_pairs, sc, shuffle=False) == first
    assert _summary(_run(rank_strategy_node_pairs, sc, shuffle=True)) == _summary(first)


@settings(max_examples=150, deadline=None)
@given(scenarios())
def test_two_stage_ranking_is_deterministic_and_order_independent(sc: dict[str, Any]) -> None:
    first = _run(rank_two_stage, sc, shuffle=False)
    assert _run(rank_two_stage, sc, shuffle=False) == first
    assert _summary(_run(rank_two_stage, sc, shuffle=True)) == _summary(first)


@settings(max_examples=150, deadline=None)
@given(scenarios())
def test_ranking_invariants(sc: dict[str, Any]) -> None:
    r = _run(rank_strategy_node_pairs, sc, shuffle=False)
    assert [c.rank for c in r.candidates] == list(range(1, len(r.candidates) + 1))
    assert sum(c.selected for c in r.candidates) == 1
    assert r.selected is not None and r.selected.selected
    admissible = [c for c in r.candidates if c.vetoed_by is None]
    if admissible:
        # The winner is admissible and no admissible candidate scores higher.
        assert r.selected.vetoed_by is None and r.fallback is None
        assert r.selected.final_score == max(c.final_score for c in admissible)
    else:
        assert r.fallback is not None
    for c in r.candidates:
        assert c.final_score == c.base_score * c.phase_multiplier + c.phase_bonus
    # Every node-bound strategy has one candidate per node; node-less ones exactly one.
    for s in sc["strategies"]:
        mine = [c for c in r.candidates if c.strategy == s.name]
        expected = len(sc["nodes"]) if s.node_binding == "required" and sc["nodes"] else 1
        assert len(mine) == expected


@settings(max_examples=150, deadline=None)
@given(scenarios(), st.booleans())
def test_every_candidate_scores_as_if_scored_alone(sc: dict[str, Any], two_stage: bool) -> None:
    # Ranking scores nodes alike in every weighted signal once; each must still get exactly
    # what scoring that node by itself, without any memo, gives.
    r = _run(rank_two_stage if two_stage else rank_strategy_node_pairs, sc, shuffle=False)
    by_name = {s.name: s for s in sc["strategies"]}
    for c in r.candidates:
        global_weights, node_weights = partition_signal_weights(by_name[c.strategy].signal_weights)
        expected = score_weights(global_weights, sc["global"], TUNING)
        if c.node_id is not None:
            expected += score_weights(node_weights, sc["node_signals"][c.node_id], TUNING)
        assert c.signal_contributions == expected
        assert c.base_score == base_score(expected)
