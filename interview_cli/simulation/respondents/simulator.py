"""The offline simulated respondent: a seeded model of a persona answering an interview.

It lets a batch run with no key and no network, the same answers for the same seed. The
persona's hidden ladders (``Persona.typed_ladders``) are the ground truth; its traits say how
much of them comes out and how:

- **reveal**: probed on a rung (a deepen-like question whose focus matches a rung by label or
  alias, ``matching``), it names the NEXT rung of that ladder with probability ``openness``
  (lowered by fatigue), otherwise it answers vaguely ("I'm not sure, I'd have to think about
  it": an exploratory ceiling) or, if sceptical, pushes back with one of its deflections;
- **explore**: an open question (a strategy without a node: explore, revitalize) opens a
  ladder not yet mentioned; when every ladder is open it says it has nothing else (a terminal
  "nothing else"), or now and then carries the least advanced ladder a rung further;
- **ceiling**: probed on the last rung of a ladder, or past the share of it the persona can
  articulate (``knowledge``: the first ``ceil(knowledge * len)`` rungs), it says it does not
  know, in words the offline assessor reads as a *terminal* knowledge ceiling;
- **clarify**: asked what it means, it restates the focus and, with most of its reveal
  chance, why it matters;
- **unknown focus**: asked about something that is none of its rungs (an extraction
  artefact, a tangent), it says it does not know, terminally, so the node can be let go;
- **aliases**: a rung is said in one of the persona's other phrasings about one time in four
  (so the interviewer's de-duplication and the evaluation's alias matching are exercised);
- **fatigue**: after ``patience`` turns answers shorten, reveal less and finally become
  "Suppose so.";
- **re-asked** (``pushback``): the same focus and strategy again with nothing new said
  since, or asked for a rung it already said, it says so ("I already told you that.") and
  adds nothing; each complaint tires a persona with little ``repetition_tolerance``;
- **redirection** (``negative_ladder``, ``third_person``, ``situational``): like a plain
  why, but on a rung where a plain question got nothing it reveals the next rung more often,
  up to one rung past ``knowledge``; ``breadth_check`` is answered like an open question;
- **verbosity** adds chained rungs, fillers and, for personas that have them, off-topic
  tangents; **skepticism** sets the stance: push-back from the persona's deflections before
  an answer, and instead of a vague one.

Everything is a pure function of the ``PersonaRequest``: what was already revealed is read
from the answers in ``history`` (the simulator always says a rung in the persona's words), and
chance comes from ``random.Random`` seeded with (seed, persona, turn). So a batch is
reproducible, and a resumed interview answers exactly as an uninterrupted one would.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from interview_cli.config.schemas import Methodology, StrategySpec
from interview_cli.core.text import normalise
from interview_cli.llm.protocol import PersonaRequest
from interview_cli.simulation.respondents import phrasing as say
from interview_cli.simulation.respondents import pushback
from interview_cli.simulation.respondents.matching import PersonaLadders, RungRef

QuestionKind = Literal["opening", "probe", "clarify", "redirect", "open", "closing"]
Move = Literal[
    "open_ladder",  # first rung of a ladder not yet mentioned
    "continue_ladder",  # open question, every ladder open: one rung further on the least advanced
    "reveal",  # the next rung of the focus's ladder
    "redirect",  # the next rung, to a redirection question (negative, third person, ...)
    "complain",  # asked again for what it already said: says so, adds nothing
    "clarify",  # the focus restated
    "vague",  # no new content (exploratory)
    "ceiling",  # past the ladder's end or what the persona knows (terminal don't-know)
    "nothing_new",  # open question, nothing left to say (terminal)
    "unknown_focus",  # the focus matches none of the persona's rungs
    "tired",  # too tired to say anything
    "closing",
]

ALIAS_RATE = 0.25
# An open question once every ladder is open: now and then the persona takes the least
# advanced one a rung further unasked (this share of its reveal chance); mostly it has
# nothing new to add - the next rungs come from laddering, not from "anything else?".
CONTINUE_ON_OPEN = 0.3
CLARIFY_SHARE = 0.8
CONCRETE_BONUS = 0.4
# Scepticism: share of it that turns a vague answer into a push-back, and that prefixes an
# answer with one.
PUSH_BACK_SHARE = 0.3
PREFIX_SHARE = 0.1
# Fatigue: each turn past ``patience`` multiplies the chance to reveal by this and drops one
# filler sentence ...
FATIGUE_DECAY = 0.9
# ... and from this many turns past it, most answers carry nothing any more.
EXHAUSTED_AFTER = 6
EXHAUSTED_SHARE = 0.6
_CLARIFY_WORDS = ("clarif", "example", "concret", "specif", "mean")
_CLOSING_TEXT = re.compile(
    r"\b(?:anything else|before we finish|wrap up|did i get that right|is that accurate|"
    r"anything (?:important )?(?:we )?(?:haven'?t|missing))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class SimulatedAnswer:
    """What the simulator said and why (the text is all the interviewer sees)."""

    text: str
    move: Move
    kind: QuestionKind
    focus: tuple[int, int] | None = None
    said: tuple[tuple[int, int], ...] = field(default_factory=tuple)
    tired_turns: int = 0


def rung_mentioned(answer: str, names: list[str]) -> bool:
    text = f" {normalise(answer)} "
    return any(f" {normalise(name)} " in text for name in names if normalise(name))


def mentioned_rungs(ladders: PersonaLadders, request: PersonaRequest) -> list[set[tuple[int, int]]]:
    """Per earlier answer, the (ladder, rung) pairs it names."""
    return [
        {
            (ref.ladder, ref.index)
            for ref in ladders.refs()
            if rung_mentioned(exchange.answer, ladders.names(ref.rung))
        }
        for exchange in request.history
    ]


def revealed_rungs(ladders: PersonaLadders, request: PersonaRequest) -> set[tuple[int, int]]:
    """(ladder, rung) pairs the persona has already said in earlier answers."""
    return set().union(*mentioned_rungs(ladders, request))


def known_rungs(ladder_length: int, knowledge: float) -> int:
    """How many rungs of a ladder the persona can articulate (at least the first)."""
    return max(1, min(ladder_length, math.ceil(knowledge * ladder_length - 1e-9)))


def question_kind(request: PersonaRequest) -> QuestionKind:
    """What the question asks for, from the interviewer's decision when it is known."""
    if request.strategy in pushback.OPEN_STRATEGIES:
        return "open"
    if request.strategy in pushback.REDIRECTIONS and request.focus_label:
        return "redirect"
    spec: StrategySpec | None = None
    if request.methodology is not None and request.strategy:
        spec = request.methodology.strategy(request.strategy)
    if spec is None:
        # No recorded decision (an opening, or a question from elsewhere): read the text.
        if not request.history and not request.focus_label:
            return "opening"
        if _CLOSING_TEXT.search(request.question):
            return "closing"
        return "probe" if request.focus_label else "open"
    if spec.generates_closing_question:
        return "closing"
    if spec.node_binding == "none" or not request.focus_label:
        return "open"
    words = f"{spec.name} {spec.description}".lower()
    if any(w in spec.name.lower() for w in _CLARIFY_WORDS) or (
        "clarif" in words and "why" not in spec.name.lower()
    ):
        return "clarify"
    return "probe"


