"""How a clause is held: -1 against, 1 for, 0 not said (an ``ExtractedNode``'s ``stance``).

Read from the clause's own words (``lexicon`` NEGATIVE_WORDS and POSITIVE_WORDS): a bad word
counts against, unless a negation or a lessening before it makes it a riddance ("no
hassle", "less lonely"); a bad word typed with a slip ("annoyng") counts; not being able to
("cant walk the dog") and being let down count against, but for the idioms of praise ("can't
fault it"); a good word counts for, except "like" in a likeness ("feels like"). The frame
around a clause ("what annoys me is ...") is read where the node is made (``extraction``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz.distance import OSA, Levenshtein

from interview_cli.core.text import NEGATIONS
from interview_cli.llm.offline.lexicon import NEGATIVE_WORDS, POSITIVE_WORDS
from interview_cli.llm.offline.reading.clauses import COMMA, WORD

# (said of anyone: "you cant even turn the heat up", round 160)
_UNABLE = re.compile(
    r"^\W*(?:(?:i|you|we|they|u)\s+)?(?:can'?t|cannot|couldn'?t|can\s+not)\s+\w", re.IGNORECASE
)
_UNABLE_PRAISE = re.compile(
    r"\b(?:can'?t|cannot|couldn'?t)\s+(?:fault|complain|beat|wait|recommend\s+\w+\s+enough|"
    r"live\s+without|do\s+without|be\s+without|manage\s+without|imagine\s+(?:life\s+)?without|"
    # (said of anyone: "you can't go wrong with it", "you cant taste the difference", "they
    # cant do enough for you")
    r"go\s+wrong|(?:tell|taste|hear|feel|notice|see)\s+the\s+difference|do\s+enough|"
    r"ask\s+for\s+(?:more|better))",
    re.IGNORECASE,
)
_SLIP_LEAST = 6  # letters a word needs before a slip in it is forgiven


@lru_cache(maxsize=8192)
def _negative_slip(word: str) -> str:
    """The negative word ``word`` is a slip of ("annoyng", "frustating"), else ``word``: one
    letter dropped or added, or two swapped, in a word long enough for that to be a slip."""
    if len(word) < _SLIP_LEAST or word in NEGATIVE_WORDS or word in POSITIVE_WORDS:
        return word
    if word in _WORDS_OF_THEIR_OWN:
        return word
    for negative in NEGATIVE_WORDS:
        if len(negative) >= _SLIP_LEAST and abs(len(negative) - len(word)) <= 1:
            if word[0] != negative[0] or OSA.distance(word, negative, score_cutoff=1) > 1:
                continue
            # one letter dropped or added, or two swapped (one edit where a swap is one, two
            # where it is not); one letter for another is as often another word: "washing"
            # is no "wasting" (round 24 asked what the problem was with feeling she keeps up)
            if len(word) != len(negative) or Levenshtein.distance(word, negative) == 2:
                return negative
    return word


# Words one slip from a bad one that are words of their own: "having enough data for my
# sunday video calls" is no "heaving" (round 76 asked why it bothered her)
# ... nor is "sleep is sacred in this flat" scared (round 269 asked "What is the problem with
# that for you?")
_WORDS_OF_THEIR_OWN = frozenset({"having", "sacred"})
_SACRED_AFTER = re.compile(
    r"(?P<before>\b(?:i'm|im|am|was|get|got|feel|so|too|really|were|are)\s+)sacred\b", re.I
)
_SACRED_OF = re.compile(r"\bsacred(?=\s+of\b)", re.IGNORECASE)
_WORKS_HARD = re.compile(
    r"\b(?P<verb>(?:train|work|graft|push|try|play|go)(?:s|ed|ing)?)\s+(?:really\s+|so\s+|very\s+)?"
    r"hard\b(?!\s+(?:to|for|on)\b)",
    re.IGNORECASE,
)
_FUSSY_ABOUT = re.compile(r"\bfussy\s+(?=about|with|over|when\s+it\s+comes)", re.IGNORECASE)
_AWAY_SICK = re.compile(
    r"\b(?:off\s+(?:sick|ill)|(?:called|calls|call|phoned|phones|rang|rings)\s+in\s+(?:sick|ill)|"
    r"sick\s+(?:leave|days?|notes?|pay|lines?))\b",
    re.IGNORECASE,
)
_ILL_FOR_I_WILL = re.compile(
    r"\bi['\u2019]ll\b\s*|\bill\s+(?=(?:take|be|go|get|do|have|make|see|tell|say|give|try|just|never|always|"
    r"probably|need|pay|put|come|bring|let|drive|ring|call|sort|pick|check|look)\b)",
    re.IGNORECASE,
)


# What it would be, in a condition: no verdict on it
# (and so is someone else's trouble, as the condition of what they can do: "Means I can get in
# early if someone's struggling", round 279 asked "Why does that bother you?")
_IF_IT_WAS = re.compile(
    r"(?<!\bas\s)\bif\s+(?:(?:someone|somebody)(?:'s|\s+is)\s+(?:struggling|having\s+a\s+hard\s+time)\b|"
    r"(?:it|they|that|he|she|the\s+[\w-]+)(?:\s+(?:was|were|is|are|turned\s+out|"
    r"turns\s+out)|'s)(?:\s+(?:a\s+bit|too|really|totally|complete|utter|any))?\s+[\w-]+)",
    re.IGNORECASE,
)


def stance_of(text: str) -> int:
    """-1, 0 or 1 from the clause's words; a negative word after a negation in the same
    clause ("not stressed before trips", "no hassle", "not throwing good money after bad") is
    no dislike. A negative word typed with a slip ("annoyng") counts, and so does not being
    able to ("cant walk the dog"), but for the idioms of praise ("can't fault it")."""
    # "I'll take everyone" lost its apostrophe below, and "Ill take everyone", are no illness
    # (round 60 asked "Why does the mum bother you?")
    text = _ILL_FOR_I_WILL.sub("i will ", text)
    # "I'm a bit fussy about microfoam" is a standard kept, no dislike (round 65 asked "Why does
    # 'fussy about microfoam' bother you?" of a former barista)
    text = _FUSSY_ABOUT.sub("particular about", text)
    # "the lads tell me who's off sick" says who is away, no dislike (round 186 asked "Why
    # does that bother you?" of the coffee that brings the drivers in early)
    text = _AWAY_SICK.sub("away", text)
    # "they gave us 100 nights to try it so if it was rubbish we could send it back" holds the
    # trial dear (round 217 asked "What does that make harder for you?")
    text = _IF_IT_WAS.sub(" ", text)
    # "i train hard" is an effort, no dislike (round 271 asked "What is the problem with that
    # for you?")
    text = _WORKS_HARD.sub(r"\g<verb>", text)
    # ... and "sacred" is a word of its own but for where it can only be "scared": "im sacred of
    # the lorries" (review rv62)
    text = _SACRED_OF.sub("scared", _SACRED_AFTER.sub(r"\g<before>scared", text))
    if _NOT_MINDED.search(text):
        # "the stiff sole doesn't bother me" minds nothing (round 85's closing answer, asked
        # "Why does that bother you?")
        return 0
    words = [w.replace("'", "").replace("\u2019", "") for w in WORD.findall(text.lower())]
    # ("the machine was broken-ish" is broken, near enough: round 189 asked "What did that let
    # you do?" of it)
    words = [_negative_slip(w.removesuffix("-ish")) for w in words]
    negated = _riddances(text, words)
    if any(w in NEGATIVE_WORDS for i, w in enumerate(words) if i not in negated):
        return -1
    let_down = _LET_DOWN.search(text) and not _NOT_LETTING_DOWN.search(text)
    if (_UNABLE.search(text) and not _UNABLE_PRAISE.search(text)) or let_down:
        return -1
    if any(p.search(text) for p in _HELD_AGAINST):
        return -1
    # "like" is a liking only after someone who likes ("I really like"): not a likeness ("feels
    # like"), nor a filler ("Like I literally forget to ring", round 28; "like I said")
    liked = {w for i, w in enumerate(words) if not (w == "like" and _filler_like(words, i))}
    if _NOT_CHEAP.search(text) and not (liked & POSITIVE_WORDS or _PRAISE_WORDS.search(text)):
        return -1
    # a good word denied: "its no good" (round 32 asked what the flimsy rack gives her)
    # (right after it: "not throwing good money after bad" is a relief)
    # (a liking denied is someone's: "I do not like it"; "not like a pint of full fat sloshing
    # about" is a likeness denied, and a dev-8 simulated cyclist was asked what it got in the
    # way of)
    if any(
        w in POSITIVE_WORDS and i and _denies(words[i - 1], w) and _someones(words, i)
        for i, w in enumerate(words)
    ):
        return -1
    if negated or liked & POSITIVE_WORDS:
        return 1
    return 0


def _riddances(text: str, words: list[str]) -> list[int]:
    """The indexes of the bad words the text is rid of, or has less of: after a lessening word
    in the same statement ("no hassle"), after what a thing has to be or what is found out,
    or just before "less"."""
    # (a negation lessens a bad word after it, through a list: "no more aching ears, stiff
    # neck, or headaches"; but "nothing else" lessens nothing: "its done half the lounge and
    # nothing else, proper annoying" is annoying, round 38)
    lessening = [
        j
        for j, w in enumerate(words)
        if w in LESSENED and not (w == "nothing" and words[j + 1 : j + 2] in _NO_MORE)
    ]
    # (or said to be less just after it: "I waste less food", "worry less", round 74 asked what
    # wasting less food got in the way of)
    # (what a thing has to be is wanted, whatever the word: "the sole has to be nice and stiff"
    # was read back in round 85's closing as "a stiff sole bothers you")
    # (what is found out is no dislike of the finding: "I can work out what upset him", round
    # 142 asked "What is the problem with that for you?")
    after = min(_required_from(words), _known_from(words))
    # (a lessening not past a comma that opens a statement of its own: "you cant even turn the
    # heat up without poking through menus, with gloves on in the winter its useless" is
    # useless, and round 160 asked "What's good about that, for you?")
    scopes = _statements(text, len(words))
    return [
        i
        for i, w in enumerate(words)
        if w in NEGATIVE_WORDS
        and (
            i > after
            or any(
                j < i
                and _same_statement(scopes, j, i)
                and (words[j] not in _SPARING or _spares(words, j, i))
                for j in lessening
            )
            or words[i + 1 : i + 2] == ["less"]
        )
    ]


_NOT_MINDED = re.compile(
    r"\b(?:does\s*n['\u2019]?t|does\s+not|do\s*n['\u2019]?t|do\s+not|never|wouldn['\u2019]?t)\s+"
    r"(?:really\s+|even\s+)?(?:bother|bothers|annoy|annoys|bug|bugs|mind|upset|upsets)\b",
    re.IGNORECASE,
)


_KNOWING = frozenset("out know knows knowing tell check spot".split())
_ASKED = frozenset("what whats which".split())


def _known_from(words: list[str]) -> int:
    """Where a question found out starts ("work out | what upset him"), the index of its
    question word; past the end when there is none, or when what is found out is what gets
    to them ("I know what annoys me", "I know why it breaks")."""
    for i, w in enumerate(words[1:], start=1):
        if (
            w in _ASKED
            and words[i - 1] in _KNOWING
            and words[i + 2 : i + 3] not in (["me"], ["us"])
        ):
            return i
    return len(words)


_STATEMENT = frozenset("is are was were its thats theyre im ive".split())
# A part that says more of what came before: "no more soggy socks, that was the worst bit".
_REFERS_BACK = re.compile(r"^\W*(?:that|which|it|this)(?:'?s|\s+(?:is|was|were))\b", re.I)


def _statements(text: str, count: int) -> list[int]:
    """Where each statement of the text starts, as word indexes: at 0, and at each comma's
    part that says one of its own (a verb of being in it: "..., in the winter its useless");
    a list's items are no statements ("no more aching ears, stiff neck, or headaches")."""
    starts, at = [0], 0
    for part in COMMA.split(text):  # (not the comma in "1,800")
        found = [w.replace("'", "").replace("\u2019", "") for w in WORD.findall(part.lower())]
        if at and set(found) & _STATEMENT and not _REFERS_BACK.match(part):
            starts.append(at)
        at += len(found)
    return [s for s in starts if s < count] or [0]


