"""The respondent's words as tokens, and which of them may name something.

What ``phrases`` (a phrase to say back, a noun to mention) and ``stops`` (where a phrase
stops short) both read: the answer cut into words and marks (``tokenize``: "doesnt" read as
"doesn't", "its lonely" as "it's", "swore id be" as "I'd"), whether a word names anything
(``_naming``, ``_content``), and the small word classes both sets of rules test.

Pure functions (English).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from interview_cli.llm.offline.asking.vocabulary import Vocabulary
from interview_cli.llm.offline.reading.clauses import CURRENCY_SIGN, CURRENCY_SIGNS, THOUSANDS

# ("A&E" is one word; so is a clock time, "4:45", a figure with its currency, "£3", and a
# percentage, "10%": round 97 was asked about "alarm goes at 4", round 168 read "10 offer")
_WORD = re.compile(
    CURRENCY_SIGN
    + r"?(?:"
    + THOUSANDS
    + r")|(?:"
    + CURRENCY_SIGN
    + r"(?=\d))?[^\W_]+(?:(?:['’.\-&]|(?<=\d):(?=\d))[^\W_]+)*'?(?:(?<=\d)%)?|\S"
)


COPULAS = frozenset("is are was were".split())


@dataclass(frozen=True)
class Token:
    text: str
    norm: str
    word: bool


def tokenize(text: str) -> list[Token]:
    """Words (with their apostrophes and hyphens: "it's", "e-bike") and punctuation marks."""
    out = []
    matches = list(_WORD.finditer(text))
    for i, match in enumerate(matches):
        raw = match.group()
        norm = raw.lower().replace("’", "'")
        if norm == "its" and _it_is(matches, i):
            # "its lonely in the cab", typed without the apostrophe: it is, not whose
            raw, norm = raw[:2] + "'s", "it's"
        elif norm == "id" and _i_would(matches, i):
            # "i swore id be calm" (round 182 asked "You said you swore id be calm")
            raw, norm = raw[:1] + "'d", "i'd"
        norm = TYPED_CONTRACTIONS.get(norm, norm)  # "doesnt" is "doesn't", as it is read
        out.append(Token(raw, norm, norm.lstrip(CURRENCY_SIGNS)[:1].isalnum()))
    return out


# What follows an "id" typed for "I'd" (not an ID: "my id card"): a verb, or an adverb before one
_AFTER_ID = frozenset(
    """be have rather like love hate prefer never always just really probably definitely
    go get do say want need pay buy take give recommend tell think feel""".split()
)
# ... and what comes before it: a verb that takes a clause, or what joins one (not "face id just
# works", whose "id" is the thing)
_BEFORE_ID = frozenset(
    """swore swear said say says think thought knew know reckon guess suppose hoped hope wish
    promised told decided figured that and so but because cos if when""".split()
)


def _i_would(matches: Sequence[re.Match[str]], i: int) -> bool:
    """Whether the "id" at ``i`` is "I'd" typed without its apostrophe."""
    after = matches[i + 1].group().lower() if i + 1 < len(matches) else ""
    before = matches[i - 1].group().lower() if i else ""
    return after in _AFTER_ID and (not i or before in _BEFORE_ID)


def _it_is(matches: Sequence[re.Match[str]], i: int) -> bool:
    """Whether the "its" at ``i`` is "it's" typed without its apostrophe."""
    after = matches[i + 1].group().lower() if i + 1 < len(matches) else ""
    before = matches[i - 1].group().lower() if i else ""
    if after in _NOT_ITS_AFTER_OF and before in _OF:
        return False  # "for its non stick coating", "for its no fees abroad": whose (the review)
    if after in _NO_POSSESSION or after.endswith(("ly", "ed")) or after[:1].isdigit():
        return True  # "its lonely", "its 10 minutes of quiet"
    named = matches[i + 1].group() if i + 1 < len(matches) else ""
    # (a phrase "its Bluetooth" quoted alone keeps its words, as below)
    ends = matches[i + 2].group().lower() if i + 2 < len(matches) else ("." if i else "x")
    alone = not ends[0].isalnum() or ends in _TAGS | {"really", "mostly", "mainly"}
    if named[:1].isupper() and named[1:].islower() and alone and _opens_a_clause(matches, i):
        return True  # "I suppose its Nia really": a name said alone is what it is (round 180
        # asked "What is it about its Nia that counts for you?"); not "its Bluetooth drops",
        # nor after a verb: "I love its Bluetooth."
    if _after_its_object(matches, i):
        return True
    if after in _DONE:
        placed = matches[i + 2].group().lower() if i + 2 < len(matches) else "."
        return placed in _PLACED or not placed[0].isalnum()
    # (the end of the text ends what is said only after a word of it: a phrase "its light"
    # quoted alone keeps its words)
    then = matches[i + 2].group() if i + 2 < len(matches) else ("." if i else "x")
    if not (not then[0].isalnum() or then.lower() in _TAGS):
        return False
    # "well its light, ...", "well its money innit": what it is, where a clause opens
    return after in _NO_POSSESSION_AT_END or bool(i and before in _OPENERS | {".", "!", "?"})


# What may follow a possessive "its" after a preposition, though it is "it's" elsewhere
_NOT_ITS_AFTER_OF = frozenset("non no non-stop nonstop".split())
_OF = frozenset("for with of on by about from to in at".split())


def _opens_a_clause(matches: Sequence[re.Match[str]], i: int) -> bool:
    """The word at ``i`` starts what is said, or follows a stop, a comma or a hedge."""
    if not i:
        return True
    gap = matches[i].string[matches[i - 1].end() : matches[i].start()]
    before = matches[i - 1].group().lower()
    return bool(re.search(r"[,.;:!?]", gap)) or before in _OPENERS | _HEDGING


_HEDGING = frozenset("suppose guess think reckon say".split())


def _after_its_object(matches: Sequence[re.Match[str]], i: int) -> bool:
    """An "its" right after a clause's "it" opens the next clause ("if she doesnt eat it its
    money down the drain": a typed interview was asked "Why does its money down the drain
    matter to you?"), unless "it" is given something ("give it its food")."""
    before = matches[i - 1].group().lower() if i else ""
    giving = matches[i - 2].group().lower() if i >= 2 else ""
    return before == "it" and giving not in _GIVING


