"""Should the interview go on after this turn? (seed 001 "Continuation and Termination
Conditions", with seed 000's fatigue closing condition rebuilt on the smoothed trend).

Checked in this order; the first that fires is the reason:

| reason                       | condition                                                    |
|------------------------------|--------------------------------------------------------------|
| ``Maximum turns reached``    | ``turn_number >= max_turns`` (always)                        |
| ``Closing strategy selected``| the selected strategy has ``generates_closing_question``     |
|                              | (always; the closing question is still asked, then the end)  |
| ``little_to_say``            | of the last ``little_to_say_window`` (8) answers, at most    |
|                              | ``little_to_say_max_full`` (1) went beyond surface/shallow   |
|                              | depth and at least ``little_to_say_min_empty`` (5; from turn |
|                              | ``little_to_say_late_turn`` 10 on, ``_late_min_empty`` 4)    |
|                              | were not answers (don't-know, already said, a few words that |
|                              | added nothing); off when the window is 0. Or, from turn      |
|                              | ``little_to_say_no_value_turn`` on: nothing said at          |
|                              | ``little_to_say_value_level`` or above, at least             |
|                              | ``_no_value_min_empty`` such answers in the whole interview  |
|                              | and at most ``_no_value_max_full`` long ones in the window   |
|                              | (with ``_no_value_ceiling``: and a terminal don't-know given |
|                              | below that level)                                            |
| ``graph_saturated``          | ``consecutive_low_info >= 5`` (``graph_saturated_turns``)    |
| ``quality_degraded``         | ``consecutive_shallow >= 6`` (``quality_degraded_turns``)    |
| ``depth_plateau``            | ``consecutive_depth_plateau >= 6`` (``depth_plateau_turns``) |
| ``all_nodes_exhausted``      | every explored node (focused at least once) has              |
|                              | ``turns_since_last_yield >= 3`` (``exhausted_yield_turns``)  |
| ``respondent_fatigued``      | the smoothed trend stayed fatigued ``FATIGUE_TURNS`` (3)     |
|                              | turns running, and coverage (if any) is at least             |
|                              | ``tuning.coverage.min_ratio_before_stop`` (60 % when unset)  |
| ``saturated``                | the saturation metrics' generic ``is_saturated`` flag        |

All but the first two are saturation checks (``little_to_say`` first: the respondent who has
little to say is closed with thanks, never kept on by a deferred stop): they apply only from turn
``MIN_TURN_FOR_SATURATION`` (``tuning.saturation.min_turn_for_saturation``, 5) on, or in the
late phase. Reasons are stable strings: session files, reports and tests match on them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interview_cli.config.schemas import StrategySpec
from interview_cli.config.tuning import CoverageTuning, SaturationTuning
from interview_cli.core.signals.trend import FATIGUE_TURNS, TrendState

if TYPE_CHECKING:
    from interview_cli.core.tracker import NodeStateTracker

MAX_TURNS_REACHED = "Maximum turns reached"
CLOSING_STRATEGY = "Closing strategy selected"
GRAPH_SATURATED = "graph_saturated"
QUALITY_DEGRADED = "quality_degraded"
DEPTH_PLATEAU = "depth_plateau"
ALL_NODES_EXHAUSTED = "all_nodes_exhausted"
RESPONDENT_FATIGUED = "respondent_fatigued"
SATURATED = "saturated"
LITTLE_TO_SAY = "little_to_say"

TERMINATION_REASONS: tuple[str, ...] = (
    MAX_TURNS_REACHED,
    CLOSING_STRATEGY,
    GRAPH_SATURATED,
    QUALITY_DEGRADED,
    DEPTH_PLATEAU,
    ALL_NODES_EXHAUSTED,
    RESPONDENT_FATIGUED,
    SATURATED,
    LITTLE_TO_SAY,
)

# Seed 000: fatigue closes the interview only once coverage is adequate (> 60 %).
FATIGUE_MIN_COVERAGE = 0.6


def fatigue_min_coverage(tuning: CoverageTuning) -> float:
    """The coverage a fatigue close needs: the methodology's threshold, else the seed's."""
    return tuning.min_ratio_before_stop or FATIGUE_MIN_COVERAGE


@dataclass(frozen=True)
class Continuation:
    should_continue: bool
    reason: str | None
    turns_remaining: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "should_continue": self.should_continue,
            "reason": self.reason,
            "turns_remaining": self.turns_remaining,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Continuation:
        return cls(data["should_continue"], data["reason"], data["turns_remaining"])


def all_nodes_exhausted(tracker: NodeStateTracker, min_turns_since_yield: int) -> bool:
    """Every explored node has gone ``min_turns_since_yield`` turns without yielding.

    False while nothing has been explored: an untouched graph is not exhausted.
    """
    explored = [s for s in tracker.states.values() if s.focus_count >= 1]
    return bool(explored) and all(
        s.turns_since_last_yield >= min_turns_since_yield for s in explored
    )


def little_to_say(
    saturation: Any,
    tuning: SaturationTuning,
    turn_number: int = 0,
    tracker: NodeStateTracker | None = None,
) -> bool:
    """A respondent with little to say: a few words at a time however the question is put,
    and half the time not an answer at all (``tuning.little_to_say_window``, off when 0). A
    terse respondent whose whys get answers is not one, nor a hesitant one who talks. From
    turn ``little_to_say_late_turn`` on, ``little_to_say_late_min_empty`` empty answers are
    enough: a long interview is a burden on such a respondent."""
    window = tuning.little_to_say_window
    recent = getattr(saturation, "recent_answers", [])
    late = tuning.little_to_say_late_turn and turn_number >= tuning.little_to_say_late_turn
    empty = tuning.little_to_say_late_min_empty if late else tuning.little_to_say_min_empty
    if window <= 0 or len(recent) < window:
        return False
    if recent.count("full") <= tuning.little_to_say_max_full and recent.count("empty") >= empty:
        return True
    return tracker is not None and _stops_short_of_a_value(saturation, tracker, tuning, turn_number)


def _stops_short_of_a_value(
    saturation: Any, tracker: NodeStateTracker, tuning: SaturationTuning, turn_number: int
) -> bool:
    """From ``little_to_say_no_value_turn`` on: nothing said at the value level (no tracked
    node of ``little_to_say_value_level`` or above), answers that were no answer more than
    once, and few long ones lately. Hesitations ("not sure, let me think") are not counted
    (``state.update_saturation``)."""
    start = tuning.little_to_say_no_value_turn
    highest = max((s.level for s in tracker.states.values()), default=0)
    return (
        bool(start)
        and turn_number >= start
        and highest < tuning.little_to_say_value_level
        and getattr(saturation, "empty_answers", 0) >= tuning.little_to_say_no_value_min_empty
        and saturation.recent_answers.count("full") <= tuning.little_to_say_no_value_max_full
        and (not tuning.little_to_say_no_value_ceiling or _stopped_short(tracker, tuning))
    )


def _stopped_short(tracker: NodeStateTracker, tuning: SaturationTuning) -> bool:
    """A terminal don't-know was given on a node below the value level."""
    return any(
        s.knowledge_ceiling_turn is not None and s.level < tuning.little_to_say_value_level
        for s in tracker.states.values()
    )


