"""Signals: registry vs catalogue, dependency order, LLM normalisation, exhaustion (seed 003),
node signals from the tracker, temporal and meta signals, the smoothed response trend."""

from __future__ import annotations

from typing import Any

import pytest

from interview_cli.config.schemas import Methodology
from interview_cli.config.signal_catalogue import CATALOGUE, CATALOGUE_BY_NAME, SignalSpec
from interview_cli.config.tuning import ExhaustionTuning
from interview_cli.core.models import Assessment
from interview_cli.core.signals import (
    DETECTORS,
    ORDER,
    CanonicalInfo,
    SignalContext,
    TrendState,
    dependency_order,
    detect_signals,
    trend_category,
    update_response_trend,
)
from interview_cli.core.signals.llm_signals import RESPONSE_DEPTH_BY_SCORE
from interview_cli.core.signals.node_signals import (
    exhaustion_score,
    is_exhausted,
    repetition_level,
    shallow_ratio,
    streak_level,
)
from interview_cli.core.signals.session_signals import (
    strategy_repetition_count,
    turns_since_strategy_change,
)
from interview_cli.core.signals.trend import FATIGUE_TURNS, TIRED_SHARE
from interview_cli.core.tracker import NodeState, NodeStateTracker

METHODOLOGY = Methodology.model_validate(
    {
        "method": {"name": "mini", "goal": "test"},
        "ontology": {
            "nodes": [
                {"name": "attribute", "level": 1},
                {"name": "consequence", "level": 2},
                {"name": "value", "level": 3, "terminal": True},
            ],
            "edges": [
                {"name": "leads_to", "permitted_connections": [["attribute", "consequence"]]}
            ],
        },
        "strategies": [{"name": "deepen", "family": "deepen"}],
    }
)


def assessment(**scores: int) -> Assessment:
    values = {"response_depth": 3, "specificity": 3, "certainty": 3, "valence": 3}
    values |= {"engagement": 3, "intellectual_engagement": 3}
    values |= scores
    return Assessment.model_validate({k: {"score": v} for k, v in values.items()})


def context(**kw: Any) -> SignalContext:
    kw.setdefault("methodology", METHODOLOGY)
    kw.setdefault("tracker", NodeStateTracker())
    kw.setdefault("turn_number", 6)
    kw.setdefault("max_turns", 20)
    return SignalContext(**kw)


# ---- registry and order --------------------------------------------------------------------


def test_every_catalogue_entry_has_a_detector_and_vice_versa() -> None:
    assert set(DETECTORS) == {s.name for s in CATALOGUE}
    for name, detector in DETECTORS.items():
        assert detector.scope == CATALOGUE_BY_NAME[name].scope


def test_detection_order_respects_dependencies_and_catalogue_order() -> None:
    position = {s.name: i for i, s in enumerate(ORDER)}
    assert len(ORDER) == len(CATALOGUE)
    for spec in ORDER:
        assert all(position[d] < position[spec.name] for d in spec.depends_on)
    independent = [s.name for s in ORDER if not s.depends_on]
    assert independent == [s.name for s in CATALOGUE if not s.depends_on]


def test_dependency_order_rejects_cycles_and_unknown_names() -> None:
    a = SignalSpec("x.a", "x", "bool", "", depends_on=("x.b",))
    b = SignalSpec("x.b", "x", "bool", "", depends_on=("x.a",))
    with pytest.raises(ValueError, match="cycle"):
        dependency_order([a, b])
    with pytest.raises(ValueError, match="unknown"):
        dependency_order([a])


# ---- LLM normalisation ---------------------------------------------------------------------


def test_response_depth_mapping_table() -> None:
    assert RESPONSE_DEPTH_BY_SCORE == {
        1: "surface",
        2: "shallow",
        3: "moderate",
        4: "deep",
        5: "deep",
    }


def test_llm_signals_normalise_rubric_scores() -> None:
    a = assessment(response_depth=2, specificity=1, certainty=5, valence=4, engagement=3)
    a = a.model_copy(update={"hedging_language": "high", "knowledge_ceiling": "terminal"})
    g = detect_signals(context(assessment=a)).global_signals
    assert g["llm.response_depth"] == "shallow"
    assert (g["llm.specificity"], g["llm.certainty"], g["llm.valence"]) == (0.0, 1.0, 0.75)
    assert g["llm.engagement"] == 0.5
    assert (g["llm.hedging_language"], g["llm.knowledge_ceiling"]) == ("high", "terminal")


def test_without_assessment_llm_signals_are_absent() -> None:
    g = detect_signals(context()).global_signals
    assert not any(k.startswith("llm.") and k != "llm.global_response_trend" for k in g)
    assert g["llm.global_response_trend"] == "stable"
    assert "coverage.ratio" not in g  # no stimulus elements -> coverage not detected


# ---- exhaustion (seed 003, seed 002 Path 8) --------------------------------------------------


