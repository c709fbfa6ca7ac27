"""What a question may say of the respondent's words: a clean phrase, a word, or nothing.

INTERVIEWING.md "How people actually answer": a good moderator quotes the respondent only
when the quote is a clean phrase they would recognise, otherwise refers to it ("what you said
about charging"), and when unsure whether a fragment is content, asks about what is surely
content. The offline reader's labels are often not such phrases ("folk stop and look as
pass", "cos by then knackered", "good grief"), so the questions never take a label on trust:

- a **phrase** is the label found in an answer, verbatim or with at most ``MAX_GAP`` words
  the label dropped ("folk stop and look as they pass"), within one clause, widened to its
  determiner or subject ("the rear roller", "I can sleep"), whole (it neither starts nor ends
  on a function word), short (``MAX_QUOTE_WORDS``) and content (not only interjections,
  time, verdicts, hedges, forms of address or talk about the interview). It comes in the
  forms a question needs: for a noun slot ("Why does the battery matter to you?"; a verb
  phrase as a gerund: "being able to focus on the train"), said back after "You said" (the
  first person shifted: "you take pride in the house") and verbatim (for a recap);
- a **mention** is a noun the respondent used with its determiner ("the charger"), for
  "You talked about the charger.";
- otherwise the question asks about "that" (the answer just given, when the focus came from
  it) or about something surely content (the topic; see ``questions``). Which of them a
  question uses is ``reference.refer``'s choice.

Pure functions of the label, the node's quotes and the respondent's answers (English).

Over 1,000 lines: one concept, saying back the respondent's words. Finding a phrase, where it
stops short and which noun it mentions read the same tokens with the same vocabulary, and
each rule is there because another fired wrongly; halves would import each other's rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import takewhile

from interview_cli.core.text import NEGATIONS
from interview_cli.llm.offline.asking.vocabulary import Vocabulary, vocabulary
from interview_cli.llm.offline.lexicon import NEGATIVE_WORDS, POSITIVE_WORDS, TITLED
from interview_cli.llm.offline.reading.clauses import THOUSANDS
from interview_cli.llm.offline.reading.content import MEASURE_UNITS, is_count, is_money

MAX_QUOTE_WORDS = 8  # a longer quote is a speech read back, not a phrase
MAX_GAP = 3  # words of the answer a label may have dropped and still be found
_WORD = re.compile(THOUSANDS + r"|[^\W_]+(?:['’.\-][^\W_]+)*'?|\S")
_SENTENCE_END = frozenset(".!?")
_PLURAL_WORDS = frozenset("people children men women feet teeth mice geese folk".split())
_SINGULAR_ENDS = ("ss", "us", "is", "'s", "ics", "ness")
_CAUSATIVES = frozenset("makes make made gets get got".split())
_COPULAS = frozenset("is are was were".split())
_ING_NOUNS = frozenset("something nothing anything everything thing string spring".split())
_IRREGULAR_GERUNDS = {"be": "being", "see": "seeing", "die": "dying", "lie": "lying"}


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
        after = matches[i + 1].group().lower() if i + 1 < len(matches) else ""
        if norm == "its" and (
            after in _NO_POSSESSION
            or after.endswith("ly")
            or after.endswith("ed")
            or after[:1].isdigit()  # "its 10 minutes of quiet"
        ):
            # "its lonely in the cab", typed without the apostrophe: it is, not whose
            raw, norm = raw[:2] + "'s", "it's"
        norm = _TYPED_CONTRACTIONS.get(norm, norm)  # "doesnt" is "doesn't", as it is read
        out.append(Token(raw, norm, norm[0].isalnum()))
    return out


# Contractions typed without their apostrophe (round 29: "the commute itself doesnt" was a
# noun to say back: "What does the commute itself doesn't mean for you?")
_TYPED_CONTRACTIONS = {
    w.replace("'", ""): w
    for w in """don't doesn't didn't can't couldn't wouldn't shouldn't isn't wasn't aren't
    weren't haven't hasn't hadn't i'm i've that's there's what's they'll they're they've
    you're you've you'll it'll that'll won't mustn't needn't would've could've should've
    it'd""".split()
}


_NO_POSSESSION = frozenset(
    "a an the not just so really very too been got gonna all only quite pretty always never "
    "more less what how about because cos gone done going getting coming "
    # "its open 24 hours" (round 44 said back "You mentioned its open 24 hours")
    "open closed cheap free fine good great handy easy hard quiet busy rammed nice brilliant "
    "rubbish fast slow worth like ok okay dead proper mint class "
    # "its mad loud" (round 52: "You mentioned its mad loud.")
    "mad loud noisy wild well pure".split()
)


def words_of(text: str) -> list[str]:
    return [t.norm for t in tokenize(text) if t.word]


@dataclass(frozen=True)
class Phrase:
    """A clean phrase of the respondent's, in the form a question may use it.

    ``noun``: the text for a noun slot ("the rear roller", "being able to sleep", or in
    quotes when it has no determiner: '"self-respect"'); ``clause``: said back after "You
    said" ("you take pride in the house", quoted verbatim when the person cannot be shifted
    safely); one of the two is set. ``verbatim``: the respondent's exact words.
    """

    verbatim: str
    noun: str = ""
    clause: str = ""
    plural: bool = False


def _content(words: Sequence[str], v: Vocabulary) -> bool:
    """Whether some word names something: not a function word, a number or a word that names
    nothing (interjection, time, verdict, hedge, address, talk about the interview)."""
    return any(
        w not in v.function_words and w not in v.not_content and not w[0].isdigit() for w in words
    )


def _holds_empty_phrase(words: Sequence[str], v: Vocabulary) -> bool:
    for phrase in v.not_content_phrases:
        n = len(phrase)
        if any(tuple(words[i : i + n]) == phrase for i in range(len(words) - n + 1)):
            return True
    return False


