"""The moderator's habits through ``advance()`` with the shipped laddering methodology:
after a don't-know, after a remark on the question, returning to an unfinished ladder,
obeying "move on", and which redirection fits which reply."""

from __future__ import annotations

from typing import Any

import pytest
from moderation_fixtures import answer

from interview_cli.core.models import RubricScore
from interview_cli.core.turn import CoreState


def test_after_a_dont_know_the_interviewer_changes_technique_then_leaves_the_node() -> None:
    s, out = answer(CoreState(), [("light frame", "attribute")])
    first = out.decision.selected
    assert first.strategy == "deepen"
    s, out = answer(s, [], knowledge_ceiling="exploratory", answer_kind="dont_know")
    second = out.decision.selected
    assert second.node_id == first.node_id
    assert second.strategy in {"negative_ladder", "third_person", "situational"}
    assert out.decision.veto_reasons[f"deepen@{first.node_id}"] == (
        "deepen was asked on this node at turn 2 and brought a don't-know"
    )
    s, out = answer(s, [], knowledge_ceiling="exploratory", answer_kind="dont_know")
    # two questions brought nothing: the node is left
    assert out.decision.selected.node_id != first.node_id
    reasons = out.decision.veto_reasons
    assert any(
        k.endswith(f"@{first.node_id}") and "brought nothing new" in v for k, v in reasons.items()
    )
    signals = out.decision.node_signals[first.node_id]
    assert signals["technique.node.probe_history"] == "exhausted"


@pytest.mark.parametrize(("kind", "expected"), [("answer", "clarify"), ("about_interview", None)])
def test_a_remark_on_the_question_is_not_met_with_what_do_you_mean(
    kind: str, expected: str | None
) -> None:
    # a vague, unsure reply is asked what it means; "not sure where you're going with this"
    # is about the question, and gets another angle instead
    s, _ = answer(CoreState(), [("light frame", "attribute")])
    s, out = answer(s, [("carry it upstairs", "functional_consequence")])
    vague = {"hedging_language": "high", "certainty": RubricScore(score=1), "depth": 1}
    s, out = answer(s, [], answer_kind=kind, **vague)
    chosen = out.decision.selected.strategy
    assert chosen == expected if expected else chosen != "clarify"


def test_a_hedged_answer_that_climbed_is_not_met_with_what_do_you_mean_on_the_rung_below() -> None:
    # "Hmm. Respect, maybe?" asked about "carry it upstairs": if anything is vague, it is the
    # new rung, not the one whose why was just answered
    s, _ = answer(CoreState(), [("light frame", "attribute")])
    s, out = answer(s, [("carry it upstairs", "functional_consequence")])
    asked = out.decision.selected.node_id
    vague = {"hedging_language": "high", "certainty": RubricScore(score=1), "depth": 1}
    s, out = answer(s, [("respect", "terminal_value")], **vague)
    chosen = out.decision.selected
    assert not (chosen.strategy == "clarify" and chosen.node_id == asked)


def test_a_ladder_left_unfinished_is_returned_to_later_another_way() -> None:
    # two "not sure, let me think" on "light frame": back off, ladder another attribute (the
    # one "what else?" brought, before asking "what else?" again), and once that one reached
    # the end of what the respondent knows and "what else?" brought nothing, come back another
    # way
    s, out = answer(CoreState(), [("light frame", "attribute")])
    first = out.decision.selected
    for _ in range(2):
        s, out = answer(s, [], knowledge_ceiling="exploratory", answer_kind="dont_know")
    assert out.decision.selected.node_id != first.node_id
    history = "technique.node.probe_history"
    assert out.decision.node_signals[first.node_id][history] == "exhausted"
    assert out.decision.selected.strategy == "explore"
    s, out = answer(s, [("gears", "attribute")])
    s, out = answer(s, [("climb hills", "functional_consequence")])
    assert out.decision.selected.label == "climb hills"  # not "what else?" again
    assert out.decision.node_signals[first.node_id][history] == "returnable"
    s, out = answer(s, [], knowledge_ceiling="terminal", answer_kind="dont_know")
    assert out.decision.selected.strategy == "explore"
    s, out = answer(s, [])
    returned = out.decision.selected
    assert returned.node_id == first.node_id
    assert returned.strategy in {"negative_ladder", "situational"}  # not the ones tried


def test_move_on_is_obeyed_and_a_complaint_never_becomes_the_next_topic() -> None:
    s, out = answer(CoreState(), [("light frame", "attribute"), ("gears", "attribute")])
    focus = out.decision.selected.node_id
    # the model extracted "again" from "I already told you that, again": it is dropped
    s, out = answer(s, [("again", "attribute")], answer_kind="already_said")
    assert out.delta.nodes_added == [] and s.graph.find_by_label("again") == []
    assert out.decision.selected.node_id != focus
    s2, out = answer(s, [], answer_kind="move_on")
    assert out.decision.selected.node_id not in {focus}


