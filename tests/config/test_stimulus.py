"""A concept test's stimulus and element strategy in the library files: what the respondent is
shown before the opening question, and how an element strategy must be declared."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.config.validation import methodology_issues
from interview_cli.config.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[2]


def _load(kind: str, name: str) -> Any:
    return load_yaml((ROOT / kind / f"{name}.yaml").read_text(encoding="utf-8"))


BASE: dict[str, Any] = {
    "id": "lock",
    "name": "Smart lock",
    "methodology": "means_end_chain",
    "objective": "test a concept",
    "description": "Homeowners; the concept reads: a keyless lock.",
    "elements": [{"id": "price", "label": "199 pounds"}],
}


def test_a_stimulus_is_text_with_an_optional_image_path() -> None:
    short = Concept.model_validate({**BASE, "stimulus": "Latchwise: a keyless lock."})
    assert short.stimulus is not None and short.stimulus.text == "Latchwise: a keyless lock."
    full = Concept.model_validate(
        {**BASE, "stimulus": {"text": "Latchwise.", "image": "img/lock.png"}}
    )
    assert full.stimulus is not None and full.stimulus.image == "img/lock.png"
    for bad in ({"text": ""}, {"text": "x", "picture": "y"}):
        with pytest.raises(ValidationError):
            Concept.model_validate({**BASE, "stimulus": bad})


def test_what_is_shown_the_stimulus_else_a_concept_tests_description() -> None:
    with_stimulus = Concept.model_validate({**BASE, "stimulus": "Latchwise."})
    shown = with_stimulus.shown_stimulus("ladder")
    assert shown is not None and shown.text == "Latchwise."
    described = Concept.model_validate(BASE).shown_stimulus("ladder")
    assert described is not None and described.text == BASE["description"]
    # a journey's stages and a grid's elements are no stimulus; nor is an exploratory topic
    assert Concept.model_validate(BASE).shown_stimulus("journey") is None
    assert Concept.model_validate({**BASE, "elements": []}).shown_stimulus("ladder") is None


def test_the_shipped_concept_tests_show_their_stimulus() -> None:
    mec = Methodology.model_validate(_load("methodologies", "means_end_chain"))
    for name in ("plant_yoghurt_concept_mec", "smart_lock_concept_mec"):
        concept = Concept.model_validate(_load("concepts", name))
        shown = concept.shown_stimulus(mec.shape)
        assert shown is not None and concept.stimulus is shown, name
        assert len(concept.elements) == 7, name
    cover = mec.strategy("cover_element")
    assert cover is not None and cover.focus_mode == "element" and cover.node_binding == "none"
    assert mec.tuning.coverage.min_ratio_before_stop == 0.6
    assert not methodology_issues(mec)


def _with_element_strategy(**spec: Any) -> Methodology:
    data = _load("methodologies", "means_end_chain")
    for strategy in data["strategies"]:
        if strategy["name"] == "cover_element":
            strategy.update(spec)
    return Methodology.model_validate(data)


def test_an_element_strategy_binds_no_node_and_does_not_close() -> None:
    bound = methodology_issues(_with_element_strategy(node_binding="required"))
    assert any("focus_mode: element" in message for _, message in bound)
    closing = methodology_issues(_with_element_strategy(generates_closing_question=True))
    assert any("raises a stimulus element" in message for _, message in closing)
