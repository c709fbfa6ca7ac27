"""The one seam between the interview and any language model.

Every task takes a request value and returns a ``TaskResult``: a validated value plus the
usage of each model call made for it (tokens, latency, attempts, cost). Implementations: one
per provider family (anthropic; openai-compatible for openai, kimi, deepseek) and ``offline``
(deterministic heuristics, no network). A task never raises for a bad model output: invalid
items are dropped with a recorded reason, an unusable response is retried once and then
replaced by an empty result. It raises ``LLMError`` only when the provider keeps failing
(rate limits, 5xx, timeouts) after its retries.

This module is pure data and typing: importing it imports no SDK.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Literal, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from interview_cli.config.schemas import Concept, Methodology, Persona, StrategySpec
from interview_cli.core.models import Assessment, Extraction, RejectedItem

T = TypeVar("T")

Task = Literal[
    "extract",
    "assess",
    "generate_opening",
    "generate_question",
    "propose_slots",
    "respond_as_persona",
]


class LLMCall(BaseModel):
    """Usage of one model call (possibly several HTTP attempts)."""

    model_config = ConfigDict(extra="forbid")

    task: str
    provider: str
    model: str
    input_tokens: int = Field(default=0, description="input tokens read at the full price")
    output_tokens: int = 0
    # Prompt caching: input written to the provider's cache (Anthropic bills it above the
    # input price) and input read from it (billed far below); not part of input_tokens.
    cache_write_tokens: int = 0
    cache_read_tokens: int = 0
    latency_ms: float = 0.0
    attempts: int = 1
    # None: the model has no price (``llm.pricing``), so the cost is unknown, which is not 0.
    cost_usd: float | None = 0.0
    ok: bool = True
    error: str | None = None


class TaskResult(BaseModel, Generic[T]):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    value: T
    calls: list[LLMCall] = Field(default_factory=list)
    failures: list[str] = Field(
        default_factory=list, description="unusable responses replaced by an empty result"
    )


class Exchange(BaseModel):
    """One question and its answer, for prompt context. ``strategy`` and ``focus_label``: the
    interviewer's decision behind the question, when known (the offline simulated respondent
    reads them to notice being asked the same thing again)."""

    question: str
    answer: str
    strategy: str | None = None
    focus_label: str | None = None


class NodeContext(BaseModel):
    """A concept of the graph as a prompt shows it: label, node type, the respondent's words."""

    label: str
    node_type: str = ""
    quote: str = ""


class ProbeNote(BaseModel):
    """A question already asked on the focus node and what it brought (the tracker's probe)."""

    turn: int
    strategy: str
    outcome: str
    question: str = ""


