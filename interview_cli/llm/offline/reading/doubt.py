"""Signs that a clause, though it names something, is not one the interviewer should ask about.

An answer carries more than its elements: a joke, a story set years back, an apology for
typing on the bus (INTERVIEWING.md "How people actually answer"). The reader still makes a
node of such a clause when it names something, since it may be an element, but it is the
kind of clause an analyst most often leaves uncoded, and a question about it ("You said you
drive like a bus driver still. Why is that important to you?") costs rapport. So the reading
marks it doubtful: its confidence stays below the methodologies' ``min_focus_confidence``,
and the interviewer does not make it the focus of a question until it is said again more
clearly (the graph keeps a node's best confidence). The node stays in the graph; only the
question waits.

The signs are kept few and broad, each one common to the writers read while tuning, and
each one checked not to mute what simulated respondents say of their elements (someone else
as the subject was left out: "my husband can cook it" is as often an element as backstory):

- it **laughs**, in its own part of the sentence ("haha", "lol", "hehe", a smiley), up to the
  next comma: a laugh closing a long sentence is about its last part; not the first thing
  said, which a "lol" typed as a habit follows ("price obviously lol im not made of money":
  round 244 held every element of its first answers doubtful, and asked "what else?" twice;
  "peace of mind really haha" to a why, the review), unless a "jk" or a "but really" right
  after the laugh marks the joke, or the clause denies what was asked ("Well it wasnt my sole
  haha", round 246 asked about it next);
- its sentence **sets the story back in time** ("two years ago", "when I was small"), except
  where the methodology is about events, whose story is its matter, or the clause tells of a
  switch thought about ("I nearly went for one last year");
- its sentence **apologises for the interview** ("sorry, I was cooking");
- its sentence **says what would have been** ("if I still had the car I'd have driven");
- it **quotes someone else's words** as they said them ("said 'that's our mistake'"): their
  "our" is not the respondent's;
- where the methodology is about events, it **tells who they are** (``LIFE_FACT``: "I'm the
  office manager at a primary school"): the story's scene, not what happened in it;
- it **tells someone else's view** of nothing of the respondent's ("she says oat tastes like
  porridge"), except where the methodology is about events, whose story holds what was said;
- its sentence **opens by saying it is said again** ("Like I said, ...", "Same as before
  really, ..."): answered already, in other words;
- its sentence **opens by saying it does nothing** ("Nothing really, it lives in a drawer"):
  what follows explains the nothing;
- its sentence **guesses at others' reasons after not knowing** ("I dunno, maybe they are not
  trained same way");
- where the methodology is about events, its sentence **wonders what happened after not
  knowing** ("I dunno, maybe the frame was damaged in their van").

Their phrases are data, ``lexicon/en/doubt/*.yaml``. How sure the reading is of every node is
``confidence_of``: a floor (``DOUBTFUL``) and a step for each sign that the clause names an
element; a node with a sign of doubt is then held at the floor. Pure: no I/O beyond reading
those phrases once.
"""

from __future__ import annotations

import re
from functools import cache

from interview_cli.config.switch_words import NEAR_SWITCH
from interview_cli.core.text import label_profile
from interview_cli.llm.offline.lexicon import LIFE_FACT
from interview_cli.llm.offline.lexicon.phrases import alternatives
from interview_cli.llm.offline.reading.clauses import SPACED_DASH, Clause, sentence_start
from interview_cli.llm.offline.reading.nonanswers import NonContent, inline_spans

# (a spaced dash before a new clause's subject too, as the clauses are split)
_SENTENCE_END = re.compile(r"(?:[.!?]|" + SPACED_DASH + ")+")
_PART_END = re.compile(r"[,;.!?]")
LAUGH_SIGN = "laugh"
# How far after a clause a laugh may stand and still be about it
_LAUGH_REACH = 30
# The signs matched in the clause itself, not its sentence.
REPORTED_SIGN = "reported"
VIEW_SIGN = "view"
# The sign that does not count where the methodology is about events.
STORY_SIGN = "back_then"
# The sign that counts only where the methodology is about events.
WONDER_SIGN = "wonder"
# The signs of a guess: what follows them, to a "but", is guessed.
GUESS_SIGNS = frozenset(("guess", WONDER_SIGN))
_BUT = re.compile(r"\bbut\b", re.IGNORECASE)