def _find(label: Sequence[str], tokens: Sequence[Token], v: Vocabulary) -> tuple[int, int] | None:
    """The shortest stretch of ``tokens`` that holds the label's words in order, within one
    clause, with at most ``MAX_GAP`` words the label left out; None when there is none."""
    best: tuple[int, int, int] | None = None
    for i, first in enumerate(tokens):
        if first.norm != label[0]:
            continue
        j, k, extra = i + 1, 1, 0
        while k < len(label) and j < len(tokens):
            t = tokens[j]
            if not t.word or (t.norm in v.clause_breaks and t.norm != label[k]):
                break
            if t.norm == label[k]:
                k += 1
            else:
                extra += 1
                if extra > MAX_GAP:
                    break
            j += 1
        if k == len(label) and (best is None or extra < best[0]):
            best = (extra, i, j)
    return None if best is None else (best[1], best[2])


def _gerund(verb: str, v: Vocabulary) -> str | None:
    """The -ing form: "focus" -> "focusing", "stays" -> "staying", "make" -> "making"; None
    for a past form."""
    if verb.endswith("ing"):
        return verb
    if verb.endswith("ed") or verb in v.past or "'" in verb or verb in v.auxiliaries:
        return None  # (no "isn'ting a moment", round 33)
    base = verb
    if base.endswith("ies") and len(base) > 4:
        base = base[:-3] + "y"
    elif base.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
        base = base[:-2]
    elif base.endswith("s") and not base.endswith("ss") and len(base) > 3:
        base = base[:-1]
    if base in _IRREGULAR_GERUNDS:
        return _IRREGULAR_GERUNDS[base]
    if base.endswith("ie"):
        return base[:-2] + "ying"
    if base.endswith("e") and not base.endswith(("ee", "ye", "oe")) and len(base) > 2:
        return base[:-1] + "ing"
    vowels = re.findall(r"[aeiou]+", base)
    if len(vowels) == 1 and re.search(r"[^aeiou][aeiou][^aeiouwxy]$", base):
        return base + base[-1] + "ing"  # stop -> stopping, get -> getting
    return base + "ing"


def _is_plural(words: Sequence[str], v: Vocabulary) -> bool:
    """Plural when the head noun (the last word before a preposition) is: "the headphones",
    "proper stripes on the front lawn"."""
    head = ""
    for w in words:
        if w in v.prepositions or w in v.relatives:
            break
        if w == "and" and head:
            return True  # "the drums and the road outside" (round 48: "What does ... do")
        head = w
    if head in _PLURAL_WORDS:
        return True
    return len(head) > 3 and head.endswith("s") and not head.endswith(_SINGULAR_ENDS)


def _shift(texts: Sequence[str], v: Vocabulary) -> str | None:
    """The first person said back ("I can sleep" -> "you can sleep", "my kids" -> "your
    kids"); None when a "me" is neither plainly an object nor a possessive."""
    out: list[str] = []
    norms = [t.lower().replace("’", "'") for t in texts]
    for i, (text, n) in enumerate(zip(texts, norms, strict=True)):
        after_i = i > 0 and norms[i - 1] == "i"
        if n in _SAID_BACK_WITHOUT and 0 < i < len(texts) - 1:
            continue  # "that's honestly the one": a hedge of theirs, not ours to repeat
        spelled = _TYPED_CONTRACTIONS.get(n)  # "didnt" said back as "didn't", "im" as "you're"
        if spelled is not None and spelled not in v.shift:
            out.append(v.after_i.get(spelled, spelled) if after_i else spelled)
            continue
        n = spelled or n
        if n in v.shift:
            out.append(v.shift[n])
        elif after_i and n in v.after_i:
            out.append(v.after_i[n])
        elif n == "me":
            nxt = norms[i + 1] if i + 1 < len(norms) else ""
            if i > 0 and norms[i - 1] in v.enablers:
                out.append("you")
            elif not nxt or nxt in v.prepositions:
                out.append("you")  # "keeps me in a job": an object before its place
            elif i == 0 or norms[i - 1] in v.prepositions:
                out.append("your")  # "me kids", "me own chain": many dialects' possessive
            elif nxt in v.function_words:
                out.append("you")
            else:
                return None
        else:
            out.append(text)
    return " ".join(out)


# Words of theirs a moderator leaves out when saying back what they said (round 28: "You
# said thats honestly the one you'd tell anyone", "your hair literally ruined")
_SAID_BACK_WITHOUT = frozenset("honestly literally basically tbh ngl lol haha obvs obvi".split())


def _verbish(w: str, v: Vocabulary) -> bool:
    return w in v.verbs or (len(w) > 4 and w.endswith("ed"))


def _as_noun(words: Sequence[str], i: int, v: Vocabulary) -> bool:
    """Whether the verb form ``words[i]`` is a noun here: right after a determiner ("the fit",
    "a charge"), or a plain form one word after it ("a clean cut"; but "the lawn stays", "the
    barista knew": a verb)."""
    w = words[i]
    if i > 0 and words[i - 1] in v.determiners:
        return True
    plain = not w.endswith(("s", "ed")) and w not in v.past and w not in v.auxiliaries
    # ("the vet put | her on a sensitive one": a verb with its object, round 26)
    done_to = i + 1 < len(words) and words[i + 1] in _OBJECT_PRONOUNS | {"it"}
    if i == 2 and words[0] in v.determiners and plain and not done_to:
        return True
    # a counted thing at the phrase's end: "a 12 month fix", "a two year warranty"
    between = words[1:i]
    return (
        i == len(words) - 1
        and words[0] in v.determiners
        and plain
        and any(is_count(w) for w in between)
        and not any(_verbish(w, v) for w in between)
    )


_WHEN_CLOSING = frozenset("now then again anymore nowadays today".split())


def _noun_like(words: Sequence[str], v: Vocabulary) -> bool:
    """No verb, no subject, no relative: the phrase fits "Why does ... matter to you?". A
    word with "'s" inside the phrase may be a verb ("the fella's dead handy"): not a noun,
    nor one closed by when ("a chain now": round 50 asked "Tell me more about a chain now")."""
    if words and words[-1] in _WHEN_CLOSING:
        return False
    for i, w in enumerate(words):
        if i == 0 and w == "me":
            continue  # "me kids": a possessive
        if w in v.subjects or w in v.relatives or w == "me":
            return False
        # "like" in "a clean cut like the bowling green" is no verb, nor "do" in "something
        # to do in the garage"
        infinitive = i > 0 and words[i - 1] == "to"
        if _verbish(w, v) and w not in v.prepositions and not infinitive:
            if not _as_noun(words, i, v):
                return False
        if w.endswith("'s") and i < len(words) - 1:
            return False
    return True


