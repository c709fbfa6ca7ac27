"""The wall clock that stamps a session file: when it was made, asked, answered and saved.

The pure core never reads it (turn numbers, not timestamps); the pipeline and the store do,
through this one function, so a session's times all read alike.
"""

from __future__ import annotations

import datetime as _dt


def now_iso() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
