"""The terminal's question panel: a question streamed before the first prompt (the opening)
is settled before the prompt, so its draft never redraws over what the respondent types."""

from __future__ import annotations

import asyncio
import io
from types import SimpleNamespace

from rich.console import Console

from interview_cli.cli.terminal import TerminalRespondent
from interview_cli.pipeline.conversation import Stop
from interview_cli.pipeline.questions import Hooks
from interview_cli.session.schema import QuestionRecord
from interview_cli.ui.live import Screen


class EndOfInput:
    last = None

    def read(self, **_: object) -> None:
        return None


def test_the_opening_draft_stops_before_the_prompt() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=80)
    screen = Screen(console)
    opening = QuestionRecord(text="", kind="opening")
    screen.on_question_start(opening)  # the opening streams into a live draft
    screen.on_token("Tell me about your headphones?")
    opening.text = "Tell me about your headphones?"
    session = SimpleNamespace(pending_question=opening, turns=[], stimulus=None)
    respondent = TerminalRespondent(
        console=console, source=EndOfInput(), screen=screen, hooks=Hooks(), debug=False
    )
    try:
        stop = asyncio.run(respondent.reply(SimpleNamespace(session=session), opening))  # type: ignore[arg-type]
        assert isinstance(stop, Stop)
        assert screen._live is None  # no draft left redrawing at the prompt
        assert out.getvalue().count("Tell me about your headphones?") >= 1
    finally:
        screen.close()