def _same_statement(starts: list[int], a: int, b: int) -> bool:
    """Words ``a`` and ``b`` are in one statement."""
    return not any(a < s <= b for s in starts)


def _required_from(words: list[str]) -> int:
    """Where what a thing has to be is said ("has to be", "must be", "needs to be"), the
    index of its "be"; past the end when it is not."""
    for i, w in enumerate(words[:-1]):
        if words[i + 1] != "be":
            continue
        if w in ("must", "should") or (w == "to" and i and words[i - 1] in _HAVING_TO):
            return i + 1
    return len(words)


_HAVING_TO = frozenset("has have had need needs got".split())


# What turns a bad word into a good riddance: "no hassle", "less lonely", "stopped failing her"
# (and what a question says a relief of: "stops tea being a battle" is no "the battle"; and
# what is saved or spared: "saves the faff" was asked "What is the problem with that for you?",
# round 261).
LESSENED = NEGATIONS | frozenset(
    """less fewer stop stopped stops avoid avoids avoiding instead save saves saved saving spare
    spares spared""".split()
)
# ... what is saved is its object, a few words on: not "saving money is a pain", nor "saving is
# really hard", "spare tubes are useless", "the save button is broken" (the review)
_SPARING = frozenset("save saves saved saving spare spares spared".split())
_SPARED_REACH = 5
_SPARED = frozenset("me us you him her them the a all so that this my your loads lots any".split())
_NAMING_IT = frozenset("the a an my your our their his her this".split())


