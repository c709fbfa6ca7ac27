"""The composition root of the LLM layer: settings in, one ``InterviewLLM`` out.

``build_llm`` returns a :class:`RoutedLLM` that sends each task to its client's implementation
(seed 001 "Three-Client Architecture"): extract and propose_slots to the extraction client,
assess to scoring, opening and questions to generation, persona answers to respondent. Each
client is ``OfflineLLM`` or a ``RemoteLLM``; clients with identical settings share one
implementation (and so one SDK connection pool). ``RoutedLLM`` is also the boundary of
``boundary``: every request's answers are bounded on the way out and every result and
streamed token is cleaned of control characters on the way in. Nothing here imports an
SDK: a provider imports its SDK when it first needs its client.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, TypeVar

from interview_cli.core.models import Assessment, Extraction
from interview_cli.llm.boundary import CleanTokens, bound_request, clean_result
from interview_cli.llm.client_settings import TASK_CLIENT, LLMSettings
from interview_cli.llm.config_file import CLIENTS
from interview_cli.llm.protocol import (
    AssessRequest,
    ExtractRequest,
    InterviewLLM,
    OnToken,
    OpeningRequest,
    PersonaRequest,
    QuestionRequest,
    SlotProposals,
    SlotRequest,
    TaskResult,
)
from interview_cli.llm.retry import Sleep
from interview_cli.llm.spend import SpendCap

T = TypeVar("T")


class RoutedLLM:
    """``InterviewLLM`` that dispatches every task to the implementation of its client."""

    def __init__(
        self, clients: Mapping[str, InterviewLLM], *, settings: LLMSettings | None = None
    ) -> None:
        missing = [c for c in CLIENTS if c not in clients]
        if missing:
            raise ValueError(f"no implementation for client(s) {', '.join(missing)}")
        self.clients = dict(clients)
        self.settings = settings
        main = [self.clients[c].provider_label for c in ("extraction", "scoring", "generation")]
        # "offline", or "anthropic:claude-sonnet-4-6 / kimi:kimi-k2-0905-preview / ..." in the
        # order extraction / scoring / generation (the protocol's documented label).
        self.provider_label = main[0] if len(set(main)) == 1 else " / ".join(main)

    def for_task(self, task: str) -> InterviewLLM:
        return self.clients[TASK_CLIENT[task]]

    def describe(self) -> str:
        return self.settings.describe() if self.settings is not None else self.provider_label

    async def extract(self, request: ExtractRequest) -> TaskResult[Extraction]:
        result = await self.for_task("extract").extract(bound_request(request))
        return _cleaned(result)

    async def assess(self, request: AssessRequest) -> TaskResult[Assessment]:
        result = await self.for_task("assess").assess(bound_request(request))
        return _cleaned(result)

    async def generate_opening(
        self, request: OpeningRequest, on_token: OnToken | None = None
    ) -> TaskResult[str]:
        result = await self.for_task("generate_opening").generate_opening(
            request, _clean_tokens(on_token)
        )
        return _cleaned(result)

    async def generate_question(
        self, request: QuestionRequest, on_token: OnToken | None = None
    ) -> TaskResult[str]:
        result = await self.for_task("generate_question").generate_question(
            bound_request(request), _clean_tokens(on_token)
        )
        return _cleaned(result)

    async def propose_slots(self, request: SlotRequest) -> TaskResult[SlotProposals]:
        result = await self.for_task("propose_slots").propose_slots(request)
        return _cleaned(result)

    async def respond_as_persona(self, request: PersonaRequest) -> TaskResult[str]:
        result = await self.for_task("respond_as_persona").respond_as_persona(
            bound_request(request)
        )
        return _cleaned(result)

    async def aclose(self) -> None:
        """Close the SDK connection pools (each shared implementation once)."""
        seen: set[int] = set()
        for impl in self.clients.values():
            if id(impl) in seen:
                continue
            seen.add(id(impl))
            close = getattr(impl, "aclose", None)
            if close is not None:
                await close()


def _cleaned(result: TaskResult[T]) -> TaskResult[T]:
    return clean_result(result)


def _clean_tokens(on_token: OnToken | None) -> OnToken | None:
    return CleanTokens(on_token) if on_token is not None else None


def build_llm(
    settings: LLMSettings,
    *,
    seed: int = 0,
    env: Mapping[str, str] | None = None,
    sleep: Sleep | None = None,
    rng: random.Random | None = None,
    budget: SpendCap | None = None,
) -> RoutedLLM:
    """The ``InterviewLLM`` for ``settings``. Reads API keys from ``env`` (default
    ``os.environ``) now, once; ``sleep``/``rng`` make retry waits testable; ``budget``
    (``--max-cost``) is shared by every remote client."""
    offline: Any = None
    remotes: dict[Any, Any] = {}
    clients: dict[str, Any] = {}
    for name in CLIENTS:
        cs = settings.client(name)
        if cs.provider == "offline":
            if offline is None:
                from interview_cli.llm.offline import OfflineLLM

                offline = OfflineLLM(seed=seed)
            clients[name] = offline
            continue
        if cs not in remotes:
            from interview_cli.llm.remote import RemoteLLM

            remotes[cs] = RemoteLLM(
                cs,
                retry=settings.retry,
                env=env,
                sleep=sleep,
                rng=rng,
                seed=seed,
                all_settings=settings,
                budget=budget,
            )
        clients[name] = remotes[cs]
    return RoutedLLM(clients, settings=settings)
