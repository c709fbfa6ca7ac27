"""The live interview screen: a spinner naming the stage while waiting, the question streamed
into its panel as it is generated.

A question is settled only when the pipeline says so (:meth:`Screen.done`). Until then what
streams is a draft: the runner may reject it as too close to a recent question and write
another (``pipeline.questions.ask``: ``on_stage("rephrasing …")`` and then
``on_question_start`` again for the same record). So a draft is shown only where it can be
taken back, a terminal's transient ``Live``, and off a terminal nothing is printed until the
final question is known.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.live import Live
from rich.status import Status
from rich.text import Text

from interview_cli.session.schema import QuestionRecord, StimulusRecord
from interview_cli.ui.interview import question_panel, stimulus_panel


class _TokenSink:
    """The question stream's ``on_token``: callable, and resettable (``llm.protocol``
    ``ResettableOnToken``) so a retried stream replaces the abandoned draft, never appends."""

    def __init__(self, screen: Screen) -> None:
        self._screen = screen

    def __call__(self, token: str) -> None:
        self._screen._append(token)

    def reset(self) -> None:
        self._screen._append(None)


class Screen:
    """Implements the pipeline's hooks for a Rich console."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._status: Status | None = None
        self._live: Live | None = None
        self._record: QuestionRecord | None = None
        self._text = ""
        self._turn = 0
        self.streamed: QuestionRecord | None = None
        self.stimulus_shown = False
        self.on_token = _TokenSink(self)

    # ---- hooks ---------------------------------------------------------------------------
    def on_stage(self, stage: str) -> None:
        # A new stage while a question streams: the draft is abandoned (a rephrasing) or
        # finished; either way the settled question is printed by done(), not kept from here.
        self._stop_live()
        if not self.console.is_terminal:
            return
        # Text: a stage names a strategy from the methodology file, not markup.
        if self._status is None:
            self._status = self.console.status(Text(f"{stage}…"), spinner="dots")
            self._status.start()
        else:
            self._status.update(Text(f"{stage}…"))

    def on_stimulus(self, stimulus: StimulusRecord) -> None:
        """Show the concept test's stimulus (before its opening question)."""
        self._stop_status()
        self._stop_live()
        self.console.print(stimulus_panel(stimulus))
        self.stimulus_shown = True

    def on_question_start(self, record: QuestionRecord) -> None:
        self._stop_status()
        self._stop_live()
        self._record = record
        self._text = ""
        if not self.console.is_terminal:
            return  # off a terminal a Live cannot erase a draft, so show none
        self._live = Live(
            self._panel(), console=self.console, refresh_per_second=20, transient=True
        )
        self._live.start()

    def _append(self, token: str | None) -> None:
        """Add a streamed token to the draft; None starts the draft over (a retry)."""
        self._text = "" if token is None else self._text + token
        if self._live is not None:
            self._live.update(self._panel())

    # ---- control -------------------------------------------------------------------------
    def set_turn(self, turn: int) -> None:
        self._turn = turn

    def done(self) -> None:
        """Stop the spinner and print the settled question once, with its final text."""
        self._stop_status()
        self._stop_live()
        record, self._record = self._record, None
        if record is not None and record.text:
            self.show_question(record)
            self.streamed = record

    def show_question(self, record: QuestionRecord) -> None:
        """Print a question that was not streamed now (e.g. after a resume or a command)."""
        self.console.print(self._panel_for(record, record.text))

    def _panel(self) -> Any:
        assert self._record is not None
        return self._panel_for(self._record, self._text or "…")

    def _panel_for(self, record: QuestionRecord, text: str) -> Any:
        title_turn = self._turn if record.kind != "closing" else 0
        panel = question_panel(
            text,
            turn=title_turn,
            # (the opening has no strategy: said so, not a bare box among labelled ones, which
            # every round-189 to 191 tester remarked on)
            strategy=record.strategy or ("opening" if record.kind == "opening" else None),
            focus=record.focus_label,
            asked_by=record.asked_by,
        )
        if record.kind == "closing":
            panel.title = "Closing"
        elif record.kind == "opening":
            panel.title = "Question 1"
        return panel

    def _stop_status(self) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None

    def _stop_live(self) -> None:
        """Take the streamed draft off the screen (the Live is transient)."""
        if self._live is not None:
            self._live.stop()
            self._live = None

    def close(self) -> None:
        self._stop_status()
        self._stop_live()
        self._record = None