class _Speaker:
    """The state of one answer being composed."""

    def __init__(self, request: PersonaRequest, ladders: PersonaLadders) -> None:
        self.request = request
        self.persona = request.persona
        self.traits = request.persona.traits
        self.ladders = ladders
        self.rng = random.Random(f"{request.seed}:{request.persona.id}:{request.turn_number}")
        self.mentioned = mentioned_rungs(ladders, request)
        self.revealed: set[tuple[int, int]] = set().union(*self.mentioned)
        self.complaints = pushback.complaints(request.history)
        irritation = pushback.irritation_turns(self.complaints, self.traits.repetition_tolerance)
        self.tired = max(0, request.turn_number - self.traits.patience) + irritation
        self.levels = _levels(request.methodology)

    # -- words for rungs ---------------------------------------------------------------------
    def name(self, ref: RungRef) -> str:
        aliases = self.persona.aliases.get(ref.rung.label, [])
        if aliases and self.rng.random() < ALIAS_RATE:
            return aliases[self.rng.randrange(len(aliases))]
        return ref.rung.label

    def reason(self, ref: RungRef) -> str:
        """The rung as the answer to "why does that matter?"."""
        return say.reason_phrase(self.rng, self.name(ref), level=self.levels(ref.rung.type))

    def ref(self, ladder: int, index: int) -> RungRef:
        return RungRef(ladder, index, self.ladders.ladders[ladder][index])

    def known(self, ladder: int) -> int:
        return known_rungs(len(self.ladders.ladders[ladder]), self.traits.knowledge)

    def ladder_opened(self, ladder: int) -> bool:
        return any(li == ladder for li, _ in self.revealed)

    def highest(self, ladder: int) -> int:
        return max((ri for li, ri in self.revealed if li == ladder), default=-1)

    # -- chance ------------------------------------------------------------------------------
    def reveal_chance(self, kind: QuestionKind) -> float:
        """Probability to say the next rung: ``openness`` when probed; when asked to clarify,
        a little less (made to say what it means, a respondent usually gets to why it
        matters) and more the more sceptical it is (a concrete question is the one a sceptic
        answers); fatigue lowers it. Scepticism otherwise sets the stance (``decorate``)."""
        chance = self.traits.openness
        if kind == "clarify":
            # a concrete question is where a sceptic opens up (persona "sceptical")
            chance = min(1.0, chance * (CLARIFY_SHARE + CONCRETE_BONUS * self.traits.skepticism))
        return chance * FATIGUE_DECAY**self.tired

    def chains(self) -> bool:
        """A talkative, open persona sometimes says two rungs in one go."""
        if self.tired or self.traits.verbosity < 0.6:
            return False
        return self.rng.random() < (self.traits.verbosity - 0.5) * self.traits.openness

    # -- decorations -------------------------------------------------------------------------
    def decorate(self, text: str, move: Move) -> str:
        """Length and colour by traits: hedges, fillers, tangents, push-back. A tired
        persona drops a filler per turn past its patience, and its tangents."""
        traits = self.traits
        parts = [text]
        if move in CONTENT_MOVES:
            if _hedging(self.persona.speech_pattern) and self.rng.random() < 0.6:
                parts[0] = say.hedged(self.rng, parts[0])
            count = int(traits.verbosity * 3.5 - 0.5 + self.rng.random()) - self.tired
            parts += say.fillers(self.rng, count)
            if self.tired:
                return " ".join(parts)
            if self.persona.off_topic and self.rng.random() < 0.5 * traits.verbosity:
                parts.append(say.tangent_phrase(self.rng, self.persona.off_topic))
            deflections = self.persona.deflection_patterns
            if deflections and self.rng.random() < PREFIX_SHARE * traits.skepticism:
                parts.insert(0, say.pick(self.rng, deflections).strip())
        return " ".join(parts)

    def answer(
        self,
        text: str,
        move: Move,
        kind: QuestionKind,
        *,
        focus: RungRef | None = None,
        said: tuple[RungRef, ...] = (),
    ) -> SimulatedAnswer:
        return SimulatedAnswer(
            text=self.decorate(text, move),
            move=move,
            kind=kind,
            focus=(focus.ladder, focus.index) if focus else None,
            said=tuple((r.ladder, r.index) for r in said),
            tired_turns=self.tired,
        )


