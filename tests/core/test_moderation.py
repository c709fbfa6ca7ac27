"""The interviewer's memory of asking, non-answers, the focus tie-break and the stop guard.

Unit tests on plain values for each rule (``core.tracker`` probes, ``core.decide.vetoes``
node_exhausted / repeated_probe, ``core.decide.moderation``), then short interviews through the real
``advance()`` with the shipped means-end chain methodology.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from moderation_fixtures import assessment, mec

from interview_cli.config.schemas import RECORDED, Methodology, StrategySpec
from interview_cli.config.tuning import Habit, VetoTuning
from interview_cli.core.decide.continuation import (
    CLOSING_STRATEGY,
    GRAPH_SATURATED,
    LITTLE_TO_SAY,
    MAX_TURNS_REACHED,
    RESPONDENT_FATIGUED,
    Continuation,
    StopInputs,
    breadth_found_empty,
    guard_stop,
    stalled_nodes,
    unprobed_attributes,
)
from interview_cli.core.decide.moderation import break_focus_tie
from interview_cli.core.decide.scoring import Ranking, ScoredCandidate, reselect
from interview_cli.core.decide.vetoes import FocusEntry, VetoContext, node_exhausted, repeated_probe
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.graph.update import GraphDelta
from interview_cli.core.models import (
    ExtractedEdge,
    ExtractedNode,
    Extraction,
)
from interview_cli.core.signals import TrendState
from interview_cli.core.tracker import (
    NodeState,
    NodeStateTracker,
    Probe,
    record_probe_outcome,
    update_focus,
)
from interview_cli.core.turn import content_of, probe_outcome

ROOT = Path(__file__).resolve().parents[2]
DEEPEN = StrategySpec(name="deepen", family="deepen")
NEGATIVE = StrategySpec(name="negative_ladder", family="negative_ladder")
THIRD = StrategySpec(name="third_person", family="third_person")
EXPLORE = StrategySpec(name="explore", family="explore", node_binding="none")
ON = VetoTuning(fruitless_probe=True, fruitless_probe_limit=2)


def recorded_without(data: dict[str, Any], *habits: Habit) -> Methodology:
    """``data``'s methodology as a session recorded before ``habits`` were habits ran it."""
    tuning = {**data["tuning"], "ran_without": [h.value for h in habits]}
    return Methodology.model_validate({**data, "tuning": tuning}, context=RECORDED)


def state(node_id: str, **fields: Any) -> NodeState:
    fields.setdefault("created_at_turn", 1)
    return NodeState(node_id=node_id, label=node_id, **fields)


# ---- the memory of asking -----------------------------------------------------------------


def test_the_answer_is_remembered_on_the_node_and_strategy_that_asked() -> None:
    t = NodeStateTracker(states={"n1": state("n1"), "n2": state("n2")})
    t = update_focus(t, "n1", 3, "deepen")
    t = record_probe_outcome(t, "dont_know")
    assert t.states["n1"].probes == (Probe(3, "deepen", "dont_know"),)
    assert t.states["n2"].probes == ()
    # no previous focus (an open question): nothing to remember
    t = update_focus(t, None, 4, "explore")
    assert record_probe_outcome(t, "nothing_new") == t


@pytest.mark.parametrize(
    ("nodes_added", "extra", "expected"),
    [
        (1, {}, "new_rung"),
        (1, {"knowledge_ceiling": "exploratory"}, "new_rung"),  # hedged, but it said something
        (0, {}, "nothing_new"),
        (0, {"knowledge_ceiling": "terminal"}, "dont_know"),
        (0, {"answer_kind": "dont_know"}, "dont_know"),
        (0, {"answer_kind": "already_said"}, "already_said"),
        (0, {"answer_kind": "move_on"}, "move_on"),
        (0, {"answer_kind": "about_interview"}, "about_interview"),
    ],
)
def test_probe_outcome(nodes_added: int, extra: dict[str, Any], expected: str) -> None:
    delta = GraphDelta.model_validate(
        {
            "nodes_added": [
                {"node_id": f"n{i}", "label": "x", "node_type": "attribute"}
                for i in range(nodes_added)
            ]
        }
    )
    assert probe_outcome(delta, assessment(**extra)) == expected


