"""The offline interviewer goes by a strategy's declared family, never by its name: a
strategy named freely asks, and has its answer read, as its family does; a name that says
one family while the YAML declares another follows the YAML."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from offline_fixtures import A, extract, shipped_mec
from test_offline_questions import _methodology, ask

from interview_cli.config.families import StrategyFamily
from interview_cli.config.schemas import Concept, Methodology
from interview_cli.config.yamlio import load_yaml
from interview_cli.llm.offline.asking.questions import offline_question, template_of
from interview_cli.llm.offline.asking.wording import WORDINGS
from interview_cli.llm.offline.shapes.grid import extract_grid, grid_question
from interview_cli.llm.offline.shapes.journey import journey_question
from interview_cli.llm.protocol import ExtractRequest, QuestionRequest

ROOT = Path(__file__).resolve().parents[3]
SCENE = "It was on a wet descent in March, I could brake late and still feel safe."


def _renamed(methodology: Methodology, like: str, name: str, family: str) -> Methodology:
    """The methodology with one more strategy: a copy of ``like`` under another name and
    family (as a user adds one in YAML)."""
    base = methodology.strategy(like)
    assert base is not None
    added = base.model_copy(update={"name": name, "family": family})
    kept = [s for s in methodology.strategies if s.name != name]  # or ``like`` redeclared
    return methodology.model_copy(update={"strategies": [*kept, added]})


def _templates(family: str) -> set[str]:
    w = WORDINGS[family]
    return {*w.noun, *w.that, *w.thing, *w.plain}


def _ask(methodology: Methodology, name: str, turn: int) -> str:
    strategy = methodology.strategy(name)
    assert strategy is not None
    concept = Concept(id="c", name="Road cycling", methodology=methodology.name, objective="x")
    request = QuestionRequest(
        methodology=methodology,
        concept=concept,
        strategy=strategy,
        focus_label="disc brakes",
        focus_type=A,
        turn_number=turn,
        answers=["I love the disc brakes."],
    )
    return offline_question(request)


@pytest.mark.parametrize(
    ("name", "like", "family"),
    [
        ("ask_it_another_way", "negative_ladder", "negative_ladder"),
        ("deepen_more", "deepen", "clarify"),  # the name says deepen, the YAML clarify
        ("situational", "situational", "third_person"),
    ],
)
def test_the_question_is_worded_by_the_declared_family(name: str, like: str, family: str) -> None:
    methodology = _renamed(shipped_mec(), like, name, family)
    for turn in range(1, 7):
        question = _ask(methodology, name, turn)
        assert template_of(question) in _templates(family), question


def test_the_reader_climbs_from_the_focus_by_family_not_by_name() -> None:
    methodology = _renamed(shipped_mec(), "situational", "now_and_then", "situational")
    methodology = _renamed(methodology, "deepen", "deepen_the_focus", "clarify")
    # a situational family: the scene is skipped and what it made possible climbs from the focus
    scene = extract(methodology, "cycling", SCENE, ("disc brakes", A), "now_and_then")
    assert [n.label for n in scene.nodes] == ["could brake late"]
    assert [(e.source, e.target) for e in scene.edges] == [("disc brakes", "could brake late")]
    # a clarifying question whose name says "deepen": nothing is put above the focus
    clarified = extract(methodology, "cycling", SCENE, ("disc brakes", A), "deepen_the_focus")
    assert clarified.edges == []


def _load(kind: str, name: str) -> dict[str, Any]:
    return load_yaml((ROOT / kind / f"{name}.yaml").read_text("utf-8"))


def test_a_journey_asks_about_pain_by_family() -> None:
    journey = Methodology.model_validate(_load("methodologies", "customer_journey"))
    stages = Concept.model_validate(_load("concepts", "grocery_delivery_journey"))
    methodology = _renamed(journey, "map_steps", "what_went_wrong", "obstacle")
    request = QuestionRequest(
        methodology=methodology,
        concept=stages,
        strategy=methodology.strategy("what_went_wrong"),
        focus_label="the slot was gone",
        focus_type="pain_point",
        answers=["By Sunday night the slot was gone."],
    )
    question = journey_question(request)
    assert question is not None and re.search(r"made that better|would have helped", question)


@pytest.mark.parametrize(("family", "why"), [("deepen", True), ("generic", False)])
def test_a_grid_ladders_a_construct_by_family(family: StrategyFamily, why: bool) -> None:
    grid = Methodology.model_validate(_load("methodologies", "repertory_grid"))
    transport = Concept.model_validate(_load("concepts", "transport_modes_grid"))
    # "ladder_construct" declared generic asks for ratings; "go_up" declared deepen, why
    name = "go_up" if family == "deepen" else "ladder_construct"
    methodology = _renamed(grid, "ladder_construct", name, family)
    focus = {"focus_label": "private vs shared", "focus_type": "construct"}
    spec = methodology.strategy(name)
    assert spec is not None
    question = grid_question(
        QuestionRequest(methodology=methodology, concept=transport, strategy=spec, **focus)
    )
    assert question.startswith("Why does that difference matter") == why, question
    answer = "Because on my own I can think."
    read = extract_grid(
        ExtractRequest(
            methodology=methodology,
            concept=transport,
            answer=answer,
            utterance_id="u",
            strategy=name,
            **focus,
        )
    )
    assert any(e.relation != "rated" for e in read.edges) == why, read


def test_a_need_is_asked_why_it_matters_not_how_it_helps() -> None:
    # "You mentioned that they must not cost a fortune. How does that help you?" (round 7)
    methodology = shipped_mec()
    strategy = methodology.strategy("deepen")
    assert strategy is not None
    concept = Concept(id="c", name="Phone plans", methodology=methodology.name, objective="x")
    for label, answer, family in (
        (
            "must not cost a fortune",
            "I need calls abroad and they must not cost a fortune",
            "requirement",
        ),
        # (a relief the reader could not call good: why it matters, no "what's good about it")
        ("never have to think about charging", "I never have to think about charging", "open_why"),
    ):
        for turn in range(1, 7):
            request = QuestionRequest(
                methodology=methodology,
                concept=concept,
                strategy=strategy,
                focus_label=label,
                focus_type=A,
                turn_number=turn,
                answers=[answer],
            )
            question = offline_question(request)
            assert template_of(question) in _templates(family), question


def test_what_they_do_not_do_is_asked_why_it_matters_not_what_gets_in_its_way() -> None:
    # round 215 asked of "I'm not asking my sister for lifts", which she was glad of, "What
    # gets in the way there?"
    data = load_yaml((ROOT / "methodologies" / "jobs_to_be_done.yaml").read_text("utf-8"))
    jtbd = Methodology.model_validate(data)
    concept = Concept(id="c", name="E-bike commuting", methodology=jtbd.name, objective="x")
    strategy = jtbd.strategy("uncover_obstacles")
    assert strategy is not None
    said = ["it keeps me independent, I'm not asking my sister for lifts"]
    for turn in range(1, 7):
        question = offline_question(
            QuestionRequest(
                methodology=jtbd,
                concept=concept,
                strategy=strategy,
                focus_label="not asking my sister",
                focus_type="job_context",
                turn_number=turn,
                answers=said,
            )
        )
        assert template_of(question) in _templates("open_why"), question


def _four(spec: Any, focus: str, said: list[str], quotes: list[str]) -> list[str]:
    """What a Jobs-to-be-Done strategy asks of one focus (a way of doing it) on four turns."""
    jtbd = _methodology("jobs_to_be_done")
    return [
        ask(jtbd, spec, focus, turn=t, answers=said, focus_type="solution_approach", quotes=quotes)
        for t in range(4)
    ]


def test_what_someone_else_did_is_no_way_they_went_for() -> None:
    # Round 261: "You said baby woke you. What made you go for that rather than something
    # else?" - "I didnt choose the baby to wake me up haha"
    jtbd = _methodology("jobs_to_be_done")
    dig = jtbd.strategy("dig_motivation")
    assert dig is not None
    woke = "Baby woke us at 5:40, I took her so my wife can sleep a bit more"
    for quote in (woke, "me mam passed away", "my wife's gone back to work", "then the twins came"):
        for text in _four(dig, "baby woke us", [quote], [quote]):
            assert "go for" not in text and "consider" not in text, (quote, text)
    # ... but what they themselves went for is (and what someone of theirs likes is a reason
    # to go for it, not done to them)
    # (nor what someone of theirs did that won them over: the review)
    for quote in (
        "I got the grinder",
        "the kids love it",
        "my son recommended the Sony XM5s",
        "The kids loved the recipes on the trial box",
    ):
        asked = _four(dig, quote, [quote], [quote])
        assert any("go for" in text or "consider" in text for text in asked), asked
