"""What an answer climbs to, in sentences with no cue word between them: round 226's
respondent went back to the aquastop and said what it does, then what that comes to, and
neither was linked ('"Back to the aquastop thing. What would you like to say about that?"' was
answered "Just that I can go to work and not be worrying ... Peace of mind I spose.")."""

from __future__ import annotations

from offline_fixtures import A, extract, shipped_mec

BACK_TO = "Back to the aquastop thing. What would you like to say about that?"


def _links(answer: str, focus: tuple[str, str], question: str) -> set[tuple[str, str]]:
    found = extract(shipped_mec(), "cooking", answer, focus, question=question)
    return {(e.source, e.target) for e in found.edges}


def test_what_a_thing_gone_back_to_does_is_what_it_leads_to() -> None:
    said = "Just that I can go to work and not be worrying the kitchens under water."
    assert ("aquastop on the hose", "can go to work") in _links(
        said, ("aquastop on the hose", A), BACK_TO
    )
    # ... not another thing of its own level told after it (round 37: '"price" matters to you
    # because of "its 20 minutes from my house"')
    assert not _links("its 20 minutes from my house", ("price", A), BACK_TO)


def test_what_the_climb_comes_to_in_a_few_words_is_the_next_rung() -> None:
    said = (
        "Just that I can go to work and not be worrying the kitchens under water. "
        "Peace of mind I spose."
    )
    assert ("can go to work", "peace of mind") in _links(
        said, ("aquastop on the hose", A), "Why does the aquastop matter to you?"
    )
    # a sentence with a subject of its own is no such summing up
    said = "I can go to work and not be worrying. My sister has one too."
    links = _links(said, ("aquastop on the hose", A), "Why does the aquastop matter to you?")
    assert not any(target.startswith("sister") for _, target in links), links


def test_an_afterthought_or_a_reason_is_no_climb() -> None:
    # (the review: a reservation after the climb, and a reason for what they went back to)
    said = "It keeps my feet dry so I can walk further. Feels a bit heavy mind."
    links = _links(said, ("waterproof", A), "Why does that matter to you?")
    assert not any(target == "feels heavy" for _, target in links), links
    said = "I walk in the Lakes a lot so I need them waterproof."
    links = _links(said, ("waterproof", A), BACK_TO)
    assert not any(source == "waterproof" for source, _ in links), links


def test_a_feeling_in_a_word_or_two_sums_up_the_climb() -> None:
    said = "They dont slip on wet rock so I can keep up with the kids. Pride, I suppose."
    links = _links(said, ("grip", A), "Why does the grip matter to you?")
    assert any(target == "pride" for _, target in links), links
