"""Where ladders start and end (``core.decide.ladders``) and the signals that read it:
``meta.interview.ladder_ended_since_breadth``, ``meta.node.ladder_start``, ``graph.node.stance``."""

from __future__ import annotations

from typing import Any

from interview_cli.config.schemas import Methodology
from interview_cli.core.decide.ladders import (
    ladder_end_turns,
    ladder_start,
    last_breadth_check,
    last_empty_breadth_check,
    lowest_level,
)
from interview_cli.core.decide.vetoes import FocusEntry
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.signals import SignalContext, detect_signals
from interview_cli.core.tracker import NodeState, NodeStateTracker, Probe

METHODOLOGY = Methodology.model_validate(
    {
        "method": {"name": "mini", "goal": "test"},
        "ontology": {
            "nodes": [
                {"name": "attribute", "level": 1},
                {"name": "consequence", "level": 2},
                {"name": "way_of_being", "level": 3},
                {"name": "end_state", "level": 4, "terminal": True},
            ],
            "edges": [
                {"name": "leads_to", "permitted_connections": [["attribute", "consequence"]]}
            ],
        },
        "strategies": [
            {"name": "deepen", "family": "deepen"},
            {"name": "explore", "family": "explore", "node_binding": "none"},
        ],
        "tuning": {"vetoes": {"fruitless_probe": True, "fruitless_probe_limit": 2}},
    }
)
BREADTH = Methodology.model_validate(
    METHODOLOGY.model_dump()
    | {
        "strategies": [
            {"name": "deepen", "family": "deepen"},
            {"name": "explore", "family": "explore", "node_binding": "none", "breadth_check": True},
        ]
    }
)
LEVELS = {"attribute": 1, "consequence": 2, "way_of_being": 3, "end_state": 4}


def node(node_id: str, kind: str, created: int, **extra: Any) -> NodeState:
    return NodeState(
        node_id=node_id,
        label=node_id,
        created_at_turn=created,
        node_type=kind,
        level=LEVELS[kind],
        is_terminal=kind == "end_state",
        **extra,
    )


def tracker(*states: NodeState, turn: int) -> NodeStateTracker:
    return NodeStateTracker(states={s.node_id: s for s in states}, turn=turn)


def test_a_ladder_ends_at_a_value_a_ceiling_or_a_node_left_after_empty_answers() -> None:
    asked_twice = (Probe(4, "deepen", "nothing_new"), Probe(6, "negative_ladder", "dont_know"))
    t = tracker(
        node("a", "attribute", 1),
        node("w", "way_of_being", 2),  # a way of being: the ladder may climb on
        node("v", "end_state", 3),  # an end state said at turn 3
        node("c", "consequence", 2, knowledge_ceiling_turn=5),  # "that's all there is to it"
        node("b", "attribute", 2, probes=asked_twice),  # left after the answer of turn 7
        node("x", "attribute", 2, probes=(Probe(8, "deepen", "move_on"),)),  # "move on"
        turn=9,
    )
    assert sorted(ladder_end_turns(METHODOLOGY, t)) == [3, 5, 7, 9]
    # a consequence reached is no end, nor is one empty answer, nor "dunno, calmer?": a
    # terminal don't-know in an answer that brought a rung after all
    t = tracker(
        node("a", "attribute", 1, knowledge_ceiling_turn=3),
        node("c", "consequence", 2, probes=(Probe(2, "deepen", "dont_know"),)),
        node("d", "way_of_being", 3),
        turn=3,
    )
    assert ladder_end_turns(METHODOLOGY, t) == ()


def test_breadth_checks_and_the_empty_one() -> None:
    history = (
        FocusEntry(2, "explore"),  # brought "b" at turn 3
        FocusEntry(3, "deepen", "b"),
        FocusEntry(4, "explore"),  # brought nothing at turn 5
        FocusEntry(5, "deepen", "a"),
    )
    t = tracker(node("a", "attribute", 1), node("b", "attribute", 3), turn=6)
    assert last_breadth_check(BREADTH.strategies, history) == 4
    assert last_empty_breadth_check(BREADTH.strategies, history, t) == 4
    assert last_empty_breadth_check(BREADTH.strategies, history[:2], t) is None
    # a breadth check not answered yet is not empty
    asked = tracker(node("a", "attribute", 1), node("b", "attribute", 3), turn=4)
    assert last_empty_breadth_check(BREADTH.strategies, history[:3], asked) is None
    # a methodology without a breadth-check strategy asked none
    assert last_breadth_check(METHODOLOGY.strategies, history) is None


