"""Naming a clause: a short label in the respondent's words (offline extraction, step 1b).

2-6 words, lower case (acronyms kept): pronouns, fillers, opinion verbs and rating
predicates stripped, cut at the next clause break, never ending on a dangling word; a label
of nothing but words that name nothing is empty.
"""

from __future__ import annotations

import re

from interview_cli.core.text import NEGATIONS
from interview_cli.llm.offline.lexicon import (
    CLAUSE_BREAKS,
    COPULAS,
    DANGLING,
    DISPENSABLE,
    EVALUATIVE,
    FEELING_PHRASES,
    FEELING_WORDS,
    INNER_FILLERS,
    INNER_PRONOUNS,
    LATE_BREAKS,
    LEADING_STRIP,
    NAMELESS,
    OPINION_LEADS,
    TIME_OPENER,
    TRAILING_STRIP,
    Cue,
)
from interview_cli.llm.offline.reading.clauses import MAX_LABEL_WORDS, WORD, content_words
from interview_cli.llm.offline.reading.meta import LOAD_OFF, naming_words


def _strip_leading(words: list[str]) -> list[str]:
    while words and words[0].lower().replace("\u2019", "'") in LEADING_STRIP:
        words = words[1:]
    return words


_KEEP_PRONOUN_AFTER = frozenset(
    "feel felt forget forgot know knew think hope wish notice remember realise realize like".split()
)
# An embedded clause keeps its subject: "choose how hard I work", not "choose how hard work".
_CLAUSE_OPENERS = frozenset("how what when where why whether if".split())
_NO_FEEL_PREFIX = frozenset("feel feels feeling felt not no don't less more".split())
_BEFORE_DETERMINER = frozenset("be is was are am to of about with for like".split())
# Verbs whose object is an if/whether clause: the label keeps it.
_CLAUSE_OBJECT = frozenset("care mind bothered worry worried".split())
_KEEP_BE_AFTER = frozenset("to can could should must would will might may".split())


def _drop_copula(words: list[str]) -> list[str]:
    """ "the sound is great" -> "sound"; "the price is too high" -> "price too high"."""
    for i, word in enumerate(words[:4]):
        if i >= 1 and word.lower() == "be" and words[i - 1].lower() in _KEEP_BE_AFTER:
            return words  # "has to be sharp", "want to be the guy": the verb carries meaning
        if i >= 1 and word.lower() in COPULAS:
            rest = [
                w
                for w in words[i + 1 :]
                if w.lower() not in {"really", "very", "so", "just", "quite"}
            ]
            if not rest or rest[0].lower() in EVALUATIVE:
                return words[:i]
            if len(rest) == 1 and i <= 2:
                return rest + words[:i]  # "the fit is comfortable" -> "comfortable fit"
            return words[:i] + rest
    return words


def make_label(text: str, cue: Cue | None, category: str | None) -> str:
    """A short label in the respondent's words: 2-6 words, lower case (acronyms kept)."""
    head = text.split(",")[0]
    if len(content_words(head)) >= 2:
        text = head
    text = TIME_OPENER.sub("", text.strip()).strip(" ,")
    text = re.sub(r"^(?:as long as|provided|assuming)\s+", "", text, flags=re.IGNORECASE)
    words = [w for w in WORD.findall(text) if w.lower() not in INNER_FILLERS]
    prefix = cue.prefix if cue else ""
    if not (prefix == "feel" and words and words[0].lower() == "like"):  # "feel like a good parent"
        spoken = words
        words = _strip_leading(words)
        if words and words[0].lower() in OPINION_LEADS:
            words = _strip_leading(words[1:])
        words = _keep_possessive(spoken, _keep_do(spoken, words))
    words = [
        w
        for i, w in enumerate(words)
        if i == 0
        or w.lower().replace("\u2019", "'") not in INNER_PRONOUNS
        or words[i - 1].lower() in _KEEP_PRONOUN_AFTER  # "feel I deserve nice things"
        or any(p.lower() in _CLAUSE_OPENERS for p in words[max(0, i - 3) : i])
    ]
    words = _drop_copula(words)
    for i, word in enumerate(words):
        if (i >= 2 and word.lower() in CLAUSE_BREAKS) or (i >= 3 and word.lower() in LATE_BREAKS):
            if word.lower() == "that" and words[i - 1].lower() in _BEFORE_DETERMINER:
                continue  # "be that parent": a determiner, not a new clause
            if word.lower() in ("if", "whether") and words[i - 1].lower() in _CLAUSE_OBJECT:
                continue  # "don't care if they get wrecked": the clause is what is cared about
            if word.lower() in _TIME_PREPS and _time_phrase(words, i):
                continue  # "can sleep after a night shift": a time, not a new clause
            if word.lower() == "after" and words[i - 1].lower() in _LOOK:
                continue  # "look after my family": the verb's own particle
            # a negation names nothing: "don't worry" is one word short of cutting at "when"
            kept = [
                w for w in content_words(" ".join(words[:i])) if w.replace("'", "") not in NEGATIONS
            ]
            if len(kept) >= 2 or (i >= 3 and kept):
                words = words[:i]  # not "stay" for "stay in while cycling"
                break
    if prefix and words and words[0].lower() == prefix.split()[0]:
        prefix = ""
    if category == "feeling" and not prefix and words:
        first = words[0].lower()
        if first not in _NO_FEEL_PREFIX and (
            first in FEELING_WORDS or " ".join(words).lower().startswith(FEELING_PHRASES)
        ):
            prefix = "feel"
    if prefix:
        words = prefix.split() + words
    words = _shorten(words)
    if is_empty_label(words):
        return ""
    label = " ".join(_case(w) for w in words)
    return label.replace("\u2019", "'")


