"""The offline simulated respondent: a seeded model of a person answering an interview.

It lets a batch run with no key and no network, the same answers for the same seed. The
persona's beliefs about the study's topic (``Persona.beliefs[concept id]``, typed by the
methodology) are the ground truth; its traits say how much of them comes out and how, and its
voice (``voice``) how it sounds. WHAT it says is a decision model:

- **reveal**: probed on a rung (a deepen-like question whose focus names a rung, by its code,
  a saying or what the person misspoke: ``matching``), it says the NEXT rung of that ladder
  with probability ``openness`` (lowered by fatigue), sometimes that one and the one above it
  in one breath ("two reasons"), otherwise it answers vaguely ("I'm not sure, I'd have to
  think about it": an exploratory ceiling) or, if sceptical, pushes back with one of its
  deflections;
- **explore**: an open question (a strategy without a node: explore, revitalize) opens a
  ladder not yet mentioned, now and then two at once; when every ladder is open it says it
  has nothing else (a terminal "nothing else"), or now and then carries the least advanced
  ladder a rung further;
- **ceiling**: probed on the last rung of a ladder, or past the share of it the persona can
  articulate (``knowledge``: the first ``ceil(knowledge * len)`` rungs), it says it cannot go
  further, in its own words (``Voice.ceiling``) or plain ones;
- **go back**: where it has nothing more on the focus (a ceiling, a vague answer), now and
  then it steers instead: "can we go back to what I said about ...?", and says the next rung
  of a ladder it opened earlier;
- **clarify**: asked what it means, it restates the focus and, with most of its reveal
  chance, why it matters;
- **unknown focus**: asked about something that is none of its meanings (an extraction
  artefact, a scrap of backstory), it asks back: "sorry, what do you mean by '...'?";
- **misspeak and correct**: a rung that has a ``misspoken`` form is, the first time, said
  wrongly half the time; a later answer corrects it ("sorry, I said X earlier, I meant Y");
- **fatigue**: after ``patience`` turns answers shorten, reveal less and finally become
  "Suppose so.";
- **re-asked** (``pushback``): the same focus and strategy again with nothing new said
  since, or asked for a rung it already said, it says so ("I already told you that.") and
  adds nothing; each complaint tires a persona with little ``repetition_tolerance``;
- **redirection** (a strategy of the ``negative_ladder``, ``third_person`` or ``situational``
  family): like a plain why, but on a rung where a plain question got nothing it reveals the
  next rung more often, up to one rung past ``knowledge``; a ``breadth_check`` one is
  answered like an open question.

HOW it says it is the person's: every rung in one of its sayings (``Rung.says``, a fresh one
where it can, so the words vary across the interview; the code only when there are none),
in a frame a person would use (``phrasing``), coloured by the voice - hedges, fillers, a form
of address, backstory, asides, jokes, typing slips - as often as its verbosity makes it talk
(``voice``); off-topic tangents for a rambler and push-back for a sceptic as before.

Everything is a pure function of the ``PersonaRequest``: what was already said is read back
from the answers in ``history`` (``memory``: the respondent knows its own words, slips
included), and chance comes from two ``random.Random`` seeded with (seed, persona, turn): one
for what it decides, one for how it words it. So a batch is reproducible, and a resumed
interview answers exactly as an uninterrupted one would.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from interview_cli.config.schemas import Methodology, StrategySpec
from interview_cli.core.text import NEGATIONS, STOPWORDS, normalise
from interview_cli.llm.protocol import PersonaRequest
from interview_cli.simulation.respondents import phrasing as say
from interview_cli.simulation.respondents import pushback
from interview_cli.simulation.respondents import voice as talk
from interview_cli.simulation.respondents.matching import PersonaBeliefs, RungRef, said_within
from interview_cli.simulation.respondents.memory import RungKey, recall

QuestionKind = Literal["opening", "probe", "clarify", "redirect", "open", "closing"]
Move = Literal[
    "open_ladder",  # first rung of a ladder not yet mentioned (or of two)
    "continue_ladder",  # open question, every ladder open: one rung further on the least advanced
    "reveal",  # the next rung of the focus's ladder (or the next two)
    "redirect",  # the next rung, to a redirection question (negative, third person, ...)
    "go_back",  # nothing more on the focus: back to a ladder opened earlier, its next rung
    "complain",  # asked again for what it already said: says so, adds nothing
    "clarify",  # the focus restated
    "vague",  # no new content (exploratory)
    "ceiling",  # past the ladder's end or what the persona knows (terminal don't-know)
    "nothing_new",  # open question, nothing left to say (terminal)
    "unknown_focus",  # the focus names none of the persona's meanings: "what do you mean?"
    "by_the_way",  # ... but its words were said in passing: "that was just by the way"
    "tired",  # too tired to say anything
    "closing",
]

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
# Fatigue: each turn past ``patience`` multiplies the chance to reveal by this ...
FATIGUE_DECAY = 0.9
# ... and from this many turns past it, most answers carry nothing any more.
EXHAUSTED_AFTER = 6
EXHAUSTED_SHARE = 0.6
# Two reasons in one answer (a rung and the one above it): this chance, plus this share of
# verbosity x openness; two attributes at once on an open question: this share of verbosity.
TWO_REASONS_BASE = 0.05
TWO_REASONS_PER = 0.4
TWO_ATTRIBUTES_PER = 0.3
# A rung with a misspoken form is said wrongly this often the first time; each later answer
# corrects it with this chance (always when asked to clarify that very rung).
MISSPEAK_SHARE = 0.5
CORRECT_SHARE = 0.5
# Where it has nothing more on the focus, it asks to go back to an earlier point with this
# share of its openness, at most this many times an interview.
GO_BACK_SHARE = 0.2
MAX_GO_BACKS = 2
_CLOSING_TEXT = re.compile(
    r"\b(?:anything else|before we finish|wrap up|did i get that right|is that accurate|"
    r"anything (?:important )?(?:we )?(?:haven'?t|missing))\b",
    re.IGNORECASE,
)
# A closing turn asks whether it heard right, or what it missed: "yes" answers the first,
# "no, that covers it" the second (a closing "Is that right?" was once answered "No, I think
# that covers it").
_ASKS_IF_RIGHT = re.compile(
    r"\b(?:is that right|did i get that right|is that accurate|have i got that right|"
    r"is that fair)\b",
    re.IGNORECASE,
)
_ASKS_WHAT_ELSE = re.compile(r"\b(?:anything|something)\b[^.?!]*\b(?:else|missed|missing)\b", re.I)
CONTENT_MOVES: frozenset[str] = frozenset(
    {"reveal", "redirect", "clarify", "continue_ladder", "open_ladder", "go_back"}
)
# Moves whose words stay exactly as said (a complaint is counted by its words; a tired grunt
# and a closing line have nothing to correct).
_AS_SAID: frozenset[str] = frozenset({"complain", "tired", "closing"})


@dataclass(frozen=True)
class SimulatedAnswer:
    """What the simulator said and why (the text is all the interviewer sees). ``misspoke``:
    rungs said wrongly in this answer; ``corrected``: earlier misspoken rungs put right."""

    text: str
    move: Move
    kind: QuestionKind
    focus: RungKey | None = None
    said: tuple[RungKey, ...] = field(default_factory=tuple)
    tired_turns: int = 0
    misspoke: tuple[RungKey, ...] = field(default_factory=tuple)
    corrected: tuple[RungKey, ...] = field(default_factory=tuple)


def beliefs_for(request: PersonaRequest) -> PersonaBeliefs:
    """The persona's ladders about the request's topic, typed by its methodology."""
    topic = request.concept.id if request.concept is not None else None
    return PersonaBeliefs(request.persona, topic, request.methodology)


def mentioned_rungs(beliefs: PersonaBeliefs, request: PersonaRequest) -> list[set[RungKey]]:
    """Per earlier answer, the (ladder, rung) pairs it names."""
    return recall(beliefs, [e.answer for e in request.history]).mentioned


def revealed_rungs(beliefs: PersonaBeliefs, request: PersonaRequest) -> set[RungKey]:
    """(ladder, rung) pairs the persona has already said in earlier answers."""
    return set().union(*mentioned_rungs(beliefs, request))


def known_rungs(ladder_length: int, knowledge: float) -> int:
    """How many rungs of a ladder the persona can articulate (at least the first)."""
    return max(1, min(ladder_length, math.ceil(knowledge * ladder_length - 1e-9)))


def question_kind(request: PersonaRequest) -> QuestionKind:
    """What the question asks for, from the interviewer's decision when it is known."""
    family = pushback.family_of(request.methodology, request.strategy)
    if family in pushback.OPEN_FAMILIES:
        return "open"
    if family in pushback.REDIRECTIONS and request.focus_label:
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
    if spec.family == "clarify":
        return "clarify"
    return "probe"


