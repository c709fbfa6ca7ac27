"""Issue 17 item 6: a batch's session writes off its event loop, in order per session, with
the same files on disk as writes made at once, and a failed write failing its session only."""

from __future__ import annotations

import asyncio
import errno
import threading
from pathlib import Path

import pytest

from interview_cli.errors import FileSystemError
from interview_cli.session.read import read_session_file
from interview_cli.session.store import SessionStore
from interview_cli.simulation.saving import BackgroundWrites
from tests.session.test_journal import add_turn, same
from tests.session.test_store import make_session


def test_writes_run_off_the_calling_thread_in_order_and_the_files_match(tmp_path: Path) -> None:
    writes = BackgroundWrites()
    threads: set[str] = set()

    class Watching(BackgroundWrites):
        def run(self, session_id, write):  # type: ignore[no-untyped-def]
            def watched() -> None:
                threads.add(threading.current_thread().name)
                write()

            writes.run(session_id, watched)

        def flush(self, session_id: str) -> None:
            writes.flush(session_id)

    background = SessionStore(tmp_path / "a", writes=Watching())
    at_once = SessionStore(tmp_path / "b")
    for store in (background, at_once):
        session = make_session()
        with store.lock(session.id):
            store.save(session)  # a snapshot
            for n in range(1, 6):
                add_turn(session, n)
                store.save(session)  # journal lines, in order
            session.status = "paused"
            store.save(session)  # the snapshot again
        # The lock is released only once the writes are on disk.
        assert same(read_session_file(store.path_for(session.id)), session)
    assert threads and threading.current_thread().name not in threads
    a, b = (read_session_file(s.path_for("s-1")) for s in (background, at_once))
    assert same(a, b)


def test_drain_waits_without_blocking_the_loop(tmp_path: Path) -> None:
    writes = BackgroundWrites()
    release = threading.Event()
    released: list[bool] = []  # whether the write was let through (not timed out)

    async def main() -> None:
        writes.run("s", lambda: released.append(release.wait(30)))
        ticks = 0

        async def tick() -> None:
            # Lets the write through only after some passes of the loop, which it can make
            # only while drain waits: a drain that blocked the loop would hold the ticker
            # until the write timed out, and the write would not have been let through.
            nonlocal ticks
            while ticks < 5:
                await asyncio.sleep(0)
                ticks += 1
            release.set()

        ticker = asyncio.create_task(tick())  # first runs when drain gives way
        await writes.drain("s")
        assert released == [True] and ticks == 5  # the loop ran while the write waited
        await ticker

    asyncio.run(main())
    writes.flush("s")


def test_a_failed_write_fails_its_session_only_and_later_writes_are_not_made() -> None:
    writes = BackgroundWrites()
    made: list[str] = []
    go = threading.Event()

    def full() -> None:
        go.wait(5)
        raise OSError(errno.ENOSPC, "No space left on device")

    writes.run("a", full)
    writes.run("b", lambda: made.append("b1"))
    writes.run("a", lambda: made.append("a2"))  # queued before the failure is known
    go.set()
    writes.flush("b")
    with pytest.raises(OSError, match="No space"):
        writes.flush("a")
    assert made == ["b1"]  # a's journal stays a prefix of its saves
    writes.flush("a")  # raised once


def test_through_the_store_a_failed_background_write_is_one_translated_error(
    tmp_path: Path,
) -> None:
    class FullDisk(BackgroundWrites):
        """The disk fills up at the second write (the first journal line)."""

        count = 0

        def run(self, session_id, write):  # type: ignore[no-untyped-def]
            self.count += 1
            if self.count == 2:

                def write() -> None:
                    raise OSError(errno.ENOSPC, "No space left on device")

            super().run(session_id, write)

    store = SessionStore(tmp_path / "sessions", writes=FullDisk())
    session = make_session()
    with pytest.raises(FileSystemError) as caught, store.lock(session.id):
        store.save(session)
        for n in (1, 2, 3):
            add_turn(session, n)
            store.save(session)  # raises once the failure is known, or the lock's flush does
    assert "cannot save the session (no space left on the device)" in caught.value.message
    assert read_session_file(store.path_for(session.id)).turns == []  # the last good save
