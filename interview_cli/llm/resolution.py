"""How one LLM client's settings are resolved, step by step (the order is in ``llm.settings``).

For each client: which provider (an explicit choice, the configured one, or the first whose
key is set), then its per-client environment numbers, then its endpoint and model (a remote
provider) or the notices for settings that cannot apply (offline), then its limits. Every
step raises the same one-line ``ConfigError``/``UsageError`` as before it was a step, in the
same order, so the first problem found is still the one reported.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from interview_cli.errors import ConfigError, UsageError
from interview_cli.llm.client_settings import (
    OFFLINE_MODEL,
    TASK_CLIENT,
    ClientSettings,
    _article,
    has_key,
    key_env_var,
    missing_setting,
    model_family,
    provider_info,
)
from interview_cli.llm.config_file import (
    CLIENTS,
    CONFIG_ENV,
    ClientName,
    LLMConfig,
    LLMDefaults,
    ProviderName,
    ProviderSpec,
    check_base_url,
)

_OVERRIDABLE = frozenset(ClientSettings.model_fields)
# Strength of where a setting came from, for per-task vs per-client timeouts.
_SHIPPED, _USER_FILE, _ENV, _FLAG = 0, 1, 2, 3


def _check_provider(value: str, where: str, registry: LLMDefaults) -> ProviderName:
    name = value.strip().lower()
    if name not in registry.provider_names:
        raise ConfigError(
            f"{where}: unknown provider {value!r}; choose one of "
            f"{', '.join(registry.provider_names)}"
        )
    return name


def _takes_effort(registry: LLMDefaults, provider: ProviderName) -> bool:
    """Whether the provider's API is tuned by an effort level instead of a temperature."""
    spec = registry.providers.get(provider)
    return spec is not None and spec.capabilities.sampling == "effort"


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


@dataclass(frozen=True)
class _EnvVars:
    """The per-client environment variables, ``LLM_<CLIENT>_PROVIDER`` and its siblings."""

    provider: str
    model: str
    timeout: str
    temperature: str

    @classmethod
    def of(cls, name: str) -> _EnvVars:
        prefix = f"LLM_{name.upper()}"
        return cls(
            provider=f"{prefix}_PROVIDER",
            model=f"{prefix}_MODEL",
            timeout=f"{prefix}_TIMEOUT",
            temperature=f"{prefix}_TEMPERATURE",
        )


def _explicit_provider(
    name: ClientName,
    flag_provider: str | None,
    overrides: dict[str, Any],
    env: Mapping[str, str],
    env_provider_var: str,
    registry: LLMDefaults,
) -> tuple[ProviderName, str] | None:
    """The provider someone asked for by name, and who asked (None when nobody did): the
    client's own option, then ``--provider``, then ``LLM_<CLIENT>_PROVIDER``."""
    if overrides.get("provider"):
        return (
            _check_provider(str(overrides["provider"]), f"{name} provider", registry),
            f"the {name} provider option",
        )
    if flag_provider:
        return (_check_provider(flag_provider, "--provider", registry), "--provider")
    if (env.get(env_provider_var) or "").strip():
        variable = env[env_provider_var]
        return (_check_provider(variable, env_provider_var, registry), env_provider_var)
    return None