class _Speaker:
    """The state of one answer being composed: what the person remembers, and two seeded
    sources of chance (``rng`` for what it decides, ``words`` for how it says it)."""

    def __init__(self, request: PersonaRequest, beliefs: PersonaBeliefs) -> None:
        self.request = request
        self.persona = request.persona
        self.traits = request.persona.traits
        self.beliefs = beliefs
        seed = f"{request.seed}:{request.persona.id}:{request.turn_number}"
        self.rng = random.Random(seed)
        self.words = random.Random(f"{seed}:words")
        self.memory = recall(beliefs, [e.answer for e in request.history])
        self.mentioned = self.memory.mentioned
        self.revealed = self.memory.revealed
        self.voice = talk.voice_of(request.persona)
        self.complaints = pushback.complaints(request.history)
        irritation = pushback.irritation_turns(self.complaints, self.traits.repetition_tolerance)
        self.tired = max(0, request.turn_number - self.traits.patience) + irritation
        self.level = _levels(request.methodology)
        self.spoken: set[str] = set()  # sayings used in this answer
        self.misspoke: list[RungKey] = []

    # -- words for rungs ---------------------------------------------------------------------
    def saying(self, ref: RungRef) -> str:
        """The rung in the person's words, a fresh saying where it has one left."""
        says = ref.rung.says
        if not says:
            code = ref.rung.code
            if ref.index == 0:
                return say.mention(code, concrete=True)
            return code if self.level(ref.rung.type) == "end" else say.clause(code)
        fresh = [s for s in says if normalise(s) not in self.memory.used and s not in self.spoken]
        choice = say.pick(self.words, fresh or [s for s in says if s not in self.spoken] or says)
        self.spoken.add(choice)
        return choice

    def say(self, ref: RungRef) -> str:
        """The rung as said now: the first time, now and then what it misspeaks instead."""
        key = (ref.ladder, ref.index)
        wrong = ref.rung.misspoken
        if (
            wrong
            and key not in self.revealed
            and key not in self.memory.said_wrong
            and self.words.random() < MISSPEAK_SHARE
        ):
            self.misspoke.append(key)
            return wrong
        return self.saying(ref)

    def reason(self, ref: RungRef) -> str:
        """The rung as the answer to "why does that matter?"."""
        end = self.level(ref.rung.type) == "end"
        return say.frame(self.words, say.REASON_END if end else say.REASON, x=self.say(ref))

    def ref(self, ladder: int, index: int) -> RungRef:
        return RungRef(ladder, index, self.beliefs.ladders[ladder][index])

    def known(self, ladder: int) -> int:
        return known_rungs(len(self.beliefs.ladders[ladder]), self.traits.knowledge)

    def ladder_opened(self, ladder: int) -> bool:
        return any(li == ladder for li, _ in self.revealed)

    def highest(self, ladder: int) -> int:
        return max((ri for li, ri in self.revealed if li == ladder), default=-1)

    # -- chance ------------------------------------------------------------------------------
    def reveal_chance(self, kind: QuestionKind) -> float:
        """Probability to say the next rung: ``openness`` when probed; when asked to clarify,
        a little less (made to say what it means, a respondent usually gets to why it
        matters) and more the more sceptical it is (a concrete question is the one a sceptic
        answers); fatigue lowers it. Scepticism otherwise sets the stance (``finish``)."""
        chance = self.traits.openness
        if kind == "clarify":
            chance = min(1.0, chance * (CLARIFY_SHARE + CONCRETE_BONUS * self.traits.skepticism))
        return chance * FATIGUE_DECAY**self.tired

    def chains(self) -> bool:
        """Two reasons in one breath, the more often the more the person talks and opens up."""
        if self.tired:
            return False
        chance = TWO_REASONS_BASE + TWO_REASONS_PER * self.traits.verbosity * self.traits.openness
        return self.rng.random() < chance

    def two_attributes(self) -> bool:
        return not self.tired and self.rng.random() < TWO_ATTRIBUTES_PER * self.traits.verbosity

    # -- the answer --------------------------------------------------------------------------
    def finish(
        self, text: str, move: Move, focus: RungRef | None = None
    ) -> tuple[str, list[RungKey]]:
        """The words as the person says them: coloured by its voice (content and vague
        answers), a push-back or a tangent by its traits, an earlier slip corrected now and
        then, typing slips. Returns the text and the rungs it corrected."""
        if move in _AS_SAID:
            return text, []
        if move in CONTENT_MOVES or move == "vague":
            chosen = talk.choose_colour(self.words, self.voice, self.traits, self.tired)
            text = talk.colour(self.words, text, self.voice, chosen)
            text = self._stance(text, move)
        corrected = self._correction(focus)
        if corrected is not None:
            key, sentence = corrected
            text = f"{sentence} {text}"
        if move in CONTENT_MOVES or move == "vague":
            text = talk.typos(self.words, text, self.voice.typo_rate)
        return text, [key] if corrected is not None else []

    def _stance(self, text: str, move: Move) -> str:
        """A rambler drifts into a tangent; a sceptic leads with a push-back."""
        if self.tired or move not in CONTENT_MOVES:
            return text
        if self.persona.off_topic and self.words.random() < 0.5 * self.traits.verbosity:
            text = f"{text} {say.tangent_phrase(self.words, self.persona.off_topic)}"
        deflections = self.persona.deflection_patterns
        if deflections and self.words.random() < PREFIX_SHARE * self.traits.skepticism:
            text = f"{say.sentence(say.pick(self.words, deflections))} {text}"
        return text

    def _correction(self, focus: RungRef | None) -> tuple[RungKey, str] | None:
        """ "Sorry, I said X earlier, I meant Y." for the earliest slip not yet put right."""
        pending = self.memory.pending_corrections()
        if not pending:
            return None
        focus_key = (focus.ladder, focus.index) if focus is not None else None
        key = focus_key if focus_key in pending else pending[0]
        if key != focus_key and self.words.random() >= CORRECT_SHARE:
            return None
        ref = self.ref(*key)
        wrong = ref.rung.misspoken or ""
        return key, say.frame(self.words, say.CORRECTION, wrong=wrong, right=self.saying(ref))

    def answer(
        self,
        text: str,
        move: Move,
        kind: QuestionKind,
        *,
        focus: RungRef | None = None,
        said: tuple[RungRef, ...] = (),
    ) -> SimulatedAnswer:
        spoken, corrected = self.finish(text, move, focus)
        return SimulatedAnswer(
            text=spoken,
            move=move,
            kind=kind,
            focus=(focus.ladder, focus.index) if focus else None,
            said=tuple((r.ladder, r.index) for r in said),
            tired_turns=self.tired,
            misspoke=tuple(self.misspoke),
            corrected=tuple(corrected),
        )


