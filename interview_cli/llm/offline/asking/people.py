"""The people of a respondent's life in a focus: what someone of theirs did, and a focus that
names them.

A question of a way they went for ("What made you go for that rather than something else?")
is no question of what someone else did to them: "Baby woke us" (round 261: "I didnt choose the
baby to wake me up haha"); what someone did that won them over is a reason for their choice,
though ("my son recommended the Sony XM5s"). And people let them do nothing: "You talked about
your old dears. What does that let you do?" (round 262: "They're my customers"). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Set

from interview_cli.llm.offline.lexicon import KIN

_SOMEONE_ELSE = re.compile(
    r"\W*(?:(?:and|but|so|then|oh|well|when)\W+)*(?:(?:(?:the|my|our|his|her|me)\s+)?(?:"
    + "|".join(sorted(KIN | {"twins"}))
    + r")|he|she)(?:'s|s)?\s+(?:just\s+)?(?P<did>[a-z]+)\b",
    re.IGNORECASE,
)
# What someone did that won them over to it: a reason for their choice, not done to them.
_WON_THEM_OVER = frozenset(
    """recommended suggested told showed got talked wanted loved liked enjoyed said swore picked
    chose bought found convinced persuaded pushed put sent gave reckoned raved""".split()
)
# The people of their life: what they said of them is the point, never the person
# (``mentions``); and the people, or pets, a focus may name (``names_their_people``).
THEIR_PEOPLE = KIN | {"family"}
_PEOPLE_WORDS = THEIR_PEOPLE | frozenset(
    "people customers clients ladies dears folk folks neighbours friends mates colleagues "
    "in-laws inlaws in-law parent parents twins dog dogs cat cats".split()
)


def done_by_someone_else(quote: str, past: Set[str]) -> bool:
    """``quote`` opens on someone of their life having done something (a verb in ``past``, or
    ending "-ed"): "Baby woke us", "my wife went on maternity pay", "me mam passed away", "then
    the twins came along"; not "the kids love it", "my son recommended the Sony XM5s", "the
    kids loved the recipes" (the review)."""
    done = _SOMEONE_ELSE.match(quote)
    if done is None:
        return False
    did = done.group("did").lower()
    return did not in _WON_THEM_OVER and (did in past or did.endswith("ed"))


def names_their_people(label: str) -> bool:
    """``label`` names people of their life ("my old dears", "the kids", "the school mums",
    "the in-laws"), or their pets."""
    said = set(re.findall(r"[a-z'-]+", label.lower()))
    said |= {w.removesuffix("s") for w in said}
    return bool(said & _PEOPLE_WORDS)


__all__ = ["THEIR_PEOPLE", "done_by_someone_else", "names_their_people"]
