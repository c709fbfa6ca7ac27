"""What the terminal shows: respondents' words as typed, readable at 80 columns, ids and paths
whole, and nothing printed that is taken back later (a rejected question draft)."""

from __future__ import annotations

import builtins
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from interview_cli.cli.answer_source import AnswerSource, clean_answer
from interview_cli.cli.app import app

RICH = "I love the noise cancelling because it lets me focus on the train"
BRACKETS = [
    "I like [/] brackets",
    "[bold]x[/bold] matters because it relaxes me",
    "the [attribute] part gives me [red]calm[/red]",
]


@pytest.fixture
def sessions(tmp_path: Path) -> Path:
    return tmp_path / "sessions"


@pytest.fixture
def narrow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")


def run_cli(sessions: Path, args: list[str], answers: list[str]) -> Result:
    return CliRunner().invoke(
        app,
        ["run", "--sessions-dir", str(sessions), "-c", "headphones_mec", "-p", "offline", *args],
        input="".join(a + "\n" for a in answers),
        catch_exceptions=False,
    )


def only_session(sessions: Path) -> dict[str, Any]:
    (path,) = sessions.glob("*.json")
    return json.loads(path.read_text(encoding="utf-8"))


def show(sessions: Path, session_id: str) -> Result:
    args = ["sessions", "show", session_id, "--sessions-dir", str(sessions)]
    return CliRunner().invoke(app, args, catch_exceptions=False)


# -- 1. respondents' words are text, never Rich markup --------------------------------------


def test_answers_with_brackets_are_echoed_saved_and_shown_as_typed(sessions: Path) -> None:
    result = run_cli(sessions, [], [*BRACKETS, "/why", "/graph", "/end", "2"])
    assert result.exit_code == 0, result.output
    for answer in BRACKETS:
        assert f"you › {answer}" in result.stdout
    doc = only_session(sessions)
    assert doc["status"] == "completed"
    assert [t["answer"]["text"] for t in doc["turns"]] == BRACKETS

    shown = show(sessions, doc["id"])
    assert shown.exit_code == 0, shown.output
    for number, answer in enumerate(BRACKETS, start=1):
        assert f"A{number} {answer}" in shown.stdout
    # node types are printed in brackets too, and must not be swallowed as style tags
    assert "[attribute]" in shown.stdout


def test_a_focus_label_with_brackets_stays_in_the_question_subtitle() -> None:
    from interview_cli.ui.interview import question_panel

    console = Console(width=100, record=True, file=io.StringIO())
    console.print(question_panel("Why?", turn=2, strategy="deepen", focus="[/] [b]x"))
    assert "focus: [/] [b]x" in console.export_text()


# -- 2. the candidates table at 80 columns -------------------------------------------------


def _fragments(block: str) -> list[str]:
    """Lines of a table whose content is a one- to three-character piece of a word."""
    out = []
    for line in block.splitlines():
        content = re.sub(r"[│┃║|]", " ", line).strip()
        if content and len(content) <= 3 and not re.fullmatch(r"[\d#─━═┼╋╇┡┩└┘┴ ]+", content):
            out.append(line)
    return out


@pytest.mark.usefixtures("narrow")
def test_why_is_readable_at_80_columns(sessions: Path) -> None:
    result = run_cli(sessions, [], [RICH, "/why full", "/quit"])
    assert result.exit_code == 0, result.output
    block = result.stdout.split("Top candidates", 1)[1].split("Continuation:", 1)[0]
    assert "graph.node.recency_score.high" in block  # drivers are shown whole
    assert _fragments(block) == []
    assert len(block.splitlines()) <= 40
    assert max(len(line) for line in result.stdout.splitlines()) <= 80


@pytest.mark.usefixtures("narrow")
def test_debug_tables_are_readable_at_80_columns(sessions: Path) -> None:
    result = run_cli(sessions, ["--debug"], [RICH, "/quit"])
    assert result.exit_code == 0, result.output
    block = result.stdout.split("Top candidates", 1)[1]
    assert _fragments(block) == []
    assert len(block.splitlines()) <= 60


def test_the_turn_summary_breaks_only_between_its_parts() -> None:
    from interview_cli.ui.interview import _join_within

    parts = ["+3 nodes", "+2 edges", "next: deepen → a long focus label", "depth: shallow"]
    assert _join_within("  ", parts, " · ", 60).splitlines() == [
        "  +3 nodes · +2 edges · next: deepen → a long focus label",
        "  depth: shallow",
    ]
    assert _join_within("  ", parts, " · ", None).count("\n") == 0


