"""Should the interview go on after this turn, and why? The one place that decides stopping.

``decide_stopping`` is what the turn calls: the seed's conditions (``check_continuation``,
seed 001 "Continuation and Termination Conditions", with seed 000's fatigue closing condition
rebuilt on the smoothed trend), then the moderator's deferral of a premature stop
(``guard_stop``, below). A baseline policy stops by the seed's conditions alone
(``stop_conditions``).

The seed's conditions are checked in this order; the first that fires is the reason:

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
|                              | below that level). Or, window or not,                        |
|                              | ``little_to_say_in_a_row`` answers running had nothing in    |
|                              | them (a don't-know that goes no further, "that's all", a     |
|                              | /pass; breadth checks' answers included; 0 = off)            |
| ``graph_saturated``          | ``consecutive_low_info >= 5`` (``graph_saturated_turns``)    |
| ``quality_degraded``         | ``consecutive_shallow >= 6`` (``quality_degraded_turns``)    |
| ``depth_plateau``            | ``consecutive_depth_plateau >= 6`` (``depth_plateau_turns``) |
| ``all_nodes_exhausted``      | every explored node (focused at least once) has              |
|                              | ``turns_since_last_yield >= 3`` (``exhausted_yield_turns``)  |
| ``respondent_fatigued``      | the smoothed trend stayed fatigued ``FATIGUE_TURNS`` (3)     |
|                              | turns running, and coverage (if any) is at least             |
|                              | ``tuning.coverage.min_ratio_before_stop`` (60 % when unset); |
|                              | (not needed when the last answer said they are tired or      |
|                              | going: ``StopInputs.said_tired``); and at once, whatever the |
|                              | turn, when it said they are leaving now (``said_going``)     |
| ``saturated``                | the saturation metrics' generic ``is_saturated`` flag        |

All but the first two are saturation checks (``little_to_say`` first: the respondent who has
little to say is closed with thanks, never kept on by a deferred stop): they apply only from turn
``MIN_TURN_FOR_SATURATION`` (``tuning.saturation.min_turn_for_saturation``, 5) on, or in the
late phase. Reasons are stable strings: session files, reports and tests match on them.

The breadth check of the stop guard and the last turn are habits (``config.tuning.Habit``):
no methodology switches them; a session recorded before they were habits replays without those
its snapshot's ``ran_without`` lists. The rest are the methodology's choices.

**Stop guard** (``tuning.saturation.probe_attributes_before_stop`` and the breadth-check
habit). A saturation stop, or a closing question before the interview's last turn, is deferred
when

- a node of the lowest level (an attribute the respondent named) was never asked about: the
  best admissible candidate on such a node is asked instead; or
- a chain stalled on a node after empty answers and ``tuning.vetoes.return_to_stalled_after``
  turns have passed: that node is asked once more, with a technique not yet tried on it
  ("back off, return later"); or
- the methodology has a breadth check ("what else matters to you about ...?", a strategy
  with ``breadth_check: true``) and none has come back empty since the last new node: the
  breadth check is asked instead.

**Coverage before stopping** (``tuning.coverage.min_ratio_before_stop``, concept tests). A
saturation stop, a little-to-say or quality stop, or a closing question before the turn limit
is deferred while the share of stimulus elements mentioned is below the threshold and an
element is left to raise (seed 000: the interview closes early only with adequate coverage):
the element question is asked instead (or, when what the last question brought up must be
laddered first, the best admissible question that does not close). Not when the respondent is
fatigued (the smoothed trend low for ``FATIGUE_TURNS`` answers running, as the fatigue stop
counts it; then the end summary says which elements were not covered); a respondent who asks
to stop is stopped by the safety response, before any of this.

**Last turn**. A closing question chosen with one
turn left waits: that turn is asked, and the turn limit closes the interview with the same
closing summary, so the respondent gets every turn the study allows; not after an answer that
asked to move on or stop ("I'm done now, thanks"): the closing question is asked.

None applies when the respondent is tiring or has little to say (a fatigued trend, or the
stop is ``respondent_fatigued`` / ``quality_degraded`` / ``little_to_say``), when the turn
limit is reached, or when no admissible candidate of the needed kind exists. Pure functions of
recorded values.

None of the deferrals applies when the respondent is tiring or has little to say (a fatigued
trend, or the stop is ``respondent_fatigued`` / ``quality_degraded`` / ``little_to_say``), when
the turn limit is reached, or when no admissible candidate of the needed kind exists. Pure
functions of recorded values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from interview_cli.config.schemas import Methodology, StrategySpec
from interview_cli.config.tuning import CoverageTuning, Habit, SaturationTuning, Tuning
from interview_cli.core.decide.ladders import last_breadth_check
from interview_cli.core.decide.scored import Ranking, ScoredCandidate
from interview_cli.core.decide.scoring import reselect
from interview_cli.core.decide.vetoes import OPEN_QUESTION_SPENT, FocusEntry, stalled
from interview_cli.core.signals.trend import FATIGUE_TURNS, TrendState

if TYPE_CHECKING:
    from interview_cli.core.coverage import CoverageState
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

# Stops that a tiring respondent, or one with little to say, causes: never deferred.
FATIGUE_STOPS: frozenset[str] = frozenset({RESPONDENT_FATIGUED, QUALITY_DEGRADED, LITTLE_TO_SAY})

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
    enough: a long interview is a burden on such a respondent. Apart from the window (on even
    when it is 0), ``little_to_say_in_a_row`` answers running with nothing in them are one
    too ("that's me done", "that's everything", "nope")."""
    window = tuning.little_to_say_window
    recent = getattr(saturation, "recent_answers", [])
    late = tuning.little_to_say_late_turn and turn_number >= tuning.little_to_say_late_turn
    empty = tuning.little_to_say_late_min_empty if late else tuning.little_to_say_min_empty
    running = tuning.little_to_say_in_a_row
    if running and getattr(saturation, "no_answers_running", 0) >= running:
        return True  # "that's me done", "that's everything", "nope": they cannot go on
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
    gone: bool = False,
) -> Continuation:
    """Decide whether to ask another question after ``turn_number`` (see module docstring).

    ``saturation`` is this turn's ``core.state.SaturationMetrics`` (None before any exists);
    ``gone``: the last answer said they are leaving now (``StopInputs.said_going``).
    """
    remaining = max(max_turns - turn_number, 0)

    def stop(reason: str) -> Continuation:
        return Continuation(False, reason, remaining)

    if turn_number >= max_turns:
        return stop(MAX_TURNS_REACHED)
    if selected_strategy is not None and selected_strategy.generates_closing_question:
        return stop(CLOSING_STRATEGY)
    if gone:
        return stop(RESPONDENT_FATIGUED)  # they are leaving: whatever the turn, let them go
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