def saturation_reason(
    *,
    saturation: Any,
    tracker: NodeStateTracker,
    trend: TrendState,
    tuning: SaturationTuning,
    coverage_ratio: float | None = None,
    turn_number: int = 0,
    min_coverage: float = FATIGUE_MIN_COVERAGE,
) -> str | None:
    """The first saturation stop that applies (without the turn gate), or None."""
    if saturation is not None and little_to_say(saturation, tuning, turn_number, tracker):
        return LITTLE_TO_SAY
    if saturation is not None:
        if saturation.consecutive_low_info >= tuning.graph_saturated_turns:
            return GRAPH_SATURATED
        if saturation.consecutive_shallow >= tuning.quality_degraded_turns:
            return QUALITY_DEGRADED
        if saturation.consecutive_depth_plateau >= tuning.depth_plateau_turns:
            return DEPTH_PLATEAU
    if all_nodes_exhausted(tracker, tuning.exhausted_yield_turns):
        return ALL_NODES_EXHAUSTED
    if trend.fatigued_turns >= FATIGUE_TURNS and (
        coverage_ratio is None or coverage_ratio >= min_coverage
    ):
        return RESPONDENT_FATIGUED
    if saturation is not None and getattr(saturation, "is_saturated", False):
        return SATURATED
    return None


def check_continuation(
    *,
    turn_number: int,
    max_turns: int,
    phase: str,
    selected_strategy: StrategySpec | None,
    saturation: Any,
    tracker: NodeStateTracker,
    trend: TrendState,
    tuning: SaturationTuning,
    coverage_ratio: float | None = None,
    min_coverage: float = FATIGUE_MIN_COVERAGE,
) -> Continuation:
    """Decide whether to ask another question after ``turn_number`` (see module docstring).

    ``saturation`` is this turn's ``core.state.SaturationMetrics`` (None before any exists).
    """
    remaining = max(max_turns - turn_number, 0)

    def stop(reason: str) -> Continuation:
        return Continuation(False, reason, remaining)

    if turn_number >= max_turns:
        return stop(MAX_TURNS_REACHED)
    if selected_strategy is not None and selected_strategy.generates_closing_question:
        return stop(CLOSING_STRATEGY)
    if turn_number >= tuning.min_turn_for_saturation or phase == "late":
        reason = saturation_reason(
            turn_number=turn_number,
            saturation=saturation,
            tracker=tracker,
            trend=trend,
            tuning=tuning,
            coverage_ratio=coverage_ratio,
            min_coverage=min_coverage,
        )
        if reason is not None:
            return stop(reason)
    return Continuation(True, None, remaining)
