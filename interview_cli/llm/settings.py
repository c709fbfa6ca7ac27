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

Per-task timeouts (issue 4 item 6): ``tasks.<task>.timeout_s`` overrides the timeout of the
task's client (``TASK_CLIENT``) for that task only. A client timeout set in a stronger place
(``LLM_<CLIENT>_TIMEOUT``, a flag, or the user file over a shipped task timeout) wins over
a task timeout set in a weaker one; within one place the task's own timeout wins.

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
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field, ValidationError

from interview_cli.errors import ConfigError, UsageError

# The defaults and the user's config file live in ``llm.config_file``; re-exported here, where
# callers have always found them.
from interview_cli.llm.config_file import (  # noqa: F401
    CLIENTS,
    CONFIG_ENV,
    PROVIDERS,
    ClientDefaults,
    ClientName,
    LLMConfig,
    LLMConfigFile,
    LLMDefaults,
    ProviderInfo,
    ProviderName,
    RetryTuning,
    TaskDefaults,
    TaskName,
    _Strict,
    check_base_url,
    load_config,
    load_defaults,
)

# What an offline client's model is called everywhere: settings, session files and each
# offline call's usage record (``llm.offline`` labels its calls with the same name).
OFFLINE_MODEL = "heuristic-v1"

# Which client serves which task (seed 001 table; respondent is the batch issue's addition).
TASK_CLIENT: dict[str, ClientName] = {
    "extract": "extraction",
    "propose_slots": "extraction",
    "assess": "scoring",
    "generate_opening": "generation",
    "generate_question": "generation",
    "respond_as_persona": "respondent",
}

# Model names that can only be served by one provider family's own API. Checked when a model
# comes from an environment variable or a flag, because the auto-resolved provider may be
# another family's (a kimi model sent to anthropic 404s only once the interview is running).
_MODEL_FAMILIES: tuple[tuple[ProviderName, re.Pattern[str]], ...] = (
    ("anthropic", re.compile(r"^claude-", re.IGNORECASE)),
    ("openai", re.compile(r"^(?:gpt-|chatgpt-|o[134](?:$|-))", re.IGNORECASE)),
    ("kimi", re.compile(r"^(?:kimi-|moonshot-)", re.IGNORECASE)),
    ("deepseek", re.compile(r"^deepseek-", re.IGNORECASE)),
)


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


def provider_info(provider: str, defaults: LLMDefaults | None = None) -> ProviderInfo:
    table = (defaults or load_defaults()).providers
    if provider not in table:
        raise ConfigError(f"unknown provider {provider!r}; choose one of {', '.join(PROVIDERS)}")
    return table[provider]


def key_env_var(provider: str) -> str | None:
    """The environment variable that holds ``provider``'s key (None for offline)."""
    return None if provider == "offline" else provider_info(provider).key_env


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


def model_family(model: str) -> ProviderName | None:
    """The provider family a model name plainly belongs to, None when it is not recognised."""
    name = model.strip()
    return next((family for family, pattern in _MODEL_FAMILIES if pattern.match(name)), None)


# --------------------------------------------------------------------------------------------
# Resolution
# --------------------------------------------------------------------------------------------

_OVERRIDABLE = frozenset(ClientSettings.model_fields)
# Strength of where a setting came from, for per-task vs per-client timeouts.
_SHIPPED, _USER_FILE, _ENV, _FLAG = 0, 1, 2, 3


def _check_provider(value: str, where: str) -> ProviderName:
    name = value.strip().lower()
    if name not in PROVIDERS:
        raise ConfigError(
            f"{where}: unknown provider {value!r}; choose one of {', '.join(PROVIDERS)}"
        )
    return name  # type: ignore[return-value]


def _normalise_overrides(
    per_client: Mapping[str, Any] | None,
) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for client, value in (per_client or {}).items():
        if client not in CLIENTS:
            raise ConfigError(f"unknown LLM client {client!r}; choose one of {', '.join(CLIENTS)}")
        if value is None:
            continue
        fields = {"provider": value} if isinstance(value, str) else dict(value)
        unknown = set(fields) - _OVERRIDABLE
        if unknown:
            raise ConfigError(
                f"{client}: unknown setting(s) {', '.join(sorted(unknown))}; "
                f"choose from {', '.join(sorted(_OVERRIDABLE))}"
            )
        out[client] = {k: v for k, v in fields.items() if v is not None}
    return out


def _env_number(
    env: Mapping[str, str],
    var: str,
    *,
    what: str,
    low: float,
    high: float | None = None,
    low_open: bool = False,
) -> float | None:
    raw = (env.get(var) or "").strip()
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    too_low = value <= low if low_open else value < low
    if not math.isfinite(value) or too_low or (high is not None and value > high):
        bound = f"above {low:g}" if low_open else f"from {low:g}"
        span = f"{bound} to {high:g}" if high is not None else bound
        raise ConfigError(f"{var}: expected {what} {span}, got {raw!r}; fix or unset it")
    return value


