"""JSON schemas of the structured outputs (extraction, assessment, slot proposals).

Hand-written rather than derived from the pydantic models so that they can be tight per
request: node and edge type enums come from the methodology's ontology. The slot schema is
the same for every call (so it can be cached): the request's labels are checked on return.
They are written to be accepted by both forced tool use (Anthropic ``input_schema``) and
strict JSON-schema output (OpenAI ``strict: true``): every object
lists all its properties as required and forbids extra ones; optional values are nullable.
Numeric ranges are stated in descriptions rather than ``minimum``/``maximum`` because not
every provider's strict mode accepts those keywords; ``validation.py`` enforces them.
"""

from __future__ import annotations

from typing import Any

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.config.study import REACTIONS
from interview_cli.core.models import ANSWER_KINDS, RUBRIC_SIGNALS, SAFETY_KINDS

EXTRACTION_TOOL = "record_extraction"
ASSESSMENT_TOOL = "record_assessment"
SLOTS_TOOL = "propose_slots"

HEDGING_VALUES: tuple[str, ...] = ("none", "low", "medium", "high")
CEILING_VALUES: tuple[str, ...] = ("none", "exploratory", "terminal")


def _object(properties: dict[str, Any], description: str = "") -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }
    if description:
        schema["description"] = description
    return schema


def _value_description(methodology: Methodology) -> str:
    if methodology.grid is not None:
        low, high = methodology.grid.rating_scale
        return (
            f"the rating ({low}-{high}) on a {methodology.grid.rating_relation} edge; "
            "null on other edges"
        )
    if methodology.journey is not None:
        low, high = methodology.journey.valence_scale
        return (
            f"the valence ({low} to {high}) on a {methodology.journey.emotion_relation} edge; "
            "null on other edges"
        )
    return "a number the relation carries, or null"


def _node_schema(methodology: Methodology, concept: Concept | None) -> dict[str, Any]:
    """One extracted node: its label, type, quote and reading, and what it corrects."""
    ontology = methodology.ontology
    element_ids = [e.id for e in concept.elements] if concept is not None else []
    node_properties: dict[str, Any] = {
        "label": {
            "type": "string",
            "description": "a short name in the respondent's words, as the naming convention "
            f"says (never over {ontology.max_label_words} words)",
        },
        "node_type": {"type": "string", "enum": [n.name for n in ontology.nodes]},
        "quote": {"type": "string", "description": "verbatim words from the answer"},
        "stance": {"type": "integer", "enum": [-1, 0, 1]},
        "confidence": {"type": "number", "description": "0.0 to 1.0"},
    }
    if element_ids:
        # Only a concept with stimulus elements has anything to say here: strict mode makes
        # every property required, so elsewhere the model would fill two nulls per node.
        node_properties["element_id"] = {
            "type": ["string", "null"],
            "description": "id of the stimulus element this node is about, or null",
            "enum": [*element_ids, None],
        }
        node_properties["reaction"] = {"type": ["string", "null"], "enum": [*REACTIONS, None]}
    # A correction can come in any study: what it revises is named, or null
    node_properties["corrects"] = {
        "type": ["string", "null"],
        "description": "exact label of the EXISTING CONCEPT this node corrects, or null",
    }
    return _object(node_properties)


def extraction_schema(methodology: Methodology, concept: Concept | None = None) -> dict[str, Any]:
    """The extraction output for this methodology (seed 000 "Tier 2: Structured Extraction")."""
    edge_properties: dict[str, Any] = {
        "source": {"type": "string", "description": "label of a node (new or existing)"},
        "target": {"type": "string", "description": "label of a node (new or existing)"},
        "relation": {"type": "string", "enum": [e.name for e in methodology.ontology.edges]},
        "quote": {"type": "string", "description": "verbatim words that state the link"},
        "confidence": {"type": "number", "description": "0.0 to 1.0"},
    }
    if methodology.shape != "ladder":
        # Journeys and grids put a number on some edges (a valence, a rating); ladder schemas
        # stay as they were, so recorded prompts of ladder sessions still match.
        edge_properties["value"] = {
            "type": ["number", "null"],
            "description": _value_description(methodology),
        }
    return _object(
        {
            "extractable": {
                "type": "boolean",
                "description": "false when the answer holds nothing to extract",
            },
            "reason": {"type": "string", "description": "why (one short sentence)"},
            "nodes": {"type": "array", "items": _node_schema(methodology, concept)},
            "edges": {"type": "array", "items": _object(edge_properties)},
            "steer": {
                "type": ["string", "null"],
                "description": "exact label of the concept the respondent asked to talk about "
                "next (existing or a node above), or null",
            },
            "retracted": {
                "type": "array",
                "items": {"type": "string"},
                "description": "exact labels of existing concepts the respondent takes back as "
                "not meant (a joke, an aside, 'nothing to do with it'), or []",
            },
        },
        "Nodes and edges extracted from the respondent's latest answer.",
    )


def assessment_schema() -> dict[str, Any]:
    """The batched rubric signals (seed 001 "Batch Detection", seed 004 Layer 3)."""
    # The reasoning before the number it justifies: a model that writes the score first
    # then explains it rationalises a guess.
    score = _object(
        {
            "rationale": {
                "type": "string",
                "description": "one short sentence: what in the answer earns the score",
            },
            "score": {"type": "integer", "enum": [1, 2, 3, 4, 5]},
        }
    )
    properties: dict[str, Any] = {
        "rationale": {"type": "string", "description": "overall note on the answer, one sentence"}
    }
    properties.update({name: score for name in RUBRIC_SIGNALS})
    properties["hedging_language"] = {"type": "string", "enum": list(HEDGING_VALUES)}
    properties["knowledge_ceiling"] = {"type": "string", "enum": list(CEILING_VALUES)}
    properties["answer_kind"] = {"type": "string", "enum": list(ANSWER_KINDS)}
    properties["safety"] = {"type": "string", "enum": list(SAFETY_KINDS)}
    properties["tiring"] = {"type": "boolean"}
    properties["going"] = {"type": "boolean"}
    properties["puzzled"] = {"type": "boolean"}
    return _object(properties, "Rubric ratings of the respondent's latest answer.")


def slots_schema() -> dict[str, Any]:
    """Canonical slot proposals (seed 002 Path 10). One schema for every call, whatever the
    groups: the labels and node types allowed are the request's, checked by ``validation``
    (a schema that listed them would change every call and could never be cached)."""
    proposal = _object(
        {
            "slot_name": {"type": "string", "description": "snake_case, 1-4 words"},
            "description": {
                "type": "string",
                "description": "one plain sentence: the idea the slot stands for, so that later "
                "labels that mean it can be recognised",
            },
            "node_type": {"type": "string", "description": "the node type of the slot's group"},
            "surface_labels": {
                "type": "array",
                "items": {"type": "string"},
                "description": "labels copied exactly from the slot's group",
            },
        }
    )
    return _object({"proposals": {"type": "array", "items": proposal}})
