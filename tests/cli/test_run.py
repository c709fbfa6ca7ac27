"""Whole interviews through the CLI (in-process): the transcript on screen and the file on disk."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interview_cli.cli.app import app
from interview_cli.errors import LLMError

ANSWERS = [
    "I love the noise cancelling because it lets me focus on the train",
    "Focusing on the train means I can get my work done, which makes me feel in control",
    "Feeling in control matters because I value freedom",
    "Freedom is about peace of mind for me",
    "The battery lasts all day so I never worry about charging",
    "Not worrying lets me relax on long trips",
]


def run_cli(args: list[str], answers: list[str] | str, sessions: Path) -> Any:
    text = answers if isinstance(answers, str) else "".join(a + "\n" for a in answers)
    return CliRunner().invoke(
        app, ["run", "--sessions-dir", str(sessions), *args], input=text, catch_exceptions=False
    )


def only_session(sessions: Path) -> dict[str, Any]:
    files = [p for p in sessions.glob("*.json")]
    assert len(files) == 1, files
    return json.loads(files[0].read_text(encoding="utf-8"))


@pytest.fixture
def sessions(tmp_path: Path) -> Path:
    return tmp_path / "sessions"


def test_a_whole_interview_to_the_end(sessions: Path) -> None:
    # Answers, then "3"s: one answers the closing question, the next rates the summary.
    result = run_cli(
        ["-c", "headphones_mec", "--provider", "offline", "--max-turns", "4"],
        [*ANSWERS[:4], "3", "3", "3"],
        sessions,
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "LLM: offline" in out
    assert "Question 1" in out and "Question 2" in out and "Closing" in out
    assert "What I understood" in out
    assert "Interview summary" in out and "completed" in out
    # no model called, no cost: not "$0.0000 (81 LLM calls)" beside "offline" (round 189)
    assert "none: offline, no model called" in " ".join(out.split())
    assert "LLM calls" not in out
    # what the chain figure counts, said (round 189-191 testers read "chains completed 0"
    # beside a summary of chains as a contradiction)
    assert "chains to the top level" in out
    assert "strategy: opening" in out  # the first box says what it is too
    doc = only_session(sessions)
    assert doc["status"] == "completed"
    assert doc["termination_reason"] in {"Maximum turns reached", "Closing strategy selected"}
    n = len(doc["turns"])
    assert 2 <= n <= 4
    assert [t["answer"]["text"] for t in doc["turns"]] == ANSWERS[:n]
    assert all(t["status"] == "complete" for t in doc["turns"])
    assert doc["closing"]["question"] and doc["closing"]["rating"] == 3
    assert doc["pending_question"] is None
    first = doc["turns"][0]
    assert first["extraction"]["nodes"], "the offline extractor found nothing in a rich answer"
    assert first["decision"]["strategy"]
    assert first["candidates"] and any(c["selected"] for c in first["candidates"])
    assert {c["task"] for c in first["llm_calls"]} >= {"extract", "assess", "generate_question"}
    assert doc["graph"]["nodes"]
    assert doc["usage"]["calls"] >= 3 * n
    # every question after the first names the strategy that chose it
    assert all(t["question"]["strategy"] for t in doc["turns"][1:])
    assert doc["turns"][-1]["continuation"]["should_continue"] is False


def test_end_of_input_pauses_and_resume_continues(sessions: Path) -> None:
    first = run_cli(
        ["-c", "headphones_mec", "-p", "offline", "--max-turns", "5"], ANSWERS[:2], sessions
    )
    assert first.exit_code == 0, first.output
    assert "Paused. Resume with: interview run --resume" in first.stdout
    doc = only_session(sessions)
    assert doc["status"] == "paused"
    assert len(doc["turns"]) == 2 and doc["pending_question"]["text"]
    pending = doc["pending_question"]["text"]

    # turns 3 to 5, then the closing question (the turn limit closes), then Enter at the rating
    second = run_cli(["--resume", doc["id"]], [*ANSWERS[2:6], "", "", "", ""], sessions)
    assert second.exit_code == 0, second.output
    assert pending in second.stdout  # the waiting question is asked again
    doc = only_session(sessions)
    assert doc["status"] == "completed"
    n = len(doc["turns"])
    assert n >= 3
    assert [t["turn_number"] for t in doc["turns"]] == list(range(1, n + 1))
    assert [t["answer"]["text"] for t in doc["turns"]] == ANSWERS[:n]
    assert doc["closing"]["rating"] is None  # Enter skipped the rating
    # the turn limit closed it: all five turns asked, then the closing summary
    assert n == 5 and doc["termination_reason"] == "Maximum turns reached"
    assert doc["closing"]["question"] and doc["closing"]["comment"] == ANSWERS[5]


def test_resume_by_path_continues_that_file_where_it_is(tmp_path: Path, sessions: Path) -> None:
    elsewhere = tmp_path / "archive"
    first = run_cli(["-c", "headphones_mec", "-p", "offline"], ANSWERS[:1], elsewhere)
    assert first.exit_code == 0, first.output
    (path,) = elsewhere.glob("*.json")
    # --sessions-dir names another directory: the named file is still the one continued.
    second = run_cli(["--resume", str(path)], [ANSWERS[1], "/quit"], sessions)
    assert second.exit_code == 0, second.output
    assert not sessions.exists() or not list(sessions.glob("*.json"))
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert [t["answer"]["text"] for t in doc["turns"]] == ANSWERS[:2]
    assert not [p for p in elsewhere.iterdir() if p.suffix in (".lock", ".tmp")]

    renamed = path.with_name("copy.json")
    renamed.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    refused = run_cli(["--resume", str(renamed)], ["/quit"], sessions)
    assert refused.exit_code == 2
    assert f"must be named {doc['id']}.json" in refused.output
    assert json.loads(renamed.read_text(encoding="utf-8")) == doc  # nothing modified


def test_in_interview_commands(sessions: Path) -> None:
    result = run_cli(
        ["-c", "headphones_mec", "-p", "offline"],
        ["/why", ANSWERS[0], "/why full", "/graph", "/help", "/bogus", "/quit", ANSWERS[1]],
        sessions,
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "This is the opening question" in out
    assert "Chosen:" in out and "Top candidates" in out
    assert "Knowledge graph:" in out and "noise cancelling" in out
    assert "/quit   pause the interview" in out
    assert "Unknown command '/bogus'" in out
    doc = only_session(sessions)
    assert doc["status"] == "paused"
    assert [t["answer"]["text"] for t in doc["turns"]] == [ANSWERS[0]]  # nothing after /quit


def test_end_closes_now_with_the_reason(sessions: Path) -> None:
    result = run_cli(["-c", "headphones_mec", "-p", "offline"], [ANSWERS[0], "/end", "4"], sessions)
    assert result.exit_code == 0, result.output
    doc = only_session(sessions)
    assert doc["status"] == "completed"
    assert doc["termination_reason"] == "ended by moderator"
    assert doc["closing"]["rating"] == 4


def test_odd_input_is_kept_faithfully(sessions: Path) -> None:
    long_answer = "I like the sound because it relaxes me. " * 300
    answers = [
        "",
        "   ",
        "Der Klang ist super, weil ich mich entspannen kann 😀",
        "音质很好，因为我可以放松",
        "الصوت رائع لأنه يريحني",
        "bell\x07 and \x1b[31mescape\x1b[0m codes",
        long_answer,
    ]
    result = run_cli(
        ["-c", "headphones_mec", "-p", "offline", "--max-turns", "10"], answers, sessions
    )
    assert result.exit_code == 0, result.output
    texts = [t["answer"]["text"] for t in only_session(sessions)["turns"]]
    assert texts == [
        "Der Klang ist super, weil ich mich entspannen kann 😀",
        "音质很好，因为我可以放松",
        "الصوت رائع لأنه يريحني",
        "bell and escape codes",  # whole escape sequences go, not just ESC
        long_answer.strip(),
    ]


class FailingExtraction:
    """The offline provider whose extraction keeps failing after retries (like a dead API)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.provider_label = "failing"

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def extract(self, request: Any) -> Any:
        raise LLMError(
            "anthropic claude-x failed extract after 4 attempts: 529 overloaded",
            provider="anthropic",
            model="claude-x",
            task="extract",
            cause="529",
        )


