"""The live turn: the only place where the pure core meets the LLM layer and the disk.

Seed 001 "The Turn Pipeline", in our shape (ARCHITECTURE "The turn"):

    1 context loading   what the session knows: turn number, question asked, labels, history
    2 utterance saving  the answer is written to disk BEFORE any model call
    2.5 discourse       optional hints for extraction (feature flag; skipped when off)
    3 extract ∥ assess  two model calls run concurrently: one round trip on the critical path
    4-7 core            graph update → tracker → state → signals → scoring → continuation
                        (``core.turn.decide_turn``: pure, the same code replay runs)
    8 question          the next question, streamed, de-duplicated against recent questions
                        (``questions``)
      ∥ 4.5 slots       canonical slot proposals for this turn's new nodes (feature flag,
                        ``slots``), started with 8; applied to the turn by the pure core
                        (``DecidedTurn.settle``)
    9-10 persistence    the whole turn record and the new state in one atomic write

So a turn has two model round trips on its critical path (3, then 8). Slot discovery is not on
it at all: its mappings inform the NEXT turn's scoring, so a call still running when the
question is ready is not waited for. The turn is saved with the call's batches unanswered and
the respondent gets the prompt; the answer is settled into that turn (record and canonical
state, saved again) before the next decision reads it, or before the closing, a moderator's
/alt or /skip, or the end; a pause drops it (those labels are asked about next turn). The
recorded proposals let replay apply them at the same point. A crash or Ctrl-C at any point
leaves the session file valid: without the answer (before 2), with the answer in an
``answered`` turn that ``resume`` processes again, or with the complete turn.

This module does the I/O only: model calls, saves, screen events. What a turn decides is
``core.turn``'s; how a session maps onto its input, ``inputs``'s; what a turn record keeps,
``record``'s; the opening and the closing, ``questions``' and ``closing``'s.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.core.canonical.slots import CanonicalState, SlotBatch
from interview_cli.core.discourse import FrameParser
from interview_cli.core.graph.dedup import Embedder
from interview_cli.core.turn import (
    CoreState,
    DecidedTurn,
    TurnInput,
    TurnOutcome,
    closing_slot_batches,
    decide_turn,
)
from interview_cli.llm.protocol import InterviewLLM, LLMCall
from interview_cli.pipeline import closing as closing_
from interview_cli.pipeline.closing import ENDED_BY_MODERATOR
from interview_cli.pipeline.context import (
    PipelineContext,
)
from interview_cli.pipeline.inputs import (
    keep_state,
    parse_snapshot,
    position,
    recorded_methodology,
    saved_state,
    turn_input,
)
from interview_cli.pipeline.questions import Hooks, opening_question
from interview_cli.pipeline.questions import next_question as next_question_
from interview_cli.pipeline.reading import (
    EXISTING_LABELS,
    extraction_context,
    read_answer,
)
from interview_cli.pipeline.record import answered_turn, record_slots, record_turn
from interview_cli.pipeline.safety import apply_safety, safety_record
from interview_cli.pipeline.slots import (
    PendingSlots,
    SlotDiscovery,
    existing_slots,
    provisional,
    start_slot_discovery,
)
from interview_cli.pipeline.summary import CheckBack, learned_summary, said_as
from interview_cli.session.schema import QuestionRecord, SessionFile, TurnRecord
from interview_cli.session.store import SessionStore

__all__ = ["ENDED_BY_MODERATOR", "Hooks", "Interview", "TurnResult", "parse_snapshot"]


@dataclass
class TurnResult:
    turn: TurnRecord
    next_question: QuestionRecord | None
    finished: bool
    outcome: TurnOutcome | None = field(default=None, repr=False)


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
        self.methodology = methodology or recorded_methodology(
            session.methodology, "methodology", session.id
        )
        self.concept = concept or parse_snapshot(
            session.concept.source, Concept, "concept", session.id
        )
        self.core = saved_state(session, self.concept)
        # The state before the last turn and its input, for a moderator who overrules its
        # decision (``pipeline.moderator``); None until a turn ran (rebuilt on demand).
        self.before_last: tuple[CoreState, TurnInput] | None = None
        # The last turn's slot call, while it runs after the turn was saved.
        self.pending_slots: PendingSlots | None = None

    # ---- state ---------------------------------------------------------------------------
    @property
    def canonical(self) -> CanonicalState | None:
        """The canonical half of the dual graph; None when canonical slots are off."""
        return self.core.canonical

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

    def record_calls(self, calls: Sequence[LLMCall], into: list[LLMCall]) -> None:
        for call in calls:
            into.append(call)
            self.session.usage.add(call)

    # ---- opening and recovery ------------------------------------------------------------
    async def ensure_question(self, hooks: Hooks | None = None) -> QuestionRecord | None:
        """The question awaiting an answer, after recovering an interrupted turn and
        generating the opening question of a new session."""
        hooks = hooks or Hooks()
        if self.session.turns and self.session.turns[-1].status == "answered":
            hooks.on_stage("finishing the interrupted turn")
            await self._process(self.session.turns[-1], hooks)
        if self.closing_unread:
            hooks.on_stage("reading the interrupted closing answer")
            await self._read_closing()
        if self.session.pending_question is None and not self.session.turns and not self.finished:
            await self._open(hooks)
        return self.session.pending_question

    async def _open(self, hooks: Hooks) -> None:
        record, calls = await opening_question(
            self.llm, self.session, self.methodology, self.concept, hooks
        )
        self.record_calls(calls, self.session.opening_calls)
        self.session.pending_question = record
        self.save()

    # ---- a turn --------------------------------------------------------------------------
    async def submit(
        self,
        answer: str,
        hooks: Hooks | None = None,
        *,
        answer_calls: Sequence[LLMCall] = (),
        declined: bool = False,
    ) -> TurnResult:
        """Record ``answer`` to the pending question (on disk first), then process it.

        ``answer_calls``: the model calls that produced the answer (a simulated respondent's),
        recorded with the turn in that same first write, so a crash cannot separate them.
        ``declined``: the respondent's ``/pass`` (``answer`` is then empty).
        """
        turn = self.record_answer(answer, answer_calls=answer_calls, declined=declined)
        return await self._process(turn, hooks or Hooks())

    def record_answer(
        self, answer: str, *, answer_calls: Sequence[LLMCall] = (), declined: bool = False
    ) -> TurnRecord:
        """The first step of ``submit`` on its own: the answer, on disk, as an answered turn
        (which a resume processes). Also for an interruption that came before ``submit`` ran."""
        question = self.session.pending_question
        if question is None:
            raise RuntimeError("no question is waiting for an answer")
        turn = answered_turn(len(self.session.turns) + 1, question, answer, declined=declined)
        self.record_calls(answer_calls, turn.llm_calls)
        self.session.turns.append(turn)
        self.session.pending_question = None
        self.save()  # nothing typed is lost, whatever happens next
        return turn

    async def _process(self, turn: TurnRecord, hooks: Hooks) -> TurnResult:
        ctx = PipelineContext()
        read = await read_answer(
            self.llm,
            self.session,
            turn,
            methodology=self.methodology,
            concept=self.concept,
            existing_labels=self.core.graph.recent_labels(EXISTING_LABELS),
            frame_parser=self.frame_parser,
            ctx=ctx,
            hooks=hooks,
            extraction_context=extraction_context(
                self.session, turn, self.core.graph, self.methodology
            ),
        )
        # The last turn's slots, before this decision reads the canonical graph.
        await self.settle_slots()
        hooks.on_stage("updating the knowledge graph")
        with ctx.timed("core"):
            inputs = turn_input(
                self.session,
                position(self.session, turn),
                methodology=self.methodology,
                concept=self.concept,
                extraction=read.extraction,
                assessment=read.assessment,
            )
            self.before_last = (self.core, inputs)
            decided = decide_turn(self.core, inputs, embedder=self.embedder)

        # Slot discovery starts with question generation and is not waited for after it.
        seed = self.session.settings.seed + turn.turn_number
        batches = decided.slot_batches()
        known = existing_slots(decided.state.canonical, decided.state.graph)
        slots_task = start_slot_discovery(self.llm, batches, seed, known)
        try:
            next_question = await next_question_(
                self.llm, self.session, turn, decided, concept=self.concept, ctx=ctx, hooks=hooks
            )
        except BaseException:
            if slots_task is not None:
                # Cancelled and waited for, so a call in flight (the spend cap stopped the
                # question, or Ctrl-C) closes its connection now, not at garbage collection.
                slots_task.cancel()
                await asyncio.wait([slots_task])
            raise

        def settle(discovered: SlotDiscovery) -> None:
            core, outcome = decided.settle(discovered.batches)
            record_slots(turn, outcome, discovered, self.record_calls)
            self.keep(core)

        discovered = await self._returned(slots_task, batches, settle)
        outcome = self._complete_turn(turn, ctx, decided, next_question, discovered)
        finished = not outcome.should_continue or self.finished
        return TurnResult(turn, self.session.pending_question, finished, outcome)

    async def _returned(
        self,
        task: asyncio.Future[SlotDiscovery] | None,
        batches: Sequence[SlotBatch],
        settle: Callable[[SlotDiscovery], None],
    ) -> SlotDiscovery:
        """The slot call's answer when it is back (or there was none), else the provisional
        one, with ``settle`` kept to take the answer when it comes (``settle_slots``)."""
        if task is None:
            return SlotDiscovery()
        await asyncio.sleep(0)  # a call with nothing to wait for (offline) ends here
        if task.done():
            return task.result()
        self.pending_slots = PendingSlots(task, settle)
        return provisional(batches)

    async def settle_slots(self) -> None:
        """The slot call of the last turn (or of the closing), once it returns, into that
        record and the canonical state (saved); nothing when no call is pending."""
        pending, self.pending_slots = self.pending_slots, None
        if pending is None:
            return
        pending.settle(await pending.task)
        self.save()

    async def drop_pending_slots(self) -> None:
        """Stop waiting for the last turn's slot call (a pause): the turn keeps its batches
        unanswered, so their labels are asked about on the next turn. The call is cancelled
        and waited for, so that its connection is closed before the clients are."""
        pending, self.pending_slots = self.pending_slots, None
        if pending is not None:
            pending.task.cancel()
            await asyncio.wait([pending.task])

    def _complete_turn(
        self,
        turn: TurnRecord,
        ctx: PipelineContext,
        decided: DecidedTurn,
        next_question: QuestionRecord | None,
        discovered: SlotDiscovery,
    ) -> TurnOutcome:
        """Settle the turn (the slot step), record it whole, and save: stages 9-10."""
        core, outcome = decided.settle(discovered.batches)
        record_turn(turn, ctx, outcome, discovered, self.record_calls)
        turn.status = "complete"
        turn.safety = safety_record(outcome.safety)
        self.keep(core)
        self.session.pending_question = next_question
        if outcome.termination_reason is not None:
            self.session.termination_reason = outcome.termination_reason
        if turn.safety is not None:
            apply_safety(self.session, turn.safety)
        self.save()
        return outcome

    def keep(self, core: CoreState) -> None:
        self.core = core
        keep_state(self.session, core)

    # ---- closing -------------------------------------------------------------------------
    def learned_summary(self) -> str:
        """What was learned, as the respondent's own chains (no model call, so it is exact);
        after the closing answer was read, as that answer left it (``CheckBack``)."""
        closing = self.session.closing
        checked = None
        if closing is not None and closing.extraction is not None and closing.comment.strip():
            checked = CheckBack(closing.question, closing.comment, len(self.session.turns) + 1)
        answers = [t.answer.text for t in self.session.turns]
        if closing is not None and closing.comment.strip():
            answers.append(closing.comment)
        say = said_as(answers)
        order = [element.id for element in self.concept.elements]
        return learned_summary(
            self.core.graph, self.methodology, checked=checked, say=say, order=order
        )

    async def record_closing_answer(
        self, answer: str, *, answer_calls: Sequence[LLMCall] = ()
    ) -> None:
        """The answer to the closing question (and, like ``submit``, the calls behind it),
        saved first, then read into the graph: corrections and additions at the close count
        (``core.turn.take_closing_answer``)."""
        closing_.record_closing_answer(self.session, answer, self.learned_summary(), answer_calls)
        self.save()  # nothing typed is lost, whatever happens next
        await self.settle_slots()
        if answer.strip():
            await self._read_closing()

    @property
    def closing_unread(self) -> bool:
        """A closing answer saved but not yet read into the graph (an interruption came
        between the two; ``ensure_question`` reads it on resume)."""
        closing = self.session.closing
        return (
            closing is not None
            and bool(closing.comment.strip())
            and bool(closing.utterance_id)
            and closing.extraction is None
            and self.session.status != "completed"
        )

    async def _read_closing(self) -> None:
        """The closing answer into the graph, then what it added into slots (the call is not
        waited for: ``settle_slots``); the closing keeps the summary it now makes."""
        read = await closing_.read_into_graph(
            self.llm,
            self.session,
            self.core,
            methodology=self.methodology,
            concept=self.concept,
            embedder=self.embedder,
        )
        self.keep(read)
        batches = closing_slot_batches(read, self.methodology)
        seed = self.session.settings.seed + len(self.session.turns) + 1
        known = existing_slots(read.canonical, read.graph)
        task = start_slot_discovery(self.llm, batches, seed, known)

        def settle(discovered: SlotDiscovery) -> None:
            self.keep(
                closing_.closing_slots(
                    self.session,
                    read,
                    discovered,
                    methodology=self.methodology,
                    embedder=self.embedder,
                )
            )

        settle(await self._returned(task, batches, settle))
        assert self.session.closing is not None
        self.session.closing.summary = self.learned_summary()
        self.save()

    def record_rating(self, rating: int | None, *, summary: str | None = None) -> None:
        """The rating of ``summary``, the summary the respondent was shown (default: what
        was learned, as it stands)."""
        shown = self.learned_summary() if summary is None else summary
        closing_.record_rating(self.session, rating, shown)
        self.save()

    def complete(self, reason: str | None = None) -> None:
        if reason is not None or not self.session.termination_reason:
            self.session.termination_reason = reason or "completed"
        self.session.pending_question = None
        self.set_status("completed")

    def stats(self) -> dict[str, int | float]:
        return closing_.interview_stats(self.core, self.methodology)
