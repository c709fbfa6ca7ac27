"""The model's side of a concept test: the opening brief holds the stimulus shown, an element
question's brief names the element to raise, extraction is told which element the question
raised and every reaction, and a simulated respondent sees the stimulus too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from interview_cli.config.schemas import Concept, Methodology, Persona
from interview_cli.config.study import REACTIONS
from interview_cli.config.yamlio import load_yaml
from interview_cli.llm.offline.asking.questions import element_phrase, offline_question
from interview_cli.llm.prompts.analysis import render_extract
from interview_cli.llm.prompts.generation import render_opening, render_persona, render_question
from interview_cli.llm.protocol import (
    ExtractRequest,
    OpeningRequest,
    PersonaRequest,
    QuestionRequest,
)
from interview_cli.llm.validation import validate_extraction

ROOT = Path(__file__).resolve().parents[2]


def _load(kind: str, name: str) -> Any:
    return load_yaml((ROOT / kind / f"{name}.yaml").read_text(encoding="utf-8"))


MEC = Methodology.model_validate(_load("methodologies", "means_end_chain"))
LOCK = Concept.model_validate(_load("concepts", "smart_lock_concept_mec"))
HEADPHONES = Concept.model_validate(_load("concepts", "headphones_mec"))


def _element_question(**kw: Any) -> QuestionRequest:
    cover = MEC.strategy("cover_element")
    assert cover is not None
    return QuestionRequest(
        methodology=MEC, concept=LOCK, strategy=cover, element_id="battery_backup_key", **kw
    )


def test_the_opening_brief_holds_the_stimulus_shown() -> None:
    user = render_opening(OpeningRequest(methodology=MEC, concept=LOCK)).user
    assert "<stimulus>" in user and "Latchwise - the keyless smart lock" in user
    assert "first reaction" in user
    plain = render_opening(OpeningRequest(methodology=MEC, concept=HEADPHONES)).user
    assert "<stimulus>" not in plain


def test_an_element_questions_brief_names_the_element_to_raise() -> None:
    user = render_question(_element_question()).user
    assert "<element>\nthe physical key as a back-up\n</element>" in user
    assert "have not mentioned this element" in user
    assert "raise this element of the concept" in user


def test_the_offline_element_question_says_the_element_in_its_own_words() -> None:
    text = offline_question(_element_question())
    assert "the physical key as a back-up" in text and text.count("?") == 1
    assert element_phrase("199 pounds") == '"199 pounds"'
    assert element_phrase("the app shows who came and went").startswith('"')
    assert element_phrase("the physical key as a back-up") == "the physical key as a back-up"


def _extract_request(**kw: Any) -> ExtractRequest:
    return ExtractRequest(
        methodology=MEC,
        concept=LOCK,
        answer="hmm not sure about that, six months of batteries isn't long",
        utterance_id="u7",
        question="What do you make of the physical key as a back-up?",
        strategy="cover_element",
        **kw,
    )


def test_extraction_is_told_the_raised_element_and_every_reaction() -> None:
    user = render_extract(_extract_request(element_id="battery_backup_key")).user
    assert "The question raised element battery_backup_key" in user
    assert all(reaction in user for reaction in REACTIONS)
    assert "The question raised element" not in render_extract(_extract_request()).user


@pytest.mark.parametrize(
    ("given", "kept"),
    [("skeptical", "skeptical"), ("sceptical", "skeptical"), ("curious", "curious")],
)
def test_a_models_reaction_is_validated(given: str, kept: str) -> None:
    data = {
        "extractable": True,
        "reason": "",
        "nodes": [
            {
                "label": "back-up key",
                "node_type": "attribute",
                "quote": "not sure about that",
                "stance": 0,
                "confidence": 0.8,
                "element_id": "battery_backup_key",
                "reaction": given,
            }
        ],
        "edges": [],
    }
    [node] = validate_extraction(data, _extract_request()).nodes
    assert node.reaction == kept and node.element_id == "battery_backup_key"


def test_a_simulated_respondent_sees_the_stimulus() -> None:
    persona = Persona.model_validate(_load("personas", "cooperative"))
    request = PersonaRequest(persona=persona, question="First thoughts?", stimulus="Latchwise.")
    assert "<stimulus>\nLatchwise.\n</stimulus>" in render_persona(request).user
    assert "<stimulus>" not in render_persona(request.model_copy(update={"stimulus": ""})).user
