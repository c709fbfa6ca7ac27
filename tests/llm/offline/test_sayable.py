"""A node the offline questions cannot say back in the respondent's words is read with doubt
(``llm.offline.sayable``), so it is neither asked about nor read back until said again."""

from __future__ import annotations

from interview_cli.core.models import ExtractedNode, Extraction
from interview_cli.llm.offline.reading.extraction import DOUBTFUL
from interview_cli.llm.offline.sayable import doubting_the_unsayable


def _node(label: str, quote: str) -> ExtractedNode:
    return ExtractedNode(label=label, node_type="attribute", quote=quote, confidence=0.7)


def test_a_node_no_question_can_say_back_is_doubted_the_rest_kept() -> None:
    # dev reading set: "per year" was asked "What else comes to mind when you think about the
    # seat?"; the price of the seat, said as a clean phrase, stays as read
    answer = (
        "Because the seat is the one thing I won't be cheap about, it's about 300 quid per "
        "year of use really, and the price was fine."
    )
    read = Extraction(
        extractable=True,
        nodes=[_node("per year", "per year"), _node("price", "the price was fine")],
    )
    doubted = doubting_the_unsayable(read, answer)
    confidence = {n.label: n.confidence for n in doubted.nodes}
    assert confidence == {"per year": DOUBTFUL, "price": 0.7}, confidence
    # all of it sayable: the same extraction back
    sayable = Extraction(extractable=True, nodes=[_node("price", "the price was fine")])
    assert doubting_the_unsayable(sayable, answer) is sayable
