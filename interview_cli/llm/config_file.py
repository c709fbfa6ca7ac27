"""The LLM clients' tunable numbers and the provider registry: ``defaults.yaml`` and the
user's file.

``llm.settings`` resolves which provider and model each client uses; this module only reads
what the numbers start from: the package's ``defaults.yaml`` and, laid over it key by key, the
file named by ``INTERVIEW_LLM_CONFIG`` (same shape, every key optional, unknown keys refused,
errors naming the user's file and key). See ``llm.settings`` for the whole resolution order.

The ``providers:`` section of ``defaults.yaml`` is the provider registry (``ProviderSpec``):
every fact about a provider (which SDK speaks to it, the variables of its key and base URL,
its default model, the model names only it serves, its table in ``pricing.yaml`` and what its
API accepts) is there and nowhere else. The settings, the provider factory
(``llm.providers.make_provider``), pricing, the CLI (`interview providers`, and every
unknown-provider message) read it. ``offline`` is built in and is no entry of it. A user's
file may change an entry (its base URL, its default model), not add one.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, get_args
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from interview_cli.config.loader import (
    Loc,
    config_error,
    display_path,
    parse_yaml,
    problem_line,
    read_yaml,
    validation_problems,
)
from interview_cli.errors import ConfigError

# A provider's name: "offline" or an entry of the registry (checked against it where a name
# comes in: the defaults and the user's file here, flags and variables in llm.resolution).
ProviderName = str
OFFLINE = "offline"
ClientName = Literal["extraction", "scoring", "generation", "respondent"]
TaskName = Literal[
    "extract",
    "propose_slots",
    "assess",
    "generate_opening",
    "generate_question",
    "respond_as_persona",
]

CLIENTS: tuple[str, ...] = get_args(ClientName)
CONFIG_ENV = "INTERVIEW_LLM_CONFIG"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Capabilities(_Strict):
    """What a provider's API accepts, where providers of one SDK differ."""

    sampling: Literal["temperature", "effort"] = Field(
        default="temperature",
        description="how output is tuned: a temperature, or (anthropic 2.x) an effort level",
    )
    max_tokens_param: Literal["max_tokens", "max_completion_tokens"] = Field(
        default="max_tokens", description="the name the API gives the output-token limit"
    )
    stream_usage: bool = Field(
        default=True, description='accepts stream_options={"include_usage": true}'
    )