def _gerund_led(w: str, v: Vocabulary) -> bool:
    """ "drinking it hot", "getting the night bus": a phrase that is already a noun."""
    return len(w) > 4 and w.endswith("ing") and w not in v.not_content and w not in _ING_NOUNS


def _verdict_subject(words: Sequence[str], v: Vocabulary) -> int | None:
    """Where the subject ends in "the noise cancelling is proper good" (a verdict about a
    thing is about the thing): the index after the subject, or None."""
    for i, w in enumerate(words):
        tail = words[i + 1 :]
        if i == 0 or not tail:
            continue
        if (w in _COPULAS or w.endswith("'s")) and all(
            t in v.not_content or t in v.function_words for t in tail
        ):
            return i + 1 if w.endswith("'s") else i
    return None


# Words that end a phrase whole where its clause ends, though mid-clause they wait for more:
# "lost without her." ("her" of "her car"), "I belong there." ("there" of "there is")
_ENDS_AT_CLAUSE_END = frozenset("her there here".split())


def _clean(words: Sequence[str], v: Vocabulary, closed: bool = False) -> bool:
    """Whole, short and content: no cut-off edge, no second clause, no empty phrase inside.
    ``closed``: the phrase ends where its clause does (a stop, a comma or the answer's end)."""
    # a verb that wants an object ends a phrase whole after "what": "what I want", "what I love"
    ended = (
        words[-1] not in v.dangling_end
        or (words[-1] in v.verbs and "what" in words[:-1])
        or (closed and words[-1] in _ENDS_AT_CLAUSE_END and len(words) > 1)
    )
    return (
        0 < len(words) <= MAX_QUOTE_WORDS
        and words[0] not in v.dangling_start
        and words[0] not in v.fillers
        and ended
        and words[-1] not in v.fillers
        and not any(w in v.clause_breaks for w in words[1:])
        and _content(words, v)
        and not _holds_empty_phrase(words, v)
        # "I look at | is the portion sizes": a preposition before a copula closes a clause
        # that began before the phrase ("the first thing I look at is ...", round 26)
        and not any(
            a in v.prepositions and b in _COPULAS for a, b in zip(words, words[1:], strict=False)
        )
    )


def _lowered(texts: list[str], sentence_start: bool) -> list[str]:
    """A sentence's capital is not the respondent's: "Light as owt" is quoted "light as owt"
    (a name or an acronym keeps its capitals only mid-sentence: "RVI", "Dublin")."""
    # a lone "i" typed in lower case is "I" in a quote ('You said "I just put my own
    # headphones in"', round 29): the same word, written as the question writes
    texts = ["I" + t[1:] if t == "i" or t.startswith(("i'", "i\u2019")) else t for t in texts]
    first = texts[0]
    mine = first == "I" or first.startswith(("I'", "I\u2019"))  # "I", "I'm" keep theirs
    if sentence_start and first[:1].isupper() and not (len(first) > 1 and first.isupper()):
        if mine:
            return texts
        texts = [first[0].lower() + first[1:], *texts[1:]]
    return texts


# Who or what a causative verb makes do something: "makes me feel", "makes it feel".
_MADE_TO = frozenset("me it us them".split())


_I_AM = frozenset("i'm im am".split())


def _said_of_self(tokens: Sequence[Token], article: int) -> bool:
    """An "I'm (actually) a ..." before the article at ``article``: what they say they are."""
    back = [t.norm for t in tokens[max(0, article - 2) : article] if t.word]
    return bool(back) and (back[-1] in _I_AM or (len(back) == 2 and back[0] in _I_AM))


def _widen(tokens: Sequence[Token], start: int, v: Vocabulary) -> tuple[int, str]:
    """Where the phrase starts once its determiner or subject is in ("the rear roller", "I can
    sleep"), and the lead a verb phrase needs for a noun slot ("being able to" for "lets me
    focus"; "-ing" for "makes me feel calm")."""
    prev = tokens[start - 1].norm if start > 0 and tokens[start - 1].word else ""
    prev2 = tokens[start - 2].norm if start > 1 and tokens[start - 2].word and prev else ""
    if tokens[start].norm in v.subjects:
        return start, ""
    if prev in ("a", "an") and _said_of_self(tokens, start - 1):
        return start - 1, "being"  # "I'm actually a grown-up": "being a grown-up" (dev 7)
    if prev in _MADE_TO and prev2 in _CAUSATIVES:
        return start, "-ing"  # "makes it feel less lonely": "feeling less lonely"
    if prev in v.determiners or prev in v.subjects:
        return start - 1, ""
    if prev == "me" and prev2 in v.enablers:
        return start, "being able to"
    if prev == "me" and prev2 not in v.verbs:
        return start - 1, ""  # "me kids": kept only if it reads as a possessive (``_shift``)
    if prev in v.auxiliaries and prev2 in v.subjects:
        return start - 2, ""
    return start, ""


# Who a "can" asks about when it leads a question they put to themselves: "can I get...".
_ASKING_WHO = frozenset("i we".split())


def _verb_lead(words: list[str], texts: list[str]) -> tuple[list[str], list[str], str]:
    """A verb phrase with no subject as a noun: "can sleep" -> "being able to sleep", "don't
    have to charge it" -> "not having to charge it", "to get there" -> "getting there"; asked
    of themselves, "can I get three seats across" -> "being able to get three seats across"
    (round 22: "being able to you get")."""
    asked = 2 if len(words) > 2 and words[1] in _ASKING_WHO else 1
    if words[:1] in (["can"], ["could"]) and len(words) > asked:
        return words[asked:], texts[asked:], "being able to"
    if words[:1] in (["can't"], ["cannot"], ["couldn't"]) and len(words) > asked:
        return words[asked:], texts[asked:], "not being able to"
    for lead, gerund in (
        (["don't", "have", "to"], "not having to"),
        (["never", "have", "to"], "never having to"),
    ):
        if words[: len(lead)] == lead and len(words) > len(lead):
            return words[len(lead) :], texts[len(lead) :], gerund
    if words[:1] == ["to"] and len(words) > 1:
        return words[1:], texts[1:], "-ing"
    return words, texts, ""


