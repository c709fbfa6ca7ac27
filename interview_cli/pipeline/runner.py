"""The live turn: the only place where the pure core meets the LLM layer and the disk.

Seed 001 "The Turn Pipeline", in our shape (ARCHITECTURE "The turn"):

    1 context loading   what the session knows: turn number, question asked, labels, history
    2 utterance saving  the answer is written to disk BEFORE any model call
    2.5 discourse       optional hints for extraction (feature flag; skipped when off)
    3 extract ∥ assess  two model calls run concurrently: one round trip on the critical path
    4-7 core            graph update → tracker → state → signals → scoring → continuation
                        (``core.turn.advance``: pure, the same code replay runs)
    8 question          the next question, streamed, de-duplicated against recent questions
      ∥ 4.5 slots       canonical slot proposals for this turn's new nodes (feature flag),
                        concurrently with 8; applied at the end of the turn (``core.canonical``)
    9-10 persistence    the whole turn record and the new state in one atomic write

So a turn has two model round trips on its critical path (3, then 8). Slot discovery is not a
third: it overlaps question generation, and its mappings inform the NEXT turn's scoring (the
recorded proposals let replay apply them at the same point). A crash or Ctrl-C at
any point leaves the session file valid: either without the answer (before 2), or with the
answer in an ``answered`` turn that ``resume`` processes again, or with the complete turn.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from interview_cli.config.schemas import Concept, Methodology, StrategySpec
from interview_cli.config.yamlio import load_yaml
from interview_cli.core.canonical import (
    CanonicalState,
    SlotBatch,
    apply_slot_proposals,
    canonical_graph_state,
    pending_slot_batches,
)
from interview_cli.core.dedup import Embedder
from interview_cli.core.discourse import FrameParser, discourse_hints
from interview_cli.core.models import Assessment, Extraction
from interview_cli.core.questions import most_similar_recent
from interview_cli.core.turn import CoreState, TurnOutcome, advance
from interview_cli.errors import SessionFileError
from interview_cli.llm.protocol import (
    AssessRequest,
    Exchange,
    ExtractRequest,
    InterviewLLM,
    LLMCall,
    OpeningRequest,
    QuestionRequest,
    SignalNote,
    SlotGroup,
    SlotRequest,
)
from interview_cli.pipeline.context import (
    ContextLoadingOutput,
    CoreOutput,
    DiscourseOutput,
    ExtractionOutput,
    PipelineContext,
    QuestionGenerationOutput,
    UtteranceSavingOutput,
)
from interview_cli.pipeline.prompt_context import extraction_nodes, question_context
from interview_cli.pipeline.slot_batches import split_proposals
from interview_cli.pipeline.summary import learned_summary
from interview_cli.session import (
    AnswerRecord,
    ClosingRecord,
    ContinuationRecord,
    DecisionRecord,
    QuestionRecord,
    SessionFile,
    TurnRecord,
)
from interview_cli.store import SessionStore, now_iso

RECENT_EXCHANGES = 3
# Question generations per turn: the first, then rephrasings while it repeats a recent one.
QUESTION_ATTEMPTS = 3
SlotDiscovery = tuple[list[SlotBatch], list[LLMCall], list[str], float]
ENDED_BY_MODERATOR = "ended by moderator"


def _noop(_: str) -> None:
    return None


@dataclass
class Hooks:
    """How the pipeline tells a screen what it is doing (all optional)."""

    on_stage: Callable[[str], None] = _noop
    on_token: Callable[[str], None] | None = None
    on_question_start: Callable[[QuestionRecord], None] | None = None


@dataclass
class TurnResult:
    turn: TurnRecord
    next_question: QuestionRecord | None
    finished: bool
    outcome: TurnOutcome | None = field(default=None, repr=False)


def parse_snapshot(text: str, model: type[Any], what: str, session_id: str) -> Any:
    try:
        return model.model_validate(load_yaml(text))
    except Exception as exc:  # a hand-edited snapshot: say which, do not crash
        raise SessionFileError(
            f"session {session_id}: its {what} snapshot no longer loads ({type(exc).__name__}); "
            "the file was edited by hand?"
        ) from None


class Interview:
    """One session being conducted. The caller holds the session's lock."""

    def __init__(
        self,
        session: SessionFile,
        *,
        store: SessionStore | None,
        llm: InterviewLLM,
        methodology: Methodology | None = None,
        concept: Concept | None = None,
        embedder: Embedder | None = None,
        frame_parser: FrameParser | None = None,
    ) -> None:
        self.session = session
        self.store = store
        self.llm = llm
        self.embedder = embedder  # optional embedding tier (llm.embeddings); None: fuzzy only
        self.frame_parser = frame_parser  # optional spaCy frames for discourse hints
        self.methodology = methodology or parse_snapshot(
            session.methodology.source, Methodology, "methodology", session.id
        )
        self.concept = concept or parse_snapshot(
            session.concept.source, Concept, "concept", session.id
        )
        self.core = CoreState.from_dict(
            graph=session.graph, tracker=session.tracker, state=session.state, concept=self.concept
        )
        # The canonical half of the dual graph; None when canonical slots are off.
        self.canonical: CanonicalState | None = (
            CanonicalState.from_dict(session.canonical)
            if session.settings.enable_canonical_slots
            else None
        )

    # ---- state ---------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.session.status == "completed"

    @property
    def max_turns(self) -> int:
        return self.session.settings.max_turns

    def save(self) -> None:
        if self.store is not None:
            self.store.save(self.session)

    def set_status(self, status: str, reason: str | None = None) -> None:
        self.session.status = status  # type: ignore[assignment]
        if reason is not None:
            self.session.termination_reason = reason
        self.save()

    def _record_calls(self, calls: list[LLMCall], into: list[LLMCall]) -> None:
        for call in calls:
            into.append(call)
            self.session.usage.add(call)

    @property
    def asked_questions(self) -> list[str]:
        return [t.question.text for t in self.session.turns]

    # ---- opening and recovery ------------------------------------------------------------
    async def ensure_question(self, hooks: Hooks | None = None) -> QuestionRecord | None:
        """The question awaiting an answer, after recovering an interrupted turn and
        generating the opening question of a new session."""
        hooks = hooks or Hooks()
        if self.session.turns and self.session.turns[-1].status == "answered":
            hooks.on_stage("finishing the interrupted turn")
            await self._process(self.session.turns[-1], hooks)
        if self.session.pending_question is None and not self.session.turns and not self.finished:
            await self._open(hooks)
        return self.session.pending_question

    async def _open(self, hooks: Hooks) -> None:
        hooks.on_stage("writing the opening question")
        record = QuestionRecord(text="", kind="opening")
        if hooks.on_question_start:
            hooks.on_question_start(record)
        result = await self.llm.generate_opening(
            OpeningRequest(
                methodology=self.methodology,
                concept=self.concept,
                language=self.session.settings.language,
                seed=self.session.settings.seed,
            ),
            on_token=hooks.on_token,
        )
        self._record_calls(result.calls, self.session.opening_calls)
        record.text = result.value.strip()
        record.asked_at = now_iso()
        self.session.pending_question = record
        self.save()

    # ---- a turn --------------------------------------------------------------------------
    async def submit(
        self, answer: str, hooks: Hooks | None = None, *, answer_calls: Sequence[LLMCall] = ()
    ) -> TurnResult:
        """Record ``answer`` to the pending question (on disk first), then process it.

        ``answer_calls``: the model calls that produced the answer (a simulated respondent's),
        recorded with the turn in that same first write, so a crash cannot separate them.
        """
        hooks = hooks or Hooks()
        question = self.session.pending_question
        if question is None:
            raise RuntimeError("no question is waiting for an answer")
        number = len(self.session.turns) + 1
        turn = TurnRecord(
            turn_number=number,
            question=question,
            answer=AnswerRecord(utterance_id=f"u{number:03d}", text=answer, received_at=now_iso()),
        )
        self._record_calls(list(answer_calls), turn.llm_calls)
        self.session.turns.append(turn)
        self.session.pending_question = None
        self.save()  # nothing typed is lost, whatever happens next
        return await self._process(turn, hooks)

    async def _process(self, turn: TurnRecord, hooks: Hooks) -> TurnResult:
        ctx = PipelineContext()
        settings = self.session.settings
        with ctx.timed("context_loading"):
            ctx.set(
                ContextLoadingOutput(
                    turn_number=turn.turn_number,
                    max_turns=settings.max_turns,
                    question_text=turn.question.text,
                    question_strategy=turn.question.strategy,
                    question_focus_id=turn.question.focus_node_id,
                    question_focus_label=turn.question.focus_label,
                    existing_labels=self.core.graph.recent_labels(30),
                    recent_questions=self.asked_questions[-6:],
                )
            )
        loading = ctx.get(ContextLoadingOutput)
        ctx.set(UtteranceSavingOutput(utterance_id=turn.answer.utterance_id, text=turn.answer.text))
        with ctx.timed("discourse"):
            ctx.set(self._discourse(turn.answer.text))

        hooks.on_stage("reading the answer")
        with ctx.timed("extract_assess"):
            extract_result, assess_result = await asyncio.gather(
                self.llm.extract(
                    ExtractRequest(
                        methodology=self.methodology,
                        concept=self.concept,
                        answer=turn.answer.text,
                        utterance_id=turn.answer.utterance_id,
                        question=loading.question_text,
                        strategy=loading.question_strategy,
                        focus_label=loading.question_focus_label,
                        focus_type=turn.question.focus_type,
                        existing_labels=loading.existing_labels,
                        **self._extraction_context(turn),
                        discourse_hints=ctx.get(DiscourseOutput).hints,
                        seed=settings.seed + turn.turn_number,
                    )
                ),
                self.llm.assess(
                    AssessRequest(
                        question=loading.question_text,
                        answer=turn.answer.text,
                        recent_answers=[t.answer.text for t in self.session.turns[-4:-1]],
                        seed=settings.seed + turn.turn_number,
                    )
                ),
            )
        calls = [*extract_result.calls, *assess_result.calls]
        ctx.set(
            ExtractionOutput(
                extraction=extract_result.value,
                assessment=assess_result.value,
                calls=calls,
                failures=[*extract_result.failures, *assess_result.failures],
            )
        )

        hooks.on_stage("updating the knowledge graph")
        with ctx.timed("core"):
            new_core, outcome = advance(
                self.core,
                methodology=self.methodology,
                concept=self.concept,
                extraction=extract_result.value,
                assessment=assess_result.value,
                utterance_id=turn.answer.utterance_id,
                max_turns=settings.max_turns,
                recent_questions=loading.recent_questions,
                policy=settings.policy,
                slots=self.canonical,
                embedder=self.embedder,
            )
        ctx.set(CoreOutput(outcome=outcome, state=new_core))
        decision = outcome.decision

        # Slot discovery overlaps question generation: no third sequential round trip.
        slots_task = self._start_slot_discovery(new_core, turn.turn_number)
        next_question: QuestionRecord | None = None
        try:
            if decision.continuation.should_continue:
                next_question = await self._generate_followup(ctx, turn, outcome, new_core, hooks)
            else:
                next_question = await self._generate_closing(ctx, turn, outcome, new_core, hooks)
        except BaseException:
            if slots_task is not None:
                slots_task.cancel()
            raise
        discovered = await slots_task if slots_task is not None else None

        self._complete_turn(turn, ctx, outcome, new_core, next_question, discovered)
        return TurnResult(
            turn=turn,
            next_question=next_question,
            finished=not decision.continuation.should_continue,
            outcome=outcome,
        )

    def _complete_turn(
        self,
        turn: TurnRecord,
        ctx: PipelineContext,
        outcome: TurnOutcome,
        new_core: CoreState,
        next_question: QuestionRecord | None,
        discovered: SlotDiscovery | None = None,
    ) -> None:
        extraction_out = ctx.get(ExtractionOutput)
        decision = outcome.decision
        turn.extraction = extraction_out.extraction
        turn.assessment = extraction_out.assessment
        turn.discourse_hints = list(ctx.get(DiscourseOutput).hints)
        turn.graph_delta = outcome.delta.model_dump(mode="json")
        turn.signals = dict(decision.global_signals)
        turn.node_signals = {k: dict(v) for k, v in decision.node_signals.items()}
        turn.candidates = [c.to_dict() for c in decision.candidates]
        turn.decision = DecisionRecord(
            strategy=decision.selected.strategy,
            node_id=decision.selected.node_id,
            label=decision.selected.label,
            phase=decision.phase,
            rationale=list(decision.rationale),
            veto_reasons=dict(decision.veto_reasons),
        )
        turn.continuation = ContinuationRecord(
            should_continue=decision.continuation.should_continue,
            reason=decision.continuation.reason or "",
            turns_remaining=decision.continuation.turns_remaining,
        )
        self._record_calls(extraction_out.calls, turn.llm_calls)
        turn.failures = list(extraction_out.failures)
        if ctx.has(QuestionGenerationOutput):
            generated = ctx.get(QuestionGenerationOutput)
            self._record_calls(generated.calls, turn.llm_calls)
            turn.failures += generated.failures
        turn.timings_ms = dict(ctx.timings_ms)
        if self.canonical is not None:
            self._apply_slots(turn, outcome, new_core, discovered)
        turn.status = "complete"

        self.core = new_core
        dumped = new_core.to_dict()
        self.session.graph = dumped["graph"]
        self.session.tracker = dumped["tracker"]
        self.session.state = dumped["state"]
        self.session.pending_question = next_question
        if not decision.continuation.should_continue:
            self.session.termination_reason = decision.continuation.reason or "stopped"
        self.save()

    # ---- discourse hints and canonical slots -----------------------------------------------
    def _discourse(self, answer: str) -> DiscourseOutput:
        """Stage 2.5: causal/temporal markers and predicate frames as extraction hints."""
        if not self.session.settings.enable_discourse_hints:
            return DiscourseOutput(skipped=True)
        hints = discourse_hints(answer, parser=self.frame_parser)
        return DiscourseOutput(skipped=False, hints=hints)

    def _start_slot_discovery(
        self, core: CoreState, turn_number: int
    ) -> asyncio.Future[SlotDiscovery] | None:
        if self.canonical is None:
            return None
        batches = pending_slot_batches(
            self.canonical, core.graph, tuning=self.methodology.tuning.canonical
        )
        if not batches:
            return None
        return asyncio.ensure_future(self._discover_slots(batches, turn_number))

    async def _discover_slots(self, batches: list[SlotBatch], turn_number: int) -> SlotDiscovery:
        """One ``propose_slots`` call for all of the turn's batches (a group each); its
        proposals go back to the batch holding their labels. Slots are optional: a failing
        call marks every batch failed (those nodes are asked about again next turn), never
        the turn."""
        start = time.perf_counter()
        request = SlotRequest(
            groups=[
                SlotGroup(
                    node_type=b.node_type,
                    labels=list(b.labels),
                    existing_slots=list(b.existing_slots),
                )
                for b in batches
            ],
            seed=self.session.settings.seed + turn_number,
        )
        calls: list[LLMCall] = []
        failures: list[str] = []
        try:
            result = await self.llm.propose_slots(request)
        except Exception as exc:  # LLMError after retries, or a provider bug: skip slots
            error = f"propose_slots failed: {type(exc).__name__}: {exc}"[:300]
            failed = [b.model_copy(update={"failed": True, "error": error}) for b in batches]
            return failed, [], [error], round((time.perf_counter() - start) * 1000, 2)
        calls, failures = list(result.calls), list(result.failures)
        done = split_proposals(batches, result.value.proposals)
        if failures and not any(b.proposals for b in done):
            # An unusable response was replaced by an empty one: ask again next turn.
            error = "; ".join(failures)[:300]
            done = [b.model_copy(update={"failed": True, "error": error}) for b in done]
        elapsed = round((time.perf_counter() - start) * 1000, 2)
        return done, calls, failures, elapsed

    def _apply_slots(
        self,
        turn: TurnRecord,
        outcome: TurnOutcome,
        core: CoreState,
        discovered: SlotDiscovery | None,
    ) -> None:
        """End of turn: fold the recorded proposals into the canonical state (every turn, so
        canonical edges follow the surface graph even when no node is new)."""
        assert self.canonical is not None
        batches, calls, failures, elapsed = discovered or ([], [], [], 0.0)
        canonical, record = apply_slot_proposals(
            self.canonical,
            batches,
            graph=core.graph,
            turn=outcome.turn_number,
            tuning=self.methodology.tuning.canonical,
            embedder=self.embedder,
        )
        turn.slot_proposals = [b.model_dump(mode="json") for b in batches]
        turn.slot_discovery = record.model_dump(mode="json")
        self._record_calls(calls, turn.llm_calls)
        turn.failures += failures
        if discovered is not None:
            turn.timings_ms["slot_discovery"] = elapsed
        self.canonical = canonical
        self.session.canonical = canonical.to_dict()

    def _extraction_context(self, turn: TurnRecord) -> dict[str, Any]:
        """The earlier concepts chosen by relevance, and the exchange before this one."""
        before = self.session.turns[-2] if len(self.session.turns) > 1 else None
        return {
            "existing_nodes": extraction_nodes(
                self.core.graph, self.methodology, turn.question.focus_node_id, turn.answer.text
            ),
            "previous_question": before.question.text if before else "",
            "previous_answer": before.answer.text if before else "",
        }

    # ---- question generation -------------------------------------------------------------
    def _question_request(
        self,
        turn: TurnRecord,
        outcome: TurnOutcome,
        core: CoreState,
        strategy: StrategySpec,
        *,
        closing: bool,
    ) -> QuestionRequest:
        decision = outcome.decision
        focus_id = decision.selected.node_id if not closing else None
        focus_type = None
        if focus_id is not None and focus_id in core.graph:
            focus_type = core.graph.node(focus_id).node_type
        selected = next((c for c in decision.candidates if c.selected), None)
        notes: list[SignalNote] = []
        if selected is not None:
            from interview_cli.config.signal_catalogue import resolve_weight_key

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
        recent = [
            Exchange(question=t.question.text, answer=t.answer.text)
            for t in self.session.turns[-RECENT_EXCHANGES:]
        ]
        question_window = self.methodology.tuning.vetoes.question_history
        return QuestionRequest(
            methodology=self.methodology,
            concept=self.concept,
            strategy=strategy,
            focus_label=decision.selected.label if not closing else None,
            focus_type=focus_type,
            summary_labels=core.graph.recent_labels(8),
            recent=recent,
            active_signals=notes,
            rationale=list(decision.rationale),
            # The same window the repeat check below uses: a generator that sees only part of
            # it can land on an older question that the check then rejects.
            avoid_questions=self.asked_questions[-question_window:],
            depth=outcome.graph_state.max_depth,
            language=self.session.settings.language or self.concept.language,
            closing=closing,
            turn_number=turn.turn_number + 1,
            seed=self.session.settings.seed + turn.turn_number,
            **question_context(core, self.methodology, focus_id, self.session.turns),
        )

    async def _ask(
        self, ctx: PipelineContext, request: QuestionRequest, record: QuestionRecord, hooks: Hooks
    ) -> QuestionRecord:
        tuning = self.methodology.tuning.vetoes
        calls: list[LLMCall] = []
        failures: list[str] = []
        recent = self.asked_questions[-tuning.question_history :]
        text, similarity = "", 0.0
        with ctx.timed("question_generation"):
            for attempt in range(QUESTION_ATTEMPTS):
                if hooks.on_question_start:
                    hooks.on_question_start(record)
                result = await self.llm.generate_question(request, on_token=hooks.on_token)
                calls += result.calls
                failures += result.failures
                text = result.value.strip()
                similarity, similar = most_similar_recent(
                    text, recent, limit=tuning.question_history
                )
                if (
                    similarity < tuning.question_similarity_threshold
                    or attempt == QUESTION_ATTEMPTS - 1
                ):
                    break
                # Too close to a recent question (seed 000 "Question Deduplication"): ask again.
                # That question is already in the list not to repeat; the rejected draft is
                # added to it, so the next attempt does not come back with the same words.
                hooks.on_stage("rephrasing to avoid repeating a question")
                request = request.model_copy(
                    update={
                        "avoid_questions": [*request.avoid_questions, text],
                        "seed": request.seed + 7919,
                    }
                )
        ctx.set(
            QuestionGenerationOutput(
                text=text,
                kind=record.kind,
                calls=calls,
                failures=failures,
                similarity_to_recent=round(similarity, 4),
            )
        )
        record.text = text
        record.asked_at = now_iso()
        return record

    async def _generate_followup(
        self,
        ctx: PipelineContext,
        turn: TurnRecord,
        outcome: TurnOutcome,
        core: CoreState,
        hooks: Hooks,
    ) -> QuestionRecord:
        decision = outcome.decision
        strategy = self.methodology.strategy(decision.selected.strategy)
        assert strategy is not None
        hooks.on_stage(f"writing the next question ({strategy.name})")
        request = self._question_request(turn, outcome, core, strategy, closing=False)
        record = QuestionRecord(
            text="",
            kind="follow_up",
            strategy=strategy.name,
            focus_node_id=decision.selected.node_id,
            focus_label=decision.selected.label,
            focus_type=request.focus_type,
        )
        return await self._ask(ctx, request, record, hooks)

    def closing_strategy(self) -> StrategySpec:
        closing = [s for s in self.methodology.strategies if s.generates_closing_question]
        if closing:
            return closing[0]
        return StrategySpec(
            name="close",
            description="Thank the respondent and invite any last thought.",
            node_binding="none",
            focus_mode="summary",
            generates_closing_question=True,
        )

    async def _generate_closing(
        self,
        ctx: PipelineContext,
        turn: TurnRecord,
        outcome: TurnOutcome,
        core: CoreState,
        hooks: Hooks,
    ) -> QuestionRecord:
        strategy = self.closing_strategy()
        hooks.on_stage("writing the closing question")
        request = self._question_request(turn, outcome, core, strategy, closing=True)
        record = QuestionRecord(text="", kind="closing", strategy=strategy.name)
        return await self._ask(ctx, request, record, hooks)

    # ---- closing -------------------------------------------------------------------------
    def learned_summary(self, limit: int = 4) -> str:
        """What was learned, as the respondent's own chains (no model call, so it is exact)."""
        return learned_summary(self.core.graph, self.methodology, limit)

    def record_closing_answer(self, answer: str, *, answer_calls: Sequence[LLMCall] = ()) -> None:
        """The answer to the closing question (and, like ``submit``, the calls behind it)."""
        for call in answer_calls:
            self.session.usage.add(call)
        question = self.session.pending_question
        closing = self.session.closing or ClosingRecord()
        closing.question = question.text if question else closing.question
        closing.comment = answer
        closing.summary = self.learned_summary()
        self.session.closing = closing
        self.session.pending_question = None
        self.save()

    def record_rating(self, rating: int | None) -> None:
        closing = self.session.closing or ClosingRecord(summary=self.learned_summary())
        closing.rating = rating
        self.session.closing = closing
        self.save()

    def complete(self, reason: str | None = None) -> None:
        if reason is not None or not self.session.termination_reason:
            self.session.termination_reason = reason or "completed"
        self.session.pending_question = None
        self.set_status("completed")

    def stats(self) -> dict[str, Any]:
        from interview_cli.core.state import compute_graph_state

        state = compute_graph_state(self.core.graph, self.methodology, self.core.turn_count)
        ontology = self.methodology.ontology
        lowest = min(n.level for n in ontology.nodes)
        concrete = sum(
            state.nodes_by_type.get(n.name, 0) for n in ontology.nodes if n.level == lowest
        )
        stats: dict[str, Any] = {
            "nodes": state.node_count,
            "edges": state.edge_count,
            "max_depth": state.max_depth,
            # Most-concrete nodes from which a terminal one is reached along chain relations.
            "chains_completed": round(state.chain_completion_ratio * concrete),
            "chain_completion_ratio": state.chain_completion_ratio,
        }
        if self.canonical is not None:
            canonical = canonical_graph_state(self.canonical)
            stats["canonical_slots"] = canonical.concept_count + canonical.candidate_count
            stats["active_slots"] = canonical.concept_count
        return stats


def empty_extraction() -> Extraction:
    return Extraction(extractable=False, reason="not processed")


def neutral_assessment() -> Assessment:
    return Assessment.neutral()