# -- 3. line editing at an interactive prompt -----------------------------------------------


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def _interactive(monkeypatch: pytest.MonkeyPatch, reply: Any) -> tuple[AnswerSource, io.StringIO]:
    monkeypatch.setattr(sys, "stdin", FakeTTY())
    monkeypatch.setattr(builtins, "input", reply)
    out = io.StringIO()
    return AnswerSource(Console(file=out, force_terminal=True, width=80)), out


def test_an_interactive_prompt_loads_readline(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("readline")
    monkeypatch.delitem(sys.modules, "readline", raising=False)
    prompts: list[str] = []

    def reply(prompt: str = "") -> str:
        prompts.append(prompt)
        return "an answer"

    source, _ = _interactive(monkeypatch, reply)
    assert source.interactive
    assert "readline" in sys.modules
    assert source.read() == "an answer"
    # the prompt goes to input() itself, its colour codes bracketed for readline
    assert "you › " in prompts[0] and "\x01\x1b[" in prompts[0]


def test_ctrl_c_at_the_prompt_ends_the_line_first(monkeypatch: pytest.MonkeyPatch) -> None:
    def reply(prompt: str = "") -> str:
        raise KeyboardInterrupt

    source, out = _interactive(monkeypatch, reply)
    with pytest.raises(KeyboardInterrupt):
        source.read()
    assert out.getvalue() == "\n"


# -- 4. escape codes ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("I like the \x1b[31mred\x1b[0m colour", "I like the red colour"),
        ("bell\x07 and \x1b[1;31mescape\x1b[0m", "bell and escape"),
        ("a \x1b]0;title\x07b", "a b"),
        ("\x1b]8;;https://x.org\x1b\\link\x1b]8;;\x1b\\ here", "link here"),
        ("\x1b[200~pasted\x1b[201~", "pasted"),
        ("tab\there\x00", "tab\there"),
        ("an unterminated \x1b]osc keeps its words", "an unterminated osc keeps its words"),
        ("👩\u200d💻 مرحبا", "👩\u200d💻 مرحبا"),
    ],
)
def test_clean_answer_strips_whole_escape_sequences(raw: str, clean: str) -> None:
    assert clean_answer(raw) == clean


# -- 5. ids and paths are never cut ---------------------------------------------------------


@pytest.mark.usefixtures("narrow")
def test_the_session_file_and_ids_are_shown_whole_at_80_columns(
    sessions: Path, tmp_path: Path
) -> None:
    deep = tmp_path / ("a-rather-long-directory-name-" * 3) / "sessions"
    result = run_cli(deep, [], [RICH, "/end", ""])
    assert result.exit_code == 0, result.output
    (path,) = deep.glob("*.json")
    assert f"Session file: {path}" in result.stdout.splitlines()
    summary = result.stdout.split("Interview summary", 1)[1]
    assert "…" not in summary

    # On an 80-column terminal the listing fits it; piped, it has every column and the
    # sessions directory whole on its first line.
    on_screen = CliRunner().invoke(
        app, ["sessions", "--sessions-dir", str(deep)], env={"TTY_COMPATIBLE": "1"}
    )
    assert on_screen.exit_code == 0, on_screen.output
    shown = re.sub(r"\x1b\[[0-9;]*m", "", on_screen.stdout)
    assert path.stem in shown
    assert max(len(line) for line in shown.splitlines()) <= 80
    listed = CliRunner().invoke(app, ["sessions", "--sessions-dir", str(deep)])
    assert listed.exit_code == 0, listed.output
    assert listed.stdout.splitlines()[0] == f"Sessions in {deep}"
    assert path.stem in listed.stdout


# -- 6. sessions show after /end ------------------------------------------------------------


def test_sessions_show_includes_the_summary_and_rating_after_end(sessions: Path) -> None:
    result = run_cli(sessions, [], [RICH, "/end", "3"])
    assert result.exit_code == 0, result.output
    doc = only_session(sessions)
    assert doc["closing"]["question"] == "" and doc["closing"]["rating"] == 3
    shown = show(sessions, doc["id"])
    assert "What I understood" in shown.stdout
    for line in doc["closing"]["summary"].splitlines():
        assert line in shown.stdout
    assert "rated 3/4" in shown.stdout


