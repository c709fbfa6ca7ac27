"""Sessions for analysis tests, produced by the real pipeline on the offline provider.

Nothing here hand-writes session JSON: every file comes from ``pipeline.runner.Interview``
driven by scripted answers or by the offline persona respondent, exactly as `interview run`
and `interview batch` would write it. Imported by tests/analysis and tests/cli (which put this
directory on ``sys.path``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from interview_cli.config.library import Library
from interview_cli.errors import LLMError
from interview_cli.llm.offline import OfflineLLM
from interview_cli.llm.protocol import Exchange, PersonaRequest
from interview_cli.llm.settings import resolve_llm_settings
from interview_cli.pipeline.conversation import Reply, Stop, converse
from interview_cli.pipeline.runner import Interview
from interview_cli.pipeline.setup import new_session
from interview_cli.session.store import SessionStore
from interview_cli.simulation.respondents.respondent import SimulatedRespondent

ROOT = Path(__file__).resolve().parents[2]

MEC_ANSWERS = (
    "I love the noise cancelling because it lets me focus on the train",
    "Focusing on the train means I can get my work done, which makes me feel in control",
    "Feeling in control matters because I value freedom",
    "Freedom is about peace of mind for me",
    "The battery lasts all day so I never worry about charging",
    "Not worrying lets me relax on long trips",
    "Relaxing matters because I value my wellbeing",
    "I don't know, it just feels good",
)


# name -> how it is produced: every methodology, scripted and persona answers, a concept with
# stimulus elements (coverage mode), a paused session and one whose last turn was interrupted.
# The oat-milk and yoghurt sessions have personas that hold no beliefs about those topics:
# they answer that they have nothing to say, as such a persona does.
SPECS: dict[str, dict[str, Any]] = {
    "mec-scripted": {"concept": "headphones_mec", "answers": MEC_ANSWERS, "max_turns": 10},
    "mec-cooperative": {"concept": "headphones_mec", "persona": "cooperative", "max_turns": 10},
    "mec-fatiguing": {
        "concept": "headphones_mec",
        "persona": "fatiguing",
        "max_turns": 12,
        "seed": 1,
    },
    "oat-sceptical": {"concept": "oat_milk_mec", "persona": "sceptical", "max_turns": 8, "seed": 3},
    "yoghurt-elements": {
        "concept": "plant_yoghurt_concept_mec",
        "persona": "cooperative",
        "max_turns": 8,
    },
    "jtbd-cooperative": {"concept": "coffee_jtbd", "persona": "cooperative", "max_turns": 8},
    "ci-verbose": {
        "concept": "customer_support_ci",
        "persona": "verbose_tangential",
        "max_turns": 8,
    },
    "mec-paused": {"concept": "headphones_mec", "answers": MEC_ANSWERS[:3], "max_turns": 10},
    "mec-interrupted": {
        "concept": "headphones_mec",
        "answers": MEC_ANSWERS,
        "max_turns": 10,
        "fail_from_turn": 4,
    },
}


def library() -> Library:
    """The shipped library from this checkout, whatever the environment says."""
    return Library.discover(extra_roots=[ROOT], cwd=ROOT, env={})


class FailingExtract(OfflineLLM):
    """Offline, except that extraction fails for good from a given turn (a crash mid-turn)."""

    def __init__(self, seed: int, fail_from_turn: int) -> None:
        super().__init__(seed)
        self.fail_from_turn = fail_from_turn

    async def extract(self, request: Any) -> Any:
        if int(request.utterance_id.lstrip("u")) >= self.fail_from_turn:
            raise LLMError("extraction failed (test)", provider="offline", task="extract")
        return await super().extract(request)


def run_interview(
    directory: Path,
    *,
    concept: str,
    session_id: str,
    answers: Sequence[str] | None = None,
    persona: str | None = None,
    max_turns: int = 8,
    seed: int = 0,
    methodology: str | None = None,
    fail_from_turn: int | None = None,
) -> Path:
    """Conduct one interview end to end and return its session file.

    Answers come from ``answers`` (the session pauses when they run out) or from the offline
    ``persona``; the closing question is answered and the session completed.
    """
    lib = library()
    loaded_concept = lib.concept(concept)
    loaded_method = lib.methodology(methodology or loaded_concept.value.methodology)
    person = lib.persona(persona).value if persona else None
    settings = resolve_llm_settings("offline", env={})
    llm: OfflineLLM = (
        FailingExtract(seed, fail_from_turn) if fail_from_turn is not None else OfflineLLM(seed)
    )
    store = SessionStore(directory)
    session = new_session(
        session_id=session_id,
        concept=loaded_concept,
        methodology=loaded_method,
        settings=settings,
        max_turns=max_turns,
        seed=seed,
        timestamps=False,
    )
    store.save(session)
    interview = Interview(session, store=store, llm=llm)

    class Scripted:
        """The fixture's respondent in the shared conversation loop: the given answers in
        order, or the offline persona simulator."""

        def __init__(self) -> None:
            self.index = 0

        async def reply(self, interview: Any, question: Any) -> Reply | Stop:
            index, self.index = self.index, self.index + 1
            if person is None:
                if answers is None or index >= len(answers):
                    return Stop("pause")
                return Reply(answers[index])
            history = [
                Exchange(question=t.question.text, answer=t.answer.text) for t in session.turns
            ]
            # Seeded as the offline provider seeds a request: the recorded sessions were so made.
            result = await SimulatedRespondent().answer(
                PersonaRequest(
                    persona=person,
                    question=question.text,
                    history=history,
                    concept=loaded_concept.value,
                    methodology=loaded_method.value,
                    strategy=question.strategy,
                    focus_label=question.focus_label,
                    turn_number=index + 1,
                    seed=seed * 1_000_003 + seed,
                )
            )
            return Reply(result.value)

        def answered(self, result: Any) -> None:
            pass

    async def conduct() -> None:
        try:
            outcome = await converse(interview, Scripted())
        except LLMError:
            interview.set_status("failed")
            return
        if outcome == "paused":
            interview.set_status("paused")
        elif outcome == "closed":
            interview.record_rating(3)
            interview.complete()

    asyncio.run(conduct())
    return store.path_for(session_id)
