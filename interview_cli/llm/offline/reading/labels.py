"""Naming a clause (offline extraction, step 2): ``make_label`` gives a short label in the
respondent's words, 2-6 words, lower case (acronyms kept): pronouns, fillers, opinion verbs
and rating predicates stripped, cut at the next clause break, never ending on a dangling word
or on a particle that led a place the word limit cut ("getting to work on time up | the
hills"); a label of nothing but words that name nothing is empty (``is_empty_label``).
``clauses`` cuts the answer; this names what it cut.

Over 1,000 lines: one concept, where a label starts and ends inside its clause; each cut
(a frame, a pronoun, the word limit, a light end) is weighed against the others in
``make_label`` and ``_shorten``, so they stay together. Their words are already in
``lexicon``; the clause breaks are ``clauses``'s.
"""

from __future__ import annotations

import re
from functools import lru_cache

from interview_cli.core.text import NEGATIONS
from interview_cli.llm.offline.lexicon import (
    ACKNOWLEDGEMENTS,
    BEFORE_A_NOUN,
    CLAUSE_BREAKS,
    COPULAS,
    DANGLING,
    DISPENSABLE,
    EVALUATIVE,
    INNER_FILLERS,
    INNER_PRONOUNS,
    KEEP_DOING,
    LABEL_NAMELESS,
    LATE_BREAKS,
    LEADING_STRIP,
    NAMELESS,
    NUMBER_WORDS,
    OPINION_LEADS,
    TIME_OPENER,
    TRAILING_STRIP,
    Cue,
)
from interview_cli.llm.offline.lexicon.phrases import phrase_pattern
from interview_cli.llm.offline.reading.clauses import (
    BINOMIAL,
    COMMA,
    NICE_AND,
    WORD,
    content_words,
)
from interview_cli.llm.offline.reading.content import pointer_words, verdict_words
from interview_cli.llm.offline.reading.meta import LOAD_OFF, naming_words

MAX_LABEL_WORDS = 6


def _strip_leading(words: list[str]) -> list[str]:
    if len(words) > 2 and words[0].lower() == "plus" and words[1].lower() in _PERSONS:
        words = words[1:]  # "plus it actually tastes like coffee" (round 137)
    if len(words) > 2 and words[0].lower() in ("now", "nowadays") and words[1].lower() in _NOW_IT:
        # "Now its mostly is it firm enough": the time it is said of, no part of what matters
        # (round 231's first answer lost "firm enough" to the label "now")
        words = words[1:]
    while words and _leading_word(words[0].lower().replace("\u2019", "'")):
        if _kind_to(words) or _doing_a_thing(words):
            break  # "it's kind on my stomach" was read "on my stomach"
        words = words[1:]
    return words


# "do" before the thing done is the doing: "I actually do the lawn myself now" is "do the lawn
# myself now" (a typed lawnmower interview asked "You talked about the lawn myself.")
_DONE_THING = frozenset("the my our all his her their your".split())


def _doing_a_thing(words: list[str]) -> bool:
    return (
        len(words) > 2
        and words[0].lower() in ("do", "does", "did")
        and words[1].lower() in _DONE_THING
    )


_NOW_IT = frozenset("its it's it".split())


def _kind_to(words: list[str]) -> bool:
    """ "kind" leads as the hedge "kind of", not as kind to or on someone."""
    return words[0].lower() == "kind" and words[1:2] != [] and words[1].lower() in ("to", "on")


@lru_cache(maxsize=4096)
def _leading_word(word: str) -> bool:
    """A word that leads a clause without naming anything ("also", "actually"), typed as it
    is or with two letters swapped ("alos", "actaully"): a typo of one is no content."""
    if word in LEADING_STRIP:
        return True
    return len(word) >= 4 and any(_swapped(word, strip) for strip in _LONG_STRIP)


def _swapped(word: str, other: str) -> bool:
    """``word`` is ``other`` with two neighbouring letters swapped."""
    if len(word) != len(other) or word == other:
        return False
    diff = [i for i, (a, b) in enumerate(zip(word, other, strict=True)) if a != b]
    return (
        len(diff) == 2
        and diff[1] == diff[0] + 1
        and word[diff[0]] == other[diff[1]]
        and (word[diff[1]] == other[diff[0]])
    )


# The discourse words people mistype as they lead a clause, none of whose swaps is a word
# ("quite" is not here: swapped, it is "quiet").
_LONG_STRIP = tuple(
    w
    for w in "also actually basically honestly literally obviously definitely really".split()
    if w in LEADING_STRIP
)


_KEEP_PRONOUN_AFTER = frozenset(
    "feel felt forget forgot know knew think hope wish notice remember realise realize like".split()
)
# An embedded clause keeps its subject: "choose how hard I work", not "choose how hard work".
_CLAUSE_OPENERS = frozenset("how what when where why whether if whats what's".split())
_BEFORE_DETERMINER = frozenset(
    "be is was are am to of about with for like in on at into from by than all".split()
)  # ("£75 for all that stress": round 150 asked about "£75 for all")
# Verbs whose object is an if/whether clause: the label keeps it.
_CLAUSE_OBJECT = frozenset("care mind bothered worry worried".split())
_KEEP_BE_AFTER = frozenset(
    # ("knowing we'll be all right" lost its "be", a dev-7 simulated taxi driver)
    "to can could should must would will might may i'll we'll it'll they'll you'll ill well "
    # ("I can't be doing that anymore" made "can't doing that anymore", a typed interview)
    "can't cant cannot couldn't couldnt won't wont wouldn't wouldnt shouldn't shouldnt "
    # ("not be late and not pay for parking" was the node "late not", round 128)
    "not never "
    # ("I was sure it'd be a faff to clean" was "sure it'd a faff to clean", round 131)
    "it'd itd i'd id we'd you'd they'd she'd he'd".split()
)


_PERSONS = frozenset("i we you he she they it".split())
_PEOPLE = frozenset(
    "kids kid children child baby babies wife husband partner son daughter mum mam dad boys "
    "girls family dog cat".split()
)
_OWNED = frozenset("mine ours yours theirs hers his".split())


def _drop_copula(words: list[str]) -> list[str]:
    """ "the sound is great" -> "sound"; "the price is too high" -> "price too high";
    "two days on a charge is still plenty" -> "two days on a charge"."""
    for i, word in enumerate(words[:6]):
        if i >= 1 and word.lower() == "be" and words[i - 1].lower() in _KEEP_BE_AFTER:
            return words  # "has to be sharp", "want to be the guy": the verb carries meaning
        if i >= 1 and word.lower() in COPULAS:
            rest = [
                w
                for w in words[i + 1 :]
                if w.lower() not in {"really", "very", "so", "just", "quite", "still"}
            ]
            if (
                len(rest) > 2
                and rest[0].lower() in EVALUATIVE
                and rest[1].lower() == "for"
                and rest[2].lower() not in ("a", "an")  # "decent for a plant one": a kind
            ):
                # "that 6am thing is good for my mental health": what it is good for is named
                named = [w for w in words[:i] if w.lower() not in NAMELESS | _DETERMINERS]
                return (words[:i] if named else []) + rest
            if not rest or rest[0].lower() in EVALUATIVE or rest[0].lower() in verdict_words():
                return words[:i]
            if rest[0].lower() in ("what", "why", "how") and i >= 2:
                return words[:i]  # "the ankle support is what I need" names the support
            if (
                i == 2
                and len(rest) >= 3
                and rest[0].lower() in ("my", "our")  # not "charging it is a total pain"
                and words[0].lower().endswith("ing")
                and words[1].lower() in _PERSONS
            ):
                return rest  # "making it is my wee break": the break (round 137)
            if rest[0].lower().endswith("ing") and words[i - 1].lower() in _PERSONS:
                return words  # "I was failing her": the verb's own tense, not a rating
            if i > 3:
                return words  # a long subject and its predicate: the cut below names it
            if len(rest) == 1 and rest[0].lower() in _OWNED:
                return words  # "the bed is mine": whose it is, not a kind of bed
            if len(rest) == 1 and rest[0].lower() in _PARTICLES:
                return words  # "dairy is out": no "out dairy"
            if len(rest) == 1 and i <= 2 and words[i - 1].lower() not in _PEOPLE:
                return rest + words[:i]  # "the fit is comfortable" -> "comfortable fit"
            # (not someone's state: "the kids are still asleep" is no "asleep kids", a typed
            # interview asked "You talked about the kids")
            return words[:i] + rest
    return words


