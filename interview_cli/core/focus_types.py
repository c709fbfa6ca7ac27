"""What a strategy's question is about (``StrategySpec.focus_types``), enforced like a veto.

A grid's rating question is about a construct ("On a scale from 1 to 5, where 1 means
private and 5 means shared ..."); chosen without one, it is no question at all ("where 1
means  and 5 means not ,"). A strategy that lists ``focus_types`` is therefore a candidate
only

- node-bound: on a node of one of those types, never without a node (the node-less candidate
  a node-bound strategy gets on an empty graph, see ``scoring``) nor on a node of another type;
- node-less (a closing read-back of what was learned): once the graph holds such a node.

Anything else is vetoed as ``focus_type``. It is the hardest veto (a name ``scoring`` does not
rank is relaxed last): when every candidate is vetoed, a soft repeat of an open question
(``recent_redundancy``: the next triad) is chosen before a question about nothing.

Pure: graph and strategy in, a reason or None out. A methodology snapshot recorded before focus
types existed lists none, so its sessions replay as recorded (``with_focus_types`` returns the
plain veto callback then).
"""

from __future__ import annotations

from collections.abc import Sequence

from interview_cli.config.schemas import Methodology, StrategySpec
from interview_cli.core.graph import KnowledgeGraph
from interview_cli.core.vetoes import VetoRecorder

FOCUS_TYPE = "focus_type"


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
        node = graph.node(node_id)
        if node.node_type in kinds:
            return None
        about = f"{strategy.name} is about a {_either(kinds)}"
        return f"{about}; '{node.label}' is of type {node.node_type}"
    if node_id is None and not any(
        not graph.is_superseded(n.id) for kind in kinds for n in graph.nodes(kind)
    ):
        return f"{strategy.name} is about a {_either(kinds)} and the interview has none yet"
    return None


class FocusTypeVeto:
    """The decision's veto callback with the focus-type rule checked first; its reasons go to
    the recorder's, so the rationale and ``/why`` name them like any other veto."""

    def __init__(self, recorder: VetoRecorder, graph: KnowledgeGraph | None) -> None:
        self.recorder = recorder
        self.graph = graph

    def __call__(self, strategy: StrategySpec, node_id: str | None) -> str | None:
        reason = focus_type_problem(strategy, node_id, self.graph)
        if reason is not None:
            self.recorder.reasons[(strategy.name, node_id)] = reason
            return FOCUS_TYPE
        return self.recorder(strategy, node_id)


def with_focus_types(
    recorder: VetoRecorder, methodology: Methodology, graph: KnowledgeGraph | None
) -> VetoRecorder | FocusTypeVeto:
    """``recorder`` itself when no strategy lists focus types (every older snapshot)."""
    if not any(s.focus_types for s in methodology.strategies):
        return recorder
    return FocusTypeVeto(recorder, graph)
