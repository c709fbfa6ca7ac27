"""The prompts of a session, turn by turn, exactly as the model is (or would be) sent them.

``RecordingLLM`` wraps any ``InterviewLLM`` and renders every request it passes on with the
same ``render_*`` function and the same answer bounds a remote provider uses, so what it
records is the system and user text of the request. ``session_prompts`` re-drives a recorded
session through the real pipeline with a ``ReplayedLLM`` that returns what the session
recorded (extractions, assessments, slot proposals, the questions asked), so the core makes
the same decisions and the recorder sees the requests each turn made, the closing answer's
(the turn after the last) included. Nothing is written: the
re-driven session has no store.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interview_cli.config.schemas import Concept, Methodology, Persona
from interview_cli.core.models import Assessment, Extraction
from interview_cli.llm.boundary import bound_request
from interview_cli.llm.prompts import (
    Prompt,
    render_assess,
    render_extract,
    render_opening,
    render_persona,
    render_question,
    render_slots,
)
from interview_cli.llm.protocol import (
    AssessRequest,
    Exchange,
    ExtractRequest,
    InterviewLLM,
    OnToken,
    OpeningRequest,
    PersonaRequest,
    QuestionRequest,
    SlotProposal,
    SlotProposals,
    SlotRequest,
    TaskResult,
)
from interview_cli.pipeline.inputs import parse_snapshot
from interview_cli.session.schema import SessionFile, TurnRecord

TASKS: tuple[str, ...] = (
    "generate_opening",
    "extract",
    "assess",
    "propose_slots",
    "generate_question",
    "respond_as_persona",
)
TaskRequest = (
    ExtractRequest | AssessRequest | OpeningRequest | QuestionRequest | SlotRequest | PersonaRequest
)
RENDER: dict[str, Callable[[Any], Prompt]] = {
    "extract": render_extract,
    "assess": render_assess,
    "generate_opening": render_opening,
    "generate_question": render_question,
    "propose_slots": render_slots,
    "respond_as_persona": render_persona,
}


@dataclass(frozen=True)
class RecordedPrompt:
    """One request as rendered: the turn it belongs to, its task and the prompt."""

    turn: int
    task: str
    prompt: Prompt
    request: TaskRequest | None = None

    def messages(self) -> list[dict[str, str]]:
        return [
            {"role": "system", "content": self.prompt.system},
            {"role": "user", "content": self.prompt.user},
        ]


@dataclass
class RecordingLLM:
    """``InterviewLLM`` that records the prompt of every request, then asks ``inner``.

    ``turn``: the turn the requests belong to, set by the caller (the opening and the
    respondent's answer belong to the turn they are asked or given in; extraction,
    assessment, slots and the next question to the turn whose answer they process)."""

    inner: InterviewLLM
    turn: int = 1
    records: list[RecordedPrompt] = field(default_factory=list)
    provider_label: str = ""

    def __post_init__(self) -> None:
        self.provider_label = self.inner.provider_label

    def _record(self, task: str, request: TaskRequest) -> None:
        bounded = bound_request(request)
        self.records.append(RecordedPrompt(self.turn, task, RENDER[task](bounded), bounded))

    async def extract(self, request: ExtractRequest) -> TaskResult[Extraction]:
        self._record("extract", request)
        return await self.inner.extract(request)

    async def assess(self, request: AssessRequest) -> TaskResult[Assessment]:
        self._record("assess", request)
        return await self.inner.assess(request)

    async def generate_opening(
        self, request: OpeningRequest, on_token: OnToken | None = None
    ) -> TaskResult[str]:
        self._record("generate_opening", request)
        return await self.inner.generate_opening(request, on_token)

    async def generate_question(
        self, request: QuestionRequest, on_token: OnToken | None = None
    ) -> TaskResult[str]:
        self._record("generate_question", request)
        return await self.inner.generate_question(request, on_token)

    async def propose_slots(self, request: SlotRequest) -> TaskResult[SlotProposals]:
        self._record("propose_slots", request)
        return await self.inner.propose_slots(request)

    async def respond_as_persona(self, request: PersonaRequest) -> TaskResult[str]:
        self._record("respond_as_persona", request)
        return await self.inner.respond_as_persona(request)


class ReplayedLLM:
    """``InterviewLLM`` that answers with what a recorded session recorded."""

    provider_label = "recorded"

    def __init__(self, session: SessionFile) -> None:
        self.session = session
        self.turns = {t.turn_number: t for t in session.turns}

    def _turn(self, utterance_id: str) -> TurnRecord | None:
        return self.turns.get(int(utterance_id.lstrip("u") or 0))

    async def extract(self, request: ExtractRequest) -> TaskResult[Extraction]:
        closing = self.session.closing
        if closing is not None and closing.utterance_id == request.utterance_id:
            return TaskResult[Extraction](value=closing.extraction or Extraction())
        turn = self._turn(request.utterance_id)
        value = turn.extraction if turn is not None and turn.extraction else None
        return TaskResult[Extraction](value=value or Extraction(extractable=False))

    async def assess(self, request: AssessRequest) -> TaskResult[Assessment]:
        recorded = [t.assessment for t in self.session.turns if t.answer.text == request.answer]
        value = next((a for a in recorded if a is not None), None)
        return TaskResult[Assessment](value=value or Assessment.neutral())

    async def generate_opening(
        self, request: OpeningRequest, on_token: OnToken | None = None
    ) -> TaskResult[str]:
        first = self.turns.get(1)
        return TaskResult[str](value=first.question.text if first else "")

    async def generate_question(
        self, request: QuestionRequest, on_token: OnToken | None = None
    ) -> TaskResult[str]:
        turn = self.turns.get(request.turn_number)
        if turn is not None:
            return TaskResult[str](value=turn.question.text)
        closing = self.session.closing.question if self.session.closing else ""
        pending = self.session.pending_question.text if self.session.pending_question else ""
        return TaskResult[str](value=closing or pending)

    async def propose_slots(self, request: SlotRequest) -> TaskResult[SlotProposals]:
        """The proposals recorded for the batches these groups were made from."""
        proposals: list[SlotProposal] = []
        for group in request.all_groups():
            batch = self._slot_batch(group.node_type, group.labels)
            proposals += [SlotProposal.model_validate(p) for p in batch.get("proposals", [])]
        return TaskResult[SlotProposals](value=SlotProposals(proposals=proposals))

    def _slot_batch(self, node_type: str, labels: list[str]) -> dict[str, Any]:
        closing = self.session.closing
        recorded = [t.slot_proposals for t in self.session.turns]
        recorded.append(closing.slot_proposals or [] if closing is not None else [])
        for batches in recorded:
            for batch in batches:
                if batch.get("node_type") == node_type and list(batch.get("labels", [])) == labels:
                    return batch
        return {}

    async def respond_as_persona(self, request: PersonaRequest) -> TaskResult[str]:
        turn = self.turns.get(request.turn_number)
        return TaskResult[str](value=turn.answer.text if turn else "")


def fresh_copy(session: SessionFile) -> SessionFile:
    """The session as it was before its first question: same snapshots and settings."""
    return session.model_copy(
        update={
            "status": "active",
            "termination_reason": None,
            "pending_question": None,
            "turns": [],
            "graph": {},
            "canonical": {},
            "tracker": {},
            "state": {},
            "opening_calls": [],
            "closing": None,
            "errors": [],
        },
        deep=True,
    )


async def session_prompts(
    session: SessionFile, *, upto_turn: int, methodology: Methodology | None = None
) -> list[RecordedPrompt]:
    """The prompts of turns 1 to ``upto_turn`` of a recorded session, re-driven offline.
    ``methodology``: the one the session ran with, when not its own snapshot (tests)."""
    from interview_cli.pipeline.runner import Interview

    recorder = RecordingLLM(ReplayedLLM(session))
    interview = Interview(fresh_copy(session), store=None, llm=recorder, methodology=methodology)
    await interview.ensure_question()
    for turn in session.turns[:upto_turn]:
        if interview.finished or interview.session.pending_question is None:
            break
        recorder.turn = turn.turn_number
        await interview.submit(turn.answer.text)
    closing = session.closing
    last = len(session.turns)
    if upto_turn > last and closing is not None and closing.comment.strip():
        if interview.session.pending_question is not None:
            recorder.turn = last + 1
            await interview.record_closing_answer(closing.comment)
    await interview.settle_slots()
    return [r for r in recorder.records if r.turn <= upto_turn]


def persona_prompt(
    session: SessionFile, persona: Persona, methodology: Methodology, turn: int
) -> RecordedPrompt | None:
    """What a model playing ``persona`` is sent to answer the question of ``turn``: the topic,
    the question and the conversation before it (as
    ``simulation.respondents.respondent.LLMRespondent`` sends it: no strategy, no focus). None
    when the session has no such turn."""
    turns = {t.turn_number: t for t in session.turns}
    if turn not in turns:
        return None
    request = PersonaRequest(
        persona=persona,
        question=turns[turn].question.text,
        history=[
            Exchange(question=t.question.text, answer=t.answer.text)
            for t in session.turns
            if t.turn_number < turn
        ],
        concept=parse_snapshot(session.concept.source, Concept, "concept", session.id),
        methodology=methodology,
        turn_number=turn,
        seed=session.settings.seed,
    )
    bounded = bound_request(request)
    return RecordedPrompt(turn, "respond_as_persona", render_persona(bounded), bounded)
