"""Offline extraction, questions and schemas for journey and grid methodologies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.config.yamlio import load_yaml
from interview_cli.core.models import Extraction
from interview_cli.llm.offline.shapes.grid import extract_grid
from interview_cli.llm.offline.shapes.journey import extract_journey, valence
from interview_cli.llm.prompts.output_schemas import extraction_schema
from interview_cli.llm.protocol import ExtractRequest, NodeContext
from interview_cli.llm.validation import _value

ROOT = Path(__file__).resolve().parents[3]


def _load(kind: str, name: str) -> Any:
    return load_yaml((ROOT / kind / f"{name}.yaml").read_text(encoding="utf-8"))


JOURNEY = Methodology.model_validate(_load("methodologies", "customer_journey"))
GRID = Methodology.model_validate(_load("methodologies", "repertory_grid"))
STAGES = Concept.model_validate(_load("concepts", "grocery_delivery_journey"))
TRANSPORT = Concept.model_validate(_load("concepts", "transport_modes_grid"))


def _request(m: Methodology, c: Concept, answer: str, **kw: Any) -> ExtractRequest:
    return ExtractRequest(methodology=m, concept=c, answer=answer, utterance_id="u1", **kw)


def _kinds(x: Extraction) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for node in x.nodes:
        out.setdefault(node.node_type, []).append(node.label)
    return out


def test_a_stage_told_in_order_with_touchpoint_emotion_and_pain() -> None:
    x = extract_journey(
        _request(
            JOURNEY,
            STAGES,
            "I opened the supermarket app and looked for a delivery slot, but all the evening "
            "slots were gone and I felt stressed.",
            question="Walk me through it, starting with choosing a delivery slot.",
        )
    )
    kinds = _kinds(x)
    assert kinds["stage"] == ["choosing a delivery slot"]
    assert kinds["touchpoint"] == ["the supermarket app"]
    assert kinds["pain_point"] == ["all the evening slots were gone"]
    felt = [e for e in x.edges if e.relation == "felt"]
    assert [(e.source, e.target, e.value) for e in felt] == [
        ("choosing a delivery slot", "stressed", -1.0)
    ]


def test_a_later_stage_links_from_the_one_before_and_a_fix_from_the_pain() -> None:
    x = extract_journey(
        _request(
            JOURNEY,
            STAGES,
            "Then at checkout the website crashed, they should save my card. I was furious.",
            question="Let's move on to filling the basket. How did that part go?",
        )
    )
    links = {(e.source, e.relation, e.target) for e in x.edges}
    assert ("filling the basket", "next_stage", "checkout and payment") in links
    assert ("the website crashed", "would_help", "save my card") in links
    assert next(e.value for e in x.edges if e.relation == "felt") == -2.0
    assert valence("I wasn't happy") == -1 and valence("not stressed at all") == 1


def test_an_elicited_journey_opens_stages_in_the_respondents_words() -> None:
    concept = STAGES.model_copy(update={"elements": []})
    x = extract_journey(
        _request(
            JOURNEY,
            concept,
            "Then I sat in the waiting room, I was nervous.",
            existing_nodes=[NodeContext(label="rang the surgery", node_type="stage")],
        )
    )
    assert _kinds(x)["stage"] == ["sat in the waiting room"]
    assert ("rang the surgery", "next_stage") in {(e.source, e.relation) for e in x.edges}


def test_a_triad_answer_gives_a_bipolar_construct_with_implicit_ratings() -> None:
    x = extract_grid(
        _request(
            GRID,
            TRANSPORT,
            "The car and the bus are both motorised, while the bicycle is human powered.",
            question="Think of car, bus and bicycle. In what way are two alike?",
        )
    )
    assert _kinds(x)["construct"] == ["motorised vs human powered"]
    ratings = {e.source: e.value for e in x.edges if e.relation == "rated"}
    assert ratings == {"car": 1.0, "bus": 1.0, "bicycle": 5.0}


def test_ratings_on_the_focus_construct_and_one_outside_the_scale() -> None:
    x = extract_grid(
        _request(
            GRID,
            TRANSPORT,
            "the car is a 2, bike 4, walking five, and the train 9",
            strategy="rate_elements",
            focus_label="cheap vs expensive",
            focus_type="construct",
        )
    )
    ratings = {e.source: e.value for e in x.edges}
    assert ratings == {"car": 2.0, "bicycle": 4.0, "walking": 5.0}
    assert [r.reason for r in x.rejected] == ["rating 9 is outside the scale 1-5"]


def test_real_providers_are_asked_for_values_only_in_shaped_schemas() -> None:
    ladder = Methodology.model_validate(_load("methodologies", "means_end_chain"))
    edge = extraction_schema(ladder)["properties"]["edges"]["items"]["properties"]
    assert "value" not in edge
    edge = extraction_schema(GRID, TRANSPORT)["properties"]["edges"]["items"]["properties"]
    assert "rating (1-5)" in edge["value"]["description"]
    assert _value("4") == 4.0 and _value(True) is None and _value(float("nan")) is None


def _reason(answer: str) -> Extraction:
    return extract_grid(
        _request(
            GRID,
            TRANSPORT,
            answer,
            strategy="ladder_construct",
            focus_label="cheap vs expensive",
            focus_type="construct",
        )
    )


def test_a_dont_know_is_no_reason_and_a_reason_after_one_is() -> None:
    # the reading's one classifier of non-answers decides, as for every other methodology
    for nothing in ("It just matters.", "No idea.", "No comment.", "I can't remember."):
        assert not _reason(nothing).extractable, nothing
    x = _reason("Not sure, but probably because it leaves money for the weekend")
    assert x.extractable and x.nodes[0].node_type == "value"


def test_a_reason_is_what_follows_its_because_not_a_remark_before_it() -> None:
    # round 251 made "again, bletchley is where i live, not" and "sorry, that last one was a
    # double send" values of a transport grid
    for answer, reason in (
        (
            "Again, Bletchley is where I live, not a category! But fine, it matters because "
            "whatever I use has to get me 5 miles to the office by 9 with no drama.",
            "whatever i use has to get me 5",
        ),
        (
            "Sorry, that last one was a double send. Control matters because I'm the one the "
            "kids are waiting for at 6.",
            "i'm the one the kids are waiting",
        ),
        ("It saves me time.", "it saves me time"),
    ):
        assert [n.label for n in _reason(answer).nodes] == [reason], answer


def test_a_journey_answer_that_says_nothing_tells_no_step() -> None:
    for nothing in ("Pass.", "Not really, no.", "Hmm.", "n/a"):
        x = extract_journey(_request(JOURNEY, STAGES, nothing))
        assert not x.extractable and not x.nodes, nothing


def test_a_journey_step_is_never_talk_about_the_interview() -> None:
    # round 73: "didnt i just say" and "dont know" were steps of the journey
    for answer, steps in (
        (
            "Didnt I just say? I check every label on mum's stuff.",
            ["check every label on mum's stuff"],
        ),
        ("I dont know mate. Annoyed I guess.", []),
        # round 74: "didnt we do this already" was a point of the summary
        ("didnt we do this already? I hit checkout, done.", ["hit checkout"]),
    ):
        x = extract_journey(
            _request(
                JOURNEY,
                STAGES,
                answer,
                question="What was unpacking and substitutions like for you?",
                focus_label="unpacking and substitutions",
                focus_type="stage",
            )
        )
        assert _kinds(x).get("action", []) == steps, answer