_LIKE_VERBS = frozenset(
    "i you we they i'd you'd we'd they'd would feel feels felt feeling look looks looked "
    "sound sounds sounded seem seems seemed just don't didn't not really thing things stuff "
    "something anything bits ones more less nothing bit kind sort much exactly"
    # (a likeness the senses find: "my kit doesnt smell like a garage", round 105)
    " smell smells smelt smelled"
    # (whom it is said of: "treated me like a silly old woman", round 198)
    " me us him her them".split()
)
_DETERMINERS = frozenset("the a an my our your this that these those his her their".split())


_LIKENESS_PARTICLES = frozenset("up out down off".split())
# What "like a" comes before when it only rounds a figure ("it costs like a tenner", "like a
# twenty minute ride"), not a likeness ("I slept like a log", "she pulls on it like a
# mechanic", "I drive like a bus driver still": round 249 and a dev set read "slept a log")
_ROUGHLY = (
    frozenset(
        "tenner fiver hundred thousand million couple few mile quid pound bit lot half "
        "quarter third dozen score grand".split()
    )
    | NUMBER_WORDS
)
# ... nor after what has or comes with a thing ("they've got like a transparency mode", "you
# get like a beep", "they come with like a hard case": the review)
_HAVING = frozenset("got get gets getting have has had with there's theres is it's its was".split())


_BE = frozenset("am is are was were be i'm im it's its he's she's they're".split())


def _a_doing_word(word: str) -> bool:
    return word.endswith("ing") and len(word) > 4


def _filler_like(words: list[str], i: int) -> bool:
    """ "you notice like the brickwork": a "like" that only fills, between a word that cannot
    take it as a verb or a likeness and a determiner."""
    if words[i].lower() != "like" or i == 0 or i + 1 >= len(words):
        return False
    before = words[i - 1].lower()
    if before.endswith("ing") and len(before) > 4 and words[i + 1].lower() in ("a", "an"):
        return False  # a likeness: "knees creaking like an old gate" (round 100)
    if words[i + 1].lower() in ("a", "an") and i + 2 < len(words) and before not in _HAVING | _BE:
        after = words[i + 2].lower()
        if not (after in _ROUGHLY or after[:1].isdigit()):
            return False  # ... "slept like a log" (the set above)
    if before in _LIKENESS_PARTICLES and i >= 2 and _a_doing_word(words[i - 2].lower()):
        if words[i + 1].lower() in ("a", "an"):
            return False  # ... with its particle: "not waking up like a question mark" (round 231)
    return before not in _LIKE_VERBS and words[i + 1].lower() in _DETERMINERS


def _without_openers(text: str) -> str:
    """``text`` without what opens it and names nothing new: discourse words and a time, a
    condition of using it, which one it is."""
    # "but yeah since the outage I keep a backup sim": the time after the discourse words
    text = TIME_OPENER.sub("", _DISCOURSE_LEAD.sub("", text.strip())).strip(" ,")
    # "with them on I can have a doze": the condition of wearing them names nothing new
    text = re.sub(r"^with\s+(?:them|it|these|those)\s+(?:on|in)\s+", "", text, flags=re.IGNORECASE)
    # ... nor how something of theirs is: "with my knees the way they are" (round 250)
    text = _THE_WAY_THEY_ARE.sub("", text)
    text = _WHICH_ONE.sub("", text)
    text = _WHO_DID_IT.sub(lambda m: f"{m.group('who') or m.group('named')} ", text)
    text = re.sub(r"^(?:as long as|provided|assuming)\s+", "", text, flags=re.IGNORECASE)
    text = _GOT_READY_AND.sub("", text)
    text = _SINCE_GOT.sub("", text)
    # "it gets me a little closer to talking properly with my grandson": where it takes them
    text = _CLOSER.sub("closer to ", text)
    return text


# the moving that only leads to the doing: "I sat down that afternoon and typed a letter" (round
# 129 asked "You mentioned that you sat down. Who or what do you think was behind that?")
_THE_WAY_THEY_ARE = re.compile(
    r"^with\s+(?:my|our|the|his|her)\s+[\w'-]+(?:\s+[\w'-]+)?\s+(?:the\s+way\s+(?:they|it)\s+(?:are|is)|"
    r"as\s+(?:they|it)\s+(?:are|is))\s*,?\s*",
    re.IGNORECASE,
)
_GOT_READY_AND = re.compile(
    r"^(?:(?:i|we|he|she|they)\s+)?(?:sat\s+(?:myself\s+)?down|got\s+up|"
    r"got\s+(?:off\s+)?(?:my|me)\s+(?:arse|backside|bum))\s+(?:and|&)\s+(?=\w)(?!running\b)",
    re.IGNORECASE,
)
# since when, said first with no comma: "Since I got this one I've stopped taking the co-codamol"
# (my own typed interview made "got this one stopped taking co-codamol")
_SINCE_GOT = re.compile(
    r"^(?:ever\s+)?since\s+(?:i|we)\s+(?:got|bought|switched|changed|started|moved|had)\s+"
    # (at least one word got: "Since I got my new boots my feet don't hurt" keeps "my feet")
    r"(?:[\w'-]+\s+){1,3}?(?=(?:i've|ive|i|we've|weve|we|it's|its|my)\s)",
    re.IGNORECASE,
)
# what the story waited through, said first: "After all that hold music, a lady asked ..." (not
# the "after all" of a reason: round 72 made the node "after all")
_AFTER_ALL_THAT = re.compile(
    r"^after\s+all\s+(?:that|the|this|those)\s+[^,]{1,40},\s*(?=\S)", re.IGNORECASE
)
# the end of the phrase before, with no comma: "if it doesnt get it all | I end up going round
# after it" (round 270 asked "You said all you end up going round"); not "all they care about
# is profit", which says what the one thing is
_ALL_BEFORE_DOER = re.compile(
    r"^(?:it\s+)?all\s+(?=(?:i|we|they|he|she)\s)(?![^,.;]*\b(?:is|was|are|'s)\b)", re.I
)
# ... and the "either" of a choice, before its first way: "I either listen to podcasts or just have
# ANC on" (round 272 asked 'You mentioned that you either listen to podcasts.')
_EITHER = re.compile(r"^\W*(?P<who>(?:i|we)\s+)?either\s+(?!way\b)", re.IGNORECASE)
# who did it, said as what the one in the story was: "The first one was a lady who asked had I
# tried turning it off" (round 72 made the node "first one a lady")
# ... or as whom they got: "I got a young man called Kyle who actually listened"
_WHO_DID_IT = re.compile(
    r"^(?:(?:(?:the|my)\s+(?:first|second|next|last|other)\s+(?:one|person|call|time)\s+)?"
    r"(?:was|is)|(?:i\s+)?(?:got|had|spoke\s+to|was\s+put\s+through\s+to|ended\s+up\s+with))"
    r"\s+(?:a|an|this|some)\s+(?:\w+\s+){0,2}?(?:called|named)?\s*(?P<who>\w+(?:\s+\w+)?)"
    r"\s+who\s+(?=\w)"
    # ... or named as they come in: "a guy called Dan said it was a system error", "finally a
    # man called Ahmed sorted it" (round 74: "finally man called ahmed sorted")
    r"|^(?:(?:finally|eventually|at\s+last|in\s+the\s+end),?\s+)?"
    r"(?:a|an|this|some)\s+(?:\w+\s+){0,2}?(?:called|named)\s+(?P<named>\w+)\s+(?=\w)",
    re.IGNORECASE,
)