@cache
def _signs() -> tuple[tuple[str, str, re.Pattern[str]], ...]:
    """Each sign's phrase file (``lexicon/en/doubt/``), compiled once, with its reason."""
    reasons = (
        ("laugh", "its sentence laughs"),
        ("back_then", "its sentence sets the story back in time"),
        ("apology", "its sentence apologises for the interview"),
        ("hypothetical", "its sentence says what would have been, not what is"),
        ("dismissal", "its sentence opens by saying it does nothing"),
        ("reported", "it quotes someone else's words"),
        ("view", "it tells someone else's view"),
        ("repeated", "its sentence says it is said again"),
        ("guess", "its sentence guesses at others' reasons after not knowing"),
        ("wonder", "its sentence wonders what happened after not knowing"),
    )
    return tuple(
        (kind, reason, re.compile("|".join(alternatives(f"doubt/{kind}", ("en",))), re.I))
        for kind, reason in reasons
    )


# A clause whose subject is someone else ("she changed to lates", "her husband does the school
# run"), in a sentence that says nothing of the respondent's own (no "I", "my", "we"): in a
# ladder, the life of someone in the story, not a rung of theirs ("my husband can cook it" says
# something of theirs, and is an element as often as not)
_OF_OTHERS = re.compile(
    # (not "they": "They last all day" is the boots, "Their battery lasts a week" the product's,
    # the review)
    r"\W*(?:(?:oh|and|but|so|well|then|now|mind\s+you)\W+)*(?:she|he|she's|he's|shes|hes|"
    r"(?:her|his)\s+[a-z]+|our\s+(?-i:[A-Z])[a-z]+)\b",
    re.IGNORECASE,
)


def _of_others(answer: str, clause: Clause, sentence: str) -> bool:
    """``clause`` tells of someone else's life (``_OF_OTHERS``) in a sentence with nothing of
    theirs; in one typed on and on without stops, in a part (between commas) with nothing of
    theirs after whom it is of ("i think thats it really love, ..., mind you our Tracey goes
    to that posh place in Standish so": round 249 asked what difference that made)."""
    other = _OF_OTHERS.match(clause.text)
    if other is None:
        return False
    if not _OF_THEIR_OWN.search(sentence):
        return True
    if len(sentence.split()) < _RUN_ON:
        return False
    stop = _PART_END.search(answer, clause.end)
    part = answer[clause.start + other.end() : stop.start() if stop else len(answer)]
    return not _OF_THEIR_OWN.search(part)


_RUN_ON = 30
_OF_THEIR_OWN = re.compile(
    r"\b(?:i|i'm|im|i've|ive|i'd|i'll|me|my|mine|myself|we|we're|we've|us|our|ours)\b",
    re.IGNORECASE,
)


# A detail put right (``lexicon/en/correction.yaml``: "Actually it wasnae March, it was April",
# "I tell a lie, it wasn't nine hundred, it was £749"): what else its sentence says with no cue
# of its own, and the next sentence when it opens on the detail again, is how they know it ("my
# flatmate reminded me cos it was his birthday week", "The 14th was our anniversary, Priya'd
# kill me": rounds 227 and 228 asked about both), not an element. (Not what follows with "so",
# "and": "..., and I lost a client because of it", the review.)
_GOES_ON = re.compile(r"\b(?:so|and|which|but)\b", re.IGNORECASE)
# How what it is put right to is said ("..., i meant salmon", "..., it was April")
_PUT_TO = re.compile(r"\b(?:i\s+meant|i\s+mean|it\s+was|it'?s|its|actually|more\s+like)\b", re.I)


def _tells_how_they_know(answer: str, begins: int, sentence: str, clause: Clause) -> bool:
    """The clause follows a detail put right in its sentence with no cue between, or opens the
    next sentence on the detail again."""
    at = clause.start - begins
    ends = begins + len(sentence)
    found = [s for s in _details_put_right(answer) if begins <= s.start < ends]
    if found:
        # (past what it was put right to, the clause right after the correction: "i said lamb
        # earlier, i meant salmon" means salmon)
        between = sentence[found[0].end - begins : max(at, found[0].end - begins)]
        past_it = re.search(r"\w", _PUT_TO.sub(" ", between)) is not None
        return past_it and not _GOES_ON.search(between)
    before = answer[:begins].rstrip()
    if not before or at > 0:
        return False
    last, _ = sentence_at(answer, len(before) - 1)
    put_right = [s for s in _details_put_right(answer) if last <= s.start < begins]
    if not put_right:
        return False
    # the detail: the words of the correction and the first after it ("the 21st")
    said = answer[put_right[0].start : begins].lower()
    opening = _OPENING.match(sentence.lower())
    return opening is not None and re.search(rf"\b{re.escape(opening[1])}\b", said) is not None


def _details_put_right(answer: str) -> list[NonContent]:
    """The corrections (``lexicon/en/correction.yaml``) of a detail: a figure, a date, a day
    or a month in them or just after ("it wasnae March, it was April"); not of what mattered
    ("I said the price, I meant the fit")."""
    return [
        s
        for s in inline_spans(answer, ("correction",))
        if _A_DETAIL.search(answer, s.start, min(len(answer), s.end + 20))
    ]


