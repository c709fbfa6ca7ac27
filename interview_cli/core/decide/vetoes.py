"""Tier-1 vetoes: hard constraints that reject a (strategy, node) candidate before it can win.

Implements seed 004 "Tier 1: Hard Constraints" and "Conditional Veto Example" on top of the
v2 joint scoring. Each veto is a small pure function ``(strategy, node_id, ctx) -> reason|None``
and can be switched off in ``tuning.vetoes``. Checks run hardest first and stop at the first
veto (seed 004: "early exit on first veto"); a vetoed candidate stays in the decomposition with
``vetoed_by`` set to the veto's name and is never selected (see ``scoring`` for the documented
all-vetoed fallback, which relaxes the softest veto first).

| veto (hardest first) | rejects                                                            |
|----------------------|--------------------------------------------------------------------|
| focus_type           | a strategy that lists ``focus_types`` without a node of one of     |
|                      | those types (``focus_type_problem``): a grid's rating question     |
|                      | about nothing would read "where 1 means  and 5 means not ,"         |
| nothing_to_raise     | an element strategy (``focus_mode: element``, seed 004            |
|                      | ``cover_element``) when no stimulus element is left to raise:     |
|                      | each one not mentioned was raised ``coverage.max_raises`` times   |
| knowledge_ceiling    | on a node where the respondent gave a terminal "don't know" (and   |
|                      | said nothing new about it since): the strategies listed in         |
|                      | ``knowledge_ceiling_strategies``, or every node-bound strategy     |
| element_exhausted    | a node whose stimulus element has already been focused             |
|                      | ``element_max_focus`` times in total (coverage mode only)          |
| node_exhausted       | every node-bound strategy on a node the respondent asked to leave  |
|                      | ("move on", "I already said that", with ``steer_leaves_focus`` a   |
|                      | request to go back to another node) or whose questions brought     |
|                      | nothing new ``fruitless_probe_limit`` times (``fruitless_probe``); |
|                      | with ``return_to_stalled_after`` such a node may be asked once     |
|                      | more that many turns later, another way (``may_return``)           |
| element_exhausted    | (see above)                                                        |
| repeated_probe       | a strategy on a node where that strategy was already asked, unless |
|                      | the node came up anew since that answer (``fruitless_probe``)      |
| asked_enough         | a node-bound strategy on a node already asked                      |
|                      | ``node_question_limit`` questions, in any technique, unless it     |
|                      | came up anew since the last of them (a request to go back to it    |
|                      | is honoured over it)                                               |
| recent_redundancy    | the same strategy on the same focus within the last                |
|                      | ``redundancy_window_turns`` turns when nothing was learned since   |
|                      | (not an element strategy: each of its questions raises another     |
|                      | element)                                                           |
| open_question_spent  | a node-less strategy whose last question (with                     |
|                      | ``open_questions_spent_together``: the last node-less question of  |
|                      | any strategy) came back empty while nothing was learned since,     |
|                      | however long ago (``open_question_memory``): after "nothing else", |
|                      | neither "what else?" nor "another angle" is asked. An element      |
|                      | question is no open question: it is neither spent nor spends one   |
| list_closed          | with ``list_closed_by_respondent``: a node-less strategy (a breadth |
|                      | check; with ``open_questions_spent_together`` any) once a breadth  |
|                      | check was answered "thats about it" (``SaturationMetrics           |
|                      | .list_closed``): the closing question only                         |
| answered_why         | a climbing strategy (``climbs``) on a node that already leads to   |
|                      | another: its why was answered (``answered_why``)                   |
| left_behind          | with ``follow_the_answer``: the node of the question just asked,   |
|                      | when its answer brought up something new: what they just said is   |
|                      | followed, not asked round again in another technique               |
| doubtful_reading     | a node read with a confidence below ``min_focus_confidence``       |
|                      | (``doubtful_focus``): the reader is unsure it heard an element     |
|                      | there, so no question is asked about it until it is said again     |
| elicited_not_laddered| right after a node-less question brought up a new, non-terminal    |
|                      | node not asked about yet, any question not about such a node       |
|                      | (``ladder_elicited``): what the respondent just offered is asked   |
|                      | about next, before eliciting more or going back to older nodes;    |
|                      | a stimulus element received without appeal (negative, neutral,    |
|                      | skeptical, confused) is not laddered                               |

A name in parentheses that is a habit (``config.tuning.Habit``) is no setting: the veto
always applies but in a session recorded before it was a habit (``VetoContext.ran_without``).
``knowledge_ceiling``, ``recent_redundancy`` and ``element_exhausted`` are the seed's Tier-1
vetoes a methodology may switch off; ``fruitless_probe``, ``ladder_elicited`` and
``open_questions_spent_together`` are method choices (``config.tuning.VetoTuning``).

``node_exhausted`` and ``fruitless_probe`` read the tracker's memory of asking
(``NodeState.probes``): what each question on a node brought. They are the interviewer's
answer to the novice error of asking the same why again: change technique on a node whose
why came back empty, leave the node after two empty questions or when told to.

"Nothing learned since" for a node focus: the node has not yielded after that turn
(``last_yield_turn`` is not later than the focus turn). For a node-less focus: every turn since
then added nothing to the graph (``saturation.consecutive_low_info`` covers them all).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from interview_cli.config.schemas import StrategySpec
from interview_cli.config.tuning import Habit, VetoTuning
from interview_cli.core.graph.knowledge import KnowledgeGraph

if TYPE_CHECKING:
    from interview_cli.core.tracker import NodeState, NodeStateTracker

FOCUS_TYPE = "focus_type"
NOTHING_TO_RAISE = "nothing_to_raise"
KNOWLEDGE_CEILING = "knowledge_ceiling"
ELEMENT_EXHAUSTED = "element_exhausted"
RECENT_REDUNDANCY = "recent_redundancy"
NODE_EXHAUSTED = "node_exhausted"
REPEATED_PROBE = "repeated_probe"
OPEN_QUESTION_SPENT = "open_question_spent"
LIST_CLOSED = "list_closed"
ELICITED_NOT_LADDERED = "elicited_not_laddered"
ANSWERED_WHY = "answered_why"
DOUBTFUL_READING = "doubtful_reading"
ASKED_ENOUGH = "asked_enough"
LEFT_BEHIND = "left_behind"


@dataclass(frozen=True)
class FocusEntry:
    """One past selection (seed 001 "Focus History Tracking"): the question of ``turn`` asked
    ``strategy`` about ``node_id`` (None: no node focus), or raised stimulus element
    ``element_id``."""

    turn: int
    strategy: str
    node_id: str | None = None
    label: str | None = None
    element_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        # The element only when there is one: histories of older sessions keep their shape.
        element = {"element_id": self.element_id} if self.element_id is not None else {}
        return {
            "turn": self.turn,
            "strategy": self.strategy,
            "node_id": self.node_id,
            "label": self.label,
            **element,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FocusEntry:
        return cls(
            turn=data["turn"],
            strategy=data["strategy"],
            node_id=data.get("node_id") or None,
            label=data.get("label"),
            element_id=data.get("element_id") or None,
        )


@dataclass(frozen=True)
class VetoContext:
    """What the vetoes read. Plain values; built once per turn by ``decide``."""

    tuning: VetoTuning
    tracker: NodeStateTracker
    turn_number: int
    ran_without: frozenset[Habit] = frozenset()  # ``Tuning.ran_without``: a recorded session's
    focus_history: Sequence[FocusEntry] = ()
    consecutive_low_info: int = 0
    list_closed: bool = False  # ``SaturationMetrics.list_closed``
    node_elements: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    element_focus_counts: Mapping[str, int] = field(default_factory=dict)
    graph: KnowledgeGraph | None = None  # for focus_type
    # Concept tests: the element an element question would raise (None: none left), and the
    # nodes of elements received without appeal (``decision._unappealing_nodes``).
    element_to_raise: str | None = None
    unappealing: frozenset[str] = frozenset()
    # The last answer did not know what its question asks (``Assessment.puzzled``): that
    # question was not tried, and may be asked again, put another way.
    puzzled: bool = False

    @cached_property
    def just_elicited(self) -> dict[str, str]:
        """Nodes (id -> label) that the previous question, an open one, brought up and no
        question has asked about yet: none when that question had a node focus. Computed once
        a turn, not once a candidate (it reads every node)."""
        previous = self.focus_history[-1] if self.focus_history else None
        if previous is None or previous.node_id is not None:
            return {}
        if previous.turn != self.turn_number - 1:
            return {}
        return {
            node: state.label
            for node, state in self.tracker.states.items()
            if state.created_at_turn == self.turn_number
            and not state.is_terminal
            and not state.probes
            and state.focus_count == 0
            and node not in self.unappealing
            and not self._doubted(node)
        }

    @cached_property
    def brought_up(self) -> tuple[str, ...]:
        """Labels of the nodes the last answer brought up (``left_behind``): computed once a
        turn, not once a candidate (it reads every node)."""
        return tuple(
            s.label for s in self.tracker.states.values() if s.created_at_turn == self.turn_number
        )

    def _doubted(self, node_id: str) -> bool:
        """A node no question may be about (``doubtful_reading``): what an open question
        brought up with doubt ("Getting old", said with a laugh) is no reason to veto every
        other question, which would leave only closing the interview."""
        if Habit.DOUBTFUL_FOCUS in self.ran_without or self.graph is None:
            return False
        if not self.graph.has_node(node_id):
            return False
        return self.tuning.doubts(self.graph.node(node_id).confidence)


VetoFn = Callable[[StrategySpec, str | None, VetoContext], str | None]


def _either(kinds: Sequence[str]) -> str:
    return kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " or " + kinds[-1]


def focus_type_problem(
    strategy: StrategySpec, node_id: str | None, graph: KnowledgeGraph | None
) -> str | None:
    """Why ``strategy`` cannot be asked about ``node_id`` (None: it can)."""
    kinds = strategy.focus_types
    if not kinds or graph is None:
        return None
    if strategy.node_binding == "required":
        if node_id is None:
            return f"{strategy.name} is about a {_either(kinds)} and there is none to focus yet"
        if not graph.has_node(node_id):
            return None
        if graph.node_type(node_id) in kinds:  # every candidate: no Node built for it
            return None
        node = graph.node(node_id)
        about = f"{strategy.name} is about a {_either(kinds)}"
        return f"{about}; '{node.label}' is of type {node.node_type}"
    if node_id is None and not any(
        not graph.is_superseded(n.id) for kind in kinds for n in graph.nodes(kind)
    ):
        return f"{strategy.name} is about a {_either(kinds)} and the interview has none yet"
    return None


def focus_type(strategy: StrategySpec, node_id: str | None, ctx: VetoContext) -> str | None:
    """What a strategy's question is about (``StrategySpec.focus_types``): a strategy that
    lists them is a candidate only on a node of one of those types (node-bound), or once the
    graph holds one (node-less: a closing read-back). A methodology that lists none (every
    snapshot from before focus types) is never vetoed here, so its sessions replay as
    recorded."""
    return focus_type_problem(strategy, node_id, ctx.graph)


def nothing_to_raise(strategy: StrategySpec, node_id: str | None, ctx: VetoContext) -> str | None:
    """An element strategy with no stimulus element left to raise: every element the
    respondent has not mentioned was raised already (``tuning.coverage.max_raises``)."""
    if strategy.focus_mode != "element" or ctx.element_to_raise is not None:
        return None
    return "no stimulus element is left to raise: each one not mentioned was raised already"


def knowledge_ceiling(strategy: StrategySpec, node_id: str | None, ctx: VetoContext) -> str | None:
    """Seed 004: a terminal "don't know" vetoes deepening that node (exploratory ones do not).

    The ceiling lifts once the node yields again after it: the respondent brought it up anew.
    """
    if node_id is None:
        return None
    state = ctx.tracker.states.get(node_id)
    if state is None or state.knowledge_ceiling_turn is None:
        return None
    if not _at_ceiling(state):
        return None
    listed = ctx.tuning.knowledge_ceiling_strategies
    applies = strategy.name in listed if listed else strategy.node_binding == "required"
    if not applies:
        return None
    return (
        f"terminal don't-know on this node at turn {state.knowledge_ceiling_turn}; "
        f"{strategy.name} would push past the respondent's knowledge"
    )


def element_exhausted(strategy: StrategySpec, node_id: str | None, ctx: VetoContext) -> str | None:
    """Seed 004 ElementExhaustedScorer, counting total focuses (not reset on a switch).

    A node mapped to several elements is vetoed when any of them is over the limit.
    """
    if node_id is None or strategy.node_binding != "required":
        return None
    limit = ctx.tuning.element_max_focus
    for element in ctx.node_elements.get(node_id, ()):
        count = ctx.element_focus_counts.get(element, 0)
        if count >= limit:
            return f"stimulus element {element!r} already focused {count} times (limit {limit})"
    return None


def _nothing_learned_since(node_id: str | None, turn: int, ctx: VetoContext) -> bool:
    if node_id is None:
        return ctx.consecutive_low_info >= ctx.turn_number - turn
    state = ctx.tracker.states.get(node_id)
    if state is None:
        return False
    return state.last_yield_turn is None or state.last_yield_turn <= turn


def recent_redundancy(strategy: StrategySpec, node_id: str | None, ctx: VetoContext) -> str | None:
    """Seed 004 RecentRedundancyScorer, in v2 terms: do not repeat a (strategy, focus) pair
    that was tried within the window and taught us nothing. A question the respondent did not
    understand was not tried ("sorry what?" to a grid's rating question went on to laddering
    its construct, and "I don't know what you're asking" then closed the interview, round
    278); twice not understood, it is."""
    if strategy.focus_mode == "element":
        return None  # each element question raises another element
    window_start = ctx.turn_number - ctx.tuning.redundancy_window_turns
    for entry in reversed(ctx.focus_history):
        if entry.turn < window_start:
            break
        if entry.turn >= ctx.turn_number or (ctx.puzzled and entry.turn == ctx.turn_number - 1):
            continue
        if entry.strategy == strategy.name and entry.node_id == node_id:
            if _nothing_learned_since(node_id, entry.turn, ctx):
                return (
                    f"{strategy.name} on the same focus at turn {entry.turn} "
                    "yielded nothing new since"
                )
            return None
    return None


_CLOSED_BY = {
    "move_on": "the respondent asked to move on",
    "already_said": "the respondent said it was already answered",
    "declined": "the respondent declined to answer",
    "skipped": "the moderator skipped this node",
}


def node_exhausted(strategy: StrategySpec, node_id: str | None, ctx: VetoContext) -> str | None:
    """A node the respondent closed, or that ran dry: no node-bound question on it again."""
    if node_id is None or strategy.node_binding != "required":
        return None
    state = ctx.tracker.states.get(node_id)
    if state is None:
        return None
    closed = state.closed_by_respondent
    if closed is not None:
        who = _CLOSED_BY.get(closed.outcome, _CLOSED_BY["already_said"])
        return f"{who} at turn {closed.turn + 1}"
    fruitless = state.fruitless_probes
    if fruitless >= ctx.tuning.fruitless_probe_limit and not may_return(state, ctx):
        return f"{fruitless} questions on this node brought nothing new"
    return None


def stalled(state: NodeState, tuning: VetoTuning, ran_without: frozenset[Habit]) -> bool:
    """Left after exactly ``fruitless_probe_limit`` empty answers, not closed by the respondent
    and not a value: a node the interviewer may come back to (``may_return``); not one whose
    last answer was a terminal don't-know (``Habit.RETURN_RESPECTS_CEILING``)."""
    respects_ceiling = Habit.RETURN_RESPECTS_CEILING not in ran_without
    return (
        state.fruitless_probes == tuning.fruitless_probe_limit
        and state.closed_by_respondent is None
        and not state.is_terminal
        and not (respects_ceiling and _at_ceiling(state))
    )