# A saying made a label whole, never cut at its "what" nor shorn of its last verb: "my shoulder
# isnt what it was", "... what it used to be"
_NOT_WHAT_IT_WAS = re.compile(
    r"(?:isn'?t|aren'?t|wasn'?t|weren'?t|not)\s+what\s+(?:it|they|he|she|i|we)\s+"
    r"(?:was|were|used\s+to\s+be)\b(?!\s+\w)",
    re.IGNORECASE,
)
# ... and a degree with its clause: "not proud of how smug I felt", "hate how long it takes"
# (round 215 asked about "not proud of how smug")
_HOW_IT_IS = re.compile(
    r"\bhow\s+[a-z]+\s+(?:it|they|i|we|you|she|he)\s+(?:is|are|was|were|felt|feel|feels|"
    r"takes|took|gets|got|made\s+me|makes\s+me|looks|looked|sounds|went)$",
    re.IGNORECASE,
)
# "with this one I dont have to pull anything": which one it is, said before what it does
# (round 43 made nothing of it), or what makes it possible ("with the button I can still do
# the garden myself")
_WHICH_ONE = re.compile(
    r"^with\s+(?:this|that|the|the\s+new|this\s+new|my|a)\s+\w+\s*,?\s+(?=(?:i|you|we)\b)",
    re.IGNORECASE,
)


# "nice and stiff" says only "stiff": the label keeps the word that names (round 85 was asked
# why "the sole has to be nice")
_NICE_AND = re.compile(rf"\b{NICE_AND}", re.IGNORECASE)
# How much it counts, said after it: "peace of mind more than anything" is peace of mind (round
# 142 asked what "peace of mind more than anything" counted for)
_ABOVE_ALL = re.compile(
    r"\s+(?:more\s+than\s+anything(?:\s+else)?|above\s+all(?:\s+else)?|if\s+anything)\W*$",
    re.IGNORECASE,
)
# What they have seen is what the label names: "Ive seen what crashes do to families" is "what
# crashes do to families" (round 136 asked about "ive seen what crashes")
_SEEN_WHAT = re.compile(
    r"^(?:i'?ve|ive|i\s+have|i)\s+(?:seen|saw|watched|heard)\s+"
    r"(?=(?:what|how)\s+(?!(?:i|we|you|they|he|she|it)\b)\w+\s+\w+\s+\w)",
    re.IGNORECASE,
)
# What they check is whether the thing is so: "i look at if meat is the first thing on the back
# of the bag" is "meat is the first thing ..." (round 244 asked about "you look at if meat")
# ("I usually check if", "First I check to see if", "I check if it's got ...": the review)
_CHECK_IF = re.compile(
    r"^(?:(?:first|then|and|so|also)\s+)?(?:(?:i|we)\s+)?(?:(?:always|just|also|usually|normally|"
    r"first|then|still)\s+)?(?:look|looks|check|checks|read)\s+(?:to\s+see\s+)?(?:at\s+|on\s+)?"
    r"(?:if|whether)\s+(?=[\w']+\s+[\w']+\s+\w)",
    re.IGNORECASE,
)


# Who they do not want to be, said by what such a one does: "I dont want to be the dad that
# let him down" is not letting him down (round 196 cut it at "that" and asked "You said you
# don't want to be the dad. Why does that bother you?")
_NOT_THE_ONE_WHO = re.compile(
    r"^(?:(?:because|cos|coz|and|but|so)\s+)?(?:i\s+)?"
    r"(?P<neg>do\s*n'?t|dont|do\s+not|never|wouldn'?t|would\s+not)\s+(?:want|wanna|like)\s+"
    r"(?:to\s+)?be\s+(?:the|a|that|one\s+of\s+those)\s+(?:\w+\s+){0,2}?"
    r"(?:dad|mum|mam|mom|parent|one|person|guy|girl|woman|man|friend|bloke|husband|wife|son|"
    r"daughter|boss|nurse|customer|kind|type|sort)s?\s+(?:that|who)\s+(?=\w)",
    re.IGNORECASE,
)


def _not_the_one_who(text: str) -> list[str]:
    """ "I dont want to be the dad that lets him down" as "dont let him down": their own
    negation before what such a one does, its verb in the form the negation takes; then, or
    where that verb is an auxiliary, a negation or a habit ("can't cope", "is always late"),
    the one they do not want to be ("not the one who can't cope"). [] when the text says no
    such thing."""
    found = _NOT_THE_ONE_WHO.match(text)
    if found is None:
        return []
    neg, rest = found.group("neg"), text[found.end() :]
    who = re.search(r"\w+\s+(?:that|who)\s+$", text[: found.end()])
    one = f"not the {who.group(0)}{rest}" if who else rest
    verb = re.match(r"(?:(?:just|always|ever|still)\s+)?(\w+)", rest)
    if verb is None or verb.group(1).lower() in _NOT_A_DOING or verb.start(1) > 0:
        # an auxiliary, a negation or a habit ("the one who can't cope", "the mum who is always
        # late", "the dad that never shows up"): the one they do not want to be (the review)
        return [one]
    if not neg.lower().startswith(("never", "would")):
        word = verb.group(1)
        base = {"says": "say", "does": "do", "has": "have", "goes": "go"}.get(word.lower())
        if base is None and len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            base = word[:-1]
        if base is not None:
            rest = rest[: verb.start(1)] + base + rest[verb.end(1) :]
    return [f"{neg} {rest}", one]


_NOT_A_DOING = frozenset(
    """is was are were be been can can't cant could couldn't will won't would wouldn't should
    has have had needs need never doesn't don't didn't isn't wasn't gets got""".split()
)
_BECAUSE = frozenset({"cos", "coz", "cuz", "'cos", "because", "since"})


def _unframed(text: str) -> str:
    """The clause without the frames around what it says (``_AFTER_ALL_THAT`` to ``_EITHER``)."""
    text = _SEEN_WHAT.sub("", _NICE_AND.sub("", _AFTER_ALL_THAT.sub("", text)))
    text = _CHECK_IF.sub("", _ALL_BEFORE_DOER.sub("", text))
    text = _EITHER.sub(lambda m: m.group("who") or "", text)
    return _THING_THAT.sub(r"\g<thing> ", _ABOVE_ALL.sub("", text))