_A_DETAIL = re.compile(
    r"\d|\b(?:(?:jan|febr)uary|march|april|june|july|august|september|october|november|"
    r"december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|hundred|"
    # (as typed short: "sorry i said march earlier, it was feb actually", round 240)
    r"jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b",
    re.IGNORECASE,
)


# The first word of a sentence, past its article ("The 14th was ...": "14th")
_OPENING = re.compile(r"\W*(?:the\s+|on\s+the\s+|on\s+)?([\w£$€.]+)")


def sentence_at(answer: str, at: int) -> tuple[int, str]:
    """Where the sentence holding ``at`` starts, and its text."""
    start = 0
    for match in _SENTENCE_END.finditer(answer):
        if at < match.end():
            return start, answer[start : match.end()]
        start = match.end()
    return start, answer[start:]


# How sure the reader is of a node: a floor, and a step for each sign that the clause names
# an element. A clause with no sign at all (a later statement with no cue, no telling words
# and nothing the study names: "Arthritis.", "You need your wits about you") stays a node but a
# doubtful one, below the methodologies' ``min_focus_confidence``: the interviewer does not
# ask about it until it is said again more clearly (the graph keeps a node's best confidence).
DOUBTFUL = 0.5
SIGN = 0.1
MOST_SURE = 0.9


def confidence_of(clause: Clause, *, answers: bool, features: frozenset[str], answer: str) -> float:
    """The reading's confidence in ``clause`` as an element. Signs: it ``answers`` the
    question (the first thing said), a cue links it to the clause before ("so", "because"),
    its words name a kind of element the ontology has or a switch thought about, it names one of
    the study's own things (``features``: words of the concept's objective, description and
    elements)."""
    signs = (
        answers,
        clause.cue is not None and clause.cue.link in ("up", "down", "sequence"),
        # (a switch told names a way of doing it: "I nearly went for a bean-to-cup")
        clause.strong or bool(NEAR_SWITCH.search(clause.text)),
        bool(set(label_profile(clause.label).content) & features),
        _what_comes_of_it(answer, clause),
    )
    return round(min(MOST_SURE, DOUBTFUL + SIGN * sum(signs)), 2)


def _what_comes_of_it(answer: str, clause: Clause) -> bool:
    """The clause says what comes of a condition its sentence opened with ("if my connection
    drops during a demo | I look like an amateur", "if I trust them | I don't have to check
    every bill"): what it leads to for them, the rung a why is after (round 235 held both
    doubtful, and asked about the calls with the team instead)."""
    condition = _CONDITION.match(answer, sentence_start(answer, clause.start), clause.start)
    if condition is None or len(condition.group("said").split()) < 3:
        return False
    # (of their own, as it is: not "If my husband cooks, he uses loads of salt", nor "If I won
    # the lottery I'd get a chef", the review)
    return _THEIRS_AS_IT_IS.match(answer, min(clause.quote_start, clause.start)) is not None


_THEIRS_AS_IT_IS = re.compile(
    r"\W*(?:i|we)(?:'m|m|'ve|ve|\s+am|\s+can|\s+don'?t|\s+dont|\s+do|\s+get|\s+feel|\s+look|"
    r"\s+have|\s+just|\s+never|\s+always|\s+know|\s+save|\s+sleep|\s+lose|\s+end)?\b(?!'d|\s+would)",
    re.IGNORECASE,
)


_CONDITION = re.compile(
    r"\W*(?:(?:and|but|so|well|plus|like|cos|because)\s+)?(?:if|when|whenever|once)\s+(?P<said>[^,;]*?)"
    r"(?:,\s*|\s+then\s+|\s+)$",
    re.I,
)


