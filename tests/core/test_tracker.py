"""NodeStateTracker: registration, focus, yield, response timing, ageing, persistence."""

from __future__ import annotations

import json

import pytest
from kg_fixtures import e, extract, methodology, n

from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.tracker import (
    NODE_TRACKER_SCHEMA_VERSION,
    NodeState,
    NodeStateTracker,
    advance_turn,
    append_response_signal,
    apply_graph_delta,
    record_yield,
    register_node,
    update_edge_counts,
    update_focus,
)

METH = methodology()


def tracked(*labels: str) -> tuple[KnowledgeGraph, NodeStateTracker]:
    """Nodes ``n1..`` created at turn 1 and registered through the graph delta."""
    graph = KnowledgeGraph()
    delta = extract(graph, [n(label) for label in labels], turn=1)
    tracker = apply_graph_delta(
        advance_turn(NodeStateTracker(), 1), graph, delta, methodology=METH, turn=1
    )
    return graph, tracker


def test_apply_graph_delta_registers_counts_edges_and_yields() -> None:
    graph = KnowledgeGraph()
    delta = extract(
        graph,
        [n("comfort"), n("relaxed", "consequence"), n("wellbeing", "value")],
        [e("comfort", "relaxed"), e("relaxed", "wellbeing")],
        turn=1,
    )
    tracker = apply_graph_delta(NodeStateTracker(), graph, delta, methodology=METH, turn=1)
    assert tracker.node_ids == ["n1", "n2", "n3"]
    a, c, v = (tracker.states[i] for i in ("n1", "n2", "n3"))
    assert (a.level, a.is_terminal, a.depth, a.node_type) == (1, False, 0, "attribute")
    assert (v.level, v.is_terminal, v.depth) == (3, True, 2)
    assert (c.edge_count_incoming, c.edge_count_outgoing, c.connected_node_ids) == (
        1,
        1,
        {"n1", "n3"},
    )
    assert a.is_orphan is False and all(
        s.yield_count == 1 and s.last_yield_turn == 1 for s in (a, c, v)
    )
    assert a.created_at_turn == 1 and a.recent_depths_window == 3


def test_response_depth_goes_to_the_previous_focus_before_the_focus_moves() -> None:
    _, tracker = tracked("comfort", "price")
    tracker = update_focus(tracker, "n1", 1, "deepen")  # question of turn 1 is about comfort
    # turn 2: the answer replies to the comfort question ...
    tracker = advance_turn(tracker, 2)
    tracker = append_response_signal(tracker, "surface")
    # ... and only then does the focus move on.
    tracker = update_focus(tracker, "n2", 2, "deepen")
    assert tracker.states["n1"].all_response_depths == ("surface",)
    assert tracker.states["n2"].all_response_depths == ()
    assert tracker.previous_focus == "n2"


def test_no_previous_focus_records_nothing() -> None:
    _, tracker = tracked("comfort")
    assert append_response_signal(tracker, "deep") is tracker


def test_terminal_dont_know_marks_the_knowledge_ceiling() -> None:
    _, tracker = tracked("comfort")
    tracker = update_focus(tracker, "n1", 1, "deepen")
    tracker = advance_turn(tracker, 2)
    tracker = append_response_signal(tracker, "surface", knowledge_ceiling="exploratory")
    assert tracker.states["n1"].knowledge_ceiling_turn is None
    tracker = append_response_signal(tracker, None, knowledge_ceiling="terminal")
    assert tracker.states["n1"].knowledge_ceiling_turn == 2
    assert tracker.states["n1"].all_response_depths == ("surface",)


def test_focus_streaks_and_strategy_repetition() -> None:
    _, tracker = tracked("comfort", "price")
    for turn, (node, strategy) in enumerate(
        [
            ("n1", "deepen"),
            ("n1", "deepen"),
            ("n1", "clarify"),
            ("n2", "deepen"),
            ("n1", "clarify"),
        ],
        start=1,
    ):
        tracker = update_focus(advance_turn(tracker, turn), node, turn, strategy)
        if turn == 3:
            s = tracker.states["n1"]
            assert (s.current_focus_streak, s.consecutive_same_strategy) == (3, 1)
    s1, s2 = tracker.states["n1"], tracker.states["n2"]
    assert s1.focus_count == 4 and s1.current_focus_streak == 1 and s1.last_focus_turn == 5
    assert s1.strategy_usage_count == {"deepen": 2, "clarify": 2}
    # clarify, (n2 in between), clarify: consecutive on this node's own history
    assert (s1.last_strategy_used, s1.consecutive_same_strategy) == ("clarify", 2)
    assert s2.current_focus_streak == 0 and s2.focus_count == 1


