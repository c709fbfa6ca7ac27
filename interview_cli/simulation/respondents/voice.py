"""How a simulated person talks: its voice, and an answer coloured by it.

Real answers are messy (INTERVIEWING.md, "How people actually answer"): a hedge, a filler, a
form of address, a bit of backstory, an aside, a joke, a typing slip. The persona's ``voice``
(``Voice``: hedges, fillers, address, backstory, asides, jokes, ceiling, typo_rate) says which
ones THIS person uses; a persona without one gets a plain voice made from its traits
(:func:`voice_of`), so every batch talks like people.

How much colour an answer gets follows the person's verbosity: about a third of the answers
of an ordinary talker stay plain (more for a quiet one, fewer for a rambler), the others
carry one to three touches; a tired person (past its patience) drops the stories first.
Everything here is chance from the ``random.Random`` it is handed, so an answer is the same
for the same seed and history.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from interview_cli.config.schemas import Persona, PersonaTraits, Voice
from interview_cli.simulation.respondents import phrasing as say

# Share of plain answers: this at verbosity 0, falling by the next per unit of verbosity
# (0.5 -> 0.35: about a third), and rising by the last per turn past the persona's patience.
PLAIN_AT_ZERO = 0.55
PLAIN_PER_VERBOSITY = 0.4
PLAIN_PER_TIRED_TURN = 0.15
# Touches an answer that is not plain gets: one, a second with this share of verbosity, a
# third with this one.
SECOND_TOUCH = 0.8
THIRD_TOUCH = 0.35
# How likely each touch is to be the one chosen (relative), when the voice has it; stories
# (backstory, asides, jokes) weigh more the more the person talks.
_TOUCH_WEIGHTS = {
    "hedge": (3.0, 0.0),
    "filler": (2.5, 0.5),
    "address": (1.0, 0.0),
    "backstory": (1.0, 2.0),
    "aside": (0.5, 1.5),
    "joke": (0.3, 1.0),
}
_STORIES = frozenset({"backstory", "aside", "joke"})
# A plain voice, from the traits, for a persona without one.
_PLAIN_HEDGES = ("I think", "I suppose")
_UNSURE_HEDGES = ("I guess", "maybe", "I suppose")
_PLAIN_FILLERS = ("you know",)
_PLAIN_ASIDES = ("if that makes sense",)
PLAIN_TYPO_RATE = 0.01
# A slip of the keys only on words this long (short ones stay readable, and a person reading
# back still finds their own words).
TYPO_MIN_LENGTH = 4
_WORD = re.compile(rf"\b[A-Za-z]{{{TYPO_MIN_LENGTH},}}\b")


def voice_of(persona: Persona) -> Voice:
    """The persona's voice, or a plain one made from its traits: hedges for everyone (more
    unsure ones for a hedging speaker), a filler and an aside for a talkative one."""
    if persona.voice is not None:
        return persona.voice
    traits = persona.traits
    unsure = hedging(persona.speech_pattern) or traits.openness < 0.4
    return Voice(
        hedges=list(_UNSURE_HEDGES if unsure else _PLAIN_HEDGES),
        fillers=list(_PLAIN_FILLERS) if traits.verbosity >= 0.5 else [],
        asides=list(_PLAIN_ASIDES) if traits.verbosity >= 0.6 else [],
        typo_rate=PLAIN_TYPO_RATE,
    )


def hedging(speech_pattern: str) -> bool:
    """A speech pattern that describes a tentative, qualifying speaker."""
    text = speech_pattern.lower()
    return any(w in text for w in ('"maybe"', '"i guess"', "tentative", "qualif"))


@dataclass(frozen=True)
class Colour:
    """What one answer gets: the touches chosen, in the order they are applied."""

    touches: tuple[str, ...] = ()


def choose_colour(rng: random.Random, voice: Voice, traits: PersonaTraits, tired: int) -> Colour:
    """Plain, or one to three touches the voice has, by the person's verbosity."""
    verbosity = traits.verbosity
    plain = PLAIN_AT_ZERO - PLAIN_PER_VERBOSITY * verbosity + PLAIN_PER_TIRED_TURN * tired
    if rng.random() < plain:
        return Colour()
    count = 1 + (rng.random() < SECOND_TOUCH * verbosity) + (rng.random() < THIRD_TOUCH * verbosity)
    available = {
        "hedge": voice.hedges,
        "filler": voice.fillers,
        "address": voice.address,
        "backstory": voice.backstory,
        "aside": voice.asides,
        "joke": voice.jokes,
    }
    weights = {
        name: base + per * verbosity
        for name, (base, per) in _TOUCH_WEIGHTS.items()
        if available[name] and not (tired and name in _STORIES)
    }
    chosen: list[str] = []
    while weights and len(chosen) < count:
        names = sorted(weights)
        name = rng.choices(names, weights=[weights[n] for n in names])[0]
        chosen.append(name)
        del weights[name]
    return Colour(tuple(chosen))


