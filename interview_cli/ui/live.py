"""The live interview screen: a spinner naming the stage while waiting, the question streamed
into its panel as it is generated."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.live import Live
from rich.status import Status

from interview_cli.session import QuestionRecord
from interview_cli.ui.interview import question_panel


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

    # ---- hooks ---------------------------------------------------------------------------
    def on_stage(self, stage: str) -> None:
        if self._live is not None:
            self._stop_live()
        if not self.console.is_terminal:
            return
        if self._status is None:
            self._status = self.console.status(f"{stage}…", spinner="dots")
            self._status.start()
        else:
            self._status.update(f"{stage}…")

    def on_question_start(self, record: QuestionRecord) -> None:
        self._stop_status()
        self._stop_live(discard=True)
        self._record = record
        self._text = ""
        self._live = Live(
            self._panel(), console=self.console, refresh_per_second=20, transient=False
        )
        self._live.start()

    def on_token(self, token: str) -> None:
        self._text += token
        if self._live is not None:
            self._live.update(self._panel())

    # ---- control -------------------------------------------------------------------------
    def set_turn(self, turn: int) -> None:
        self._turn = turn

    def done(self) -> None:
        """Stop the spinner and settle the streamed question (with its final text)."""
        self._stop_status()
        if self._live is not None and self._record is not None:
            if self._record.text:
                self._text = self._record.text
            self._live.update(self._panel())
            self._stop_live()
            self.streamed = self._record

    def show_question(self, record: QuestionRecord) -> None:
        """Print a question that was not streamed now (e.g. after a resume or a command)."""
        self.console.print(self._panel_for(record, record.text))

    def _panel(self) -> Any:
        assert self._record is not None
        return self._panel_for(self._record, self._text or "…")

    def _panel_for(self, record: QuestionRecord, text: str) -> Any:
        title_turn = self._turn if record.kind != "closing" else 0
        panel = question_panel(
            text, turn=title_turn, strategy=record.strategy, focus=record.focus_label
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

    def _stop_live(self, discard: bool = False) -> None:
        if self._live is not None:
            if discard:
                self._live.transient = True
            self._live.stop()
            self._live = None
            if not discard and not self.console.is_terminal:
                # Off a terminal, Live prints its last frame without a line break.
                self.console.line()

    def close(self) -> None:
        self._stop_status()
        self._stop_live()
