"""The respondent's choice of the next focus: "can we go back to the charging?".

INTERVIEWING.md "How people actually answer": *steering* means the respondent chose the next
focus. The extraction names what they asked for (``Extraction.steer``, a label); after the
graph update that label is resolved to a node (``resolve_steer``: one of this answer's nodes,
else an earlier one by label or lemma, a corrected node's successor rather than itself), and
the decision takes it (``honour_steer``) above scoring, as the tie-break and the stop guard
do, with the reason in its rationale so ``/why`` and ``replay`` show it.

The request is not taken when a closing rule ended the interview (the continuation says
stop: the respondent asked to stop, the turn limit came), when the node ran dry (the seed 003
exhaustion signal, or its questions brought nothing ``fruitless_probe_limit`` times), or when
no question on it can be asked (no candidate on it, or only structurally impossible ones); a
safety reading never reaches here (``core.turn.content_of`` drops the request with the rest of
such a reply). Otherwise it wins over the tool's own habits (recent redundancy, a repeated
probe, a node closed earlier): the respondent asked for it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from interview_cli.config.schemas import Methodology
from interview_cli.core.decide.continuation import Continuation
from interview_cli.core.decide.scored import Ranking, ScoredCandidate, SignalValue
from interview_cli.core.decide.scoring import reselect
from interview_cli.core.decide.vetoes import FOCUS_TYPE
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.graph.update import GraphDelta
from interview_cli.core.models import RejectedItem
from interview_cli.core.tracker import NodeStateTracker

EXHAUSTED_SIGNAL = "graph.node.exhausted"
# Vetoes a request does not override: a question that cannot be asked about the node at all.
HARD_VETOES: frozenset[str] = frozenset({FOCUS_TYPE})


@dataclass(frozen=True)
class SteerRequest:
    """The node the respondent asked to talk about next, and the words they named it by."""

    node_id: str
    label: str
    asked: str
    # the node gone back to, when the answer went on to say what it leads to and the request
    # is asked on the newest of that (``node_id``; ``tuning.vetoes.steer_follows_what_was_said``)
    went_back_to: str = ""

    def to_dict(self) -> dict[str, Any]:
        out = {"node_id": self.node_id, "label": self.label, "asked": self.asked}
        if self.went_back_to:  # written only when followed: older inputs keep their shape
            out["went_back_to"] = self.went_back_to
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> SteerRequest | None:
        if not data:
            return None
        return cls(
            str(data["node_id"]),
            str(data["label"]),
            str(data.get("asked", "")),
            str(data.get("went_back_to", "")),
        )


def steered_node(graph: KnowledgeGraph, asked: str, resolved: str | None = None) -> str | None:
    """The node a steer label names in ``graph``: ``resolved`` (this answer's node of that
    label), else an earlier one by label, then by lemma; what corrected it, if anything did."""
    found = [resolved, *graph.find_by_label(asked), *graph.find_by_lemma(asked)]
    node_id = next((n for n in found if n is not None and n in graph), None)
    return None if node_id is None else graph.latest_version(node_id)


def resolve_steer(
    graph: KnowledgeGraph,
    asked: str | None,
    delta: GraphDelta,
    *,
    follow: Mapping[str, int] | None = None,
    doubted: Callable[[float | None], bool] | None = None,
) -> tuple[SteerRequest | None, RejectedItem | None]:
    """The node a steer label names after the answer is in ``graph`` (this answer's nodes
    first, then earlier ones; a superseded node's successor), or why none is. ``follow``
    (node type -> level, when ``tuning.vetoes.steer_follows_what_was_said``): when the answer
    linked that node to nodes it added, each a level higher ("Going back to the cheap thing,
    it means more money left for the kids"), the newest of them, at the end of the links: what
    the respondent went back to say. A link to a node no higher is a cause said of it ("it is
    cheap because it is an own brand"), not followed; nor a node the reading ``doubted`` ("I
    mind because it was the same as the gas bill", how they know a figure they put right: dev3's
    teacher was asked what difference it made)."""
    if not asked:
        return None, None
    node_id = steered_node(graph, asked, delta.resolved.get(asked))
    if node_id is None:
        reason = f"the respondent asked to talk about '{asked}', which names no node"
        return None, RejectedItem(kind="response", item={"steer": asked}, reason=reason)
    said = _said_of(graph, node_id, delta, follow, doubted) if follow is not None else node_id
    if said != node_id:
        return SteerRequest(said, graph.node(said).label, asked, graph.node(node_id).label), None
    return SteerRequest(node_id, graph.node(node_id).label, asked), None


def _said_of(
    graph: KnowledgeGraph,
    node_id: str,
    delta: GraphDelta,
    levels: Mapping[str, int],
    doubted: Callable[[float | None], bool] | None = None,
) -> str:
    """The end of the links this answer added from ``node_id`` up to higher nodes it added
    (the last one added, where it branches), else ``node_id``."""
    added = {n.node_id for n in delta.nodes_added}
    seen = {node_id}

    def level(n: str) -> int:
        return levels.get(graph.node(n).node_type, 0)

    while True:
        onward = [
            e.target
            for e in delta.edges_added
            if e.source == node_id
            and e.target in added
            and e.target not in seen
            and e.target in graph
            and level(e.target) > level(node_id)
            and not (doubted is not None and doubted(graph.node(e.target).confidence))
        ]
        if not onward:
            return node_id
        node_id = onward[-1]
        seen.add(node_id)


def honour_steer(
    ranking: Ranking,
    continuation: Continuation,
    steer: SteerRequest | None,
    *,
    methodology: Methodology,
    tracker: NodeStateTracker,
    node_signals: Mapping[str, Mapping[str, SignalValue]],
    graph: KnowledgeGraph | None = None,
) -> tuple[Ranking, str | None]:
    """The ranking with the requested node's best question selected, and the note saying so
    (or why the request was not taken); unchanged without a request. With
    ``tuning.vetoes.steer_to_what_holds_it`` and the ``graph``, a node no question can be
    asked on is asked about through what holds it (a journey's step, through its stage)."""
    if steer is None:
        return ranking, None
    asked = f"the respondent asked to go back to '{steer.label}'"
    if steer.went_back_to:
        asked = (
            f"the respondent went back to '{steer.went_back_to}' and said it leads to "
            f"'{steer.label}'; asking on that"
        )
    if not continuation.should_continue:
        return ranking, f"{asked}, but the interview ends: {continuation.reason}"
    state = tracker.states.get(steer.node_id)
    limit = methodology.tuning.vetoes.fruitless_probe_limit
    dry = bool(node_signals.get(steer.node_id, {}).get(EXHAUSTED_SIGNAL))
    if state is not None and (dry or state.fruitless_probes >= limit):
        return ranking, f"{asked}, but it is exhausted: asking elsewhere"
    pick = _best_on(ranking, steer.node_id, methodology)
    if pick is None and graph is not None and methodology.tuning.vetoes.steer_to_what_holds_it:
        # "Can we go back to the slot booking?" named a step; its stage is asked about
        holders = (_best_on(ranking, n, methodology) for n in graph.predecessors(steer.node_id))
        pick = next((c for c in holders if c is not None), None)
    if pick is None:
        return ranking, f"{asked}, but no question on it can be asked now"
    if ranking.selected is not None and _same_focus(ranking.selected, pick):
        return ranking, asked
    over = f" (over the veto '{pick.vetoed_by}')" if pick.vetoed_by else ""
    return reselect(ranking, pick), f"{asked}: {pick.strategy} on it{over}"


def _best_on(ranking: Ranking, node_id: str, methodology: Methodology) -> ScoredCandidate | None:
    """The best-ranked question on the node that is not a closing one, an admissible one
    first, else one held back only by the tool's own habits."""
    on_node = [
        c
        for c in ranking.candidates
        if c.node_id == node_id and not _closing(methodology, c.strategy)
    ]
    admissible = [c for c in on_node if c.vetoed_by is None]
    habits = [c for c in on_node if c.vetoed_by is not None and c.vetoed_by not in HARD_VETOES]
    return next(iter(admissible or habits), None)


def _closing(methodology: Methodology, strategy: str) -> bool:
    spec = methodology.strategy(strategy)
    return spec is not None and spec.generates_closing_question


def _same_focus(a: ScoredCandidate, b: ScoredCandidate) -> bool:
    return (a.strategy, a.node_id) == (b.strategy, b.node_id)


__all__ = ["HARD_VETOES", "SteerRequest", "honour_steer", "resolve_steer"]
