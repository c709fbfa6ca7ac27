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
  "You talked about the charger." (``mentions``);
- otherwise the question asks about "that" (the answer just given, when the focus came from
  it) or about something surely content (the topic; see ``questions``). Which of them a
  question uses is ``reference.refer``'s choice.

The answer's tokens and which words name something are ``tokens``; where a phrase stops
short (a quote that would be cut off) is ``stops``. Pure functions of the label, the node's
quotes and the respondent's answers (English).

Over 1,000 lines: one concept, where a clean phrase of the respondent's starts and ends around
a label, each widening or cut weighed against the others in ``_phrase``; the words it knows are
``vocabulary`` and the cuts ``stops``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import dropwhile, takewhile

from interview_cli.core.text import NEGATIONS
from interview_cli.llm.offline.asking.stops import (
    CONDITIONS,
    MODALS,
    PERSONS,
    SAYING,
    SO_FAR,
    _cut_short,
    closing_object,
    conditional,
    leads_a_doing,
)
from interview_cli.llm.offline.asking.tokens import (
    COPULAS,
    OBJECT_PRONOUNS,
    TYPED_CONTRACTIONS,
    Token,
    _content,
    _naming,
    adverb,
    holds_empty_phrase,
    tokenize,
    verbish,
    words_of,
)
from interview_cli.llm.offline.asking.vocabulary import Vocabulary, vocabulary
from interview_cli.llm.offline.lexicon import (
    FEELING_WORDS,
    FELT_WORDS,
    TITLED,
)
from interview_cli.llm.offline.lexicon.phrases import phrase_pattern
from interview_cli.llm.offline.reading.content import is_count

MAX_QUOTE_WORDS = 8  # a longer quote is a speech read back, not a phrase


MAX_GAP = 3  # words of the answer a label may have dropped and still be found


SENTENCE_END = frozenset(".!?")


_PLURAL_WORDS = frozenset("people children men women feet teeth mice geese folk".split())


_SINGULAR_ENDS = ("ss", "us", "is", "'s", "ics", "ness")


_CAUSATIVES = frozenset("makes make made gets get got".split())


_ING_NOUNS = frozenset("something nothing anything everything thing string spring".split())


_IRREGULAR_GERUNDS = {"be": "being", "see": "seeing", "die": "dying", "lie": "lying"}


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


# Verbs whose base form ends in "ing" ("i just bring a flask" was asked "You talked about
# bring a flask", round 125)
_BASE_ING = frozenset("bring ring sing swing sting string spring fling cling sling wring".split())


def _gerund(verb: str, v: Vocabulary) -> str | None:
    """The -ing form: "focus" -> "focusing", "stays" -> "staying", "make" -> "making"; None
    for a past form."""
    if verb.endswith("ing") and verb not in _BASE_ING:
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
        # ("round" after a noun is the preposition: "the traffic lights round the centre",
        # round 95: "What is the traffic lights round the centre like for you?")
        if w in v.prepositions or w in v.relatives or (w == "round" and head):
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
        if (
            i > 1
            and norms[i - 2] in _SAYS
            and norms[i - 3 : i - 2] in (["she"], ["he"], ["they"])
            and (norms[i - 1] in _SPOKEN)
        ):
            # what someone said is theirs: "she said oh yes that's our mistake" (round 213
            # said back "that's your mistake")
            return " ".join([*out, *texts[i:]])
        after_i = i > 0 and norms[i - 1] == "i"
        if n in _SAID_BACK_WITHOUT and 0 < i < len(texts) - 1:
            continue  # "that's honestly the one": a hedge of theirs, not ours to repeat
        spelled = TYPED_CONTRACTIONS.get(n)  # "didnt" said back as "didn't", "im" as "you're"
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
            # ("me early shift": a dialect's "my" before a word of either kind with its noun
            # after it; "rang me early" ends on it, the reviews)
            after_it = (
                nxt in _LY_EITHER and i + 2 < len(norms) and norms[i + 2] not in v.function_words
            )
            if i > 0 and norms[i - 1] in v.enablers:
                out.append("you")
            elif (
                not nxt
                or nxt in v.prepositions
                or nxt in _AFTER_AN_OBJECT | _ON_OFF
                # (no possessive before an article: "sat with me a whole hour", round 217 said
                # back "sat with your a whole hour")
                or nxt in _ARTICLES
                or (nxt.endswith("ly") and len(nxt) > 4 and nxt not in _LY_NOUNS and not after_it)
            ):
                # "keeps me in a job": an object before its place; "more like me again" (round
                # 82 was asked about "feeling a bit more like your again")
                out.append("you")
            elif i == 0 or norms[i - 1] in v.prepositions:
                out.append("your")  # "me kids", "me own chain": many dialects' possessive
            elif nxt in v.function_words:
                out.append("you")
            else:
                return None
        else:
            out.append(text)
    return " ".join(out)


# Prepositions the word lists leave out (function_words.yaml): "around me on site" is no
# "around your on site" (round 200)
_ON_OFF = frozenset({"on", "off"})
_ARTICLES = frozenset({"a", "an", "the"})
# (said as spoken, opening with an interjection; "they said my account was frozen" is the
# respondent's account, said back as theirs, the review)
_SAYS = frozenset({"said", "says", "goes"})
_LY_EITHER = frozenset("daily weekly monthly yearly early lonely".split())
_SPOKEN = frozenset("oh yes yeah no well sorry right ok okay look ah".split())
# Nouns and adjectives in "-ly", no adverbs: "with me family", "me daily routine" (an adverb
# after "me" is its verb's: "wrote to me properly", round 211 said back "wrote to your properly")
_LY_NOUNS = frozenset(
    "family belly jelly lolly bully rally telly holly tally folly lovely only friendly silly "
    "ugly holy likely elderly".split()
)
# Adverbs that follow an object, never a possessive's noun ("like me again")
_AFTER_AN_OBJECT = frozenset("again too now anymore though tho really then still".split())