# Words that lead a noun phrase though a verb is spelled the same: "last one went under the
# racking" is no "lasting one" (round 19), "first thing" no "firsting"
_ORDINALS = frozenset("last first next other same whole own only".split())


def _compose(words: list[str], texts: list[str], lead: str, v: Vocabulary) -> Phrase | None:
    """The phrase in the form a question can use, or None when no form reads right."""
    verbatim, first = " ".join(texts), words[0]
    if not lead and len(words) == 2 and words[1].endswith("ing") and first not in v.subjects:
        # "cost cutting", "money saving": a doing named by what it is done to, one noun
        # (round 24: "You mentioned costing cutting")
        return Phrase(verbatim, noun=f'"{verbatim}"')
    if not lead and _verb_of_question_clause(words, v):
        lead = "-ing"  # "understand what I pay": "understanding what you pay"
    if not lead and _gerund_led(first, v) and any(w in _COPULAS for w in words[1:]):
        # "being reliable is everything in midwifery": a clause, not a noun (round 32 asked
        # "What does being reliable is everything in midwifery do for you?")
        shifted = _shift(texts, v)
        return None if shifted is None else Phrase(verbatim, clause=f'"{verbatim}"')
    if lead and lead != "-ing" or not lead and _gerund_led(first, v):
        rest = _shift(texts, v)
        return None if rest is None else Phrase(verbatim, noun=f"{lead} {rest}".strip())
    if lead == "-ing" or (
        first not in v.subjects | v.determiners and first not in _ORDINALS and _verbish(first, v)
    ):
        gerund = None if first in v.auxiliaries else _gerund(first, v)
        # shifted with its verb before it: "keeps me fit" is no "keeping your fit"
        whole = _shift(texts, v) if len(texts) > 1 else ""
        rest = None if whole is None else whole.split(" ", 1)[1] if whole else ""
        if gerund is None or rest is None:
            return None
        return Phrase(verbatim, noun=f"{gerund} {rest}".strip())
    shifted = _shift(texts, v)
    if first in v.stand_ins and len(words) > 2 and _relative(words[1]):
        # "someone who'll go at my pace": one thing with its clause, said back as a noun
        # ("You mentioned someone who'll go at your pace", not "You mentioned that someone...")
        return None if shifted is None else Phrase(verbatim, noun=shifted)
    if first in _GERUND_SUBJECTS and len(words) > 1 and words[1].endswith("ing"):
        # "it starting every morning", "them falling out": a doing with its doer, said back
        # as they said it ('You mentioned "it starting"', not "You mentioned that it starting")
        return Phrase(verbatim, clause=f'"{verbatim}"')
    if first in v.subjects:
        return Phrase(verbatim, clause=shifted or f'"{verbatim}"')
    if _noun_like(words, v):
        if first in v.determiners or first == "me":
            if shifted is None:
                return None
            return Phrase(verbatim, noun=shifted, plural=_is_plural(words[1:], v))
        return Phrase(verbatim, noun=f'"{verbatim}"', plural=_is_plural(words, v))
    return _clause(words, verbatim, shifted, v)


_WH = frozenset("what where how when why who whether".split())
_ONES = frozenset("one ones".split())


def _relative(w: str) -> bool:
    return w.split("'")[0] in ("who", "that", "which")


_GERUND_SUBJECTS = frozenset("it him her them me us".split())


def _verb_of_question_clause(words: list[str], v: Vocabulary) -> bool:
    """A phrase led by a verb whose object is a clause of its own ("understand what I pay",
    "know where she is"): only a verb takes one, so the first word is a verb however rare."""
    first = words[0]
    return (
        len(words) > 2
        and words[1] in _WH
        and words[2] in v.subjects
        and first not in v.subjects | v.determiners | v.prepositions | v.not_content
        and first not in v.function_words
        and first.isalpha()
    )


def _clause(words: list[str], verbatim: str, shifted: str | None, v: Vocabulary) -> Phrase | None:
    """A phrase with a verb after a noun: a clause ("the lawn stays green"), or a noun with
    its own clause ("a mower I can sharpen myself", said after "You mentioned")."""
    last = len(words) - 1
    verb_at = next(
        (i for i, w in enumerate(words) if _verbish(w, v) or (w.endswith("'s") and i < last)),
        None,
    )
    if verb_at is None:
        return None
    if words[verb_at].endswith("ing") and 0 < verb_at and words[verb_at - 1] not in v.auxiliaries:
        # no verb that says it happened: "four AAs going flat in January" is said as they
        # said it, not after "You mentioned that" (round 32)
        return Phrase(verbatim, noun=f'"{verbatim}"')
    subject = list(words[:verb_at])
    if words[verb_at].endswith("'s"):  # "the garden's right": "garden" is who
        subject.append(words[verb_at].removesuffix("'s"))
    if not any(_naming(w, v) for w in subject):
        return None  # "proper fobbed off": no one who does anything
    if any(w.endswith("'s") for w in words[:last]):
        return Phrase(verbatim, clause=f'"{verbatim}"')  # a possessive, or "is"
    inner = next(
        (
            i
            for i in range(1, verb_at)
            if words[i] in v.subjects
            or (words[i] in v.determiners and words[i - 1] not in v.prepositions)
        ),
        0,
    )
    # "a mower I can sharpen myself", "the old one you had to thread" (dev reading set: "You
    # mentioned that the old one you had to thread")
    named = inner > 1 and all(w not in v.not_content or w in _ONES for w in words[1:inner])
    if named and words[0] in v.determiners and shifted is not None:
        return Phrase(verbatim, noun=shifted)
    return Phrase(verbatim, clause=shifted or f'"{verbatim}"')