@dataclass(frozen=True)
class Stopping:
    """The stopping decision: the ranking (a deferral reselects it), whether the interview goes
    on and why, and the note a deferral leaves on the decision (None when none applied)."""

    ranking: Ranking
    continuation: Continuation
    deferred: str | None = None


def decide_stopping(ranking: Ranking, inputs: StopInputs) -> Stopping:
    """Stop or go on after the ranking's selected move, and why (module docstring): the seed's
    conditions, then a premature stop deferred in favour of the question to ask first."""
    selected = ranking.selected
    spec = inputs.methodology.strategy(selected.strategy) if selected else None
    return Stopping(*guard_stop(ranking, stop_conditions(spec, inputs), inputs))


def stop_conditions(selected: StrategySpec | None, inputs: StopInputs) -> Continuation:
    """The seed's conditions alone, after the move of strategy ``selected``: the first half of
    ``decide_stopping``, and all of a baseline policy's (it has no moderator's deferral)."""
    coverage = inputs.coverage
    return check_continuation(
        turn_number=inputs.turn_number,
        max_turns=inputs.max_turns,
        phase=inputs.phase,
        selected_strategy=selected,
        saturation=inputs.saturation,
        tracker=inputs.tracker,
        trend=inputs.trend,
        tuning=inputs.methodology.tuning.saturation,
        coverage_ratio=coverage.ratio if coverage is not None and not inputs.said_tired else None,
        min_coverage=fatigue_min_coverage(inputs.methodology.tuning.coverage),
        gone=inputs.said_going,
    )


def breadth_found_empty(
    methodology: Methodology, tracker: NodeStateTracker, history: tuple[FocusEntry, ...]
) -> bool:
    """A breadth check was asked and nothing new has been said since (its answer included)."""
    last = last_breadth_check(methodology.strategies, history)
    if last is None:
        return False
    return not any(s.created_at_turn > last for s in tracker.states.values())


