"""The shipped methodologies' strategy weights pick the intended move.

A small reference scorer follows seed 001 "Strategy Selection Mechanisms" and "Phase-Based
Weights": base = sum of matching weights (qualified keys match a bin, a boolean or a
category; plain keys multiply the value), final = base * phase multiplier + phase bonus;
strategies with node_binding none (and every strategy on an empty graph) score without node
signals. The scenarios pin the intent of the weights - ladder up from the top of a chain,
backtrack from exhausted nodes, open a new ladder once one reached a terminal, clarify hedged
answers, revitalize disengagement, close only late or when saturated - so a careless edit to a
YAML file fails here before it derails real interviews. The core's own ranking is run over the
same scenarios, so the model cannot drift from the real scorer unnoticed.
"""

from __future__ import annotations

import functools
import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from interview_cli.config.schemas import Methodology, StrategySpec
from interview_cli.config.signal_catalogue import SignalSpec, is_node_signal, resolve_weight_key
from interview_cli.config.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def load_method(name: str) -> Methodology:
    path = ROOT / "methodologies" / f"{name}.yaml"
    with path.open(encoding="utf-8") as handle:
        return Methodology.model_validate(load_yaml(handle.read()))


def closing_strategy(m: Methodology) -> StrategySpec:
    return next(s for s in m.strategies if s.generates_closing_question)


GLOBAL: dict[str, Any] = {
    "graph.depth_ratio": 0.5,
    "graph.chain_completion.ratio": 0.0,
    "graph.chain_completion.has_complete": False,
    "graph.new_info_rate": 0.67,
    "llm.response_depth": "moderate",
    "llm.specificity": 0.5,
    "llm.certainty": 0.75,
    "llm.valence": 0.5,
    "llm.engagement": 0.5,
    "llm.intellectual_engagement": 0.5,
    "llm.hedging_language": "none",
    "llm.knowledge_ceiling": "none",
    "llm.global_response_trend": "stable",
    "temporal.strategy_repetition_count": 2,
    "meta.interview.phase": "mid",
    "meta.conversation.saturation": 0.3,
    "meta.canonical.saturation": 0.0,
}
NODE: dict[str, Any] = {
    "graph.node.exhausted": False,
    "graph.node.exhaustion_score": 0.1,
    "graph.node.focus_streak": "none",
    "graph.node.is_current_focus": False,
    "graph.node.recency_score": 0.9,
    "graph.node.is_orphan": False,
    "graph.node.has_outgoing": True,
    "graph.node.is_terminal": False,
    "graph.node.level_ratio": 0.0,
    "meta.node.opportunity": "fresh",
    "technique.node.strategy_repetition": "none",
}
CHAIN_DONE = {
    "graph.chain_completion.ratio": 1.0,
    "graph.chain_completion.has_complete": True,
    "graph.depth_ratio": 1.0,
}


def node(level: float, **signals: Any) -> dict[str, Any]:
    """Node signals; short names expand to graph.node.* (meta./technique. keys kept)."""
    out = {**NODE, "graph.node.level_ratio": level}
    for key, value in signals.items():
        full = key.replace("__", ".") if key.startswith(("meta__", "technique__")) else key
        out[full if "." in full else f"graph.node.{key}"] = value
    return out


def frontier(level: float, **signals: Any) -> dict[str, Any]:
    """The newest element at the top of a chain: created this turn, nothing above it yet."""
    return node(level, recency_score=1.0, has_outgoing=False, **signals)


def chain(*levels: float) -> dict[str, dict[str, Any]]:
    """A laddered chain: older rungs lead upward, the last rung is the frontier."""
    nodes = {f"n{i}": node(lv, recency_score=0.8 + 0.05 * i) for i, lv in enumerate(levels)}
    nodes[f"n{len(levels) - 1}"] = frontier(levels[-1], is_terminal=levels[-1] == 1.0)
    return nodes