def _phrase(tokens: Sequence[Token], start: int, end: int, v: Vocabulary) -> Phrase | None:
    """The clean phrase around ``tokens[start:end]`` (where the label was found), or None."""
    if _closing_object(tokens, end):
        end += 1  # "I never charge it.": the label dropped the "it" its verb ends on
    start, lead = _widen(tokens, start, v)
    sentence_start = start == 0 or tokens[start - 1].norm in _SENTENCE_END
    texts = _lowered([t.text for t in tokens[start:end]], sentence_start)
    words = [t.norm for t in tokens[start:end]]
    if not lead:
        words, texts, lead = _verb_lead(words, texts)
    cut = _verdict_subject(words, v)
    if cut is not None:
        words, texts = words[:cut], texts[:cut]
        if texts[-1].lower().endswith(("'s", "’s")):
            texts[-1], words[-1] = texts[-1][:-2], words[-1][:-2]
    if words[:1] == ["me"] and not _noun_like(words[1:], v):
        words, texts = words[1:], texts[1:]
    if len(words) > 2 and words[0] in _SO_FAR and words[1] in v.subjects:
        words, texts = words[1:], texts[1:]  # "now she can do it alone": she can do it alone
    body = words[1:] if words and (words[0] in v.determiners or words[0] == "me") else words
    closed = end >= len(tokens) or not tokens[end].word
    if not body or not _clean(body, v, closed) or _cut_short(tokens, end, v):
        return None
    if words[0] in _CONDITIONS or _conditional(tokens, start, v):
        # "What would have helped when 'if you dont grab a slot by sunday'?"; "so if Im stuck
        # in traffic" is no "You said you're stuck in traffic" (round 35)
        return None
    if "not" in body and _noun_like(words, v):
        return None  # "the bus not the train": a correction's fragment, not a phrase
    if words[0] in v.determiners and len(words) == 1:
        return None
    return _compose(words, texts, lead, v)


_WHEN = frozenset("next last same whole other following day week morning night time".split())
# When, before the clause that says what: "now she can do it alone", "then I can relax".
_SO_FAR = frozenset("now then".split())
# A condition is half of what was said (round 25, said back as an event of a journey)
_CONDITIONS = frozenset("if unless whether".split())
# What a cut-off phrase ends on when its sentence runs on: "whether they remember how | I like
# it", "the router simply | died" (round 19)
_RUNS_ON = frozenset(
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
}
# How it ended, after an emphatic "did": "it did end | well in the end" (round 49: "You said
# it did end. What happened next?")
_HOW_IT_WENT = frozenset("well badly ok okay fine alright nicely happily up".split())
# What points back as a verb's object: "no mattress fixes | that" (round 49: "You mentioned
# that no mattress fixes.")
_POINTED_OBJECT = frozenset("that this it".split())
_MODALS = frozenset("can could will would should might must may".split())
_NEGATIVE_MODALS = frozenset("can't cannot won't couldn't wouldn't shouldn't".split())
_PARTICLES = frozenset("up out off down over".split())
_LET_IN = frozenset("in back round".split())
# what may follow a verb's particle to say when: "packed in | on a Saturday"
_WHEN_AFTER = frozenset("on at during after before last this yesterday today when".split())
# Verbs that join a word saying what someone is or feels: "feel | sorry", "look | the part".
_LINKING = frozenset("feel feels felt look looks looked seem seems seemed sound sounds".split())
# Verbs of becoming, said with how: "the whole shift starts | bad", "it goes | wrong".
_BECOMING = frozenset("starts started goes went turns turned ends ended".split())
# What happens, said with when: "I see what happens | when people leave things".
_HAPPENING = frozenset("happens happened happen".split())
# Prepositions a clause can end on, belonging to what came before: "proud of", "paid for".
_STRANDED = frozenset("of for with about to on in at from into".split())
_PERSONS = frozenset("i we he she they".split())  # no object of a preposition
_ADVERB_PARTICLES = frozenset("back round along across away".split())
_DIRECTED = frozenset("to into onto towards".split())  # where the particle's going goes
_TIME_DETERMINERS = frozenset("every each all last next this most".split())
_ENDING_UP = frozenset("end ends ended ending".split())
_EMPTY_NOUNS = frozenset("question questions answer answers point bit bits thing things".split())
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


# Besides the vocabulary's light verbs ("gets | in the way"): "takes | ages".
_TAKING = frozenset("take takes took".split())
# Words that wait for the clause that says which, besides the stand-ins ("something | that
# doesn't fall over"): "the one | that ...", "the thing | which ..."
_HOLLOW = frozenset("one ones thing things".split())


def _closing_object(tokens: Sequence[Token], end: int) -> bool:
    """An "it" or "them" that ends its clause right after the phrase."""
    if end >= len(tokens) or tokens[end].norm not in ("it", "them"):
        return False
    return end + 1 == len(tokens) or not tokens[end + 1].word


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
    if (nxt in _EMPTY_NOUNS or the_one) and last not in v.function_words:
        return True  # "a weird | question", "the hard | bit": cut before its own noun
        # ("the grip on wet rock is the big | one", round 51: "You said ... is the big.")
    if _one_word_more(tokens, end, v):
        return True  # "I can't turn up to a home visit | sweaty." (round 32: said back
        # without it, the opposite of what she said)
    if is_count(last) and (nxt in MEASURE_UNITS or is_money(nxt)):
        return True
    closes = after == "" or not tokens[end + 1].word
    ends = closes or after == "of" or after in v.clause_breaks
    if last not in v.function_words and nxt in _PARTICLES and ends:
        # "the price adds | up": the verb's own particle closes the clause; "never have to
        # worry about running | out (of data), which ..." (round 53: "Why does never having
        # to worry about running matter to you?")
        return True
    if last in _PERSONS and nxt not in v.clause_breaks and nxt[:1].isalpha():
        return True  # "I wanna know how they | did it" (round 38): a subject cut from its verb
    if last.endswith("ed") and nxt in _PARTICLES | {"in"} and after in _WHEN_AFTER:
        return True  # "the card terminal packed | in on a Saturday" (round 43): its particle
    if last in _OBJECT_PRONOUNS and nxt in _PARTICLES | _LET_IN:
        return True  # "I could just let him | in" (round 36), "pick her | up from school"
    if nxt in _PARTICLES | {"away", "back"} and _phrasal_before(tokens, end):
        return True  # "the kids have to pick their chargers | up off the floor" (round 50)
    if (last in v.stand_ins or last in _HOLLOW) and nxt in ("that", "which", "who"):
        return True  # "a tenner more for something | that doesn't fall over"
    if (
        last in _ANYONE
        and nxt not in v.clause_breaks
        and ((end >= 2 and _naming(tokens[end - 2].norm, v)) or nxt in _COPULAS | _MODALS)
    ):
        # "the bloke everyone | on the close moans about" (round 43), "it felt like nobody |
        # was there" (round 48: "You said it felt like nobody."): its verb follows
        return True
    if last in _MODALS | _NEGATIVE_MODALS and (nxt in v.verbs or nxt not in v.function_words):
        # "whether you can | do the whole day", "something I can't | get back" (round 29),
        # "signal on site so customers can | reach me" (round 37)
        return True
    if nxt in _MODALS and any(t.norm in v.verbs for t in tokens[max(0, end - 6) : end]):
        return True  # "matters more than folk | would think": a clause cut off its verb
    if last in _RUNS_ON or (last.endswith("ly") and len(last) > 4 and nxt in v.verbs):
        return True
    if last in v.light_verbs or last in _TAKING:
        return True  # "what the bad extraction gets | in the way of": the verb says nothing yet
    return (
        _cut_from_its_complement(tokens, end, v)
        or _cut_from_what_completes_it(tokens, end, v)
        or _cut_from_its_manner(tokens, end, v)
    )


