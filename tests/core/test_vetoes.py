"""Tier-1 vetoes (seed 004): knowledge ceiling, element exhausted, recent redundancy."""

from __future__ import annotations

from typing import Any

from kg_fixtures import methodology

from interview_cli.config.schemas import StrategySpec
from interview_cli.config.tuning import Habit, VetoTuning
from interview_cli.core.decide.vetoes import (
    FocusEntry,
    VetoContext,
    VetoRecorder,
    answered_why,
    asked_enough,
    doubtful_reading,
    element_exhausted,
    elicited_not_laddered,
    knowledge_ceiling,
    left_behind,
    list_closed,
    open_question_spent,
    recent_redundancy,
)
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.tracker import NodeState, NodeStateTracker, Probe


def first_veto(strategy: StrategySpec, node_id: str | None, ctx: VetoContext) -> str | None:
    """The first enabled veto that rejects the candidate, as scoring asks it, or None."""
    return VetoRecorder(ctx)(strategy, node_id)


DEEPEN = StrategySpec(name="deepen", family="deepen")
CLARIFY = StrategySpec(name="clarify", family="clarify")
REFLECT = StrategySpec(name="reflect", family="summary", node_binding="none")


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


def test_a_question_they_did_not_understand_was_not_tried() -> None:
    # "sorry what?" to the question of decision turn 5: it may be asked again, put another
    # way; not understood twice (turns 4 and 5), it is spent
    t = tracker(n1=node("n1", last_yield_turn=1))
    once = [FocusEntry(turn=5, strategy="deepen", node_id="n1")]
    assert recent_redundancy(DEEPEN, "n1", ctx(t, focus_history=once)) is not None
    assert recent_redundancy(DEEPEN, "n1", ctx(t, focus_history=once, puzzled=True)) is None
    twice = [FocusEntry(turn=4, strategy="deepen", node_id="n1"), *once]
    assert recent_redundancy(DEEPEN, "n1", ctx(t, focus_history=twice, puzzled=True)) is not None


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
    result = first_veto(DEEPEN, "n1", ctx(t, focus_history=history))
    assert result == "knowledge_ceiling"
    no_ceiling = VetoTuning(knowledge_ceiling=False)
    result = first_veto(DEEPEN, "n1", ctx(t, focus_history=history, tuning=no_ceiling))
    assert result == "recent_redundancy"
    all_off = VetoTuning(knowledge_ceiling=False, recent_redundancy=False, element_exhausted=False)
    assert first_veto(DEEPEN, "n1", ctx(t, focus_history=history, tuning=all_off)) is None


def test_recorder_returns_names_and_keeps_reasons() -> None:
    t = tracker(n1=node("n1", knowledge_ceiling_turn=5))
    recorder = VetoRecorder(ctx(t))
    assert recorder(DEEPEN, "n1") == "knowledge_ceiling"
    assert recorder(REFLECT, None) is None
    assert "terminal don't-know" in recorder.reasons[("deepen", "n1")]


# ---- open questions: spent, and what they elicited laddered first ------------------------

EXPLORE = StrategySpec(name="explore", family="explore", node_binding="none")
CLOSE = StrategySpec(
    name="close", family="generic", node_binding="none", generates_closing_question=True
)
OPEN_ON = VetoTuning(ladder_elicited=True, redundancy_window_turns=1)
TOGETHER = VetoTuning(open_questions_spent_together=True, redundancy_window_turns=1)