def test_a_climb_onto_a_rung_said_before_is_a_new_rung() -> None:
    # "no charging every day" -> the existing "feel free": one new edge, no new node
    delta = GraphDelta.model_validate(
        {"edges_added": [{"source": "n2", "target": "n5", "relation": "leads_to"}]}
    )
    assert probe_outcome(delta, assessment(), focus="n2") == "new_rung"
    assert probe_outcome(delta, assessment(), focus="n9") == "nothing_new"


def test_a_non_answer_adds_nothing_and_says_why() -> None:
    said = Extraction(
        nodes=[ExtractedNode(label="again", node_type="attribute", quote="again")],
        edges=[ExtractedEdge(source="again", target="kids", relation="leads_to")],
    )
    for kind in ("already_said", "move_on", "about_interview"):
        kept = content_of(said, assessment(answer_kind=kind))
        assert not kept.extractable and kept.nodes == [] and kept.edges == []
        assert [r.kind for r in kept.rejected] == ["node", "edge"]
        assert kind in kept.rejected[0].reason
    # a don't-know or an answer keeps what was extracted
    assert content_of(said, assessment(answer_kind="dont_know")) is said
    assert content_of(said, assessment()) is said


def test_a_strategy_is_not_asked_again_on_the_same_node_until_it_comes_up_anew() -> None:
    asked = state("n1", probes=(Probe(3, "deepen", "new_rung"),), last_yield_turn=4)
    c = VetoContext(tuning=ON, tracker=NodeStateTracker(states={"n1": asked}), turn_number=6)
    reason = repeated_probe(DEEPEN, "n1", c)
    assert reason == "deepen was asked on this node at turn 4 and brought its answer"
    assert repeated_probe(NEGATIVE, "n1", c) is None  # another technique is allowed
    assert repeated_probe(EXPLORE, None, c) is None
    later = state("n1", probes=(Probe(3, "deepen", "dont_know"),), last_yield_turn=6)
    c = VetoContext(tuning=ON, tracker=NodeStateTracker(states={"n1": later}), turn_number=7)
    assert repeated_probe(DEEPEN, "n1", c) is None  # the respondent brought it up at turn 6


def test_an_answer_to_another_technique_on_the_node_is_not_news_about_it() -> None:
    # why (turn 3) got a don't-know; negative laddering (turn 4) brought a rung at turn 5:
    # asking why again would ask for what was just said
    probes = (Probe(3, "deepen", "dont_know"), Probe(4, "negative_ladder", "new_rung"))
    t = NodeStateTracker(states={"n1": state("n1", probes=probes, last_yield_turn=5)})
    c = VetoContext(tuning=ON, tracker=t, turn_number=6)
    assert repeated_probe(DEEPEN, "n1", c) is not None
    # ... but a mention on a turn that answered something else is
    t = NodeStateTracker(states={"n1": state("n1", probes=probes, last_yield_turn=7)})
    assert repeated_probe(DEEPEN, "n1", VetoContext(tuning=ON, tracker=t, turn_number=8)) is None


def test_two_fruitless_questions_or_a_move_on_exhaust_the_node() -> None:
    one = state("n1", probes=(Probe(2, "deepen", "dont_know"),))
    two = state("n2", probes=(Probe(2, "deepen", "dont_know"), Probe(3, "clarify", "nothing_new")))
    moved = state("n3", probes=(Probe(4, "deepen", "move_on"),))
    said = state("n4", probes=(Probe(4, "deepen", "already_said"),))
    t = NodeStateTracker(states={"n1": one, "n2": two, "n3": moved, "n4": said})
    c = VetoContext(tuning=ON, tracker=t, turn_number=6)
    assert node_exhausted(NEGATIVE, "n1", c) is None
    assert node_exhausted(NEGATIVE, "n2", c) == "2 questions on this node brought nothing new"
    assert node_exhausted(NEGATIVE, "n3", c) == "the respondent asked to move on at turn 5"
    assert "already answered" in str(node_exhausted(NEGATIVE, "n4", c))
    assert node_exhausted(EXPLORE, None, c) is None


