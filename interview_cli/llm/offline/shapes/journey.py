"""Offline handling of journey-shaped methodologies (``shape: journey``).

Questions walk the concept's stages in order (the first stage not yet told, read from the
covered labels: stages are a journey's most concrete nodes); answers are read clause by
clause: a clause naming another stage moves the story on (a ``next_stage`` edge), feeling
words make an emotion of the stage the clause is about (its valence, -2..2, on the ``felt``
edge), trouble words a pain point (both read by ``journey_words``), "would have" / "wish" an
improvement of the pain point asked about, a channel or person (app, website, driver,
hotline) a touchpoint, and what is left an action. Everything hangs
off the stage it happened at. An answer that tells nothing (a don't-know, numbers alone) is
not extractable. Node and edge types come from the methodology's ``journey:`` section.
Deterministic: no randomness.
"""

from __future__ import annotations

import re

from interview_cli.config.schemas import ConceptElement, Methodology
from interview_cli.config.shapes import JourneySpec
from interview_cli.core.models import ExtractedEdge, ExtractedNode, Extraction
from interview_cli.llm.offline.asking.questions import template_pattern
from interview_cli.llm.offline.asking.reference import Reference, refer, steered
from interview_cli.llm.offline.asking.wording import LEAVING_RECAP_TEMPLATES
from interview_cli.llm.offline.reading.clauses import content_words
from interview_cli.llm.offline.reading.earlier import shared, words_of
from interview_cli.llm.offline.reading.meta import blank_meta
from interview_cli.llm.offline.reading.nonanswers import blank_spans, inline_spans
from interview_cli.llm.offline.reading.steering import find_steer, gone_back_to
from interview_cli.llm.offline.shapes.common import (
    clean_label,
    element_names,
    elements_named,
    label_list,
    phrase_in,
    says_nothing,
    without_elements,
    words,
)
from interview_cli.llm.offline.shapes.journey_words import (
    FEELING_LEAD,
    NO_PAIN,
    PAIN,
    feeling_word,
    is_emotion,
    sign,
    valence,
)
from interview_cli.llm.prompts.templates import topic_name
from interview_cli.llm.protocol import ExtractRequest, OpeningRequest, QuestionRequest

FIX = re.compile(
    r"\b(?:would have|would've|should|wish|if only|better if|it would help|would help|"
    r"could have|needs? to|ought to|i'd like|i would like)\b",
    re.IGNORECASE,
)
TOUCHPOINTS = (
    "app",
    "website",
    "site",
    "email",
    "e-mail",
    "text message",
    "text",
    "notification",
    "driver",
    "hotline",
    "phone line",
    "chat",
    "call centre",
    "staff",
    "receipt",
    "shop",
    "store",
    "counter",
    "card reader",
    "tracking page",
    "map",
    "van",
)
_SPLIT = re.compile(
    r"(?:[.!?;]+\s+|,?\s+(?:and then|then|after that|but|because|although|which)\s+|"
    # ("so" as a cue, not as a degree: "the evening ones go so fast", round 273)
    r",?\s+so\s+(?!(?:fast|quick|quickly|much|many|long|early|late|slow|slowly|bad|good|"
    r"easy|hard|busy|tired|stressed|annoyed|quiet)\b)|"
    r",\s+(?=i\s|we\s|it\s|the\s|they\s|that\s|this\s|that's\s|it's\s|which\s)|"
    r",?\s+and\s+(?=(?:i|we|it|that)\s+(?:felt|feel|was|were|got|is)\b)|"
    r"\s+and\s+(?=(?:then\s+)?(?:i\s+|we\s+)?[a-z]+ed\b))",
    re.IGNORECASE,
)
_FILLER = re.compile(
    r"^\W*(?:yes|yeah|yep|no|nope|exactly|correct|right|that's (?:it|right|all|about it)|"
    r"that sums it up|that's accurate|i think that's (?:it|all))\b",
    re.IGNORECASE,
)
_FIX_LEAD = re.compile(
    r"^(?:it\s+)?(?:would(?: have|'ve)? help(?:ed)?|would have been better)\s+(?:if\s+)?"
    r"(?:they\s+(?:would|could|had)\s+)?(?:to\s+)?|^(?:i\s+)?wish\s+(?:they\s+(?:would|had)\s+)?|"
    r"^they\s+(?:should|could|need to|ought to)\s+",
    re.IGNORECASE,
)
_PAIN_LEAD = re.compile(
    r"^(?:the\s+)?(?:problem|issue|trouble|annoying thing)\s+(?:was|is)\s+(?:that\s+)?",
    re.IGNORECASE,
)
_DETERMINERS = frozenset("the a an my their our his her its".split())
_TOUCH_MODIFIER_STOP = frozenset("the a an my their our his her on in at to of and with".split())


