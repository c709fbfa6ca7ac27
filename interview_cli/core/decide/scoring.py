"""Strategy scoring: compound weight keys, joint strategy-node ranking and two-stage selection.

Implements seed 001 "Strategy Selection Mechanisms" (signal weight scoring, compound keys,
node-scoped partitioning), "Joint Strategy-Node Scoring" (seed 003 / seed 002 Path 2 "D1"),
"Phase-Based Weights and Bonuses" and "MethodologyStrategyService" (two-stage selection).

How one weight key contributes (``contribution_for``):

| key form                      | signal value        | contribution                          |
|-------------------------------|---------------------|---------------------------------------|
| ``name`` (plain)              | bool                | weight if True else 0                 |
| ``name`` (plain)              | int / float         | weight * value                        |
| ``name`` (plain)              | categorical (str)   | 0 (a category has no magnitude)       |
| ``name.low`` (``.mid/.high``) | number              | weight if value <= bin_low (between / |
|                               |                     | >= bin_high)                          |
| ``name.true`` / ``.false``    | bool                | weight if the value matches           |
| ``name.<category>``           | categorical         | weight if value == category           |
| any key                       | signal not detected | skipped (seed: ``None -> continue``)  |

Bin edges are inclusive: 0.25 is ``.low`` and 0.75 is ``.high`` (``tuning.bin_low/bin_high``).

Score of a candidate: ``final = base * phase_multiplier + phase_bonus`` where ``base`` is the
sum of contributions (``math.fsum``: exactly rounded, so the order of keys cannot change it).

Ranking is deterministic: score descending, then strategy order in the methodology YAML, then
node created turn descending (recent nodes first, seed 003 "salience"), then node id (natural
order). Vetoed candidates stay in the list, ranked after every admissible one, and are never
selected - except by the documented fallback below.

All-vetoed fallback: when every candidate is vetoed, vetoes are relaxed from the softest
(``recent_redundancy``) to the hardest (``knowledge_ceiling``, see ``VETO_SEVERITY``): the
best candidate carrying the softest veto is selected, keeps its ``vetoed_by`` and the ranking
records ``fallback``. An interview must always be able to ask something; a soft repeat is a
smaller harm than a stalled turn.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from interview_cli.config.schemas import Methodology, PhaseSpec, StrategySpec
from interview_cli.config.signal_catalogue import NODE_SIGNAL_PREFIXES
from interview_cli.config.tuning import Tuning
from interview_cli.core.decide.scored import (
    NodeInfo,
    Ranking,
    ScoredCandidate,
    SignalContribution,
    Signals,
    SignalValue,
    Stage,
    VetoCheck,
)

FLOAT_BINS = ("low", "mid", "high")
# Softest first: the all-vetoed fallback relaxes vetoes in this order. Unknown vetoes count as
# hardest. Kept here (not in vetoes.py) so scoring does not depend on the veto module.
VETO_SEVERITY: tuple[str, ...] = (
    # (a closed list first: "what else?" once more beats a question on something disowned)
    "list_closed",
    *("elicited_not_laddered", "left_behind", "doubtful_reading", "recent_redundancy"),
    "open_question_spent",
    *("asked_enough", "repeated_probe"),
    *("answered_why", "element_exhausted", "node_exhausted", "knowledge_ceiling", "focus_type"),
    "nothing_to_raise",
)


# --------------------------------------------------------------------------------------------
# Weight keys
# --------------------------------------------------------------------------------------------


def partition_signal_weights(
    signal_weights: Mapping[str, float],
) -> tuple[dict[str, float], dict[str, float]]:
    """Split a strategy's weights into (global weights, node-scoped weights) by key prefix."""
    global_weights: dict[str, float] = {}
    node_weights: dict[str, float] = {}
    for key, weight in signal_weights.items():
        if key.startswith(NODE_SIGNAL_PREFIXES):
            node_weights[key] = weight
        else:
            global_weights[key] = weight
    return global_weights, node_weights


