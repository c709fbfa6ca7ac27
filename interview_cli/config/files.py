"""The file system as the user meets it: filesystem errors as one line, the files users name
(read bounded, written without replacing what is not a regular file).

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
  Journals are read without following a link (``follow_symlinks=False``).
- :func:`replace_file` is the one atomic write (temporary file made with ``O_EXCL`` and
  ``O_NOFOLLOW``, fsync, rename, directory fsync), keeping the mode of the file it replaces;
  :func:`write_output` is where a report or an export goes: a regular file or a new name is
  replaced atomically, a character device or a FIFO written through, a link, a block device,
  a FIFO nobody reads or a missing folder refused; ``-`` is the standard output.
- :func:`default_sessions_dir` and :func:`session_files`: where sessions are and which files
  under it are JSON, for `interview sessions` to tell "none" before loading the session model.

Light on purpose (``os``, ``stat``, ``errno``): the CLI imports it to report errors.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path

from interview_cli.errors import FileSystemError, InterviewError, SessionFileError, UsageError

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
    follow_symlinks: bool = True,
    missing_ok: bool = False,
    head: bool = False,
) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit``; anything else is one
    ``error`` line naming the path (as ``shown``), raised before reading.

    ``follow_symlinks=False`` for the files the tool keeps beside a session (its journal): a
    link there was not made by the tool, and is refused instead of read. ``missing_ok``: a
    missing file is ``FileNotFoundError`` (for a file that may come and go), not an error line.
    ``head``: the first ``limit`` bytes of a file of any size (to sniff what it is).
    """
    name = shown or str(path)
    try:
        info = os.stat(path) if follow_symlinks else os.lstat(path)
    except FileNotFoundError:
        if missing_ok:
            raise
        raise error(f"{name}: no such file") from None
    except OSError as exc:
        raise error(f"{name}: cannot read ({os_error_reason(exc)})") from None
    _check_regular(name, info, None if head else limit, what, error)
    flags = os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NONBLOCK", 0)
    try:
        # O_NONBLOCK: should the path have been swapped for a FIFO since the check, opening it
        # returns at once instead of waiting for a writer. O_NOFOLLOW: nor for a link.
        fd = os.open(path, flags if follow_symlinks else flags | os.O_NOFOLLOW)
    except FileNotFoundError:
        if missing_ok:
            raise
        raise error(f"{name}: no such file") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow_symlinks:
            raise error(_link_refusal(name, what)) from None
        raise error(f"{name}: cannot read ({os_error_reason(exc)})") from None
    with os.fdopen(fd, "rb") as fh:
        _check_regular(name, os.fstat(fh.fileno()), None if head else limit, what, error)
        data = fh.read(limit if head else limit + 1)
    if len(data) > limit:
        raise error(_too_big(name, len(data), limit, what))
    return data


def _link_refusal(name: str, what: str) -> str:
    return (
        f"{name}: is a symbolic link, not a {what}; the tool never reads or writes its own "
        "files through a link (one planted there would redirect them): remove the link"
    )


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
    path: str, info: os.stat_result, limit: int | None, what: str, error: type[InterviewError]
) -> None:
    mode = info.st_mode
    if stat.S_ISLNK(mode):
        raise error(_link_refusal(path, what))
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
    if limit is not None and info.st_size > limit:
        raise error(_too_big(path, info.st_size, limit, what))


def _too_big(path: str, size: int, limit: int, what: str) -> str:
    mb = 1024 * 1024
    return (
        f"{path}: is {size / mb:.0f} MB, more than a {what} can be ({limit // mb} MB); "
        "is it the right file?"
    )


# ---- writing -------------------------------------------------------------------------------

# Session files hold what respondents said: only their owner may read them. An existing file
# keeps the mode its owner gave it; a report or an export the user names gets the usual mode.
PRIVATE_FILE_MODE = 0o600
PRIVATE_DIR_MODE = 0o700
USUAL_FILE_MODE = 0o666  # less the umask, as for any file a program creates


def open_own_file(path: Path, flags: int, what: str, *, removed_ok: bool = False) -> int:
    """A descriptor on one of the tool's own files (a lock, a journal), created private, never
    through a symbolic link and never on a file with another name too (a hard link) or a
    special file: one planted at the name would receive what the tool writes there.
    ``removed_ok``: a file its holder removed a moment ago (no name left) is taken too."""
    try:
        fd = os.open(path, flags | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, PRIVATE_FILE_MODE)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FileSystemError(
                f"{path}: is a symbolic link, not {what}; the tool never writes its own files "
                "through a link (one planted there would redirect the write): remove the link"
            ) from None
        raise
    info = os.fstat(fd)
    names = info.st_nlink <= 1 if removed_ok else info.st_nlink == 1
    if not (stat.S_ISREG(info.st_mode) and names):
        os.close(fd)
        raise FileSystemError(
            f"{path}: is not a regular file of its own (a hard link or a special file), so "
            f"it cannot be {what}: remove it"
        )
    return fd


