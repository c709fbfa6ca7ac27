"""Offline questions: per-strategy templates about the focus in the respondent's own words.

The offline half of ``generate_opening`` and ``generate_question`` (seed 001 "Opening vs
Follow-Up Questions"; seed 000 "Question Deduplication"). It is also the fallback a real
provider uses when its reply is unusable (``validation.fallback_question``).

A strategy's templates are those of the ``family`` it declares (``config.families``:
probe_attributions is an attribution, dig_motivation a deepen); the generic family gets a
plain follow-up. A "why" on a node that is no
rung of a ladder takes the angle of its node type (``wording.TYPE_ANGLES``: a job's
circumstances, a solution's choice), and on a dislike asks what it costs.

The focus is never quoted on trust (``phrases``): a clean phrase of the respondent's goes
into the question ("Why does the battery matter to you?", "You said you can sleep on the
bus. What does that give you?"), a label that is no such phrase is referred to by a noun
they used ("You talked about the charger. ...") or as "that" right after the answer it came
from, and a focus that is surely no content (an interjection, a time, a verdict) gets a
question about the topic instead. Follow-ups never splice in the concept's name: the topic
is the respondent's own word for it ("your headphones") or goes unnamed.

An element question (``focus_mode: element``) raises the stimulus element of the request in
the stimulus's own words (``element_phrase``) and asks for a reaction; after a concept test's
stimulus the opening asks for the first reaction to what was read.

The template is chosen by a seeded shuffle of (seed, turn, strategy, focus), so runs repeat
exactly while questions vary across turns, and the first candidate not too similar to a
recent question wins. The template of the previous question is never used again right after
it, so a run of "why" questions changes its wording. The closing restates only the ladders
whose ends are clean phrases (``closing``). Templates are English; with a non-English study
language a real provider is needed.

What the last answer wants owned before the question ("Sorry, I put that badly.", "Okay, no
rush.") is ``acknowledgements``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache, lru_cache

from interview_cli.config.switch_words import NEAR_SWITCH
from interview_cli.core.text import NEGATIONS
from interview_cli.llm.offline.asking.acknowledgements import acknowledged, unacknowledged
from interview_cli.llm.offline.asking.choosing import pick
from interview_cli.llm.offline.asking.closing import closing_question
from interview_cli.llm.offline.asking.people import done_by_someone_else, names_their_people
from interview_cli.llm.offline.asking.phrases import (
    WH_WORDS,
    Phrase,
    gerund_led,
)
from interview_cli.llm.offline.asking.reference import (
    NOTHING,
    Reference,
    reference_for,
    request_answers,
)
from interview_cli.llm.offline.asking.vocabulary import vocabulary
from interview_cli.llm.offline.asking.wording import (
    ASKED_US,
    CANNOT_SAY,
    ELEMENT_TEMPLATES,
    GUIDE_TEMPLATES,
    LEADS,
    OPENING_TEMPLATES,
    TYPE_ANGLES,
    WORDINGS,
    Wordings,
)
from interview_cli.llm.offline.lexicon import EVENT_PAST, FEELING_WORDS, FELT_WORDS, LIFE_FACT
from interview_cli.llm.offline.reading.content import is_count, is_money
from interview_cli.llm.offline.reading.stance import stance_of
from interview_cli.llm.prompts.templates import topic_name
from interview_cli.llm.protocol import OpeningRequest, QuestionRequest

# A clause that reports what someone said: "it said it fit your model", "she told me".
_REPORTED = re.compile(
    r"(?:\w+\s+){1,3}?(?:said|says|told|tells|reckoned|claimed|wrote)\b", re.IGNORECASE
)


def angle_for(node_type: str | None) -> str | None:
    """The family a "why" takes on a node of this type (None: the plain why)."""
    text = (node_type or "").lower().replace("_", " ")
    for angle, words in TYPE_ANGLES:
        # word starts only: "social" must not fire on "psychosocial"
        if any(re.search(r"\b" + re.escape(word), text) for word in words):
            return angle
    return None


# The families whose questions presume the focus is liked: "what does it give you?", "what
# made you go for it?", "what did you hope it would do?" ("You said you couldnt sleep. What
# made you go for that rather than something else?"), or what gets in its way (round 67 asked
# "What gets in the way there?" of the queue that made her late: "the queue IS the thing in
# the way haha").
_PRESUME_LIKING = frozenset({"deepen", "negative_ladder", "choice", "progress", "obstacle"})


# The families that ask about a way of doing the job: an alternative, a choice, a switch
_OF_A_WAY = frozenset({"alternative", "choice", "switch"})


# What they need or must have: "must not cost a fortune", "has to be light", "need it to last".
# ("never have to think about charging" is a relief, not a need)
_REQUIRED = re.compile(
    r"(?<!never\s)(?<!don't\s)(?<!dont\s)(?<!not\s)(?<!no\s)"
    r"\b(?:must|mustn'?t|need|needs|has\s+to|have\s+to|got\s+to|should)\b(?!\s+(?:for|of)\b)",
    re.IGNORECASE,
)


# What they do not want or like: "don't want them in pain", "never wanted the debt", "not
# wanting to be a burden", "don't like being locked in"
_UNWANTED = re.compile(
    r"\b(?:(?:don'?t|dont|do\s+not|didn'?t|didnt|wouldn'?t|never)\s+(?:\w+\s+)?"
    r"(?:want|wanna|wanted|like|liked)|not\s+wanting)\b",
    re.IGNORECASE,
)


def _of_a_need(label: str, family: str) -> str:
    """What they need is asked why it matters ("they must not cost a fortune. How does that help
    you?"), and what they do not want too, neither how it helps ("You mentioned that you don't
    want them in pain. How does that help you?", round 258: "it doesnt help me, its just being
    her mum?") nor "What would happen if it wasn't like that?" (a double negative, the
    review)."""
    if family == "deepen" and _REQUIRED.search(label):
        return "requirement"
    if family in ("deepen", "concern") and _UNWANTED.search(label):
        return "open_why"
    return family


def _family(request: QuestionRequest, has_focus: bool) -> str:
    strategy = request.strategy
    family: str = strategy.family
    if request.closing or strategy.generates_closing_question or family == "summary":
        return "closing"
    if has_focus and family == "deepen":
        family = angle_for(request.focus_type) or family
    elif has_focus and family in _OF_A_WAY and angle_for(request.focus_type) == "circumstance":
        # the scene is no way of doing it (round 86: "You mentioned the wedding edit. What do
        # you do when that isn't an option?"): what was going on there
        family = "circumstance"
    if has_focus:
        family = _of_a_way(request, family)
    if has_focus and request.focus_stance < 0 and family in _PRESUME_LIKING:
        family = "dislike"  # not "what do you get out of 'blisters'?", nor why they chose it
    elif (
        has_focus
        and request.focus_stance == 0
        and family in _PRESUME_LIKING
        and angle_for(request.focus_type) == "dislike"
    ):
        # a pain read as one, not said to be minded: what it means for them (round 84 was
        # asked of "bus was late all the time" "What were you hoping that would do for you?")
        family = "concern"
    if has_focus:
        family = _of_a_need(request.focus_label or "", family)
    if has_focus and family == "dislike" and request.focus_stance >= 0:
        # typed a problem, not said to be one: "why does it bother you?" only of a dislike
        family = "deepen" if request.focus_stance > 0 else "concern"
    family = _of_feeling(request, family, has_focus)
    # (and how a request felt "at the time": "let me talk to a real human straight away",
    # round 196)
    asked_for = any(_ASKED_FOR.match(q) for q in request.focus_quotes)
    of_events = ("narrative", "after_feeling", "attribution", *(("emotion",) if asked_for else ()))
    if has_focus and family in of_events and _said_as_a_rule(request):
        # how they are or what they hold to is no event: not "You said you pride yourself on
        # everything running smooth. What happened next?" (round 192: "Nothing happened, it's
        # just how I am"), but why it matters
        family = "open_why"
    if has_focus and family == "deepen" and request.focus_stance == 0 and _priced(request):
        family = "concern"  # an amount paid is no help: "How does '2.20 a carton' help you?"
    if has_focus and family == "deepen" and request.focus_stance == 0 and _negated(request):
        # a lack the reader could not call good or bad ("it's never on time", "there's no
        # shower at the office", "not young any more"): what it means for them, not how it
        # helps them (dev2 reading set: "You mentioned that you're not young. How does that
        # help you?")
        family = "concern"
    not_doing = _NOT_DOING.search(request.focus_label or "") and request.focus_stance == 0
    if has_focus and not_doing and family in ("obstacle", "progress") and _negated(request):
        # what they do not do, not said to be good or bad: why it matters, not what gets in
        # its way (round 215 asked of "I'm not asking my sister for lifts", which she was glad
        # of, "What gets in the way there?"); not a lack ("no reply for a week", "didn't call
        # me back", "never get a break"), which is a pain the stance reader missed
        family = "open_why"
    if has_focus and family == "deepen" and request.focus_stance == 0:
        # not said to be good: why it matters, not what is good about it (round 62: "You
        # mentioned the signal. What's good about that, for you?" - "Nothing good, the signal
        # there is bad")
        family = "open_why"
    return family


_GET_DONE_ASKED = re.compile(r"\bget\s+done\b|\blet\s+you\s+do\b", re.IGNORECASE)
# The question's "get done" turned down: "Get done?", "its not really about getting stuff
# done", "it doesn't help me get anything done", "Nothing to get done mate"
_NOT_GETTING_DONE = re.compile(
    r"\bget(?:ting)?\s+(?:\w+\s+)?done\s*\?|"
    r"\b(?:not|nothing|isn'?t|isnt|doesn'?t|doesnt|don'?t|dont|didn'?t|didnt)\b[^.!?]{0,25}"
    r"\bget(?:ting)?\s+(?:stuff|anything|things|something)?\s*done\b",
    re.IGNORECASE,
)


def _of_a_way(request: QuestionRequest, family: str) -> str:
    """The family for a focus asked about as a way of doing it that is none, or not one taken,
    or after the question's "get done" was turned down."""
    if family == "progress" and any(
        _GET_DONE_ASKED.search(e.question) and _NOT_GETTING_DONE.search(e.answer)
        for e in request.recent
    ):
        # the "get done" framing turned down once is not asked again: round 197 asked four
        # more after "Get done? Its not really about getting stuff done"
        return "open_why"
    if family == "progress" and _how_they_are(request):
        # a state they are in or spared is asked why it matters, not what it gets done:
        # round 202 asked "What were you trying to get done there?" of "no lying there
        # worrying", of sleep and of "being dry" ("I dont know what you're after there")
        return "open_why"
    if family in ("choice", "progress") and _DISTANCE.match(request.focus_label or ""):
        # a distance is no way chosen nor a help: round 196 asked "What made you go for "5 miles
        # to the Northern General" rather than something else?" ("that's just where I work")
        return "circumstance"
    if family in ("switch", "choice") and _done_to_them(request):
        # what someone else did is no way they went for: "Baby woke us" was asked "What made
        # you go for that rather than something else?" (round 261: "I didnt choose the baby to
        # wake me up haha")
        return "circumstance"
    if family in ("switch", "choice") and _only_thought_of(request):
        # "I nearly went for a bean-to-cup": no change was made; "I considered the bus" was
        # not gone for (round 194: "What made you go for that rather than something else?" -
        # "I didn't go for the bus!")
        return "near_switch"
    if family in ("circumstance", "progress") and any(
        LIFE_FACT.search(q) for q in request.focus_quotes
    ):
        # what they do in life shapes the job, and is no moment of it: round 203 asked "What
        # were you trying to get done there?" of "I work nights in warehouse" ("Its my job")
        return "life_context"
    return family