@pytest.mark.parametrize(
    ("since_yield", "streak", "shallow", "expected"),
    [
        (0, 0, 0.0, 0.0),  # fresh
        (3, 2, 2 / 3, 0.44),  # exactly at the exhaustion thresholds: 0.12 + 0.12 + 0.2
        (5, 1, 0.0, 0.26),  # 0.2 + 0.06: "fresh, high opportunity" band (< 0.3)
        (10, 5, 1.0, 1.0),  # fully exhausted
        (25, 9, 1.0, 1.0),  # caps at 10 turns and 5 streak
        (4, 3, 1 / 3, 0.44),  # 0.16 + 0.18 + 0.1
    ],
)
def test_exhaustion_score_formula(
    since_yield: int, streak: int, shallow: float, expected: float
) -> None:
    assert exhaustion_score(since_yield, streak, shallow) == pytest.approx(expected)


def test_exhaustion_rule_thresholds() -> None:
    t = ExhaustionTuning()
    base = {"focus_count": 2, "turns_since_last_yield": 3, "current_focus_streak": 2}
    assert is_exhausted(**base, shallow=2 / 3, tuning=t)
    assert not is_exhausted(**base, shallow=1 / 3, tuning=t)
    assert not is_exhausted(**{**base, "turns_since_last_yield": 2}, shallow=1.0, tuning=t)
    assert not is_exhausted(**{**base, "current_focus_streak": 1}, shallow=1.0, tuning=t)
    assert not is_exhausted(**{**base, "focus_count": 0}, shallow=1.0, tuning=t)


def test_shallow_ratio_uses_the_recent_window() -> None:
    assert shallow_ratio([], 3) == 0.0
    assert shallow_ratio(["deep", "deep", "surface", "shallow"], 3) == pytest.approx(2 / 3)
    assert shallow_ratio(["surface", "moderate", "deep", "deep"], 3) == 0.0


def test_streak_and_repetition_levels() -> None:
    assert [streak_level(n) for n in range(6)] == [
        "none",
        "low",
        "medium",
        "medium",
        "high",
        "high",
    ]
    assert [repetition_level(n) for n in range(6)] == [
        "none",
        "none",
        "low",
        "medium",
        "high",
        "high",
    ]


# ---- node signals from tracker state --------------------------------------------------------


def _node(node_id: str, **fields: Any) -> NodeState:
    fields.setdefault("created_at_turn", 1)
    fields.setdefault("node_type", "attribute")
    return NodeState(node_id=node_id, label=node_id, **fields)


def test_node_signals_for_every_tracked_node() -> None:
    tired = _node(
        "n1",
        focus_count=3,
        last_focus_turn=5,
        current_focus_streak=3,
        turns_since_last_yield=4,
        all_response_depths=("deep", "surface", "shallow", "surface"),
        consecutive_same_strategy=3,
        edge_count_outgoing=1,
    )
    fresh = _node("n2", created_at_turn=6, node_type="value", edge_count_incoming=1)
    old = _node("n3", created_at_turn=1, node_type="consequence")
    tracker = NodeStateTracker(states={"n1": tired, "n2": fresh, "n3": old}, previous_focus="n1")
    detected = detect_signals(context(tracker=tracker, assessment=assessment(response_depth=4)))
    n1, n2, n3 = (detected.node_signals[k] for k in ("n1", "n2", "n3"))
    assert n1["graph.node.exhausted"] is True
    assert n1["graph.node.exhaustion_score"] == pytest.approx(0.16 + 0.18 + 0.3)
    assert n1["graph.node.yield_stagnation"] is True
    assert n1["graph.node.focus_streak"] == "medium"
    assert n1["graph.node.is_current_focus"] is True
    assert n1["graph.node.recency_score"] == 1.0
    assert n1["technique.node.strategy_repetition"] == "medium"
    assert n1["meta.node.opportunity"] == "exhausted"
    assert (n1["graph.node.has_outgoing"], n1["graph.node.is_orphan"]) == (True, False)

    assert n2["graph.node.exhausted"] is False
    assert n2["graph.node.recency_score"] == 1.0  # created this turn
    assert (n2["graph.node.is_terminal"], n2["graph.node.level_ratio"]) == (True, 1.0)
    assert (n2["graph.node.edge_count"], n2["graph.node.has_outgoing"]) == (1, False)
    assert n2["meta.node.opportunity"] == "fresh"

    assert n3["graph.node.recency_score"] == pytest.approx(1 - 5 / 20)
    assert n3["graph.node.level_ratio"] == 0.5
    assert n3["graph.node.is_orphan"] is True


def test_probe_deeper_when_deep_answers_stop_yielding() -> None:
    focused = _node(
        "n1", focus_count=2, current_focus_streak=2, turns_since_last_yield=1, last_focus_turn=5
    )
    tracker = NodeStateTracker(states={"n1": focused}, previous_focus="n1")
    deep = detect_signals(context(tracker=tracker, assessment=assessment(response_depth=5)))
    assert deep.node_signals["n1"]["meta.node.opportunity"] == "probe_deeper"
    moderate = detect_signals(context(tracker=tracker, assessment=assessment(response_depth=3)))
    assert moderate.node_signals["n1"]["meta.node.opportunity"] == "fresh"