# ``--out -``: the standard output, as for most command-line tools.
STDOUT_NAME = "-"


def temp_prefix(path: Path, pid: int | None = None) -> str:
    """What every temporary file of ``path`` starts with (of one writer's pid, if given)."""
    return f".{path.name}." if pid is None else f".{path.name}.{pid}."


def make_private_dirs(directory: Path) -> None:
    """``directory`` and its missing parents, each created 0700 (existing ones untouched)."""
    missing: list[Path] = []
    for candidate in (directory, *directory.parents):
        if candidate.is_dir():
            break
        missing.append(candidate)
    for candidate in reversed(missing):
        try:
            candidate.mkdir(mode=PRIVATE_DIR_MODE)
        except FileExistsError:
            if not candidate.is_dir():
                raise


def fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        dir_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def replace_file(path: Path, data: bytes, *, new_mode: int) -> None:
    """Put ``data`` at ``path`` so that readers see the old or the new content, never a mix:
    a temporary file beside it (made new, never through a link), fsync, rename, directory
    fsync. The new content keeps the mode (and, for root, the owner) of the regular file it
    replaces; a new file gets ``new_mode`` less the umask."""
    try:
        old: os.stat_result | None = os.lstat(path)
    except FileNotFoundError:
        old = None
    if old is not None and not stat.S_ISREG(old.st_mode):
        old = None  # a link or a FIFO is not replaced by callers; nothing to keep here
    tmp = path.with_name(f"{temp_prefix(path, os.getpid())}{secrets.token_hex(3)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(tmp, flags, new_mode if old is None else PRIVATE_FILE_MODE)
        try:
            if old is not None:
                os.fchmod(fd, stat.S_IMODE(old.st_mode))
                if os.geteuid() == 0 and (old.st_uid, old.st_gid) != (0, 0):
                    with contextlib.suppress(OSError):
                        os.fchown(fd, old.st_uid, old.st_gid)
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    fsync_dir(path.parent)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def is_stdout(path: Path | str | None) -> bool:
    return path is not None and str(path) == STDOUT_NAME


def write_output(path: Path, data: str | bytes, *, option: str = "--out") -> None:
    """Write a report or an export to the file the user named, respecting what is there.

    A regular file or a new name is replaced atomically (its mode kept); a character device
    (``/dev/null``) or a FIFO with a reader is written through, never replaced; a symbolic
    link is refused (one planted in a shared folder would send the write, with root's rights,
    to any file: naming the file itself is a one-word fix); a missing folder is not created.
    ``-`` is for the caller to send to stdout. Every refusal is one ``UsageError`` line,
    raised before anything is written."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        info: os.stat_result | None = os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise translate_os_error(exc, path, doing="write") from None
    if info is None:
        _check_folder(path, option)
        replace_file(path, raw, new_mode=USUAL_FILE_MODE)
        return
    mode = info.st_mode
    if stat.S_ISREG(mode):
        replace_file(path, raw, new_mode=USUAL_FILE_MODE)
    elif stat.S_ISLNK(mode):
        raise UsageError(
            f"{option} {path}: is a symbolic link to {os.readlink(path)}; name the file itself "
            f"or remove the link (for the terminal or a pipe, use {option} {STDOUT_NAME})"
        )
    elif stat.S_ISDIR(mode):
        raise UsageError(f"{option} {path}: is a directory; give a file name")
    elif stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        _write_through(path, raw, option)
    else:
        kind = "a block device" if stat.S_ISBLK(mode) else "a socket"
        raise UsageError(
            f"{option} {path}: is {kind}, not a file; give a file name, or "
            f"{option} {STDOUT_NAME} for the standard output"
        )


def _check_folder(path: Path, option: str) -> None:
    folder = path.parent
    if folder.is_dir():
        return
    blocker = _first_non_directory(folder)
    if blocker is not None:
        raise UsageError(
            f"{blocker}: is a file, not a directory, so {option} {path} cannot be written"
        )
    raise UsageError(
        f"{option} {path}: the folder {folder} does not exist; create it first "
        f"(mkdir -p {folder}) or choose another"
    )


def _write_through(path: Path, data: bytes, option: str) -> None:
    """Into a device or FIFO as it is: opened without creating, truncating or following, and
    without waiting for a FIFO's reader (none is one line, not a hang)."""
    flags = os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise UsageError(
                f"{option} {path}: is a FIFO (named pipe) that nobody reads; start its reader "
                "first, or name a file"
            ) from None
        raise translate_os_error(exc, path, doing="write") from None
    try:
        os.set_blocking(fd, True)
        _write_all(fd, data)
    finally:
        os.close(fd)


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
