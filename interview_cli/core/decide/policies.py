"""Baseline interviewing policies: what a simple interviewer would ask instead (pure).

``--policy``: the adaptive decision (``core.decide``: signals, vetoes, joint
scoring) is the product; two deliberately simple baselines show whether it earns its keep.
Both see the same turn as the adaptive decision (the same tracker and graph state, the same
methodology), both ignore every signal and veto, and both use the continuation rules of the
core with their own choice (so they stop at saturation like the adaptive one, but never
choose to close):

- ``deepen_recent`` - depth first, by recency: ladder the newest non-terminal element the
  respondent mentioned ("why is that important to you?"); when that element is the one just
  asked about and nothing newer came back, open a new topic instead.
- ``breadth_first`` - level by level: ladder every element once, lowest level and oldest first;
  when every element has been asked about, open a new topic.

"Ladder" is the methodology's climbing strategy: the node-bound strategy with the largest
weight on ``graph.node.has_outgoing.false`` (the fresh top of a chain; ``deepen`` in laddering),
else the first node-bound one. "Open a new topic" is its first strategy without a node that
does not close the interview (``explore``). Nothing here names a methodology.

The policy is recorded in ``session.settings.policy``; ``core.turn.TurnInput.policy`` applies
it, so replaying a baseline session reproduces its decisions too.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from interview_cli.config.schemas import Methodology, StrategySpec
from interview_cli.core.decide.continuation import StopInputs, stop_conditions

if TYPE_CHECKING:
    from interview_cli.core.decide.decision import Decision, DecisionInputs, SelectedFocus
    from interview_cli.core.tracker import NodeState

ADAPTIVE = "adaptive"
DEEPEN_RECENT = "deepen_recent"
BREADTH_FIRST = "breadth_first"
POLICIES: tuple[str, ...] = (ADAPTIVE, DEEPEN_RECENT, BREADTH_FIRST)
FRONTIER_KEY = "graph.node.has_outgoing.false"


def laddering_strategy(methodology: Methodology) -> StrategySpec | None:
    """The node-bound strategy that climbs from the top of a chain."""
    bound = [s for s in methodology.strategies if s.node_binding == "required"]
    if not bound:
        return None
    return max(bound, key=lambda s: (s.signal_weights.get(FRONTIER_KEY, 0.0), -bound.index(s)))


def opening_strategy(methodology: Methodology) -> StrategySpec:
    """The first strategy without a node that does not end the interview (nor raises a
    stimulus element: an element is no topic of the respondent's)."""
    for s in methodology.strategies:
        if s.node_binding == "none" and not s.generates_closing_question:
            if s.focus_mode != "element":
                return s
    return next(s for s in methodology.strategies if not s.generates_closing_question)


def _focusable(inputs: DecisionInputs) -> list[NodeState]:
    from interview_cli.core.decide.decision import candidate_nodes

    ids = candidate_nodes(inputs)
    states = [inputs.tracker.states[i] for i in ids]
    return [s for s in states if not s.is_terminal]


def _natural(node_id: str) -> tuple[int, str]:
    digits = "".join(ch for ch in node_id if ch.isdigit())
    return (int(digits) if digits else 0, node_id)


def choose_deepen_recent(inputs: DecisionInputs) -> tuple[str, str | None, str]:
    """(strategy, node id, why) of the recency baseline."""
    m = inputs.methodology
    ladder, opener = laddering_strategy(m), opening_strategy(m)
    nodes = _focusable(inputs)
    if ladder is None or not nodes:
        return opener.name, None, "nothing to ladder yet: open a topic"
    newest = max(nodes, key=lambda s: (s.created_at_turn, _natural(s.node_id)))
    if inputs.tracker.previous_focus == newest.node_id:
        return opener.name, None, f"nothing newer than '{newest.label}': open a topic"
    return ladder.name, newest.node_id, f"ladder the newest element '{newest.label}'"


def choose_breadth_first(inputs: DecisionInputs) -> tuple[str, str | None, str]:
    """(strategy, node id, why) of the level-by-level baseline."""
    m = inputs.methodology
    ladder, opener = laddering_strategy(m), opening_strategy(m)
    unvisited = [s for s in _focusable(inputs) if s.focus_count == 0]
    if ladder is None or not unvisited:
        return opener.name, None, "every element asked about once: open a topic"
    first = min(unvisited, key=lambda s: (s.level, s.created_at_turn, _natural(s.node_id)))
    return ladder.name, first.node_id, f"ladder the next unvisited element '{first.label}'"


CHOOSERS = {DEEPEN_RECENT: choose_deepen_recent, BREADTH_FIRST: choose_breadth_first}


def apply_policy(policy: str, decision: Decision, inputs: DecisionInputs) -> Decision:
    """``decision`` as ``policy`` would have made it (the adaptive one is returned as is)."""
    if policy == ADAPTIVE:
        return decision
    if policy not in CHOOSERS:
        raise ValueError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")
    from interview_cli.core.decide.decision import SelectedFocus

    strategy, node_id, why = CHOOSERS[policy](inputs)
    label = inputs.tracker.states[node_id].label if node_id is not None else None
    selected: SelectedFocus = SelectedFocus(strategy, node_id, label)
    coverage = inputs.coverage
    continuation = stop_conditions(
        inputs.methodology.strategy(strategy),
        StopInputs(
            methodology=inputs.methodology,
            tracker=inputs.tracker,
            trend=inputs.trend,
            turn_number=inputs.turn_number,
            max_turns=inputs.max_turns,
            phase=decision.phase,
            saturation=inputs.saturation,
            coverage=coverage if coverage is not None and coverage.active else None,
            said_tired=bool(inputs.assessment and inputs.assessment.tiring),
            said_going=bool(inputs.assessment and inputs.assessment.going),
        ),
    )
    candidates = tuple(
        replace(c, selected=(c.strategy, c.node_id) == (strategy, node_id))
        for c in decision.candidates
    )
    rationale = [f"{policy} baseline: {why}"]
    adaptive = decision.selected
    if (adaptive.strategy, adaptive.node_id) != (strategy, node_id):
        target = f" on '{adaptive.label}'" if adaptive.label else ""
        rationale.append(f"the adaptive policy would have chosen {adaptive.strategy}{target}")
    if not continuation.should_continue:
        rationale.append(f"interview ends: {continuation.reason}")
    return replace(
        decision,
        selected=selected,
        candidates=candidates,
        continuation=continuation,
        rationale=tuple(rationale),
        fallback=None,
        # the adaptive policy's own rules did not choose this move
        tie_break=None,
        stop_deferred=None,
    )
