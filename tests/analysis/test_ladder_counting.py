"""Counting relations per ladder and per respondent, never across ladders, computed by hand.

Three respondents, seven ladders (A attributes, C consequences, V values). R1's two ladders
share the consequence C1:

    R1  L1: A1 C1 V1      L2: A2 C1 V2
    R2  L3: A1 C1 V1      L4: A1 C2 V1      L5: A3 C2
    R3  L6: A2 C1 V1      L7: A1 C1 V1

Per ladder (Reynolds & Gutman; one count per ladder holding the relation):

    direct    A1>C1 3 (L1 L3 L7)   C1>V1 4 (L1 L3 L6 L7)   A2>C1 2 (L2 L6)   C1>V2 1 (L2)
              A1>C2 1 (L4)         C2>V1 1 (L4)            A3>C2 1 (L5)
    indirect  A1>V1 4 (L1 L3 L4 L7)   A2>V2 1 (L2)   A2>V1 1 (L6)
    totals    direct 13, indirect 6, all links 19

Per respondent (one count per respondent with any ladder holding the relation):

    direct    A1>C1 3 (R1 R2 R3)   C1>V1 3 (R1 R2 R3)   A2>C1 2 (R1 R3)   C1>V2 1 (R1)
              A1>C2 1 (R2)         C2>V1 1 (R2)         A3>C2 1 (R2)
    indirect  A1>V1 3 (R1 R2 R3)   A2>V2 1 (R1)   A2>V1 1 (R3)
    totals    direct 12, indirect 5, all links 17

Under neither rule does R1 say A1>V2 or A2>V1: those run across L1 and L2 through the shared
C1. The old count on R1's merged graph finds both (A1>V2 1, A2>V1 2 with R3), the inflation
per-ladder counting removes.
"""

from __future__ import annotations

import pytest

from interview_cli.analysis.report.build import ReportOptions, build_section
from interview_cli.analysis.report.codes import (
    MAX_LADDERS_PER_GRAPH,
    RespondentGraph,
    graph_ladders,
)
from interview_cli.analysis.report.implication import (
    implication_matrix,
    ladder_matrix,
    ladder_pairs,
)
from interview_cli.config.library import Library
from interview_cli.core.graph.knowledge import KnowledgeGraph

R1 = [["A1", "C1", "V1"], ["A2", "C1", "V2"]]
R2 = [["A1", "C1", "V1"], ["A1", "C2", "V1"], ["A3", "C2"]]
R3 = [["A2", "C1", "V1"], ["A1", "C1", "V1"]]
ORDER = ["A1", "A2", "A3", "C1", "C2", "V1", "V2"]


def _cells(matrix) -> dict[tuple[str, str], tuple[int, int]]:
    return {(c.source, c.target): (c.direct, c.indirect) for c in matrix.cells()}


def test_per_ladder_counts_match_the_hand_computed_matrix() -> None:
    m = ladder_matrix([R1, R2, R3], counting="ladder", order=ORDER)
    assert _cells(m) == {
        ("A1", "C1"): (3, 0),
        ("A1", "C2"): (1, 0),
        ("A1", "V1"): (0, 4),
        ("A2", "C1"): (2, 0),
        ("A2", "V1"): (0, 1),
        ("A2", "V2"): (0, 1),
        ("A3", "C2"): (1, 0),
        ("C1", "V1"): (4, 0),
        ("C1", "V2"): (1, 0),
        ("C2", "V1"): (1, 0),
    }
    assert (sum(m.direct.values()), sum(m.indirect.values()), m.total_links) == (13, 6, 19)
    assert (m.respondents, m.ladders, m.counting) == (3, 7, "ladder")
    assert m.to_dict()["counting"] == "ladder"
    assert "per ladder" in m.counting_text()


def test_per_respondent_counts_match_the_hand_computed_matrix() -> None:
    m = ladder_matrix([R1, R2, R3], counting="respondent", order=ORDER)
    assert _cells(m) == {
        ("A1", "C1"): (3, 0),
        ("A1", "C2"): (1, 0),
        ("A1", "V1"): (0, 3),
        ("A2", "C1"): (2, 0),
        ("A2", "V1"): (0, 1),
        ("A2", "V2"): (0, 1),
        ("A3", "C2"): (1, 0),
        ("C1", "V1"): (3, 0),
        ("C1", "V2"): (1, 0),
        ("C2", "V1"): (1, 0),
    }
    assert (sum(m.direct.values()), sum(m.indirect.values()), m.total_links) == (12, 5, 17)
    assert (m.respondents, m.ladders, m.counting) == (3, 7, "respondent")