def _choose_provider(
    name: ClientName,
    config: LLMConfig,
    explicit: tuple[ProviderName, str] | None,
    env: Mapping[str, str],
) -> tuple[ProviderName, str | None, str]:
    """The client's provider, who chose it (None when resolved from the keys set) and the
    note on why it fell back. An explicit choice must have its key."""
    defaults = config.defaults
    base = defaults.clients[name]
    if explicit is not None:
        provider, origin = explicit
        # A server of your own needs no key; its base URL is checked later (a flag may give it).
        own_server = provider != "offline" and provider_info(provider, defaults).own_server
        if not own_server and not has_key(provider, env):
            var = key_env_var(provider)
            raise ConfigError(
                f"{origin} asks for {provider} for the {name} client, but {var} is not set: "
                f"set {var}, or choose another provider (offline needs no key)"
            )
        return provider, origin, ""
    if base.provider == "offline":
        # Offline in the user's file (or a defaults file) needs no key: nothing to fall back from.
        origin = CONFIG_ENV if config.user_client_sets(name, "provider") else "the defaults"
        return "offline", origin, ""
    candidates: list[ProviderName] = [base.provider, *defaults.provider_order]
    found: ProviderName = next(
        (
            p
            for p in candidates
            if p != "offline" and (has_key(p, env) or bool(config.user_base_url(p)))
        ),
        "offline",
    )
    if found == "offline":
        return found, None, "no API key found"
    if found != base.provider:
        return found, None, f"{missing_setting(base.provider)} not set"
    if config.user_client_sets(name, "provider"):
        # Named in messages only: a provider from the file needs no key.
        return found, CONFIG_ENV, ""
    return found, None, ""


def _offline_notices(
    name: ClientName,
    env: Mapping[str, str],
    env_vars: _EnvVars,
    env_model: str,
    note: str,
    origin: str | None,
) -> list[str]:
    """One line naming the per-client variables that cannot apply to an offline client."""
    ignored = [
        f"{var}={value}"
        for var, value in (
            (env_vars.model, env_model),
            (env_vars.timeout, env.get(env_vars.timeout, "")),
            (env_vars.temperature, env.get(env_vars.temperature, "")),
        )
        if value.strip()
    ]
    if not ignored:
        return []
    why = note or f"chosen by {origin}"
    # A key only helps when offline is the fallback (a note says why), not when offline was
    # asked for.
    family = model_family(env_model) if env_model and note else None
    hint = (
        f"; set {key_env_var(family)} to use {env_model}"
        if (family and not has_key(family, env))
        else ""
    )
    return [f"{', '.join(ignored)} ignored: the {name} client runs offline ({why}){hint}"]


def _remote_base_url(
    name: ClientName,
    config: LLMConfig,
    provider: ProviderName,
    info: ProviderSpec,
    overrides: dict[str, Any],
    env: Mapping[str, str],
) -> tuple[str | None, bool]:
    """A remote client's endpoint, checked, and whether the user gave it (flag, environment
    or their file, unlike the shipped ones): such a URL may be a proxy serving any family's
    models, so no family check applies then."""
    base_url: str | None = overrides.get("base_url")
    env_base_url = (env.get(info.base_url_env) or "").strip()
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
            "--base-url"
            if flag_base_url
            else info.base_url_env
            if env_base_url and base_url == env_base_url
            else f"providers.{provider}.base_url in the {CONFIG_ENV} file"
            if config.user_base_url(provider) is not None
            else f"the {name} client's base_url"
        )
        check_base_url(base_url, where)
    return base_url, own_base_url


def _remote_model(
    name: ClientName,
    config: LLMConfig,
    provider: ProviderName,
    origin: str | None,
    info: ProviderSpec,
    overrides: dict[str, Any],
    env: Mapping[str, str],
    env_vars: _EnvVars,
    own_base_url: bool,
) -> Any:
    """A remote client's model: flag > env > the merged table's model when on its provider
    (unless the user's file changed the provider without naming a model) > the provider's
    default model. A named model of another provider's family is refused at once."""
    base = config.defaults.clients[name]
    # A user file that names a provider without a model leaves the shipped model of the
    # shipped provider (kimi-k2-... for scoring), which that provider would not serve.
    file_provider_only = config.user_client_sets(name, "provider") and not config.user_client_sets(
        name, "model"
    )
    base_model = None if file_provider_only else base.model
    flag_model = overrides.get("model")
    env_model = (env.get(env_vars.model) or "").strip()
    model = flag_model or env_model or None
    env_provider_model = (env.get(info.model_env) or "").strip() if info.model_env else ""
    if model is None and env_provider_model:
        model = env_provider_model
    elif model is None:
        model = base_model if provider == base.provider and base_model else info.default_model
    elif not own_base_url:
        model_origin = (
            f"the {name} model option ({model})" if flag_model else f"{env_vars.model}={model}"
        )
        mismatch = _model_mismatch(
            name=name,
            provider=provider,
            model=str(model),
            model_origin=model_origin,
            from_env=not flag_model,
            provider_origin=origin,
            env=env,
            env_provider_var=env_vars.provider,
            env_model_var=env_vars.model,
        )
        if mismatch is not None:
            raise mismatch
    if not model:
        where_model = f" or {info.model_env}=MODEL" if info.model_env else ""
        raise ConfigError(
            f"the {name} client uses {provider}, which needs a model name: "
            f"--model MODEL{where_model} (the name your server lists, e.g. llama3.1:8b)"
        )
    return model


