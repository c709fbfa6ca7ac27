"""`interview replay` in a terminal pages one turn at a time, each page within a 40-row
screen (the question and answer never scroll out of sight); `d` shows the turn in full."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from rich.console import Console
from typer.testing import CliRunner

from interview_cli.cli.app import app
from interview_cli.cli.replay import page_turns
from interview_cli.session.schema import SessionFile
from interview_cli.session.store import SessionStore

ANSWERS = [
    "I love the noise cancelling because it lets me focus on the train",
    "Focusing on the train means I can get my work done, which makes me feel in control",
    "Feeling in control matters because I value freedom",
    "The battery lasts all day so I never worry about charging",
    "Not worrying lets me relax on long trips",
]


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> SessionFile:
    sessions = tmp_path_factory.mktemp("pages")
    result = CliRunner().invoke(
        app,
        ["run", "-c", "headphones_mec", "--sessions-dir", str(sessions)],
        input="".join(a + "\n" for a in ANSWERS),
    )
    assert result.exit_code == 0, result.output
    (path,) = sessions.glob("*.json")
    return SessionStore(sessions).load(str(path))


def pages(session: SessionFile, keys: list[str], width: int) -> list[str]:
    """What each page showed, as the screen's lines, for the keys pressed after each."""
    console = Console(width=width, height=40, record=True, file=io.StringIO())
    shown: list[str] = []
    pressed: Iterator[str] = iter(keys)

    def read(prompt: str) -> str:
        shown.append(console.export_text(clear=True))
        return next(pressed)

    page_turns(console, session.turns, read)
    return shown


@pytest.mark.parametrize("width", [120, 80])
def test_every_page_fits_a_40_row_screen(session: SessionFile, width: int) -> None:
    shown = pages(session, ["n"] * len(session.turns), width)
    assert len(shown) == len(session.turns)
    for number, page in enumerate(shown, start=1):
        lines = page.rstrip("\n").splitlines()
        assert len(lines) <= 39, f"turn {number}: {len(lines)} lines\n{page}"  # + the prompt
        assert lines[0].startswith(f"Turn {number} of ")
        assert any(line.startswith("Answer: ") for line in lines)
        assert any(line.startswith("Chosen: ") for line in lines)


def test_d_shows_the_turn_in_full(session: SessionFile) -> None:
    shown = pages(session, ["d", "q"], 120)
    assert "Candidates (strategy × focus)" not in shown[0]
    assert "Candidates (strategy × focus)" in shown[1] and "Key signals" in shown[1]


def test_a_page_taller_than_the_screen_is_cut_and_says_so(session: SessionFile) -> None:
    long = session.model_copy(deep=True)
    long.turns[0].answer.text = " ".join(["and then I went on about the train"] * 120)
    shown = pages(long, ["q"], 80)
    lines = shown[0].rstrip("\n").splitlines()
    assert len(lines) == 39
    assert lines[0].startswith("Turn 1 of ") and "d shows the whole turn" in lines[-1]
