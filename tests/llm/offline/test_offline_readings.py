"""Offline readings of how people talk, found in live offline interviews and transcripts:
an echo of the question, a dislike, a priority named, closers, corrections and asides, and
figures of speech. Each case is a real-looking answer and what the graph must get from it."""

from __future__ import annotations

import pytest
from offline_fixtures import A, F, P, extract, shipped_mec

from interview_cli.config.schemas import Methodology


@pytest.fixture(scope="module")
def mec() -> Methodology:
    return shipped_mec()


@pytest.mark.parametrize(
    ("question", "answer", "focus", "labels"),
    [
        (
            'What does "charge it weekly" make possible for you?',
            "Make possible? It was a horrible day.",
            ("charge it weekly", A),
            ["horrible day"],
        ),
        (
            'Why does "don\'t have to worry about vet bills" matter to you?',
            "Vet bills, you mean? Well, money's tight with two kids.",
            ("don't have to worry about vet bills", P),
            ["money's tight with two kids"],
        ),
        # a question of its own words is an answer offered tentatively, not an echo
        (
            "What do you like about it?",
            "Maybe the face ID login? It's quick.",
            None,
            ["face ID login", "quick"],
        ),
    ],
)
def test_an_echo_of_the_question_is_no_element(
    mec: Methodology, question: str, answer: str, focus: tuple[str, str] | None, labels: list[str]
) -> None:
    result = extract(mec, "banking", answer, focus, question=question)
    assert [n.label for n in result.nodes] == labels
    assert all(not n.quote.lower().startswith(("make", "vet")) for n in result.nodes)


@pytest.mark.parametrize(
    ("answer", "held"),
    [
        ("What annoys me is the price.", [("price", -1)]),
        ("Creamy. Price annoys me.", [("creamy", 0), ("price", -1)]),
        ("I hate the blisters from every pair.", [("hate the blisters from every pair", -1)]),
        (
            "The thing that annoys me most is the battery. I love the colour though.",
            [("battery", -1), ("colour", 1)],
        ),
        # a negative word after a negation is no dislike
        ("I'm not stressed before trips.", [("not stressed before trips", 1)]),
        ("No hassle at all.", [("no hassle at all", 1)]),
        ("I'm not throwing good money after bad.", [("not throwing good money", 1)]),
    ],
)
def test_a_dislike_is_held_negative_and_named_without_the_frame(
    mec: Methodology, answer: str, held: list[tuple[str, int]]
) -> None:
    result = extract(mec, "cooking", answer, None)
    assert [(n.label, n.stance) for n in result.nodes] == held


@pytest.mark.parametrize(
    "answer", ["Health is first for me.", "Family comes first.", "Time with the kids is precious."]
)
def test_a_priority_named_is_a_value(mec: Methodology, answer: str) -> None:
    # "Health is first for me" had been an attribute, and the next question asked what it does
    (node,) = extract(mec, "cooking", answer, None).nodes
    assert node.node_type == "terminal_value"


@pytest.mark.parametrize(
    ("answer", "focus", "labels"),
    [
        # a closer ends the ladder and names nothing
        ("Family comes first. Simple as that.", ("being a good dad", P), ["family comes first"]),
        ("Happiness, I suppose. That's the top of it.", ("feeling free", P), ["happiness"]),
        # a correction's frame goes, what they meant stays
        (
            "That's not what I said! Forget that. The point is being healthy.",
            ("forget that", P),
            ["being healthy"],
        ),
        (
            "No, that's not what I meant. It's more that the foam makes my coffee a treat.",
            ("foams well", A),
            ["foam makes my coffee a treat"],
        ),
        ("The point was the kids club.", ("went to crete", A), ["kids club"]),
        # asides: "I'd say", "I went off on one there", "anyway"
        ("I'd say it's quiet.", ("motor", A), ["quiet"]),
        ("Sorry I went off on one there. Anyway the grip is great.", ("boots", A), ["grip"]),
        ("Anyway, where was I.", ("boots", A), []),
        # a sceptic's remarks and verdicts
        (
            "I don't have feelings about a car, love. It's a depreciating asset.",
            ("paid cash", A),
            ["depreciating asset"],
        ),
        ("Why does anybody buy owt? Because it's sensible.", ("no monthly payments", F), []),
        (
            "Is this for a boot company? Because I'm not going to tell you the brand matters.",
            ("cheap", A),
            [],
        ),
        # a pause asked for names nothing; "let me down" is no "lets me <reason>"
        (
            "Ooh, deep question. Give me a sec. Because I can afford it on my wages.",
            ("hardly ever buy petrol", F),
            ["can afford it on my wages"],
        ),
        ("It means it's not going to let me down.", ("toyota", A), ["not going to let me down"]),
        # a retort to the question, then the answer
        ("It doesn't help me sleep, sadly.", ("app", A), ["doesn't help me sleep"]),
    ],
)
def test_closers_corrections_and_asides_name_nothing(
    mec: Methodology, answer: str, focus: tuple[str, str], labels: list[str]
) -> None:
    assert [n.label for n in extract(mec, "cooking", answer, focus).nodes] == labels


def test_a_figure_of_speech_is_no_idiom_of_content() -> None:
    from interview_cli.llm.offline.lexicon import NAMELESS
    from interview_cli.llm.offline.reading.meta import naming_words

    # "they'll look at it" (mend it) names something; "look at it that way" does not
    assert naming_words("they'll look at it", NAMELESS) == 2
    assert naming_words("look at it that way", NAMELESS) == 0
    assert naming_words("look at it a few ways", NAMELESS) == 1  # "ways" alone