def _done_to_them(request: QuestionRequest) -> bool:
    """Every quote of the focus opens on someone of their life having done it
    (``people.done_by_someone_else``)."""
    past = vocabulary().past | EVENT_PAST | _PAST
    quotes = request.focus_quotes
    return bool(quotes) and all(done_by_someone_else(q, past) for q in quotes)


_STATES = frozenset(
    "sane calm safe dry relax relaxed relaxing rested awake fresh sleep sleeping worry worrying "
    "worried stress stressed stressing sweaty sweat human normal comfortable comfy".split()
)


_LET_DO = "let you do"


def _their_people(request: QuestionRequest) -> bool:
    return names_their_people(request.focus_label or "")


def _how_they_are(request: QuestionRequest) -> bool:
    """The focus names how they feel or are, or what they are spared ("no lying there
    worrying", "being dry", "keeping me sane", "can switch off")."""
    label = (request.focus_label or "").lower()
    said = set(re.findall(r"[a-z']+", label))
    return bool(said & (FELT_WORDS | _STATES)) or _AT_EASE.search(label) is not None


_AT_EASE = re.compile(r"\bswitch(?:ing)?\s+off\b|\bon\s+edge\b|\bunwind", re.IGNORECASE)


def _of_feeling(request: QuestionRequest, family: str, has_focus: bool) -> str:
    """The family for a focus that is a feeling, or was told with one."""
    if has_focus and family == "dislike" and _bare_bad_feeling(request):
        # how bad it felt, said in a word: what makes it so, not "What is the problem with
        # "stressful" for you?" (round 190: "stress is stress innit, nobody wants it"); what
        # makes it so is asked once, and not when it was said with it (from the review)
        said = _its_reason_said(request) or _feeling_just_asked(request)
        return "bad_feeling_said" if said else "bad_feeling"
    if has_focus and family in ("attribution", "emotion") and _a_feeling(request):
        # why they felt it, not why a feeling "happened the way it did" (round 49: "You said
        # "relieved mostly". Why do you think that happened the way it did?"), nor how a
        # feeling felt (round 50: "You mentioned "gutted and proper angry". How did you feel
        # about it afterwards?")
        family = "feeling_cause"
    if has_focus and family == "narrative" and _a_feeling(request):
        # a feeling is not walked through step by step (a CI interview I typed: "i was
        # furious, i work from home so no internet means no work", asked "You mentioned "I was
        # furious". Could you walk me through that step by step?"): what made it, or, its
        # reason said, what happened then
        said = _its_reason_said(request) or _feeling_just_asked(request)
        family = "after_feeling" if said else "feeling_cause"
    if family == "emotion" and request.focus_type == "emotion" and _its_reason_said(request):
        family = "after_feeling"  # (how it felt was said, and why: "proper fed up I was, ...")
    elif family == "emotion" and not _a_feeling(request) and _felt_when_told(request):
        # how it felt was told with it: "i rang them, waited like 50 mins on hold, ... i was
        # fuming honestly" (a CI interview I typed was asked of "rang them" how it felt)
        family = "after_feeling"
    if family == "feeling_cause" and (_feeling_just_asked(request) or _its_reason_said(request)):
        # what made a feeling is asked once: round 54 asked it of "relief", then of "relief
        # that I could actually do my job" ("um I kind of just said?"), then of the bot; a
        # feeling whose reason is in its words has been answered. The story goes on instead.
        family = "after_feeling"
    return family


