"""A guide topic is raised once: asked about, it is not asked again whatever the answer said."""

from __future__ import annotations

from interview_cli.config.schemas import Concept
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.pipeline.questions import guide_context


def test_a_guide_topic_asked_once_is_not_raised_again() -> None:
    # Round 14: "What part does battery life play for you?", "Where does battery life fit in
    # for you?", "How does battery life come into it for you?" - asked of someone who had said
    # "all day battery" (never "life", so the topic stayed uncovered)
    concept = Concept(
        id="g",
        name="Wireless headphones",
        methodology="means_end_chain",
        objective="why",
        guide={"must_cover": ["battery life", "price"]},
    )
    graph = KnowledgeGraph()
    assert guide_context(concept, graph)["guide_remaining"] == ["battery life", "price"]
    asked = [
        "When you think about wireless headphones...?",
        "What part does battery life play for you?",
    ]
    assert guide_context(concept, graph, asked)["guide_remaining"] == ["price"]
