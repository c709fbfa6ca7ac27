"""SIGTERM and SIGHUP end a command the way Ctrl-C does: pause, save, release the lock.

Every command that writes sessions runs inside :func:`signals_as_interrupts`. The two signals
are routed to whatever handles SIGINT at that moment: inside ``asyncio.Runner`` that is the
runner's handler, which cancels the running turn at its next await (so the in-memory session
is never left half-updated by a turn cut mid-statement); elsewhere Python's default handler,
which raises ``KeyboardInterrupt``. The code that pauses on Ctrl-C then does the same for
both, and :func:`exit_code` gives the shell's convention, 128 + the signal's number: 130 for
SIGINT, 143 for SIGTERM, 129 for SIGHUP. :func:`settle` and :func:`keep_unrecorded_answer`
are what `run` does on an interruption before it pauses.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from types import FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from interview_cli.pipeline.runner import Interview

_ROUTED = tuple(s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s)
_received: list[int] = []


def _route(signum: int, frame: FrameType | None) -> None:
    _received.append(signum)
    handler: Any = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signal.SIGINT, frame)
    else:  # SIGINT ignored or default (not Python's): still stop
        raise KeyboardInterrupt


@contextlib.contextmanager
def signals_as_interrupts() -> Iterator[None]:
    """Route SIGTERM and SIGHUP to the SIGINT handling while the block runs."""
    _received.clear()
    previous = {}
    try:
        for signum in _ROUTED:
            if signal.getsignal(signum) is signal.SIG_IGN:
                continue  # ignored on purpose (nohup): keep it ignored
            previous[signum] = signal.signal(signum, _route)
    except ValueError:  # not the main thread (tests calling a command in a worker thread)
        pass
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def exit_code() -> int:
    """The exit code for the interruption that ended the command: 128 + signal number."""
    return 128 + (_received[0] if _received else signal.SIGINT)


def settle(arun: Any) -> None:
    """Cancel what an interruption left pending in the event loop and let it unwind: a turn
    cut at an await, or one whose task had not started yet (it must not start later, after
    the pause, when the loop runs again to close the clients)."""
    import asyncio

    loop = arun.get_loop()
    pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
    for task in pending:
        task.cancel()
    if pending:
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))


def keep_unrecorded_answer(interview: Interview, answer: str | None, *, turns_before: int) -> None:
    """An answer read just before an interruption, which ``submit`` (whose first step records
    it) never got to: recorded now as an answered turn, which the resume processes."""
    from interview_cli.cli.run_commands import is_command

    question = interview.session.pending_question
    if (
        answer
        and not is_command(answer)
        and question is not None
        and question.kind != "closing"
        and len(interview.session.turns) == turns_before
    ):
        interview.record_answer(answer)
