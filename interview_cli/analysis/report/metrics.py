"""Per-session metrics and their aggregate, for ``interview report``.

Every figure is computed from the session file alone: the graph through the core's own
``compute_graph_state`` with the session's methodology (so "max depth" and "chains" mean what
the interview's signals meant: rungs along the ontology's chain relations only, a contrast or a
revision is none; ``KnowledgeGraph.max_depth`` follows every relation and is not used here),
the methodology from the session's snapshot, the cost from its usage totals. Simulated
sessions (``interview batch``) carry a ground-truth evaluation in ``session.simulation``; its
recall is read from the first of the keys in ``RECALL_KEYS`` that is present, at the top level
or under ``evaluation``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from statistics import mean, median
from typing import Any

from interview_cli.analysis.report.question_card import QuestionCard, combine, question_card
from interview_cli.analysis.sources import SessionSource, session_graph, snapshot_methodology
from interview_cli.core.state import compute_graph_state
from interview_cli.session.schema import SessionFile

RECALL_KEYS: tuple[str, ...] = ("ladder_recall", "rung_recall", "recall")


@dataclass(frozen=True)
class SessionMetrics:
    id: str
    path: str
    concept: str
    methodology: str
    status: str
    turns: int
    termination_reason: str
    nodes: int
    edges: int
    edge_node_ratio: float
    max_depth: int
    chains_completed: int
    terminal_reached: bool
    strategy_mix: dict[str, int]
    cost_usd: float
    llm_calls: int
    policy: str
    persona: str | None = None
    recall: float | None = None
    participant: str | None = None  # run --participant
    participant_meta: dict[str, str] = field(default_factory=dict)  # run --meta
    # A fork (`interview fork`): the session it repeats up to ``fork_turn``, then leaves.
    fork_of: str | None = None
    fork_turn: int | None = None
    # provider:model called without a price: cost_usd counts the priced calls only, and the
    # cost is shown as unknown (never $0).
    unpriced: list[str] = field(default_factory=list)
    question_card: QuestionCard = field(default_factory=QuestionCard)

    def to_dict(self) -> dict[str, Any]:
        record = _unknown_cost(asdict(self), "cost_usd")
        record["question_card"] = self.question_card.to_dict()
        return record


@dataclass(frozen=True)
class AggregateMetrics:
    sessions: int
    turns_total: int
    turns_mean: float
    nodes_mean: float
    edges_mean: float
    edge_node_ratio_mean: float
    max_depth_mean: float
    max_depth_max: int
    chains_completed_total: int
    terminal_reached_share: float
    strategy_mix: dict[str, int]
    termination_reasons: dict[str, int]
    cost_usd_total: float
    recall_mean: float | None = None
    recall_median: float | None = None
    recall_sessions: int = 0
    by_status: dict[str, int] = field(default_factory=dict)
    unpriced: list[str] = field(default_factory=list)  # over all sessions (see SessionMetrics)
    question_card: QuestionCard = field(default_factory=QuestionCard)

    def to_dict(self) -> dict[str, Any]:
        record = _unknown_cost(asdict(self), "cost_usd_total")
        record["question_card"] = self.question_card.to_dict(flagged=False)
        return record


def _unknown_cost(record: dict[str, Any], key: str) -> dict[str, Any]:
    """JSON: a cost with unpriced calls in it is unknown (null), never a number that looks
    complete; what the priced calls cost stays under ``priced_<key>``."""
    if record.get("unpriced"):
        record[f"priced_{key}"] = record[key]
        record[key] = None
    return record


def simulation_recall(simulation: Mapping[str, Any] | None) -> float | None:
    """The ground-truth recall a batch run stored, if any."""
    if not simulation:
        return None
    places: list[Mapping[str, Any]] = [simulation]
    nested = simulation.get("evaluation")
    if isinstance(nested, Mapping):
        places.insert(0, nested)
    for place in places:
        for key in RECALL_KEYS:
            value = place.get(key)
            if isinstance(value, int | float) and not isinstance(value, bool):
                return float(value)
    return None


def _persona(simulation: Mapping[str, Any] | None) -> str | None:
    if not simulation:
        return None
    value = simulation.get("persona") or simulation.get("persona_id")
    if isinstance(value, Mapping):
        value = value.get("id")
    return str(value) if value else None


def session_metrics(session: SessionFile, path: str = "") -> SessionMetrics:
    methodology = snapshot_methodology(session)
    graph = session_graph(session) if session.graph.get("nodes") is not None else None
    turns = session.turn_count
    if graph is not None:
        state = compute_graph_state(graph, methodology, turns)
        nodes, edges, depth = state.node_count, state.edge_count, state.max_depth
        levels = methodology.ontology.levels
        lowest = min(levels.values())
        base = sum(c for t, c in state.nodes_by_type.items() if levels.get(t) == lowest)
        chains = round(state.chain_completion_ratio * base)
        terminal_types = set(methodology.ontology.terminal_types) or {
            n.name for n in methodology.ontology.nodes if n.level == methodology.ontology.max_level
        }
        terminal = any(state.nodes_by_type.get(t, 0) for t in terminal_types)
    else:
        nodes = edges = depth = chains = 0
        terminal = False
    mix = Counter(t.decision.strategy for t in session.completed_turns if t.decision)
    return SessionMetrics(
        id=session.id,
        path=path,
        concept=session.concept.id,
        methodology=session.methodology.name,
        status=session.status,
        turns=turns,
        termination_reason=session.termination_reason or "",
        nodes=nodes,
        edges=edges,
        edge_node_ratio=round(edges / nodes, 3) if nodes else 0.0,
        max_depth=depth,
        chains_completed=chains,
        terminal_reached=terminal,
        strategy_mix=dict(sorted(mix.items(), key=lambda kv: (-kv[1], kv[0]))),
        cost_usd=round(session.usage.priced_cost_usd, 6),
        llm_calls=session.usage.calls,
        policy=session.settings.policy,
        persona=_persona(session.simulation),
        recall=simulation_recall(session.simulation),
        participant=session.participant.id if session.participant else None,
        participant_meta=dict(session.participant.meta) if session.participant else {},
        fork_of=session.fork.session_id if session.fork else None,
        fork_turn=session.fork.turn if session.fork else None,
        unpriced=list(session.usage.unpriced),
        question_card=question_card(session),
    )


def metrics_for(sources: Sequence[SessionSource]) -> list[SessionMetrics]:
    return [session_metrics(s.session, str(s.path)) for s in sources]


def _sorted_counts(counter: Counter[str]) -> dict[str, int]:
    return dict(sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


def aggregate(rows: Sequence[SessionMetrics]) -> AggregateMetrics:
    if not rows:
        # A report over coding sheets alone has no interviews to measure.
        return AggregateMetrics(0, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, 0.0, {}, {}, 0.0)
    mix: Counter[str] = Counter()
    for r in rows:
        mix.update(r.strategy_mix)
    recalls = [r.recall for r in rows if r.recall is not None]
    return AggregateMetrics(
        sessions=len(rows),
        turns_total=sum(r.turns for r in rows),
        turns_mean=round(mean(r.turns for r in rows), 2),
        nodes_mean=round(mean(r.nodes for r in rows), 2),
        edges_mean=round(mean(r.edges for r in rows), 2),
        edge_node_ratio_mean=round(mean(r.edge_node_ratio for r in rows), 3),
        max_depth_mean=round(mean(r.max_depth for r in rows), 2),
        max_depth_max=max(r.max_depth for r in rows),
        chains_completed_total=sum(r.chains_completed for r in rows),
        terminal_reached_share=round(sum(r.terminal_reached for r in rows) / len(rows), 3),
        strategy_mix=_sorted_counts(mix),
        termination_reasons=_sorted_counts(Counter(r.termination_reason or "—" for r in rows)),
        cost_usd_total=round(sum(r.cost_usd for r in rows), 6),
        recall_mean=round(mean(recalls), 3) if recalls else None,
        recall_median=round(median(recalls), 3) if recalls else None,
        recall_sessions=len(recalls),
        by_status=_sorted_counts(Counter(r.status for r in rows)),
        unpriced=sorted({u for r in rows for u in r.unpriced}),
        question_card=combine([r.question_card for r in rows]),
    )