# Words of theirs a moderator leaves out when saying back what they said (round 28: "You
# said thats honestly the one you'd tell anyone", "your hair literally ruined")
_SAID_BACK_WITHOUT = frozenset("honestly literally basically tbh ngl lol haha obvs obvi".split())


def _as_noun(words: Sequence[str], i: int, v: Vocabulary) -> bool:
    """Whether the verb form ``words[i]`` is a noun here: right after a determiner ("the fit",
    "a charge"), or a plain form one word after it ("a clean cut"; but "the lawn stays", "the
    barista knew": a verb)."""
    w = words[i]
    if i > 0 and words[i - 1] in v.determiners:
        return True
    plain = not w.endswith(("s", "ed")) and w not in v.past and w not in v.auxiliaries
    # ("the vet put | her on a sensitive one": a verb with its object, round 26)
    done_to = i + 1 < len(words) and words[i + 1] in OBJECT_PRONOUNS | {"it"}
    if i == 2 and words[0] in v.determiners and plain and not done_to:
        return True
    if _describing(words, i, v):
        return True
    # a counted thing at the phrase's end: "a 12 month fix", "a two year warranty"
    between = words[1:i]
    return (
        i == len(words) - 1
        and words[0] in v.determiners
        and plain
        and any(is_count(w) for w in between)
        and not any(verbish(w, v) for w in between)
    )


def _describing(words: Sequence[str], i: int, v: Vocabulary) -> bool:
    """A past form that describes the noun after it, which ends the phrase: "an actual named
    human" (round 205 asked "You mentioned that an actual named human."), "a broken screen";
    not "the lawn stayed green", whose past form follows a noun."""
    if not words[i].endswith("ed") or i != len(words) - 2 or words[0] not in v.determiners:
        return False
    before = words[i - 1]
    last = words[-1]
    return (
        (i == 1 or before in _PLAIN_ADJECTIVES)
        and not verbish(last, v)
        and (last not in v.prepositions | v.determiners | OBJECT_PRONOUNS)
    )


_SUBJECTLESS = frozenset("gotta gonna wanna got has have need needs must should can could".split())
_EXCLAIMING = frozenset("funny strange weird typical amazing mad crazy shame who'd whod".split())
_PLAIN_ADJECTIVES = frozenset("actual real proper new old brand well badly fully newly".split())
_WHEN_CLOSING = frozenset("now then again anymore nowadays today".split())


def _finite(w: str, v: Vocabulary) -> bool:
    """A verb with its tense: "is", "takes", "went" (not "taking", nor "take")."""
    third = w.endswith("s") and not w.endswith("ss") and len(w) > 3  # not "access", "dress"
    return w in COPULAS or w in v.past or (w in v.verbs and third)


# Words that stand between a subject and its verb, never inside a noun phrase: "the boots
# actually grip on wet rock" is a clause (round 75 asked "Why does the boots actually grip on
# wet rock matter to you?")
BEFORE_A_VERB = frozenset("actually always never still also".split())


def _noun_like(words: Sequence[str], v: Vocabulary) -> bool:
    """No verb, no subject, no relative: the phrase fits "Why does ... matter to you?". A
    word with "'s" inside the phrase may be a verb ("the fella's dead handy"): not a noun,
    nor one closed by when ("a chain now": round 50 asked "Tell me more about a chain now")."""
    if words and (words[-1] in _WHEN_CLOSING or _an_adverb(words[-1])):
        return False  # (nor one closed by how: "your job properly", round 154)
    if _HOW_MUCH_CLOSING.search(" ".join(words)):
        # (nor by how much: "my games lag like mad", round 274 asked "What difference does
        # your games lag like mad make for you?")
        return False
    for i, w in enumerate(words):
        if i == 0 and w == "me":
            continue  # "me kids": a possessive
        if w in v.subjects or w in v.relatives or w == "me":
            return False
        if i > 0 and w in BEFORE_A_VERB:
            return False
        # "like" in "a clean cut like the bowling green" is no verb, nor "do" in "something
        # to do in the garage"
        infinitive = i > 0 and words[i - 1] == "to"
        if verbish(w, v) and w not in v.prepositions and not infinitive:
            if not _as_noun(words, i, v):
                return False
        if w.endswith("'s") and i < len(words) - 1:
            return False
    return True


_HOW_MUCH_CLOSING = re.compile(
    r"\b(?:like\s+(?:mad|crazy|hell|anything|nobody's\s+business)|all\s+the\s+time|every\s+time|"
    r"constantly|non[\s-]?stop)$"
)


def _doing(w: str, v: Vocabulary) -> bool:
    """A word of doing that may lead a clause ("doing it properly is ..."), light or not."""
    return gerund_led(w, v) or (w.endswith("ing") and len(w) > 4)


def _an_adverb(w: str) -> bool:
    """ "properly", "quickly": a word of how, which closes no noun phrase (not "a brolly")."""
    return adverb(w) and len(w) > 6


