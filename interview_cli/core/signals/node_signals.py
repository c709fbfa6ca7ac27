"""Per-node signals: ``graph.node.*``, ``technique.node.*`` and ``meta.node.opportunity``.

Implements seed 003 (ADR-015) "Node-Level Signals" and "Meta Signals", seed 001 "Node-Level
Signals" / "Node Exhaustion and Backtracking" and seed 002 Path 8 (exhaustion criteria and
score). Every value is derived from the node's ``NodeState`` in the tracker (after this turn's
graph update and response-depth append) and the methodology's ontology and tuning.

Exhaustion (seed 003, thresholds from ``tuning.exhaustion``)::

    exhausted = focus_count >= 1
                and turns_since_last_yield >= 3      (min_turns_since_yield)
                and current_focus_streak >= 2        (min_focus_streak)
                and shallow_ratio >= 0.66            (shallow_ratio)

    exhaustion_score = min(turns_since_last_yield, 10) / 10 * 0.4
                     + min(current_focus_streak, 5) / 5 * 0.3
                     + shallow_ratio * 0.3

``shallow_ratio`` is the share of surface/shallow answers among the node's last
``recent_depths_window`` (3) answers; 0 when the node has none.
"""

from __future__ import annotations

from collections.abc import Sequence

from interview_cli.config.switch_words import SWITCH_WORDS
from interview_cli.config.tuning import ExhaustionTuning, Habit
from interview_cli.core.decide.ladders import ladder_start, lowest_level
from interview_cli.core.decide.vetoes import returnable
from interview_cli.core.signals.base import Deps, SignalContext, node_signal
from interview_cli.core.signals.session_signals import ladder_ends
from interview_cli.core.tracker import CLOSING_OUTCOMES, NOTHING_NEW, SHALLOW_DEPTHS, NodeState

# The score's caps and weights are the seed's formula, not tuning: changing them changes what
# the 0.3 / 0.6 interpretation bands of seed 001 mean.
YIELD_STAGNATION_CAP = 10
FOCUS_STREAK_CAP = 5
YIELD_WEIGHT = 0.4
STREAK_WEIGHT = 0.3
SHALLOW_WEIGHT = 0.3


def shallow_ratio(depths: Sequence[str], window: int) -> float:
    recent = list(depths)[-window:] if window > 0 else []
    if not recent:
        return 0.0
    return sum(1 for d in recent if d in SHALLOW_DEPTHS) / len(recent)


def exhaustion_score(
    turns_since_last_yield: int, current_focus_streak: int, shallow: float
) -> float:
    """Seed 003's continuous exhaustion score: 0 (fresh) to 1 (exhausted)."""
    return (
        min(turns_since_last_yield, YIELD_STAGNATION_CAP) / YIELD_STAGNATION_CAP * YIELD_WEIGHT
        + min(current_focus_streak, FOCUS_STREAK_CAP) / FOCUS_STREAK_CAP * STREAK_WEIGHT
        + shallow * SHALLOW_WEIGHT
    )


def is_exhausted(
    *,
    focus_count: int,
    turns_since_last_yield: int,
    current_focus_streak: int,
    shallow: float,
    tuning: ExhaustionTuning,
) -> bool:
    """Seed 003's exhaustion rule (with seed 002's minimum engagement ``focus_count >= 1``)."""
    return (
        focus_count >= 1
        and turns_since_last_yield >= tuning.min_turns_since_yield
        and current_focus_streak >= tuning.min_focus_streak
        and shallow >= tuning.shallow_ratio
    )


def node_shallow_ratio(ctx: SignalContext, state: NodeState) -> float:
    window = ctx.methodology.tuning.exhaustion.recent_depths_window
    return shallow_ratio(state.all_response_depths, window)


def streak_level(streak: int) -> str:
    """Focus streak: none (0), low (1), medium (2-3), high (4+)."""
    if streak <= 0:
        return "none"
    if streak == 1:
        return "low"
    return "medium" if streak <= 3 else "high"


def repetition_level(consecutive: int) -> str:
    """Same strategy on a node: none (0-1), low (2), medium (3), high (4+)."""
    if consecutive <= 1:
        return "none"
    if consecutive == 2:
        return "low"
    return "medium" if consecutive == 3 else "high"