def _spec(methodology: Methodology) -> JourneySpec:
    assert methodology.journey is not None
    return methodology.journey


def _stages(request: ExtractRequest | QuestionRequest) -> list[ConceptElement]:
    return list(request.concept.elements)


def _told(stage: ConceptElement, labels: list[str]) -> bool:
    known = {label.lower() for label in labels}
    return stage.label.lower() in known


def next_stage(stages: list[ConceptElement], told_labels: list[str]) -> ConceptElement | None:
    """The first stage, in journey order, not told yet."""
    return next((s for s in stages if not _told(s, told_labels)), None)


# ---- questions ---------------------------------------------------------------------------

_WALK = (
    "And then it came to {stage}. What did you do there?",
    "What happened next, when it came to {stage}?",
    "Let's move on to {stage}. How did that part go?",
)
_START = (
    "Let's start at the beginning, with {stage}. What did you do first?",
    "How did it begin, with {stage}? What did you do?",
)
# Every stage told: no "what was the next step?" (round 39 asked it five times after "I put
# it away and that is it really, til next week"), but the moments that mattered most
# (INTERVIEWING.md "Customer journey")
# (no "it" with nothing to stand for: round 61 asked "If you could change one part of it,
# which would it be?" - "Part of what, the whole shop or the delivery?")
_AFTER_THE_END = (
    "Looking back over the whole thing, which moment mattered most to you?",
    "If you could change one step, from start to finish, which would it be?",
    "What was the best part of the whole thing for you?",
    "Which step took the most out of you?",
    # (round 51 asked the one above three times, twice in a row: "Is this thing stuck?")
    "What would you tell a friend about to do this for the first time?",
    "How did you feel once it was all over?",
)
_STEPS = (
    "Walk me through {focus}: what did you do first?",
    "What did you do at {focus}, step by step?",
)
# (round 69 heard "Thinking back to {stage}, how did you feel at that point?" four times, a
# stage apart: "Didnt you ask me that already?")
_FEEL = (
    "How did {focus} feel for you at the time?",
    "Thinking back to {focus}, how did you feel at that point?",
    "Thinking about {focus}, what were you feeling?",
    "What was {focus} like for you?",
)
_PAIN = (
    "You mentioned {focus}. What would have made that better?",
    "What would have helped with {focus}?",
)
# About a focus in the respondent's words: said back as ``reference.refer`` says it (a clean
# phrase, a noun they used, "that"), never a label quoted on trust (round 30 asked "What
# would have helped when "are where it goes wrong, like last month they swapped"?")
_PAIN_THAT = ("{lead}What would have made that better?", "{lead}What would have helped there?")
_FEEL_THAT = (
    "{lead}How did that feel for you at the time?",
    "{lead}How did you feel at that point?",
)
_STEPS_THAT = (
    "{lead}Could you walk me through that, step by step?",
    "{lead}What did you do there, step by step?",
)


# A question that walks the journey on (``_START``, ``_WALK``): its stage is what the answer
# tells of, whatever the decision's focus.
_WALKING = re.compile(
    "^(?:" + "|".join(re.escape(t.split("{stage}")[0].rstrip()) for t in (*_START, *_WALK)) + ")"
)


def _choose(options: tuple[str, ...], request: QuestionRequest, **values: str) -> str:
    return _fresh(options, request, **values) or _asked_longest_ago(
        [o.format(**values) for o in options], request
    )


