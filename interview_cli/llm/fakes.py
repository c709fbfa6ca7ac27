"""Shipped fakes: script a model instead of subclassing the offline reader (STYLE 22).

Two seams, two fakes:

- :class:`ScriptedLLM` is an ``InterviewLLM`` (the pipeline's seam, like simonw/llm's
  ``MockModel``): ``enqueue(task, [...])`` lines up each task's outputs, ``history`` keeps every
  request. An output is the task's value (an ``Extraction``, an ``Assessment``, a question...),
  the raw output a model would send (a dict or JSON text for a structured task, the text of a
  question, read by the same validators and cleaners as a real provider's), a callable or
  coroutine function of the request (to answer from it, or to take time), or an exception to
  raise (an ``LLMError``). A task with nothing queued asks ``fallback`` (e.g. ``OfflineLLM``),
  or raises ``LookupError`` naming the task.
- :class:`FakeProvider` is a ``Provider`` (the provider seam, like httpx's ``MockTransport``):
  a handler turns each ``ProviderRequest`` into a reply: a ``ProviderReply``, a dict (the tool
  call's arguments), a string (the model's text: streamed for a streamed request, searched for
  its JSON object when a tool was forced, as a provider does) or a ``ProviderError`` to raise.
  ``RemoteLLM(settings, provider=FakeProvider(handler))`` then runs the real prompts, retries,
  corrective rounds and validation over it.

Both import no SDK and make no network call.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from interview_cli.core.models import Assessment, Extraction
from interview_cli.llm.client_settings import ClientSettings
from interview_cli.llm.protocol import (
    AssessRequest,
    ExtractRequest,
    InterviewLLM,
    LLMCall,
    OnToken,
    OpeningRequest,
    PersonaRequest,
    QuestionRequest,
    SlotProposals,
    SlotRequest,
    TaskResult,
)
from interview_cli.llm.providers.base import Provider, ProviderError, ProviderReply, ProviderRequest
from interview_cli.llm.providers.text_json import json_object_in
from interview_cli.llm.validation import (
    UnusableResponse,
    clean_question,
    fallback_question,
    validate_assessment,
    validate_extraction,
    validate_slots,
)

TASKS: tuple[str, ...] = (
    "extract",
    "assess",
    "generate_opening",
    "generate_question",
    "propose_slots",
    "respond_as_persona",
)


@dataclass(frozen=True)
class ScriptedCall:
    """One request a :class:`ScriptedLLM` received, and whether a scripted output answered it."""

    task: str
    request: Any
    scripted: bool


class ScriptedLLM:
    """An ``InterviewLLM`` whose outputs are scripted per task (see the module docstring)."""

    def __init__(self, *, fallback: InterviewLLM | None = None, model: str = "scripted") -> None:
        self.fallback = fallback
        self.model = model
        self.provider_label = f"scripted:{model}"
        self.history: list[ScriptedCall] = []
        self._queues: dict[str, deque[Any]] = {task: deque() for task in TASKS}

    def enqueue(self, task: str, outputs: Iterable[Any]) -> ScriptedLLM:
        """Queue ``outputs`` for ``task``, answered in order, one per request."""
        if task not in self._queues:
            raise ValueError(f"unknown task {task!r}; one of {', '.join(TASKS)}")
        self._queues[task].extend(outputs)
        return self

    def pending(self, task: str) -> int:
        """Outputs still queued for ``task``."""
        return len(self._queues[task])

    def requests(self, task: str) -> list[Any]:
        """The requests of one task, in order."""
        return [call.request for call in self.history if call.task == task]

    async def _output(self, task: str, request: Any) -> tuple[bool, Any]:
        queue = self._queues[task]
        self.history.append(ScriptedCall(task, request, bool(queue)))
        if not queue:
            return False, None
        output = queue.popleft()
        if isinstance(output, BaseException):
            raise output
        if callable(output) and not isinstance(output, type):
            output = output(request)
        if inspect.isawaitable(output):
            output = await output
        return True, output

    async def _run(
        self, task: str, request: Any, read: Callable[[Any], Any], *fallback_args: Any
    ) -> TaskResult[Any]:
        scripted, output = await self._output(task, request)
        if not scripted:
            if self.fallback is None:
                raise LookupError(f"ScriptedLLM: nothing enqueued for {task}")
            method = getattr(self.fallback, task)
            result: TaskResult[Any] = await method(request, *fallback_args)
            return result
        call = LLMCall(task=task, provider="scripted", model=self.model, cost_usd=0.0)
        try:
            value = read(output)
        except UnusableResponse as exc:
            return TaskResult(value=None, calls=[call], failures=[f"{task}: {exc.reason}"])
        return TaskResult(value=value, calls=[call])

    async def extract(self, request: ExtractRequest) -> TaskResult[Extraction]:
        def read(output: Any) -> Extraction:
            if isinstance(output, Extraction):
                return output
            return validate_extraction(_structured(output), request)

        result = await self._run("extract", request, read)
        if result.value is None:
            result.value = Extraction(extractable=False, reason="; ".join(result.failures))
        return result

    async def assess(self, request: AssessRequest) -> TaskResult[Assessment]:
        def read(output: Any) -> Assessment:
            if isinstance(output, Assessment):
                return output
            return validate_assessment(_structured(output))

        result = await self._run("assess", request, read)
        if result.value is None:
            result.value = Assessment.neutral()
        return result

    async def propose_slots(self, request: SlotRequest) -> TaskResult[SlotProposals]:
        def read(output: Any) -> SlotProposals:
            if isinstance(output, SlotProposals):
                return output
            return validate_slots(_structured(output), request)

        result = await self._run("propose_slots", request, read)
        if result.value is None:
            result.value = SlotProposals()
        return result

    async def generate_opening(
        self, request: OpeningRequest, on_token: OnToken | None = None
    ) -> TaskResult[str]:
        return await self._text("generate_opening", request, on_token)

    async def generate_question(
        self, request: QuestionRequest, on_token: OnToken | None = None
    ) -> TaskResult[str]:
        return await self._text("generate_question", request, on_token)

    async def respond_as_persona(self, request: PersonaRequest) -> TaskResult[str]:
        result = await self._run("respond_as_persona", request, lambda text: str(text).strip())
        if result.value is None:
            result.value = ""
        return result

    async def _text(self, task: str, request: Any, on_token: OnToken | None) -> TaskResult[str]:
        def read(output: Any) -> str:
            closing = isinstance(request, QuestionRequest) and request.is_closing
            text = clean_question(str(output), closing=closing)
            if on_token is not None:
                on_token(text)
            return text

        result = await self._run(task, request, read, on_token)
        if result.value is None:  # an unusable question: what a remote provider falls back to
            if task == "generate_question":
                result.value = fallback_question(request)
            else:
                from interview_cli.llm.offline import OfflineLLM

                result.value = (await OfflineLLM(seed=request.seed).generate_opening(request)).value
        return result

    async def aclose(self) -> None:
        return None


def _structured(output: Any) -> Any:
    """A structured output as a validator takes it: a dict, or the object in a model's text."""
    if isinstance(output, str):
        found = json_object_in(output)
        return found if found is not None else output
    return output


