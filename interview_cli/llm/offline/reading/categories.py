"""The semantic category of a clause from its words alone (offline extraction): a way of
being, a value, a feeling, a pain, a context, a solution, an action or a functional
consequence. The extractor weighs it against the category its cue word suggests."""

from __future__ import annotations

import re
from collections.abc import Callable

from interview_cli.llm.offline.lexicon import (
    ACTION_LEADS,
    CONDUCT_PREFIXES,
    FEELING_PHRASES,
    FEELING_WORDS,
    FUNCTIONAL_LEADS,
    LEADING_STRIP,
    PAIN_WORDS,
    SOLUTION_LEADS,
    TIME_OPENER,
    VALUE_PHRASES,
    VALUE_WORDS,
)

_WORD = re.compile(r"[\w][\w'\u2019\-]*")  # as clauses.WORD (which imports this module)


def lexical_category(text: str, supports: Callable[[str], bool] = lambda c: True) -> str | None:
    """A semantic category from the words of a clause alone (None: nothing stands out).

    ``supports`` says which categories the methodology can use; the first supported
    category whose words appear wins, in order of how telling they are.
    """
    lower = " ".join(_WORD.findall(text.lower())).replace("\u2019", "'")
    words = set(lower.split())
    # the frame around it does not change the form: "it's (all) about being a good parent"
    frame = {"i", "i'm", "it's", "just", "really", "because", "it", "is", "that's", "all", "about"}
    stripped = " ".join(w for w in lower.split() if w not in frame)
    content = [w for w in lower.split() if w not in LEADING_STRIP]
    lead = content[0] if content else ""
    valued = bool(words & VALUE_WORDS) or any(p in lower for p in VALUE_PHRASES)
    checks: list[tuple[str, bool]] = [
        # "being a good parent" names a way of being (an instrumental value) even when its
        # words are value words: the phrase's form decides first
        ("conduct", stripped.startswith(CONDUCT_PREFIXES)),
        # "I can provide for my family": what it makes possible, not yet the end itself
        ("feeling", valued and lead in ("can", "could")),
        ("value", valued),
        ("feeling", bool(words & FEELING_WORDS) or any(p in lower for p in FEELING_PHRASES)),
        ("pain", bool(words & PAIN_WORDS)),
        ("context", bool(TIME_OPENER.search(text.strip()))),
        ("solution", lead in SOLUTION_LEADS),
        ("action", lead in ACTION_LEADS),
        ("functional", lead in FUNCTIONAL_LEADS),
    ]
    for category, hit in checks:
        if hit and supports(category):
            return category
    return None
