"""Graph state metrics, saturation counters and information velocity (golden values)."""

from __future__ import annotations

from typing import Any

import pytest
from kg_fixtures import chain_graph, e, extract, methodology, n

from interview_cli.config.tuning import Habit, SaturationTuning
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.state import (
    GraphState,
    SaturationMetrics,
    VelocityState,
    chao1_ratio,
    compute_graph_state,
    conversation_saturation,
    update_saturation,
    update_velocity,
    velocity_decay,
)

METH = methodology()
SAT = SaturationTuning()


def assert_real_path(graph: KnowledgeGraph, path: list[str]) -> None:
    assert len(path) == len(set(path))
    for a, b in zip(path, path[1:], strict=False):
        assert graph.relations(a, b), (a, b)


def test_empty_graph_state() -> None:
    state = compute_graph_state(KnowledgeGraph(), METH, 0)
    assert state == GraphState(
        nodes_by_type={"attribute": 0, "consequence": 0, "value": 0},
        edges_by_type={"leads_to": 0, "contrasts_with": 0, "revises": 0},
    )


def test_complete_chain_metrics() -> None:
    graph = chain_graph(
        ("comfort", "attribute", "relaxed", "consequence"),
        ("relaxed", "consequence", "wellbeing", "value"),
    )
    extract(graph, [n("price")], turn=3)  # an orphan attribute with no chain
    state = compute_graph_state(graph, METH, 3)
    assert (state.node_count, state.edge_count, state.orphan_count) == (4, 2, 1)
    assert state.nodes_by_type == {"attribute": 2, "consequence": 1, "value": 1}
    assert state.edges_by_type["leads_to"] == 2
    assert state.max_depth == 2
    assert state.longest_chain_path == ["n1", "n2", "n3"]
    assert state.avg_depth == pytest.approx((0 + 1 + 2 + 0) / 4)
    assert state.depth_ratio == 1.0  # 2 edges span levels 1..3
    assert state.chain_completion_ratio == 0.5  # comfort reaches a value, price does not
    assert state.has_complete_chain
    assert state.edge_density == pytest.approx(2 / 4 / 2.0)
    assert state.turn_count == 3


def test_depth_ratio_and_density_are_capped() -> None:
    graph = chain_graph(
        ("a1", "attribute", "c1", "consequence"),
        ("c1", "consequence", "c2", "consequence"),
        ("c2", "consequence", "c3", "consequence"),
    )
    extract(graph, [], [e("a1", "c2"), e("a1", "c3"), e("c1", "c3"), e("c3", "c3")], turn=9)
    state = compute_graph_state(graph, METH, 9)
    assert state.max_depth == 3 and state.depth_ratio == 1.0
    assert state.edge_count == 7 and state.edge_density == 0.875
    assert (
        compute_graph_state(
            graph, methodology(saturation={"edge_density_norm": 1.0}), 9
        ).edge_density
        == 1.0
    )
    assert not state.has_complete_chain and state.chain_completion_ratio == 0.0


def test_a_cycle_counts_its_inner_rungs_and_the_chain_is_a_real_path() -> None:
    graph = chain_graph(
        ("a1", "attribute", "c1", "consequence"),
        ("c1", "consequence", "c2", "consequence"),
        ("c2", "consequence", "c1", "consequence"),
        ("c2", "consequence", "v1", "value"),
    )
    state = compute_graph_state(graph, METH, 4)
    assert state.max_depth == 3  # a1 -> c1 -> c2 -> v1, a real simple path
    assert state.longest_chain_path == ["n1", "n2", "n3", "n4"]
    assert_real_path(graph, state.longest_chain_path)
    # Members of a cycle share the depth of the group's deepest end (an upper bound).
    assert graph.node_depths() == {"n1": 0, "n2": 2, "n3": 2, "n4": 3}
    assert state.has_complete_chain


def test_closing_a_cycle_never_lowers_depth() -> None:
    graph = chain_graph(
        ("cheap", "attribute", "save money", "consequence"),
        ("save money", "consequence", "spend less", "consequence"),
        ("spend less", "consequence", "security", "value"),
    )
    before = compute_graph_state(graph, METH, 3)
    assert before.max_depth == 3
    extract(graph, [], [e("spend less", "save money")], turn=4)
    after = compute_graph_state(graph, METH, 4)
    assert after.max_depth == 3
    assert len(after.longest_chain_path) == after.max_depth + 1
    assert_real_path(graph, after.longest_chain_path)


