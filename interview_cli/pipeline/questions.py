"""Stage 8: the next question (follow-up or closing), streamed and kept from repeating.

The strategy and focus come from the pure turn (``DecidedTurn``); this module turns them into a
``QuestionRequest`` and asks the model, again when the draft repeats a recent question.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from interview_cli.config.schemas import Concept, ConceptElement, Methodology, StrategySpec
from interview_cli.config.signal_catalogue import resolve_weight_key
from interview_cli.core.decide.continuation import RESPONDENT_FATIGUED
from interview_cli.core.decide.steer import SteerRequest, steered_node
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.guide import guide_coverage
from interview_cli.core.questions import repeat_rank
from interview_cli.core.turn import DecidedTurn, kept_steer
from interview_cli.llm.prompts.generation import MAX_RECENT_EXCHANGES
from interview_cli.llm.protocol import (
    Exchange,
    InterviewLLM,
    LLMCall,
    OpeningRequest,
    QuestionRequest,
    SignalNote,
)
from interview_cli.pipeline.asked_ladders import asked_chains
from interview_cli.pipeline.context import PipelineContext, QuestionGenerationOutput
from interview_cli.pipeline.prompt_context import question_context
from interview_cli.session.clock import now_iso
from interview_cli.session.schema import (
    QuestionRecord,
    SessionFile,
    StimulusRecord,
    TurnRecord,
)

# Question generations per turn: the first, then rephrasings while it repeats a recent one.
QUESTION_ATTEMPTS = 3
REPHRASE_SEED_STEP = 7919


def _noop(_: str) -> None:
    return None


@dataclass
class Hooks:
    """How the pipeline tells a screen what it is doing (all optional)."""

    on_stage: Callable[[str], None] = _noop
    on_token: Callable[[str], None] | None = None
    on_question_start: Callable[[QuestionRecord], None] | None = None
    # a concept test's stimulus, shown before the opening question is written
    on_stimulus: Callable[[StimulusRecord], None] | None = None


@dataclass
class Generated:
    """A generated question with the calls behind it."""

    record: QuestionRecord
    calls: list[LLMCall] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def signal_notes(decided: DecidedTurn) -> list[SignalNote]:
    """The five signals that weighed most in the selected candidate, for the prompt."""
    selected = next((c for c in decided.outcome.decision.candidates if c.selected), None)
    if selected is None:
        return []
    notes: list[SignalNote] = []
    strongest = sorted(selected.signal_contributions, key=lambda c: -abs(c.contribution))
    for contribution in strongest[:5]:
        if not contribution.contribution:
            continue
        resolved = resolve_weight_key(contribution.key)
        notes.append(
            SignalNote(
                name=contribution.key,
                value=contribution.value,
                description=resolved[0].description if resolved else "",
            )
        )
    return notes


class GuideContext(TypedDict, total=False):
    """The guide's fields of a ``QuestionRequest`` (keyword arguments to it)."""

    guide_remaining: list[str]
    guide_avoid: list[str]
    guide_tone: str


def guide_context(
    concept: Concept, graph: KnowledgeGraph, asked: Sequence[str] = ()
) -> GuideContext:
    """The guide's part of the question brief: what is still to cover and was not asked about
    yet (a topic asked once is not asked again whatever the answer covered: round 14 asked
    "battery life" three times of someone who said "all day battery"), what to avoid, tone."""
    guide = concept.guide
    if guide is None:
        return {}
    remaining = guide_coverage(guide.must_cover, graph).remaining
    return {
        "guide_remaining": [t for t in remaining if not any(t.lower() in q.lower() for q in asked)],
        "guide_avoid": list(guide.avoid),
        "guide_tone": guide.tone,
    }


class AskedFor(TypedDict, total=False):
    """The steer's part of a ``QuestionRequest`` (keyword arguments to it)."""

    asked_back: str
    went_back_to: str


def asked_for(steer: SteerRequest | None, focus_id: str | None) -> AskedFor:
    """What the respondent asked for, when the focus is it: the node their request resolved to
    (what they went back to, ``asked_back``, or what they said it leads to, ``went_back_to``);
    nothing when the decision asked elsewhere (the request refused, or the moderator's
    choice)."""
    if steer is None or focus_id is None or steer.node_id != focus_id:
        return {}
    if steer.went_back_to:
        return {"went_back_to": steer.went_back_to}
    return {"asked_back": steer.asked}


