"""The respondent's own word for the study's topic, as the interviewer says it ("your
headphones", "the bike"), or nothing: a question about the topic says "it" or names nothing
rather than splice in the concept's name ("... make to you with e-bikes for commuting?").

Pure functions of the topic's name and the respondent's answers (English).
"""

from __future__ import annotations

from collections.abc import Sequence

from interview_cli.llm.offline.asking.mentions import MENTION_DETERMINERS
from interview_cli.llm.offline.asking.tokens import tokenize, words_of
from interview_cli.llm.offline.asking.vocabulary import vocabulary


def thing(topic: str, answers: Sequence[str]) -> str:
    """The respondent's own word for the study's topic, as the interviewer says it ("your
    headphones", "the bike"); "" when they never named it (then a question says "it" or
    nothing: never the concept's name spliced in)."""
    v = vocabulary()
    words = words_of(topic)
    # the head comes before what modifies it: "food" of "Food for your dog or cat", never
    # "the cat" (round 61: "What else matters to you about the cat?" of a dog's food); an
    # activity's thing is after it ("Getting to work by bike", "Means of transport")
    cut = len(words)
    if words and not words[0].endswith("ing") and words[0] not in ("means", "ways"):
        cut = next((i for i, w in enumerate(words) if i and w in _POSTMODIFIERS), cut)
    # (a topic's head may be spelled as a verb is: "plan" of "Your mobile phone plan" - round
    # 33's "your phone" was asked about "Which other features ... of your phone")
    naming = [
        w
        for w in words[:cut]
        if len(w) > 2 and w not in v.function_words | v.not_content and not w[0].isdigit()
    ]
    # the head ("support" of "customer support") in either number; a word before it only as
    # the topic has it ("the robot" of "robot vacuum cleaner", but not "my customers" of
    # "customer support": round 24 asked "what ... about your customers you'd change")
    # (nor a doing before it: "the washing" of "washing machine" is the clothes, round 25)
    # (nor a word of the study's own, "concept", "experiences": round 27's smart door lock
    # concept was "the door", and its bike shop experiences "the shop" of "not the shop")
    naming = [w for w in naming if w not in _STUDY_WORDS]
    if not naming:
        return ""
    head = naming[-1].removesuffix("s")
    before_head = {w for w in naming[:-1] if not w.endswith("ing")}
    for answer in reversed(answers):
        tokens = tokenize(answer)
        for i, t in enumerate(tokens[1:], start=1):
            det = tokens[i - 1].norm
            if det not in ("my", "our", "your", "the"):
                continue
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            if t.norm.removesuffix("s") == head:
                return f"{MENTION_DETERMINERS[det]} {t.text.lower()}"
            # a word before the head only with the head ("the door lock"): alone it is
            # another thing ("the door" is no lock, round 27)
            if t.norm in before_head and nxt is not None and nxt.norm.removesuffix("s") == head:
                return f"{MENTION_DETERMINERS[det]} {t.text.lower()} {nxt.text.lower()}"
    return ""


_STUDY_WORDS = frozenset(
    "concept concepts experience experiences study idea ideas test service services".split()
)
# Words that open what follows a topic's head: "Food for your dog or cat", "E-bikes for
# commuting", "Coffee at work" (not "of": "Pair of headphones", "Cup of coffee")
_POSTMODIFIERS = frozenset("for with to in on at from about by".split())