def colour(rng: random.Random, text: str, voice: Voice, chosen: Colour) -> str:
    """``text`` (one or more sentences) with the chosen touches of the voice: the words in
    the sentence first (a hedge, a filler, a form of address), then the stories around it.
    A word put in front keeps the case it is written in (a name stays a name, "sure" stays
    small); sentences get their capitals once, at the end."""
    order = sorted(chosen.touches, key=lambda touch: touch in _STORIES)
    for touch in order:
        if touch == "hedge":
            text = _around(rng, text, say.pick(rng, voice.hedges))
        elif touch == "address":
            text = _around(rng, text, say.pick(rng, voice.address))
        elif touch == "filler":
            text = _filler(rng, text, say.pick(rng, voice.fillers))
        elif touch == "backstory":
            story = say.sentence(say.pick(rng, voice.backstory))
            text = f"{story} {text}" if rng.random() < 0.5 else f"{text} {story}"
        elif touch == "aside":
            text = f"{text} {say.sentence(say.pick(rng, voice.asides))}"
        elif touch == "joke":
            text = f"{text} {say.sentence(say.pick(rng, voice.jokes))}"
    return say.sentences(text)


def _around(rng: random.Random, text: str, word: str) -> str:
    """A hedge or a form of address at the start ("to be honest, because ...") or at the end
    of the first sentence ("Because ..., love."); one said as a question ("I think?") stands
    as its own sentence in front, or takes the first sentence's place of its full stop."""
    word = word.strip().rstrip(".,")
    asked = word.endswith(("?", "!"))
    head, sep, rest = _first_sentence(text)
    if rng.random() < 0.5 or sep in ("?", "!", ""):
        return f"{word} {text}" if asked else f"{word}, {say.lower_lead(text)}"
    return f"{head}, {word}{'' if asked else sep}{rest}"


def _filler(rng: random.Random, text: str, filler: str) -> str:
    """A filler in front ("Like, it's all in the bag"), at the end of the first sentence
    ("..., you know.") or after its second word ("it's, like, all in the bag")."""
    filler = filler.strip().rstrip(".,")
    where = rng.random()
    words = text.split(" ")
    if where < 0.25 and len(words) > 3 and not any(w[-1:] in ",.?!:;-" for w in words[:2]):
        return " ".join([words[0], words[1] + f", {filler},", *words[2:]])
    if where < 0.5:
        head, sep, rest = _first_sentence(text)
        if sep == ".":
            return f"{head}, {filler}{sep}{rest}"
    return f"{filler}, {say.lower_lead(text)}"


def _first_sentence(text: str) -> tuple[str, str, str]:
    """The first sentence without its end mark, the mark, and the rest (with its space)."""
    match = re.search(r"[.!?](?=\s|$)", text)
    if match is None:
        return text, "", ""
    return text[: match.start()], match.group(), text[match.end() :]


def typos(rng: random.Random, text: str, rate: float) -> str:
    """Words typed with a slip (two letters swapped, one dropped or doubled), each word of at
    least ``TYPO_MIN_LENGTH`` letters with probability ``rate``."""
    if rate <= 0:
        return text

    def slip(match: re.Match[str]) -> str:
        word = match.group()
        if rng.random() >= rate:
            return word
        i = rng.randrange(1, len(word) - 1)
        kind = rng.randrange(3)
        if kind == 0:
            return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        if kind == 1:
            return word[:i] + word[i + 1 :]
        return word[:i] + word[i] + word[i:]

    return _WORD.sub(slip, text)
