"""What model calls cost, from a pricing table shipped as data (seed 001 "Token Usage Tracking").

``pricing.yaml`` holds US dollars per million input and output tokens per provider and model
(a provider's table is the one its registry entry names: ``pricing`` in ``defaults.yaml``,
by default its own name).
Your own prices are laid over it, entry by entry: first the ``prices:`` section of the LLM
settings file (``INTERVIEW_LLM_CONFIG``, see ``llm.settings``), then a whole pricing file
named by ``INTERVIEW_PRICING`` (a newer price list). An unlisted model is *unpriced*: its
calls record no cost (``call_cost`` is None, usage totals list it under ``unpriced``) and the
CLI shows its cost as unknown, never as $0; a local model that is free is given a price of 0.

Also here: :func:`summarize_usage` (the session's ``usage`` totals from its ``LLMCall``s),
:func:`calls_per_session` (the model calls of one interview) and :func:`estimate_cost` (what
a batch will roughly cost before it runs, from those calls).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from interview_cli.config.loader import (
    YamlDocument,
    config_error,
    parse_yaml,
    read_yaml,
    validation_problems,
)
from interview_cli.config.plurals import plural
from interview_cli.errors import ConfigError
from interview_cli.llm.client_settings import TASK_CLIENT, LLMSettings
from interview_cli.llm.config_file import load_defaults
from interview_cli.llm.protocol import LLMCall

PRICING_ENV = "INTERVIEW_PRICING"
_SNAPSHOT = re.compile(r"^[-@]\d")
_PER = 1_000_000


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Price(_Strict):
    """US dollars per million tokens. Cache prices default to the input price: a model whose
    cache discount is not listed is never estimated cheaper than it may be."""

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cache_write: float | None = Field(default=None, ge=0)
    cache_read: float | None = Field(default=None, ge=0)


class TokenShape(_Strict):
    input: int = Field(ge=0)
    output: int = Field(ge=0)


class PricingTable(_Strict):
    prices: dict[str, dict[str, Price]] = Field(default_factory=dict)
    typical_tokens: dict[str, TokenShape] = Field(default_factory=dict)

    def merged(self, other: PricingTable) -> PricingTable:
        prices = {p: dict(models) for p, models in self.prices.items()}
        for provider, models in other.prices.items():
            prices.setdefault(provider, {}).update(models)
        return PricingTable(
            prices=prices, typical_tokens={**self.typical_tokens, **other.typical_tokens}
        )

    def price_for(self, provider: str, model: str) -> Price | None:
        # the provider's table, as the registry names it (defaults.yaml ``pricing``)
        models = self.prices.get(load_defaults().pricing_table(provider), {})
        if model in models:
            return models[model]
        # A dated snapshot prices like its family (claude-sonnet-4-6-20260101, gpt-4o-2024-08-06)
        # but another variant does not (gpt-4.1-nano is not gpt-4.1): unknown beats wrong.
        best = max(
            (m for m in models if _SNAPSHOT.match(model[len(m) :]) and model.startswith(m)),
            key=len,
            default=None,
        )
        return models[best] if best is not None else None


_SHIPPED = Path("interview_cli/llm/pricing.yaml")  # how errors name the shipped file
_EXPECTED = (
    "a pricing table like the shipped pricing.yaml, with `prices:` and optionally `typical_tokens:`"
)


def _parse(document: YamlDocument) -> PricingTable:
    try:
        return PricingTable.model_validate(document.data)
    except ValidationError as exc:
        raise config_error(validation_problems(document.path, PricingTable, exc)) from None


@lru_cache(maxsize=1)
def _shipped() -> PricingTable:
    text = resources.files("interview_cli.llm").joinpath("pricing.yaml").read_text("utf-8")
    return _parse(parse_yaml(_SHIPPED, text, expected=_EXPECTED))


@lru_cache(maxsize=8)
def _override(path: str, mtime_ns: int) -> PricingTable:
    # mtime in the cache key: an edited override file is re-read, an unchanged one is not.
    # An empty override overrides nothing (every key is optional).
    return _parse(read_yaml(Path(path), expected=_EXPECTED, allow_empty=True))


@lru_cache(maxsize=8)
def _settings_prices(path: str, mtime_ns: int) -> PricingTable:
    """The ``prices:`` of the LLM settings file (``INTERVIEW_LLM_CONFIG``)."""
    from interview_cli.llm.config_file import CONFIG_ENV, load_config

    prices = load_config({CONFIG_ENV: path}).user_prices
    try:
        return PricingTable.model_validate({"prices": prices})
    except ValidationError as exc:
        raise config_error(validation_problems(Path(path), PricingTable, exc)) from None


def _mtime(path: str, what: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read {what}: {exc.strerror or exc}") from None


def load_pricing(env: Mapping[str, str] | None = None) -> PricingTable:
    """The shipped table, overlaid by the ``prices:`` of the ``INTERVIEW_LLM_CONFIG`` file,
    then by the ``INTERVIEW_PRICING`` file, each when set."""
    from interview_cli.llm.config_file import CONFIG_ENV

    environ = os.environ if env is None else env
    table = _shipped()
    settings_path = (environ.get(CONFIG_ENV) or "").strip()
    if settings_path:
        mtime = _mtime(settings_path, f"the LLM config file ({CONFIG_ENV})")
        own = _settings_prices(settings_path, mtime)
        if own.prices:
            table = table.merged(own)
    path = (environ.get(PRICING_ENV) or "").strip()
    if path:
        table = table.merged(_override(path, _mtime(path, f"pricing file ({PRICING_ENV})")))
    return table


def is_priced(provider: str, model: str, *, table: PricingTable | None = None) -> bool:
    return provider == "offline" or (table or load_pricing()).price_for(provider, model) is not None


def call_cost(
    provider: str,
    model: str,
    input_tokens: int,
    output_tokens: int,
    *,
    table: PricingTable | None = None,
    cache_write_tokens: int = 0,
    cache_read_tokens: int = 0,
) -> float | None:
    """Dollar cost of one call as recorded in its ``LLMCall``: 0.0 offline, None for an
    unpriced model (unknown, which is not free). Cache writes and reads are billed at their
    own prices, on top of ``input_tokens``. The price is looked up once."""
    if provider == "offline":
        return 0.0
    price = (table or load_pricing()).price_for(provider, model)
    if price is None:
        return None
    write = price.input if price.cache_write is None else price.cache_write
    read = price.input if price.cache_read is None else price.cache_read
    return (
        input_tokens * price.input
        + output_tokens * price.output
        + cache_write_tokens * write
        + cache_read_tokens * read
    ) / _PER


def cost_usd(
    provider: str,
    model: str,
    input_tokens: int,
    output_tokens: int,
    *,
    table: PricingTable | None = None,
    cache_write_tokens: int = 0,
    cache_read_tokens: int = 0,
) -> float:
    """:func:`call_cost` with 0.0 for an unpriced model (see ``is_priced``), for totals."""
    cost = call_cost(
        provider,
        model,
        input_tokens,
        output_tokens,
        table=table,
        cache_write_tokens=cache_write_tokens,
        cache_read_tokens=cache_read_tokens,
    )
    return 0.0 if cost is None else cost


# --------------------------------------------------------------------------------------------
# Totals and estimates
# --------------------------------------------------------------------------------------------


class UsageTotals(_Strict):
    """A session's (or batch's) usage: what the session file keeps under ``usage``."""

    calls: int = 0
    failed_calls: int = 0
    attempts: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_write_tokens: int = 0
    cache_read_tokens: int = 0
    cost_usd: float = 0.0
    latency_ms: float = 0.0
    unpriced: list[str] = Field(
        default_factory=list, description="provider:model whose calls have no known cost"
    )


def summarize_usage(calls: Iterable[LLMCall], *, table: PricingTable | None = None) -> UsageTotals:
    calls = list(calls)
    pricing = table or load_pricing()
    unpriced = sorted(
        {
            f"{c.provider}:{c.model}"
            for c in calls
            if c.cost_usd is None or not is_priced(c.provider, c.model, table=pricing)
        }
    )
    return UsageTotals(
        calls=len(calls),
        failed_calls=sum(1 for c in calls if not c.ok),
        attempts=sum(c.attempts for c in calls),
        input_tokens=sum(c.input_tokens for c in calls),
        output_tokens=sum(c.output_tokens for c in calls),
        cache_write_tokens=sum(c.cache_write_tokens for c in calls),
        cache_read_tokens=sum(c.cache_read_tokens for c in calls),
        cost_usd=round(sum(c.cost_usd or 0.0 for c in calls), 6),
        latency_ms=round(sum(c.latency_ms for c in calls), 1),
        unpriced=unpriced,
    )


class CostEstimate(_Strict):
    sessions: int
    turns_per_session: int
    calls_per_session: dict[str, int] = Field(
        default_factory=dict, description="task -> calls the cost counts"
    )
    per_task_usd: dict[str, float]
    total_usd: float
    unpriced: list[str] = Field(default_factory=list)

    def describe(self) -> str:
        text = (
            f"about ${self.total_usd:.2f} for {plural(self.sessions, 'session')} of up to "
            f"{self.turns_per_session} turns"
        )
        if self.unpriced:
            text += f" (not priced: {', '.join(self.unpriced)})"
        return text


def calls_per_session(
    turns: int, *, simulated_respondent: bool = True, slot_calls_per_turn: int = 0
) -> dict[str, int]:
    """Model calls of one interview of ``turns`` turns (ARCHITECTURE "The turn"): one opening,
    then per turn one extract, one assess and one question; a simulated respondent answers
    every question, the closing one included; ``slot_calls_per_turn`` propose_slots batches
    per turn (none: the task is left out). Retries are not counted."""
    calls = {
        "generate_opening": 1,
        "extract": turns,
        "assess": turns,
        "generate_question": turns,
    }
    if simulated_respondent:
        calls["respond_as_persona"] = turns + 1
    if slot_calls_per_turn:
        calls["propose_slots"] = turns * slot_calls_per_turn
    return calls


def estimate_cost(
    settings: LLMSettings,
    *,
    turns: int,
    sessions: int = 1,
    simulated_respondent: bool = True,
    slot_calls_per_turn: int = 0,
    table: PricingTable | None = None,
) -> CostEstimate:
    """Upper-bound-ish cost of ``sessions`` interviews of ``turns`` turns each (batch dry run):
    the calls of :func:`calls_per_session`, each at the pricing table's ``typical_tokens``
    for its task."""
    if turns < 0 or sessions < 0:
        raise ValueError("turns and sessions must be >= 0")
    pricing = table or load_pricing()
    calls = calls_per_session(
        turns, simulated_respondent=simulated_respondent, slot_calls_per_turn=slot_calls_per_turn
    )
    per_task: dict[str, float] = {}
    unpriced: set[str] = set()
    for task, count in calls.items():
        client = settings.client(TASK_CLIENT[task])
        shape = pricing.typical_tokens.get(task, TokenShape(input=0, output=0))
        if not is_priced(client.provider, client.model, table=pricing):
            unpriced.add(f"{client.provider}:{client.model}")
        one = cost_usd(client.provider, client.model, shape.input, shape.output, table=pricing)
        per_task[task] = round(one * count * sessions, 6)
    return CostEstimate(
        sessions=sessions,
        turns_per_session=turns,
        calls_per_session=calls,
        per_task_usd=per_task,
        total_usd=round(sum(per_task.values()), 6),
        unpriced=sorted(unpriced),
    )