def _at_ceiling(state: NodeState) -> bool:
    """A terminal don't-know on the node ("nothing more to it") not lifted by a later yield."""
    ceiling = state.knowledge_ceiling_turn
    return ceiling is not None and (
        state.last_yield_turn is None or state.last_yield_turn <= ceiling
    )


def may_return(state: NodeState, ctx: VetoContext) -> bool:
    """Back off, then return later (INTERVIEWING.md): a ``stalled`` node may be asked once
    more, ``return_to_stalled_after`` turns after its last answer. Which techniques are left is
    ``repeated_probe``'s business; a terminal don't-know stays final."""
    return returnable(state, ctx.tuning, ctx.turn_number, ctx.ran_without)


def returnable(
    state: NodeState, tuning: VetoTuning, turn_number: int, ran_without: frozenset[Habit]
) -> bool:
    """``may_return`` on the tracker's state alone (the probe-history signal reads it too)."""
    after = tuning.return_to_stalled_after
    if after <= 0 or not stalled(state, tuning, ran_without):
        return False
    answered = max(p.turn for p in state.probes) + 1
    return turn_number - answered >= after


_OUTCOME_WORDS = {
    "new_rung": "its answer",
    "nothing_new": "nothing new",
    "dont_know": "a don't-know",
    "about_interview": "a remark about the interview",
}