def test_a_stalled_node_may_be_returned_to_once_later_another_way() -> None:
    back = VetoTuning(fruitless_probe=True, fruitless_probe_limit=2, return_to_stalled_after=4)
    stalled = (Probe(2, "deepen", "dont_know"), Probe(3, "third_person", "dont_know"))
    t = NodeStateTracker(
        states={
            "n1": state("n1", probes=stalled),
            "n2": state("n2", probes=(*stalled, Probe(9, "situational", "dont_know"))),
            "n3": state("n3", probes=(Probe(2, "deepen", "move_on"), Probe(3, "clarify", "x"))),
        }
    )
    # answered at turn 4: too soon at turn 7, allowed from turn 8, once, another way
    assert node_exhausted(NEGATIVE, "n1", VetoContext(tuning=back, tracker=t, turn_number=7))
    later = VetoContext(tuning=back, tracker=t, turn_number=8)
    assert node_exhausted(NEGATIVE, "n1", later) is None
    assert repeated_probe(DEEPEN, "n1", later) is not None  # not the same why again
    assert node_exhausted(NEGATIVE, "n2", later) is not None  # the return came back empty too
    assert node_exhausted(NEGATIVE, "n3", later) is not None  # "move on" is obeyed for good
    never = VetoContext(tuning=ON, tracker=t, turn_number=30)
    assert node_exhausted(NEGATIVE, "n1", never) is not None  # switched off: exhausted for good


def test_a_node_closed_with_nothing_more_to_it_is_not_returned_to() -> None:
    # "I don't know. Nothing more to it really." twice (a terminal don't-know at turn 3): a
    # held-out 1 respondent was asked about "carry my laptop" a third time, five turns later.
    stalled = (Probe(2, "deepen", "dont_know"), Probe(3, "negative_ladder", "dont_know"))
    t = NodeStateTracker(states={"n1": state("n1", probes=stalled, knowledge_ceiling_turn=3)})
    back = VetoTuning(fruitless_probe=True, fruitless_probe_limit=2, return_to_stalled_after=4)
    before = frozenset({Habit.RETURN_RESPECTS_CEILING})
    later = VetoContext(tuning=back, tracker=t, turn_number=9, ran_without=before)
    assert node_exhausted(THIRD, "n1", later) is None  # recorded before the habit: returned to
    later = VetoContext(tuning=back, tracker=t, turn_number=9)
    assert node_exhausted(THIRD, "n1", later) == "2 questions on this node brought nothing new"


# ---- focus tie-break ----------------------------------------------------------------------


def candidate(node: str, score: float, strategy: str = "deepen", **kw: Any) -> ScoredCandidate:
    return ScoredCandidate(
        strategy=strategy,
        node_id=node,
        node_label=node,
        signal_contributions=(),
        base_score=score,
        phase_multiplier=1.0,
        phase_bonus=0.0,
        final_score=score,
        **kw,
    )


def ranking(*candidates: ScoredCandidate) -> Ranking:
    ranked = tuple(
        c if i else ScoredCandidate(**{**c.__dict__, "selected": True})
        for i, c in enumerate(candidates)
    )
    return Ranking(ranked, ranked[0], "joint")


def tie_methodology(margin: float) -> Methodology:
    data = mec().model_dump(mode="json")
    data["tuning"]["focus_tie_margin"] = margin
    return Methodology.model_validate(data)


