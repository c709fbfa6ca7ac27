"""The offline reader on answers to an element question (a concept test): the element the
question raised is recorded with the respondent's reaction, whether or not the answer names
it; seed 000's reactions (skeptical and curious among them) are read from the words people use
(the cases are data: data/element_reactions.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.config.study import REACTIONS
from interview_cli.config.yamlio import load_yaml
from interview_cli.llm.offline.reading.extraction import extract_offline
from interview_cli.llm.offline.reading.reactions import reaction_of
from interview_cli.llm.prompts.analysis import ELEMENT_RULE
from interview_cli.llm.protocol import ExtractRequest

ROOT = Path(__file__).resolve().parents[3]
CASES: list[dict[str, Any]] = load_yaml(
    (Path(__file__).parent / "data" / "element_reactions.yaml").read_text(encoding="utf-8")
)


def _load(kind: str, name: str) -> Any:
    return load_yaml((ROOT / kind / f"{name}.yaml").read_text(encoding="utf-8"))


MEC = Methodology.model_validate(_load("methodologies", "means_end_chain"))
LOCK = Concept.model_validate(_load("concepts", "smart_lock_concept_mec"))


def read(answer: str, element: str | None, question: str = "What do you make of it?") -> Any:
    return extract_offline(
        ExtractRequest(
            methodology=MEC,
            concept=LOCK,
            answer=answer,
            utterance_id="u5",
            question=question,
            strategy="cover_element",
            element_id=element,
        )
    )


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['element']}:{c['answer'][:24]}")
def test_the_raised_element_is_recorded_with_the_reaction(case: dict[str, Any]) -> None:
    extraction = read(case["answer"], case["element"])
    about = [n for n in extraction.nodes if n.element_id == case["element"]]
    if case["reaction"] == "none":
        assert not about, extraction
        return
    assert len(about) == 1, extraction
    node = about[0]
    assert node.reaction == case["reaction"], (case["answer"], node)
    assert node.quote in case["answer"]  # the respondent's words, never the stimulus's


def test_the_element_node_leads_to_what_it_does_for_them() -> None:
    extraction = read("love that, so I feel safe at night", "auto_lock")
    element = next(n for n in extraction.nodes if n.element_id == "auto_lock")
    assert element.label == "the door locks itself when you leave"
    assert element.node_type == "attribute" and element.reaction == "positive"
    targets = {e.target for e in extraction.edges if e.source == element.label}
    assert targets and all(
        n.node_type != "attribute" for n in extraction.nodes if n.label in targets
    )


def test_an_element_named_in_the_answer_is_not_added_twice() -> None:
    extraction = read("the fingerprint is brilliant, I'm always losing keys", "phone_fingerprint")
    about = [n for n in extraction.nodes if n.element_id == "phone_fingerprint"]
    assert len(about) == 1 and about[0].label != LOCK.elements[0].label
    assert about[0].reaction == "positive"


def test_without_an_element_question_nothing_is_added() -> None:
    assert not [n for n in read("sounds good", None).nodes if n.element_id]


def test_a_neutral_clause_takes_its_sentences_reaction() -> None:
    extraction = read("199 quid tho, bit steep for a lock", None, "Having read it, thoughts?")
    price = next(n for n in extraction.nodes if n.element_id == "price")
    assert price.reaction == "negative"


def test_a_liking_word_after_a_negation_is_a_dislike() -> None:
    def stance(text: str) -> int:
        return 0

    assert reaction_of("really useful", stance) == "positive"
    assert reaction_of("not really useful", stance) == "negative"
    assert reaction_of("not bad at all", stance) == "positive"


def test_the_model_is_told_every_reaction() -> None:
    assert all(reaction in ELEMENT_RULE for reaction in REACTIONS)
    assert {"skeptical", "curious"} <= set(REACTIONS)
