"""The simulated respondent's stock replies and the offline reader stay in step: what the
respondent says when asked about words it said only in passing takes back what the question
asked about, so the interviewer moves on instead of asking about the aside again."""

from __future__ import annotations

import pytest
from offline_fixtures import extract, shipped_mec

from interview_cli.simulation.respondents.phrasing import BY_THE_WAY


@pytest.mark.parametrize("reply", BY_THE_WAY)
def test_said_in_passing_takes_back_the_focus(reply: str) -> None:
    focus = ("rasmus drives the number 3 bus", "functional_consequence")
    read = extract(
        shipped_mec(),
        "cooking",
        reply,
        focus,
        question="You mentioned that rasmus drives the number 3 bus. Why does that matter?",
        existing=[(*focus, "Rasmus drives the number 3 bus")],
    )
    assert read.retracted == [focus[0]] and not read.nodes, read