def unprobed_attributes(tracker: NodeStateTracker, focusable: set[str]) -> set[str]:
    """Lowest-level nodes that no question has focused yet."""
    levels = [s.level for s in tracker.states.values() if s.level > 0]
    if not levels:
        return set()
    lowest = min(levels)
    return {
        node_id
        for node_id, s in tracker.states.items()
        if s.level == lowest and s.focus_count == 0 and not s.probes and node_id in focusable
    }


def stalled_nodes(tracker: NodeStateTracker, tuning: Tuning) -> set[str]:
    """Nodes left after their empty answers that may be returned to (``vetoes.may_return``
    decides when; the candidates on them are vetoed until then)."""
    return {
        node_id
        for node_id, s in tracker.states.items()
        if stalled(s, tuning.vetoes, tuning.ran_without)
    }


@dataclass(frozen=True)
class StopInputs:
    """What stopping is decided from: where the interview is, the saturation figures, and what
    the deferral reads (the nodes a question may focus, the focus history)."""

    methodology: Methodology
    tracker: NodeStateTracker
    trend: TrendState
    turn_number: int
    max_turns: int
    phase: str
    saturation: Any = None  # this turn's ``core.state.SaturationMetrics`` (None before any)
    focus_history: tuple[FocusEntry, ...] = ()
    focusable: frozenset[str] = frozenset()
    # the last answer's kind (``Assessment.answer_kind``): after "can we move on" or "I'm done"
    # a closing question chosen with one turn left is asked, not deferred
    answer_kind: str | None = None
    coverage: CoverageState | None = None  # a concept test's (None: no stimulus elements)
    # the last answer said they are tired or going (``Assessment.tiring``): seed 000's coverage
    # gate is for a fatigue the trend infers; a respondent who said "I'll stop there if you
    # don't mind" is let go however few elements were raised (round 267 asked about another).
    # The turn gate stays: "tiring" is also "is there much more?", "a couple more questions"
    said_tired: bool = False
    # ... but not for one who said they are leaving now (``Assessment.going``: "sorry got to go
    # now, my bus is here. bye" at the third answer was asked two more questions): the
    # interview closes at once, whatever the turn
    said_going: bool = False


def guard_stop(
    ranking: Ranking, continuation: Continuation, inputs: StopInputs
) -> tuple[Ranking, Continuation, str | None]:
    """Defer a premature stop (module docstring); returns the ranking, continuation and note."""
    rules = inputs.methodology.tuning
    reason = continuation.reason
    if continuation.should_continue or reason is None:
        return ranking, continuation, None
    if reason == MAX_TURNS_REACHED:
        return ranking, continuation, None
    short = coverage_short(ranking, continuation, inputs)
    if short is not None:
        return _defer(ranking, continuation, short[0], f"stop deferred ({reason}): {short[1]}")
    if reason in FATIGUE_STOPS:
        return ranking, continuation, None
    if reason == CLOSING_STRATEGY and continuation.turns_remaining < 2:
        return _last_turn(ranking, continuation, inputs)
    if inputs.trend.fatigued_turns > 0:
        return ranking, continuation, None
    pick, why = None, ""
    if rules.saturation.probe_attributes_before_stop:
        open_ids = unprobed_attributes(inputs.tracker, set(inputs.focusable))
        pick = _best(ranking, lambda c: c.node_id in open_ids and not _closing(inputs, c))
        if pick is not None:
            why = f"'{pick.node_label}' was never asked about"
    if pick is None and rules.vetoes.return_to_stalled_after:
        stalled = stalled_nodes(inputs.tracker, rules)
        pick = _best(ranking, lambda c: c.node_id in stalled and not _closing(inputs, c))
        if pick is not None:
            why = f"'{pick.node_label}' stalled earlier and can be asked another way now"
    breadth = {s.name for s in inputs.methodology.strategies if s.breadth_check}
    if pick is None and breadth and rules.follows(Habit.BREADTH_CHECK_BEFORE_STOP):
        if not breadth_found_empty(inputs.methodology, inputs.tracker, inputs.focus_history):
            pick = _best(ranking, lambda c: c.strategy in breadth and not _closing(inputs, c))
            if pick is not None:
                why = "no breadth check has come back empty yet"
    if pick is None and reason == CLOSING_STRATEGY:
        pick = _another_angle(ranking, inputs)
        if pick is not None:
            why = "nothing spoke for closing yet: another angle after 'nothing else'"
    if pick is None:
        return ranking, continuation, None
    return _defer(ranking, continuation, pick, f"stop deferred ({reason}): {why}")


