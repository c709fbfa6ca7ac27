"""Tier-1 vetoes (seed 004): knowledge ceiling, element exhausted, recent redundancy."""

from __future__ import annotations

from typing import Any

from interview_cli.config.schemas import StrategySpec, VetoTuning
from interview_cli.core.tracker import NodeState, NodeStateTracker
from interview_cli.core.vetoes import (
    FocusEntry,
    VetoContext,
    VetoRecorder,
    check_vetoes,
    element_exhausted,
    knowledge_ceiling,
    recent_redundancy,
)

DEEPEN = StrategySpec(name="deepen")
CLARIFY = StrategySpec(name="clarify")
REFLECT = StrategySpec(name="reflect", node_binding="none")


def tracker(**states: NodeState) -> NodeStateTracker:
    return NodeStateTracker(states=states)


def node(node_id: str, **fields: Any) -> NodeState:
    return NodeState(node_id=node_id, label=node_id, created_at_turn=1, **fields)


def ctx(t: NodeStateTracker, turn: int = 6, **kw: Any) -> VetoContext:
    kw.setdefault("tuning", VetoTuning())
    return VetoContext(tracker=t, turn_number=turn, **kw)


# ---- knowledge ceiling -------------------------------------------------------------------


def test_terminal_dont_know_vetoes_every_node_bound_strategy_on_that_node_only() -> None:
    t = tracker(n1=node("n1", knowledge_ceiling_turn=5, last_yield_turn=3), n2=node("n2"))
    c = ctx(t)
    assert knowledge_ceiling(DEEPEN, "n1", c) is not None
    assert knowledge_ceiling(CLARIFY, "n1", c) is not None
    assert knowledge_ceiling(DEEPEN, "n2", c) is None
    assert knowledge_ceiling(REFLECT, None, c) is None


def test_knowledge_ceiling_strategy_list_makes_the_veto_conditional() -> None:
    t = tracker(n1=node("n1", knowledge_ceiling_turn=5))
    c = ctx(t, tuning=VetoTuning(knowledge_ceiling_strategies=["deepen"]))
    assert knowledge_ceiling(DEEPEN, "n1", c) is not None
    assert knowledge_ceiling(CLARIFY, "n1", c) is None


def test_knowledge_ceiling_lifts_when_the_node_yields_again() -> None:
    same_turn = tracker(n1=node("n1", knowledge_ceiling_turn=5, last_yield_turn=5))
    later = tracker(n1=node("n1", knowledge_ceiling_turn=5, last_yield_turn=6))
    assert knowledge_ceiling(DEEPEN, "n1", ctx(same_turn)) is not None
    assert knowledge_ceiling(DEEPEN, "n1", ctx(later)) is None


# ---- element exhausted -------------------------------------------------------------------


def test_element_exhausted_at_the_limit_of_total_focuses() -> None:
    # Seed 000 "Mark exhausted if >= 3": the default limit is 3 total focuses.
    assert VetoTuning().element_max_focus == 3
    t = tracker(n1=node("n1"), n2=node("n2"))
    base: dict[str, Any] = {"node_elements": {"n1": ("taste",), "n2": ("price",)}}
    below = ctx(t, element_focus_counts={"taste": 2}, **base)
    over = ctx(t, element_focus_counts={"taste": 3}, **base)
    assert element_exhausted(DEEPEN, "n1", below) is None
    assert element_exhausted(DEEPEN, "n1", over) is not None
    assert element_exhausted(DEEPEN, "n2", over) is None
    assert element_exhausted(REFLECT, None, over) is None


# ---- recent redundancy -------------------------------------------------------------------


def test_same_strategy_same_node_without_yield_is_vetoed_within_the_window() -> None:
    t = tracker(n1=node("n1", last_yield_turn=3))
    history = [FocusEntry(turn=4, strategy="deepen", node_id="n1")]
    assert recent_redundancy(DEEPEN, "n1", ctx(t, focus_history=history)) is not None
    # Another strategy, or another node, is fine.
    assert recent_redundancy(CLARIFY, "n1", ctx(t, focus_history=history)) is None
    assert recent_redundancy(DEEPEN, "n2", ctx(t, focus_history=history)) is None


def test_redundancy_needs_a_recent_entry() -> None:
    t = tracker(n1=node("n1", last_yield_turn=1))
    old = [FocusEntry(turn=2, strategy="deepen", node_id="n1")]
    # Window 3 at turn 6 covers turns 3-5.
    assert recent_redundancy(DEEPEN, "n1", ctx(t, focus_history=old)) is None
    assert recent_redundancy(DEEPEN, "n1", ctx(t, turn=5, focus_history=old)) is not None


def test_redundancy_lifts_when_the_focus_yielded_since() -> None:
    t = tracker(n1=node("n1", last_yield_turn=5))
    history = [FocusEntry(turn=4, strategy="deepen", node_id="n1")]
    assert recent_redundancy(DEEPEN, "n1", ctx(t, focus_history=history)) is None


def test_node_less_redundancy_uses_consecutive_zero_yield_turns() -> None:
    t = tracker()
    history = [FocusEntry(turn=4, strategy="reflect", node_id=None)]
    # Turns 5 and 6 both empty -> nothing learned since turn 4.
    assert recent_redundancy(REFLECT, None, ctx(t, focus_history=history, consecutive_low_info=2))
    assert not recent_redundancy(
        REFLECT, None, ctx(t, focus_history=history, consecutive_low_info=1)
    )


# ---- combination ---------------------------------------------------------------------------


def test_first_veto_wins_and_switches_turn_vetoes_off() -> None:
    t = tracker(n1=node("n1", knowledge_ceiling_turn=5))
    history = [FocusEntry(turn=5, strategy="deepen", node_id="n1")]
    result = check_vetoes(DEEPEN, "n1", ctx(t, focus_history=history))
    assert result is not None and result.name == "knowledge_ceiling"
    no_ceiling = VetoTuning(knowledge_ceiling=False)
    result = check_vetoes(DEEPEN, "n1", ctx(t, focus_history=history, tuning=no_ceiling))
    assert result is not None and result.name == "recent_redundancy"
    all_off = VetoTuning(knowledge_ceiling=False, recent_redundancy=False, element_exhausted=False)
    assert check_vetoes(DEEPEN, "n1", ctx(t, focus_history=history, tuning=all_off)) is None


def test_recorder_returns_names_and_keeps_reasons() -> None:
    t = tracker(n1=node("n1", knowledge_ceiling_turn=5))
    recorder = VetoRecorder(ctx(t))
    assert recorder(DEEPEN, "n1") == "knowledge_ceiling"
    assert recorder(REFLECT, None) is None
    assert "terminal don't-know" in recorder.reasons[("deepen", "n1")]
