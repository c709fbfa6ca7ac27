"""Reading session files: the snapshot's JSON, schema migrations, the journal replayed.

Every string of a session is cleaned of terminal controls as it is read (:func:`clean_document`),
so no viewer or export shows escape sequences a hand-edited or foreign file holds. Every
failure is one ``SessionFileError`` line naming the file: not JSON (and whether it
looks truncated), not a session file, a ``schema_version`` newer than this tool or without a
migration, a journal that does not fit its snapshot. Files of an older ``schema_version``
load through the explicit steps in ``MIGRATIONS``. Writing is ``store``; the journal's own
format is ``journal``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from yaml import YAMLError

from interview_cli.config.files import read_user_text
from interview_cli.config.tuning import tuning_before_habits
from interview_cli.config.yamlio import load_yaml
from interview_cli.errors import SessionFileError
from interview_cli.safe_text import (
    clean_strings,
    json_may_hold_controls,
    redact_secrets,
    strip_controls,
)
from interview_cli.session import journal as store_journal
from interview_cli.session.schema import SCHEMA_VERSION, SessionFile

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


def _migrate_1_to_2(doc: dict[str, Any]) -> dict[str, Any]:
    """Version 2 records the stimulus a concept test shows before the opening question.
    Version 1 files showed none: their ``stimulus`` is null (nothing was shown)."""
    doc = dict(doc)
    doc.setdefault("stimulus", None)
    doc["schema_version"] = 2
    return doc


def _migrate_2_to_3(doc: dict[str, Any]) -> dict[str, Any]:
    """Version 3 records the resolved tuning in each methodology snapshot (the session's and
    a fork's origins'). A version-2 session ran before the interviewer's habits
    (``config.tuning.Habit``) were always on: a habit its methodology YAML did not switch on
    is recorded as one it ran without, so the session keeps replaying as it was decided."""
    doc = dict(doc)
    snapshots = [doc.get("methodology")]
    fork = doc.get("fork")
    if isinstance(fork, dict) and isinstance(fork.get("earlier"), list):
        snapshots += [r.get("methodology") for r in fork["earlier"] if isinstance(r, dict)]
    for snapshot in snapshots:
        if isinstance(snapshot, dict) and "tuning" not in snapshot:
            snapshot["tuning"] = _tuning_recorded_in(snapshot.get("source"))
    doc["schema_version"] = 3
    return doc


def _tuning_recorded_in(source: Any) -> dict[str, Any]:
    """The tuning a recorded methodology YAML resolves to; empty when the text does not load
    (replaying the session then says its snapshot no longer loads)."""
    if not isinstance(source, str) or not source.strip():
        return {}
    try:
        data = load_yaml(source)
        raw = data.get("tuning") if isinstance(data, dict) else None
        return tuning_before_habits(raw).model_dump(mode="json")
    except (YAMLError, ValidationError, TypeError, ValueError):
        return {}


MIGRATIONS[0] = _migrate_0_to_1
MIGRATIONS[1] = _migrate_1_to_2
MIGRATIONS[2] = _migrate_2_to_3

# The snapshot's record of the last journal line it contains (a storage detail: it is not
# part of the session model, and is dropped on reading).
JOURNAL_SEQ = "journal_seq"


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


def _json_document(text: str, *, source: str) -> dict[str, Any]:
    try:
        doc = store_journal.loads(text)
    except store_journal.NotANumber as exc:
        raise SessionFileError(
            f"{source}: holds {exc}, which is no number a session can hold (was the file "
            "edited by hand?); put the number back"
        ) from None
    except RecursionError:
        raise SessionFileError(
            f"{source}: nested too deeply to be a session file (was it written by another tool?)"
        ) from None
    except json.JSONDecodeError as exc:
        rest = text[exc.pos :].strip()
        # A cut inside a token ("value": f, 1.5e, -, "\u00) is as truncated as one cut between
        # tokens: what follows the error is the token's own short, unfinished tail.
        partial = bool(rest) and len(rest) <= 32 and not any(c.isspace() for c in rest)
        at_end = exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated") or partial
        hint = " (the file looks truncated)" if at_end else ""
        raise SessionFileError(
            f"{source}: not valid JSON at line {exc.lineno} column {exc.colno}{hint}"
        ) from None
    except ValueError as exc:  # a number of more digits than Python converts, and the like
        raise SessionFileError(f"{source}: not a session file ({_one_line(str(exc))})") from None
    if not isinstance(doc, dict) or "id" not in doc or "turns" not in doc:
        raise SessionFileError(f"{source}: not an interview session file (no id and turns)")
    return doc


# The recorded library texts: kept byte for byte, since their sha256 proves what the session
# ran with (a CRLF file's carriage returns included). They are parsed, not shown; what is
# parsed from them is cleaned by the configuration's models.
_VERBATIM = ("methodology", "concept")


def clean_document(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with every string as a terminal, an export or a prompt may carry it
    (``safe_text.strip_controls``): a session file edited by hand or written by another tool
    may hold clear-screen, clipboard-write (OSC 52) or bidi sequences, and every command reads
    sessions through here. The library snapshots' YAML texts stay as recorded."""
    out: dict[str, Any] = {}
    for key, value in doc.items():
        if key in _VERBATIM and isinstance(value, dict):
            out[key] = {k: v if k == "source" else clean_strings(v) for k, v in value.items()}
        elif key == "errors":  # older versions kept a key a base URL carried in its messages
            out[key] = clean_strings(value, _shown_error)
        else:
            out[strip_controls(key)] = clean_strings(value)
    return out


