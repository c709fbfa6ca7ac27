"""Real providers over the official SDKs: anthropic, and openai-compatible (openai, kimi,
deepseek, and any server of your own under ``openai-compatible``); which SDK a provider uses
is its ``sdk`` in the registry (``llm.config_file``). Importing this package
imports no SDK; building a provider does not either: the SDK is imported when the provider
first needs its client (see ``base``).
"""

from __future__ import annotations

from collections.abc import Mapping

from interview_cli.errors import ConfigError
from interview_cli.llm.client_settings import ClientSettings, provider_info
from interview_cli.llm.config_file import OFFLINE
from interview_cli.llm.failures import ProviderError
from interview_cli.llm.providers.base import (
    ChatMessage,
    Provider,
    ProviderReply,
    ProviderRequest,
)

__all__ = [
    "ChatMessage",
    "Provider",
    "ProviderError",
    "ProviderReply",
    "ProviderRequest",
    "make_provider",
]


def make_provider(settings: ClientSettings, *, env: Mapping[str, str] | None = None) -> Provider:
    """The provider for ``settings``, over the SDK its registry entry names; reads its key
    from ``env`` (default ``os.environ``)."""
    if settings.provider == OFFLINE:
        raise ConfigError(f"no remote provider for {settings.provider!r}")
    sdk = provider_info(settings.provider).sdk
    if sdk == "anthropic":
        from interview_cli.llm.providers.anthropic import AnthropicProvider

        return AnthropicProvider(settings, env=env)
    from interview_cli.llm.providers.openai_compat import OpenAICompatProvider

    return OpenAICompatProvider(settings, env=env)
