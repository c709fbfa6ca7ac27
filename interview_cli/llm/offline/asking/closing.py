"""The closing question: what was learned, restated in the respondent's own words.

INTERVIEWING.md "Ending": the closing summary restates the chains in the respondent's words
(attribute -> ... -> value) and asks whether it is right. A ladder is restated from its most
concrete clean rung, through the reason they gave for it, to its most abstract clean one, each
a clean phrase of the respondent's quoted verbatim (``phrases.phrase_for``); a label that is
no such phrase is never read back ("'one that lasts whole week' leading to 'figure of
speech'"). With no clean ladder, a short plain recap of up to ``MAX_RECAP`` clean phrases;
with none of those either, the plain closing question. The same recap serves a summary
strategy in mid-interview ("reflect").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from interview_cli.config.schemas import Methodology
from interview_cli.core.text import label_profile
from interview_cli.llm.offline.asking.choosing import pick
from interview_cli.llm.offline.asking.phrases import Phrase, phrase_for
from interview_cli.llm.offline.asking.reference import refer, told_plainly
from interview_cli.llm.offline.asking.vocabulary import vocabulary
from interview_cli.llm.offline.asking.wording import (
    CLOSING_TEMPLATES,
    LEAVING_CLOSING_TEMPLATES,
    LEAVING_RECAP_TEMPLATES,
    LEAVING_SUMMARY_TEMPLATES,
    RECAP_TEMPLATES,
    SUMMARY_TEMPLATES,
)
from interview_cli.llm.offline.reading.stance import stance_of
from interview_cli.llm.offline.shapes.common import label_list
from interview_cli.llm.protocol import QuestionRequest

MAX_SUMMARY_CHAINS = 3
MAX_RECAP = 3


def clean_ladders(
    chains: Sequence[Sequence[str]],
    answers: Sequence[str],
    first: Sequence[str] = (),
    asked: int = 0,
    pointed: Sequence[str] = (),
    limit: int = MAX_SUMMARY_CHAINS,
) -> list[tuple[Phrase, ...]]:
    """The rungs read back in the respondent's words for each ladder with two distinct clean
    rungs: its most concrete one, the nearest one above it that names none of the same things,
    and its most abstract such one when that is higher still. The ladders naming what the
    recap puts ``first`` (what they asked to go back to or said mattered most) come first
    (round 260's Fatima said "reliability is the big one for me" and "I already said,
    reliability!", and was read back three side chains), then the longest (the ones the
    respondent went furthest up: what mattered most, not a passing two-step said first); and
    before all of these, the first ``asked`` of the ``chains`` (climbed by asking why,
    ``QuestionRequest.asked_chains``), of each kind first the ones naming what they asked to go
    back to or said mattered most (``pointed``): the ``MAX_SUMMARY_CHAINS`` read back, in the
    order they were said."""
    found: list[_Ladder] = []
    first_said = {label.lower() for label in first}
    stressed = {label.lower() for label in pointed}
    for at, chain in enumerate(chains):
        said = [(label, phrase_for(label, answers)) for label in chain]
        clean = [(label, p) for label, p in said if p is not None]
        # a negation on the way up turns what lies above it round ("a pair that lasts" ->
        # "I'm NOT breaking in new ones" -> "breaking in is when the blisters start"): the
        # ladder is read back up to the first rung said in the negative, not past it
        cut = next(
            (i for i, (label, _) in enumerate(clean) if i and label_profile(label).negated), None
        )
        phrases = [p for _, p in (clean if cut is None else clean[: cut + 1])]
        # (the top rung that says more than the bottom one: '"grip" matters to you because of
        # "the boots actually grip on wet rock"' was read as going round in circles, round 75)
        low = set(label_profile(phrases[0].verbatim).content) if phrases else set()
        tops = [p for p in phrases[1:] if not low & set(label_profile(p.verbatim).content)]
        if not phrases or not tops:
            continue
        # the reason they gave for it, then the top: the ends of a long ladder alone were
        # never said as one reason ('"I can keep Mostyn on the proper stuff" matters to you
        # because of "they're company"', round 163; rounds 148 and 154 alike)
        pair = (phrases[0], *tops[:1], *tops[1:][-1:])
        if pair[0].verbatim.lower() != pair[1].verbatim.lower() and all(
            [p.verbatim for p in pair] != [p.verbatim for p in f.pair] for f in found
        ):
            labels = {label.lower() for label in chain}
            later = 0 if first_said & labels else 1
            aside = 0 if stressed & labels else 1
            found.append(_Ladder(int(at >= asked), aside, later, -len(phrases), at, pair))
    # each rung read back once: "'i look for firm' leading to 'my independence', 'i look for
    # firm' leading to 'my hip' and 'i look for firm' leading to ..." (round 28) reads as a
    # machine, and leaves the rest of what was said out
    kept: list[_Ladder] = []
    used: set[str] = set()
    for f in sorted(found):
        ends = {rung.verbatim.lower() for rung in f.pair}
        if ends & used or len(kept) == limit:
            continue
        kept.append(f)
        used |= ends
    return [f.pair for f in sorted(kept, key=lambda f: f.at)]


class _Ladder(NamedTuple):
    """A ladder to read back, sorted by what comes first: one climbed by asking (``told`` 0:
    the graph's other links are the reader's, and on speech as people type it many join two
    things said in one breath), then one naming what they asked to go back to or said mattered
    most (``aside`` 0), then one naming what the recap puts first (``later`` 0), then the
    longest (``rungs``: minus its clean rungs), then the first said."""

    told: int
    aside: int
    later: int
    rungs: int
    at: int
    pair: tuple[Phrase, ...]


def clean_phrases(labels: Sequence[str], answers: Sequence[str], topic: str = "") -> list[Phrase]:
    """Up to ``MAX_RECAP`` of the labels in the respondent's words: a clean phrase of theirs,
    else their clause in the answer that said it (``reference.refer``: "whether it fits all
    three kids properly" for the label "whether fits all three kids properly"), else none. A
    label of the topic's own words says nothing of them: round 207 was told 'We covered
    "coffee", ...' in a study of morning coffee."""
    studied = set(label_profile(topic).content)
    found: list[Phrase] = []
    for label in labels:
        if studied and set(label_profile(label).content) <= studied:
            continue
        phrase = phrase_for(label, answers) or _said_in_an_answer(label, answers)
        if phrase is not None and all(phrase.verbatim != p.verbatim for p in found):
            found.append(phrase)
    return found[:MAX_RECAP]


def _said_in_an_answer(label: str, answers: Sequence[str]) -> Phrase | None:
    for answer in answers:
        ref = refer(label, [answer])
        if ref.how == "phrase" and ref.phrase is not None:
            return ref.phrase
    return None


def says_why(methodology: Methodology) -> bool:
    """A ladder of reasons: each rung is why the one below it matters (means-end laddering's
    ``leads_to``, a grid's ``matters_because``). A story's links (an incident that "prompted"
    an action, a lift share that "competes with" the bus) are no reasons, and read back as
    one they are made up: "'I tried lift share with a colleague' leading to 'bus'" (round 35)."""
    return methodology.ontology.gives_reasons


def restated(ladders: Sequence[tuple[Phrase, ...]]) -> str:
    """The ladders as the respondent gave them: each top rung as the reason the bottom one
    matters, the way they answered "why does that matter?" ("'go to my check ups' matters to
    you because of 'I see what happens'"), or a rung held against as what bothers them. Not
    "leading to": round 35's three testers read "X leading to Y" as a claim that X causes Y,
    and called two of three backwards."""
    parts: list[str] = []
    said = ""
    for low, high, *top in ladders:
        # a rung held against is no thing that matters ("'I felt guilty' matters to you
        # because of 'Im not a total hypocrite'", round 36): it bothers them
        verb = "bothers you" if stance_of(low.verbatim) < 0 else "matters to you"
        # (the top of the ladder, with a verb of its own: round 163's reviewer read "and that
        # in the end because "I get home to my family"" as missing one)
        end = "".join(f', which in the end matters {_because(t)} "{t.verbatim}"' for t in top)
        lead = verb + " " if verb != said else ""
        parts.append(f'"{low.verbatim}" {lead}{_because(high)} "{high.verbatim}"{end}')
        said = verb
    if any(len(ladder) > 2 for ladder in ladders) and len(parts) > 1:
        # (a ladder's top and the next ladder run together after a comma: apart, by ";")
        return "; ".join(parts[:-1]) + "; and " + parts[-1]
    return label_list(parts)


def _because(reason: Phrase) -> str:
    """ "because" before a reason said as a clause, "because of" before a thing: '"everything
    comes portioned" because of "there's no half a bag of spinach turning"' was read as the
    spinach causing the portions (round 166)."""
    words = reason.verbatim.lower().replace("\u2019", "'").split()
    if words and words[0] in _DOES:
        return "because it"  # ("because of "saves the faff"", round 261)
    said = bool(reason.clause) or (bool(words) and words[0] in _SUBJECTS)
    return "because" if said or bool(set(words[1:]) & _FINITE) else "because of"


# A clause's first word, or a verb of its own after it ("the kids get a nicer dad").
_SUBJECTS = frozenset("i i'm im it it's its there there's theres we they he she you".split())
_FINITE = frozenset("is are was were get gets got have has had can can't cant will".split())
# ... or a doing with no subject: "saves the faff", "keeps me going"
_DOES = frozenset("saves keeps makes gives lets helps means stops takes gets".split())


def _unsaid(
    labels: Sequence[str],
    request: QuestionRequest,
    answers: Sequence[str],
    ladders: Sequence[tuple[Phrase, ...]],
) -> Phrase | None:
    """The first of ``labels`` in the respondent's words that no ladder read back names: never
    the topic's own words ("road cycling" in a study of road cycling, the review), nor talk of
    the interview ("can we go back to the question about the bag", the review of round 265's
    rules)."""
    said = {w for ladder in ladders for p in ladder for w in label_profile(p.verbatim).content}
    studied = set(label_profile(request.concept.name).content)
    of_us = vocabulary().not_content
    for phrase in clean_phrases(labels, answers, request.concept.name):
        words = set(label_profile(phrase.verbatim).content)
        if words and not said & words and not words <= studied and not words & of_us:
            return phrase
    return None


def _also(
    request: QuestionRequest, answers: Sequence[str], ladders: Sequence[tuple[Phrase, ...]]
) -> str:
    """What the recap puts first (``summary_labels``: what they asked to go back to or said
    matters most, then what they said most), when no ladder read back names it: round 256's
    Priya asked to go back to her sister, "kind of a big reason I kept it", and was read back
    only "it's great when it works" because "I come home" (rated 1 of 4). A sentence of its
    own: after two ladders '; and ..., ...; and you also' ran on."""
    if len(ladders) >= MAX_SUMMARY_CHAINS:
        return ""
    phrase = _unsaid(request.summary_labels[:3], request, answers, ladders)
    return f'. You also talked about "{phrase.verbatim}"' if phrase else ""


def _big_one(
    request: QuestionRequest, answers: Sequence[str], ladders: Sequence[tuple[Phrase, ...]]
) -> str:
    """What they asked to go back to or said mattered most, named by no ladder read back, said
    first as what they singled out: round 265's Shannon went back to "the breaking down
    thing", "thats the big one for me", and heard it last, after two lesser reasons, as "You
    also talked about" (rated 2 of 4). Said as what they did, not as mattering: a go-back may
    play it down ("can we go back to the price, it honestly doesn't matter to me")."""
    phrase = _unsaid(request.pointed_labels, request, answers, ladders)
    return f'you singled out "{told_plainly(phrase.verbatim)}"; ' if phrase else ""


def closing_question(request: QuestionRequest, key: str, threshold: float) -> str:
    """The closing (or mid-interview summary) question for the request: the clean ladders
    restated as reasons, or for a method whose links are no reasons, the clean phrases of
    what was said most (``summary_labels``) recapped one by one."""
    answers = list(request.answers) or [e.answer for e in request.recent]

    def read_back(limit: int = MAX_SUMMARY_CHAINS) -> list[tuple[Phrase, ...]]:
        return clean_ladders(
            [*request.asked_chains, *request.summary_chains],
            answers,
            request.summary_labels[:3],
            asked=len(request.asked_chains),
            pointed=request.pointed_labels,
            limit=limit,
        )

    ladders = read_back()
    reasons = says_why(request.methodology)
    if ladders and reasons:
        big = _big_one(request, answers, ladders)
        if big:  # (room for it: the ladder least to the point left out, not the last said)
            ladders = read_back(MAX_SUMMARY_CHAINS - 1)
        summary = big + restated(ladders) + ("" if big else _also(request, answers, ladders))
        forms = LEAVING_SUMMARY_TEMPLATES if request.leaving else SUMMARY_TEMPLATES
        texts = [t.format(summary=summary) for t in forms]
    else:
        # (a story's chain ends are its first step and its last word, no findings: "We talked
        # about 'I went on their website', 'deep' and ...", round 68; what was said most is)
        phrases = clean_phrases(request.summary_labels, answers, request.concept.name)
        if phrases:
            recap = label_list(f'"{p.verbatim}"' for p in phrases)
            forms = LEAVING_RECAP_TEMPLATES if request.leaving else RECAP_TEMPLATES
            texts = [t.format(recap=recap) for t in forms]
        else:
            texts = list(LEAVING_CLOSING_TEMPLATES if request.leaving else CLOSING_TEMPLATES)
    return pick(texts, request.avoid_questions, key, threshold)
