"""What a capable model writes as a question, as the respondent sees it (over the real SDK
against the fake server): an acknowledgement paragraph before the question, a closing summary
over several paragraphs, a preamble to the person who asked, a second question behind the
first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from capable_model import capable_defaults, extraction, interview_on, node, remote_llm, run_closed
from fakeserver import FakeLLMServer, Step

from interview_cli.llm.validation import clean_question

FOCUS_QUESTION = "What does being able to focus on the train give you?"


@pytest.fixture
def server(fake_server: FakeLLMServer) -> FakeLLMServer:
    capable_defaults(fake_server)
    fake_server.tool_inputs["record_extraction"] = extraction(
        [node("noise cancelling", "attribute", "the noise cancelling")]
    )
    return fake_server


def first_turn(server: FakeLLMServer, env: dict[str, str], tmp_path: Path, reply: str) -> Any:
    server.script_task("generate_opening", Step(text="Tell me about the headphones you use."))
    server.script_task("generate_question", Step(text=reply))
    llm = remote_llm(env)
    interview = interview_on(llm, tmp_path)

    async def go() -> Any:
        await interview.ensure_question()
        return await interview.submit("I love the noise cancelling on my commute")

    return run_closed(llm, go()).next_question


@pytest.mark.parametrize(
    ("reply", "shown"),
    [
        (
            f"Thanks, that's really helpful.\n\n{FOCUS_QUESTION}",
            f"Thanks, that's really helpful. {FOCUS_QUESTION}",
        ),
        (f"Sure! Here's the question: {FOCUS_QUESTION}", FOCUS_QUESTION),
        # ... but a word to the respondent stays: it may answer what they asked for
        (f"Of course. {FOCUS_QUESTION}", f"Of course. {FOCUS_QUESTION}"),
        (f'Here is a follow-up question you could ask:\n\n"{FOCUS_QUESTION}"', FOCUS_QUESTION),
        (f"{FOCUS_QUESTION} And how does that make you feel?", FOCUS_QUESTION),
        (f"{FOCUS_QUESTION}\n\nThis question builds on their own words.", FOCUS_QUESTION),
    ],
)
def test_the_respondent_sees_the_question_the_model_wrote(
    server: FakeLLMServer, provider_env: dict[str, str], tmp_path: Path, reply: str, shown: str
) -> None:
    assert first_turn(server, provider_env, tmp_path, reply).text == shown


def test_a_closing_keeps_its_summary_question_and_thanks(
    server: FakeLLMServer, provider_env: dict[str, str], tmp_path: Path
) -> None:
    closing = (
        "Here's what I heard: the noise cancelling lets you focus on the train, and that "
        "focus gives you time to yourself.\n\n"
        "You also said the battery matters on long trips.\n\n"
        "Is anything important missing or wrong in that? Thank you for your time."
    )
    server.script_task("generate_opening", Step(text="Tell me about the headphones you use."))
    server.script_task("generate_question", Step(text=FOCUS_QUESTION), Step(text=closing))
    llm = remote_llm(provider_env)
    interview = interview_on(llm, tmp_path, max_turns=2)

    async def go() -> Any:
        await interview.ensure_question()
        await interview.submit("I love the noise cancelling on my commute")
        return await interview.submit("It lets me focus on the train")

    result = run_closed(llm, go())
    assert result.next_question.kind == "closing"
    assert result.next_question.text == " ".join(paragraph for paragraph in closing.split("\n\n"))


def test_an_acknowledgement_before_the_question_is_kept_whole() -> None:
    # Offline and direct: the cleaning rule itself, for the opening's framing sentence.
    text = "Let's start with your own experience.\n\nWhen did you last use your headphones?"
    assert clean_question(text) == (
        "Let's start with your own experience. When did you last use your headphones?"
    )
