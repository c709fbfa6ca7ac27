"""Idioms of annoyance said after what annoys: "the hold music drives me mad", "that was the
bit that really got my goat" (``lexicon/en/irked_by.yaml``). Round 49 asked "You mentioned
your goat. Who or what do you think was behind that?": the idiom is no element (blanked,
``clauses.blank``) and what it follows is held against (``held.framed_against``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from interview_cli.llm.offline.lexicon.phrases import phrase_patterns

# Where what irks may start: the start of a sentence or clause, or a word that opens one
_IRK_SUBJECT_START = re.compile(
    r"(?:^|[.!?,;:]|\b(?:because|cos|so|which|that)\b)\s*"
    r"(?P<subject>[^.!?,;:]*?)\s*$",
    re.IGNORECASE,
)
_IRK_DENIED = frozenset(
    "not no never nothing doesn't doesnt don't dont didn't didnt won't wont wouldn't".split()
)


@lru_cache(maxsize=4096)
def irked_spans(answer: str) -> tuple[tuple[int, int], ...]:
    """The idioms of annoyance (``lexicon/en/irked_by.yaml``) said right after a short subject
    of their own ("the hold music drives me mad", "that was the bit that really got my goat"),
    as (start, end): not said of what a longer clause named ("The staff are lovely but the
    queue drives me mad" is said of the queue, not the staff), nor denied ("The noise doesn't
    drive me mad"). Cached: an answer is blanked and its clauses held many times a turn."""
    spans = []
    for pattern in phrase_patterns("irked_by"):
        for match in pattern.finditer(answer):
            lead = _IRK_SUBJECT_START.search(answer[: match.start()])
            words = (lead.group("subject") if lead else "").lower().split()
            # (or with no subject, said of the clause before its comma: "I'm emptying it
            # constantly, drives me up the wall", which a typed interview made an attribute)
            elided = not words and answer[: match.start()].rstrip().endswith(",")
            if not (0 < len(words) <= 6 or elided) or set(words) & _IRK_DENIED:
                continue
            spans.append((match.start(), match.end()))
    return tuple(spans)


__all__ = ["irked_spans"]
