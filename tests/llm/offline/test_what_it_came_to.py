"""What an answer to a why comes to: the point said as such ("So it's about not letting people
down", "It comes down to ...") is what the focus leads to, linked from it and typed above it
(``steering.what_it_came_to``); never a measure, a thing, a second thing or a complaint."""

from __future__ import annotations

import pytest
from offline_fixtures import extract, shipped_mec

from interview_cli.config.schemas import Methodology


@pytest.fixture(scope="module")
def mec() -> Methodology:
    return shipped_mec()


def test_what_an_answer_to_a_why_comes_to_is_above_the_focus(mec: Methodology) -> None:
    # round 240's close read "reliability" back as mattering because of "I do locum shifts",
    # while "So it's about not letting people down" was an attribute, linked to nothing
    said = (
        "Well I do locum shifts, so I'm at a different pharmacy most weeks. If the car doesnt "
        "start I can't just hop on a bus. So it's about not letting people down I guess"
    )
    focus = ("reliability top of mind", "attribute")
    read = extract(mec, "commuting", said, focus, "deepen", "What difference does that make?")
    point = next(n for n in read.nodes if n.label == "not letting people down")
    assert point.node_type != "attribute", point
    assert ("reliability top of mind", "not letting people down") in {
        (e.source, e.target) for e in read.edges
    }
    # (not on an opening answer, nor where a link of the answer reaches it already)
    opening = extract(mec, "commuting", said, None)
    assert not any(e.target == "not letting people down" for e in opening.edges)


def test_what_an_answer_comes_to_is_a_doing_said_as_its_point(mec: Methodology) -> None:
    # the review of round 240's rule: said as what it comes down to, however that is said; never
    # a measure, a thing, a second thing or a complaint
    focus = ("reliability", "attribute")
    lead = "Well I do locum shifts all over, so the app has to work wherever I am. "
    for said in (
        "It comes down to not letting people down I guess",
        "What matters to me is not letting people down",
        "At the end of the day it's about not letting people down",
    ):
        read = extract(mec, "banking", lead + said, focus, "deepen", "Why does that matter?")
        links = {(e.source, e.target) for e in read.edges}
        assert ("reliability", "not letting people down") in links, (said, links)
    focus = ("good thing", "attribute")
    for said in (
        "I get the train in, so it saves me loads of time. It's about forty minutes door to door.",
        "It's lighter so I can keep up with the club. What matters most is the wheels though.",
        "I listen to audiobooks. The one I'm on now is brilliant. It's about the Tudors.",
        "I can see where the money goes. It's more that the app crashes every time, drives me mad.",
    ):
        read = extract(mec, "cycling", said, focus, "deepen", "Why does that matter?")
        ends = {e.target for e in read.edges if e.source == "good thing"}
        assert not ends & {"forty minutes door to door", "wheels", "tudors"}, (said, ends)
        assert not any("crashes" in end for end in ends), (said, ends)
    # (nor is "dear" said of a price a form of address)
    said = "The Sony ones were a bit dear haha but the sound is unreal"
    labels = [n.label for n in extract(mec, "headphones", said, None).nodes]
    assert any("dear" in label for label in labels), labels