CONTENT_MOVES: frozenset[str] = frozenset(
    {"reveal", "redirect", "clarify", "continue_ladder", "open_ladder"}
)


def _levels(methodology: Methodology | None) -> Callable[[str | None], str]:
    """How a rung type is said: ``end`` for terminal types ("I value ..."), ``conduct`` for
    the level just below the top ("it's about being ..."), ``reason`` for the rest."""
    if methodology is None:
        return lambda _type: "reason"
    ontology = methodology.ontology
    top = ontology.max_level
    below = max((n.level for n in ontology.nodes if n.level < top), default=top)

    def level(node_type: str | None) -> str:
        spec = ontology.node_type(node_type) if node_type else None
        if spec is None:
            return "reason"
        if spec.terminal:
            return "end"
        # Only a ladder long enough to have a "way of being" rung below its end states.
        deep = len({n.level for n in ontology.nodes}) >= 4
        return "conduct" if deep and spec.level == below else "reason"

    return level


def _hedging(speech_pattern: str) -> bool:
    text = speech_pattern.lower()
    return any(w in text for w in ('"maybe"', '"i guess"', "tentative", "qualif"))


def simulate(request: PersonaRequest) -> SimulatedAnswer:
    """The persona's answer to the interviewer's question (deterministic for a request)."""
    ladders = PersonaLadders(request.persona, request.methodology)
    kind = question_kind(request)
    sp = _Speaker(request, ladders)
    if kind == "closing":
        return SimulatedAnswer(say.pick(sp.rng, say.CLOSING), "closing", kind)
    if not ladders:
        return SimulatedAnswer(say.NO_LADDERS, "nothing_new", kind)
    if pushback.reasked(
        ladders,
        request.history,
        sp.mentioned,
        strategy=request.strategy,
        focus_label=request.focus_label,
    ):
        return _complain(sp, kind, None)
    if sp.tired >= EXHAUSTED_AFTER and sp.rng.random() < EXHAUSTED_SHARE:
        text = say.pick(sp.rng, say.TIRED_SHORT)
        return SimulatedAnswer(text, "tired", kind, tired_turns=sp.tired)
    if kind in ("opening", "open"):
        return _open(sp, kind)
    if kind == "redirect":
        return _redirect(sp, kind)
    return _probe(sp, kind)


