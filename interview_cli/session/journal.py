"""The session journal: what changed since the last snapshot, one fsynced JSON line per save.

``<id>.journal`` sits beside ``<id>.json``. Each line is ``{"seq": N, "ops": [...]}``: the
changes one save made to the session document, as operations on JSON paths:

* ``["set", path, value]`` - set the key or list index at ``path`` (an index equal to the
  list's length appends);
* ``["del", path]`` - remove a key;
* ``["trunc", path, n]`` - cut the list at ``path`` to ``n`` items.

The snapshot records the last ``seq`` it contains (``journal_seq``); loading replays the
lines after it, in order. Lines at or below it are left over from a writer that died between
writing a snapshot and removing the journal, and are skipped. A last line without its newline
or that is not JSON is a write cut short by a crash: it was never acknowledged, so it is
ignored (the next writer cuts it off before appending). Anything else that does not parse is
a damaged file and is reported.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from interview_cli.config.files import MAX_SESSION_BYTES, open_own_file, read_user_bytes
from interview_cli.errors import SessionFileError

Op = list[Any]

# The snapshot is rewritten when the journal reaches JOURNAL_FACTOR times its size: the
# rewrites then grow geometrically, so all of them together cost a small multiple of the final
# file, and a load replays at most that much journal. Measured with benchmarks/storage.py
# (100 turns): factor 1 wrote 4.4 times the final size, factor 2 wrote 3.0 times.
JOURNAL_FACTOR = 2
# So no journal of a session the store accepts is bigger than this.
MAX_JOURNAL_BYTES = JOURNAL_FACTOR * MAX_SESSION_BYTES


def journal_path(session_path: Path) -> Path:
    return session_path.with_suffix(".journal")


def diff(old: Any, new: Any, path: tuple[Any, ...] = ()) -> list[Op]:
    """The operations that turn ``old`` into ``new`` (both JSON values)."""
    if type(old) is not type(new):
        return [["set", list(path), new]]
    if isinstance(new, dict):
        ops: list[Op] = [["del", [*path, k]] for k in old if k not in new]
        for key, value in new.items():
            if key not in old:
                ops.append(["set", [*path, key], value])
            elif old[key] != value:
                ops.extend(diff(old[key], value, (*path, key)))
        return ops
    if isinstance(new, list):
        ops = []
        if len(new) < len(old):
            ops.append(["trunc", list(path), len(new)])
        for index, value in enumerate(new):
            if index >= len(old):
                ops.append(["set", [*path, index], value])
            elif old[index] != value:
                ops.extend(diff(old[index], value, (*path, index)))
        return ops
    return [] if old == new else [["set", list(path), new]]


def apply(doc: dict[str, Any], ops: Sequence[Op]) -> dict[str, Any]:
    """Apply ``ops`` to ``doc`` in place (and return it); ``ValueError`` if one does not fit."""
    for op in ops:
        kind, path = op[0], op[1]
        if kind == "set" and not path:
            if not isinstance(op[2], dict):
                raise ValueError("the document must stay an object")
            doc.clear()
            doc.update(op[2])
            continue
        parent = _walk(doc, path[:-1])
        key = path[-1]
        if kind == "set":
            if isinstance(parent, list) and key == len(parent):
                parent.append(op[2])
            else:
                parent[key] = op[2]
        elif kind == "del":
            parent.pop(key, None)
        elif kind == "trunc":
            del _walk(doc, path)[op[2] :]
        else:
            raise ValueError(f"unknown operation {kind!r}")
    return doc


def _walk(doc: Any, path: Sequence[Any]) -> Any:
    node = doc
    for key in path:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            raise ValueError(f"no {'/'.join(map(str, path))} to change") from None
    return node


def read(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The journal's entries and the byte length of its valid part (a torn tail excluded).

    ``FileNotFoundError`` when there is no journal; ``ValueError`` naming the line when a
    line other than the last is damaged; ``SessionFileError`` for what is no journal (a link,
    a FIFO, a device, too big), refused before reading."""
    data = read_user_bytes(
        path,
        limit=MAX_JOURNAL_BYTES,
        what="session journal",
        error=SessionFileError,
        follow_symlinks=False,
        missing_ok=True,
    )
    entries: list[dict[str, Any]] = []
    valid = 0
    lines = data.split(b"\n")
    for number, raw in enumerate(lines, 1):
        last = number == len(lines)
        if not raw.strip():
            if not last:
                valid += len(raw) + 1
            continue
        try:
            entry = loads(raw)
            if not isinstance(entry, dict) or not isinstance(entry.get("seq"), int):
                raise ValueError("no seq")
        except (ValueError, RecursionError):
            if last or (number == len(lines) - 1 and not lines[-1]):
                break  # the write a crash cut short
            raise ValueError(f"line {number} is damaged") from None
        if last:
            break  # complete JSON but no newline: the crash came before the newline was written
        entries.append(entry)
        valid += len(raw) + 1
    return entries, valid


class NotANumber(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity`` in a session's JSON: Python's reader takes
    them, but no session holds one (a NaN cost would be carried on and then written as
    ``null``, which no later read accepts)."""


def _refuse_constant(name: str) -> Any:
    raise NotANumber(name)


def loads(text: str | bytes) -> Any:
    """JSON as a session file or a journal line must be: without NaN or Infinity."""
    return json.loads(text, parse_constant=_refuse_constant)


def open_for_append(path: Path) -> int:
    """A descriptor appending to the journal ``path`` (created private), never through a
    symbolic link: one planted there would receive the respondent's answers."""
    return open_own_file(path, os.O_WRONLY | os.O_APPEND, "a session journal")


def encode(seq: int, ops: list[Op]) -> bytes:
    return (
        json.dumps({"seq": seq, "ops": ops}, ensure_ascii=False, separators=(",", ":")) + "\n"
    ).encode("utf-8")
