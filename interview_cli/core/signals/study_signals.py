"""Signals of the study's own rules: the guide's coverage and the safety reading of an answer.

``coverage.guide_*`` read the concept's ``guide.must_cover`` topics against the graph
(``core.guide``) and are absent when the concept has no guide; ``llm.safety`` passes the
assessor's safety reading through (absent before the first answer).
"""

from __future__ import annotations

from interview_cli.core.guide import GuideCoverage, guide_coverage
from interview_cli.core.signals.base import Deps, SignalContext, global_signal


def _guide(ctx: SignalContext) -> GuideCoverage:
    """The guide's coverage after this turn, computed once for both signals."""
    found = ctx.memo.get("guide")
    if not isinstance(found, GuideCoverage):
        found = ctx.memo["guide"] = guide_coverage(ctx.must_cover, ctx.graph)
    return found


@global_signal("llm.safety")
def _safety(ctx: SignalContext, deps: Deps) -> str | None:
    a = ctx.assessment
    return None if a is None else a.safety


@global_signal("coverage.guide_ratio")
def _guide_ratio(ctx: SignalContext, deps: Deps) -> float | None:
    if not ctx.must_cover:
        return None
    return _guide(ctx).ratio


@global_signal("coverage.guide_remaining")
def _guide_remaining(ctx: SignalContext, deps: Deps) -> int | None:
    if not ctx.must_cover:
        return None
    return len(_guide(ctx).remaining)