def gerund_led(w: str, v: Vocabulary) -> bool:
    """ "drinking it hot", "getting the night bus": a phrase that is already a noun."""
    return (
        len(w) > 4
        and w.endswith("ing")
        and w not in v.not_content
        and w not in _ING_NOUNS
        and w not in _BASE_ING
    )


# (said not to be so too: "being tired all the time isn't great" is about being tired, round
# 239 asked "What does being tired all the time isn't great make harder for you?")
_VERDICT_VERBS = COPULAS | frozenset("isn't isnt aren't arent wasn't wasnt weren't werent".split())


def _verdict_subject(words: Sequence[str], v: Vocabulary) -> int | None:
    """Where the subject ends in "the noise cancelling is proper good" (a verdict about a
    thing is about the thing): the index after the subject, or None."""
    for i, w in enumerate(words):
        tail = words[i + 1 :]
        if i == 0 or not tail:
            continue
        # (not a wh-word's: "know exactly what's going out" is what is, round 215 asked "You
        # said you know exactly what's.")
        said_of = w in _VERDICT_VERBS or (w.endswith("'s") and w[:-2] not in WH_WORDS)
        if said_of and all(t in v.not_content or t in v.function_words for t in tail):
            return i + 1 if w.endswith("'s") else i
    return None


# Words that end a phrase whole where its clause ends, though mid-clause they wait for more:
# "lost without her." ("her" of "her car"), "I belong there." ("there" of "there is"),
# "one less thing to worry about." ("about" of "about the price")
# ("worry about" is no phrase: a verb and its particle, "worrying about" said back)
_AT_LEAST = {"her": 1, "there": 1, "here": 1, "about": 2}
_ENDS_AT_CLAUSE_END = frozenset(_AT_LEAST)
_DOES_NOT = frozenset("doesn't don't didn't won't".split())


# A liking that ends its clause after its doer or its "don't" is the clause's verb, no filler:
# "the part I dont like" (round 183 asked about "dark is the part I dont")
_LIKINGS = frozenset("like love hate mind".split())
_BEFORE_A_LIKING = frozenset(
    "i we they you he she don't dont didn't didnt doesn't doesnt wouldn't wouldnt really".split()
)


def _verb_of_the_clause(words: Sequence[str]) -> bool:
    return len(words) >= 3 and words[-1] in _LIKINGS and words[-2] in _BEFORE_A_LIKING


# A subject and its verb in one word ends no phrase: "Mitzi rides on it sometimes like shes" (the
# Queen of Sheba) was read back in round 232's summary
_SUBJECT_AND_VERB = re.compile(
    r"^(?:(?:i|you|we|they|he|she|it)'(?:m|ve|d|ll|re|s)|shes|hes|theyre|youre|im|ive|weve)$"
)


def _sorting(words: Sequence[str]) -> bool:
    """ "sort" is the hedge "sort of" only before "of": "sort my own house out" is a doing (a
    typed lawnmower interview's value was never read back)."""
    return words[0] == "sort" and len(words) > 1 and words[1] != "of"


def _clean(words: Sequence[str], v: Vocabulary, closed: bool = False) -> bool:
    """Whole, short and content: no cut-off edge, no second clause, no empty phrase inside.
    ``closed``: the phrase ends where its clause does (a stop, a comma or the answer's end)."""
    # a verb that wants an object ends a phrase whole after "what": "what I want", "what I love"
    ended = (
        (words[-1] not in v.dangling_end and not _SUBJECT_AND_VERB.match(words[-1]))
        or (words[-1] in v.verbs and "what" in words[:-1])
        or _verb_of_the_clause(words)
        or (closed and words[-1] in _ENDS_AT_CLAUSE_END and len(words) > _AT_LEAST[words[-1]])
    )
    return (
        0 < len(words) <= MAX_QUOTE_WORDS
        and words[0] not in v.dangling_start
        and (words[0] not in v.fillers or _sorting(words))
        and ended
        and (words[-1] not in v.fillers or _the_good_stuff(words, v) or _verb_of_the_clause(words))
        and not any(w in v.clause_breaks for w in words[1:])
        and _content(words, v)
        and not holds_empty_phrase(words, v)
        # "I look at | is the portion sizes": a preposition before a copula closes a clause
        # that began before the phrase ("the first thing I look at is ...", round 26)
        and not any(
            a in v.prepositions and b in COPULAS for a, b in zip(words, words[1:], strict=False)
        )
    )


def lowered(texts: list[str], sentence_start: bool) -> list[str]:
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
    if prev in _MADE_TO and prev2 in _CAUSATIVES and verbish(tokens[start].norm, v):
        # "makes it feel less lonely": "feeling less lonely"; not "get it all | I end up
        # going round" (round 270 asked "You mentioned alling you end up going round.")
        return start, "-ing"
    if prev == "its" and (start < 2 or not tokens[start - 2].word):
        return start, ""  # "its fine, its laundry": "it's" typed, no possessive (round 73)
    if prev in _OBJECT_TOO and prev2 in v.verbs:
        return start, ""  # "I just have it | black now": its object, no "it black now" (round
        # 189 asked "You said it black now.")
    if prev == "the" and tokens[start].norm == "one" and _who_was(tokens, start - 1, v):
        return start - 3, ""  # "I was the one chasing every time" (round 210: "the one ...")
    if prev in v.determiners or prev in v.subjects:
        return start - 1, ""
    if prev == "me" and prev2 in v.enablers and not _a_doing(tokens[start].norm):
        # (not a doing already: "you meant me changing to the bike" was said back "being able
        # to changing to the bike", round 227)
        return start, "being able to"
    if prev == "me" and prev2 not in v.verbs:
        return start - 1, ""  # "me kids": kept only if it reads as a possessive (``_shift``)
    if prev in v.auxiliaries and prev2 in v.subjects:
        return start - 2, ""
    return start, ""


