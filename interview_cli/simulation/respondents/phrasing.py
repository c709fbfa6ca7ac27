"""How the offline respondent words its answers.

The simulator (``simulator``) decides WHAT to say - which rung, a vague answer, a don't-know;
this module says it. Two readers matter:

- the offline extractor (``llm.offline``), which finds elements and links by cue words. A rung
  is said in the persona's own words and a link with a cue it knows: "Because <next rung>"
  (an answer to a "why" question climbs from the focus), "<rung>, which means <rung above>",
  "It's about <value>". Every template here was checked against that extractor: it recovers
  the rung's label and adds no element of its own (tests/simulation/test_phrasing.py);
- the offline assessor, which must read a knowledge ceiling as *terminal* ("that's all there
  is to it") and a vague answer as *exploratory* ("I'd have to think about it").

Fillers that lengthen an answer for a verbose persona carry no element ("That really matters
to me, you know."). Tangents and the persona's own deflections are the exception on purpose:
a real respondent drifts and pushes back, and the interviewer has to cope.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

# First words of a rung that read as something the respondent does or feels: said with "I".
_FIRST_PERSON_LEADS = frozenset(
    """can can't cannot don't didn't feel keep never get lose forget switch hear listen
    wear look sound stay start avoid save choose carry charge take put blend arrive ride
    focus turn""".split()
)
# First words that make a rung a clause already ("they work", "came free with the phone",
# "works with my phone"): said as they are, never after "the".
_CLAUSE_LEADS = frozenset(
    """they it we i you my our came comes come works work no not don't didn't can can't
    people clients films music matches ten it's it'll doesn't weighs cost costs nobody's
    kids light easy cheaper still nothing""".split()
)
_ARTICLES = frozenset({"a", "an", "the", "my", "our", "their", "his", "her"})
_EXPLORATORY_MARKERS = re.compile(
    r"\b(?:maybe|perhaps|guess|suppose|think|thought|wonder|question|not sure|might)\b|\?",
    re.IGNORECASE,
)

OPEN_FIRST = ("I really like {x}.", "What I like is {x}.", "I really like {x}.")
OPEN_MORE = ("I also like {x}.", "Also {x}.", "I also like {x}.")
REASON = ("Because {x}.", "It means {x}.", "Because {x}.")
REASON_CONDUCT = ("It's about {x}.", "Because it's about {x}.")
REASON_END = ("I value {x}.", "Because I value {x}.")
CHAIN = ", which means {x}"
CLARIFY = ("I mean {x}.", "Well, I mean {x}.")
CLARIFY_MORE = " And that matters because {x}."
CONTINUE = "I mean {prev}. And that matters because {x}."
# Asked again for what it already said: it says so, and nothing else - no word of a rung, only
# the words of a complaint (a restated "Because X, again." gave the extractor X and "again").
# Mild for a tolerant persona, sharp for an irritated one. Every one of them says "said",
# "told", "again" or "covered", which the batch evaluation counts as a complaint.
COMPLAIN_MILD = (
    "Like I said, that's all I have on that.",
    "As I said before, that's it really.",
    "I think I said that already.",
)
COMPLAIN_SHARP = (
    "I already told you that.",
    "We covered that already.",
    "I said that already. Can we move on?",
)
# A redirection that gets past a stuck "why": a lead-in sentence in the strategy's spirit
# (no content word), then the rung as a plain reason the extractor reads like any other.
REDIRECT_LEAD = {
    "negative_ladder": ("I'd miss it.", "I'd miss it, really."),
    "third_person": ("For me? Well.", "For me?"),
    "situational": ("Last time, yes.", "Last time it mattered?"),
}
VAGUE = (
    "I'm not sure, I'd have to think about it.",
    "Hmm, I'm not sure. Let me think.",
)
CEILING_END = (
    "I don't know, that's all there is to it.",
    "It just is, that's all there is to it.",
    "I don't know. Nothing more to it really.",
)
NOTHING_NEW = ("Nothing else, that's all.", "Nothing else really, that's all.")
CLOSING = ("No, I think that covers it. Thanks for asking.", "Yes, that's about right.")
NO_LADDERS = "Nothing really, that's all."
TIRED_SHORT = ("Suppose so.", "Yeah.", "Hmm.")
HEDGES = ("I guess", "Maybe", "I suppose")
FILLERS = (
    "That really matters to me, you know.",
    "And that's really important to me.",
    "You know what I mean.",
    "It's really important to me, you know.",
    "Honestly, it matters to me.",
)
TANGENT = "That reminds me of {x}."
OPEN_NOTHING_LEFT = NOTHING_NEW

_PRONOUNS = {
    r"\bhis\b": "my",
    r"\bhim\b": "me",
    r"\bhe\b": "I",
    r"\bhimself\b": "myself",
    r"\bher\b": "my",
    r"\bshe\b": "I",
    r"\bherself\b": "myself",
}


def pick(rng: random.Random, options: Sequence[str]) -> str:
    return options[rng.randrange(len(options))]


def _first_word(text: str) -> str:
    return text.split()[0].lower() if text.split() else ""


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def _noun(name: str) -> str:
    """ "the <name>", unless the name brings its own article."""
    return name if _first_word(name) in _ARTICLES else f"the {name}"


def attribute_phrase(rng: random.Random, name: str, *, first: bool) -> str:
    """A concrete rung volunteered in answer to an open question."""
    if _first_word(name) in _CLAUSE_LEADS:
        return capitalise(name) + "."
    return pick(rng, OPEN_FIRST if first else OPEN_MORE).format(x=_noun(name))


def clause(name: str) -> str:
    """A rung as it follows "because": with "I" when it is something the respondent does."""
    if _first_word(name) in _FIRST_PERSON_LEADS:
        return f"I {name}"
    return name


def mention(name: str, *, concrete: bool) -> str:
    """A rung named as the thing talked about: "the noise cancelling" (a concrete rung),
    "I can wear them", "being organised"."""
    if concrete and _first_word(name) not in _CLAUSE_LEADS | _FIRST_PERSON_LEADS:
        return _noun(name)
    return clause(name)


def reason_phrase(rng: random.Random, name: str, *, level: str = "reason") -> str:
    """The next rung up, in answer to "why does that matter?". ``level``: ``reason`` (a
    consequence), ``conduct`` (a way of being: "it's about being organised") or ``end`` (an
    end state: "I value self-respect", which the extractor types as a value)."""
    if level == "end":
        return pick(rng, REASON_END).format(x=name)
    if level == "conduct":
        return pick(rng, REASON_CONDUCT).format(x=name)
    return pick(rng, REASON).format(x=clause(name))


def chain_phrase(first: str, then: str) -> str:
    """Two rungs at once: "Because <first>, which means <then>."."""
    return f"Because {clause(first)}" + CHAIN.format(x=clause(then)) + "."


def fillers(rng: random.Random, count: int) -> list[str]:
    """``count`` different content-free sentences that make an answer longer."""
    order = list(FILLERS)
    rng.shuffle(order)
    return order[: max(0, min(count, len(order)))]


def ceiling_phrase(rng: random.Random, deflections: Sequence[str]) -> str:
    """A terminal don't-know, sometimes led by one of the persona's own deflections.

    Deflections that sound open-ended ("let me think", a question back) would turn the
    ceiling into an exploratory one for the assessor, so only firm ones are used.
    """
    end = pick(rng, CEILING_END)
    firm = [d for d in deflections if not _EXPLORATORY_MARKERS.search(d)]
    if firm and rng.random() < 0.35:
        return f"{pick(rng, firm).strip()} {end}"
    return end


def tangent_phrase(rng: random.Random, tangents: Sequence[str]) -> str:
    """A drift into one of the persona's off-topic stories (profiles are in the third
    person: "his spreadsheet" becomes "my spreadsheet")."""
    text = pick(rng, tangents).strip().rstrip(".")
    for pattern, replacement in _PRONOUNS.items():
        text = re.sub(pattern, replacement, text)
    return TANGENT.format(x=text)


def complaint(rng: random.Random, *, sharp: bool) -> str:
    """ "I already told you that." - a re-asked respondent's answer, with nothing new in it."""
    return pick(rng, COMPLAIN_SHARP if sharp else COMPLAIN_MILD)


def redirected(rng: random.Random, strategy: str, reason: str) -> str:
    """A rung revealed to a redirection question: the strategy's lead-in, then the reason."""
    leads = REDIRECT_LEAD.get(strategy)
    return f"{pick(rng, leads)} {reason}" if leads else reason


def hedged(rng: random.Random, text: str) -> str:
    """ "Because X." -> "I guess because X." ("I ..." keeps its capital)."""
    keep = text[:2] in ("I ", "I'")
    return f"{pick(rng, HEDGES)} {text if keep else text[:1].lower() + text[1:]}"
