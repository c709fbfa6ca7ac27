"""The turn pipeline with a scripted fake model: ordering, concurrency, contracts, recovery."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from interview_cli.config.library import Library
from interview_cli.core.models import Assessment, Extraction
from interview_cli.llm.offline import OfflineLLM
from interview_cli.llm.protocol import LLMCall, TaskResult
from interview_cli.llm.settings import offline_settings
from interview_cli.pipeline.context import DiscourseOutput, ExtractionOutput, PipelineContext
from interview_cli.pipeline.runner import Hooks, Interview
from interview_cli.pipeline.setup import new_session
from interview_cli.session.read import read_session_file
from interview_cli.session.store import SessionStore

ROOT = Path(__file__).resolve().parents[2]


class ScriptedLLM:
    """The offline provider, with hooks to observe and steer each task."""

    def __init__(self, store: SessionStore | None = None, session_id: str = "") -> None:
        self.inner = OfflineLLM(seed=0)
        self.provider_label = "scripted"
        self.store = store
        self.session_id = session_id
        self.events: list[str] = []
        self.extract_started = asyncio.Event()
        self.assess_started = asyncio.Event()
        self.answers_on_disk: list[list[str]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def extract(self, request: Any) -> TaskResult[Extraction]:
        if self.store is not None:
            # What is on disk: the snapshot with the journal beside it replayed.
            saved = read_session_file(self.store.path_for(self.session_id))
            self.answers_on_disk.append([t.answer.text for t in saved.turns])
        self.events.append("extract:start")
        self.extract_started.set()
        # Waits for assess to have started: a sequential pipeline would time out here.
        await asyncio.wait_for(self.assess_started.wait(), timeout=2)
        self.events.append("extract:end")
        return await self.inner.extract(request)

    async def assess(self, request: Any) -> TaskResult[Assessment]:
        self.events.append("assess:start")
        self.assess_started.set()
        await asyncio.wait_for(self.extract_started.wait(), timeout=2)
        self.events.append("assess:end")
        return await self.inner.assess(request)

    async def generate_question(self, request: Any, on_token: Any = None) -> TaskResult[str]:
        self.events.append("question")
        return await self.inner.generate_question(request, on_token=on_token)


def make_interview(tmp_path: Path, llm_factory: Any) -> tuple[Interview, Any, SessionStore]:
    lib = Library.discover(cwd=ROOT)
    concept = lib.concept("headphones_mec")
    methodology = lib.methodology("means_end_chain")
    session = new_session(
        session_id="t-1",
        concept=concept,
        methodology=methodology,
        settings=offline_settings(),
        max_turns=8,
    )
    store = SessionStore(tmp_path)
    store.save(session)
    llm = llm_factory(store, session.id)
    return Interview(session, store=store, llm=llm), llm, store


def test_answer_is_on_disk_before_the_models_run_and_calls_overlap(tmp_path: Path) -> None:
    interview, llm, store = make_interview(tmp_path, ScriptedLLM)
    stages: list[str] = []

    async def go() -> Any:
        await interview.ensure_question()
        return await interview.submit(
            "I like the noise cancelling because I can focus", Hooks(on_stage=stages.append)
        )

    result = asyncio.run(go())
    assert llm.answers_on_disk == [["I like the noise cancelling because I can focus"]]
    assert llm.events[:2] == ["extract:start", "assess:start"]  # both in flight at once
    assert llm.events[-1] == "question"  # the second round trip comes after both
    assert result.turn.status == "complete"
    assert set(result.turn.timings_ms) >= {
        "context_loading",
        "extract_assess",
        "core",
        "question_generation",
    }
    assert stages[0] == "reading the answer"
    saved = store.load("t-1")
    assert saved.turns[0].status == "complete"
    assert (
        saved.pending_question is not None
        and saved.pending_question.text == result.next_question.text
    )


def test_interrupted_turn_is_finished_on_recovery(tmp_path: Path) -> None:
    interview, _, store = make_interview(tmp_path, lambda s, i: OfflineLLM(seed=0))

    class Boom(Exception):
        pass

    async def crash_after_save() -> None:
        await interview.ensure_question()

        async def explode(request: Any) -> Any:
            raise Boom()

        interview.llm = type(
            "Broken", (), {"extract": staticmethod(explode), "assess": staticmethod(explode)}
        )()  # type: ignore[assignment]
        answered = LLMCall(task="respond_as_persona", provider="offline", model="ladder-sim")
        await interview.submit(
            "The battery lasts all day so I never worry", answer_calls=[answered]
        )

    with pytest.raises(Boom):
        asyncio.run(crash_after_save())
    on_disk = store.load("t-1")
    assert [t.status for t in on_disk.turns] == ["answered"]
    # The respondent's model call (a simulated answer) was saved with the answer itself.
    assert [c.task for c in on_disk.turns[0].llm_calls] == ["respond_as_persona"]
    assert on_disk.usage.by_task["respond_as_persona"]["calls"] == 1

    recovered = Interview(on_disk, store=store, llm=OfflineLLM(seed=0))
    question = asyncio.run(recovered.ensure_question())
    assert question is not None and question.kind == "follow_up"
    final = store.load("t-1")
    assert [t.status for t in final.turns] == ["complete"]
    assert final.turns[0].extraction is not None and final.turns[0].extraction.nodes


def test_same_inputs_same_session(tmp_path: Path) -> None:
    """Offline, same seed: the recorded turns are identical apart from timestamps."""

    def run_once(folder: Path) -> list[dict[str, Any]]:
        interview, _, _ = make_interview(folder, lambda s, i: OfflineLLM(seed=0))

        async def go() -> None:
            await interview.ensure_question()
            for answer in (
                "I like the sound because it relaxes me",
                "Relaxing matters because I value calm",
            ):
                await interview.submit(answer)

        asyncio.run(go())
        turns = interview.session.model_dump(mode="json")["turns"]
        for turn in turns:
            turn["question"].pop("asked_at")
            turn["answer"].pop("received_at")
            turn.pop("timings_ms")
            for call in turn["llm_calls"]:
                call.pop("latency_ms")
        return turns

    assert run_once(tmp_path / "a") == run_once(tmp_path / "b")


def test_premature_access_to_a_stage_output_is_an_error() -> None:
    ctx = PipelineContext()
    with pytest.raises(RuntimeError, match="discourse has not run"):
        ctx.get(DiscourseOutput)
    ctx.set(DiscourseOutput(hints=["because"]))
    assert ctx.get(DiscourseOutput).hints == ["because"]
    with pytest.raises(RuntimeError, match="already produced"):
        ctx.set(DiscourseOutput(hints=[]))
    assert not ctx.has(ExtractionOutput)


def test_every_recorded_veto_keeps_its_reason(tmp_path: Path) -> None:
    interview, _, store = make_interview(tmp_path, lambda s, i: OfflineLLM(seed=0))
    answers = [
        "I like the noise cancelling because I can focus",
        "Focus? I don't know, I have never thought about why",
        "I really don't know, no idea",
        "The battery lasts all day so I never worry",
        "No idea, I can't say more about that",
    ]

    async def go() -> None:
        await interview.ensure_question()
        for answer in answers:
            if interview.finished:
                break
            await interview.submit(answer)

    asyncio.run(go())
    vetoed = 0
    for turn in store.load("t-1").completed_turns:
        assert turn.decision is not None
        keys = {
            f"{c.strategy}@{c.node_id}" if c.node_id is not None else c.strategy
            for c in turn.candidates
            if c.vetoed_by
        }
        # The record keeps the vetoed moves that would have won, each with its reason.
        vetoed += len(keys)
        assert set(turn.decision.veto_reasons) == keys
        assert all(reason.strip() for reason in turn.decision.veto_reasons.values())
    # the don't-knows put a knowledge ceiling on a node: vetoes happened (a slim record keeps
    # those that would have won, and counts the rest)
    assert vetoed or any(t.candidate_summary.vetoed for t in store.load("t-1").completed_turns)