def _a_doing(word: str) -> bool:
    """A gerund, not a verb that ends so ("fling", "bring", "sing": the review)."""
    return word.endswith("ing") and len(word) >= 5 and word not in _BASE_ING


# (and "going", "doing", "being", "using" are doings: the review)
_BASE_ING = frozenset(
    "bring fling sling sting cling swing spring string wring thing sing ring king wing".split()
)


def _who_was(tokens: Sequence[Token], article: int, v: Vocabulary) -> bool:
    """A subject and its "was"/"am" just before the article: "I was | the one"."""
    if article < 2 or not all(t.word for t in tokens[article - 2 : article]):
        return False
    who, was = tokens[article - 2].norm, tokens[article - 1].norm
    return who in v.subjects and was in ("was", "am", "were", "is", "are")


# Subjects that are objects too, after their verb ("have it black", "want you there")
# (not "you": "it lets you switch off" is who can, from the review)
_OBJECT_TOO = frozenset({"it"})


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


_DO = frozenset("do does did".split())
_WHOSE = frozenset("my our his her their".split())


def _leading_gerund(words: list[str], v: Vocabulary) -> str | None:
    """The first word as a doing, or None: "do the lawn myself now" is "doing the lawn yourself
    now" (a typed lawnmower interview), no other auxiliary is."""
    first = words[0]
    if first in _DO and words[1:2] and (words[1] in v.determiners or words[1] in _WHOSE):
        return "doing"
    return None if first in v.auxiliaries else _gerund(first, v)


def _compose(words: list[str], texts: list[str], lead: str, v: Vocabulary) -> Phrase | None:
    """The phrase in the form a question can use, or None when no form reads right."""
    verbatim, first = " ".join(texts), words[0]
    if not lead and first in _WHEN_LEADS and len(words) > 2 and not v.subjects & set(words[2:]):
        # "after the third call went nowhere": what they said happened, said back without
        # the word that tied it to the rest ("You mentioned that after the third call went
        # nowhere." is no sentence, round 129); not when the main clause runs on after it
        # ("because they could charge me again I cancelled", from the review)
        inner = _compose(words[1:], texts[1:], lead, v)
        if inner and inner.clause:
            return Phrase(verbatim, clause=inner.clause)
    if not lead and len(words) == 2 and words[1].endswith("ing") and first not in v.subjects:
        # "cost cutting", "money saving": a doing named by what it is done to, one noun
        # (round 24: "You mentioned costing cutting")
        return Phrase(verbatim, noun=f'"{verbatim}"')
    if not lead and _verb_of_question_clause(words, v):
        lead = "-ing"  # "understand what I pay": "understanding what you pay"
    if not lead and _doing(first, v) and any(_finite(w, v) for w in words[1:]):
        # "being reliable is everything in midwifery": a clause, not a noun (round 32 asked
        # "What does being reliable is everything in midwifery do for you?", round 154 "How
        # does doing it properly is just being safe help you?")
        shifted = _shift(texts, v)
        return None if shifted is None else Phrase(verbatim, clause=f'"{verbatim}"')
    if lead and lead != "-ing" or not lead and gerund_led(first, v):
        rest = _shift(texts, v)
        return None if rest is None else Phrase(verbatim, noun=f"{lead} {rest}".strip())
    if not lead and first in _DOES_NOT and len(words) == 2 and verbish(words[1], v):
        # "doesnt break" said back as said (round 112's closing summary left it out, and the
        # peace of mind it led to, as no phrase of theirs); no noun "not breaking", which "What
        # is not breaking like for you?" would ask (from the review)
        return Phrase(verbatim, clause=f'"{verbatim}"')
    if lead == "-ing" or _led_by_a_verb(words, v):
        gerund = _leading_gerund(words, v)
        # shifted with its verb before it: "keeps me fit" is no "keeping your fit"
        whole = _shift(texts, v) if len(texts) > 1 else ""
        rest = None if whole is None else whole.split(" ", 1)[1] if whole else ""
        if gerund is None or rest is None:
            return None
        return Phrase(verbatim, noun=f"{gerund} {_and_doing(rest, v)}".strip())
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
    if words[0] in _SUBJECTLESS | _EXCLAIMING:
        # said as they said it: "gotta last the whole shift", "funny how fast they move",
        # "who'd have thought" (rounds 205, 207: "You mentioned that funny how fast ...")
        return Phrase(verbatim, noun=f'"{verbatim}"')
    return _clause(words, verbatim, shifted, v)


def _and_doing(rest: str, v: Vocabulary) -> str:
    """A second doing joined on, made a doing too: "watch anything or even answer emails" is
    "watching anything or even answering emails" (my typed interview asked "What is it about
    watching anything or even answer emails that counts for you?")."""

    def doing(match: re.Match[str]) -> str:
        verb = match.group("verb")
        gerund = _gerund(verb.lower(), v) if verb.lower() in v.verbs else None
        return match.group(0) if gerund is None else f"{match.group('lead')}{gerund}"

    return _JOINED_VERB.sub(doing, rest)


