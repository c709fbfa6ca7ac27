"""The file system as the user meets it: filesystem errors as one line, and files users name.

- :func:`translate_os_error` is the one place an ``OSError`` becomes a message: the path, what
  could not be done, why in words (permission denied, read-only, no space left, a file where a
  directory belongs) and what to do. The store wraps its own reads and writes with it, and the
  CLI's error handler passes every other ``OSError`` through it, so no command ends in
  "unexpected OSError" without a path.
- :func:`read_user_text` / :func:`read_user_bytes` are the one reader for files named on the
  command line (sessions for ``replay``, ``report``, ``export``, ``sessions show``, ``run
  --resume``; library and settings YAML through ``config.loader.read_text``): a regular file
  only (a device such as ``/dev/zero`` or a FIFO would be read without end, or block for
  ever), at most ``limit`` bytes, UTF-8 with the offset of the first bad byte. Every refusal
  happens before reading anything.
- :func:`default_sessions_dir` and :func:`session_files`: where sessions are and which files
  under it are JSON, for `interview sessions` to tell "none" before loading the session model.

Light on purpose (``os``, ``stat``, ``errno``): the CLI imports it to report errors.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from interview_cli.errors import FileSystemError, InterviewError, SessionFileError

# A session with hundreds of long answers stays far below this; a file above it is not one.
MAX_SESSION_BYTES = 64 * 1024 * 1024

_NO_SPACE = {errno.ENOSPC, errno.EDQUOT}
_DENIED = {errno.EACCES, errno.EPERM}


def _first_non_directory(path: Path) -> Path | None:
    """The existing ancestor of ``path`` (or itself) that is a file, not a directory."""
    for candidate in (path, *path.parents):
        try:
            if candidate.exists() and not candidate.is_dir():
                return candidate
        except OSError:
            return None
    return None


def os_error_reason(exc: OSError) -> str:
    """Why, in words a user reads (the errno's own text where there is nothing better)."""
    code = exc.errno
    if code in _NO_SPACE:
        return "no space left on the device" if code == errno.ENOSPC else "disk quota exceeded"
    if code == errno.EROFS:
        return "read-only file system"
    if code in _DENIED:
        return "permission denied"
    return (exc.strerror or type(exc).__name__).lower()


def _advice(exc: OSError, doing: str, hint: str) -> str:
    code = exc.errno
    if code in _NO_SPACE:
        return "free some space, then try again"
    if code == errno.EROFS or code in _DENIED:
        target = "readable" if doing.startswith("read") else "writable"
        return f"make it {target}" + (f" or {hint}" if hint else "")
    return hint


def translate_os_error(
    exc: OSError,
    path: Path | str | None = None,
    *,
    doing: str = "write",
    hint: str = "",
    exit_code: int | None = None,
) -> FileSystemError:
    """One line for ``exc``: ``PATH: cannot DOING (why); what to do``.

    ``path`` is what the caller was working on, named in preference to the error's own file
    name (which may be a temporary file, or missing, as after a failed ``write`` or
    ``fsync``); ``hint`` is the caller's other way out, such as choosing another directory.
    """
    named = Path(path) if path is not None else Path(exc.filename) if exc.filename else None
    code = exc.errno
    if code in (errno.ENOTDIR, errno.EEXIST) and (exc.filename or named) is not None:
        blocker = _first_non_directory(Path(exc.filename or named))  # type: ignore[arg-type]
        if blocker is not None:
            tail = "; remove or rename it" + (f", or {hint}" if hint else "")
            return FileSystemError(
                f"{blocker}: is a file, not a directory, so nothing can be saved under it{tail}",
                exit_code=exit_code,
                errno=code or 0,
            )
    where = f"{named}: " if named is not None else ""
    advice = _advice(exc, doing, hint)
    message = f"{where}cannot {doing} ({os_error_reason(exc)})" + (f"; {advice}" if advice else "")
    return FileSystemError(message, exit_code=exit_code, errno=code or 0)


# A methodology, concept, persona or settings file is a few KB.
MAX_YAML_BYTES = 8 * 1024 * 1024


def read_user_bytes(
    path: Path,
    *,
    limit: int,
    what: str,
    error: type[InterviewError],
    shown: str | None = None,
) -> bytes:
    """The bytes of the regular file ``path`` (symbolic links followed), at most ``limit``;
    anything else is one ``error`` line naming the path (as ``shown``), raised before reading."""
    name = shown or str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise error(f"{name}: no such file") from None
    except OSError as exc:
        raise error(f"{name}: cannot read ({os_error_reason(exc)})") from None
    _check_regular(name, info, limit, what, error)
    try:
        # O_NONBLOCK: should the path have been swapped for a FIFO since the check, opening it
        # returns at once instead of waiting for a writer.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise error(f"{name}: cannot read ({os_error_reason(exc)})") from None
    with os.fdopen(fd, "rb") as fh:
        _check_regular(name, os.fstat(fh.fileno()), limit, what, error)
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise error(_too_big(name, len(data), limit, what))
    return data


def read_user_text(
    path: Path,
    *,
    limit: int = MAX_SESSION_BYTES,
    what: str = "session file",
    error: type[InterviewError] = SessionFileError,
) -> str:
    """:func:`read_user_bytes` decoded as UTF-8 (the first bad byte named)."""
    data = read_user_bytes(path, limit=limit, what=what, error=error)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(
            f"{path}: not a text file (byte {exc.start} is not UTF-8); a {what} is UTF-8 text"
        ) from None


def _check_regular(
    path: str, info: os.stat_result, limit: int, what: str, error: type[InterviewError]
) -> None:
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        raise error(f"{path}: is a directory, not a {what}")
    if not stat.S_ISREG(mode):
        kind = (
            "a FIFO (named pipe)"
            if stat.S_ISFIFO(mode)
            else "a device"
            if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a socket"
            if stat.S_ISSOCK(mode)
            else "not a regular file"
        )
        raise error(f"{path}: is {kind}, not a {what}; give the path of a regular file")
    if info.st_size > limit:
        raise error(_too_big(path, info.st_size, limit, what))


def _too_big(path: str, size: int, limit: int, what: str) -> str:
    mb = 1024 * 1024
    return (
        f"{path}: is {size / mb:.0f} MB, more than a {what} can be ({limit // mb} MB); "
        "is it the right file?"
    )


SESSIONS_ENV = "INTERVIEW_SESSIONS_DIR"


def default_sessions_dir() -> Path:
    """Where session files live when no --sessions-dir is given."""
    env = os.environ.get(SESSIONS_ENV)
    return Path(env) if env else Path.cwd() / "sessions"


def session_files(directory: Path) -> list[Path]:
    """JSON files under ``directory`` (batch output nests them), skipping hidden files."""
    found: list[Path] = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += [
            Path(root) / f for f in sorted(files) if f.endswith(".json") and not f.startswith(".")
        ]
    return found