def _shown_error(text: str) -> str:
    return redact_secrets(strip_controls(text))


def _cleaned(doc: dict[str, Any], needed: bool) -> dict[str, Any]:
    """:func:`clean_document` when the text may need it; the recorded errors always (few)."""
    if needed:
        return clean_document(doc)
    if isinstance(doc.get("errors"), list):
        doc["errors"] = clean_strings(doc["errors"], _shown_error)
    return doc


def _one_line(text: str) -> str:
    return " ".join(text.split())[:200]


def _validate(doc: dict[str, Any], *, source: str) -> SessionFile:
    try:
        return SessionFile.model_validate(doc)
    except RecursionError:
        raise SessionFileError(f"{source}: nested too deeply to be a session file") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(root)"
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise SessionFileError(f"{source}: {where}: {first['msg']}{more}") from None


def parse_session(text: str, *, source: str) -> SessionFile:
    """Parse and validate a session document; every failure is one SessionFileError line.
    (A snapshot alone: :func:`read_session_file` also replays the journal beside it.)"""
    doc = _json_document(text, source=source)
    doc.pop(JOURNAL_SEQ, None)
    doc = _cleaned(migrate(doc, source=source), json_may_hold_controls(text))
    return _validate(doc, source=source)


def _read_text(path: Path) -> str:
    # Regular files only, bounded, UTF-8: a device, a FIFO or a huge file is refused at once.
    return read_user_text(path)


def _read_document(path: Path, text: str | None = None) -> tuple[dict[str, Any], int, int]:
    """The session document at ``path`` (``text``: its content, already read) with its
    journal replayed (migrated, not validated), the last journal seq it holds, and the valid
    byte length of the journal (0: none)."""
    source = str(path)
    for _ in range(3):
        snapshot = _read_text(path) if text is None else text
        doc = _json_document(snapshot, source=source)
        text = None
        seq = doc.pop(JOURNAL_SEQ, 0)
        seq = seq if isinstance(seq, int) else 0
        doc = migrate(doc, source=source)
        try:
            entries, valid = store_journal.read(store_journal.journal_path(path))
        except FileNotFoundError:
            return _cleaned(doc, json_may_hold_controls(snapshot)), seq, 0
        except ValueError as exc:
            raise SessionFileError(f"{store_journal.journal_path(path)}: {exc}") from None
        except OSError as exc:
            raise SessionFileError(f"{path}: cannot read its journal ({exc.strerror})") from None
        pending = [e for e in entries if e["seq"] > seq]
        if any(e["seq"] != seq + i for i, e in enumerate(pending, 1)):
            continue  # a writer replaced snapshot and journal between our two reads: again
        try:
            for entry in pending:
                store_journal.apply(doc, entry.get("ops", []))
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            raise SessionFileError(
                f"{store_journal.journal_path(path)}: does not fit the session ({exc})"
            ) from None
        # Journal lines are not checked one by one: a session that has them is active, and
        # is walked whole.
        return (
            _cleaned(doc, bool(pending) or json_may_hold_controls(snapshot)),
            seq + len(pending),
            valid,
        )
    raise SessionFileError(
        f"{path}: its journal does not follow the snapshot (lines missing); the session "
        "file itself is intact up to its last snapshot"
    )


def read_session_file(
    path: Path,
    text: str | None = None,
    *,
    prune: Callable[[dict[str, Any]], None] | None = None,
) -> SessionFile:
    """A session as last saved: the snapshot with its journal replayed (read-only, no lock).
    ``text``: the snapshot's content when the caller has read it already. ``prune``: takes
    out, in place, what the caller will not read, before the rest is validated."""
    doc, _, _ = _read_document(path, text)
    if prune is not None:
        prune(doc)
    return _validate(doc, source=str(path))
