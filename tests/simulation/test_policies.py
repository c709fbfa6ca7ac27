"""Baseline policies (core.decide.policies) through the pure turn (core.turn.advance)."""

from __future__ import annotations

from typing import Any

import pytest

from interview_cli.config.library import Library
from interview_cli.config.schemas import Concept, Methodology
from interview_cli.core.decide.policies import (
    POLICIES,
    apply_policy,
    laddering_strategy,
    opening_strategy,
)
from interview_cli.core.models import Assessment, ExtractedEdge, ExtractedNode, Extraction
from interview_cli.core.turn import CoreState, TurnInput, TurnOutcome, advance


@pytest.fixture(scope="module")
def concept(lib: Library) -> Concept:
    return lib.concept("headphones_mec").value


def node(label: str, node_type: str = "attribute") -> ExtractedNode:
    return ExtractedNode(label=label, node_type=node_type, quote=label)


# Middle scores and no safety concern: an answer read, with nothing to steer the policies
# (``Assessment.neutral()`` alone is a failed reading, which the turn treats with care).
READ = Assessment.neutral().model_copy(update={"safety": "none"})


def edge(source: str, target: str) -> ExtractedEdge:
    return ExtractedEdge(source=source, target=target, relation="leads_to")


def play(
    mec: Methodology,
    concept: Concept,
    policy: str,
    extractions: list[Extraction],
    max_turns: int = 10,
) -> list[TurnOutcome]:
    state = CoreState.initial(concept)
    outcomes = []
    for i, extraction in enumerate(extractions, start=1):
        state, outcome = advance(
            state,
            TurnInput(
                methodology=mec,
                concept=concept,
                extraction=extraction,
                assessment=READ,
                utterance_id=f"u{i}",
                max_turns=max_turns,
                policy=policy,
            ),
        )
        outcomes.append(outcome)
    return outcomes


def chosen(outcome: TurnOutcome) -> tuple[str, str | None]:
    return outcome.decision.selected.strategy, outcome.decision.selected.label


NOTHING = Extraction(extractable=False, reason="nothing")


def test_the_baselines_use_the_methodologys_own_strategies(mec: Methodology) -> None:
    ladder = laddering_strategy(mec)
    assert ladder is not None and ladder.name == "deepen"
    assert opening_strategy(mec).name == "explore"
    assert POLICIES == ("adaptive", "deepen_recent", "breadth_first")


def test_deepen_recent_ladders_the_newest_element_and_explores_when_stuck(
    mec: Methodology, concept: Concept
) -> None:
    outcomes = play(
        mec,
        concept,
        "deepen_recent",
        [
            Extraction(nodes=[node("noise cancelling"), node("long battery")]),
            Extraction(
                nodes=[node("can focus", "functional_consequence")],
                edges=[edge("long battery", "can focus")],
            ),
            NOTHING,
        ],
    )
    assert chosen(outcomes[0]) == ("deepen", "long battery")
    assert chosen(outcomes[1]) == ("deepen", "can focus")
    assert chosen(outcomes[2]) == ("explore", None)  # nothing newer than the last focus
    assert outcomes[0].decision.rationale[0].startswith("deepen_recent baseline:")


def test_breadth_first_visits_every_element_once_lowest_level_first(
    mec: Methodology, concept: Concept
) -> None:
    outcomes = play(
        mec,
        concept,
        "breadth_first",
        [
            Extraction(nodes=[node("noise cancelling"), node("long battery")]),
            Extraction(
                nodes=[node("can focus", "functional_consequence")],
                edges=[edge("noise cancelling", "can focus")],
            ),
            NOTHING,
            NOTHING,
            NOTHING,
        ],
    )
    assert [chosen(o) for o in outcomes] == [
        ("deepen", "noise cancelling"),
        ("deepen", "long battery"),  # the other attribute before the consequence above
        ("deepen", "can focus"),
        ("explore", None),  # every element asked about once
        ("explore", None),
    ]


def test_a_baseline_never_closes_by_itself_but_stops_at_the_limit(
    mec: Methodology, concept: Concept
) -> None:
    extractions = [Extraction(nodes=[node(f"thing {i}")]) for i in range(4)]
    outcomes = play(mec, concept, "breadth_first", extractions, max_turns=4)
    strategies = {o.decision.selected.strategy for o in outcomes}
    assert "reflect" not in strategies
    assert outcomes[-1].decision.continuation.reason == "Maximum turns reached"
    assert all(o.decision.continuation.should_continue for o in outcomes[:-1])


def test_the_selected_candidate_is_marked_when_it_was_scored(
    mec: Methodology, concept: Concept
) -> None:
    (outcome,) = play(mec, concept, "deepen_recent", [Extraction(nodes=[node("fit")])])
    marked = [c for c in outcome.decision.candidates if c.selected]
    assert [(c.strategy, c.node_label) for c in marked] == [("deepen", "fit")]


def test_adaptive_is_the_default_and_untouched(mec: Methodology, concept: Concept) -> None:
    extraction = Extraction(nodes=[node("noise cancelling")])
    state = CoreState.initial(concept)
    kwargs: dict[str, Any] = {
        "methodology": mec,
        "concept": concept,
        "extraction": extraction,
        "assessment": READ,
        "utterance_id": "u1",
        "max_turns": 10,
    }
    _, default = advance(state, TurnInput(**kwargs))
    _, adaptive = advance(state, TurnInput(policy="adaptive", **kwargs))
    assert default.decision.to_dict() == adaptive.decision.to_dict()
    assert apply_policy("adaptive", default.decision, None) is default.decision  # type: ignore[arg-type]


def test_baselines_replay_to_the_same_decisions(mec: Methodology, concept: Concept) -> None:
    extractions = [Extraction(nodes=[node("a")]), Extraction(nodes=[node("b")]), NOTHING]
    first = [o.decision.to_dict() for o in play(mec, concept, "deepen_recent", extractions)]
    again = [o.decision.to_dict() for o in play(mec, concept, "deepen_recent", extractions)]
    assert first == again


def test_unknown_policy_is_refused(mec: Methodology, concept: Concept) -> None:
    with pytest.raises(ValueError, match="unknown policy"):
        play(mec, concept, "random_walk", [Extraction(nodes=[node("a")])])
