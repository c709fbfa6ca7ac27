"""How similar a candidate question is to the questions already asked.

Implements the "Better Solution" of seed 000 "Question Deduplication" (Complexity Hotspots 6):
the original used set Jaccard on words, which ignores word order and treats "How does X lead
to Y?" and "Does X lead to Y?" as duplicates although one is open and one is closed. Here:

- order-aware: the mean of a character-level and a word-level Indel similarity (rapidfuzz) on
  normalised text, so reordered words lower the score and small typos barely matter;
- question type: when one question is open (what/how/why/...) and the other closed
  (do/is/can/...), the score is scaled by ``TYPE_MISMATCH_FACTOR``.

Question generation (later) and the recent-redundancy veto compare a candidate against the
last ``tuning.vetoes.question_history`` (6) questions with
``tuning.vetoes.question_similarity_threshold`` (0.85).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from interview_cli.core.text import normalise

QuestionType = Literal["open", "closed", "other"]

OPEN_STARTS: frozenset[str] = frozenset(
    "what how why which where when who whom whose tell describe walk explain share".split()
)
CLOSED_STARTS: frozenset[str] = frozenset(
    """do does did is are was were can could would will should shall have has had am
    may might must isnt arent dont doesnt didnt wasnt werent cant couldnt wouldnt""".split()
)
TYPE_MISMATCH_FACTOR = 0.8


def question_type(question: str) -> QuestionType:
    """open / closed / other, from the first word (after a leading "and", "so", "but")."""
    words = normalise(question).split()
    while words and words[0] in {"and", "so", "but", "ok", "okay", "right"}:
        words = words[1:]
    if not words:
        return "other"
    if words[0] in OPEN_STARTS:
        return "open"
    if words[0] in CLOSED_STARTS:
        return "closed"
    return "other"


def question_similarity(a: str, b: str) -> float:
    """Similarity of two questions in [0, 1]; 1.0 for the same words in the same order."""
    na, nb = normalise(a), normalise(b)
    if not na or not nb:
        return 0.0
    if na == nb:
        return 1.0
    chars = fuzz.ratio(na, nb) / 100.0
    words = Indel.normalized_similarity(na.split(), nb.split())
    score = (chars + words) / 2.0
    types = {question_type(a), question_type(b)}
    if types == {"open", "closed"}:
        score *= TYPE_MISMATCH_FACTOR
    return score


def repeat_rank(
    candidate: str,
    asked: Sequence[str],
    threshold: float,
    similarity: Callable[[str, str], float] = question_similarity,
) -> tuple[int, float]:
    """How far ``candidate`` repeats ``asked`` (oldest first), lower is better: (-1, score) when
    it is like none of them (every similarity below ``threshold``), else (where the last
    question it is like was asked, its highest similarity). Among repeats the one whose like
    was asked longest ago goes first: never the question just asked, word for word (round 58
    asked "What else comes to mind when you think about it?" twice running)."""
    scores = [similarity(candidate, q) for q in asked]
    like = [i for i, score in enumerate(scores) if score >= threshold]
    return (like[-1] if like else -1, max(scores, default=0.0))
