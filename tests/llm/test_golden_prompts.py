"""Golden prompts: every task's prompt at turns 1, 5 and 20 of one offline session, as text.

A prompt change shows up as a diff of the files in ``tests/llm/golden/``. After an intended
change, regenerate them and review the diff:

    UPDATE_GOLDEN=1 PYTHONPATH=$PWD python -m pytest tests/llm/test_golden_prompts.py

The session is the real pipeline on the offline provider (the persona answering through
``respond_as_persona`` of a model that is the seeded simulator), 32 turns long: the stop
rules of the shipped laddering methodology are loosened and the breadth-first baseline
chooses the questions, so the interview runs to its turn limit and a prompt at turn 30
exists to compare with turn 5.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from interview_cli.config.schemas import Methodology
from interview_cli.llm.offline import OfflineLLM
from interview_cli.llm.prompts.generation import short_quote
from interview_cli.llm.protocol import PersonaRequest, TaskResult
from interview_cli.llm.settings import resolve_llm_settings
from interview_cli.pipeline.prompt_replay import (
    RecordedPrompt,
    RecordingLLM,
    persona_prompt,
    session_prompts,
)
from interview_cli.pipeline.setup import new_session
from interview_cli.session.schema import SessionFile
from interview_cli.session.store import SessionStore
from interview_cli.simulation.batch import conduct_simulated
from interview_cli.simulation.respondents.respondent import (
    LLMRespondent,
    SimulatedRespondent,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "analysis"))
from session_factory import library  # noqa: E402

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_TURNS = (1, 5, 20)
MAX_TURNS = 32
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


Recorded = tuple[SessionFile, list[RecordedPrompt], Methodology]


class PersonaPlaying(OfflineLLM):
    """The offline provider with a persona model: the seeded simulator, seeded as a provider
    seeds a request (so the recorded prompts are those the goldens were made from)."""

    async def respond_as_persona(self, request: PersonaRequest) -> TaskResult[str]:
        seeded = request.model_copy(update={"seed": self._seed(request.seed)})
        return await SimulatedRespondent().answer(seeded)


def long_session(directory: Path) -> Recorded:
    lib = library()
    concept = lib.concept("headphones_mec")
    method = lib.methodology(concept.value.methodology)
    m = method.value
    loose = m.tuning.saturation.model_copy(
        update={
            "min_turn_for_saturation": 99,
            "graph_saturated_turns": 99,
            "quality_degraded_turns": 99,
            "depth_plateau_turns": 99,
            "exhausted_yield_turns": 99,
        }
    )
    methodology = m.model_copy(update={"tuning": m.tuning.model_copy(update={"saturation": loose})})
    session = new_session(
        session_id="golden",
        concept=concept,
        methodology=method,
        settings=resolve_llm_settings("offline", env={}),
        max_turns=MAX_TURNS,
        timestamps=False,
        policy="breadth_first",
    )
    recorder = RecordingLLM(PersonaPlaying(0))

    def on_turn(number: int) -> None:
        recorder.turn = number

    asyncio.run(
        conduct_simulated(
            session,
            store=SessionStore(directory),
            llm=recorder,
            respondent=LLMRespondent(recorder),
            persona=lib.persona("cooperative").value,
            on_turn=on_turn,
            methodology=methodology,
            concept=concept.value,
        )
    )
    return session, recorder.records, methodology


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    return long_session(tmp_path_factory.mktemp("golden"))


def first_per_turn(records: list[RecordedPrompt]) -> dict[tuple[str, int], RecordedPrompt]:
    firsts: dict[tuple[str, int], RecordedPrompt] = {}
    for record in records:
        firsts.setdefault((record.task, record.turn), record)
    return firsts


def as_text(record: RecordedPrompt) -> str:
    prompt = record.prompt
    tool = f"=== tool: {prompt.tool_name} ===\n" if prompt.tool_name else ""
    return f"=== system ===\n{prompt.system}\n=== user ===\n{prompt.user}{tool}"


def golden_cases() -> Iterator[tuple[str, int]]:
    tasks = (
        "generate_opening",
        "extract",
        "assess",
        "propose_slots",
        "generate_question",
        "respond_as_persona",
    )
    for task in tasks:
        for turn in GOLDEN_TURNS:
            if task != "generate_opening" or turn == 1:
                yield task, turn


@pytest.mark.parametrize(("task", "turn"), list(golden_cases()))
def test_prompt_matches_golden(recorded: Recorded, task: str, turn: int) -> None:
    session, records, _ = recorded
    assert len(session.turns) >= 30, "the golden session must run to turn 30"
    record = first_per_turn(records).get((task, turn))
    assert record is not None, f"no {task} request at turn {turn}"
    path = GOLDEN / f"{task}.turn{turn:02d}.txt"
    text = as_text(record)
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{path.name} changed: review, then regenerate with UPDATE_GOLDEN=1"


def outside_tags(text: str) -> str:
    return re.sub(r"<(\w+)>.*?</\1>", "", text, flags=re.DOTALL)


def test_every_question_prompt_holds_the_focus_quote_the_last_answer_and_no_score(
    recorded: Recorded,
) -> None:
    _, records, _ = recorded
    questions = [r for r in records if r.task == "generate_question"]
    assert len(questions) >= 30
    with_focus = 0
    for record in questions:
        request, user = record.request, record.prompt.user
        last = request.recent[-1].answer.strip()
        assert last and short_quote(last, 10_000) in " ".join(user.split())
        if request.focus_label and request.strategy.focus_mode == "recent_node":
            assert request.focus_quotes, f"turn {record.turn}: a focus without the words"
            assert short_quote(request.focus_quotes[-1]) in user
            with_focus += 1
        for text in (outside_tags(user), record.prompt.system):
            assert not re.search(r"\d\.\d|score|weight|signal", text, re.IGNORECASE), text
    assert with_focus >= 10


def size_at(records: list[RecordedPrompt], task: str, turn: int) -> float:
    """The size of the task's prompt at ``turn``, or at the latest turn before it that had one.
    A slot call carries one group of labels per node type the turn brought (one to four): its
    size per group is what must not grow with the interview: the system prompt (the same on
    every call) once, and the user part per group (the whole text per group counted a
    two-group call's system prompt half, so a one-group call at turn 26 read as growth)."""
    sizes = {r.turn: _per_group(r) for r in reversed(records) if r.task == task}
    return sizes[max(t for t in sizes if t <= turn)]


def _per_group(record: RecordedPrompt) -> float:
    system = len(record.prompt.system)
    return system + (len(record.prompt.text) - system) / _groups(record)


def _groups(record: RecordedPrompt) -> int:
    all_groups = getattr(record.request, "all_groups", None)
    return len(all_groups()) if all_groups is not None else 1


@pytest.mark.parametrize(
    "task", ["extract", "assess", "propose_slots", "generate_question", "respond_as_persona"]
)
def test_prompt_at_turn_30_is_at_most_1_3_times_turn_5(recorded: Recorded, task: str) -> None:
    _, records, _ = recorded
    at5, at30 = size_at(records, task, 5), size_at(records, task, 30)
    assert at30 <= 1.3 * at5, f"{task}: {at5} characters at turn 5, {at30} at turn 30"


def test_a_recorded_session_replays_to_the_same_prompts(
    recorded: Recorded,
) -> None:
    # What `interview prompts` shows: the session re-driven from its record gives the same
    # first request per task and turn as the live run (a rephrasing after a repeated question
    # is not re-driven: the rejected draft is not recorded; nor are the persona's requests).
    session, records, methodology = recorded
    replayed = asyncio.run(session_prompts(session, upto_turn=20, methodology=methodology))
    live = {
        k: r.prompt
        for k, r in first_per_turn(records).items()
        if k[1] <= 20 and k[0] != "respond_as_persona"
    }
    assert {k: r.prompt for k, r in first_per_turn(replayed).items()} == live


def test_the_persona_request_is_rebuilt_from_the_record(recorded: Recorded) -> None:
    session, records, methodology = recorded
    persona = library().persona("cooperative").value
    live = first_per_turn(records)
    for turn in (1, 5, 20, 30):
        rebuilt = persona_prompt(session, persona, methodology, turn)
        assert rebuilt is not None
        assert rebuilt.prompt == live[("respond_as_persona", turn)].prompt