def _levels(methodology: Methodology | None) -> Callable[[str | None], str]:
    """How a rung type is said: ``end`` for terminal types ("it comes down to ..."),
    ``reason`` for the rest."""
    if methodology is None:
        return lambda _type: "reason"
    ontology = methodology.ontology

    def level(node_type: str | None) -> str:
        spec = ontology.node_type(node_type) if node_type else None
        return "end" if spec is not None and spec.terminal else "reason"

    return level


def _closing_reply(question: str, sp: _Speaker) -> str:
    """The persona's word on the closing turn, as its question asks it."""
    right, what_else = _ASKS_IF_RIGHT.search(question), _ASKS_WHAT_ELSE.search(question)
    if right and not what_else:
        return say.CONFIRMED
    if what_else and not right:
        return say.NOTHING_MISSED
    return say.pick(sp.words, say.CLOSING)


def simulate(request: PersonaRequest) -> SimulatedAnswer:
    """The persona's answer to the interviewer's question (deterministic for a request)."""
    beliefs = beliefs_for(request)
    kind = question_kind(request)
    sp = _Speaker(request, beliefs)
    if kind == "closing":
        return SimulatedAnswer(_closing_reply(request.question, sp), "closing", kind)
    if not beliefs:
        return SimulatedAnswer(say.NO_BELIEFS, "nothing_new", kind)
    if pushback.reasked(
        beliefs,
        request.history,
        sp.mentioned,
        strategy=request.strategy,
        focus_label=request.focus_label,
    ):
        return _complain(sp, kind, None)
    if sp.tired >= EXHAUSTED_AFTER and sp.rng.random() < EXHAUSTED_SHARE:
        return sp.answer(say.pick(sp.words, say.TIRED_SHORT), "tired", kind)
    if kind in ("opening", "open"):
        return _open(sp, kind)
    if kind == "redirect":
        return _redirect(sp, kind)
    return _probe(sp, kind)


