"""Commands on a real pseudo-terminal: what a moderator sees while the respondent types in
`interview run` (the live display stopped, each question drawn once, the typed answer left on
screen), and where `interview batch` draws its progress when its output goes to a file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.cli.pty_terminal import PtySession

pytestmark = pytest.mark.slow

OPENING = "What comes to mind first when you think about wireless headphones?"


def start(tmp_path: Path, *args: str, cols: int = 120) -> PtySession:
    sessions = tmp_path / "sessions"
    return PtySession(
        ["run", "-c", "headphones_mec", "--provider", "offline", "--sessions-dir", str(sessions)]
        + list(args),
        cwd=tmp_path,
        env=dict(os.environ),
        cols=cols,
    )


@pytest.mark.parametrize("cols", [120, 80])
def test_the_opening_question_is_drawn_once_and_the_typing_stays_visible(
    tmp_path: Path, cols: int
) -> None:
    term = start(tmp_path, cols=cols)
    try:
        term.wait_for("you ›")
        # Nothing is redrawn while the respondent thinks (a running live display repaints
        # about 20 times a second).
        assert term.idle_bytes(0.6) == 0
        term.type("I like the sound")
        term.wait_for("I like the sound")
        assert term.idle_bytes(0.3) < 40  # the echo of nothing more
        screen = term.screen().text
        assert screen.count("Question 1") == 1, screen
        assert "you › I like the sound" in screen.splitlines()[-1]
        term.type(" quality\r")
        term.wait_for("Question 2")
        term.wait_for("you ›", times=2)
        term.type("/alt\r")  # the moderator overrules: a new question 2, drawn once
        term.wait_for("you ›", times=3)
        # the rest of the prompt may come a moment after its mark on a busy machine (2 bytes
        # did, once); a display that repaints sends far more, and again in the next window
        assert term.idle_bytes(0.3) < 40
        assert term.idle_bytes(0.3) == 0
        term.type("/quit\r")
        assert term.finish() == 0
    finally:
        if term.process.poll() is None:
            term.process.kill()
            # reaped here: a child left running is reported, at garbage collection, as an
            # error of whichever test of this worker runs then
            term.process.wait(timeout=10)
    screen = term.screen().text
    assert screen.count("Question 1") == 1, screen
    assert screen.count("Question 2") == 2, screen  # the tool's, then the moderator's /alt
    assert screen.index("Moderator: the next-best move") < screen.rindex("Question 2")
    assert "you › I like the sound quality" in screen  # the first answer is kept in view
    assert "Paused. Resume with" in screen


def test_batch_progress_stays_on_the_terminal_when_the_output_goes_to_a_file(
    tmp_path: Path,
) -> None:
    out = tmp_path / "batch.txt"
    args = ["batch", "cooperative", "-c", "headphones_mec", "--runs", "2", "--max-turns", "4"]
    term = PtySession(
        [*args, "--sessions-dir", str(tmp_path / "sessions")],
        cwd=tmp_path,
        env=dict(os.environ),
        stdout=out,
    )
    assert term.finish() == 0, term.plain()
    shown = term.plain()
    assert "interviews" in shown and "2/2" in shown  # the progress, on the terminal
    written = out.read_text(encoding="utf-8")
    assert "2 interviews" in written and "Ground truth" in written  # header and summary
    assert "\x1b[" not in written  # no terminal codes in the file
