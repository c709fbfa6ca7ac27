"""The global response trend: a smoothed engagement/depth level carried across turns.

Implements ``llm.global_response_trend`` (seed 003 "Global Response Tracking") and replaces seed
000's momentum counter ("fatigued = 3 consecutive LOW answers, reset by any non-low answer"),
which one lively outlier answer resets and one terse answer in a good run nearly trips.

Each assessed answer gives a quality ``q`` in [0, 1]: the mean of its normalised response depth
and engagement, ``(score - 1) / 4`` each. The trend value is an EWMA of ``q``:

    value = q                                  on the first assessed answer
    value = alpha * q + (1 - alpha) * value    afterwards (alpha = tuning.saturation.fatigue_alpha)

An answer that added a node to the graph counts at least ``productive_answer_quality`` (0 =
off): a few words that answer the question are terseness, not fatigue.

Categories (``trend_category``), checked in this order:

| category   | condition                                         |
|------------|---------------------------------------------------|
| fatigued   | value < fatigue_threshold (0.25), from the second |
|            | assessed answer on                                |
| deepening  | value - previous value >= TREND_EPSILON (0.05)    |
| shallowing | value - previous value <= -TREND_EPSILON          |
| stable     | otherwise, and before any assessed answer         |

``fatigued_turns`` counts consecutive turns the smoothed value stayed below the threshold; the
continuation check stops the interview after ``FATIGUE_TURNS`` of them. An answer that says
the respondent is tired (``Assessment.tiring``: "I'm flagging now", "is there much more?")
counts as ``FATIGUE_TURNS`` at once and puts the value just under the threshold
(``TIRED_SHARE``): INTERVIEWING.md ends an interview when the respondent is tired, and they
said so (round 198 asked four more questions after "I'm flagging a bit now, long day!").
Because the value is smoothed, a single short answer does not start the count and a single
good answer does not wipe out a long decline. One answer is not a trend: after the first
assessed answer, however short, the category is never "fatigued" (a terse opener is common
and says nothing yet about fatigue, so it must not turn the second question into a
revitalizing one); the count of low turns, which the stop uses as seed 000 does (three low
answers), starts with the first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from interview_cli.core.models import Assessment

TrendCategory = Literal["deepening", "stable", "shallowing", "fatigued"]

TREND_EPSILON = 0.05
FATIGUE_TURNS = 3
DEFAULT_ALPHA = 0.5
DEFAULT_FATIGUE_THRESHOLD = 0.25
# Where an answer that says it is tired puts the trend: just under the threshold
TIRED_SHARE = 0.95


@dataclass(frozen=True)
class TrendState:
    """The smoothed answer quality after the latest assessed answer."""

    value: float | None = None
    previous: float | None = None
    fatigued_turns: int = 0
    observations: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "previous": self.previous,
            "fatigued_turns": self.fatigued_turns,
            "observations": self.observations,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> TrendState:
        return cls(**dict(data)) if data else cls()


def answer_quality(assessment: Assessment) -> float:
    """Mean of normalised response depth and engagement, in [0, 1]."""
    depth = (assessment.response_depth.score - 1) / 4
    engagement = (assessment.engagement.score - 1) / 4
    return (depth + engagement) / 2


def update_response_trend(
    prev: TrendState,
    assessment: Assessment | None,
    alpha: float = DEFAULT_ALPHA,
    *,
    fatigue_threshold: float = DEFAULT_FATIGUE_THRESHOLD,
    productive_floor: float = 0.0,
) -> TrendState:
    """Fold one answer's assessment into the trend; no assessment leaves it unchanged. An
    answer that brought something new counts at least ``productive_floor``: a terse
    respondent whose whys get answers ("Froths better.") is not tiring."""
    if assessment is None:
        return prev
    q = max(answer_quality(assessment), productive_floor)
    value = q if prev.value is None else alpha * q + (1 - alpha) * prev.value
    fatigued = prev.fatigued_turns + 1 if value < fatigue_threshold else 0
    if assessment.tiring:
        # said so ("I'm flagging now", "is there much more?"): as tired as three low answers
        # running, and below the threshold, so the next question is an easier one or the end
        value = min(value, fatigue_threshold * TIRED_SHARE)
        fatigued = max(prev.fatigued_turns + 1, FATIGUE_TURNS)
    return TrendState(
        value=value,
        previous=prev.value,
        fatigued_turns=fatigued,
        observations=prev.observations + 1,
    )


def trend_category(
    state: TrendState, *, fatigue_threshold: float = DEFAULT_FATIGUE_THRESHOLD
) -> TrendCategory:
    if state.value is None:
        return "stable"
    if state.value < fatigue_threshold and state.previous is not None:
        return "fatigued"
    if state.previous is not None:
        delta = state.value - state.previous
        # A small tolerance so that float noise around exactly EPSILON does not flip categories.
        if delta >= TREND_EPSILON - 1e-12:
            return "deepening"
        if delta <= -TREND_EPSILON + 1e-12:
            return "shallowing"
    return "stable"