def test_only_chain_relations_are_rungs() -> None:
    # "oat milk" contrasts with "dairy milk", which leads to a value: a contrast is no rung,
    # so oat milk has no complete chain and the depth is that of dairy milk's ladder.
    graph = chain_graph(("dairy milk", "attribute", "calm", "value"))
    extract(graph, [n("oat milk")], [e("oat milk", "dairy milk", "contrasts_with")], turn=2)
    state = compute_graph_state(graph, METH, 2)
    assert state.max_depth == 1
    assert state.longest_chain_path == ["n1", "n2"]
    assert state.chain_completion_ratio == pytest.approx(1 / 2)
    assert graph.node_depths()["n2"] == 2  # following every relation, as the raw graph does


def test_self_loops_do_not_add_depth() -> None:
    graph = chain_graph(("a1", "attribute", "c1", "consequence"))
    extract(graph, [], [e("c1", "c1")], turn=2)
    assert compute_graph_state(graph, METH, 2).max_depth == 1


def test_dense_cyclic_graph_is_linear_not_exponential() -> None:
    # 120 consequences all leading to each other: path enumeration would never finish.
    meth = METH
    graph = KnowledgeGraph()
    ids = [graph.add_node(f"c{i}", "consequence", methodology=meth, turn=1).id for i in range(120)]
    for i, a in enumerate(ids):
        for b in ids[i + 1 : i + 15] + ids[max(i - 15, 0) : i]:
            graph.add_relation(a, b, "leads_to", methodology=meth, turn=1)
    top = graph.add_node("v", "value", methodology=meth, turn=2).id
    graph.add_relation(ids[-1], top, "leads_to", methodology=meth, turn=2)
    state = compute_graph_state(graph, meth, 2)
    # One strongly connected group of 120 (c0 -> c1 -> ... -> c119 is a simple path inside
    # it), then the value: 120 rungs, computed without enumerating paths.
    assert state.max_depth == 120
    assert_real_path(graph, state.longest_chain_path)
    assert state.longest_chain_path[-1] == top


# ---- saturation counters ----------------------------------------------------------------------


def step(
    prev: SaturationMetrics,
    nodes: int,
    edges: int,
    depth: str | None,
    max_depth: int,
    counts=(1,),
    **kw: Any,
):
    return update_saturation(
        prev,
        nodes_added=nodes,
        edges_added=edges,
        response_depth=depth,
        max_depth=max_depth,
        mention_counts=list(counts),
        tuning=SAT,
        **kw,
    )


def test_low_info_and_shallow_counters() -> None:
    s = SaturationMetrics()
    s = step(s, 2, 1, "deep", 1)
    assert (s.consecutive_low_info, s.consecutive_shallow) == (0, 0)
    s = step(s, 0, 0, "surface", 1)
    s = step(s, 0, 0, "shallow", 1)
    assert (s.consecutive_low_info, s.consecutive_shallow) == (2, 2)
    s = step(s, 0, 0, None, 1)  # no assessment: the shallow streak is neither grown nor reset
    assert (s.consecutive_low_info, s.consecutive_shallow) == (3, 2)
    s = step(s, 0, 1, "moderate", 1)  # a new edge is yield
    assert (s.consecutive_low_info, s.consecutive_shallow) == (0, 0)


def test_depth_plateau_counts_only_zero_yield_turns() -> None:
    s = SaturationMetrics(prev_max_depth=2)
    s = step(s, 0, 0, "deep", 2)
    s = step(s, 0, 0, "deep", 2)
    assert s.consecutive_depth_plateau == 2
    s = step(s, 3, 0, "deep", 2)  # breadth without depth: neither counted nor reset
    assert s.consecutive_depth_plateau == 2
    s = step(s, 0, 0, "deep", 2)
    assert s.consecutive_depth_plateau == 3
    s = step(s, 1, 1, "deep", 3)  # deeper: reset
    assert (s.consecutive_depth_plateau, s.prev_max_depth) == (0, 3)


