"""Two moderator's rules on top of joint scoring: who wins a close call, and when not to stop.

Scores rank (strategy, node) pairs; a trained moderator adds two habits that a sum of weights
does not express (INTERVIEWING.md "Laddering, turn by turn", "Ending"):

**Focus tie-break** (``tuning.focus_tie_margin``). Node-bound candidates of the winning
strategy whose score is within the margin of the winner are a tie. The tie goes to, in order:

1. with ``tuning.focus_tie_just_said``: a node the last answer brought up (the interviewer
   follows what was just said rather than going back to an older node); among several,
   with ``tuning.focus_tie_led_with``, what the respondent led with: a thing they said they
   like or dislike before a neutral mention ("they're the over-ear ones"), then the one they
   said first, not the aside after it; or, with
   ``tuning.focus_tie_said_last`` (laddering's choice), of things
   said alike (a thing they like, then one they dislike, then a neutral mention) the one said
   last: what they came to ("the cheap sack, so thirty pence a day" has answered the why of
   the first already, however the reader linked the two);
2. the most depth left to gain: levels between the node and the ontology's top level
   (0 for a terminal node);
3. the least probed: fewest questions that brought nothing new, then fewest questions;
4. the most recently productive: latest turn the node yielded;
5. the ranking's own order (score, strategy order, newest node, node id).

The rule and the nodes it compared are recorded in the decision, so ``/why`` and replay show it.

The breadth check of the stop guard and the last turn are habits (``config.tuning.Habit``):
no methodology switches them; a session recorded before they were habits replays without those
its snapshot's ``ran_without`` lists. The rest are the methodology's choices.

**Stop guard** (``tuning.saturation.probe_attributes_before_stop`` and the breadth-check
habit). A saturation stop, or a closing question before the
interview's last turn, is deferred when

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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from interview_cli.config.schemas import Methodology
from interview_cli.config.tuning import Habit, Tuning
from interview_cli.core.coverage import CoverageState
from interview_cli.core.decide.continuation import (
    CLOSING_STRATEGY,
    LITTLE_TO_SAY,
    MAX_TURNS_REACHED,
    QUALITY_DEGRADED,
    RESPONDENT_FATIGUED,
    Continuation,
)
from interview_cli.core.decide.ladders import last_breadth_check
from interview_cli.core.decide.scored import Ranking, ScoredCandidate
from interview_cli.core.decide.scoring import reselect
from interview_cli.core.decide.vetoes import OPEN_QUESTION_SPENT, FocusEntry, stalled
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.signals import TrendState
from interview_cli.core.signals.trend import FATIGUE_TURNS
from interview_cli.core.tracker import NodeStateTracker

# Stops that a tiring respondent, or one with little to say, causes: never deferred.
FATIGUE_STOPS: frozenset[str] = frozenset({RESPONDENT_FATIGUED, QUALITY_DEGRADED, LITTLE_TO_SAY})


@dataclass(frozen=True)
class TieBreak:
    """A close call settled by the tie-break rule: who won, over whom, and why."""

    chosen: str
    over: tuple[str, ...]
    margin: float
    rule: str

    def describe(self) -> str:
        others = ", ".join(f"'{label}'" for label in self.over)
        return f"tie-break (within {self.margin:g}): '{self.chosen}' over {others}: {self.rule}"


def _depth_left(methodology: Methodology, tracker: NodeStateTracker, node_id: str) -> int:
    state = tracker.states.get(node_id)
    if state is None or state.is_terminal:
        return 0
    return max(methodology.ontology.max_level - state.level, 0)


def break_focus_tie(
    ranking: Ranking,
    methodology: Methodology,
    tracker: NodeStateTracker,
    graph: KnowledgeGraph | None = None,
) -> tuple[Ranking, TieBreak | None]:
    """Apply the focus tie-break (module docstring) to a ranking; unchanged when no tie.
    ``graph``: where a node's stance is read (``focus_tie_led_with``)."""
    margin = methodology.tuning.focus_tie_margin
    chosen = ranking.selected
    if margin <= 0 or chosen is None or chosen.node_id is None or chosen.vetoed_by is not None:
        return ranking, None
    tied = [
        c
        for c in ranking.candidates
        if c.stage == chosen.stage
        and c.strategy == chosen.strategy
        and c.node_id is not None
        and c.vetoed_by is None
        and chosen.final_score - c.final_score <= margin + 1e-9
    ]
    if len(tied) < 2:
        return ranking, None
    order = {id(c): i for i, c in enumerate(ranking.candidates)}
    follow = methodology.tuning.focus_tie_just_said
    led_with = methodology.tuning.focus_tie_led_with
    registered = {node_id: i for i, node_id in enumerate(tracker.states)}  # as said
    said_last = methodology.tuning.focus_tie_said_last

    def key(c: ScoredCandidate) -> tuple[int, int, int, int, int, int, int]:
        assert c.node_id is not None
        state = tracker.states.get(c.node_id)
        fruitless = state.fruitless_probes if state is not None else 0
        asked = len(state.probes) if state is not None else 0
        last_yield = state.last_yield_turn if state and state.last_yield_turn is not None else -1
        just_said = follow and state is not None and state.created_at_turn == tracker.turn
        first = 0
        if just_said and led_with:
            stance = graph.node(c.node_id).stance if graph is not None and c.node_id in graph else 0
            group = int(not stance)  # liked or disliked before a neutral mention
            order_said = registered.get(c.node_id, 0)
            if said_last:
                # alike means the same stance: a thing they love before the complaint after
                # "though", the complaint before a neutral mention; then the one said last
                group = 0 if stance > 0 else 1 if stance < 0 else 2
                order_said = len(registered) - order_said
            first = group * len(registered) + order_said
        return (
            -int(just_said),
            first,
            -_depth_left(methodology, tracker, c.node_id),
            fruitless,
            asked,
            -last_yield,
            order[id(c)],
        )

    best = min(tied, key=key)
    if best is chosen or (best.strategy, best.node_id) == (chosen.strategy, chosen.node_id):
        return ranking, None
    rule = _winning_rule(key(best), key(chosen), said_last=said_last)
    others = tuple(str(c.node_label) for c in tied if c is not best)
    note = TieBreak(str(best.node_label), others, margin, rule)
    return reselect(ranking, best), note


