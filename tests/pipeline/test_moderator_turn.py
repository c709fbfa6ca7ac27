"""The moderator's /alt and /skip on the pure turn's one owner (``core.turn``): the state they
decide from after a resume is the one the live turn had (the replay loop rebuilds it), and an
/alt decides the turn once."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from interview_cli.config.library import Library
from interview_cli.core import turn as core_turn
from interview_cli.llm.offline import OfflineLLM
from interview_cli.llm.settings import offline_settings
from interview_cli.pipeline import moderator
from interview_cli.pipeline.inputs import saved_state, state_before
from interview_cli.pipeline.runner import Interview
from interview_cli.pipeline.setup import new_session
from interview_cli.session.store import SessionStore

ROOT = Path(__file__).resolve().parents[2]
ANSWERS = [
    "I like the sound quality because it helps me focus",
    "It lets me concentrate at work and feel calm",
    "Less stress on my commute, I arrive relaxed",
]


def interview_after(tmp_path: Path, answers: list[str]) -> tuple[Interview, SessionStore]:
    lib = Library.discover(cwd=ROOT)
    session = new_session(
        session_id="t-1",
        concept=lib.concept("headphones_mec"),
        methodology=lib.methodology("means_end_chain"),
        settings=offline_settings(),
        max_turns=8,
    )
    store = SessionStore(tmp_path)
    interview = Interview(session, store=store, llm=OfflineLLM(seed=0))

    async def go() -> None:
        await interview.ensure_question()
        for answer in answers:
            await interview.submit(answer)

    asyncio.run(go())
    return interview, store


def resumed(interview: Interview, store: SessionStore) -> Interview:
    """The same session opened again from its file, as `run --resume` does."""
    return Interview(store.load(interview.session.id), store=store, llm=OfflineLLM(seed=0))


def test_the_replay_loop_rebuilds_the_saved_state(tmp_path: Path) -> None:
    interview, _ = interview_after(tmp_path, ANSWERS)
    session = interview.session
    rebuilt = state_before(
        session,
        len(session.turns),
        methodology=interview.methodology,
        concept=interview.concept,
    )
    assert rebuilt.to_dict() == saved_state(session, interview.concept).to_dict()


@pytest.mark.parametrize("command", ["/alt", "/skip"])
def test_after_a_resume_the_moderator_decides_from_the_live_turns_state(
    tmp_path: Path, command: str
) -> None:
    live, store = interview_after(tmp_path, ANSWERS)
    assert live.before_last is not None
    live_state, live_inputs = live.before_last
    again = resumed(live, store)
    assert again.before_last is None
    _, state, inputs = moderator._decided_turn(again, command)
    assert state.to_dict() == live_state.to_dict()
    assert inputs == live_inputs


def counting_decide(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = core_turn.decide

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(core_turn, "decide", counted)
    return calls


def test_alt_decides_the_turn_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    interview, _ = interview_after(tmp_path, ANSWERS[:1])
    calls = counting_decide(monkeypatch)
    question = asyncio.run(moderator.take_alternative(interview))
    assert len(calls) == 1
    decision = interview.session.turns[-1].decision
    assert decision is not None and decision.moderator is not None
    assert (question.strategy, question.focus_node_id) == (decision.strategy, decision.node_id)
    assert decision.tool_choice is not None
    assert (decision.strategy, decision.node_id) != (
        decision.tool_choice.strategy,
        decision.tool_choice.node_id,
    )