def test_llm_failure_keeps_the_answer_and_resume_recovers(
    sessions: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import interview_cli.llm.factory as factory

    real_build = factory.build_llm
    monkeypatch.setattr(
        factory, "build_llm", lambda *a, **k: FailingExtraction(real_build(*a, **k))
    )
    failed = CliRunner().invoke(
        app,
        ["run", "--sessions-dir", str(sessions), "-c", "headphones_mec", "-p", "offline"],
        input=ANSWERS[0] + "\n",
    )
    assert failed.exit_code == 1
    assert "529 overloaded" in failed.stderr and "--resume" in failed.stderr
    assert "Traceback" not in failed.output
    doc = only_session(sessions)
    assert doc["status"] == "failed"
    assert doc["turns"][0]["answer"]["text"] == ANSWERS[0]
    assert doc["turns"][0]["status"] == "answered"

    monkeypatch.setattr(factory, "build_llm", real_build)
    resumed = run_cli(["--resume", doc["id"]], [ANSWERS[1], "/quit"], sessions)
    assert resumed.exit_code == 0, resumed.output
    doc = only_session(sessions)
    assert [t["status"] for t in doc["turns"]] == ["complete", "complete"]
    assert [t["answer"]["text"] for t in doc["turns"]] == ANSWERS[:2]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "--concept ID"),
        (["-c", "no_such_concept"], "no_such_concept"),
        (["--resume", "nope"], "no session 'nope'"),
        (["--resume", "../etc/passwd"], "no such session file"),
        (["-c", "headphones_mec", "-p", "martian"], "martian"),
        (["-c", "headphones_mec", "-p", "anthropic"], "ANTHROPIC_API_KEY"),
    ],
)
def test_bad_usage_is_one_clear_line(sessions: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["run", "--sessions-dir", str(sessions), *args], input="")
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) <= 2