def _asked_longest_ago(texts: list[str], request: QuestionRequest) -> str:
    """Of questions all asked before, the one asked longest ago: never the last one again
    (round 51 asked "Which part of it took the most out of you?" twice in a row)."""
    asked = [_as_asked(q) for q in request.avoid_questions]

    def last_asked(text: str) -> int:
        said = text.strip().lower()
        return max((i for i, q in enumerate(asked) if q == said), default=-1)

    return min(texts, key=last_asked)


def _fresh(options: tuple[str, ...], request: QuestionRequest, **values: str) -> str | None:
    """One of ``options`` not asked yet, or None when each of them was: "You talked about
    the app. What would have helped there?" three times over (round 46). A wording not yet
    asked of anything comes first: the same words about another stage are heard as the same
    question (round 69)."""
    asked = {_as_asked(q) for q in request.avoid_questions}
    texts = [o.format(**values) for o in options]
    fresh = [t for t in texts if t.strip().lower() not in asked]
    unused = [t for o, t in zip(options, texts, strict=True) if t in fresh and not _used(o, asked)]
    return _pick(unused or fresh, request) if fresh else None


def _used(option: str, asked: set[str]) -> bool:
    """Whether a question of the wording ``option`` was asked, whatever filled it."""
    pattern = template_pattern(option)
    return any(pattern.fullmatch(q) for q in asked)


def _pick(texts: list[str], request: QuestionRequest) -> str:
    return texts[(request.seed + request.turn_number) % len(texts)]


def journey_question(request: QuestionRequest) -> str | None:
    """The offline question for a journey strategy (a closing retells the stages told)."""
    strategy = request.strategy
    if request.closing or strategy.generates_closing_question:
        stages = [s.label for s in _stages(request) if _told(s, request.covered_labels)]
        if not stages:
            return None
        if request.leaving:
            # (they are going: no "did I miss a step?" to someone who said "I'll have to stop
            # there I'm afraid, I can hear Jean calling", round 274)
            return _pick(list(LEAVING_RECAP_TEMPLATES), request).format(recap=label_list(stages))
        return (
            f"Let me check I have the whole story: {label_list(stages)}. Is that accurate, "
            "and did I miss a step that mattered?"
        )
    focus = " ".join((request.focus_label or "").split())
    # A question about a stage or pain point with none to ask about walks the journey on.
    if strategy.node_binding == "none" or not focus:
        order = _stages(request)
        stage = next_stage(order, request.covered_labels)
        if stage is None:
            return _choose(_AFTER_THE_END, request)
        if stage is order[0]:  # nothing told yet: no "and then"
            return _choose(_START, request, stage=stage.label)
        return _choose(_WALK, request, stage=stage.label)
    if request.focus_label and not any(s.label == request.focus_label for s in _stages(request)):
        ref = refer(
            request.focus_label,
            list(request.answers),
            request.focus_quotes,
            asked_back=bool(request.asked_back),
        )
        lead = _lead(ref)
        if lead is None:  # nothing sure to ask about: the journey walks on
            return _walk_on(request)
        options = {"obstacle": _PAIN_THAT, "emotion": _FEEL_THAT}.get(strategy.family, _STEPS_THAT)
        asked = _fresh(options, request, lead=lead)
        # (nor asked about again in other words: "You said it was gone. What would have made
        # that better?" - "Didnt you already ask me that?", round 51)
        again = bool(lead) and any(q.startswith(lead.strip()) for q in request.avoid_questions)
        if asked is not None and not again:
            return asked
        # each way of asking it was asked: the journey walks on
        return _walk_on(request)
    wordings: dict[str, tuple[str, ...]] = {"obstacle": _PAIN, "emotion": _FEEL}
    asks = wordings.get(strategy.family, _STEPS)
    steered = _steered_to(focus, request)
    if steered:  # asked for: asked about, whatever was asked before
        return steered + _choose(asks, request, focus=focus)
    if _just_walked_to(focus, request) and strategy.family not in ("obstacle", "emotion"):
        # its steps were what the walk asked: "What happened next, when it came to checkout
        # and payment?", then "What did you do at checkout and payment, step by step?" -
        # "Erm I just told you" (round 61)
        return _walk_on(request)
    if _just_asked(asks, request, focus=focus):
        # the same ask about the same stage again, in other words: "What was unpacking and
        # substitutions like for you?", then "How did unpacking and substitutions feel for
        # you at the time?" - "you keep asking me the same thing" (round 73)
        return _walk_on(request)
    return _choose(asks, request, focus=focus)