_JOINED_VERB = re.compile(r"(?P<lead>\b(?:or|and)\s+(?:even|just|also)\s+)(?P<verb>[a-z]+)\b")


def _led_by_a_verb(words: Sequence[str], v: Vocabulary) -> bool:
    """The phrase opens on its verb ("keeps me fit"), said back as a doing."""
    first, second = words[0], list(words[1:2])
    return (
        first not in v.subjects | v.determiners
        and first not in _ORDINALS
        and verbish(first, v)
        and second not in ([c] for c in COPULAS)  # "work is all spreadsheets" (round 65)
        and not (first in _ALSO_ADJECTIVES and second in (["for"], ["enough"], ["ones"]))
    )


# Words that are adjectives before "for" or "enough": "fit for work" (round 203 asked "You
# talked about fitting for work"), "clean enough", "free for the kids"; before "ones": "they
# need clean ones every morning" (round 250 asked "Why does cleaning ones matter to you?")
_ALSO_ADJECTIVES = frozenset("fit free clean clear dry warm calm open close empty tidy".split())
WH_WORDS = frozenset("what where how when why who whether".split())
# Words that tie a clause to another by when or why it happened, and say it did (not "if",
# "before", "until": what follows them may not have happened)
_WHEN_LEADS = frozenset("after since because cos".split())


_ONES = frozenset("one ones".split())
# ... and a time its clause says which: "the one time a stranger did help" (round 138 asked
# "You mentioned that the one time a stranger did help.")
_HEADS = _ONES | frozenset("time times day days moment morning night week".split())
# Words that say which of a noun, right before it: "the total cost of", not "the battery dies of"
_BEFORE_A_NOUN_OF = frozenset(
    "total full whole real actual extra same overall final monthly weekly yearly daily".split()
)
# Verbs an "of" follows: "the kids think of it as theirs" is a clause
_VERBS_OF = frozenset(
    "think thinks thought dream dreams dreamt hear hears heard know knew speak speaks spoke "
    "talk talks talked remind reminds reminded consist consists smell smells tired sick".split()
)


def _relative(w: str) -> bool:
    return w.split("'")[0] in ("who", "that", "which")


_GERUND_SUBJECTS = frozenset("it him her them me us".split())


def _verb_of_question_clause(words: list[str], v: Vocabulary) -> bool:
    """A phrase led by a verb whose object is a clause of its own ("understand what I pay",
    "know where she is"): only a verb takes one, so the first word is a verb however rare."""
    first = words[0]
    return (
        len(words) > 2
        and words[1] in WH_WORDS
        and words[2] in v.subjects
        and first not in v.subjects | v.determiners | v.prepositions | v.not_content
        and first not in v.function_words
        and first.isalpha()
    )


def _clause(words: list[str], verbatim: str, shifted: str | None, v: Vocabulary) -> Phrase | None:
    """A phrase with a verb after a noun: a clause ("the lawn stays green"), or a noun with
    its own clause ("a mower I can sharpen myself", said after "You mentioned")."""
    last = len(words) - 1
    # (a word after a preposition is its noun: "my back for work", round 136 asked "You said
    # your back for work.")
    verbs = [i for i, w in enumerate(words) if verbish(w, v)]
    nouns = {i for i in verbs if i and words[i - 1] in v.prepositions}
    verb_at = next(
        (
            i
            for i, w in enumerate(words)
            if (i in verbs and i not in nouns) or (w.endswith("'s") and i < last)
        ),
        None,
    )
    if verb_at is None and nouns and words[0] in v.determiners and shifted:
        return Phrase(verbatim, noun=shifted)  # no verb but its noun: a thing of theirs
    if verb_at is None or "to" in words[max(0, verb_at - 2) : verb_at]:
        return None  # no finite verb: "the kids to feel looked after" (round 65), "the bike
        # to still be there at 6" (round 95: "You mentioned that the bike to still be ...")
    if words[verb_at].endswith("ing") and 0 < verb_at and words[verb_at - 1] not in v.auxiliaries:
        # no verb that says it happened: "four AAs going flat in January" is said as they
        # said it, not after "You mentioned that" (round 32)
        return Phrase(verbatim, noun=f'"{verbatim}"')
    if (
        words[verb_at + 1 : verb_at + 2] == ["of"]
        and verb_at
        and (words[verb_at - 1] in v.determiners or words[verb_at - 1] in _BEFORE_A_NOUN_OF)
        and words[verb_at] not in _VERBS_OF
        and shifted
    ):
        # a noun that could be a verb, its "of" says which: "the total cost of that one
        # morning" (round 138 asked "You mentioned that the total cost of that one morning.")
        return Phrase(verbatim, noun=shifted)
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
    named = inner > 1 and all(w not in v.not_content or w in _HEADS for w in words[1:inner])
    # (not when a verb of its own closes it: "every bill I can shrink helps" is a clause, not
    # a bill: a developer's typed interview asked "Why does every bill you can shrink helps
    # matter to you?")
    closes_on_a_verb = words[-1].endswith("s") and verbish(words[-1], v)
    if named and not closes_on_a_verb and words[0] in v.determiners and shifted is not None:
        return Phrase(verbatim, noun=shifted)
    return Phrase(verbatim, clause=shifted or f'"{verbatim}"')


