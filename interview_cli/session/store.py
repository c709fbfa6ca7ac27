"""Session files on disk: snapshot and journal, one writer per session, versions, migrations.

- ``<id>.json`` is the session document (the snapshot); while a session is active, each save
  appends what changed to ``<id>.journal`` (``journal``: one fsynced line) instead of
  rewriting the document, so a save costs the same at turn 100 as at turn 1. The snapshot is
  rewritten atomically (temporary file, fsync, rename, directory fsync) when the session stops
  being active and when the journal outgrows it; readers replay the journal onto it
  (:func:`read_session_file`), so every command sees the last save.
- One writer per session: ``lock`` holds an OS lock (``flock``) on ``<id>.lock`` for the
  writer's life; the kernel releases it when the process dies. Writers read the session only
  after taking the lock.
- A writer killed in the middle of a snapshot rewrite (SIGKILL, power loss) leaves its
  temporary file behind; nothing can prevent that. Whoever takes the session's lock next
  removes those orphans: while the lock is held no other process writes that session, so any
  temporary file of it that is not the holder's own belongs to a dead writer.
- Session ids are checked against a strict pattern, so an id can never name a file elsewhere.
  Nothing is written through a symbolic link: a link in place of the session file, its lock
  or its journal is refused with one line (batch ids are predictable, so a link planted in a
  shared folder would otherwise receive the answers); the lock and the journal are opened
  with ``O_NOFOLLOW``, temporary files with ``O_EXCL`` too. Reading commands do follow a
  session link (``resolve``): reading what it names changes nothing.
- Session files hold what respondents said: new ones are created 0600 and new folders 0700;
  a rewrite keeps the mode of the file it replaces.
- Files of an older ``schema_version`` load through the explicit steps in ``MIGRATIONS``; a newer
  version is refused (upgrade interview-cli) and the file is left untouched.

Reading (JSON, migrations, journal replay) is ``read``, the journal's line format
``journal``, the lock ``lock``; this module writes.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import glob
import os
import re
import secrets
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from interview_cli.config.files import (
    PRIVATE_FILE_MODE,
    default_sessions_dir,
    fsync_dir,
    make_private_dirs,
    replace_file,
    session_files,
    temp_prefix,
    translate_os_error,
)
from interview_cli.errors import SessionFileError, UsageError
from interview_cli.session import journal as store_journal
from interview_cli.session import lock as store_lock
from interview_cli.session.clock import now_iso
from interview_cli.session.journal import JOURNAL_FACTOR
from interview_cli.session.read import JOURNAL_SEQ, _read_document, _validate
from interview_cli.session.schema import SessionFile

ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,119}$")

# The other way out when the sessions directory cannot be written.
_OTHER_DIR = "choose another sessions directory (--sessions-dir or INTERVIEW_SESSIONS_DIR)"


def new_session_id(prefix: str) -> str:
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%d-%H%M%S")
    clean = re.sub(r"[^A-Za-z0-9_\-]", "-", prefix)[:40] or "session"
    return f"{clean}-{stamp}-{secrets.token_hex(2)}"


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write a session file (``text``) so that readers see the old or the new content, never
    a mix; a new file (and a new sessions directory) is private to its owner, an existing one
    keeps its mode."""
    make_private_dirs(path.parent)
    data = text.encode("utf-8") if isinstance(text, str) else text
    replace_file(path, data, new_mode=PRIVATE_FILE_MODE)


# Below MIN_JOURNAL_BYTES a snapshot rewrite is never worth it (a new session's snapshot is
# small); above it, the journal is folded in when it reaches ``JOURNAL_FACTOR`` times the
# snapshot (see ``journal``).
MIN_JOURNAL_BYTES = 256 * 1024


def _last_seq(journal: Path) -> int:
    """The highest seq in an existing journal (0 without one), so that a snapshot written
    without reading the session first still makes every old line obsolete."""
    try:
        entries, _ = store_journal.read(journal)
    except (OSError, ValueError):
        return 0
    return max((e["seq"] for e in entries), default=0)