def make_label(text: str, cue: Cue | None, category: str | None) -> str:
    """A short label in the respondent's words: 2-6 words, lower case (acronyms kept); one
    more for a saying kept whole or a doing the limit would cut ("keep | asking")."""
    for rewritten in _not_the_one_who(text.strip()):
        if label := make_label(rewritten, cue, category):
            return label
    text = _unframed(text)
    # time of one's own is one word while the label is made, or its "me" goes as a pronoun
    text = _OWN_TIME.sub(lambda m: re.sub(r"\s+", "-", m.group(0)), text)
    listed = _LISTED_FIRST.match(_without_openers(text))
    head = listed.group("noun") if listed else COMMA.split(text)[0]
    if listed or len(content_words(head)) >= 2:
        text = head
    text = _without_openers(text)
    words = _without_open_joint(_without_fillers(WORD.findall(text)))
    if len(words) > 1 and words[0].lower() in ("means", "meant") and words[1].lower() in _ME:
        words = words[1:]  # "Means I get in and sleep": "it means" with its subject unsaid
    prefix = cue.prefix if cue else ""
    words = _before_now_that(_without_lead(words, prefix))
    # "not blowing money on the stuff | I go through daily": the thing, not what they do with
    # it (a dev-8 simulated barista's label was "not blowing money on stuff go")
    words = words[: _relative_at([w.lower() for w in words]) or len(words)]
    words = [
        w
        for i, w in enumerate(words)
        if i == 0
        or w.lower().replace("\u2019", "'") not in INNER_PRONOUNS
        or words[i - 1].lower() in _KEEP_PRONOUN_AFTER  # "feel I deserve nice things"
        # "not proud of how smug I felt": the degree's clause keeps its doer (round 215 asked
        # about "not proud of how smug")
        or (i >= 2 and words[i - 2].lower() == "how")
        or any(p.lower() in _CLAUSE_OPENERS for p in words[max(0, i - 3) : i])
    ]
    # a saying is kept as said, whole: "my shoulder isnt what it was" (a typed interview asked
    # about "71 and my shoulder isnt what")
    said = " ".join(words)
    whole = bool(_NOT_WHAT_IT_WAS.search(said) or _HOW_IT_IS.search(said))
    whole = whole and len(words) <= MAX_LABEL_WORDS + 1
    if not whole:
        words = _first_clause_or_next(_before_relative(_without_all_that(_drop_copula(words))))
    if prefix and words and words[0].lower() == prefix.split()[0]:
        prefix = ""
    if prefix:
        words = prefix.split() + words
    if not whole:
        words = _shorten(_without_pointer_head(_without_first(words)))
    words = _without_joining_end(words)
    if is_empty_label(words):
        return ""
    if cue is not None and cue.link == "up" and _ONLY_A_TIME.fullmatch(" ".join(words)):
        return ""  # (nor is a time a reason: "It helps me | after a week in the pharmacy")
    # a quote mark is no part of a word: "it's 'pulling the cord', dear" -> "pulling the cord"
    # (nor inside: "its kinda my 'start work' thing" -> "start work thing", round 103; a
    # plural's apostrophe stays, "the kids' bikes")
    words = [words[0].lstrip("'\u2018"), *words[1:]]
    words = [w[:-1] if w[-1:] in "'\u2019" and w[-2:-1] not in "sS'" else w for w in words]
    words[-1] = words[-1].rstrip("'\u2019")
    label = " ".join(_case(w) for w in words if w)
    return _OWN_TIME_JOINED.sub(
        lambda m: m.group(0).replace("-", " "), label.replace("\u2019", "'")
    )


# "one thing that I don't have to worry about" says its thing by the clause after it, read as
# without its "that" (round 265's "i'd just like one thing that i dont have to worry about i
# guess", her peace of mind, made no node: the label was cut at "that", leaving "one thing")
_THING_THAT = re.compile(
    r"\b(?P<thing>one\s+thing|something|anything)\s+that\s+"
    r"(?=(?:i|i'd|i'm|we|you|they|he|she)\b)",
    re.IGNORECASE,
)


def _without_open_joint(words: list[str]) -> list[str]:
    """The words without what joins them to the next clause where a time went between: "the
    wedding is [in June] and | I need to ..." (round 249 read "and wedding")."""
    if len(words) > 2 and words[-1].lower() in _JOINING and words[-2].lower() in COPULAS:
        return words[:-1]
    return words


_ABLE = frozenset("can could being able to".split())
_JOINING = frozenset("and but or".split())


def _without_joining_end(words: list[str]) -> list[str]:
    """The words without what only joins them to what came next: "not let him down | cos of
    laundry" (the reason's word alone), "I work late and now | I can come home to ..." (the
    next clause's "and now", the third review of this stop's rules)."""
    while len(words) > 1 and words[-1].lower() in _BECAUSE:
        words = words[:-1]
    if len(words) > 2 and [w.lower() for w in words[-2:]] in (["and", "now"], ["but", "now"]):
        words = words[:-2]
    return words


def _first_clause_or_next(words: list[str]) -> list[str]:
    """The first clause, or the one after it when the first names nothing: "able to get up and
    walk the dog" is "walk the dog" (round 231 made no node of it: "able to get up" is light)."""
    first = _first_clause(words)
    able = list(first)
    while len(able) > 1 and able[0].lower() in _ABLE:
        able = able[1:]  # ("can get up and take the dog out": "get up" names nothing)
    if not is_empty_label(able) or len(first) >= len(words) or words[: len(first)] != first:
        return first
    rest = words[len(first) :]
    if not rest or rest[0].lower() not in ("and", "then", "an", "n"):
        return first  # (only a doing joined to it: not "the one | that ruined my week")
    while rest and rest[0].lower() in ("and", "then", "an", "n"):
        rest = rest[1:]
    # (a doing with what it is done to: not "can just get on and walk", said as a whole)
    return _first_clause(rest) if len(rest) > 1 and not is_empty_label(rest) else first


_ANY_ONE = frozenset("one ones something anything someone somewhere".split())
_WANTING = frozenset("want wants wanted need needs needed prefer rather".split())
_SUBJECT_PRONOUNS = frozenset("i we you they he she it i'd i've i'm we've they've".split())


def _the_kind_wanted(words: list[str], i: int) -> bool:
    """The "that" at ``i`` opens what a thing of the kind they want does: after "one" or
    "something", or "a" and its noun, wanted ("I just want one that doesnt leak", "I need
    something that lasts"), with a verb of its own after it (not "a mower that I bought",
    "the only one that ...", "a pot that size")."""
    said = [w.lower() for w in words]
    if i + 1 >= len(said) or said[i + 1] in _SUBJECT_PRONOUNS or said[i + 1] in _DETERMINERS:
        return False
    head = i - 1 if said[i - 1] in _ANY_ONE else i - 2 if said[i - 2] in ("a", "an") else None
    return head is not None and bool(_WANTING & set(said[max(0, head - 3) : head]))


def _first_clause(words: list[str]) -> list[str]:
    """The words up to where a new clause breaks in (``CLAUSE_BREAKS``, ``LATE_BREAKS``), when
    what comes before it names something."""
    for i, word in enumerate(words):
        if (i >= 2 and word.lower() in CLAUSE_BREAKS) or (i >= 3 and word.lower() in LATE_BREAKS):
            if word.lower() == "that" and words[i - 1].lower() in _BEFORE_DETERMINER:
                continue  # "be that parent": a determiner, not a new clause
            if word.lower() == "that" and _the_kind_wanted(words, i):
                continue  # "now I just want one that doesnt leak" (round 250 read "now just
                # want one"): the clause is the kind they want
            if word.lower() == "and" and words[i - 1].lower() in ("hundred", "thousand"):
                continue  # "six hundred and forty quid": one amount (a review)
            if word.lower() in ("if", "whether") and words[i - 1].lower() in _CLAUSE_OBJECT:
                continue  # "don't care if they get wrecked": the clause is what is cared about
            if word.lower() in _TIME_PREPS and _time_phrase(words, i):
                continue  # "can sleep after a night shift": a time, not a new clause
            if word.lower() in ("until", "unless") and any(_negated(w) for w in words[:i]):
                continue  # "didnt arrive until the Friday": it did arrive (round 198 read
                # back "Jamie couldnt come", who came on the Sunday); "I don't start the far
                # end unless its showing full" (round 199: "You said you don't start ...")
            being = words[0].lower() in ("being", "be")
            if word.lower() == "who" and i <= 2 + being and words[i - 1].lower() in _WHO_THEY_ARE:
                continue  # "be someone who keeps their word", "being the one who pays": who
                # they are
            if (
                word.lower() in ("who", "that")
                and words[i - 1].lower() in _WHO_THEY_ARE
                and any(w.lower() in ("be", "being", "not") for w in words[: i - 1])
            ):
                continue  # "I dont want to be the dad that let him down": cut at "that", it
                # said he did not want to be a dad (round 196)
            if (
                word.lower() in ("that", "thats", "which")
                and words[i - 1].lower() in _POINTER_HEADS
                and i >= 2
                and words[i - 2].lower() in _SMALL_OR_NICE
            ):
                continue  # "a small thing thats mine": which thing (round 182 kept "small")
            if word.lower() == "after" and words[i - 1].lower() in _LOOK:
                continue  # "look after my family": the verb's own particle
            if word.lower() == "and" and words[i - 1].lower() in _GO_AND:
                continue  # "don't have to go and fetch it": one doing
            if word.lower() == "and" and BINOMIAL.search(" ".join(words[max(i - 2, 0) : i + 3])):
                continue  # "costs an arm and a leg": one thing
            if all(w.lower() in _TIMEISH for w in words[:i]):
                continue  # "one evening a week that's not laundry": the clause says which
            # a negation names nothing: "don't worry" is one word short of cutting at "when"
            kept = [
                w for w in content_words(" ".join(words[:i])) if w.replace("'", "") not in NEGATIONS
            ]
            if len(kept) >= 2 or (i >= 3 and kept):
                # (not "stay" for "stay in while cycling"; "even though" ("even if", "even
                # when") breaks before its "even": "I keep spending the 3.20 even | though I
                # shouldnt", round 199 asked about "keep spending the 3.20 even")
                even = word.lower() in ("though", "if", "when") and words[i - 1].lower() == "even"
                return words[: i - 1] if even else words[:i]
    return words