Handler = Callable[[ProviderRequest], "ProviderReply | dict[str, Any] | str | Awaitable[Any]"]


def _settings() -> ClientSettings:
    return ClientSettings(provider="openai-compatible", model="fake-model", max_attempts=1)


class FakeProvider(Provider):
    """A ``Provider`` whose API is ``handler`` (see the module docstring). ``requests`` keeps
    every ``ProviderRequest`` it was sent, in order."""

    name = "fake"

    def __init__(self, handler: Handler, *, settings: ClientSettings | None = None) -> None:
        # No key, no SDK client: the handler is the whole API.
        self.settings = settings or _settings()
        self.key_env_var = ""
        self.handler = handler
        self.requests: list[ProviderRequest] = []

    def __repr__(self) -> str:
        return f"FakeProvider({self.settings.model})"

    def _make_client(self, api_key: str) -> Any:
        return None

    async def aclose(self) -> None:
        return None

    def scrub(self, text: str) -> str:
        return text

    async def complete(
        self, request: ProviderRequest, on_token: OnToken | None = None
    ) -> ProviderReply:
        self.requests.append(request)
        async with asyncio.timeout(request.timeout_s):
            return await self._complete(request, on_token)

    async def _complete(self, request: ProviderRequest, on_token: OnToken | None) -> ProviderReply:
        output: Any = self.handler(request)
        if inspect.isawaitable(output):
            output = await output
        if isinstance(output, ProviderError):
            raise output
        reply = as_reply(output, request)
        if request.stream and on_token is not None and reply.text:
            for piece in _pieces(reply.text):
                on_token(piece)
        return reply


def as_reply(output: Any, request: ProviderRequest) -> ProviderReply:
    """A handler's output as the reply a provider would return for ``request``."""
    if isinstance(output, ProviderReply):
        return output
    tokens = {"input_tokens": _tokens(request), "output_tokens": 0}
    if isinstance(output, dict):
        text = json.dumps(output)
        return ProviderReply(data=output, **{**tokens, "output_tokens": len(text) // 4})
    text = str(output)
    reply = ProviderReply(text=text, **{**tokens, "output_tokens": len(text) // 4})
    if request.schema is not None:
        reply.data = json_object_in(text)
        if reply.data is None:
            reply.problem = (
                f"you answered in text instead of calling the tool {request.tool_name!r}"
            )
    return reply


def _tokens(request: ProviderRequest) -> int:
    return (len(request.system) + sum(len(m.content) for m in request.messages)) // 4


def _pieces(text: str) -> list[str]:
    words = text.split(" ")
    return [w if i == 0 else " " + w for i, w in enumerate(words)]