def test_an_empty_open_question_is_spent_beyond_the_redundancy_window() -> None:
    # "What else?" asked at decision turn 2 came back empty, and so did every turn since.
    history = [
        FocusEntry(turn=2, strategy="explore"),
        FocusEntry(turn=3, strategy="revitalize"),
        FocusEntry(turn=4, strategy="revitalize"),
    ]
    spent = ctx(
        tracker(),
        turn=5,
        focus_history=history,
        consecutive_low_info=3,
        tuning=OPEN_ON,
    )
    reason = open_question_spent(EXPLORE, None, spent)
    assert reason == "explore was asked at turn 3 and nothing new came up since"
    assert recent_redundancy(EXPLORE, None, spent) is None  # outside the window of 1
    learned = ctx(
        tracker(),
        turn=5,
        focus_history=history,
        consecutive_low_info=2,
        tuning=OPEN_ON,
    )
    assert open_question_spent(EXPLORE, None, learned) is None
    # Spent together: after "nothing else", "tell me about another angle" asks the same thing.
    together = ctx(
        tracker(), turn=5, focus_history=history, consecutive_low_info=2, tuning=TOGETHER
    )
    assert open_question_spent(EXPLORE, None, together) == (
        "revitalize was asked at turn 5 and nothing new came up since"
    )
    assert open_question_spent(CLOSE, None, spent) is None  # the closing question is never spent
    # a session recorded before the memory of open questions replays without it
    before = frozenset({Habit.OPEN_QUESTION_MEMORY})
    off = ctx(
        tracker(),
        turn=5,
        focus_history=history,
        consecutive_low_info=3,
        tuning=OPEN_ON,
        ran_without=before,
    )
    assert first_veto(EXPLORE, None, off) is None


def test_a_list_the_respondent_closed_is_not_opened_again() -> None:
    # "thats about it really" to a breadth check (round 66 asked "what else?" three times,
    # the last after "nothing else, you asked me that already"): no open question but the
    # closing one, whatever was learned since; node questions go on
    breadth = StrategySpec(
        name="explore", family="explore", node_binding="none", breadth_check=True
    )
    revitalize = StrategySpec(name="revitalize", family="revitalize", node_binding="none")
    on = VetoTuning(list_closed_by_respondent=True)
    closed = ctx(tracker(n1=node("n1")), list_closed=True, tuning=on)
    assert (
        list_closed(breadth, None, closed) == "the respondent said a breadth check had all there is"
    )
    assert first_veto(breadth, None, closed) == "list_closed"
    assert list_closed(revitalize, None, closed) is None  # another kind of open question
    together = VetoTuning(list_closed_by_respondent=True, open_questions_spent_together=True)
    assert list_closed(revitalize, None, ctx(tracker(), list_closed=True, tuning=together))
    assert list_closed(CLOSE, None, closed) is None  # the closing question is asked
    assert list_closed(DEEPEN, "n1", closed) is None
    assert list_closed(breadth, None, ctx(tracker(), tuning=on)) is None  # still open
    # a methodology without the switch (a session recorded before it) asks as it did
    assert first_veto(breadth, None, ctx(tracker(), list_closed=True)) is None


def test_what_an_open_question_brought_up_is_laddered_before_another_open_question() -> None:
    history = [FocusEntry(turn=3, strategy="explore")]
    fresh = tracker(n4=NodeState(node_id="n4", label="big rack", created_at_turn=4))
    c = ctx(fresh, turn=4, focus_history=history, tuning=OPEN_ON)
    assert elicited_not_laddered(EXPLORE, None, c) == (
        "the last open question brought up 'big rack', not asked about yet"
    )
    assert elicited_not_laddered(DEEPEN, "n4", c) is None  # asking about it is the point
    # Going back to a node said before, just after the respondent offered something new, is
    # vetoed too: the dev set's sceptic named the label analysis and was asked about admin.
    older = tracker(
        n1=NodeState(node_id="n1", label="less dog admin", created_at_turn=2),
        n4=NodeState(node_id="n4", label="big rack", created_at_turn=4),
    )
    c_older = ctx(older, turn=4, focus_history=history, tuning=OPEN_ON)
    assert elicited_not_laddered(DEEPEN, "n1", c_older) == (
        "the last open question brought up 'big rack', not asked about yet"
    )
    assert elicited_not_laddered(DEEPEN, "n4", c_older) is None
    assert elicited_not_laddered(CLOSE, None, c) is None
    result = first_veto(EXPLORE, None, c)
    assert result == "elicited_not_laddered"
    # A value needs no laddering up; a node asked about already is laddered.
    terminal = tracker(
        n4=NodeState(node_id="n4", label="a calm life", created_at_turn=4, is_terminal=True)
    )
    assert (
        elicited_not_laddered(
            EXPLORE, None, ctx(terminal, turn=4, focus_history=history, tuning=OPEN_ON)
        )
        is None
    )
    # After a node question, eliciting more is fine.
    after_probe = [FocusEntry(turn=3, strategy="deepen", node_id="n1")]
    assert (
        elicited_not_laddered(
            EXPLORE, None, ctx(fresh, turn=4, focus_history=after_probe, tuning=OPEN_ON)
        )
        is None
    )


