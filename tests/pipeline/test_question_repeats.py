"""``pipeline.questions.ask``: a draft too close to a recent question is written again, and
when every draft repeats one, the one kept is the least like, else the one whose like was
asked longest ago: never the question just asked, word for word."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from interview_cli.config.library import Library
from interview_cli.llm.protocol import QuestionRequest, TaskResult
from interview_cli.pipeline.questions import Hooks, ask
from interview_cli.session.schema import QuestionRecord

ROOT = Path(__file__).resolve().parents[2]
ASKED = [
    "What other thoughts do you have on all this?",
    "Is there more you'd like to say about any of that?",
    "You said you gave him the loaf. How did you feel about it afterwards?",
    "What else comes to mind when you think about it?",
]


class Drafts:
    """Writes the scripted drafts in turn, whatever it is asked."""

    def __init__(self, drafts: list[str]) -> None:
        self.drafts = list(drafts)
        self.seen: list[list[str]] = []

    async def generate_question(self, request: Any, on_token: Any = None) -> TaskResult[str]:
        self.seen.append(list(request.avoid_questions))
        return TaskResult(value=self.drafts.pop(0))


def _ask(drafts: list[str], asked: list[str] = ASKED) -> tuple[str, Drafts]:
    lib = Library.discover(cwd=ROOT)
    concept = lib.concept("headphones_mec").value
    mec = lib.methodology("means_end_chain").value
    request = QuestionRequest(
        methodology=mec,
        concept=concept,
        strategy=mec.strategy("deepen"),
        avoid_questions=asked,
        turn_number=len(asked) + 1,
    )
    llm = Drafts(drafts)
    record = QuestionRecord(text="")
    asyncio.run(ask(llm, request, record, methodology=mec, asked=asked, hooks=Hooks()))  # type: ignore[arg-type]
    return record.text, llm


def test_a_repeat_is_written_again_with_the_draft_to_avoid() -> None:
    text, llm = _ask([ASKED[-1], "Why does the battery matter to you?"])
    assert text == "Why does the battery matter to you?"
    assert llm.seen[1][-1] == ASKED[-1]


def test_when_every_draft_repeats_the_one_asked_longest_ago_is_kept() -> None:
    # Round 58: the three plain wordings had all been asked; the last draft was the question
    # asked the turn before, and it was asked again.
    text, _ = _ask([ASKED[0], ASKED[1], ASKED[3]])
    assert text == ASKED[0]


def test_a_question_asked_twice_counts_from_when_it_was_last_asked() -> None:
    # The review of round 58's change: the first time "What else comes to mind" was asked (the
    # oldest) had been counted, so it was kept though it had been asked the turn before too.
    text, _ = _ask(
        [ASKED[3], ASKED[1], ASKED[3]], [ASKED[3], ASKED[0], ASKED[1], ASKED[2], ASKED[3]]
    )
    assert text == ASKED[1]