def _negated(word: str) -> bool:
    return word.lower().replace("'", "").replace("\u2019", "") in NEGATIONS


def _without_all_that(words: list[str]) -> list[str]:
    """The words without an "all that" closing them, and what led it: "Im hopeless with all
    that" points back and names nothing (round 73 read "Im hopeless with all" back as a
    reason), "the cooking and all that" is the cooking."""
    said = [w.lower() for w in words]
    if len(words) < 3 or said[-2:] not in (["all", "that"], ["all", "this"]):
        return words
    return words[:-3] if said[-3] in _PREPS | {"and"} else words[:-2]


_CLOSER = re.compile(
    r"^(?:it\s+|that\s+)?(?:gets|brings|takes|got|brought)\s+(?:me|us)\s+"
    r"(?:a\s+(?:little|bit|step|lot)\s+|one\s+step\s+|much\s+)?closer\s+to\s+",
    re.IGNORECASE,
)


def _without_fillers(words: list[str]) -> list[str]:
    """The words with their fillers out: "basically", a "like" that only fills, and the
    politeness of "I'd rather like to be more than ..." (round 23: "rather like")."""
    words = [w for w in words if w.lower() not in INNER_FILLERS]
    words = [w for i, w in enumerate(words) if not _filler_like(words, i)]
    return [
        w
        for i, w in enumerate(words)
        if not (w.lower() == "rather" and i + 1 < len(words) and words[i + 1].lower() == "like")
    ]


def _without_pointer_head(words: list[str]) -> list[str]:
    """ "the independence bit", "the calm thing": what they point at, without the word that
    points (round 66's summary read "independence bit" back); not "the other thing", "the
    best bit", whose head is all they name."""
    said = [w.lower() for w in words]
    if (
        len(words) > 3
        and said[0] in _POINTER_HEADS
        and said[1] in ("that", "which", "where")
        and not set(said[2:]) & COPULAS  # "the part that wore out first was the sole"
    ):
        # "the thing that costs me every single week": what it does names it (round 136 asked
        # about "thing that costs me every single")
        return words[2:]
    if len(words) >= 2 and words[-1].lower() in _POINTER_HEADS:
        # (after a word that says what kind, "stuff" is the thing: "trying new stuff" was
        # asked as "trying new", round 121)
        kind = words[-1].lower() == "stuff" and words[-2].lower() in _KIND_OF_STUFF
        # (nor one thing counted, which is no pointer: "I deserve one nice thing" was asked as
        # "deserve one nice", round 182)
        counted = len(words) >= 3 and words[-3].lower() == "one"
        if (
            not kind
            and not counted
            and words[-2].lower() not in _POINTING_ADJECTIVES
            and content_words(words[-2])
        ):
            return words[:-1]
    return words


_POINTER_HEADS = frozenset("bit thing part stuff side".split())
_KIND_OF_STUFF = frozenset(
    "new old cheap expensive fancy good bad nice healthy fresh basic posh free different fun "
    "tasty decent proper real fake plastic".split()
)
# (the words of degree that go with a pointer, ``pointer_degree.yaml``, and those that say
# which one it is)
_POINTING_ADJECTIVES = pointer_words("pointer_degree") | frozenset(
    "other same best worst funny hard first last one major".split()
)
# A size or a liking said of a thing that a relative then says ("a small thing thats mine",
# round 182 read "small"); alone it is a brush-off: "It's a small thing really"
_SMALL_OR_NICE = frozenset("small little tiny big huge nice lovely".split())


def _before_relative(words: list[str]) -> list[str]:
    """ "spin which I do with my friend": the thing, not "spin which do" (round 22)."""
    if len(words) > 2 and words[1].lower() in ("which", "who") and content_words(words[0]):
        if words[0].lower() in _WHO_THEY_ARE:
            return words  # "the mum who can just say yes": the clause is who she is (round 60)
        return words[:1]
    return words


# Who someone is, said by what they do: the relative clause says it ("the one who drives")
_WHO_THEY_ARE = frozenset(
    "mum mam mom dad parent one person guy girl woman man friend kind type sort someone "
    "somebody".split()
)


# (and a few minutes: "its like ten minutes that are just mine", a typed oat milk interview)
_TIMEISH = frozenset(
    "a an one two three four five ten fifteen twenty few couple of every each day days evening "
    "evenings night nights morning mornings week weeks weekend weekends month year afternoon "
    "time times minute minutes mins hour hours".split()
)
_GO_AND = frozenset("go goes went come comes came try".split())
_VERBS_AFTER_TO = frozenset(
    "think like love enjoy prefer guess mean suppose do have be worry".split()
)
# (and a "no" set off by a comma: "haha no, the laundry pile wins" is no "no laundry pile"; nor
# "not really, only that the shop's only open" a "not shop's only open", round 183)
_DISCOURSE_LEAD = re.compile(
    r"^(?:(?:(?:but|and|so|yeah|yes|well|oh|also|although|though)\b|"
    r"(?:no|nah|nope|not(?:\s+really)?|right|ok|okay|anyway)\s*,|"
    # a check-back denied without a comma: "no no its the quiet spin" (round 185's summary
    # read it back so)
    r"(?:no|nah)\s+(?:no|nah)\b|(?:no|nah)\s+(?=(?:it'?s|it\s+is|thats|that'?s)\b))[\s,]*)+",
    re.IGNORECASE,
)
_TIME_PREPS = frozenset("after before until".split())
# A stretch of days or work and nothing else: "after a week in the pharmacy", "before a long
# shift", "after work" (not "after work I run": what is done then is said)
_ONLY_A_TIME = re.compile(
    r"(?:after|before|until)\s+(?:(?:a|an|the|my|our|every|each|one)\s+)?"
    r"(?:(?:long|busy|hard|full|whole|rough|bad|night|early|late)\s+)?"
    r"(?:days?|weeks?|shifts?|nights?|weekends?|months?|terms?|work|school)"
    r"(?:\s+(?:at|in|on)\s+(?:(?:the|my|our)\s+)?[\w'-]+)?",
    re.IGNORECASE,
)
_ME = frozenset("i i'm i'd i'll i've we we're we'd you you're".split())
_LOOK = frozenset("look looks looking looked take takes".split())
_TIME_STARTS = frozenset("a an every each work school lunch dinner breakfast dark".split())