def simulate_answer(request: PersonaRequest) -> str:
    return simulate(request).text


def _open(sp: _Speaker, kind: QuestionKind) -> SimulatedAnswer:
    ladders = sp.beliefs.ladders
    fresh = [li for li in range(len(ladders)) if not sp.ladder_opened(li)]
    if fresh:
        return _open_ladder(sp, kind, fresh)
    # Every ladder is open: carry the least advanced one that still has something known.
    unfinished = [li for li in range(len(ladders)) if sp.highest(li) + 1 < sp.known(li)]
    if not unfinished or sp.rng.random() >= CONTINUE_ON_OPEN * sp.reveal_chance(kind):
        return sp.answer(say.pick(sp.words, say.NOTHING_NEW), "nothing_new", kind)
    li = min(unfinished, key=lambda i: (sp.highest(i), i))
    prev, nxt = sp.ref(li, sp.highest(li)), sp.ref(li, sp.highest(li) + 1)
    text = say.frame(sp.words, say.CONTINUE, prev=sp.saying(prev), y=sp.say(nxt))
    return sp.answer(text, "continue_ladder", kind, said=(nxt,))


def _open_ladder(sp: _Speaker, kind: QuestionKind, fresh: list[int]) -> SimulatedAnswer:
    """The first rung of a ladder not mentioned yet: the one the persona cares most about
    (listed first) to the first question, a seeded one later; with it, now and then, the
    rung above it or a second ladder's first rung."""
    li = fresh[0] if kind == "opening" else fresh[sp.rng.randrange(len(fresh))]
    first = sp.ref(li, 0)
    if len(sp.beliefs.ladders[li]) > 1 and sp.known(li) > 1 and sp.chains():
        second = sp.ref(li, 1)
        text = say.frame(sp.words, say.TWO_REASONS, x=sp.say(first), y=sp.say(second))
        return sp.answer(text, "open_ladder", kind, said=(first, second))
    others = [other for other in fresh if other != li]
    if others and sp.two_attributes():
        also = sp.ref(others[sp.rng.randrange(len(others))], 0)
        text = say.frame(sp.words, say.OPEN_TWO, x=sp.say(first), y=sp.say(also))
        return sp.answer(text, "open_ladder", kind, said=(first, also))
    frames = say.OPEN_FIRST if not sp.revealed else say.OPEN_MORE
    return sp.answer(
        say.frame(sp.words, frames, x=sp.say(first)), "open_ladder", kind, said=(first,)
    )


