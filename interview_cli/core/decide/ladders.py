"""Where ladders start and end, read from the tracker and the focus history (pure).

A moderator laddering several attributes keeps track of three things a sum of weights cannot
see on its own (INTERVIEWING.md "Laddering, turn by turn", "Ending"): when the last breadth
check ("what else matters to you about ...?") was asked and whether it came back empty; when a
ladder ended (a value reached, "that's all there is to it", or a node left after its empty
answers); and which things the respondent named that no question has asked about yet, the
starts of ladders still waiting. The signals ``meta.interview.ladder_ended_since_breadth``
and ``meta.node.ladder_start`` expose them to the methodology's weights; the stop guard
(``continuation``) reads the same starts.

Turns: a focus entry's ``turn`` is the turn whose decision asked the question (its answer is
the next turn's); a node's ``created_at_turn`` and a ceiling's turn are answer turns.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Literal

from interview_cli.config.schemas import StrategySpec
from interview_cli.core.decide.vetoes import FocusEntry

if TYPE_CHECKING:
    from interview_cli.config.schemas import Methodology
    from interview_cli.core.tracker import NodeState, NodeStateTracker

LadderStart = Literal["none", "opened", "waiting", "due"]
LADDER_STARTS: tuple[LadderStart, ...] = ("none", "opened", "waiting", "due")


def last_breadth_check(
    strategies: Sequence[StrategySpec], history: Sequence[FocusEntry]
) -> int | None:
    """The turn whose question was the latest breadth check ("what else matters ...?", a
    strategy with ``breadth_check``), or None when none was asked."""
    breadth = {s.name for s in strategies if s.breadth_check}
    return next((e.turn for e in reversed(history) if e.strategy in breadth), None)


def last_empty_breadth_check(
    strategies: Sequence[StrategySpec], history: Sequence[FocusEntry], tracker: NodeStateTracker
) -> int | None:
    """The turn whose question was the latest breadth check answered with nothing new (no
    node said in its answer), or None when none was."""
    breadth = {s.name for s in strategies if s.breadth_check}
    answered = {s.created_at_turn for s in tracker.states.values()}
    return next(
        (
            e.turn
            for e in reversed(history)
            if e.strategy in breadth and e.turn < tracker.turn and e.turn + 1 not in answered
        ),
        None,
    )


def ladder_end_turns(methodology: Methodology, tracker: NodeStateTracker) -> tuple[int, ...]:
    """The turns whose answers ended a ladder, in no order: an end state said (a node of a
    terminal type: a value, a lesson, an emotional or social job), a
    terminal don't-know on the focus that brought nothing new ("dunno, calmer?" climbed a
    rung after all), or (with the memory of asking) a node left: asked to be left, or its
    ``fruitless_probe_limit``-th empty answer."""
    ends = set(methodology.ontology.terminal_types)
    tuning = methodology.tuning.vetoes
    said = {s.created_at_turn for s in tracker.states.values()}
    turns: list[int] = []
    for state in tracker.states.values():
        if state.is_terminal or state.node_type in ends:
            turns.append(state.created_at_turn)
        ceiling = state.knowledge_ceiling_turn
        if ceiling is not None and ceiling not in said:
            turns.append(ceiling)
        if tuning.fruitless_probe:
            left = _left_at(state, tuning.fruitless_probe_limit)
            if left is not None:
                turns.append(left + 1)  # the question's turn; its answer is the next one
    return tuple(turns)


def ladder_ended_after(methodology: Methodology, tracker: NodeStateTracker, turn: int) -> bool:
    """A ladder ended (``ladder_end_turns``) in an answer after ``turn``."""
    return any(t > turn for t in ladder_end_turns(methodology, tracker))


def _left_at(state: NodeState, limit: int) -> int | None:
    """The turn of the question after whose answer the node was left (None: it was not)."""
    fruitless = [p for p in state.probes if p.fruitless]
    closed = state.closed_by_respondent
    turns = [p.turn for p in (closed,) if p is not None]
    if len(fruitless) >= limit:
        turns.append(fruitless[limit - 1].turn)
    return min(turns, default=None)


def lowest_level(tracker: NodeStateTracker) -> int:
    """The most concrete level among the tracked nodes (0 when none has a level)."""
    return min((s.level for s in tracker.states.values() if s.level > 0), default=0)


def ladder_start(state: NodeState, lowest: int, end_turns: Iterable[int]) -> LadderStart:
    """What ``state`` is as the start of a ladder: ``none`` (not of the lowest level, or an end
    state), ``opened`` (a question has asked about it), ``waiting`` (never asked about, while
    the ladder in progress goes on) or ``due`` (never asked about, and a ladder has ended
    since it was said: its turn has come)."""
    if state.level != lowest or lowest == 0 or state.is_terminal:
        return "none"
    if state.focus_count or state.probes:
        return "opened"
    return "due" if any(t > state.created_at_turn for t in end_turns) else "waiting"
