"""How sure the offline reader is of each node: a sign that a clause names an element raises
its confidence; a passing remark with no sign stays a node, but one too doubtful to ask about
(``tuning.vetoes.min_focus_confidence`` of the shipped methodologies)."""

from __future__ import annotations

import pytest
from offline_fixtures import extract, shipped_mec

from interview_cli.config.schemas import Methodology
from interview_cli.config.tuning import Habit


@pytest.fixture(scope="module")
def mec() -> Methodology:
    return shipped_mec()


def confidences(mec: Methodology, answer: str) -> dict[str, float]:
    return {n.label: n.confidence for n in extract(mec, "headphones", answer, None).nodes}


def test_a_remark_with_no_sign_of_an_element_is_too_doubtful_to_ask_about(
    mec: Methodology,
) -> None:
    least = mec.tuning.vetoes.min_focus_confidence
    assert mec.tuning.follows(Habit.DOUBTFUL_FOCUS)
    read = confidences(mec, "Noise cancelling, so I can focus on the train. Arthritis.")
    # the answer to the question, and what "so" ties to it, are sure enough to ask about
    assert read["noise cancelling"] >= least
    assert read["can focus on the train"] > read["noise cancelling"]
    # a later word said in passing, with no cue, no telling word and nothing of the study
    assert read["arthritis"] < least
    # said first, it answers the question
    assert confidences(mec, "Arthritis. The lock.")["arthritis"] >= least
