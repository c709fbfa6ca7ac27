"""Reading session files for analysis: read-only, one clear line per bad file.

Analysis never writes a session file and never takes a session's lock: a replay or a report
can run while an interview is in progress, and a bad file is reported, not repaired. Files are
parsed by ``session.read.read_session_file`` (the same schema check, migrations, journal replay
and one-line errors as ``run --resume``), and the methodology and concept are taken from the
session's own YAML snapshots (ARCHITECTURE principle 3: a replay uses the weights the
interview ran with, even on a machine whose library has since changed). A report reads many
sessions at once, so it keeps of each only what it reads (``ReportPruner``).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from interview_cli.config.files import read_user_bytes, read_user_text, session_files
from interview_cli.config.schemas import RECORDED, Concept, Methodology
from interview_cli.config.tuning import Tuning
from interview_cli.config.yamlio import YAMLError, load_yaml
from interview_cli.core.graph.knowledge import DISOWNED, KnowledgeGraph
from interview_cli.core.graph.node_link import from_json
from interview_cli.errors import SessionFileError, UsageError
from interview_cli.pipeline.inputs import recorded_methodology
from interview_cli.session.read import read_session_file
from interview_cli.session.schema import SessionFile
from interview_cli.session.store import SessionStore

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
    # The session files found, read or skipped: a skipped one that looks like a session (newer
    # schema, truncated) is still somebody's interview, so ``--out`` must not overwrite it
    # either. (A skipped file that is no session at all, such as last run's report.json, may
    # be overwritten.)
    files: list[Path] = field(default_factory=list)


def read_session(path: Path) -> SessionFile:
    """Parse one session file; every failure is a one-line ``SessionFileError`` (exit 2)."""
    return read_session_file(path, _read_text(path))


def _read_text(path: Path) -> str:
    # Regular files only, bounded, UTF-8: `replay /dev/zero` or a FIFO is refused at once.
    return read_user_text(path)


def said_graph(session: SessionFile, source: str | None = None) -> KnowledgeGraph:
    """The session's graph as a report counts it: without what the respondent took back
    ("that was a joke": a node disowned, confidence 0) and its links. Exports keep every
    node; a report's codes, ladders and value map are what the respondent stands by."""
    data = session.graph
    gone = {n.get("id") for n in data.get("nodes") or [] if n.get("confidence") == DISOWNED}
    if not gone:
        return session_graph(session, source)
    kept = {
        **data,
        "nodes": [n for n in data["nodes"] if n.get("id") not in gone],
        "links": [
            e
            for e in data.get("links") or []
            if e.get("source") not in gone and e.get("target") not in gone
        ],
    }
    return session_graph(session.model_copy(update={"graph": kept}), source)


def session_graph(session: SessionFile, source: str | None = None) -> KnowledgeGraph:
    """The session's knowledge graph (empty when it has none); a graph edited into something
    else is one ``SessionFileError`` line naming the session (or ``source``), not a crash."""
    if not session.graph.get("nodes"):
        return KnowledgeGraph()
    try:
        return from_json(session.graph)
    except ValueError as exc:
        raise SessionFileError(
            f"{source or f'session {session.id}'}: its graph cannot be read ({exc}); "
            "was the file edited by hand?"
        ) from None


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


# Telling a session file from anything else without trusting it to parse. Every session
# document this tool writes starts with its schema_version (the first field of
# ``SessionFile``), so the first few KB decide, also for a file truncated by a crash or a
# full disk. A complete file whose keys another tool reordered (``jq -S``) is parsed instead,
# up to a size no session reaches; a bigger file is judged by its head alone.
SNIFF_BYTES = 4096
PARSE_LIMIT = 64 * 1024 * 1024
SESSION_MARK = '"schema_version"'


def _starts_like_session(text: str) -> bool:
    return SESSION_MARK in text[:SNIFF_BYTES]


