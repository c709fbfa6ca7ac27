"""Reading session files for analysis: read-only, one clear line per bad file.

Analysis never writes a session file and never takes a session's lock: a replay or a report
can run while an interview is in progress, and a bad file is reported, not repaired. Files are
parsed by ``store.parse_session`` (the same schema check, migrations and one-line errors as
``run --resume``), and the methodology and concept are taken from the session's own YAML
snapshots (ARCHITECTURE principle 3: a replay uses the weights the interview ran with, even on
a machine whose library has since changed).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import yaml
from pydantic import ValidationError

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.errors import SessionFileError, UsageError
from interview_cli.session import SessionFile
from interview_cli.store import SessionStore, parse_session

M = TypeVar("M", Methodology, Concept)


@dataclass(frozen=True)
class SessionSource:
    """A parsed session and where it was read from."""

    session: SessionFile
    path: Path


@dataclass
class Collected:
    """Sessions found for a report, and the files under a directory that were skipped."""

    sources: list[SessionSource] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    # The session files found, read or skipped: a skipped one written by a newer version is
    # still somebody's interview, so ``--out`` must not overwrite it either. (A skipped file
    # that is no session at all, such as last run's report.json, may be overwritten.)
    files: list[Path] = field(default_factory=list)


def read_session(path: Path) -> SessionFile:
    """Parse one session file; every failure is a one-line ``SessionFileError`` (exit 2)."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise SessionFileError(f"{path}: not a text file") from None
    except IsADirectoryError:
        raise SessionFileError(f"{path}: is a directory, not a session file") from None
    except OSError as exc:
        raise SessionFileError(f"{path}: cannot read ({exc.strerror})") from None
    return parse_session(text, source=str(path))


def load_one(ref: str, store: SessionStore) -> SessionSource:
    """A session id in the sessions directory, or a path to a session file anywhere."""
    # Checked before resolving: a bare directory name ("runs") would otherwise be looked up as
    # a session id and reported as "no session 'runs' in ...", hiding what went wrong. A
    # session of that id in the sessions directory still wins.
    if Path(ref).is_dir() and not _is_stored_id(ref, store):
        raise UsageError(f"{ref} is a directory; pass a session file (or a session id)")
    path = store.resolve(ref)
    if path.is_dir():
        raise UsageError(f"{ref} is a directory; pass a session file (or a session id)")
    return SessionSource(read_session(path), path)


def _is_stored_id(ref: str, store: SessionStore) -> bool:
    try:
        return store.path_for(ref).is_file()
    except UsageError:  # not a valid id at all (a path with separators)
        return False


def refuse_overwriting_inputs(outputs: Iterable[Path], inputs: Iterable[Path]) -> None:
    """Exit 2 before anything is written when an output file is one of the input sessions.

    ``--out`` pointed at a session (by the same name, another spelling of its path, a symlink
    or a hard link) would replace the interview with its own report or export: data loss that
    no later command can undo. Compared by file identity (``os.path.samefile``: other spellings,
    symlinks, hard links) and by resolved path, since ``missing/../a.json`` does not "exist"
    until the writer creates ``missing/`` - and then it is ``a.json``.
    """
    existing = [p for p in inputs if p.exists()]
    for out in outputs:
        for source in existing:
            try:
                same = out.exists() and os.path.samefile(out, source)
            except OSError:
                same = False
            if same or out.resolve() == source.resolve():
                raise UsageError(
                    f"--out {out} is the input session file {source}; choose another output "
                    "file (writing there would overwrite the interview)"
                )


def _session_files(directory: Path) -> list[Path]:
    """JSON files under ``directory`` (batch output nests them), skipping hidden files."""
    found: list[Path] = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += [
            Path(root) / f for f in sorted(files) if f.endswith(".json") and not f.startswith(".")
        ]
    return found


def _looks_like_session(path: Path) -> bool:
    """A JSON object with a schema version and an id: a session this version cannot read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(data, dict) and "schema_version" in data and "id" in data


def collect(refs: Sequence[str], store: SessionStore) -> Collected:
    """Sessions named by ids, files or directories (every ``*.json`` below, recursively).

    A file named explicitly must be a valid session (else its error ends the command, exit 2);
    a file found while walking a directory is skipped with a note instead, so that a batch
    directory holding a summary JSON next to its sessions still reports. The same file given
    twice is read once.
    """
    out = Collected()
    seen: set[Path] = set()

    def add(path: Path, *, strict: bool) -> None:
        key = path.resolve()
        if key in seen:
            return
        seen.add(key)
        try:
            out.sources.append(SessionSource(read_session(path), path))
        except SessionFileError as exc:
            if strict:
                raise
            out.skipped.append(exc.message)
            if _looks_like_session(path):
                out.files.append(path)
        else:
            out.files.append(path)

    for ref in refs:
        candidate = Path(ref)
        if candidate.is_dir():
            files = _session_files(candidate)
            if not files:
                raise UsageError(f"{ref}: no session files (*.json) in this directory")
            for path in files:
                add(path, strict=False)
        else:
            add(store.resolve(ref), strict=True)
    if not out.sources:
        detail = f" ({out.skipped[0]})" if out.skipped else ""
        raise SessionFileError(f"no readable session among {', '.join(refs)}{detail}")
    return out


# --------------------------------------------------------------------------------------------
# Snapshots
# --------------------------------------------------------------------------------------------


def _snapshot(text: str, model: type[M], what: str, session: SessionFile) -> M:
    if not text.strip():
        raise SessionFileError(
            f"session {session.id}: no {what} snapshot (source) recorded, so it cannot be replayed"
        )
    try:
        return model.model_validate(yaml.safe_load(text))
    except (yaml.YAMLError, ValidationError, TypeError) as exc:
        raise SessionFileError(
            f"session {session.id}: its {what} snapshot no longer loads "
            f"({type(exc).__name__}); was the file edited by hand?"
        ) from None


def snapshot_methodology(session: SessionFile) -> Methodology:
    """The methodology the session ran with, from the YAML text it recorded."""
    return _snapshot(session.methodology.source, Methodology, "methodology", session)


def snapshot_concept(session: SessionFile) -> Concept:
    return _snapshot(session.concept.source, Concept, "concept", session)


def methodology_groups(sources: Iterable[SessionSource]) -> dict[str, list[SessionSource]]:
    """Sessions grouped by methodology name, in first-seen order."""
    groups: dict[str, list[SessionSource]] = {}
    for source in sources:
        groups.setdefault(source.session.methodology.name, []).append(source)
    return groups
