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