def _came_up_anew(state: NodeState, *, after: int) -> bool:
    """The node yielded after turn ``after`` on a turn that did not answer a question on it:
    the respondent brought it up by themselves (an answer to another technique on the same
    node is not news about it)."""
    last = state.last_yield_turn
    if last is None or last <= after:
        return False
    return all(p.turn + 1 != last for p in state.probes)


def repeated_probe(strategy: StrategySpec, node_id: str | None, ctx: VetoContext) -> str | None:
    """The same technique on the same node again: asked once, its answer is in hand (or it
    came back empty and another technique is due). Allowed again only once the node came up
    anew after that answer (it yielded on a later turn)."""
    if node_id is None:
        return None
    state = ctx.tracker.states.get(node_id)
    if state is None:
        return None
    probe = next((p for p in reversed(state.probes) if p.strategy == strategy.name), None)
    if probe is None:
        return None
    if _came_up_anew(state, after=probe.turn + 1):
        return None
    got = _OUTCOME_WORDS.get(probe.outcome, probe.outcome)
    # the question of decision turn N is asked, and recorded, as turn N + 1's question
    return f"{strategy.name} was asked on this node at turn {probe.turn + 1} and brought {got}"


def asked_enough(strategy: StrategySpec, node_id: str | None, ctx: VetoContext) -> str | None:
    """A node asked ``node_question_limit`` questions already, in whatever techniques: one
    more on the same phrase reads as not listening, however its technique differs. Once the
    respondent brings the node up anew after the last of them, one more question may follow
    (every earlier one still counts)."""
    limit = ctx.tuning.node_question_limit
    if node_id is None or not limit or strategy.node_binding != "required":
        return None
    state = ctx.tracker.states.get(node_id)
    if state is None or len(state.probes) < limit:
        return None
    if _came_up_anew(state, after=state.probes[-1].turn + 1):
        return None
    return f"{len(state.probes)} questions were asked on this node already"


