"""An answer of any length never sticks a session (over the real SDK against a fake server
whose model has a 64k-token context): a 300 KB paste is bounded for every request that
carries it, the turn after it included, so the interview goes on and can be resumed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from capable_model import capable_defaults, extraction, interview_on, node, remote_llm, run_closed
from fakeserver import FakeLLMServer, Step

from interview_cli.pipeline.runner import Interview
from interview_cli.session.store import SessionStore

CONTEXT_CHARS = 4 * 64_000  # a 64k-token model, in request characters
PASTE = "I copied my whole review here. " + "The noise cancelling is great on the train. " * 7000


def test_a_pasted_300_kb_answer_never_sticks_the_session(
    fake_server: FakeLLMServer, provider_env: dict[str, str], tmp_path: Path
) -> None:
    assert len(PASTE) > 300_000
    capable_defaults(fake_server)
    fake_server.context_chars = CONTEXT_CHARS
    fake_server.tool_inputs["record_extraction"] = extraction(
        [node("noise cancelling", "attribute", "The noise cancelling is great")]
    )
    llm = remote_llm(provider_env)
    interview = interview_on(llm, tmp_path)

    async def first() -> Any:
        await interview.ensure_question()
        await interview.submit(PASTE)
        return await interview.submit("It lets me focus on the train")

    result = run_closed(llm, first())
    assert result.turn.status == "complete" and result.next_question is not None
    too_long = [r for r in fake_server.requests if r.step.kind == "status"]
    assert too_long == []
    assert interview.session.turns[0].answer.text == PASTE  # the session keeps it whole

    # ... and a resumed session goes on the same way.
    store = SessionStore(tmp_path)
    llm = remote_llm(provider_env)
    resumed = Interview(store.load(interview.session.id), store=store, llm=llm)

    async def again() -> Any:
        await resumed.ensure_question()
        return await resumed.submit("Focus matters because I get my reading done")

    fake_server.script_task("extract", Step(tool_input=extraction([])))
    assert run_closed(llm, again()).turn.status == "complete"
    assert [r for r in fake_server.requests if r.step.kind == "status"] == []
