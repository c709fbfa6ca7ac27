"""Is a named clause content? The last gate before a clause of an answer becomes a node.

No node is better than a junk node: a question about "grim", "m" or "kings heath into town"
costs more rapport than a missed rung (INTERVIEWING.md "How people actually answer"). After
non-content spans are blanked (``nonanswers``) and a clause is named (``labels.make_label``),
the label itself is judged:

- a **verdict**: only words of judgement ("grim", "grand", "good boots"), with nothing the
  respondent values in it (``lexicon/en/judgement.yaml``; the topic's own name does not
  count);
- a **quantity** where the ontology has no type for circumstances: only numbers and units of
  time or weight ("two", "eight hours", "45 mins"); a price stays, since a price is an
  attribute (in a story, "two days" is how long it took, and stays);
- a **route or place**, likewise: where and a place ("in the warehouse", "up on the edge",
  ``lexicon/en/place.yaml``) or places named on the way ("Leith up to the Meadows");
- a **pointer**: only words that point at something said ("that's the problem", "that's the
  bigger deal", ``lexicon/en/pointer.yaml``);
- a **fragment**: one content word left of a longer clause ("thought" of "I thought, ...",
  "died" of "if they died"), unless it names a feeling, a value or what the study is about.

Each judgement returns the reason recorded with the dropped label, or None for content.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from interview_cli.llm.offline.lexicon import FEELING_WORDS, KIN, NAMELESS, VALUE_WORDS
from interview_cli.llm.offline.lexicon.phrases import HERE, load_file
from interview_cli.llm.offline.reading.clauses import CURRENCY_SIGN, WORD_REST
from interview_cli.llm.offline.reading.meta import content_idioms

WORD = re.compile(r"[\w£$€]" + WORD_REST)
# Numbers and units: a label of nothing else is a quantity ("eight hours", "two").
_NUMBER = re.compile(
    r"^(?:\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|half|"
    r"quarter|couple|few|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-\w+)$",
    re.IGNORECASE,
)
_UNITS = frozenset(
    """hour hours hr hrs min mins minute minutes second seconds sec secs day days week weeks
    month months year years kilo kilos kg kgs gram grams pound-weight stone mile miles km
    metre metres meter meters foot feet inch inches times time each every per till til until
    am pm o'clock""".split()
)
_CURRENCY = re.compile(r"[£$€]|\b(?:quid|pounds?|euros?|dollars?|bucks|pence|p|grand)\b", re.I)
_ROUTE = frozenset("into to up down from through towards across along via past".split())
_WHERE = frozenset(
    """in at on up into onto near from off down along across round around through over
    under outside inside by""".split()
)


@dataclass(frozen=True)
class Judged:
    """What a label is when it is not content, and the reason recorded with it."""

    kind: str
    reason: str


@cache
def verdict_words(language: str = "en") -> frozenset[str]:
    """The single words of the verdict list: judgements that name nothing."""
    spec = load_file(HERE / language / "judgement.yaml")
    return frozenset(p.lower() for p in spec.phrases if " " not in p.strip())


def _words(text: str) -> list[str]:
    return [w.lower().replace("\u2019", "'") for w in WORD.findall(text)]


def _content(words: list[str]) -> list[str]:
    return [w for w in words if w not in NAMELESS]


# Mild praise of the topic itself says nothing ("they're just good boots"); a harsher word
# does ("it's a rubbish bike" says it is old and cheap).
_GOOD_AT = re.compile(
    r"\b(?:good|great|brilliant|decent|bad|rubbish)\s+(?:at|with)\b", re.IGNORECASE
)
_MILD = frozenset("good great nice decent fine alright ok okay lovely brilliant just".split())


def is_verdict(label: str, topic_words: frozenset[str]) -> bool:
    """Only words of judgement: "grim", "grand", or mild praise of the topic ("good boots")."""
    words = _words(label)
    verdicts = verdict_words()
    judged = [w for w in words if w in verdicts]
    rest = [w for w in _content(words) if w not in verdicts]
    if not judged or content_idioms(label) > 0:
        return False  # "one less thing to think about": an idiom of such words names something
    if _GOOD_AT.search(label):
        return False  # "be good at my job": a skill, not a rating
    if not rest:
        return True
    return all(w in topic_words for w in rest) and all(w in _MILD for w in judged)


@cache
def pointer_words(kind: str = "pointer", language: str = "en") -> frozenset[str]:
    """Words that point at something said instead of naming it ("the problem", "the deal"),
    or (``pointer_degree``) the words of degree that go with them ("bigger", "main")."""
    return frozenset(p.lower() for p in load_file(HERE / language / f"{kind}.yaml").phrases)


