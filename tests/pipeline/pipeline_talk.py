"""The questions an interview asks while answers are fed to it: shared by the pipeline tests
that run answers through the real turn (offline provider)."""

from __future__ import annotations

import asyncio

from interview_cli.pipeline.runner import Interview


def asked_through(interview: Interview, answers: list[str]) -> list[str]:
    """The question asked before each answer, and the one after the last."""
    asked: list[str] = []

    async def go() -> None:
        for answer in answers:
            question = await interview.ensure_question()
            assert question is not None
            asked.append(question.text)
            await interview.submit(answer)
        question = await interview.ensure_question()
        assert question is not None
        asked.append(question.text)

    asyncio.run(go())
    return asked
