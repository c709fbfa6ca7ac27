"""Schema 2: the stimulus a concept test showed is recorded; older files migrate to it, and
records of a question or decision about no element keep the shape they had."""

from __future__ import annotations

import json

from interview_cli.session.read import MIGRATIONS, parse_session
from interview_cli.session.schema import (
    SCHEMA_VERSION,
    ConceptSnapshot,
    DecisionRecord,
    MethodologySnapshot,
    QuestionRecord,
    SessionFile,
    SessionSettings,
    StimulusRecord,
)


def session() -> SessionFile:
    return SessionFile(
        id="s-1",
        concept=ConceptSnapshot(id="c", name="C", objective="o", methodology="m"),
        methodology=MethodologySnapshot(name="m", version="1", sha256="x" * 64),
        settings=SessionSettings(max_turns=5),
    )


def test_a_version_one_file_migrates_to_no_stimulus_shown() -> None:
    doc = json.loads(session().model_dump_json())
    doc["schema_version"] = 1
    del doc["stimulus"]
    migrated = parse_session(json.dumps(doc), source="old.json")
    assert SCHEMA_VERSION >= 2 and 1 in MIGRATIONS
    assert migrated.schema_version == SCHEMA_VERSION and migrated.stimulus is None
    assert json.loads(migrated.model_dump_json())["stimulus"] is None


def test_the_stimulus_shown_round_trips() -> None:
    shown = session()
    shown.stimulus = StimulusRecord(text="Latchwise.", image="lock.png", shown_at="t")
    again = parse_session(shown.model_dump_json(), source="new.json")
    assert again.stimulus == shown.stimulus


def test_records_about_no_element_keep_their_shape() -> None:
    question = QuestionRecord(text="Why?", strategy="deepen", focus_node_id="n1")
    assert "focus_element_id" not in question.model_dump(mode="json")
    raised = QuestionRecord(text="What do you make of it?", focus_element_id="price")
    assert raised.model_dump(mode="json")["focus_element_id"] == "price"
    decision = DecisionRecord(strategy="deepen", node_id="n1")
    assert "element_id" not in decision.model_dump(mode="json")
    assert DecisionRecord(strategy="cover_element", element_id="price").model_dump()["element_id"]
