"""Signals about the interview as a whole: ``temporal.*`` (seed 002 Path 4), global ``meta.*``
(seed 001 "Meta Signals", seed 002 Path 16) and ``coverage.*`` (seed 000 "Coverage").

``strategy_history`` is the list of strategies selected so far, oldest first; the current turn's
selection is not in it yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from interview_cli.core.decide.ladders import (
    ladder_end_turns,
    last_breadth_check,
    last_empty_breadth_check,
    lowest_level,
)
from interview_cli.core.decide.phase import phase_for_turn
from interview_cli.core.signals.base import Deps, SignalContext, global_signal, node_signal
from interview_cli.core.state import conversation_saturation

REPETITION_WINDOW = 5  # seed 002 Path 4: the last 5 strategies are loaded for diversity


def strategy_repetition_count(history: Sequence[str], window: int = REPETITION_WINDOW) -> int:
    """How many of the last ``window`` turns used the most recent strategy (0 when none)."""
    if not history:
        return 0
    last = history[-1]
    return sum(1 for s in history[-window:] if s == last)


def turns_since_strategy_change(history: Sequence[str]) -> int:
    """Length of the trailing run of the most recent strategy (0 when none)."""
    run = 0
    for strategy in reversed(history):
        if history and strategy != history[-1]:
            break
        run += 1
    return run


@global_signal("temporal.strategy_repetition_count")
def _strategy_repetition_count(ctx: SignalContext, deps: Deps) -> int:
    return strategy_repetition_count(ctx.strategy_history)


@global_signal("temporal.turns_since_strategy_change")
def _turns_since_strategy_change(ctx: SignalContext, deps: Deps) -> int:
    return turns_since_strategy_change(ctx.strategy_history)


@global_signal("meta.interview.phase")
def _phase(ctx: SignalContext, deps: Deps) -> str:
    return phase_for_turn(ctx.turn_number, ctx.max_turns, ctx.methodology.phases.boundaries)


@global_signal("meta.interview.progress")
def _progress(ctx: SignalContext, deps: Deps) -> float:
    if ctx.max_turns <= 0:
        return 1.0
    return min(max(ctx.turn_number / ctx.max_turns, 0.0), 1.0)


@global_signal("meta.interview.ladder_ended_since_breadth")
def _ladder_ended_since_breadth(ctx: SignalContext, deps: Deps) -> bool:
    """A value named, a terminal don't-know on a focus or a node left after its empty answers,
    since a breadth check last came back empty: "what else matters?" before another climb.
    After an empty one, only once the respondent has named something new to ladder (a node of
    the lowest level): "nothing else" holds until then. After one that brought something, only
    a ladder ended since it: what it brought is laddered before the next "what else?" (round
    255 asked it twice running after "maybe that they don't make you feel like a bad person
    ... I came out feeling about two inches tall": "you keep asking me the same thing")."""
    since = last_empty_breadth_check(ctx.methodology.strategies, ctx.focus_history, ctx.tracker)
    asked = last_breadth_check(ctx.methodology.strategies, ctx.focus_history)
    if asked is not None and asked != since and asked < ctx.tracker.turn:
        # (after its answer: a value said with the new thing in that answer is no ladder
        # climbed since, the review)
        return any(t > asked + 1 for t in ladder_ends(ctx))
    ended = any(t > (since or 0) for t in ladder_ends(ctx))
    if since is None or not ended:
        return ended
    lowest = lowest_level(ctx.tracker)
    return any(
        s.level == lowest and s.created_at_turn > since + 1 for s in ctx.tracker.states.values()
    )


@global_signal("meta.interview.list_closed")
def _list_closed(ctx: SignalContext, deps: Deps) -> bool:
    """A breadth check was answered by closing the list ("thats about it", "nothing else"):
    once what was named is laddered, it is time to close."""
    return ctx.saturation is not None and bool(ctx.saturation.list_closed)


def ladder_ends(ctx: SignalContext) -> tuple[int, ...]:
    """This turn's ``ladders.ladder_end_turns``, computed once for every signal that reads it."""
    if "ladder_ends" not in ctx.memo:
        ctx.memo["ladder_ends"] = ladder_end_turns(ctx.methodology, ctx.tracker)
    ends: tuple[int, ...] = ctx.memo["ladder_ends"]
    return ends


@global_signal("meta.conversation.saturation")
def _conversation_saturation(ctx: SignalContext, deps: Deps) -> float | None:
    if ctx.velocity is None:
        return None
    density = deps.get("graph.edge_density", 0.0)
    return conversation_saturation(
        ctx.velocity,
        edge_density=float(density),
        turn_number=ctx.turn_number,
        tuning=ctx.methodology.tuning.saturation,
    )


@global_signal("meta.canonical.saturation")
def _canonical_saturation(ctx: SignalContext, deps: Deps) -> float:
    """``1 - min(new slots / new surface nodes, 1)``; 0 when off or nothing new was said."""
    c = ctx.canonical
    if not c.enabled or c.new_surface_nodes <= 0:
        return 0.0
    return 1.0 - min(c.new_slots / c.new_surface_nodes, 1.0)


# Coverage signals exist only for concepts with stimulus elements; otherwise not detected.


def _coverage(ctx: SignalContext) -> Any:
    c = ctx.coverage
    return c if c is not None and getattr(c, "active", True) else None


@global_signal("coverage.ratio")
def _coverage_ratio(ctx: SignalContext, deps: Deps) -> float | None:
    c = _coverage(ctx)
    return None if c is None else float(c.ratio)


@global_signal("coverage.has_gaps")
def _coverage_has_gaps(ctx: SignalContext, deps: Deps) -> bool | None:
    c = _coverage(ctx)
    return None if c is None else bool(c.has_gaps)


@global_signal("coverage.unmentioned_count")
def _coverage_unmentioned(ctx: SignalContext, deps: Deps) -> int | None:
    c = _coverage(ctx)
    return None if c is None else int(c.unmentioned_count)


def _gap_count(ctx: SignalContext, gap_type: str) -> int | None:
    c = _coverage(ctx)
    return None if c is None else sum(1 for g in c.gaps if g.gap_type == gap_type)


@global_signal("coverage.no_reaction_count")
def _coverage_no_reaction(ctx: SignalContext, deps: Deps) -> int | None:
    return _gap_count(ctx, "no_reaction")


@global_signal("coverage.no_comprehension_count")
def _coverage_no_comprehension(ctx: SignalContext, deps: Deps) -> int | None:
    return _gap_count(ctx, "no_comprehension")


@global_signal("coverage.unconnected_count")
def _coverage_unconnected(ctx: SignalContext, deps: Deps) -> int | None:
    return _gap_count(ctx, "unconnected")


@global_signal("coverage.raise_pressure")
def _coverage_raise_pressure(ctx: SignalContext, deps: Deps) -> float | None:
    c = _coverage(ctx)
    if c is None:
        return None
    left = len(c.to_raise(ctx.methodology.tuning.coverage.max_raises))
    turns = max(ctx.max_turns - ctx.turn_number, 0)
    if left == 0:
        return 0.0
    return 1.0 if turns == 0 else round(min(left / turns, 1.0), 4)


@node_signal("coverage.node.reaction")
def _coverage_node_reaction(ctx: SignalContext, state: Any, deps: Deps) -> str | None:
    c = _coverage(ctx)
    if c is None:
        return None
    reactions = [r for e in c.elements_of_node(state.node_id) if (r := c.latest_reaction(e))]
    return reactions[0] if reactions else None


@node_signal("coverage.node.has_gap")
def _coverage_node_has_gap(ctx: SignalContext, state: Any, deps: Deps) -> bool | None:
    c = _coverage(ctx)
    if c is None:
        return None
    return any(c.gaps_of(e) for e in c.elements_of_node(state.node_id))