def test_a_close_call_goes_to_the_node_with_most_depth_left() -> None:
    # "being fit" (a value, level 5) said first outscores "cycle to work" (an attribute) by 0.05
    t = NodeStateTracker(states={"fit": state("fit", level=4), "cycle": state("cycle", level=1)})
    r = ranking(candidate("fit", 2.00), candidate("cycle", 1.95), candidate("far", 1.0))
    new, tie = break_focus_tie(r, tie_methodology(0.1), t)
    assert new.selected is not None and new.selected.node_id == "cycle"
    assert [c.node_id for c in new.candidates if c.selected] == ["cycle"]
    assert tie is not None and tie.rule == "more depth left to gain"
    assert tie.describe() == ("tie-break (within 0.1): 'cycle' over 'fit': more depth left to gain")
    # outside the margin, or with the rule off, scoring decides
    assert break_focus_tie(r, tie_methodology(0.01), t) == (r, None)
    assert break_focus_tie(r, tie_methodology(0.0), t) == (r, None)


def test_tie_break_then_prefers_the_least_probed_then_the_recently_productive() -> None:
    probed = (Probe(2, "clarify", "nothing_new"),)
    t = NodeStateTracker(
        states={
            "a": state("a", level=1, probes=probed),
            "b": state("b", level=1, last_yield_turn=3),
            "c": state("c", level=1, last_yield_turn=5),
        }
    )
    r = ranking(candidate("a", 2.0), candidate("b", 2.0), candidate("c", 2.0))
    new, tie = break_focus_tie(r, tie_methodology(0.1), t)
    assert new.selected is not None and new.selected.node_id == "c"
    assert tie is not None and tie.rule == "fewer questions that brought nothing"
    # other strategies and vetoed candidates never take part
    r = ranking(
        candidate("a", 2.0),
        candidate("b", 2.0, strategy="clarify"),
        candidate("c", 2.0, vetoed_by="repeated_probe"),
    )
    assert break_focus_tie(r, tie_methodology(0.1), t) == (r, None)


def test_with_just_said_on_a_tie_follows_what_the_last_answer_brought_up() -> None:
    # An impatient respondent's ladder: "no awkward comments" was just said (turn 11); the
    # older "more billable hours" has more depth left, but the question follows the answer.
    t = NodeStateTracker(
        turn=11,
        states={
            "hours": state("hours", level=3, created_at_turn=8),
            "comments": state("comments", level=4, created_at_turn=11),
        },
    )
    r = ranking(candidate("hours", 2.0), candidate("comments", 2.0))
    data = tie_methodology(0.1).model_dump(mode="json")
    data["tuning"]["focus_tie_just_said"] = False
    off = Methodology.model_validate(data)
    new, tie = break_focus_tie(r, off, t)
    assert new.selected is not None and new.selected.node_id == "hours"
    data["tuning"]["focus_tie_just_said"] = True
    new, tie = break_focus_tie(r, Methodology.model_validate(data), t)
    assert new.selected is not None and new.selected.node_id == "comments"
    assert tie is not None and tie.rule == "the respondent just said it"


def test_with_led_with_of_two_just_said_the_first_said_wins() -> None:
    # The opening answer: "I love the noise cancelling, though they get warm on the ears".
    # Both are new attributes with as much to climb; the aside ranks first by score order.
    t = NodeStateTracker(
        turn=1,
        states={
            "noise": state("noise", level=1, created_at_turn=1),
            "warm": state("warm", level=1, created_at_turn=1),
        },
    )
    r = ranking(candidate("warm", 2.0), candidate("noise", 2.0))
    data = tie_methodology(0.1).model_dump(mode="json")
    data["tuning"].update(
        focus_tie_just_said=True, focus_tie_led_with=False, focus_tie_said_last=False
    )
    assert break_focus_tie(r, Methodology.model_validate(data), t) == (r, None)
    data["tuning"]["focus_tie_led_with"] = True
    new, tie = break_focus_tie(r, Methodology.model_validate(data), t)
    assert new.selected is not None and new.selected.node_id == "noise"
    assert tie is not None and tie.rule == "the respondent led with it"