def _matches(spec: SignalSpec, qualifier: str, value: Any, bin_low: float, bin_high: float) -> bool:
    if spec.kind == "float":
        band = "low" if value <= bin_low else "high" if value >= bin_high else "mid"
        return band == qualifier
    if spec.kind == "bool":
        return str(bool(value)).lower() == qualifier
    return value == qualifier


def score(
    method: Methodology, strategy: StrategySpec, signals: dict[str, Any], node_bound: bool
) -> float:
    base = 0.0
    for key, weight in strategy.signal_weights.items():
        resolved = resolve_weight_key(key)
        assert resolved is not None
        spec, qualifier = resolved
        if (not node_bound and is_node_signal(spec.name)) or spec.name not in signals:
            continue
        value = signals[spec.name]
        if qualifier is not None:
            low, high = method.tuning.bin_low, method.tuning.bin_high
            base += weight if _matches(spec, qualifier, value, low, high) else 0.0
        elif isinstance(value, bool | int | float):
            base += weight * float(value)
    phase = method.phases.get(signals["meta.interview.phase"])
    multiplier = phase.signal_weights.get(strategy.name, 1.0)
    return base * multiplier + phase.phase_bonuses.get(strategy.name, 0.0)


def rank(
    method: Methodology, nodes: dict[str, dict[str, Any]], **overrides: Any
) -> list[tuple[float, str, str | None]]:
    """Every (strategy, node) candidate, best first; global overrides use __ for dots."""
    signals = {**GLOBAL, **{k.replace("__", "."): v for k, v in overrides.items()}}
    candidates: list[tuple[float, str, str | None]] = []
    for strategy in method.strategies:
        # like the core: on an empty graph a node-bound strategy still gets a node-less candidate
        if strategy.node_binding == "none" or not nodes:
            candidates.append((score(method, strategy, signals, False), strategy.name, None))
            continue
        for node_id, node_signals in nodes.items():
            combined = {**signals, **node_signals}
            candidates.append((score(method, strategy, combined, True), strategy.name, node_id))
    return sorted(candidates, key=lambda c: -c[0])


def winner(method: str, nodes: dict[str, dict[str, Any]], **overrides: Any) -> tuple[str, Any]:
    best = rank(load_method(method), nodes, **overrides)[0]
    return best[1], best[2]


MEC_CHAIN = chain(0.0, 0.25, 0.5)  # attribute -> functional -> psychosocial (frontier n2)
MEC_FULL = chain(0.0, 0.25, 0.5, 0.75, 1.0)  # reached a terminal value
SPENT = node(
    0.25,
    recency_score=1.0,
    has_outgoing=False,
    exhausted=True,
    exhaustion_score=0.9,
    focus_streak="high",
    is_current_focus=True,
    meta__node__opportunity="exhausted",
    technique__node__strategy_repetition="high",
)
HEDGED = {"llm__hedging_language": "high", "llm__certainty": 0.0, "llm__specificity": 0.25}
TIRING = {"llm__engagement": 0.0, "llm__global_response_trend": "shallowing"}
SATURATED = {
    "meta__conversation__saturation": 0.85,
    "llm__global_response_trend": "fatigued",
    "llm__engagement": 0.25,
    "graph__new_info_rate": 0.0,
}

