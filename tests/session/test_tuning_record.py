"""Schema 3: a session records the tuning it ran under, every field explicit; an older file is
stamped with the habits its methodology YAML did not turn on, so it replays as it was decided
while every new session follows them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interview_cli.analysis.replay.verify import verify_session
from interview_cli.analysis.sources import snapshot_methodology
from interview_cli.config.library import Library
from interview_cli.config.tuning import RETIRED, Habit, Tuning
from interview_cli.errors import SessionFileError
from interview_cli.llm.settings import offline_settings
from interview_cli.pipeline.setup import new_session
from interview_cli.session.read import parse_session, read_session_file
from interview_cli.session.schema import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "analysis" / "data"
# Recorded before the memory of asking and the other habits: its YAML sets none of them.
BEFORE_HABITS = DATA / "recorded_before_memory_of_asking.json"
# Recorded with the laddering methodology of its day, which switched on the memory of asking,
# the breadth check before a stop and the answered why, but not the habits written later.
BEFORE_RETURN = DATA / "recorded_before_the_return_signal.json"


def test_a_new_session_records_every_tuning_field_and_no_habit_left_out() -> None:
    lib = Library.discover(cwd=ROOT)
    for name, concept in (("customer_journey", "grocery_delivery_journey"),):
        session = new_session(
            session_id="t-1",
            concept=lib.concept(concept),
            methodology=lib.methodology(name),
            settings=offline_settings(),
            max_turns=8,
        )
        recorded = session.methodology.tuning
        assert set(recorded) == set(Tuning.model_fields)
        assert set(recorded["vetoes"]) == set(Tuning().vetoes.model_dump())
        assert recorded["ran_without"] == []
        again = parse_session(session.model_dump_json(), source="new.json")
        assert again.methodology.tuning == recorded
        assert all(snapshot_methodology(again).tuning.follows(h) for h in Habit)


def migrated(path: Path) -> dict[str, Any]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["schema_version"] < 3
    session = parse_session(json.dumps(doc), source=path.name)
    assert session.schema_version == SCHEMA_VERSION
    return session.methodology.tuning


def test_an_older_file_is_stamped_with_the_habits_its_yaml_did_not_turn_on() -> None:
    assert set(migrated(BEFORE_HABITS)["ran_without"]) == {h.value for h in Habit}
    # the switches of its day that were on are followed; the ones written later are not
    assert set(migrated(BEFORE_RETURN)["ran_without"]) == {
        Habit.ASK_THE_LAST_TURN,
        Habit.DOUBTFUL_FOCUS,
        Habit.RETURN_SIGNAL,
        Habit.LITTLE_TO_SAY_BREADTH_SPENT,
        # its YAML did not say 'little_to_say_hesitation_empty: false': a hesitation was empty
        Habit.HESITATION_IS_AN_ANSWER,
    }
    # a method choice its YAML set stays as it was set
    assert migrated(BEFORE_RETURN)["saturation"]["probe_attributes_before_stop"] is True


def test_the_stamp_is_what_keeps_an_older_session_verifying(tmp_path: Path) -> None:
    verified = verify_session(read_session_file(BEFORE_HABITS))
    assert verified.ok
    assert any(n.startswith("recorded before these were habits") for n in verified.notes)
    # the same file as if it had been recorded with today's habits: its decisions differ
    doc = json.loads(BEFORE_HABITS.read_text(encoding="utf-8"))
    session = parse_session(json.dumps(doc), source="old.json")
    session.methodology.tuning["ran_without"] = []
    today = tmp_path / BEFORE_HABITS.name
    today.write_text(session.model_dump_json(), encoding="utf-8")
    result = verify_session(read_session_file(today))
    assert not result.ok
    assert any(m.turn > 0 for m in result.mismatches)


def test_a_fork_origins_snapshot_is_stamped_too() -> None:
    doc = json.loads(BEFORE_HABITS.read_text(encoding="utf-8"))
    origin = dict(doc["methodology"])
    doc["fork"] = {
        "session_id": "o",
        "turn": 2,
        "earlier": [{"until_turn": 2, "methodology": origin}],
    }
    session = parse_session(json.dumps(doc), source="fork.json")
    assert session.fork is not None and session.fork.earlier[0].methodology is not None
    stamped = session.fork.earlier[0].methodology.tuning
    assert set(stamped["ran_without"]) == {h.value for h in Habit}


def test_a_hand_edited_recorded_tuning_is_one_line_naming_the_field() -> None:
    session = read_session_file(BEFORE_HABITS)
    session.methodology.tuning["vetoes"]["fruitless_probe_limit"] = 0
    with pytest.raises(SessionFileError, match=r"tuning\.vetoes\.fruitless_probe_limit"):
        snapshot_methodology(session)


def test_every_retired_switch_is_a_habit_and_no_field() -> None:
    assert set(RETIRED) == set(Habit)
    for section, switch, _ in RETIRED.values():
        assert switch not in getattr(Tuning(), section).model_dump()