def test_sessions_show_includes_the_closing_answer(sessions: Path) -> None:
    answers = [RICH, "It lets me [focus]", "4", "4"]
    result = run_cli(sessions, ["--max-turns", "2"], answers)
    assert result.exit_code == 0, result.output
    doc = only_session(sessions)
    closing = doc["closing"]
    assert closing["question"] and closing["comment"] and closing["rating"] == 4
    shown = show(sessions, doc["id"]).stdout
    assert f"Closing {closing['question']}".split("\n")[0][:60] in shown
    assert f"A {closing['comment']}" in shown
    assert "What I understood" in shown and "rated 4/4" in shown


# -- 7. a rejected question draft is never printed ------------------------------------------


class RepeatsOnce:
    """The offline provider, whose first follow-up repeats the last question asked."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.provider_label = "repeats-once"
        self.repeated = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def generate_question(self, request: Any, on_token: Any = None) -> Any:
        if request.avoid_questions and not self.repeated:
            self.repeated = True
            draft = request.avoid_questions[-1]
            if on_token is not None:
                for word in draft.split(" "):
                    on_token(word + " ")
            result = await self.inner.generate_question(request)
            return result.model_copy(update={"value": draft})
        return await self.inner.generate_question(request, on_token=on_token)


def test_a_regenerated_question_is_printed_once(
    sessions: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import interview_cli.llm.factory as factory

    real_build = factory.build_llm
    fakes: list[RepeatsOnce] = []

    def build(*args: Any, **kwargs: Any) -> RepeatsOnce:
        fakes.append(RepeatsOnce(real_build(*args, **kwargs)))
        return fakes[-1]

    monkeypatch.setattr(factory, "build_llm", build)
    result = run_cli(sessions, [], [RICH, "/quit"])
    assert result.exit_code == 0, result.output
    assert fakes[0].repeated
    assert result.stdout.count("Question 2") == 1
    opening = only_session(sessions)["turns"][0]["question"]["text"]
    # the rejected draft (a copy of the opening question) is not on screen a second time
    assert result.stdout.count(opening.split("?")[0][:40]) == 1


# -- 8. methodologies show the ontology's level numbers -------------------------------------


@pytest.mark.usefixtures("narrow")
def test_methodologies_show_the_real_levels() -> None:
    result = CliRunner().invoke(app, ["methodologies"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "1. situation" in out and "1. incident" in out
    assert "4. emotional_job (terminal)" in out and "4. social_job (terminal)" in out
    assert "5. terminal_value (terminal)" in out
    levels = json.loads(CliRunner().invoke(app, ["methodologies", "--json"]).stdout)
    by_name = {r["name"]: r["node_levels"] for r in levels}
    assert by_name["critical_incident"]["incident"] == 1


# -- 9. bad option values ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "-c", "headphones_mec", "--max-turns", "1"], "--max-turns"),
        (["run", "--no-such-option"], "--no-such-option"),
        (["sessions", "show"], "Missing argument"),
        (["--no-such-root-option"], "--no-such-root-option"),
    ],
)
def test_bad_option_values_are_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, args, input="")
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and message in lines[0]
    assert "--help" in lines[0]


def test_a_retried_stream_replaces_the_draft_on_screen() -> None:
    # llm.protocol: a stream retried after tokens were shown calls on_token.reset() first.
    from io import StringIO

    from rich.console import Console

    from interview_cli.llm.protocol import ResettableOnToken, reset_stream
    from interview_cli.session.schema import QuestionRecord
    from interview_cli.ui.live import Screen

    console = Console(file=StringIO(), force_terminal=True, width=80)
    screen = Screen(console)
    assert isinstance(screen.on_token, ResettableOnToken)
    record = QuestionRecord(text="", kind="follow_up", strategy="deepen", focus_label="bass")
    screen.on_question_start(record)
    for token in ("Why does the ", "bass mat"):  # the stream breaks here
        screen.on_token(token)
    reset_stream(screen.on_token)
    for token in ("What does the bass ", "give you?"):
        screen.on_token(token)
    shown = Console(file=StringIO(), width=80, record=True)
    shown.print(screen._panel())
    text = shown.export_text()
    assert "What does the bass give you?" in text and "Why does" not in text
    screen.done()
