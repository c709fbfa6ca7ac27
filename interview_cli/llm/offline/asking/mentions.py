"""What a question may name of the respondent's words: a **mention**, a noun they used with its
determiner ("the charger", "your kids") or a gerund ("charging"), for "You talked about the
charger." (``reference.refer``'s choice when no clean phrase of theirs says the label:
``phrases``). Never what a negation or a "don't want to be" says they are not, a likeness, a
verb's form after its subject ("That lasted"), nor a head that names nothing ("the part").
Pure functions of the label and the respondent's answers (English).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from interview_cli.core.text import NEGATIONS
from interview_cli.llm.offline.asking.people import THEIR_PEOPLE
from interview_cli.llm.offline.asking.stops import (
    EMPTY_NOUNS,
    PARTICLES,
    RUNS_ON,
    cut_from_its_manner,
)
from interview_cli.llm.offline.asking.tokens import (
    ANYONE,
    BEFORE_HEAD,
    COPULAS,
    OBJECT_PRONOUNS,
    Token,
    _naming,
    tokenize,
    verbish,
    words_of,
)
from interview_cli.llm.offline.asking.vocabulary import Vocabulary, vocabulary
from interview_cli.llm.offline.lexicon import (
    NEGATIVE_WORDS,
    POSITIVE_WORDS,
)
from interview_cli.llm.offline.reading.content import is_count

# What follows a verb of measure, never a noun: "weighs more", "costs about", "lasts nearly"
_MEASURED = frozenset("more less nearly almost about around twice half over under exactly".split())
MENTION_DETERMINERS = {"the": "the", "my": "your", "our": "your", "your": "your", "a": "the"}


MENTION_DETERMINERS |= {"an": "the", "this": "the", "that": "the", "these": "the"}


MENTION_DETERMINERS |= {"those": "the", "his": "his", "her": "her", "their": "their"}


# Who would like something: "I'd like a case" is a wish, no likeness
_WHO_WOULD = frozenset("i'd id i we you they would we'd wed".split())


def _names_nothing_after(word: str, after: Sequence[Token], v: Vocabulary) -> bool:
    """``word`` is a noun that names nothing (so ``_naming`` passes it over) heading the phrase
    of the word before it: a word people call each other before more of the phrase ("young
    lad Jordan", not "the price man,"), or a "way" that ends it ("a long way,", not "way
    better")."""
    goes_on = bool(after) and after[0].word
    return (word in v.address and goes_on) or (word in ("way", "ways") and not goes_on)


def _not_a_head(w: str, i: int, tokens: Sequence[Token], v: Vocabulary) -> bool:
    """The word at ``i`` is not ``w`` as the head of a phrase naming a thing."""
    t = tokens[i]
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    if t.norm != w or (
        nxt is not None and nxt.word and _naming(nxt.norm, v) and nxt.norm not in RUNS_ON
    ):
        return True  # not the head of its phrase: "the retail" of "the retail park"
    if nxt is not None and nxt.norm in ("a", "an"):
        return True  # a verb: "the kids deserve | a teacher" is no "the kids deserve"
    if nxt is not None and nxt.norm in _HALVES:
        return True  # "the back | half has to wait" (round 68: "You talked about the back.")
    if w.endswith("s") and nxt is not None and nxt.norm in _MEASURED:
        return True  # a verb: "the bike weighs | more than my Year 9s" (round 65)
    if nxt is not None and nxt.word and nxt.norm in EMPTY_NOUNS:
        return True  # "the weird | question" (round 32: "You mentioned the weird.")
    if nxt is not None and nxt.word and _names_nothing_after(nxt.norm, tokens[i + 2 : i + 3], v):
        return True  # "this young | lad Jordan", "goes a long | way," (round 179: "the young",
        # "the long")
    if nxt is not None and is_count(nxt.norm):
        return True  # "a big | 12 kilo sack" (round 80: "You talked about the big.")
    if nxt is not None and (nxt.norm in OBJECT_PRONOUNS or nxt.norm in PARTICLES):
        return True  # a verb: "that shook me up" is no "the shook", "adds up" no "the adds"
    if nxt is not None and nxt.norm in _POINTER_HEADS:
        return True  # "the useful bit": its head names nothing, and "the useful" is no thing
    if w.endswith("ing") and nxt is not None and nxt.norm in ("to", "that", "myself"):
        return True  # "the proving | to myself i can stick at it" (round 29): no thing alone
    if nxt is not None and nxt.norm == "of" and i + 2 < len(tokens) and tokens[i + 2].word:
        return True  # "peace of mind" is no "peace" (round 27: "the same peace")
    if w in _EMPTY_HEADS:
        return True  # "the same" of "same as with the lawn" (round 25)
    if nxt is not None and nxt.word and cut_from_its_manner(tokens, i + 1, v):
        return True  # "the way my late wife | liked it": the subject of a manner clause
    return False


_A_FIGURE = re.compile(r"^[£$€]?\d[\d.,]*[kpm]?$|^(?:quid|pounds?|euros?|dollars?|times|pence|p)$")


def _no_thing_after(tokens: Sequence[Token], j: int) -> bool:
    """The "a" at ``j`` opens no thing of theirs: a likeness ("made me feel like a person" is
    no "the person", round 179; "lose keys like it's a sport", round 275 asked "You mentioned
    the sport."; "stiff as a board" after a word of how, round 273's "the board"; not a role,
    "as a mum", nor a liking, "I'd like a case"), or a rate ("about £1.80 a litre" is no "the
    litre", round 276)."""
    if tokens[j].norm not in ("a", "an") or j == 0:
        return False
    before = tokens[j - 1].norm
    if before == "like":
        return not (j > 1 and tokens[j - 2].norm in _WHO_WOULD)
    if _A_FIGURE.match(before):
        return True
    if before in ("it's", "its", "it", "was", "were", "is") and j > 1:
        return tokens[j - 2].norm == "like" or (
            before in ("it", "was", "were", "is") and j > 2 and tokens[j - 3].norm == "like"
        )
    return before == "as" and j > 1 and tokens[j - 2].word and tokens[j - 2].norm != "such"


def _mention_in(w: str, tokens: Sequence[Token], v: Vocabulary) -> str:
    for i, t in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if _not_a_head(w, i, tokens, v):
            continue
        # a verb's form is a noun only right after its determiner ("the fit"); further on it
        # is the verb of another phrase ("the lawn's done")
        # (a doing after a noun is no head: "the lock lying there cut" is no "the lock
        # lying", round 33)
        for back in (1,) if verbish(w, v) or w.endswith("ing") else (1, 2, 3):
            j = i - back
            if j < 0 or not all(tokens[k].word for k in range(j, i)):
                break
            det = MENTION_DETERMINERS.get(tokens[j].norm)
            if _no_thing_after(tokens, j):
                break  # a likeness or a rate: "like a person", "about £1.80 a litre"
            if tokens[j].norm in ("a", "an") and (
                (j and tokens[j - 1].norm in _VERDICT_LEADS) or w in _VERDICT_NOUNS
            ):
                break  # "that's a disaster", "what a faff": a verdict on what was said, no
                # thing (round 239 asked "You talked about the disaster.")
            if tokens[j].norm == "that" and t.text[:1].isupper():
                break  # "its more that | Mostyn isnt supposed to": a name after a clause's
                # "that" (round 163 asked "You talked about the Mostyn.")
            if tokens[j].norm in ("that", "this") and verbish(w, v):
                break  # "That lasted til ..." is the pronoun and its verb (round 189 asked
                # "You mentioned the lasted.")
            between = [tokens[k].norm for k in range(j + 1, i)]
            if det is not None and all(_naming(b, v) and b not in _EMPTY_HEADS for b in between):
                # (the "is" of "his stomach's no upset" is no part of it: round 80 asked about
                # "his stomach's")
                head = re.sub(r"['\u2019]s$", "", t.text)
                return " ".join([det, *(tokens[k].text for k in range(j + 1, i)), head])
        doing_to = nxt is not None and (
            nxt.norm in v.determiners | OBJECT_PRONOUNS | ANYONE or is_count(nxt.norm)
        )
        after_noun = i > 0 and _naming(tokens[i - 1].norm, v)  # "the lock | lying"
        # (nor a doing whose place or manner follows: "living | on toast", "standing |
        # there telling customers", round 74 asked "You mentioned living." and "... standing.")
        # ("went under racking in aisle 14": after a preposition it is a thing)
        prev = tokens[i - 1].norm if i > 0 and tokens[i - 1].word else ""
        placed = nxt is not None and nxt.norm in _PLACED_BY and prev not in _LEADS_A_THING
        if w.endswith("ing") and w not in v.verbs | _FEELING_WORDS | _EMPTY_DOINGS:
            if not doing_to and not after_noun and not placed:  # "dragging | two kids"
                return t.text.lower()  # "charging", not "making", nor "annoying" (round 24)
    return ""


# The people of their life (``people.THEIR_PEOPLE``): what they said of them is the point,
# never the person ("You talked about the kids. Why is that important to you?" of "partly the
# kids come home talking about climate stuff", round 240: "Why are my kids important to me??")


# What says the noun after its "a" is a verdict on what was just said
_VERDICT_LEADS = frozenset("that's thats what such".split())
# ... or whose noun is one ("it's a nightmare", "the school run is a total nightmare", the review)
_VERDICT_NOUNS = frozenset(
    """nightmare disaster pain faff joke godsend lifesaver nuisance hassle mess shambles palaver
    farce headache doddle breeze dream relief shame""".split()
)


_NEGATING = frozenset("no not never without less fewer zero nor".split())
# A negation, typed with or without its apostrophe ("don't", "dont"), or in Scots ("dinnae")
_NEGATED_VERBS = NEGATIONS | frozenset(
    "dinnae cannae didnae doesnae wouldnae couldnae isnae wasnae".split()
)


def _not_being(before: Sequence[str]) -> bool:
    """Words before a noun that say what they are not: a verb in the negative, then "be"
    ("dinnae want to be a bother", "dont want to be the bloke"); not "don't wake the baby"."""
    negated = [j for j, w in enumerate(before) if w in _NEGATED_VERBS or w.endswith("n't")]
    return bool(negated) and any(w in ("be", "being") for w in before[negated[0] + 1 :])


# Words before a doing that say it is not done, or no more: "wasn't working", "stopped working"
_NOT_DOING = _NEGATED_VERBS | frozenset("stopped stops quit quits".split())
_PLACED_BY = frozenset("on in at there here around about off by like".split())
_LEADS_A_THING = frozenset("under in on at of for with by to from into the a an my your".split())
# A half of a thing is one with it: "the back half" is no "the back" (round 68)
_HALVES = frozenset(("half", "halves"))


# Doings that name nothing without what they are done to or how: "You talked about looking"
# of "looking like an actual professional" (round 25), "talking", "knowing", "starting"
_EMPTY_DOINGS = frozenset(
    """being having doing getting going looking feeling seeming becoming making taking coming
    starting knowing talking saying thinking trying wanting needing using""".split()
)


_EMPTY_HEADS = frozenset("same other rest way".split()) | BEFORE_HEAD


# Words of liking and disliking: an "-ing" among them says how, it names no doing
_FEELING_WORDS = NEGATIVE_WORDS | POSITIVE_WORDS


# Heads of a phrase that name nothing by themselves: "the useful bit", "the hard part".
_POINTER_HEADS = frozenset(
    "bit bits part parts thing things one ones side stuff lot "
    # where in a story: "it did end well in the end" (round 49 would have said "the end")
    "end start beginning middle".split()
)


def _heads_first(said: Sequence[str], v: Vocabulary) -> list[int]:
    """The label's word positions to look for a noun at: the last first, but a noun inside a
    phrase of place or manner after the others, and of those the first ("the cupboard", not
    "the stairs", of "went out to the cupboard under the stairs", round 104). A placed noun
    is still mentioned when no other one can be: "the door" of "money walking out the door"."""

    # (after a preposition or a particle of place: "under | the stairs", "out | the door")
    leads = v.prepositions | PARTICLES | _PLACED_BY

    def placed(i: int) -> bool:
        return any(said[j] in leads for j in range(max(0, i - 2), i))

    free = [i for i in reversed(range(len(said))) if not placed(i)]
    return free + [i for i in range(len(said)) if placed(i)]


# someone with their verb's ending: "promised her she'd never go" names no "her she'd" (round
# 265 asked "You mentioned her she'd.")
_A_DOER = re.compile(r"^(?:i|you|he|she|it|we|they|who|that)'(?:d|ll|s|m|re|ve)$")


_ITS_OBJECTS = ANYONE | OBJECT_PRONOUNS | frozenset({"it", "this", "that", "these", "those"})


def mention(label: str, answers: Sequence[str]) -> str:
    """A noun of the label that the respondent used, with its determiner ("the charger",
    "your kids") or a gerund ("charging"); "" when none is sure."""
    v = vocabulary()
    said = words_of(label)
    # "the bus, not the train": what follows a "not" is what they did not mean
    said = said[: said.index("not")] if "not" in said else said
    for i in _heads_first(said, v):
        w = said[i]
        if w in COPULAS or w in v.auxiliaries or _A_DOER.match(w):
            continue  # "ten minutes that are just mine" is no "the are" (an oat milk interview)
        if w in ANYONE or w in _POINTER_HEADS or w in RUNS_ON or w in THEIR_PEOPLE:
            continue  # "nobody could tell" is no "the nobody" (round 44), "the part" no thing,
            # "a teacher whos" no "the teacher whos" (round 49)
        # a verb's form may still be a noun: ``_mention_in`` wants a determiner before it
        # (a half of a thing is one: "the back half")
        half = w in _HALVES and i > 0 and _naming(said[i - 1], v)
        if not (_naming(w, v) or w in v.verbs and w not in v.not_content or half):
            continue
        if any(before in _NEGATING for before in said[:i]) or _not_being(said[:i]):
            continue  # "no arguing" is not "arguing", nor "less scared of ruining" "ruining";
            # nor "don't want to be bother" "the bother", which is what they are not (round
            # 185: "You talked about the bother." - "i wasnt talking about a bother")
        if (
            w.endswith("ing")
            and i > 0
            and (said[i - 1] in _NOT_DOING or said[i - 1].endswith("n't"))
        ):
            continue  # "wasn't working" is how it went, no "working" (round 245: "You mentioned
            # working. What's good about that, for you?")
        if w in v.verbs and i > 0 and i + 1 < len(said) and said[i + 1].endswith("ing"):
            continue  # "the hills stop being a thing" is no "the stop" (round 247: "You talked
            # about the stop.", of the bus stop said an answer before)
        if w.endswith("ing") and i + 1 < len(said) and said[i + 1] in _ITS_OBJECTS:
            continue  # "letting someone down" is no "letting" (round 96: "You talked about
            # letting." - "Letting what, love?"), "picking it all up" no "picking" (round 270)
        # (the label's own word before its head names which one: "nearly got a pod machine" is
        # no "the vending machine" said two answers before, round 182; "the coffee" said of
        # "cheap coffee" names no other one)
        which = said[i - 1] if i > 0 and _naming(said[i - 1], v) else ""
        for answer in reversed(answers):
            found = _mention_in(w, tokenize(answer), v)
            between = found.lower().split()[1:-1]  # (what the found phrase says before its head)
            if found and not (which and between and which not in between):
                return found
    return ""
