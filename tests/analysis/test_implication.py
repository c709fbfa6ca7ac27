"""Implication matrix, cut-off and HVM on small examples computed by hand.

Worked example (three respondents, codes A1 A2 attributes, C1 C2 consequences, V value):

    R1: A1 -> C1 -> V
    R2: A1 -> C1 -> V,  A2 -> C1
    R3: A1 -> V,  A2 -> C2 -> V

Direct (respondents with the edge):  A1>C1 2, C1>V 2, A2>C1 1, A1>V 1, A2>C2 1, C2>V 1
Indirect (a path of >= 2 links):     A1>V 2 (R1, R2 via C1), A2>V 2 (R2 via C1, R3 via C2)
Totals: A1>C1 2, C1>V 2, A2>C1 1, A1>V 1+2 = 3, A2>C2 1, C2>V 1, A2>V 0+2 = 2; all links 12.

Share kept at cut-off 1: 12/12; at 2: (2+2+3+2)/12 = 9/12 = 0.75; at 3: 3/12 = 0.25.
Keeping at least two thirds -> cut-off 2 (75%). HVM at 2: solid A1>C1, C1>V, A1>V (direct 1);
A2>V is kept on indirect counts only and A2 has no solid link, so it is drawn dashed.
"""

from __future__ import annotations

import pytest

from interview_cli.analysis.report.implication import (
    ImplicationMatrix,
    build_hvm,
    choose_cutoff,
    implication_matrix,
    indirect_pairs,
    most_linked_codes,
    share_kept,
)

R1 = [("A1", "C1"), ("C1", "V")]
R2 = [("A1", "C1"), ("C1", "V"), ("A2", "C1")]
R3 = [("A1", "V"), ("A2", "C2"), ("C2", "V")]
ORDER = ["A1", "A2", "C1", "C2", "V"]


@pytest.fixture
def matrix() -> ImplicationMatrix:
    return implication_matrix([R1, R2, R3], order=ORDER)


def test_direct_and_indirect_counts(matrix: ImplicationMatrix) -> None:
    got = {(c.source, c.target): (c.direct, c.indirect) for c in matrix.cells()}
    assert got == {
        ("A1", "C1"): (2, 0),
        ("A1", "V"): (1, 2),
        ("A2", "C1"): (1, 0),
        ("A2", "C2"): (1, 0),
        ("A2", "V"): (0, 2),
        ("C1", "V"): (2, 0),
        ("C2", "V"): (1, 0),
    }
    assert matrix.total_links == 12
    assert matrix.respondents == 3
    assert matrix.cell("A1", "V").notation() == "1.2"
    assert matrix.cell("V", "A1").total == 0
    # rows follow the given order
    assert [c.source for c in matrix.cells()] == ["A1", "A1", "A2", "A2", "A2", "C1", "C2"]


def test_share_of_links_and_the_chosen_cutoff(matrix: ImplicationMatrix) -> None:
    assert share_kept(matrix, 1) == 1.0
    assert share_kept(matrix, 2) == pytest.approx(9 / 12)
    assert share_kept(matrix, 3) == pytest.approx(3 / 12)
    assert share_kept(matrix, 4) == 0.0
    assert choose_cutoff(matrix, 2 / 3) == 2
    assert choose_cutoff(matrix, 0.75) == 2
    assert choose_cutoff(matrix, 0.76) == 1
    assert choose_cutoff(matrix, 0.2) == 3
    with pytest.raises(ValueError):
        choose_cutoff(matrix, 0.0)


def test_the_hvm_at_the_default_cutoff(matrix: ImplicationMatrix) -> None:
    hvm = build_hvm(matrix)
    assert hvm.cutoff == 2
    assert hvm.share_kept == pytest.approx(0.75)
    assert (hvm.relations_kept, hvm.relations_total) == (4, 7)
    links = {(lk.source, lk.target): (lk.kind, lk.direct, lk.indirect) for lk in hvm.links}
    assert links == {
        ("A1", "C1"): ("direct", 2, 0),
        ("A1", "V"): ("direct", 1, 2),
        ("C1", "V"): ("direct", 2, 0),
        ("A2", "V"): ("indirect", 0, 2),
    }
    assert hvm.codes == ("A1", "A2", "C1", "V")  # C2 fell below the cut-off
    assert hvm.implied == ()
    data = hvm.to_dict()
    assert data["cutoff"] == 2 and data["share_of_links_kept"] == 0.75


def test_a_given_cutoff_is_used_as_is(matrix: ImplicationMatrix) -> None:
    hvm = build_hvm(matrix, cutoff=3)
    assert hvm.keep_share is None
    assert [(lk.source, lk.target) for lk in hvm.links] == [("A1", "V")]
    assert hvm.share_kept == pytest.approx(0.25)


def test_an_indirect_relation_already_shown_by_a_path_is_not_drawn() -> None:
    # Two identical ladders A -> C -> V: A>V is indirect only (2) and C's path shows it.
    m = implication_matrix([[("A", "C"), ("C", "V")]] * 2, order=["A", "C", "V"])
    assert m.cell("A", "V").notation() == "0.2"
    hvm = build_hvm(m, cutoff=2)
    assert [(lk.source, lk.target, lk.kind) for lk in hvm.links] == [
        ("A", "C", "direct"),
        ("C", "V", "direct"),
    ]
    assert hvm.implied == (("A", "V"),)


def test_each_respondent_counts_once_per_cell() -> None:
    # A respondent saying A -> B twice (two nodes coded alike) is still one respondent.
    m = implication_matrix([[("A", "B"), ("A", "B")], [("A", "B")]])
    assert m.cell("A", "B").direct == 2


def test_indirect_pairs_follow_simple_paths_through_cycles() -> None:
    links = [("A", "B"), ("B", "C"), ("C", "A"), ("C", "D")]
    pairs = indirect_pairs(links)
    assert ("A", "C") in pairs and ("A", "D") in pairs and ("B", "D") in pairs
    # a path may not come back to its start: no A>A, and B>A goes B->C->A (length 2)
    assert ("A", "A") not in pairs
    assert ("B", "A") in pairs
    assert ("A", "B") not in pairs  # only A->B directly; A->..->B would revisit A
    assert indirect_pairs([("A", "A")]) == set()


def test_an_empty_matrix_keeps_nothing() -> None:
    m = implication_matrix([[], []])
    assert m.total_links == 0 and share_kept(m, 1) == 0.0
    hvm = build_hvm(m)
    assert hvm.cutoff == 1 and hvm.links == () and hvm.codes == ()


def test_the_window_on_a_large_matrix_takes_the_most_linked_codes(
    matrix: ImplicationMatrix,
) -> None:
    # Links per code (direct + indirect, in and out) from the worked example's totals:
    # A1 2+3 = 5, A2 1+1+2 = 4, C1 2+1+2 = 5, C2 1+1 = 2, V 2+3+2+1 = 8.
    assert most_linked_codes(matrix, 2) == ["A1", "V"]  # A1 ties C1 and comes first in order
    assert most_linked_codes(matrix, 3) == ["A1", "C1", "V"]  # matrix order, not rank order
    assert most_linked_codes(matrix, 10) == ORDER
    # With levels, each level's most linked code comes before the rest: A2 is alone on its
    # level and a cut by links alone would drop it.
    levels = {"A1": 1, "A2": 2, "C1": 1, "C2": 1, "V": 1}
    assert most_linked_codes(matrix, 2, levels) == ["A2", "V"]
    assert most_linked_codes(matrix, 3, levels) == ["A1", "A2", "V"]