def _winning_rule(
    best: tuple[int, ...], chosen: tuple[int, ...], *, said_last: bool = False
) -> str:
    rules = (
        "the respondent just said it",
        "the respondent came to it last" if said_last else "the respondent led with it",
        "more depth left to gain",
        "fewer questions that brought nothing",
        "asked about less often",
        "more recently productive",
    )
    for rule, a, b in zip(rules, best, chosen, strict=False):
        if a != b:
            return rule
    return "ranking order"


# --------------------------------------------------------------------------------------------


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
class StopGuardInputs:
    methodology: Methodology
    tracker: NodeStateTracker
    focus_history: tuple[FocusEntry, ...]
    trend: TrendState
    focusable: frozenset[str]
    # the last answer's kind (``Assessment.answer_kind``): after "can we move on" or "I'm done"
    # a closing question chosen with one turn left is asked, not deferred
    answer_kind: str | None = None
    coverage: CoverageState | None = None  # a concept test's (None: no stimulus elements)


def guard_stop(
    ranking: Ranking, continuation: Continuation, inputs: StopGuardInputs
) -> tuple[Ranking, Continuation, str | None]:
    """Defer a premature stop (module docstring); returns the ranking, continuation and note."""
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
    rules = inputs.methodology.tuning
    if rules.saturation.probe_attributes_before_stop:
        open_ids = unprobed_attributes(inputs.tracker, set(inputs.focusable))
        pick = _best(ranking, lambda c: c.node_id in open_ids and not _closing(inputs, c))
        if pick is not None:
            why = f"'{pick.node_label}' was never asked about"
    if pick is None and inputs.methodology.tuning.vetoes.return_to_stalled_after:
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


def _another_angle(ranking: Ranking, inputs: StopGuardInputs) -> ScoredCandidate | None:
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
    ranking: Ranking, continuation: Continuation, inputs: StopGuardInputs
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
    ranking: Ranking, continuation: Continuation, inputs: StopGuardInputs
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


def _closing(inputs: StopGuardInputs, c: ScoredCandidate) -> bool:
    spec = inputs.methodology.strategy(c.strategy)
    return spec is not None and spec.generates_closing_question


def _best(ranking: Ranking, wanted: Callable[[ScoredCandidate], bool]) -> ScoredCandidate | None:
    return next((c for c in ranking.candidates if c.vetoed_by is None and wanted(c)), None)


__all__ = [
    "FATIGUE_STOPS",
    "StopGuardInputs",
    "TieBreak",
    "break_focus_tie",
    "breadth_found_empty",
    "coverage_short",
    "guard_stop",
    "unprobed_attributes",
]