def test_the_answer_just_given_is_followed_not_its_question_asked_round_again() -> None:
    # Round 119 (JTBD): "You mentioned that doctor said is probably the caffeine. What were you
    # trying to get done there?", answered with the heart scare, then "You said doctor said is
    # probably the caffeine. What makes that harder than it should be?"
    on = VetoTuning(follow_the_answer=True)
    history = [FocusEntry(turn=11, strategy="dig_motivation", node_id="n20")]
    went_on = tracker(
        n20=NodeState(node_id="n20", label="doctor said the caffeine", created_at_turn=7),
        n36=NodeState(node_id="n36", label="know if my heart is broken", created_at_turn=12),
    )
    c = ctx(went_on, turn=12, focus_history=history, tuning=on)
    obstacles = StrategySpec(name="uncover_obstacles", family="deepen")
    assert left_behind(obstacles, "n20", c) == (
        "the answer to the last question on this node went on to 'know if my heart is broken'"
    )
    assert first_veto(obstacles, "n20", c) == "left_behind"
    assert left_behind(DEEPEN, "n36", c) is None  # what they went on to is the next focus
    # an empty answer is no moving on: another technique on the same node is the craft's
    empty = tracker(n20=NodeState(node_id="n20", label="doctor", created_at_turn=7))
    assert (
        left_behind(obstacles, "n20", ctx(empty, turn=12, focus_history=history, tuning=on)) is None
    )
    # nor is a question asked before the last one, nor a session recorded before the choice
    older = [*history, FocusEntry(turn=12, strategy="explore")]
    assert (
        left_behind(obstacles, "n20", ctx(went_on, turn=13, focus_history=older, tuning=on)) is None
    )
    assert first_veto(obstacles, "n20", ctx(went_on, turn=12, focus_history=history)) is None


def test_a_why_already_answered_is_not_asked_again() -> None:
    climb = StrategySpec(name="third_person", family="third_person", climbs=True)
    on = VetoTuning()
    t = tracker(
        led=node("led", edge_count_outgoing=1),  # the respondent said what it leads to
        top=node("top", edge_count_incoming=1),  # the top of the chain: its why is open
    )
    assert answered_why(climb, "led", ctx(t, tuning=on)) == (
        "the respondent already said what this leads to"
    )
    assert answered_why(climb, "top", ctx(t, tuning=on)) is None
    assert answered_why(CLARIFY, "led", ctx(t, tuning=on)) is None  # asking what it means is fine
    result = first_veto(climb, "led", ctx(t, tuning=on))
    assert result == "answered_why"
    before = frozenset({Habit.ANSWERED_WHY})  # a session recorded before the habit
    assert first_veto(climb, "led", ctx(t, ran_without=before)) is None


