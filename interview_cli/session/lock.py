"""One writer per session: an OS advisory lock (``flock``) that the kernel releases.

The lock is ``flock(LOCK_EX | LOCK_NB)`` on ``<id>.lock``, held on an open file for the
writer's whole life. A process that dies in any way (SIGKILL, power loss aside) holds nothing:
the kernel drops the lock with its last file descriptor, so a resume right after a kill
succeeds at once and there is no liveness guessing (no pid checks, no waiting). The file's
content - the holder's pid, host and start time - only words the refusal; an empty or garbled
file is harmless, since the lock is the kernel's and not the content.

The holder removes the file on release, still holding the lock. A process that opened the
file just before that removal may then lock the removed file; it notices that the path no
longer names the file it locked, and starts over. So at most one process at a time holds a
lock on the file the path names. flock is Linux and macOS; network file systems may not honour
it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from interview_cli.config.files import make_private_dirs, open_own_file
from interview_cli.errors import SessionLockedError


def _holder(fd: int) -> dict[str, Any]:
    try:
        data = json.loads(os.pread(fd, 4096, 0).decode("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _same_file(path: Path, fd: int) -> bool:
    try:
        on_path = os.lstat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (on_path.st_dev, on_path.st_ino) == (mine.st_dev, mine.st_ino)


def acquire(path: Path, session_id: str, since: str) -> int:
    """Lock ``path`` for this process and return the open descriptor that holds the lock;
    ``SessionLockedError`` (exit 2) naming the holder when another process has it."""
    make_private_dirs(path.parent)
    while True:
        fd = _open(path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise SessionLockedError(_refusal(session_id, holder)) from None
        except BaseException:
            os.close(fd)
            raise
        if _same_file(path, fd):
            break
        os.close(fd)  # the previous holder removed it after we opened it: take the new one
    me = {"pid": os.getpid(), "host": socket.gethostname(), "since": since}
    os.ftruncate(fd, 0)
    os.pwrite(fd, json.dumps(me).encode("utf-8"), 0)
    return fd


def _open(path: Path) -> int:
    """The lock file, created private; never through a symbolic link, and never a file with
    another name too (a hard link): the holder truncates it and writes its pid there. One its
    holder removed just now (no name left) is taken: the loop in ``acquire`` takes the next."""
    return open_own_file(path, os.O_RDWR, "a lock file", removed_ok=True)


def release(path: Path, fd: int) -> None:
    # Removed while still locked: nobody else can hold this file now, and a process waiting
    # on it sees that the path no longer names it.
    with contextlib.suppress(FileNotFoundError):
        if _same_file(path, fd):
            path.unlink()
    os.close(fd)


@contextlib.contextmanager
def hold(path: Path, session_id: str, since: str) -> Iterator[int]:
    fd = acquire(path, session_id, since)
    try:
        yield fd
    finally:
        release(path, fd)


def _refusal(session_id: str, holder: dict[str, Any]) -> str:
    if holder.get("pid"):
        who = (
            f"process {holder.get('pid')} on {holder.get('host', '?')} "
            f"since {holder.get('since', '?')}"
        )
    else:  # it is writing its name this very moment
        who = "another process (just starting)"
    return (
        f"session {session_id} is in use by {who}; wait for it to finish, or end that "
        "process (the lock goes with it)"
    )