def test_is_saturated_after_five_zero_yield_turns() -> None:
    s = SaturationMetrics()
    for _ in range(4):
        s = step(s, 0, 0, "moderate", 0)
    assert not s.is_saturated
    s = step(s, 0, 0, "moderate", 0)
    assert s.is_saturated and s.consecutive_low_info == 5


def test_new_info_rate_over_the_window() -> None:
    s = SaturationMetrics()
    for yielded in (True, True, False, True, False, False):
        s = step(s, int(yielded), 0, "moderate", 0)
    assert s.recent_yields == [True, False, True, False, False]
    assert s.new_info_rate == pytest.approx(2 / 5)


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ([1, 1, 2, 3], 4 / (4 + 2 * 2 / (2 * 1))),  # f1=2, f2=1
        ([1, 1, 1], 3 / (3 + 3 * 2 / 2)),  # no doubletons: bias-corrected form
        ([2, 3, 5], 1.0),  # nothing seen only once: saturated
        ([], 0.0),
    ],
)
def test_chao1_ratio(counts: list[int], expected: float) -> None:
    assert chao1_ratio(counts) == pytest.approx(expected)


def test_a_breadth_check_answered_thats_about_it_closes_the_list_for_good() -> None:
    def answer(prev: SaturationMetrics, **kw: Any) -> SaturationMetrics:
        return step(prev, 1, 0, "moderate", 1, **kw)

    s = answer(SaturationMetrics(), knowledge_ceiling="terminal")  # said of a ladder, not a list
    assert not s.list_closed
    s = answer(s, breadth_answer=True, knowledge_ceiling="none")  # one more named
    assert not s.list_closed
    s = answer(s, breadth_answer=True, knowledge_ceiling="terminal")  # "thats about it really"
    assert s.list_closed
    assert answer(s, knowledge_ceiling="none").list_closed  # it stays closed
    for kind in ("dont_know", "already_said"):  # "no idea, I told you the main ones"
        assert answer(SaturationMetrics(), breadth_answer=True, answer_kind=kind).list_closed
    # "not sure, let me think": thinking, not done
    hesitant = {"answer_kind": "dont_know", "knowledge_ceiling": "exploratory"}
    assert not answer(SaturationMetrics(), breadth_answer=True, **hesitant).list_closed


def test_a_reply_to_a_breadth_check_that_names_something_new_leaves_the_list_open() -> None:
    # "No cow was milked for it, and Aoife showed me a video ... they'd never let me hear the
    # end of it": the ceiling it seemed to say came with two new things (dev 8 closed at turn
    # 7 with a ladder unopened)
    def reply(nodes: int, tuning: SaturationTuning) -> SaturationMetrics:
        return update_saturation(
            SaturationMetrics(),
            nodes_added=nodes,
            edges_added=0,
            response_depth="moderate",
            max_depth=1,
            mention_counts=[1],
            tuning=tuning,
            breadth_answer=True,
            knowledge_ceiling="terminal",
        )

    needs = SAT.model_copy(update={"list_closed_needs_nothing_new": True})
    assert not reply(2, needs).list_closed
    assert reply(0, needs).list_closed  # "thats about it really", and nothing new
    assert reply(2, SAT).list_closed  # as recorded sessions ran


def test_update_saturation_accepts_a_mapping_of_mentions() -> None:
    s = update_saturation(
        SaturationMetrics(),
        nodes_added=1,
        edges_added=0,
        response_depth="deep",
        max_depth=0,
        mention_counts={"n1": 1, "n2": 2},
        tuning=SAT,
    )
    assert s.chao1_ratio == pytest.approx(2 / (2 + 1 / 2))


# ---- information velocity (seed 002 Path 16) ----------------------------------------------------


def test_ewma_golden_values_alpha_0_4() -> None:
    v = VelocityState()
    history = []
    for surface, canonical in ((3, 1), (5, 1), (5, 2), (6, 2)):
        v = update_velocity(
            v, surface_node_count=surface, canonical_node_count=canonical, alpha=0.4
        )
        history.append((v.surface_velocity_ewma, v.surface_velocity_peak))
    # deltas 3, 2, 0, 1: 1.2; 0.4*2 + 0.6*1.2; 0.6*1.52; 0.4*1 + 0.6*0.912
    assert [h[0] for h in history] == pytest.approx([1.2, 1.52, 0.912, 0.9472])
    assert [h[1] for h in history] == [3.0, 3.0, 3.0, 3.0]
    assert v.prev_surface_node_count == 6
    assert v.canonical_velocity_ewma == pytest.approx(
        0.4 * 0 + 0.6 * (0.4 * 1 + 0.6 * (0.4 * 0 + 0.6 * 0.4))
    )
    assert v.canonical_velocity_peak == 1.0