_GIVING = frozenset("give gives gave giving feed feeds fed feeding let lets".split())


# Contractions typed without their apostrophe (round 29: "the commute itself doesnt" was a
# noun to say back: "What does the commute itself doesn't mean for you?")
TYPED_CONTRACTIONS = {
    w.replace("'", ""): w
    for w in """don't doesn't didn't can't couldn't wouldn't shouldn't isn't wasn't aren't
    weren't haven't hasn't hadn't i'm i've that's there's what's they'll they're they've
    you're you've you'll it'll that'll won't mustn't needn't would've could've should've
    it'd""".split()
}


_NO_POSSESSION = frozenset(
    # ("its another bill": round 115 asked "Why does its another bill matter to you?")
    "a an another the not just so really very too been got gonna all only quite pretty always "
    "never "
    # ("so its gotta be decent", "cos its non stop otherwise": round 241 asked "What is it about
    # its gotta that counts for you?")
    "gotta gunna non no non-stop nonstop nothing "
    "more less what how about because cos gone done going getting coming "
    # "its open 24 hours" (round 44 said back "You mentioned its open 24 hours")
    "open closed cheap free fine good great handy easy hard quiet busy rammed nice brilliant "
    "rubbish fast slow worth like ok okay dead proper mint class "
    # "its mad loud" (round 52: "You mentioned its mad loud.")
    "mad loud noisy wild well pure "
    # and what it is compared: "its easier on my back" (a typed interview asked "What is it
    # about its easier on your back that counts for you?")
    "easier better worse cheaper quicker faster nicer safer harder simpler "
    # and what state it is in: "its filthy every night" (a typed interview asked "What is the
    # problem with its filthy for you?")
    "filthy dirty messy smelly grim awful terrible horrible lovely amazing perfect shocking "
    "spotless".split()
)
# What a thing is when it is done, before a word that places it or the end: "it means its dry
# by teatime" (round 91: "What difference does its dry by teatime make for you?"); not "its
# dry cycle", "its clean look" (from the review)
_DONE = frozenset("dry wet clean dirty ready sorted finished over".split())
_PLACED = frozenset("by in on at for before after when now and so then".split())
# Words that end what is said ("its money innit") and open a clause ("well its money").
_TAGS = frozenset("innit tho though honestly lol haha".split())
_OPENERS = frozenset("well so and but oh yeah no cos because mean".split())
# ... and before the end of what is said: "well its light, thats the main thing" (round 68
# said back "You talked about its light."), not "its light is rubbish"
_NO_POSSESSION_AT_END = frozenset(
    "light heavy warm cold small big safe simple reliable comfy comfortable sturdy solid "
    "expensive pricey dear cheaper better worse lighter smaller bigger".split()
)


def words_of(text: str) -> list[str]:
    return [t.norm for t in tokenize(text) if t.word]


def _content(words: Sequence[str], v: Vocabulary) -> bool:
    """Whether some word names something: not a function word, a number or a word that names
    nothing (interjection, time, verdict, hedge, address, talk about the interview)."""
    return any(
        w not in v.function_words and w not in v.not_content and not w[0].isdigit() for w in words
    )


def holds_empty_phrase(words: Sequence[str], v: Vocabulary) -> bool:
    for phrase in v.not_content_phrases:
        n = len(phrase)
        if any(tuple(words[i : i + n]) == phrase for i in range(len(words) - n + 1)):
            return True
    return False


def verbish(w: str, v: Vocabulary) -> bool:
    return w in v.verbs or (len(w) > 4 and w.endswith("ed"))


OBJECT_PRONOUNS = frozenset("me us him her them you myself".split())


def _naming(w: str, v: Vocabulary) -> bool:
    """A word that may name a thing: no function word, no word that names nothing, no verb."""
    return (
        len(w) > 2
        and not w[0].isdigit()
        and w not in v.function_words
        and w not in v.not_content
        and not verbish(w, v)
        and not adverb(w)
    )


# Nouns that end as an adverb does
_LY_NOUNS = frozenset("family belly jelly rally ally lily bully assembly supply fly july".split())


def adverb(w: str) -> bool:
    """ "simply", "really", "finally": no thing ("your broadband router simply")."""
    return len(w) > 4 and w.endswith("ly") and w not in _LY_NOUNS


# (nor a word that only ever stands before its head: "the near | miss", round 46)
BEFORE_HEAD = frozenset("near main whole".split())


# a copula, or a subject with its copula typed on: "is | out of stock", "what Im | doing"
BEING = COPULAS | frozenset("i'm we're you're they're he's she's".split())


BEFORE_OBJECT = frozenset("on in at to for with about from by into onto".split())


DAYS = frozenset("day days night nights morning mornings evening evenings weeks".split())


THROUGH = frozenset("over during until till since throughout".split())


OF_PREPOSITIONS = frozenset("front top side middle instead because ahead outside inside".split())


ANYONE = frozenset("everyone everybody someone somebody nobody anyone anybody".split())
