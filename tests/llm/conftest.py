"""Fixtures of the LLM contract tests: the fake provider server, fake keys, instant retries."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fakeserver import FakeLLMServer
from offline_methods_fixtures import shipped_concepts, shipped_methods

from interview_cli.config.schemas import Concept, Methodology

# Distinctive fake keys: the tests search every output for them (and the prefixes that some
# error bodies echo), so they must be recognisable and never occur by chance.
FAKE_KEYS: dict[str, str] = {
    "ANTHROPIC_API_KEY": "sk-ant-test-K3Y-anthropic-5e1b7f0c9d",
    "OPENAI_API_KEY": "sk-test-K3Y-openai-8a2c4e6f10b3",
    "KIMI_API_KEY": "sk-test-K3Y-kimi-77d1a09c3e5b",
    "DEEPSEEK_API_KEY": "sk-test-K3Y-deepseek-4b9e2d61f07a",
}


@pytest.fixture(scope="session")
def _shared_server() -> Iterator[FakeLLMServer]:
    server = FakeLLMServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def fake_server(_shared_server: FakeLLMServer) -> FakeLLMServer:
    """The fake provider server, reset to answer every request correctly."""
    _shared_server.reset()
    return _shared_server


@pytest.fixture
def provider_env(fake_server: FakeLLMServer) -> dict[str, str]:
    """An environment whose four providers all point at the fake server."""
    return {
        **FAKE_KEYS,
        "ANTHROPIC_BASE_URL": fake_server.anthropic_base_url,
        "OPENAI_BASE_URL": fake_server.openai_base_url,
        "KIMI_BASE_URL": fake_server.openai_base_url,
        "DEEPSEEK_BASE_URL": fake_server.openai_base_url,
    }


class SleepRecorder:
    """Stands in for asyncio.sleep in retry policies: records the waits, waits for nothing."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@pytest.fixture
def sleeps() -> SleepRecorder:
    return SleepRecorder()


@pytest.fixture
def rng() -> random.Random:
    return random.Random(1234)


# --------------------------------------------------------------------------------------------
# One request per task, and a valid tool input for each structured task
# --------------------------------------------------------------------------------------------

REPO = Path(__file__).resolve().parents[2]
ANSWER = (
    "I love the creamy texture because it makes my coffee feel like a treat, "
    "which means I start the day in a good mood."
)


@dataclass(frozen=True)
class TaskKit:
    """Requests for the six tasks and what a well-behaved model would answer to each."""

    requests: dict[str, Any]
    tool_inputs: dict[str, Any]
    bad_args: dict[str, Any]

    async def call(self, llm: Any, task: str, on_token: Any = None) -> Any:
        request = self.requests[task]
        if task in ("generate_opening", "generate_question"):
            return await getattr(llm, task)(request, on_token)
        return await getattr(llm, task)(request)


STRUCTURED_TASKS = ("extract", "assess", "propose_slots")
TEXT_TASKS = ("generate_opening", "generate_question", "respond_as_persona")
TASKS = STRUCTURED_TASKS + TEXT_TASKS


@pytest.fixture(scope="session")
def kit() -> TaskKit:
    from interview_cli.config.loader import load_concept, load_methodology, load_persona
    from interview_cli.core.models import RUBRIC_SIGNALS
    from interview_cli.llm.prompts import ASSESSMENT_TOOL, EXTRACTION_TOOL, SLOTS_TOOL
    from interview_cli.llm.protocol import (
        AssessRequest,
        Exchange,
        ExtractRequest,
        OpeningRequest,
        PersonaRequest,
        QuestionRequest,
        SlotRequest,
    )

    methodology = load_methodology(REPO / "methodologies" / "means_end_chain.yaml").value
    concept = load_concept(REPO / "concepts" / "oat_milk_mec.yaml").value
    persona = load_persona(REPO / "personas" / "cooperative.yaml").value
    strategy = next(s for s in methodology.strategies if s.name == "deepen")
    question = "What do you notice first when you pour it into your coffee?"
    requests: dict[str, Any] = {
        "extract": ExtractRequest(
            methodology=methodology,
            concept=concept,
            answer=ANSWER,
            utterance_id="u1",
            question=question,
            existing_labels=["oat milk"],
        ),
        "assess": AssessRequest(question=question, answer=ANSWER),
        "propose_slots": SlotRequest(
            node_type="attribute", labels=["creamy texture", "smooth mouthfeel"]
        ),
        "generate_opening": OpeningRequest(methodology=methodology, concept=concept),
        "generate_question": QuestionRequest(
            methodology=methodology,
            concept=concept,
            strategy=strategy,
            focus_label="creamy texture",
            focus_type="attribute",
            recent=[Exchange(question=question, answer=ANSWER)],
            turn_number=2,
        ),
        "respond_as_persona": PersonaRequest(
            persona=persona, question=question, concept=concept, methodology=methodology
        ),
    }
    score = {"score": 4, "rationale": "gives a reason"}
    tool_inputs = {
        EXTRACTION_TOOL: {
            "extractable": True,
            "reason": "a clear attribute and its consequence",
            "nodes": [
                {
                    "label": "creamy texture",
                    "node_type": "attribute",
                    "quote": "the creamy texture",
                    "stance": 1,
                    "confidence": 0.9,
                    "element_id": None,
                    "reaction": None,
                },
                {
                    "label": "coffee feels like a treat",
                    "node_type": "psychosocial_consequence",
                    "quote": "it makes my coffee feel like a treat",
                    "stance": 1,
                    "confidence": 0.8,
                    "element_id": None,
                    "reaction": None,
                },
            ],
            "edges": [
                {
                    "source": "creamy texture",
                    "target": "coffee feels like a treat",
                    "relation": "leads_to",
                    "quote": "because it makes my coffee feel like a treat",
                    "confidence": 0.8,
                },
            ],
        },
        ASSESSMENT_TOOL: {
            **{name: score for name in RUBRIC_SIGNALS},
            "hedging_language": "none",
            "knowledge_ceiling": "none",
            "answer_kind": "answer",
            "safety": "none",
            "rationale": "engaged and specific",
        },
        SLOTS_TOOL: {
            "proposals": [
                {
                    "slot_name": "creamy_texture",
                    "description": "mouthfeel",
                    "node_type": "attribute",
                    "surface_labels": ["creamy texture", "smooth mouthfeel"],
                }
            ]
        },
    }
    # Top-level shapes no validator can salvage: the "schema-violating tool arguments" fault.
    bad_args = {
        EXTRACTION_TOOL: {"nodes": "creamy", "edges": 7},
        ASSESSMENT_TOOL: {"overall": "deep"},
        SLOTS_TOOL: {"proposals": "creamy_texture"},
    }
    return TaskKit(requests=requests, tool_inputs=tool_inputs, bad_args=bad_args)


@pytest.fixture
def task_server(fake_server: FakeLLMServer, kit: TaskKit) -> FakeLLMServer:
    """The fake server, answering each structured task's tool with the kit's valid input
    (the task-level contract tests: test_providers_tasks.py, test_providers_streaming.py)."""
    fake_server.tool_inputs.update(kit.tool_inputs)
    return fake_server


@pytest.fixture(scope="module")
def methods() -> dict[str, Methodology]:
    """The shipped methodologies, by name (the offline provider's tests)."""
    return shipped_methods()


@pytest.fixture(scope="module")
def concepts() -> dict[str, Concept]:
    """The shipped concepts, by id."""
    return shipped_concepts()
