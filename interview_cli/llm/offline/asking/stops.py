"""Where a phrase of the respondent's stops short: the rules that say a quote would be cut off.

A question says back the respondent's words only when they are whole (INTERVIEWING.md "How
people actually answer"). ``_cut_short(tokens, end, v)`` says whether the phrase ending
before ``tokens[end]`` leaves its clause unfinished: a verb cut from its object or particle
("the price adds | up"), a subject from its verb ("how they | did it"), a manner clause
from its verb ("the way my late wife | liked it"), a word that needs what follows ("how",
"simply"). Each rule names the round whose transcript showed it. ``phrases`` finds the
phrase and asks these rules where it may end.

Pure functions of the tokens (English).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import takewhile

from interview_cli.llm.offline.asking.tokens import (
    ANYONE,
    BEFORE_HEAD,
    BEFORE_OBJECT,
    BEING,
    COPULAS,
    DAYS,
    OBJECT_PRONOUNS,
    OF_PREPOSITIONS,
    THROUGH,
    Token,
    _content,
    _naming,
)
from interview_cli.llm.offline.asking.vocabulary import Vocabulary
from interview_cli.llm.offline.lexicon import BEFORE_A_NOUN, KEEP_DOING
from interview_cli.llm.offline.reading.content import MEASURE_UNITS, is_count, is_money
from interview_cli.llm.offline.reading.corrections import ROUGH_WORDS

_WHEN = frozenset("next last same whole other following day week morning night time".split())


# When, before the clause that says what: "now she can do it alone", "then I can relax".
SO_FAR = frozenset("now then".split())


# A condition is half of what was said (round 25, said back as an event of a journey)
CONDITIONS = frozenset("if unless whether".split())


# What a cut-off phrase ends on when its sentence runs on: "whether they remember how | I like
# it", "the router simply | died" (round 19)
RUNS_ON = frozenset(
    "how why what whether when where who which if than as so very really wee couple few "
    # "the kids deserve a teacher whos | actually with it" (round 49 asked "How do the kids
    # deserve a teacher whos help you?")
    "whos who's whose whats what's".split()
)


# A verb and the preposition it cannot do without: "my late husband always used to deal | with
# this sort of thing" (round 49 read back "my late husband always used to deal")
_NEEDS_ITS_PREPOSITION = {
    "deal": "with",
    "dealt": "with",
    "cope": "with",
    "coped": "with",
    "rely": "on",
    # "I dont want us to turn | into one of those couples" (round 51)
    "turn": "into",
    "relied": "on",
    "depend": "on",
    "depended": "on",
    # "it feels like I'm looking | after someone" (round 63)
    **dict.fromkeys(("look", "looks", "looking", "looked"), "after"),
}


# How it ended, after an emphatic "did": "it did end | well in the end" (round 49: "You said
# it did end. What happened next?")
_HOW_IT_WENT = frozenset("well badly ok okay fine alright nicely happily up".split())


# What points back as a verb's object: "no mattress fixes | that" (round 49: "You mentioned
# that no mattress fixes.")
_POINTED_OBJECT = frozenset("that this it".split())


MODALS = frozenset("can could will would should might must may".split())


_NEGATIVE_MODALS = frozenset("can't cannot won't couldn't wouldn't shouldn't".split())


PARTICLES = frozenset("up out off down over".split())


_LET_IN = frozenset("in back round".split())


# what may follow a verb's particle to say when: "packed in | on a Saturday"
_WHEN_AFTER = frozenset("on at during after before last this yesterday today when".split())


# Verbs that join a word saying what someone is or feels: "feel | sorry", "look | the part".
# ("the wife says I'm looking | well", round 131: "You said the wife says you're looking")
_LINKING = frozenset(
    "feel feels felt feeling look looks looked looking seem seems seemed sound sounds".split()
)


# Verbs of becoming, said with how: "the whole shift starts | bad", "it goes | wrong".
_BECOMING = frozenset("starts started goes went turns turned ends ended".split())


# What happens, said with when: "I see what happens | when people leave things".
_HAPPENING = frozenset("happens happened happen".split())


# Prepositions a clause can end on, belonging to what came before: "proud of", "paid for".
_STRANDED = frozenset("of for with about to on in at from into".split())


PERSONS = frozenset("i we he she they".split())  # no object of a preposition
# What opens a question inside a clause, whose verb may come last ("what the next step is")
_EMBEDDED = frozenset("what how where who whether".split())
# What takes a question as its object ("to know what the next step is")
_ASKING = frozenset(
    """know knew knowing ask asked asking tell told tells telling see decide deciding wonder
    wondering sure idea remember out plan planning""".split()
)
# Whom a doing is done to, said after it ("giving them", "telling people")
_WHOM = frozenset("them him her us people".split())


_ADVERB_PARTICLES = frozenset("back round along across away".split())


_DIRECTED = frozenset("to into onto towards".split())  # where the particle's going goes


_TIME_DETERMINERS = frozenset("every each all last next this most".split())


_ENDING_UP = frozenset("end ends ended ending".split())


EMPTY_NOUNS = frozenset("question questions answer answers point bit bits thing things".split())


_WHOM = frozenset("me myself you yourself him himself her herself us them themselves".split())


_WHEN_NOUNS = frozenset("time times day days moment minute second night morning".split())


_SUBORDINATORS = frozenset("once when whenever while until till after before since".split())


def _subordinate(tokens: Sequence[Token], end: int) -> bool:
    """A clause opened by "once", "when", "until" ... in the few words before ``end``."""
    return any(t.norm in _SUBORDINATORS for t in tokens[max(0, end - 4) : end])


# Verbs of starting and stopping, before the doing they start or stop: "stopped taking".
_ASPECT = frozenset("stop stops stopped start starts started keep keeps kept quit".split())


def _goes_on_with(nxt: str, v: Vocabulary) -> bool:
    """``nxt`` carries on the phrase before it as its object: no preposition, link, filler,
    determiner of a time ("every day") or adverb ("constantly")."""
    return (
        nxt not in v.prepositions | v.conjunctions | v.clause_breaks | v.relatives | v.fillers
        and nxt not in v.determiners
        and not nxt.endswith("ly")
        and nxt[:1].isalpha()
    )


# Determiners that are never a pronoun ("I love her | to bits", "I use that | every day" are
# whole)
_ONLY_DETERMINERS = frozenset("the a an my your our their its".split())
# What a count before them measures when it says how long or how often: "I've had them | 3
# years", "told them | 100 times", "recommend them | 100 percent"
_HOW_OFTEN = frozenset("times time years year percent per".split())


# Besides the vocabulary's light verbs ("gets | in the way"): "takes | ages".
_TAKING = frozenset("take takes took".split())


# Words that wait for the clause that says which, besides the stand-ins ("something | that
# doesn't fall over"): "the one | that ...", "the thing | which ..."
_HOLLOW = frozenset("one ones thing things".split())


def closing_object(tokens: Sequence[Token], end: int) -> bool:
    """An "it", "them", "him" ... that ends its clause right after the phrase ("keep asking
    him,")."""
    if end >= len(tokens) or tokens[end].norm not in ("it", "them", "him", "her", "us", "me"):
        return False
    return end + 1 == len(tokens) or not tokens[end + 1].word


def leads_a_doing(last: str, nxt: str) -> bool:
    """``last`` is a verb whose doing is ``nxt``: "keep | asking", "stop | worrying"."""
    return last in KEEP_DOING and nxt.endswith("ing") and len(nxt) > 4


# ... and those that end a label the reader keeps ("every", "whole": ``DANGLING``)
# ("another": "rather be cold than hand over another | soggy parcel", round 97)
_BEFORE_A_NOUN = BEFORE_A_NOUN | frozenset("whole every each another".split())


def _count_cut(last: str, nxt: str, after: str, v: Vocabulary) -> bool:
    """A count cut from its unit ("ten | pulls"), or a verb from its rough count: "the old
    petrol one needed | about ten pulls" (round 105 asked "You mentioned that the old petrol
    one needed.")."""
    if is_count(last) and (nxt in MEASURE_UNITS or is_money(nxt)):
        return True
    return nxt in ROUGH_WORDS and is_count(after) and last not in v.function_words


def _measure_cut(tokens: Sequence[Token], end: int, v: Vocabulary) -> bool:
    """A measure cut from the thing it measures, a count with its article: "pushing a 25 kg |
    bike" (round 132's closing summary read back "it ended with me pushing a 25 kg"); not
    "saves me 20 minutes | door to door"."""
    last, nxt = tokens[end - 1].norm, tokens[end].norm
    return (
        end >= 3
        and last in MEASURE_UNITS
        and is_count(tokens[end - 2].norm)
        and tokens[end - 3].norm in ("a", "an", "the")
        and nxt[:1].isalpha()
        and nxt not in v.function_words
        and nxt not in v.verbs
        and not nxt.endswith("ly")
    )


def _cut_short(tokens: Sequence[Token], end: int, v: Vocabulary) -> bool:
    """The phrase stops where its clause goes on: a word that needs what follows ("how",
    "simply"), or a verb whose object follows ("let | one speak", "handled | it so well"). A
    verb before a preposition or the sentence's end is whole ("can relax | on the train")."""
    if end >= len(tokens) or not tokens[end].word or end == 0:
        return False
    last, nxt = tokens[end - 1].norm, tokens[end].norm
    after = tokens[end + 1].norm if end + 1 < len(tokens) else ""
    if nxt in _AFTERTHOUGHTS or _hedge_at(tokens, end, v):
        return False  # "keeps me fit | i guess": a hedge after it, not what it goes on to
    the_one = nxt == "one" and end >= 2 and tokens[end - 2].norm == "the"
    if (nxt in EMPTY_NOUNS or the_one) and last not in v.function_words:
        return True  # "a weird | question", "the hard | bit": cut before its own noun
        # ("the grip on wet rock is the big | one", round 51: "You said ... is the big.")
    if last in _BEFORE_A_NOUN and nxt[:1].isalpha() and nxt not in v.function_words:
        return True  # "every ingredient in its own little | plastic bag" (round 66)
    if _one_word_more(tokens, end, v):
        return True  # "I can't turn up to a home visit | sweaty." (round 32: said back
        # without it, the opposite of what she said)
    if _count_cut(last, nxt, after, v) or _measure_cut(tokens, end, v):
        return True
    closes = after == "" or not tokens[end + 1].word
    ends = closes or after == "of" or after in v.clause_breaks
    if last not in v.function_words and nxt in PARTICLES and ends:
        # "the price adds | up": the verb's own particle closes the clause; "never have to
        # worry about running | out (of data), which ..." (round 53: "Why does never having
        # to worry about running matter to you?")
        return True
    if _cut_from_its_verb_or_object(tokens, end, v):
        return True
    if last.endswith("ed") and nxt in PARTICLES | {"in"} and after in _WHEN_AFTER:
        return True  # "the card terminal packed | in on a Saturday" (round 43): its particle
    if last in OBJECT_PRONOUNS and nxt in PARTICLES | _LET_IN:
        return True  # "I could just let him | in" (round 36), "pick her | up from school"
    if _cut_before_what_it_leads(last, nxt, after):
        return True
    if nxt in PARTICLES | {"away", "back"} and _phrasal_before(tokens, end):
        return True  # "the kids have to pick their chargers | up off the floor" (round 50)
    if _cut_from_what_it_says_of(last, nxt, after, v) or _said_cut(tokens, end, v):
        return True
    if (
        last in ANYONE
        and nxt not in v.clause_breaks
        and ((end >= 2 and _naming(tokens[end - 2].norm, v)) or nxt in COPULAS | MODALS)
    ):
        # "the bloke everyone | on the close moans about" (round 43), "it felt like nobody |
        # was there" (round 48: "You said it felt like nobody."): its verb follows
        return True
    if last in MODALS | _NEGATIVE_MODALS and (nxt in v.verbs or nxt not in v.function_words):
        # "whether you can | do the whole day", "something I can't | get back" (round 29),
        # "signal on site so customers can | reach me" (round 37)
        return True
    if nxt in MODALS and any(t.norm in v.verbs for t in tokens[max(0, end - 6) : end]):
        return True  # "matters more than folk | would think": a clause cut off its verb
    if last in RUNS_ON or (last.endswith("ly") and len(last) > 4 and nxt in v.verbs):
        return True
    if last in v.light_verbs or last in _TAKING:
        return True  # "what the bad extraction gets | in the way of": the verb says nothing yet
    return (
        _cut_from_its_complement(tokens, end, v)
        or _cut_from_what_completes_it(tokens, end, v)
        or cut_from_its_manner(tokens, end, v)
        or _cut_from_its_rest(tokens, end, v)
    )


def _cut_from_a_wish_turned_down(tokens: Sequence[Token], end: int, v: Vocabulary) -> bool:
    """A wish turned down cut before the rest of its clause: what they do not want is the whole
    of it. Round 255 said back "I don't want our Liam | to be like that either" as "You said
    you don't want your Liam" (of her son), and "I don't want to be the person paying | for a
    gym she doesn't go to" as "... you don't want to be the person paying"."""
    nxt = tokens[end].norm
    # (cut before what it wants of them, or who is doing it: not before a time or a place, "I
    # don't want to be late | for work again", the review)
    if nxt != "to" and not (nxt == "for" and tokens[end - 1].norm.endswith("ing")):
        return False
    for i in range(end - 1, max(0, end - 8), -1):
        word = tokens[i].norm
        if not tokens[i].word or word in v.clause_breaks:
            return False
        if word in _WISH and tokens[i - 1].norm in _NOT_DOING:
            return True
    return False


_WISH = frozenset("want wanna wanted".split())
# (only of a lesson: not "I think the battery life | is the main thing", the review)
_LEARNT = frozenset("learnt learned realised realized".split())
_NOT_DOING = frozenset("don't didn't doesn't never not wouldn't won't".split())


def _cut_from_its_verb_or_object(tokens: Sequence[Token], end: int, v: Vocabulary) -> bool:
    """A subject, one said again, or a question inside the clause cut from its verb; a doing
    cut from whom it is done to (round 191 said back the last three)."""
    last, nxt = tokens[end - 1].norm, tokens[end].norm
    if last in PERSONS and nxt not in v.clause_breaks and nxt[:1].isalpha():
        return True  # "I wanna know how they | did it" (round 38): a subject cut from its verb
    before = tokens[end - 2].norm if end >= 2 else ""
    if last == "it" and (nxt in COPULAS or nxt in v.verbs) and before in OBJECT_PRONOUNS:
        # "the problem wasnt him it | was the four months" (not "buying it | was the best
        # thing": its object, from the review)
        return True
    window = range(max(1, end - 6), end - 1)
    if nxt in COPULAS and any(
        tokens[i].norm in _EMBEDDED and tokens[i - 1].norm in _ASKING for i in window
    ):
        # "my job to know what the next step | is": its verb follows (not "what the kids
        # will eat | is the big question", whose subject it is, from the review)
        return True
    # "at 3am giving | everyone a little bit": its object follows
    return (last.endswith("ing") or last in v.verbs) and nxt in ANYONE | _WHOM


# Verbs that say how they leave someone: "what keeps him | well", "it makes me | happy".
_LEAVING_SO = frozenset("keep keeps kept keeping make makes made making leave leaves left".split())
# Words that wait for a doing after them: "staying sharp and still | getting to sleep".
_WAITING = frozenset("and or but still also even".split())


def _cut_from_its_rest(tokens: Sequence[Token], end: int, v: Vocabulary) -> bool:
    """Read back in round 163's and 164's summaries as if whole: a comparison cut from its
    "than" ("a wall that thinks its cleverer | than you"), a time from its "before" ("the
    night | before"), "the way" cut from the clause
    saying which ("go the way | Tomos did"), someone kept or made so, cut from how ("what
    keeps him | well"), and a link or "still" cut from what it joins ("staying sharp all night
    and still | getting to sleep")."""
    last, nxt = tokens[end - 1].norm, tokens[end].norm
    if nxt == "than":
        return True
    if last in _WHEN_NOUNS and nxt in ("before", "after", "ago"):
        return True  # "ready from the night | before" (round 176: "ready from night.")
    if last == "way" and end >= 2 and tokens[end - 2].norm == "the":
        return nxt[:1].isalpha() and nxt not in v.prepositions | v.clause_breaks
    if last in OBJECT_PRONOUNS and end >= 2 and tokens[end - 2].norm in _LEAVING_SO:
        return nxt[:1].isalpha() and nxt not in v.function_words | v.clause_breaks
    return last in _WAITING and nxt[:1].isalpha() and nxt not in v.clause_breaks


def _said_cut(tokens: Sequence[Token], end: int, v: Vocabulary) -> bool:
    """What was said cut after a word standing in for it (``stand_ins``): "the retailer said
    anything | after 48 hours is a warranty job" (round 135 was asked "You mentioned that the
    retailer said anything", the opposite of what it was told); or what is denied, cut from
    what says which (``_denied_kind_cut``), or a wish turned down cut from the rest of it
    (``_cut_from_a_wish_turned_down``). Cut there, each says the opposite."""
    nxt = tokens[end].norm
    if _denied_kind_cut(tokens, end) or _cut_from_a_wish_turned_down(tokens, end, v):
        return True
    if nxt in COPULAS and any(t.norm in _LEARNT for t in tokens[max(0, end - 6) : end]):
        # what they learnt, cut from what it was: "ive learnt buying the 15 quid ones | is
        # pointless" (round 256's summary read it back as a thing he talked about)
        return True
    return (
        end >= 2
        and tokens[end - 1].norm in v.stand_ins
        and tokens[end - 2].norm in SAYING
        and nxt[:1].isalpha()
        and nxt not in v.clause_breaks
    )


def _denied_kind_cut(tokens: Sequence[Token], end: int) -> bool:
    """A kind of person or thing denied, cut from the clause that says which: "I'm not the
    parent | who sent them out in rubbish gear" (a typed interview was asked "You mentioned
    that you're not the parent")."""
    before = {t.norm for t in tokens[max(0, end - 4) : end]}
    return tokens[end].norm in ("who", "that", "which") and bool(before & {"not", "never", "no"})


SAYING = frozenset("said says say told tell reckoned reckons thought think knew know".split())


def _cut_from_what_it_says_of(last: str, nxt: str, after: str, v: Vocabulary) -> bool:
    """A word cut from the clause that says which or what of it: "a tenner more for something
    | that doesn't fall over", "it would've taken anyone | with a bit of authority" (round
    93), "the quick wash button being easy | to find" (round 91 said back "being easy")."""
    if (last in v.stand_ins or last in _HOLLOW) and nxt in ("that", "which", "who"):
        return True
    if last in ANYONE and nxt in ("with", "who", "that", "willing", "able"):
        return True
    return last in _EASE and nxt == "to" and after[:1].isalpha() and after not in v.function_words


# How easy a thing is to do, said before the doing: "easy | to find", "hard | to reach"
_EASE = frozenset(
    "easy easier hard harder simple simpler quick quicker difficult tricky awkward impossible "
    "possible safe safer nice able free ready".split()
)


def _cut_before_what_it_leads(last: str, nxt: str, after: str) -> bool:
    """A determiner cut from its noun ("nobody wants to be on their | hands and knees"), a
    pronoun from the count it was given ("they sent me | 12 limes", round 61's summaries; not
    "had them | 3 years"), an idiom from its end ("start | all over again", round 62), a verb
    from the doing it leads ("don't want to have to keep | asking him", round 76)."""
    if leads_a_doing(last, nxt):
        return True
    if last in OBJECT_PRONOUNS and is_count(nxt) and after not in _HOW_OFTEN:
        return True
    if (nxt == "all" and after == "over") or nxt == "together":
        return True  # "... got my life | together" (round 63: "feeling like you've got your life")
    return last in _ONLY_DETERMINERS and nxt[:1].isalpha()


def cut_from_its_manner(tokens: Sequence[Token], end: int, v: Vocabulary) -> bool:
    """ "keep the garden the way my late wife | liked it" (round 55: "What difference does
    being able to keep the garden the way your late wife make for you?"): a "the way" or
    "how" clause whose verb comes next."""
    nxt = tokens[end].norm
    if not (nxt in v.verbs or (nxt.endswith("ed") and len(nxt) > 3)):
        return False
    words = [t.norm for t in tokens[max(0, end - 5) : end]]
    for i in range(len(words) - 1):
        if (words[i], words[i + 1]) == ("the", "way") or words[i] == "how":
            between = words[i + (2 if words[i] == "the" else 1) :]
            return bool(between) and not any(w in v.verbs for w in between)
    return False


def _cut_from_its_complement(tokens: Sequence[Token], end: int, v: Vocabulary) -> bool:
    """A verb cut from the preposition it needs, a subject from its verb, an emphatic "did"
    from how it went, a verb from the object pointing back (round 49-50 cases below)."""
    last, nxt = tokens[end - 1].norm, tokens[end].norm
    if _NEEDS_ITS_PREPOSITION.get(last) == nxt:
        return True
    if nxt in ("and", "or") and _naming(last, v) and _verb_of_subject_ahead(tokens, end + 1):
        return True  # "literally every nurse | and doctor on the early is in that queue"
    before = tokens[end - 2].norm if end >= 2 else ""
    if before in ("did", "does", "do") and nxt in _HOW_IT_WENT:
        return True
    closed = end + 1 >= len(tokens) or not tokens[end + 1].word
    verb = last in v.verbs and last not in v.function_words and not last.endswith("ing")
    return verb and nxt in _POINTED_OBJECT and closed


# Verbs whose particle may follow their object: "pick their chargers | up", "put the bins | out"
_PHRASAL = frozenset(
    "pick picks picked put puts take takes took throw throws threw tidy tidies clear clears "
    "cleared give gives gave hand hands fill fills filled sort sorts sorted turn turns turned "
    "switch switches switched hang hangs hung chuck chucks chucked".split()
)


def _verb_of_subject_ahead(tokens: Sequence[Token], at: int) -> bool:
    """A copula within six words from ``at``, before the clause ends: what precedes was the
    start of its subject (round 50: "You talked about the kiosk opens at 6.30 and every
    nurse.")."""
    for t in tokens[at : at + 6]:
        if not t.word:
            return False
        if t.norm in COPULAS:
            return True
    return False


def _phrasal_before(tokens: Sequence[Token], end: int) -> bool:
    """A verb of ``_PHRASAL`` two to four words before ``end``: its object runs up to the
    particle that follows."""
    return any(t.norm in _PHRASAL for t in tokens[max(0, end - 4) : end - 1])


def _cut_before_its_head(before: str, last: str, nxt: str, after: str, v: Vocabulary) -> bool:
    """A phrase cut one word before what its last word needs: the noun it modifies, the
    time its preposition spans, the "of" of a preposition of two words, what a copula says,
    the clause that says which one "a line" is."""
    if last in BEFORE_HEAD and nxt[:1].isalpha() and nxt not in v.clause_breaks:
        return True  # "the near | miss" (round 46: "You talked about the near.")
    if last in BEFORE_OBJECT and nxt in OBJECT_PRONOUNS | {"it"}:
        return True  # "it actually works on | me" (round 46: "You talked about working on.")
    if before in ("a", "an") and nxt in ("that", "which", "who") and _naming(last, v):
        return True  # "I want a line | that stays up" (round 45)
    if nxt in DAYS and _naming(last, v) and (not after or after in v.clause_breaks):
        return True  # "Ive got no time on shift | days so ..." (round 45): which days
    if last in THROUGH and nxt not in v.clause_breaks | v.conjunctions and nxt[:1].isalnum():
        return True  # "she lent me her e-bike over | half term" (round 44): when follows
    if last in BEING and nxt[:1].isalnum() and nxt not in v.clause_breaks | v.conjunctions:
        # "so I look like I know what Im | doing" (round 45), "the only irritation is when
        # something in my favourites is | out of stock" (round 45)
        return True
    return nxt == "of" and last in OF_PREPOSITIONS  # "I cant stand in front | of a class"


def _cut_from_what_completes_it(tokens: Sequence[Token], end: int, v: Vocabulary) -> bool:
    """The rest of ``_cut_short``: a doing cut from its object, a name from its "of", a time
    from which one, a clause from its verb, a participle from its noun."""
    last, nxt = tokens[end - 1].norm, tokens[end].norm
    after = tokens[end + 1].norm if end + 1 < len(tokens) else ""
    when = nxt in _TIME_DETERMINERS or after in _WHEN  # "crashing | every day": when, not what
    if (
        last.endswith("ing")
        and len(last) > 4
        and not when
        and (nxt in OBJECT_PRONOUNS or nxt == "it" or nxt in v.determiners or is_count(nxt))
    ):
        # "actually costing | me money" (round 24), "i'm dragging | two kids", "not fighting |
        # it every morning" (round 28)
        return True
    if last.endswith("ing") and len(last) > 4 and nxt in ("there", "here", "around"):
        return True  # "the lock lying | there cut clean through" (round 33)
    if last.endswith("ing") and len(last) > 4 and nxt == "to" and after in _WHOM:
        return True  # "the proving | to myself i can stick at it" (round 29)
    if last in PARTICLES | _ADVERB_PARTICLES and nxt in _DIRECTED:
        return True  # "she can still potter down | to the Hoe" (round 26)
    if last in _LINKING and nxt not in v.conjunctions | v.clause_breaks and nxt[:1].isalpha():
        return True  # "not having anyone feel | sorry for me" (round 25)
    if last in _BECOMING and _one_word_left(tokens, end, v):
        return True  # "the whole shift starts | bad" (round 35): how it starts is the point
    if last in _HAPPENING and nxt in _SUBORDINATORS | CONDITIONS:
        return True  # "I see what happens | when people leave things" (round 35: said back
        # as "You said you see what happens", it read as "wait and see")
    if nxt in _STRANDED and (after == "" or not tokens[end + 1].word or after in PERSONS):
        return True  # "summat to be proud | of (I suppose)." (round 25): the clause's own
    before = tokens[end - 2].norm if end >= 2 else ""
    if before in _ASPECT and last.endswith("ing") and _goes_on_with(nxt, v):
        return True  # "my card terminal just stopped taking | contactless" (round 24)
    if _cut_before_its_head(before, last, nxt, after, v):
        return True
    if nxt == "of" and tokens[end + 1 : end + 2] and tokens[end + 1].word:
        # "the same peace | of mind thing" (round 27), "the cost | of living": one name; but
        # "the first half | of the match", "1,800 quid | of savings" are whole before it
        measured = last in MEASURE_UNITS or is_money(last)  # "1,800 quid | of sales"
        named = after not in v.determiners | PERSONS | OBJECT_PRONOUNS and _naming(after, v)
        return named and not measured
    if last in _WHEN_NOUNS and nxt in PERSONS | {"you"}:
        return True  # "every time | he turns over" (round 28): which time follows
    if nxt in COPULAS | {"have", "has", "had"} and _subordinate(tokens, end):
        return True  # "book at 10pm once the kids | are in bed" (round 28)
    if last == "up" and before in _ENDING_UP:
        return True  # "i dont want to end up | like my dad" (round 27): where they end up
    if last in v.past or (last.endswith("ed") and len(last) > 4 and last not in v.verbs):
        if nxt in OBJECT_PRONOUNS or nxt == "it":
            return True  # "handled | it so well", not "| the day"
        # a participle before its noun: "no added | sugar" (round 27), "the padded | seat"
        return _naming(nxt, v) and after not in _WHEN and nxt not in _WHEN
    if nxt in v.determiners and after in _WHEN:
        return False  # "it got fixed | the next day": when, not what
    return (
        last in v.verbs
        and nxt not in v.prepositions | v.conjunctions | v.clause_breaks | v.relatives
        and nxt not in v.fillers
        and (nxt in v.subjects | v.determiners | OBJECT_PRONOUNS or nxt in ("one", "it"))
    )


# Words typed after what was said, adding nothing to it: "keeps me fit tbh"
_AFTERTHOUGHTS = frozenset(
    # (and a Welsh "mun" closing a clause: round 220 asked 'You said "I can get on with my day
    # mun".')
    # (not "butt" or "bach", nouns too: "I'd fall on my butt", "I listen to Bach", the review)
    """tbh tbf honestly lol haha innit dunnit ennit ngl tho imo idk though ofc obvs obvi
    mun""".split()
)


def _one_word_more(tokens: Sequence[Token], end: int, v: Vocabulary) -> bool:
    """One word of content ends the clause after ``end`` ("... a home visit | sweaty."): what
    the phrase left out is the clause's own end (not "| in winter", "| simple as")."""
    rest: list[str] = []
    for t in tokens[end:]:
        if not t.word or t.norm in v.clause_breaks:
            break
        rest.append(t.norm)
    return len(rest) == 1 and _content(rest, v) and rest[0] not in _AFTERTHOUGHTS | v.fillers


def conditional(tokens: Sequence[Token], start: int, v: Vocabulary) -> bool:
    """A condition word opens the clause ``tokens[start:]`` is in ("so if | Im stuck",
    "if the battery or | the brakes fail", round 40: "You mentioned the brakes fail")."""
    at = start - 1
    # (back to the clause's start, past no verb: "If they last it means | I'm not forever
    # breaking in new ones" is the main clause, said whatever)
    while at >= max(0, start - 5) and tokens[at].word and tokens[at].norm not in v.verbs:
        if tokens[at].norm in CONDITIONS:
            return True
        if tokens[at].norm in v.clause_breaks - {"or", "and"}:
            break
        at -= 1
    if _follows_a_condition(tokens, start, v):
        return True
    # "When none of | it worked he just said right" (round 40: read back as "it worked")
    return start >= 2 and (tokens[start - 2].norm, tokens[start - 1].norm) == ("none", "of")


def _follows_a_condition(tokens: Sequence[Token], start: int, v: Vocabulary) -> bool:
    """The clause is what would follow a condition said just before it, with no comma: "if my
    back goes | i cant work", "if the sugars go daft | I end up on the insulin" (rounds 245 and
    246 asked "You said you can't work. What does that make harder for you?" - "i said IF my
    back goes"): what they fear would happen to them, their "I" opening it, said with a "can't"
    or an "end up", when something goes wrong (``_GOES_WRONG``; not "if I cook on a Sunday |
    I can't be tempted by takeaways", the review). Not all that is held against ("If they
    wont eat it | I'm wasting my time"), nor what comes of it each time ("If I take Lidl brand
    | I stay in 90"): rungs of a development reading set, asked about as they are; nor a
    consequence said as one ("If they last it means | I'm not ..."), nor a thing's ("if it
    tastes of porridge | it ruins the coffee"), nor what the condition itself says ("if I want
    to | watch anything")."""
    mine = tokens[start].norm in _FIRST_PERSON or (
        start > 0 and tokens[start - 1].norm in _FIRST_PERSON
    )
    ahead = {t.norm for t in tokens[start : start + 3]}
    if not mine or not ahead & _FEARED:
        return False
    at, verbs, broke = start - 1, 0, False
    while at >= max(0, start - 7) and tokens[at].word:
        norm = tokens[at].norm
        if norm in _SAID_AS_A_CONSEQUENCE or norm in v.clause_breaks - {"or", "and"}:
            return False
        if norm in CONDITIONS:
            return verbs == 1 and broke
        verb = norm in v.verbs and norm not in v.auxiliaries and not norm.endswith(("n't", "nt"))
        verbs, broke = verbs + verb, broke or norm in _GOES_WRONG
        if verbs > 1:
            return False
        at -= 1
    return False


_SAID_AS_A_CONSEQUENCE = frozenset("means meant lets gives helps makes".split())
_FIRST_PERSON = frozenset("i i'd id i'll ill i'm im we we'd we'll".split())
_FEARED = frozenset("cant can't cannot end".split())
_GOES_WRONG = frozenset(
    """go goes went break breaks broke die dies died fail fails failed stop stops stopped crash
    crashes crashed flare flares flared pack packs packed""".split()
)


def _one_word_left(tokens: Sequence[Token], end: int, v: Vocabulary) -> bool:
    """One word, whatever it is but a filler, ends the clause after ``end``."""
    rest = list(takewhile(lambda t: t.word and t.norm not in v.clause_breaks, tokens[end:]))
    return len(rest) == 1 and rest[0].norm not in _AFTERTHOUGHTS | v.fillers


def _hedge_at(tokens: Sequence[Token], at: int, v: Vocabulary) -> bool:
    """A phrase that names nothing ("i guess", "to be honest") starts at ``tokens[at]``."""
    norms = tuple(t.norm for t in tokens[at : at + 4])
    return any(norms[: len(p)] == p for p in v.not_content_phrases)
