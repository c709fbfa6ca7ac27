"""Two ways the reader held a remark the wrong way round, seen in interviews typed as people
talk: "it doesn't bother me lol" (the question's premise denied) became the node "doesnt
bother", and "the one nice moment before chaos" was typed a pain point, so the next question
asked why it bothered them."""

from __future__ import annotations

from pathlib import Path

import pytest
from offline_fixtures import extract, shipped_mec

from interview_cli.config.schemas import Methodology
from interview_cli.config.yamlio import load_yaml
from interview_cli.llm.offline.reading.meta import without_echo
from interview_cli.llm.offline.reading.ontology import OntologyView

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    ("answer", "question", "kept"),
    [
        (
            "it doesnt bother me lol, its the best part of my day",
            "Why does the one nice moment bother you?",
            ", its the best part of my day",
        ),
        (
            "I wasn't hoping for anything, it just happened",
            "What were you hoping that would do for you?",
            ", it just happened",
        ),
        ("it doesn't count, it's a thing I avoid", "What is it about that counts?", ", it's a"),
    ],
)
def test_a_denied_premise_names_nothing(answer: str, question: str, kept: str) -> None:
    read = without_echo(answer, question)
    assert len(read) == len(answer)  # blanked, so quotes keep their place
    assert read.strip().startswith(kept.strip())


def test_a_negation_of_another_verb_is_what_they_said() -> None:
    answer = "it doesn't rain much here, so the hood hardly matters"
    assert without_echo(answer, "Why does the hood matter to you?") == answer


@pytest.fixture(scope="module")
def jtbd() -> Methodology:
    data = load_yaml((ROOT / "methodologies" / "jobs_to_be_done.yaml").read_text("utf-8"))
    return Methodology.model_validate(data)


def test_a_liked_moment_is_a_gain_a_disliked_one_a_pain(jtbd: Methodology) -> None:
    opening = (
        "uh this morning actually. woke up late, kid screaming, and the first thing I did was "
        "grind the beans from the subscription thing, because honestly its the one nice moment "
        "before chaos"
    )
    liked = extract(jtbd, "cooking", opening, None)
    types = {n.label: (n.node_type, n.stance) for n in liked.nodes}
    assert types["one nice moment"] == ("gain_point", 1), types
    assert not any(t == "pain_point" and s > 0 for t, s in types.values()), types
    view = OntologyView(jtbd.ontology)
    assert view.held_as_said("pain_point", 1) == "gain_point"
    assert view.held_as_said("gain_point", -1) == "pain_point"
    assert view.held_as_said("pain_point", 0) == "pain_point"  # not said either way
    assert view.held_as_said("job_statement", -1) == "job_statement"


@pytest.mark.parametrize(
    ("answer", "held"),
    [
        ("lead to? I dont know, it just annoys me. I'd rather pay per visit", -1),
        ("honestly it does my head in", -1),
        ("I love them.", None),  # a verdict, not a reading: the focus is asked about as liked
        ("the app annoys me more than the price", None),  # names what annoys them
    ],
)
def test_a_pronoun_says_how_the_focus_is_held(
    mec_shipped: Methodology, answer: str, held: int | None
) -> None:
    read = extract(mec_shipped, "headphones", answer, ("price", "attribute"))
    restated = [n for n in read.nodes if n.label == "price"]
    if held is None:
        assert all(n.stance != -1 or "price" in n.quote for n in restated), read.nodes
    else:
        (node,) = restated
        assert node.stance == held and node.quote in answer


@pytest.fixture(scope="module")
def mec_shipped() -> Methodology:
    return shipped_mec()


def test_what_held_them_back_is_a_pain(jtbd: Methodology) -> None:
    # round 71: asked what made them hesitate, "honestly the money" was read as what they went
    # for, and the next question asked "What made you go for the money rather than ...?"
    answer = "hmm honestly the money, they arent cheap."
    read = extract(
        jtbd,
        "commuting",
        answer,
        ("before the bike", "job_context"),
        strategy="probe_switch",
        question="What, if anything, made you hesitate before changing?",
    )
    types = {n.label: n.node_type for n in read.nodes}
    assert types["money"] == "pain_point", types
    # ... and what got them past a worry is what they did, not a pain
    past = extract(
        jtbd,
        "commuting",
        "a mate lent me his for a week",
        ("getting it nicked", "emotional_job"),
        strategy="probe_anxieties",
        question="How did you get past that in the end?",
    )
    assert all(n.node_type != "pain_point" for n in past.nodes), past.nodes


def test_what_a_question_asks_to_be_harder_is_held_against_and_a_condition_is_no_verdict() -> None:
    # round 217 asked "How does that help you?" of the letterboxes, answered to "What does waking
    # up stiff make harder for you?", and "What does that make harder for you?" of a trial
    # period whose "if it was rubbish we could send it back" was its point
    from offline_fixtures import extract, shipped_mec

    from interview_cli.llm.offline.reading.stance import stance_of

    hard = extract(
        shipped_mec(),
        "cooking",
        "Everything really. Bending to the low letterboxes, and I'm grumpy with it.",
        ("waking up stiff", "functional_consequence"),
        question="What does waking up stiff make harder for you?",
    )
    assert {n.label: n.stance for n in hard.nodes}["bending to the low letterboxes"] == -1
    easy = extract(
        shipped_mec(),
        "commuting",
        "Honestly nothing, it makes the hill easy and I get to work fresh",
        ("e-bike", "attribute"),
        question="What does the e-bike make harder for you, if anything?",
    )
    assert {n.label: n.stance for n in easy.nodes}["makes the hill easy"] == 1
    assert stance_of("It looked as if it was broken when it arrived") == -1
    assert stance_of("so if it's rubbish we could send it back") == 0
    said = "They gave us 100 nights to try it tho so if it was rubbish we could send it back"
    assert stance_of(said) == 0
    assert stance_of("the trial was rubbish") == -1
