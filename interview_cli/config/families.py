"""The families of interviewing technique: what kind of question a strategy asks.

Every strategy of a methodology declares its ``family`` in the YAML (``family: deepen``).
A methodology names its strategies freely ("dig_motivation", "probe_attributions"); the
family is what the rest of the tool reads instead of the name: the offline interviewer words
a question by its family (``llm.offline.asking``), the offline reader expects the answer a
family asks for (``llm.offline.reading``: a "why" is answered above its focus, an emotion
question by a feeling), the simulated respondent answers a redirection of a stuck "why"
differently from the plain "why" (``simulation.respondents``), and the question report card
counts a repeat as the same family asked again on the same focus
(``analysis.report.question_card``). So adding a strategy is YAML only: pick the family
whose question it asks.

``FAMILIES`` is the one list, with what each family asks; config validation refuses any
other name, and every table keyed by family elsewhere is checked against it
(tests/config/test_families.py).

Session files recorded before strategies declared their family hold methodology snapshots
without it: ``legacy_family`` reads it from the strategy's name and description exactly as
the tool did when the session was recorded, so a replay behaves as the interview did
(``schemas.RECORDED``). It is used for nothing else. Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Literal, get_args

StrategyFamily = Literal[
    "deepen",
    "negative_ladder",
    "third_person",
    "situational",
    "clarify",
    "explore",
    "breadth_check",
    "element",
    "summary",
    "revitalize",
    "incident",
    "narrative",
    "emotion",
    "attribution",
    "insight",
    "obstacle",
    "switch",
    "anxiety",
    "alternative",
    "bridge",
    "contrast",
    "generic",
]


@dataclass(frozen=True)
class Family:
    """One family: its name (the YAML value) and what a question of it asks."""

    name: StrategyFamily
    asks: str


FAMILIES: tuple[Family, ...] = (
    Family("deepen", "why the focus matters, what it gives the respondent (laddering up)"),
    Family("negative_ladder", "what the respondent would miss without the focus"),
    Family("third_person", "why someone like the respondent might care about the focus"),
    Family("situational", "the last time the focus mattered, as a concrete situation"),
    Family("clarify", "what a vague or hedged answer means exactly, or an example"),
    Family("explore", "another thing that matters: a new topic or situation (breadth)"),
    Family("breadth_check", "what else matters about the topic, before stopping"),
    Family("element", "a stimulus element the respondent has not mentioned (concept tests)"),
    Family("summary", "a recap of what was said, to confirm or correct (closing)"),
    Family("revitalize", "an easier, fresher angle for a tired respondent"),
    Family("incident", "a specific episode or occasion, told as it happened"),
    Family("narrative", "what happened next, step by step"),
    Family("emotion", "how the respondent felt at the time"),
    Family("attribution", "what caused it, who or what was behind it"),
    Family("insight", "what the respondent took away or does differently since"),
    Family("obstacle", "what got in the way: pains, barriers, frictions"),
    Family(
        "switch", "a switch the respondent told of, one force at a time (push, pull, doubt, habit)"
    ),
    Family("anxiety", "a worry or doubt that held the respondent back, and how they got past it"),
    Family("alternative", "what else the respondent tried, considered or switched to"),
    Family("bridge", "a connection from the focus to a related topic"),
    Family("contrast", "how the focus compares with something else"),
    Family("generic", "a plain follow-up on the focus (no family above fits)"),
)
FAMILY_NAMES: tuple[StrategyFamily, ...] = get_args(StrategyFamily)


def family_named(name: str) -> Family | None:
    return next((f for f in FAMILIES if f.name == name), None)


# ---- strategies recorded before families were declared ------------------------------------

# Checked in order: the first family any of whose words appears in the strategy's name wins;
# then the same over its description. The four redirection families come first so that a
# strategy called "situational" or "negative_ladder" is not read as explore or deepen.
_LEGACY_WORDS: tuple[tuple[StrategyFamily, tuple[str, ...]], ...] = (
    ("element", ("cover element", "stimulus element", "ensure coverage")),
    ("negative_ladder", ("negative ladder", "negative laddering", "absence")),
    ("third_person", ("third person", "third-person", "someone like you")),
    ("situational", ("situational", "last time")),
    ("breadth_check", ("breadth check", "breadth-check")),
    ("summary", ("reflect", "validate", "summar", "synthes", "recap", "playback")),
    ("attribution", ("attribution", "cause", "blame", "responsib")),
    ("insight", ("insight", "learning", "lesson", "takeaway", "conclu")),
    ("obstacle", ("obstacle", "pain", "struggle", "barrier", "problem", "friction")),
    ("alternative", ("alternative", "compet", "switch", "substitut")),
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
def legacy_family(name: str, description: str = "") -> StrategyFamily:
    """The family of a strategy recorded without one, read from its name and then its
    description as the tool read it then ("generic" when no family's words appear)."""
    for text in (name.lower().replace("_", " ") + " ", description.lower()):
        for family, words in _LEGACY_WORDS:
            # word starts only: "cause" must not fire on "because"
            if any(re.search(r"\b" + re.escape(word), text) for word in words):
                return family
    return "generic"
