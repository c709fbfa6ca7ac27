"""What the last answer wants owned before the next question: a few words first.

A moderator does not ask on as if nothing was said (INTERVIEWING.md: a brief acknowledgement
is fine). ``acknowledged`` puts before a follow-up, in order:

- **taking an offer** to tell more ("Should I tell it?"): "Yes, please do.", or an invitation
  to tell it when the question would be about nothing in particular;
- **saying where they went back to** when they asked to and said what it leads to ("Back to
  the charging.");
- **owning the question** when they were puzzled by it ("Sorry, I put that badly."), asked
  whether it is a machine ("Sorry, I'm an automated interviewer, and that was clumsy."), said
  it was asked or told already ("Sorry, you did say."), were called away ("Okay, no rush.") or
  put right what they or the question had said ("Okay, got it.", "Sorry, my mistake.");
- else **saying back the value** the answer came to, in their words ("So for you it comes
  down to being independent.").

Before all of these but saying back where they went or the value, a death they told of is
heard, once an interview ("Sorry to hear about Tom.").

Each saying is used one way at a time (the one used longest ago), and one acknowledgement is
said at a time. ``unacknowledged`` takes them off again, so what was asked is compared
without them. English; pure functions of the question request.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from interview_cli.core.text import label_profile
from interview_cli.llm.offline.asking.phrases import as_a_doing, phrase_for
from interview_cli.llm.offline.asking.reference import asked_back_to, reference_for, request_answers
from interview_cli.llm.offline.lexicon import KIN
from interview_cli.llm.offline.reading.doubt import sentence_at
from interview_cli.llm.offline.reading.meta import PUZZLED, PUZZLED_LATER, puzzled
from interview_cli.llm.offline.reading.stance import stance_of
from interview_cli.llm.offline.reading.steering import put_right
from interview_cli.llm.protocol import QuestionRequest

# The last answer puzzled by the question ("Sorry, what do you mean by 'run conferences'?",
# "wdym"), or saying it was asked already ("I already told you that", "like I said", "thats
# the third time u asked"): a moderator owns it in a few words before asking on
# (INTERVIEWING.md: a brief acknowledgement is fine). Round 14 testers: "the tool neither
# answered nor acknowledged it".
_ASKED_ALREADY = re.compile(
    # (not a reference back: "the bus thing I told you about", "like I said, back streets")
    # (not of others: "they ought to keep a note of what you've already told them", round
    # 194 heard "Sorry, you did say." after it)
    # (nor of a story: "I'd already asked them twice", "the engineer already said the part
    # was on order", from the review)
    r"\b(?:you(?:'ve|ve|\s+have)?\s+already\s+asked|"
    r"(?<!you've\s)(?<!youve\s)(?<!you\shave\s)(?<!they've\s)(?<!they\shave\s)"
    r"already\s+(?:told|said|answered|covered|asked)"
    r"(?!\s+(?:them|him|her|us|everyone|people|somebody|someone|the\s|my\s|a\s|an\s|for\b))|"
    r"said\s+that\s+already|"
    # ("Haven't I just said? haha", "we keep going round in circles on that one": round 238
    # asked on as if it had not heard)
    r"haven'?t\s+i\s+(?:just\s+)?(?:said|told\s+you)(?!\s+about)|"
    # ("i think i just said that hen haha", round 239; not "I just said that to my wife")
    r"\bi\s+(?:just|already)\s+said\s+(?:that|this)(?=\s*(?:[,.;!?]|$|\s+(?:hen|mate|pet|love|"
    r"bab|pal|haha|lol|though|tho|already|before|earlier|didn'?t\s+i)\b))|"
    # (of the talk: not "with their phone line you keep going round in circles", the review)
    r"we\s+(?:keep\s+)?going\s+round\s+in\s+circles\s+(?:on|with|about)\s+(?:that|this|it)\b|"
    # ("I feel like we're going round in circles a bit here", round 242)
    r"we'?re\s+going\s+(?:round|around)\s+in\s+circles(?:\s+a\s+bit)?(?:\s+here)?\s*(?:[,.;!?]|$)|"
    r"(?:like|as)\s+i\s+said(?:\s+before)?,?\s+(?:that'?s\s+(?:all|it)|i\s+don'?t)|"
    r"i(?:'ve|\s+have)?\s+(?:just\s+)?told\s+you(?!\s+about)(?:\s+(?:that|this|already))?\s*[,.!?]|"
    r"(?:you|u)\s+asked\s+(?:me\s+)?(?:that|this)|"
    r"(?:second|third|fourth)\s+time\s+(?:you|u)(?:'ve)?\s+asked)",
    re.IGNORECASE,
)
# Each said one way at a time: "Sorry, I put that badly." twice in one interview reads as a
# script (rounds 35 and 36). All open with "Sorry," or "Okay," (the question card strips them
# so).
ACKNOWLEDGEMENTS: dict[str, tuple[str, ...]] = {
    "puzzled": (
        "Sorry, I put that badly.",
        # (not "Sorry, that wasn't clear.": round 194 read it as said of the answer, "it was
        # perfectly clear")
        "Sorry, my question wasn't clear.",
        "Sorry, let me put it another way.",
    ),
    "asked": ("Sorry, you did say.", "Sorry, you told me that already.", "Sorry, so you said."),
    # said as asked twice, not as told: "you asked me that already!" heard "Sorry, you told me
    # that already." (round 198: "gets it backwards")
    "asked twice": ("Sorry, I did ask that.", "Sorry, you did say.", "Sorry, I've asked that."),
    # called away for a moment: "Hang on, got a patient waiting, give me 2 mins" (round 200
    # heard a question at once, as if nothing was said)
    "away": ("Okay, no rush.", "Okay, take your time."),
    # they put right something they had said ("Sorry, I said the bus but it was the train
    # actually"), or what the question said back of it: round 235 went on to "What else
    # matters to you?" as if nothing had been put right
    "put right": ("Okay, got it.", "Okay, thanks, got it."),
    "misheard": ("Sorry, my mistake.", "Sorry, I got that wrong."),
    # asked whether they talk to a machine: said plainly, and the question owned (round 240's
    # "are you a bot lol" was asked on as if nothing was said)
    "machine": ("Sorry, I'm an automated interviewer, and that was clumsy.",),
}
_AWAY = re.compile(
    r"\b(?:give\s+me|gimme|back\s+in)\s+(?:a\s+|an\s+|\d+\s*|two\s+|five\s+|ten\s+)?"
    r"(?:min|mins|minute|minutes|sec|secs|second|seconds|mo|moment|tick|ticks)\b|\bbrb\b|"
    # ("Sorry hang on my little one's shouting for me", round 286)
    r"\bbe\s+right\s+back\b|(?:^|(?<=[.!?]\s))(?:(?:sorry|soz|oh|oops|wait)\W+)?(?:hang|hold)\s+on\b"
    r"(?![^.!?]*\?)|"
    # ("hang on, wifes shouting me from the kitchen. now in a minute", round 250)
    r"(?:^|(?<=[.!?]\s))now\s+in\s+a\s+(?:min|minute|sec|second|mo|moment)\W*$|"
    # ("Sorry, the baby's just woken up, one sec.": a typed interview)
    # (not going in a minute: "gotta go in a sec", round 209 heard "Okay, no rush.")
    # (nor "I'll have to be going now in a minute", round 232)
    r"(?<!\bgo\sin\s)(?<!\boff\sin\s)(?<!dash\sin\s)(?<!leave\sin\s)(?<!\bnow\sin\s)(?<!going\sin\s)"
    r"\b(?:one|1|a|just\s+a)\s+(?:sec|second|min|minute|mo|moment)\W*$|"
    # ("hang on someone's at the door, two secs", round 226; not how long it takes, "it's
    # ready in two minutes", "I've only got two minutes", the review)
    r"(?<!\bin\s)(?<!\bfor\s)(?<!\bgot\s)(?<!\blike\s)(?<!takes\s)(?<!about\s)"
    r"(?<![\w\d]\s\d\s)\b(?:two|2)\s+secs\W*$",
    re.IGNORECASE,
)
_ASKED_TWICE = re.compile(
    r"\b(?:you|u)(?:'ve|ve|\s+have)?\s+(?:already\s+)?asked\s+(?:me\s+)?(?:that|this|already)|"
    r"\b(?:second|third|fourth)\s+time\s+(?:you|u)(?:'ve)?\s+asked",
    re.IGNORECASE,
)


# Asking whether they talk to a machine, in a sentence of its own: "i wasnt hoping for
# anything. are you a bot lol" (round 240 asked on as if nothing was said); not "I always end up
# asking are you a bot or a person", the review
_ASKED_IF_A_MACHINE = re.compile(
    r"(?:^|(?<=[.!?])\s*)(?:(?:lol|haha|sorry|wait|hang\s+on|hold\s+on)\W+)?(?:(?:are|r)\s+(?:you|u)\s+"
    r"(?:a\s+|an\s+)?(?:bot|robot|chatbot|ai|computer|machine|real\s+person|real|human|a\s+person)|"
    r"(?:is\s+this|am\s+i\s+(?:talking|speaking|chatting)\s+(?:to|with))\s+(?:a\s+|an\s+)?(?:bot|robot|"
    r"ai|chatgpt|machine|computer|real\s+person)|(?:you'?re|your|ur)\s+a\s+bot(?:\s+aren'?t\s+(?:you|u))?)"
    # (asked of them, as the answer ends or before a laugh: not "The chatbot on the app is
    # useless. Is this a bot? Obviously yes", the bank's, the review)
    r"\b(?!\s+or\b)(?=\W*(?:lol|haha|ha|tbh|mate|though|tho)?\W*$)",
    re.IGNORECASE,
)


def _owned_as(last: str) -> str:
    """Which acknowledgement the last answer wants ("" none): puzzled by the question, said to
    have been asked or told already, called away, or putting right what they or the question
    said."""
    if _ASKED_IF_A_MACHINE.search(last):
        return "machine"
    if PUZZLED.match(last) or PUZZLED_LATER.search(last):
        return "puzzled"
    if _ASKED_ALREADY.search(last):
        return "asked twice" if _ASKED_TWICE.search(last) else "asked"
    if _called_away(last):
        return "away"
    correction = put_right(last)
    if correction is None:
        return ""
    if correction.said_back:
        return "misheard"
    # (said as putting right, in its sentence, not told in a story: "I said I wanted the blue,
    # they sent red", "I actually told them it was 25 quid not 20", "Sorry to moan, but it was
    # 25 quid, not 20 like the website said", the reviews)
    _, sentence = sentence_at(last, correction.start)
    return "put right" if _CORRECTING.search(sentence) else ""


_CORRECTING = re.compile(
    r"\b(?:sorry(?!\s+to\b)|soz|(?<!\bi\s)actually|wait|oops|whoops|correction|meant|i\s+mean|"
    r"should\s+(?:say|have\s+said)|tell\s+a\s+lie|scratch\s+that|or\s+rather|more\s+like|"
    r"nearer|my\s+(?:bad|mistake)(?=\s*(?:[,.;!?]|$))|i\s+got\s+that\s+wrong|did\s+i\s+say|i\s+lie|"
    r"make\s+that|"
    r"(?:ah|oh)\s+no)\b",
    re.IGNORECASE,
)


def _called_away(answer: str) -> bool:
    """The answer ends called away ("..., give me 2 mins"), not back already and answering:
    "Hang on, kettle. Right. Erm, what was the question? Oh yeah, less panic means ..." (a
    typed interview heard "Okay, no rush." after it)."""
    found = list(_AWAY.finditer(answer))
    # (what calls them may take a few words: "Sorry hang on my little one's shouting for me")
    return bool(found) and len(answer[found[-1].end() :].split()) < 8


def owned_in_a_shape(request: QuestionRequest, question: str) -> str:
    """``question`` after owning what the last answer wants owned, for a journey's or a grid's
    question, which says nothing else first: a puzzle that went unanswered (``meta.puzzled``:
    "Sorry, I put that badly."; round 282's grid was asked its rating again without a word, and
    not after "what do you mean? ... but if you mean the milk thing, a wee 'this is dairy, you
    sure?' check would do it", answered, round 283), a call away ("Sorry hang on my little
    one's shouting for me", round 286), a question asked or answered already ("I said 2ish!"),
    a machine asked after, something put right."""
    last = request.recent[-1].answer if request.recent else ""
    kind = _owned_as(last)
    if not kind or (kind == "puzzled" and not puzzled(last)):
        return question
    return _owned_first(request, question)


def unacknowledged(question: str) -> str:
    """``question`` without the acknowledgement said before it (what was asked, to compare)."""
    for said in (*(s for kind in ACKNOWLEDGEMENTS.values() for s in kind), OFFER_TAKEN):
        question = question.removeprefix(f"{said} ")
    if question.startswith("Sorry to hear") and ". " in question:
        question = question.split(". ", 1)[1]
    return question


# The last answer offering to tell more ("there is a second part ... Should I tell it?",
# round 56: answered "What else comes to mind when you think about it?")
_OFFERED = re.compile(
    r"\b(?:should|shall|can|could|do\s+you\s+want\s+me\s+to|want\s+me\s+to)\s+i?\s*"
    r"(?:tell|share)\s+(?:it|that|you(?:\s+about\s+(?:it|that))?|that\s+one|the\s+other\s+one)"
    r"\s*\?+\W*$|\b(?:want|do\s+you\s+want)\s+to\s+hear\s+(?:it|about\s+it|that\s+one)\s*\?+\W*$",
    re.IGNORECASE,
)
OFFER_TAKEN = "Yes, please do."
OFFER_INVITED = "Yes, please, tell me about it. What happened?"


def acknowledged(request: QuestionRequest, question: str) -> str:
    """``question`` after what the last answer wants said first (``_owned_first``); a death told
    is heard before it (round 239: "It's in my name since Tom passed, that's my husband" was
    asked about the complaints letter next, "tone-deaf"), in place of owning the question but
    not of saying back where they went or what it came down to."""
    last = request.recent[-1].answer if request.recent else ""
    owned = _owned_first(request, question)
    loss = _loss_heard(last, request.avoid_questions)
    if not loss:
        return owned
    if owned.startswith(_OWNING):
        owned = question  # (one "sorry" at a time)
    if owned.startswith(_SURE):
        owned = owned[len(_SURE)].upper() + owned[len(_SURE) + 1 :]
    return f"{loss} {owned}"


_OWNING = ("Sorry, ", "Okay, ", OFFER_TAKEN)


def _owned_first(request: QuestionRequest, question: str) -> str:
    """``question`` after what the last answer wants owned (``_owned_as``): the saying not used
    yet, else the one used longest ago. An offer to tell more is taken: "Yes, please do."
    before a question on something said, an invitation to tell it instead of a question about
    nothing in particular."""
    last = request.recent[-1].answer if request.recent else ""
    if _OFFERED.search(last):
        return f"{OFFER_TAKEN} {question}" if _names_its_focus(request) else OFFER_INVITED
    kind = _owned_as(last)
    went = request.went_back_to
    back = asked_back_to(went, last, asked=True) if went and not kind else None
    if back is not None and back.mention and not back.asked_us:
        # they went back to something and said what it leads to, which is asked about: the
        # question says so first (round 105 heard "You said the garden is long and narrow" after
        # "Can we go back to the carrying it down the steps bit?", and called it ignored)
        return f"Back to {back.mention}. {question}"
    if not kind:
        said_back = _said_back(request) if not question.startswith(_SURE) else ""
        return f"{said_back} {question}" if said_back else question
    if kind in _PUT_RIGHT and question.startswith((_SURE, "Back to ")):
        # (going back where they asked says it was heard: "Okay, got it. Back to the price."
        # read as two, round 235)
        return question
    asked = list(request.avoid_questions)

    def last_used(said: str) -> int:
        return max((i for i, q in enumerate(asked) if q.startswith(said)), default=-1)

    said = min(ACKNOWLEDGEMENTS[kind], key=last_used)
    # (one acknowledgement at a time: "Sorry, my question wasn't clear. Sure, back to the
    # aquastop thing." read as two, round 226)
    if question.startswith(_SURE):
        question = question[len(_SURE)].upper() + question[len(_SURE) + 1 :]
    return f"{said} {question}"


_SURE = "Sure, "
_PUT_RIGHT = ("put right", "misheard")

# Someone close who died, told of as the answer's own ("since Tom passed", "after my mum died",
# "we lost our dog in March", "since my husband's passing", "he passed away last year"); not a
# thing that died ("my phone died"), someone of the story's ("her husband died"), a test passed
# or a thing passed on ("since my daughter passed her test", "my dad passed the business on"),
# nor lost for a while or a figure of speech ("I lost my dog for two hours", "my mum died
# laughing"), the review
# (a pet or a friend too, and the words said in two: "my other half", "my best friend")
_KIN = "|".join(
    [
        r"best\s+friend",
        r"other\s+half",
        *sorted(KIN | {"dog", "cat", "friend"}, key=len, reverse=True),
    ]
)
_GONE = (
    r"(?:'s\s+(?:passing|death)|(?:'s|\s+has|\s+had)?\s+passed(?:\s+away|\s+on(?!\s+(?:to|the|it|her|his|my|a|an)\b))?"
    # (not a test passed, a thing passed on, or one who does something now: "Since my daughter
    # passed she drives herself to college", the review)
    r"(?!\s+(?:her|his|my|me|him|us|them|the|their|all|a|an|down|over|through|by|out|up|it|that|"
    r"this|our|your|its|every|each|she|he|they)\b)|(?:\s+has)?\s+died(?!\s+(?:down|off|out|laughing|"
    r"of\s+(?:embarrassment|shame|laughter|boredom)|his|her|my|their|it|them)\b)|"
    r"(?:'s|\s+is)\s+not\s+with\s+us\s+any\s*more)"
)
# (lost: said with when, or closing what is said; not "lost Dave halfway up Holme Moss", "lost
# Netflix for a week", the review)
_LOST_WHEN = (
    # ("We lost our dad a few years ago", round 287 asked about grip next)
    r"(?=\s*(?:[,.;!?]|$|\s+(?:(?:\w+\s+){0,2}(?:years?|months?|weeks?)\s+ago|last\s+(?:year|month|week|"
    r"spring|summer|autumn|winter|christmas)|in\s+(?:\d{4}|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|"
    r"nov|dec)[a-z]*|and\s+i|so\s+i)\b))"
)
_LOSS = re.compile(
    r"\b(?:since|after|when|before|till|until)\s+(?:(?:my|our|me)\s+"
    rf"(?P<kin>{_KIN})|(?:our\s+)?(?!(?:he|she|it|they|we|i|you)\b)(?P<who>[A-Za-z][a-z]+)){_GONE}|"
    rf"\b(?:my|our|me)\s+(?:late\s+)?(?P<died>{_KIN}){_GONE}|"
    rf"\b(?:my|our|me)\s+late\s+(?P<late>{_KIN})\b|"
    rf"(?:^|(?<=[.!?]\s))(?P<bare>mum|mam|mom|dad|nan|gran|grandad|grandma){_GONE}|"
    rf"\bsince\s+losing\s+(?:my|our|me)\s+(?P<losing>{_KIN})\b|"
    rf"\bsince\s+(?:i|we)\s+lost\s+(?:(?:my|our|me)\s+(?P<sincelost>{_KIN})|"
    r"(?P<sincename>(?-i:[A-Z])[a-z]+))\b|"
    rf"\b(?:i|we)\s+lost\s+(?:(?:my|our|me)\s+(?P<lost>{_KIN})|(?P<lostname>[A-Za-z][a-z]+))\b"
    rf"(?!'s){_LOST_WHEN}|"
    r"\b(?:since|after)\s+(?P<since>he|she)\s+(?:died|passed(?:\s+away)?)\b|"
    r"\b(?P<pronoun>he|she)\s+passed\s+away\b",
    re.IGNORECASE,
)
# What is no one whose death is told: "since Covid died down", "since Brexit passed"
_NO_ONE = frozenset(
    """it that this he she they we you i covid brexit lockdown christmas easter everything nothing
    the then there which what""".split()
)
_SORRY_ABOUT = "Sorry to hear about"


def _loss_heard(answer: str, asked: Sequence[str]) -> str:
    """ "Sorry to hear about Tom." when ``answer`` tells of someone close who died, said once
    an interview ("" else)."""
    if any(q.startswith((_SORRY_ABOUT, "Sorry to hear that.")) for q in asked):
        return ""
    typed_in_capitals = any(c.isupper() for c in answer)
    for found in _LOSS.finditer(answer):
        if found.group("pronoun") or found.group("since"):
            return "Sorry to hear that."
        who = found.group("who") or found.group("lostname") or found.group("sincename")
        lower_case = typed_in_capitals and who is not None and who[0].islower()
        if who and (who.lower() in _NO_ONE or (lower_case and who.lower() not in KIN)):
            # (a name is written with its capital where the answer has any: "When vans passed
            # they'd be inches off my elbow" is no one's death, the review)
            continue
        if who and who.lower() not in KIN:
            return f"{_SORRY_ABOUT} {who[0].upper()}{who[1:]}."
        groups = ("kin", "died", "late", "bare", "losing", "lost", "sincelost")
        kin = who or next(g for g in (found.group(k) for k in groups) if g)
        return f"{_SORRY_ABOUT} your {' '.join(kin.lower().split())}."
    return ""


def _said_back(request: QuestionRequest) -> str:
    """The value the last answer came to (``reached``), said back before the question moves
    on from it, in their words: "So for you it comes down to being independent." ("" when it
    is no clean phrase of theirs, or said back only in quotes)."""
    said_before = any(q.startswith(_COMES_DOWN) for q in request.avoid_questions[-1:])
    if not request.reached or said_before or label_profile(request.reached).negated:
        return ""
    answers = request_answers(request)
    phrase = phrase_for(request.reached, answers)
    if phrase is None or stance_of(phrase.verbatim) < 0 or _FEARED.search(phrase.verbatim):
        return ""  # (a fear or a dread is no "what it comes down to": the review)
    noun = phrase.noun if not phrase.noun.startswith('"') else as_a_doing(phrase)
    # (a thing is no value said back: "So for you it comes down to the app.", the review; nor
    # a clause, "So in the end, your own house sorted.")
    return f"{_COMES_DOWN} {noun}." if noun and _a_value(noun) else ""


_COMES_DOWN = "So for you it comes down to"
_FEARED = re.compile(
    r"\b(?:ending\s+up|end\s+up|losing|lose|lonely|fear|afraid|scared|dread|hate|worst|falling|"
    r"breaking|running\s+out|judged|left\s+out|fortune|costs?|costing)\b",
    re.I,
)
# What a value said as a noun is: a doing ("being independent") or a quality ("your
# self-respect", "peace of mind"), not a thing ("the app", "the grandkids")
_VALUE_ENDS = ("ness", "dom", "ility", "urity", "nity", "ence", "ship", "hood")
_VALUE_WORDS = frozenset(
    """peace mind respect pride freedom time health safety security confidence control
    family life dignity trust comfort calm sanity money future""".split()
)


def _a_value(noun: str) -> bool:
    said = re.findall(r"[a-z']+", noun.lower())
    words = [w for w in said if w not in _OWNERS]
    # (a doing only as said, not a thing named by one: "the walking club", "your walking boots")
    doing = bool(said) and said[0] not in _OWNERS and said[0].endswith("ing")
    return bool(words) and (
        doing or words[-1].endswith(_VALUE_ENDS) or bool(set(words) & _VALUE_WORDS)
    )


_OWNERS = frozenset("the a an your my their our his her own".split())


def _names_its_focus(request: QuestionRequest) -> bool:
    """The question can say what it asks about (a phrase, a mention, "that")."""
    return reference_for(request)[0].how != "none"


__all__ = ["ACKNOWLEDGEMENTS", "OFFER_INVITED", "OFFER_TAKEN", "acknowledged", "unacknowledged"]
