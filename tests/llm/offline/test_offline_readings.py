"""Offline readings of how people talk, found in live offline interviews and transcripts: a
priority named, and figures of speech. Echoes, dislikes, closers, corrections and asides are
phrase cases kept as data (``tests/llm/data/readings/``, ``test_reading_cases.py``)."""

from __future__ import annotations

import pytest
from offline_fixtures import extract, shipped_mec

from interview_cli.config.schemas import Methodology


@pytest.fixture(scope="module")
def mec() -> Methodology:
    return shipped_mec()


@pytest.mark.parametrize(
    "answer", ["Health is first for me.", "Family comes first.", "Time with the kids is precious."]
)
def test_a_priority_named_is_a_value(mec: Methodology, answer: str) -> None:
    # "Health is first for me" had been an attribute, and the next question asked what it does
    (node,) = extract(mec, "cooking", answer, None).nodes
    assert node.node_type == "terminal_value"


def test_a_figure_of_speech_is_no_idiom_of_content() -> None:
    from interview_cli.llm.offline.lexicon import NAMELESS
    from interview_cli.llm.offline.reading.meta import naming_words

    # "they'll look at it" (mend it) names something; "look at it that way" does not
    assert naming_words("they'll look at it", NAMELESS) == 2
    assert naming_words("look at it that way", NAMELESS) == 0
    assert naming_words("look at it a few ways", NAMELESS) == 1  # "ways" alone
