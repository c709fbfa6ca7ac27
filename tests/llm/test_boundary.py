"""``llm.boundary``: answers bounded on the way to a model, model text cleaned on the way in."""

from __future__ import annotations

import asyncio

import pytest

from interview_cli.core.models import Extraction, RejectedItem
from interview_cli.llm.boundary import (
    MAX_ANSWER_CHARS,
    CleanTokens,
    answer_notice,
    bound_answer,
    bound_request,
    clean_model_text,
    clean_result,
)
from interview_cli.llm.factory import RoutedLLM
from interview_cli.llm.fakes import ScriptedLLM
from interview_cli.llm.protocol import AssessRequest, Exchange, TaskResult


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("plain text", "plain text"),
        ("\x1b]52;c;ZXZpbA==\x07copy", "copy"),
        ("\x1b[31mred\x1b[0m", "red"),
        ("a\x00b\x07c\x7fd", "abcd"),
        ("evil\u202etxt.exe\u2066x\u2069", "eviltxt.exex"),
        ("line one\r\nline two\ttab", "line one\nline two\ttab"),
        ("famille 👨\u200d👩\u200d👧 日本語", "famille 👨\u200d👩\u200d👧 日本語"),
        ("\x9b2Jgone", "gone"),
        ("\x1b]0;title never ends", "0;title never ends"),
    ],
)
def test_clean_model_text(raw: str, clean: str) -> None:
    assert clean_model_text(raw) == clean


def test_clean_result_reaches_every_string_and_keeps_usage() -> None:
    extraction = Extraction(
        extractable=False,
        reason="no\x1b[2J",
        rejected=[RejectedItem(kind="node", item={"label": "x\x07y"}, reason="bad\u202e")],
    )
    result = TaskResult(value=extraction, failures=["extract: \x07"])
    cleaned = clean_result(result)
    assert cleaned.value.reason == "no"
    assert cleaned.value.rejected[0].item == {"label": "xy"}
    assert cleaned.value.rejected[0].reason == "bad"
    unchanged = TaskResult(value="fine")
    assert clean_result(unchanged) is unchanged


def test_clean_tokens_cleans_pieces_and_forwards_reset() -> None:
    seen: list[str] = []

    class Sink:
        resets = 0

        def __call__(self, token: str) -> None:
            seen.append(token)

        def reset(self) -> None:
            Sink.resets += 1

    tokens = CleanTokens(Sink())
    for piece in ("What \x1b", "]52;c;eA==\x07", "\x07", "now?"):
        tokens(piece)
    tokens.reset()
    assert "\x1b" not in "".join(seen) and "\x07" not in "".join(seen)
    assert seen[0] == "What " and seen[-1] == "now?" and Sink.resets == 1


def test_bound_answer_and_notice() -> None:
    short = "a few words"
    assert bound_answer(short) is short and answer_notice(len(short)) is None
    long = "word " * 10_000
    bounded = bound_answer(long)
    assert len(bounded) <= MAX_ANSWER_CHARS and long.startswith(bounded)
    notice = answer_notice(len(long))
    assert notice is not None and "50,000 characters" in notice


def test_bound_request_bounds_every_answer_it_carries() -> None:
    long = "x " * MAX_ANSWER_CHARS
    request = AssessRequest(question="q", answer=long, recent_answers=["ok", long])
    bounded = bound_request(request)
    assert len(bounded.answer) <= MAX_ANSWER_CHARS
    assert bounded.recent_answers[0] == "ok" and len(bounded.recent_answers[1]) <= MAX_ANSWER_CHARS
    assert request.answer == long  # the caller's request (and the session) keep it whole
    small = AssessRequest(question="q", answer="fine", recent_answers=[])
    assert bound_request(small) is small
    assert Exchange(question="q", answer=long).answer == long


def test_the_router_cleans_every_client_including_offline() -> None:
    # A scripted client answering with controls (any implementation passes the router).
    impl = ScriptedLLM().enqueue("generate_question", ["Why \x1b[2Jdoes it\x00 matter?"])
    router = RoutedLLM({c: impl for c in ("extraction", "scoring", "generation", "respondent")})
    streamed: list[str] = []
    result = asyncio.run(router.generate_question(None, streamed.append))  # type: ignore[arg-type]
    assert result.value == "Why does it matter?"
    assert streamed == ["Why does it matter?"]


def test_parametrized_task_results_survive_a_collection() -> None:
    """pydantic caches TaskResult[str] weakly; a class rebuilt after every collection cost
    about 0.5 ms per simulated answer in a batch."""
    import gc

    from interview_cli.core.models import Assessment, Extraction
    from interview_cli.llm.protocol import SlotProposals, TaskResult

    before = [id(TaskResult[t]) for t in (str, Extraction, Assessment, SlotProposals)]
    gc.collect()
    assert [id(TaskResult[t]) for t in (str, Extraction, Assessment, SlotProposals)] == before