def test_a_node_the_reading_is_doubtful_of_is_not_asked_about() -> None:
    graph = KnowledgeGraph()
    mec = methodology()
    sure = graph.add_node("lock", "attribute", methodology=mec, turn=1, confidence=0.6)
    unsure = graph.add_node("arthritis", "attribute", methodology=mec, turn=1, confidence=0.5)
    t = tracker(**{sure.id: node(sure.id), unsure.id: node(unsure.id)})
    on = VetoTuning()
    assert doubtful_reading(DEEPEN, unsure.id, ctx(t, tuning=on, graph=graph)) == (
        "the reading of this node is doubtful (confidence 0.5 < 0.55)"
    )
    assert doubtful_reading(DEEPEN, sure.id, ctx(t, tuning=on, graph=graph)) is None
    assert doubtful_reading(REFLECT, None, ctx(t, tuning=on, graph=graph)) is None
    assert first_veto(DEEPEN, unsure.id, ctx(t, tuning=on, graph=graph)) == "doubtful_reading"
    # a session recorded before the habit replays without it
    before = frozenset({Habit.DOUBTFUL_FOCUS})
    assert first_veto(DEEPEN, unsure.id, ctx(t, graph=graph, ran_without=before)) is None
    # said again more clearly, the node keeps its best reading and may be asked about
    graph.merge_into(unsure.id, label="arthritis", confidence=0.7)
    assert first_veto(DEEPEN, unsure.id, ctx(t, tuning=on, graph=graph)) is None


def test_what_an_open_question_brought_up_with_doubt_vetoes_nothing_else() -> None:
    # "Getting old", said with a laugh after "what would you change?": no question may be about
    # it, so it must not veto every other question too (that left only closing, at turn 4)
    graph = KnowledgeGraph()
    mec = methodology()
    older = graph.add_node("dog hair", "attribute", methodology=mec, turn=1, confidence=0.6)
    joke = graph.add_node("getting old", "attribute", methodology=mec, turn=4, confidence=0.5)
    t = tracker(
        **{
            older.id: NodeState(node_id=older.id, label="dog hair", created_at_turn=1),
            joke.id: NodeState(node_id=joke.id, label="getting old", created_at_turn=4),
        }
    )
    history = [FocusEntry(turn=3, strategy="explore")]
    c = ctx(t, turn=4, focus_history=history, tuning=OPEN_ON, graph=graph)
    assert elicited_not_laddered(DEEPEN, older.id, c) is None
    assert first_veto(DEEPEN, joke.id, c) == "doubtful_reading"
    # a session recorded before doubtful readings were a habit replays as it was decided
    before = ctx(
        t,
        turn=4,
        focus_history=history,
        tuning=OPEN_ON,
        graph=graph,
        ran_without=frozenset({Habit.DOUBTFUL_FOCUS}),
    )
    assert elicited_not_laddered(DEEPEN, older.id, before) is not None


# ---- asked enough ------------------------------------------------------------------------

LIMITED = VetoTuning(node_question_limit=2)
PROBE = StrategySpec(name="probe_alternatives", family="clarify")
TWICE = (Probe(3, "deepen", "new_rung"), Probe(5, "clarify", "new_rung"))


def test_a_node_asked_its_limit_in_other_techniques_is_asked_no_more() -> None:
    """Round 178's JTBD interview led three questions, each a different technique, with "You
    mentioned that it's saved you a fortune on bus fares"; two are enough."""
    asked = tracker(n1=node("n1", probes=TWICE, last_yield_turn=6))
    assert asked_enough(PROBE, "n1", ctx(asked, tuning=LIMITED)) is not None
    assert first_veto(PROBE, "n1", ctx(asked, tuning=LIMITED)) is not None
    # no limit set: the methods that ladder ask on as before
    assert asked_enough(PROBE, "n1", ctx(asked)) is None
    # one question so far, or a node-less one
    once = tracker(n1=node("n1", probes=TWICE[:1], last_yield_turn=4))
    assert asked_enough(PROBE, "n1", ctx(once, tuning=LIMITED)) is None
    assert asked_enough(REFLECT, None, ctx(asked, tuning=LIMITED)) is None


def test_a_node_brought_up_again_by_the_respondent_may_be_asked_again() -> None:
    # it yielded on turn 8, which answered no question on it
    again = tracker(n1=node("n1", probes=TWICE, last_yield_turn=8))
    assert asked_enough(PROBE, "n1", ctx(again, turn=9, tuning=LIMITED)) is None
