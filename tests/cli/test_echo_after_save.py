"""A piped answer is echoed (``you › ...``) only once it is on disk.

Echoed before the save, a kill in between showed an answer in the transcript that the session
did not hold. The store's save is watched: when the save that first holds an answer happens,
the echo of that answer must not be on the screen yet, and it must be there at the end.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from interview_cli.cli.app import app
from interview_cli.session.store import SessionStore

ANSWERS = [
    "I love the noise cancelling because it lets me focus on the train",
    "The battery lasts all day so I never worry about charging",
]


def test_each_answer_is_echoed_after_the_save_that_holds_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown_at_save: dict[str, bool] = {}
    real_save = SessionStore.save

    def watched(self: SessionStore, session: object) -> Path:
        path = real_save(self, session)  # type: ignore[arg-type]
        screen = sys.stdout.buffer.getvalue().decode("utf-8", "replace")  # type: ignore[attr-defined]
        for turn in session.turns:  # type: ignore[attr-defined]
            text = turn.answer.text if turn.answer else ""
            shown_at_save.setdefault(text, f"you › {text}" in screen)
        return path

    monkeypatch.setattr(SessionStore, "save", watched)
    stdin = "".join(a + "\n" for a in ANSWERS) + "/why\n/quit\n"
    result = CliRunner().invoke(
        app,
        ["run", "-c", "headphones_mec", "-p", "offline", "--sessions-dir", str(tmp_path)],
        input=stdin,
    )
    assert result.exit_code == 0, result.output
    assert shown_at_save == {a: False for a in ANSWERS}  # saved first, every time
    for text in [*ANSWERS, "/why", "/quit"]:
        assert f"you › {text}" in result.stdout  # and then echoed
