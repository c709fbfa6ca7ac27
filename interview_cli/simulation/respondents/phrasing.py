"""How the offline respondent words its answers: the frames a person says a meaning in.

The simulator (``simulator``) decides WHAT to say - which rung, a vague answer, a don't-know,
a correction, going back to an earlier point; this module gives the words around it, and
``voice`` colours the result with the person's own hedges, fillers, backstory, asides, jokes
and typing slips.

A rung is said in the person's words (``Rung.says``: full phrases such as "it helps you up
the hills" or "the ANC"), so a frame here must read naturally around a noun phrase and a
clause alike: "Mostly {x}.", "{x}, so {y}.", "It comes down to {x}.". A rung without
sayings is said by its code, made speakable by the grammar helpers at the end ("noise
cancelling" -> "the noise cancelling", "can focus on the train" -> "I can focus on the train").

Nothing here is tuned to the offline reader: people say "because" now and then, not every
time, and a value comes out as "it comes down to ...", not "I value ...". The firm don't-know
and the "nothing else" lines are the exception: they are what a person says at the end of what
they know, and the batch evaluation counts the complaints by their words ("again", "already").
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from interview_cli.config.families import StrategyFamily

# -- frames for content: {x} is a rung said in the person's words, {y} the next one ----------
OPEN_FIRST = (
    "{x}.",
    "Well, {x}.",
    "Mostly {x}.",
    "{x}, first of all.",
    "The first thing? {x}.",
    "For me, {x}.",
)
OPEN_MORE = ("Oh, and {x}.", "Also {x}.", "{x}, too.", "And {x}.", "Another thing, {x}.")
# Two attributes volunteered at once.
OPEN_TWO = ("{x}, and {y}.", "{x}. Oh, and {y}.", "{x}, and also {y}.")
REASON = ("Because {x}.", "{x}.", "Well, {x}.", "{x}, basically.", "So {x}.", "Mostly {x}.")
REASON_END = (
    "It comes down to {x}.",
    "{x}, in the end.",
    "{x}, really. That's what it is.",
    "Because {x}, at the end of the day.",
)
# Two reasons in one breath: the rung and the one above it.
TWO_REASONS = (
    "{x}, and {y}.",
    "{x}, so {y}.",
    "{x}. And {y}, too.",
    "{x}, which means {y}.",
    "Because {x}, so {y}.",
)
CLARIFY = ("I mean {x}.", "Like, {x}.", "What I mean is {x}.", "{x}, I mean.")
CLARIFY_MORE = (" And that matters because {y}.", " So {y}.", " Which means {y}.")
# An open question once every ladder is open: one rung further on an earlier point.
CONTINUE = ("{prev}, yeah, so {y}.", "And {prev}, so {y}.", "Also, {prev}, which means {y}.")
# The respondent steers: back to a point it opened earlier, then what it wanted to say.
GO_BACK = (
    "Can we go back to what I said about {prev}? {y}.",
    "Actually, can we go back to the bit where I said {prev}? {y}.",
    "Going back to when I said {prev} - {y}.",
)
GO_BACK_MARKERS = re.compile(r"\bgo(?:ing)? back to\b", re.IGNORECASE)
# A correction of what it misspoke in an earlier answer.
CORRECTION = (
    "Sorry, I said {wrong} earlier, I meant {right}.",
    "Actually, scratch that - when I said {wrong}, I meant {right}.",
    "Wait, not {wrong}. I meant {right}.",
)
# Asked about something it never meant: a question back, in the interviewer's words.
WHAT_DO_YOU_MEAN = (
    "Sorry, what do you mean by '{x}'?",
    "Sorry, what do you mean by '{x}'? I'm not sure I said that.",
    "What do you mean by '{x}'?",
)
# Asked about words it said only in passing (backstory, an aside): it says so.
BY_THE_WAY = (
    "Oh, that's got nothing to do with it, I was only saying.",
    "No, that was just by the way.",
    "Ah, that's beside the point, really.",
)
# Asked again for what it already said: it says so, and nothing else - no word of a rung, only
# the words of a complaint. Mild for a tolerant persona, sharp for an irritated one. Every one
# of them says "said", "told", "again" or "covered", which the batch evaluation counts as a
# complaint.
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
# A redirection that gets past a stuck "why": a lead-in sentence in the spirit of its family
# (no content word), then the rung as a plain reason.
REDIRECT_LEAD: dict[StrategyFamily, tuple[str, ...]] = {
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
# The closing turn: nothing missed, or the check-back confirmed.
NOTHING_MISSED = "No, I think that covers it. Thanks for asking."
CONFIRMED = "Yes, that's about right."
CLOSING = (NOTHING_MISSED, CONFIRMED)
NO_BELIEFS = "Nothing really, that's all."
TIRED_SHORT = ("Suppose so.", "Yeah.", "Hmm.")
TANGENT = "That reminds me of {x}."

_EXPLORATORY_MARKERS = re.compile(
    r"\b(?:maybe|perhaps|guess|suppose|think|thought|wonder|question|not sure|might)\b|\?",
    re.IGNORECASE,
)
_PRONOUNS = {
    r"\bhis\b": "my",
    r"\bhim\b": "me",
    r"\bhe\b": "I",
    r"\bhimself\b": "myself",
    r"\bher\b": "my",
    r"\bshe\b": "I",
    r"\bherself\b": "myself",
}
# First words that may lose their capital when something is put before them ("Because ..."
# -> "to be honest, because ..."); any other word (I, a name, Tesco) keeps it.
_LOWERABLE = frozenset(
    """because well mostly also and so it's it the for what like oh another sorry actually
    wait can going about that there they we my a an not no just nothing hmm last yeah yes
    you your our their its this these those everything all less more much some one when
    if but then even never always""".split()
)


_SENTENCE_START = re.compile(r"([.?!] )([a-z])")


def pick(rng: random.Random, options: Sequence[str]) -> str:
    return options[rng.randrange(len(options))]


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def lower_lead(text: str) -> str:
    """``text`` to follow something else in a sentence: its first letter lowered when the
    first word is an ordinary one ("Because" -> "because"), kept for "I" or a name."""
    first = text.split(" ", 1)[0].strip(",.?!:;-").lower()
    return text[:1].lower() + text[1:] if first in _LOWERABLE else text


def frame(rng: random.Random, options: Sequence[str], **parts: str) -> str:
    """A frame filled in with the person's words as they are written (mid-sentence: "it
    helps you up the hills", "Chloe picks the meals"). A sentence that starts inside the frame
    gets its capital; the answer's first letter is the caller's (``sentences``)."""
    return _SENTENCE_START.sub(
        lambda m: m.group(1) + m.group(2).upper(), pick(rng, options).format(**parts)
    )


def sentences(text: str) -> str:
    """Every sentence of ``text`` starting with a capital letter."""
    return _SENTENCE_START.sub(lambda m: m.group(1) + m.group(2).upper(), capitalise(text))


def sentence(text: str) -> str:
    """A voice item ("my wife says I'm obsessed") as a sentence of its own."""
    text = text.strip()
    if not text:
        return text
    return capitalise(text if text[-1] in ".!?" else text + ".")


def ceiling_phrase(rng: random.Random, own: Sequence[str], deflections: Sequence[str]) -> str:
    """A terminal don't-know: mostly in the person's own words (``Voice.ceiling``), else a
    plain one, sometimes led by one of its firm deflections (an open-ended one, "let me
    think", would not say it is the end)."""
    if own and rng.random() < 0.7:
        return sentence(pick(rng, own))
    end = pick(rng, CEILING_END)
    firm = [d for d in deflections if not _EXPLORATORY_MARKERS.search(d)]
    if firm and rng.random() < 0.35:
        return f"{sentence(pick(rng, firm))} {end}"
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


def redirected(rng: random.Random, family: StrategyFamily | None, reason: str) -> str:
    """A rung revealed to a redirection question: its family's lead-in, then the reason."""
    leads = REDIRECT_LEAD.get(family) if family else None
    if not leads:
        return reason
    lead = pick(rng, leads)
    if lead.endswith("Well.") and reason.lower().startswith("well, "):
        reason = reason[len("well, ") :]
    return f"{lead} {capitalise(reason)}"


# -- a code without sayings, made speakable ----------------------------------------------------
# First words of a code that read as something the respondent does or feels: said with "I".
_FIRST_PERSON_LEADS = frozenset(
    """can can't cannot don't didn't feel keep never get lose forget switch hear listen
    wear look sound stay start avoid save choose carry charge take put blend arrive ride
    focus turn""".split()
)
# First words that make a code a clause already ("they work", "came free with the phone",
# "works with my phone"): said as they are, never after "the".
_CLAUSE_LEADS = frozenset(
    """they it we i you my our came comes come works work no not don't didn't can can't
    people clients films music matches ten it's it'll doesn't weighs cost costs nobody's
    kids light easy cheaper still nothing""".split()
)
_ARTICLES = frozenset({"a", "an", "the", "my", "our", "their", "his", "her"})


def _first_word(text: str) -> str:
    return text.split()[0].lower() if text.split() else ""


def clause(code: str) -> str:
    """A code as it follows "because": with "I" when it is something the respondent does."""
    if _first_word(code) in _FIRST_PERSON_LEADS:
        return f"I {code}"
    return code


def mention(code: str, *, concrete: bool) -> str:
    """A code named as the thing talked about: "the noise cancelling" (a concrete rung),
    "I can wear them", "being organised"."""
    if concrete and _first_word(code) not in _CLAUSE_LEADS | _FIRST_PERSON_LEADS:
        return code if _first_word(code) in _ARTICLES else f"the {code}"
    return clause(code)