@node_signal("graph.node.exhausted")
def _exhausted(ctx: SignalContext, state: NodeState, deps: Deps) -> bool:
    return is_exhausted(
        focus_count=state.focus_count,
        turns_since_last_yield=state.turns_since_last_yield,
        current_focus_streak=state.current_focus_streak,
        shallow=node_shallow_ratio(ctx, state),
        tuning=ctx.methodology.tuning.exhaustion,
    )


@node_signal("graph.node.exhaustion_score")
def _exhaustion_score(ctx: SignalContext, state: NodeState, deps: Deps) -> float:
    return exhaustion_score(
        state.turns_since_last_yield, state.current_focus_streak, node_shallow_ratio(ctx, state)
    )


@node_signal("graph.node.yield_stagnation")
def _yield_stagnation(ctx: SignalContext, state: NodeState, deps: Deps) -> bool:
    return state.turns_since_last_yield >= ctx.methodology.tuning.exhaustion.min_turns_since_yield


@node_signal("graph.node.focus_streak")
def _focus_streak(ctx: SignalContext, state: NodeState, deps: Deps) -> str:
    return streak_level(state.current_focus_streak)


@node_signal("graph.node.is_current_focus")
def _is_current_focus(ctx: SignalContext, state: NodeState, deps: Deps) -> bool:
    return ctx.tracker.previous_focus == state.node_id


@node_signal("graph.node.recency_score")
def _recency_score(ctx: SignalContext, state: NodeState, deps: Deps) -> float:
    """1.0 for the current focus or a node created this turn, falling linearly to 0.0 at
    ``recency_horizon_turns`` (20) turns since the node was last focused or created."""
    if ctx.tracker.previous_focus == state.node_id:
        return 1.0
    last = max(state.created_at_turn, state.last_focus_turn or 0)
    age = max(ctx.turn_number - last, 0)
    horizon = ctx.methodology.tuning.exhaustion.recency_horizon_turns
    return max(0.0, 1.0 - age / horizon)


@node_signal("graph.node.is_orphan")
def _is_orphan(ctx: SignalContext, state: NodeState, deps: Deps) -> bool:
    return state.edge_count_incoming + state.edge_count_outgoing == 0


@node_signal("graph.node.edge_count")
def _edge_count(ctx: SignalContext, state: NodeState, deps: Deps) -> int:
    return state.edge_count_incoming + state.edge_count_outgoing


@node_signal("graph.node.has_outgoing")
def _has_outgoing(ctx: SignalContext, state: NodeState, deps: Deps) -> bool:
    return state.edge_count_outgoing > 0


@node_signal("graph.node.is_terminal")
def _is_terminal(ctx: SignalContext, state: NodeState, deps: Deps) -> bool:
    return state.is_terminal or state.node_type in ctx.methodology.ontology.terminal_types


@node_signal("graph.node.level_ratio")
def _level_ratio(ctx: SignalContext, state: NodeState, deps: Deps) -> float:
    ontology = ctx.methodology.ontology
    spec = ontology.node_type(state.node_type)
    level = spec.level if spec is not None else state.level
    span = ontology.max_level - 1
    if span <= 0 or level <= 0:
        return 0.0
    return min(max((level - 1) / span, 0.0), 1.0)


@node_signal("graph.node.rival")
def _rival(ctx: SignalContext, state: NodeState, deps: Deps) -> str:
    if "rivals" not in ctx.memo:
        ctx.memo["rivals"] = rival_groups(ctx)
    group: frozenset[str] | None = ctx.memo["rivals"].get(state.node_id)
    if group is None:
        return "none"
    states = [ctx.tracker.states[n] for n in group if n in ctx.tracker.states]
    told = max((s.created_at_turn for s in states), default=0)  # asked since it was told
    asked = any(p.turn >= told for s in states for p in s.probes)
    return "asked" if asked else "fresh"


