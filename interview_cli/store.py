"""Session files on disk: atomic writes, one writer per session, versions and migrations.

- Every save writes a temporary file in the same directory, fsyncs it, renames it over the
  session file and fsyncs the directory: a crash at any moment leaves the old or the new file,
  never half of one.
- A lock file (``<id>.lock``, created with O_EXCL, holding the owner's pid and host) stops two
  processes from writing one session; the second gets a message naming the holder. A lock whose
  process is gone (same host) is taken over.
- A writer killed in the middle of a save (SIGKILL, power loss) leaves its temporary file
  behind; nothing can prevent that. Whoever takes the session's lock next removes those
  orphans: while the lock is held no other process writes that session, so any temporary file
  of it that is not the holder's own belongs to a dead writer.
- Session ids are checked against a strict pattern and the resolved path must stay inside the
  sessions directory, so an id can never name a file elsewhere.
- Files of an older ``schema_version`` load through the explicit steps in ``MIGRATIONS``; a newer
  version is refused (upgrade interview-cli) and the file is left untouched.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import glob
import json
import os
import re
import secrets
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from interview_cli.errors import SessionFileError, SessionLockedError, UsageError
from interview_cli.files import read_user_text, translate_os_error
from interview_cli.session import SCHEMA_VERSION, SessionFile

SESSIONS_ENV = "INTERVIEW_SESSIONS_DIR"
ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,119}$")

# The other way out when the sessions directory cannot be written.
_OTHER_DIR = "choose another sessions directory (--sessions-dir or INTERVIEW_SESSIONS_DIR)"

Migration = Callable[[dict[str, Any]], dict[str, Any]]

# version N -> function that turns a version-N document into a version-(N+1) document.
MIGRATIONS: dict[int, Migration] = {}


def _migrate_0_to_1(doc: dict[str, Any]) -> dict[str, Any]:
    """Version 0 (pre-release files) kept the graph under ``knowledge_graph`` and the turn
    count in ``turn_count``; version 1 derives the count from the turns and names the graph
    ``graph``."""
    doc = dict(doc)
    if "knowledge_graph" in doc and "graph" not in doc:
        doc["graph"] = doc.pop("knowledge_graph")
    doc.pop("turn_count", None)
    doc["schema_version"] = 1
    return doc


MIGRATIONS[0] = _migrate_0_to_1


def now_iso() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def default_sessions_dir() -> Path:
    env = os.environ.get(SESSIONS_ENV)
    return Path(env) if env else Path.cwd() / "sessions"


def new_session_id(prefix: str) -> str:
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%d-%H%M%S")
    clean = re.sub(r"[^A-Za-z0-9_\-]", "-", prefix)[:40] or "session"
    return f"{clean}-{stamp}-{secrets.token_hex(2)}"


def migrate(doc: dict[str, Any], *, source: str) -> dict[str, Any]:
    version = doc.get("schema_version")
    if not isinstance(version, int):
        raise SessionFileError(f"{source}: schema_version is missing or not a number")
    if version > SCHEMA_VERSION:
        raise SessionFileError(
            f"{source}: schema_version {version} is newer than this interview-cli understands "
            f"({SCHEMA_VERSION}); upgrade interview-cli to open it"
        )
    while version < SCHEMA_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise SessionFileError(
                f"{source}: no migration from schema_version {version}; this file cannot be read"
            )
        doc = step(doc)
        version = doc["schema_version"]
    return doc


def parse_session(text: str, *, source: str) -> SessionFile:
    """Parse and validate a session document; every failure is one SessionFileError line."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        rest = text[exc.pos :].strip()
        # cut inside a literal ("value": f) is as truncated as one cut between tokens
        partial = bool(rest) and any(word.startswith(rest) for word in ("true", "false", "null"))
        at_end = exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated") or partial
        hint = " (the file looks truncated)" if at_end else ""
        raise SessionFileError(
            f"{source}: not valid JSON at line {exc.lineno} column {exc.colno}{hint}"
        ) from None
    if not isinstance(doc, dict) or "id" not in doc or "turns" not in doc:
        raise SessionFileError(f"{source}: not an interview session file (no id and turns)")
    doc = migrate(doc, source=source)
    try:
        return SessionFile.model_validate(doc)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(root)"
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise SessionFileError(f"{source}: {where}: {first['msg']}{more}") from None