_WHICH_SUBJECTS = frozenset("it they i you we he she that which who".split())


def is_pointer(label: str) -> bool:
    """Only pointing: "that's the problem", "that's the bigger deal" (not "the big one")."""
    raw = [w for w in _words(label) if w != "the"]
    if raw[:1] in (["one"], ["ones"]) and raw[1:2] and raw[1] in _WHICH_SUBJECTS:
        return True  # "the ones it came with (are rubbish)": which ones is said elsewhere
    words = [w.replace("'s", "") for w in _content(_words(label))]
    if words[:1] == ["feel"]:  # "feel like that's the bigger deal": the pointing is felt
        words = words[1:]
    nouns = [w for w in words if w in pointer_words()]
    if not nouns and words:
        # "rather the point": a pointing noun that names nothing, with only words of degree
        nouns = [w for w in _words(label) if w in pointer_words()]
        return bool(nouns) and all(w in pointer_words("pointer_degree") for w in words)
    return bool(nouns) and all(
        w in pointer_words("pointer_degree") for w in words if w not in nouns
    )


# A feeling with nothing it is about ("I can't stand it" of the clause before), or whose it is
# with nothing owned ("it's theirs"): it points back, and names nothing of its own.
_FEELING_VERBS = frozenset("stand bear hate hates love loves like likes mind abide".split())
_BARE = frozenset("can't cant cannot can not don't dont do really just it's its is".split())
_OWNERS = frozenset("mine ours yours theirs hers his".split())


def _bare_stance(label: str) -> bool:
    words = set(_words(label))
    if not words or not words <= _FEELING_VERBS | _BARE | _OWNERS:
        return False
    return bool(words & (_FEELING_VERBS | _OWNERS))


# ... and whether it is the best or worst is a judgement too: "the best fifteen minutes of my
# day" (round 204)
_JUDGED_AMOUNT = frozenset({"enough", "plenty", "best", "worst", "favourite", "happiest"})


def is_quantity(label: str) -> bool:
    """Only numbers and units of time, distance or weight ("eight hours", "two"); a price is
    an attribute and stays."""
    # (a figure's currency sign is kept on its word, "£70 a month", and weighs as it did when it
    # was not: a bare figure after what it prices is no node of its own)
    label = re.sub(CURRENCY_SIGN + r"(?=\d)", "", label)
    words = _words(label)
    if not words or _CURRENCY.search(label) or content_idioms(label):
        return False
    if _JUDGED_AMOUNT & set(words):
        return False  # "always enough for two of us": whether it is enough is a judgement
    # "one" is a number before a unit ("one day"), else a pronoun ("the 750 one")
    numbers = [
        i
        for i, w in enumerate(words)
        if _NUMBER.match(w) and (w != "one" or words[i + 1 : i + 2] and words[i + 1] in _UNITS)
    ]
    return bool(numbers) and all(_NUMBER.match(w) or w in _UNITS or w in NAMELESS for w in words)


_TIME_WORDS = frozenset(
    """all every single each some most whole day days morning mornings night nights evening
    evenings afternoon week weeks weekend weekends month months year years time times today
    tonight daily weekly nightly usually often sometimes always lunch lunchtime lunchtimes
    teatime dinnertime""".split()
)  # (round 56: "three times a day, morning lunch and evening" made the node "morning lunch";
# "lunch" alone is no time: a meal may be what they talk about)
_TIME_NOUNS = frozenset(
    "day days morning mornings night nights evening evenings afternoon week weeks weekend "
    "weekends month months year years today tonight lunchtime lunchtimes teatime "
    "dinnertime".split()
)


def is_time(label: str) -> bool:
    """Only when, or how often: "all day", "every day", "some nights"."""
    words = _words(label)
    return bool(set(words) & _TIME_NOUNS) and all(w in _TIME_WORDS or w in NAMELESS for w in words)


@cache
def place_nouns(language: str = "en") -> frozenset[str]:
    return frozenset(p.lower() for p in load_file(HERE / language / "place.yaml").phrases)


def is_place(label: str, quote: str) -> bool:
    """A route or a place: where and a place ("in the warehouse", "up on edge"), or places
    named by their proper names on the way ("Kings Heath into town", "Leith up to the
    Meadows")."""
    words = [w for w in _words(label) if w not in ("the", "a", "an", "my", "me", "our", "this")]
    if not words or len(words) > 5:
        return False
    said = _names_in(quote)
    proper = [i for i, w in enumerate(words) if w in said]
    route = [i for i, w in enumerate(words) if w in _ROUTE and not _kept_by(words, i)]
    # "Kings Heath into town", "Leith up to the Meadows", "up the Alcester Road"
    if any(abs(p - q) == 1 for p in proper for q in route):
        return True
    rest = [w for w in words if w not in _WHERE]
    places = place_nouns()
    return words[0] in _WHERE and bool(rest) and all(w in places or w in said for w in rest)


