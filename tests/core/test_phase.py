"""Phase boundaries proportional to max_turns (seed 001 "Interview Phase Signal")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interview_cli.config.schemas import PhaseBoundaries
from interview_cli.core.decide.phase import phase_for_turn, phase_table


def phases(max_turns: int, boundaries: PhaseBoundaries | None = None) -> str:
    return "".join(phase_for_turn(t, max_turns, boundaries)[0] for t in range(1, max_turns + 1))


def test_twenty_turns() -> None:
    # early <= max(2, round(2.0)) = 2; late > 20 - 2.
    assert phases(20) == "ee" + "m" * 16 + "ll"


def test_fifty_turns() -> None:
    assert phases(50) == "e" * 5 + "m" * 43 + "ll"


@pytest.mark.parametrize(
    ("max_turns", "early_turns"),
    # Seed 001: early_max_turns = max(2, round(max_turns * 0.10)), Python's round: 2.5 -> 2.
    [(10, 2), (15, 2), (25, 2), (30, 3), (35, 4), (45, 4), (100, 10)],
)
def test_early_phase_uses_the_seeds_round(max_turns: int, early_turns: int) -> None:
    assert phases(max_turns).count("e") == early_turns


def test_short_interviews_prefer_late_over_early() -> None:
    assert phases(3) == "ell"
    assert phases(2) == "ll"
    assert phases(4) == "eell"


def test_out_of_range_turns() -> None:
    assert phase_for_turn(0, 20) == "early"
    assert phase_for_turn(25, 20) == "late"


def test_custom_boundaries() -> None:
    b = PhaseBoundaries(early_fraction=0.25, early_min_turns=1, late_turns=3)
    assert phases(12, b) == "eee" + "m" * 6 + "lll"


def test_phase_table_matches_phase_for_turn() -> None:
    table = phase_table(20)
    assert (table["early"], table["mid"], table["late"]) == (
        range(1, 3),
        range(3, 19),
        range(19, 21),
    )


@given(st.integers(min_value=1, max_value=300))
def test_phases_are_contiguous_and_ordered(max_turns: int) -> None:
    seq = phases(max_turns)
    assert seq == "".join(sorted(seq, key="eml".index))
    assert seq.endswith("l")
    table = phase_table(max_turns)
    for phase, turns in table.items():
        assert all(phase_for_turn(t, max_turns) == phase for t in turns)
    assert sum(len(r) for r in table.values()) == max_turns