def _cut_from_its_manner(tokens: Sequence[Token], end: int, v: Vocabulary) -> bool:
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
        if t.norm in _COPULAS:
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
    if last in _BEFORE_HEAD and nxt[:1].isalpha() and nxt not in v.clause_breaks:
        return True  # "the near | miss" (round 46: "You talked about the near.")
    if last in _BEFORE_OBJECT and nxt in _OBJECT_PRONOUNS | {"it"}:
        return True  # "it actually works on | me" (round 46: "You talked about working on.")
    if before in ("a", "an") and nxt in ("that", "which", "who") and _naming(last, v):
        return True  # "I want a line | that stays up" (round 45)
    if nxt in _DAYS and _naming(last, v) and (not after or after in v.clause_breaks):
        return True  # "Ive got no time on shift | days so ..." (round 45): which days
    if last in _THROUGH and nxt not in v.clause_breaks | v.conjunctions and nxt[:1].isalnum():
        return True  # "she lent me her e-bike over | half term" (round 44): when follows
    if last in _BEING and nxt[:1].isalnum() and nxt not in v.clause_breaks | v.conjunctions:
        # "so I look like I know what Im | doing" (round 45), "the only irritation is when
        # something in my favourites is | out of stock" (round 45)
        return True
    return nxt == "of" and last in _OF_PREPOSITIONS  # "I cant stand in front | of a class"


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
        and (nxt in _OBJECT_PRONOUNS or nxt == "it" or nxt in v.determiners or is_count(nxt))
    ):
        # "actually costing | me money" (round 24), "i'm dragging | two kids", "not fighting |
        # it every morning" (round 28)
        return True
    if last.endswith("ing") and len(last) > 4 and nxt in ("there", "here", "around"):
        return True  # "the lock lying | there cut clean through" (round 33)
    if last.endswith("ing") and len(last) > 4 and nxt == "to" and after in _WHOM:
        return True  # "the proving | to myself i can stick at it" (round 29)
    if last in _PARTICLES | _ADVERB_PARTICLES and nxt in _DIRECTED:
        return True  # "she can still potter down | to the Hoe" (round 26)
    if last in _LINKING and nxt not in v.conjunctions | v.clause_breaks and nxt[:1].isalpha():
        return True  # "not having anyone feel | sorry for me" (round 25)
    if last in _BECOMING and _one_word_left(tokens, end, v):
        return True  # "the whole shift starts | bad" (round 35): how it starts is the point
    if last in _HAPPENING and nxt in _SUBORDINATORS | _CONDITIONS:
        return True  # "I see what happens | when people leave things" (round 35: said back
        # as "You said you see what happens", it read as "wait and see")
    if nxt in _STRANDED and (after == "" or not tokens[end + 1].word or after in _PERSONS):
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
        named = after not in v.determiners | _PERSONS | _OBJECT_PRONOUNS and _naming(after, v)
        return named and not measured
    if last in _WHEN_NOUNS and nxt in _PERSONS | {"you"}:
        return True  # "every time | he turns over" (round 28): which time follows
    if nxt in _COPULAS | {"have", "has", "had"} and _subordinate(tokens, end):
        return True  # "book at 10pm once the kids | are in bed" (round 28)
    if last == "up" and before in _ENDING_UP:
        return True  # "i dont want to end up | like my dad" (round 27): where they end up
    if last in v.past or (last.endswith("ed") and len(last) > 4 and last not in v.verbs):
        if nxt in _OBJECT_PRONOUNS or nxt == "it":
            return True  # "handled | it so well", not "| the day"
        # a participle before its noun: "no added | sugar" (round 27), "the padded | seat"
        return _naming(nxt, v) and after not in _WHEN and nxt not in _WHEN
    if nxt in v.determiners and after in _WHEN:
        return False  # "it got fixed | the next day": when, not what
    return (
        last in v.verbs
        and nxt not in v.prepositions | v.conjunctions | v.clause_breaks | v.relatives
        and nxt not in v.fillers
        and (nxt in v.subjects | v.determiners | _OBJECT_PRONOUNS or nxt in ("one", "it"))
    )