def _told_after_its_cause(request: QuestionRequest) -> bool:
    """The feeling was told after what made it: "the engineer fixed it in ten minutes, I was
    so relieved" (from the review: "What made you feel that way?")."""
    for said in filter(None, request.focus_quotes):
        for answer in request.answers:
            at = answer.find(said)
            if at > 0 and _told_an_event(re.findall(r"[a-z']+", answer[:at].lower())):
                return True  # (not "To be honest with you, I was furious", from the review)
    return False


def _told_an_event(words: Sequence[str]) -> bool:
    """A past verb of an event among the words ("rang", "fixed")."""
    return any(w in _PAST or (w.endswith("ed") and len(w) > 4) for w in words)


def _said_as_a_rule(request: QuestionRequest) -> bool:
    """The focus was said as how they are or what they hold to ("I pride myself on ...", "you
    feel you can trust them", "you can't be waiting on an email"), with no past verb of an
    event in its words."""
    said = " ".join(filter(None, (request.focus_label, *request.focus_quotes))).lower()
    words = re.findall(r"[a-z']+", said)
    if (
        any(w in _WISHED for w in words)
        or any(_ASKED_FOR.match(q) for q in request.focus_quotes)
        or _asked_for_in_its_sentence(request)
    ):
        # a wish or a request, whatever past form it holds ("I'd much rather they sent things
        # in writing", "let me talk to someone, put a button in the app")
        return True
    if _told_an_event(words):
        return False
    # (what they do in life, with no event told in it: not "I work from home so when the
    # broadband went down I lost a day's pay", from the review)
    if any(LIFE_FACT.search(q) or _WOULD_HAPPEN.search(q) for q in request.focus_quotes):
        return True
    return any(w in _PRESENT for w in words)


_WISHED = frozenset({"rather", "wish", "wished", "prefer", "preferred"})
# What would happen ("it's how the ambulance would call back": round 224 asked "What happened
# next?"), not a refusal or a habit ("he would not refund me", the review)
_WOULD_HAPPEN = re.compile(
    r"\b(?:how|if|when|where)\b[^.!?]{0,40}\bwould\s+(?!not\b|just\b|always\b|never\b|keep\b)\w+"
    r"|\bwould\s+(?:have|be)\b",
    re.IGNORECASE,
)
# (the events told, and the states and thoughts of a story told in the past)
_PAST = EVENT_PAST | frozenset(
    "was were had did made saw thought felt knew put sat stood wore won done".split()
)
# (how they are or what they hold to, not "it's"/"I'm" of a story told in the present: "I'm on
# hold for an hour and then it just cuts off", from the review)
_PRESENT = frozenset(
    """pride feel feels always never hate love want need can't cant cannot won't wont
    should must matters matter makes means whenever""".split()
)
# (round 219 asked "What did you do then?" of "the not feeling thick bit matters to me" and of
# "it makes you feel like a nuisance": "i didnt DO anything, it's just a feeling eh")
# What they ask for, said as a request: "let me talk to a real human straight away if im
# abroad, put a button in the app for it" (round 196 asked "How did that feel at the time?")
_ASKED_FOR = re.compile(
    r"^\W*(?:just\s+|please\s+)?(?:let\s+(?:me|us)(?!\s+(?:think|see)\b)|give\s+(?:me|us)|"
    r"bring\s+back|stop\s+\w+ing)\b",
    re.IGNORECASE,
)


