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
import shlex
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.text import Text

from interview_cli.cli import run_commands as commands
from interview_cli.cli.answer_source import AnswerSource
from interview_cli.cli.interrupts import exit_code as interrupt_exit_code
from interview_cli.cli.interrupts import keep_unrecorded_answer, settle
from interview_cli.pipeline.conversation import Reply, Stop
from interview_cli.safe_text import redact_secrets
from interview_cli.ui import interview as views

if TYPE_CHECKING:
    import asyncio

    from rich.console import Console

    from interview_cli.pipeline.runner import Interview, TurnResult
    from interview_cli.session.schema import QuestionRecord
    from interview_cli.session.store import SessionStore

PAUSE_HINT = "Paused. Resume with: {command}"


@dataclass(frozen=True)
class ResumeHint:
    """What a printed ``interview run --resume`` command needs besides the id to run as
    printed: the sessions directory when it is not the default one, and the server when it
    came from ``--base-url`` (an environment variable or settings file still gives it; the
    providers and models are recorded in the session). A credential in the URL is shown
    redacted, as everywhere: that one command then needs the URL typed again."""

    sessions_dir: Path | None = None
    base_url: str | None = None

    def command(self, session_id: str, *more: str) -> str:
        parts = ["interview", "run", "--resume", session_id]
        if self.sessions_dir is not None:
            parts += ["--sessions-dir", str(self.sessions_dir)]
        if self.base_url:
            parts += ["--base-url", redact_secrets(self.base_url)]
        return shlex.join([*parts, *more])


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """Python's SIGINT handler (``KeyboardInterrupt``) while the block runs, in the main
    thread; the handler in place before (the event loop's) afterwards."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # A Ctrl-C that came while the question was being shown asked the event loop to cancel
    # this turn at its next await; the read below blocks without one, so it would wait for
    # the next line, or, piped, for the end of input and end as if answers ran out.
    task = _current_task()
    if task is not None and task.cancelling():
        raise KeyboardInterrupt
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _current_task() -> asyncio.Task[Any] | None:
    import asyncio  # already loaded by the running loop; not at start-up

    try:
        return asyncio.current_task()
    except RuntimeError:  # no running loop: nothing was asked to cancel
        return None


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
        self.unechoed = ""  # a piped answer, echoed once it is on disk (``flush_echo``)

    def flush_echo(self) -> None:
        """Echo the last piped answer now that it is on disk: the pipeline's first stage after
        an answer comes once it is saved, so no transcript shows an answer a crash lost."""
        if self.unechoed:
            text, self.unechoed = self.unechoed, ""
            self.source.echo(text)

    async def reply(self, interview: Interview, question: QuestionRecord) -> Reply | Stop:
        session = interview.session
        # A question streamed with no turn before it (the opening, a resumed one) is settled
        # here: its draft must stop redrawing before the prompt is shown.
        self.screen.done()
        while True:
            question = session.pending_question or question
            self.screen.set_turn(len(session.turns) + 1)
            if question.kind == "opening" and session.stimulus and not self.screen.stimulus_shown:
                self.screen.on_stimulus(session.stimulus)  # resumed before the first answer
            if self.screen.streamed is not question:
                self.screen.show_question(question)
            self.screen.streamed = None
            self.turns_before = len(session.turns)
            self.source.last = None
            with interruptible():
                answer = self.source.read(echo=False)
            if answer is None:
                return Stop("pause")
            command = " ".join(answer.strip().lower().split())
            if commands.is_command(answer) and command != commands.PASS:
                self.source.echo(answer)  # nothing to save first
            else:
                self.unechoed = answer
            if commands.is_moderator_command(answer):
                await commands.run_moderator_command(
                    answer, interview, console=self.console, hooks=self.hooks, screen=self.screen
                )
                continue
            declined = command == commands.PASS
            if not declined and commands.is_command(answer):
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
            from interview_cli.analysis.report.elements import shown_coverage

            last = session.completed_turns
            coverage = shown_coverage(session)
            full = command == "/why full"
            console.print(views.why_view(last[-1] if last else None, full=full, coverage=coverage))
        elif command == "/graph":
            levels = interview.methodology.ontology.levels
            console.print(views.graph_tree(session.graph, level_of=levels))
        elif command == "/help":
            console.print(views.HELP_TEXT, highlight=False, markup=False)
        else:
            console.print(f"Unknown command {answer!r}; /help lists them.", markup=False)

    def answered(self, result: TurnResult) -> None:
        self.flush_echo()
        if result.next_question is None:
            # Withdrawn (a safety end, the session completed): the draft is never shown.
            self.screen.close()
        else:
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


def converse_in_terminal(
    interview: Interview,
    *,
    console: Console,
    store: SessionStore,
    llm: Any,
    debug: bool,
    resume: ResumeHint | None = None,
) -> None:
    """The terminal's side of the conversation loop (``pipeline.conversation``): consent
    first, then the loop with this terminal as the respondent, then what its outcome asks
    for (a pause, the rating and end screen), and every interruption or failure turned into
    a saved, resumable session and one line."""
    import asyncio

    from interview_cli.errors import FileSystemError, LLMError
    from interview_cli.llm.spend import SpendCapReached
    from interview_cli.pipeline.conversation import converse
    from interview_cli.pipeline.runner import ENDED_BY_MODERATOR

    respondent = _seat(interview, console, debug)
    screen, source, hooks = respondent.screen, respondent.source, respondent.hooks
    session = interview.session
    resume = resume or ResumeHint()

    def pause() -> None:
        interview.set_status("paused")  # first: after a SIGHUP the terminal may be gone
        screen.close()
        hint = PAUSE_HINT.format(command=resume.command(session.id))
        console.print(hint, markup=False, soft_wrap=True)

    with asyncio.Runner() as arun:
        try:
            agreed = _consent(interview, console=console, source=source, store=store)
            if agreed is None:
                pause()
            if not agreed:
                return
            screen.set_turn(len(session.turns) + 1)
            outcome = arun.run(converse(interview, respondent, hooks))
            respondent.flush_echo()  # a closing answer: saved before converse returned
            screen.done()
            if outcome in ("paused", "safety_pause"):
                pause()
                return
            if outcome in ("closed", "ended"):
                reason = ENDED_BY_MODERATOR if outcome == "ended" else None
                _finish(interview, console, source, arun, reason=reason)
            elif outcome == "completed":
                _parting_summary(interview, console)
        except (KeyboardInterrupt, asyncio.CancelledError):  # Ctrl-C, SIGTERM, SIGHUP
            # (cli.interrupts). CancelledError: asyncio.Runner reports an interruption that
            # way when it lands just as a turn starts (before the runner counts it).
            settle(arun)
            keep_unrecorded_answer(interview, source.last, turns_before=respondent.turns_before)
            respondent.flush_echo()  # recorded now, if it was not before
            pause()
            raise typer.Exit(interrupt_exit_code()) from None
        except (FileSystemError, SpendCapReached, LLMError) as exc:
            screen.close()
            lost = _answer_not_saved(store, session.id, respondent.unechoed)
            if not lost:
                respondent.flush_echo()
            raise resumable_error(exc, interview, resume, lost=lost) from None
        finally:
            screen.close()
            _close_clients(arun, llm)
    path = store.path_for(session.id)
    console.print(views.end_screen(session, stats=interview.stats(), coverage=_coverage(interview)))
    console.print(views.saved_to(str(path)), soft_wrap=True)


def _coverage(interview: Interview) -> Any:
    """A concept test's element coverage for the end screen (None: no stimulus elements)."""
    from interview_cli.analysis.report.elements import concept_test_coverage

    core = interview.core
    return concept_test_coverage(
        interview.concept, interview.methodology, core.graph, core.coverage
    )