def test_velocity_never_goes_negative() -> None:
    v = update_velocity(
        VelocityState(prev_surface_node_count=5),
        surface_node_count=3,
        canonical_node_count=0,
        alpha=0.4,
    )
    assert v.surface_velocity_ewma == 0.0 and v.prev_surface_node_count == 3


def test_conversation_saturation_golden_value() -> None:
    v = VelocityState(surface_velocity_ewma=0.9472, surface_velocity_peak=3.0)
    decay = 1 - 0.9472 / 3.0
    expected = 0.60 * decay + 0.25 * 0.5 + 0.15 * (4 / 15)
    assert conversation_saturation(v, edge_density=0.5, turn_number=4, tuning=SAT) == pytest.approx(
        expected
    )
    assert expected == pytest.approx(0.57556, abs=1e-9)


def test_conversation_saturation_turn_floor_caps_and_peak_below_one() -> None:
    v = VelocityState(surface_velocity_ewma=0.2, surface_velocity_peak=0.5)
    # max(peak, 1) normalises small peaks: decay = 1 - 0.2 / 1
    assert velocity_decay(0.2, 0.5) == pytest.approx(0.8)
    score = conversation_saturation(v, edge_density=1.0, turn_number=40, tuning=SAT)
    assert score == pytest.approx(0.60 * 0.8 + 0.25 + 0.15)


def test_nothing_discovered_yet_is_not_saturation() -> None:
    assert velocity_decay(0.0, 0.0) == 0.0
    score = conversation_saturation(VelocityState(), edge_density=0.0, turn_number=1, tuning=SAT)
    assert score == pytest.approx(0.15 / 15)


def _empty_answer(tuning: SaturationTuning, **kw: Any) -> SaturationMetrics:
    """One answer that added nothing, read into fresh saturation metrics."""
    return update_saturation(
        SaturationMetrics(),
        nodes_added=0,
        edges_added=0,
        response_depth="surface",
        max_depth=1,
        mention_counts=[1],
        tuning=tuning,
        **kw,
    )


def test_nothing_else_to_a_breadth_check_counts_as_short() -> None:
    def nothing_else(
        tuning: SaturationTuning, ran_without: frozenset[Habit] = frozenset()
    ) -> SaturationMetrics:
        return _empty_answer(
            tuning,
            answer_kind="dont_know",
            knowledge_ceiling="terminal",
            breadth_answer=True,
            ran_without=ran_without,
        )

    window = SaturationTuning(little_to_say_window=8)
    # a session recorded before the habit replays as it was decided
    before = nothing_else(window, frozenset({Habit.LITTLE_TO_SAY_BREADTH_SPENT}))
    assert (before.recent_answers, before.empty_answers) == (["empty"], 1)
    after = nothing_else(window)
    assert (after.recent_answers, after.empty_answers) == (["short"], 0)


def test_an_answer_disowning_what_was_asked_spends_the_question_not_the_respondent() -> None:
    # dev pet food: "What do you mean by 'grab it'?" twice counted as no answer, and a
    # respondent with two ladders unopened was closed as having little to say at turn 10
    def puzzled(tuning: SaturationTuning, *, disowned: bool) -> SaturationMetrics:
        return _empty_answer(tuning, answer_kind="about_interview", disowned=disowned)

    on = SaturationTuning(little_to_say_window=8, little_to_say_disowned_spent=True)
    off = SaturationTuning(little_to_say_window=8)  # a session recorded before the switch
    spent = puzzled(on, disowned=True)
    assert (spent.recent_answers, spent.empty_answers) == (["short"], 0)
    assert puzzled(off, disowned=True).recent_answers == ["empty"]
    # "is this going anywhere?" disowns nothing: still no answer
    assert puzzled(on, disowned=False).recent_answers == ["empty"]