Scenario = tuple[str, str, dict[str, dict[str, Any]], dict[str, Any], str, str | None]
# fmt: off
SCENARIOS: list[Scenario] = [
    # (methodology, description, nodes, overrides, expected strategy, expected node or "*")
    ("means_end_chain", "empty graph opens a ladder", {}, {"meta__interview__phase": "early"},
     "explore", None),
    ("means_end_chain", "first attribute is laddered", {"a": frontier(0.0, is_orphan=True)},
     {"meta__interview__phase": "early", "graph__depth_ratio": 0.0}, "deepen", "a"),
    ("means_end_chain", "climb from the chain's top", MEC_CHAIN, {}, "deepen", "n2"),
    ("means_end_chain", "instrumental value still climbs", chain(0, 0.25, 0.5, 0.75), {},
     "deepen", "n3"),
    ("means_end_chain", "terminal reached: open a new ladder", MEC_FULL, CHAIN_DONE,
     "explore", None),
    ("means_end_chain", "engaged answer after a terminal: still explore", MEC_FULL,
     {**CHAIN_DONE, "llm__response_depth": "deep", "llm__engagement": 1.0,
      "llm__intellectual_engagement": 1.0}, "explore", None),
    ("means_end_chain", "exhausted node: backtrack to a fresh one",
     {"a": node(0.0), "spent": SPENT, "fresh": node(0.0, recency_score=0.6, has_outgoing=False)},
     {"llm__response_depth": "shallow"}, "deepen", "fresh"),
    ("means_end_chain", "hedged answer about the current focus is clarified",
     {**MEC_CHAIN, "n2": {**MEC_CHAIN["n2"], "graph.node.is_current_focus": True}}, HEDGED,
     "clarify", "n2"),
    ("means_end_chain", "brief but steady answers keep laddering", MEC_CHAIN,
     {"llm__response_depth": "surface", "llm__engagement": 0.25}, "deepen", "n2"),
    ("means_end_chain", "disengagement is revitalized", MEC_CHAIN, TIRING, "revitalize", None),
    ("means_end_chain", "saturated and tiring: close early", MEC_CHAIN, SATURATED,
     "reflect", None),
    ("means_end_chain", "late phase closes", MEC_CHAIN,
     {"meta__interview__phase": "late", "llm__response_depth": "deep"}, "reflect", None),
    ("jobs_to_be_done", "empty graph opens a situation", {}, {"meta__interview__phase": "early"},
     "explore_situation", None),
    ("jobs_to_be_done", "dig from a fresh job statement", chain(0.0, 0.33, 0.67), {},
     "dig_motivation", "n2"),
    ("jobs_to_be_done", "frustration uncovers obstacles",
     {**chain(0.0, 0.33), "s": node(0.0, is_current_focus=True)},
     {"llm__valence": 0.0, "llm__specificity": 0.75}, "uncover_obstacles", "*"),
    ("jobs_to_be_done", "hedged claim is clarified", chain(0.0, 0.33, 0.67), HEDGED,
     "clarify_assumption", "*"),
    ("jobs_to_be_done", "emotional job reached: new situation", chain(0.0, 0.33, 0.67, 1.0),
     CHAIN_DONE, "explore_situation", None),
    ("jobs_to_be_done", "disengagement is revitalized", chain(0.0, 0.67), TIRING,
     "revitalize", None),
    ("jobs_to_be_done", "saturated and tiring: close early", chain(0.0, 0.67), SATURATED,
     "validate_outcome", None),
    ("jobs_to_be_done", "late phase closes", chain(0.0, 0.67), {"meta__interview__phase": "late"},
     "validate_outcome", None),
    ("critical_incident", "empty graph asks for an incident", {},
     {"meta__interview__phase": "early"}, "elicit_incident", None),
    ("critical_incident", "vague incident is narrated", {"i": frontier(0.0)},
     {"meta__interview__phase": "early", "llm__specificity": 0.25}, "deepen_narrative", "i"),
    ("critical_incident", "outcome: why did it happen", chain(0.0, 0.25, 0.5), {},
     "probe_attributions", "n2"),
    ("critical_incident", "charged outcome: feelings first", chain(0.0, 0.25, 0.5),
     {"llm__valence": 0.0, "llm__engagement": 1.0}, "explore_emotions", "*"),
    ("critical_incident", "attribution: what was learned", chain(0.0, 0.25, 0.5, 0.75), {},
     "extract_insights", "n3"),
    ("critical_incident", "lesson reached: next incident", chain(0.0, 0.25, 0.5, 0.75, 1.0),
     CHAIN_DONE, "elicit_incident", None),
    ("critical_incident", "disengagement is revitalized", chain(0.0, 0.5), TIRING,
     "revitalize", None),
    ("critical_incident", "saturated and tiring: close early", chain(0.0, 0.5), SATURATED,
     "validate", None),
    ("critical_incident", "late phase closes", chain(0.0, 0.5), {"meta__interview__phase": "late"},
     "validate", None),
]
# fmt: on


