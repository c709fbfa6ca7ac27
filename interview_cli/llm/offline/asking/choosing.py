"""Choosing among a family's wordings: a seeded order, and no repeat of a recent question.

Seed 000 "Question Deduplication": the first candidate, in an order shuffled by a key of
(seed, turn, strategy, focus), that is not too similar to a recent question wins, so runs
repeat exactly while questions vary across turns.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from interview_cli.core.questions import question_similarity

Similarity = Callable[[str, str], float]
DEFAULT_THRESHOLD = 0.85


def seeded_order(candidates: Sequence[str], key: str) -> list[str]:
    ordered = list(candidates)
    random.Random(key).shuffle(ordered)
    return ordered


def pick(
    candidates: Sequence[str],
    avoid: Sequence[str],
    key: str,
    threshold: float = DEFAULT_THRESHOLD,
    similarity: Similarity = question_similarity,
) -> str:
    """The first candidate (in a seeded order) not too similar to any question in ``avoid``
    (oldest first); when all are, the one whose like was asked longest ago, then the least
    similar: never the question just asked again word for word (round 58 asked "What else
    comes to mind when you think about it?" twice running, the three plain wordings used)."""
    ordered = seeded_order(candidates, key)
    best, best_rank = ordered[0], (len(avoid), 2.0)
    for candidate in ordered:
        scores = [similarity(candidate, q) for q in avoid]
        score = max(scores, default=0.0)
        if score < threshold:
            return candidate
        latest = max(i for i, s in enumerate(scores) if s >= threshold)
        if (latest, score) < best_rank:
            best, best_rank = candidate, (latest, score)
    return best