def _phrase(tokens: Sequence[Token], start: int, end: int, v: Vocabulary) -> Phrase | None:
    """The clean phrase around ``tokens[start:end]`` (where the label was found), or None."""
    if _doing_cut(tokens, end):
        # "don't want to have to keep | asking him": the doing the word limit cut (round 76
        # asked "You said you don't want to have to keep."), its object below
        end += 1
    if _to_cut(tokens, end):
        end += 2  # "more times than I care | to count" (round 197 asked "... than you care.")
    if closing_object(tokens, end):
        end += 1  # "I never charge it.": the label dropped the "it" its verb ends on
    elif _closing_stuff(tokens, end, v):
        end += 1  # "tastes like the good stuff.": the label dropped the noun its clause ends on
    start, lead = _widen(tokens, start, v)
    if _its_for_it_is(tokens, start) and end > start + 1:
        # "first thing is its petrol": an "it's" typed without its apostrophe, no owner
        # (round 250 asked "Why does its petrol matter to you?")
        start += 1
    sentence_start = start == 0 or tokens[start - 1].norm in SENTENCE_END
    texts = lowered([t.text for t in tokens[start:end]], sentence_start)
    words = [t.norm for t in tokens[start:end]]
    if not lead:
        words, texts, lead = _verb_lead(words, texts)
    words, texts = _before_the_verdict(words, texts, v)
    if words[:1] == ["me"] and not _noun_like(words[1:], v):
        words, texts = words[1:], texts[1:]
    if len(words) > 2 and words[0] in SO_FAR and words[1] in v.subjects:
        words, texts = words[1:], texts[1:]  # "now she can do it alone": she can do it alone
    # (an "I" leading the clause is said back as "you", no word of the phrase's length)
    lead_word = words[0] in v.determiners or words[0] in ("me", "i") if words else False
    body = words[1:] if lead_word and len(words) > 1 else words
    closed = end >= len(tokens) or not tokens[end].word
    if not body or not _clean(body, v, closed) or _cut_short(tokens, end, v):
        return None
    if _run_on(words, v):
        return None  # "every time | I rang I got someone different": two clauses, the first
        # cut from its "every time" (round 189 asked "You said you rang you got someone ...")
    if words[0] in CONDITIONS or conditional(tokens, start, v):
        # "What would have helped when 'if you dont grab a slot by sunday'?"; "so if Im stuck
        # in traffic" is no "You said you're stuck in traffic" (round 35)
        return None
    if "not" in body and _noun_like(words, v):
        return None  # "the bus not the train": a correction's fragment, not a phrase
    if words[0] in v.determiners and len(words) == 1:
        return None
    if len(words) > 2 and words[0] in FEELING_WORDS and words[1] in _FELT_OF:
        # how they felt and what of: "guilty that she was stuck on hold" is what they felt
        # (round 159 was asked "You mentioned that guilty that she was stuck on hold."); not
        # "annoying when the battery dies", "painful for my knees" (from the review)
        said = _shift(texts, v)
        return None if said is None else Phrase(" ".join(texts), clause=f"you felt {said}")
    if len(words) == 1 and _a_feeling_word(words[0]):
        # how it was, said in a word: quoted as said, no noun ("What does "stressful" get in
        # the way of for you?", round 152; "Why does disgusting bother you?", a typed one)
        return Phrase(texts[0], clause=f'"{texts[0]}"')
    if len(words) == 1 and _after_its_subject(tokens, start, v):
        return None  # "so it actually stretches": a verb, no "stretches" to ask about (round 65)
    if start and tokens[start - 1].norm in WH_WORDS:
        return None  # "what | happens if it locks": no "happening if it locks" (round 66)
    if words[0] in _DOES_NOT and start and tokens[start - 1].word:
        return None  # "They just | don't break": said back with who does not, as before
    return _compose(words, texts, lead, v)


def _before_the_verdict(
    words: list[str], texts: list[str], v: Vocabulary
) -> tuple[list[str], list[str]]:
    """The phrase without a verdict said of it (``_verdict_subject``)."""
    cut = _verdict_subject(words, v)
    if cut is None:
        return words, texts
    words, texts = words[:cut], texts[:cut]
    if texts[-1].lower().endswith(("'s", "’s")):
        texts[-1], words[-1] = texts[-1][:-2], words[-1][:-2]
    while len(words) > 1 and words[-1] in _RESTATED_SUBJECTS:
        # "the problem wasnt him | it | was the four months": the subject said again goes
        # with its verb (round 191 asked "You said the problem wasn't him it.")
        words, texts = words[:-1], texts[:-1]
    return words, texts


_RESTATED_SUBJECTS = frozenset("it that this".split())


def _run_on(words: list[str], v: Vocabulary) -> bool:
    """A subject and its verb, then another subject with no joining word: "I rang I got"; or
    with its verb run into it: "I'm at work I'd never forgive myself" (round 216 asked "You
    said you're at work you'd never forgive yourself.")."""
    # (or someone named and their verb: "Maureen went I worry about money", round 217 said
    # back "You said Maureen went you worry about money")
    named = (
        len(words) > 2
        and words[1] in v.verbs
        and words[0] not in v.function_words
        and words[0] not in v.verbs
    )
    if not words or not (words[0] in PERSONS or _PERSON_CONTRACTED.match(words[0]) or named):
        return False
    return any(
        (
            words[k] in PERSONS
            and words[k - 1] in v.verbs
            and words[k - 1] not in _SAYING_THAT  # "I think they know": one clause in another
        )
        or (
            _PERSON_CONTRACTED.match(words[k])
            and words[k - 1] not in _JOINING
            and words[k - 1] not in _SAYING_THAT  # "I swore I'd be calm": one in another
            # (a place or time ends the first clause: "I'm at work I'd"; not "I'm glad I've
            # got it", "I'm worried I'll oversleep", the review)
            and any(w in v.prepositions for w in words[1 : k - 1])
        )
        for k in range(2, len(words))
    )