def _spares(words: list[str], j: int, i: int) -> bool:
    """``words[j]``, a word of saving, is a verb that spares them ``words[i]``: its object
    follows it ("saves the faff", "spares me the stress", "it's saved me so much stress")
    and no determiner names it a thing ("the spare parts")."""
    return (
        i - j <= _SPARED_REACH
        and words[j + 1 : j + 2] != []
        and words[j + 1] in _SPARED
        and not (j > 0 and words[j - 1] in _NAMING_IT)
    )


# "nothing else", "nothing more": no riddance of what follows
_NO_MORE = (["else"], ["more"])
_LET_DOWN = re.compile(r"\blet(?:s|ting)?\s+(?:\w+\s+){0,2}down\b", re.IGNORECASE)
# ... not when they never would, or it never does: "i'd never want to let anyone down" is what
# they hold to (round 189 asked "What is the problem with that for you?"), "it doesnt let me
# down" is praise
# (the negation on the letting itself, not on a thought about it: "I never thought it would
# let me down but it did", "No it let me down badly" are let downs, from the review)
_NOT_LETTING_DOWN = re.compile(
    r"\b(?:never|not|dont|don't|doesnt|doesn't|didnt|didn't|wont|won't|wouldnt|wouldn't|"
    r"hasnt|hasn't|havent|haven't|hate\s+to|hates\s+to|no\s+way\s+would\s+(?:i|we))\s+"
    r"(?:(?:really|once|ever|yet|actually|been|want\s+to|wanna|like\s+to|going\s+to|gonna|"
    r"try\s+to|to)\s+){0,2}let(?:s|ting)?\s+(?:\w+\s+){0,2}down\b",
    re.IGNORECASE,
)