def _names_in(quote: str) -> set[str]:
    """The capitalised words of ``quote`` that are names: a sentence's first word only when
    the word after it is capitalised too ("Kings Heath into town") or it sets off on a route
    to a place ("Leith to town", "Edale up onto the moor"), since "Less to worry about" has
    its capital from the sentence (it had been read as a route and dropped)."""
    names: set[str] = set()
    for sentence in re.split(r"(?<=[.!?])\s+", quote):
        said = WORD.findall(sentence)
        for i, word in enumerate(said):
            if not word[:1].isupper() or word == "I":
                continue
            if i > 0 or (not _ORDINARY_FIRST.search(word) and _names_a_route(said[1:])):
                names.add(word.lower())
    return names


# A sentence's first word that is no name whatever follows: a doing, a how, a nearness
# ("Walking to work is my favourite bit", "Close to the shops": from the review)
_ORDINARY_FIRST = re.compile(
    r"(?:ing|ly)$|^(?:close|closer|near|nearer|next|back|home|straight|less|more|most|just|only|"
    r"right|down|up|off|out|over|across|from|round|around|all|half)$",
    re.IGNORECASE,
)


def _names_a_route(after: list[str]) -> bool:
    """The words after a sentence's first word are a name's or a route's to a place."""
    if after[:1] and after[0][:1].isupper() and after[0] != "I":
        return True
    rest = list(after)
    if not rest or rest[0].lower() not in _ROUTE:
        return False
    while rest and rest[0].lower() in _ROUTE | {"the", "my", "our", "onto"}:
        rest.pop(0)
    return bool(rest) and (rest[0][:1].isupper() or rest[0].lower() in place_nouns())


# A "to" after these is whom the word is about, not where: "kind to Bryn", "talk to Mum",
# "married to Dave"
_TO_WHOM = frozenset(
    """kind nice good lovely talk talking talked chat chatting speak speaking listen listening
    married engaged""".split()
)
# ... and after a closeness that is felt, not a distance: "being close to Aoife" (dev 8's
# respondent treasured it, and the reader had dropped it as a route), "feel closer to my nan";
# not "I park next to Tesco", "we live close to Leith"
_CLOSE = frozenset("close closer".split())
_FELT = frozenset("being feel feels feeling felt stay staying keep keeps so really very".split())


def _kept_by(words: list[str], at: int) -> bool:
    """The route word at ``at`` is a "to" that the word before it keeps (``_TO_WHOM``, or a
    closeness felt)."""
    if words[at] != "to" or at < 1:
        return False
    before = words[at - 1]
    return before in _TO_WHOM or (before in _CLOSE and at >= 2 and words[at - 2] in _FELT)


def _named(word: str, text: str) -> bool:
    """The word is a name in the respondent's words (capitalised after the first word):
    a brand or a model, which is an attribute on its own."""
    said = WORD.findall(text)
    return any(w.lower() == word and w[:1].isupper() and w != "I" for w in said[1:])


# A one-word label after these in its clause is a verb or the tail of a clause about
# something else: "I thought", "which was loose", "it's a hospital".
_SUBJECTS = frozenset("i we you he she somebody someone people".split())
_RELATIVE = frozenset("which that who".split())
_PAST = frozenset("broke fell went came got took ran gave".split())


_MYSELF_AS = frozenset("i'm im am feel felt being".split())


