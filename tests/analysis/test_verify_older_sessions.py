"""A session recorded by an earlier version still verifies.

``data/recorded_before_memory_of_asking.json`` was written by the tool at commit f64cc2a
(offline batch, persona hedging, 6 turns), before the memory of asking, the new signals
(``llm.answer_kind``, ``technique.node.probe_history``) and the moderator's rules existed.
Its methodology snapshot has none of the new switches, so the replay must decide exactly as
recorded; signals and tracker fields a later version adds are not differences.
"""

from __future__ import annotations

import json
from pathlib import Path

from interview_cli.analysis.replay.verify import verify_session
from interview_cli.analysis.replay.whatif import what_if
from interview_cli.config.loader import load_methodology
from interview_cli.session.read import read_session_file

ROOT = Path(__file__).resolve().parents[2]
OLD = Path(__file__).parent / "data" / "recorded_before_memory_of_asking.json"
# Written at commit 591a8b3 (offline batch, dev persona label_sceptic_teacher, 8 turns), before
# the 'returnable' probe history, the wider knowledge ceiling and return after 2 turns: its
# /why rationales quote the signal catalogue's descriptions of that day.
BEFORE_RETURN = Path(__file__).parent / "data" / "recorded_before_the_return_signal.json"
# Written at commit 6ec1104 (offline batch, dev7 persona girlfriends_box_stoke_lad on
# meal_kit_mec, seed 5, 8 turns), before the breadth check after a ladder's end, the starts
# that wait their turn and "nothing else" counted as a short answer.
BEFORE_BREADTH = Path(__file__).parent / "data" / "recorded_before_breadth.json"


def test_a_session_recorded_before_the_new_signals_verifies() -> None:
    result = verify_session(read_session_file(OLD))
    assert result.ok, result.mismatches[:3]
    assert result.turns_checked >= 5


def test_an_edited_recorded_signal_of_that_session_is_still_a_difference(tmp_path: Path) -> None:
    doc = json.loads(OLD.read_text(encoding="utf-8"))
    turn = doc["turns"][2]
    name = next(k for k, v in turn["signals"].items() if isinstance(v, int | float) and v)
    turn["signals"][name] = -1
    edited = tmp_path / OLD.name
    edited.write_text(json.dumps(doc), encoding="utf-8")
    result = verify_session(read_session_file(edited))
    assert not result.ok
    assert any(m.field == f"signals[{name}]" for m in result.mismatches)


def test_a_session_recorded_before_the_return_signal_verifies() -> None:
    result = verify_session(read_session_file(BEFORE_RETURN))
    assert result.ok, result.mismatches[:3]
    assert result.turns_checked >= 6


def test_a_session_recorded_before_breadth_before_the_second_climb_verifies() -> None:
    session = read_session_file(BEFORE_BREADTH)
    result = verify_session(session)
    assert result.ok, result.mismatches[:3]
    assert result.turns_checked == 8
    # today's methodology would have decided otherwise (it asks what else matters where the
    # recorded one did not): the snapshot is what replays
    today = load_methodology(ROOT / "methodologies" / "means_end_chain.yaml").value
    changed = what_if(session, today).changed
    assert any(
        row.alternative is not None
        and row.alternative.strategy == "explore"
        and row.recorded.strategy != "explore"
        for row in changed
    )
