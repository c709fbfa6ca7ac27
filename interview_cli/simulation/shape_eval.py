"""Ground-truth evaluation of simulated journey and grid interviews.

The persona's hidden journey or grid is compared with the session's graph, and the result
carries the same headline fields as a ladder evaluation (``evaluation.evaluate_session``) so
the batch summary reads both alike:

- ``rungs_total``: the truth's items (journey: stages, actions, touchpoints, emotions, pain
  points, fixes; grid: constructs and rating cells); ``rungs_elicited``: those the graph has
  (a node of the right type naming the item; a construct found, a cell rated);
  ``rung_recall`` = elicited / total;
- ``ladder_recall``: the mean per stage (per construct) of its items' recall;
- ``ladders_*``: stages or constructs (opened = found, completed = every item found);

plus ``journey`` (per stage) or ``grid`` (per construct, with the mean absolute rating
error against the truth). An item is named by a node when most of its content words appear
in the node's label or aliases; a construct when both poles do (either order; ratings of a
construct said the other way round are compared flipped).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interview_cli.config.schemas import Methodology, Persona
from interview_cli.core.text import label_profile
from interview_cli.session.schema import SessionFile
from interview_cli.simulation.evaluation import conduct_figures

MATCH_SHARE = 0.6


def _content(text: str) -> set[str]:
    return set(label_profile(text).content)


def names(truth: str, node: Mapping[str, Any]) -> bool:
    want = _content(truth)
    if not want:
        return False
    for label in (node.get("label", ""), *node.get("aliases", [])):
        have = _content(str(label))
        if len(want & have) / len(want) >= MATCH_SHARE:
            return True
    return False


def _nodes(session: SessionFile, kind: str) -> list[dict[str, Any]]:
    return [n for n in session.graph.get("nodes", []) if n.get("node_type") == kind]


def _common(session: SessionFile, methodology: Methodology) -> dict[str, Any]:
    return {
        "terminal_reached": None,
        "terminal_reachable": False,
        "graph_terminal_nodes": 0,
        "linked_pairs": 0,
        "pairs_total": 0,
        "graph_nodes": len(session.graph.get("nodes", [])),
        "unmatched_nodes": [],
        **conduct_figures(session, methodology, []),
    }


def _headline(per: list[dict[str, Any]], total: int, found: int) -> dict[str, Any]:
    opened = sum(1 for p in per if p["found"])
    return {
        "rungs_total": total,
        "rungs_elicited": found,
        "rung_recall": round(found / total, 4) if total else 0.0,
        "ladder_recall": round(sum(p["recall"] for p in per) / len(per), 4) if per else 0.0,
        "ladders_total": len(per),
        "ladders_opened": opened,
        "ladders_unopened": len(per) - opened,
        "ladders_completed": sum(1 for p in per if p["recall"] == 1.0),
    }


def evaluate_journey(session: SessionFile, persona: Persona, m: Methodology) -> dict[str, Any]:
    assert m.journey is not None
    spec = m.journey
    kinds = {
        "stage": spec.stage_type,
        "actions": spec.action_type,
        "touchpoints": spec.touchpoint_type,
        "emotion": spec.emotion_type,
        "pains": spec.pain_type,
        "fixes": None,
    }
    nodes = session.graph.get("nodes", [])
    per: list[dict[str, Any]] = []
    total = found = 0
    for stage in persona.journeys.get(session.concept.id, []):
        items: list[tuple[str, str]] = [("stage", stage.stage)]
        items += [("actions", a) for a in stage.actions]
        items += [("touchpoints", t) for t in stage.touchpoints]
        items += [("emotion", stage.emotion)] if stage.emotion else []
        items += [("pains", p) for p in stage.pains]
        items += [("fixes", f) for f in stage.fixes]
        hits = []
        for kind, text in items:
            wanted = kinds[kind]
            pool = nodes if wanted is None else [n for n in nodes if n.get("node_type") == wanted]
            if any(names(text, n) for n in pool):
                hits.append(text)
        total += len(items)
        found += len(hits)
        per.append(
            {
                "stage": stage.stage,
                "items": [text for _, text in items],
                "elicited": hits,
                "found": stage.stage in hits,
                "recall": round(len(hits) / len(items), 4),
            }
        )
    return {
        "shape": "journey",
        **_headline(per, total, found),
        **_common(session, m),
        "journey": per,
    }


def evaluate_grid(session: SessionFile, persona: Persona, m: Methodology) -> dict[str, Any]:
    assert m.grid is not None
    spec = m.grid
    low, high = spec.rating_scale
    constructs = _nodes(session, spec.construct_type)
    elements = {n["id"]: n for n in _nodes(session, spec.element_type)}
    ratings: dict[tuple[str, str], float] = {}
    for link in session.graph.get("links", []):
        entry = link.get("relations", {}).get(spec.rating_relation)
        if entry is not None and entry.get("value") is not None:
            ratings[(str(link["source"]), str(link["target"]))] = float(entry["value"])
    per: list[dict[str, Any]] = []
    total = found = 0
    errors: list[float] = []
    for truth in persona.grids.get(session.concept.id, []):
        match: tuple[dict[str, Any], bool] | None = None
        for node in constructs:
            left, _, right = str(node.get("label", "")).partition(" vs ")
            pair = ({"label": left}, {"label": right})
            if names(truth.like, pair[0]) and names(truth.contrast, pair[1]):
                match = (node, False)
            elif names(truth.contrast, pair[0]) and names(truth.like, pair[1]):
                match = (node, True)
            if match:
                break
        rated = 0
        if match is not None:
            node, flipped = match
            for element_id, element in elements.items():
                said = ratings.get((element_id, node["id"]))
                truth_value = next(
                    (
                        v
                        for k, v in truth.ratings.items()
                        if names(k, element) or k == element.get("element_id")
                    ),
                    None,
                )
                if said is None or truth_value is None:
                    continue
                rated += 1
                expected = low + high - truth_value if flipped else truth_value
                errors.append(abs(said - expected))
        cells = len(truth.ratings)
        hits = (1 if match else 0) + min(rated, cells)
        total += 1 + cells
        found += hits
        per.append(
            {
                "construct": truth.label,
                "found": match is not None,
                "as": match[0]["label"] if match else None,
                "ratings_elicited": rated,
                "ratings_total": cells,
                "recall": round(hits / (1 + cells), 4),
            }
        )
    result = {"shape": "grid", **_headline(per, total, found), **_common(session, m), "grid": per}
    result["rating_error"] = round(sum(errors) / len(errors), 4) if errors else None
    return result


def evaluate_shaped(
    session: SessionFile, persona: Persona, methodology: Methodology
) -> dict[str, Any] | None:
    """The evaluation of a journey or grid interview (against the persona's truth about the
    session's concept); None for a ladder methodology."""
    if not has_shaped_truth(persona, session.concept.id, methodology):
        return None
    if methodology.shape == "journey" and methodology.journey is not None:
        return evaluate_journey(session, persona, methodology)
    if methodology.shape == "grid" and methodology.grid is not None:
        return evaluate_grid(session, persona, methodology)
    return None


def has_shaped_truth(persona: Persona, concept_id: str, methodology: Methodology) -> bool:
    if methodology.shape == "journey":
        return bool(persona.journeys.get(concept_id))
    if methodology.shape == "grid":
        return bool(persona.grids.get(concept_id))
    return False


def shaped_truth(persona: Persona, concept_id: str, methodology: Methodology) -> dict[str, Any]:
    """The ground truth a journey or grid session records (empty for a ladder)."""
    if methodology.shape == "journey":
        return {
            "journey": [s.model_dump(mode="json") for s in persona.journeys.get(concept_id, [])]
        }
    if methodology.shape == "grid":
        return {"grid": [c.model_dump(mode="json") for c in persona.grids.get(concept_id, [])]}
    return {}