def _seat(interview: Interview, console: Console, debug: bool) -> TerminalRespondent:
    """This terminal in the respondent's seat, with its screen, its answer source and the
    hooks the pipeline tells what it is doing."""
    from interview_cli.pipeline.runner import Hooks
    from interview_cli.ui.live import Screen

    screen = Screen(console)

    def on_stage(text: str) -> None:
        respondent.flush_echo()  # the answer is saved before the first stage of its turn
        screen.on_stage(text)

    hooks = Hooks(
        on_stage=on_stage,
        on_token=screen.on_token,
        on_question_start=screen.on_question_start,
        on_stimulus=screen.on_stimulus,
    )
    respondent = TerminalRespondent(
        console=console, source=AnswerSource(console), screen=screen, hooks=hooks, debug=debug
    )
    respondent.turns_before = len(interview.session.turns)
    return respondent


def _consent(
    interview: Interview, *, console: Console, source: AnswerSource, store: SessionStore
) -> bool | None:
    """True to go on: no consent is needed, or it was given. False: refused (said so, the
    refusal recorded). None: input ended before a reply (the caller pauses)."""
    from interview_cli.pipeline.consent import needs_consent

    session = interview.session
    if not needs_consent(session, interview.concept.consent):
        return True
    agreed = commands.ask_consent(interview, console=console, source=source)
    if agreed is False:
        console.print("Thank you all the same. Nothing more will be asked.")
        console.print(views.saved_to(str(store.path_for(session.id))), soft_wrap=True)
    return agreed


def _close_clients(arun: Any, llm: Any) -> None:
    closer = getattr(llm, "aclose", None)
    if closer is not None:
        try:
            arun.run(closer())
        except Exception:  # closing clients must never hide the real outcome
            pass


