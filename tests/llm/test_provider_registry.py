"""The provider registry (``providers:`` of interview_cli/llm/defaults.yaml) is the one place
that knows a provider: an entry added there is resolved by the settings, built by the factory
over the SDK it names, priced from the table it names, told apart by its model names and
listed by `interview providers`, with no other file touched."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fakeserver import FakeLLMServer
from provider_fixtures import TOOL, request
from typer.testing import CliRunner

from interview_cli.cli.app import app
from interview_cli.config.yamlio import load_yaml
from interview_cli.errors import ConfigError, UsageError
from interview_cli.llm import config_file
from interview_cli.llm.client_settings import model_family
from interview_cli.llm.pricing import call_cost, load_pricing
from interview_cli.llm.providers import make_provider
from interview_cli.llm.settings import resolve_llm_settings

SHIPPED = Path(config_file.__file__).with_name("defaults.yaml")
ACME = {
    "about": "Acme's OpenAI-compatible API",
    "sdk": "openai",
    "key_env": "ACME_API_KEY",
    "base_url_env": "ACME_BASE_URL",
    "base_url": "https://api.acme.invalid/v1",
    "default_model": "acme-large",
    "models": "^acme-",
    "pricing": "deepseek",  # priced like deepseek's models
    "capabilities": {"max_tokens_param": "max_completion_tokens"},
}


def _clear() -> None:
    config_file.load_defaults.cache_clear()
    config_file._defaults_data.cache_clear()
    config_file._user_config.cache_clear()


@pytest.fixture
def with_acme(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The package's registry with one more entry, as a contributor adds it."""
    data = load_yaml(SHIPPED.read_text("utf-8"))
    data["providers"]["acme"] = ACME
    original = config_file._defaults_data

    def defaults(path: str | None) -> dict[str, Any]:
        return data if path is None else original(path)

    _clear()
    monkeypatch.setattr(config_file, "_defaults_data", defaults)
    yield
    monkeypatch.undo()
    _clear()


def test_an_added_provider_is_resolved_built_and_called_over_its_sdk(
    with_acme: None, fake_server: FakeLLMServer
) -> None:
    env = {"ACME_API_KEY": "sk-acme-test", "ACME_BASE_URL": fake_server.openai_base_url}
    settings = resolve_llm_settings(provider="acme", env=env)
    client = settings.extraction
    assert (client.provider, client.model) == ("acme", "acme-large")
    assert client.base_url == fake_server.openai_base_url and client.effort is None
    fake_server.tool_inputs[TOOL] = {"answer": 42}
    provider = make_provider(client.model_copy(update={"timeout_s": 5.0}), env=env)

    async def call() -> Any:
        try:
            return await provider.complete(request(), None)
        finally:
            await provider.aclose()

    assert asyncio.run(call()).data == {"answer": 42}
    sent = fake_server.requests[-1]
    assert sent.path == "/v1/chat/completions"
    assert sent.headers["authorization"] == "Bearer sk-acme-test"
    assert sent.body["max_completion_tokens"] == 64 and "max_tokens" not in sent.body


def test_an_added_provider_is_priced_from_the_table_it_names(with_acme: None) -> None:
    table = load_pricing({})
    assert call_cost("acme", "deepseek-chat", 1_000_000, 0, table=table) == pytest.approx(0.14)
    assert call_cost("acme", "acme-large", 1_000, 0, table=table) is None  # unpriced, not free


def test_an_added_providers_model_names_are_its_own(with_acme: None) -> None:
    assert model_family("acme-small") == "acme" and model_family("claude-x") == "anthropic"
    env = {"OPENAI_API_KEY": "o", "LLM_EXTRACTION_MODEL": "acme-small"}
    with pytest.raises(UsageError, match="is an acme model, but the extraction client uses"):
        resolve_llm_settings(provider="openai", env=env)


def test_unknown_providers_are_told_the_registry(with_acme: None) -> None:
    with pytest.raises(ConfigError) as exc:
        resolve_llm_settings(provider="akme", env={})
    assert str(exc.value).endswith(
        "choose one of offline, anthropic, openai, kimi, deepseek, openai-compatible, acme"
    )


def test_interview_providers_lists_the_registry_and_what_is_set(
    with_acme: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ACME_API_KEY", "sk-acme-test")
    result = CliRunner().invoke(app, ["providers", "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["name"]: r for r in json.loads(result.stdout)}
    assert list(rows)[:2] == ["offline", "anthropic"] and rows["acme"]["usable"] is True
    assert rows["acme"]["key_env"] == "ACME_API_KEY" and rows["anthropic"]["usable"] is False
    table = CliRunner().invoke(app, ["providers"], env={"COLUMNS": "120"})
    assert "acme-large" in table.stdout and "ACME_API_KEY" in table.stdout


def test_a_users_file_changes_an_entry_but_adds_none(tmp_path: Path) -> None:
    path = tmp_path / "llm.yaml"
    path.write_text("providers:\n  kimi: {base_url: 'http://127.0.0.1:9/v1'}\n")
    env = {"INTERVIEW_LLM_CONFIG": str(path), "KIMI_API_KEY": "k"}
    assert resolve_llm_settings(provider="kimi", env=env).scoring.base_url == (
        "http://127.0.0.1:9/v1"
    )
    path.write_text("providers:\n  acme: {key_env: ACME_API_KEY}\n")
    with pytest.raises(ConfigError) as exc:
        resolve_llm_settings(env={"INTERVIEW_LLM_CONFIG": str(path)})
    assert str(exc.value).startswith(f"{path}: providers.acme: unknown provider 'acme'")


def test_every_shipped_entry_is_described_and_priced_or_your_own() -> None:
    registry = config_file.load_defaults()
    prices = load_pricing({}).prices
    for name, spec in registry.providers.items():
        assert spec.about, name
        assert spec.own_server or registry.pricing_table(name) in prices, name
        assert spec.own_server or spec.models, name  # its models are told apart