_TIME_PREPS = frozenset("after before until".split())
_LOOK = frozenset("look looks looking looked take takes".split())
_TIME_STARTS = frozenset("a an every each work school lunch dinner breakfast dark".split())


def _time_phrase(words: list[str], at: int) -> bool:
    """ "after a night shift", "after fifteen years", "before work": a phrase with no subject,
    kept when the label still fits ("dinner on the table before seven" is cut as before)."""
    word = words[at + 1].lower() if at + 1 < len(words) else ""
    if not (word in _TIME_STARTS or word in _NUMBER_WORDS or word.isdigit()):
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


def is_empty_label(words: list[str]) -> bool:
    """Nothing in these words names an element: pronouns, fillers, ratings, "again", "not"."""
    return naming_words(" ".join(words), NAMELESS) == 0


def _shorten(words: list[str]) -> list[str]:
    """At most MAX_LABEL_WORDS words: drop pronouns and articles inside before cutting, and
    never end on a dangling word ("charge them every" -> "charge every day") or a number
    ("get there and back on one" -> "get there and back")."""
    if len(words) > MAX_LABEL_WORDS:
        words = [w for i, w in enumerate(words) if i == 0 or w.lower() not in DISPENSABLE]
    if len(words) > MAX_LABEL_WORDS:
        words = words[:MAX_LABEL_WORDS]
        # nor on a number whose noun the limit cut: "back on one charge" -> "back"
        whole = False  # the limit fell between two phrases: the one before it is whole
        while len(words) > 1 and words[-1].lower() in DANGLING | _NUMBER_WORDS:
            if LOAD_OFF.search(" ".join(words)):
                break  # "one less thing to think about" ends where it should
            # ("in middle of call": an "of" hangs on the noun before it, nothing is whole)
            whole = whole or words[-1].lower() in _CUT_BEFORE - {"of"}
            words.pop()
        # Cut before a phrase the limit would break: "focus on their work", not "focus on
        # their work without office"; "something to do in garage" stays whole.
        at = max((i for i, w in enumerate(words) if w.lower() in _CUT_BEFORE), default=0)
        if at >= 3 and not whole:
            words = words[:at]
    while words and words[-1].lower() in TRAILING_STRIP:
        last, before = words[-1].lower(), words[-2].lower() if len(words) > 1 else ""
        if last in _OBJECTS and (len(words) == 2 or (len(words) >= 3 and before in _PREPS)):
            break  # "don't have to think about it", "open it": not "... think about", "open"
        if last in _PARTICLES and before and before not in DANGLING:
            break  # "stay in", "put them on": the particle is part of the verb
        words.pop()
    return words


_NUMBER_WORDS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty"
    " fifty hundred".split()
)
_CUT_BEFORE = frozenset("at of in with without for from into by during after before".split())
_PARTICLES = frozenset("in on out up off down back away over".split())


_OBJECTS = frozenset("it them this that".split())
_PREPS = frozenset("about of with for on at to without from into over in".split())


def normal(label: str) -> str:
    """A lookup key for labels: lower case words only."""
    return " ".join(WORD.findall(label.lower().replace("\u2019", "'")))
