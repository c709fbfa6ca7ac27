"""The assessor with a capable model (over the real SDK against the fake server): it is told
the study (topic and objective) before it judges off-topic talk, it is asked each rationale
before its score, and a safety reading it writes in its own words never passes as no concern.
"""

from __future__ import annotations

from typing import Any

import pytest
from capable_model import assessment, capable_defaults, remote_llm, run_closed
from conftest import REPO
from fakeserver import FakeLLMServer, Step

from interview_cli.config.loader import load_concept
from interview_cli.core.models import RUBRIC_SIGNALS
from interview_cli.llm.protocol import AssessRequest

CONCEPT = load_concept(REPO / "concepts" / "headphones_mec.yaml").value
QUESTION = "What does being able to focus on the train give you?"


def assess(server: FakeLLMServer, env: dict[str, str], answer: str, **reply: Any) -> Any:
    capable_defaults(server)
    server.script_task("assess", Step(tool_input=assessment(**reply)))
    llm = remote_llm(env)
    request = AssessRequest(
        question=QUESTION, answer=answer, topic=CONCEPT.name, objective=CONCEPT.objective
    )
    return run_closed(llm, llm.assess(request)).value


def test_the_assessor_knows_the_study(
    fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    assess(fake_server, provider_env, "Honestly I'd rather talk about my football team")
    (sent,) = fake_server.requests
    user = sent.body["messages"][-1]["content"]
    assert "Interview topic: **Wireless headphones**" in user
    assert "Research objective: Explore how people evaluate wireless headphones" in user
    schema = sent.body["tools"][0]["function"]["parameters"]
    assert list(schema["properties"])[0] == "rationale"
    for name in RUBRIC_SIGNALS:
        assert list(schema["properties"][name]["properties"]) == ["rationale", "score"]
    system = sent.body["messages"][0]["content"]
    assert "write the rationale first, then the score" in system


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("self-harm", "distress"),
        ("Self harm", "distress"),
        ("suicidal", "distress"),
        ("possible risk to themselves", "distress"),
        ("harassment", "abuse"),
        ("none", "none"),
    ],
)
def test_safety_fails_safe(
    fake_server: FakeLLMServer, provider_env: dict[str, str], written: str, read: str
) -> None:
    value = assess(fake_server, provider_env, "I can't cope with any of it", safety=written)
    assert value.safety == read
    if written == "possible risk to themselves":  # not a kind: a concern, and recorded so
        assert "unknown value 'possible risk to themselves', read as 'distress'" in value.rationale
