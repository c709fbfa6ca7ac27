"""Simulated respondents behind one interface.

A :class:`Respondent` answers the interviewer's pending question for a persona and reports the
model calls it made, like any LLM task (``TaskResult[str]``):

- :class:`SimulatedRespondent` - the offline, seeded simulator (``simulator``) that talks
  like people. It is told the interviewer's decision (strategy and focus) because it models
  *how a person reacts to that kind of question*; it never sees the graph.
- :class:`LLMRespondent` - a language model playing the persona through the ``respondent``
  client's ``respond_as_persona`` task (prompt: the topic, profile, speech pattern, voice,
  deflection patterns, and the meanings it holds about the topic with a saying or two each).
  It sees only the topic, the question text and the conversation: the decision is stripped
  from the request before it is sent. When the model's answer stays unusable (the
  client gives up with an empty answer and a recorded failure), the simulator answers the
  same blind request instead, seeded as the offline provider used to seed it.

:func:`make_respondent` picks one from the resolved LLM settings: ``--respondent-provider
offline`` means the simulator, anything else the model.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from interview_cli.llm.boundary import bound_request, clean_result
from interview_cli.llm.client_settings import LLMSettings
from interview_cli.llm.protocol import InterviewLLM, LLMCall, PersonaRequest, TaskResult
from interview_cli.simulation.respondents.shaped import shaped_persona_answer
from interview_cli.simulation.respondents.simulator import simulate_answer

SIMULATOR_MODEL = "persona-simulator-v2"

# How a fallback answer's seed is made from the request's and the run's: the offline
# provider's seeding, which recorded sessions with a fallback answer were made with.
_SEED_SCALE = 1_000_003


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
        text = simulated_answer(request)
        call = LLMCall(
            task="respond_as_persona",
            provider="offline",
            model=SIMULATOR_MODEL,
            input_tokens=estimate_tokens(request.question)
            + sum(estimate_tokens(e.question + e.answer) for e in request.history),
            output_tokens=estimate_tokens(text),
        )
        return TaskResult[str](value=text, calls=[call])


def simulated_answer(request: PersonaRequest) -> str:
    """The seeded simulator's answer: a journey or grid persona's, else the ladder one's."""
    return shaped_persona_answer(request) or simulate_answer(request)


class LLMRespondent:
    """A model playing the persona through ``llm.respond_as_persona``; ``seed`` (the run's)
    seeds the simulator's answer when the model's stays unusable."""

    def __init__(self, llm: InterviewLLM, label: str = "", *, seed: int = 0) -> None:
        self.llm = llm
        self.label = label or getattr(llm, "provider_label", "llm")
        self.seed = seed

    async def answer(self, request: PersonaRequest) -> TaskResult[str]:
        # The model sees the question and the conversation only, as a real respondent would.
        blind = request.model_copy(update={"strategy": None, "focus_label": None})
        result: TaskResult[str] = await self.llm.respond_as_persona(blind)
        if result.failures and not result.value:
            bounded = bound_request(blind)
            seeded = bounded.model_copy(update={"seed": bounded.seed * _SEED_SCALE + self.seed})
            result = clean_result(result.model_copy(update={"value": simulated_answer(seeded)}))
        return result


def make_respondent(settings: LLMSettings, llm: InterviewLLM, *, seed: int = 0) -> Respondent:
    """The simulator when the respondent client is offline, else the model behind ``llm``
    (built with ``seed``)."""
    client = settings.client("respondent")
    if client.provider == "offline":
        return SimulatedRespondent()
    return LLMRespondent(llm, label=client.label, seed=seed)