@dataclass
class _Persisted:
    """What a session's files hold, as its writer last made them durable: the document
    without its turns, the turns (dumped), and how many leading turns are complete. A
    complete turn never changes again but the last one (a moderator's /ask, /alt or /skip
    overrules its decision; its slot call, when it returns late, settles into it while the next
    answer is read), so saves dump only the turns from the last complete one on."""

    seq: int
    doc: dict[str, Any]
    turns: list[dict[str, Any]]
    frozen: int
    snapshot_bytes: int
    journal_bytes: int

    @classmethod
    def of(cls, doc: dict[str, Any], seq: int, snapshot: int, journal: int) -> _Persisted:
        rest = {k: v for k, v in doc.items() if k != "turns"}
        made = cls(seq, rest, list(doc.get("turns", [])), 0, snapshot, journal)
        made.freeze()
        return made

    def freeze(self) -> None:
        while self.frozen < len(self.turns) and self.turns[self.frozen].get("status") == "complete":
            self.frozen += 1

    def advance(self, doc: dict[str, Any], turns: list[dict[str, Any]], written: int) -> None:
        self.seq += 1
        self.doc, self.turns = doc, turns
        self.journal_bytes += written
        self.freeze()


def _append_line(path: Path, line: bytes, size: int) -> None:
    """Append a journal ``line`` to the journal of ``path`` (``size`` bytes of whole lines),
    durably; on failure nothing of it stays."""
    journal = store_journal.journal_path(path)
    created = not journal.exists()
    fd = store_journal.open_for_append(journal)
    try:
        if os.fstat(fd).st_size != size:
            # A write cut short (a crash, a failed write) left a torn last line.
            os.ftruncate(fd, size)
        view = memoryview(line)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except OSError:
        # Not durable (a full disk, an I/O error): take the line back, so that what is on
        # disk stays the last save the error message speaks of.
        with contextlib.suppress(OSError):
            os.ftruncate(fd, size)
        if created:
            with contextlib.suppress(OSError):
                journal.unlink()
        raise
    finally:
        os.close(fd)
    if created:
        fsync_dir(path.parent)


def refuse_link(path: Path) -> None:
    """``SessionFileError`` (exit 2) when ``path`` (a session file, its lock or its journal)
    is a symbolic link: a session is written only where it is, so that a link planted in its
    place (batch ids are predictable) cannot send the answers, the lock or the journal to
    another file."""
    if not path.is_symlink():
        return
    if path.suffix == ".json":
        what = "a session is written only where it is, never through a link"
        itself = shlex.quote(str(path.resolve()))
        fix = f"use the file itself (interview run --resume {itself}), or remove the link"
    else:
        what = f"the tool never writes a session's {path.suffix[1:]} through a link"
        fix = "remove the link (the tool did not make it)"
    raise SessionFileError(f"{path}: is a symbolic link to {os.readlink(path)}; {what}: {fix}")


class Writes(Protocol):
    """How a store's writes are made: at once (the default), or in order per session in the
    background (``simulation.saving``: disk syncs off a batch's event loop), where ``run`` and
    ``flush`` (which waits for them) raise the error of an earlier failed write."""

    def run(self, session_id: str, write: Callable[[], None]) -> None: ...

    def flush(self, session_id: str) -> None: ...

    async def drain(self, session_id: str) -> None:
        """``flush`` without blocking an event loop."""


class _AtOnce:
    def run(self, session_id: str, write: Callable[[], None]) -> None:
        write()

    def flush(self, session_id: str) -> None:
        return None

    async def drain(self, session_id: str) -> None:
        return None


