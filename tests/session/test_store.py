"""Session files: atomic writes, locks, id safety, versions and migrations, clear errors."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from interview_cli.errors import SessionFileError, SessionLockedError, UsageError
from interview_cli.llm.protocol import LLMCall
from interview_cli.session.read import parse_session
from interview_cli.session.schema import (
    SCHEMA_VERSION,
    AnswerRecord,
    ClientChoice,
    ConceptSnapshot,
    MethodologySnapshot,
    QuestionRecord,
    SessionFile,
    SessionSettings,
    TurnRecord,
)
from interview_cli.session.store import SessionStore, write_atomic


def make_session(session_id: str = "s-1") -> SessionFile:
    return SessionFile(
        id=session_id,
        concept=ConceptSnapshot(id="c", name="C", objective="o", methodology="m"),
        methodology=MethodologySnapshot(name="m", version="1", sha256="x" * 64),
        settings=SessionSettings(
            max_turns=5, clients={"extraction": ClientChoice(provider="offline", model="h")}
        ),
        pending_question=QuestionRecord(text="What matters?", kind="opening"),
    )


def test_round_trip_and_turn_bookkeeping(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    session = make_session()
    session.turns.append(
        TurnRecord(
            turn_number=1,
            question=QuestionRecord(text="Q1"),
            answer=AnswerRecord(utterance_id="u1", text="A1 — ünïcødé 你好"),
        )
    )
    session.usage.add(
        LLMCall(task="extract", provider="offline", model="h", input_tokens=5, output_tokens=7)
    )
    path = store.save(session)
    assert path == (tmp_path / "s-1.json").resolve()
    loaded = store.load("s-1")
    assert loaded.turns[0].answer.text == "A1 — ünïcødé 你好"
    assert loaded.turn_count == 0  # answered, not yet complete
    assert loaded.usage.by_task["extract"]["output_tokens"] == 7
    assert loaded.updated_at
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_unknown_keys_survive_a_rewrite(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    doc = json.loads(make_session().model_dump_json())
    doc["future_field"] = {"kept": True}
    (tmp_path / "s-1.json").write_text(json.dumps(doc))
    store.save(store.load("s-1"))
    assert json.loads((tmp_path / "s-1.json").read_text())["future_field"] == {"kept": True}


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "not valid JSON at line 1"),
        ('{"id": "x", "turns": [', "truncated"),
        ('{"id": "x", "turns": [{"answer": "half a sent', "truncated"),
        ("[1, 2]", "not an interview session file"),
        ('{"hello": 1}', "not an interview session file"),
        ('{"id": "x", "turns": [], "schema_version": 99}', "schema_version 99 is newer"),
        ('{"id": "x", "turns": [], "schema_version": "one"}', "schema_version is missing"),
        ('{"id": "x", "turns": [], "schema_version": 1}', "concept: Field required"),
    ],
)
def test_bad_files_give_one_clear_line(tmp_path: Path, content: str, expected: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(SessionFileError) as info:
        SessionStore(tmp_path).load(str(path))
    assert expected in str(info.value)
    assert "\n" not in str(info.value)
    assert path.read_text() == content  # nothing modified


def test_version_zero_migrates(tmp_path: Path) -> None:
    doc = json.loads(make_session().model_dump_json())
    doc["schema_version"] = 0
    doc["knowledge_graph"] = doc.pop("graph") | {"nodes": [{"id": "n1"}]}
    doc["turn_count"] = 3
    session = parse_session(json.dumps(doc), source="old.json")
    assert session.schema_version == SCHEMA_VERSION
    assert session.graph["nodes"] == [{"id": "n1"}]


@pytest.mark.parametrize("bad", ["../escape", "a/b", "", ".hidden", "x" * 200, "a b"])
def test_ids_cannot_escape_the_directory(tmp_path: Path, bad: str) -> None:
    with pytest.raises(UsageError):
        SessionStore(tmp_path).path_for(bad)


@pytest.mark.parametrize("target", ["elsewhere/s.json", "sessions/real.json"])
def test_a_link_in_place_of_a_session_file_is_never_written_through(
    tmp_path: Path, target: str
) -> None:
    home, elsewhere = tmp_path / "sessions", tmp_path / "elsewhere"
    home.mkdir()
    elsewhere.mkdir()
    (tmp_path / target).write_text("precious")
    (home / "s-1.json").symlink_to(tmp_path / target)
    store = SessionStore(home)
    assert store.path_for("s-1") == home.resolve() / "s-1.json"
    with pytest.raises(SessionFileError, match="is a symbolic link to .*written only where it is"):
        store.save(make_session("s-1"))
    with pytest.raises(SessionFileError, match="is a symbolic link"):
        with store.lock("s-1"):
            pass
    assert (tmp_path / target).read_text() == "precious"
    # No lock, no journal, no temporary file.
    assert {p.name for p in home.iterdir()} <= {"s-1.json", "real.json"}


def test_a_linked_sessions_directory_is_followed(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    assert SessionStore(tmp_path / "link").path_for("s-1") == (tmp_path / "real" / "s-1.json")


def test_a_path_costs_one_lstat_not_one_per_component(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch asks for a session's path several times a turn."""
    deep = tmp_path / "a" / "b" / "c" / "sessions"
    deep.mkdir(parents=True)
    store = SessionStore(deep)
    store.path_for("warm")  # the directory is resolved once
    calls = []
    real = os.lstat

    def counting(path: object, *args: object, **kwargs: object) -> os.stat_result:
        calls.append(path)
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "lstat", counting)
    for n in range(10):
        store.path_for(f"s-{n}")
    assert len(calls) <= 10


def test_missing_session_names_known_ones(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    store.save(make_session("known-1"))
    with pytest.raises(SessionFileError, match="known-1"):
        store.load("nope")


def test_second_lock_is_refused_with_the_holder(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    with store.lock("s-1") as lock_path:
        assert lock_path.exists()
        with pytest.raises(SessionLockedError, match=f"process {os.getpid()}"):
            with store.lock("s-1"):
                pass
    assert not lock_path.exists()


def test_stale_lock_of_a_dead_process_is_taken_over(tmp_path: Path) -> None:
    import socket

    store = SessionStore(tmp_path)
    lock = tmp_path / "s-1.lock"
    # A pid far above pid_max cannot be alive.
    lock.write_text(json.dumps({"pid": 2**30, "host": socket.gethostname(), "since": "x"}))
    with store.lock("s-1"):
        assert json.loads(lock.read_text())["pid"] == os.getpid()


def test_write_atomic_never_leaves_partial_content(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "f.json"
    target.write_text("old")

    def boom(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        write_atomic(target, "new content")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.json"]


def test_taking_the_lock_removes_temp_files_a_killed_writer_left(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    store.save(make_session("s-1"))
    store.save(make_session("s-10"))
    # What a writer killed between writing its temporary file and renaming it leaves behind.
    orphan = tmp_path / ".s-1.json.2147483000.a1b2c3.tmp"
    orphan.write_text('{"half": ')
    other_session = tmp_path / ".s-10.json.2147483000.d4e5f6.tmp"
    other_session.write_text("{}")

    with store.lock("s-1"):
        assert not orphan.exists()
        store.save(make_session("s-1"))  # the holder's own saves work as before
    assert other_session.exists()  # another session's files are that session's writer's business
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".s-10.json.2147483000.d4e5f6.tmp",
        "s-1.json",
        "s-10.json",
    ]