def _steered_to(stage: str, request: QuestionRequest) -> str:
    """ "Sure, back to the substitution thing. " when the last answer asked to go back to this stage
    (round 73 answered the request with "Let's move on to ..."), in their words with the
    person shifted (``reference.steered``), else "Sure. "; "" when it asked for no stage."""
    asked = find_steer(request.answers[-1]) if request.answers else None
    named = _stage_named(asked.target, _stages(request)) if asked is not None else None
    if asked is None or named is None or named.label != stage:
        return ""
    said = steered(stage, request.answers[-1], asked)
    return f"Sure, back to {said}. " if said else "Sure. "


# A lead the journey puts before a question ("Sure, back to the substitution thing. "): the same
# question after it is the same question, for every check of what was asked before.
_STEER_LEAD = re.compile(r"^sure(?:,\s*[^.?!]*)?\.\s+", re.IGNORECASE)


def _as_asked(question: str) -> str:
    return _STEER_LEAD.sub("", question.strip()).lower()


# How many of the last questions a stage is not asked the same thing again within: round 74
# asked how the substitutions felt, then again a question later ("mate you asked me that like
# two questions ago"); further back it may be asked again, or a stage with a gap the answers
# never fill would hold the journey from its close.
_SAME_ASK_WINDOW = 2


def _just_asked(options: tuple[str, ...], request: QuestionRequest, **values: str) -> bool:
    """A question of ``options`` filled with these ``values`` was among the last
    ``_SAME_ASK_WINDOW`` asked, in any of its wordings."""
    asked = {_as_asked(q) for q in request.avoid_questions[-_SAME_ASK_WINDOW:]}
    return any(o.format(**values).strip().lower() in asked for o in options)


def _just_walked_to(stage: str, request: QuestionRequest) -> bool:
    """The last question walked the journey on to this stage, and the answer told it."""
    last = request.avoid_questions[-1] if request.avoid_questions else ""
    told = any(s.label == stage and _told(s, request.covered_labels) for s in _stages(request))
    return told and bool(_WALKING.match(last)) and stage.lower() in last.lower()


def _walk_on(request: QuestionRequest) -> str:
    """The journey's next stage asked about, or with every stage told, what mattered most."""
    stage = next_stage(_stages(request), request.covered_labels)
    if stage is None:
        return _choose(_AFTER_THE_END, request)
    return _choose(_WALK, request, stage=stage.label)


def _lead(ref: Reference) -> str | None:
    """What a question says first about a focus as ``ref`` names it; None when nothing does."""
    phrase = ref.phrase
    if phrase is not None and phrase.noun:
        return f"You mentioned {phrase.noun}. "
    if phrase is not None:
        return f"You said {phrase.clause}. "
    if ref.how == "mention":
        return f"You talked about {ref.mention}. "
    if ref.how == "steer":
        return f"Back to {ref.mention}. "
    return "" if ref.how == "that" else None


def journey_opening(request: OpeningRequest) -> str:
    topic = topic_name(request.concept.name)
    stages = list(request.concept.elements)
    if stages:
        return (
            f"Think of the last time you used {topic}. Walk me through it from the very "
            f"beginning, starting with {stages[0].label}: what did you do first?"
        )
    return (
        f"Think of the last time you used {topic}. Walk me through it from the very "
        "beginning: what was the first thing you did?"
    )


# ---- extraction --------------------------------------------------------------------------


def _touchpoint(text: str) -> str | None:
    lowered = text.lower()
    for name in TOUCHPOINTS:
        at = phrase_in(name, lowered)
        if at < 0:
            continue
        # "the supermarket app": a modifier only right after a determiner.
        before = words(lowered[:at])[-2:]
        modifier = ""
        if len(before) == 2 and before[0] in _DETERMINERS and before[1] not in _TOUCH_MODIFIER_STOP:
            modifier = before[1]
        return ("the " + (modifier + " " if modifier else "") + name).strip()
    return None


