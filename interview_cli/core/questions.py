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

from collections.abc import Sequence
from typing import Literal

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from interview_cli.config.tuning import QUESTION_HISTORY
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


def most_similar_recent(
    candidate: str, recent_questions: Sequence[str], limit: int = QUESTION_HISTORY
) -> tuple[float, str | None]:
    """(score, question) of the most similar of the last ``limit`` questions asked.

    ``recent_questions`` is in asking order (oldest first). Ties go to the most recent one.
    (0.0, None) when there is nothing to compare with.
    """
    window = list(recent_questions)[-limit:] if limit > 0 else []
    best: tuple[float, str | None] = (0.0, None)
    for question in reversed(window):
        score = question_similarity(candidate, question)
        if best[1] is None or score > best[0]:
            best = (score, question)
    return best