def _locate_focus(sp: _Speaker) -> RungRef | None:
    # Rungs already said are what the interviewer can be asking about; look there first.
    said = [sp.ref(li, ri) for li, ri in sorted(sp.revealed)]
    label = sp.request.focus_label
    found = sp.beliefs.locate(label, said, misspoken=True) if said else None
    if found is None:
        found = sp.beliefs.locate(label, misspoken=True)
    if found is None:  # a piece of its own words is no puzzle
        return sp.beliefs.in_own_words(label, [(k, t) for t, k in sp.memory.sayings.items()])
    return found[0]


def _what_do_you_mean(sp: _Speaker, kind: QuestionKind) -> SimulatedAnswer:
    """Asked about something it never meant: it asks what the interviewer means by it, or,
    when it said those words in passing (backstory, an aside, a filler), says that was all
    they were (dev 8 asked back "what do you mean by 'Rasmus drives the number 3 bus'? I'm
    not sure I said that", of its own words)."""
    fragment = (sp.request.focus_label or "").strip().strip("'\"")
    if _said_in_passing(sp, fragment):
        return sp.answer(say.pick(sp.words, say.BY_THE_WAY), "by_the_way", kind)
    text = say.pick(sp.words, say.WHAT_DO_YOU_MEAN).format(x=fragment)
    return sp.answer(text, "unknown_focus", kind)