def test_a_start_is_waiting_until_a_ladder_ends_after_it_was_said() -> None:
    a = node("a", "attribute", 1, focus_count=2)
    b = node("b", "attribute", 1)
    c = node("c", "consequence", 2)
    t = tracker(a, b, c, turn=3)
    low = lowest_level(t)
    assert low == 1
    assert [ladder_start(s, low, ()) for s in (a, b, c)] == ["opened", "waiting", "none"]
    assert ladder_start(b, low, (1,)) == "waiting"  # ended in the answer that named it
    assert ladder_start(b, low, (4,)) == "due"
    assert lowest_level(tracker(turn=0)) == 0


def context(t: NodeStateTracker, history: tuple[FocusEntry, ...] = ()) -> SignalContext:
    graph = KnowledgeGraph()
    for s in t.states.values():
        stance = -1 if s.node_id == "a" else 0
        graph.add_node(
            s.label,
            s.node_type,
            methodology=BREADTH,
            turn=s.created_at_turn,
            stance=stance,
            id_factory=lambda s=s: s.node_id,
        )
    return SignalContext(
        methodology=BREADTH,
        tracker=t,
        turn_number=t.turn,
        max_turns=20,
        graph=graph,
        focus_history=history,
    )


def test_the_signals_read_the_ladders() -> None:
    climbed = tracker(
        node("a", "attribute", 1, focus_count=1),
        node("b", "attribute", 1),
        node("v", "end_state", 2),
        turn=2,
    )
    found = detect_signals(context(climbed, (FocusEntry(1, "deepen", "a"),)))
    assert found.global_signals["meta.interview.ladder_ended_since_breadth"] is True
    assert found.node_signals["b"]["meta.node.ladder_start"] == "due"
    assert found.node_signals["a"]["meta.node.ladder_start"] == "opened"
    assert found.node_signals["a"]["graph.node.stance"] == "negative"
    assert found.node_signals["b"]["graph.node.stance"] == "neutral"
    # "what else?" came back empty (nothing said at turn 4): no breadth check is due ...
    asked = (FocusEntry(1, "deepen", "a"), FocusEntry(2, "deepen", "v"), FocusEntry(3, "explore"))
    later = tracker(*climbed.states.values(), node("w", "end_state", 5), turn=5)
    found = detect_signals(context(later, asked))
    assert found.global_signals["meta.interview.ladder_ended_since_breadth"] is False
    # ... until the respondent names something new to ladder and a ladder ends again
    named = tracker(
        *later.states.values(), node("n", "attribute", 6), node("u", "end_state", 7), turn=7
    )
    found = detect_signals(context(named, asked))
    assert found.global_signals["meta.interview.ladder_ended_since_breadth"] is True


def test_what_a_breadth_check_brought_is_laddered_before_the_next_one() -> None:
    # a value at turn 2, "what else?" asked at turn 2 and answered at turn 3 with something new
    # (round 255: "maybe that they don't make you feel like a bad person ..." was met with
    # "what else matters?" again: "you keep asking me the same thing")
    climbed = tracker(
        node("a", "attribute", 1, focus_count=1),
        node("v", "end_state", 2),
        node("n", "attribute", 3),
        turn=3,
    )
    asked = (FocusEntry(1, "deepen", "a"), FocusEntry(2, "explore"))
    found = detect_signals(context(climbed, asked))
    assert found.global_signals["meta.interview.ladder_ended_since_breadth"] is False
    # ... nor when that answer named a value with it (the review: "what else?" again before
    # the new thing was laddered)
    with_value = tracker(*climbed.states.values(), node("p", "end_state", 3), turn=3)
    found = detect_signals(context(with_value, asked))
    assert found.global_signals["meta.interview.ladder_ended_since_breadth"] is False
    # ... until a ladder ends after it
    ended = tracker(*climbed.states.values(), node("u", "end_state", 5), turn=5)
    asked += (FocusEntry(3, "deepen", "n"), FocusEntry(4, "deepen", "n"))
    found = detect_signals(context(ended, asked))
    assert found.global_signals["meta.interview.ladder_ended_since_breadth"] is True