# ---- temporal and meta ---------------------------------------------------------------------


def test_strategy_repetition_signals() -> None:
    assert strategy_repetition_count([]) == 0
    assert strategy_repetition_count(["a", "b", "b", "a", "b", "b"]) == 4
    assert strategy_repetition_count(["b", "b", "b", "b", "b", "b", "b"]) == 5
    assert turns_since_strategy_change([]) == 0
    assert turns_since_strategy_change(["a", "b", "b", "b"]) == 3
    assert turns_since_strategy_change(["b", "a"]) == 1
    g = detect_signals(context(strategy_history=("x", "y", "y"))).global_signals
    assert g["temporal.strategy_repetition_count"] == 2
    assert g["temporal.turns_since_strategy_change"] == 2


def test_phase_progress_and_canonical_signals() -> None:
    g = detect_signals(context(turn_number=19, max_turns=20)).global_signals
    assert (g["meta.interview.phase"], g["meta.interview.progress"]) == ("late", 0.95)
    assert g["graph.canonical_concept_count"] == 0
    assert g["meta.canonical.saturation"] == 0.0
    on = CanonicalInfo(enabled=True, concept_count=7, new_slots=1, new_surface_nodes=4)
    g = detect_signals(context(canonical=on)).global_signals
    assert g["graph.canonical_concept_count"] == 7
    assert g["meta.canonical.saturation"] == 0.75


# ---- response trend ------------------------------------------------------------------------


def test_trend_is_an_ewma_of_depth_and_engagement() -> None:
    t = update_response_trend(TrendState(), assessment(response_depth=5, engagement=5), 0.5)
    assert (t.value, t.previous, t.observations) == (1.0, None, 1)
    assert trend_category(t) == "stable"
    t = update_response_trend(t, assessment(response_depth=3, engagement=3), 0.5)
    assert t.value == pytest.approx(0.75)  # 0.5 * 0.5 + 0.5 * 1.0
    assert trend_category(t) == "shallowing"
    t = update_response_trend(t, assessment(response_depth=4, engagement=4), 0.5)
    assert t.value == pytest.approx(0.75)
    assert trend_category(t) == "stable"
    t = update_response_trend(t, assessment(response_depth=5, engagement=5), 0.5)
    assert trend_category(t) == "deepening"
    assert update_response_trend(t, None, 0.5) == t


def test_one_good_answer_does_not_reset_fatigue_like_the_seed_counter() -> None:
    low = assessment(response_depth=1, engagement=1)
    t = TrendState()
    for _ in range(3):
        t = update_response_trend(t, low, 0.5)
    assert (t.fatigued_turns, trend_category(t)) == (3, "fatigued")
    t = update_response_trend(t, assessment(response_depth=2, engagement=3), 0.5)
    # q = 0.375 -> EWMA 0.1875: still fatigued, the count keeps running.
    assert t.fatigued_turns == 4
    # One answer is not a trend: a terse opener counts towards the stop but is not "fatigued".
    first = update_response_trend(TrendState(), low, 0.5)
    assert (first.fatigued_turns, trend_category(first)) == (1, "stable")
    # And one terse answer in a lively run does not start it.
    t = update_response_trend(TrendState(value=0.8), low, 0.5)
    assert t.fatigued_turns == 0


def test_an_answer_that_says_it_is_tired_counts_as_fatigue_at_once() -> None:
    # round 198: "Sorry I'm flagging a bit now, long day!" was asked four more questions;
    # INTERVIEWING.md ends the interview when the respondent is tired, and they said so
    lively = assessment(response_depth=4, engagement=5)
    t = update_response_trend(TrendState(), lively, 0.25, fatigue_threshold=0.2)
    said = lively.model_copy(update={"tiring": True})
    t = update_response_trend(t, said, 0.25, fatigue_threshold=0.2)
    assert t.fatigued_turns == FATIGUE_TURNS
    assert t.value == pytest.approx(0.2 * TIRED_SHARE)
    assert trend_category(t, fatigue_threshold=0.2) == "fatigued"
    # (a lively answer after it is the trend again, smoothed: q = 0.875, 0.25 of the way)
    t = update_response_trend(t, lively, 0.25, fatigue_threshold=0.2)
    assert t.value == pytest.approx(0.25 * 0.875 + 0.75 * 0.19)
    assert t.fatigued_turns == 0


def test_terse_answers_that_bring_something_new_are_not_fatigue() -> None:
    terse = assessment(response_depth=1, engagement=1)  # "Froths better."
    tired, brief = TrendState(), TrendState()
    for _ in range(4):
        tired = update_response_trend(tired, terse, 0.25)
        brief = update_response_trend(brief, terse, 0.25, productive_floor=0.4)
    assert (tired.fatigued_turns, trend_category(tired)) == (4, "fatigued")
    assert (brief.fatigued_turns, trend_category(brief)) == (0, "stable")
    assert brief.value == pytest.approx(0.4)  # q = max(0.0, 0.4) each time