def _qualifier_matches(value: SignalValue, qualifier: str, tuning: Tuning) -> bool:
    if isinstance(value, bool):
        return qualifier == ("true" if value else "false")
    if isinstance(value, int | float):
        if qualifier == "low":
            return value <= tuning.bin_low
        if qualifier == "high":
            return value >= tuning.bin_high
        if qualifier == "mid":
            return tuning.bin_low < value < tuning.bin_high
        return False
    return value == qualifier


def contribution_for(
    key: str, weight: float, signals: Signals, tuning: Tuning
) -> SignalContribution | None:
    """How one weight key contributes given the signals; None when its signal is not detected.

    A key naming a detected signal exactly is plain; otherwise its last dotted part is a
    qualifier of the signal named by the rest (signal names themselves contain dots).
    """
    if key in signals:
        value = signals[key]
        if value is None:
            return None
        if isinstance(value, bool):
            return SignalContribution(key, value, weight, weight if value else 0.0)
        if isinstance(value, int | float):
            return SignalContribution(key, value, weight, weight * value)
        return SignalContribution(key, value, weight, 0.0)
    base, _, qualifier = key.rpartition(".")
    value = signals.get(base) if base else None
    if value is None:
        return None
    return SignalContribution(
        key, value, weight, weight if _qualifier_matches(value, qualifier, tuning) else 0.0
    )


ContributionCache = dict[tuple[Any, ...], SignalContribution | None]


def score_weights(
    weights: Mapping[str, float],
    signals: Signals,
    tuning: Tuning,
    cache: ContributionCache | None = None,
) -> tuple[SignalContribution, ...]:
    """Contributions of every weight key whose signal was detected, in the weights' order.

    ``cache`` memoises contributions by (key, weight, value) within one ranking: node signals
    take few distinct values, and joint scoring evaluates the same keys for every node.
    """
    out = []
    for key, weight in weights.items():
        if cache is None:
            c = contribution_for(key, weight, signals, tuning)
        else:
            value = signals.get(key)
            plain = value is not None or key in signals
            if not plain:
                value = signals.get(key.rpartition(".")[0])
            # type() in the key: True == 1 == 1.0 hash alike but contribute differently.
            memo = (key, weight, plain, type(value), value)
            if memo in cache:
                c = cache[memo]
            else:
                c = cache[memo] = contribution_for(key, weight, signals, tuning)
        if c is not None:
            out.append(c)
    return tuple(out)


def base_score(contributions: Sequence[SignalContribution]) -> float:
    return math.fsum(c.contribution for c in contributions)


def final_score(base: float, multiplier: float, bonus: float) -> float:
    """``(base * multiplier) + bonus`` (seed 001 "Phase-Based Weights and Bonuses")."""
    return base * multiplier + bonus


# --------------------------------------------------------------------------------------------
# Ranking
# --------------------------------------------------------------------------------------------


class _Raw(NamedTuple):
    """A scored candidate before ranking (cheap to build; ranking builds ScoredCandidates)."""

    strategy: str
    node_id: str | None
    node_label: str | None
    contributions: tuple[SignalContribution, ...]
    base: float
    multiplier: float
    bonus: float
    final: float
    vetoed_by: str | None
    stage: Stage

    def scored(self, rank: int, selected: bool) -> ScoredCandidate:
        return ScoredCandidate(
            self.strategy,
            self.node_id,
            self.node_label,
            self.contributions,
            self.base,
            self.multiplier,
            self.bonus,
            self.final,
            rank,
            selected,
            self.vetoed_by,
            self.stage,
        )


def _natural_key(text: str) -> tuple[Any, ...]:
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text))


