"""Checking the assessor's reply: rubric scores and the categorical reading of an answer.

Scores are integers 1-5 ("4" and 4.0 are accepted, 3.6 rounds to 4); an out-of-range or
unreadable score becomes a neutral 3, and the replacement is recorded in that score's
rationale and in the assessment's rationale. Hedging, knowledge ceiling, answer kind and
safety are matched leniently (case, spacing, common synonyms); an unknown value falls back
to the neutral one and is noted. See ``llm.validation`` for the tiers of validation.
"""

from __future__ import annotations

import math

from interview_cli.core.models import ANSWER_KINDS, RUBRIC_SIGNALS, Assessment, RubricScore
from interview_cli.llm.validation_base import UnusableResponse, as_object, one_line

_SAFETY = {
    "none": "none",
    "distress": "distress",
    "abuse": "abuse",
    "off_topic": "off_topic",
    "off-topic": "off_topic",
    "off topic": "off_topic",
    "stop": "stop",
    "end": "stop",
    "withdraw": "stop",
}
_HEDGING = {"none": "none", "low": "low", "medium": "medium", "moderate": "medium", "high": "high"}
_CEILING = {
    "none": "none",
    "no": "none",
    "false": "none",
    "exploratory": "exploratory",
    "productive": "exploratory",
    "open": "exploratory",
    "terminal": "terminal",
    "closed": "terminal",
}


def _score(value: object) -> tuple[int | None, str]:
    """(score, rationale) from {"score": 4, "rationale": ...}, 4, "4" or 4.0; score None when
    unreadable or outside 1-5."""
    rationale = ""
    if isinstance(value, dict):
        rationale = one_line(value.get("rationale"))
        value = value.get("score")
    if isinstance(value, bool):
        return None, rationale
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return None, rationale
    if isinstance(value, int | float) and not math.isnan(value):
        number = int(math.floor(value + 0.5))  # 3.5 -> 4, never banker's rounding
        if 1 <= number <= 5:
            return number, rationale
    return None, rationale


def validate_assessment(data: object) -> Assessment:
    """The assessor's rubric scores; a bad score becomes a neutral 3, recorded as such."""
    payload = as_object(data, "assessment")
    if not any(name in payload for name in RUBRIC_SIGNALS):
        raise UnusableResponse(f"assessment response has none of {', '.join(RUBRIC_SIGNALS)}")
    scores: dict[str, RubricScore] = {}
    notes: list[str] = []
    for name in RUBRIC_SIGNALS:
        raw = payload.get(name)
        score, rationale = _score(raw)
        if score is None:
            shown = raw.get("score") if isinstance(raw, dict) else raw
            why = "missing" if raw is None else f"invalid score {shown!r}"
            notes.append(f"{name}: {why}, neutral 3 used")
            scores[name] = RubricScore(score=3, rationale=f"{why} from the model; neutral 3 used")
        else:
            scores[name] = RubricScore(score=score, rationale=rationale)
    hedging = _category(payload.get("hedging_language"), _HEDGING, "hedging_language", notes)
    ceiling = _category(payload.get("knowledge_ceiling"), _CEILING, "knowledge_ceiling", notes)
    kind = _answer_kind(payload.get("answer_kind"), notes)
    safety = _category(payload.get("safety"), _SAFETY, "safety", notes)
    rationale = one_line(payload.get("rationale"))
    if notes:
        rationale = (
            (rationale + " " if rationale else "") + "[validation: " + "; ".join(notes) + "]"
        )
    return Assessment.model_validate(
        {
            **scores,
            "hedging_language": hedging,
            "knowledge_ceiling": ceiling,
            "answer_kind": kind,
            "safety": safety,
            "rationale": rationale,
        }
    )


def _answer_kind(value: object, notes: list[str]) -> str:
    """A missing answer_kind is an answer (older prompts and models do not send it)."""
    if value is None:
        return "answer"
    if isinstance(value, str):
        key = value.strip().lower().replace(" ", "_").replace("-", "_")
        if key in ANSWER_KINDS:
            return key
    notes.append(f"answer_kind: invalid value {value!r}, 'answer' used")
    return "answer"


def _category(value: object, allowed: dict[str, str], name: str, notes: list[str]) -> str:
    if isinstance(value, dict):  # {"value": "terminal", "rationale": ...}
        value = value.get("value", value.get("category", value.get("level")))
    if value is None:
        return "none"
    if isinstance(value, bool):
        value = str(value).lower()
    if isinstance(value, str) and value.strip().lower() in allowed:
        return allowed[value.strip().lower()]
    notes.append(f"{name}: invalid value {value!r}, 'none' used")
    return "none"
