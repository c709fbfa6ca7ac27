"""The slot rules of canonical state version 2 (core.canonical.meaning and the placement in
core.canonical.proposals): the calibration cases in data/slot_meaning.yaml, slot names, a slot
across node types, containment that does not chain, corrections, and the word rules kept for
sessions recorded before."""

from __future__ import annotations

from pathlib import Path

import pytest
from canonical_fixtures import TUNING, apply, batch, slot
from kg_fixtures import extract, n
from test_canonical import DISTINCT, PARAPHRASES

from interview_cli.config.yamlio import load_yaml
from interview_cli.core.canonical.meaning import meaning_similarity, name_words
from interview_cli.core.canonical.slots import (
    CANONICAL_STATE_VERSION,
    WORD_RULES,
    CanonicalState,
)
from interview_cli.core.graph.knowledge import KnowledgeGraph

CASES = load_yaml((Path(__file__).parent / "data" / "slot_meaning.yaml").read_text())


def _score(case: list[str]) -> float:
    a, b, *level = case
    return meaning_similarity(a, b, containment=not level)


@pytest.mark.parametrize("case", CASES["same"], ids=lambda c: f"{c[0]} ~ {c[1]}")
def test_labels_of_one_idea_reach_the_threshold(case: list[str]) -> None:
    assert _score(case) >= TUNING.fuzzy_threshold


@pytest.mark.parametrize("case", CASES["different"], ids=lambda c: f"{c[0]} / {c[1]}")
def test_labels_of_two_ideas_stay_below_it(case: list[str]) -> None:
    assert _score(case) < TUNING.fuzzy_threshold


def test_the_word_overlap_calibration_still_holds() -> None:
    assert min(meaning_similarity(a, b) for a, b in PARAPHRASES) >= TUNING.fuzzy_threshold
    assert max(meaning_similarity(a, b) for a, b in DISTINCT) < TUNING.fuzzy_threshold


def test_similarity_is_symmetric_and_one_for_the_same_label() -> None:
    for a, b, *_ in CASES["same"] + CASES["different"]:
        assert meaning_similarity(a, b) == meaning_similarity(b, a)
        assert meaning_similarity(a, a) == 1.0


def test_names_keep_the_idea_words_a_negation_inverters_and_units() -> None:
    assert name_words("the noise cancelling is proper good") == ["noise", "cancelling"]
    assert name_words("don't have to think about charging") == ["not", "charging"]
    assert name_words("I only charge them about every four days") == ["charge", "days"]
    assert name_words("still plenty") == ["still", "plenty"]  # light words only: as said


# ---- placement ------------------------------------------------------------------------------


def _two_turns(first: list[tuple[str, str]], second: list[tuple[str, str]], **kw):
    """Turn 1's labels each proposed alone, then turn 2's: the slots they end in."""
    graph = KnowledgeGraph()
    state = kw.pop("state", CanonicalState())
    for turn, labels in ((1, first), (2, second)):
        extract(graph, [n(label, kind) for label, kind in labels], turn=turn)
        batches = [
            batch(graph, label, node_type=kind, proposals=[slot(name, label, node_type=kind)])
            for (label, kind), name in zip(labels, (f"p{turn}_{i}" for i in range(9)), strict=False)
        ]
        state, record = apply(state, graph, batches, turn)
    return state, record, {m.surface_label: m for m in state.mappings}


def test_a_slot_takes_the_same_idea_given_another_node_type() -> None:
    state, _, by_label = _two_turns(
        [("decent battery", "attribute")], [("battery is ok", "consequence")]
    )
    assert by_label["battery is ok"].slot_id == by_label["decent battery"].slot_id
    assert by_label["battery is ok"].via == "fuzzy"
    assert state.version == CANONICAL_STATE_VERSION
    # A session recorded by the word rules keeps one node type per slot.
    old, _, by_label = _two_turns(
        [("decent battery", "attribute")],
        [("battery is ok", "consequence")],
        state=CanonicalState(version=WORD_RULES),
    )
    assert by_label["battery is ok"].slot_id != by_label["decent battery"].slot_id
    assert old.version == WORD_RULES


def test_a_bare_word_joins_a_slot_but_brings_nothing_else_in() -> None:
    _, _, by_label = _two_turns(
        [("save money", "consequence")], [("save", "consequence"), ("save time", "consequence")]
    )
    assert by_label["save"].slot_id == by_label["save money"].slot_id
    assert by_label["save time"].slot_id != by_label["save money"].slot_id


def test_containment_holds_at_one_node_type_only() -> None:
    _, _, by_label = _two_turns([("secure fit", "attribute")], [("security", "value")])
    assert by_label["security"].slot_id != by_label["secure fit"].slot_id
    _, _, by_label = _two_turns([("battery life", "attribute")], [("battery", "attribute")])
    assert by_label["battery"].slot_id == by_label["battery life"].slot_id


def test_opposite_poles_never_share_a_slot_the_same_pole_said_otherwise_does() -> None:
    _, _, by_label = _two_turns(
        [("feel calm", "consequence")],
        [("stressed", "consequence"), ("not stressed at all", "consequence")],
    )
    calm = by_label["feel calm"].slot_id
    assert by_label["stressed"].slot_id != calm
    assert by_label["not stressed at all"].slot_id == calm


def test_a_correction_joins_the_slot_of_what_it_corrects() -> None:
    graph = KnowledgeGraph()
    extract(graph, [n("four days on a charge")], turn=1)
    state, _ = apply(
        CanonicalState(),
        graph,
        [
            batch(
                graph, "four days on a charge", proposals=[slot("charge", "four days on a charge")]
            )
        ],
        1,
    )
    old_id = graph.find_by_label("four days on a charge")[0]
    extract(graph, [n("it's two")], turn=2)  # "sorry, I said four days, it's two"
    new_id = graph.find_by_label("it's two")[0]
    graph.supersede(old_id, new_id)
    state, record = apply(
        state, graph, [batch(graph, "it's two", proposals=[slot("two", "it's two")])], 2
    )
    mapping = {m.surface_node_id: m for m in state.mappings}
    assert mapping[new_id].slot_id == mapping[old_id].slot_id
    assert mapping[new_id].via == "revises"
    assert record.slots_created == ()
    assert state.slot(mapping[old_id].slot_id).status == "active"  # type: ignore[union-attr]


def test_state_versions_round_trip_and_an_unknown_one_is_refused() -> None:
    for version in (WORD_RULES, CANONICAL_STATE_VERSION):
        state = CanonicalState(version=version)
        assert CanonicalState.from_dict(state.to_dict()).version == version
    with pytest.raises(ValueError, match="version 9"):
        CanonicalState.from_dict({"version": 9})
