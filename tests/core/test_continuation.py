"""Continuation and termination reasons (seed 001 table; fatigue from the smoothed trend)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from interview_cli.config.schemas import StrategySpec
from interview_cli.config.tuning import Habit, SaturationTuning
from interview_cli.core.decide.continuation import (
    ALL_NODES_EXHAUSTED,
    CLOSING_STRATEGY,
    DEPTH_PLATEAU,
    GRAPH_SATURATED,
    LITTLE_TO_SAY,
    MAX_TURNS_REACHED,
    QUALITY_DEGRADED,
    RESPONDENT_FATIGUED,
    SATURATED,
    Continuation,
    check_continuation,
)
from interview_cli.core.signals.trend import TrendState
from interview_cli.core.state import SaturationMetrics
from interview_cli.core.tracker import NodeState, NodeStateTracker

DEEPEN = StrategySpec(name="deepen", family="deepen")
CLOSE = StrategySpec(
    name="reflect", family="summary", node_binding="none", generates_closing_question=True
)
TUNING = SaturationTuning()


def saturation(**fields: Any) -> SaturationMetrics:
    return SaturationMetrics(**fields)


def check(turn: int = 8, max_turns: int = 20, **kw: Any) -> Continuation:
    kw.setdefault("phase", "mid")
    kw.setdefault("selected_strategy", DEEPEN)
    kw.setdefault("saturation", saturation())
    kw.setdefault("tracker", NodeStateTracker())
    kw.setdefault("trend", TrendState())
    kw.setdefault("tuning", TUNING)
    return check_continuation(turn_number=turn, max_turns=max_turns, **kw)


def test_keeps_going_by_default() -> None:
    assert check() == Continuation(True, None, 12)


def test_hard_stops_apply_from_the_first_turn() -> None:
    assert check(turn=20) == Continuation(False, MAX_TURNS_REACHED, 0)
    assert check(turn=25) == Continuation(False, MAX_TURNS_REACHED, 0)
    assert check(turn=1, selected_strategy=CLOSE) == Continuation(False, CLOSING_STRATEGY, 19)
    # Max turns outranks a closing selection.
    assert check(turn=20, selected_strategy=CLOSE).reason == MAX_TURNS_REACHED


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"consecutive_low_info": 5}, GRAPH_SATURATED),
        ({"consecutive_shallow": 6}, QUALITY_DEGRADED),
        ({"consecutive_depth_plateau": 6}, DEPTH_PLATEAU),
        ({"is_saturated": True}, SATURATED),
    ],
)
def test_saturation_reasons_at_their_thresholds(fields: dict[str, Any], reason: str) -> None:
    assert check(saturation=saturation(**fields)).reason == reason


@pytest.mark.parametrize(
    "fields",
    [{"consecutive_low_info": 4}, {"consecutive_shallow": 5}, {"consecutive_depth_plateau": 5}],
)
def test_below_thresholds_continue(fields: dict[str, Any]) -> None:
    assert check(saturation=saturation(**fields)).should_continue


def test_saturation_checks_wait_for_min_turn_or_late_phase() -> None:
    sat = saturation(consecutive_low_info=5)
    assert check(turn=4, saturation=sat).should_continue
    assert check(turn=5, saturation=sat).reason == GRAPH_SATURATED
    assert check(turn=4, max_turns=5, phase="late", saturation=sat).reason == GRAPH_SATURATED


def test_reason_order_follows_the_seed_table() -> None:
    sat = saturation(consecutive_low_info=9, consecutive_shallow=9, consecutive_depth_plateau=9)
    assert check(saturation=sat).reason == GRAPH_SATURATED
    sat = saturation(consecutive_shallow=9, consecutive_depth_plateau=9)
    assert check(saturation=sat).reason == QUALITY_DEGRADED


def _state(node_id: str, focus_count: int, since_yield: int) -> NodeState:
    return NodeState(
        node_id=node_id,
        label=node_id,
        created_at_turn=1,
        focus_count=focus_count,
        turns_since_last_yield=since_yield,
    )


def test_all_explored_nodes_exhausted() -> None:
    tired = NodeStateTracker(
        states={"a": _state("a", 2, 3), "b": _state("b", 1, 4), "c": _state("c", 0, 0)}
    )
    assert check(tracker=tired).reason == ALL_NODES_EXHAUSTED
    one_fresh = NodeStateTracker(states={"a": _state("a", 2, 3), "b": _state("b", 1, 2)})
    assert check(tracker=one_fresh).should_continue
    nothing_explored = NodeStateTracker(states={"c": _state("c", 0, 9)})
    assert check(tracker=nothing_explored).should_continue


def test_fatigue_needs_three_smoothed_fatigued_turns_and_adequate_coverage() -> None:
    assert check(trend=TrendState(value=0.1, previous=0.1, fatigued_turns=2)).should_continue
    tired = TrendState(value=0.1, previous=0.15, fatigued_turns=3)
    assert check(trend=tired).reason == RESPONDENT_FATIGUED
    assert check(trend=tired, coverage_ratio=0.5).should_continue
    assert check(trend=tired, coverage_ratio=0.6).reason == RESPONDENT_FATIGUED


# ---- a respondent with little to say ---------------------------------------------------------

LITTLE = SaturationTuning(
    little_to_say_window=8, little_to_say_max_full=1, little_to_say_min_empty=5
)


@pytest.mark.parametrize(
    ("answers", "closes"),
    [
        # five "not sure"s and three answers of a few words: closed, thanked, not kept on
        (["short", "empty", "short", "empty", "empty", "short", "empty", "empty"], True),
        # one fuller answer among them is still little to say
        (["full", "empty", "short", "empty", "empty", "short", "empty", "empty"], True),
        # four non-answers: a hesitant respondent, not yet one with nothing to say
        (["short", "empty", "short", "short", "empty", "short", "empty", "empty"], False),
        # terse but answering: whys get answers, so the interview goes on
        (["short"] * 8, False),
        # two fuller answers: they have something to say when asked the right way
        (["full", "empty", "full", "empty", "empty", "short", "empty", "empty"], False),
        # fewer answers than the window: too early to tell
        (["empty"] * 7, False),
    ],
)
def test_little_to_say_reads_the_last_answers(answers: list[str], closes: bool) -> None:
    result = check(saturation=saturation(recent_answers=answers), tuning=LITTLE)
    assert (result.reason == LITTLE_TO_SAY) is closes


def test_little_to_say_is_off_by_default_and_comes_before_the_other_stops() -> None:
    empty = saturation(recent_answers=["empty"] * 8, consecutive_low_info=9)
    assert check(saturation=empty).reason == GRAPH_SATURATED  # default tuning: off
    assert check(saturation=empty, tuning=LITTLE).reason == LITTLE_TO_SAY


def test_recent_answers_keep_the_window_and_read_the_kind() -> None:
    state = saturation()
    steps = [
        ("shallow", "dont_know", 1),
        ("deep", "answer", 0),
        ("surface", "answer", 1),
        ("surface", "answer", 0),
    ] * 3
    for depth, kind, added in steps:
        state = _answered(state, LITTLE, kind, added=added, depth=depth)
    # a non-answer is empty whatever it added; a few words that added nothing are empty too
    assert state.recent_answers == ["empty", "full", "short", "empty"] * 2
    off = _answered(state, TUNING, "dont_know")
    assert off.recent_answers == []


def test_from_the_late_turn_four_empty_answers_are_enough() -> None:
    late = SaturationTuning(
        little_to_say_window=8,
        little_to_say_max_full=1,
        little_to_say_min_empty=5,
        little_to_say_late_turn=10,
        little_to_say_late_min_empty=4,
    )
    four = saturation(recent_answers=["short", "empty"] * 4)
    assert check(turn=9, saturation=four, tuning=late).should_continue
    assert check(turn=10, saturation=four, tuning=late).reason == LITTLE_TO_SAY
    assert check(turn=10, saturation=four, tuning=LITTLE).should_continue  # no late turn: off


def _answered(
    state: SaturationMetrics,
    tuning: SaturationTuning,
    kind: str,
    *,
    added: int = 0,
    depth: str = "shallow",
    ceiling: str | None = None,
    breadth: bool = False,
) -> SaturationMetrics:
    from interview_cli.core.state import update_saturation

    return update_saturation(
        state,
        nodes_added=added,
        edges_added=0,
        response_depth=depth,
        max_depth=0,
        mention_counts=[],
        tuning=tuning,
        answer_kind=kind,
        knowledge_ceiling=ceiling,
        breadth_answer=breadth,
    )


def test_answers_running_with_nothing_in_them_close_whatever_went_before() -> None:
    # "Nope, that's me done I think", "No honestly that's everything" (to the breadth check),
    # "nope": the respondent cannot go on, though the window holds full answers before them
    running = SaturationTuning(little_to_say_in_a_row=3)
    state = _answered(saturation(), running, "answer", added=1, depth="deep")
    counts = [state.no_answers_running]
    state = _answered(state, running, "dont_know", ceiling="terminal")
    counts.append(state.no_answers_running)
    state = _answered(state, running, "dont_know", ceiling="terminal", breadth=True)
    counts.append(state.no_answers_running)  # a breadth check's "nothing else" counts
    state = _answered(state, running, "dont_know")
    counts.append(state.no_answers_running)
    assert counts == [0, 1, 2, 3]
    assert check(saturation=state, tuning=running).reason == LITTLE_TO_SAY
    assert check(saturation=state).should_continue  # off by default: old sessions replay
    two = saturation(no_answers_running=2)
    assert check(saturation=two, tuning=running).should_continue
    # a hesitation, "I already said" or something new read from it breaks the run
    assert _answered(state, running, "dont_know", ceiling="exploratory").no_answers_running == 0
    assert _answered(state, running, "already_said").no_answers_running == 0
    assert _answered(state, running, "dont_know", added=1).no_answers_running == 0


# ---- ladders that stop short of a value ------------------------------------------------------

SHORT_OF_VALUE = SaturationTuning(
    little_to_say_window=8,
    little_to_say_max_full=1,
    little_to_say_min_empty=5,
    little_to_say_no_value_turn=10,
    little_to_say_value_level=4,
    little_to_say_no_value_min_empty=2,
    little_to_say_no_value_max_full=2,
)
# a terse respondent: two "it just is" in ten turns, every other answer a rung or two
TERSE = ["short", "short", "empty", "short", "short", "full", "empty", "short"]


def said_up_to(level: int) -> NodeStateTracker:
    """A tracker whose highest node is of ontology ``level`` (one node per level)."""
    states = {
        f"n{k}": NodeState(node_id=f"n{k}", label=f"n{k}", created_at_turn=1, level=k)
        for k in range(1, level + 1)
    }
    return NodeStateTracker(states=states)


@pytest.mark.parametrize(
    ("turn", "fields", "level", "closes"),
    [
        # turn 10, twice no answer, no value ever said, one long answer: little to say
        (10, dict(recent_answers=TERSE, empty_answers=2), 3, True),
        # a value was said: this respondent can climb, the interview goes on
        (10, dict(recent_answers=TERSE, empty_answers=2), 4, False),
        # before the turn: too early to tell a terse respondent from a quiet one
        (9, dict(recent_answers=TERSE, empty_answers=2), 3, False),
        # only one answer that was no answer: they answer whatever is asked
        (10, dict(recent_answers=TERSE, empty_answers=1), 3, False),
        # three long answers lately: they have things to say when asked the right way
        (10, dict(recent_answers=["full"] * 3 + ["short"] * 5, empty_answers=2), 3, False),
    ],
)
def test_ladders_that_stop_short_of_a_value_close_a_quiet_respondent(
    turn: int, fields: dict[str, Any], level: int, closes: bool
) -> None:
    tracker = said_up_to(level)
    sat = saturation(**fields)
    result = check(turn=turn, saturation=sat, tracker=tracker, tuning=SHORT_OF_VALUE)
    assert (result.reason == LITTLE_TO_SAY) is closes
    # off unless the methodology names a turn
    assert check(turn=turn, saturation=sat, tracker=tracker, tuning=LITTLE).should_continue


def test_with_the_ceiling_rule_a_ladder_must_be_seen_to_stop_short_of_a_value() -> None:
    sat = saturation(recent_answers=TERSE, empty_answers=2)
    rule = SHORT_OF_VALUE.model_copy(update={"little_to_say_no_value_ceiling": True})
    opened = said_up_to(3)  # ladders opened one after another, none climbed to its end yet
    assert check(turn=10, saturation=sat, tracker=opened, tuning=rule).should_continue
    assert check(turn=10, saturation=sat, tracker=opened, tuning=SHORT_OF_VALUE).reason == (
        LITTLE_TO_SAY
    )
    # "that's all there is to it" on a consequence: this ladder stops short of a value
    states = dict(opened.states)
    states["n2"] = replace(states["n2"], knowledge_ceiling_turn=7)
    stopped = replace(opened, states=states)
    assert check(turn=10, saturation=sat, tracker=stopped, tuning=rule).reason == LITTLE_TO_SAY


def test_a_hesitation_is_a_short_answer() -> None:
    from interview_cli.core.state import update_saturation

    def after(
        tuning: SaturationTuning, ceiling: str, ran_without: frozenset[Habit] = frozenset()
    ) -> SaturationMetrics:
        return update_saturation(
            saturation(),
            nodes_added=0,
            edges_added=0,
            response_depth="shallow",
            max_depth=0,
            mention_counts=[],
            tuning=tuning,
            answer_kind="dont_know",
            knowledge_ceiling=ceiling,
            ran_without=ran_without,
        )

    pause = SaturationTuning(little_to_say_window=8)
    # a session recorded before the habit counted it as no answer
    before = frozenset({Habit.HESITATION_IS_AN_ANSWER})
    assert after(pause, "exploratory", before).recent_answers == ["empty"]
    # "not sure, let me think": a pause, not nothing to say
    assert after(pause, "exploratory").recent_answers == ["short"]
    assert after(pause, "exploratory").empty_answers == 0
    # "it just is": no answer, counted over the whole interview
    assert after(pause, "terminal").recent_answers == ["empty"]
    assert after(pause, "terminal").empty_answers == 1
    # "I already told you that" says the question was spent, not the respondent
    told = update_saturation(
        saturation(),
        nodes_added=0,
        edges_added=0,
        response_depth="shallow",
        max_depth=0,
        mention_counts=[],
        tuning=pause,
        answer_kind="already_said",
    )
    assert (told.recent_answers, told.empty_answers) == (["empty"], 0)
    # whatever else the methodology sets, a hesitation is a short answer
    assert after(LITTLE, "exploratory").recent_answers == ["short"]
