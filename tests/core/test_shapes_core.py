"""Pure pieces of the journey and grid shapes: triads, grid statistics, shape signals."""

from __future__ import annotations

import math

import pytest

from interview_cli.analysis.grid_stats import (
    construct_similarity,
    first_two_share,
    jacobi_eigenvalues,
    variance_shares,
)
from interview_cli.core.grid import triad


@pytest.mark.parametrize("count", [6, 7, 10])
def test_triads_are_three_distinct_elements_and_start_with_every_element_early(count: int) -> None:
    triads = [triad(i, count) for i in range(count)]
    assert all(len(set(t)) == 3 and max(t) < count for t in triads)
    assert set().union(*triads[: math.ceil(count / 3)]) == set(range(count))


def test_jacobi_eigenvalues_of_a_known_matrix() -> None:
    values = jacobi_eigenvalues([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])
    # trace and determinant are preserved; the eigenvalues of this matrix are 3 and 3 +- sqrt 3
    assert values == pytest.approx([3 + math.sqrt(3), 3.0, 3 - math.sqrt(3)], abs=1e-9)


def test_variance_shares_and_similarity() -> None:
    rows = [[1, 2, 3, 4, 5, 5], [1, 2, 3, 4, 5, 5], [5, 4, 3, 2, 1, 1]]
    # three constructs that are one dimension (the third reversed): one component carries all
    assert variance_shares(rows)[0] == pytest.approx(1.0)
    assert first_two_share(rows) == pytest.approx(1.0)
    sims = construct_similarity(rows, (1, 5))
    assert sims[0][1] == 1.0 and sims[0][2] == 1.0  # reversal counts as the same construct
    assert first_two_share([[3, 3, 3], [2, 2, 2]]) is None  # no variance at all
    assert construct_similarity([[1, None, 5], [5, 5, None]], (1, 5))[0][1] == 1.0