def _asked_for_in_its_sentence(request: QuestionRequest) -> bool:
    """The focus is what they ask for, said further on in the asking: "Kindly give me one person
    who will take my problem start to finish. That is all I am asking, one name, one number"
    (round 220 asked of "one name" "Why do you think that happened the way it did?")."""
    for said in filter(None, request.focus_quotes):
        for answer in request.answers:
            at = answer.lower().find(said.lower())
            if at < 0 or _told_an_event(re.findall(r"[a-z']+", said.lower())):
                continue  # (an event told is no wish: "the card got declined", the review)
            sentence = re.split(r"[.!?]\s", answer[:at])[-1]
            asked = _ASKING.search(sentence)
            # (what is asked for runs straight on to the quote: not "I needed cash for the
            # taxi and the card got declined", "I wanted a refund but they hung up on me")
            if asked and not _RUNS_ON.search(sentence[asked.end() :]):
                return True
    return False


_RUNS_ON = re.compile(r"\b(?:and|but|so|then|because|cos|when|until|till)\b", re.IGNORECASE)


_ASKING = re.compile(
    r"\b(?:all\s+(?:i'?m|im|i\s+am|i)\s+(?:asking|ask|want)|give\s+(?:me|us)|kindly|i\s+(?:just\s+)?"
    r"(?:want|wanted|need|needed)\s+(?!to\b)|i'?d\s+(?:like|love)|if\s+only|i\s+wish)\b",
    re.IGNORECASE,
)


def _bare_bad_feeling(request: QuestionRequest) -> bool:
    """The focus is a bad feeling said in a word or two ("stressful", "proper gutted")."""
    said = re.findall(r"[a-z']+", (request.focus_label or "").lower())
    felt = [w for w in said if w not in _DEGREE]
    return 0 < len(felt) <= 2 and all(w in FEELING_WORDS | _BAD_FEELINGS for w in felt)


_DEGREE = frozenset("so really proper very bit a quite pretty dead well tbh just".split())
# bad feelings said in a word (not a judgement of a thing: "overpriced", "crowded", "ruined",
# from the review)
_BAD_FEELINGS = frozenset(
    """stressful stressed worried anxious nervous scared frightened frustrated annoyed upset
    embarrassed mortified gutted guilty lonely miserable panicky panicked fuming livid
    ashamed humiliated helpless powerless frustrating annoying irritating knackered scary
    exhausting worrying overwhelming overwhelmed depressing exhausted""".split()
)


# How far it is: "5 miles to the Northern General", "twenty minutes each way"
_DISTANCE = re.compile(
    r"^\W*(?:about\s+|around\s+|nearly\s+|over\s+)?(?:\d+(?:\.\d+)?|a\s+couple\s+of|two|three|four|"
    r"five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty)\s*(?:(?:miles?|mi|km|kilometres?)\b|"
    # (a time only on the way: not "20 minutes saved every morning", from the review)
    r"(?:minutes?|mins?|hours?|hrs?)\s+(?:to|from|each\s+way|away)\b)",
    re.IGNORECASE,
)
# A way of doing it taken after all: "I weighed up a few and went for the Sage machine"
_MADE_IT = re.compile(
    r"\b(?:went\s+for|bought|chose|picked|switched|ordered|signed\s+up|settled\s+on|"
    r"ended\s+up\s+with|finally)\b",
    re.IGNORECASE,
)


def _only_thought_of(request: QuestionRequest) -> bool:
    """A switch thought about and not made ("I nearly went for a bean-to-cup", "I considered
    the bus"): not one made after it in the sentence that told it ("I weighed up a few
    machines last year and went for a Sage", from the review)."""
    texts = [t for t in (request.focus_label, *request.focus_quotes) if t]
    found = [(t, m) for t in texts if (m := NEAR_SWITCH.search(t))]
    if not found or any(_MADE_IT.search(t, m.end()) for t, m in found):
        return False
    for quote in filter(None, [*request.focus_quotes, request.focus_label]):
        for answer in request.answers:
            at = answer.lower().find(quote.lower())
            if at < 0:
                continue
            tail = answer[at + len(quote) :]
            stop = re.search(r"[.!?]", tail)
            if _MADE_IT.search(tail[: stop.start()] if stop else tail):
                return False
    return True


def _of_incidents(request: QuestionRequest) -> bool:
    """The study collects incidents: a story of what happened, no thing to use (round 153 was
    asked of an airline that lost his case "What would you miss first if you had to do
    without it for a week?")."""
    return any("incident" in n.name.lower().split("_") for n in request.methodology.ontology.nodes)


def _a_feeling(request: QuestionRequest) -> bool:
    """The focus is an emotion node that names a feeling ("relieved mostly", "gutted"), not an
    event the reader typed as one (round 52: "You said the ombudsman made them apologise.
    Where do you think that feeling came from?")."""
    said = set(re.findall(r"[a-z']+", (request.focus_label or "").lower()))
    return request.focus_type == "emotion" and bool(said & FELT_WORDS)


# A question of the last two that asked where a feeling came from, in any of the writer's
# words for it ("What was it about that moment that made you feel the way you did?").
_ASKED_FEELING = re.compile(
    r"\b(?:made|makes)\s+you\s+feel\b|\bthat\s+feeling\s+came\s+from\b", re.IGNORECASE
)
# ... and a feeling said with its reason: "relief that I could do my job", "angry because"
_WITH_ITS_REASON = re.compile(
    r"^\W*\w+(?:\s+\w+)?\s+(?:that|because|cos|cause)\s+\w",
    re.IGNORECASE,
)