def _answer_not_saved(store: SessionStore, session_id: str, answer: str) -> str:
    """``answer`` when the session file, as last saved, does not hold it ("" otherwise)."""
    from interview_cli.errors import InterviewError
    from interview_cli.session.read import read_session_file

    if not answer:
        return ""
    try:
        saved = read_session_file(store.path_for(session_id))
    except (InterviewError, OSError):
        return answer
    last = saved.turns[-1].answer if saved.turns else None
    closing = saved.closing.comment if saved.closing is not None else ""
    return "" if (last is not None and last.text == answer) or closing == answer else answer


def resumable_error(
    exc: Exception, interview: Interview, resume: ResumeHint, *, lost: str = ""
) -> Exception:
    """The failure that stopped the loop, in one line that says how to go on: the session
    file holds its last save (writes are atomic), so it is kept, paused or marked failed.
    ``lost``: the answer that the failure kept from being saved, quoted so it can be given
    again (the file holds the session as it was before it)."""
    from interview_cli.errors import FileSystemError, LLMError
    from interview_cli.llm.spend import SpendCapReached

    session = interview.session
    command = f"`{resume.command(session.id)}`"
    if isinstance(exc, FileSystemError):  # a runtime failure (exit 1), not bad input
        if lost:
            quoted = lost if len(lost) <= 200 else lost[:200] + "…"
            kept = (
                f"your last answer was NOT saved (“{quoted}”): session {session.id} is kept "
                f"as it was before it; continue with {command} and give that answer again"
            )
        else:
            kept = f"session {session.id} is kept as last saved; continue with {command}"
        return FileSystemError(f"{exc.message} — {kept}", exit_code=1, errno=exc.errno)
    if isinstance(exc, SpendCapReached):  # before a call that could pass --max-cost
        interview.set_status("paused")
        return SpendCapReached(
            f"{exc.message} — session {session.id} is paused; to go on, resume it with a "
            f"higher cap: `{resume.command(session.id, '--max-cost', raised_cap(exc.cap))}`",
            spent=exc.spent,
            cap=exc.cap,
        )
    assert isinstance(exc, LLMError)
    session.errors.append(str(exc))
    interview.set_status("failed")
    return LLMError(
        f"{exc.message} — session {session.id} is saved; continue with {command}",
        provider=exc.provider,
        model=exc.model,
        task=exc.task,
        cause=exc.cause,
    )


def raised_cap(cap: float) -> str:
    """A higher ``--max-cost`` for the printed command (twice the cap, at least a dollar more)."""
    return f"{max(cap * 2, cap + 1.0):.2f}"


def _finish(
    interview: Interview,
    console: Console,
    source: AnswerSource,
    arun: Any,
    *,
    reason: str | None,
) -> None:
    """The summary and its rating, then the closing's slot call (not waited for before the
    rating), then the session completed."""
    _rate(interview, console, source)
    arun.run(interview.settle_slots())
    interview.complete(reason)
    console.print("[bold]Thank you for your time.[/bold]")


def _parting_summary(interview: Interview, console: Console) -> None:
    """A respondent who asked to stop is asked nothing more, but is shown what was understood,
    as a statement (testers of rounds 213, 214 and 218 ended with "can we wrap up" and expected
    a summary); it is kept with the session as ``/end``'s is, unrated (``sessions rate`` may
    rate it later). Not after a pause or an end for abuse, nor with ``--no-rating``."""
    from interview_cli.pipeline.closing import stopped_by_respondent

    session = interview.session
    if not stopped_by_respondent(session) or not session.settings.ask_summary_rating:
        return
    summary = interview.learned_summary()
    if not summary:
        return
    console.print(_understood(summary))
    interview.record_rating(None, summary=summary)


def _understood(summary: str) -> Any:
    """The "What I understood" panel: the summary rated at the close, or shown at a stop."""
    from rich.panel import Panel

    return Panel(
        Text(summary), title="What I understood", title_align="left", border_style="magenta"
    )


def _rate(interview: Interview, console: Console, source: AnswerSource) -> None:
    """Show what was learned and, if enabled, ask for an accuracy rating of exactly that."""
    summary = interview.learned_summary()
    if summary and interview.session.settings.ask_summary_rating:
        console.print(_understood(summary))
        console.print("How accurate is this summary? 1 = not at all … 4 = very (Enter to skip)")
        value = source.read(prompt="rating › ", allow_empty=True)
        if value is None:  # input ended: the rating may still be given afterwards
            console.print(
                "[dim]No rating recorded; give it later with "
                f"`interview sessions rate {interview.session.id} N`.[/dim]"
            )
        rating = None
        if value and value.strip() in {"1", "2", "3", "4"}:
            rating = int(value.strip())
        elif value:
            console.print("[dim]No rating recorded (expected 1-4).[/dim]")
        interview.record_rating(rating, summary=summary)