def _node_less(strategy: StrategySpec, node_id: str | None) -> bool:
    """An open question with no node focus that is not the closing one (an element question
    is about its element)."""
    return (
        node_id is None
        and strategy.node_binding == "none"
        and not strategy.generates_closing_question
        and strategy.focus_mode != "element"
    )


def open_question_spent(
    strategy: StrategySpec, node_id: str | None, ctx: VetoContext
) -> str | None:
    """The memory of asking for open questions: one that came back empty is spent (with
    ``open_questions_spent_together``: every open question is) until the interview learns
    something new (the redundancy window does not limit how far back)."""
    if not _node_less(strategy, node_id):
        return None
    any_open = ctx.tuning.open_questions_spent_together
    last = next(
        (
            e
            for e in reversed(ctx.focus_history)
            if e.turn < ctx.turn_number
            and e.node_id is None
            and e.element_id is None
            and (any_open or e.strategy == strategy.name)
        ),
        None,
    )
    if last is None or not _nothing_learned_since(None, last.turn, ctx):
        return None
    return f"{last.strategy} was asked at turn {last.turn + 1} and nothing new came up since"


def list_closed(strategy: StrategySpec, node_id: str | None, ctx: VetoContext) -> str | None:
    """After "thats about it" to a breadth check, no open question but the closing one: what
    was named is laddered, then the interview closes (round 66 asked "what else?" three
    times, the last after "nothing else, you asked me that already")."""
    if not ctx.list_closed or not _node_less(strategy, node_id):
        return None
    if not (strategy.breadth_check or ctx.tuning.open_questions_spent_together):
        return None
    return "the respondent said a breadth check had all there is"


