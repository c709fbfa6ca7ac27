"""`run --participant ID --meta KEY=VALUE`: who is interviewed, checked before anything runs."""

from __future__ import annotations

import re
from typing import Any

META_KEY = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,39}$")


def participant_record(participant: str | None, meta: list[str]) -> Any:
    """The ``ParticipantRecord`` for ``--participant`` and ``--meta`` (None: neither given)."""
    from interview_cli.errors import UsageError
    from interview_cli.session.schema import ParticipantRecord

    if participant is None:
        if meta:
            raise UsageError("--meta describes a participant: give --participant ID too")
        return None
    pid = participant.strip()
    if not pid or any(ch in pid for ch in "\n\r\t") or len(pid) > 100:
        raise UsageError(f"--participant {participant!r}: give a short id on one line, e.g. P07")
    facts: dict[str, str] = {}
    for item in meta:
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not META_KEY.match(key) or not value or "\n" in value:
            raise UsageError(
                f"--meta {item!r}: expected KEY=VALUE, the key a word such as age or "
                "segment, the value not empty, e.g. --meta age=34"
            )
        if key in facts or key == "participant":
            raise UsageError(f"--meta {item!r}: '{key}' is given twice or is reserved")
        facts[key] = value
    return ParticipantRecord(id=pid, meta=facts)