def _felt_when_told(request: QuestionRequest) -> bool:
    """An answer that told the focus names a feeling too."""
    told = [a for a in request.answers if any(q and q in a for q in request.focus_quotes)]
    return any(set(re.findall(r"[a-z']+", a.lower())) & FEELING_WORDS for a in told)


def _feeling_just_asked(request: QuestionRequest) -> bool:
    """What made a feeling was asked just now, or of this feeling before: round 203 asked
    "What made you feel that way?" of "I was upset" three questions after "What was it that
    made you feel like that?" ("You've asked me that already love")."""
    label = [request.focus_label.lower()] if request.focus_label else []
    quotes = [s.lower() for s in request.focus_quotes if s]
    return any(
        _ASKED_FEELING.search(q)
        and (
            at >= len(request.avoid_questions) - 2
            or _names(q, [*label, *quotes])
            or any(f'"{s}' in q.lower() for s in quotes)  # ('"I was upset about it"')
        )
        for at, q in enumerate(request.avoid_questions)
    )


def _names(question: str, said: list[str]) -> bool:
    """The question named one of ``said`` whole: quoted, or ending its sentence ("You mentioned
    feeling cut off."); not "angry" inside "angry at myself" (the review)."""
    return any(re.search(rf'(?:"|\b){re.escape(s)}(?:"|\.)', question, re.IGNORECASE) for s in said)


def _its_reason_said(request: QuestionRequest) -> bool:
    """The feeling was said with its reason: in its words, going on after it in its sentence
    ("Proper fed up I was, cold and wet and cars splashing past me", "I felt dead chuffed
    about that, like they actually cared about an old boy like me": round 114 asked what made
    them feel so of both), or told before it (``_told_after_its_cause``)."""
    if _WITH_ITS_REASON.search(request.focus_label or ""):
        return True
    felt = set(re.findall(r"[a-z']{3,}", (request.focus_label or "").lower()))
    for said in filter(None, request.focus_quotes):
        # (the quote may hold it: its clause was read whole)
        rests = [said[m.end() :] for m in _GOES_ON.finditer(said)]
        for answer in request.answers:
            at = answer.find(said)
            goes_on = _GOES_ON.match(answer, at + len(said)) if at >= 0 else None
            if goes_on is not None:
                rests.append(re.split(r"[.!?]", answer[goes_on.end() :], maxsplit=1)[0])
        for rest in rests:
            # (not the story going on, "..., then I rang my wife", nor the feeling said again,
            # "I was annoyed, to be honest, really annoyed": from the review)
            rest = _SAID_AGAIN.sub("", rest)
            words = set(re.findall(r"[a-z']{3,}", rest.lower()))
            if not _THEN.match(rest) and len(words - felt) >= 3:
                return True
    return _told_after_its_cause(request)


# what a feeling's sentence goes on with when it says why: ", cold and wet ...", "cos ...",
# ", like they actually cared ..."
_GOES_ON = re.compile(r"\s*(?:,|\s-|\bbecause\b|\bcos\b|\bas\b|\bsince\b)", re.IGNORECASE)
_SAID_AGAIN = re.compile(r"^\W*(?:(?:to\s+be\s+honest|honestly|tbh|really|like|so)\W+)*", re.I)
_THEN = re.compile(r"(?:and\s+)?then\b|and\s+(?:i|we|he|she|they)\b", re.IGNORECASE)


def _priced(request: QuestionRequest) -> bool:
    """The focus states an amount of money ("2.20 a carton", "40 quid a month", "£12")."""
    label = (request.focus_label or "").lower()
    words = re.findall(r"[£$€]?[\w.,']+", label)
    return bool(_PRICE.search(label)) or (
        any(is_count(w) for w in words) and any(is_money(w.strip("£$€")) for w in words)
    )


# ... or says they pay more: "Ill pay a bit more if it works" (round 61: "What does that let
# you do?")
_PRICE = re.compile(
    r"[£$€]\s?\d|\b\d+\.\d\d\b|\bpa(?:y|ying|id)\s+(?:a\s+(?:bit|little|lot)\s+|bit\s+)?"
    r"(?:more|extra)\b(?!\s+(?:attention|heed|notice|visits?))",
    re.IGNORECASE,
)


def _negated(request: QuestionRequest) -> bool:
    """The focus says something is not, or not there; not a need spared ("never have to
    think about charging" is a relief, asked how it helps), nor a likeness denied ("not like
    a pint of full fat sloshing about" is what it is, and a dev-8 simulated cyclist was asked
    what it got in the way of)."""
    label = (request.focus_label or "").lower()
    words = re.findall(r"[a-z']+", label)
    return any(w.replace("'", "") in NEGATIONS for w in words) and not _SPARED.search(label)


# (or no more: "don't drive to work anymore", "no longer pay for parking": a change made)
_NOT_DOING = re.compile(
    r"\bnot\s+[a-z]{2,}ing\b|\bno\s+longer\b|"
    r"\b(?:don'?t|never)\b.*\b(?:anymore|any\s+more|now)\b",
    re.IGNORECASE,
)
_SPARED = re.compile(
    r"\b(?:never|not|no|don'?t|doesn'?t|won'?t)\s+(?:(?:have|has|having|need|needs|got)\s+to|"
    r"need)\b|\b(?:not|nothing)\s+(?:(?:a\s+bit|at\s+all|really)\s+)?like\b"
)


_EVENTS = frozenset(
    """call calls visit visits appointment meeting complaint delivery chat conversation repair
    refund fix check service booking cancellation interview trip journey walk ride wait shift
    crash accident storm breakdown argument row""".split()
)


def _an_event(np: str) -> bool:
    """The noun phrase names a doing ("calling them", "the second call"), not a thing."""
    words = re.findall(r"[a-z']+", np.lower())
    doing = any(gerund_led(w, vocabulary()) for w in words[:2])
    return bool(words) and (doing or words[-1] in _EVENTS)


