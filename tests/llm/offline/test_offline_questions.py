"""Offline question wording: every strategy family has several short, plain, non-leading
wordings, a strategy is read by its name first (so "situational" is not explore), the
redirection families ask what their name says, and no template is used twice in a row."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from interview_cli.config.schemas import Concept, Methodology, StrategySpec
from interview_cli.llm.offline.asking.questions import family_for, offline_question, template_of
from interview_cli.llm.offline.asking.wording import TEMPLATES, TOPIC_TEMPLATES
from interview_cli.llm.protocol import QuestionRequest

ROOT = Path(__file__).resolve().parents[3]
JARGON = re.compile(
    r"\b(?:attributes?|consequences?|values?|ladder\w*|means-end|psychosocial|instrumental|"
    r"terminal|node|strateg\w*)\b",
    re.IGNORECASE,
)
LEADING = re.compile(r"\b(?:don't you|wouldn't you|isn't it|surely|obviously|agree)\b", re.I)
NEW_FAMILIES = ("negative_ladder", "third_person", "situational", "breadth_check")
ALL_WORDINGS = [t for family in (TEMPLATES, TOPIC_TEMPLATES) for ts in family.values() for t in ts]


def _words(template: str) -> int:
    return len(re.sub(r"\{\w+\}", "", template).split())


@pytest.fixture(scope="module")
def mec() -> Methodology:
    data = yaml.safe_load((ROOT / "methodologies" / "means_end_chain.yaml").read_text("utf-8"))
    return Methodology.model_validate(data)


def strategy(name: str, description: str = "", *, node: bool = True) -> StrategySpec:
    return StrategySpec(
        name=name,
        description=description,
        node_binding="required" if node else "none",
        focus_mode="recent_node" if node else "topic",
    )


def ask(
    mec: Methodology,
    spec: StrategySpec,
    focus: str | None = None,
    *,
    topic: str = "Road cycling",
    turn: int = 3,
    avoid: list[str] | None = None,
    depth: int = 0,
    stance: int = 0,
) -> str:
    concept = Concept(id="topic", name=topic, methodology="means_end_chain", objective="x")
    request = QuestionRequest(
        methodology=mec,
        concept=concept,
        strategy=spec,
        focus_label=focus,
        focus_type="attribute" if focus else None,
        turn_number=turn,
        avoid_questions=avoid or [],
        depth=depth,
        focus_stance=stance,
    )
    return offline_question(request)


@pytest.mark.parametrize(
    ("name", "description", "family"),
    [
        ("negative_ladder", "", "negative_ladder"),
        ("third_person", "", "third_person"),
        ("situational", "", "situational"),
        ("breadth_check", "", "breadth_check"),
        # a description that would have matched an older family does not win over the name
        ("situational", "Explore the situation: ask why it matters", "situational"),
        ("negative_ladder", "Ladder down: why would its absence matter", "negative_ladder"),
        ("breadth_check", "Explore breadth before moving on", "breadth_check"),
        # the names the shipped methodologies use keep their families
        ("deepen", "", "deepen"),
        ("explore", "", "explore"),
        ("explore_situation", "", "explore"),
        ("dig_motivation", "", "deepen"),
        ("clarify", "", "clarify"),
        ("revitalize", "", "revitalize"),
        ("probe_attributions", "", "attribution"),
        # an unnamed family is found from the description
        ("ask_differently", "Negative laddering: the absence of the thing", "negative_ladder"),
        ("ask_others", "Third-person projection", "third_person"),
    ],
)
def test_strategies_map_to_their_family_by_name_first(
    name: str, description: str, family: str
) -> None:
    assert family_for(name, description) == family


@pytest.mark.parametrize("wording", ALL_WORDINGS)
def test_wordings_are_short_plain_and_not_leading(wording: str) -> None:
    assert _words(wording) <= 20, wording
    assert not JARGON.search(wording), wording
    assert not LEADING.search(wording), wording


@pytest.mark.parametrize("family", [*NEW_FAMILIES, "deepen", "deepen_anchored", "clarify"])
def test_each_family_has_several_one_question_wordings(family: str) -> None:
    wordings = TEMPLATES[family]
    assert len(wordings) >= 5
    assert all(w.count("?") == 1 and w.endswith("?") for w in wordings)


def test_few_deepen_wordings_are_why_does_it_matter() -> None:
    matter = [t for t in TEMPLATES["deepen"] if re.search(r"\bmatters?\b", t)]
    assert len(matter) <= 2 < len(TEMPLATES["deepen"]) - len(matter)


@pytest.mark.parametrize(
    ("name", "signs"),
    [
        ("negative_ladder", r"\b(?:without|didn't|wasn't|gone|miss|stopped)\b"),
        ("third_person", r"\b(?:someone|people|friend)\b"),
        ("situational", r"\b(?:last time|recent|when did|where were you)\b"),
    ],
)
def test_redirection_questions_ask_what_their_name_says(
    mec: Methodology, name: str, signs: str
) -> None:
    for turn in range(12):
        text = ask(mec, strategy(name), "disc brakes", turn=turn)
        assert '"disc brakes"' in text and re.search(signs, text, re.I), text


def test_redirections_without_a_node_ask_about_the_topic(mec: Methodology) -> None:
    for name in ("negative_ladder", "third_person", "situational"):
        text = ask(mec, strategy(name, node=False), topic="Banking apps")
        assert "banking apps" in text and '"' not in text, text


def test_breadth_check_is_about_the_topic_and_names_no_node(mec: Methodology) -> None:
    asked = {
        ask(mec, strategy("breadth_check", node=False), topic="Cooking at home", turn=t)
        for t in range(12)
    }
    assert len(asked) >= 4
    for text in asked:
        assert "cooking at home" in text and '"' not in text
        assert re.search(r"\belse\b|\bhaven't\b", text), text


@pytest.mark.parametrize("name", ["deepen", *NEW_FAMILIES, "clarify", "explore"])
def test_never_the_same_wording_twice_in_a_row(mec: Methodology, name: str) -> None:
    node = name != "breadth_check" and name != "explore"
    labels = ["disc brakes", "light frame", "feel safe", "keep up on climbs", "being fit"]
    asked: list[str] = []
    for turn in range(1, 16):
        focus = labels[turn % len(labels)] if node else None
        asked.append(ask(mec, strategy(name, node=node), focus, turn=turn, avoid=asked[-6:]))
    templates = [template_of(q) for q in asked]
    assert None not in templates
    assert all(a != b for a, b in zip(templates, templates[1:], strict=False)), asked
    assert len(set(templates)) >= 4


def test_the_wording_of_the_previous_question_is_recognised(mec: Methodology) -> None:
    # A "why" about another node right after "Why does X matter to you?" is worded otherwise,
    # whatever the seed would have picked.
    for turn in range(10):
        previous = 'Why does "disc brakes" matter to you?'
        text = ask(mec, strategy("deepen"), "feel safe", turn=turn, avoid=[previous])
        assert template_of(text) != template_of(previous), text


def test_anchored_why_questions_name_the_topic(mec: Methodology) -> None:
    texts = {
        ask(mec, strategy("deepen"), "feel safe", topic="Road cycling", turn=t, depth=3)
        for t in range(10)
    }
    assert any("road cycling" in t for t in texts) and len(texts) >= 4


@pytest.mark.parametrize("name", ["deepen", "negative_ladder"])
def test_a_dislike_is_asked_what_it_costs_not_what_it_gives(mec: Methodology, name: str) -> None:
    # "What do you get out of 'blisters from every pair'?" asked a respondent who hates them
    for turn in range(1, 7):
        for depth in (0, 3):
            text = ask(mec, strategy(name), "blisters", turn=turn, depth=depth, stance=-1)
            assert re.search(r"bother|problem|get in the way", text), text
            assert not re.search(r"get out of|give|miss|help", text), text
    liked = {ask(mec, strategy("deepen"), "grip", turn=turn) for turn in range(1, 7)}
    assert not any("bother" in text or "problem" in text for text in liked)
