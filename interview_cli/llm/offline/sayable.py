"""Nodes the offline interviewer cannot say back are read with doubt.

A label the questions cannot point at in the respondent's words (no clean phrase of theirs, no
noun they used, not the one point of the answer: ``asking.reference.refer`` finds nothing)
would be asked about as "What else comes to mind when you think about it?": a question about
nothing in particular, on a focus that was mostly a fragment ("per year", "found out", "now when
I eat am", "carnage jubilee line" on the development reading sets). INTERVIEWING.md: when
unsure whether a fragment is content, ask about what is surely content. Such a node stays in
the graph, read with doubt (below the methodologies' ``min_focus_confidence``): it is not asked
about nor read back until it is said again in words that can be.
"""

from __future__ import annotations

from interview_cli.core.models import Extraction
from interview_cli.llm.offline.asking.reference import refer
from interview_cli.llm.offline.reading.doubt import DOUBTFUL


def unsayable(label: str, quote: str, answer: str) -> bool:
    """A label ``refer`` finds no way to say back from ``answer``: a fragment, or words it
    takes to name nothing alone. Either way the question about it would name nothing ("What
    else comes to mind when you think about it?"); on the development reading sets, doubting
    only the fragments left 0.7-2.7 such questions per 100, doubting both 0-0.7."""
    return refer(label, [answer], [quote]).how == "none"


def doubting_the_unsayable(extraction: Extraction, answer: str) -> Extraction:
    """The extraction with each node ``unsayable`` from ``answer`` doubted."""
    nodes = [
        n.model_copy(update={"confidence": min(n.confidence, DOUBTFUL)})
        if unsayable(n.label, n.quote, answer)
        else n
        for n in extraction.nodes
    ]
    if nodes == extraction.nodes:
        return extraction
    return extraction.model_copy(update={"nodes": nodes})


__all__ = ["doubting_the_unsayable", "unsayable"]