_PERSON_CONTRACTED = re.compile(r"^(?:i|you|we|they|he|she)'(?:m|d|ve|ll|re|s)$")
_JOINING = frozenset(
    "and but so or because cos if when while that than as then though although since until "
    "unless where what how".split()
)


_SAYING_THAT = SAYING | frozenset(
    """reckon hope hoped feel felt guess suppose mean meant realised realized noticed found
    find bet wish believe believed tells heard hear saw see seen knows thinks swore swear
    promised promise vowed knew know thought think decided""".split()
)
_FELT_OF = frozenset("that about because cos when for at with of".split())
_FEELING_ENDS = ("ful", "ous", "ing", "ed", "less", "ive", "ible", "able")
_SHORT_ADJECTIVES = frozenset(
    "sad angry happy calm safe proud upset lonely guilty livid grim scary nasty awful".split()
)


def _a_feeling_word(word: str) -> bool:
    """A word of how something felt or was, an adjective ("stressful", "gutted", "sad"),
    not a noun of one ("stress", "hassle")."""
    return word in FELT_WORDS and (word.endswith(_FEELING_ENDS) or word in _SHORT_ADJECTIVES)


def _doing_cut(tokens: Sequence[Token], end: int) -> bool:
    """The phrase ends on "keep", "stop" ... and the doing that follows it was cut."""
    return 0 < end < len(tokens) and leads_a_doing(tokens[end - 1].norm, tokens[end].norm)


_BEFORE_TO = frozenset("care want need like dare wish".split())
# (the verb's subject or its negation before it: not "a bother | to people")
_DOER = frozenset("i you we they he she i'd id don't dont didn't didnt never would".split())


def _to_cut(tokens: Sequence[Token], end: int) -> bool:
    """The phrase ends on a verb whose "to" and infinitive the label cut: "than I care | to
    count"."""
    return (
        1 < end < len(tokens) - 1
        and tokens[end - 1].norm in _BEFORE_TO
        and tokens[end - 2].norm in _DOER
        and tokens[end].norm == "to"
        and tokens[end + 1].word
        # (not "the part I dont like | to be honest")
        and [t.norm for t in tokens[end + 1 : end + 3]] != ["be", "honest"]
    )


def _closing_stuff(tokens: Sequence[Token], end: int, v: Vocabulary) -> bool:
    """A "stuff" the phrase's clause ends on, after a determiner and a word: "the good |
    stuff" (dev 8 asked 'You mentioned that your morning brew at home tastes like the good.')."""
    if end < 2 or end >= len(tokens) or tokens[end].norm != "stuff":
        return False
    closes = end + 1 == len(tokens) or not tokens[end + 1].word
    return closes and _the_good_stuff([t.norm for t in tokens[end - 2 : end + 1]], v)


def _the_good_stuff(words: Sequence[str], v: Vocabulary) -> bool:
    """The phrase ends on a "stuff" that is a noun, not a filler: "the good stuff"."""
    return (
        len(words) >= 3
        and words[-1] == "stuff"
        and words[-3] in v.determiners
        and words[-2] not in v.function_words
    )


_ADVERBS = frozenset("actually just really also never always still even only properly".split())


def _after_its_subject(tokens: Sequence[Token], at: int, v: Vocabulary) -> bool:
    """The word at ``at`` follows a subject pronoun, an adverb perhaps between: its verb."""
    before = [t.norm for t in tokens[max(0, at - 2) : at] if t.word]
    while before and before[-1] in _ADVERBS:
        before.pop()
    return bool(before) and before[-1] in v.subjects and before[-1] not in v.determiners


def _sources(answers: Sequence[str], quotes: Sequence[str]) -> list[str]:
    """The answers to look in: those holding one of the node's quotes first, newest first."""
    said = [" ".join(words_of(q)) for q in quotes if q.strip()]
    ordered = list(reversed(answers))
    holding = [a for a in ordered if any(q and q in " ".join(words_of(a)) for q in said)]
    return holding + [a for a in ordered if a not in holding]


def from_answer(label: str, quotes: Sequence[str], answer: str) -> bool:
    """Whether the focus came from ``answer``: one of its quotes, or all its content words,
    are in it."""
    said = " ".join(words_of(answer))
    if any(q.strip() and " ".join(words_of(q)) in said for q in quotes):
        return True
    v = vocabulary()
    content = [w for w in words_of(label) if _content([w], v) and len(w) > 2]
    return bool(content) and set(content) <= set(said.split())


DISLIKING = frozenset("hate hates hated loathe loathes dislike dislikes detest detests".split())


# Verbs that lead a doing and its object the vocabulary may not list ("sort my own house out")
_VERB_LEADS = frozenset(
    """sort press do get keep make take have see spend save look put bring walk cook fix pay run
    use give help feed clean drive ride read watch carry charge lift pick mow wash tidy manage
    look after raise support visit care""".split()
)


