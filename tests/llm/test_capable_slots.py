"""Slot discovery off the respondent's path, with a capable model that is slow to propose
slots (over the real SDK against the fake server): the prompt comes back while the slot call
is still held at the server; the turn is saved with its batches unanswered; the answer, once
it comes, is settled into that turn before the next decision, and the session still verifies.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
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

from interview_cli.analysis.replay.verify import verify_session
from interview_cli.pipeline.slots import NOT_BACK_YET
from interview_cli.session.store import SessionStore


@pytest.fixture
def server(fake_server: FakeLLMServer) -> FakeLLMServer:
    capable_defaults(fake_server)
    fake_server.script_task(
        "extract",
        Step(
            tool_input=extraction(
                [
                    node("noise cancelling", "attribute", "the noise cancelling"),
                    node("focus on the train", "functional_consequence", "focus on the train"),
                ]
            )
        ),
    )
    return fake_server


def test_a_slow_slot_call_never_holds_the_prompt(
    server: FakeLLMServer, provider_env: dict[str, str], tmp_path: Path
) -> None:
    release = threading.Event()
    server.script_task(
        "propose_slots",
        Step(
            tool_input=slots(
                ("noise_cancelling", "attribute", ["noise cancelling"]),
                ("focus", "functional_consequence", ["focus on the train"]),
            ),
            hold=release,
        ),
    )
    llm = remote_llm(provider_env)
    interview = interview_on(llm, tmp_path, slots_on=True)
    store = SessionStore(tmp_path)

    async def go() -> dict[str, Any]:
        await interview.ensure_question()
        first = await interview.submit("I love the noise cancelling, I can focus on the train")
        # The prompt is back, the slot call still held at the server.
        held = [r for r in server.requests if "propose_slots" in str(r.body.get("tools"))]
        saved = store.load(interview.session.id).turns[0]
        seen = {
            "question": first.next_question is not None,
            "held": len(held) == 1 and not release.is_set(),
            "saved_batches": [(b["failed"], b["error"]) for b in saved.slot_proposals],
        }
        release.set()
        await interview.submit("Focus means I get my reading done")
        return seen

    seen = run_closed(llm, go())
    assert seen["question"] and seen["held"]
    assert seen["saved_batches"] and all(b == (True, NOT_BACK_YET) for b in seen["saved_batches"])
    session = store.load(interview.session.id)
    first = session.turns[0]
    assert not any(b["failed"] for b in first.slot_proposals), (
        [(b["failed"], b["error"], b["proposals"]) for b in first.slot_proposals],
        first.failures,
    )
    names = {s["slot_name"] for s in first.slot_discovery["slots"]}
    assert names == {"noise_cancelling", "focus"}
    assert any(c.task == "propose_slots" for c in first.llm_calls)
    result = verify_session(session)
    assert result.ok, result.mismatches