def test_what_the_respondent_led_with_is_a_liked_or_disliked_thing_before_a_mention() -> None:
    # "they're the sony ones, over ear. honestly I mostly use them for the noise cancelling
    # ... they do get a bit warm on the ears": the over-ear is a mention (stance 0), said first.
    data = tie_methodology(0.1).model_dump(mode="json")
    data["tuning"]["focus_tie_said_last"] = False
    methodology = Methodology.model_validate(data)
    graph = KnowledgeGraph()
    ids = [
        graph.add_node(label, "attribute", methodology=methodology, turn=1, stance=stance).id
        for label, stance in (("over-ear", 0), ("noise cancelling", 1), ("warm on the ears", -1))
    ]
    t = NodeStateTracker(turn=1, states={i: state(i, level=1, created_at_turn=1) for i in ids})
    r = ranking(candidate(ids[0], 2.0), candidate(ids[2], 2.0), candidate(ids[1], 2.0))
    new, tie = break_focus_tie(r, methodology, t, graph)
    assert new.selected is not None and new.selected.node_id == ids[1]
    assert tie is not None and tie.rule == "the respondent led with it"


# ---- stop guard ---------------------------------------------------------------------------


def guard_inputs(t: NodeStateTracker, history: tuple[FocusEntry, ...] = (), **kw: Any) -> Any:
    return StopInputs(
        methodology=mec(),
        tracker=t,
        turn_number=t.turn,
        max_turns=20,
        phase="mid",
        focus_history=history,
        trend=kw.get("trend", TrendState()),
        focusable=frozenset(t.states),
        answer_kind=kw.get("answer_kind"),
    )


def stop(reason: str, remaining: int = 8) -> Continuation:
    return Continuation(False, reason, remaining)


def closing_ranking() -> Ranking:
    reflect = candidate("", 3.0, strategy="reflect")
    reflect = ScoredCandidate(**{**reflect.__dict__, "node_id": None, "node_label": None})
    explore = ScoredCandidate(
        **{**candidate("", 1.0, strategy="explore").__dict__, "node_id": None, "node_label": None}
    )
    return ranking(reflect, candidate("seat", 1.5), explore, candidate("done", 1.2))


def test_an_attribute_never_asked_about_defers_the_stop() -> None:
    t = NodeStateTracker(
        states={
            "seat": state("seat", level=1),
            "done": state("done", level=1, focus_count=2, probes=(Probe(2, "deepen", "new_rung"),)),
        }
    )
    assert unprobed_attributes(t, {"seat", "done"}) == {"seat"}
    r, cont, note = guard_stop(closing_ranking(), stop(CLOSING_STRATEGY), guard_inputs(t))
    assert r.selected is not None and (r.selected.strategy, r.selected.node_id) == (
        "deepen",
        "seat",
    )
    assert cont.should_continue and cont.reason is None
    assert note == (
        f"stop deferred ({CLOSING_STRATEGY}): 'seat' was never asked about; asking deepen first"
    )


def test_a_stalled_chain_is_returned_to_before_closing() -> None:
    stalled = (Probe(2, "deepen", "dont_know"), Probe(3, "third_person", "dont_know"))
    t = NodeStateTracker(
        states={
            "seat": state("seat", level=1, focus_count=2, probes=stalled),
            "done": state("done", level=1, focus_count=1, probes=(Probe(1, "deepen", "new_rung"),)),
        }
    )
    assert stalled_nodes(t, mec().tuning) == {"seat"}
    r, cont, note = guard_stop(closing_ranking(), stop(CLOSING_STRATEGY), guard_inputs(t))
    assert r.selected is not None and r.selected.node_id == "seat" and cont.should_continue
    assert note == (
        f"stop deferred ({CLOSING_STRATEGY}): 'seat' stalled earlier and can be asked another "
        "way now; asking deepen first"
    )