def as_a_doing(phrase: Phrase) -> str:
    """A phrase of theirs that is a verb and its object, as a doing said to them: "sort my own
    house out" -> "sorting your own house out", "press a button" -> "pressing a button"; ""
    when it is no such phrase (a thing: "cordless bosch", "peace of mind")."""
    v = vocabulary()
    words = phrase.verbatim.split()
    if len(words) < 2 or words[1].lower() not in v.determiners | _WHOSE:
        return ""
    first = words[0].lower()
    if first not in v.verbs | _VERB_LEADS or first.endswith("ly"):
        return ""  # (not "especiallying the grandkids", "bothing your kids": the review)
    gerund = _gerund(words[0].lower(), v)
    shifted = _shift(words, v)
    if gerund is None or shifted is None:
        return ""
    return " ".join([gerund, *shifted.split()[1:]])


def phrase_for(label: str, answers: Sequence[str], quotes: Sequence[str] = ()) -> Phrase | None:
    """The clean phrase of the respondent's that the label stands for, or None."""
    v = vocabulary()
    target = words_of(label)
    if not target or not _content(target, v) or holds_empty_phrase(target, v):
        return None
    # A label may open with a word the reader added ("feel peace of mind" for "gives me
    # peace of mind"): without it, the rest is looked for too.
    tries = [target]
    if len(target) > 1 and target[0] in DISLIKING:
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
            if (
                phrase is not None
                and not DANGLING.search(phrase.verbatim)
                and not _ACROSS_A_CLAUSE.search(phrase.verbatim)
            ):
                return _named(phrase, answers)
        if found:
            return None  # said, but no clean phrase: not a shorter one of its words either
    return None


# A phrase across two clauses, a possession of theirs then their "I": "When I trust my boots I
# can actually relax" said back "How does your boots you can actually relax help you?" (round
# 287); not a thing with what they do with it, "a mower I can sharpen myself"
_ACROSS_A_CLAUSE = re.compile(
    r"\b(?:my|our|his|her|their)\s+[\w'-]+\s+i\s+(?:can|could|'m|am|was|do|did|don'?t|will|would|"
    r"have|had|just|actually|really)\b",
    re.IGNORECASE,
)


# A phrase ending on a word that needs what follows it was cut short: "bit sceptical of the 'for
# your gut' line" was said back "You said "sceptical of the"" (round 262)
DANGLING = re.compile(
    r"\b(?:the|a|an|my|your|our|their|this|these|those|some|any|every|whole|and|or|but)\W*$",
    re.IGNORECASE,
)


def _its_for_it_is(tokens: Sequence[Token], at: int) -> bool:
    """The "its" at ``at`` follows a copula ("the thing is its petrol"), so stands for "it's"."""
    return tokens[at].norm == "its" and at > 0 and tokens[at - 1].norm in COPULAS


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
        if m.group(0).lower() not in lower | v.function_words | MODALS | {"i"}
    }


def _newest_span(words: str, answers: Sequence[str]) -> tuple[list[Token], int, int] | None:
    """The tokens of the newest answer that holds ``words``, and where in them they stand."""
    v = vocabulary()
    target = words_of(words)
    for answer in reversed(answers if target else ()):
        tokens = tokenize(answer)
        span = _find(target, tokens, v)
        if span is not None:
            return tokens, span[0], span[1]
    return None


def cut_short(words: str, answers: Sequence[str]) -> bool:
    """Whether ``words``, found in the newest answer that holds them, stop where their clause
    runs on ("whether they remember how | I like it"): a quote or a label cut there reads as
    their words broken off. False when no answer holds them."""
    found = _newest_span(words, answers)
    if found is None:
        return False
    tokens, _, end = found
    end += 1 if closing_object(tokens, end) else 0
    return _cut_short(tokens, end, vocabulary())


_OPENERS = frozenset("and but so or well oh".split())
# Where a clause goes on to another: a condition, a reason, a second statement.
_RUNS_ON_TO = frozenset("if when because cos so and but unless".split())


def run_on(words: str, answers: Sequence[str], most: int) -> str | None:
    """The whole clause of the respondent's that ``words`` were cut from, in the newest answer
    holding them (from the punctuation or linking word before to the punctuation after, without
    a filler or link opening it: ``_OPENERS``), when it is at most ``most`` words: "I trust the
    vet on what keeps him well" for words cut at "keeps him". None when no answer holds them,
    or the clause runs longer."""
    found = _newest_span(words, answers)
    if found is None:
        return None
    tokens, start, end = found
    breaks = vocabulary().clause_breaks
    # (not past a word that joins two clauses: "the price was awful but | it makes me happy")
    while start > 0 and tokens[start - 1].word and tokens[start - 1].norm not in breaks:
        start -= 1
    clause = list(takewhile(lambda t: t.word, tokens[start:]))
    # (a long one to where a condition or a second clause starts after the words: "on days off
    # I get caffeine headache by lunch | if I sleep late", round 176's summary read "on days
    # off I get caffeine")
    after = end - start
    stop = next((i for i, t in enumerate(clause) if i >= after and t.norm in _RUNS_ON_TO), None)
    if len(clause) > most and stop is not None:
        clause = clause[:stop]
    said = list(dropwhile(lambda t: t.norm in _OPENERS, clause))
    text = " ".join(t.text for t in said)
    # (never a request to go back: round 176's summary read "Can we go back to the cold coffee
    # thing" as a point)
    return text if len(said) <= most and not phrase_pattern("steer").search(text) else None


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
