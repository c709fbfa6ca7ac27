"""Interview phase from the turn number (seed 001 "Meta Signals" / "Interview Phase Signal").

Boundaries are proportional to ``max_turns`` (``PhaseBoundaries`` in the methodology):

- early: ``turn <= max(early_min_turns, round(max_turns * early_fraction))``
- late:  ``turn >  max_turns - late_turns``
- mid:   everything between.

With the defaults (10 %, at least 2 turns, last 2 turns late): ``max_turns=20`` gives early 1-2,
mid 3-18, late 19-20; ``max_turns=50`` gives early 1-5, mid 6-48, late 49-50.

Two decisions the seed leaves open:

- Rounding is the seed's own ``round()`` (``early_max_turns = max(2, round(max_turns *
  0.10))``), which rounds halves to even: ``max_turns=25`` (2.5) gives 2 early turns and ``35``
  (3.5) gives 4. Replay and the seed's tables agree that way.
- In very short interviews the early and late ranges can overlap (``max_turns=3``: early <= 2,
  late > 1). Late wins: the final turns are reserved for validation and closing, which matters
  more than a longer warm-up.
"""

from __future__ import annotations

from typing import Literal

from interview_cli.config.schemas import PhaseBoundaries

Phase = Literal["early", "mid", "late"]
PHASES: tuple[Phase, ...] = ("early", "mid", "late")


def early_last_turn(max_turns: int, boundaries: PhaseBoundaries | None = None) -> int:
    """The last turn that counts as early (before any overlap with the late phase)."""
    b = boundaries or PhaseBoundaries()
    return max(b.early_min_turns, round(max_turns * b.early_fraction))


def late_first_turn(max_turns: int, boundaries: PhaseBoundaries | None = None) -> int:
    """The first turn that counts as late."""
    b = boundaries or PhaseBoundaries()
    return max_turns - b.late_turns + 1


def phase_for_turn(
    turn_number: int, max_turns: int, boundaries: PhaseBoundaries | None = None
) -> Phase:
    """The phase of ``turn_number`` (1-based) in an interview of ``max_turns`` turns.

    Turns past ``max_turns`` are late; turns before 1 are early.
    """
    if turn_number >= late_first_turn(max_turns, boundaries):
        return "late"
    if turn_number <= early_last_turn(max_turns, boundaries):
        return "early"
    return "mid"


def phase_table(max_turns: int, boundaries: PhaseBoundaries | None = None) -> dict[Phase, range]:
    """Turn ranges per phase (empty ranges allowed) - for display and documentation."""
    early_end = min(early_last_turn(max_turns, boundaries), max_turns)
    late_start = max(late_first_turn(max_turns, boundaries), 1)
    early_end = min(early_end, late_start - 1)
    return {
        "early": range(1, early_end + 1),
        "mid": range(early_end + 1, late_start),
        "late": range(late_start, max_turns + 1),
    }
