"""The slot-discovery request a capable model is sent (over the real SDK against the fake
server, from a live interview): existing slots come with what they mean and labels in them,
the required description is explained, and the tool's schema is the same every call so that
a provider can cache it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from capable_model import (
    capable_defaults,
    extraction,
    interview_on,
    node,
    remote_llm,
    run_closed,
    slots,
)
from fakeserver import FakeLLMServer, Step


def test_the_slot_request_describes_its_slots_and_keeps_one_schema(
    fake_server: FakeLLMServer, provider_env: dict[str, str], tmp_path: Path
) -> None:
    capable_defaults(fake_server)
    fake_server.script_task(
        "extract",
        Step(tool_input=extraction([node("tidy shelves", "attribute", "tidy shelves")])),
        Step(tool_input=extraction([node("everything in its place", "attribute", "its place")])),
    )
    fake_server.script_task(
        "propose_slots",
        Step(tool_input=slots(("organised_space", "attribute", ["tidy shelves"]))),
        Step(tool_input={"proposals": []}),
    )
    llm = remote_llm(provider_env)
    interview = interview_on(llm, tmp_path, slots_on=True)

    async def go() -> None:
        await interview.ensure_question()
        await interview.submit("I like tidy shelves")
        await interview.submit("I want everything in its place")
        await interview.settle_slots()

    run_closed(llm, go())
    calls = [r.body for r in fake_server.requests if "propose_slots" in json.dumps(r.body)]
    assert len(calls) == 2
    second: Any = calls[1]
    user = second["messages"][-1]["content"]
    assert '- organised_space: the idea of organised space (e.g. "tidy shelves")' in user
    system = second["messages"][0]["content"]
    assert "`description`: one plain sentence" in system
    schemas = [c["tools"][0]["function"]["parameters"] for c in calls]
    assert schemas[0] == schemas[1]
    assert "tidy shelves" not in json.dumps(schemas[1])