class ExtractRequest(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    methodology: Methodology
    concept: Concept
    answer: str
    utterance_id: str
    question: str = ""
    strategy: str | None = None
    focus_label: str | None = None
    focus_type: str | None = None
    existing_labels: list[str] = Field(default_factory=list, description="up to 30, newest first")
    existing_nodes: list[NodeContext] = Field(
        default_factory=list,
        description="the earlier concepts the prompt shows, chosen by relevance (focus chain, "
        "recent, most similar to the answer); empty: the prompt lists existing_labels",
    )
    previous_question: str = ""
    previous_answer: str = ""
    discourse_hints: list[str] = Field(default_factory=list)
    element_id: str | None = Field(
        default=None,
        description="the stimulus element the question raised (an element question): what "
        "the answer reacts to, whether or not it names it",
    )
    seed: int = 0


class AssessRequest(BaseModel):
    """One answer to rate. ``topic`` and ``objective``: the study's, so that the assessor can
    tell an answer off the topic from one on it (empty: not known)."""

    question: str
    answer: str
    recent_answers: list[str] = Field(default_factory=list)
    topic: str = ""
    objective: str = ""
    seed: int = 0


class OpeningRequest(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    methodology: Methodology
    concept: Concept
    language: str | None = None
    seed: int = 0


class SignalNote(BaseModel):
    """An active signal with its value and catalogue description, for the 'why' in prompts."""

    name: str
    value: Any
    description: str = ""


class QuestionRequest(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    methodology: Methodology
    concept: Concept
    strategy: StrategySpec
    focus_label: str | None = None
    focus_type: str | None = None
    focus_stance: int = Field(
        default=0, description="-1 when the respondent spoke of the focus as a dislike"
    )
    summary_labels: list[str] = Field(
        default_factory=list, description="for focus_mode summary: what to reflect back"
    )
    focus_quotes: list[str] = Field(
        default_factory=list, description="the respondent's own words about the focus"
    )
    chain: list[NodeContext] = Field(
        default_factory=list, description="the ladder from the most concrete concept to the focus"
    )
    probes: list[ProbeNote] = Field(
        default_factory=list, description="questions already asked on the focus, oldest first"
    )
    summary_chains: list[list[str]] = Field(
        default_factory=list, description="for a closing: the ladders learned, in their words"
    )
    asked_chains: list[list[str]] = Field(
        default_factory=list,
        description="for a closing: the ladders climbed by asking why (each rung the reason the "
        "answer gave for the one before), the ones to read back first",
    )
    pointed_labels: list[str] = Field(
        default_factory=list,
        description="for a closing: what the respondent asked to go back to or said mattered "
        "most, in the order they did (the offline recap leads with it when no ladder names it)",
    )
    covered_labels: list[str] = Field(
        default_factory=list, description="for a topic-level question: what was already named"
    )
    rated_elements: list[str] = Field(
        default_factory=list,
        description="for a grid's rating question: the elements already rated on the focus",
    )
    element_id: str | None = Field(
        default=None,
        description="for an element question (focus_mode element): the stimulus element of "
        "the concept to raise, which the respondent has not mentioned",
    )
    focus_said_turn: int = Field(
        default=0,
        description="the last turn the respondent spoke of the focus (0: not known); before "
        "the last answer, the question goes back to it",
    )
    asked_back: str = Field(
        default="",
        description="the label the respondent's last answer asked to go back to (the "
        "extraction's steer) when the focus is that node; empty otherwise, and when the focus "
        "is what they said it leads to (``went_back_to``)",
    )
    went_back_to: str = Field(
        default="",
        description="the node the respondent asked to go back to, when they went on to say "
        "what it leads to and the focus is that (``steer_follows_what_was_said``)",
    )
    reached: str = Field(
        default="",
        description="a value the last answer came to, at the top of a ladder of reasons, when "
        "the question moves on from it: said back in a few of their words first, so the "
        "respondent hears it was heard (INTERVIEWING.md: acknowledge before moving on)",
    )
    recent: list[Exchange] = Field(default_factory=list)
    answers: list[str] = Field(
        default_factory=list,
        description="every answer so far, oldest first: the only words a question may quote",
    )
    # The scoring behind the choice: recorded with the request, never shown to the question
    # writer (the prompt is a brief without scores; see prompts.generation).
    active_signals: list[SignalNote] = Field(default_factory=list)
    rationale: list[str] = Field(default_factory=list, description="why this strategy won")
    avoid_questions: list[str] = Field(default_factory=list, description="recent questions asked")
    depth: int = 0
    language: str | None = None
    closing: bool = False
    leaving: bool = Field(
        default=False,
        description="for a closing: the respondent said they are tired or have to go (thank "
        "them and let them go: the check-back is short and asks for nothing more)",
    )
    turn_number: int = 0
    seed: int = 0
    # The concept's guide (``Concept.guide``): must-cover topics not covered yet, topics to
    # avoid, and the tone; empty without a guide.
    guide_remaining: list[str] = Field(default_factory=list)
    guide_avoid: list[str] = Field(default_factory=list)
    guide_tone: str = ""

    @property
    def is_closing(self) -> bool:
        """The closing line: a summary and a last question (``closing``, or a strategy that
        closes), not a follow-up's one question."""
        return self.closing or self.strategy.generates_closing_question


class SlotProposal(BaseModel):
    slot_name: str
    description: str = ""
    node_type: str
    surface_labels: list[str] = Field(default_factory=list)


class SlotProposals(BaseModel):
    proposals: list[SlotProposal] = Field(default_factory=list)
    rejected: list[RejectedItem] = Field(default_factory=list)


# pydantic caches a parametrized model (``TaskResult[str]``) weakly: unless something holds
# it, each garbage collection drops it and the next call builds the class again (about
# 0.5 ms, once per answer of a batch's simulated respondents). Held here for good.
HELD_RESULT_TYPES = (
    TaskResult[str],
    TaskResult[Extraction],
    TaskResult[Assessment],
    TaskResult[SlotProposals],
)


class ExistingSlot(BaseModel):
    """A slot already made, as the model is shown it: its name, what it means, and some of the
    respondent's labels in it."""

    name: str
    description: str = ""
    labels: list[str] = Field(default_factory=list)


class SlotGroup(BaseModel):
    """The surface labels of one node type to consolidate, and that type's slot names
    (``existing``: the same slots with what they mean, when known)."""

    node_type: str
    labels: list[str] = Field(max_length=8)
    existing_slots: list[str] = Field(default_factory=list)
    existing: list[ExistingSlot] = Field(default_factory=list)


class SlotRequest(BaseModel):
    """One ``propose_slots`` call: one node type's labels (``node_type``, ``labels``,
    ``existing_slots``), or - how the pipeline asks, one call per turn - several ``groups``."""

    node_type: str = ""
    labels: list[str] = Field(default_factory=list, max_length=8)
    existing_slots: list[str] = Field(default_factory=list)
    groups: list[SlotGroup] = Field(default_factory=list)
    seed: int = 0

    def all_groups(self) -> list[SlotGroup]:
        if self.groups:
            return list(self.groups)
        return [
            SlotGroup(
                node_type=self.node_type, labels=self.labels, existing_slots=self.existing_slots
            )
        ]


class PersonaRequest(BaseModel):
    """What a simulated respondent is told. ``concept``: the study's topic, whose beliefs the
    persona answers from (None: no topic named). The LLM respondent uses the topic, the
    question and the conversation; the offline simulator also reads the interviewer's decision
    (strategy and focus) and the methodology to follow its hidden ladders."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    persona: Persona
    question: str
    history: list[Exchange] = Field(default_factory=list)
    concept: Concept | None = None
    methodology: Methodology | None = None
    strategy: str | None = None
    focus_label: str | None = None
    stimulus: str = Field(
        default="", description="a concept test's stimulus, shown before the first question"
    )
    turn_number: int = 0
    seed: int = 0


OnToken = Callable[[str], None]
"""The streaming callback of ``generate_opening`` / ``generate_question``: called with each
piece of text as it arrives, in order.

Contract. The tokens received since the call began, or since the last *reset*, are a draft
of the current attempt; ``TaskResult.value`` is the settled text (cleaned, or a fallback)
and is what to show once the call returns. A remote provider may start over after tokens
were delivered (a stream cut mid-way and retried, a corrective round after an unusable
reply), and then its new attempt streams from the start again. So that a draft never shows
text twice, the callback may carry a ``reset()`` method (see :class:`ResettableOnToken`):
it is called, before the first token of the new attempt, whenever tokens of an abandoned
attempt were delivered, and once more when the call ends in a fallback or an error after
delivering tokens. A plain callable has no way to be told and receives the attempts one
after the other.
"""


@runtime_checkable
class ResettableOnToken(Protocol):
    """An ``OnToken`` that can be told to discard the draft it has received so far."""

    def __call__(self, token: str) -> None: ...

    def reset(self) -> None: ...


def reset_stream(on_token: OnToken | None) -> None:
    """Tell a streaming consumer that its draft is void (no-op for a plain callable)."""
    reset = getattr(on_token, "reset", None)
    if callable(reset):
        reset()


@runtime_checkable
class InterviewLLM(Protocol):
    """What the pipeline needs from the model side. ``provider_label`` names what is used,
    e.g. ``offline`` or ``anthropic:claude-sonnet-4-6 / kimi:... / ...``."""

    provider_label: str

    async def extract(self, request: ExtractRequest) -> TaskResult[Extraction]: ...

    async def assess(self, request: AssessRequest) -> TaskResult[Assessment]: ...

    async def generate_opening(
        self, request: OpeningRequest, on_token: OnToken | None = None
    ) -> TaskResult[str]: ...

    async def generate_question(
        self, request: QuestionRequest, on_token: OnToken | None = None
    ) -> TaskResult[str]: ...

    async def propose_slots(self, request: SlotRequest) -> TaskResult[SlotProposals]: ...

    async def respond_as_persona(self, request: PersonaRequest) -> TaskResult[str]: ...
