"""The family of technique a strategy belongs to, read from the words of its name.

A methodology names its strategies freely ("dig_motivation", "probe_attributions"); what
kind of move each is (deepen, clarify, a redirection such as negative laddering, a summary)
is read from the words of its name, then of its description, so no methodology is
hard-coded. The offline interviewer words a question by its family (``llm.offline.asking``)
and the question report card counts a repeat as the same family on the same focus
(``analysis.report.question_card``). Pure.
"""

from __future__ import annotations

import re
from functools import cache

# Checked in order: the first family any of whose words appears in the strategy's name wins;
# then the same over its description. The four redirection families come first so that a
# strategy called "situational" or "negative_ladder" is not read as explore or deepen.
FAMILY_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # raising a stimulus element the respondent has not mentioned (a concept test)
    ("element", ("cover element", "stimulus element", "ensure coverage")),
    ("negative_ladder", ("negative ladder", "negative laddering", "absence")),
    ("third_person", ("third person", "third-person", "someone like you")),
    ("situational", ("situational", "last time")),
    ("breadth_check", ("breadth check", "breadth-check")),
    ("summary", ("reflect", "validate", "summar", "synthes", "recap", "playback")),
    ("attribution", ("attribution", "cause", "blame", "responsib")),
    ("insight", ("insight", "learning", "lesson", "takeaway", "conclu")),
    ("obstacle", ("obstacle", "pain", "struggle", "barrier", "problem", "friction")),
    ("switch", ("switch", "push", "pull")),
    ("anxiety", ("anxiet", "worr", "hesitat", "habit")),
    ("alternative", ("alternative", "compet", "substitut")),
    ("emotion", ("emotion", "feeling")),
    ("narrative", ("narrative", "story", "sequence", "timeline")),
    ("incident", ("incident", "episode", "elicit")),
    ("clarify", ("clarif", "assumption", "specif", "example", "concret")),
    ("revitalize", ("revitali", "ease", "rapport", "energi", "re-engage")),
    ("bridge", ("bridge", "lateral", "connect")),
    ("contrast", ("contrast", "compar", "versus")),
    ("explore", ("explore", "broaden", "breadth", "new ", "another", "situation")),
    ("deepen", ("deepen", "ladder", "dig", "motivation", "why", "deeper", "climb")),
)


@cache
def family_for(name: str, description: str = "") -> str:
    """The family of a strategy, from its name and then its description ("generic" when no
    family's words appear)."""
    for text in (name.lower().replace("_", " ") + " ", description.lower()):
        for family, words in FAMILY_WORDS:
            # word starts only: "cause" must not fire on "because"
            if any(re.search(r"\b" + re.escape(word), text) for word in words):
                return family
    return "generic"