class _Order:
    """The deterministic sort key of candidates (see the module docstring)."""

    def __init__(self, strategy_order: Sequence[str], nodes: Mapping[str, NodeInfo]) -> None:
        self.index = {name: i for i, name in enumerate(strategy_order)}
        # Computed once per node, not once per candidate.
        self.node_keys = {
            nid: (-info.created_turn, _natural_key(nid)) for nid, info in nodes.items()
        }

    def key(self, c: _Raw | ScoredCandidate) -> tuple[Any, ...]:
        final = c.final if isinstance(c, _Raw) else c.final_score
        node_part: tuple[Any, ...] = (False,)
        if c.node_id is not None:
            node_part = (True, *self.node_keys.get(c.node_id, (0, _natural_key(c.node_id))))
        return (
            c.vetoed_by is not None,
            -final,
            self.index.get(c.strategy, len(self.index)),
            # A node-less candidate first among exact ties of one strategy; then newer nodes.
            *node_part,
        )


def _severity(veto: str | None) -> int:
    if veto is None:
        return -1
    return VETO_SEVERITY.index(veto) if veto in VETO_SEVERITY else len(VETO_SEVERITY)


def _rank(
    raws: Sequence[_Raw], order: _Order
) -> tuple[tuple[ScoredCandidate, ...], ScoredCandidate | None, str | None]:
    """Sort, assign ranks 1..n and mark the selected candidate (see the module docstring)."""
    ordered = sorted(raws, key=order.key)
    if not ordered:
        return (), None, None
    chosen = 0
    fallback = None
    if ordered[0].vetoed_by is not None:
        # Every candidate is vetoed: the softest veto wins, then rank order.
        chosen = min(range(len(ordered)), key=lambda i: (_severity(ordered[i].vetoed_by), i))
        fallback = f"all candidates vetoed; relaxed '{ordered[chosen].vetoed_by}'"
    ranked = tuple(c.scored(i + 1, i == chosen) for i, c in enumerate(ordered))
    return ranked, ranked[chosen], fallback


def _phase_terms(strategy: str, phase: PhaseSpec | None) -> tuple[float, float]:
    if phase is None:
        return 1.0, 0.0
    return phase.signal_weights.get(strategy, 1.0), phase.phase_bonuses.get(strategy, 0.0)