def _without_lead(words: list[str], prefix: str) -> list[str]:
    """The words without what leads them and names nothing ("I", "well", "I like"), unless
    the cue's ``prefix`` needs the first one: after a frame ending in "to" it is its verb ("so
    I don't have to think about dinner" is "don't have to think about dinner", not "don't
    have to dinner"), after "feel" a "like" ("feel like a good parent")."""
    first = words[0].lower() if words else ""
    if (prefix.split()[-1:] == ["to"] and first in _VERBS_AFTER_TO) or (
        prefix == "feel" and first == "like"
    ):
        return words
    spoken = words
    words = _strip_leading(words)
    if (
        words
        and words[0].lower() in OPINION_LEADS
        and not _WH_OBJECT.match(" ".join(words[1:2]))
        and not _USING_ONESELF.match(" ".join(words[:3]))
    ):
        # ("using what you've got" keeps its verb: what it is used for is a clause)
        words = _strip_leading(words[1:])
    return _keep_possessive(spoken, _keep_do(spoken, words))


_WH_OBJECT = re.compile(r"(?:what|whatever|whoever|how)$", re.IGNORECASE)
# ... nor does using one's own head: "which means using my noggin" (a dev-7 simulated gran was
# asked "Why does your noggin matter to you?")
_USING_ONESELF = re.compile(
    r"(?:use|using|used)\s+(?:my|your|our|me)\s+(?:brain|brains|head|noggin|loaf|nut|hands|"
    r"legs|imagination|skills|mind)$",
    re.IGNORECASE,
)


def _time_phrase(words: list[str], at: int) -> bool:
    """ "after a night shift", "after fifteen years", "before work": a phrase with no subject,
    kept when the label still fits ("dinner on the table before seven" is cut as before)."""
    word = words[at + 1].lower() if at + 1 < len(words) else ""
    if not (word in _TIME_STARTS or word in NUMBER_WORDS or word.isdigit()):
        return False
    breaks = CLAUSE_BREAKS | LATE_BREAKS
    end = next((j for j in range(at + 1, len(words)) if words[j].lower() in breaks), len(words))
    return end <= MAX_LABEL_WORDS


def _case(word: str) -> str:
    """Lower case, except acronyms ("ID") and the pronoun I ("feel I deserve nice things")."""
    if sum(ch.isupper() for ch in word) >= 2:
        return word
    lower = word.lower()
    if lower == "i" or lower.startswith(("i'", "i\u2019")):
        return "I" + lower[1:]
    return lower


def _keep_do(spoken: list[str], words: list[str]) -> list[str]:
    """ "They do the job" is "do the job", not "job": a lone noun after "do" keeps the verb."""
    if len(words) != 1 or len(spoken) < 3:
        return words
    at = len(spoken) - 1
    if spoken[at - 1].lower() in ("the", "a", "its", "their", "what") and at >= 2:
        if spoken[at - 2].lower() in ("do", "does", "did"):
            return spoken[at - 2 :]
    return words


_POSSESSIVES = frozenset("my our their his her your".split())
# Nouns that say little without whose they are ("time" of "it's my time"); "freedom" or
# "privacy" stand alone.
_WHOSE = frozenset("time day life way money space place".split())


def _keep_possessive(spoken: list[str], words: list[str]) -> list[str]:
    """ "It's my time" is "my time", not "time": a lone general noun keeps whose it is."""
    if len(words) != 1 or words[0].lower() not in _WHOSE or words[0] not in spoken:
        return words
    at = len(spoken) - 1 - spoken[::-1].index(words[0])
    if at >= 1 and spoken[at - 1].lower() in _POSSESSIVES:
        return spoken[at - 1 : at + 1]
    return words


# Who or what a "now" opens a clause with: "its my pride and joy now im not walking the rounds"
# (round 68 made "pride and joy now im")
_NOW_SUBJECTS = frozenset(
    "i im i'm ive i've we were we're they theyre they're he she hes he's "
    "shes she's the my our that".split()
)


_TIED_TO_NOW = frozenset("right just for until till by from".split())


def _before_now_that(words: list[str]) -> list[str]:
    """The words before a "now" that opens a clause of its own, once two or more came first."""
    for i in range(2, len(words) - 1):
        if words[i - 1].lower() in _TIED_TO_NOW:
            continue  # "right now", "just now", "for now": a time, no clause
        if words[i].lower() == "now" and words[i + 1].lower() in _NOW_SUBJECTS:
            return words[:i]
    return words


def _without_first(words: list[str]) -> list[str]:
    """A noun phrase without the "first" that says when it came: "the size of the drum first"
    (round 70 asked "Why does the size of the drum first matter to you?"); never a doing's
    ("family comes first", "the light came on first")."""
    said = [w.lower() for w in words]
    if len(said) <= 3 or said[-1] != "first" or "of" not in said[1:-2]:
        return words
    if said[0].endswith(("ed", "ing")):  # "downloaded one of them apps first"
        return words
    return words[:-1]


# the first of a list said in order: "the ingredients first, our lab has a dodgy tummy", "the
# price first, then the taste" (a typed pet-food interview asked "What is the problem with the
# ingredients first for you?"); not a doing ("the kids eat first, then we do": one word after
# a determiner, and no more); said alone, "the kids first" is the kids still
_LISTED_FIRST = re.compile(
    r"^(?P<noun>(?:the|my|our|a|an)\s+\w+)\s+first(?=\s*(?:,|$))", re.IGNORECASE
)


_AGREEING = ACKNOWLEDGEMENTS & frozenset("yes yeah yep".split())
_SAYING = frozenset("say says said saying answer answered".split())


def is_empty_label(words: list[str]) -> bool:
    """Nothing in these words names an element: pronouns, fillers, ratings, "again", "not".
    Doing it oneself names self-reliance ("i like doing it myself", round 68 read nothing)."""
    text = " ".join(words)
    if _SOME_OF_THEM.fullmatch(text):
        return True  # "some of them (do that)": which ones points elsewhere (round 218)
    return naming_words(text, NAMELESS | LABEL_NAMELESS) == 0 and not _ONESELF.search(text)


_SOME_OF_THEM = re.compile(
    r"(?:some|all|most|one|none|both|few|many|each|any|a\s+lot|loads|half|two|three)\s+of\s+"
    r"(?:them|those|these|us|it|em)",
    re.IGNORECASE,
)


_ONESELF = re.compile(
    r"\b(?:do|does|did|doing|done|manage|managing|sort|sorting)\s+(?:it|things|everything|the\s+lot|"
    r"it\s+all|that)\s+(?:all\s+)?(?:myself|ourselves|by\s+myself|on\s+my\s+own)\b",
    re.IGNORECASE,
)


# Verbs that say nothing until what follows them: a label never ends on one ("bad extraction
# gets", cut from "what the bad extraction gets in the way of", round 23).
_LIGHT_ENDS = frozenset("get gets getting takes took makes gives".split())
# ... nor on a verb standing for the one said before it ("the taste does"), but what someone does
_DOES = frozenset("does do did".split())
_DOERS = frozenset(
    "i we you they he she what who it to have has had can could will would should must not".split()
)
# ... nor on what only waits for its word of judgement: "would be", "will be"
_MODAL_ENDS = frozenset("be would could will should might".split())


def _without_light_end(words: list[str]) -> list[str]:
    """The words without a last verb that says nothing of its own: "gets", a "does" standing
    for the verb before it ("the taste does"), a modal waiting for its judgement."""
    if len(words) > 2 and words[-1].lower() in _LIGHT_ENDS:
        words = words[:-1]
    if len(words) >= 2 and words[-1].lower() in _DOES and words[-2].lower() not in _DOERS:
        words = words[:-1]  # "the price doesn't matter to me, the taste does": the taste
    if len(words) > 2 and words[-1].lower() == "never" and words[-2].lower() in _MODAL_ENDS:
        words = words[:-1]  # "old petrol one could never (get going)" (round 139)
    return _without_modal_end(words)