def elicited_not_laddered(
    strategy: StrategySpec, node_id: str | None, ctx: VetoContext
) -> str | None:
    """Ladder what an open question just brought up next: neither another open question nor
    a question about something said before (the respondent has just offered it)."""
    if strategy.generates_closing_question:
        return None
    fresh = ctx.just_elicited
    if not fresh or node_id in fresh:
        return None
    return f"the last open question brought up {next(iter(fresh.values()))!r}, not asked about yet"


def answered_why(strategy: StrategySpec, node_id: str | None, ctx: VetoContext) -> str | None:
    """Asking why a node matters once the respondent has said what it leads to asks for what
    they said: the novice error, and what they complain about."""
    if node_id is None or not strategy.climbs:
        return None
    state = ctx.tracker.states.get(node_id)
    if state is None or state.edge_count_outgoing == 0:
        return None
    return "the respondent already said what this leads to"


def left_behind(strategy: StrategySpec, node_id: str | None, ctx: VetoContext) -> str | None:
    """Not the node of the question just asked when its answer brought up something new:
    the next question follows what they just said. Asked again in another technique, the old
    focus reads as not listening ("You said doctor said is probably the caffeine. What makes
    that harder than it should be?" straight after the answer went to the heart scare; the
    reader links what an answer brings to its focus, so a link is no sign they stayed on it).
    An empty answer is no moving on: a technique change there is the craft's."""
    previous = ctx.focus_history[-1] if ctx.focus_history else None
    if node_id is None or previous is None or previous.node_id != node_id:
        return None
    if previous.turn != ctx.turn_number - 1:
        return None
    # (read with doubt or not: "nothing really because I don't use it lol, the e-bike means I
    # don't get sweaty" moved on, round 122, and was asked about the shower again; the node
    # itself was brought up before the question on it, so it is never among them)
    if not ctx.brought_up:
        return None
    return f"the answer to the last question on this node went on to {ctx.brought_up[0]!r}"


