"""What the session file keeps of a turn's outcome (stage 9): the decision and its inputs.

The core's typed outcome becomes the turn record's fields; candidates and node signals are
slimmed to the ones a reader (and ``replay --verify``) needs (``session.slim_candidates``).
"""

from __future__ import annotations

from interview_cli.core.turn import TurnOutcome
from interview_cli.session import (
    ContinuationRecord,
    DecisionRecord,
    TurnRecord,
    slim_candidates,
    slim_node_signals,
    slim_veto_reasons,
)


def record_outcome(turn: TurnRecord, outcome: TurnOutcome) -> None:
    """Fill ``turn`` with what the core decided (the slot step's record too, when it ran)."""
    decision = outcome.decision
    turn.graph_delta = outcome.delta.model_dump(mode="json")
    turn.signals = dict(decision.global_signals)
    turn.candidates, turn.candidate_summary = slim_candidates(
        [c.to_dict() for c in decision.candidates]
    )
    turn.node_signals = slim_node_signals(
        {k: dict(v) for k, v in decision.node_signals.items()}, turn.candidates
    )
    selected, continuation = decision.selected, decision.continuation
    turn.decision = DecisionRecord(
        strategy=selected.strategy,
        node_id=selected.node_id,
        label=selected.label,
        phase=decision.phase,
        rationale=list(decision.rationale),
        veto_reasons=slim_veto_reasons(dict(decision.veto_reasons), turn.candidates),
    )
    turn.continuation = ContinuationRecord(
        should_continue=continuation.should_continue,
        reason=continuation.reason or "",
        turns_remaining=continuation.turns_remaining,
    )
    if outcome.slot_discovery is not None:
        turn.slot_discovery = outcome.slot_discovery.model_dump(mode="json")
