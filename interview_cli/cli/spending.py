"""What `run` and `batch` share about which server and model, and how much may be spent.

``--base-url URL`` and ``--model M`` name the endpoint and model of the clients that
``--provider`` sets (``--provider openai-compatible --base-url http://localhost:11434/v1
--model llama3.1:8b`` for a local Ollama); ``--max-cost USD`` is a hard spend cap
(``llm.spend``). Kept apart from the commands so that both take the same options.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from interview_cli.llm.client_settings import LLMSettings
    from interview_cli.llm.spend import SpendCap

BaseUrlOption = Annotated[
    str | None,
    typer.Option(
        "--base-url",
        metavar="URL",
        help="Endpoint of the model server (with --provider openai-compatible: your Ollama, "
        "vLLM or LM Studio, e.g. http://localhost:11434/v1). Also: OPENAI_COMPATIBLE_BASE_URL.",
        show_default=False,
    ),
]

ModelOption = Annotated[
    str | None,
    typer.Option(
        "--model",
        metavar="NAME",
        help="Model of the interviewer's clients (with --provider openai-compatible: the name "
        "your server lists). Also: OPENAI_COMPATIBLE_MODEL, `LLM_<CLIENT>_MODEL`.",
        show_default=False,
    ),
]

MaxCostOption = Annotated[
    float | None,
    typer.Option(
        "--max-cost",
        metavar="USD",
        min=0.0,
        help="Hard spend cap in US dollars: stop before a model call that could pass it "
        "(sessions stay resumable; exit 3). Counts what was spent before.",
        show_default=False,
    ),
]


def with_server(
    per_client: dict[str, Any],
    clients: Iterable[str],
    *,
    base_url: str | None,
    model: str | None,
) -> dict[str, Any]:
    """``per_client`` with ``--base-url`` and ``--model`` added for ``clients`` (a client's
    own model option, already there, wins)."""
    out = {name: dict(value) for name, value in per_client.items()}
    for name in clients:
        entry = out.setdefault(name, {})
        if base_url:
            entry["base_url"] = base_url.strip()
        if model and not entry.get("model"):
            entry["model"] = model.strip()
        if not entry:
            del out[name]
    return out


def open_budget(
    max_cost: float | None,
    settings: LLMSettings,
    clients: Iterable[str],
    *,
    already_spent: float = 0.0,
) -> SpendCap | None:
    """The spend cap for ``--max-cost`` (None without it). Refuses models without a price
    (exit 2, before anything runs): their calls could not be bounded."""
    if max_cost is None:
        return None
    from interview_cli.llm.pricing import load_pricing
    from interview_cli.llm.spend import SpendCap, require_prices

    require_prices(settings, clients, load_pricing())
    return SpendCap(max_cost, already_spent=already_spent)


def cap_hint(max_cost: float) -> str:
    """How to go on after the cap stopped a command."""
    return f"raise --max-cost above ${max_cost:g} to go on"