def doubtful_reading(strategy: StrategySpec, node_id: str | None, ctx: VetoContext) -> str | None:
    """No question about a node the reading is unsure of: "What does 'arthritis' do for you?"
    after "Arthritis." said in passing costs more than waiting until it is said again (the
    graph keeps the best confidence a node was read with, so saying it clearly lifts this)."""
    if node_id is None or ctx.graph is None or not ctx.graph.has_node(node_id):
        return None
    confidence = ctx.graph.node(node_id).confidence
    if not ctx.tuning.doubts(confidence):
        return None
    least = ctx.tuning.min_focus_confidence
    return f"the reading of this node is doubtful (confidence {confidence:g} < {least:g})"


# Hardest first: the first veto that fires is the one recorded.
VETOES: tuple[tuple[str, VetoFn], ...] = (
    (FOCUS_TYPE, focus_type),
    (NOTHING_TO_RAISE, nothing_to_raise),
    (KNOWLEDGE_CEILING, knowledge_ceiling),
    (NODE_EXHAUSTED, node_exhausted),
    (ELEMENT_EXHAUSTED, element_exhausted),
    (REPEATED_PROBE, repeated_probe),
    (ASKED_ENOUGH, asked_enough),
    (ANSWERED_WHY, answered_why),
    (RECENT_REDUNDANCY, recent_redundancy),
    (LEFT_BEHIND, left_behind),
    (DOUBTFUL_READING, doubtful_reading),
    (OPEN_QUESTION_SPENT, open_question_spent),
    (LIST_CLOSED, list_closed),
    (ELICITED_NOT_LADDERED, elicited_not_laddered),
)


def enabled_vetoes(
    tuning: VetoTuning, ran_without: frozenset[Habit] = frozenset()
) -> tuple[tuple[str, VetoFn], ...]:
    """The vetoes that apply: the methodology's choices (the seed's three, on unless switched
    off; ``ladder_elicited``), the habits unless a recorded session ran without them, the rest
    always."""
    switches = {
        FOCUS_TYPE: True,  # applies only where strategies list focus_types
        NOTHING_TO_RAISE: True,  # applies only to element strategies
        KNOWLEDGE_CEILING: tuning.knowledge_ceiling,
        ELEMENT_EXHAUSTED: tuning.element_exhausted,
        RECENT_REDUNDANCY: tuning.recent_redundancy,
        LEFT_BEHIND: tuning.follow_the_answer,
        NODE_EXHAUSTED: tuning.fruitless_probe,
        REPEATED_PROBE: tuning.fruitless_probe,
        ASKED_ENOUGH: tuning.node_question_limit > 0,
        ANSWERED_WHY: Habit.ANSWERED_WHY not in ran_without,
        OPEN_QUESTION_SPENT: Habit.OPEN_QUESTION_MEMORY not in ran_without,
        LIST_CLOSED: tuning.list_closed_by_respondent,
        ELICITED_NOT_LADDERED: tuning.ladder_elicited,
        DOUBTFUL_READING: Habit.DOUBTFUL_FOCUS not in ran_without,
    }
    return tuple((name, fn) for name, fn in VETOES if switches[name])


class VetoRecorder:
    """A scoring ``veto`` callback that also remembers each veto's reason for the rationale."""

    def __init__(self, ctx: VetoContext) -> None:
        self._ctx = ctx
        self._checks = enabled_vetoes(ctx.tuning, ctx.ran_without)
        self.reasons: dict[tuple[str, str | None], str] = {}

    def __call__(self, strategy: StrategySpec, node_id: str | None) -> str | None:
        for name, fn in self._checks:
            reason = fn(strategy, node_id, self._ctx)
            if reason is not None:
                self.reasons[(strategy.name, node_id)] = reason
                return name
        return None