class SessionStore:
    """The sessions directory."""

    def __init__(self, directory: Path | None = None, *, writes: Writes | None = None) -> None:
        self.directory = (directory or default_sessions_dir()).expanduser()
        # Per session this store writes: what its files on disk hold (see ``save``).
        self._persisted: dict[str, _Persisted] = {}
        self._locked: set[str] = set()  # sessions whose lock this store holds
        self.writes: Writes = writes or _AtOnce()
        self._home: Path | None = None  # the directory, resolved on first use

    # ---- paths ---------------------------------------------------------------------------
    def path_for(self, session_id: str) -> Path:
        if not ID_PATTERN.match(session_id):
            raise UsageError(
                f"'{session_id}' is not a valid session id (letters, digits, '.', '_' and '-' only)"
            )
        if self._home is None:
            self._home = self.directory.resolve()
        # Not resolved: a writer refuses a symbolic link in its place (``refuse_link``), and a
        # reader follows one through ``resolve``.
        return self._home / f"{session_id}.json"

    def resolve(self, id_or_path: str) -> Path:
        """A session id in this directory or one of its subfolders (a batch's, as `interview
        sessions` lists them), or a path to a session file anywhere. Every command that takes
        a session id finds it here."""
        candidate = Path(id_or_path)
        if id_or_path.endswith(".json") or os.sep in id_or_path:
            if not candidate.exists():
                raise SessionFileError(f"{id_or_path}: no such session file")
            # Symbolic links are resolved here, once: every command then reads, locks and
            # saves the file they point to, as if it had been named directly.
            return candidate.resolve()
        linked = self.directory / f"{id_or_path}.json"
        if ID_PATTERN.match(id_or_path) and linked.is_symlink():
            if not linked.exists():
                raise SessionFileError(
                    f"{linked}: a symbolic link to {os.readlink(linked)}, which does not exist; "
                    "restore that file or remove the link"
                )
            return linked.resolve()
        path = self.path_for(id_or_path)
        if path.exists():
            return path
        nested = self._nested(id_or_path)
        if len(nested) == 1:
            return nested[0].resolve()
        if nested:
            where = ", ".join(str(p) for p in nested[:3])
            raise SessionFileError(
                f"session '{id_or_path}' is in {len(nested)} folders of {self.directory} "
                f"({where}); name the file instead of the id"
            )
        files = session_files(self.directory) if self.directory.is_dir() else []
        known = ", ".join(sorted({p.stem for p in files})[:8])
        hint = f" (known: {known})" if known else ""
        raise SessionFileError(f"no session '{id_or_path}' in {self.directory}{hint}")

    def _nested(self, session_id: str) -> list[Path]:
        """The files named ``<session_id>.json`` in the subfolders of this directory."""
        if not self.directory.is_dir():
            return []
        return [p for p in session_files(self.directory) if p.stem == session_id]

    def resolve_for_writing(self, id_or_path: str) -> Path:
        """:meth:`resolve` for a command that will write the session: refused (one line) when
        the name leads through a symbolic link, which the reading commands follow."""
        candidate = Path(id_or_path)
        if not (id_or_path.endswith(".json") or os.sep in id_or_path):
            candidate = (
                self.directory / f"{id_or_path}.json" if ID_PATTERN.match(id_or_path) else candidate
            )
        refuse_link(candidate)
        return self.resolve(id_or_path)

    def refuse_links(self, session_id: str) -> None:
        """One line (``SessionFileError``) when the session file, lock or journal of
        ``session_id`` is a symbolic link: for a batch to refuse before it starts, rather
        than fail one interview at a time."""
        path = self.path_for(session_id)
        for candidate in (path, path.with_suffix(".lock"), store_journal.journal_path(path)):
            refuse_link(candidate)

    # ---- read / write --------------------------------------------------------------------
    def load(self, id_or_path: str) -> SessionFile:
        """The session as last saved. Under the session's lock the store remembers what it
        read, so that its next save of that session appends only what changed (see
        :meth:`save`)."""
        path = self.resolve(id_or_path)
        doc, seq, journal_bytes = _read_document(path)
        session = _validate(doc, source=str(path))
        if session.id in self._locked and path.resolve() == self._target(session.id):
            # Only for the writer (it holds the lock): listing sessions pays for no copy.
            # Dumped, not the document read: the model shares nested values with that.
            dumped = session.model_dump(mode="json")
            size = path.stat().st_size
            self._persisted[session.id] = _Persisted.of(dumped, seq, size, journal_bytes)
        return session

    def save(self, session: SessionFile) -> Path:
        """Make ``session`` durable. An active session appends what changed since the last
        save to its journal (one fsynced line); the snapshot is rewritten when the session
        stops being active (pause, close, failure), when the journal has grown to
        ``JOURNAL_FACTOR`` times the snapshot, or when this store has no record of what is on
        disk (a new session, or one it did not read)."""
        session.updated_at = now_iso()
        path = self.path_for(session.id)
        refuse_link(path)
        known = self._persisted.get(session.id)
        try:
            if (
                known is None
                or session.status != "active"
                or known.journal_bytes
                >= max(JOURNAL_FACTOR * known.snapshot_bytes, MIN_JOURNAL_BYTES)
                or len(session.turns) < known.frozen
            ):
                self._write_snapshot(session, path, known)
            else:
                self._append(session, path, known)
        except OSError as exc:
            raise translate_os_error(exc, path, doing="save the session", hint=_OTHER_DIR) from None
        return path

    def _target(self, session_id: str) -> Path | None:
        try:
            return self.path_for(session_id)
        except UsageError:
            return None

    def _write_snapshot(self, session: SessionFile, path: Path, known: _Persisted | None) -> None:
        journal = store_journal.journal_path(path)
        seq = known.seq if known is not None else _last_seq(journal)
        text = session.model_dump_json(indent=1)
        # The seq goes last, so that schema_version stays the first key (see sources.py).
        text = f'{text[: text.rstrip().rindex("}")].rstrip()},\n "{JOURNAL_SEQ}": {seq}\n}}'

        def write() -> None:
            write_atomic(path, text)
            # A crash before this leaves lines at or below ``seq``: they are skipped on reading.
            with contextlib.suppress(FileNotFoundError):
                journal.unlink()

        self.writes.run(session.id, write)
        doc = session.model_dump(mode="json")
        self._persisted[session.id] = _Persisted.of(doc, seq, len(text.encode("utf-8")), 0)

    def _append(self, session: SessionFile, path: Path, known: _Persisted) -> None:
        doc = session.model_dump(mode="json", exclude={"turns"})
        settled = max(known.frozen - 1, 0)
        turns = known.turns[:settled] + [t.model_dump(mode="json") for t in session.turns[settled:]]
        ops = store_journal.diff(known.doc, doc)
        ops += store_journal.diff(known.turns, turns, ("turns",))
        if not ops:
            return
        line = store_journal.encode(known.seq + 1, ops)
        size = known.journal_bytes
        self.writes.run(session.id, lambda: _append_line(path, line, size))
        known.advance(doc, turns, len(line))

    # ---- locking -------------------------------------------------------------------------
    @contextlib.contextmanager
    def lock(self, session_id: str) -> Iterator[Path]:
        """Hold the session's lock (``session.lock``) until the block ends; read the session
        only after this, so that what is read is what no other writer can change."""
        self.refuse_links(session_id)
        path = self.path_for(session_id).with_suffix(".lock")
        try:
            make_private_dirs(path.parent)
        except OSError as exc:
            raise translate_os_error(
                exc, path.parent, doing="create the sessions directory", hint=_OTHER_DIR
            ) from None
        with contextlib.ExitStack() as stack:
            try:
                stack.enter_context(store_lock.hold(path, session_id, now_iso()))
            except OSError as exc:
                raise translate_os_error(
                    exc, path.parent, doing="create a lock file in it", hint=_OTHER_DIR
                ) from None
            self._remove_orphaned_temp_files(session_id)
            self._locked.add(session_id)
            try:
                yield path
            finally:
                self._locked.discard(session_id)
                self._persisted.pop(session_id, None)
                # What was saved under the lock is on disk before the lock is released.
                try:
                    self.writes.flush(session_id)
                except OSError as exc:
                    target = self.path_for(session_id)
                    raise translate_os_error(
                        exc, target, doing="save the session", hint=_OTHER_DIR
                    ) from None

    def _remove_orphaned_temp_files(self, session_id: str) -> None:
        """Temporary files of this session left by a writer that died mid-save (lock held)."""
        target = self.path_for(session_id)
        mine = temp_prefix(target, os.getpid())
        for orphan in target.parent.glob(f"{glob.escape(temp_prefix(target))}*.tmp"):
            if not orphan.name.startswith(mine):
                with contextlib.suppress(OSError):
                    orphan.unlink()
