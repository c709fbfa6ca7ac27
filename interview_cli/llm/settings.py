"""Which provider and model each LLM client uses (seed 001 "Three-Client Architecture").

Four clients, each with its own provider, model, temperature, max tokens, timeout and attempt
budget: ``extraction`` (extract, propose_slots), ``scoring`` (assess), ``generation``
(generate_opening, generate_question) and ``respondent`` (respond_as_persona, batch runs).

Resolution, strongest first, field by field:

1. function arguments (the CLI flags): ``per_client={"scoring": {"provider": "deepseek"}}``,
   then the global ``provider=`` (``--provider``) for every client;
2. environment, per client: ``LLM_<CLIENT>_PROVIDER``, ``LLM_<CLIENT>_MODEL``,
   ``LLM_<CLIENT>_TIMEOUT`` (seconds, > 0) and ``LLM_<CLIENT>_TEMPERATURE`` (0..2);
3. the user's config file named by ``INTERVIEW_LLM_CONFIG``: the shape of the shipped
   ``defaults.yaml``, every key optional, unknown keys refused (a copy of the shipped file
   with one number changed works). Only what it sets overrides the shipped values, e.g.::

       clients:
         generation: {timeout_s: 45, max_attempts: 4}
       retry: {retry_after_cap_s: 10}
       tasks:
         generate_question: {timeout_s: 20}

4. the shipped ``defaults.yaml``.

Per-task timeouts, so that one slow task need not slow its client's other tasks:
``tasks.<task>.timeout_s`` overrides the timeout of the task's client (``TASK_CLIENT``) for
that task only. A client timeout set in a stronger place (``LLM_<CLIENT>_TIMEOUT``, a flag,
or the user file over a shipped task timeout) wins over a task timeout set in a weaker one;
within one place the task's own timeout wins.

When nothing names a provider for a client, its default provider is used if that provider's
key is present, else the first provider (anthropic, openai, kimi, deepseek) whose key is,
then ``openai-compatible`` when its base URL is set, else ``offline``. ``openai-compatible``
is a server of your own (Ollama, vLLM, LM Studio, a proxy): it needs a base URL (``--base-url``
or ``OPENAI_COMPATIBLE_BASE_URL``) and a model (``--model``, ``LLM_<CLIENT>_MODEL`` or
``OPENAI_COMPATIBLE_MODEL``), and a key (``OPENAI_COMPATIBLE_API_KEY``) only if the server
checks one. A provider named explicitly without its key is a ``ConfigError`` naming the
variable to set. A model named by ``LLM_<CLIENT>_MODEL`` (or a model flag) that plainly
belongs to another provider family (``claude-*`` on openai, ``kimi-*`` on anthropic...) is a
``UsageError`` at once rather than a 404 mid-interview; names the tool does not recognise
are passed through, and so is anything sent to a base URL the user set (flag, environment or
the user file's ``providers:``; a proxy may serve any model). A provider changed without a
model (``clients: {scoring: {provider: openai}}`` in the user file) takes that provider's
``default_model``, not the shipped model of the shipped provider. Settings that cannot apply
(a model variable for a client that runs offline) are ignored with a one-line entry in
``LLMSettings.notices`` for the CLI to show.

Keys are only ever *checked for presence* here. Settings objects are serialised into session
files, so they hold provider, model, limits and base URL, never a key: the provider reads its
key from the environment when it is constructed (``providers``).

Where things live: the settings objects and provider facts in ``llm.client_settings``, the
resolution steps in ``llm.resolution``, the defaults and the user's file in
``llm.config_file``; this module resolves them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from interview_cli.llm.client_settings import (
    OFFLINE_MODEL,
    ClientSettings,
    LLMSettings,
)
from interview_cli.llm.config_file import (
    CLIENTS,
    load_config,
)
from interview_cli.llm.resolution import _normalise_overrides, _resolve_client, _task_timeouts


def resolve_llm_settings(
    provider: str | None = None,
    per_client: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    *,
    defaults_path: str | None = None,
) -> LLMSettings:
    """Resolve every client's settings from flags, environment, the user's config file and
    the shipped defaults.

    ``provider`` applies to all clients (``--provider``); ``per_client`` maps a client name
    to a provider name or to a dict of ``ClientSettings`` fields (per-client flags). ``env``
    defaults to ``os.environ`` and is only read, never stored.
    """
    environ: Mapping[str, str] = os.environ if env is None else env
    config = load_config(environ, defaults_path=defaults_path)
    overrides = _normalise_overrides(per_client)
    resolved: dict[str, ClientSettings] = {}
    notes: dict[str, str] = {}
    notices: list[str] = []
    strength: dict[str, int] = {}
    for name in CLIENTS:
        settings, note, client_notices, strength[name] = _resolve_client(
            name,  # type: ignore[arg-type]
            config,
            provider,
            overrides.get(name, {}),
            environ,
        )
        resolved[name] = settings
        notices += client_notices
        if note:
            notes[name] = note
    return LLMSettings(
        **resolved,
        retry=config.defaults.retry,
        notes=notes,
        notices=notices,
        task_timeouts=_task_timeouts(config, strength),
    )


def offline_settings() -> LLMSettings:
    """Every client offline: what tests and demos use without any environment."""
    return resolve_llm_settings(provider="offline", env={})


def language_notice(settings: LLMSettings, language: str | None) -> str | None:
    """One line when a study language other than English meets the offline question writer,
    whose templates are English only (None when there is nothing to say)."""
    from interview_cli.config.language import is_english

    if not language or is_english(language) or settings.generation.provider != "offline":
        return None
    return (
        f"study language {language}: the offline provider writes questions in English "
        "only; set an API key (or --provider) for the generation client to ask in "
        f"{language}"
    )


@dataclass(frozen=True)
class ProviderRow:
    """One provider as `interview providers` lists it: its registry entry and whether this
    environment can use it."""

    name: str
    about: str
    sdk: str
    key_env: str | None
    usable: bool
    base_url: str | None
    default_model: str
    priced_models: int

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def provider_rows(env: Mapping[str, str] | None = None) -> list[ProviderRow]:
    """Every provider a client may use (offline, then the registry with the user's file laid
    over it), with what it needs and whether ``env`` has it."""
    from interview_cli.llm.pricing import load_pricing

    environ = os.environ if env is None else env
    registry = load_config(environ).defaults
    prices = load_pricing(environ).prices
    rows = [
        ProviderRow(
            "offline",
            "rules, no model: no key, no network",
            "-",
            None,
            True,
            None,
            OFFLINE_MODEL,
            0,
        )
    ]
    for name, spec in registry.providers.items():
        key_set = bool((environ.get(spec.key_env) or "").strip())
        base_url = (environ.get(spec.base_url_env) or "").strip() or spec.base_url
        usable = bool(base_url) if spec.own_server else key_set
        rows.append(
            ProviderRow(
                name=name,
                about=spec.about,
                sdk=spec.sdk,
                key_env=spec.key_env,
                usable=usable,
                base_url=base_url,
                default_model=spec.default_model
                or (f"from {spec.model_env}" if spec.model_env else ""),
                priced_models=len(prices.get(registry.pricing_table(name), {})),
            )
        )
    return rows
