"""The turn decides the safety response and the end reason, and fails closed: an answer with
no safety reading (the assessor failed, or wrote none) takes the careful path, never the safe
one."""

from __future__ import annotations

import pytest
from moderation_fixtures import CONCEPT, assessment, mec
from pydantic import ValidationError

from interview_cli.config.schemas import Methodology
from interview_cli.core.models import SAFETY_KINDS, Assessment, ExtractedNode, Extraction
from interview_cli.core.turn import (
    CoreState,
    SafetyDecision,
    TurnInput,
    TurnOutcome,
    advance,
    safety_response,
)
from interview_cli.llm.validation import validate_assessment

SAID = Extraction(
    extractable=True,
    nodes=[ExtractedNode(label="noise cancelling", node_type="attribute", quote="noise")],
)


def turn_with(reading: Assessment | None, methodology: Methodology | None = None) -> TurnOutcome:
    inputs = TurnInput(methodology or mec(), CONCEPT, SAID, reading, "u001", max_turns=8)
    return advance(CoreState.initial(CONCEPT), inputs)[1]


def test_no_concern_is_no_response_and_the_interview_goes_on() -> None:
    outcome = turn_with(assessment())
    assert outcome.safety is None and outcome.termination_reason is None


@pytest.mark.parametrize(
    ("kind", "action", "code"),
    [
        ("off_topic", "redirect", ""),
        ("distress", "pause", "paused_distress"),
        ("abuse", "end", "ended_abuse"),
        ("stop", "end", "stopped_by_respondent"),
        ("unchecked", "pause", "paused_unchecked"),
    ],
)
def test_each_reading_gets_the_methodologys_response(kind: str, action: str, code: str) -> None:
    response = safety_response(assessment(safety=kind), mec())
    assert response is not None
    assert (response.kind, response.action, response.code) == (kind, action, code)
    assert response.message


def test_a_failed_assessor_takes_the_careful_path_not_the_safe_one() -> None:
    outcome = turn_with(Assessment.neutral())
    assert outcome.safety == SafetyDecision(
        "unchecked", "pause", mec().safety.unchecked.message, "paused_unchecked"
    )
    # what nobody could check is not laddered into: its content is not the next topic
    assert not outcome.delta.nodes_added
    assert outcome.termination_reason is None  # a pause: resumable


@pytest.mark.parametrize("payload", [{}, {"safety": None}])
def test_an_assessment_without_a_safety_reading_is_unchecked(payload: dict[str, object]) -> None:
    scores = {"response_depth": 3, "specificity": 3, "certainty": 3, "valence": 3}
    read = validate_assessment({**scores, "engagement": 3, "intellectual_engagement": 3, **payload})
    assert read.safety == "unchecked" and "safety: missing" in read.rationale
    assert safety_response(read, mec()) is not None


def test_garbage_in_the_safety_field_is_a_concern() -> None:
    read = validate_assessment({"response_depth": 3, "safety": "banana"})
    assert read.safety != "none" and safety_response(read, mec()) is not None


def test_unchecked_is_never_offered_to_a_model() -> None:
    assert "unchecked" not in SAFETY_KINDS and "none" in SAFETY_KINDS


def test_the_careful_path_cannot_be_configured_away() -> None:
    data = mec().model_dump(mode="json")
    data["safety"] = {"unchecked": {"action": "continue"}}
    with pytest.raises(ValidationError, match="safety.unchecked.action"):
        Methodology.model_validate(data)
    data["safety"] = {"unchecked": {"action": "end", "message": "Goodbye.", "code": "ended_x"}}
    ended = turn_with(Assessment.neutral(), Methodology.model_validate(data))
    assert ended.termination_reason == "ended_x"


def test_the_end_reason_is_a_safety_ends_code_before_the_stops_reason() -> None:
    def last_turn(reading: Assessment) -> TurnOutcome:
        inputs = TurnInput(mec(), CONCEPT, SAID, reading, "u001", max_turns=1)
        return advance(CoreState.initial(CONCEPT), inputs)[1]

    assert last_turn(assessment()).termination_reason == "Maximum turns reached"
    assert last_turn(assessment(safety="abuse")).termination_reason == "ended_abuse"
    assert last_turn(assessment(safety="distress")).termination_reason == "Maximum turns reached"
    assert turn_with(assessment(safety="stop")).termination_reason == "stopped_by_respondent"
