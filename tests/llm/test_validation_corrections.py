"""A model's corrections and requests to go back are validated like its other items: one that
names an earlier node (or, for a steer, a node of this answer) is kept under that node's
exact label; one that names nothing is dropped with its reason, and the rest is kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.config.yamlio import load_yaml
from interview_cli.llm.protocol import ExtractRequest, NodeContext
from interview_cli.llm.validation import validate_extraction

ROOT = Path(__file__).resolve().parents[2]
ANSWER = "Sorry, I said four days, it's two. Can we go back to the noise cancelling?"


def _load(kind: str, name: str) -> Any:
    return load_yaml((ROOT / kind / f"{name}.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def request_() -> ExtractRequest:
    return ExtractRequest(
        methodology=Methodology.model_validate(_load("methodologies", "means_end_chain")),
        concept=Concept.model_validate(_load("concepts", "headphones_mec")),
        answer=ANSWER,
        utterance_id="u3",
        existing_labels=["charge every four days", "noise cancelling"],
        existing_nodes=[NodeContext(label="Charge every four days", node_type="attribute")],
    )


def _node(label: str, corrects: object = None) -> dict[str, Any]:
    return {
        "label": label,
        "node_type": "attribute",
        "quote": "it's two",
        "stance": 0,
        "confidence": 0.8,
        "element_id": None,
        "reaction": None,
        "corrects": corrects,
    }


def test_a_correction_of_an_earlier_node_is_kept_under_its_exact_label(
    request_: ExtractRequest,
) -> None:
    raw = {"extractable": True, "nodes": [_node("charge every two days", "Charge every Four days")]}
    result = validate_extraction(raw, request_)
    assert result.nodes[0].corrects == "charge every four days"
    assert result.rejected == []


def test_a_correction_that_names_no_earlier_node_is_dropped_and_the_node_kept(
    request_: ExtractRequest,
) -> None:
    raw = {"extractable": True, "nodes": [_node("charge every two days", "battery life")]}
    result = validate_extraction(raw, request_)
    assert [(n.label, n.corrects) for n in result.nodes] == [("charge every two days", None)]
    (refused,) = result.rejected
    assert "corrects 'battery life', which names no earlier node" in refused.reason


@pytest.mark.parametrize(
    ("steer", "kept"),
    [
        ("Noise cancelling", "noise cancelling"),  # an earlier node, by its exact label
        ("charge every two days", "charge every two days"),  # a node of this answer
        ("the weather", None),
        (42, None),
    ],
)
def test_a_steer_names_an_earlier_node_or_one_of_this_answer(
    request_: ExtractRequest, steer: object, kept: str | None
) -> None:
    raw = {"extractable": True, "nodes": [_node("charge every two days")], "steer": steer}
    result = validate_extraction(raw, request_)
    assert result.steer == kept
    refused = [r for r in result.rejected if r.kind == "response"]
    assert bool(refused) == (kept is None)


def test_a_steer_alone_is_kept_on_an_answer_with_nothing_to_extract(
    request_: ExtractRequest,
) -> None:
    raw = {"extractable": False, "reason": "asks to go back", "steer": "noise cancelling"}
    result = validate_extraction(raw, request_)
    assert (result.extractable, result.steer) == (False, "noise cancelling")


@pytest.mark.parametrize(
    ("retracted", "kept"),
    [
        (["Noise cancelling"], ["noise cancelling"]),  # an earlier node, by its exact label
        ("noise cancelling", ["noise cancelling"]),  # one label, not in a list
        (["the weather"], []),
        ([42], []),
    ],
)
def test_what_is_taken_back_names_an_earlier_node(
    request_: ExtractRequest, retracted: object, kept: list[str]
) -> None:
    raw = {"extractable": False, "reason": "a joke taken back", "retracted": retracted}
    result = validate_extraction(raw, request_)
    assert result.retracted == kept
    refused = [r for r in result.rejected if r.kind == "response"]
    assert bool(refused) == (not kept)