def _clauses(answer: str) -> list[tuple[str, int]]:
    """(clause, start offset of the clause as stripped) pieces of the answer."""
    pieces: list[tuple[str, int]] = []
    start = 0
    for match in _SPLIT.finditer(answer):
        pieces.append((answer[start : match.start()], start))
        start = match.end()
    pieces.append((answer[start:], start))
    return [
        (text.strip(), offset + len(text) - len(text.lstrip()))
        for text, offset in pieces
        if words(text)
    ]


_NOT_TOLD = (
    "address",
    "filler",
    "aside",
    "hedge",
    "retraction",
    "steer",
    "remark",
    "tiring",
    # (round 73's journey made steps of "didnt i just say" and "dont know"; not the
    # correction kind, which takes "I typed in my card" for one)
    "already_said",
    "dont_know",
    "hesitation",
    "question_remark",
)


# A question back at the interviewer: "Sorry, cannot abide what?", "what do you mean?" (not a
# statement said with a rising tone: "Then the substitutions came up on the app?")
_ASKED_BACK = re.compile(
    r"(?:^|(?<=[.!?]\s))(?:(?:sorry|um|erm|eh|hmm)\W+)*(?:(?:what|why|how|who|which|huh|pardon)\b"
    r"[^.!?]*|[^.!?]*\bwhat)\s*\?+",
    re.IGNORECASE,
)


def _said(answer: str) -> list[str]:
    """The clauses that say something: not a request to go back, a remark on the question or
    the interview, a correction's frame, a hedge or an aside (the laddering reader's
    non-content; a verdict, a time and a scene are a journey's feelings and moments). Round
    30's journey asked what would have helped when "can we go back to the slot thing from
    earlier" and when "that was me asking a question, not a problem". Each clause runs from
    its first word of content to its last ("Well, the very beginning was ..."), and a
    question back is none ("Sorry, cannot abide what?" was a pain point asked about, round
    45)."""
    blanked = blank_spans(blank_meta(answer), inline_spans(answer, _NOT_TOLD))
    for back in _ASKED_BACK.finditer(answer):
        blanked = (
            blanked[: back.start()] + " " * (back.end() - back.start()) + blanked[back.end() :]
        )
    said: list[str] = []
    for clause, at in _clauses(answer):
        kept = blanked[at : at + len(clause)]
        if not content_words(kept):
            continue
        start = len(kept) - len(kept.lstrip(" ,;:-"))
        end = len(kept.rstrip(" ,;:-"))
        said.append(answer[at + start : at + end].strip())
    return said


_VERB_FIRST = re.compile(r"(?:is|was|are|were|isn't|isnt|wasn't|wasnt)\b")


def _head(text: str, limit: int) -> str:
    """A label of ``limit`` words at most from the clause's head: what comes before its first
    comma, when that says something of its own ("picked a tuesday morning slot" of "picked a
    tuesday morning slot, 10 till 11"; round 45 read back "the very beginning was really my
    daughter, she set")."""
    head = text.split(", ")[0]
    return clean_label(head if len(content_words(head)) >= 2 else text, limit)


def _did(text: str, limit: int) -> str:
    """A step's label: the clause's head (``_head``) up to where a reason, a condition or a
    new clause of theirs begins, and without a dangling last word ("always look at the total
    before i pay" of "always look at the total before i pay cos", "get one proper day off
    most weeks" of "... most weeks and i": round 273's every step was a clause cut mid-way)."""
    label = _head(text, limit + 6)
    cut = _STEP_ENDS.search(label)
    if cut is not None and len(content_words(label[: cut.start()])) >= 2:
        label = label[: cut.start()]  # (not to nothing: "if they come late, I can't be there")
    kept = _STEP_LEAD.sub("", label).split()[:limit]
    while len(kept) > 1 and kept[-1] in _DANGLING:
        kept.pop()
    return " ".join(kept) or _head(text, limit)


