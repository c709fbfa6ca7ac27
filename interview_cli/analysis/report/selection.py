"""Which sessions a report is about: by status and by origin, and a sentence saying so.

A sessions directory holds more than a study's interviews: simulated persona sessions a batch
wrote into a subfolder, runs that failed, interviews paused before anyone answered. Pooled,
they would skew the averages and the value map. A report keeps the sessions whose status and
origin were asked for (``report --status``, ``--origin``), leaves out a session with no answer
(nothing to analyse), and says what it kept and what it left out, with the option that would
bring the rest in. A session file named on its own is kept as it is, unless the options say
otherwise: it was asked for by name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

from interview_cli.analysis.sources import SessionSource
from interview_cli.config.plurals import plural
from interview_cli.session.schema import SessionFile, Status

STATUSES: tuple[str, ...] = get_args(Status)
ORIGINS = ("live", "batch")
# Paused interviews are kept by default: a moderator's pause (or piped answers that ran out)
# leaves real answers; a failed run or one still in progress is the exception to ask for.
DEFAULT_STATUSES = ("completed", "paused")
NO_ANSWERS = "no_answers"  # the reason a session with no answer yet is left out


def origin_of(session: SessionFile) -> str:
    """``batch``: a simulated persona answered (`interview batch`); ``live``: a person did."""
    return "batch" if session.simulation is not None else "live"


@dataclass(frozen=True)
class Selection:
    """The statuses and origins a report kept, how many sessions it kept, and how many it left
    out for each reason (a status, an origin, or ``no_answers``)."""

    statuses: tuple[str, ...]
    origins: tuple[str, ...]
    included: int
    left_out: dict[str, int] = field(default_factory=dict)

    def describe(self) -> str:
        """One sentence: what is in the report, what is not and how to bring it in."""
        kept = " or ".join(s for s in STATUSES if s in self.statuses)
        origin = " and ".join(self.origins)
        text = f"{plural(self.included, 'session')} ({kept}; {origin})"
        if not self.left_out:
            return f"{text}."
        parts = [
            f"{n} with no answer yet" if reason == NO_ANSWERS else f"{n} {reason}"
            for reason, n in sorted(self.left_out.items())
        ]
        hints = []
        if any(reason in STATUSES for reason in self.left_out):
            hints.append("--status")
        if any(reason in ORIGINS for reason in self.left_out):
            hints.append("--origin")
        how = f" (see {' and '.join(hints)})" if hints else ""
        return f"{text}; left out: {', '.join(parts)}{how}."

    def to_dict(self) -> dict[str, Any]:
        return {
            "statuses": list(self.statuses),
            "origins": list(self.origins),
            "included": self.included,
            "left_out": dict(sorted(self.left_out.items())),
        }


def select_sessions(
    sources: Sequence[SessionSource],
    *,
    statuses: Sequence[str],
    origins: Sequence[str],
    named: Collection[Path] = (),
) -> tuple[list[SessionSource], Selection]:
    """The sources with one of ``statuses`` and ``origins`` and at least one answer, and
    those read from a file in ``named`` (named one by one on the command line: asked for by
    name, they are kept as they are); each session left out is counted under the first
    reason that applies (no answer, origin, status)."""
    kept: list[SessionSource] = []
    left_out: Counter[str] = Counter()
    for source in sources:
        session = source.session
        origin = origin_of(session)
        if source.path.resolve() in named:
            kept.append(source)
        elif session.answer_count == 0:
            left_out[NO_ANSWERS] += 1
        elif origin not in origins:
            left_out[origin] += 1
        elif session.status not in statuses:
            left_out[session.status] += 1
        else:
            kept.append(source)
    chosen_statuses = tuple(s for s in STATUSES if s in statuses)
    chosen_origins = tuple(o for o in ORIGINS if o in origins)
    return kept, Selection(chosen_statuses, chosen_origins, len(kept), dict(left_out))


__all__ = [
    "DEFAULT_STATUSES",
    "ORIGINS",
    "STATUSES",
    "Selection",
    "origin_of",
    "select_sessions",
]
