"""What each LLM client is set to, and the facts about providers the settings rest on.

``ClientSettings`` is one client's resolved provider, model and limits; ``LLMSettings`` holds
all four clients plus why they are what they are. Both are serialised into session files, so
they never hold a key. The provider helpers here (``provider_info``, ``has_key``,
``model_family``...) only look keys up for *presence*. How the settings are resolved from
flags, environment and config files is ``llm.resolution``; ``llm.settings`` is the entry point
and documents the whole order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Literal

from pydantic import Field

from interview_cli.errors import ConfigError
from interview_cli.llm.config_file import (
    CLIENTS,
    OFFLINE,
    ClientName,
    LLMDefaults,
    ProviderName,
    ProviderSpec,
    RetryTuning,
    _Strict,
    load_defaults,
)

# What an offline client's model is called everywhere: settings, session files and each
# offline call's usage record (``llm.offline`` labels its calls with the same name).
OFFLINE_MODEL = "heuristic-v1"

# Which client serves which task (seed 001 table; respondent, which plays the persona in batch
# runs, came later).
TASK_CLIENT: dict[str, ClientName] = {
    "extract": "extraction",
    "propose_slots": "extraction",
    "assess": "scoring",
    "generate_opening": "generation",
    "generate_question": "generation",
    "respond_as_persona": "respondent",
}


class ClientSettings(_Strict):
    """One client's resolved settings. Safe to serialise: no key, ever."""

    provider: ProviderName
    model: str = Field(min_length=1)
    temperature: float = Field(default=0.3, ge=0.0, le=2.0)
    max_tokens: int = Field(default=1024, ge=1)
    timeout_s: float = Field(default=30.0, gt=0)
    max_attempts: int = Field(default=3, ge=1, le=10)
    base_url: str | None = Field(default=None, description="endpoint; None = the SDK default")
    effort: Literal["low", "medium", "high"] | None = Field(
        default=None, description="anthropic output effort (seed 001: Sonnet 4.6 effort)"
    )

    @property
    def label(self) -> str:
        return "offline" if self.provider == "offline" else f"{self.provider}:{self.model}"


class LLMSettings(_Strict):
    """Settings of all four clients plus why they are what they are."""

    extraction: ClientSettings
    scoring: ClientSettings
    generation: ClientSettings
    respondent: ClientSettings
    retry: RetryTuning = RetryTuning()
    task_timeouts: dict[str, float] = Field(
        default_factory=dict, description="task -> timeout (s) that replaces its client's"
    )
    notes: dict[str, str] = Field(
        default_factory=dict, description="per client: why it is offline or fell back"
    )
    notices: list[str] = Field(
        default_factory=list,
        description="one line each: settings that were given but cannot apply (for the CLI)",
    )

    def client(self, name: str) -> ClientSettings:
        if name not in CLIENTS:
            raise KeyError(name)
        value: ClientSettings = getattr(self, name)
        return value

    def for_task(self, task: str) -> ClientSettings:
        return self.client(TASK_CLIENT[task])

    def timeout_for(self, task: str) -> float:
        """The timeout of one task: its own when configured, else its client's."""
        return self.task_timeouts.get(task, self.for_task(task).timeout_s)

    @property
    def all_offline(self) -> bool:
        return all(self.client(c).provider == "offline" for c in CLIENTS)

    def describe(self, *, include_respondent: bool = False) -> str:
        """One line for the CLI, e.g. ``offline (no API key found)`` or
        ``anthropic claude-sonnet-4-6 for extraction and generation, kimi ... for scoring``."""
        names = [c for c in CLIENTS if include_respondent or c != "respondent"]
        if all(self.client(c).provider == "offline" for c in names):
            reasons = {self.notes.get(c, "") for c in names} - {""}
            return f"offline ({reasons.pop()})" if len(reasons) == 1 else "offline"
        groups: dict[str, list[str]] = {}
        for name in names:
            cs = self.client(name)
            what = "offline" if cs.provider == "offline" else f"{cs.provider} {cs.model}"
            groups.setdefault(what, []).append(name)
        parts = []
        for what, clients in groups.items():
            joined = (
                clients[0]
                if len(clients) == 1
                else (", ".join(clients[:-1]) + " and " + clients[-1])
            )
            parts.append(f"{what} for {joined}")
        return ", ".join(parts)


def provider_info(provider: str, defaults: LLMDefaults | None = None) -> ProviderSpec:
    """``provider``'s entry in the registry (``defaults.yaml`` ``providers:``)."""
    registry = defaults or load_defaults()
    if provider not in registry.providers:
        raise ConfigError(
            f"unknown provider {provider!r}; choose one of {', '.join(registry.provider_names)}"
        )
    return registry.providers[provider]


def key_env_var(provider: str) -> str | None:
    """The environment variable that holds ``provider``'s key (None for offline)."""
    return None if provider == OFFLINE else provider_info(provider).key_env


def has_key(provider: str, env: Mapping[str, str]) -> bool:
    """Whether ``provider`` can be used with ``env``: its key is set (offline needs none; a
    server of your own, ``openai-compatible``, needs its base URL instead of a key)."""
    var = key_env_var(provider)
    if var is None or (env.get(var) or "").strip():
        return True
    info = provider_info(provider)
    return info.own_server and bool((env.get(info.base_url_env) or "").strip())


def missing_setting(provider: str) -> str:
    """What to set for ``provider`` to be usable: its key variable, or for a server of your
    own its base URL variable."""
    info = provider_info(provider)
    return info.base_url_env if info.own_server else info.key_env


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def model_family(model: str, defaults: LLMDefaults | None = None) -> ProviderName | None:
    """The provider whose API alone serves a model of this name (the registry's ``models``),
    None when no entry claims it."""
    name = model.strip()
    for provider, spec in (defaults or load_defaults()).providers.items():
        if spec.models is not None and _pattern(spec.models).match(name):
            return provider
    return None


@lru_cache(maxsize=64)
def _pattern(expression: str) -> re.Pattern[str]:
    return re.compile(expression, re.IGNORECASE)
