"""A capable model on the fake server: the replies a good model writes, per task, and an
interview run over the real SDK against them (the ``test_capable_*`` tests).

What a capable model does that the contract tests' fixed replies do not: it answers every
task correctly but in its own manner - a thank-you paragraph before a question, a summary
over several paragraphs, JSON in a code fence or with a sentence around it when a server
makes it answer in text, labels as long as the prompt lets them be, an edge drawn the way
the sentence runs. Each test scripts the replies of the tasks it is about
(``FakeLLMServer.script_task``) and lets the others take these defaults.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from conftest import SleepRecorder
from fakeserver import FakeLLMServer

from interview_cli.config.library import Library
from interview_cli.core.models import RUBRIC_SIGNALS
from interview_cli.llm.config_file import CLIENTS
from interview_cli.llm.factory import build_llm
from interview_cli.llm.settings import resolve_llm_settings
from interview_cli.pipeline.runner import Interview
from interview_cli.pipeline.setup import new_session
from interview_cli.session.store import SessionStore

REPO = Path(__file__).resolve().parents[2]


def node(label: str, node_type: str, quote: str, stance: int = 1) -> dict[str, Any]:
    return {
        "label": label,
        "node_type": node_type,
        "quote": quote,
        "stance": stance,
        "confidence": 0.9,
    }


def edge(source: str, target: str, quote: str, relation: str = "leads_to") -> dict[str, Any]:
    return {
        "source": source,
        "target": target,
        "relation": relation,
        "quote": quote,
        "confidence": 0.85,
    }


def extraction(nodes: list[dict[str, Any]], edges: list[dict[str, Any]] = ()) -> dict[str, Any]:  # type: ignore[assignment]
    return {
        "extractable": bool(nodes),
        "reason": "the answer names what matters and why" if nodes else "nothing to extract",
        "nodes": list(nodes),
        "edges": list(edges),
    }


def assessment(**overrides: Any) -> dict[str, Any]:
    """An engaged, concrete answer's assessment, rationale before each score."""
    scores = {
        name: {"rationale": "a clear, reasoned answer", "score": 4} for name in RUBRIC_SIGNALS
    }
    return {
        "rationale": "an engaged answer about the topic",
        **scores,
        "hedging_language": "low",
        "knowledge_ceiling": "none",
        "answer_kind": "answer",
        "safety": "none",
        **overrides,
    }


def slots(*proposals: tuple[str, str, list[str]]) -> dict[str, Any]:
    return {
        "proposals": [
            {
                "slot_name": name,
                "description": f"the idea of {name.replace('_', ' ')}",
                "node_type": node_type,
                "surface_labels": labels,
            }
            for name, node_type, labels in proposals
        ]
    }


def capable_defaults(server: FakeLLMServer) -> None:
    """Replies for the tasks a test does not script: an empty extraction, an engaged
    assessment, no slots, and a plain question."""
    server.tool_inputs.update(
        {
            "record_extraction": extraction([]),
            "record_assessment": assessment(),
            "propose_slots": {"proposals": []},
        }
    )
    server.text_reply = "What does that give you?"


def remote_llm(env: dict[str, str], *, path: str = "openai") -> Any:
    """The factory's ``InterviewLLM`` for every client on ``path``, instant retries."""
    limits = {"timeout_s": 10.0, "max_attempts": 2}
    settings = resolve_llm_settings(provider=path, env=env, per_client={c: limits for c in CLIENTS})
    return build_llm(settings, env=env, sleep=SleepRecorder(), rng=random.Random(3))


def interview_on(
    llm: Any,
    folder: Path,
    *,
    concept: str = "headphones_mec",
    max_turns: int = 8,
    slots_on: bool = False,
) -> Interview:
    """A new session of ``concept`` saved in ``folder``, conducted by ``llm``."""
    lib = Library.discover(cwd=REPO)
    loaded = lib.concept(concept)
    session = new_session(
        session_id=f"{concept}-20260101-000000-abcd",
        concept=loaded,
        methodology=lib.methodology(loaded.value.methodology),
        settings=getattr(llm, "settings", None) or resolve_llm_settings(provider="offline"),
        max_turns=max_turns,
        canonical_slots=slots_on,
    )
    return Interview(session, store=SessionStore(folder), llm=llm)


def run_closed(llm: Any, coro: Any) -> Any:
    """Run ``coro`` and close the SDK clients in the same event loop."""

    async def go() -> Any:
        try:
            return await coro
        finally:
            await llm.aclose()

    return asyncio.run(go())