def test_a_saturation_stop_waits_for_an_empty_breadth_check() -> None:
    t = NodeStateTracker(states={"done": state("done", level=1, focus_count=1, created_at_turn=2)})
    r, cont, note = guard_stop(closing_ranking(), stop(GRAPH_SATURATED), guard_inputs(t))
    assert r.selected is not None and r.selected.strategy == "explore" and cont.should_continue
    assert note is not None and "no breadth check has come back empty yet" in note
    # the breadth check of turn 5 brought nothing (no node created after it): stop
    history = (FocusEntry(turn=5, strategy="explore"),)
    assert breadth_found_empty(mec(), t, history)
    assert guard_stop(closing_ranking(), stop(GRAPH_SATURATED), guard_inputs(t, history))[2] is None
    # ... but one that found something must be asked again before stopping
    found = NodeStateTracker(states={"new": state("new", level=2, created_at_turn=6)})
    assert not breadth_found_empty(mec(), found, history)


@pytest.mark.parametrize(
    ("reason", "remaining", "trend"),
    [
        (MAX_TURNS_REACHED, 0, TrendState()),
        (RESPONDENT_FATIGUED, 8, TrendState()),
        (LITTLE_TO_SAY, 8, TrendState()),  # a respondent with little to say is not kept on
        (CLOSING_STRATEGY, 1, TrendState(fatigued_turns=1)),  # the last turn, and tiring
        (GRAPH_SATURATED, 8, TrendState(fatigued_turns=1)),  # a tiring respondent
    ],
)
def test_no_deferral_at_the_limit_or_when_the_respondent_tires(
    reason: str, remaining: int, trend: TrendState
) -> None:
    t = NodeStateTracker(states={"seat": state("seat", level=1)})
    r = closing_ranking()
    assert guard_stop(r, stop(reason, remaining), guard_inputs(t, trend=trend)) == (
        r,
        stop(reason, remaining),
        None,
    )


def test_a_closing_question_with_one_turn_left_waits_for_the_turn_limit() -> None:
    # every attribute asked, a breadth check came back empty: only the last turn is at stake
    t = NodeStateTracker(states={"done": state("done", level=1, focus_count=1, created_at_turn=2)})
    history = (FocusEntry(turn=5, strategy="explore"),)
    r, cont, note = guard_stop(
        closing_ranking(), stop(CLOSING_STRATEGY, 1), guard_inputs(t, history)
    )
    assert r.selected is not None and (r.selected.strategy, r.selected.node_id) == (
        "deepen",
        "seat",
    )
    assert cont == Continuation(True, None, 1)
    assert note == (
        "closing deferred: one turn is left and the turn limit closes with the same summary; "
        "asking deepen first"
    )
    # off: the closing question takes the last turn, as sessions recorded before it did
    data = mec().model_dump(mode="json")
    inputs = guard_inputs(t, history)
    before = recorded_without(data, Habit.ASK_THE_LAST_TURN)
    off = StopInputs(**{**inputs.__dict__, "methodology": before})
    assert guard_stop(closing_ranking(), stop(CLOSING_STRATEGY, 1), off)[2] is None


def test_a_closing_question_after_a_request_to_stop_takes_the_last_turn() -> None:
    # "I'm done now, thanks." with one turn left: the closing is asked, not another why
    t = NodeStateTracker(states={"done": state("done", level=1, focus_count=1, created_at_turn=2)})
    history = (FocusEntry(turn=5, strategy="explore"),)
    ranked = closing_ranking()
    done = guard_inputs(t, history, answer_kind="move_on")
    assert guard_stop(ranked, stop(CLOSING_STRATEGY, 1), done) == (
        ranked,
        stop(CLOSING_STRATEGY, 1),
        None,
    )
    # any other answer: the last turn is asked first, as above
    assert guard_stop(ranked, stop(CLOSING_STRATEGY, 1), guard_inputs(t, history))[2]


