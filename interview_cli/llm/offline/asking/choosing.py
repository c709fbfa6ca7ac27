"""Choosing among a family's wordings: a seeded order, and no repeat of a recent question.

Seed 000 "Question Deduplication": the first candidate, in an order shuffled by a key of
(seed, turn, strategy, focus), that is not too similar to a recent question wins, so runs
repeat exactly while questions vary across turns.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from interview_cli.core.questions import question_similarity, repeat_rank

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
    (oldest first); when all are, the one that repeats least (``core.questions.repeat_rank``:
    whose like was asked longest ago, then the least similar)."""
    ordered = seeded_order(candidates, key)
    ranks = []
    for candidate in ordered:
        rank = repeat_rank(candidate, avoid, threshold, similarity)
        if rank[0] < 0:
            return candidate
        ranks.append((rank, candidate))
    return min(ranks, key=lambda r: r[0])[1]
