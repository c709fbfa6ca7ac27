"""``llm.*`` signals: the assessor's rubric scores normalised (seed 001 "Rubric-Based LLM
Detection", seed 002 Path 2 "Signal Types") and the smoothed global response trend (seed 003).

LLM signals are fresh per answer: they read this turn's ``Assessment`` only (the trend is the
one exception, by design: it is the state carried across turns). Without an assessment (the
opening turn) they are not detected and weights on them are skipped.

The one normalisation table:

| rubric signal              | 1        | 2        | 3          | 4      | 5      |
|----------------------------|----------|----------|------------|--------|--------|
| response_depth (categorical) | surface | shallow | moderate   | deep   | deep   |
| every other rubric signal  | 0.0      | 0.25     | 0.5        | 0.75   | 1.0    |

(the others are ``(score - 1) / 4``). Depth 4 "detailed with reasoning" and 5 "rich, layered"
both count as deep: the strategies only need to tell a developed answer from a thin one, and
the tracker's shallow ratio counts surface + shallow. hedging_language and knowledge_ceiling
arrive categorical from the assessor and pass through unchanged.
"""

from __future__ import annotations

from interview_cli.core.signals.base import Deps, SignalContext, global_signal
from interview_cli.core.signals.trend import trend_category

RESPONSE_DEPTH_BY_SCORE: dict[int, str] = {
    1: "surface",
    2: "shallow",
    3: "moderate",
    4: "deep",
    5: "deep",
}


def response_depth_category(score: int) -> str:
    return RESPONSE_DEPTH_BY_SCORE[score]


def normalise_score(score: int) -> float:
    """A 1-5 rubric score to [0, 1]."""
    return (score - 1) / 4


@global_signal("llm.response_depth")
def _response_depth(ctx: SignalContext, deps: Deps) -> str | None:
    a = ctx.assessment
    return None if a is None else response_depth_category(a.response_depth.score)


@global_signal("llm.specificity")
def _specificity(ctx: SignalContext, deps: Deps) -> float | None:
    a = ctx.assessment
    return None if a is None else normalise_score(a.specificity.score)


@global_signal("llm.certainty")
def _certainty(ctx: SignalContext, deps: Deps) -> float | None:
    a = ctx.assessment
    return None if a is None else normalise_score(a.certainty.score)


@global_signal("llm.valence")
def _valence(ctx: SignalContext, deps: Deps) -> float | None:
    a = ctx.assessment
    return None if a is None else normalise_score(a.valence.score)


@global_signal("llm.engagement")
def _engagement(ctx: SignalContext, deps: Deps) -> float | None:
    a = ctx.assessment
    return None if a is None else normalise_score(a.engagement.score)


@global_signal("llm.intellectual_engagement")
def _intellectual_engagement(ctx: SignalContext, deps: Deps) -> float | None:
    a = ctx.assessment
    return None if a is None else normalise_score(a.intellectual_engagement.score)


@global_signal("llm.hedging_language")
def _hedging_language(ctx: SignalContext, deps: Deps) -> str | None:
    a = ctx.assessment
    return None if a is None else a.hedging_language


@global_signal("llm.knowledge_ceiling")
def _knowledge_ceiling(ctx: SignalContext, deps: Deps) -> str | None:
    a = ctx.assessment
    return None if a is None else a.knowledge_ceiling


@global_signal("llm.answer_kind")
def _answer_kind(ctx: SignalContext, deps: Deps) -> str | None:
    a = ctx.assessment
    return None if a is None else a.answer_kind


@global_signal("llm.global_response_trend")
def _global_response_trend(ctx: SignalContext, deps: Deps) -> str:
    # Reads the carried trend state (already updated with this answer by the caller), not the
    # per-answer depth/engagement: those are declared dependencies only to order detection.
    threshold = ctx.methodology.tuning.saturation.fatigue_threshold
    return trend_category(ctx.trend, fatigue_threshold=threshold)