class _Scorer:
    """Scores candidates of one ranking: shared inputs, the contribution cache, vetoes."""

    def __init__(
        self,
        global_signals: Signals,
        node_signals: Mapping[str, Signals],
        nodes: Mapping[str, NodeInfo],
        tuning: Tuning,
        phase: PhaseSpec | None,
        veto: VetoCheck | None,
    ) -> None:
        self.global_signals = global_signals
        self.node_signals = node_signals
        self.nodes = nodes
        self.node_ids = sorted(nodes, key=_natural_key)
        self.tuning = tuning
        self.phase = phase
        self.veto = veto
        self.cache: ContributionCache = {}
        # node weight keys -> node id -> signature number (see ``_signatures``).
        self.signatures: dict[tuple[str, ...], dict[str, int]] = {}

    def needs_node(self, strategy: StrategySpec) -> bool:
        return strategy.node_binding == "required" and bool(self.node_ids)

    def raw(
        self,
        strategy: StrategySpec,
        node_id: str | None,
        contributions: tuple[SignalContribution, ...],
        stage: Stage,
        veto: VetoCheck | None,
        base: float | None = None,
        terms: tuple[float, float] | None = None,
    ) -> _Raw:
        multiplier, bonus = terms or _phase_terms(strategy.name, self.phase)
        if base is None:
            base = base_score(contributions)
        info = self.nodes.get(node_id) if node_id is not None else None
        return _Raw(
            strategy.name,
            node_id,
            info.label if info is not None else None,
            contributions,
            base,
            multiplier,
            bonus,
            final_score(base, multiplier, bonus),
            veto(strategy, node_id) if veto is not None else None,
            stage,
        )

    def global_part(self, strategy: StrategySpec) -> tuple[SignalContribution, ...]:
        global_weights, _ = partition_signal_weights(strategy.signal_weights)
        return score_weights(global_weights, self.global_signals, self.tuning, self.cache)

    def strategy_candidates(self, strategy: StrategySpec, stage: Stage) -> list[_Raw]:
        """All candidates of one strategy: one per node, or one without a node.

        A node-bound strategy with no node to bind (empty graph) still gets one node-less
        candidate so that the first turns can be decided; its node weights do not apply.
        """
        _, node_weights = partition_signal_weights(strategy.signal_weights)
        # Global contributions are the same for every node: computed once per strategy.
        global_part = self.global_part(strategy)
        if not self.needs_node(strategy):
            return [self.raw(strategy, None, global_part, stage, self.veto)]
        out = []
        empty: Signals = {}
        signatures = self._signatures(tuple(node_weights))
        terms = _phase_terms(strategy.name, self.phase)  # the same for every node
        # signature -> (contributions, base): nodes alike in every weighted signal score alike.
        parts: dict[int, tuple[tuple[SignalContribution, ...], float]] = {}
        for node_id in self.node_ids:
            signature = signatures[node_id]
            part = parts.get(signature)
            if part is None:
                # Node weights only ever read node signals: the partition is by the same
                # prefixes, so "node signals take precedence" (seed 001) holds by construction.
                signals = self.node_signals.get(node_id, empty)
                node_part = score_weights(node_weights, signals, self.tuning, self.cache)
                contributions = global_part + node_part
                part = parts[signature] = (contributions, base_score(contributions))
            out.append(self.raw(strategy, node_id, part[0], stage, self.veto, part[1], terms))
        return out

    def _signatures(self, keys: tuple[str, ...]) -> dict[str, int]:
        """Node id -> a number standing for what ``score_weights`` reads of its signals.

        Two nodes get the same number exactly when every key of ``keys`` has the same cache
        entry in ``score_weights`` for both, so their contributions are the same objects and
        their base scores equal: scoring is done once per distinct signature, not per node.
        Computed once per set of node weight keys (strategies with the same keys share it).
        """
        known = self.signatures.get(keys)
        if known is not None:
            return known
        lookups = [(key, key.rpartition(".")[0]) for key in keys]
        numbers: dict[tuple[Any, ...], int] = {}
        out: dict[str, int] = {}
        empty: Signals = {}
        for node_id in self.node_ids:
            signals = self.node_signals.get(node_id, empty)
            signature: list[Any] = []
            for key, base in lookups:
                value = signals.get(key)
                plain = value is not None or key in signals
                if not plain:
                    value = signals.get(base)
                signature += (plain, type(value), value)
            out[node_id] = numbers.setdefault(tuple(signature), len(numbers))
        self.signatures[keys] = out
        return out


def rank_strategy_node_pairs(
    strategies: Sequence[StrategySpec],
    global_signals: Signals,
    node_signals: Mapping[str, Signals],
    nodes: Mapping[str, NodeInfo],
    *,
    tuning: Tuning,
    phase: PhaseSpec | None = None,
    veto: VetoCheck | None = None,
) -> Ranking:
    """Joint selection: score every strategy x every node in ``nodes`` (seed 003 / "D1")."""
    scorer = _Scorer(global_signals, node_signals, nodes, tuning, phase, veto)
    raws: list[_Raw] = []
    for strategy in strategies:
        raws += scorer.strategy_candidates(strategy, "joint")
    ranked, selected, fallback = _rank(raws, _Order([s.name for s in strategies], nodes))
    return Ranking(ranked, selected, "joint", fallback)


def _reselect(
    candidates: Sequence[ScoredCandidate], pick: ScoredCandidate | None
) -> tuple[ScoredCandidate, ...]:
    """Set ``selected`` on ``pick`` only, rebuilding just the candidates whose flag changes."""
    out = []
    for c in candidates:
        want = pick is not None and _same(c, pick)
        out.append(c if c.selected == want else replace(c, selected=want))
    return tuple(out)