_STEP_ENDS = re.compile(
    r"(?:^|\s)(?:cos|coz|because|when|whenever|which|if|and\s+(?:i|the|my)|"
    r"i\s+(?:dont|don't)\s+know)\b"
)
_STEP_LEAD = re.compile(r"^(?:(?:also|just|really|sort of|kind of|like)\s+)+")
_DANGLING = frozenset("cos coz when which if i so that then also and the a to".split())


class _Builder:
    def __init__(self, spec: JourneySpec) -> None:
        self.spec = spec
        self.nodes: list[ExtractedNode] = []
        self.edges: list[ExtractedEdge] = []
        self._labels: set[str] = set()

    def node(self, label: str, kind: str, quote: str, **extra: object) -> str:
        if label not in self._labels:
            self._labels.add(label)
            self.nodes.append(
                ExtractedNode(label=label, node_type=kind, quote=quote or label, **extra)  # type: ignore[arg-type]
            )
        return label

    def edge(
        self, source: str, target: str, relation: str, quote: str, value: float | None = None
    ) -> None:
        if source == target:
            return
        self.edges.append(
            ExtractedEdge(source=source, target=target, relation=relation, quote=quote, value=value)
        )


def _stage_for_question(
    request: ExtractRequest, stages: list[ConceptElement]
) -> ConceptElement | None:
    # The topic ("online grocery delivery") is no stage, whatever words it shares with one.
    question = re.sub(
        re.escape(topic_name(request.concept.name)), " ", request.question, flags=re.I
    )
    named = elements_named(stages, question)
    if named:
        return named[0][1]
    return next_stage(stages, request.existing_labels)