@pytest.mark.parametrize(
    ("method", "nodes", "overrides", "strategy", "focus"),
    [pytest.param(m, n, o, s, f, id=f"{m}: {d}") for m, d, n, o, s, f in SCENARIOS],
)
def test_weights_pick_the_intended_move(
    method: str, nodes: dict[str, Any], overrides: dict[str, Any], strategy: str, focus: Any
) -> None:
    chosen, chosen_node = winner(method, nodes, **overrides)
    assert chosen == strategy, rank(load_method(method), nodes, **overrides)[:4]
    if focus != "*":
        assert chosen_node == focus


def test_the_core_ranking_agrees_on_every_scenario() -> None:
    """The reference scorer above is only a model: the real joint ranking must pick the same."""
    from interview_cli.core.decide.scored import NodeInfo
    from interview_cli.core.decide.scoring import rank_strategy_node_pairs

    for method_name, description, nodes, overrides, strategy, focus in SCENARIOS:
        m = load_method(method_name)
        signals = {**GLOBAL, **{k.replace("__", "."): v for k, v in overrides.items()}}
        ranking = rank_strategy_node_pairs(
            m.strategies,
            signals,
            nodes,
            {node_id: NodeInfo(node_id, 0) for node_id in nodes},
            tuning=m.tuning,
            phase=m.phases.get(signals["meta.interview.phase"]),
        )
        assert ranking.selected is not None
        chosen = (ranking.selected.strategy, ranking.selected.node_id)
        assert chosen[0] == strategy, f"{method_name}: {description}: {chosen}"
        assert focus == "*" or chosen[1] == focus, f"{method_name}: {description}: {chosen}"


GRAPHS: dict[str, dict[str, dict[str, Any]]] = {
    "empty": {},
    "fresh attribute": {"a": frontier(0.0, is_orphan=True)},
    "only a terminal": {"t": frontier(1.0, is_terminal=True)},
    "all spent": {"spent": SPENT},
}
VARIATIONS: dict[str, list[Any]] = {
    "meta.interview.phase": ["early", "mid"],
    "meta.conversation.saturation": [0.0, 0.7],
    "llm.engagement": [0.0, 0.5, 1.0],
    "llm.response_depth": ["surface", "deep"],
    "llm.global_response_trend": ["deepening", "stable", "shallowing", "fatigued"],
    "llm.hedging_language": ["none", "high"],
    "llm.certainty": [0.0, 1.0],
    "llm.valence": [0.0, 1.0],
    "llm.knowledge_ceiling": ["none", "terminal"],
    "graph.new_info_rate": [0.0, 1.0],
    "chain": ["none", "done"],
    "temporal.strategy_repetition_count": [1, 5],
    "graph": list(GRAPHS),
}


@pytest.mark.parametrize("name", ["means_end_chain", "jobs_to_be_done", "critical_incident"])
def test_closing_never_wins_early_or_mid_unless_saturated(name: str) -> None:
    """A closing strategy ends the interview, so before the late phase it may only win once
    saturation is high - whatever else the signals say. Seeded sample of the combinations."""
    m = load_method(name)
    closing = closing_strategy(m).name
    combos = list(itertools.product(*VARIATIONS.values()))
    for combo in random.Random(20240601).sample(combos, 2500):
        settings = dict(zip(VARIATIONS, combo, strict=True))
        nodes = GRAPHS[settings.pop("graph")]
        done = settings.pop("chain") == "done"
        overrides = {k.replace(".", "__"): v for k, v in settings.items()}
        if done:
            overrides.update({k.replace(".", "__"): v for k, v in CHAIN_DONE.items()})
        best = rank(m, nodes, **overrides)[0]
        assert best[1] != closing, f"{name}: {closing} won with {settings}, graph {nodes}"
