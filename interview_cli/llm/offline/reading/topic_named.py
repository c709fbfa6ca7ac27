"""The study's own topic said as an element: "It's a bike", "Oh god, the mower.", "the coffee
thing". A label that is the topic itself, or says only what the topic's name says, names no
element of it, and the reader makes no node of it (``extraction``). Pure functions of the
label and the topic's name (English).
"""

from __future__ import annotations

from interview_cli.core.models import RejectedItem
from interview_cli.core.text import label_profile
from interview_cli.llm.offline.reading.clauses import normal


def topic_heads(name: str) -> frozenset[str]:
    """The study topic's head nouns: the last word of its name, and both ends of a closing
    "A or B" / "A and B" ("Commuting by bike or e-bike" -> bike, e-bike)."""
    words = normal(name).split()
    if not words:
        return frozenset()
    heads = {words[-1]}
    if len(words) >= 3 and words[-2] in ("or", "and"):
        heads.add(words[-3])
    singular = {h[:-1] for h in heads if h.endswith("s")}
    plural = {h + "s" for h in heads if not h.endswith("s")}
    return frozenset(heads | singular | plural)


def names_topic(
    label: str, heads: frozenset[str], topic_words: frozenset[str] = frozenset()
) -> bool:
    """ "It's a bike", "It's a washing machine. It washes.": a label that is the topic itself,
    or says only what the topic's own name says, names no element of it."""
    words = normal(label).split()
    if len(words) == 1 and words[0] in heads:
        return True
    # (or its short form: "Oh god, the mower." of a lawnmower study was asked "You mentioned the
    # mower. What difference does that make for you?", my own typed interview)
    # (not a word that names something else as often: "the phone" is no headphones)
    short = words[0] if len(words) == 1 else ""
    if len(short) >= 4 and short not in _OWN_THINGS and any(h.endswith(short) for h in heads):
        return True
    content = set(label_profile(label).content) - _POINTING_AT
    return bool(content) and content <= topic_words


_OWN_THINGS = frozenset(
    "phone phones machine machines board boards sport sports market markets washer washers".split()
)


# "the coffee thing", "the car stuff": the topic pointed at (not "side" nor "business":
# "my business banking" names a kind of it) (round 55 quoted "the coffee
# thing", a question back, and read back "car stuff" from the check-back's complaint)
_POINTING_AT = frozenset("thing things stuff bit bits lark".split())


def topic_rejection(label: str, topic: str) -> RejectedItem:
    """Why a label that names the study topic itself is no node."""
    return RejectedItem(
        kind="node",
        item={"label": label},
        reason=f'"{label}" is the study topic itself ({topic}), not an element of it',
    )


__all__ = ["names_topic", "topic_heads", "topic_rejection"]
