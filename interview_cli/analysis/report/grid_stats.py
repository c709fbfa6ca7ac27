"""Repertory grid statistics in pure Python (grids are small: a handful of constructs).

- construct-construct similarity: 1 - mean absolute rating difference / scale span, over the
  elements both constructs rate (1 = the same ratings, 0 = as far apart as the scale allows);
  with ``signed`` the better of the construct and its reversal (a construct's poles can be
  written either way round), as in the usual matching score of repertory grid analysis;
- element-element similarity: the same over the constructs;
- principal components of the construct-centred grid: eigenvalues of the construct
  covariance by the Jacobi method, and the share of the variance the first two carry.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Matrix = list[list[float]]
Rating = float | None


def _pairs(a: Sequence[Rating], b: Sequence[Rating]) -> list[tuple[float, float]]:
    return [(x, y) for x, y in zip(a, b, strict=True) if x is not None and y is not None]


def match(a: Sequence[Rating], b: Sequence[Rating], scale: tuple[int, int]) -> float | None:
    """1 - mean |a - b| / span over the cells both have (None: none in common)."""
    pairs = _pairs(a, b)
    span = scale[1] - scale[0]
    if not pairs or span <= 0:
        return None
    return 1.0 - sum(abs(x - y) for x, y in pairs) / (len(pairs) * span)


def reverse(ratings: Sequence[Rating], scale: tuple[int, int]) -> list[Rating]:
    low, high = scale
    return [None if r is None else low + high - r for r in ratings]


def construct_similarity(rows: Sequence[Sequence[Rating]], scale: tuple[int, int]) -> Matrix:
    """Matching scores between constructs (rows); the better of either pole order."""
    out: Matrix = []
    for a in rows:
        line = []
        for b in rows:
            plain = match(a, b, scale)
            flipped = match(a, reverse(b, scale), scale)
            values = [v for v in (plain, flipped) if v is not None]
            line.append(round(max(values), 3) if values else 0.0)
        out.append(line)
    return out


def element_similarity(rows: Sequence[Sequence[Rating]], scale: tuple[int, int]) -> Matrix:
    """Matching scores between elements (columns) over the constructs."""
    columns = [list(col) for col in zip(*rows, strict=True)] if rows else []
    return [
        [round(v, 3) if (v := match(a, b, scale)) is not None else 0.0 for b in columns]
        for a in columns
    ]


def _centred(rows: Sequence[Sequence[Rating]]) -> Matrix:
    """Each construct's ratings minus its mean; a missing rating counts as that mean."""
    out: Matrix = []
    for row in rows:
        known = [r for r in row if r is not None]
        mean = sum(known) / len(known) if known else 0.0
        out.append([0.0 if r is None else r - mean for r in row])
    return out


def jacobi_eigenvalues(matrix: Matrix, sweeps: int = 100) -> list[float]:
    """Eigenvalues of a symmetric matrix, largest first (cyclic Jacobi rotations)."""
    a = [row[:] for row in matrix]
    n = len(a)
    for _ in range(sweeps):
        off = sum(a[i][j] ** 2 for i in range(n) for j in range(n) if i != j)
        if off < 1e-18:
            break
        for p in range(n):
            for q in range(p + 1, n):
                if abs(a[p][q]) < 1e-15:
                    continue
                theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                t = math.copysign(1.0, theta) / (abs(theta) + math.sqrt(theta * theta + 1))
                c = 1 / math.sqrt(t * t + 1)
                s = t * c
                for k in range(n):
                    akp, akq = a[k][p], a[k][q]
                    a[k][p], a[k][q] = c * akp - s * akq, s * akp + c * akq
                for k in range(n):
                    apk, aqk = a[p][k], a[q][k]
                    a[p][k], a[q][k] = c * apk - s * aqk, s * apk + c * aqk
    return sorted((a[i][i] for i in range(n)), reverse=True)


def variance_shares(rows: Sequence[Sequence[Rating]]) -> list[float]:
    """Share of the grid's variance each principal component carries, largest first."""
    centred = _centred(rows)
    if not centred or not centred[0]:
        return []
    cov = [[sum(x * y for x, y in zip(a, b, strict=True)) for b in centred] for a in centred]
    values = [max(0.0, v) for v in jacobi_eigenvalues(cov)]
    total = sum(values)
    return [v / total for v in values] if total > 0 else []


def first_two_share(rows: Sequence[Sequence[Rating]]) -> float | None:
    """Share of variance of the first two principal components (None: no variance)."""
    shares = variance_shares(rows)
    return round(sum(shares[:2]), 4) if shares else None