def _client_fields(
    name: ClientName,
    config: LLMConfig,
    provider: ProviderName,
    overrides: dict[str, Any],
    env_timeout: float | None,
    env_temperature: float | None,
) -> tuple[dict[str, Any], int]:
    """The client's limits (defaults < environment < flags) and the strength of where its
    timeout came from."""
    base = config.defaults.clients[name]
    fields: dict[str, Any] = {
        "temperature": base.temperature,
        "max_tokens": base.max_tokens,
        "timeout_s": base.timeout_s,
        "max_attempts": base.max_attempts,
        # effort is an anthropic parameter; another provider's model would reject it
        "effort": base.effort if _takes_effort(config.defaults, provider) else None,
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
    return fields, timeout_strength


def _client_settings(
    name: ClientName,
    provider: ProviderName,
    model: Any,
    base_url: str | None,
    fields: dict[str, Any],
) -> ClientSettings:
    """The validated settings, a bad value reported as one line naming the client and field."""
    try:
        return ClientSettings(provider=provider, model=str(model), base_url=base_url, **fields)
    except ValidationError as exc:
        problems = [
            f"{name}: {'.'.join(str(p) for p in e['loc'])}: {e['msg']}"
            for e in exc.errors(include_url=False)
        ]
        raise ConfigError(problems[0], problems) from None


def _resolve_client(
    name: ClientName,
    config: LLMConfig,
    flag_provider: str | None,
    overrides: dict[str, Any],
    env: Mapping[str, str],
) -> tuple[ClientSettings, str, list[str], int]:
    """One client's settings, the note on why its provider, notices, and the strength of
    where its timeout came from."""
    env_vars = _EnvVars.of(name)
    explicit = _explicit_provider(
        name, flag_provider, overrides, env, env_vars.provider, config.defaults
    )
    provider, origin, note = _choose_provider(name, config, explicit, env)

    env_model = (env.get(env_vars.model) or "").strip()
    env_timeout = _env_number(env, env_vars.timeout, what="seconds", low=0.0, low_open=True)
    env_temperature = _env_number(
        env, env_vars.temperature, what="a temperature", low=0.0, high=2.0
    )
    notices: list[str] = []
    base_url: str | None
    if provider == "offline":
        notices += _offline_notices(name, env, env_vars, env_model, note, origin)
        model: Any = OFFLINE_MODEL
        base_url = overrides.get("base_url")
    else:
        info = provider_info(provider, config.defaults)
        base_url, own_base_url = _remote_base_url(name, config, provider, info, overrides, env)
        model = _remote_model(
            name, config, provider, origin, info, overrides, env, env_vars, own_base_url
        )
        if (
            env_temperature is not None
            and _takes_effort(config.defaults, provider)
            and "temperature" not in overrides
        ):
            notices.append(
                f"{env_vars.temperature} ignored: the {name} client uses {provider}, "
                "which takes no temperature here (its effort setting applies)"
            )

    fields, timeout_strength = _client_fields(
        name, config, provider, overrides, env_timeout, env_temperature
    )
    settings = _client_settings(name, provider, model, base_url, fields)
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
