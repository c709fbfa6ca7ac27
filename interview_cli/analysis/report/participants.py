"""Participants: who was interviewed (``run --participant ID --meta key=value``).

A report groups the sessions of one participant into one row (their facts and sessions), and
``report --where key=value`` keeps the sessions whose participant has every fact asked for
(``participant=ID`` names the person). Coding sheets carry no facts and are never filtered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from interview_cli.analysis.report.metrics import SessionMetrics
from interview_cli.session.schema import SessionFile


@dataclass(frozen=True)
class ParticipantRow:
    """One interviewed person (``run --participant``) and their sessions in the report."""

    id: str
    meta: dict[str, str]
    sessions: list[str]
    turns: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def participant_rows(rows: Sequence[SessionMetrics]) -> list[ParticipantRow]:
    """Sessions grouped by participant, in first-seen order; the latest meta is shown."""
    by_id: dict[str, ParticipantRow] = {}
    for r in rows:
        if r.participant is None:
            continue
        old = by_id.get(r.participant)
        by_id[r.participant] = ParticipantRow(
            r.participant,
            {**(old.meta if old else {}), **r.participant_meta},
            [*(old.sessions if old else []), r.id],
            (old.turns if old else 0) + r.turns,
        )
    return list(by_id.values())


def matches_where(session: SessionFile, where: Sequence[tuple[str, str]]) -> bool:
    """True when the session's participant has every ``key=value`` (``participant``: the id).

    Values compare case-insensitively and trimmed, as typed on a command line; a session
    without a participant matches no condition.
    """
    who = session.participant
    for key, value in where:
        if who is None:
            return False
        have = who.id if key == "participant" else who.meta.get(key)
        if have is None or have.strip().casefold() != value.strip().casefold():
            return False
    return True