def simulate_answer(request: PersonaRequest) -> str:
    return simulate(request).text


def _open(sp: _Speaker, kind: QuestionKind) -> SimulatedAnswer:
    ladders = sp.ladders.ladders
    fresh = [li for li in range(len(ladders)) if not sp.ladder_opened(li)]
    if fresh:
        # The first answer names the ladder the persona cares most about (listed first);
        # later open questions bring up the others in a seeded order.
        li = fresh[0] if kind == "opening" else fresh[sp.rng.randrange(len(fresh))]
        first = sp.ref(li, 0)
        text = say.attribute_phrase(sp.rng, sp.name(first), first=not sp.revealed)
        said = [first]
        if len(ladders[li]) > 1 and sp.known(li) > 1 and sp.chains():
            second = sp.ref(li, 1)
            reason = sp.reason(second)
            text = f"{text.rstrip('.')}, {reason[:1].lower()}{reason[1:]}"
            said.append(second)
        return sp.answer(text, "open_ladder", kind, said=tuple(said))
    # Every ladder is open: carry the least advanced one that still has something known.
    unfinished = [li for li in range(len(ladders)) if sp.highest(li) + 1 < sp.known(li)]
    if not unfinished:
        return sp.answer(say.pick(sp.rng, say.NOTHING_NEW), "nothing_new", kind)
    if sp.rng.random() >= CONTINUE_ON_OPEN * sp.reveal_chance(kind):
        return sp.answer(say.pick(sp.rng, say.NOTHING_NEW), "nothing_new", kind)
    li = min(unfinished, key=lambda i: (sp.highest(i), i))
    prev, nxt = sp.ref(li, sp.highest(li)), sp.ref(li, sp.highest(li) + 1)
    # The rung already said is named as it was (its label), so the link lands on its node.
    text = say.CONTINUE.format(
        prev=say.mention(prev.label, concrete=prev.index == 0), x=say.clause(sp.name(nxt))
    )
    return sp.answer(text, "continue_ladder", kind, said=(nxt,))


def _locate_focus(sp: _Speaker) -> RungRef | None:
    # Rungs already said are what the interviewer can be asking about; look there first.
    said = [sp.ref(li, ri) for li, ri in sorted(sp.revealed)]
    found = sp.ladders.locate(sp.request.focus_label, said) if said else None
    if found is None:
        found = sp.ladders.locate(sp.request.focus_label)
    return found[0] if found else None


