"""A value the last answer came to is said back before the question moves on from it
(``QuestionRequest.reached``): a typed lawnmower interview came to "being able to sort my own
house out" and was asked at once "What is it about a cordless Bosch that counts for you?", as
if it had not been heard (INTERVIEWING.md: acknowledge before moving on)."""

from __future__ import annotations

from pathlib import Path

from pipeline_talk import asked_through
from test_steer_questions import Recording

from interview_cli.config.library import Library
from interview_cli.llm.prompts.generation import render_question
from interview_cli.llm.settings import offline_settings
from interview_cli.pipeline.runner import Interview
from interview_cli.pipeline.setup import new_session

ROOT = Path(__file__).resolve().parents[2]

LAWNMOWER = [
    "Oh god, the mower. Well it's a cordless Bosch, we got it last spring after the petrol one "
    "wouldnt start for the third summer running. Main thing is I just press a button and it goes.",
    "Because I'm not yanking a cord twenty times with my shoulder, I had a frozen shoulder two "
    "years back and pulling that thing was agony honestly",
    "It means I actually do the lawn myself now instead of waiting for my son to come round, "
    "which he never does, bless him, he's got two kids under five",
    "I like being able to sort my own house out. Since my husband died I've had to learn to do "
    "everything and I'm quite proud of that to be fact. sorry, in fact",
]


def _run(concept: str, methodology: str, answers: list[str]) -> tuple[Recording, list[str]]:
    lib = Library.discover(cwd=ROOT)
    session = new_session(
        session_id="reached",
        concept=lib.concept(concept),
        methodology=lib.methodology(methodology),
        settings=offline_settings(),
        max_turns=len(answers) + 3,
    )
    llm = Recording()
    return llm, asked_through(Interview(session, store=None, llm=llm), answers)


def test_the_value_an_answer_came_to_is_said_back_before_moving_on() -> None:
    llm, asked = _run("lawnmower_mec", "means_end_chain", LAWNMOWER)
    reached = [r.reached for r in llm.requests]
    # (nothing said back while the ladder climbs; the value, once, as the question moves on)
    assert reached[:-1] == [""] * (len(reached) - 1), reached
    assert reached[-1] == "sort my own house out", reached
    assert llm.requests[-1].focus_label != "sort my own house out"
    # (after the death told with it, heard first: round 239)
    said_back = "So for you it comes down to sorting your own house out. "
    assert asked[-1].startswith(f"Sorry to hear about your husband. {said_back}"), asked
    # a capable model is told the same, in the brief
    prompt = render_question(llm.requests[-1])
    assert '"sort my own house out". Before the question, say it back' in prompt.user


def test_a_story_method_says_no_value_back() -> None:
    # (a story's links are no reasons: nothing in it is "what it comes down to")
    llm, _ = _run(
        "customer_support_ci",
        "critical_incident",
        [
            "The app cancelled my booking twice and support just sent the same email.",
            "It made me feel like nobody was listening, and that matters to me, being heard.",
        ],
    )
    assert all(not r.reached for r in llm.requests)


def test_no_value_is_said_back_before_a_question_on_what_leads_to_it_or_of_a_fear() -> None:
    # the review: "So for you it comes down to your happiness. You talked about the grandkids.
    # Why is that important to you?" asked what the answer had just said; a value held against
    # ("being lonely, that's my worst fear") is no "what it comes down to"
    from interview_cli.core.graph.knowledge import KnowledgeGraph
    from interview_cli.pipeline.questions import value_reached

    mec = Library.discover(cwd=ROOT).methodology("means_end_chain").value
    graph = KnowledgeGraph()

    def node(label: str, kind: str, turn: int, stance: int = 0) -> str:
        return graph.add_node(label, kind, methodology=mec, turn=turn, stance=stance).id

    kids = node("the grandkids", "psychosocial_consequence", 3)
    happy = node("my happiness", "terminal_value", 4)
    graph.add_relation(kids, happy, "leads_to", methodology=mec, turn=4)
    other = node("firm enough", "attribute", 1)
    assert value_reached(graph, mec, 4, other) == "my happiness"
    assert value_reached(graph, mec, 4, kids) == ""  # below it: asks what was just answered
    assert value_reached(graph, mec, 4, happy) == ""  # it: asked about, not said back
    assert value_reached(graph, mec, 5, other) == ""  # said an answer before
    lonely = node("being lonely", "terminal_value", 6, stance=-1)
    graph.add_relation(other, lonely, "leads_to", methodology=mec, turn=6)
    assert value_reached(graph, mec, 6, kids) == ""
