"""The knowledge graph as JSON: networkx node-link data, how sessions store the graph.

``to_json`` writes what a session file keeps after every turn; ``from_json`` rebuilds the
graph exactly (node order, adjacency order and the id counter), which replay relies on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.graph.records import GraphInvariantError, check_opinion

__all__ = ["GRAPH_FORMAT", "from_json", "to_json"]

GRAPH_FORMAT = "node-link"

_NODE_FIELDS = (
    "id",
    "label",
    "node_type",
    "aliases",
    "provenance",
    "stance",
    "confidence",
    "created_turn",
    "superseded_by",
    "element_id",
)


def _json_copy(value: Any) -> Any:
    """A deep copy of JSON-shaped data (dicts, lists, scalars), several times faster than
    ``copy.deepcopy``, which a session's graph goes through on every load and save."""
    if isinstance(value, dict):
        return {k: _json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_copy(v) for v in value]
    return value


def to_json(graph: KnowledgeGraph) -> dict[str, Any]:
    """networkx node-link data (``edges="links"``), JSON-ready and fully detached from the graph."""
    g = graph._g
    return {
        "directed": True,
        "multigraph": False,
        "graph": {"format": GRAPH_FORMAT, "next_node_number": graph._next_number},
        "nodes": [_json_copy({k: d[k] for k in _NODE_FIELDS}) for _, d in g.nodes(data=True)],
        "links": [
            {"source": s, "target": t, "relations": _json_copy(d["relations"])}
            for s, t, d in g.edges(data=True)
        ],
    }


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _opinion_ok(stance: Any, confidence: Any) -> bool:
    """Numbers where the graph keeps numbers, within the ranges its mutations allow
    (``check_opinion``; NaN compares false, so it is refused too)."""
    numbers = _is_int(stance) and (
        confidence is None
        or isinstance(confidence, (int, float))
        and not isinstance(confidence, bool)
    )
    try:
        check_opinion(stance, confidence)
    except (GraphInvariantError, TypeError):
        return False
    return numbers


def _provenance_ok(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(p, dict) and _is_int(p.get("turn")) for p in value
    )


def _check_node(raw: Mapping[str, Any]) -> None:
    """The types the graph's methods rely on (a hand-edited file may hold anything)."""
    text = isinstance(raw["label"], str) and isinstance(raw["node_type"], str)
    aliases = isinstance(raw["aliases"], list) and all(isinstance(a, str) for a in raw["aliases"])
    if not (
        text and aliases and _provenance_ok(raw["provenance"]) and _is_int(raw["created_turn"])
    ):
        raise ValueError(
            f"node {raw['id']!r}: label and node_type must be text, aliases a list of text, "
            "provenance a list of records with a turn number and created_turn a number"
        )
    if not _opinion_ok(raw["stance"], raw["confidence"]):
        raise ValueError(
            f"node {raw['id']!r}: stance must be -1, 0 or 1 and confidence a number from 0 to 1"
        )


def _check_relations(source: str, target: str, relations: Any) -> None:
    """Every relation of an edge is a record with the fields exports and replay read."""
    if not isinstance(relations, dict) or not all(
        isinstance(k, str) and isinstance(v, dict) for k, v in relations.items()
    ):
        raise ValueError(f"edge {source!r} -> {target!r}: relations must map names to records")
    for name, record in relations.items():
        quotes = record.get("quotes")
        if not (
            record.get("confidence") is not None
            and _opinion_ok(0, record.get("confidence"))
            and _is_int(record.get("created_turn"))
            and _provenance_ok(record.get("provenance"))
            and isinstance(quotes, list)
            and all(isinstance(q, str) for q in quotes)
        ):
            raise ValueError(
                f"edge {source!r} -> {target!r}, relation {name!r}: confidence must be a "
                "number from 0 to 1, created_turn a number, provenance a list of records with "
                "a turn number and quotes a list of text"
            )


def from_json(data: Mapping[str, Any]) -> KnowledgeGraph:
    """Rebuild a graph from ``to_json`` output; ``ValueError`` names what is malformed."""
    graph = KnowledgeGraph()
    try:
        graph._next_number = int(data.get("graph", {}).get("next_node_number", 1))
        for raw in data["nodes"]:
            missing = [k for k in _NODE_FIELDS if k not in raw]
            if missing:
                raise ValueError(f"node {raw.get('id')!r} lacks {', '.join(missing)}")
            node_id = raw["id"]
            _check_node(raw)
            if node_id in graph._g:
                raise ValueError(f"node id {node_id!r} appears twice")
            attrs = _json_copy({k: raw[k] for k in _NODE_FIELDS})
            graph._g.add_node(node_id, **attrs)
            graph._position[node_id] = len(graph._position)
            for label in (attrs["label"], *attrs["aliases"]):
                graph._index(node_id, label)
        for link in data.get("links", []):
            s, t = link["source"], link["target"]
            if s not in graph._g or t not in graph._g:
                raise ValueError(f"edge {s!r} -> {t!r} references a missing node")
            relations = _json_copy(link["relations"])
            _check_relations(s, t, relations)
            graph._g.add_edge(s, t, relations=relations)
            graph._edge_count += len(relations)
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"malformed graph data: {exc!r}") from None
    return graph
