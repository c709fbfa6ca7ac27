"""What the offline respondent remembers of its own answers, read back from the transcript.

The simulator keeps no state between turns: everything it knows of the interview so far comes
from ``PersonaRequest.history``, so a resumed interview answers as an uninterrupted one would.
It reads its earlier answers honestly, as a person remembers what they said: it knows its
meanings and the words it says them in (``Rung.says``, the code, and what it may misspeak), and
finds those words again in what it said, even with the slip of the keys it made typing them.

Per earlier answer, :func:`recall` finds which rungs it named (a saying, the code or a
misspoken phrase), which sayings it has used (so it varies its words), which rungs it said
wrongly and which of those it has since corrected (an answer that holds the wrong words and
the right ones: "sorry, I said X earlier, I meant Y"), and how often it asked to go back to an
earlier point. Longer phrases are found first and a word belongs to one phrase only, so "the
battery" is not also heard inside "the battery lasts forever".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from interview_cli.core.text import normalise
from interview_cli.simulation.respondents import phrasing as say
from interview_cli.simulation.respondents.matching import PersonaBeliefs
from interview_cli.simulation.respondents.voice import TYPO_MIN_LENGTH

RungKey = tuple[int, int]
# A typed word is the word it was meant to be at this rapidfuzz ratio or above (one letter
# swapped, dropped or doubled in a word of four letters or more), at most once per phrase.
SLIP_RATIO = 75.0


@dataclass(frozen=True)
class Phrase:
    """One way of naming a rung: its words, normalised, and whether it is the misspoken one."""

    rung: RungKey
    text: str
    words: tuple[str, ...]
    wrong: bool = False


@dataclass
class Recall:
    """What the earlier answers said, as the respondent remembers it."""

    mentioned: list[set[RungKey]] = field(default_factory=list)
    used: set[str] = field(default_factory=set)  # sayings (normalised) already said
    # every saying found in the answers (normalised, a misspoken one too) and its rung
    sayings: dict[str, RungKey] = field(default_factory=dict)
    said_wrong: dict[RungKey, int] = field(default_factory=dict)  # rung -> first answer
    corrected: set[RungKey] = field(default_factory=set)
    go_backs: int = 0

    @property
    def revealed(self) -> set[RungKey]:
        return set().union(*self.mentioned) if self.mentioned else set()

    def pending_corrections(self) -> list[RungKey]:
        """Rungs said wrongly and not corrected yet, the earliest first."""
        wrong = [(answer, rung) for rung, answer in self.said_wrong.items()]
        return [rung for _, rung in sorted(wrong) if rung not in self.corrected]


def phrases(beliefs: PersonaBeliefs) -> list[Phrase]:
    """Every phrase the respondent may have named a rung with, the longest first."""
    found = []
    for ref in beliefs.refs():
        rung = (ref.ladder, ref.index)
        for name in ref.rung.names:
            found.append(Phrase(rung, normalise(name), tuple(normalise(name).split())))
        if ref.rung.misspoken:
            text = normalise(ref.rung.misspoken)
            found.append(Phrase(rung, text, tuple(text.split()), wrong=True))
    found = [p for p in found if p.words]
    return sorted(found, key=lambda p: (-len(p.words), p.rung, p.text))


def _same(typed: str, meant: str) -> bool:
    if typed == meant:
        return True
    if min(len(typed), len(meant)) < TYPO_MIN_LENGTH - 1 or len(meant) < TYPO_MIN_LENGTH:
        return False
    return fuzz.ratio(typed, meant) >= SLIP_RATIO


def _find(
    words: Sequence[str], at: dict[str, list[int]], phrase: Phrase, taken: list[bool]
) -> int | None:
    """Where ``phrase`` starts in ``words`` (free words only, one slip allowed in a phrase of
    two words or more), or None. ``at``: where each word of ``words`` stands. With one slip
    at most, the phrase's first or second word is there as it is: only those places are
    tried."""
    n = len(phrase.words)
    starts = set(at.get(phrase.words[0], ()))
    if n >= 2:
        starts |= {i - 1 for i in at.get(phrase.words[1], ())}
    for start in sorted(starts):
        if start < 0 or start + n > len(words) or any(taken[start : start + n]):
            continue
        window = words[start : start + n]
        slips = [(a, b) for a, b in zip(window, phrase.words, strict=True) if a != b]
        if not slips or (n >= 2 and len(slips) == 1 and _same(*slips[0])):
            return start
    return None


def spot(answer: str, known: Sequence[Phrase]) -> list[Phrase]:
    """The phrases said in ``answer``, each word counted for one phrase only."""
    words = normalise(answer).split()
    at: dict[str, list[int]] = {}
    for i, word in enumerate(words):
        at.setdefault(word, []).append(i)
    taken = [False] * len(words)
    said = []
    for phrase in known:
        start = _find(words, at, phrase, taken)
        if start is None:
            continue
        for i in range(start, start + len(phrase.words)):
            taken[i] = True
        said.append(phrase)
    return said


def recall(beliefs: PersonaBeliefs, answers: Sequence[str]) -> Recall:
    """What ``answers`` (the respondent's earlier answers, oldest first) said."""
    known = phrases(beliefs)
    memory = Recall()
    for index, answer in enumerate(answers):
        said = spot(answer, known)
        memory.mentioned.append({p.rung for p in said})
        memory.used |= {p.text for p in said if not p.wrong}
        for phrase in said:
            memory.sayings.setdefault(phrase.text, phrase.rung)
        right = {p.rung for p in said if not p.wrong}
        for phrase in said:
            if phrase.wrong:
                memory.said_wrong.setdefault(phrase.rung, index)
                if phrase.rung in right:
                    memory.corrected.add(phrase.rung)
        memory.go_backs += bool(say.GO_BACK_MARKERS.search(answer))
    return memory