def _probe(sp: _Speaker, kind: QuestionKind) -> SimulatedAnswer:
    focus = _locate_focus(sp)
    if focus is None:
        # Asked about something it never meant (an extraction artefact, a tangent): a firm
        # don't-know, so the interviewer can let that node go.
        text = say.pick(sp.rng, say.CEILING_END)
        return SimulatedAnswer(text, "unknown_focus", kind, tired_turns=sp.tired)
    li, ri = focus.ladder, focus.index
    beyond = ri + 1 >= len(sp.ladders.ladders[li]) or ri + 1 >= sp.known(li)
    if kind == "clarify":
        text = say.pick(sp.rng, say.CLARIFY).format(
            x=say.mention(sp.name(focus), concrete=focus.index == 0)
        )
        said: tuple[RungRef, ...] = ()
        if not beyond and sp.rng.random() < sp.reveal_chance(kind):
            nxt = sp.ref(li, ri + 1)
            text += say.CLARIFY_MORE.format(x=say.clause(sp.name(nxt)))
            said = (nxt,)
        return sp.answer(text, "clarify", kind, focus=focus, said=said)
    if beyond:
        text = say.ceiling_phrase(sp.rng, sp.persona.deflection_patterns)
        return SimulatedAnswer(text, "ceiling", kind, (li, ri), (), sp.tired)
    nxt = sp.ref(li, ri + 1)
    if (li, ri + 1) in sp.revealed:
        return _complain(sp, kind, focus)
    if sp.rng.random() >= sp.reveal_chance(kind):
        deflections = sp.persona.deflection_patterns
        if deflections and sp.rng.random() < PUSH_BACK_SHARE * sp.traits.skepticism:
            return sp.answer(say.pick(sp.rng, deflections).strip(), "vague", kind, focus=focus)
        return sp.answer(say.pick(sp.rng, say.VAGUE), "vague", kind, focus=focus)
    if ri + 2 < sp.known(li) and sp.chains():
        after = sp.ref(li, ri + 2)
        text = say.chain_phrase(sp.name(nxt), sp.name(after))
        return sp.answer(text, "reveal", kind, focus=focus, said=(nxt, after))
    return sp.answer(sp.reason(nxt), "reveal", kind, focus=focus, said=(nxt,))


def _complain(sp: _Speaker, kind: QuestionKind, focus: RungRef | None) -> SimulatedAnswer:
    """Asked again for what it already said: it says so and adds nothing. Sharper the less
    tolerant it is of repetition, and always once it has complained twice."""
    sharp = sp.complaints >= 2 or sp.rng.random() >= sp.traits.repetition_tolerance
    text = say.complaint(sp.rng, sharp=sharp)
    where = (focus.ladder, focus.index) if focus else None
    return SimulatedAnswer(text, "complain", kind, where, (), sp.tired)


def _redirect(sp: _Speaker, kind: QuestionKind) -> SimulatedAnswer:
    """A redirection (what if it lacked this, why might someone like you care, the last time
    it mattered) on a rung: like a plain "why", but where a plain question already got nothing
    it gets past that more often, and up to one rung past what the persona would say
    unprompted. The ladder's end stays a firm don't-know."""
    focus = _locate_focus(sp)
    if focus is None:
        text = say.pick(sp.rng, say.CEILING_END)
        return SimulatedAnswer(text, "unknown_focus", kind, tired_turns=sp.tired)
    li, ri = focus.ladder, focus.index
    if ri + 1 >= len(sp.ladders.ladders[li]):
        text = say.ceiling_phrase(sp.rng, sp.persona.deflection_patterns)
        return SimulatedAnswer(text, "ceiling", kind, (li, ri), (), sp.tired)
    if (li, ri + 1) in sp.revealed:
        return _complain(sp, kind, focus)
    stuck = pushback.stuck_on(sp.ladders, sp.request.history, sp.mentioned, (li, ri))
    chance = sp.reveal_chance("probe")
    if stuck:
        chance = 1.0 - (1.0 - chance) * (1.0 - pushback.REDIRECT_LIFT)
    if ri + 1 >= sp.known(li):
        if not stuck or ri + 1 > sp.known(li):
            text = say.ceiling_phrase(sp.rng, sp.persona.deflection_patterns)
            return SimulatedAnswer(text, "ceiling", kind, (li, ri), (), sp.tired)
        chance *= pushback.BEYOND_KNOWLEDGE_SHARE
    if sp.rng.random() >= chance:
        return sp.answer(say.pick(sp.rng, say.VAGUE), "vague", kind, focus=focus)
    nxt = sp.ref(li, ri + 1)
    text = say.redirected(sp.rng, sp.request.strategy or "", sp.reason(nxt))
    return sp.answer(text, "redirect", kind, focus=focus, said=(nxt,))