def value_reached(
    graph: KnowledgeGraph, methodology: Methodology, turn_number: int, focus_id: str | None
) -> str:
    """The label of the value the last answer (``turn_number``) came to, climbing: a node it
    made of the ladder's top two levels, linked from below, sure enough to ask about and not
    held against, when the next question is about something else (not it, nor above or below
    it). "" otherwise, and for a method whose links are no reasons. A typed lawnmower
    interview came to "being able to sort my own house out" and was asked at once "What is it
    about a cordless Bosch that counts for you?", as if it had not been heard."""
    ontology = methodology.ontology
    relations = ontology.chain_relations
    if not ontology.gives_reasons:
        return ""
    levels, top = ontology.levels, ontology.max_level
    least = methodology.tuning.vetoes.min_focus_confidence
    found = [
        node
        for node in graph.nodes()
        if node.created_turn == turn_number
        and levels.get(node.node_type, 0) >= top - 1
        and node.confidence >= least
        and node.stance >= 0  # (a fear is no "what it comes down to": the review)
        and not graph.is_superseded(node.id)
        and graph.predecessors(node.id, relations)
    ]
    if not found:
        return ""
    best = max(found, key=lambda node: levels[node.node_type])
    if focus_id is not None and (
        focus_id == best.id
        or focus_id in graph.successors(best.id)
        # (nor what leads to it: "So for you it comes down to your happiness. You talked about
        # the grandkids. Why is that important to you?" asked what was just answered)
        or focus_id in _below(graph, best.id, relations)
    ):
        return ""
    return best.label


def _below(graph: KnowledgeGraph, node_id: str, relations: frozenset[str]) -> set[str]:
    """Every node with a chain up to ``node_id``."""
    seen: set[str] = set()
    todo = [node_id]
    while todo:
        for lower in graph.predecessors(todo.pop(), relations):
            if lower not in seen:
                seen.add(lower)
                todo.append(lower)
    return seen


def pointed_at(
    graph: KnowledgeGraph, turns: Sequence[TurnRecord], steer: SteerRequest | None
) -> list[str]:
    """The nodes the respondent asked to go back to or said mattered most, in the order they
    did (each answer's request as the turn kept it, ``core.turn.kept_steer``, found in the
    graph as the decision finds it, ``steered_node``; this answer's as it resolved), for the
    closing recap."""
    pointed: list[str] = []
    for turn in turns:
        asked = kept_steer(turn.extraction, turn.assessment) if turn.extraction else None
        node_id = steered_node(graph, asked) if asked else None
        pointed += [node_id] if node_id is not None else []
    if steer is not None:
        pointed.append(steer.node_id)
    return pointed


def _closing_context(
    decided: DecidedTurn, strategy: StrategySpec, closing: bool, turns: Sequence[TurnRecord]
) -> tuple[dict[str, Any], list[str]]:
    """What a closing or a summary reads back: the ladders climbed by asking and what they
    pointed at (not worked out on every turn), and whether the respondent is leaving; with the
    ids of what they pointed at, which the recap's labels put first."""
    reads_back = closing or strategy.generates_closing_question or strategy.focus_mode == "summary"
    graph = decided.state.graph
    pointed = pointed_at(graph, turns, decided.outcome.steer) if reads_back else []
    context = {
        "asked_chains": asked_chains(graph, decided.methodology, turns) if reads_back else [],
        "pointed_labels": list(dict.fromkeys(graph.node(i).label for i in pointed if i in graph)),
        "leaving": closing and decided.outcome.continuation.reason == RESPONDENT_FATIGUED,
    }
    return context, pointed


def _recap(
    graph: KnowledgeGraph, m: Methodology, turns: Sequence[TurnRecord], pointed: list[str]
) -> list[str]:
    """What the closing recap says: what they pointed at first, then what was said most."""
    return graph.recap_labels(
        m.ontology.levels,
        least_confidence=m.tuning.vetoes.min_focus_confidence,
        first=m.recap_first,
        pointed=pointed,
        asked=Counter(t.question.focus_node_id for t in turns if t.question.focus_node_id),
    )


def question_request(
    decided: DecidedTurn,
    *,
    concept: Concept,
    exchanges: Sequence[tuple[str, str]],
    asked: Sequence[str],
    language: str | None,
    turn_number: int,
    seed: int,
    turns: Sequence[TurnRecord] = (),
) -> tuple[QuestionRequest, QuestionRecord]:
    """The request for the question after turn ``turn_number`` and the record it will fill;
    ``turns`` (the session's so far) give the brief what was said and asked."""
    m: Methodology = decided.methodology
    decision, graph = decided.outcome.decision, decided.state.graph
    closing = not decided.outcome.should_continue
    strategy = decided.next_strategy()
    focus_id = None if closing else decision.selected.node_id
    element = None if closing else _element(concept, decision.selected.element_id)
    focus_type, focus_stance = None, 0
    if focus_id is not None and focus_id in graph:
        focus_type = graph.node(focus_id).node_type
        focus_stance = graph.node(focus_id).stance
    context, pointed = _closing_context(decided, strategy, closing, turns)
    request = QuestionRequest(
        methodology=m,
        concept=concept,
        strategy=strategy,
        focus_label=None if closing else decision.selected.label,
        focus_type=focus_type,
        focus_stance=focus_stance,
        **asked_for(decided.outcome.steer, focus_id),
        reached="" if closing else value_reached(graph, m, turn_number, focus_id),
        summary_labels=_recap(graph, m, turns, pointed) if closing else graph.recent_labels(8),
        recent=[Exchange(question=q, answer=a) for q, a in exchanges[-MAX_RECENT_EXCHANGES:]],
        answers=[a for _, a in exchanges if a.strip()],
        active_signals=signal_notes(decided),
        rationale=list(decision.rationale),
        element_id=element.id if element is not None else None,
        # The same window the repeat check uses: a generator that sees only part of it can
        # land on an older question that the check then rejects.
        avoid_questions=list(asked[-m.tuning.vetoes.question_history :]),
        depth=decided.outcome.graph_state.max_depth,
        language=language or concept.language,
        closing=closing,
        **context,
        turn_number=turn_number + 1,
        seed=seed,
        **question_context(decided.state, m, focus_id, turns),
        **guide_context(concept, graph, asked),
    )
    if closing:
        record = QuestionRecord(text="", kind="closing", strategy=strategy.name)
    else:
        record = QuestionRecord(
            text="",
            kind="follow_up",
            strategy=strategy.name,
            focus_node_id=decision.selected.node_id,
            focus_label=element.label if element is not None else decision.selected.label,
            focus_type=focus_type,
            focus_element_id=element.id if element is not None else None,
        )
    return request, record