def _another_angle(ranking: Ranking, inputs: StopInputs) -> ScoredCandidate | None:
    """With ``closing_needs_a_reason_before``: the best open question set aside only because
    another one came back empty, of a strategy not asked since the respondent last said
    something new, when the closing scored 0 or less before that turn."""
    chosen = ranking.selected
    before = inputs.methodology.tuning.saturation.closing_needs_a_reason_before
    if chosen is None or chosen.final_score > 0 or inputs.tracker.turn >= before:
        return None
    said = max((s.created_at_turn for s in inputs.tracker.states.values()), default=0)
    tried = {e.strategy for e in inputs.focus_history if e.turn >= said}
    return next(
        (
            c
            for c in ranking.candidates
            if c.vetoed_by == OPEN_QUESTION_SPENT
            and c.node_id is None
            and c.strategy not in tried
            and not _closing(inputs, c)
        ),
        None,
    )


def coverage_short(
    ranking: Ranking, continuation: Continuation, inputs: StopInputs
) -> tuple[ScoredCandidate, str] | None:
    """The question to ask instead of stopping while a concept test's coverage is short
    (module docstring), with why; None when the rule does not apply."""
    coverage, tuning = inputs.coverage, inputs.methodology.tuning.coverage
    threshold = tuning.min_ratio_before_stop
    if coverage is None or not coverage.active or threshold <= 0:
        return None
    if coverage.ratio >= threshold or continuation.turns_remaining < 1:
        return None
    # Fatigued as the fatigue stop counts it (seed 000: three low answers running), not one
    # low answer: a respondent with little to say about their own distinctions may still
    # react to an element put in front of them.
    if continuation.reason == RESPONDENT_FATIGUED or inputs.trend.fatigued_turns >= FATIGUE_TURNS:
        return None
    left = coverage.to_raise(tuning.max_raises)
    if not left:
        return None
    raising = {s.name for s in inputs.methodology.strategies if s.focus_mode == "element"}
    pick = _best(ranking, lambda c: c.strategy in raising)
    if pick is None:
        pick = _best(ranking, lambda c: not _closing(inputs, c))
    if pick is None:
        return None
    why = (
        f"coverage {coverage.ratio:.0%} is below {threshold:.0%} and "
        f"{len(left)} element(s) are left to raise"
    )
    return pick, why


def _last_turn(
    ranking: Ranking, continuation: Continuation, inputs: StopInputs
) -> tuple[Ranking, Continuation, str | None]:
    """A closing question chosen with one turn left: that turn is asked (the turn limit
    closes with the same summary), unless the respondent is tiring or has just asked to move
    on or stop, or the session was recorded before the habit."""
    asks_it = inputs.methodology.tuning.follows(Habit.ASK_THE_LAST_TURN)
    if not asks_it or continuation.turns_remaining != 1:
        return ranking, continuation, None  # the closing question is the last one: fine
    if inputs.trend.fatigued_turns > 0 or inputs.answer_kind == "move_on":
        return ranking, continuation, None
    pick = _best(ranking, lambda c: not _closing(inputs, c))
    if pick is None:
        return ranking, continuation, None
    why = "closing deferred: one turn is left and the turn limit closes with the same summary"
    return _defer(ranking, continuation, pick, why)


def _defer(
    ranking: Ranking, continuation: Continuation, pick: ScoredCandidate, why: str
) -> tuple[Ranking, Continuation, str]:
    """Ask ``pick`` instead of stopping, with the decision's note saying why."""
    note = f"{why}; asking {pick.strategy} first"
    return reselect(ranking, pick), replace(continuation, should_continue=True, reason=None), note


def _closing(inputs: StopInputs, c: ScoredCandidate) -> bool:
    spec = inputs.methodology.strategy(c.strategy)
    return spec is not None and spec.generates_closing_question


def _best(ranking: Ranking, wanted: Callable[[ScoredCandidate], bool]) -> ScoredCandidate | None:
    return next((c for c in ranking.candidates if c.vetoed_by is None and wanted(c)), None)
