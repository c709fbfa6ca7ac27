"""Prompts for the structured tasks: extraction, assessment and slot proposals.

Extraction carries what seed 002 Paths 13-15 say the model needs to build a connected,
well-typed graph: the ontology with descriptions, examples and permitted connections, the
methodology's naming convention, guidelines and relationship examples, the extractability
criteria (seed 000 "Tier 1"), up to 30 EXISTING CONCEPTS so edges can reach earlier turns,
the question just asked with its strategy and focus, and discourse hints. The assessment
prompt injects the rubrics of ``signals.md`` (seed 001 "Rubric-Based LLM Detection").
"""

from __future__ import annotations

from functools import cache
from typing import Any

from interview_cli.config.schemas import Methodology, OntologySpec
from interview_cli.config.yamlio import dump_yaml
from interview_cli.llm.prompts.generation import render_conversation
from interview_cli.llm.prompts.output_schemas import (
    ASSESSMENT_TOOL,
    EXTRACTION_TOOL,
    SLOTS_TOOL,
    assessment_schema,
    extraction_schema,
    slots_schema,
)
from interview_cli.llm.prompts.rubric import load_rubrics
from interview_cli.llm.prompts.templates import (
    Prompt,
    bullets,
    delimit,
    escape_tags,
    fill,
    rendered_once,
)
from interview_cli.llm.protocol import (
    AssessRequest,
    Exchange,
    ExtractRequest,
    SlotGroup,
    SlotRequest,
)

MAX_EXISTING_LABELS = 30
MAX_CONTEXT_ANSWERS = 3

DEFAULT_EXTRACTABILITY = (
    "An answer is extractable when it states at least one concept of the ontology in the "
    "respondent's own words (a feature, an experience, a reason, a feeling, a value, a "
    "situation). Bare acknowledgements ('ok', 'yes', 'I agree') and a bare 'I don't know' "
    "are not."
)


def output_instruction(tool_name: str) -> str:
    return (
        f"Return only a JSON object that matches the `{tool_name}` schema (call the "
        f"`{tool_name}` tool when tools are offered). No prose before or after it."
    )


def render_ontology_nodes(ontology: OntologySpec) -> str:
    lines = []
    for node in sorted(ontology.nodes, key=lambda n: n.level):
        tags = f"level {node.level}" + (", terminal" if node.terminal else "")
        line = f"- {node.name} ({tags})"
        if node.description:
            line += f": {node.description.strip()}"
        if node.examples:
            line += " Examples: " + ", ".join(f'"{e}"' for e in node.examples)
        lines.append(line)
    return "\n".join(lines)


def render_ontology_edges(ontology: OntologySpec) -> str:
    lines = []
    for edge in ontology.edges:
        lines.append(
            f"- {edge.name}" + (f": {edge.description.strip()}" if edge.description else "")
        )
        lines.extend(f"    {src} -> {dst}" for src, dst in edge.permitted_connections)
    return "\n".join(lines)


def _as_text(value: Any) -> str:
    """A free-form YAML value (dict, list or text) as readable prompt text."""
    if isinstance(value, str):
        return value.strip()
    return dump_yaml(value, sort_keys=False, allow_unicode=True, width=100).strip()


def _extractability(methodology: Methodology) -> str:
    criteria = methodology.ontology.extractability_criteria
    if not criteria:
        return DEFAULT_EXTRACTABILITY
    return DEFAULT_EXTRACTABILITY + "\nThis methodology's criteria:\n" + _as_text(criteria)


def _extract_system(methodology: Methodology) -> str:
    """The extraction system prompt: the methodology's ontology and rules, nothing per turn."""
    ontology = methodology.ontology
    return fill(
        "extract.system",
        method_name=methodology.name,
        method_goal=methodology.method.goal,
        method_description=methodology.method.description,
        node_types=render_ontology_nodes(ontology),
        edge_types=render_ontology_edges(ontology),
        naming_convention=ontology.concept_naming_convention.strip()
        or "Short noun or verb phrases in the respondent's own words.",
        extraction_guidelines=bullets(ontology.extraction_guidelines),
        relationship_examples=_as_text(ontology.relationship_examples) or "(none)",
        extractability=_extractability(methodology),
        max_label_words=str(ontology.max_label_words),
        node_type_names=", ".join(n.name for n in ontology.nodes),
        edge_type_names=", ".join(e.name for e in ontology.edges),
        output_instruction=output_instruction(EXTRACTION_TOOL),
    )


# What the extraction is told about a question that no strategy of the methodology asked.
OPENING_TECHNIQUE = (
    "the opening question: it invites the respondent's own experience of the topic, in their words"
)
CLOSING_TECHNIQUE = (
    "the closing question: the interviewer summed up what was heard and asked whether anything "
    "is missing or wrong; a correction revises what it corrects, an addition is new"
)
ELEMENT_RULE = (
    "Set `element_id` to the id of the element a node is about (null when none) and "
    "`reaction` to how the respondent received that element (null when none): positive, "
    "negative, neutral, skeptical (doubts the claim), curious (wants to know more, would try "
    "it) or confused (did not understand it)."
)


def technique(methodology: Methodology, strategy: str | None) -> str:
    """The question's technique in words, for reading its answer: the strategy's own
    description (the opening's and the closing's when no strategy of the methodology)."""
    spec = methodology.strategy(strategy) if strategy else None
    if spec is not None and spec.generates_closing_question:
        return CLOSING_TECHNIQUE
    if spec is not None and spec.description.strip():
        return " ".join(spec.description.split())
    return OPENING_TECHNIQUE if strategy is None else CLOSING_TECHNIQUE