def test_no_node_focus_resets_every_streak() -> None:
    _, tracker = tracked("comfort")
    tracker = update_focus(tracker, "n1", 1, "deepen")
    tracker = update_focus(tracker, "n1", 2, "deepen")
    tracker = update_focus(tracker, None, 3, "explore")
    assert tracker.previous_focus is None
    assert tracker.states["n1"].current_focus_streak == 0
    assert tracker.states["n1"].strategy_usage_count == {"deepen": 2}
    # an unknown node id is treated like no node
    assert update_focus(tracker, "n42", 4, "deepen").previous_focus is None


def test_yield_goes_to_new_nodes_and_the_previous_focus() -> None:
    _, tracker = tracked("comfort", "price")
    tracker = update_focus(tracker, "n1", 1, "deepen")
    tracker = record_yield(advance_turn(tracker, 2), ["n2"], 2)
    assert tracker.states["n1"].last_yield_turn == 2 and tracker.states["n1"].yield_count == 2
    assert tracker.states["n2"].yield_count == 2
    # one yield per node per turn
    assert record_yield(tracker, ["n1"], 2) is tracker
    # merges only (graph did not change): the previous focus gets no credit
    later = record_yield(advance_turn(tracker, 3), ["n2"], 3, graph_changed=False)
    assert later.states["n1"].last_yield_turn == 2 and later.states["n2"].last_yield_turn == 3
    # an edge-only turn: no node ids but the graph changed
    later = record_yield(advance_turn(tracker, 3), [], 3, graph_changed=True)
    assert later.states["n1"].last_yield_turn == 3


def test_restating_the_focus_is_no_yield_so_the_node_can_exhaust() -> None:
    # Seed 003: record_yield() only "if graph changed". An answer that only restates the
    # focused concept merges into it (a new alias and quote) and must not count as a yield.
    graph, tracker = tracked("cheap")
    tracker = update_focus(tracker, "n1", 1, "clarify")
    for turn, answer in enumerate(["it's cheap", "cheap", "Cheap!", "it is cheap"], start=2):
        tracker = advance_turn(tracker, turn)
        delta = extract(graph, [n(answer)], turn=turn)
        assert delta.nodes_merged and not delta.changed
        assert delta.yield_node_ids == []
        tracker = apply_graph_delta(tracker, graph, delta, methodology=METH, turn=turn)
        tracker = update_focus(tracker, "n1", turn, "clarify")
    state = tracker.states["n1"]
    assert (state.yield_count, state.last_yield_turn, state.turns_since_last_yield) == (1, 1, 4)
    # A new edge from the focus is new information again.
    delta = extract(graph, [n("save money", "consequence")], [e("cheap", "save money")], turn=6)
    assert delta.yield_node_ids == ["n2", "n1"]


def test_yield_rate_is_yields_per_focus_capped_at_one() -> None:
    _, tracker = tracked("comfort")
    assert tracker.states["n1"].yield_rate == 1.0  # created = one yield, never focused
    for turn in (1, 2, 3):
        tracker = update_focus(advance_turn(tracker, turn), "n1", turn, "deepen")
    assert tracker.states["n1"].yield_rate == pytest.approx(1 / 3)


def test_advance_turn_ages_from_creation_or_last_event() -> None:
    _, tracker = tracked("comfort", "price")
    tracker = update_focus(advance_turn(tracker, 2), "n1", 2, "deepen")
    tracker = advance_turn(tracker, 6)
    s1, s2 = tracker.states["n1"], tracker.states["n2"]
    assert (s1.turns_since_last_focus, s1.turns_since_last_yield) == (4, 5)
    assert (s2.turns_since_last_focus, s2.turns_since_last_yield) == (5, 5)
    assert tracker.turn == 6


