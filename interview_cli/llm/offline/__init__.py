"""The ``offline`` provider: every LLM task by deterministic heuristics, no key, no network.

ARCHITECTURE principle 5: the tool, its tests and its demos run anywhere, with no key.
Each task is a pure function of its request (and the request's seed where wording varies):

- ``extract``: cue-word clause splitting typed by the methodology's ontology
  (``reading.extraction``)
- ``assess``: rubric scores from length, hedges, specifics and don't-know phrases
  (``reading.assessor``)
- ``generate_opening`` / ``generate_question``: per-strategy templates, streamed in chunks
  (``asking.questions``, after the few words the last answer wants owned first,
  ``asking.acknowledgements``; journeys and grids: ``shapes``)
- ``propose_slots``: labels grouped by what they mean (``reading.slots``)

It reads and asks; it does not play a respondent. ``respond_as_persona`` raises ``LLMError``:
the offline respondent is ``simulation.respondents.SimulatedRespondent`` (``--respondent-provider
offline``), one seeded simulator reached one way.

Every result carries one ``LLMCall`` labelled provider ``offline``, model ``heuristic-v1``,
cost 0 and tokens estimated as ``len(text) // 4`` from the prompt a real provider would have
been sent (so a batch's cost estimate sees realistic volumes). Latency is recorded as 0 so
that two runs with the same seed write identical session files.
"""

from __future__ import annotations

import asyncio
import json

from interview_cli.core.models import Assessment, Extraction
from interview_cli.errors import LLMError
from interview_cli.llm.client_settings import OFFLINE_MODEL
from interview_cli.llm.offline.asking.questions import offline_opening, offline_question
from interview_cli.llm.offline.reading.assessor import assess_offline
from interview_cli.llm.offline.reading.extraction import extract_offline
from interview_cli.llm.offline.reading.slots import propose_slots_offline
from interview_cli.llm.offline.sayable import doubting_the_unsayable
from interview_cli.llm.offline.shapes.dispatch import (
    shaped_extract,
    shaped_opening,
    shaped_question,
)
from interview_cli.llm.prompts import (
    Prompt,
    render_assess,
    render_extract,
    render_opening,
    render_question,
    render_slots,
)
from interview_cli.llm.protocol import (
    AssessRequest,
    ExtractRequest,
    LLMCall,
    OnToken,
    OpeningRequest,
    PersonaRequest,
    QuestionRequest,
    SlotProposals,
    SlotRequest,
    TaskResult,
)

PROVIDER = "offline"
# One name for the offline model everywhere: the session's settings record the same one.
MODEL = OFFLINE_MODEL
STREAM_CHUNKS = 4


def estimate_tokens(text: str) -> int:
    """The usual rule of thumb for English: about four characters per token."""
    return len(text) // 4


def _unread(exc: Exception) -> tuple[Extraction, list[str]]:
    """An answer the offline reader failed on, kept unread: the interview goes on and the
    turn's failures say why, as they do for a provider's unusable reply (a tester's session
    had stopped for good at "it doesnt bother me?? ..." and could not be resumed, since
    resuming reads the same answer again)."""
    reason = f"the offline reader failed on this answer ({type(exc).__name__}: {exc})"
    return Extraction(extractable=False, reason=reason), [reason]


def _call(task: str, prompt: Prompt, output: str) -> LLMCall:
    return LLMCall(
        task=task,
        provider=PROVIDER,
        model=MODEL,
        input_tokens=estimate_tokens(prompt.text),
        output_tokens=estimate_tokens(output),
        latency_ms=0.0,
        attempts=1,
        cost_usd=0.0,
    )


def chunks(text: str, parts: int = STREAM_CHUNKS) -> list[str]:
    """Split text into up to ``parts`` pieces at word boundaries (they join back exactly)."""
    words = text.split(" ")
    size = max(1, -(-len(words) // parts))
    pieces = [" ".join(words[i : i + size]) for i in range(0, len(words), size)]
    return [p + " " for p in pieces[:-1]] + pieces[-1:]


async def _stream(text: str, on_token: OnToken | None) -> None:
    if on_token is None:
        return
    for piece in chunks(text):
        on_token(piece)
        await asyncio.sleep(0)  # let the UI redraw between chunks, as a real stream would


class OfflineLLM:
    """``InterviewLLM`` by heuristics. Same seed and inputs, same outputs."""

    provider_label = PROVIDER
    needs_key = False
    can_stream = True

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def __repr__(self) -> str:
        return f"OfflineLLM(seed={self.seed})"

    def _seed(self, request_seed: int) -> int:
        # The request's seed varies by session and turn; the provider's by configuration.
        return request_seed * 1_000_003 + self.seed

    async def extract(self, request: ExtractRequest) -> TaskResult[Extraction]:
        failures: list[str] = []
        try:
            value = shaped_extract(request) or doubting_the_unsayable(
                extract_offline(request), request.answer
            )
        except Exception as exc:  # a reader bug must not end a live interview: see below
            value, failures = _unread(exc)
        call = _call("extract", render_extract(request), value.model_dump_json())
        return TaskResult[Extraction](value=value, calls=[call], failures=failures)

    async def assess(self, request: AssessRequest) -> TaskResult[Assessment]:
        value = assess_offline(request)
        call = _call("assess", render_assess(request), value.model_dump_json())
        return TaskResult[Assessment](value=value, calls=[call])

    async def generate_opening(
        self, request: OpeningRequest, on_token: OnToken | None = None
    ) -> TaskResult[str]:
        seeded = request.model_copy(update={"seed": self._seed(request.seed)})
        text = shaped_opening(seeded) or offline_opening(seeded)
        await _stream(text, on_token)
        return TaskResult[str](
            value=text, calls=[_call("generate_opening", render_opening(request), text)]
        )

    async def generate_question(
        self, request: QuestionRequest, on_token: OnToken | None = None
    ) -> TaskResult[str]:
        seeded = request.model_copy(update={"seed": self._seed(request.seed)})
        text = shaped_question(seeded) or offline_question(seeded)
        await _stream(text, on_token)
        return TaskResult[str](
            value=text, calls=[_call("generate_question", render_question(request), text)]
        )

    async def propose_slots(self, request: SlotRequest) -> TaskResult[SlotProposals]:
        value = propose_slots_offline(request)
        call = _call("propose_slots", render_slots(request), json.dumps(value.model_dump()))
        return TaskResult[SlotProposals](value=value, calls=[call])

    async def respond_as_persona(self, request: PersonaRequest) -> TaskResult[str]:
        raise LLMError(
            "the offline provider does not play personas: the offline respondent is the "
            "seeded simulator (--respondent-provider offline)",
            provider=PROVIDER,
            model=MODEL,
            task="respond_as_persona",
        )


__all__ = ["MODEL", "PROVIDER", "OfflineLLM", "chunks", "estimate_tokens"]