_PRESENT_STATE = frozenset("is are isn't aren't isnt arent".split())


def _a_state(clause: str) -> bool:
    """The clause says how things are, in the present, and nothing that happened (no past
    form of the vocabulary's, no "-ed")."""
    words = set(re.findall(r"[a-z']+", clause.lower()))
    past = words & vocabulary().past or any(len(w) > 4 and w.endswith("ed") for w in words)
    return bool(words & _PRESENT_STATE) and not past


def _of_what_happened(words: Wordings) -> bool:
    """The wordings go on with the story: what happened next, what they did then."""
    return words is WORDINGS["narrative"] or words is WORDINGS["after_feeling"]


def _no_event(words: Wordings, phrase: Phrase, told: bool) -> bool:
    """Wordings of events for a focus that tells none. How things are is no step of the story:
    "You mentioned that big chains are just a sales floor. Could you walk me through that step
    by step?" (a typed interview). Nor, unless it is a step of the story by its type
    (``told``), is a habit, a feeling or someone: "You said "I work". What happened next?",
    "You said you trust them. Tell me more about that: what exactly happened?", "Tell me more
    about your guy: what exactly happened?", "You talked about "late". Who or what do you think
    was behind that?" (round 231). A thing's cause may be asked ("the fit")."""
    narrative = words is WORDINGS["narrative"]
    if narrative and _a_state(phrase.clause):
        return True
    of_events = narrative or words is WORDINGS["attribution"] or words is WORDINGS["after_feeling"]
    # (a thing's cause may be asked, not what they did after it: "You mentioned the work. What
    # did you do then?", round 232)
    of_a_thing = (
        bool(phrase.noun) and not phrase.noun.startswith('"') and words is WORDINGS["attribution"]
    )
    return of_events and not of_a_thing and not told and not _happened(phrase)


def _happened(phrase: Phrase) -> bool:
    """The phrase tells something that happened: a clause with a past form in it, or a noun
    phrase naming a doing or an event (``_an_event``)."""
    if phrase.noun:
        return _an_event(phrase.noun)
    words = set(re.findall(r"[a-z']+", phrase.clause.lower()))
    past = vocabulary().past | EVENT_PAST | _PAST
    return bool(words & past) or any(len(w) > 3 and w.endswith("ed") for w in words)


# Past forms neither list has ("they hung up on me", "it just died"): told, not how things are
# ("never" says a habit: "They never ring you back", the review; "won't" a refusal told).
_PAST = frozenset(
    """hung died did had made said saw heard felt found gave put let set didn't didnt wasn't
    wasnt weren't werent won't wouldn't wouldnt couldn't couldnt""".split()
)


def _agreeing(template: str, np: str, plural: bool) -> str:
    verbs = {"does": "do", "is": "are", "was": "were"} if plural else {}
    return template.format(np=np, **{v: verbs.get(v, v) for v in ("does", "is", "was")})


# Node types that are steps of a story whatever their tense: "the strap snaps", "he would not
# refund me" (a situation, a feeling or a reason is asked on only as something that happened)
_STORY_STEPS = frozenset({"incident", "action", "outcome"})


def _variants(
    words: Wordings, ref: Reference, about: str, asked: Sequence[str] = (), told: bool = False
) -> list[tuple[str, str]]:
    """(template, question) pairs for the focus as ``ref`` says it, or about the topic; for a
    focus the respondent asked to go back to, whatever the strategy, an open question, unless
    they went on to say what they went back for."""
    if ref.how == "steer" and ref.asked_us and not ref.said_more:
        # a question of theirs we cannot answer: said so, and why what they asked about matters
        return [
            (t, f"{CANNOT_SAY[i % len(CANNOT_SAY)]} {t.format(mention=ref.mention)}")
            for i, t in enumerate(ASKED_US)
        ]
    if ref.how == "steer" and not ref.said_more:
        words = WORDINGS["steer"]  # what did they want to say? (else: the strategy's words)
    phrase = ref.phrase
    if phrase is not None and _no_event(words, phrase, told):
        words = WORDINGS["generic"]
    elif ref.how == "mention" and _of_what_happened(words) and not told:
        # (a thing mentioned, the same: "You mentioned the guy. Could you walk me through that
        # step by step?", "You mentioned the work. What did you do then?", round 232)
        words = words if _an_event(ref.mention) else WORDINGS["generic"]
    out: list[tuple[str, str]] = []
    if phrase is not None and phrase.noun:
        np = phrase.noun
        # (what happened "after" a thing reads wrong: round 117 asked "What happened next,
        # after a bank chat bot?"; after a doing or an event it reads right)
        nouns = [t for t in words.noun if "after {np}" not in t or _an_event(np)]
        out += [(t, _agreeing(t, np, phrase.plural)) for t in nouns]
        leads = [lead.format(np=np) for lead in LEADS["noun"]]
    elif phrase is not None:
        quoted = phrase.clause.startswith('"')
        forms = LEADS["quote" if quoted else "clause"]
        if not quoted and phrase.clause.split(" ", 1)[0].lower() in WH_WORDS:
            # "how long they last" is said about, not said that: round 124 was asked "You
            # mentioned that how long they last."
            forms = ("You mentioned {clause}.", "You talked about {clause}.")
        elif not quoted and _REPORTED.match(phrase.clause):
            # what someone said, said back after "You said", stutters: round 165 heard "You
            # said it said it fit your model."
            forms = ("You mentioned that {clause}.",)
        leads = [lead.format(clause=phrase.clause) for lead in forms]
    elif ref.how == "steer" and ref.asked_us:
        leads = list(CANNOT_SAY)  # (and what they said of it after their question is asked on)
    elif ref.how in ("mention", "steer"):
        leads = [lead.format(mention=ref.mention) for lead in LEADS[ref.how]]
    else:
        leads = [""] if ref.how == "that" else []
    for i, template in enumerate(words.that):
        if leads:
            lead = leads[i % len(leads)]
            out.append((template, f"{lead} {template}".strip()))
    if out:
        return out
    if about and words.thing:  # their word for it, rather than an "it" that may be unclear
        # (the plain wordings after them: a fifth "what else" had only four wordings, and
        # round 32 heard one again word for word)
        named = [(t, t.format(thing=about)) for t in words.thing]
        return named + [(t, t) for t in words.plain] if _spent(words.thing, asked) else named
    return [(t, t) for t in words.plain]