def _model_mismatch(
    *,
    name: str,
    provider: ProviderName,
    model: str,
    model_origin: str,
    from_env: bool,
    provider_origin: str | None,
    env_provider_var: str,
    env_model_var: str,
    env: Mapping[str, str],
) -> UsageError | None:
    family = model_family(model)
    if family is None or family == provider:
        return None
    why = f"chosen by {provider_origin}" if provider_origin else "resolved from the API keys set"
    drop = f"unset {env_model_var}" if from_env else "drop the model option"
    needs = "" if has_key(family, env) else f" (with {key_env_var(family)})"
    if provider_origin in (None, env_provider_var, CONFIG_ENV):
        fix = f"set {env_provider_var}={family}{needs}, or {drop}"
    else:
        # A flag beats LLM_<CLIENT>_PROVIDER, so setting that variable would not help.
        fix = f"choose {family} with {provider_origin}{needs}, or {drop}"
    return UsageError(
        f"{model_origin} is {_article(family)} {family} model, but the {name} client uses "
        f"{provider} ({why}): {fix}"
    )


def _resolve_client(
    name: ClientName,
    config: LLMConfig,
    flag_provider: str | None,
    overrides: dict[str, Any],
    env: Mapping[str, str],
) -> tuple[ClientSettings, str, list[str], int]:
    """One client's settings, the note on why its provider, notices, and the strength of
    where its timeout came from."""
    defaults = config.defaults
    base = defaults.clients[name]
    prefix = f"LLM_{name.upper()}"
    env_provider_var = f"{prefix}_PROVIDER"
    env_model_var = f"{prefix}_MODEL"
    env_timeout_var = f"{prefix}_TIMEOUT"
    env_temperature_var = f"{prefix}_TEMPERATURE"

    # Which provider, and who asked for it (an explicit choice must have its key).
    explicit: tuple[ProviderName, str] | None = None
    if overrides.get("provider"):
        explicit = (
            _check_provider(str(overrides["provider"]), f"{name} provider"),
            f"the {name} provider option",
        )
    elif flag_provider:
        explicit = (_check_provider(flag_provider, "--provider"), "--provider")
    elif (env.get(env_provider_var) or "").strip():
        explicit = (_check_provider(env[env_provider_var], env_provider_var), env_provider_var)

    note = ""
    provider: ProviderName
    origin: str | None = None
    # What the merged defaults hold for this client: its provider and the model to use with
    # it. A user file that names a provider without a model leaves the shipped model of the
    # shipped provider (kimi-k2-... for scoring), which that provider would not serve.
    file_provider_only = config.user_client_sets(name, "provider") and not config.user_client_sets(
        name, "model"
    )
    base_model = None if file_provider_only else base.model
    if explicit is not None:
        provider, origin = explicit
        # A server of your own needs no key; its base URL is checked below (a flag may give it).
        own_server = provider != "offline" and provider_info(provider, defaults).own_server
        if not own_server and not has_key(provider, env):
            var = key_env_var(provider)
            raise ConfigError(
                f"{origin} asks for {provider} for the {name} client, but {var} is not set: "
                f"set {var}, or choose another provider (offline needs no key)"
            )
    elif base.provider == "offline":
        # Offline in the user's file (or a defaults file) needs no key: nothing to fall back from.
        provider = "offline"
        origin = CONFIG_ENV if config.user_client_sets(name, "provider") else "the defaults"
    else:
        candidates: list[ProviderName] = [base.provider, *defaults.provider_order]
        provider = next(
            (
                p
                for p in candidates
                if p != "offline" and (has_key(p, env) or bool(config.user_base_url(p)))
            ),
            "offline",
        )
        if provider == "offline":
            note = "no API key found"
        elif provider != base.provider:
            note = f"{missing_setting(base.provider)} not set"
        elif config.user_client_sets(name, "provider"):
            origin = CONFIG_ENV  # named in messages only: a provider from the file needs no key

    env_model = (env.get(env_model_var) or "").strip()
    env_timeout = _env_number(env, env_timeout_var, what="seconds", low=0.0, low_open=True)
    env_temperature = _env_number(env, env_temperature_var, what="a temperature", low=0.0, high=2.0)
    notices: list[str] = []

    # Which model: flag > env > the merged table's model when on its provider (unless the
    # user's file changed the provider without naming a model) > the provider's default model.
    flag_model = overrides.get("model")
    model = flag_model or env_model or None
    base_url: str | None = overrides.get("base_url")
    if provider == "offline":
        ignored = [
            f"{var}={value}"
            for var, value in (
                (env_model_var, env_model),
                (env_timeout_var, env.get(env_timeout_var, "")),
                (env_temperature_var, env.get(env_temperature_var, "")),
            )
            if value.strip()
        ]
        if ignored:
            why = note or f"chosen by {origin}"
            # A key only helps when offline is the fallback (a note says why), not when
            # offline was asked for.
            family = model_family(env_model) if env_model and note else None
            hint = (
                f"; set {key_env_var(family)} to use {env_model}"
                if (family and not has_key(family, env))
                else ""
            )
            notices.append(
                f"{', '.join(ignored)} ignored: the {name} client runs offline ({why}){hint}"
            )
        model = OFFLINE_MODEL
    else:
        info = provider_info(provider, defaults)
        env_base_url = (env.get(info.base_url_env) or "").strip()
        # A base URL the user gave (flag, environment or their file, unlike the shipped ones)
        # may be a proxy serving any family's models: no family check then.
        own_base_url = (
            base_url is not None or bool(env_base_url) or config.user_base_url(provider) is not None
        )
        flag_base_url = base_url is not None
        if base_url is None:
            base_url = env_base_url or info.base_url
        if not base_url and info.own_server:
            raise ConfigError(
                f"the {name} client uses {provider}, which needs your server's URL: "
                f"--base-url URL or {info.base_url_env}=URL "
                "(for example http://localhost:11434/v1 for Ollama)"
            )
        if base_url:
            where = (
                "--base-url" if flag_base_url
                else info.base_url_env if env_base_url and base_url == env_base_url
                else f"providers.{provider}.base_url in the {CONFIG_ENV} file"
                if config.user_base_url(provider) is not None
                else f"the {name} client's base_url"
            )  # fmt: skip
            check_base_url(base_url, where)
        env_provider_model = (env.get(info.model_env) or "").strip() if info.model_env else ""
        if model is None and env_provider_model:
            model = env_provider_model
        elif model is None:
            model = base_model if provider == base.provider and base_model else info.default_model
        elif not own_base_url:
            model_origin = (
                f"the {name} model option ({model})" if flag_model else f"{env_model_var}={model}"
            )
            mismatch = _model_mismatch(
                name=name,
                provider=provider,
                model=str(model),
                model_origin=model_origin,
                from_env=not flag_model,
                provider_origin=origin,
                env=env,
                env_provider_var=env_provider_var,
                env_model_var=env_model_var,
            )
            if mismatch is not None:
                raise mismatch
        if not model:
            where_model = f" or {info.model_env}=MODEL" if info.model_env else ""
            raise ConfigError(
                f"the {name} client uses {provider}, which needs a model name: "
                f"--model MODEL{where_model} (the name your server lists, e.g. llama3.1:8b)"
            )
        if (
            env_temperature is not None
            and provider == "anthropic"
            and "temperature" not in overrides
        ):
            notices.append(
                f"{env_temperature_var} ignored: the {name} client uses anthropic, "
                "which takes no temperature here (its effort setting applies)"
            )

    fields: dict[str, Any] = {
        "temperature": base.temperature,
        "max_tokens": base.max_tokens,
        "timeout_s": base.timeout_s,
        "max_attempts": base.max_attempts,
        # effort is an anthropic parameter; another provider's model would reject it
        "effort": base.effort if provider == "anthropic" else None,
    }
    timeout_strength = _USER_FILE if config.user_client_sets(name, "timeout_s") else _SHIPPED
    if env_timeout is not None:
        fields["timeout_s"] = env_timeout
        timeout_strength = _ENV
    if env_temperature is not None:
        fields["temperature"] = env_temperature
    if "timeout_s" in overrides:
        timeout_strength = _FLAG
    fields.update(
        {k: v for k, v in overrides.items() if k not in ("provider", "model", "base_url")}
    )
    try:
        settings = ClientSettings(provider=provider, model=str(model), base_url=base_url, **fields)
    except ValidationError as exc:
        problems = [
            f"{name}: {'.'.join(str(p) for p in e['loc'])}: {e['msg']}"
            for e in exc.errors(include_url=False)
        ]
        raise ConfigError(problems[0], problems) from None
    return settings, note, notices, timeout_strength


def _task_timeouts(config: LLMConfig, strength: Mapping[str, int]) -> dict[str, float]:
    out: dict[str, float] = {}
    for task, spec in config.defaults.tasks.items():
        if spec.timeout_s is None:
            continue
        task_strength = _USER_FILE if config.user_task_timeout(task) else _SHIPPED
        # Within one place the task's own timeout wins; a stronger client timeout wins over it.
        if task_strength >= strength[TASK_CLIENT[task]]:
            out[task] = spec.timeout_s
    return out


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
