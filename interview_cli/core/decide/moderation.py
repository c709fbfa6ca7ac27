"""A moderator's rule on top of joint scoring: who wins a close call.

Scores rank (strategy, node) pairs; a trained moderator adds a habit that a sum of weights
does not express (INTERVIEWING.md "Laddering, turn by turn", "Ending"):

**Focus tie-break** (``tuning.focus_tie_margin``). Node-bound candidates of the winning
strategy whose score is within the margin of the winner are a tie. The tie goes to, in order:

1. with ``tuning.focus_tie_just_said``: a node the last answer brought up (the interviewer
   follows what was just said rather than going back to an older node); among several,
   with ``tuning.focus_tie_led_with``, what the respondent led with: a thing they said they
   like or dislike before a neutral mention ("they're the over-ear ones"), then the one they
   said first, not the aside after it; or, with ``tuning.focus_tie_said_last``, of things
   said alike (a thing they like, then one they dislike, then a neutral mention) the one said
   last: what they came to ("the cheap sack, so thirty pence a day" has answered the why of
   the first already, however the reader linked the two);
   with ``tuning.focus_tie_types``, a node of those types before the rest, the first type
   first (a story goes on with what went wrong before the scene said first);
2. the most depth left to gain: levels between the node and the ontology's top level
   (0 for a terminal node);
3. the least probed: fewest questions that brought nothing new, then fewest questions;
4. the most recently productive: latest turn the node yielded;
5. the ranking's own order (score, strategy order, newest node, node id).

The rule and the nodes it compared are recorded in the decision, so ``/why`` and replay show it.

The stop guard, which defers a premature stop, is part of deciding stopping
(``core.decide.continuation.decide_stopping``).
"""

from __future__ import annotations

from dataclasses import dataclass

from interview_cli.config.schemas import Methodology
from interview_cli.core.decide.continuation import (
    LITTLE_TO_SAY,
    QUALITY_DEGRADED,
    RESPONDENT_FATIGUED,
)
from interview_cli.core.decide.scored import Ranking, ScoredCandidate
from interview_cli.core.decide.scoring import reselect
from interview_cli.core.graph.knowledge import KnowledgeGraph
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
    types = methodology.tuning.focus_tie_types

    def key(c: ScoredCandidate) -> tuple[int, int, int, int, int, int, int, int]:
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
        kind = state.node_type if state is not None else ""
        return (
            -int(just_said),
            first,
            types.index(kind) if kind in types else len(types),
            -_depth_left(methodology, tracker, c.node_id),
            fruitless,
            asked,
            -last_yield,
            order[id(c)],
        )

    best = min(tied, key=key)
    if best is chosen or (best.strategy, best.node_id) == (chosen.strategy, chosen.node_id):
        return ranking, None
    kind = getattr(tracker.states.get(best.node_id or ""), "node_type", "")
    rule = _winning_rule(key(best), key(chosen), said_last=said_last, kind=kind)
    others = tuple(str(c.node_label) for c in tied if c is not best)
    note = TieBreak(str(best.node_label), others, margin, rule)
    return reselect(ranking, best), note


def _winning_rule(
    best: tuple[int, ...], chosen: tuple[int, ...], *, said_last: bool = False, kind: str = ""
) -> str:
    rules = (
        "the respondent just said it",
        "the respondent came to it last" if said_last else "the respondent led with it",
        f"the method asks about its {kind.replace('_', ' ')} first",
        "more depth left to gain",
        "fewer questions that brought nothing",
        "asked about less often",
        "more recently productive",
    )
    for rule, a, b in zip(rules, best, chosen, strict=False):
        if a != b:
            return rule
    return "ranking order"


__all__ = ["TieBreak", "break_focus_tie"]
