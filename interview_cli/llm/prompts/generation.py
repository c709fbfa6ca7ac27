"""Prompts for the text tasks: opening question, follow-up question, simulated respondent.

Seed 001 "Policy-Driven Follow-Up Question Generation": the opening prompt is
conversational (methodology name, goal, opening_bias, the objective); the follow-up prompt
is policy-driven: the strategy with its YAML description, the focus, the recent
conversation, topic anchoring (plus the deep-conversation note when depth >= 2) and - wired
here, where the seed left it designed but unused - the *active signals* with their catalogue
descriptions and the *rationale* lines that say why the strategy won ("Signal Rationale in
Prompts"). Both follow the language rule: the study language when one is set, otherwise the
respondent's.
"""

from __future__ import annotations

from typing import Any

from interview_cli.config.signal_catalogue import resolve_weight_key
from interview_cli.llm.prompts.templates import (
    Prompt,
    bullets,
    escape_tags,
    fill,
    language_rule,
    topic_name,
)
from interview_cli.llm.protocol import (
    Exchange,
    OpeningRequest,
    PersonaRequest,
    QuestionRequest,
    SignalNote,
)

MAX_RECENT_EXCHANGES = 3
DEEP_CONVERSATION_DEPTH = 2


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def signal_description(note: SignalNote) -> str:
    """The note's own description, else the catalogue's (qualifiers like `.high` resolved)."""
    if note.description:
        return note.description
    resolved = resolve_weight_key(note.name)
    return resolved[0].description if resolved else ""


def render_active_signals(notes: list[SignalNote]) -> str:
    if not notes:
        return ""
    lines = ["## Active Signals:"]
    for note in notes:
        lines.append(f"- {note.name}: {_format_value(note.value)}")
        description = signal_description(note)
        if description:
            lines.append(f'  -> "{description}"')
    return "\n".join(lines)


def render_rationale(request: QuestionRequest) -> str:
    # The description is already on the "Strategy:" line; here only the why.
    lines = [*request.rationale, f"Strategy: {request.strategy.name}"]
    return "## Why This Strategy Was Selected:\n" + bullets(lines)


def render_conversation(exchanges: list[Exchange]) -> str:
    parts = []
    for exchange in exchanges:
        parts.append(
            f"<interviewer_question>{escape_tags(exchange.question.strip())}</interviewer_question>\n"
            f"<respondent_answer>{escape_tags(exchange.answer.strip())}</respondent_answer>"
        )
    return "<conversation>\n" + "\n".join(parts) + "\n</conversation>"


def _focus_line(request: QuestionRequest) -> str:
    mode = request.strategy.focus_mode
    if mode == "summary" and request.summary_labels:
        return "Focus: reflect back what the respondent has said so far:\n" + escape_tags(
            bullets(request.summary_labels)
        )
    if request.focus_label and mode != "topic":
        line = f'Focus concept: "{escape_tags(request.focus_label)}"'
        if request.focus_type:
            spec = request.methodology.ontology.node_type(request.focus_type)
            level = (
                f", level {spec.level} of {request.methodology.ontology.max_level}" if spec else ""
            )
            line += f" ({request.focus_type}{level})"
        return line
    return f"Focus: {topic_name(request.concept.name)} as a whole (no single concept)."


def _task_line(request: QuestionRequest, topic: str) -> str:
    if request.closing or request.strategy.generates_closing_question:
        return (
            "This is the closing question: briefly thank the respondent and invite any final "
            f"thought about {topic} that has not come up yet."
        )
    return "Write the next question: carry out the strategy on the focus."


