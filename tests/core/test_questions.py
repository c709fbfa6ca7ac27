"""Question similarity: order-aware, normalised, open vs closed (seed 000 Hotspot 6)."""

from __future__ import annotations

import pytest

from interview_cli.core.questions import (
    question_similarity,
    question_type,
    repeat_rank,
)

THRESHOLD = 0.85  # tuning.vetoes.question_similarity_threshold


def test_identical_after_normalisation() -> None:
    assert (
        question_similarity("Why is that important to you?", "why is that IMPORTANT to you") == 1.0
    )


def test_small_edits_stay_above_the_threshold() -> None:
    assert (
        question_similarity("Why is that important to you?", "And why is that so important to you?")
        >= THRESHOLD
    )


def test_word_order_matters() -> None:
    # Same word set (Jaccard 1.0, the seed's duplicate) but a different question.
    score = question_similarity(
        "Why do you value comfort over price?", "Price over comfort: why do you value?"
    )
    assert score < THRESHOLD


def test_open_and_closed_questions_are_kept_apart() -> None:
    # The seed's example: "How does X lead to Y?" vs "Does X lead to Y?"
    assert question_type("How does X lead to Y?") == "open"
    assert question_type("So, does X lead to Y?") == "closed"
    assert question_type("Comfort, then?") == "other"
    assert question_similarity("How does X lead to Y?", "Does X lead to Y?") < THRESHOLD


def test_unrelated_questions_score_low() -> None:
    assert (
        question_similarity(
            "Tell me about the last time you bought headphones.",
            "Why is battery life important to you?",
        )
        < 0.4
    )
    assert question_similarity("", "Why?") == 0.0


@pytest.mark.parametrize("a,b", [("What do you mean?", "What do you think?"), ("Why?", "How?")])
def test_symmetric(a: str, b: str) -> None:
    assert question_similarity(a, b) == pytest.approx(question_similarity(b, a))


def test_repeat_rank_puts_the_repeat_of_the_oldest_question_first() -> None:
    asked = [
        "Why is comfort important to you?",
        "What else do you notice?",
        "What else do you notice?",
    ]
    assert repeat_rank("How did it end?", asked, THRESHOLD)[0] == -1
    assert repeat_rank("Why is comfort important to you?", asked, THRESHOLD) == (0, 1.0)
    assert repeat_rank("What else do you notice?", asked, THRESHOLD) == (2, 1.0)  # last time asked
    assert repeat_rank("Why?", [], THRESHOLD) == (-1, 0.0)