class _Reading:
    """One answer read clause by clause into journey elements. It keeps where the journey
    is: the current stage (asked about, recognised in the question, or told), the step or
    pain point asked about, the last pain told (what a fix that follows is for) and what a
    feeling is about."""

    def __init__(self, request: ExtractRequest, spec: JourneySpec) -> None:
        self.request, self.spec = request, spec
        self.stages = _stages(request)
        self.b = _Builder(spec)
        focus, focus_type = request.focus_label, request.focus_type
        self.focus = focus
        self.current: str | None = None
        self.current_stage: ConceptElement | None = None
        if focus and focus_type == spec.stage_type:
            self.current = focus
            self.current_stage = next((s for s in self.stages if s.label == focus), None)
        elif not focus:
            self.current_stage = _stage_for_question(request, self.stages)
            if self.current_stage is not None:
                self.current = self.current_stage.label
        self.pain_focus = focus if focus_type == spec.pain_type else None
        self.last_pain: str | None = None
        self.step_focus = focus if focus_type in spec.step_types else None
        if focus and _WALKING.match(request.question.strip()):
            # the question walked the journey on to a stage, whatever the focus was (round
            # 31: a pain with nothing sure to say of it; the stage asked about was never
            # told, and was asked about three times)
            self.current_stage = _stage_for_question(request, self.stages)
            self.current = self.current_stage.label if self.current_stage else None
            self.emotion_source = self.current
            self.pain_focus = self.step_focus = self.focus = None
        self.emotion_source = self.step_focus or self.current

    def enter(self, stage: ConceptElement, quote: str) -> None:
        """Move to ``stage``, linked after the stage told before it when that one comes
        earlier in the journey."""
        spec, b = self.spec, self.b
        previous = self.current_stage
        b.node(stage.label, spec.stage_type, quote, element_id=stage.id)
        if (
            previous is not None
            and previous is not stage
            and self.stages.index(previous) < self.stages.index(stage)
        ):
            b.node(previous.label, spec.stage_type, previous.label, element_id=previous.id)
            b.edge(previous.label, stage.label, spec.sequence_relation, quote)
        self.current, self.current_stage, self.emotion_source = stage.label, stage, stage.label

    def clause(self, said: str) -> None:
        """Read one clause: a stage named, then a fix, a stage of its own, a feeling (and the
        pain that caused it), a pain point, or a touchpoint and step."""
        named = [s for _, s in elements_named(self.stages, said) if s is not self.current_stage]
        if named and not self.pain_focus:
            self.enter(named[0], said)
        text = without_elements(said, self.stages)
        if not words(text) or (_FILLER.match(text) and len(words(text)) <= 6):
            return
        if self._fix(text):
            return
        if self.current is None and not self.pain_focus and not self.step_focus:
            if not self._open_stage(text):
                return
        if is_emotion(text):
            rest = self._feeling(text)
            if rest is None:
                return
            text = rest
        if PAIN.search(text) and not NO_PAIN.search(text):
            self._pain(text)
            return
        if self.pain_focus:
            return
        self._step(text)

    def _fix(self, text: str) -> bool:
        """What would have helped: with the pain point asked about, or told just before.
        True when the clause was one (even with no pain point to hang it on)."""
        fixing = self.pain_focus or self.last_pain
        if not (FIX.search(text) and (fixing or not is_emotion(text))):
            return False
        if fixing:
            methodology, spec = self.request.methodology, self.spec
            label = _head(_FIX_LEAD.sub("", clean_label(text, 20)), 10)
            fix = self.b.node(label or clean_label(text), _fix_type(methodology, spec), text)
            self.b.edge(fixing, fix, _fix_relation(methodology, spec), text)
        return True

    def _open_stage(self, text: str) -> bool:
        """An elicited journey: the first thing told opens a stage of its own, named by what
        the respondent did, after the stage told before it. True when the clause holds more
        to read (a feeling or a pain)."""
        spec, b = self.spec, self.b
        label = clean_label(re.sub(r"^(?:i|we)\s+", "", clean_label(text, 7)), 5)
        if not label:
            return False
        self.current = self.emotion_source = b.node(label, spec.stage_type, text)
        previous = _latest_stage(self.request, spec)
        if previous and previous != label:
            b.edge(previous, label, spec.sequence_relation, text)
        touch = _touchpoint(text)
        if touch:
            b.node(touch, spec.touchpoint_type, text)
            relation = _relation(self.request.methodology, spec.stage_type, spec.touchpoint_type)
            b.edge(self.current, touch, relation, text)
        return is_emotion(text) or bool(PAIN.search(text))

    def _feeling(self, text: str) -> str | None:
        """A feeling, about the step or stage it was told of; what follows it when that is
        the pain that caused it ("It was annoying that the slots were gone"), else None."""
        spec = self.spec
        word = feeling_word(text) or clean_label(text, 3)
        label = self.b.node(word, spec.emotion_type, text, stance=sign(valence(text)))
        source = self.emotion_source or self.current
        if source:
            self.b.edge(source, label, spec.emotion_relation, text, float(valence(text)))
        rest = FEELING_LEAD.sub("", text)
        if rest == text or not PAIN.search(rest):
            return None
        return rest

    def _pain(self, text: str) -> None:
        """A pain point, of the step asked about or the current stage."""
        label = _did(_PAIN_LEAD.sub("", clean_label(text, 20)), 10)
        label = self.last_pain = self.b.node(label, self.spec.pain_type, text, stance=-1)
        source = self.step_focus or self.current
        if source:
            self.b.edge(source, label, _pain_relation(self.request.methodology, self.spec), text)

    def _step(self, text: str) -> None:
        """A touchpoint of the current stage, and what the respondent did there (a step)
        unless the clause named only the touchpoint or a stage."""
        spec, b, methodology, current = self.spec, self.b, self.request.methodology, self.current
        touch = _touchpoint(text)
        if touch and current:
            b.node(touch, spec.touchpoint_type, text)
            b.edge(
                current,
                touch,
                _relation(methodology, spec.stage_type, spec.touchpoint_type),
                text,
            )
            if len(words(text)) <= len(words(touch)) + 2:
                return
        label = re.sub(r"^(?:i|we)\s+", "", _did(text, 10))
        if _VERB_FIRST.match(label):
            return  # what is left of "the delivery is not just unpacking" once the stage went
        if current and label and label != (current or "").lower() and len(words(label)) >= 2:
            if any(s.label.lower() == label for s in self.stages):
                return
            b.node(label, spec.action_type, text)
            b.edge(
                current,
                label,
                _relation(methodology, spec.stage_type, spec.action_type),
                text,
            )
            if touch:
                relation = _relation(methodology, spec.action_type, spec.touchpoint_type)
                if relation:
                    b.edge(label, touch, relation, text)


