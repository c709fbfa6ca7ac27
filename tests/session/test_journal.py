"""The session journal: saves append what changed; loading replays it onto the snapshot,
through crashes at every point between the two and a torn last line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from interview_cli.analysis.sources import read_session
from interview_cli.errors import SessionFileError
from interview_cli.session import journal as store_journal
from interview_cli.session.read import read_session_file
from interview_cli.session.schema import (
    AnswerRecord,
    CandidateRecord,
    QuestionRecord,
    SessionFile,
    TurnRecord,
)
from interview_cli.session.store import JOURNAL_FACTOR, MIN_JOURNAL_BYTES, SessionStore
from tests.session.test_store import make_session


def add_turn(session: SessionFile, n: int, *, complete: bool = True) -> None:
    session.turns.append(
        TurnRecord(
            turn_number=n,
            status="complete" if complete else "answered",
            question=QuestionRecord(text=f"Q{n}"),
            answer=AnswerRecord(utterance_id=f"u{n:03d}", text=f"answer {n} — ü"),
            candidates=[{"strategy": "deepen", "final_score": n / 3}],
        )
    )
    session.graph.setdefault("nodes", []).append({"id": f"n{n}", "label": f"thing {n}"})
    session.state["turn_count"] = n


def same(a: SessionFile, b: SessionFile) -> bool:
    strip = {"updated_at"}
    return a.model_dump(mode="json", exclude=strip) == b.model_dump(mode="json", exclude=strip)


def started(tmp_path: Path) -> tuple[SessionStore, SessionFile, Path]:
    store = SessionStore(tmp_path)
    session = make_session()
    path = store.save(session)  # a new session: the first save is a snapshot
    return store, session, path


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ({"a": 1, "b": [1, 2]}, {"a": 2, "b": [1, 2, 3], "c": None}),
        ({"a": {"x": [1, {"y": 2}]}}, {"a": {"x": [1, {"y": 3, "z": [4]}]}}),
        ({"a": [1, 2, 3], "gone": 1}, {"a": [1]}),
        ({"a": [1, 2]}, {"a": {"now": "a dict"}}),
        ({"a": 1.5}, {"a": 1}),  # 1.5 -> 1 is a change of type, not of value only
    ],
)
def test_diff_then_apply_gives_the_new_document(old: dict[str, Any], new: dict[str, Any]) -> None:
    ops = store_journal.diff(old, new)
    copy = json.loads(json.dumps(old))
    assert store_journal.apply(copy, json.loads(json.dumps(ops))) == new


def test_saves_of_an_active_session_append_only_what_changed(tmp_path: Path) -> None:
    store, session, path = started(tmp_path)
    snapshot = path.read_bytes()
    journal = store_journal.journal_path(path)
    sizes = []
    for n in range(1, 31):
        add_turn(session, n, complete=False)
        store.save(session)  # the answer, before any processing
        session.turns[-1].status = "complete"
        store.save(session)
        sizes.append(journal.stat().st_size)
    assert path.read_bytes() == snapshot  # no rewrite while the journal is small
    growth = [b - a for a, b in zip(sizes, sizes[1:], strict=False)]
    assert max(growth) < 2 * min(growth)  # a save costs the same at turn 30 as at turn 2
    assert same(read_session_file(path), session)
    assert same(SessionStore(tmp_path).load(session.id), session)
    assert same(read_session(path), session)  # what replay, report and export read


def test_pausing_writes_one_self_contained_file(tmp_path: Path) -> None:
    store, session, path = started(tmp_path)
    add_turn(session, 1)
    store.save(session)
    assert store_journal.journal_path(path).exists()
    session.status = "paused"
    store.save(session)
    assert not store_journal.journal_path(path).exists()
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert list(doc)[0] == "schema_version"  # sessions are recognised by their first key
    assert doc["status"] == "paused" and len(doc["turns"]) == 1


def test_crash_after_the_journal_append_before_any_snapshot(tmp_path: Path) -> None:
    store, session, path = started(tmp_path)
    add_turn(session, 1)
    store.save(session)
    add_turn(session, 2, complete=False)
    store.save(session)
    # The process dies here: a new process reads the old snapshot plus the journal.
    resumed = SessionStore(tmp_path).load(session.id)
    assert [t.status for t in resumed.turns] == ["complete", "answered"]
    assert same(resumed, session)


def test_crash_between_the_snapshot_and_removing_the_journal(tmp_path: Path) -> None:
    store, session, path = started(tmp_path)
    for n in (1, 2):
        add_turn(session, n)
        store.save(session)
    journal = store_journal.journal_path(path)
    kept = tmp_path / "journal-before-snapshot"
    shutil.copy(journal, kept)
    session.status = "paused"
    store.save(session)  # snapshot written, journal removed ...
    shutil.copy(kept, journal)  # ... but the crash came before the removal reached the disk
    again = SessionStore(tmp_path)
    with again.lock(session.id):
        loaded = again.load(session.id)
        assert same(loaded, session)  # the old lines are in the snapshot: not applied twice
        assert len(loaded.turns) == 2
        # The next writer goes on from there, and what it appends is read back.
        loaded.status = "active"
        add_turn(loaded, 3)
        again.save(loaded)
        assert journal.read_bytes().count(b"\n") == 3  # appended to the left-over lines
        assert same(read_session_file(path), loaded)


def test_a_torn_last_line_is_ignored_and_cut_off_by_the_next_writer(tmp_path: Path) -> None:
    store, session, path = started(tmp_path)
    add_turn(session, 1)
    store.save(session)
    before = session.model_copy(deep=True)
    journal = store_journal.journal_path(path)
    with journal.open("ab") as fh:
        fh.write(b'{"seq": 2, "ops": [["set", ["status"], "pau')  # killed mid-write
    loaded = SessionStore(tmp_path).load(session.id)
    assert same(loaded, before)
    writer = SessionStore(tmp_path)
    with writer.lock(session.id):
        session = writer.load(session.id)
        add_turn(session, 2)
        writer.save(session)
    assert b"pau" not in journal.read_bytes()
    assert same(read_session_file(path), session)


def test_a_complete_last_line_without_its_newline_was_never_acknowledged(tmp_path: Path) -> None:
    store, session, path = started(tmp_path)
    add_turn(session, 1)
    store.save(session)
    journal = store_journal.journal_path(path)
    journal.write_bytes(journal.read_bytes().rstrip(b"\n"))
    assert read_session_file(path).turns == []


def test_a_damaged_line_before_the_last_is_one_clear_error(tmp_path: Path) -> None:
    store, session, path = started(tmp_path)
    for n in (1, 2):
        add_turn(session, n)
        store.save(session)
    journal = store_journal.journal_path(path)
    lines = journal.read_bytes().split(b"\n")
    journal.write_bytes(b"\n".join([b"{garbage", *lines[1:]]))
    with pytest.raises(SessionFileError, match="line 1 is damaged") as info:
        read_session_file(path)
    assert "\n" not in str(info.value)


def test_files_without_a_journal_read_as_before(tmp_path: Path) -> None:
    session = make_session()
    add_turn(session, 1)
    path = tmp_path / f"{session.id}.json"
    path.write_text(session.model_dump_json(indent=1), encoding="utf-8")  # no journal_seq
    assert same(read_session_file(path), session)
    store = SessionStore(tmp_path)
    with store.lock(session.id):
        loaded = store.load(session.id)
        add_turn(loaded, 2)
        store.save(loaded)  # the first save after an old file: a journal line
    assert store_journal.journal_path(path).exists()
    assert same(read_session_file(path), loaded)


def test_the_snapshot_is_rewritten_once_the_journal_outgrows_it(tmp_path: Path) -> None:
    store, session, path = started(tmp_path)
    journal = store_journal.journal_path(path)
    rewritten = 0
    last = path.stat().st_mtime_ns, path.stat().st_size
    for n in range(1, 80):
        add_turn(session, n)
        session.turns[-1].candidates = [CandidateRecord(strategy="filler", filler="x" * 8000)]
        store.save(session)
        now = path.stat().st_mtime_ns, path.stat().st_size
        rewritten += now != last
        last = now
        limit = max(JOURNAL_FACTOR * path.stat().st_size, MIN_JOURNAL_BYTES) + 20_000
        assert not journal.exists() or journal.stat().st_size <= limit
    assert 1 <= rewritten <= 6  # geometric: the total written stays a few times the file
    assert same(read_session_file(path), session)


def test_a_change_to_the_last_complete_turn_reaches_the_journal(tmp_path: Path) -> None:
    # The last complete turn may still change after it was saved (a moderator overrules its
    # decision, its slot call settles into it while the next answer is read): an active
    # session's journal save must carry that, not only the snapshot at the pause.
    store, session, path = started(tmp_path)
    add_turn(session, 1)
    add_turn(session, 2)
    store.save(session)
    add_turn(session, 3, complete=False)
    store.save(session)
    session.turns[1].failures.append("late slot call settled")
    session.turns[0].failures.append("an older turn is not re-read")
    store.save(session)
    assert path.with_suffix(".journal").exists()
    turns = read_session_file(path).turns
    assert turns[1].failures == ["late slot call settled"]