def candidates(
    request: QuestionRequest, family: str, ref: Reference, about: str
) -> list[tuple[str, str]]:
    """Every (template, question) the family offers for this focus; a family with no wording
    for it falls back to the generic one, and that to the topic (``about``: the respondent's
    word for it, ``topic.thing``)."""
    for name in (family, "generic"):
        found = _variants(
            WORDINGS.get(name, WORDINGS["generic"]),
            ref,
            about,
            request.avoid_questions,
            told=request.focus_type in _STORY_STEPS,
        )
        if found:
            return found
    return _variants(WORDINGS["generic"], NOTHING, about)


def offline_question(request: QuestionRequest) -> str:
    """A follow-up (or closing) question for the strategy and focus of the request, after a
    brief acknowledgement where the last answer asked for one (``acknowledged``)."""
    # what was asked, without the acknowledgements before it: "Sorry, I put that badly. If a
    # friend asked you..." was asked again word for word (round 16)
    asked = [unacknowledged(q) for q in request.avoid_questions]
    question = _question(request.model_copy(update={"avoid_questions": asked}))
    if request.closing or request.strategy.generates_closing_question:
        return question
    return acknowledged(request, question)


def _question(request: QuestionRequest) -> str:
    strategy = request.strategy
    threshold = request.methodology.tuning.vetoes.question_similarity_threshold
    key = f"{request.seed}:{request.turn_number}:{strategy.name}:{request.focus_label or ''}"
    has_focus = bool(request.focus_label) and strategy.focus_mode == "recent_node"
    family = _family(request, has_focus)
    if family == "revitalize" and _of_incidents(request):
        family = "revitalize_story"  # (not "What would you miss if you did without it?")
    if family == "closing":
        return closing_question(request, key, threshold)
    element = next((e for e in request.concept.elements if e.id == request.element_id), None)
    if element is not None:
        texts = [t.format(element=element_phrase(element.label)) for t in ELEMENT_TEMPLATES]
        return pick(texts, request.avoid_questions, f"{key}:{element.id}", threshold)
    if request.guide_remaining and not has_focus:
        # A topic-level question is where the guide's uncovered topics come in.
        item = request.guide_remaining[0]
        texts = [t.format(item=item) for t in GUIDE_TEMPLATES]
        return pick(texts, request.avoid_questions, key, threshold)
    ref, about = reference_for(request)
    if family in _ONCE_A_STORY and _spent(
        _every(WORDINGS[family]), request.avoid_questions, enough=_ONCE_A_STORY[family]
    ):
        # what they took away is asked once of a story: round 90 heard "Do you do anything
        # differently since then?" twice, after two leads; round 138 "Who or what do you think
        # was behind that?" twice, round 144 three whys on three details. What else goes with
        # it, instead
        family = "bridge"
    fresh = _unused_first(candidates(request, family, ref, about), request.avoid_questions)
    if family == "deepen" and (_how_they_are(request) or _their_people(request)):
        # how they are, or people, let them do nothing: "You said you can actually relax on
        # holiday. What does that let you do?", "You talked about your old dears. What does
        # that let you do?" (round 262: "What do you mean, let me do?")
        fresh = [p for p in fresh if _LET_DO not in p[1]] or fresh
    if family == "attribution" and not _went_wrong(request):
        # what it would have taken to go differently is asked of what went wrong: round 198
        # asked it of "the local lad" who fixed it, round 202 of the broker who sorted it
        fresh = [p for p in fresh if _DIFFERENTLY not in p[1]] or fresh
    pairs = _not_the_last_one(
        _not_told_already(fresh, request_answers(request), request.avoid_questions),
        _previous_question(request),
    )
    # Compare what would be asked, not the templates: the focus changes the similarity.
    return pick([text for _, text in pairs], request.avoid_questions, key, threshold)


_DIFFERENTLY = "would have taken for it to go differently"


def _went_wrong(request: QuestionRequest) -> bool:
    """The focus is held against, by the reader's stance or by the words it was said in."""
    said = " ".join(request.focus_quotes) or request.focus_label or ""
    return request.focus_stance < 0 or stance_of(said) < 0


_DETERMINED = re.compile(r"^(?:the|a|an|its|your|this|these)\s", re.IGNORECASE)


def element_phrase(label: str) -> str:
    """A stimulus element as a question says it: its own words, as the stimulus has them. A
    noun phrase with its determiner stands as it is ("the physical key as a back-up"); any
    other label, a clause too ("the app shows who came and went"), is quoted, as the claim the
    respondent read ('"no added sugar"')."""
    text = label.strip()
    words = set(re.findall(r"[a-z']+", text.lower()))
    if _DETERMINED.match(text) and not words & vocabulary().verbs:
        return text
    return f'"{text}"'


def _previous_question(request: QuestionRequest) -> str:
    if request.avoid_questions:
        return request.avoid_questions[-1]
    return request.recent[-1].question if request.recent else ""


@lru_cache(maxsize=1024)
def template_pattern(template: str, lead: bool = False) -> re.Pattern[str]:
    """What a question of ``template`` looks like, whatever fills it (``lead``: after a
    sentence before it)."""
    parts = re.split(r"(\{\w+\})", template)
    body = "".join(".+?" if re.fullmatch(r"\{\w+\}", p) else re.escape(p) for p in parts)
    return re.compile((r"(?:.+?[.:]\s+)?" if lead else "") + body, re.IGNORECASE | re.DOTALL)