def rival_groups(ctx: SignalContext) -> dict[str, frozenset[str]]:
    """Node id -> the alternatives it was set beside (itself included): nodes joined by a
    relation that is no rung of a chain, or of one type said in one answer whose words tell
    of a switch (``config.switch_words``); one told alone with such words is set beside the
    earlier one of its type asked about last (or, none asked, said last)."""
    graph = ctx.graph
    if graph is None:
        return {}
    pairs: list[tuple[str, str]] = []
    said: dict[tuple[int, str], list[str]] = {}
    for node_id, s in ctx.tracker.states.items():
        if node_id in graph:
            said.setdefault((s.created_at_turn, s.node_type), []).append(node_id)
    for (turn, kind), group in said.items():
        quotes = (str(p.get("quote", "")) for n in group for p in graph.node(n).provenance)
        if not any(SWITCH_WORDS.search(q) for q in quotes):
            continue
        if len(group) > 1:
            pairs += [(group[0], other) for other in group[1:]]
        elif before := [n for k, g in said.items() if k[1] == kind and k[0] < turn for n in g]:
            # "I nearly went for a bean-to-cup": told alone, it is set beside the way of
            # doing it asked about last (the pod machine the question was about), or said last
            pairs.append((group[0], max(before, key=lambda n: _last_asked(ctx, n))))
    rungs = ctx.methodology.ontology.chain_relations
    types = ctx.node_types
    pairs += [
        (r.source, r.target)
        for r in graph.edges()
        if r.relation not in rungs and types.get(r.source) == types.get(r.target)
    ]
    groups: dict[str, frozenset[str]] = {}
    for a, b in pairs:  # union of overlapping pairs: one switch told in two answers is one
        merged = groups.get(a, frozenset({a})) | groups.get(b, frozenset({b}))
        for node_id in merged:
            groups[node_id] = merged
    return groups


def _last_asked(ctx: SignalContext, node_id: str) -> tuple[int, int]:
    state = ctx.tracker.states[node_id]
    return (max((p.turn for p in state.probes), default=-1), state.created_at_turn)


@node_signal("graph.node.stance")
def _stance(ctx: SignalContext, state: NodeState, deps: Deps) -> str | None:
    graph = ctx.graph
    if graph is None or state.node_id not in graph:
        return None
    stance = graph.node(state.node_id).stance
    return "negative" if stance < 0 else "positive" if stance > 0 else "neutral"


@node_signal("meta.node.ladder_start")
def _ladder_start(ctx: SignalContext, state: NodeState, deps: Deps) -> str:
    if "lowest_level" not in ctx.memo:
        ctx.memo["lowest_level"] = lowest_level(ctx.tracker)
    return ladder_start(state, ctx.memo["lowest_level"], ladder_ends(ctx))


@node_signal("technique.node.strategy_repetition")
def _strategy_repetition(ctx: SignalContext, state: NodeState, deps: Deps) -> str:
    return repetition_level(state.consecutive_same_strategy)


@node_signal("technique.node.probe_history")
def _probe_history(ctx: SignalContext, state: NodeState, deps: Deps) -> str:
    if not state.probes:
        return "unprobed"
    rules = ctx.methodology.tuning
    tuning = rules.vetoes
    if (
        state.closed_by_respondent is not None
        or state.fruitless_probes >= tuning.fruitless_probe_limit
    ):
        if rules.follows(Habit.RETURN_SIGNAL) and returnable(
            state, tuning, ctx.turn_number, rules.ran_without
        ):
            return "returnable"  # left unfinished a while ago: time to come back another way
        return "exhausted"
    return "fruitless" if state.probes[-1].fruitless else "productive"


@node_signal("technique.node.last_answer")
def _last_answer(ctx: SignalContext, state: NodeState, deps: Deps) -> str:
    if not state.probes:
        return "none"
    outcome = state.probes[-1].outcome
    if outcome == NOTHING_NEW and state.all_response_depths[-1:] == ("surface",):
        return "bare"  # the answer's depth was recorded on this node with its outcome
    return "closed" if outcome in CLOSING_OUTCOMES else outcome


@node_signal("meta.node.opportunity")
def _opportunity(ctx: SignalContext, state: NodeState, deps: Deps) -> str:
    """exhausted when exhausted; probe_deeper when the respondent keeps answering this node
    deeply (focus streak medium or high, last answer deep) but the graph did not grow this turn
    - an extraction opportunity: ask differently, do not leave; fresh otherwise."""
    if deps.get("graph.node.exhausted"):
        return "exhausted"
    if (
        deps.get("graph.node.focus_streak") in ("medium", "high")
        and deps.get("llm.response_depth") == "deep"
        and state.turns_since_last_yield >= 1
    ):
        return "probe_deeper"
    return "fresh"