_DENYING = frozenset("no not never".split())
# praise a price complaint gives way to: "not cheap but worth it", "... much better"
_PRAISE_WORDS = re.compile(r"\b(?:worth|value|quality|better|solid|sturdy|treat)\b", re.IGNORECASE)
# what breaks down: "pulled that cord till my shoulder gave out", "the terminal packed in"
# (round 43 asked what pulling the cord "gives" him)
_GAVE_OUT = re.compile(
    r"\b(?:gave|gives|give|giving)\s+out\b(?=\s*(?:[,.;!?]|$)|\s+(?:on|after|halfway|completely|again|and|so|but|when|at)\b)|\bpack(?:ed|s)\s+(?:in|up)\b(?!\s+(?:my|the|a|an|his|her|our|your|their|and|everything|some)\b)|\bconked\s+out\b|"
    r"\b(?:died|gave\s+up)\s+on\s+(?:me|us|him|her)\b",
    re.IGNORECASE,
)
# what was long in coming: "they took weeks to break in" (round 51: "What does that let you
# do?")
_LONG_IN_COMING = re.compile(r"\btook\s+(?:weeks|ages|months|forever|days)\b", re.IGNORECASE)
# what held someone up: "the cafe queue made me late twice" (round 67 asked what she hoped
# the queue would do for her: "the queue was the problem")
_HELD_UP = re.compile(
    r"(?<!n't\s)(?<!nt\s)(?<!not\s)(?<!never\s)"
    # (or miss something: "the queue there made me miss my train twice", round 179 asked what
    # the queue helped him get done: "the queue was the problem")
    r"\b(?:made|makes|make|making)\s+(?:me|us|him|her|them)\s+(?:late|miss)\b",
    re.IGNORECASE,
)
# what piles up: "otherwise it just sits there till the weekend and piles up" (round 70 asked
# why that was important to her)
_PILES_UP = re.compile(r"\bpil(?:e|es|ed|ing)\s+up\b", re.IGNORECASE)
# a price said to be big: "the bill was massive" (round 43: "How does that help you?")
_PRICED = r"(?:bill|bills|price|prices|cost|costs|charge|charges|fee|fees)"
_BIG = (
    r"(?:massive|huge|enormous|steep|astronomical|extortionate|silly|insane|through\s+the\s+roof)"
)
_COSTLY = re.compile(
    rf"\b{_PRICED}\s+(?:is|was|are|were|'s|went|go|goes|gone)\s+"
    rf"(?:\w+\s+)?{_BIG}\b|\b{_BIG}\s+{_PRICED}\b",
    re.IGNORECASE,
)
# ... or said not to be cheap: "wasnt cheap mind", "it's not cheap" (round 61: "How does that
# help you?"); not how it feels or looks ("it never feels cheap"), nor what it is not made of
# ("isn't cheap plastic"); a clause that also praises is praise ("not cheap but worth it")
_NOT_CHEAP = re.compile(
    r"(?:^\W*|\b(?:it|that|this|they|these|those|the(?:\s+\w+){1,3})\s*)"
    r"(?:'s|s|is|was|are|were|'re)?(?:n['\u2019]?t|\s+not)\s+(?:exactly\s+|that\s+|very\s+)?"
    r"cheap\b(?!\s+(?:plastic|tat|rubbish|stuff|junk|material|build|quality|feeling))",
    re.IGNORECASE,
)
# what was in a mess: "his poo was all over the place" (round 61: "What does that give
# you?"), "the house was a state", "the kitchen was a tip"; not "a state of the art oven",
# "it's got a tip on the spatula", "I've been all over the place on it"
_IN_A_MESS = re.compile(
    r"\b(?:is|was|are|were|'s|looked|looks)\s+(?:just\s+|totally\s+|completely\s+)?"
    r"(?:all\s+over\s+the\s+place|a\s+(?:state|mess|shambles|bombsite|disaster)\b(?![\s-]+of\b)|"
    r"a\s+tip(?=\s*(?:[,.;!?]|$)))",
    re.IGNORECASE,
)
# What happened, said against in its words, whatever words of liking are near it.
# Losing what they value: "Somebody gets hurt or I lose the job" (round 195 was asked "What
# does that help you get done?"); not losing weight or track of time ("I lose track of time
# when I cook, it's lovely", from the review)
_LOSING = re.compile(
    # (not denied: "so I never lose any bookings" is a relief, from the review)
    r"(?<!\bnever\s)(?<!\bdont\s)(?<!\bdon't\s)(?<!\bnot\s)(?<!\bwon't\s)(?<!\bwont\s)"
    r"(?<!\bcan't\s)(?<!\bcant\s)(?<!\bdidn't\s)(?<!\bdidnt\s)"
    r"\blos(?:e|es|ing)\s+(?:(?:my|the|a|our|your|his|her|their|all\s+my|all\s+the|any)\s+)?"
    r"(?:\w+\s+)?(?:job|jobs|money|customers?|clients?|bookings?|business|house|home|licen[cs]e|"
    r"deposit|sleep|hearing|sight|signal|connection|data|work|shifts?|regulars|pay|wages|"
    r"place|seat|slot|booking|cover|claim|warranty|parcels?|order|orders|patience|temper)\b",
    re.IGNORECASE,
)
_HELD_AGAINST = (
    _GAVE_OUT,
    _COSTLY,
    _LONG_IN_COMING,
    _IN_A_MESS,
    _HELD_UP,
    _PILES_UP,
    _LOSING,
)


def _denies(before: str, good: str) -> bool:
    """``before`` denies the good word after it: "no good", "never nice", "nothing good about
    my shoulder" (round 43 asked what his shoulder lets him do), but not "nothing better"."""
    return before in _DENYING or (before == "nothing" and good not in ("better", "best", "like"))


def _someones(words: list[str], i: int) -> bool:
    """The good word at ``i`` is no "like" or someone's liking, said before its denial ("I
    do not like", "we not like"), not a likeness denied ("it's not like a pint")."""
    return words[i] != "like" or (i >= 2 and words[i - 2] in _LIKERS | {"do", "does", "did"})


# Who likes, and the words between them and a liking "like" ("I really like", "we'd like")
_LIKERS = frozenset(
    """i we they you he she really do dont would id wed theyd youd just also still actually
    quite definitely genuinely kinda sort kind always""".split()
)


def _filler_like(words: list[str], i: int) -> bool:
    """A "like" that is no liking: one not said by someone who likes ("feels like", "Like I
    literally forget to ring", "my laptop just died, like completly dead": round 31 read it as
    good)."""
    return i == 0 or words[i - 1] not in _LIKERS


__all__ = ["LESSENED", "stance_of"]