def test_completed_sessions_are_not_resumed(sessions: Path) -> None:
    run_cli(["-c", "headphones_mec", "-p", "offline"], [ANSWERS[0], "/end", ""], sessions)
    doc = only_session(sessions)
    again = CliRunner().invoke(
        app, ["run", "--sessions-dir", str(sessions), "--resume", doc["id"]], input="x\n"
    )
    assert again.exit_code == 2
    assert "already completed" in again.stderr


def test_sessions_listing_and_transcript(sessions: Path) -> None:
    run_cli(["-c", "headphones_mec", "-p", "offline"], [ANSWERS[0], "/quit"], sessions)
    listed = CliRunner().invoke(app, ["sessions", "--sessions-dir", str(sessions), "--json"])
    assert listed.exit_code == 0, listed.output
    rows = json.loads(listed.stdout)
    assert [(r["concept"], r["status"], r["turns"]) for r in rows] == [
        ("headphones_mec", "paused", 1)
    ]
    shown = CliRunner().invoke(
        app, ["sessions", "show", rows[0]["id"], "--sessions-dir", str(sessions)]
    )
    assert shown.exit_code == 0, shown.output
    assert ANSWERS[0] in shown.stdout and "extracted:" in shown.stdout
    table = CliRunner().invoke(app, ["sessions", "--sessions-dir", str(sessions)])
    assert "paused" in table.stdout


def test_the_closing_recap_leads_with_what_they_asked_to_go_back_to(sessions: Path) -> None:
    # Round 119: the close recapped the car park ("dark car park", "quiet", "other guys
    # smoking") where the respondent had asked to go back to the heart scare, "the real reason"
    answers = [
        "Well my morning is like 9 pm, I work nights in warehouse. Yesterday I make full "
        "thermos of coffee before the shift",
        "Car park is dark, quiet, other guys smoking. I bring coffee from home because machine "
        "coffee at work is terrible",
        "Before I drink energy drinks, then one night my heart was racing like crazy and I end "
        "up in A&E, so I switched to coffee",
        "Can we go back to the heart thing, that is the real reason I drink coffee now",
    ]
    result = run_cli(
        ["-c", "coffee_jtbd", "--provider", "offline", "--max-turns", "4"], answers, sessions
    )
    assert result.exit_code == 0, result.output
    closing = only_session(sessions)["pending_question"]["text"]
    assert closing.index('"my heart"') < closing.index('"quiet"'), closing
