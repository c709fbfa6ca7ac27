"""Which provider and model each LLM client uses (seed 001 "Three-Client Architecture").

Four clients, each with its own provider, model, temperature, max tokens, timeout and attempt
budget: ``extraction`` (extract, propose_slots), ``scoring`` (assess), ``generation``
(generate_opening, generate_question) and ``respondent`` (respond_as_persona, batch runs).

Resolution, strongest first, field by field:

1. function arguments (the CLI flags): ``per_client={"scoring": {"provider": "deepseek"}}``,
   then the global ``provider=`` (``--provider``) for every client;
2. environment: ``LLM_<CLIENT>_PROVIDER`` and ``LLM_<CLIENT>_MODEL``;
3. the shipped ``defaults.yaml``.

When nothing names a provider for a client, its default provider is used if that provider's
key is present, else the first provider (anthropic, openai, kimi, deepseek) whose key is,
else ``offline``. A provider named explicitly without its key is a ``ConfigError`` naming the
variable to set.

Keys are only ever *checked for presence* here. Settings objects are serialised into session
files, so they hold provider, model, limits and base URL, never a key: the provider reads its
key from the environment when it is constructed (``providers``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from typing import Any, Literal, get_args

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from interview_cli.errors import ConfigError

ProviderName = Literal["offline", "anthropic", "openai", "kimi", "deepseek"]
ClientName = Literal["extraction", "scoring", "generation", "respondent"]

PROVIDERS: tuple[str, ...] = get_args(ProviderName)
CLIENTS: tuple[str, ...] = get_args(ClientName)
OFFLINE_MODEL = "offline"

# Which client serves which task (seed 001 table; respondent is the batch issue's addition).
TASK_CLIENT: dict[str, ClientName] = {
    "extract": "extraction",
    "propose_slots": "extraction",
    "assess": "scoring",
    "generate_opening": "generation",
    "generate_question": "generation",
    "respond_as_persona": "respondent",
}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


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
        default=None, description="anthropic output effort (seed 001: Sonnet 4.6 effort)")

    @property
    def label(self) -> str:
        return "offline" if self.provider == "offline" else f"{self.provider}:{self.model}"


class ProviderInfo(_Strict):
    key_env: str
    base_url_env: str
    base_url: str | None = None
    default_model: str


class RetryTuning(_Strict):
    base_delay_s: float = Field(default=1.0, ge=0)
    max_delay_s: float = Field(default=16.0, ge=0)
    retry_after_cap_s: float = Field(default=20.0, ge=0)


class ClientDefaults(_Strict):
    provider: ProviderName
    model: str
    temperature: float
    max_tokens: int
    timeout_s: float
    max_attempts: int
    effort: Literal["low", "medium", "high"] | None = None


class LLMDefaults(_Strict):
    """The shape of ``defaults.yaml``."""

    provider_order: list[ProviderName]
    providers: dict[str, ProviderInfo]
    clients: dict[ClientName, ClientDefaults]
    retry: RetryTuning = RetryTuning()


class LLMSettings(_Strict):
    """Settings of all four clients plus why they are what they are."""

    extraction: ClientSettings
    scoring: ClientSettings
    generation: ClientSettings
    respondent: ClientSettings
    retry: RetryTuning = RetryTuning()
    notes: dict[str, str] = Field(
        default_factory=dict, description="per client: why it is offline or fell back"
    )

    def client(self, name: str) -> ClientSettings:
        if name not in CLIENTS:
            raise KeyError(name)
        value: ClientSettings = getattr(self, name)
        return value

    def for_task(self, task: str) -> ClientSettings:
        return self.client(TASK_CLIENT[task])

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
            joined = clients[0] if len(clients) == 1 else (
                ", ".join(clients[:-1]) + " and " + clients[-1])
            parts.append(f"{what} for {joined}")
        return ", ".join(parts)


# --------------------------------------------------------------------------------------------
# Loading the shipped defaults
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def load_defaults(path: str | None = None) -> LLMDefaults:
    """Parse ``defaults.yaml`` (the shipped one unless ``path`` is given)."""
    where = path or "interview_cli/llm/defaults.yaml"
    try:
        if path is None:
            text = resources.files("interview_cli.llm").joinpath("defaults.yaml").read_text(
                encoding="utf-8")
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        data = yaml.safe_load(text)
        defaults = LLMDefaults.model_validate(data)
    except OSError as exc:
        raise ConfigError(f"{where}: cannot read: {exc.strerror or exc}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{where}: not valid YAML: {exc}") from None
    except ValidationError as exc:
        problems = [
            f"{where}: {'.'.join(str(p) for p in err['loc'])}: {err['msg']}"
            for err in exc.errors()
        ]
        raise ConfigError(problems[0] if len(problems) == 1 else
                          f"{where}: {len(problems)} problems", problems) from None
    missing: list[str] = [p for p in defaults.provider_order if p not in defaults.providers]
    missing += [c for c in CLIENTS if c not in defaults.clients]
    if missing:
        raise ConfigError(f"{where}: missing entries for {', '.join(missing)}")
    return defaults


def provider_info(provider: str, defaults: LLMDefaults | None = None) -> ProviderInfo:
    table = (defaults or load_defaults()).providers
    if provider not in table:
        raise ConfigError(f"unknown provider {provider!r}; choose one of {', '.join(PROVIDERS)}")
    return table[provider]


def key_env_var(provider: str) -> str | None:
    """The environment variable that holds ``provider``'s key (None for offline)."""
    return None if provider == "offline" else provider_info(provider).key_env