def doubt(answer: str, clause: Clause, *, story: bool, named: bool = False) -> str:
    """Why ``clause`` of ``answer`` is doubtful as an element ("" when it is not). ``story``:
    the methodology is about events, so a story set back in time is its matter; ``named``: the
    clause is the first thing the answer says."""
    if story and LIFE_FACT.search(clause.text):
        # (who they are sets a story's scene: "I'm the office manager at a primary school and
        # ..." was asked "What happened next?" in round 209)
        return "it tells who they are, which sets a story's scene"
    begins, sentence = sentence_at(answer, clause.start)
    if _tells_how_they_know(answer, begins, sentence, clause):
        return "it tells how they know the detail they put right"
    if not story and _of_others(answer, clause, sentence):
        # (round 227's lift-share colleague: "Oh she changed to lates in the end, her husband
        # does the school run now so it suits her better" was asked "What, if anything, made
        # you hesitate before changing?")
        return "it tells of someone else's life, in a sentence with nothing of theirs"
    for kind, reason, pattern in _signs():
        if kind == STORY_SIGN and (story or NEAR_SWITCH.search(clause.text)):
            continue  # (a switch is told in the past: "I nearly went for one last year")
        if kind == WONDER_SIGN and not story:
            continue  # (in a ladder, "I dunno, maybe just having an evening" is a value)
        if kind == LAUGH_SIGN:
            laugh = pattern.search(_part(answer, clause))
            if laugh is not None and _a_joke(answer, clause, named, clause.start + laugh.end()):
                return reason
        elif kind in (REPORTED_SIGN, VIEW_SIGN):
            if (kind == REPORTED_SIGN or not story) and pattern.search(
                answer, clause.start, clause.end
            ):
                return reason
        elif kind in GUESS_SIGNS:
            # (up to a "but": "I dunno, maybe X, but he cancelled my order" says that plainly)
            found = pattern.search(sentence)
            if found and not _BUT.search(sentence, found.end(), clause.start - begins):
                return reason
        elif pattern.search(sentence):
            return reason
    return ""


# Said after a laugh, it marks what laughed a joke, even the answer to the question: "so I can
# finally beat my brother at squash haha. but really it's about being around for my kids",
# "impressing the girls at work lol jk, it's the fitness" (the review)
_NAMING = re.compile(r"[a-z]{3,}", re.IGNORECASE)
_MARKED_A_JOKE = re.compile(
    r"\W*\b(?:jk|j/k|(?:only|just)\s+(?:joking|kidding)|kidding|but\s+(?:really|seriously|honestly)|"
    r"seriously\s+(?:though|tho)|in\s+all\s+seriousness|joking\s+aside|no\s+but\s+(?:really|seriously))\b",
    re.IGNORECASE,
)


def _a_joke(answer: str, clause: Clause, named: bool, after: int) -> bool:
    """The laugh ending at ``after`` marks ``clause`` a joke: always, but on the first thing
    said, ``named`` (the laugh typed as a habit), unless a "jk" or a "but really" follows the
    laugh at once, or what it laughs at denies what was asked ("Well it wasnt my sole haha"; not
    "price obviously lol im not made of money")."""
    if _MARKED_A_JOKE.match(answer, after) is not None:
        return True
    # (the first thing of its sentence: not the last of a list, "I've the house and the car and
    # my grandson's always on the scrounge haha", round 248 asked about the grandson)
    first = not _NAMING.search(answer, sentence_start(answer, clause.start), clause.start)
    return not (named and first) or label_profile(answer[clause.start : after]).negated


def _part(answer: str, clause: Clause) -> str:
    """The clause and what follows it up to the next comma or sentence end: where a laugh
    is about this clause. "Upload speed, because I push 200 gig files, and the line not
    dropping out cos my teenagers scream the house down haha": the laugh is the last part's.
    (Not a laugh opening it: "lol the froth is amazing in a latte" laughs with its answer.)"""
    stop = _PART_END.search(answer, clause.end)
    end = stop.start() if stop else len(answer)
    # (no further than just after it: "my broadband went down for like 5 days and when i rang
    # them i got a robot that kept saying '...' lol" laughs at the robot, not the outage, a
    # typed interview asked for another incident after its first)
    return answer[clause.start : min(end, clause.end + _LAUGH_REACH)]


# A question asking what would have helped, and what the answer says as such a wish: it never
# happened ("an engineer actually turning up": "What did that teach you?" asks about it as done)
_WISHED = re.compile(
    r"\bwould\s+(?:it\s+)?have\s+(?:taken|helped|made\s+(?:it|a\s+difference))\b|"
    r"\bwhat\s+would\s+have\b|\bcould\s+have\s+(?:gone|been\s+done)\b",
    re.IGNORECASE,
)
# ... said as a wish: "an engineer actually turning up", "someone ringing to say", "if they'd
# told me" (not "too few staff", a cause)
_AS_WISH = re.compile(
    r"^(?:\W*\w+){0,4}?\s*\b(?!(?:some|any|no|every)thing\b)\w{3,}ing\b|^\W*(?:if|had)\b|"
    r"\b(?:would|could)\s+have\b",
    re.IGNORECASE,
)


def wished_for(question: str, clause: str) -> bool:
    """The clause is what they say would have helped, asked so: no thing that happened."""
    return bool(_WISHED.search(question) and _AS_WISH.search(clause))


__all__ = [
    "DOUBTFUL",
    "MOST_SURE",
    "SIGN",
    "confidence_of",
    "doubt",
    "sentence_at",
    "wished_for",
]