def _said_in_passing(sp: _Speaker, fragment: str) -> bool:
    """``fragment`` names something and was said in an earlier answer, but in none of its
    points: a scrap of one ("break the bank" of "doesn't break the bank") is still a puzzle."""
    if not set(normalise(fragment).split()) - STOPWORDS - NEGATIONS:
        return False
    if any(said_within(fragment, saying) is not None for saying in sp.memory.sayings):
        return False
    return any(said_within(fragment, e.answer) is not None for e in sp.request.history)


def _ceiling(sp: _Speaker, kind: QuestionKind, focus: RungRef) -> SimulatedAnswer:
    """Nothing further on this rung: now and then it steers back to an earlier point, else
    it says it cannot go further."""
    back = _go_back(sp, kind, focus)
    if back is not None:
        return back
    text = say.ceiling_phrase(sp.words, sp.voice.ceiling, sp.persona.deflection_patterns)
    return sp.answer(text, "ceiling", kind, focus=focus)


def _go_back(sp: _Speaker, kind: QuestionKind, focus: RungRef) -> SimulatedAnswer | None:
    """ "Can we go back to what I said about X?" and the next rung of X's ladder: a ladder
    opened earlier, not the focus's, with a rung the persona knows and has not said."""
    if sp.memory.go_backs >= MAX_GO_BACKS:
        return None
    chance = GO_BACK_SHARE * sp.traits.openness * FATIGUE_DECAY**sp.tired
    if sp.rng.random() >= chance:
        return None
    ladders = range(len(sp.beliefs.ladders))
    open_ = [
        li
        for li in ladders
        if li != focus.ladder and sp.ladder_opened(li) and sp.highest(li) + 1 < sp.known(li)
    ]
    if not open_:
        return None
    li = open_[sp.rng.randrange(len(open_))]
    prev, nxt = sp.ref(li, sp.highest(li)), sp.ref(li, sp.highest(li) + 1)
    text = say.frame(sp.words, say.GO_BACK, prev=sp.saying(prev), y=sp.say(nxt))
    return sp.answer(text, "go_back", kind, focus=focus, said=(nxt,))


def _vague(sp: _Speaker, kind: QuestionKind, focus: RungRef, *, push: bool) -> SimulatedAnswer:
    """No new content: a steer back now and then, a sceptic's push-back, or "not sure"."""
    back = _go_back(sp, kind, focus)
    if back is not None:
        return back
    deflections = sp.persona.deflection_patterns
    if push and deflections and sp.rng.random() < PUSH_BACK_SHARE * sp.traits.skepticism:
        return sp.answer(say.pick(sp.words, deflections).strip(), "vague", kind, focus=focus)
    return sp.answer(say.pick(sp.words, say.VAGUE), "vague", kind, focus=focus)


