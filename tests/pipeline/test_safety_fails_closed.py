"""A live turn whose assessor returned nothing usable takes the careful path: the session
pauses with the check-in, keeps nothing of the answer in the graph, and still verifies."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from interview_cli.analysis.replay.verify import verify_session
from interview_cli.config.library import Library
from interview_cli.llm.fakes import ScriptedLLM
from interview_cli.llm.offline import OfflineLLM
from interview_cli.llm.settings import offline_settings
from interview_cli.pipeline.runner import Interview
from interview_cli.pipeline.setup import new_session
from interview_cli.session.store import SessionStore

ROOT = Path(__file__).resolve().parents[2]
ANSWER = "I like the noise cancelling because I can focus"


def interview_with(tmp_path: Path, assessor_output: Any) -> tuple[Interview, SessionStore]:
    lib = Library.discover(cwd=ROOT)
    session = new_session(
        session_id="careful",
        concept=lib.concept("headphones_mec"),
        methodology=lib.methodology("means_end_chain"),
        settings=offline_settings(),
        max_turns=8,
    )
    store = SessionStore(tmp_path)
    store.save(session)
    llm = ScriptedLLM(fallback=OfflineLLM(seed=0)).enqueue("assess", [assessor_output])
    return Interview(session, store=store, llm=llm), store


@pytest.mark.parametrize(
    "assessor_output",
    [{"overall": "deep"}, {"response_depth": 4, "specificity": 4}],
    ids=["unusable", "no-safety-reading"],
)
def test_an_unread_answer_pauses_with_the_check_in(tmp_path: Path, assessor_output: Any) -> None:
    interview, store = interview_with(tmp_path, assessor_output)

    async def go() -> Any:
        await interview.ensure_question()
        return await interview.submit(ANSWER)

    result = asyncio.run(go())
    saved = store.load("careful")
    safety = saved.turns[0].safety
    assert safety is not None
    assert (safety.kind, safety.action, safety.code) == ("unchecked", "pause", "paused_unchecked")
    assert "short break" in safety.message
    assert not saved.turns[0].graph_delta.nodes_added  # nothing unchecked is laddered into
    assert saved.termination_reason is None  # a pause ends nothing: resumable
    assert result.turn.safety == safety
    assert verify_session(saved).ok
