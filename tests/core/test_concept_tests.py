"""Concept tests in the pure core: the element strategy raises the stimulus elements the
respondent has not mentioned (seed 004 ``cover_element``), what appeals is laddered, and no
early stop comes while coverage is short (seed 000 "Coverage")."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.config.tuning import CoverageTuning
from interview_cli.core.coverage import initial_coverage, record_raise
from interview_cli.core.decide.continuation import (
    FATIGUE_MIN_COVERAGE,
    LITTLE_TO_SAY,
    RESPONDENT_FATIGUED,
    Continuation,
    StopInputs,
    fatigue_min_coverage,
    guard_stop,
    saturation_reason,
)
from interview_cli.core.decide.moderator import ModeratorChoice
from interview_cli.core.decide.policies import opening_strategy
from interview_cli.core.decide.scored import Ranking, ScoredCandidate
from interview_cli.core.decide.vetoes import (
    FocusEntry,
    VetoContext,
    open_question_spent,
    recent_redundancy,
)
from interview_cli.core.models import Assessment, ExtractedNode, Extraction
from interview_cli.core.signals import TrendState
from interview_cli.core.state import SaturationMetrics
from interview_cli.core.tracker import NodeStateTracker
from interview_cli.core.turn import CoreState, TurnInput, TurnOutcome, advance, answer_turn

ONTOLOGY: dict[str, Any] = {
    "nodes": [
        {"name": "attribute", "level": 1},
        {"name": "consequence", "level": 2},
        {"name": "value", "level": 3, "terminal": True},
    ],
    "edges": [
        {
            "name": "leads_to",
            "permitted_connections": [["attribute", "consequence"], ["consequence", "value"]],
        }
    ],
}


def methodology(raise_weight: float = 3.0, **coverage: Any) -> Methodology:
    return Methodology.model_validate(
        {
            "method": {"name": "ladder", "goal": "test"},
            "ontology": ONTOLOGY,
            "strategies": [
                {
                    "name": "deepen",
                    "family": "deepen",
                    "signal_weights": {
                        "graph.node.has_outgoing.false": 1.0,
                        "coverage.node.reaction.positive": 0.5,
                        "coverage.node.reaction.negative": -2.0,
                    },
                },
                {
                    "name": "explore",
                    "family": "explore",
                    "node_binding": "none",
                    "signal_weights": {},
                },
                {
                    "name": "cover_element",
                    "family": "element",
                    "node_binding": "none",
                    "focus_mode": "element",
                    "signal_weights": {"coverage.raise_pressure": raise_weight},
                },
                {
                    "name": "reflect",
                    "family": "summary",
                    "node_binding": "none",
                    "generates_closing_question": True,
                    "signal_weights": {"meta.interview.phase.late": 5.0},
                },
            ],
            "tuning": {
                "coverage": {"min_ratio_before_stop": 0.6, **coverage},
                "vetoes": {"fruitless_probe": True},
            },
        }
    )


LOCK = Concept.model_validate(
    {
        "id": "lock",
        "name": "Smart lock",
        "methodology": "ladder",
        "objective": "test a concept",
        "stimulus": "A keyless lock: fingerprint, auto lock, guest codes. 199 pounds.",
        "elements": [
            {"id": "fingerprint", "label": "fingerprint unlock"},
            {"id": "auto_lock", "label": "auto lock"},
            {"id": "guest_codes", "label": "guest codes"},
            {"id": "price", "label": "199 pounds", "aliases": ["price"]},
        ],
    }
)
PLAIN = LOCK.model_copy(update={"elements": [], "stimulus": None})


def assess(depth: int = 3) -> Assessment:
    scores = {"response_depth": depth, "engagement": 3}
    for name in ("specificity", "certainty", "valence", "intellectual_engagement"):
        scores[name] = 3
    return Assessment.model_validate({k: {"score": v} for k, v in scores.items()})


def node(label: str, kind: str = "attribute", **kw: Any) -> ExtractedNode:
    return ExtractedNode(label=label, node_type=kind, quote=label, **kw)


def run(
    answers: list[list[ExtractedNode]],
    *,
    m: Methodology | None = None,
    concept: Concept = LOCK,
    max_turns: int = 12,
) -> tuple[CoreState, list[TurnOutcome]]:
    m = m or methodology()
    state = CoreState.initial(concept)
    outcomes = []
    for i, nodes in enumerate(answers, 1):
        inputs = TurnInput(
            methodology=m,
            concept=concept,
            extraction=Extraction(extractable=bool(nodes), nodes=nodes),
            assessment=assess(),
            utterance_id=f"u{i}",
            max_turns=max_turns,
        )
        state, outcome = advance(state, inputs)
        outcomes.append(outcome)
    return state, outcomes


def test_the_element_question_raises_the_first_element_not_mentioned() -> None:
    state, [first] = run([[node("fingerprint unlock", reaction="positive")]], max_turns=4)
    decision = first.decision
    assert decision.selected.strategy == "cover_element"
    assert decision.selected.node_id is None and decision.selected.element_id == "auto_lock"
    assert "raises stimulus element 'auto_lock'" in decision.rationale[-1]
    assert state.coverage is not None and state.coverage.raised == {"auto_lock": [2]}
    assert state.focus_history[-1].element_id == "auto_lock"
    assert state.coverage.focus_counts["auto_lock"] == 1


def test_each_element_is_raised_once_then_the_strategy_has_nothing_to_raise() -> None:
    eager = methodology(raise_weight=10.0)
    state, outcomes = run([[node("fingerprint unlock")], [], [], [], []], m=eager, max_turns=8)
    raised = [o.decision.selected.element_id for o in outcomes]
    assert raised[:3] == ["auto_lock", "guest_codes", "price"]
    assert state.coverage is not None
    assert state.coverage.raised == {"auto_lock": [2], "guest_codes": [3], "price": [4]}
    assert state.coverage.to_raise(1) == []
    last = outcomes[-1].decision
    vetoed = next(c for c in last.candidates if c.strategy == "cover_element")
    assert vetoed.vetoed_by == "nothing_to_raise" and not vetoed.selected
    assert last.selected.element_id is None


def test_more_raises_when_the_methodology_allows_them() -> None:
    twice = methodology(raise_weight=10.0, max_raises=2)
    _, outcomes = run([[node("fingerprint unlock")], [], [], [], []], m=twice, max_turns=8)
    assert [o.decision.selected.element_id for o in outcomes] == [
        "auto_lock",
        "guest_codes",
        "price",
        "auto_lock",
        "guest_codes",
    ]


def test_no_element_strategy_in_a_study_without_stimulus_elements() -> None:
    _, [outcome] = run([[node("fingerprint unlock")]], concept=PLAIN)
    assert not [c for c in outcome.decision.candidates if c.strategy == "cover_element"]
    assert "coverage.raise_pressure" not in outcome.decision.global_signals


def test_raise_pressure_is_the_elements_left_over_the_turns_left() -> None:
    _, outcomes = run([[node("fingerprint unlock")], [node("auto lock")]], max_turns=8)
    # 3 elements left to raise over 7 turns, then 2 (auto lock was raised and said) over 6
    pressures = [o.decision.global_signals["coverage.raise_pressure"] for o in outcomes]
    assert pressures == [pytest.approx(3 / 7, abs=1e-4), pytest.approx(2 / 6, abs=1e-4)]


def test_an_appealing_element_is_laddered_and_an_unappealing_one_is_not() -> None:
    # the fingerprint raised no question: the respondent volunteered it, liking it
    liked, [outcome] = run([[node("fingerprint unlock", reaction="positive")]], m=methodology(0.0))
    assert outcome.decision.selected.strategy == "deepen"
    focus = outcome.decision.node_signals[outcome.decision.selected.node_id or ""]
    assert focus["coverage.node.reaction"] == "positive"
    _, [outcome] = run([[node("fingerprint unlock", reaction="negative")]], m=methodology(0.0))
    assert outcome.decision.selected.strategy != "deepen"


def _ctx(**kw: Any) -> VetoContext:
    base: dict[str, Any] = {
        "tuning": methodology().tuning.vetoes,
        "tracker": NodeStateTracker(),
        "turn_number": 3,
    }
    return VetoContext(**{**base, **kw})


def test_element_questions_are_no_open_questions_for_the_memory_of_asking() -> None:
    m = methodology()
    cover, explore = m.strategy("cover_element"), m.strategy("explore")
    assert cover is not None and explore is not None
    raised = (FocusEntry(turn=2, strategy="cover_element", element_id="auto_lock"),)
    # a raised element that brought nothing does not spend the open questions ...
    assert (
        open_question_spent(explore, None, _ctx(focus_history=raised, consecutive_low_info=1))
        is None
    )
    # ... nor is an element question held back as an open one, or as a repeat
    spent = (FocusEntry(turn=2, strategy="explore"),)
    assert (
        open_question_spent(cover, None, _ctx(focus_history=spent, consecutive_low_info=1)) is None
    )
    assert (
        recent_redundancy(cover, None, _ctx(focus_history=raised, consecutive_low_info=1)) is None
    )
    assert open_question_spent(explore, None, _ctx(focus_history=spent, consecutive_low_info=1))


def _candidate(strategy: str, score: float, rank: int, selected: bool = False) -> ScoredCandidate:
    return ScoredCandidate(strategy, None, None, (), score, 1.0, 0.0, score, rank, selected)


def _guard(reason: str, *, fatigued: int = 0, raised: bool = False, threshold: float = 0.6):
    m = methodology(min_ratio_before_stop=threshold)
    coverage = initial_coverage(LOCK)
    if raised:
        for i, element in enumerate(coverage.element_ids):
            coverage = record_raise(coverage, element, turn=i + 2, max_focus=9)
    reflect = _candidate("reflect", 3.0, 1, selected=True)
    ranking = Ranking((reflect, _candidate("cover_element", 2.0, 2)), reflect, "joint")
    stop = Continuation(False, reason, 4)
    inputs = StopInputs(
        methodology=m,
        tracker=NodeStateTracker(),
        turn_number=6,
        max_turns=10,
        phase="mid",
        focus_history=(),
        trend=TrendState(fatigued_turns=fatigued),
        focusable=frozenset(),
        coverage=coverage,
    )
    return guard_stop(ranking, stop, inputs)


def test_no_little_to_say_stop_below_the_coverage_threshold() -> None:
    ranking, continuation, note = _guard(LITTLE_TO_SAY)
    assert continuation.should_continue and ranking.selected is not None
    assert ranking.selected.strategy == "cover_element"
    assert note is not None and "coverage 0% is below 60%" in note


def test_the_coverage_guard_gives_way_to_fatigue_an_exhausted_list_and_no_threshold() -> None:
    # one low answer is no fatigue: the guard still holds
    _, continuation, _ = _guard(LITTLE_TO_SAY, fatigued=1)
    assert continuation.should_continue
    for kw in ({"fatigued": 3}, {"raised": True}, {"threshold": 0.0}):
        _, continuation, note = _guard(LITTLE_TO_SAY, **kw)  # type: ignore[arg-type]
        assert not continuation.should_continue and note is None, kw
    _, continuation, _ = _guard(RESPONDENT_FATIGUED)
    assert not continuation.should_continue


def test_a_fatigue_close_needs_the_methodology_threshold() -> None:
    assert fatigue_min_coverage(CoverageTuning()) == FATIGUE_MIN_COVERAGE
    assert fatigue_min_coverage(CoverageTuning(min_ratio_before_stop=0.8)) == 0.8
    tired = TrendState(fatigued_turns=3)
    kw: dict[str, Any] = {
        "saturation": SaturationMetrics(),
        "tracker": NodeStateTracker(),
        "trend": tired,
        "tuning": methodology().tuning.saturation,
    }
    assert saturation_reason(**kw, coverage_ratio=0.7) == RESPONDENT_FATIGUED
    assert saturation_reason(**kw, coverage_ratio=0.7, min_coverage=0.8) is None


def test_a_state_with_nothing_raised_dumps_as_before() -> None:
    coverage = initial_coverage(LOCK)
    assert "raised" not in coverage.model_dump(mode="json")
    raised = record_raise(coverage, "price", turn=3, max_focus=3)
    assert raised.model_dump(mode="json")["raised"] == {"price": [3]}
    entry = FocusEntry(turn=1, strategy="deepen", node_id="n1")
    assert "element_id" not in entry.to_dict()
    assert FocusEntry.from_dict(replace(entry, element_id="x").to_dict()).element_id == "x"


def test_the_moderators_alt_onto_the_element_strategy_raises_the_next_element() -> None:
    m = methodology(raise_weight=0.5)  # deepen wins, the element question is the runner-up
    inputs = TurnInput(
        methodology=m,
        concept=LOCK,
        extraction=Extraction(nodes=[node("fingerprint unlock")]),
        assessment=assess(),
        utterance_id="u1",
        max_turns=12,
    )
    answered = answer_turn(CoreState.initial(LOCK), inputs)
    assert answered.tool.selected.strategy == "deepen"
    decided = answered.decide(ModeratorChoice(action="alt", strategy="cover_element"))
    assert decided.outcome.decision.selected.element_id == "auto_lock"
    assert decided.state.coverage is not None
    assert decided.state.coverage.raised == {"auto_lock": [2]}


def test_the_baselines_open_a_topic_never_with_an_element() -> None:
    assert opening_strategy(methodology()).name == "explore"


def test_a_respondent_who_says_they_are_going_is_let_go_however_little_was_raised() -> None:
    # round 267: "Thank you, it's been interesting, but I'll stop there if you don't mind" at
    # 2 of 7 elements was asked about the next element; seed 000's coverage gate is for a
    # fatigue the trend infers, not one said
    tired = assess().model_copy(update={"tiring": True})
    state, outcome = _answered((assess(), assess(), assess(), assess(), tired))
    assert state.coverage is not None and state.coverage.ratio < 0.6
    assert not outcome.continuation.should_continue
    assert outcome.continuation.reason == RESPONDENT_FATIGUED


def test_a_respondent_tiring_in_the_first_answers_is_not_closed_before_the_turn_gate() -> None:
    # "tiring" is also "is there much more?", "a couple more questions" (the review)
    m = methodology()
    tired = assess().model_copy(update={"tiring": True})
    inputs = TurnInput(
        methodology=m,
        concept=LOCK,
        extraction=Extraction(extractable=True, nodes=[node("thing 1")]),
        assessment=tired,
        utterance_id="u1",
        max_turns=12,
    )
    _, outcome = advance(CoreState.initial(LOCK), inputs)
    assert outcome.continuation.should_continue


def test_a_respondent_who_says_they_are_leaving_now_is_let_go_at_any_turn() -> None:
    # "sorry got to go now, my bus is here. bye" at the second answer was asked two more
    # questions: the turn gate is for "is there much more?", not a goodbye
    going = assess().model_copy(update={"tiring": True, "going": True})
    _, outcome = _answered((assess(), going))
    assert not outcome.continuation.should_continue
    assert outcome.continuation.reason == RESPONDENT_FATIGUED


def _answered(assessments: tuple[Assessment, ...]) -> tuple[CoreState, TurnOutcome]:
    """The state and last outcome after an answer per assessment, each naming a new thing."""
    m = methodology()
    state = CoreState.initial(LOCK)
    outcomes = []
    for i, said in enumerate(assessments, 1):
        inputs = TurnInput(
            methodology=m,
            concept=LOCK,
            extraction=Extraction(extractable=True, nodes=[node(f"thing {i}")]),
            assessment=said,
            utterance_id=f"u{i}",
            max_turns=12,
        )
        state, outcome = advance(state, inputs)
        outcomes.append(outcome)
    return state, outcomes[-1]