def _temp_prefix(path: Path, pid: int | None = None) -> str:
    """What every temporary file of ``path`` starts with (of one writer's pid, if given)."""
    return f".{path.name}." if pid is None else f".{path.name}.{pid}."


def _temp_name(path: Path, pid: int) -> str:
    return f"{_temp_prefix(path, pid)}{secrets.token_hex(3)}.tmp"


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old or the new content, never a mix."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(_temp_name(path, os.getpid()))
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    with contextlib.suppress(OSError):
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class SessionStore:
    """The sessions directory."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = (directory or default_sessions_dir()).expanduser()

    # ---- paths ---------------------------------------------------------------------------
    def path_for(self, session_id: str) -> Path:
        if not ID_PATTERN.match(session_id):
            raise UsageError(
                f"'{session_id}' is not a valid session id (letters, digits, '.', '_' and '-' only)"
            )
        path = (self.directory / f"{session_id}.json").resolve()
        if path.parent != self.directory.resolve():
            raise UsageError(f"'{session_id}' would leave the sessions directory")
        return path

    def resolve(self, id_or_path: str) -> Path:
        """A session id in this directory, or a path to a session file anywhere."""
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
        if not path.exists():
            known = ", ".join(sorted(p.stem for p in self.directory.glob("*.json"))[:8])
            hint = f" (known: {known})" if known else ""
            raise SessionFileError(f"no session '{id_or_path}' in {self.directory}{hint}")
        return path

    # ---- read / write --------------------------------------------------------------------
    def load(self, id_or_path: str) -> SessionFile:
        path = self.resolve(id_or_path)
        return parse_session(read_user_text(path), source=str(path))

    def save(self, session: SessionFile) -> Path:
        session.updated_at = now_iso()
        path = self.path_for(session.id)
        try:
            write_atomic(path, session.model_dump_json(indent=1))
        except OSError as exc:
            raise translate_os_error(
                exc, path, doing="save the session", hint=_OTHER_DIR
            ) from None
        return path

    def list_paths(self) -> list[Path]:
        if not self.directory.is_dir():
            return []
        return sorted(p for p in self.directory.glob("*.json") if not p.name.startswith("."))

    # ---- locking -------------------------------------------------------------------------
    @contextlib.contextmanager
    def lock(self, session_id: str) -> Iterator[Path]:
        path = self.path_for(session_id).with_suffix(".lock")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise translate_os_error(
                exc, path.parent, doing="create the sessions directory", hint=_OTHER_DIR
            ) from None
        me = {"pid": os.getpid(), "host": socket.gethostname(), "since": now_iso()}
        for _ in range(2):
            try:
                fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                holder = self._read_lock(path)
                if self._is_stale(holder):
                    with contextlib.suppress(FileNotFoundError):
                        path.unlink()
                    continue
                raise SessionLockedError(
                    f"session {session_id} is in use by process {holder.get('pid', '?')} on "
                    f"{holder.get('host', '?')} since {holder.get('since', '?')}; "
                    f"wait for it to finish (or delete {path} if that process is gone)"
                ) from None
            except OSError as exc:
                raise translate_os_error(
                    exc, path.parent, doing="create a lock file in it", hint=_OTHER_DIR
                ) from None
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(me, fh)
            break
        self._remove_orphaned_temp_files(session_id)
        try:
            yield path
        finally:
            with contextlib.suppress(FileNotFoundError):
                if self._read_lock(path).get("pid") == me["pid"]:
                    path.unlink()

    def _remove_orphaned_temp_files(self, session_id: str) -> None:
        """Temporary files of this session left by a writer that died mid-save (lock held)."""
        target = self.path_for(session_id)
        mine = _temp_prefix(target, os.getpid())
        for orphan in target.parent.glob(f"{glob.escape(_temp_prefix(target))}*.tmp"):
            if not orphan.name.startswith(mine):
                with contextlib.suppress(OSError):
                    orphan.unlink()

    @staticmethod
    def _read_lock(path: Path) -> dict[str, Any]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}

    @staticmethod
    def _is_stale(holder: dict[str, Any]) -> bool:
        pid = holder.get("pid")
        if not isinstance(pid, int):
            return False
        if holder.get("host") != socket.gethostname():
            return False
        return not _pid_alive(pid)
