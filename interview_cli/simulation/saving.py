"""A batch's session writes, off its event loop, so that disk syncs do not stall the batch.

Every save of a session ends in a disk sync (``fsync`` of a journal line or of a snapshot),
which blocks the thread that makes it for milliseconds. A batch runs all its interviews on one
event loop, so at high concurrency those syncs were most of the loop's time (measured with
``benchmarks/batch_throughput.py``: 6.5 s of 11.4 s at concurrency 64), time in which no other
interview's model reply could be handled. The core's own work per turn was a sixth of that.

:class:`BackgroundWrites` is the store's ``Writes`` for a batch: the store still decides what
to write on the loop (the journal line or snapshot text, from the session as it is at that
moment), and the write itself runs on a thread of that session, in order. ``fsync`` releases
the GIL, so the syncs of many sessions overlap with each other and with the loop.

Durability stays per session and in order: a write fails only its own session (the next save
or the flush raises its error, and later writes of that session are not made, so the journal
on disk stays a prefix of the saves); the session's lock is released only after its writes are
done (``SessionStore.lock`` flushes), and :meth:`drain` lets the batch wait for them without
blocking the loop. A crash loses at most the writes still queued: the files hold an earlier
save, which a re-run resumes from, as after any crash.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor


class BackgroundWrites:
    """``Writes`` that run on one worker thread per session, in the order they were made."""

    def __init__(self) -> None:
        self._workers: dict[str, ThreadPoolExecutor] = {}
        self._last: dict[str, Future[None]] = {}
        self._errors: dict[str, BaseException] = {}

    def run(self, session_id: str, write: Callable[[], None]) -> None:
        self._raise(session_id)
        worker = self._workers.get(session_id)
        if worker is None:
            worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="session-writes")
            self._workers[session_id] = worker
        self._last[session_id] = worker.submit(self._write, session_id, write)

    def _write(self, session_id: str, write: Callable[[], None]) -> None:
        if session_id in self._errors:
            return  # after a failed write, none: what is on disk stays a prefix of the saves
        try:
            write()
        except BaseException as exc:  # noqa: BLE001 - raised again on the loop (run/flush)
            self._errors[session_id] = exc

    def _raise(self, session_id: str) -> None:
        error = self._errors.get(session_id)
        if error is not None:
            raise error

    async def drain(self, session_id: str) -> None:
        """Wait, without blocking the loop, until the session's writes so far are made."""
        last = self._last.get(session_id)
        if last is not None:
            await asyncio.wrap_future(last)
        self._raise(session_id)

    def flush(self, session_id: str) -> None:
        """Wait until the session's writes are made, end its thread, raise a failed write's
        error (once)."""
        worker = self._workers.pop(session_id, None)
        self._last.pop(session_id, None)
        if worker is not None:
            worker.shutdown(wait=True)
        error = self._errors.pop(session_id, None)
        if error is not None:
            raise error