def extract_journey(request: ExtractRequest) -> Extraction:
    """Stages, steps, touchpoints, feelings, pain points and fixes told in the answer, by
    cue words, clause by clause (``_Reading``)."""
    spec = _spec(request.methodology)
    answer = request.answer
    if says_nothing(answer):
        return Extraction(extractable=False, reason="nothing told: no stage, step or feeling")
    reading = _Reading(request, spec)
    if reading.current_stage is not None and not reading.focus:
        reading.enter(reading.current_stage, answer.strip())
    for said in _said(answer):
        reading.clause(said)
    b = reading.b
    steer = _steer(request)
    asked_for = next((s for s in reading.stages if s.label == steer), None)
    if asked_for is not None and steer not in request.existing_labels:
        # a stage not told yet, asked for: it is told now, so the next question can take it
        asked = find_steer(answer)
        said = answer[asked.start : asked.end] if asked is not None else answer.strip()
        b.node(asked_for.label, spec.stage_type, said, element_id=asked_for.id)
    edges = [e for e in b.edges if e.relation]
    if not b.nodes:
        return Extraction(
            extractable=steer is not None,
            reason="no stage, step, feeling or pain told",
            steer=steer,
        )
    return Extraction(
        extractable=True,
        reason=f"{len(b.nodes)} journey element(s) and {len(edges)} link(s) by cue words",
        nodes=b.nodes,
        edges=edges,
        steer=steer,
    )


def _steer(request: ExtractRequest) -> str | None:
    """What "can we go back to the slot thing" asks for: the stage it names (round 73 went
    on "Let's move on to unpacking and substitutions" after "Can we go back to the
    substitution thing though", having taken it for a pain that said "substitute"), else the
    earlier element it names, where it was first said (round 30's journey ignored the
    request, and asked about it instead)."""
    asked = find_steer(request.answer)
    if asked is None:
        return None
    stage = _stage_named(asked.target, _stages(request))
    earlier = gone_back_to(asked, request)
    named = words_of(asked.target)
    # (an earlier element that names more of it wins: "the driver being rude at the delivery"
    # is "driver was rude", not a stage for "delivery")
    if stage is not None and (
        earlier is None or _naming_of(named, stage) >= shared(named, words_of(earlier.label))
    ):
        return stage.label
    return earlier.label if earlier is not None else None


def _naming_of(named: frozenset[str], stage: ConceptElement) -> int:
    """How many of the ``named`` words a stage's label or an alias of it holds."""
    return max(shared(named, words_of(name)) for name in element_names(stage))


def _stage_named(target: str, stages: list[ConceptElement]) -> ConceptElement | None:
    """The stage whose label or alias shares the most words with ``target`` (by stem: "the
    substitution thing" is "unpacking and substitutions"); None when none does, or two do
    as much ("delivery" names both the delivery slot and the delivery)."""
    named = words_of(target)
    scored = sorted(((_naming_of(named, s), s) for s in stages), key=lambda p: -p[0])
    if not scored or scored[0][0] == 0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1]


def _latest_stage(request: ExtractRequest, spec: JourneySpec) -> str | None:
    """The stage told most recently before this answer (for the next_stage link)."""
    for node in request.existing_nodes:
        if node.node_type == spec.stage_type:
            return node.label
    return None


def _relation(methodology: Methodology, source: str, target: str) -> str:
    for edge in methodology.ontology.edges:
        if (source, target) in {tuple(p) for p in edge.permitted_connections}:
            return edge.name
    return ""


def _pain_relation(methodology: Methodology, spec: JourneySpec) -> str:
    return _relation(methodology, spec.stage_type, spec.pain_type)


def _fix_type(methodology: Methodology, spec: JourneySpec) -> str:
    """The node type a pain point leads to (the journey's improvement type)."""
    for edge in methodology.ontology.edges:
        for source, target in edge.permitted_connections:
            if source == spec.pain_type:
                return target
    return spec.pain_type


def _fix_relation(methodology: Methodology, spec: JourneySpec) -> str:
    return _relation(methodology, spec.pain_type, _fix_type(methodology, spec))
