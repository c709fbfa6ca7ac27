"""The question briefs a capable model is sent (over the real SDK against the fake server):
nothing in them contradicts the technique, a grid's rating question has its scale and
elements, a return to an earlier point is marked (and one the respondent asked for), the
opening asks one thing, and the rules name the brief's sections as the brief names them."""

from __future__ import annotations

from typing import Any

import pytest
from capable_model import capable_defaults, remote_llm, run_closed
from conftest import REPO
from fakeserver import FakeLLMServer

from interview_cli.config.loader import load_concept, load_methodology
from interview_cli.llm.prompts.generation import DISLIKE_NOTE
from interview_cli.llm.protocol import Exchange, OpeningRequest, ProbeNote, QuestionRequest

MEC = load_methodology(REPO / "methodologies" / "means_end_chain.yaml").value
JOURNEY = load_methodology(REPO / "methodologies" / "customer_journey.yaml").value
GRID = load_methodology(REPO / "methodologies" / "repertory_grid.yaml").value
HEADPHONES = load_concept(REPO / "concepts" / "headphones_mec.yaml").value
GROCERY = load_concept(REPO / "concepts" / "grocery_delivery_journey.yaml").value
TRANSPORT = load_concept(REPO / "concepts" / "transport_modes_grid.yaml").value
OLD_DISLIKE = "ask what it costs them or gets in the way of, not what it gives them"


def sent(server: FakeLLMServer, env: dict[str, str], request: Any) -> tuple[str, str]:
    capable_defaults(server)
    llm = remote_llm(env)
    call = (
        llm.generate_opening(request)
        if isinstance(request, OpeningRequest)
        else llm.generate_question(request)
    )
    run_closed(llm, call)
    messages = server.requests[-1].body["messages"]
    return messages[0]["content"], messages[-1]["content"]


def question(methodology: Any, concept: Any, strategy: str, **fields: Any) -> QuestionRequest:
    spec = methodology.strategy(strategy)
    assert spec is not None
    return QuestionRequest(methodology=methodology, concept=concept, strategy=spec, **fields)


@pytest.mark.parametrize(
    ("methodology", "concept", "strategy", "focus", "focus_type", "note"),
    [
        (MEC, HEADPHONES, "third_person", "get warm on the ears", "attribute", True),
        (MEC, HEADPHONES, "deepen", "get warm on the ears", "attribute", True),
        (JOURNEY, GROCERY, "probe_pain", "the driver came late", "pain_point", False),
    ],
)
def test_a_dislike_never_contradicts_the_technique(
    fake_server: FakeLLMServer,
    provider_env: dict[str, str],
    methodology: Any,
    concept: Any,
    strategy: str,
    focus: str,
    focus_type: str,
    note: bool,
) -> None:
    request = question(
        methodology,
        concept,
        strategy,
        focus_label=focus,
        focus_type=focus_type,
        focus_stance=-1,
        turn_number=3,
    )
    _, user = sent(fake_server, provider_env, request)
    assert OLD_DISLIKE not in user
    assert (DISLIKE_NOTE in user) is note


def test_a_grid_rating_brief_has_its_scale_and_elements(
    fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    elements = [e.label for e in TRANSPORT.elements]
    request = question(
        GRID,
        TRANSPORT,
        "rate_elements",
        focus_label="relaxing vs stressful",
        focus_type="construct",
        rated_elements=elements[:3],
        turn_number=4,
    )
    _, user = sent(fake_server, provider_env, request)
    assert "The grid's scale: 1 = relaxing, 5 = stressful." in user
    assert "The elements: " + ", ".join(elements) + "." in user
    assert "still to rate: " + ", ".join(elements[3:]) + "." in user


def test_a_return_to_an_earlier_point_is_marked(
    fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    request = question(
        MEC,
        HEADPHONES,
        "negative_ladder",
        focus_label="battery life",
        focus_type="attribute",
        focus_said_turn=2,
        turn_number=7,
        probes=[ProbeNote(turn=3, strategy="deepen", outcome="dont_know", question="Why?")],
        recent=[Exchange(question="What does the fit give you?", answer="I can wear them all day")],
    )
    _, user = sent(fake_server, provider_env, request)
    assert "This goes back to something they said 4 answers ago, not to their last answer" in user
    just_said = request.model_copy(update={"focus_said_turn": 6})
    _, user = sent(fake_server, provider_env, just_said)
    assert "goes back to" not in user
    # a return they asked for is said to be theirs; what they went back to say is asked as
    # what they said, not as the thing they went back to
    asked = request.model_copy(update={"asked_back": "battery life"})
    _, user = sent(fake_server, provider_env, asked)
    assert "They asked to go back to this in their last answer" in user
    assert "goes back to something" not in user
    went = asked.model_copy(update={"went_back_to": "battery <b>life</b>"})
    _, user = sent(fake_server, provider_env, went)
    assert 'they went back to "battery &lt;b>life&lt;/b>"' in user, user
    assert "They asked to go back to this" not in user


def test_the_opening_asks_one_thing(
    fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    system, user = sent(
        fake_server, provider_env, OpeningRequest(methodology=MEC, concept=HEADPHONES)
    )
    assert "never two at once, such as what they like and what annoys them" in system
    assert "What the study covers over the whole interview (not in this first question):" in user
    assert "About the topic:" not in user


def test_the_rules_name_the_sections_of_the_brief(
    fake_server: FakeLLMServer, provider_env: dict[str, str]
) -> None:
    request = question(
        MEC,
        HEADPHONES,
        "deepen",
        focus_label="noise cancelling",
        focus_type="attribute",
        probes=[ProbeNote(turn=2, strategy="deepen", outcome="new_rung", question="Why?")],
        avoid_questions=["What do you like about them?"],
        turn_number=3,
    )
    system, user = sent(fake_server, provider_env, request)
    for section in ("Already asked about this focus", "Asked recently"):
        assert f'"{section}"' in system and f"## {section}" in user