class ProviderSpec(_Strict):
    """One entry of the provider registry (``defaults.yaml`` ``providers:``)."""

    about: str = Field(default="", description="one line for `interview providers`")
    sdk: Literal["anthropic", "openai"] = Field(
        description="the official SDK that speaks to it (openai: any OpenAI-compatible API)"
    )
    key_env: str
    base_url_env: str
    base_url: str | None = None
    default_model: str
    # A server the user runs (openai-compatible: Ollama, vLLM, LM Studio...): it needs a base
    # URL and a model, and a key only when the server asks for one.
    own_server: bool = False
    model_env: str | None = Field(default=None, description="variable naming the model")
    models: str | None = Field(
        default=None,
        description="a regular expression matching the model names only this provider's API "
        "serves (claude-...): a model of it sent to another provider is refused up front",
    )
    pricing: str | None = Field(
        default=None, description="its table in pricing.yaml (default: the provider's name)"
    )
    capabilities: Capabilities = Capabilities()

    @field_validator("models")
    @classmethod
    def _a_pattern(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as exc:
                raise ValueError(f"not a regular expression ({exc})") from None
        return value


class RetryTuning(_Strict):
    base_delay_s: float = Field(default=1.0, ge=0)
    max_delay_s: float = Field(default=16.0, ge=0)
    retry_after_cap_s: float = Field(default=20.0, ge=0)


class ClientDefaults(_Strict):
    provider: ProviderName
    model: str
    temperature: float = Field(ge=0.0, le=2.0)
    max_tokens: int = Field(ge=1)
    timeout_s: float = Field(gt=0)
    max_attempts: int = Field(ge=1, le=10)
    effort: Literal["low", "medium", "high"] | None = None


class TaskDefaults(_Strict):
    """Settings of one task that override its client's (only the timeout, for now)."""

    timeout_s: float | None = Field(default=None, gt=0)


class LLMDefaults(_Strict):
    """The shape of ``defaults.yaml`` (and, every key optional, of ``INTERVIEW_LLM_CONFIG``)."""

    provider_order: list[ProviderName]
    providers: dict[ProviderName, ProviderSpec]
    clients: dict[ClientName, ClientDefaults]
    retry: RetryTuning = RetryTuning()
    tasks: dict[TaskName, TaskDefaults] = Field(default_factory=dict)

    @property
    def provider_names(self) -> tuple[ProviderName, ...]:
        """Every provider a client may use: offline, then the registry in its order."""
        return (OFFLINE, *self.providers)

    def pricing_table(self, provider: ProviderName) -> str:
        """The name of ``provider``'s table in pricing.yaml."""
        spec = self.providers.get(provider)
        return (spec.pricing if spec is not None else None) or provider

    def unregistered(self) -> list[tuple[Loc, str]]:
        """(key path, message) for each provider named here that the registry lacks."""
        named: list[tuple[Loc, str]] = [
            (("provider_order", i), p) for i, p in enumerate(self.provider_order)
        ]
        named += [(("clients", c, "provider"), d.provider) for c, d in self.clients.items()]
        problems: list[tuple[Loc, str]] = (
            [(("providers", OFFLINE), f"{OFFLINE} is built in, it is no entry of the registry")]
            if OFFLINE in self.providers
            else []
        )
        registered = ", ".join(self.provider_names)
        problems += [
            (loc, f"unknown provider {p!r}; the registry (providers:) has {registered}")
            for loc, p in named
            if p not in self.provider_names
        ]
        return problems


# The user file: the same keys with nothing required. Validated on its own first, so that a
# mistake is reported against the user's file and key, not the merged result.
class _ProviderOverride(_Strict):
    about: str = ""
    sdk: Literal["anthropic", "openai"] = "openai"
    key_env: str = Field(default="", min_length=1)
    base_url_env: str = Field(default="", min_length=1)
    base_url: str | None = None
    default_model: str = ""  # "": none (a server of your own names its model elsewhere)
    own_server: bool = False
    model_env: str = Field(default="", min_length=1)
    models: str | None = None
    pricing: str | None = None
    capabilities: Capabilities = Capabilities()


class _ClientOverride(_Strict):
    provider: ProviderName = OFFLINE
    model: str = Field(default="", min_length=1)
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    max_tokens: int = Field(default=1, ge=1)
    timeout_s: float = Field(default=1.0, gt=0)
    max_attempts: int = Field(default=1, ge=1, le=10)
    effort: Literal["low", "medium", "high"] | None = None


class _RetryOverride(_Strict):
    base_delay_s: float = Field(default=0.0, ge=0)
    max_delay_s: float = Field(default=0.0, ge=0)
    retry_after_cap_s: float = Field(default=0.0, ge=0)


class LLMConfigFile(_Strict):
    """``INTERVIEW_LLM_CONFIG``: only the keys it sets count (defaults here are never used)."""

    provider_order: list[ProviderName] = Field(default_factory=list)
    providers: dict[ProviderName, _ProviderOverride] = Field(default_factory=dict)
    clients: dict[ClientName, _ClientOverride] = Field(default_factory=dict)
    retry: _RetryOverride = _RetryOverride()
    tasks: dict[TaskName, TaskDefaults] = Field(default_factory=dict)
    # Prices of your own (``llm.pricing``: US dollars per million tokens, the shape of the
    # shipped pricing.yaml's ``prices:``); validated there, not merged into the defaults.
    prices: dict[str, dict[str, Any]] = Field(default_factory=dict)


# --------------------------------------------------------------------------------------------
# Loading the shipped defaults and the user's config file
# --------------------------------------------------------------------------------------------


_SHIPPED_DEFAULTS = Path("interview_cli/llm/defaults.yaml")  # how errors name the shipped file
_USER_EXPECTED = f"{CONFIG_ENV} settings shaped like the shipped defaults.yaml"


@lru_cache(maxsize=8)
def _defaults_data(path: str | None) -> dict[str, Any]:
    if path is None:
        text = (
            resources.files("interview_cli.llm")
            .joinpath("defaults.yaml")
            .read_text(encoding="utf-8")
        )
        return parse_yaml(_SHIPPED_DEFAULTS, text, expected="the LLM defaults").data
    return read_yaml(Path(path), expected="the LLM defaults").data


def _checked_defaults(data: dict[str, Any], where: Path) -> LLMDefaults:
    try:
        defaults = LLMDefaults.model_validate(data)
    except ValidationError as exc:
        raise config_error(validation_problems(where, LLMDefaults, exc)) from None
    unregistered = defaults.unregistered()
    if unregistered:
        raise config_error([problem_line(where, loc, message) for loc, message in unregistered])
    missing = [c for c in CLIENTS if c not in defaults.clients]
    if missing:
        raise ConfigError(f"{display_path(where)}: missing entries for {', '.join(missing)}")
    return defaults


@lru_cache(maxsize=8)
def load_defaults(path: str | None = None) -> LLMDefaults:
    """Parse ``defaults.yaml`` (the shipped one unless ``path`` is given)."""
    return _checked_defaults(_defaults_data(path), Path(path) if path else _SHIPPED_DEFAULTS)


@dataclass(frozen=True)
class LLMConfig:
    """The shipped defaults with the user's file laid over them, and what that file set."""

    defaults: LLMDefaults
    user: LLMConfigFile | None = None

    def user_client_sets(self, client: str, field: str) -> bool:
        if self.user is None or client not in self.user.clients:
            return False
        return field in self.user.clients[client].model_fields_set

    def user_task_timeout(self, task: str) -> bool:
        tasks = self.user.tasks if self.user is not None else {}
        return task in tasks and tasks[task].timeout_s is not None

    @property
    def user_prices(self) -> dict[str, dict[str, Any]]:
        """The ``prices:`` of the user's file (raw; ``llm.pricing`` validates them)."""
        return dict(self.user.prices) if self.user is not None else {}

    def user_base_url(self, provider: ProviderName) -> str | None:
        """The base URL the user's file gives ``provider`` (None when it gives none)."""
        providers = self.user.providers if self.user is not None else {}
        return providers[provider].base_url if provider in providers else None


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


@lru_cache(maxsize=8)
def _user_config(path: str, mtime_ns: int, defaults_path: str | None) -> LLMConfig:
    # mtime in the cache key: an edited file is re-read, an unchanged one is not.
    where = Path(path)
    # Every key is optional, so an empty (or all commented-out) file overrides nothing.
    data = read_yaml(where, expected=_USER_EXPECTED, allow_empty=True).data
    try:
        user = LLMConfigFile.model_validate(data)
    except ValidationError as exc:
        raise config_error(validation_problems(where, LLMConfigFile, exc)) from None
    # The user's file changes registry entries, it adds none: the provider factory, pricing
    # and the key checks read the package's registry.
    shipped = load_defaults(defaults_path)
    unknown = [
        problem_line(
            where,
            ("providers", name),
            f"unknown provider {name!r}; the registry has {', '.join(shipped.providers)} "
            "(a new provider is an entry of interview_cli/llm/defaults.yaml)",
        )
        for name in user.providers
        if name not in shipped.providers
    ]
    if unknown:
        raise config_error(unknown)
    # Only keys the user wrote are laid over the shipped values; the merge can still be
    # wrong as a whole (a provider name no entry has), and that is the user's file too.
    laid_over = user.model_dump(exclude_unset=True)
    laid_over.pop("prices", None)  # read by llm.pricing (load_user_prices)
    merged = _merge(_defaults_data(defaults_path), laid_over)
    return LLMConfig(defaults=_checked_defaults(merged, where), user=user)


def load_config(
    env: Mapping[str, str] | None = None, *, defaults_path: str | None = None
) -> LLMConfig:
    """The shipped defaults, overlaid by the ``INTERVIEW_LLM_CONFIG`` file when that is set."""
    environ = os.environ if env is None else env
    path = (environ.get(CONFIG_ENV) or "").strip()
    if not path:
        return LLMConfig(defaults=load_defaults(defaults_path))
    try:
        mtime = os.stat(path).st_mtime_ns
    except OSError as exc:
        raise ConfigError(
            f"{path}: cannot read the LLM config file ({CONFIG_ENV}): {exc.strerror or exc}"
        ) from None
    return _user_config(path, mtime, defaults_path)


def check_base_url(url: str, where: str) -> None:
    """A ``ConfigError`` naming ``where`` (the variable or setting) unless ``url`` is an
    http(s) URL with a host and a valid port: the SDKs fail late and vaguely on anything else
    (a missing scheme, ``http//host``, a port of 99999, spaces)."""
    try:
        parts = urlsplit(url)
        port_ok = parts.port is None or 0 < parts.port
    except ValueError:
        parts, port_ok = None, False
    if (
        parts is not None
        and port_ok
        and parts.scheme in ("http", "https")
        and parts.hostname
        and not any(ch.isspace() for ch in url)
    ):
        return
    shown = url if parts is None or parts.password is None else url.replace(parts.password, "***")
    raise ConfigError(
        f"{where}={shown!r} is not a valid base URL; expected http(s)://host[:port][/path], "
        "for example https://api.openai.com/v1 (or unset it for the provider's default)"
    )