# Words typed after what was said, adding nothing to it: "keeps me fit tbh"
_AFTERTHOUGHTS = frozenset(
    "tbh tbf honestly lol haha innit dunnit ennit ngl tho imo idk though ofc obvs obvi".split()
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


def _conditional(tokens: Sequence[Token], start: int, v: Vocabulary) -> bool:
    """A condition word opens the clause ``tokens[start:]`` is in ("so if | Im stuck",
    "if the battery or | the brakes fail", round 40: "You mentioned the brakes fail")."""
    at = start - 1
    # (back to the clause's start, past no verb: "If they last it means | I'm not forever
    # breaking in new ones" is the main clause, said whatever)
    while at >= max(0, start - 5) and tokens[at].word and tokens[at].norm not in v.verbs:
        if tokens[at].norm in _CONDITIONS:
            return True
        if tokens[at].norm in v.clause_breaks - {"or", "and"}:
            break
        at -= 1
    # "When none of | it worked he just said right" (round 40: read back as "it worked")
    return start >= 2 and (tokens[start - 2].norm, tokens[start - 1].norm) == ("none", "of")


def _one_word_left(tokens: Sequence[Token], end: int, v: Vocabulary) -> bool:
    """One word, whatever it is but a filler, ends the clause after ``end``."""
    rest = list(takewhile(lambda t: t.word and t.norm not in v.clause_breaks, tokens[end:]))
    return len(rest) == 1 and rest[0].norm not in _AFTERTHOUGHTS | v.fillers


def _hedge_at(tokens: Sequence[Token], at: int, v: Vocabulary) -> bool:
    """A phrase that names nothing ("i guess", "to be honest") starts at ``tokens[at]``."""
    norms = tuple(t.norm for t in tokens[at : at + 4])
    return any(norms[: len(p)] == p for p in v.not_content_phrases)


def _sources(answers: Sequence[str], quotes: Sequence[str]) -> list[str]:
    """The answers to look in: those holding one of the node's quotes first, newest first."""
    said = [" ".join(words_of(q)) for q in quotes if q.strip()]
    ordered = list(reversed(answers))
    holding = [a for a in ordered if any(q and q in " ".join(words_of(a)) for q in said)]
    return holding + [a for a in ordered if a not in holding]


_OBJECT_PRONOUNS = frozenset("me us him her them you myself".split())
MENTION_DETERMINERS = {"the": "the", "my": "your", "our": "your", "your": "your", "a": "the"}
MENTION_DETERMINERS |= {"an": "the", "this": "the", "that": "the", "these": "the"}
MENTION_DETERMINERS |= {"those": "the", "his": "his", "her": "her", "their": "their"}


def _naming(w: str, v: Vocabulary) -> bool:
    """A word that may name a thing: no function word, no word that names nothing, no verb."""
    return (
        len(w) > 2
        and not w[0].isdigit()
        and w not in v.function_words
        and w not in v.not_content
        and not _verbish(w, v)
        and not _adverb(w)
    )


# Nouns that end as an adverb does
_LY_NOUNS = frozenset("family belly jelly rally ally lily bully assembly supply fly july".split())


def _adverb(w: str) -> bool:
    """ "simply", "really", "finally": no thing ("your broadband router simply")."""
    return len(w) > 4 and w.endswith("ly") and w not in _LY_NOUNS


def _mention_in(w: str, tokens: Sequence[Token], v: Vocabulary) -> str:
    for i, t in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if t.norm != w or (
            nxt is not None and nxt.word and _naming(nxt.norm, v) and nxt.norm not in _RUNS_ON
        ):
            continue  # not the head of its phrase: "the retail" of "the retail park"
        if nxt is not None and nxt.norm in ("a", "an"):
            continue  # a verb: "the kids deserve | a teacher" is no "the kids deserve"
        if nxt is not None and nxt.word and nxt.norm in _EMPTY_NOUNS:
            continue  # "the weird | question" (round 32: "You mentioned the weird.")
        if nxt is not None and (nxt.norm in _OBJECT_PRONOUNS or nxt.norm in _PARTICLES):
            continue  # a verb: "that shook me up" is no "the shook", "adds up" no "the adds"
        if nxt is not None and nxt.norm in _POINTER_HEADS:
            continue  # "the useful bit": its head names nothing, and "the useful" is no thing
        if w.endswith("ing") and nxt is not None and nxt.norm in ("to", "that", "myself"):
            continue  # "the proving | to myself i can stick at it" (round 29): no thing alone
        if nxt is not None and nxt.norm == "of" and i + 2 < len(tokens) and tokens[i + 2].word:
            continue  # "peace of mind" is no "peace" (round 27: "the same peace")
        if w in _EMPTY_HEADS:
            continue  # "the same" of "same as with the lawn" (round 25)
        if nxt is not None and nxt.word and _cut_from_its_manner(tokens, i + 1, v):
            continue  # "the way my late wife | liked it": the subject of a manner clause
        # a verb's form is a noun only right after its determiner ("the fit"); further on it
        # is the verb of another phrase ("the lawn's done")
        # (a doing after a noun is no head: "the lock lying there cut" is no "the lock
        # lying", round 33)
        for back in (1,) if _verbish(w, v) or w.endswith("ing") else (1, 2, 3):
            j = i - back
            if j < 0 or not all(tokens[k].word for k in range(j, i)):
                break
            det = MENTION_DETERMINERS.get(tokens[j].norm)
            between = [tokens[k].norm for k in range(j + 1, i)]
            if det is not None and all(_naming(b, v) and b not in _EMPTY_HEADS for b in between):
                return " ".join([det, *(tokens[k].text for k in range(j + 1, i + 1))])
        doing_to = nxt is not None and (
            nxt.norm in v.determiners | _OBJECT_PRONOUNS or is_count(nxt.norm)
        )
        after_noun = i > 0 and _naming(tokens[i - 1].norm, v)  # "the lock | lying"
        if w.endswith("ing") and w not in v.verbs | _FEELING_WORDS | _EMPTY_DOINGS:
            if not doing_to and not after_noun:  # "dragging | two kids" (round 25)
                return t.text.lower()  # "charging", not "making", nor "annoying" (round 24)
    return ""


_NEGATING = frozenset("no not never without less fewer zero nor".split())
# Doings that name nothing without what they are done to or how: "You talked about looking"
# of "looking like an actual professional" (round 25), "talking", "knowing", "starting"
_EMPTY_DOINGS = frozenset(
    """being having doing getting going looking feeling seeming becoming making taking coming
    starting knowing talking saying thinking trying wanting needing using""".split()
)
# (nor a word that only ever stands before its head: "the near | miss", round 46)
_BEFORE_HEAD = frozenset("near main whole".split())
_EMPTY_HEADS = frozenset("same other rest way".split()) | _BEFORE_HEAD
# a copula, or a subject with its copula typed on: "is | out of stock", "what Im | doing"
_BEING = _COPULAS | frozenset("i'm we're you're they're he's she's".split())
_BEFORE_OBJECT = frozenset("on in at to for with about from by into onto".split())
_DAYS = frozenset("day days night nights morning mornings evening evenings weeks".split())
_THROUGH = frozenset("over during until till since throughout".split())
_OF_PREPOSITIONS = frozenset("front top side middle instead because ahead outside inside".split())
_ANYONE = frozenset("everyone everybody someone somebody nobody anyone anybody".split())
# Words of liking and disliking: an "-ing" among them says how, it names no doing
_FEELING_WORDS = NEGATIVE_WORDS | POSITIVE_WORDS
# Heads of a phrase that name nothing by themselves: "the useful bit", "the hard part".
_POINTER_HEADS = frozenset(
    "bit bits part parts thing things one ones side stuff lot "
    # where in a story: "it did end well in the end" (round 49 would have said "the end")
    "end start beginning middle".split()
)


def mention(label: str, answers: Sequence[str]) -> str:
    """A noun of the label that the respondent used, with its determiner ("the charger",
    "your kids") or a gerund ("charging"); "" when none is sure."""
    v = vocabulary()
    said = words_of(label)
    # "the bus, not the train": what follows a "not" is what they did not mean
    said = said[: said.index("not")] if "not" in said else said
    for i in reversed(range(len(said))):
        w = said[i]
        if w in _ANYONE or w in _POINTER_HEADS or w in _RUNS_ON:
            continue  # "nobody could tell" is no "the nobody" (round 44), "the part" no thing,
            # "a teacher whos" no "the teacher whos" (round 49)
        # a verb's form may still be a noun: ``_mention_in`` wants a determiner before it
        if not (_naming(w, v) or w in v.verbs and w not in v.not_content):
            continue
        if any(before in _NEGATING for before in said[:i]):
            continue  # "no arguing" is not "arguing", nor "less scared of ruining" "ruining"
        for answer in reversed(answers):
            found = _mention_in(w, tokenize(answer), v)
            if found:
                return found
    return ""


def from_answer(label: str, quotes: Sequence[str], answer: str) -> bool:
    """Whether the focus came from ``answer``: one of its quotes, or all its content words,
    are in it."""
    said = " ".join(words_of(answer))
    if any(q.strip() and " ".join(words_of(q)) in said for q in quotes):
        return True
    v = vocabulary()
    content = [w for w in words_of(label) if _content([w], v) and len(w) > 2]
    return bool(content) and set(content) <= set(said.split())


_DISLIKING = frozenset("hate hates hated loathe loathes dislike dislikes detest detests".split())


def phrase_for(label: str, answers: Sequence[str], quotes: Sequence[str] = ()) -> Phrase | None:
    """The clean phrase of the respondent's that the label stands for, or None."""
    v = vocabulary()
    target = words_of(label)
    if not target or not _content(target, v) or _holds_empty_phrase(target, v):
        return None
    # A label may open with a word the reader added ("feel peace of mind" for "gives me
    # peace of mind"): without it, the rest is looked for too.
    tries = [target]
    if len(target) > 1 and target[0] in _DISLIKING:
        # "hate the hill": what is held against is the hill; "You mentioned hating the hill.
        # Why does that bother you?" asks why the dislike bothers them
        tries = [target[1:]]
    elif len(target) > 1 and (target[0] in v.verbs or target[0] in v.function_words):
        # (never past a negation: "don't want to feel" is no "wanting to feel", round 28)
        if target[0] not in NEGATIONS and not target[0].endswith(("n't", "nae", "nt")):
            tries.append(target[1:])
    for words in tries:
        found = False
        for answer in _sources(answers, quotes):
            tokens = tokenize(answer)
            span = _find(words, tokens, v)
            found = found or span is not None
            phrase = None if span is None else _phrase(tokens, span[0], span[1], v)
            if phrase is not None:
                return _named(phrase, answers)
        if found:
            return None  # said, but no clean phrase: not a shorter one of its words either
    return None


def _named(phrase: Phrase, answers: Sequence[str]) -> Phrase:
    """``phrase`` with the names the respondent wrote with a capital mid-sentence written so
    at the start of their sentence too ("Jamie phoned the next morning" was said back "You
    mentioned that jamie phoned the next morning", round 35: "called Jamie" was in an answer)."""
    names = _names(tuple(answers))
    if not names:
        return phrase

    def cased(text: str) -> str:
        return re.sub(r"\b[a-z]+\b", lambda m: names.get(m.group(0), m.group(0)), text)

    verbatim, noun, clause = (cased(t) for t in (phrase.verbatim, phrase.noun, phrase.clause))
    return replace(phrase, verbatim=verbatim, noun=noun, clause=clause)


@lru_cache(maxsize=64)
def _names(answers: tuple[str, ...]) -> dict[str, str]:
    """Words written with a capital mid-sentence and never in lower case, no function word:
    names ("Jamie"), not "The train" or "May" (once per interview's answers, not per phrase)."""
    v = vocabulary()
    lower = {w for a in answers for w in re.findall(r"\b[a-z][a-z']*\b", a)}
    return {
        m.group(0).lower(): m.group(0)
        for a in answers
        for m in TITLED.finditer(a)
        if m.group(0).lower() not in lower | v.function_words | _MODALS | {"i"}
    }


def cut_short(words: str, answers: Sequence[str]) -> bool:
    """Whether ``words``, found in the newest answer that holds them, stop where their clause
    runs on ("whether they remember how | I like it"): a quote or a label cut there reads as
    their words broken off. False when no answer holds them."""
    v = vocabulary()
    target = words_of(words)
    if not target:
        return False
    for answer in reversed(answers):
        tokens = tokenize(answer)
        span = _find(target, tokens, v)
        if span is not None:
            end = span[1] + (1 if _closing_object(tokens, span[1]) else 0)
            return _cut_short(tokens, end, v)
    return False


def gapped(words: str, answers: Sequence[str]) -> bool:
    """Whether ``words`` are a respondent's words with some of theirs left out between them:
    every one of them in one answer, but in none one after another (case and punctuation
    aside). A paraphrase (a model's label, with words of its own) is no such fragment."""
    target = words_of(words)
    if not target:
        return False
    line = f" {' '.join(target)} "
    if any(line in f" {' '.join(words_of(a))} " for a in answers):
        return False
    return any(set(target) <= set(words_of(a)) for a in answers)
