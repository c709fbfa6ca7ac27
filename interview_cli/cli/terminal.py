"""The person at the terminal (or a script piping answers) as a ``Respondent`` of the shared
conversation loop (``pipeline.conversation``).

It shows each question (unless it was streamed while being written), reads a line, and handles
the in-interview commands between answers: /why, /graph, /help, /quit, /end, the moderator's
/ask, /alt, /skip, /note, and the respondent's /pass. After each turn it prints the turn's
summary line, a safety response and, with --debug, the signals and candidates.

Reading a line blocks the event loop on purpose: nothing else runs while a person types. So
that Ctrl-C (and SIGTERM/SIGHUP, routed to SIGINT by ``cli.interrupts``) stops a read at once,
Python's own SIGINT handler raises ``KeyboardInterrupt`` while it lasts; during a turn the
event loop's handler is back and cancels the turn at its next await.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from interview_cli.cli import run_commands as commands
from interview_cli.pipeline.conversation import Reply, Stop
from interview_cli.ui import interview as views

if TYPE_CHECKING:
    from rich.console import Console

    from interview_cli.pipeline.runner import Interview, TurnResult
    from interview_cli.session import QuestionRecord

VIEW_COMMANDS = ("/why", "/why full", "/graph", "/help")


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """Python's SIGINT handler (``KeyboardInterrupt``) while the block runs, in the main
    thread; the handler in place before (the event loop's) afterwards."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class TerminalRespondent:
    """Answers typed at the prompt, or one line of stdin each (``AnswerSource``)."""

    def __init__(
        self, *, console: Console, source: Any, screen: Any, hooks: Any, debug: bool
    ) -> None:
        self.console = console
        self.source = source
        self.screen = screen
        self.hooks = hooks
        self.debug = debug
        self.turns_before = 0  # turns when the last answer was read (for an interruption)

    async def reply(self, interview: Interview, question: QuestionRecord) -> Reply | Stop:
        session = interview.session
        while True:
            question = session.pending_question or question
            self.screen.set_turn(len(session.turns) + 1)
            if self.screen.streamed is not question:
                self.screen.show_question(question)
            self.screen.streamed = None
            self.turns_before = len(session.turns)
            self.source.last = None
            with interruptible():
                answer = self.source.read()
            if answer is None:
                return Stop("pause")
            if commands.is_moderator_command(answer):
                await commands.run_moderator_command(
                    answer, interview, console=self.console, hooks=self.hooks, screen=self.screen
                )
                continue
            command = " ".join(answer.strip().lower().split())
            declined = command == commands.PASS
            if (
                command.startswith("/")
                and not declined
                and (" " not in command or command in VIEW_COMMANDS)
            ):
                if command == "/quit":
                    return Stop("pause")
                if command == "/end":
                    return Stop("end")
                self._view(command, answer, interview)
                self.screen.streamed = question  # do not print the question again
                continue
            if question.kind != "closing":
                self.screen.set_turn(len(session.turns) + 2)  # the question it leads to
            return Reply("" if declined else answer, declined=declined)

    def _view(self, command: str, answer: str, interview: Interview) -> None:
        session, console = interview.session, self.console
        if command in ("/why", "/why full"):
            last = session.completed_turns
            console.print(views.why_view(last[-1] if last else None, full=command == "/why full"))
        elif command == "/graph":
            levels = {n.name: n.level for n in interview.methodology.ontology.nodes}
            console.print(views.graph_tree(session.graph, level_of=levels))
        elif command == "/help":
            console.print(views.HELP_TEXT, highlight=False, markup=False)
        else:
            console.print(f"Unknown command {answer!r}; /help lists them.", markup=False)

    def answered(self, result: TurnResult) -> None:
        self.screen.done()
        console = self.console
        console.print(views.turn_summary(result.turn, width=console.width))
        if result.turn.safety is not None:
            commands.show_safety(result.turn.safety, console)
        if self.debug:
            console.print(views.signals_table(result.turn.signals, title="Global signals"))
            console.print(views.candidates_table(result.turn.candidates))
            slots = views.slot_discovery_view(result.turn.slot_discovery)
            if slots is not None:
                console.print(slots)