def _existing_nodes(request: ExtractRequest) -> str:
    lines = []
    for node in request.existing_nodes:
        line = f"{node.label} ({node.node_type})" if node.node_type else node.label
        if node.quote.strip():
            line += f': "{node.quote.strip()}"'
        lines.append(line)
    return escape_tags(bullets(lines))


def _elements_section(request: ExtractRequest) -> str:
    """The concept's stimulus elements, and the one the question raised (an element question):
    the answer is the respondent's reaction to it."""
    concept = request.concept
    if not concept.elements:
        return ""
    elements = f"Stimulus elements. {ELEMENT_RULE}\n" + bullets(
        [
            f"{e.id}: {e.label}" + (f" (also: {', '.join(e.aliases)})" if e.aliases else "")
            for e in concept.elements
        ]
    )
    raised = next((e for e in concept.elements if e.id == request.element_id), None)
    if raised is not None:
        elements += (
            f"\nThe question raised element {raised.id} ({raised.label}), which the "
            "respondent had not mentioned: the answer is their reaction to it, whether or "
            f"not it names it. Record a node for it with element_id {raised.id} and the "
            "reaction, unless the answer says nothing about it (a don't-know, a bare 'ok')."
        )
    return elements


def render_extract(request: ExtractRequest) -> Prompt:
    """The extraction prompt for one answer."""
    methodology, concept = request.methodology, request.concept
    system = rendered_once("extract.system", methodology, _extract_system)
    focus = "none"
    if request.focus_label:
        focus = f"<focus>{escape_tags(request.focus_label)}</focus>"
        if request.focus_type:
            focus += f" ({request.focus_type})"
    elements = _elements_section(request)
    if request.existing_nodes:
        existing, existing_note = _existing_nodes(request), "; type and their words"
    else:
        existing = escape_tags(bullets(request.existing_labels[:MAX_EXISTING_LABELS]))
        existing_note = ""
    previous = ""
    if request.previous_question.strip() or request.previous_answer.strip():
        previous = (
            "The exchange before it, for context (extract nothing from it):\n"
            + render_conversation(
                [Exchange(question=request.previous_question, answer=request.previous_answer)]
            )
            + "\n"
        )
    hints = ""
    if request.discourse_hints:
        hints = (
            "Discourse hints from a parser (may be wrong):\n"
            + delimit("discourse_hints", "\n".join(request.discourse_hints))
            + "\n"
        )
    user = fill(
        "extract.user",
        topic=concept.name,
        objective=concept.objective,
        elements=elements,
        strategy=request.strategy or "opening",
        technique=technique(methodology, request.strategy),
        focus=focus,
        question=escape_tags(request.question.strip()) or "(opening question)",
        previous=previous,
        existing_labels=existing,
        existing_note=existing_note,
        discourse_hints=hints,
        answer=escape_tags(request.answer.strip()),
    )
    return Prompt(
        system=system,
        user=user,
        schema=extraction_schema(methodology, concept),
        tool_name=EXTRACTION_TOOL,
        stream=False,
    )


@cache
def _assess_system() -> str:
    """The assessment system prompt: the shipped rubrics, the same for every answer."""
    rubrics = "\n\n".join(rubric.render() for rubric in load_rubrics().values())
    return fill(
        "assess.system", rubrics=rubrics, output_instruction=output_instruction(ASSESSMENT_TOOL)
    )


def render_assess(request: AssessRequest) -> Prompt:
    """The batched rubric assessment of one answer."""
    system = _assess_system()
    recent = ""
    earlier = [a for a in request.recent_answers if a.strip()][-MAX_CONTEXT_ANSWERS:]
    if earlier:
        recent = "Earlier answers, for context only:\n" + delimit(
            "earlier_answers", "\n---\n".join(a.strip() for a in earlier)
        )
    study = ""
    if request.topic.strip() or request.objective.strip():
        study = f"Interview topic: **{request.topic.strip() or '(not given)'}**\n"
        if request.objective.strip():
            study += f"Research objective: {' '.join(request.objective.split())}\n"
    user = fill(
        "assess.user",
        study=study,
        question=escape_tags(request.question.strip()) or "(none)",
        recent=recent,
        answer=escape_tags(request.answer.strip()),
    )
    return Prompt(system, user, assessment_schema(), ASSESSMENT_TOOL, False)


@cache
def _slots_system() -> str:
    """The same for every call, so a provider can cache it."""
    return fill("slots.system", output_instruction=output_instruction(SLOTS_TOOL))


def render_slots(request: SlotRequest) -> Prompt:
    """Group surface labels into canonical slots, one group per node type (seed 002 Path 10)."""
    groups = request.all_groups()
    parts = [
        f"Node type: {group.node_type}\n"
        + delimit("surface_labels", bullets(group.labels))
        + "\n"
        + delimit("existing_slots", bullets(_existing(group)))
        for group in groups
    ]
    user = fill("slots.user", groups="\n\n".join(parts))
    # The same schema every call (what is allowed is checked on the way back), so that a
    # provider can cache the tool with the system prompt.
    return Prompt(_slots_system(), user, slots_schema(), SLOTS_TOOL, False)


def _existing(group: SlotGroup) -> list[str]:
    """The group's slots as the model reads them: ``name: meaning (e.g. "label", ...)``."""
    described = {slot.name: slot for slot in group.existing}
    lines = []
    for name in group.existing_slots:
        slot = described.get(name)
        line = name
        if slot is not None and slot.description.strip():
            line += f": {' '.join(slot.description.split())}"
        if slot is not None and slot.labels:
            line += " (e.g. " + ", ".join(f'"{label}"' for label in slot.labels) + ")"
        lines.append(line)
    return lines


__all__ = ["render_assess", "render_extract", "render_slots"]
