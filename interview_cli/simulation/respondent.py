"""Simulated respondents behind one interface.

A :class:`Respondent` answers the interviewer's pending question for a persona and reports the
model calls it made, like any LLM task (``TaskResult[str]``):

- :class:`SimulatedRespondent` - the offline, seeded ladder simulator (``simulator``). It is
  told the interviewer's decision (strategy and focus) because it models *how a person reacts
  to that kind of question*; it never sees the graph.
- :class:`LLMRespondent` - a language model playing the persona through the ``respondent``
  client's ``respond_as_persona`` task (prompt: profile, speech pattern, deflection patterns,
  hidden ladders). It sees only the question text and the conversation: the decision is
  stripped from the request before it is sent.

:func:`make_respondent` picks one from the resolved LLM settings: ``--respondent-provider
offline`` means the simulator, anything else the model.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from interview_cli.llm.offline.shaped_persona import shaped_persona_answer
from interview_cli.llm.offline.simulator import simulate_answer
from interview_cli.llm.protocol import InterviewLLM, LLMCall, PersonaRequest, TaskResult
from interview_cli.llm.settings import LLMSettings

SIMULATOR_MODEL = "ladder-simulator-v1"


def estimate_tokens(text: str) -> int:
    return len(text) // 4


@runtime_checkable
class Respondent(Protocol):
    """Answers one interview question as a persona."""

    label: str

    async def answer(self, request: PersonaRequest) -> TaskResult[str]: ...


class SimulatedRespondent:
    """The offline simulator: deterministic for a request, no network, cost 0."""

    label = "offline"

    async def answer(self, request: PersonaRequest) -> TaskResult[str]:
        text = shaped_persona_answer(request) or simulate_answer(request)
        call = LLMCall(
            task="respond_as_persona",
            provider="offline",
            model=SIMULATOR_MODEL,
            input_tokens=estimate_tokens(request.question)
            + sum(estimate_tokens(e.question + e.answer) for e in request.history),
            output_tokens=estimate_tokens(text),
        )
        return TaskResult[str](value=text, calls=[call])


class LLMRespondent:
    """A model playing the persona through ``llm.respond_as_persona``."""

    def __init__(self, llm: InterviewLLM, label: str = "") -> None:
        self.llm = llm
        self.label = label or getattr(llm, "provider_label", "llm")

    async def answer(self, request: PersonaRequest) -> TaskResult[str]:
        # The model sees the question and the conversation only, as a real respondent would.
        blind = request.model_copy(update={"strategy": None, "focus_label": None})
        result: TaskResult[str] = await self.llm.respond_as_persona(blind)
        return result


def make_respondent(settings: LLMSettings, llm: InterviewLLM) -> Respondent:
    """The simulator when the respondent client is offline, else the model behind ``llm``."""
    client = settings.client("respondent")
    if client.provider == "offline":
        return SimulatedRespondent()
    return LLMRespondent(llm, label=client.label)