def test_a_terminal_dont_know_ends_the_climb_on_that_node() -> None:
    # "I don't know, that's all there is to it": the respondent said where the ladder stops;
    # no other technique on it, the interview goes back to another attribute
    s, _ = answer(CoreState(), [("light frame", "attribute")])
    s, out = answer(s, [("carry it upstairs", "functional_consequence")])
    focus = out.decision.selected.node_id
    s, out = answer(s, [], knowledge_ceiling="terminal", answer_kind="dont_know")
    assert out.decision.selected.node_id != focus
    reasons = out.decision.veto_reasons
    for strategy in ("deepen", "negative_ladder", "third_person", "situational"):
        assert f"{strategy}@{focus}" in reasons


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        # "No idea.": imagine it absent
        ({"knowledge_ceiling": "none", "answer_kind": "dont_know"}, "negative_ladder"),
        # "Hmm, I'm not sure, let me think": lower the stakes
        ({"knowledge_ceiling": "exploratory", "answer_kind": "dont_know"}, "third_person"),
        # "Just is." - bare and abstract, nothing new: a concrete moment
        ({"depth": 1, "specificity": RubricScore(score=1)}, "situational"),
    ],
)
def test_each_redirection_is_chosen_by_the_reply_it_fits(
    reply: dict[str, Any], expected: str
) -> None:
    s, _ = answer(CoreState(), [("light frame", "attribute")])
    s, out = answer(s, [("carry it upstairs", "functional_consequence")])  # past the opening
    focus = out.decision.selected
    assert (focus.strategy, focus.label) == ("deepen", "carry it upstairs")
    extra = dict(reply)
    scores = {k: extra.pop(k) for k in ("specificity", "engagement") if k in extra}
    s, out = answer(s, [], **extra, **scores)
    assert (out.decision.selected.strategy, out.decision.selected.node_id) == (
        expected,
        focus.node_id,
    )


def highest_level(state: CoreState) -> int:
    """What the no-value closing reads: the highest ontology level among tracked nodes."""
    return max((s.level for s in state.tracker.states.values()), default=0)


def test_a_turn_feeds_the_laddering_saturation_readings_from_what_the_answer_brought() -> None:
    # the shipped MEC: productive_answer_quality 0.4, fatigue_alpha 0.25, hesitations 'short'
    terse = {"depth": 1, "engagement": RubricScore(score=1)}  # quality 0.0 on its own
    s, _ = answer(CoreState(), [("froths well", "attribute")], **terse)
    assert s.trend.value == pytest.approx(0.4)  # "Froths well.": a rung, not fatigue
    s, _ = answer(s, [], **terse)  # a few words that brought nothing count for what they are
    assert s.trend.value == pytest.approx(0.75 * 0.4)
    assert highest_level(s) == 1
    s, _ = answer(s, [("calm mornings", "instrumental_value")])
    s, _ = answer(s, [("smooth texture", "attribute")])
    assert highest_level(s) == 4  # the highest said so far, never lowered

    # asked why an attribute matters, "hmm, not sure, let me think" is a pause; "it just is"
    # is no answer, and counted
    s, out = answer(CoreState(), [("froths well", "attribute")])
    assert out.decision.selected.strategy == "deepen"
    s, out = answer(s, [], answer_kind="dont_know", knowledge_ceiling="exploratory")
    assert (s.saturation.recent_answers[-1], s.saturation.empty_answers) == ("short", 0)
    assert out.decision.selected.node_id is not None  # another way of asking why
    s, _ = answer(s, [], answer_kind="dont_know", knowledge_ceiling="terminal")
    assert (s.saturation.recent_answers[-1], s.saturation.empty_answers) == ("empty", 1)


def test_nothing_else_to_a_breadth_check_is_no_sign_of_little_to_say() -> None:
    # a ladder reached a value, so "what else matters?" is asked; "nothing else, that's all"
    # spends the question, not the respondent: a short answer, not an empty one
    s, _ = answer(CoreState(), [("froths well", "attribute")])
    s, out = answer(s, [("peace of mind", "terminal_value")])
    assert out.decision.selected.strategy == "explore"
    s, _ = answer(s, [], answer_kind="dont_know", knowledge_ceiling="terminal")
    assert (s.saturation.recent_answers[-1], s.saturation.empty_answers) == ("short", 0)


def test_an_answer_that_said_nothing_new_is_no_dont_know_to_redirect() -> None:
    # "What do you mean by 'light frame'?" or the same words again: no new rung and no
    # don't-know; another technique on that node seldom brings one, so the node is left
    s, _ = answer(CoreState(), [("light frame", "attribute")])
    s, out = answer(s, [("carry it upstairs", "functional_consequence")])
    asked = out.decision.selected
    assert (asked.strategy, asked.label) == ("deepen", "carry it upstairs")
    s, out = answer(s, [])
    assert out.decision.node_signals[asked.node_id]["technique.node.last_answer"] == "nothing_new"
    redirections = {"negative_ladder", "third_person", "situational"}
    chosen = out.decision.selected
    assert not (chosen.strategy in redirections and chosen.node_id == asked.node_id)
    # a don't-know on the same question is met with another technique on that node
    s, _ = answer(CoreState(), [("light frame", "attribute")])
    s, out = answer(s, [("carry it upstairs", "functional_consequence")])
    s, out = answer(s, [], answer_kind="dont_know")
    chosen = out.decision.selected
    assert (chosen.strategy in redirections, chosen.node_id) == (True, asked.node_id)