def is_fragment(label: str, clause_text: str, vocabulary: frozenset[str]) -> bool:
    """One word kept of a longer clause, unless it names a feeling, a value, something the
    study is about or a brand: "thought" of "I thought, ...", "died" of "if they died",
    "loose" of "which was loose", "hospital" of "it's a hospital" (but "Light.", "The lock.",
    "They're waterproof", "a Kindle" stay)."""
    words = [w for w in _words(label) if w not in ("a", "an", "the")]
    if len(words) > 1:
        words = [w for w in words if w not in _OWNERS]  # ("mine" alone is itself)
    said = _words(clause_text)
    if len(words) != 1 or len(said) < 2 or _named(words[0], clause_text):
        return False
    word = re.sub(r"'s$", "", words[0])
    stem = word[:-1] if word.endswith("s") else word
    if {word, stem} & (FEELING_WORDS | VALUE_WORDS | vocabulary):
        return False
    at = said.index(words[0]) if words[0] in said else -1
    before = said[at - 1] if at >= 1 else ""
    if before in ("a", "an") and set(said[max(0, at - 4) : at - 1]) & _MYSELF_AS:
        return False  # "So like I'm actually a grown-up": what they are, said of themselves
    if said[0] in _RELATIVE or before in _SUBJECTS or before in ("a", "an"):
        return True
    # what the thing did, in a story: "if they died", "it broke" (not "it lasts"); "cos mine
    # died" (of a charger named before it: round 178 asked "You mentioned that yours died")
    return before in ("it", "they", *_OWNERS) and (word.endswith("ed") or word in _PAST)


def judge_label(
    label: str,
    *,
    quote: str,
    clause_text: str,
    topic_words: frozenset[str],
    vocabulary: frozenset[str],
    circumstances: bool,
    named: bool = False,
) -> Judged | None:
    """Why ``label`` is no node (None: it is content). ``circumstances``: the ontology has a
    type for them (a job's context, an incident's situation), where a place is content.
    ``named``: the label is the first thing said to a question asking what they notice or
    what else matters, where a measure said alone is the feature they name ("ten kilo",
    "forty minutes", "month to month"), not a time in a story."""
    if not re.search(r"[^\W_]{2}", label):
        # (a key struck by mistake: "x" was asked "Why does "x" matter to you?", round 230)
        return Judged("pointer", "no word in it, not an element")
    verdict = is_verdict(label, topic_words) and not _NONE_OF.match(label)
    if verdict or _IRKED.match(label) or _JUST_BEST.match(label):
        return Judged("verdict", "a verdict with no reason in it, not an element")
    if is_pointer(label) or _bare_stance(label):
        return Judged("pointer", "points at something said instead of naming it")
    measure = named and _measure(label)
    quantity = is_quantity(clause_text) and not _JUDGED_AMOUNT & set(_words(label))
    if not measure and (quantity or (not circumstances and is_quantity(label))):
        return Judged("quantity", "a quantity or a time, not an element")
    if not measure and is_time(label):
        return Judged("time", "a time or how often, not an element")
    if not circumstances and not measure and is_place(label, quote):
        return Judged("place", "a place or a route: the scene of a rung, not a rung")
    if is_fragment(label, clause_text, vocabulary):
        return Judged("fragment", "one word left of a longer clause, not an element")
    if _only_someone(label) or _WHO_SOMEONE_IS.match(label) or _WHO_SOMEONE_IS.match(quote):
        return Judged("person", "someone of theirs named, not what matters about them")
    return None


# Who someone is to them, said as a fact: "Javier is my fiancee's brother" (round 249 asked
# what difference that made: "He is her brother, that's just a fact?"), "he's my neighbour",
# "theyre my grandkids love" (dev sets asked about both); not a friend ("He's my best mate lol,
# we ride together", "Coffee's my best friend": what they are to them is the point), nor what it
# is ("It's my kids", asked why being safe on the road matters: the review)
_WHO_SOMEONE_IS = re.compile(
    r"^\s*(?:(?:because|cos|and|but|so|well|oh)\W+)?(?:(?:he|she|they)(?:\s+(?:is|are|was))?|he's|she's|they're|theyre|hes|shes|"
    r"(?!(?:it|that|this|there|here|what|which|who|everything|one|mine|thing|reason|point)\b)"
    r"[a-z]+(?:\s+(?:is|was)|'s))\s+"
    r"(?:my|our)\s+(?:(?:\w+'s|\w+s'|late|little|big|wee|older|younger|eldest|youngest|oldest|"
    r"own)\s+)*(?:"
    + "|".join(
        sorted(
            (KIN - {"baby", "babies"})
            | {
                "neighbour",
                "neighbor",
                "boss",
                "cousin",
                "nephew",
                "niece",
                "in-laws",
                "brother-in-law",
                "sister-in-law",
                "stepson",
                "stepdaughter",
                "fiance",
                "fiancé",
                "fiancée",
            }
        )
    )
    + r")(?:\s+(?:love|mate|pet|hun|duck|bach|hen|like|innit|too|as\s+well))?"
    r"(?:\W+(?:and|but|so|cos|because))?\W*$",
    re.IGNORECASE,
)


