"""Reading a repertory-grid answer offline: the two poles of a triad answer, the ratings of a
rating answer. Deterministic, by cue words and the elements named; no randomness.

A triad answer is split where the elements it names part: "The car and the bicycle are both
private, the bus is shared with strangers." (at the comma: car and bicycle on one side, the
bus on the other), likewise "A and B are X; C is Y", "A and B: X. C: Y." and "A and B are X
and C is Y". Failing that, at a contrast word ("while", "whereas", "but", "the third" ...).
The side naming two elements is the first pole (what the two share), whichever comes first.
Any element of the concept counts, shown in the triad or not ("the car and the train are
fast, the bus is slow" rates the train too); names outside the concept count for nothing.

A rating answer gives each element named its number ("car 1, bus 2", "bike: five",
"1 for the car, 2 for the bus"); numbers alone ("1 2 5 4 1 2 3") go to the elements in the
order the question listed them. Fewer numbers than elements rate the first ones only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from interview_cli.config.schemas import ConceptElement
from interview_cli.llm.offline.lexicon import SENTENCE
from interview_cli.llm.offline.reading.clauses import blank
from interview_cli.llm.offline.reading.labels import make_label
from interview_cli.llm.offline.shapes.common import element_names, elements_named, words

NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
_WORDS = "|".join(NUMBER_WORDS)
_A_NUMBER = rf"(?:[1-9]|{_WORDS})"  # a rating said, as a digit or a word
# (a number said roughly counts: "scooter 2ish" was asked again twice, round 286)
_NUMBER = re.compile(rf"\b([1-9])(?:ish)?\b|\b({_WORDS})(?:ish)?\b", re.IGNORECASE)
_ANY_NUMBER = re.compile(rf"(?<![\w.-])(\d+)(?![\w.-])|\b({_WORDS})\b", re.I)
_CUE = (
    r"while|whilst|whereas|but|versus|vs\.?|rather than|unlike|compared to|"
    r"and the third|the third|the other one|the other"
)
_POLE_SPLIT = re.compile(r"\s*(?:,\s*)?\b(?:" + _CUE + r")\b\s*", re.IGNORECASE)
_LEADING_CUE = re.compile(r"^\W*(?:(?:and|" + _CUE + r")\b\W*)+", re.IGNORECASE)
# Where an answer's clauses part: punctuation or a dash first, then "and", "but", "while".
_STRONG = re.compile(r"\s*(?:[,;:.!?]+|\s[-\u2013\u2014]+)\s*")
_WEAK = re.compile(r"\s+(?:and|but|while|whilst|whereas|yet)\s+", re.IGNORECASE)
_POLE_NOISE = frozenset(
    "are is both they they're them it it's its and the a an of these those two one third "
    "other alike same similar different differs because quite more much very really just "
    "kind sort can be being definitely obviously honestly pair i'd id ok okay tbh".split()
)
# (a clause that says something of its element, not "The taxi though," or "The bike in
# winter,": review rv66)
_SAYS = re.compile(
    r"(?:'s|'re)\b|\b(?:is|are|was|were|has|have|had|does|do|can|will|gets?|takes?|goes?|costs?)\b",
    re.IGNORECASE,
)
_HOLDS_IT = frozenset("in on at with without into out".split())
_NOT_A_POLE = frozenset(NUMBER_WORDS) | frozenset(
    "for to with of in on at by from as than so not no yes i you we me my".split()
)
# Words that may stand beside numbers in an answer of numbers alone ("I'd say 1, 2 and 5").
_NUMBERS_ONLY_FILLER = frozenset(
    "and then i'd id i would say give them it's its ok okay so well um erm in that order "
    "respectively order the rest".split()
)
_NUMBER_FOR = re.compile(
    r"(?<![\w.-])(\d+|one|two|three|four|five|six|seven)\s+(?:for|to)\s+(?:the\s+|a\s+)?$",
    re.IGNORECASE,
)


def pole(text: str, elements: Sequence[ConceptElement], most: int | None = None) -> str:
    """The pole a clause states: its words without element names, contrast words and noise
    (``most`` of them: ``_POLE_WORDS``, or two more for a side said in a few words)."""
    text = _LEADING_CUE.sub("", text)
    for element in elements:
        for name in element_names(element):
            text = re.sub(r"\b" + _named(name), " ", text, flags=re.IGNORECASE)
    said = words(text)
    # (an "it" after its preposition stays: "bike you're out in it", round 285)
    kept = [
        w
        for i, w in enumerate(said)
        if w not in _POLE_NOISE or (w == "it" and i and said[i - 1] in _HOLDS_IT)
    ]
    # A pole says something: numbers and little words alone ("1 for", "to") are none.
    if not any(w.isalpha() and w not in _NOT_A_POLE for w in kept):
        return ""
    return " ".join(kept[: most or _POLE_WORDS])


@dataclass(frozen=True)
class TriadAnswer:
    """The two poles of a triad answer and the words of each side (the pair's side first)."""

    left: str
    right: str
    left_text: str
    right_text: str


def _named_ids(elements: Sequence[ConceptElement], text: str) -> list[str]:
    return [e.id for _, e in elements_named(elements, text)]


def _split_where_elements_part(
    answer: str, elements: Sequence[ConceptElement]
) -> tuple[str, str] | None:
    """The first cut (punctuation before conjunctions) with elements on both sides, none on
    both, and a pole on each side."""
    if len(elements_named(elements, answer)) < 2:
        return None
    for pattern in (_STRONG, _WEAK):
        for cut in pattern.finditer(answer):
            left, right = answer[: cut.start()], answer[cut.end() :]
            ids_left, ids_right = _named_ids(elements, left), _named_ids(elements, right)
            if not ids_left or not ids_right or set(ids_left) & set(ids_right):
                continue
            if pole(left, elements) and (
                pole(right, elements) or _denies(right, elements) or _affirms(right, elements)
            ):
                return left, right
    return None


def triad_answer(answer: str, elements: Sequence[ConceptElement]) -> TriadAnswer | None:
    """The construct of a triad answer, or None when it names no two sides. Read as people type
    it: the asides, hedges and remarks blanked (``clauses.blank``: "Oh and sorry, I said £14
    earlier" is no pole), each side only the sentence that names its elements ("..., I live in
    Bletchley and the office is in central MK. The train is different because it runs to a
    timetable" sets the train apart by the timetable), named as a label is (``make_label``);
    a side that only says it is the odd one out, or only denies the other pole ("the bike
    isn't", "Bus I can't"), is the other pole's opposite ("not ...", "can't ...")."""
    # (an opener is no part of a side: "Well car and bus both have an engine ..." made the pole
    # "well", round 285)
    said = _OPENER.sub(lambda m: " " * len(m.group()), blank(answer))
    parts = None
    for end in (m.end() for m in SENTENCE.finditer(said)):
        # (sentence by sentence: an element named again later, "Having said that a taxi is
        # about £14", does not stand on both sides of the first sentence's cut)
        if (parts := _split_where_elements_part(said[:end], elements)) is not None:
            break
    if parts is None:
        split = _POLE_SPLIT.split(said, maxsplit=1)
        if len(split) != 2:
            return None
        parts = (split[0], split[1])
    # (what is conceded after a side is no part of it: "the bus doesn't, but I don't mind that",
    # review rv65)
    left_text, right_text = (_CONCEDED.sub("", _its_sentence(side, elements)) for side in parts)
    # The side naming two elements is what they share: the first pole, wherever it was said.
    if len(_named_ids(elements, left_text)) == 1 and len(_named_ids(elements, right_text)) >= 2:
        left_text, right_text = right_text, left_text
    left, right = _pole_named(left_text, elements), _pole_named(right_text, elements)
    if left and (not right and _ODD_ONE_OUT.search(right_text) or _denies(right_text, elements)):
        # ("the bike is the odd one out": the pole it lacks)
        right = re.sub(r"^can\b", "can't", left) if left.startswith("can ") else f"not {left}"
    elif left and _affirms(right_text, elements) and _NEGATED.match(left):
        # ("e-scooter and bike you can't carry anything, car you can", round 283)
        right = _NEGATED.sub(lambda m: "can" if m.group(1) else "", left, count=1).strip()
    if not left or not right or left == right:
        return None
    return TriadAnswer(left, right, _tidy(left_text), _tidy(right_text))


def _tidy(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip(" ,;:.!?")


def _its_sentence(side: str, elements: Sequence[ConceptElement]) -> str:
    """The sentence of ``side`` that names an element (the first one), else its first; of a
    sentence of several clauses, the clause that names it ("and I can drop the kids at school
    on the way, with the bus I'd have to walk them": the bus's is the last)."""
    side = re.sub(r"\([^)]*\)", " ", side)  # ("bike doesn't (well apart from the odd puncture)")
    sentences: list[str] = [s for s in SENTENCE.findall(side) if s.strip()] or [side]
    # (the one naming most of them: "I don't really cycle, haven't been on a bike in years.
    # but ok car and bike you go when you want" is the pair's second sentence, round 278)
    named = [len(elements_named(elements, s)) for s in sentences]
    at = max(range(len(sentences)), key=lambda i: (named[i], -i)) if any(named) else 0
    sentence = sentences[at]
    if not _pole_named(sentence, elements) and at + 1 < len(sentences):
        # (the pair named in a sentence of its own: "car and bike. both go when I want to go",
        # the review)
        return f"{sentence} {sentences[at + 1]}"
    clauses = [c for c in sentence.split(",") if c.strip()]
    if len(clauses) > 1 and not elements_named(elements, clauses[0]):
        return next((c for c in clauses if elements_named(elements, c)), sentence)
    if (
        len(clauses) > 1
        and len(elements_named(elements, sentence)) == 1
        and _SAYS.search(clauses[0])
        and not _ODD_ONE_OUT.search(clauses[0])
        and pole(clauses[0], elements)
        and not _denies(clauses[0], elements)
    ):
        # (the one element's clause, not what they add after it: "Scooter's a death trap, I'm 47
        # not 17", round 285)
        return clauses[0]
    return sentence


def _affirms(side: str, elements: Sequence[ConceptElement]) -> bool:
    """``side`` says only that its element has what the other pole lacks ("car you can")."""
    said = re.sub(r"[^\w\s']+", " ", _without_names(side, elements))
    return _ONLY_YES.match(re.sub(r"\s+", " ", said).strip()) is not None


_ONLY_YES = re.compile(r"^(?:(?:it|they|you|i|we)\s+)?(?:can|does|do|is|are|will)$", re.IGNORECASE)
_NEGATED = re.compile(r"^(?:(can'?t|cannot)|not|don'?t|dont|doesn'?t|doesnt)\b", re.IGNORECASE)


def _denies(side: str, elements: Sequence[ConceptElement]) -> bool:
    """``side`` says only that its element lacks the other pole ("the bike isn't")."""
    said = re.sub(r"[^\w\s']+", " ", _without_names(side, elements))
    return _ONLY_NOT.match(re.sub(r"\s+", " ", said).strip()) is not None


def _named(name: str) -> str:
    """An element's name as said, plural or with its "'s" ("walking's the odd one out" left a
    pole "s its free", round 278)."""
    return re.escape(name) + r"(?:['\u2019]s|s)?\b"


def _without_names(text: str, elements: Sequence[ConceptElement]) -> str:
    """``text`` without the elements' names (and the preposition or article before one)."""
    bare = text
    for element in elements:
        for name in element_names(element):
            # (not a verb of theirs: "I'd have to walk them to school" keeps its "walk")
            bare = re.sub(
                r"(?<!\bto\s)(?<!\bi\s)(?<!\bwe\s)(?<!'d\s)(?<!\bcan\s)\b"
                r"(?:(?:in|on|with|by|for)\s+)?(?:the\s+|a\s+|my\s+)?" + _named(name),
                " ",
                bare,
                flags=re.I,
            )
    return bare


def _pole_named(text: str, elements: Sequence[ConceptElement]) -> str:
    """The pole a side states, named as a label: without the element names and the words that
    only say the elements are alike or apart ("are alike because", "is different because");
    what follows its "because" where it gives one. ``pole`` where no label is made."""
    said = [t for t in SENTENCE.findall(text) if t.strip()]
    if len(said) > 1 and not pole(said[0], elements):
        text = " ".join(said[1:])  # (the pair named in a sentence of its own)
    bare = _without_names(text, elements)
    bare = _BOTH.sub(" ", _ALIKE_OR_APART.sub(" ", bare))
    # (a denial then what it is instead: "the bus doesnt, you're stuck with the timetable" is
    # "stuck with timetable", and "Quickly: bus and walking are cheap" is "cheap", round 283)
    bare = _DENIED_THEN.sub(" ", _LEAD_IN.sub(" ", bare))
    # (whose it is, and a "like" closing it, say nothing of the pole: "the bike you're actually
    # moving like", "the ones you can do when it's lashing rain", round 252)
    bare = _WHOSE_AND_LIKE.sub(" ", bare)
    because = _BECAUSE.search(bare)
    if because is not None and pole(bare[because.end() :], elements):
        bare = bare[because.end() :]
    if not pole(bare, elements):
        return ""
    short = pole(bare, elements, _POLE_WORDS + 2)
    if len(words(bare)) <= _POLE_WORDS + 2:
        return short  # (said in a few words: as said, "go whenever i want")
    label = make_label(_LEADING_CUE.sub("", bare.strip(" ,;:.!?")), None, None).lower()
    return label if pole(label, elements) else short


_POLE_WORDS = 5
_OPENER = re.compile(
    r"^\W*(?:(?:well|so|ok|okay|right|um|erm|hmm|ah|oh|honestly|basically|i\s+mean|i\s+guess|"
    r"i'?d\s+say|id\s+say|i\s+suppose)\b\W*)+",
    re.IGNORECASE,
)
_CONCEDED = re.compile(
    r"\s*,\s*(?:but|though|although|mind\s+you)\s+(?:i|it|that|to\s+be\s+fair)\b[^.!?]*",
    re.IGNORECASE,
)
_LEAD_IN = re.compile(
    r"^\W*(?:quickly|briefly|ok|okay|right|well|so|fine|basically|honestly)\s*[:,]", re.IGNORECASE
)
_DENIED_THEN = re.compile(
    r"^\W*(?:(?:it|they|you|i|we)\s+)?(?:isn'?t|isnt|aren'?t|arent|doesn'?t|doesnt|don'?t|dont|"
    r"can'?t|cant|won'?t|wont)\s*[,;:-]+(?=\s*\w)",
    re.IGNORECASE,
)
_BECAUSE = re.compile(r"\b(?:because|cos|as|since)\b", re.IGNORECASE)
# What only says the elements are alike or apart: no pole
_ALIKE_OR_APART = re.compile(
    r"\b(?:(?:are|is)\s+)?(?:both\s+)?(?:(?:are|is)\s+)?(?:alike|similar|the\s+same|"
    r"(?:the\s+)?odd\s+one\s+out|different|(?:the\s+)?one\s+that'?s\s+different|"
    r"go\s+together|(?:in\s+)?that\s+(?:they|you|we)(?:'re|\s+are)?)\b",
    re.IGNORECASE,
)
_BOTH = re.compile(r"^\W*(?:(?:and|or|,)\W*)*(?:(?:are|is)\s+)?(?:both|each|all)\b", re.IGNORECASE)
_WHOSE_AND_LIKE = re.compile(
    r"^\W*(?:(?:and|or)\W+)?(?:(?:the\s+)?ones?\s+)?(?:you'?re|youre|you\s+are|you'?d|you'?ll|you|"
    r"they'?re|they|it'?s|its|we'?re)\s+"
    r"(?:(?:just|actually|really)\s+)?|(?<!\bi)(?<!\byou)(?<!\bwe)(?<!\bthey)(?<!\bwould)(?<!'d)\s+like\W*$",
    re.IGNORECASE,
)
# A side that only denies the other's pole: "the bike isn't", "Bus I can't", "bike doesnt"
_ONLY_NOT = re.compile(
    r"^(?:(?:it|they|you|i|we)\s+)?(?:isn'?t|isnt|aren'?t|arent|doesn'?t|doesnt|don'?t|dont|can'?t|"
    r"cant|won'?t|wont|not|you'?re\s+not|it'?s\s+not)$",
    re.IGNORECASE,
)
_ODD_ONE_OUT = re.compile(r"\b(?:odd\s+one\s+out|different|the\s+exception)\b", re.IGNORECASE)


# ---- ratings -----------------------------------------------------------------------------


def _to_int(text: str) -> int:
    return int(text) if text.isdigit() else NUMBER_WORDS[text.lower()]


def _value(match: re.Match[str]) -> int:
    return _to_int(match.group(1) or match.group(2))


def _ratings_in(text: str, start: int = 0) -> Iterator[re.Match[str]]:
    """The numbers of ``text`` from ``start`` that may be ratings: not counts ("the bus and
    train are late 5 days a week", review rv65)."""
    return (m for m in _NUMBER.finditer(text, start) if not _A_COUNT.match(text, m.end()))


def _number_after(text: str, start: int, taken: set[int]) -> int | None:
    for match in _ratings_in(text, start):
        if match.start() - start > 40:
            return None
        if match.start() not in taken:
            return _value(match)
    return None


def one_rating(answer: str) -> int | None:
    """The one rating an answer gives, however much else it says ("I said 2ish! so 2. you have to
    leave them in the parking bay thing"); None for none or several."""
    said = {_value(m) for m in _ratings_in(answer)}
    return said.pop() if len(said) == 1 else None


_A_COUNT = re.compile(
    r"\s*(?:days?|times?|mins?|minutes?|hours?|hrs?|weeks?|months?|years?|quid|pounds?|miles?|km|"
    r"stops?|p\b|%|x\b)",
    re.IGNORECASE,
)


def named_ratings(
    answer: str, elements: Sequence[ConceptElement]
) -> list[tuple[ConceptElement, int, str]]:
    """(element, number, quote) for each element named with a number: "car 2", "bike: five",
    "the bus is a 4", "1 for the car"; names in a row share the number after the last ("bus
    train taxi 5"), and "everything else 1" rates every element not named (round 283 asked
    for both again)."""
    named = elements_named(elements, answer)
    found: dict[str, tuple[ConceptElement, int, str]] = {}
    taken: set[int] = set()
    # "1 for the car, 2 for the bus": the number stands before the name.
    for position, element in named:
        before = _NUMBER_FOR.search(answer[:position])
        if before is not None:
            value = _to_int(before.group(1))
            found[element.id] = (element, value, f"{before.group(1)} for {element.label}")
            taken.add(before.start(1))
    ends: dict[str, int] = {}
    for i, (position, element) in enumerate(named):
        if element.id in found:
            continue
        end_of_name = position + max(
            (
                len(m.group(0))
                for n in element_names(element)
                for m in [re.match(re.escape(n), answer[position:], flags=re.IGNORECASE)]
                if m
            ),
            default=0,
        )
        limit = named[i + 1][0] if i + 1 < len(named) else len(answer)
        number = _number_after(answer[:limit], end_of_name, taken)
        if number is not None:
            found[element.id] = (element, number, answer[position:limit].strip(" ,;."))
        ends[element.id] = end_of_name
    _in_a_row(answer, named, ends, found)
    order = {e.id: i for i, (_, e) in enumerate(named)}
    rated = sorted(found.values(), key=lambda f: order[f[0].id])
    rest = _THE_REST.search(answer)
    if rest is not None and found:
        value = _to_int(rest.group("n"))
        # (not those it excepts: "everything else 1 except maybe the train", review rv65)
        but = _EXCEPT.match(answer, rest.end())
        left_out = {e.id for _, e in elements_named(elements, but.group(0))} if but else set()
        rated += [(e, value, rest.group(0)) for e in elements if e.id not in {*found, *left_out}]
    return rated


def _in_a_row(
    answer: str,
    named: list[tuple[int, ConceptElement]],
    ends: dict[str, int],
    found: dict[str, tuple[ConceptElement, int, str]],
) -> None:
    """Names said in a row with no number between them take the number of the last ("bus
    train taxi 5", "bus and train 5"), or, as many numbers following as names, one each in
    order ("train bus 3 4", "car bike 5 and 4": review rv65 gave both the first)."""
    i = 0
    while i < len(named):
        row = [i]
        while (
            row[-1] + 1 < len(named)
            and named[row[-1]][1].id in ends
            and _ONLY_JOINED.fullmatch(answer[ends[named[row[-1]][1].id] : named[row[-1] + 1][0]])
        ):
            row.append(row[-1] + 1)
        i = row[-1] + 1
        last = named[row[-1]][1]
        if len(row) < 2 or last.id not in found or last.id not in ends:
            continue
        numbers = _NUMBERS_IN_A_ROW.match(answer, ends[last.id])
        values = [_value(m) for m in _NUMBER.finditer(numbers.group(0) if numbers else "")]
        if len(values) == len(row):
            pairs = zip(row, values, strict=True)
        else:
            pairs = zip(row, [found[last.id][1]] * len(row), strict=True)
        for at, value in pairs:
            element = named[at][1]
            found[element.id] = (element, value, found[last.id][2])


_NUMBERS_IN_A_ROW = re.compile(
    rf"\W*{_A_NUMBER}(?:(?:\s*,\s*|\s+and\s+|\s+){_A_NUMBER}\b)*", re.IGNORECASE
)
_ONLY_JOINED = re.compile(r"[\s,/&]*(?:(?:and|or|plus)\b[\s,]*)?(?:the\s+)?", re.IGNORECASE)
_EXCEPT = re.compile(
    r"[^.!?]{0,20}?\b(?:except|apart\s+from|but\s+not|other\s+than|bar|besides)\b[^.!?;]*",
    re.IGNORECASE,
)
# "everything else 1", "the rest are a 5", "all the others 2"
_THE_REST = re.compile(
    r"\b(?:(?:everything|everyone|anything|all)\s+(?:else|the\s+others?|the\s+rest)|"
    r"(?:and\s+)?the\s+(?:rest|others))(?:\s+(?:are|is|get|gets|would\s+be|at|on|all|just))*"
    rf"\s*[:=-]?\s*(?:a\s+)?(?P<n>{_A_NUMBER})\b",
    re.IGNORECASE,
)


def numbers_alone(answer: str) -> list[int] | None:
    """The numbers of an answer that is numbers and little else ("1 2 5 4", "1, 2 and 5"),
    in order; None for any other answer."""
    numbers = list(_ANY_NUMBER.finditer(answer))
    if not numbers:
        return None
    rest = _ANY_NUMBER.sub(" ", answer)
    if any(w not in _NUMBERS_ONLY_FILLER for w in words(rest)):
        return None
    return [_value(m) for m in numbers]


def positional_ratings(
    answer: str, order: Sequence[ConceptElement], *, exactly: bool = False
) -> list[tuple[ConceptElement, int, str]] | None:
    """Numbers alone, given to ``order`` one by one; None when the answer is not numbers alone
    or gives more numbers than there are elements (whose would the extra be?), or with
    ``exactly`` any other count (one number for every element of the concept, in its order,
    after a question that listed only some)."""
    numbers = numbers_alone(answer)
    if numbers is None or len(numbers) > len(order) or (exactly and len(numbers) != len(order)):
        return None
    return [(e, n, f"{e.label}: {n}") for e, n in zip(order, numbers, strict=False)]