def has_key(provider: str, env: Mapping[str, str]) -> bool:
    var = key_env_var(provider)
    return var is None or bool((env.get(var) or "").strip())


# --------------------------------------------------------------------------------------------
# Resolution
# --------------------------------------------------------------------------------------------

_OVERRIDABLE = frozenset(ClientSettings.model_fields)


def _check_provider(value: str, where: str) -> ProviderName:
    name = value.strip().lower()
    if name not in PROVIDERS:
        raise ConfigError(f"{where}: unknown provider {value!r}; choose one of "
                          f"{', '.join(PROVIDERS)}")
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
            raise ConfigError(f"{client}: unknown setting(s) {', '.join(sorted(unknown))}; "
                              f"choose from {', '.join(sorted(_OVERRIDABLE))}")
        out[client] = {k: v for k, v in fields.items() if v is not None}
    return out


def _resolve_client(
    name: ClientName,
    defaults: LLMDefaults,
    flag_provider: str | None,
    overrides: dict[str, Any],
    env: Mapping[str, str],
) -> tuple[ClientSettings, str]:
    base = defaults.clients[name]
    env_provider_var = f"LLM_{name.upper()}_PROVIDER"
    env_model_var = f"LLM_{name.upper()}_MODEL"

    # Which provider, and who asked for it (an explicit choice must have its key).
    explicit: tuple[ProviderName, str] | None = None
    if overrides.get("provider"):
        explicit = (_check_provider(str(overrides["provider"]), f"{name} provider"),
                    f"the {name} provider option")
    elif flag_provider:
        explicit = (_check_provider(flag_provider, "--provider"), "--provider")
    elif (env.get(env_provider_var) or "").strip():
        explicit = (_check_provider(env[env_provider_var], env_provider_var),
                    env_provider_var)

    note = ""
    provider: ProviderName
    if explicit is not None:
        provider, origin = explicit
        if not has_key(provider, env):
            var = key_env_var(provider)
            raise ConfigError(
                f"{origin} asks for {provider} for the {name} client, but {var} is not set: "
                f"set {var}, or choose another provider (offline needs no key)")
    else:
        candidates: list[ProviderName] = [base.provider, *defaults.provider_order]
        provider = next((p for p in candidates if p != "offline" and has_key(p, env)),
                        "offline")
        if provider == "offline":
            note = "no API key found"
        elif provider != base.provider:
            note = f"{key_env_var(base.provider)} not set"

    # Which model: explicit > env > the table's model when on the default provider > the
    # provider's default model.
    model = overrides.get("model") or (env.get(env_model_var) or "").strip() or None
    if provider == "offline":
        model = OFFLINE_MODEL
    elif model is None:
        model = base.model if provider == base.provider else provider_info(
            provider, defaults).default_model

    base_url: str | None = overrides.get("base_url")
    if provider != "offline" and base_url is None:
        info = provider_info(provider, defaults)
        base_url = (env.get(info.base_url_env) or "").strip() or info.base_url

    fields: dict[str, Any] = {
        "temperature": base.temperature,
        "max_tokens": base.max_tokens,
        "timeout_s": base.timeout_s,
        "max_attempts": base.max_attempts,
        # effort is an anthropic parameter; another provider's model would reject it
        "effort": base.effort if provider == "anthropic" else None,
    }
    fields.update({k: v for k, v in overrides.items() if k not in ("provider", "model",
                                                                     "base_url")})
    try:
        settings = ClientSettings(provider=provider, model=str(model), base_url=base_url,
                                  **fields)
    except ValidationError as exc:
        problems = [f"{name}: {'.'.join(str(p) for p in e['loc'])}: {e['msg']}"
                    for e in exc.errors()]
        raise ConfigError(problems[0], problems) from None
    return settings, note


def resolve_llm_settings(
    provider: str | None = None,
    per_client: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    *,
    defaults_path: str | None = None,
) -> LLMSettings:
    """Resolve every client's settings from flags, environment and the shipped defaults.

    ``provider`` applies to all clients (``--provider``); ``per_client`` maps a client name
    to a provider name or to a dict of ``ClientSettings`` fields (per-client flags). ``env``
    defaults to ``os.environ`` and is only read, never stored.
    """
    environ: Mapping[str, str] = os.environ if env is None else env
    defaults = load_defaults(defaults_path)
    overrides = _normalise_overrides(per_client)
    resolved: dict[str, ClientSettings] = {}
    notes: dict[str, str] = {}
    for name in CLIENTS:
        settings, note = _resolve_client(
            name, defaults, provider, overrides.get(name, {}), environ)  # type: ignore[arg-type]
        resolved[name] = settings
        if note:
            notes[name] = note
    return LLMSettings(**resolved, retry=defaults.retry, notes=notes)


def offline_settings() -> LLMSettings:
    """Every client offline: what tests and demos use without any environment."""
    return resolve_llm_settings(provider="offline", env={})
