"""The paired comparison of a recorded interview with its forks (`interview fork`).

Both sides are measured by the evaluation every simulated session gets
(``batch.evaluate_simulated``: the persona's ground truth against the graph and transcript),
the original re-evaluated now with the persona the forks answer as, so the two sides are
counted by the same rules. Each fork is paired with the original: the change in each figure
is the fork's minus the original's, and over several runs each figure and each change has a
spread (mean, standard deviation, lowest, highest).

| figure              | what                                                           |
|---------------------|----------------------------------------------------------------|
| ``rungs_elicited``  | rungs of the persona's ladders some graph node names           |
| ``rung_recall``     | rungs_elicited / the persona's rungs                           |
| ``ladders_completed``| ladders whose last rung was elicited                          |
| ``terminal_reached``| 1 when the last rung of a full ladder was elicited, else 0     |
|                     | (none when the persona has no full ladder)                     |
| ``turns``           | complete turns                                                 |
| ``complaints``      | answers saying the question was asked before                   |

Per fork run it also says whether the fork repeats the original's first K turns exactly,
from which turn it moved otherwise (``diverged_at``: another strategy or focus), and whether
it verifies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from statistics import mean, stdev
from typing import Any

from interview_cli.session.schema import SessionFile

FIGURES: tuple[str, ...] = (
    "rungs_elicited",
    "rung_recall",
    "ladders_completed",
    "terminal_reached",
    "turns",
    "complaints",
)
DIGITS = 4


def figure(evaluation: Mapping[str, Any] | None, name: str) -> float | None:
    """One figure of an evaluation as a number (None: not measured)."""
    if evaluation is None:
        return None
    value = evaluation.get(name)
    if isinstance(value, list):  # complaints are listed one per answer
        return float(len(value))
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    return None


@dataclass(frozen=True)
class Spread:
    """Values over runs: their mean, standard deviation (None for one run), lowest, highest."""

    mean: float
    sd: float | None
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float | None]) -> Spread | None:
        known = [v for v in values if v is not None]
        if not known:
            return None
        return cls(
            mean=round(mean(known), DIGITS),
            sd=round(stdev(known), DIGITS) if len(known) > 1 else None,
            low=min(known),
            high=max(known),
        )

    def to_dict(self) -> dict[str, float | None]:
        return {"mean": self.mean, "sd": self.sd, "min": self.low, "max": self.high}


@dataclass(frozen=True)
class FigureComparison:
    """One figure: the original's, each fork run's, and their paired changes."""

    name: str
    original: float | None
    runs: tuple[float | None, ...]

    @property
    def changes(self) -> tuple[float | None, ...]:
        if self.original is None:
            return tuple(None for _ in self.runs)
        base = self.original
        return tuple(None if v is None else round(v - base, DIGITS) for v in self.runs)

    @property
    def spread(self) -> Spread | None:
        return Spread.of(self.runs)

    @property
    def change(self) -> Spread | None:
        return Spread.of(self.changes)

    def to_dict(self) -> dict[str, Any]:
        spread, change = self.spread, self.change
        return {
            "original": self.original,
            "forks": list(self.runs),
            "changes": list(self.changes),
            "fork_spread": spread.to_dict() if spread else None,
            "change_spread": change.to_dict() if change else None,
        }


@dataclass(frozen=True)
class ForkRun:
    """One fork run as it ended: its session, status, how it relates to the original."""

    run: int
    session_id: str
    status: str
    seed: int
    path: str | None = None
    reason: str = ""
    repeats_origin: bool | None = None  # its first K turns equal the original's
    diverged_at: int | None = None  # the first turn whose move differs from the original's
    verified: bool | None = None
    evaluation: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "run": self.run,
            "session": self.session_id,
            "status": self.status,
            "seed": self.seed,
            "path": self.path,
            "reason": self.reason or None,
            "repeats_origin": self.repeats_origin,
            "diverged_at": self.diverged_at,
            "verified": self.verified,
            "figures": {name: figure(self.evaluation, name) for name in FIGURES},
        }


@dataclass
class ForkComparison:
    """The original and its forks, paired on the persona's ground truth."""

    origin: str
    at: int
    policy: str
    origin_policy: str
    methodology: str
    persona: str
    original: Mapping[str, Any]
    runs: list[ForkRun] = field(default_factory=list)

    @property
    def figures(self) -> list[FigureComparison]:
        """Each figure over the runs that finished (a failed run has no evaluation)."""
        done = [r for r in self.runs if r.evaluation is not None]
        return [
            FigureComparison(
                name, figure(self.original, name), tuple(figure(r.evaluation, name) for r in done)
            )
            for name in FIGURES
        ]

    @property
    def ok(self) -> bool:
        """Every run finished, repeats the original's first turns and verifies."""
        return all(
            r.evaluation is not None and r.repeats_origin and r.verified is not False
            for r in self.runs
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "origin": self.origin,
            "at": self.at,
            "policy": self.policy,
            "origin_policy": self.origin_policy,
            "methodology": self.methodology,
            "persona": self.persona,
            "original": {name: figure(self.original, name) for name in FIGURES},
            "forks": [r.to_dict() for r in self.runs],
            "figures": {f.name: f.to_dict() for f in self.figures},
        }


def repeats_origin(origin: SessionFile, fork: SessionFile, at: int) -> bool:
    """Whether the fork's first ``at`` turns are the origin's, record for record."""
    if len(fork.turns) < at:
        return False
    return all(
        a.model_dump(mode="json") == b.model_dump(mode="json")
        for a, b in zip(origin.turns[:at], fork.turns[:at], strict=True)
    )


def diverged_at(origin: SessionFile, fork: SessionFile) -> int | None:
    """The first turn whose question makes another move than the origin's (strategy or
    focus node), or that only one of the two asked; None when they moved alike throughout.
    The wording is left out: another seed words the same move otherwise."""
    for a, b in zip(origin.turns, fork.turns, strict=False):
        if (a.question.strategy, a.question.focus_node_id) != (
            b.question.strategy,
            b.question.focus_node_id,
        ):
            return a.turn_number
    if len(origin.turns) != len(fork.turns):
        return min(len(origin.turns), len(fork.turns)) + 1
    return None
