"""A request to go back, from the answer to the question: core says which focus was asked for,
and the question brief carries it (``QuestionRequest.asked_back`` / ``went_back_to``), so no
question writer guesses it from the answer's text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline_talk import asked_through

from interview_cli.config.library import Library
from interview_cli.llm.offline import OfflineLLM
from interview_cli.llm.protocol import QuestionRequest, TaskResult
from interview_cli.llm.settings import offline_settings
from interview_cli.pipeline.runner import Interview
from interview_cli.pipeline.setup import new_session

ROOT = Path(__file__).resolve().parents[2]


class Recording:
    """The offline provider, keeping each question brief it was given."""

    def __init__(self) -> None:
        self.inner = OfflineLLM(seed=0)
        self.requests: list[QuestionRequest] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def generate_question(self, request: Any, on_token: Any = None) -> TaskResult[str]:
        self.requests.append(request)
        return await self.inner.generate_question(request, on_token=on_token)


def _interview(answers: list[str]) -> tuple[list[QuestionRequest], list[str]]:
    llm, asked, _ = _run(answers)
    return llm.requests, asked


def _run(answers: list[str]) -> tuple[Recording, list[str], Interview]:
    lib = Library.discover(cwd=ROOT)
    session = new_session(
        session_id="steer",
        concept=lib.concept("headphones_mec"),
        methodology=lib.methodology("means_end_chain"),
        settings=offline_settings(),
        max_turns=len(answers) + 3,
    )
    llm = Recording()
    interview = Interview(session, store=None, llm=llm)
    return llm, asked_through(interview, answers), interview


def test_a_request_core_took_reaches_the_question_brief_and_is_said_back() -> None:
    requests, asked = _interview(
        [
            "The battery lasts all week, and the noise cancelling is brilliant on the train.",
            "It means I can actually read on the way in.",
            "Can we go back to the battery thing?",
        ]
    )
    last = requests[-1]
    assert last.focus_label == "battery lasts all week", last.focus_label
    assert last.asked_back == "battery lasts all week" and not last.went_back_to
    assert "the battery thing" in asked[-1], asked[-1]
    # the questions before it were asked for by nobody
    assert all(not r.asked_back for r in requests[:-1])


def test_what_they_went_back_to_say_is_asked_as_what_they_said() -> None:
    requests, asked = _interview(
        [
            "The battery lasts all week, and the noise cancelling is brilliant on the train.",
            "It means I can actually read on the way in.",
            "Going back to the battery, it means I never have to think about charging them.",
        ]
    )
    last = requests[-1]
    assert last.went_back_to == "battery lasts all week", (last.focus_label, last.went_back_to)
    assert last.focus_label != last.went_back_to
    assert not asked[-1].startswith(("Back to", "Sure,")), asked[-1]


def test_the_closing_recap_points_at_what_was_asked_for_unless_said_in_distress() -> None:
    from interview_cli.core.graph.node_link import from_json
    from interview_cli.pipeline.questions import pointed_at

    _, _, interview = _run(
        [
            "The battery lasts all week, and the noise cancelling is brilliant on the train.",
            "It means I can actually read on the way in.",
            "Can we go back to the battery thing?",
        ]
    )
    turns = list(interview.session.turns)
    graph = from_json(interview.session.graph)
    (battery,) = graph.find_by_label("battery lasts all week")
    assert pointed_at(graph, turns, None) == [battery]
    # a request in a reply read as distress is dropped with the reply (core.turn.content_of)
    asking = turns[2]
    assert asking.assessment is not None
    distress = asking.assessment.model_copy(update={"safety": "distress"})
    turns[2] = asking.model_copy(update={"assessment": distress})
    assert pointed_at(graph, turns, None) == []