# Someone of theirs named alone ("late husband", "wee boy", "my son"): what matters about them
# is the element, never the person (round 243 asked "What is it about your late husband that
# counts for you?" after "It was Gerald's lawn really, my late husband"); "family" is a value
_SOMEONE = KIN | {"fella", "man"}
_ABOUT_SOMEONE = frozenset(
    "late wee little young old own my our the his her their poor dear".split()
)


def _only_someone(label: str) -> bool:
    """Someone named with a word of who they are to them, not as an item ("late husband", "wee
    boy"; not "my grandson" said as what is missing, nor "kids" in a list)."""
    words = set(_words(label))
    return bool(words & _SOMEONE and words & _FOND) and words <= _SOMEONE | _ABOUT_SOMEONE


_FOND = frozenset("late wee".split())


# Only how much it irks, said as a sentence of its own: "They die on the train. Drives me
# mad." (my typed interview made "drives me mad" an attribute and asked about it next); not a
# feeling named ("sad", "gutted": a consequence when asked how it felt)
_IRKED = re.compile(
    r"^\s*(?:(?:it|that|this|which)(?:'s|s|\s+is|\s+was)?\s+)?"
    r"(?:(?:proper|so|really|well|dead|just|a\s+bit|absolutely)\s+)?"
    r"(?:drives\s+me\s+(?:mad|nuts|crazy|up\s+the\s+wall|round\s+the\s+bend)|"
    r"(?:does\s+my\s+)?head\s+in|gets\s+on\s+my\s+nerves|(?:such\s+|a\s+|right\s+)*faff|"
    r"winds\s+me\s+up|annoying|irritating|infuriating|maddening|nightmare|"
    r"(?:a\s+)?right\s+(?:pain|nightmare)|a\s+(?:pain|nightmare))\s*$",
    re.IGNORECASE,
)
# The best or worst of its kind, with nothing of theirs in it: "which is the best thing I ever
# bought", "the best option for us" (the review: asked "How does that help you?"); not "the best
# fifteen minutes of my day", what they live
_JUST_BEST = re.compile(
    r"^\s*(?:the\s+)?(?:best|worst)\s+(?:thing|things|option|choice|decision|buy|purchase|one|"
    r"idea)(?:\s+(?:i\s+)?(?:ever\s+)?(?:bought|did|made|had|got|done|found))?\s*$",
    re.IGNORECASE,
)
# "no rubbish in it", "nothing nasty in them": what it is free of, not a verdict on it
_NONE_OF = re.compile(r"^\s*(?:no|nothing)\s+\w+(?:\s+\w+)?\s+in\s+(?:it|them|there)\s*$", re.I)
# A clock time, a day or a when ("2 a.m.", "last Tuesday", "every night") is a moment in a
# story even as the first thing said; a count with its unit is a measure of the thing.
_MOMENT = re.compile(
    r"\d[:.]\d|\b(?:a\.?m|p\.?m|o'?clock|last|ago|yesterday|tonight|today|night|nights|"
    r"morning|mornings|evening|evenings|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday)\b",
    re.IGNORECASE,
)


# The units a thing is measured in: the units of time, weight and distance without the words
# of how often or till when, and the measures of a product's own
MEASURE_UNITS = (
    _UNITS - frozenset("times time each every per till til until am pm o'clock".split())
) | frozenset("litre litres liter liters watt watts gig gigs gb percent".split())


def is_count(word: str) -> bool:
    """A number, in figures or words ("300", "forty", "a couple")."""
    return bool(_NUMBER.match(word))


def is_money(word: str) -> bool:
    """A word of money ("quid", "pounds", "£")."""
    return bool(_CURRENCY.fullmatch(word))


_EVERY_SO_OFTEN = re.compile(r"^\s*(\w+)\s+to\s+\1\s*$", re.IGNORECASE)  # "month to month"


def _measure(label: str) -> bool:
    """A measure said as a feature: a count and its unit and nothing else ("forty minutes",
    "ten kilo"), or a term ("month to month"); no moment of a story ("2 a.m.", "300 days on",
    "8 till 7")."""
    if _MOMENT.search(label):
        return False
    if _EVERY_SO_OFTEN.match(label):
        return True
    words = _words(label)
    return (
        len(words) >= 2
        and any(_NUMBER.match(w) for w in words)
        and any(w in MEASURE_UNITS for w in words)
        and all(_NUMBER.match(w) or w in MEASURE_UNITS for w in words)
    )


__all__ = [
    "MEASURE_UNITS",
    "Judged",
    "is_count",
    "is_money",
    "is_fragment",
    "is_place",
    "is_pointer",
    "is_quantity",
    "is_time",
    "is_verdict",
    "judge_label",
    "place_nouns",
    "verdict_words",
]
