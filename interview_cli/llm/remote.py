"""``RemoteLLM``: the ``InterviewLLM`` protocol over one real provider and its settings.

Each task is: render the prompt (``prompts``) -> provider call with retries (``retry``) ->
validate (``validation``). Seed 000's three tiers of validation end here:

- invalid *items* are dropped one by one by the validators, with a recorded reason;
- an *unusable response* (no tool call, arguments that are not JSON or not the schema's
  shape, an empty question) is retried ONCE with a corrective message appended to the
  conversation; if that fails too, the task returns an empty or neutral value
  (``Extraction(extractable=False)``, ``Assessment.neutral()``, no slot proposals,
  ``fallback_question``, the offline provider's opening, an empty persona answer, which the
  simulated respondent replaces with its own) and says so in ``TaskResult.failures``;
- a *provider failure* that survives its retries (429, 5xx, timeouts, malformed bodies,
  or a 401 at once) raises one ``LLMError``. Nothing a model says crashes a turn.

Every model call (one per round, however many HTTP attempts it took) becomes an ``LLMCall``
with tokens, latency, attempts and cost (seed 001 "Token Usage Tracking").

Streaming (``generate_opening`` / ``generate_question``) follows the ``OnToken`` contract of
``protocol``: when an attempt that already delivered tokens is abandoned (retried, corrected,
replaced by a fallback or ended by an error), a callback with a ``reset()`` method is told
before anything else is streamed. Timeouts are ``LLMSettings.timeout_for(task)``: the task's
own where ``task_timeouts`` has one, else the client's.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from interview_cli.core.models import Assessment, Extraction, RejectedItem
from interview_cli.llm.client_settings import ClientSettings, LLMSettings
from interview_cli.llm.config_file import RetryTuning
from interview_cli.llm.pricing import PricingTable, call_cost, load_pricing
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
    ExtractRequest,
    LLMCall,
    OnToken,
    OpeningRequest,
    PersonaRequest,
    QuestionRequest,
    SlotProposals,
    SlotRequest,
    TaskResult,
    reset_stream,
)
from interview_cli.llm.providers import (
    ChatMessage,
    Provider,
    ProviderReply,
    ProviderRequest,
    make_provider,
)
from interview_cli.llm.retry import (
    CallContext,
    FinalLLMError,
    Outcome,
    RetryPolicy,
    Sleep,
    call_with_retries,
)
from interview_cli.llm.spend import SpendCap, cost_bound, prompt_token_bound
from interview_cli.llm.validation import (
    UnusableResponse,
    clean_question,
    corrective_message,
    fallback_question,
    validate_assessment,
    validate_extraction,
    validate_slots,
)

log = logging.getLogger(__name__)
V = TypeVar("V")

# How much of a bad reply is echoed back in the corrective round: enough for the model to
# see its mistake, not so much that a runaway reply doubles the bill.
_ECHO_LIMIT = 2000


class RemoteLLM:
    """All six tasks over one provider + model (one of the clients of ``LLMSettings``)."""

    def __init__(
        self,
        settings: ClientSettings,
        *,
        retry: RetryTuning | None = None,
        env: Mapping[str, str] | None = None,
        sleep: Sleep | None = None,
        rng: random.Random | None = None,
        provider: Provider | None = None,
        pricing: PricingTable | None = None,
        seed: int = 0,
        all_settings: LLMSettings | None = None,
        budget: SpendCap | None = None,
    ) -> None:
        self.settings = settings
        # ``--max-cost``: shared by every client; each call reserves its upper bound first.
        self.budget = budget
        # Every client's settings, for ``timeout_for(task)``: a task may have its own timeout
        # (None: this client's timeout for every task).
        self.all_settings = all_settings
        self.provider_label = settings.label
        self.provider = provider or make_provider(settings, env=env)
        tuning = retry or RetryTuning()
        self.policy = RetryPolicy(
            max_attempts=settings.max_attempts,
            base_delay_s=tuning.base_delay_s,
            max_delay_s=tuning.max_delay_s,
            retry_after_cap_s=tuning.retry_after_cap_s,
            sleep=sleep or RetryPolicy.sleep,
            rng=rng or random.Random(seed),
        )
        self.pricing = pricing or load_pricing(env)
        self._seed = seed
        self._offline: Any = None

    def __repr__(self) -> str:
        return f"RemoteLLM({self.provider_label})"

    async def aclose(self) -> None:
        await self.provider.aclose()

    # -- the tasks ---------------------------------------------------------------------------
    async def extract(self, request: ExtractRequest) -> TaskResult[Extraction]:
        async def fallback(reason: str) -> Extraction:
            return Extraction(
                extractable=False,
                reason=f"extraction unavailable: {reason}",
                rejected=[RejectedItem(kind="response", reason=reason)],
            )

        return await self._run(
            "extract",
            render_extract(request),
            None,
            _structured(lambda data: validate_extraction(data, request)),
            fallback,
        )

    async def assess(self, request: AssessRequest) -> TaskResult[Assessment]:
        async def fallback(reason: str) -> Assessment:
            return Assessment.neutral()

        return await self._run(
            "assess", render_assess(request), None, _structured(validate_assessment), fallback
        )

    async def propose_slots(self, request: SlotRequest) -> TaskResult[SlotProposals]:
        async def fallback(reason: str) -> SlotProposals:
            return SlotProposals(rejected=[RejectedItem(kind="response", reason=reason)])

        return await self._run(
            "propose_slots",
            render_slots(request),
            None,
            _structured(lambda data: validate_slots(data, request)),
            fallback,
        )

    async def generate_opening(
        self, request: OpeningRequest, on_token: OnToken | None = None
    ) -> TaskResult[str]:
        async def fallback(reason: str) -> str:
            result = await self._offline_llm().generate_opening(request)
            return str(result.value)

        return await self._run(
            "generate_opening", render_opening(request), on_token, _text(clean_question), fallback
        )

    async def generate_question(
        self, request: QuestionRequest, on_token: OnToken | None = None
    ) -> TaskResult[str]:
        async def fallback(reason: str) -> str:
            return fallback_question(request)

        def clean(text: str) -> str:
            return clean_question(text, closing=request.is_closing)

        return await self._run(
            "generate_question", render_question(request), on_token, _text(clean), fallback
        )

    async def respond_as_persona(self, request: PersonaRequest) -> TaskResult[str]:
        async def fallback(reason: str) -> str:
            # The simulator lives above this layer: ``LLMRespondent`` answers in its place.
            return ""

        return await self._run(
            "respond_as_persona", render_persona(request), None, _text(_clean_answer), fallback
        )

    # -- one task: a call, at most one corrective call, else the fallback --------------------
    async def _run(
        self,
        task: str,
        prompt: Prompt,
        on_token: OnToken | None,
        accept: Callable[[ProviderReply], V],
        fallback: Callable[[str], Awaitable[V]],
    ) -> TaskResult[V]:
        calls: list[LLMCall] = []
        correction: tuple[str, str] | None = None  # (echo of the bad reply, reason)
        reason = ""
        stream = _Stream(on_token) if on_token is not None else None
        for round_ in (1, 2):
            try:
                reply, call = await self._call(task, prompt, correction, stream)
            except FinalLLMError as exc:
                if round_ == 1:
                    if stream is not None:
                        stream.discard()
                    raise
                # The corrective round failed at the transport: keep the turn going.
                calls.append(self._failed_call(task, exc))
                reason = f"{reason}; corrective retry failed: {exc.cause or exc.message}"
                break
            try:
                value = accept(reply)
            except UnusableResponse as exc:
                reason = exc.reason
            except (ValueError, TypeError) as exc:
                # A validator tripping over an output it did not foresee is still the model's
                # output being unusable: it must not crash the turn (it is logged as a bug).
                log.warning("%s %s: validation raised", self.provider_label, task, exc_info=True)
                reason = f"validation failed ({type(exc).__name__})"
            else:
                calls.append(call)
                return TaskResult(value=value, calls=calls)
            calls.append(call.model_copy(update={"ok": False, "error": f"unusable: {reason}"}))
            correction = (_echo(reply), reason)
            log.info("%s %s: unusable response (%s)", self.provider_label, task, reason)
        if stream is not None:
            stream.discard()  # the fallback is not streamed: the draft shown is not it
        return TaskResult(value=await fallback(reason), calls=calls, failures=[f"{task}: {reason}"])

    # -- one model call ----------------------------------------------------------------------
    async def _call(
        self,
        task: str,
        prompt: Prompt,
        correction: tuple[str, str] | None,
        stream: _Stream | None,
    ) -> tuple[ProviderReply, LLMCall]:
        request = self._request(task, prompt, correction)
        ctx = CallContext(
            provider=self.settings.provider,
            model=self.settings.model,
            task=task,
            key_env_var=self.provider.key_env_var,
            endpoint=self.settings.base_url or "",
        )
        bound = self._reserve(task, request)
        started = time.perf_counter()
        try:
            outcome = await call_with_retries(
                lambda: self.provider.complete(request, stream.attempt() if stream else None),
                policy=self.policy,
                ctx=ctx,
                on_retry=lambda n, err, wait: log.info(
                    "%s %s: attempt %d failed (%s), retrying in %.1fs",
                    self.provider_label,
                    task,
                    n,
                    err.describe(),
                    wait,
                ),
            )
        except BaseException:
            if self.budget is not None:
                self.budget.settle(bound, 0.0)  # a failed call is not billed (as recorded)
            raise
        reply: ProviderReply = outcome.value
        call = self._record(task, reply, outcome, started)
        if self.budget is not None:
            self.budget.settle(bound, call.cost_usd)
        return reply, call

    def _request(
        self, task: str, prompt: Prompt, correction: tuple[str, str] | None
    ) -> ProviderRequest:
        """The provider request for ``prompt``: after a rejected reply (``correction``: what
        it said and why it was refused) the reply is echoed back with the correction."""
        messages = [ChatMessage("user", prompt.user)]
        if correction is not None:
            echo, reason = correction
            messages.append(ChatMessage("assistant", echo or "(no usable output)"))
            messages.append(ChatMessage("user", corrective_message(reason)))
        return ProviderRequest(
            system=prompt.system,
            messages=tuple(messages),
            temperature=self.settings.temperature,
            max_tokens=self.settings.max_tokens,
            timeout_s=(
                self.all_settings.timeout_for(task)
                if self.all_settings is not None
                else self.settings.timeout_s
            ),
            schema=prompt.schema,
            tool_name=prompt.tool_name,
            stream=prompt.stream,
        )

    def _record(self, task: str, reply: ProviderReply, outcome: Outcome, started: float) -> LLMCall:
        """The usage record of one answered call: tokens, latency since ``started``, attempts,
        cost, and what the retries were after."""
        return LLMCall(
            task=task,
            provider=self.settings.provider,
            model=self.settings.model,
            input_tokens=reply.input_tokens,
            output_tokens=reply.output_tokens,
            cache_write_tokens=reply.cache_write_tokens,
            cache_read_tokens=reply.cache_read_tokens,
            latency_ms=round((time.perf_counter() - started) * 1000, 1),
            attempts=outcome.attempts,
            cost_usd=call_cost(
                self.settings.provider,
                self.settings.model,
                reply.input_tokens,
                reply.output_tokens,
                table=self.pricing,
                cache_write_tokens=reply.cache_write_tokens,
                cache_read_tokens=reply.cache_read_tokens,
            ),
            error=f"retried after: {'; '.join(outcome.retried)}" if outcome.retried else None,
        )

    def _reserve(self, task: str, request: ProviderRequest) -> float:
        """Reserve the most this call can cost under ``--max-cost`` (0 without a cap); raises
        ``SpendCapReached`` when it could pass the cap."""
        if self.budget is None:
            return 0.0
        price = self.pricing.price_for(self.settings.provider, self.settings.model)
        if price is None:  # refused before the run (spend.require_prices); never free here
            return 0.0
        texts = [request.system, *(m.content for m in request.messages)]
        if request.schema is not None:
            texts.append(json.dumps(request.schema, ensure_ascii=False))
        bound = cost_bound(price, prompt_token_bound(*texts), request.max_tokens)
        self.budget.reserve(bound, what=f"{task} on {self.provider_label}")
        return bound

    def _failed_call(self, task: str, exc: FinalLLMError) -> LLMCall:
        return LLMCall(
            task=task,
            provider=self.settings.provider,
            model=self.settings.model,
            attempts=exc.attempts,
            ok=False,
            error=exc.message,
        )

    def _offline_llm(self) -> Any:
        if self._offline is None:
            from interview_cli.llm.offline import OfflineLLM

            self._offline = OfflineLLM(seed=self._seed)
        return self._offline


class _Stream:
    """The caller's ``on_token`` seen through attempts: resets its draft before a new attempt
    streams over the tokens of an abandoned one (the ``OnToken`` contract in ``protocol``)."""

    def __init__(self, sink: OnToken) -> None:
        self.sink = sink
        self.delivered = False

    def attempt(self) -> OnToken:
        self.discard()
        return self.push

    def push(self, token: str) -> None:
        if token:
            self.delivered = True
            self.sink(token)

    def discard(self) -> None:
        if self.delivered:
            reset_stream(self.sink)
            self.delivered = False


def _structured(validate: Callable[[Any], V]) -> Callable[[ProviderReply], V]:
    def accept(reply: ProviderReply) -> V:
        if reply.data is None:
            raise UnusableResponse(reply.problem or "no structured output")
        return validate(reply.data)

    return accept


def _text(clean: Callable[[str], str]) -> Callable[[ProviderReply], str]:
    return lambda reply: clean(reply.text)


def _echo(reply: ProviderReply) -> str:
    """The bad reply as the model will see it in the corrective round."""
    parts = [reply.text.strip()]
    if reply.data is not None:
        parts.append(json.dumps(reply.data, ensure_ascii=False, default=str))
    return "\n".join(p for p in parts if p)[:_ECHO_LIMIT]


def _clean_answer(text: str) -> str:
    answer = text.strip()
    if not answer:
        raise UnusableResponse("the answer was empty")
    return answer