def test_shallow_ratio_uses_the_recent_window() -> None:
    state = NodeState(
        node_id="n1",
        label="x",
        created_at_turn=1,
        all_response_depths=("surface", "deep", "shallow", "deep"),
    )
    assert state.shallow_ratio == pytest.approx(1 / 3)
    assert state.deep_ratio == pytest.approx(2 / 3)
    assert NodeState(node_id="n1", label="x", created_at_turn=1).shallow_ratio == 0.0
    wide = NodeState(
        node_id="n1",
        label="x",
        created_at_turn=1,
        all_response_depths=("surface", "deep"),
        recent_depths_window=5,
    )
    assert wide.shallow_ratio == 0.5


def test_edge_counts_self_loops_and_untracked_endpoints() -> None:
    _, tracker = tracked("comfort")
    tracker = update_edge_counts(tracker, "n1", "n1")
    s = tracker.states["n1"]
    assert (s.edge_count_outgoing, s.edge_count_incoming, s.connected_node_ids) == (
        1,
        1,
        frozenset(),
    )
    tracker = update_edge_counts(tracker, "n1", "ghost")
    assert tracker.states["n1"].edge_count_outgoing == 2
    assert "ghost" not in tracker and tracker.states["n1"].connected_node_ids == {"ghost"}


def test_updates_return_new_values_and_leave_the_old_one_alone() -> None:
    _, before = tracked("comfort")
    after = update_focus(before, "n1", 1, "deepen")
    assert before.states["n1"].focus_count == 0 and before.previous_focus is None
    assert after.states["n1"].focus_count == 1
    graph = KnowledgeGraph()
    extract(graph, [n("comfort")])
    assert register_node(after, graph.node("n1"), 5) is after  # already tracked


def test_to_dict_round_trip_through_json() -> None:
    _, tracker = tracked("comfort", "price")
    tracker = update_focus(advance_turn(tracker, 2), "n1", 2, "deepen")
    tracker = append_response_signal(advance_turn(tracker, 3), "deep", "terminal")
    tracker = update_edge_counts(tracker, "n1", "n2")
    data = json.loads(json.dumps(tracker.to_dict()))
    assert data["schema_version"] == NODE_TRACKER_SCHEMA_VERSION == 1
    assert data["previous_focus"] == "n1"
    assert NodeStateTracker.from_dict(data) == tracker


def test_from_dict_handles_missing_and_refuses_unknown_versions() -> None:
    assert NodeStateTracker.from_dict(None) == NodeStateTracker()
    with pytest.raises(ValueError, match="schema_version"):
        NodeStateTracker.from_dict({"schema_version": 2, "states": {}})
    bad = NodeStateTracker().to_dict() | {
        "states": {"n1": {"node_id": "n1", "label": "x", "created_at_turn": 1, "mood": 3}}
    }
    with pytest.raises(ValueError, match="unknown fields"):
        NodeStateTracker.from_dict(bad)


@pytest.mark.parametrize("switched_on", [True, False])
def test_a_node_that_revises_another_counts_its_links_as_its_own(switched_on: bool) -> None:
    # "I mean feeling connected to her", asked what "a relationship that works" meant, after
    # they had said what the relationship leads to: the clearer words revise the focus, and
    # what it leads to was said of them too (the answered-why veto reads the count); a session
    # recorded before the switch replays without it
    meth = methodology(vetoes={"revised_inherits_links": switched_on})
    graph = KnowledgeGraph()
    delta = extract(
        graph,
        [n("relationship that works", "consequence"), n("wellbeing", "value")],
        [e("relationship that works", "wellbeing")],
        turn=1,
        meth=meth,
    )
    tracker = apply_graph_delta(NodeStateTracker(), graph, delta, methodology=meth, turn=1)
    revised = extract(
        graph,
        [n("feeling connected", "consequence", corrects="relationship that works")],
        turn=2,
        meth=meth,
    )
    assert [(s.node_id, s.by) for s in revised.superseded] == [("n1", "n3")]
    tracker = apply_graph_delta(advance_turn(tracker, 2), graph, revised, methodology=meth, turn=2)
    state = tracker.states["n3"]
    inherited = (1, {"n2"}) if switched_on else (0, frozenset())
    assert (state.edge_count_outgoing, state.connected_node_ids) == inherited
    # the node it revises keeps its own
    assert tracker.states["n1"].edge_count_outgoing == 1