def _without_modal_end(words: list[str]) -> list[str]:
    """ "a signal in the back bedroom would be (nice)" (round 76) ends before "would be"; a
    comparison keeps it: "cheaper than I thought it would be"."""
    compared = any(w.lower() in ("than", "as") for w in words)
    while len(words) > 2 and words[-1].lower() in _MODAL_ENDS and not compared:
        words = words[:-1]
    return words


def _lightened(words: list[str]) -> tuple[list[str], list[int]]:
    """Words too many for a label less what they can spare, and where each word left stood:
    a frame leading them ("trying to be good at my job": what they try for says it; "being
    able to talk to an actual person": what they can do, where round 73 asked about "talk to
    actual"), then the pronouns and articles inside."""
    said = [w.lower() for w in words]
    kept = list(range(len(words)))
    frame = next((len(t) for t in _TRYING if said[: len(t)] == t), 0)
    if frame and said[frame - 1] in ("me", "you") and said[frame : frame + 1] != ["feel"]:
        frame = 0  # ("makes me money on the side" is no feeling: the frame stays)
    if len(words) > MAX_LABEL_WORDS and frame:
        kept = kept[frame:]
    if len(kept) > MAX_LABEL_WORDS:
        # a "like" only filling before an amount ("after like 6 hrs my ears start aching",
        # round 209 asked about "after like 6 hrs my ears"), and how often it happens ("so i
        # dont have to pull over every time": "dont have to pull") go before anything said
        kept = [i for i in kept if not _filling_like(said, i)]
        when = _AFTER_A_WHILE.match(" ".join(said[i] for i in kept))
        if len(kept) > MAX_LABEL_WORDS and when:
            # ("after 6 hrs | my ears start aching": when, said first, goes)
            kept = kept[len(when.group("when").split()) :]
        often = next((len(t) for t in _HOW_OFTEN if [said[i] for i in kept[-len(t) :]] == t), 0)
        kept = kept[: len(kept) - often] if len(kept) - often >= 2 else kept
    if len(kept) > MAX_LABEL_WORDS:
        # (an object its preposition needs stays: "not a drop from a cow in it", not "... in")
        kept = [
            i
            for j, i in enumerate(kept)
            if j == 0
            or said[i] not in DISPENSABLE
            or (said[i] in _OBJECTS and said[i - 1] in _PREPS and i == len(said) - 1)
        ]
    if (
        len(kept) == MAX_LABEL_WORDS + 1
        and said[kept[0]] in _LEADING_MODALS
        and not {said[i] for i in kept[-3:]} & (_CUT_BEFORE | _PREPS)
    ):
        # one word over, and no phrase to cut before near its end: the modal leading it goes
        # before the limit cuts its last noun ("I could try it without buying a great big
        # sack", round 178 asked about "could try without buying great")
        kept = kept[1:]
    return [words[i] for i in kept], kept


_LEADING_MODALS = (_MODAL_ENDS - {"be"}) | {"can"}
_HOW_OFTEN = (
    ["every", "single", "time"],
    ["every", "time"],
    ["each", "time"],
    ["all", "the", "time"],
    ["every", "day"],
    ["every", "week"],
)


_AFTER_A_WHILE = re.compile(
    r"(?P<when>(?:after|within|for|in)\s+(?:a\s+few|a\s+couple(?:\s+of)?|couple\s+of|few|\d+|a|an|"
    r"one|two|three|four|five|six)\s+"
    r"(?:hrs|hours?|mins?|minutes|days?|weeks?|months?|years?|while|miles?)"
    # (and where: "after two hours on the fells | my heels start to rub", the second review)
    r"(?:\s+(?:on|in|at)\s+(?:the\s+|a\s+|my\s+)?[\w-]+)?)\s"
    # (a new clause's subject after it: not "for an hour | of peace and quiet", the review)
    r"(?:my|i|we|our|the|his|her|they|you|it|me)\b"
)


def _filling_like(said: list[str], i: int) -> bool:
    """The "like" of "after like 6 hrs": after a preposition, before an amount."""
    amount = i + 1 < len(said) and (
        said[i + 1][:1].isdigit() or said[i + 1] in NUMBER_WORDS | {"a", "an", "half"}
    )
    return said[i] == "like" and i > 0 and said[i - 1] in _PREPS | _CUT_BEFORE and amount


def _leads_what_was_cut(words: list[str], cut: str) -> bool:
    """The label's last word is a particle leading the phrase the limit cut: "getting to work
    on time up | the hills" (round 57's summary read back "getting to work on time up"), or a
    name ("nearly bought a cheap secondhand one off | Facebook Marketplace", round 113)."""
    # (not a day or a month, nor after a verb whose particle it is, however far back: "send
    # my cracked old boots back | Tuesday", from the review)
    named = (
        cut[:1].isupper()
        and cut.split("'")[0] != "I"
        and not phrase_pattern("time").fullmatch(cut)
        and not any(w.lower() in _PHRASAL for w in words[:-1])
    )
    return (
        words[-1].lower() in _PARTICLES
        and (cut.lower() in _NOUN_OPENERS or named)
        and len(words) > 2
        and words[-2].lower() not in _PHRASAL
    )


# A doing that needs what follows it: "trying | to send", "missing | calls from customers"
_NEEDS_MORE = frozenset(
    "trying wanting needing hoping having missing getting making waiting sending using".split()
)
# ... unless it is what the verb before it does ("love getting out", "keep trying", "I'm having")
_DOING_AFTER = KEEP_DOING | frozenset(
    "love loves like likes enjoy enjoys hate hates am is are was were be been im i'm".split()
)


def _wants_what_was_cut(words: list[str]) -> bool:
    """The label's last word is a doing whose object or infinitive the limit cut: "phone's
    dead in some basement missing | calls" (round 269 asked about "the phone's dead")."""
    return (
        len(words) >= 4
        and words[-1].lower() in _NEEDS_MORE
        and words[-2].lower() not in _DOING_AFTER
    )