def render_question(request: QuestionRequest) -> Prompt:
    """The follow-up question prompt (streamed free text)."""
    methodology, concept = request.methodology, request.concept
    topic = topic_name(concept.name)
    system = fill(
        "question.system",
        method_name=methodology.name,
        method_goal=methodology.method.goal,
        topic=topic,
        objective=concept.objective,
        language_rule=language_rule(request.language or concept.language),
    )
    recent = ""
    if request.recent:
        recent = "## Recent conversation (oldest first):\n" + render_conversation(
            request.recent[-MAX_RECENT_EXCHANGES:]
        )
    avoid = ""
    if request.avoid_questions:
        # All of them: the runner already cut them to the methodology's question_history.
        avoid = "## Already asked (do not repeat or paraphrase):\n" + escape_tags(
            bullets(request.avoid_questions)
        )
    depth_note = ""
    if request.depth >= DEEP_CONVERSATION_DEPTH:
        depth_note = (
            f"Note: We're deep in the conversation. Keep the question connected to {topic} - "
            "explore values through the lens of their specific experience, not generic life "
            "philosophy.\n"
        )
    user = fill(
        "question.user",
        strategy_name=request.strategy.name,
        strategy_description=request.strategy.description.strip() or request.strategy.name,
        focus=_focus_line(request),
        active_signals=render_active_signals(request.active_signals),
        rationale=render_rationale(request),
        recent=recent,
        avoid=avoid,
        depth_note=depth_note,
        task=_task_line(request, topic),
    )
    return Prompt(system, user, None, None, True)


def render_opening(request: OpeningRequest) -> Prompt:
    """The opening question prompt: conversational, low-constraint (seed 001)."""
    methodology, concept = request.methodology, request.concept
    topic = topic_name(concept.name)
    system = fill(
        "opening.system",
        method_name=methodology.name,
        method_goal=methodology.method.goal,
        opening_bias=methodology.method.opening_bias.strip()
        or "Start from the respondent's own concrete experience.",
        topic=topic,
        objective=concept.objective,
        language_rule=language_rule(request.language or concept.language),
    )
    description = f"About the topic: {concept.description.strip()}\n" if concept.description else ""
    elements = ""
    if concept.elements:
        elements = "The concept shown to the respondent has these elements:\n" + bullets(
            [e.label for e in concept.elements]
        )
    user = fill("opening.user", topic=topic, description=description, elements=elements)
    return Prompt(system, user, None, None, True)


def _describe_traits(request: PersonaRequest) -> str:
    traits = request.persona.traits
    length = (
        "a few words to one sentence"
        if traits.verbosity < 0.3
        else "two or three sentences"
        if traits.verbosity < 0.7
        else "several sentences, sometimes drifting into tangents"
    )
    lines = [
        f"- Answer length: {length}.",
        "- You open up easily when asked why something matters."
        if traits.openness >= 0.6
        else "- You are guarded: you reveal deeper reasons only when asked more than once.",
        "- When you reach the limit of what you know or care about, say so plainly."
        if traits.knowledge < 1.0
        else "- You can explain your reasons all the way to what matters to you in life.",
        f"- After about {traits.patience} questions you get tired and your answers shorten.",
    ]
    if traits.skepticism >= 0.3:
        lines.append("- You sometimes question the point of a question before answering it.")
    if traits.repetition_tolerance < 0.3:
        lines.append(
            "- Asked something you already answered, you say so, irritated, and add nothing."
        )
    return "\n".join(lines)


def _describe_ladders(request: PersonaRequest) -> str:
    persona = request.persona
    if request.methodology is not None:
        ladders = [
            [r.label for r in ladder] for ladder in persona.typed_ladders(request.methodology)
        ]
    else:
        ladders = [
            [r.label for r in ladder] for group in persona.ladders.values() for ladder in group
        ]
    if not ladders:
        return "(nothing specific: answer from your profile)"
    return "\n".join("- " + " -> ".join(ladder) for ladder in ladders)


def render_persona(request: PersonaRequest) -> Prompt:
    """The simulated respondent's prompt: it sees only its profile and the conversation."""
    persona = request.persona
    speech = f"Speech pattern: {persona.speech_pattern.strip()}\n" if persona.speech_pattern else ""
    deflections = ""
    if persona.deflection_patterns:
        deflections = "When you don't want to go deeper, you say things like:\n" + bullets(
            persona.deflection_patterns
        )
    system = fill(
        "persona.system",
        name=persona.name,
        profile=persona.profile.strip(),
        speech_pattern=speech,
        traits=_describe_traits(request),
        ladders=_describe_ladders(request),
        deflections=deflections,
    )
    history = ""
    if request.history:
        history = "The interview so far:\n" + render_conversation(request.history)
    user = fill(
        "persona.user",
        history=history,
        question=escape_tags(request.question.strip()),
        name=persona.name,
    )
    return Prompt(system, user, None, None, False)