def reselect(ranking: Ranking, pick: ScoredCandidate) -> Ranking:
    """The same ranking with ``pick`` as the selected candidate (a rule above scoring chose it)."""
    candidates = _reselect(ranking.candidates, pick)
    selected = next((c for c in candidates if c.selected), None)
    return replace(ranking, candidates=candidates, selected=selected)


def _same(a: ScoredCandidate, b: ScoredCandidate) -> bool:
    return (a.strategy, a.node_id, a.stage) == (b.strategy, b.node_id, b.stage)


def rank_two_stage(
    strategies: Sequence[StrategySpec],
    global_signals: Signals,
    node_signals: Mapping[str, Signals],
    nodes: Mapping[str, NodeInfo],
    *,
    tuning: Tuning,
    phase: PhaseSpec | None = None,
    veto: VetoCheck | None = None,
) -> Ranking:
    """Two-stage selection (seed 001 "MethodologyStrategyService").

    Stage 1 ranks strategies on their global weights only (node weights ignored), with the phase
    multiplier and bonus. Stage 2 ranks the nodes for the winning strategy when it is node-bound,
    with its full weights (global + node, so stage-2 scores read like joint scores). If every
    node is vetoed for the winner, the next strategy of stage 1 is tried; if nothing at all is
    admissible, the softest veto is relaxed over everything evaluated (module docstring).
    Both stages are recorded: stage-1 candidates have ``stage="strategy"``, stage-2 ``"node"``.
    """
    scorer = _Scorer(global_signals, node_signals, nodes, tuning, phase, veto)
    order = _Order([s.name for s in strategies], nodes)
    by_name = {s.name: s for s in strategies}
    stage1 = [
        # A node-bound strategy is judged on its nodes in stage 2, not vetoed as a whole here.
        scorer.raw(
            s, None, scorer.global_part(s), "strategy", None if scorer.needs_node(s) else veto
        )
        for s in strategies
    ]
    ranked1, _, _ = _rank(stage1, order)

    stage2: list[ScoredCandidate] = []
    chosen: ScoredCandidate | None = None
    for entry in ranked1:
        strategy = by_name[entry.strategy]
        if not scorer.needs_node(strategy):
            if entry.vetoed_by is None:
                chosen = entry
                break
            continue
        ranked2, _, _ = _rank(scorer.strategy_candidates(strategy, "node"), order)
        stage2 += ranked2
        if ranked2 and ranked2[0].vetoed_by is None:
            chosen = ranked2[0]
            break

    fallback = None
    if chosen is None:
        # Nothing admissible: the softest veto among everything evaluated, stage-1 order first.
        pool = [c for c in ranked1 if not scorer.needs_node(by_name[c.strategy])] + stage2
        if pool:
            chosen = min(pool, key=lambda c: (_severity(c.vetoed_by), order.key(c)))
            fallback = f"all candidates vetoed; relaxed '{chosen.vetoed_by}'"
    candidates = _reselect(ranked1, chosen) + _reselect(stage2, chosen)
    selected = next((c for c in candidates if c.selected), None)
    return Ranking(candidates, selected, "two_stage", fallback)


def rank_candidates(
    methodology: Methodology,
    global_signals: Signals,
    node_signals: Mapping[str, Signals],
    nodes: Mapping[str, NodeInfo],
    *,
    phase: str,
    veto: VetoCheck | None = None,
    strategies: Sequence[StrategySpec] | None = None,
) -> Ranking:
    """Rank with the methodology's selection mode and the phase's weights and bonuses;
    ``strategies``: the methodology's that apply this turn (default: all of them)."""
    rank = rank_two_stage if methodology.selection == "two_stage" else rank_strategy_node_pairs
    return rank(
        methodology.strategies if strategies is None else strategies,
        global_signals,
        node_signals,
        nodes,
        tuning=methodology.tuning,
        phase=methodology.phases.get(phase),
        veto=veto,
    )
