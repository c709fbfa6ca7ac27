"""What an answer climbs to, in sentences with no cue word between them: round 226's
respondent went back to the aquastop and said what it does, then what that comes to, and
neither was linked ('"Back to the aquastop thing. What would you like to say about that?"' was
answered "Just that I can go to work and not be worrying ... Peace of mind I spose.")."""

from __future__ import annotations

from offline_fixtures import A, F, P, concept, extract, shipped_mec

BACK_TO = "Back to the aquastop thing. What would you like to say about that?"
WHY = "And why does that matter to you?"


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


def test_an_answer_that_opens_by_going_back_climbs_from_nothing_asked() -> None:
    # (round 235: asked why "feel like I'm doing right" matters, "Can we go back to the
    # charging? That's a pain ..." made "carry the battery up" a value above that feeling,
    # and its "That's a pain" the feeling held against)
    for lead in ("", "Sorry to interrupt, "):  # (the second review: a set phrase before it)
        said = (
            f"{lead}Can we go back to the charging? That's a pain because I'm in a flat on the "
            "third floor so I carry the battery up."
        )
        found = extract(
            shipped_mec(), "commuting", said, ("feel like I'm doing right", P), question=WHY
        )
        assert [(n.label, n.node_type) for n in found.nodes] == [("carry the battery up", F)]
        assert not found.edges
    # ... while an answer to the why that goes back only after it still climbs from the focus
    for said in (
        "It means they trust me. Anyway can we go back to the charging?",
        # (the review: a request said after the answer, in its sentence)
        "It means they trust me, anyway can we go back to the charging?",
    ):
        found = extract(
            shipped_mec(), "commuting", said, ("feel like I'm doing right", P), question=WHY
        )
        assert ("feel like I'm doing right", "trust") in {(e.source, e.target) for e in found.edges}
    said = "It means they trust me. Anyway can we go back to the charging?"
    found = extract(
        shipped_mec(), "commuting", said, ("feel like I'm doing right", P), question=WHY
    )
    assert ("feel like I'm doing right", "trust") in {(e.source, e.target) for e in found.edges}


def test_an_answer_that_opens_by_putting_right_climbs_from_nothing_asked() -> None:
    # (round 235: asked why being on time matters, "Sorry, I said the bus but it was the train
    # actually, the 7.10, always cancelled" made "always cancelled" a value above it)
    said = "Sorry, I said the bus but it was the train actually, the 7.10, always cancelled."
    earlier = [("bus kept letting me down", A, "the bus kept letting me down")]
    found = extract(
        shipped_mec(),
        "commuting",
        said,
        ("being on time", "instrumental_value"),
        question=WHY,
        existing=earlier,
    )
    assert all(n.node_type == A for n in found.nodes), found.nodes
    assert not any(e.source == "being on time" for e in found.edges), found.edges


def test_a_correction_said_after_the_answer_leaves_it_climbing() -> None:
    # (the review of round 235's rule: "... and it was 25 quid not 20 btw" stopped the climb)
    said = "I've got enough on my plate with the kids, and it was 25 quid not 20 btw"
    found = extract(
        shipped_mec(), "commuting", said, ("feel like I'm doing right", P), question=WHY
    )
    assert any(e.source == "feel like I'm doing right" for e in found.edges), found.edges


def test_a_request_to_go_back_to_what_they_said_climbs_whatever_its_words() -> None:
    # (the held-out simulated respondents: "Can we go back to what I said about X? Y." names
    # something said before in other words; taken for something new, Y lost its rung)
    from interview_cli.llm.offline.reading.steering import goes_somewhere_new_first
    from interview_cli.llm.protocol import ExtractRequest

    def new(said: str) -> bool:
        request = ExtractRequest(
            methodology=shipped_mec(),
            concept=concept("commuting"),
            utterance_id="u1",
            answer=said,
            question=WHY,
            focus_label="feel like I'm doing right",
            focus_type=P,
        )
        return goes_somewhere_new_first(request)

    assert new("Can we go back to the charging? It takes ages.")
    assert not new("Can we go back to what I said about keeping costs down? I save loads.")
    assert not new("Actually, can we go back to the bit where I said it's light? Easy to carry.")


def test_a_request_to_go_back_to_the_study_itself_leaves_the_focus() -> None:
    # Round 273: "Can we go back to the gym stuff? like the price is actually a big thing" was
    # read as the price said of the focus, so the price was never asked about; going back to
    # the question itself still answers it (review rv63)
    def links(answer: str, focus: tuple[str, str]) -> set[tuple[str, str]]:
        found = extract(shipped_mec(), "cooking", answer, focus, question=WHY)
        return {(e.source, e.target) for e in found.edges}

    left = links("Can we go back to the cooking stuff? like the price is a big thing", ("cut", A))
    assert not any("cut" in edge for edge in left), left
    back = links("Going back to your question, it lets me actually relax", ("cut", A))
    assert ("cut", "relax") in back, back
