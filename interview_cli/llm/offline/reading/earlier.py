"""Finding the earlier node an answer points back at, by the respondent's words.

A correction ("sorry, I said four days") and a request to go back ("can we go back to the
charging?") name something said in an earlier turn in other words than its label. The
extraction request carries the earlier concepts (``existing_nodes``: label, type and the
respondent's words; ``existing_labels``, newest first; the focus): the one that shares the
most content words with what was named is it, its label weighing more than its quote. Words
are compared by lemma, a shared stem ("charging", "charge") or a kin group of
``lexicon/en/kin.yaml`` ("the money bit", "eighty quid").
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cache

from interview_cli.core.text import canonical_token, label_profile
from interview_cli.llm.offline.lexicon.phrases import HERE, load_file
from interview_cli.llm.protocol import ExtractRequest

# Words this long that start alike count as one ("charg" of "charging" and "charge").
STEM = 4
# ("one" is a number too, but not after a word that makes it point: "the old one breaking" went
# back to "one in nappies", round 73)
_NUMBER = re.compile(r"\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty")
_POINTING_ONE = re.compile(
    r"\b(?:the|this|that|a|an|my|our|your|his|her|their|old|new|other|last|first|next|same|"
    r"each|every|which|any|no|big|small|cheap|good|bad|right|wrong)\s+ones?\b"
)
# Words said when pointing at something that name nothing of it ("the lock thing").
_POINTERS = frozenset(
    """thing things bit bits stuff side part whole one ones about said what question questions
    earlier before asked ask answer point minute sec second moment""".split()
)


# Words too light to tell one thing from another: "feeling like a rubbish owner" is neither
# "looks like actual food" nor "feel guilty about that".
_LIGHT = frozenset("like likes liked really feel feels felt feeling".split())


@dataclass(frozen=True)
class Earlier:
    """An earlier concept as the extraction sees it."""

    label: str
    node_type: str = ""
    quote: str = ""


@cache
def kin_groups(language: str = "en") -> dict[str, int]:
    """Each kin word with the number of its group."""
    spec = load_file(HERE / language / "kin.yaml")
    return {
        canonical_token(w.lower()): i for i, line in enumerate(spec.phrases) for w in line.split()
    }


def words_of(text: str) -> frozenset[str]:
    """Content words of ``text`` by lemma, numbers kept, pointer words dropped (and a saving
    of a bother: "saves the faff" is no money, ``kin.yaml``)."""
    content = [w for w in label_profile(text).content if w not in _POINTERS and w not in _LIGHT]
    if _SAVES_A_BOTHER.search(text):
        content = [w for w in content if w != "save"]
    counted = _POINTING_ONE.sub(" ", text.lower())
    numbers = [w for w in re.findall(r"[a-z0-9]+", counted) if _NUMBER.fullmatch(w)]
    return frozenset(content) | frozenset(numbers)


_SAVES_A_BOTHER = re.compile(
    r"\bsav(?:e|es|ed|ing)\s+(?:(?:me|us|you|him|her|them)\s+)?(?:(?:the|a\s+lot\s+of|so\s+much|all\s+"
    r"(?:the|that|this)|loads\s+of|lots\s+of|a\s+load\s+of)\s+)?(?:faff|hassle|time|stress|bother|"
    r"trouble|effort|back|knees|legs|energy|worry|headache|grief|aggro|palaver|mess|journey|trip)\b",
    re.IGNORECASE,
)


def _alike(a: str, b: str) -> bool:
    """The same word, or one stem ("charging", "charge")."""
    if a == b:
        return True
    shortest = min(len(a), len(b))
    return shortest >= STEM and len(os.path.commonprefix((a, b))) >= min(shortest, STEM + 1)


def _same(a: str, b: str) -> bool:
    if _alike(a, b):
        return True
    kin = kin_groups()
    return a in kin and kin.get(a) == kin.get(b)


def shared(words: frozenset[str], other: frozenset[str]) -> int:
    """How many of ``words`` ``other`` holds (the same, by stem or by kin)."""
    return sum(1 for w in words if any(_same(w, o) for o in other))


def earlier_nodes(request: ExtractRequest) -> list[Earlier]:
    """The earlier concepts of a request, newest first where the request says."""
    found: dict[str, Earlier] = {}
    known = {n.label.lower(): n for n in request.existing_nodes}
    labels = [*request.existing_labels, *(n.label for n in request.existing_nodes)]
    if request.focus_label:
        labels.append(request.focus_label)
    for label in labels:
        key = label.lower()
        if key in found:
            continue
        node = known.get(key)
        node_type = node.node_type if node else (request.focus_type or "")
        if node is None and label != request.focus_label:
            node_type = ""
        found[key] = Earlier(label, node_type, node.quote if node else "")
    return list(found.values())


def match_score(words: frozenset[str], candidate: Earlier) -> int:
    """How well ``words`` name ``candidate``: the words of its label it shares, twice, and
    those of its quote."""
    return 2 * shared(words, words_of(candidate.label)) + shared(words, words_of(candidate.quote))


def best_match(named: str, candidates: list[Earlier], *, whole: bool = False) -> Earlier | None:
    """The candidate that shares the most words with ``named`` (its label counts double),
    None when none shares one; the first such wins a tie (newest first). ``whole``: of two
    alike, the one more of whose label was named wins first (a correction says again what it
    puts right: "I said they fitted it" is "them fitted in our car", not "not every seat fits
    every car")."""
    words = words_of(named)
    if not words:
        return None
    # (its words as said, those that name: "shifts" of "the shifts thing")
    as_said = {w for w in re.findall(r"\w+", named.lower()) if words_of(w) & words}
    best: tuple[tuple[bool, bool, int, float], Earlier] | None = None
    for candidate in candidates:
        score = match_score(words, candidate)
        label = words_of(candidate.label)
        named_share = shared(label, words) / len(label) if label and whole else 0.0
        # a label that has the very word before one that has only its kin ("the sleeping
        # thing" is "sleeping", not "night shifts so on way home", round 48)
        very = any(_alike(w, other) for w in words for other in label)
        # (and the word as it was said before its stem: "the shifts thing" is "fits me in round
        # my shifts", not "whole shift folk shoutin" said since, round 239)
        # (apart from its "'s": "app's always crashing" has the word "app", the review)
        exact = bool(as_said & set(re.findall(r"\w+", candidate.label.lower())))
        key = (exact, very, score, named_share)
        if score > 0 and (best is None or key > best[0]):
            best = (key, candidate)
    return best[1] if best else None


def said_before(label: str, existing: dict[str, str]) -> str | None:
    """The earlier label whose words hold all of ``label``'s ("price" of "price its 12 quid a
    month"), the shortest such; None when there is none."""
    words = set(label_profile(label).content)
    if not words:
        return None
    holding = [e for e in existing.values() if words <= set(label_profile(e).content)]
    return min(holding, key=len) if holding else None


__all__ = [
    "said_before",
    "Earlier",
    "best_match",
    "earlier_nodes",
    "kin_groups",
    "match_score",
    "shared",
    "words_of",
]