def looks_like_session_file(path: Path) -> bool:
    """Whether the existing file ``path`` is, or was meant to be, a session (``OSError``).
    Read through the bounded reader: a FIFO or a device is no session, and is never waited on
    or read without end."""
    try:
        head = read_user_bytes(
            path, limit=SNIFF_BYTES, what="session file", error=SessionFileError, head=True
        )
        if _starts_like_session(head.decode("utf-8", errors="replace")):
            return True
        if len(head) < SNIFF_BYTES:
            data = head
        elif path.stat().st_size > PARSE_LIMIT:
            return False
        else:
            data = read_user_bytes(
                path, limit=PARSE_LIMIT, what="session file", error=SessionFileError
            )
    except SessionFileError:  # not a regular file, or gone
        return False
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):  # not JSON, or not UTF-8 text: no session
        return False
    return isinstance(doc, dict) and "schema_version" in doc


def refuse_overwriting_sessions(outputs: Iterable[Path], inputs: Iterable[Path]) -> None:
    """Exit 2 before anything is written when an output file is, or looks like, a session.

    ``--out`` pointed at a session would replace the interview with a report or an export:
    data loss that no later command can undo. Two checks, so that no interview is overwritten:

    * one of the inputs, compared by file identity (``os.path.samefile``: other spellings,
      symlinks, hard links) and by resolved path, since ``missing/../a.json`` does not "exist"
      until the writer creates ``missing/`` - and then it is ``a.json``;
    * any other existing file that :func:`looks_like_session_file`: another session, one this
      version cannot read, or a truncated one. A file that cannot be read is refused too, as
      it cannot be cleared.

    Anything else may be replaced, such as last run's report.json beside the sessions.
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
        if not out.is_file():
            continue
        try:
            session = looks_like_session_file(out)
        except OSError as exc:
            raise UsageError(
                f"--out {out} exists and cannot be read to check it is not a session file "
                f"({exc.strerror}); choose another output file"
            ) from None
        if session:
            raise UsageError(
                f"--out {out} is a session file; choose another output file (writing there "
                "would overwrite the interview)"
            )


# What a report keeps of each turn. The rest of a turn record is the core's working data
# (signals, every scored candidate, model calls): most of a session's size, and read only by
# replay and verify, which load one session at a time. The question card reads how the answers
# before a question were taken (its assessment, what its extraction and the graph refused or
# added), so those stay; the extraction's nodes and edges are the graph's already.
REPORT_TURN_FIELDS = frozenset(
    {"turn_number", "status", "question", "answer", "decision", "continuation"}
    | {"assessment", "extraction", "graph_delta"}
)
REPORT_EXTRACTION_DROPS = ("nodes", "edges")
# The same for the session itself: the resume state (tracker, core state, opening calls),
# but for the stimulus elements' coverage (``state.coverage``: reactions, raised elements).
REPORT_DROPS = ("tracker", "opening_calls")
REPORT_STATE_FIELDS = frozenset({"coverage"})


class ReportPruner:
    """Takes out of a session document, before it is validated, what no report reads.

    A report over many sessions then keeps little more than their graphs in memory, and does
    not spend its time validating records it would drop. Snapshot texts are shared between
    sessions that carry the same one (a batch's sessions all carry the same methodology YAML).
    What is left is validated as strictly as ever; the parts taken out are not looked at.
    """

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}

    def __call__(self, doc: dict[str, Any]) -> None:
        for name in REPORT_DROPS:
            doc.pop(name, None)
        state = doc.get("state")
        if isinstance(state, dict):
            doc["state"] = {k: v for k, v in state.items() if k in REPORT_STATE_FIELDS}
        turns = doc.get("turns")
        if isinstance(turns, list):
            for turn in turns:
                if isinstance(turn, dict):
                    for key in [k for k in turn if k not in REPORT_TURN_FIELDS]:
                        del turn[key]
                    extraction = turn.get("extraction")
                    if isinstance(extraction, dict):
                        for key in REPORT_EXTRACTION_DROPS:
                            extraction.pop(key, None)
        for name in ("methodology", "concept"):
            snap = doc.get(name)
            if isinstance(snap, dict) and isinstance(snap.get("source"), str):
                snap["source"] = self.texts.setdefault(snap["source"], snap["source"])


def collect(refs: Sequence[str], store: SessionStore, *, for_report: bool = False) -> Collected:
    """Sessions named by ids, files or directories (every ``*.json`` below, recursively).

    A file named explicitly must be a valid session (else its error ends the command, exit 2);
    a file found while walking a directory is skipped with a note instead, so that a batch
    directory holding a summary JSON next to its sessions still reports. The same file given
    twice is read once. ``for_report``: each session is kept as :class:`ReportPruner` leaves
    it, as it is read, so memory grows with what the report needs, not with the files' size.
    """
    out = Collected()
    seen: set[Path] = set()
    prune = ReportPruner() if for_report else None

    def add(path: Path, *, strict: bool) -> None:
        key = path.resolve()
        if key in seen:
            return
        seen.add(key)
        text: str | None = None
        try:
            text = _read_text(path)
            session = read_session_file(path, text, prune=prune)
            session_graph(session, str(path))  # a graph no report could draw: said here
            out.sources.append(SessionSource(session, path))
        except SessionFileError as exc:
            if strict:
                raise
            out.skipped.append(exc.message)
            # Judged on the text already read, not by parsing: a truncated session does not
            # parse, and is still somebody's interview.
            if text is not None and _starts_like_session(text):
                out.files.append(path)
        else:
            out.files.append(path)

    for ref in refs:
        candidate = Path(ref)
        if candidate.is_dir():
            files = session_files(candidate)
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


# Parsed snapshots by (model, sha256 of the text). A report over hundreds of sessions reads
# the same few methodology texts again and again; parsing YAML was most of its time. The
# models are frozen, so sharing one parsed value between sessions is safe. Bounded: a long
# process that reads many distinct snapshots keeps only the most recent.
_PARSED: dict[tuple[type, str], Methodology | Concept] = {}
_PARSED_MAX = 64


def _snapshot(text: str, model: type[M], what: str, session: SessionFile) -> M:
    if not text.strip():
        raise SessionFileError(
            f"session {session.id}: no {what} snapshot (source) recorded, so it cannot be replayed"
        )
    key = (model, hashlib.sha256(text.encode("utf-8")).hexdigest())
    cached = _PARSED.get(key)
    if cached is not None:
        return cached  # type: ignore[return-value]
    try:
        parsed = model.model_validate(load_yaml(text), context=RECORDED)
    except (YAMLError, ValidationError, TypeError) as exc:
        raise SessionFileError(
            f"session {session.id}: its {what} snapshot no longer loads "
            f"({type(exc).__name__}); was the file edited by hand?"
        ) from None
    if len(_PARSED) >= _PARSED_MAX:
        _PARSED.pop(next(iter(_PARSED)))
    _PARSED[key] = parsed
    return parsed


def snapshot_methodology(session: SessionFile) -> Methodology:
    """The methodology the session ran with, from the YAML text and the tuning it recorded."""
    snap = session.methodology
    parsed = _snapshot(snap.source, Methodology, "methodology", session)
    if not snap.tuning:
        return parsed
    tuning = json.dumps(snap.tuning, sort_keys=True)
    key = (Tuning, hashlib.sha256(f"{snap.source}\0{tuning}".encode()).hexdigest())
    cached = _PARSED.get(key)
    if isinstance(cached, Methodology):
        return cached
    resolved = recorded_methodology(snap, "methodology", session.id, parsed)
    if len(_PARSED) >= _PARSED_MAX:
        _PARSED.pop(next(iter(_PARSED)))
    _PARSED[key] = resolved
    return resolved


def snapshot_concept(session: SessionFile) -> Concept:
    return _snapshot(session.concept.source, Concept, "concept", session)


def methodology_groups(sources: Iterable[SessionSource]) -> dict[str, list[SessionSource]]:
    """Sessions grouped by methodology name, in first-seen order."""
    groups: dict[str, list[SessionSource]] = {}
    for source in sources:
        groups.setdefault(source.session.methodology.name, []).append(source)
    return groups
