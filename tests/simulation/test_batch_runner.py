"""The batch runner: concurrency, failure isolation, resume, determinism, what is recorded."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from interview_cli.config.library import Library
from interview_cli.llm.factory import build_llm
from interview_cli.llm.protocol import LLMCall, PersonaRequest, TaskResult
from interview_cli.llm.settings import offline_settings, resolve_llm_settings
from interview_cli.session.store import SessionStore
from interview_cli.simulation.batch import (
    BatchResult,
    BatchSpec,
    interview_id,
    plan_batch,
    run_batch,
    run_seed,
)
from interview_cli.simulation.respondents.respondent import (
    LLMRespondent,
    SimulatedRespondent,
    make_respondent,
    simulated_answer,
)

MAX_TURNS = 5


def spec_for(
    lib: Library, out: Path, personas: tuple[str, ...] = ("cooperative", "brief"), **kw: Any
) -> BatchSpec:
    return BatchSpec(
        personas=[lib.persona(p) for p in personas],
        concept=lib.concept("headphones_mec"),
        methodology=lib.methodology("means_end_chain"),
        settings=offline_settings(),
        out=out,
        max_turns=kw.pop("max_turns", MAX_TURNS),
        **kw,
    )


def run(spec: BatchSpec, respondent: Any = None, concurrency: int = 3, **kw: Any) -> BatchResult:
    return asyncio.run(
        run_batch(
            spec,
            llm=build_llm(spec.settings, seed=spec.seed),
            respondent=respondent or SimulatedRespondent(),
            concurrency=concurrency,
            **kw,
        )
    )


class Breaking:
    """The simulator, except that it fails for one persona from a given turn on."""

    label = "offline"

    def __init__(self, persona_id: str, from_turn: int = 1) -> None:
        self.persona_id, self.from_turn = persona_id, from_turn
        self.inner = SimulatedRespondent()

    async def answer(self, request: PersonaRequest) -> TaskResult[str]:
        if request.persona.id == self.persona_id and request.turn_number >= self.from_turn:
            raise RuntimeError("respondent exploded")
        return await self.inner.answer(request)


def test_plan_ids_and_seeds_are_deterministic(lib: Library, tmp_path: Path) -> None:
    spec = spec_for(lib, tmp_path, runs=2, seed=3, policy="breadth_first")
    plan = plan_batch(spec)
    assert [p.session_id for p in plan] == [
        "cooperative-headphones_mec-breadth_first-s3-r1",
        "cooperative-headphones_mec-breadth_first-s3-r2",
        "brief-headphones_mec-breadth_first-s3-r1",
        "brief-headphones_mec-breadth_first-s3-r2",
    ]
    assert (
        [p.seed for p in plan] == [3000, 3001, 3000, 3001] == [run_seed(3, r) for r in (1, 2, 1, 2)]
    )
    assert len(interview_id("p" * 100, "c" * 100, "adaptive", 1, 1)) <= 120


def test_a_batch_runs_every_interview_and_records_ground_truth(
    lib: Library, tmp_path: Path
) -> None:
    result = run(spec_for(lib, tmp_path, runs=2))
    assert [o.status for o in result.outcomes] == ["completed"] * 4
    store = SessionStore(tmp_path)
    session = store.load("brief-headphones_mec-adaptive-s0-r2")
    assert session.status == "completed" and session.settings.policy == "adaptive"
    assert session.settings.seed == 1 and 1 <= session.turn_count <= MAX_TURNS
    sim = session.simulation
    assert sim is not None
    assert sim["persona"]["id"] == "brief" and sim["run"] == 2 and sim["respondent"] == "offline"
    truth = sim["ground_truth"]
    assert truth["concept"] == "headphones_mec" and truth["methodology"] == "means_end_chain"
    first = truth["ladders"][0][0]
    assert first["code"] == "cheap" and first["type"] == "attribute" and first["says"]
    evaluation = sim["evaluation"]
    assert evaluation["rungs_total"] == 10 and evaluation["turns"] == session.turn_count
    assert evaluation == result.outcomes[3].evaluation
    # the respondent's calls are part of the session's usage, on the turn they answered
    answered = [c for t in session.turns for c in t.llm_calls if c.task == "respond_as_persona"]
    assert len(answered) == session.turn_count
    assert session.usage.by_task["respond_as_persona"]["calls"] == session.turn_count + 1


def test_concurrency_is_bounded(lib: Library, tmp_path: Path) -> None:
    in_flight, peak = 0, 0

    class Counting(SimulatedRespondent):
        async def answer(self, request: PersonaRequest) -> TaskResult[str]:
            nonlocal in_flight, peak
            in_flight += 1
            peak = max(peak, in_flight)
            await asyncio.sleep(0.001)
            in_flight -= 1
            return await super().answer(request)

    seen: set[str] = set()

    class Observer:
        def started(self, planned: Any, *, resumed: bool) -> None:
            seen.add(planned.session_id)

        def turn(self, planned: Any, turn_number: int) -> None:
            assert turn_number >= 1

        def finished(self, planned: Any, outcome: Any) -> None:
            assert outcome.session_id == planned.session_id

    spec = spec_for(lib, tmp_path, runs=3, max_turns=3)
    result = run(spec, Counting(), concurrency=2, observer=Observer())
    assert peak == 2 and len(seen) == 6 and not result.failures


def test_one_failing_interview_does_not_stop_the_others(lib: Library, tmp_path: Path) -> None:
    result = run(spec_for(lib, tmp_path), Breaking("brief", from_turn=2))
    by_persona = {o.persona_id: o for o in result.outcomes}
    assert by_persona["cooperative"].status == "completed"
    failed = by_persona["brief"]
    assert failed.status == "failed" and "respondent exploded" in failed.reason
    assert [o.session_id for o in result.failures] == [failed.session_id]
    session = SessionStore(tmp_path).load(failed.session_id)
    assert session.status == "failed"
    assert any("respondent exploded" in e for e in session.errors)
    assert session.turn_count == 1  # what happened before the failure is kept


def test_rerunning_the_same_batch_resumes_and_skips_finished_ones(
    lib: Library, tmp_path: Path
) -> None:
    spec = spec_for(lib, tmp_path)
    first = run(spec, Breaking("brief", from_turn=3))
    assert [o.status for o in first.outcomes] == ["completed", "failed"]
    before = (tmp_path / "cooperative-headphones_mec-adaptive-s0-r1.json").read_text()

    second = run(spec)
    assert [o.status for o in second.outcomes] == ["skipped", "completed"]
    assert second.outcomes[1].resumed and not second.failures
    assert second.outcomes[0].evaluation == first.outcomes[0].evaluation
    assert (tmp_path / "cooperative-headphones_mec-adaptive-s0-r1.json").read_text() == before

    # The resumed interview continues where it broke off and ends like an uninterrupted one.
    resumed = SessionStore(tmp_path).load("brief-headphones_mec-adaptive-s0-r1")
    clean = run(spec_for(lib, tmp_path / "clean", personas=("brief",)))
    fresh = SessionStore(tmp_path / "clean").load(clean.outcomes[0].session_id)
    assert [t.answer.text for t in resumed.turns] == [t.answer.text for t in fresh.turns]
    assert resumed.simulation["evaluation"] == fresh.simulation["evaluation"]  # type: ignore[index]


def test_an_unreadable_session_file_fails_only_that_interview(lib: Library, tmp_path: Path) -> None:
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "brief-headphones_mec-adaptive-s0-r1.json").write_text("{not json")
    result = run(spec_for(lib, tmp_path))
    assert [o.status for o in result.outcomes] == ["completed", "failed"]
    assert "not valid JSON" in result.outcomes[1].reason
    assert (tmp_path / "brief-headphones_mec-adaptive-s0-r1.json").read_text() == "{not json"


_VOLATILE = re.compile(
    r'"(created_at|updated_at|asked_at|received_at)": "[^"]*"|"(latency_ms)": [0-9.e+-]+'
)


def _stable(text: str) -> str:
    # Timestamps and measured durations differ between runs; nothing else may.
    doc = json.loads(_VOLATILE.sub(lambda m: f'"{m.group(1) or m.group(2)}": 0', text))
    for turn in doc["turns"]:
        turn["timings_ms"] = {}
    return json.dumps(doc, indent=1)


def test_same_seed_same_files_apart_from_timestamps(lib: Library, tmp_path: Path) -> None:
    names = ("cooperative", "sceptical", "verbose_tangential")
    run(spec_for(lib, tmp_path / "a", personas=names, seed=5), concurrency=3)
    run(spec_for(lib, tmp_path / "b", personas=names, seed=5), concurrency=1)
    files = sorted(p.name for p in (tmp_path / "a").glob("*.json"))
    assert len(files) == 3 and files == sorted(p.name for p in (tmp_path / "b").glob("*.json"))
    for name in files:
        a = (tmp_path / "a" / name).read_text()
        b = (tmp_path / "b" / name).read_text()
        assert _stable(a) == _stable(b), name

    def answers(directory: Path) -> list[list[str]]:
        store = SessionStore(directory)
        return [
            [t.answer.text for t in store.load(str(p)).turns]
            for p in sorted(directory.glob("*.json"))
        ]

    run(spec_for(lib, tmp_path / "c", personas=names, seed=6))
    assert answers(tmp_path / "c") != answers(tmp_path / "a"), "another seed changes interviews"


def test_the_respondent_is_chosen_by_the_respondent_client() -> None:
    assert isinstance(
        make_respondent(offline_settings(), build_llm(offline_settings())), SimulatedRespondent
    )
    remote = resolve_llm_settings(
        "offline", per_client={"respondent": "openai"}, env={"OPENAI_API_KEY": "k"}
    )
    respondent = make_respondent(remote, object())  # type: ignore[arg-type]
    assert isinstance(respondent, LLMRespondent) and respondent.label.startswith("openai:")


def test_the_model_respondent_sees_only_the_question_and_the_conversation(
    lib: Library,
) -> None:
    seen: list[PersonaRequest] = []

    class Model:
        provider_label = "fake"

        async def respond_as_persona(self, request: PersonaRequest) -> TaskResult[str]:
            seen.append(request)
            call = LLMCall(task="respond_as_persona", provider="fake", model="m")
            return TaskResult[str](value="An answer.", calls=[call])

    request = PersonaRequest(
        persona=lib.persona("cooperative").value,
        question="Why?",
        concept=lib.concept("headphones_mec").value,
        strategy="deepen",
        focus_label="noise cancelling",
        turn_number=2,
    )
    result = asyncio.run(LLMRespondent(Model()).answer(request))  # type: ignore[arg-type]
    assert result.value == "An answer." and result.calls[0].provider == "fake"
    assert seen[0].strategy is None and seen[0].focus_label is None  # blind to the decision
    assert seen[0].question == "Why?"
    assert seen[0].concept is not None and seen[0].concept.id == "headphones_mec"  # the topic


def test_an_unusable_model_answer_is_replaced_by_the_simulator(lib: Library) -> None:
    # A model whose persona answer stays unusable gives up with an empty answer and a recorded
    # failure; the simulator answers the blind request, seeded by the request's and run's seeds.
    class GivingUp:
        provider_label = "fake"

        async def respond_as_persona(self, request: PersonaRequest) -> TaskResult[str]:
            call = LLMCall(task="respond_as_persona", provider="fake", model="m", ok=False)
            return TaskResult[str](value="", calls=[call], failures=["respond_as_persona: x"])

    mec = lib.methodology("means_end_chain").value
    request = PersonaRequest(
        persona=lib.persona("cooperative").value,
        question="What matters to you about headphones?",
        concept=lib.concept("headphones_mec").value,
        methodology=mec,
        turn_number=1,
        seed=4,
    )
    result = asyncio.run(LLMRespondent(GivingUp(), seed=9).answer(request))  # type: ignore[arg-type]
    blind = request.model_copy(update={"seed": 4 * 1_000_003 + 9})
    assert result.value and result.value == simulated_answer(blind)
    assert result.value != simulated_answer(blind.model_copy(update={"concept": None}))
    assert result.failures == ["respond_as_persona: x"] and not result.calls[0].ok


@pytest.mark.parametrize("policy", ["deepen_recent", "breadth_first"])
def test_baseline_batches_record_their_policy(lib: Library, tmp_path: Path, policy: str) -> None:
    result = run(spec_for(lib, tmp_path, personas=("cooperative",), policy=policy))
    session = SessionStore(tmp_path).load(result.outcomes[0].session_id)
    assert session.settings.policy == policy and session.simulation["policy"] == policy  # type: ignore[index]
    assert all(
        t.decision.rationale[0].startswith(f"{policy} baseline")  # type: ignore[union-attr]
        for t in session.completed_turns
    )