@cache
def _all_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Every template with its pattern, compiled once (they were compiled again on every
    look-up: a seventh of the offline turn's time)."""
    found: list[tuple[str, bool]] = []
    for words in WORDINGS.values():
        found += [(t, False) for t in (*words.noun, *words.thing, *words.plain)]
        found += [(t, True) for t in words.that]
    return tuple((template, template_pattern(template, lead)) for template, lead in found)


@lru_cache(maxsize=4096)
def template_of(question: str) -> str | None:
    """Which template a question was written from (None: not one of ours); a question about
    "that" is known by its question, whatever its lead said. Of several that fit, the one
    with the most words of its own: "Could you tell me more about your experience with the
    car?" is no "Could you tell me more about {np}?" (round 39 asked it three times, each
    time taken for the other)."""
    fitting = [t for t, pattern in _all_patterns() if pattern.fullmatch(question.strip())]
    return max(fitting, key=lambda t: len(re.sub(r"\{\w+\}", "", t)), default=None)


# The families whose questions are about the whole story, not their focus: how many of their
# wordings may be asked in an interview before the family is spent (what they took away was all
# three once; two read as a script already, round 144)
_ONCE_A_STORY = {"insight": 2, "attribution": 2}
_ONCE_ONLY = frozenset({"Could you walk me through that step by step?"})


def _every(words: Wordings) -> tuple[str, ...]:
    """The wordings of a family about a focus: said as a noun, or after a lead."""
    return (*words.noun, *words.that)


def _spent(templates: Sequence[str], asked: Sequence[str], enough: int = 0) -> bool:
    """Every one of these wordings was asked already in this interview (or ``enough`` of
    them)."""
    used = {template_of(q) for q in asked}
    return sum(t in used for t in templates) >= (enough or len(templates))


def _shape(template: str) -> str:
    return re.sub(r"\{(?:thing|np)\}", "it", template)


def _unused_first(pairs: list[tuple[str, str]], asked: Sequence[str]) -> list[tuple[str, str]]:
    """The wordings not used yet in this interview, while there are any: a third "Why does
    that bother you?" reads as a script, whatever came between. When all were, the questions
    not asked word for word yet, else the one asked longest ago (round 33 asked "What other
    features or qualities do you notice?" twice)."""
    used = {_shape(t) for t in (template_of(q) for q in asked) if t}
    # (said of the thing or of "it", a wording is one: round 199 heard "If a friend asked you
    # about it, ..." and then "If a friend asked you about the coffee, ...": "didn't you ask
    # that already?")
    fresh = [p for p in pairs if _shape(p[0]) not in used]
    if fresh:
        return fresh
    # (a walk-through is asked once: round 197 heard "Could you walk me through that step by
    # step?" four times, of a photo and of a name)
    pairs = [p for p in pairs if p[0] not in _ONCE_ONLY] or pairs
    said = [q.strip().lower() for q in asked]
    unsaid = [p for p in pairs if p[1].strip().lower() not in said]
    if unsaid:
        return unsaid
    last = {p[1]: max(i for i, q in enumerate(said) if q == p[1].strip().lower()) for p in pairs}
    oldest = min(last.values())
    return [p for p in pairs if last[p[1]] == oldest]


# How a story ended, told already: "well I got the job, so it ended fine", "it ended alright
# in the end", "in the end they refunded it" (round 135 and a typed interview were asked "How
# did it end?" after it)
_TOLD_THE_END = re.compile(
    r"\b(?:it|that|all|everything|things|the\s+whole\s+thing)\s+ended\b|\bin\s+the\s+end\b|"
    r"\bended\s+(?:up\s+)?(?:fine|well|ok|okay|alright|all\s+right|badly|happily)\b",
    re.IGNORECASE,
)
_HOW_IT_ENDED = "How did it end?"


def _not_told_already(
    pairs: list[tuple[str, str]], answers: Sequence[str], asked: Sequence[str] = ()
) -> list[tuple[str, str]]:
    """No "How did it end?" of a story whose end was told, nor twice (rounds 138, 141 and 144
    asked it again); kept when it is all there is."""
    told = any(_TOLD_THE_END.search(a) for a in answers)
    if not told and not any(_HOW_IT_ENDED in q for q in asked):
        return pairs
    return [p for p in pairs if _HOW_IT_ENDED not in p[1]] or pairs


def _not_the_last_one(pairs: list[tuple[str, str]], previous: str) -> list[tuple[str, str]]:
    """Never the same wording twice in a row: "Why does X matter?" then "Why does Y matter?"
    reads as a machine, whatever the labels. Kept when it is the only template left."""
    last = template_of(previous) if previous else None
    rest = [p for p in pairs if p[0] != last] or pairs
    # nor the same lead again ("You said you can hear the cello. ..." twice): the other one
    lead = previous.split(". ", 1)[0] if ". " in previous else None
    other = [p for p in rest if lead is None or not p[1].startswith(lead + ".")]
    return other or rest


def opening_family(request: OpeningRequest) -> str:
    """Which opening suits the methodology, read from its goal and opening guidance."""
    text = f"{request.methodology.method.opening_bias} {request.methodology.method.goal}".lower()
    if any(
        w in text for w in ("incident", "went really well", "well or badly", "stood out", "episode")
    ):
        return "incident"
    if any(w in text for w in ("occasion", "walk me through", " job")):
        return "occasion"
    return "attribute"


_EXPERIENCES = re.compile(r"\s+(?:experiences?|incidents?|occasions?|encounters?)$", re.IGNORECASE)


def offline_opening(request: OpeningRequest) -> str:
    """One question that opens the topic (the only question that names it); after a concept
    test's stimulus, the first reaction to what was read."""
    topic = topic_name(request.concept.name)
    shown = request.concept.shown_stimulus(request.methodology.shape) is not None
    family = "stimulus" if shown else opening_family(request)
    if family in ("incident", "occasion"):
        # "a time when customer support went badly", not "customer support experiences"
        bare = _EXPERIENCES.sub("", topic)
        topic = bare if bare and " and " not in bare else topic
    candidates = [t.format(topic=topic) for t in OPENING_TEMPLATES[family]]
    return pick(candidates, [], f"{request.seed}:opening")