def _probe(sp: _Speaker, kind: QuestionKind) -> SimulatedAnswer:
    focus = _locate_focus(sp)
    if focus is None:
        return _what_do_you_mean(sp, kind)
    li, ri = focus.ladder, focus.index
    beyond = ri + 1 >= len(sp.beliefs.ladders[li]) or ri + 1 >= sp.known(li)
    if kind == "clarify":
        text = say.frame(sp.words, say.CLARIFY, x=sp.saying(focus))
        said: tuple[RungRef, ...] = ()
        if not beyond and sp.rng.random() < sp.reveal_chance(kind):
            nxt = sp.ref(li, ri + 1)
            text += say.pick(sp.words, say.CLARIFY_MORE).format(y=say.lower_lead(sp.say(nxt)))
            said = (nxt,)
        return sp.answer(text, "clarify", kind, focus=focus, said=said)
    if beyond:
        return _ceiling(sp, kind, focus)
    nxt = sp.ref(li, ri + 1)
    if (li, ri + 1) in sp.revealed:
        return _complain(sp, kind, focus)
    if sp.rng.random() >= sp.reveal_chance(kind):
        return _vague(sp, kind, focus, push=True)
    if ri + 2 < sp.known(li) and sp.chains():
        after = sp.ref(li, ri + 2)
        text = say.frame(sp.words, say.TWO_REASONS, x=sp.say(nxt), y=sp.say(after))
        return sp.answer(text, "reveal", kind, focus=focus, said=(nxt, after))
    return sp.answer(sp.reason(nxt), "reveal", kind, focus=focus, said=(nxt,))


def _complain(sp: _Speaker, kind: QuestionKind, focus: RungRef | None) -> SimulatedAnswer:
    """Asked again for what it already said: it says so and adds nothing. Sharper the less
    tolerant it is of repetition, and always once it has complained twice."""
    sharp = sp.complaints >= 2 or sp.rng.random() >= sp.traits.repetition_tolerance
    return sp.answer(say.complaint(sp.words, sharp=sharp), "complain", kind, focus=focus)


def _redirect(sp: _Speaker, kind: QuestionKind) -> SimulatedAnswer:
    """A redirection (what if it lacked this, why might someone like you care, the last time
    it mattered) on a rung: like a plain "why", but where a plain question already got nothing
    it gets past that more often, and up to one rung past what the persona would say
    unprompted. The ladder's end stays a firm don't-know."""
    focus = _locate_focus(sp)
    if focus is None:
        return _what_do_you_mean(sp, kind)
    li, ri = focus.ladder, focus.index
    if ri + 1 >= len(sp.beliefs.ladders[li]):
        return _ceiling(sp, kind, focus)
    if (li, ri + 1) in sp.revealed:
        return _complain(sp, kind, focus)
    request = sp.request
    stuck = pushback.stuck_on(
        sp.beliefs, request.history, sp.mentioned, (li, ri), request.methodology
    )
    chance = sp.reveal_chance("probe")
    if stuck:
        chance = 1.0 - (1.0 - chance) * (1.0 - pushback.REDIRECT_LIFT)
    if ri + 1 >= sp.known(li):
        if not stuck or ri + 1 > sp.known(li):
            return _ceiling(sp, kind, focus)
        chance *= pushback.BEYOND_KNOWLEDGE_SHARE
    if sp.rng.random() >= chance:
        return _vague(sp, kind, focus, push=False)
    nxt = sp.ref(li, ri + 1)
    family = pushback.family_of(request.methodology, request.strategy)
    text = say.redirected(sp.words, family, sp.reason(nxt))
    return sp.answer(text, "redirect", kind, focus=focus, said=(nxt,))