def test_no_relation_runs_across_two_ladders_of_one_respondent() -> None:
    for rule in ("ladder", "respondent"):
        m = ladder_matrix([R1], counting=rule)
        assert m.cell("A1", "V2").total == 0 and m.cell("A2", "V1").total == 0
    # The merged graph of R1 would claim both: the inflation the ladder count removes.
    merged = implication_matrix(
        [[(a, b) for lad in r for a, b in zip(lad, lad[1:], strict=False)] for r in (R1, R2, R3)]
    )
    assert merged.cell("A1", "V2").indirect == 1
    assert merged.cell("A2", "V1").indirect == 2


def test_ladder_pairs_skip_repeated_rungs_and_self_relations() -> None:
    assert ladder_pairs(["A", "C", "C", "V"]) == ({("A", "C"), ("C", "V")}, {("A", "V")})
    assert ladder_pairs(["A"]) == (set(), set())
    direct, indirect = ladder_pairs(["A", "C", "A"])
    assert direct == {("A", "C"), ("C", "A")} and indirect == set()
    with pytest.raises(ValueError):
        ladder_matrix([R1], counting="graph")


@pytest.fixture(scope="module")
def mec():
    return Library.discover().methodology("means_end_chain").value


def _session_graph(mec, ladders: list[list[tuple[str, str]]]) -> KnowledgeGraph:
    """A graph holding ``ladders`` of (label, node type), one node per label and type."""
    g = KnowledgeGraph()
    ids: dict[tuple[str, str], str] = {}
    for ladder in ladders:
        for rung in ladder:
            if rung not in ids:
                ids[rung] = g.add_node(rung[0], rung[1], methodology=mec, turn=1).id
        for lo, hi in zip(ladder, ladder[1:], strict=False):
            g.add_relation(ids[lo], ids[hi], "leads_to", methodology=mec, turn=1)
    return g


A, F, T = "attribute", "functional_consequence", "terminal_value"


def test_session_ladders_are_the_recorded_chains_and_counting_stays_inside_them(mec) -> None:
    # R1 of the docstring as an interview graph: two chains through one consequence.
    g = _session_graph(
        mec,
        [
            [("noise cancelling", A), ("focus", F), ("freedom", T)],
            [("battery", A), ("focus", F), ("peace of mind", T)],
        ],
    )
    labels = [[g.node(n).label for n in lad] for lad in graph_ladders(g, {"leads_to"})]
    # Where the respondent branched, every way up is a ladder of its own.
    assert sorted(labels) == [
        ["battery", "focus", "freedom"],
        ["battery", "focus", "peace of mind"],
        ["noise cancelling", "focus", "freedom"],
        ["noise cancelling", "focus", "peace of mind"],
    ]
    section = build_section(
        mec, [], ReportOptions(counting="ladder"), graphs=[RespondentGraph("r1", g)]
    )
    assert section.ladder is not None
    assert section.ladder.matrix.ladders == 4
    assert "counted per ladder" in section.ladder.drawing.title


def test_hand_coded_ladders_of_a_respondent_graph_are_used_as_given(mec) -> None:
    g = _session_graph(
        mec,
        [
            [("noise cancelling", A), ("focus", F), ("freedom", T)],
            [("battery", A), ("focus", F), ("peace of mind", T)],
        ],
    )
    by_label = {g.node(n).label: n for n in g.node_ids()}
    given = (
        tuple(by_label[x] for x in ("noise cancelling", "focus", "freedom")),
        tuple(by_label[x] for x in ("battery", "focus", "peace of mind")),
        tuple(by_label[x] for x in ("focus", "freedom")),
    )
    for rule, expected in (("ladder", 2), ("respondent", 1)):
        section = build_section(
            mec, [], ReportOptions(counting=rule), graphs=[RespondentGraph("r1", g, ladders=given)]
        )
        m = section.ladder.matrix
        book = section.codebook
        code = {book.code(c).name: c for c in m.codes}
        assert m.cell(code["noise cancelling"], code["freedom"]).indirect == 1
        assert m.cell(code["noise cancelling"], code["peace of mind"]).total == 0
        assert m.cell(code["battery"], code["freedom"]).total == 0
        assert m.cell(code["focus"], code["freedom"]).direct == expected
        assert m.ladders == 3


def test_graph_ladders_are_simple_paths_and_bounded(mec) -> None:
    g = KnowledgeGraph()
    a = g.add_node("price", A, methodology=mec, turn=1).id
    assert graph_ladders(g) == []
    c = g.add_node("saves money", F, methodology=mec, turn=1).id
    g.add_relation(a, c, "leads_to", methodology=mec, turn=1)
    assert graph_ladders(g, {"leads_to"}) == [(a, c)]
    assert graph_ladders(g, {"contrasts_with"}) == []
    assert MAX_LADDERS_PER_GRAPH >= 100