def _shorten(words: list[str]) -> list[str]:
    """At most MAX_LABEL_WORDS words: drop pronouns and articles inside before cutting, and
    never end on a dangling word ("charge them every" -> "charge every day") or a number
    ("get there and back on one" -> "get there and back")."""
    said, original = [w.lower() for w in words], words
    words, kept = _lightened(words)
    if len(words) > MAX_LABEL_WORDS:
        words = words[:MAX_LABEL_WORDS]
        after = kept[MAX_LABEL_WORDS - 1] + 1 if len(kept) >= MAX_LABEL_WORDS else len(said)
        cut = said[after] if after < len(said) else ""
        if words[-1].lower() in KEEP_DOING and cut.endswith("ing") and len(cut) > 4:
            # "don't want to have to keep | asking him": the doing the limit cut stays (round
            # 76 asked about "don't want to have to keep")
            words, cut = [*words, original[after]], ""
        elif cut and BINOMIAL.fullmatch(" ".join([*said[after - 2 : after], cut])):
            words, cut = [*words, original[after]], ""  # "last me there and | back": one way
        # nor on a number whose noun the limit cut: "back on one charge" -> "back"
        # the limit fell between two phrases: the one before it is whole ("us all sat at the
        # table together | without me being stressed", round 66 kept only "us all sat")
        whole = cut in _CUT_BEFORE - {"of"} and words[-1].lower() not in DANGLING
        if _leads_what_was_cut(words, original[after] if after < len(original) else ""):
            words.pop()
            whole = True
        elif cut and _wants_what_was_cut(words):
            words.pop()  # "stood in a half built flat trying | to send a video" (round 269)
        # nor on a negation whose verb the limit cut: "turn up to client meetings not | looking
        # like a drowned sweaty rat" (round 58)
        while (
            len(words) > 1
            and words[-1].lower() in DANGLING | NUMBER_WORDS | _DENIALS | _NOUNLESS | _WHOSE_CUT
        ):
            if LOAD_OFF.search(" ".join(words)) or _ON_ONES_OWN.search(" ".join(words)):
                break  # "one less thing to think about", "sitting on his own" end there
            if words[-1].lower() == "one" and words[-2].lower() not in DANGLING | NUMBER_WORDS:
                break  # "a cheap secondhand one": the one it names, no number
            # ("in middle of call": an "of" hangs on the noun before it, nothing is whole)
            whole = whole or words[-1].lower() in _CUT_BEFORE - {"of"}
            words.pop()
        # Cut before a phrase the limit would break: "focus on their work", not "focus on
        # their work without office"; "something to do in garage" stays whole.
        at = max((i for i, w in enumerate(words) if _cut_before(words, i)), default=0)
        if at >= 3 and not whole:
            words = words[:at]
    if len(words) > 2 and [w.lower() for w in words[-2:]] == ["to", "be"]:
        words = words[:-2]  # "enough prot per pot to be (worth it)": what it is to be went
    while words and words[-1].lower() in TRAILING_STRIP:
        last, before = words[-1].lower(), words[-2].lower() if len(words) > 1 else ""
        if last in _OBJECTS and (
            len(words) == 2 or (len(words) >= 3 and before in _PREPS | _FOND_OF)
        ):
            break  # "don't have to think about it", "open it", "the kids love it"
        if last in _PARTICLES and before and before not in DANGLING:
            break  # "stay in", "put them on": the particle is part of the verb
        words.pop()
    words = _without_light_end(words)
    while len(words) > 2 and words[-1].lower() in _BARE_ENDS:
        words.pop()  # "shouldnt have to shout to | get": the light verb went, its "to" too
    if len(words) > 2 and words[-1].lower() in _AGREEING and words[-2].lower() not in _SAYING:
        # "i can stay on my side yes", agreeing to the check-back (round 69), not "say yes"
        words = words[:-1]
    if len(words) > 2 and words[-1].lower() == "like" and words[-2].lower() in _PREPS:
        # "woke up at like 6:40" with the time gone: the "like" only filled (round 23)
        words = _shorten(words[:-1])
    return words


# Time of one's own: "time for me", "me time" (my typed interview asked about "time", the value
# its ladder reached); a "me time" said as a thing, not "give me time to think"
_OWN_TIME = re.compile(
    r"\btime\s+for\s+(?:me|myself)\b|(?:^|(?<=\bmy\s)|(?<=\bsome\s)|(?<=\bof\s)|(?<=\bit's\s)|"
    r"(?<=\bits\s)|(?<=\bis\s)|(?<=\bwas\s)|(?<=\bmore\s)|(?<=\bthe\s)|(?<=\bfor\s))me\s+time\b|"
    # ... and so is being out of one's own head, whose "my" and "of" go otherwise: "going at 6
    # gets me out of bed and out my own head" was "going at 6 gets me out" (round 273)
    r"\bout\s+(?:of\s+)?my\s+(?:own\s+)?head\b|"
    # ... and so are "the life out of me" and "going through that again", whose pronoun goes
    # and leaves them dangling ("frightened life out", "don't fancy going through", round 278)
    r"\bthe\s+life\s+out\s+of\s+(?:me|him|her|us|them)\b|\bthrough\s+(?:that|it|all\s+that)\s+again\b",
    re.IGNORECASE,
)
_OWN_TIME_JOINED = re.compile(
    r"\btime-for-(?:me|myself)\b|\bme-time\b|\bout-(?:of-)?my-(?:own-)?head\b|"
    r"\b(?:the-)?life-out-of-(?:me|him|her|us|them)\b|\bthrough-(?:that|it|all-that)-again\b",
    re.IGNORECASE,
)


# (an "own" that needs no noun: "sitting on his own", "a room of my own"; dev 8 made "not kid
# sitting on his")
_ON_ONES_OWN = re.compile(r"\b(?:on|of)\s+(?:my|his|her|their|our|your|its)\s+own$", re.I)
_RELATIVE_SUBJECTS = frozenset("i we you they".split())
# Nouns that say little until their clause says which: "the only time we have together"
_WHICH_ONE_SAYS = frozenset(
    "time times thing things way one ones place bit part reason day".split()
)


def _relative_at(said: list[str]) -> int:
    """Where a relative clause without its "that" starts after a noun phrase, in words too
    many for a label (0 for none): "the stuff | I go through daily", "that app | we all use"."""
    # (not after an opening phrase of time or place, whose noun the main clause follows: "in
    # the middle of the night | I need the wash to be quiet", "after the breakup | I was")
    if len(said) <= MAX_LABEL_WORDS or said[0] in _CUT_BEFORE | _PREPS | {"when", "if"}:
        return 0
    for i in range(4, len(said) - 1):
        if (
            said[i] in _RELATIVE_SUBJECTS
            and said[i - 1] not in _WHICH_ONE_SAYS
            and (said[i - 2] in _NOUN_OPENERS or (i >= 5 and said[i - 3] in _NOUN_OPENERS))
        ):
            return i
    return 0


# "a bunch of coriander", "the tablespoon of gochujang": the "of" names what is measured
_MEASURES = frozenset(
    """bunch lot lots pile load loads bag bags pack packet tin jar bottle cup mug glass slice
    piece bit handful couple pinch spoon spoonful tablespoon teaspoon thumb clove head tub
    box carton portion""".split()
)


def _cut_before(words: list[str], i: int) -> bool:
    """A phrase the word-limit may cut before: a preposition, but not the "of" of a measure."""
    word = words[i].lower()
    if word == "of" and i and words[i - 1].lower() in _MEASURES:
        return False
    return word in _CUT_BEFORE


_TRYING = (
    ["trying", "to"],
    ["try", "to"],
    ["just", "trying"],
    ["being", "able", "to"],
    ["be", "able", "to"],
    # (what it makes them feel says it: "makes you feel you're still some use", round 269
    # read "makes you feel you're still")
    ["makes", "you"],
    ["makes", "me"],
    ["it", "makes", "you"],
    ["it", "makes", "me"],
)
_CUT_BEFORE = frozenset("at of in with without for from into by during after before".split())
# (a particle, or a preposition whose object the limit cut: "contort myself round | a door")
# (also a predicate of one word that says where it stands, no kind of the thing before it:
# "dairy is out" is no "out dairy")
_PARTICLES = frozenset("in on out up off down back away over round around".split())
_BARE_ENDS = frozenset("to of for with and or the a an".split())

# Words that need what the limit cut: a noun ("in its own little | plastic bag",
# ``BEFORE_A_NOUN``) or what a degree measures ("for how | little I use it")
_NOUNLESS = BEFORE_A_NOUN | frozenset("how so too next".split())  # ("shop next | door", round 98)
_DENIALS = frozenset("not never no".split())
# whose, with the noun the limit cut: "mr dodds sat there on his | own" (round 189's focus)
# (not "her": "i love her")
_WHOSE_CUT = _POSSESSIVES - {"her"}
# Verbs whose particle is theirs, not a place's: "pick up | the kids", "drop off | the car"
_PHRASAL = frozenset(
    """pick picking picked get getting got set put give take took look turn come go bring fill
    sign hang run show break clean tidy wash wake pay keep shut warm cheer top pack drop
    dropping dropped sort sorting switch switching catch""".split()
)
_NOUN_OPENERS = frozenset("the a an my our his her their your this that these those".split())


_OBJECTS = frozenset("it them this that you".split())
_FOND_OF = frozenset(
    "love loves loved like likes liked hate hates enjoy enjoys adore adores".split()
)
_PREPS = frozenset("about of with for on at to without from into over in".split())