def test_with_said_last_of_two_just_said_the_one_said_last_wins() -> None:
    # "the cheap sack, so thirty pence a day" read as two attributes, unlinked: a why on the
    # first is what the respondent has just answered
    t = NodeStateTracker(
        turn=2,
        states={
            "sack": state("sack", level=1, created_at_turn=2),
            "pence": state("pence", level=1, created_at_turn=2),
        },
    )
    r = ranking(candidate("sack", 2.0), candidate("pence", 2.0))
    data = tie_methodology(0.1).model_dump(mode="json")
    # a method that does not choose it (a story) keeps to what they led with
    data["tuning"]["focus_tie_said_last"] = False
    assert break_focus_tie(r, Methodology.model_validate(data), t) == (r, None)
    data["tuning"]["focus_tie_said_last"] = True
    new, tie = break_focus_tie(r, Methodology.model_validate(data), t)
    assert new.selected is not None and new.selected.node_id == "pence"
    assert tie is not None and tie.rule == "the respondent came to it last"


def open_question(strategy: str, score: float, vetoed_by: str | None = None) -> ScoredCandidate:
    c = candidate("", score, strategy=strategy, vetoed_by=vetoed_by)
    return ScoredCandidate(**{**c.__dict__, "node_id": None, "node_label": None})


def test_a_closing_nothing_spoke_for_waits_for_another_angle_before_turn_ten() -> None:
    # turn 3: "what else?" came back empty, every node is vetoed; the closing won with -1.3
    t = NodeStateTracker(
        turn=3, states={"foreign": state("foreign", level=1, focus_count=1, created_at_turn=1)}
    )
    history = (FocusEntry(1, "deepen", "foreign"), FocusEntry(2, "explore"))
    r = ranking(
        open_question("reflect", -1.3),
        open_question("explore", 0.7, vetoed_by="recent_redundancy"),
        open_question("revitalize", -0.15, vetoed_by="open_question_spent"),
    )
    r = reselect(r, r.candidates[0])
    new, cont, note = guard_stop(r, stop(CLOSING_STRATEGY, remaining=17), guard_inputs(t, history))
    assert new.selected is not None and new.selected.strategy == "revitalize"
    assert cont.should_continue and note is not None and "another angle" in note
    # ... once: revitalize was asked since and brought nothing either
    again = (*history, FocusEntry(3, "revitalize"))
    later = NodeStateTracker(turn=4, states=t.states)
    assert guard_stop(r, stop(CLOSING_STRATEGY, 16), guard_inputs(later, again))[2] is None
    # a closing something spoke for, or from turn ten, or under an older snapshot: it closes
    assert (
        guard_stop(closing_ranking(), stop(CLOSING_STRATEGY), guard_inputs(t, history))[2] is None
    )
    ten = NodeStateTracker(turn=10, states=t.states)
    assert guard_stop(r, stop(CLOSING_STRATEGY, 10), guard_inputs(ten, history))[2] is None
    data = mec().model_dump(mode="json")
    data["tuning"]["saturation"]["closing_needs_a_reason_before"] = 0
    older = replace(guard_inputs(t, history), methodology=Methodology.model_validate(data))
    assert guard_stop(r, stop(CLOSING_STRATEGY, 17), older)[2] is None


def test_with_tie_types_a_story_goes_on_with_its_incident_before_the_scene_said_first() -> None:
    # "ugh, the airline. ... they cancelled the flight at the gate": the scene (the airline)
    # was said first and ranks first; both are level 1 with as much left to tell.
    t = NodeStateTracker(
        states={
            "airline": state("airline", level=1, node_type="situation"),
            "cancelled": state("cancelled", level=1, node_type="incident"),
        }
    )
    r = ranking(candidate("airline", 1.65), candidate("cancelled", 1.65))
    assert break_focus_tie(r, tie_methodology(0.1), t) == (r, None)
    data = tie_methodology(0.1).model_dump(mode="json")
    data["tuning"]["focus_tie_types"] = ["incident"]
    new, tie = break_focus_tie(r, Methodology.model_validate(data), t)
    assert new.selected is not None and new.selected.node_id == "cancelled"
    assert tie is not None and tie.rule == "the method asks about its incident first"
    # outside the margin the score still decides
    r = ranking(candidate("airline", 1.9), candidate("cancelled", 1.65))
    assert break_focus_tie(r, Methodology.model_validate(data), t) == (r, None)
