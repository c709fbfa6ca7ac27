"""Signal routing of ``cli.interrupts``: SIGTERM and SIGHUP pause like Ctrl-C, except a
signal the user chose to ignore (``nohup interview batch ... &`` must survive a logout)."""

from __future__ import annotations

import signal

from interview_cli.cli.interrupts import signals_as_interrupts


def test_an_ignored_hangup_stays_ignored_and_handlers_come_back() -> None:
    before_term = signal.getsignal(signal.SIGTERM)
    before_hup = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with signals_as_interrupts():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) is not before_term  # routed to Ctrl-C
        assert signal.getsignal(signal.SIGTERM) == before_term
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, before_hup)


def test_a_ctrl_c_that_came_before_the_prompt_is_not_lost_in_the_read() -> None:
    # Ctrl-C right after a turn's summary, while the next question was being shown: the event
    # loop asked the turn to stop at its next await, and the blocking read has none, so the
    # process waited for the next line (piped: ran to the end of input and exited 0)
    import asyncio

    import pytest

    from interview_cli.cli.terminal import interruptible

    read: list[str] = []

    async def turn() -> None:
        task = asyncio.current_task()
        assert task is not None
        task.cancel()  # what asyncio.Runner's SIGINT handler does
        with interruptible():
            read.append("the answer")  # the blocking read would be here

    with pytest.raises(KeyboardInterrupt):
        asyncio.run(turn())
    assert read == []
