"""How a question points at its focus: the respondent's clean phrase, a noun they used, their
own clause, "that", or nothing (INTERVIEWING.md "How people actually answer").

``refer`` chooses, from what ``phrases`` finds in the answers: a clean **phrase** of theirs;
for a doing, their short clause quoted; a **mention** ("the charger"); "**that**" when the
focus was the last point of the answer just given (after more than one point, "that" would
point at the last one: their clause is quoted instead, "You said \"keeps me fit\""); or
**none**. ``steered`` says a focus the respondent asked to go back to in their words ("the
codes thing"), which the question leads with.

Pure functions of the label, the node's quotes and the respondent's answers (English);
``reference_for`` reads them off a question request.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from interview_cli.core.text import NEGATIONS
from interview_cli.llm.offline.asking.mentions import _FEELING_WORDS, MENTION_DETERMINERS, mention
from interview_cli.llm.offline.asking.phrases import (
    BEFORE_A_VERB,
    DANGLING,
    DISLIKING,
    MAX_QUOTE_WORDS,
    SENTENCE_END,
    Phrase,
    _find,
    _shift,
    from_answer,
    gerund_led,
    lowered,
    phrase_for,
)
from interview_cli.llm.offline.asking.stops import _AFTERTHOUGHTS, CONDITIONS, MODALS
from interview_cli.llm.offline.asking.tokens import (
    OBJECT_PRONOUNS,
    Token,
    _content,
    holds_empty_phrase,
    tokenize,
    verbish,
    words_of,
)
from interview_cli.llm.offline.asking.topic import thing
from interview_cli.llm.offline.asking.vocabulary import Vocabulary, vocabulary
from interview_cli.llm.offline.lexicon import NAMELESS, POSITIVE_WORDS
from interview_cli.llm.offline.reading.clauses import blank
from interview_cli.llm.offline.reading.content import is_count
from interview_cli.llm.offline.reading.earlier import shared
from interview_cli.llm.offline.reading.earlier import words_of as reader_words
from interview_cli.llm.offline.reading.meta import naming_words
from interview_cli.llm.offline.reading.stance import LESSENED
from interview_cli.llm.offline.reading.steering import Steer, find_steer
from interview_cli.llm.protocol import QuestionRequest


@dataclass(frozen=True)
class Reference:
    """How a question refers to its focus: ``phrase``, else ``mention`` (a noun they used),
    else ``that`` (the answer just given), else ``none`` (nothing sure: ask about the topic);
    ``steer``: the focus they asked to talk about, as they named it (in ``mention``)."""

    how: str
    phrase: Phrase | None = None
    mention: str = ""
    said_more: bool = False  # (steer) the answer went on to say what it went back for
    asked_us: bool = False  # (steer) what they named, they asked us about ("is there X in it?")


NOTHING = Reference("none")


def refer(
    label: str | None,
    answers: Sequence[str],
    quotes: Sequence[str] = (),
    topic: str = "",
    *,
    asked_back: bool = False,
    asked: Sequence[str] = (),
) -> Reference:
    """How a question may refer to the node ``label`` (see the module docstring); ``topic``:
    the respondent's word for the study's topic (``topic.thing``), no mention of a focus;
    ``asked_back``: the last answer asked to go back to the focus (core's steer, taken:
    ``QuestionRequest.asked_back``); ``asked``: the questions asked before."""
    v = vocabulary()
    target = words_of(label or "")
    back = asked_back_to(label, answers[-1]) if label and answers and asked_back else None
    if back is not None:  # the respondent chose this focus: say so, in their words (whatever
        # the label's: "the interview bit" of "interviewer", a typed interview)
        return back
    if not label or not target or not _content(target, v) or holds_empty_phrase(target, v):
        return NOTHING
    phrase = phrase_for(label, answers, quotes)
    if phrase is not None:
        return Reference("phrase", phrase)
    named = _thing_named(label, target, answers, topic)
    # where the focus stands in the answer just given (None: not there)
    tokens = tokenize(answers[-1]) if answers else []
    span = _find(target, tokens, v) if tokens else None
    said = _clause_of(tokens, span, v) if span is not None else None
    # (a word before its object's determiner is a doing too: "ruins the coffee" is no "the
    # coffee", which was asked what it gets in the way of)
    does_to = (
        len(target) > 1
        and target[1] in v.determiners
        and target[0] not in v.function_words
        and target[0].endswith("s")
    )
    # (a thing and what it does is a doing too: "the kids actually eat it" is no "the kids",
    # asked "Why is that important to you?" of a typed interview)
    says_what_it_does = len(target) == 2 and not verbish(target[0], v) and verbish(target[1], v)
    doing = verbish(target[0], v) or target[0] in MODALS or does_to or says_what_it_does
    # (what is liked or disliked is its object, "hate the hill"; what harms is not: "ruins
    # the coffee")
    harms = does_to and target[0] not in DISLIKING | POSITIVE_WORDS
    if named and _asked_of(named, asked):  # (said in their clause, not by the thing)
        return _quoted(said) if said is not None else _said_before(target, answers[:-1], v, quotes)
    if named and doing and (harms or target[0] not in DISLIKING | _FEELING_WORDS):
        # a doing is its point, not the thing it names last ("book at like 10pm once the
        # kids" is no "the kids", round 28): their clause, when it is short, says it; what
        # one can do is none of its things ("can look out window on metro" is no "the
        # Metro", round 34)
        if said is not None:
            return _quoted(said)
        if target[0] in MODALS or does_to:
            named = ""
    if named:
        return Reference("mention", mention=named)
    if not answers or not from_answer(label, quotes, answers[-1]):
        return _said_before(target, answers[:-1], v, quotes)
    # "that" is what was said last: after more than one point it points at the last one, and
    # the answer would be read as about a focus the respondent never heard asked of (6 of 7
    # such questions in round 26's review had a junk focus); nor is the last of two clear
    # ("that" after "open late, and cheap" was "the late thing or the price?", round 29).
    # Said in their words, unless it was the answer's one point.
    if span is None:
        return _as_quoted(quotes, tokens, v)
    if _only_point(tokens, span, v):
        return Reference("that")
    if said is None:
        return NOTHING  # one of several points, with no clause of theirs to say which
    return _quoted(said)


def _heads(named: str, target: list[str], v: Vocabulary) -> bool:
    """The mention ``named`` is what the label is about, not the thing something of theirs is
    with, on or for: "lass on the phone" is no "the phone", "lots of calls with team" no "the
    team", "nobody gawping at me on treadmill" no "the treadmill" (a doing before the thing's
    word is its doing: "goes on the charger", "went under racking" name the charger, racking)."""
    said = {w for w in words_of(named) if w not in v.determiners}
    head = next((i for i, w in enumerate(target) if w.split("'")[0] in said), None)
    if head is None:
        return True
    at = head - 1
    while at >= 0 and target[at] in v.determiners:
        at -= 1
    if at < 0 or target[at] not in _THINGS_WITH:
        return True
    at -= 1
    while at >= 0 and (target[at] in OBJECT_PRONOUNS or target[at] in _THINGS_WITH):
        at -= 1
    if at < 0:
        return True
    word = target[at]
    if gerund_led(word, v):
        return False
    return word in v.verbs or word in v.function_words


# (the words a thing of theirs is with, on or for: the vocabulary's prepositions hold neither
# "on" nor "near", and hold "like", "as" and "than", which put no thing beside another)
_THINGS_WITH = frozenset("on with at in under for of near by from about".split())


def _asked_of(named: str, asked: Sequence[str]) -> bool:
    """A question before said back the mention ``named`` ("your back") as its reference: another
    focus of it is said in their clause, not by the thing (round 222 asked "You talked about
    your back" of three nodes: "Third time you've asked me about the back now"). Not the word
    in any sense ("What would you do if you could go back?", the review)."""
    said = re.escape(named.lower())
    return any(
        re.search(rf"\b(?:mentioned|talked\s+about|said)\s+{said}\b", q.lower()) for q in asked
    )


def _thing_named(label: str, target: list[str], answers: Sequence[str], topic: str) -> str:
    """The thing of the label the respondent named (``mentions.mention``), when asking about
    it asks about the focus; "" otherwise."""
    named = mention(label, answers)
    # ("You talked about the headphones." in a headphones study names nothing; nor does what a
    # relief stops name it: "stops tea being a battle" is no "the battle", round 145)
    if named and ((topic and named.split()[-1] == topic.split()[-1]) or target[0] in LESSENED):
        return ""
    if named and _coped_with(target, named):
        return ""  # "going to cope with the laundry mountain" is no liking of the mountain
        # (round 191 asked "You mentioned the laundry mountain. And why does that matter?")
    if named and not _heads(named, target, vocabulary()):
        # (round 235 asked "why does that matter to you?" of "the treadmill", "the team" and
        # "the phone": "Three questions about the wrong thing")
        return ""
    return named


_COPING = frozenset(
    """cope coping copes deal dealing deals struggle struggling handle handling manage
    managing avoid avoiding escape escaping tackle tackling survive surviving""".split()
)


def _coped_with(target: list[str], named: str) -> bool:
    """The label is a coping with the thing ``named``, which is what they are up against."""
    head = named.split()[-1].lower()
    return head in target and any(w in _COPING for w in target[: target.index(head)])


def _as_quoted(quotes: Sequence[str], tokens: Sequence[Token], v: Vocabulary) -> Reference:
    """For a label whose words stand in another order in the answer just given ("unreliable 75"
    of "the 75 was just so unreliable"): "that" when its quote is the answer's one point, else
    the quote itself when it is short (round 68 asked a bare "What were you trying to get done
    there?" after an answer of five points), else "that"."""
    for said, span in _short_quotes(quotes, tokens, v):
        if not _only_point(tokens, span, v):
            return _quoted(said)
    return Reference("that")


def _short_quotes(
    quotes: Sequence[str], tokens: Sequence[Token], v: Vocabulary
) -> list[tuple[str, tuple[int, int]]]:
    """The node's quotes short enough to say back that ``tokens`` hold, with where."""
    found = []
    for said in quotes:
        target = words_of(said)
        if not _content(target, v) or all(is_count(w) for w in target):
            continue  # a figure put right on its own ("You said "4".", a typed interview)
        span = _find(target, tokens, v) if 0 < len(target) <= MAX_QUOTE_WORDS else None
        if span is not None:
            found.append((_without_edges(said, v), span))
    return found


def told_plainly(said: str) -> str:
    """Their words without the hedges, fillers and lead-ins at their ends, as a question or
    the closing summary says them back ("The not talking to people thing I guess" was a line
    of round 189's summary)."""
    return _without_edges(said, vocabulary())


def _without_edges(said: str, v: Vocabulary) -> str:
    """A quote without the hedges and fillers at its ends (:func:`_trimmed`), so the question
    does not say them back ('You mentioned "I rang them obviously"', 'You mentioned "mostly I
    just dont want her suffering"', typed interviews)."""
    tokens = tokenize(said)
    # (a lead-in before the hedges go, and after: "Just that when you're self employed ...",
    # "honestly the point was ...")
    start, end = _past_lead_in(tokens, 0, len(tokens))
    start, end = _past_lead_in(tokens, *_trimmed(tokens, start, end, v))
    kept = " ".join(t.text for t in tokens[start:end]).replace(" ,", ",")
    return kept if len(kept.split()) >= 2 else said.strip(" ,.;:!?")


# What they point back at, said as pointed: "the ankle thing I mentioned" is "the ankle thing"
# (round 203 asked 'You said "the ankle thing I mentioned".'; "the comfy bit" keeps its noun)
_MENTIONED = re.compile(
    r"(?:(?<=\sthing)|(?<=\sbit)|(?<=\sbits)|(?<=\sstuff))\s+(?:that\s+)?i\s+(?:mentioned|said|told\s+you\s+about|"
    r"was\s+on\s+about|talked\s+about)(?:\s+(?:earlier|before|already))?$",
    re.IGNORECASE,
)


def _quoted(said: str) -> Reference:
    """Their clause, quoted as they said it (what it points back at, as pointed)."""
    pointed = _MENTIONED.sub("", said)
    said = pointed if len(pointed.split()) >= 2 else said
    return Reference("phrase", Phrase(said, clause=f'"{said}"'))


def _said_before(
    target: list[str], answers: Sequence[str], v: Vocabulary, quotes: Sequence[str] = ()
) -> Reference:
    """Their clause that said the focus in an earlier answer, newest first: "not paying for
    a phone I already own" (round 43 asked "What else comes to mind when you think about
    it?" of it, and "think about what?" came back); else the node's own quote where an earlier
    answer holds it and it is short ("sound is clear" for "clear sound"); NOTHING when no
    answer holds either."""
    for answer in reversed(answers):
        tokens = tokenize(answer)
        span = _find(target, tokens, v)
        said = _clause_of(tokens, span, v) if span is not None else None
        if said is not None:
            return _quoted(said)
    for answer in reversed(answers):
        for said, _ in _short_quotes(quotes, tokenize(answer), v):
            return _quoted(said)
    return NOTHING


def _only_point(tokens: Sequence[Token], span: tuple[int, int], v: Vocabulary) -> bool:
    """Nothing that names anything stands before or after the clause of ``span``."""
    before, after = _clause_start(tokens, span[0], v), _clause_end(tokens, span[1], v)
    return not _names_any(tokens, 0, before, v) and not _names_any(tokens, after, len(tokens), v)


def _clause_end(tokens: Sequence[Token], end: int, v: Vocabulary) -> int:
    while end < len(tokens) and tokens[end].word and tokens[end].norm not in v.clause_breaks:
        end += 1
    return end


def _clause_start(tokens: Sequence[Token], start: int, v: Vocabulary) -> int:
    while start > 0 and tokens[start - 1].word and tokens[start - 1].norm not in v.clause_breaks:
        start -= 1
    return start


def _names_any(tokens: Sequence[Token], start: int, end: int, v: Vocabulary) -> bool:
    """Whether ``tokens[start:end]``, hedges trimmed, name anything ("..., isn't it", "to be
    honest" and "haha" are no point of their own)."""
    start, end = _trimmed(tokens, start, end, v)
    return any(
        len(w) > 2
        and w not in v.function_words | v.not_content | v.fillers | v.verbs
        and not w[0].isdigit()
        for w in (t.norm for t in tokens[start:end] if t.word)
    )


def _trimmed(tokens: Sequence[Token], start: int, end: int, v: Vocabulary) -> tuple[int, int]:
    """``tokens[start:end]`` without the fillers, hedges ("i guess") and marks at its ends."""
    changed = True
    while changed and start < end:
        changed = False
        for phrase in v.not_content_phrases:
            n = len(phrase)
            if tuple(t.norm for t in tokens[end - n : end]) == phrase and end - n > start:
                end, changed = end - n, True
                break
        if changed:
            continue
        first = tokens[start].norm
        if (
            first in v.fillers
            or first in v.conjunctions | v.clause_breaks
            or not tokens[start].word
        ):
            start, changed = start + 1, True  # "cos by then I'm knackered": by then ...
        elif (
            not tokens[end - 1].word
            or (
                _trailing(tokens[end - 1].norm, v)
                and not _its_noun(tokens, end - 1, v)
                and tokens[end - 1].norm not in _TAGS
            )
            or (end - start > 2 and _a_tag(tokens[end - 1].norm, tokens[end - 2].norm))
        ):
            # (not every filler: "get on with things" is no "get on with", round 29)
            end, changed = end - 1, True
    return start, end


def _past_lead_in(tokens: Sequence[Token], start: int, end: int) -> tuple[int, int]:
    """A quote's span past what leads into it: "mostly I just dont want her suffering", "thats
    when I asked for the complaint reference", "i just mean money is tight", "the point was he
    knew his stuff" (typed interviews said them back whole)."""
    words = [t.norm for t in tokens[start:end]]
    for lead in _LEADS_IN:
        n = len(lead)
        # (not before a condition: "mostly whether it fits all three kids" stays whole)
        if len(words) > n + 1 and tuple(words[:n]) == lead and words[n] not in CONDITIONS:
            if lead[-1] in _MEANING and _its_meaning(words[n:]):
                continue  # "I meant to batch cook", "it means a lot": the meaning is theirs
            return start + n, end
    return start, end


# ("i just mean money is tight": what they mean is the quote, round 188; "Means one less
# thing to wash", "the point was he knew his stuff", "just that when you're self employed
# ...", round 189)
_MEANING = frozenset("mean meant means".split())


def _its_meaning(rest: list[str]) -> bool:
    """What follows a "mean" is its own meaning, not what was meant: "(I meant) to batch
    cook", "(it means) a lot", "the world", "everything" (from the reviews)."""
    return rest[:1] in (["to"], ["everything"], ["nothing"]) or rest[:2] in (
        ["a", "lot"],
        ["the", "world"],
        ["so", "much"],
    )


_LEADS_IN = (
    ("mostly",),
    ("thats", "when"),
    ("that's", "when"),
    ("i", "just", "mean"),
    ("i", "mean"),
    ("i", "just", "meant"),
    ("i", "meant"),
    ("what", "i", "mean", "is"),
    ("it", "means"),
    ("means",),
    ("the", "point", "was"),
    # ("the reason is the family": round 265's recap said it whole)
    ("the", "reason", "is", "because"),
    ("the", "reason", "was", "because"),
    ("the", "reason", "is"),
    ("the", "reason", "was"),
    ("the", "point", "is"),
    ("point", "is"),
    ("just", "that"),
    # what the check-back missed, said back as a point: "you've missed the plastic guilt
    # completely" (round 197's summary listed it so); not "missed the bus", what happened
    ("you've", "missed"),
    ("youve", "missed"),
    ("you", "have", "missed"),
    ("you've", "also", "missed"),
)


def _its_noun(tokens: Sequence[Token], at: int, v: Vocabulary) -> bool:
    """``tokens[at]`` is the noun of the words before it, not a word of address: "less like an
    old | man" (round 192 said back "makes me feel less like an old")."""
    before = tokens[at - 1].norm if at > 0 and tokens[at - 1].word else ""
    noun = tokens[at].norm in _ADDRESSING_NOUNS  # (not "feel old | mate", "good | though")
    return noun and (before in v.determiners or before in _BEFORE_ITS_NOUN)


_BEFORE_ITS_NOUN = frozenset("old young little big good nice wee poor some any no".split())
# ("at the mercy of some | boss": round 210 said back "I wasnt at the mercy of some")
_ADDRESSING_NOUNS = frozenset("man lad girl boy woman lady fella dear boss".split())


def _trailing(word: str, v: Vocabulary) -> bool:
    """A word a quote does without at its end: "tbh", "mate", "lol" (not "things" of "get on
    with things", round 29), or a joining word whose clause was cut off ("Id already explained
    it all twice and", round 123's closing recap)."""
    return (
        word in _AFTERTHOUGHTS
        or (word in v.fillers and word not in _HEADS)
        or word in v.conjunctions
    )


def _a_tag(word: str, before: str) -> bool:
    """A "like" or "see" closing a clause as a tag, not as a verb: "I'm terrible with needles
    see", "not professional like" (round 220 quoted both); not "what I like", "as far as I can
    see", "we'll see"."""
    # (nor after how often or how: "the bits I never see", "you can actually see", the review)
    adverb = before.endswith("ly") or before in _HOW_OFTEN
    return word in _TAGS and before not in _TAKES_A_TAG_VERB and before.isalpha() and not adverb


_HOW_OFTEN = frozenset("never always ever still often even also sometimes rarely seldom".split())


_TAGS = ("like", "see")

_TAKES_A_TAG_VERB = frozenset(
    """i you we they he she it to do did does would should could can will shall must feel feels
    felt look looks looked seem seems sound sounds something anything nothing what whatever
    people folk really just dont didnt doesnt cant wont lets let and or more much most them us
    me him her kids not who that go come wait i'd you'd we'd they'd i'll you'll we'll they'll
    don't didn't doesn't can't won't let's""".split()
)


# (nor "well" at an end, where it is how: "what keeps him well", "it works well")
_HEADS = frozenset("things stuff thing lot lots bit well".split())


def _clause_of(tokens: Sequence[Token], span: tuple[int, int], v: Vocabulary) -> str | None:
    """The respondent's clause around ``span`` verbatim, from the mark or joining word before
    it to the mark after it ("I'd be lost without her" of "... two days a week and I'd be
    lost without her."), when it is short and says something; None otherwise."""
    start, end = _clause_start(tokens, span[0], v), _clause_end(tokens, span[1], v)
    # what they said, not how they began or hedged it: "tbh id still rather that", "keeps me
    # fit i guess"
    start, end = _past_lead_in(tokens, *_trimmed(tokens, start, end, v))
    if _called_love(tokens, start, end, v):
        start += 1
    words = [t.norm for t in tokens[start:end]]
    if not 1 < len(words) <= MAX_QUOTE_WORDS or not _content(words, v):
        return None
    sentence_start = start == 0 or tokens[start - 1].norm in SENTENCE_END
    # (what they check, said as a sentence of its own, asserts nothing: "Whether they keep the
    # wet out mostly." was read with doubt as unsayable, and round 266 never asked about it)
    checked = words[0] == "whether" and sentence_start
    if (words[0] in CONDITIONS | {"of"} and not checked) or holds_empty_phrase(words, v):
        return None  # (nor "of a weird question mate", round 32)
    if start > 0 and tokens[start - 1].norm in CONDITIONS:
        return None  # "so if | Im stuck in traffic": no "You said \"Im stuck\"" (round 35)
    said = " ".join(lowered([t.text for t in tokens[start:end]], sentence_start))
    return None if DANGLING.search(said) else said  # ("sceptical of the", round 262)


def _called_love(tokens: Sequence[Token], start: int, end: int, v: Vocabulary) -> bool:
    """The clause opens on a "love" said to the interviewer after a hedge or an opener, before
    someone doing something: "Honestly love it frightens me" (round 265 asked 'You said "love
    it frightens me".'); not "I honestly love it", "oh love it when it does that"."""
    if end - start < 3 or start == 0 or tokens[start].norm != "love":
        return False
    doer, does = tokens[start + 1].norm, tokens[start + 2].norm
    if tokens[start - 1].norm not in v.fillers or doer not in v.subjects:
        return False
    return verbish(does, v) or (does.endswith("s") and does not in v.function_words)


_NAMED_AS = frozenset("thing bit part stuff side".split())
_SAID_WHEN = re.compile(
    r"\s+(?:(?:from|at)\s+the\s+(?:start|beginning)|(?:from\s+)?(?:earlier(?:\s+on)?|before)|"
    r"(?:that\s+)?i\s+(?:said|mentioned)(?:\s+(?:earlier|before|at\s+the\s+start))?)\s*$",
    re.IGNORECASE,
)


def steered(label: str | None, answer: str, steer: Steer, *, taken: bool = False) -> str:
    """What the respondent asked to go back to in ``answer`` (``steer``, its request), in
    their words with the person shifted ("the codes thing", "your mum's key"), when the focus
    ``label`` is that; "" when it asked for something else. Round 27: "can we go back to the
    no added sugar thing?" was followed by "What else comes to mind when you think about
    it?"."""
    if label is None:
        return ""
    v = vocabulary()
    # matched as the reader matched the request to the node (``reading.earlier``: a stem, a
    # word of its kin, a name whatever its ending): "the money thing" is "not paying for
    # stuff", and "Ahmed" no verb in "-ed" (round 74 asked "Is there more you'd like to say
    # about any of that?" after both); ``taken``: core took the request on this focus as the
    # reader matched it, whatever words they share here ("the interview bit" of "interviewer":
    # a typed interview heard "What happened next?")
    if not taken and not shared(reader_words(steer.target), reader_words(label)):
        return ""
    tokens = tokenize(answer[steer.start :])
    # when it was said is no part of its name ("the packaging thing from the start", round 36)
    end = len(words_of(_SAID_WHEN.sub("", steer.target)))
    if end < len(tokens) and tokens[end].norm in _NAMED_AS:
        end += 1  # "the codes | thing": the thing was named with it
    texts = [t.text for t in tokens[:end] if t.word]
    while len(texts) > 2 and texts[0].lower() in _OPENING_NOISES and texts[1].lower() in _DETS:
        texts = texts[1:]  # "oh the price thing, can we go back to that" (my typed interview)
        # (not a word of it: "the right hand brake thing", the review)
    if len(texts) > MAX_QUOTE_WORDS:
        texts = _subject_of(texts, v)  # "my morning brew at home | actually tastes like ..."
    if not texts or len(texts) > MAX_QUOTE_WORDS:
        return ""
    if texts[0].lower() not in MENTION_DETERMINERS and texts[0].lower() not in v.determiners:
        texts = ["the", *texts] if texts[-1].lower() in _NAMED_AS else texts
    shifted = _shift(texts, v)
    if shifted and _says_what_it_does(texts, v):
        # "Back to "doesn't sit heavy".": a doing asked back to is quoted, not made a thing
        # (a dev-8 simulated cyclist heard "Back to doesn't sit heavy."), in their own words
        return '"' + " ".join(texts) + '"'
    return shifted or ""


_OPENING_NOISES = frozenset(
    "oh ah um erm er so right well and anyway ok okay yeah sorry actually ooh hmm".split()
)
_DETS = frozenset("the my that this your our those these".split())


_ASKED = re.compile(
    r"\b(?:can|could|shall|may)\s+(?:we|i|you)\b|\blet'?s\b|\bmind\s+if\b", re.IGNORECASE
)


def asked_back_to(label: str, answer: str, *, asked: bool = False) -> Reference | None:
    """The ``steer`` reference to the focus ``label`` that ``answer`` asked to go back to, in
    the words of its request; None when they cannot be said back. ``asked``: only a request
    put as a question ("Can we go back to the steps bit?"), not going back in the answer
    itself ("Going back to the battery, it means ...")."""
    steer = find_steer(answer)
    asked_for = steered(label, answer, steer, taken=True) if steer is not None else ""
    if steer is None or not asked_for:
        return None
    # (a request is asked whether or not it is typed with its "?": "can we go back to the
    # frothing thing, because ..." was no request said back, a typed interview)
    put = re.match(r"[^.!]{0,30}\?", answer[steer.end :]) or _ASKED.search(
        answer, max(0, steer.end - 60), steer.end
    )
    if asked and not put:
        return None
    return Reference(
        "steer",
        mention=asked_for,
        said_more=said_after_steer(answer, steer),
        asked_us=steer.asked,
    )


def _says_what_it_does(texts: list[str], v: Vocabulary) -> bool:
    """The words lead with a verb or a negation, and speak of no person: "doesn't sit
    heavy", "lasts all week"; or they are a clause about "it": "it means I can stop here"."""
    words = [t.lower().replace("\u2019", "'") for t in texts]
    lead = words[0]
    if lead in _IT and len(words) > 1 and verbish(words[1], v):
        return True  # "it means I can stop here" (dev 7: "Back to it means you can stop here.")
    # (the verb list and the negations, not an ending: "Ahmed" is a name, "payment" no "n't")
    return (lead in v.verbs or lead.replace("'", "") in NEGATIONS) and not any(
        w in v.subjects or w in OBJECT_PRONOUNS for w in words
    )


_IT = frozenset({"it", "that", "this", "they"})


def _subject_of(texts: list[str], v: Vocabulary) -> list[str]:
    """The thing a long request names first, before what it says of it: "my morning brew at
    home" of "my morning brew at home actually tastes like the good stuff" (a dev-8 simulated
    barista's request was followed by "What other thoughts do you have on all this?"); [] when
    it does not lead with a thing."""
    if texts[0].lower() not in v.determiners and texts[0].lower() not in MENTION_DETERMINERS:
        return []
    for i, text in enumerate(texts[2:], start=2):
        word = text.lower()
        if verbish(word, v) or word in BEFORE_A_VERB or word in v.relatives:
            return texts[:i]
    return []


# Words after the request that name something (``meta.naming_words``, the reader's one
# judgement of emptiness) for it to have said what it went back for
_SAYS_MORE = 4
_SAYS_WHY = 2
_BECAUSE = re.compile(
    r"\W*(?:(?:though|tho|actually)\W+)?(?:because|cos|coz|cause|as|since)\b", re.I
)


def said_after_steer(answer: str, steer: Steer) -> bool:
    """Whether ``answer`` goes on, after its request to go back (``steer``), to say what it
    went back for: "Can we go back to the back thing actually? I dont think I said properly,
    its a medium firm one and thats what made the difference" (round 49 asked "Back to the
    back thing. What did you want to say about it?" and heard "Um I kind of just said it?").
    Talk about talk says nothing more ("the wrist thing though, I never really said about
    that", round 51), nor does an idiom of annoyance ("that was the bit that got my goat")."""
    rest = blank(answer[steer.end :])
    # (a reason given for going back says what for: "can we go back to Dev, because he was the
    # only one who listened and he rang me back", a typed interview heard "What would you like
    # to say about that?")
    enough = _SAYS_WHY if _BECAUSE.match(rest) else _SAYS_MORE
    return naming_words(rest, NAMELESS) >= enough


def request_answers(request: QuestionRequest) -> list[str]:
    """The answers a question request reads: those it was given, else its recent exchanges'."""
    return list(request.answers) or [e.answer for e in request.recent]


def reference_for(request: QuestionRequest) -> tuple[Reference, str]:
    """How the question refers to its focus (``refer``; NOTHING without a focus to ask
    about), and the respondent's word for the study's thing."""
    answers = request_answers(request)
    about = thing(request.concept.name, answers)
    if not request.focus_label or request.strategy.focus_mode != "recent_node":
        return NOTHING, about
    # (asked back only when the focus is the node the request named: core's word, not a
    # reading of the answer; the words it is said back in are still the answer's)
    asked_back = bool(request.asked_back)
    ref = refer(
        request.focus_label,
        answers,
        request.focus_quotes,
        about,
        asked_back=asked_back,
        asked=request.avoid_questions,
    )
    return ref, about