def _element(concept: Concept, element_id: str | None) -> ConceptElement | None:
    return next((e for e in concept.elements if e.id == element_id), None)


async def ask(
    llm: InterviewLLM,
    request: QuestionRequest,
    record: QuestionRecord,
    *,
    methodology: Methodology,
    asked: Sequence[str],
    hooks: Hooks,
) -> Generated:
    """Generate the question; while it is too close to a recent one (seed 000 "Question
    Deduplication"), ask again with the rejected draft added to the questions to avoid. When
    every draft is, the one whose like was asked longest ago is kept, then the least like."""
    tuning = methodology.tuning.vetoes
    out = Generated(record)
    recent = list(asked[-tuning.question_history :])
    text = ""
    drafts: list[tuple[tuple[int, float], str]] = []  # (``repeat_rank``, draft)
    for attempt in range(QUESTION_ATTEMPTS):
        if hooks.on_question_start:
            hooks.on_question_start(record)
        result = await llm.generate_question(request, on_token=hooks.on_token)
        out.calls += result.calls
        out.failures += result.failures
        text = result.value.strip()
        rank = repeat_rank(text, recent, tuning.question_similarity_threshold)
        drafts.append((rank, text))
        if rank[0] < 0:
            break
        if attempt == QUESTION_ATTEMPTS - 1:
            # every draft repeats one: the one that repeats least, as ``pick`` offline (round
            # 58 asked "What else comes to mind when you think about it?" twice running, the
            # drafts before it like questions ten turns back)
            text = min(drafts, key=lambda d: d[0])[1]
            break
        hooks.on_stage("rephrasing to avoid repeating a question")
        request = request.model_copy(
            update={
                "avoid_questions": [*request.avoid_questions, text],
                "seed": request.seed + REPHRASE_SEED_STEP,
            }
        )
    record.text = text
    record.asked_at = now_iso()
    return out


async def next_question(
    llm: InterviewLLM,
    session: SessionFile,
    turn: TurnRecord,
    decided: DecidedTurn,
    *,
    concept: Concept,
    ctx: PipelineContext,
    hooks: Hooks,
) -> QuestionRecord:
    """The question after ``turn``: the follow-up the decision chose, or the closing one."""
    if decided.outcome.should_continue:
        hooks.on_stage(f"writing the next question ({decided.next_strategy().name})")
    else:
        hooks.on_stage("writing the closing question")
    asked = [t.question.text for t in session.turns]
    request, record = question_request(
        decided,
        concept=concept,
        exchanges=[(t.question.text, t.answer.text) for t in session.turns],
        asked=asked,
        language=session.settings.language,
        turn_number=turn.turn_number,
        seed=session.settings.seed + turn.turn_number,
        turns=session.turns,
    )
    with ctx.timed("question_generation"):
        generated = await ask(
            llm, request, record, methodology=decided.methodology, asked=asked, hooks=hooks
        )
    ctx.set(QuestionGenerationOutput(calls=generated.calls, failures=generated.failures))
    return record


async def opening_question(
    llm: InterviewLLM,
    session: SessionFile,
    methodology: Methodology,
    concept: Concept,
    hooks: Hooks,
) -> tuple[QuestionRecord, list[LLMCall]]:
    """The opening question of a new session, streamed through ``hooks``, and its calls.
    A concept test's stimulus is recorded as shown first: the opening asks about it."""
    stimulus = concept.shown_stimulus(methodology.shape)
    if stimulus is not None and session.stimulus is None:
        session.stimulus = StimulusRecord(
            text=stimulus.text, image=stimulus.image, shown_at=now_iso()
        )
    if session.stimulus is not None and hooks.on_stimulus is not None:
        hooks.on_stimulus(session.stimulus)
    hooks.on_stage("writing the opening question")
    record = QuestionRecord(text="", kind="opening")
    if hooks.on_question_start:
        hooks.on_question_start(record)
    settings = session.settings
    result = await llm.generate_opening(
        OpeningRequest(
            methodology=methodology,
            concept=concept,
            language=settings.language,
            seed=settings.seed,
        ),
        on_token=hooks.on_token,
    )
    record.text = result.value.strip()
    record.asked_at = now_iso()
    return record, list(result.calls)
