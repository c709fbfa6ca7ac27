"""A turn stopped while its slot call is in flight (the spend cap refused the question, or
Ctrl-C) waits for that call to be cancelled before it stops: the call closes its connection
then, not at garbage collection after the clients were closed."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from interview_cli.config.library import Library
from interview_cli.llm.fakes import ScriptedLLM
from interview_cli.llm.offline import OfflineLLM
from interview_cli.llm.settings import offline_settings
from interview_cli.llm.spend import SpendCapReached
from interview_cli.pipeline.runner import Interview
from interview_cli.pipeline.setup import new_session
from interview_cli.session.store import SessionStore

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "stop", [SpendCapReached("spend cap reached"), KeyboardInterrupt()], ids=["cap", "ctrl-c"]
)
def test_the_slot_call_in_flight_is_cancelled_before_the_turn_stops(
    tmp_path: Path, stop: BaseException
) -> None:
    lib = Library.discover(cwd=ROOT)
    session = new_session(
        session_id="stopped",
        concept=lib.concept("headphones_mec"),
        methodology=lib.methodology("means_end_chain"),
        settings=offline_settings(),
        max_turns=8,
        canonical_slots=True,
    )
    seen: list[str] = []

    async def in_flight(_request: Any) -> Any:
        seen.append("called")
        try:
            await asyncio.Event().wait()  # a call that never returns by itself
        except asyncio.CancelledError:
            seen.append("cancelled")
            raise

    async def refused(_request: Any) -> Any:
        await asyncio.sleep(0)  # the slot call is on its way by then
        raise stop

    llm = ScriptedLLM(fallback=OfflineLLM(seed=0))
    llm.enqueue("propose_slots", [in_flight]).enqueue("generate_question", [refused])
    interview = Interview(session, store=SessionStore(tmp_path), llm=llm)

    async def go() -> list[str]:
        await interview.ensure_question()
        with pytest.raises(type(stop)):
            await interview.submit("I like the noise cancelling because I can focus on the train")
        return list(seen)  # before this task yields to the loop again

    assert asyncio.run(go()) == ["called", "cancelled"]
