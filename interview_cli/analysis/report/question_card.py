"""The question report card: how an interview's questions read, counted without a model.

INTERVIEWING.md "Writing one question" and "How people actually answer" say what a good
question is; this card counts, per 100 questions asked, the ways a question falls short that
can be checked from the session file alone (no model as judge, so it costs nothing, repeats
exactly and can be trusted on any provider's questions):

- **not their words**: it quotes something (in quotation marks) that the respondent never
  said, or writes the focus's label into the question when they never said it; compared with
  their answers before the question, case, apostrophes and punctuation aside;
- **cut off**: it quotes the respondent's words, or writes in the focus's label, where they
  stop in the middle of what they said ("You mentioned that you notice is whether they
  remember how", of "whether they remember how I like it");
- **topic splices**: a question after the opening holds the concept's name ("... with
  e-bikes for commuting?") when the respondent had not said it;
- **double-barrelled**: two questions in one (a second question mark, or ", and what ...");
- **jargon**: a word of the method (attribute, consequence, value, ladder, means-end,
  construct, touchpoint, ...) outside quotation marks, that the respondent had not used;
- **repeats**: the same focus in substance (the same node, a node whose label's content words
  all stand in the other's, or the topic as a whole) asked with the same family of technique
  (the strategy's declared ``family``, ``config.families``) as the last question on it, with
  nothing new said in between (no element added by the answers between); or asked again
  straight after an answer that pushed back on it (puzzled, "already said", "move on"); or
  answered "like I said", "I just told you", "already told you" (the respondent's own word
  that it asked what they had said: rounds 121-126's testers tagged these repeats, and the
  card had counted them clean or puzzled);
- **set aside**: a question about a remark the reader set aside: its focus or a quote is an
  item the extraction rejected, or words said only in answers read as no answer (already
  said, move on, about the interview, declined, nothing to extract);
- **vague**: a follow-up about a focus that names none of its words and points at nothing
  ("What else comes to mind when you think about it?", "Is there more you'd like to say about
  any of that?"): neither the focus nor a "that" or "there" the answer just given fills;
- **puzzled**: the respondent's own answer to the question was read as a remark on the
  question or the interview ("why do you keep asking that"), opened puzzled ("what? what do
  you mean ...?", "huh?") or pushing back ("Help me? It doesn't help", "I just told you"),
  denied what the question presumed ("it doesn't make anything possible"), or took back what
  it asked about ("that was a joke"): the one check that looks from the respondent's side.

All but the last judge a question by the reader's own reading, so a fragment the reader took
for content passes as clean: the card can say a question is bad, never that it is good.

A question is **clean** when none of these applies. The questions are the session's: each
turn's, the one asked and not yet answered, and the closing one. ``CARD_LEGEND`` holds the
definitions as the report and the batch summary show them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from interview_cli.analysis.sources import snapshot_concept, snapshot_methodology
from interview_cli.config.families import legacy_family
from interview_cli.core.models import NON_CONTENT_KINDS
from interview_cli.core.text import label_profile, normalise
from interview_cli.llm.offline.asking.phrases import cut_short
from interview_cli.llm.offline.reading.meta import PUZZLED, without_denial
from interview_cli.session.schema import QuestionRecord, SessionFile, TurnRecord

CHECKS: tuple[str, ...] = (
    "not_their_words",
    "cut_off",
    "topic_splice",
    "double_barrelled",
    "jargon",
    "repeat",
    "set_aside",
    "vague",
    "puzzled",
)
CHECK_NAMES: dict[str, str] = {
    "not_their_words": "not their words",
    "cut_off": "cut off",
    "topic_splice": "topic splice",
    "double_barrelled": "double",
    "jargon": "jargon",
    "repeat": "repeat",
    "set_aside": "set aside",
    "vague": "vague",
    "puzzled": "puzzled",
}
CARD_LEGEND: dict[str, str] = {
    "not_their_words": "quotes something the respondent never said (nor was shown: a concept "
    "test's stimulus), or writes in a focus label they never said",
    "cut_off": "quotes their words, or writes in the focus, where they stop mid-phrase "
    '("whether they remember how" of "... how I like it")',
    "topic_splice": "the concept's name spliced into a question after the opening, when the "
    "respondent had not said it",
    "double_barrelled": "double-barrelled: two questions in one (a second question mark, or "
    "', and what ...')",
    "jargon": "a word of the method (attribute, consequence, value, ladder, ...) the "
    "respondent had not used",
    "repeat": "the same focus in substance (its node, a label of the same words, or the topic) "
    "with the same family of technique as the last question on it, nothing new said in "
    "between; asked again straight after the answer pushed back on it; or a question asked "
    "before word for word",
    "set_aside": "about a remark the reader set aside (a rejected item, or words said only in "
    "a non-answer)",
    "vague": "about a focus, but names none of its words and points at nothing ('What else "
    "comes to mind when you think about it?')",
    "puzzled": "the respondent's answer to it opened puzzled ('what? what do you mean...') "
    "or pushing back ('Help me? It doesn't help', 'I just told you'), denied what it presumed, "
    "was a remark on the question or took back what it asked about: the one check made on "
    "their side",
    "clean": "none of these; the card sees only what the session records, so a fragment the "
    "reader took for content passes (read the transcript too)",
}
METHOD_WORDS: tuple[str, ...] = (
    "attribute",
    "attributes",
    "consequence",
    "consequences",
    "value",
    "values",
    "ladder",
    "laddering",
    "means end",
    "means-end",
    "construct",
    "constructs",
    "touchpoint",
    "touchpoints",
    "psychosocial",
    "instrumental",
    "terminal",
    "node",
    "nodes",
    "job to be done",
    "jobs to be done",
    "pain point",
    "gain point",
    "critical incident",
    "repertory grid",
)
_QUOTED = re.compile(r'"([^"]+)"|“([^”]+)”')
_SECOND_QUESTION = re.compile(
    r"(?:,|;|\s-)\s*(?:and|or)\s+(?:what|how|why|when|where|which|who|is|are|was|were|do|does|"
    r"did|would|could|can|will|have|has)\b",
    re.IGNORECASE,
)
_DETERMINER = re.compile(r"^(?:your|my|the|a|an|our)\s+")


@dataclass(frozen=True)
class FlaggedQuestion:
    """A question that fell short, with the checks it failed."""

    label: str  # "Q4", "next", "closing"
    text: str
    checks: tuple[str, ...]


@dataclass(frozen=True)
class QuestionCard:
    """The counts of one interview (or of several added up: ``combine``)."""

    questions: int = 0
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CHECKS, 0))
    clean: int = 0
    flagged: tuple[FlaggedQuestion, ...] = ()

    def per_100(self, check: str) -> float | None:
        """Per 100 questions (``clean`` too); None with no question."""
        count = self.clean if check == "clean" else self.counts.get(check, 0)
        return round(100 * count / self.questions, 1) if self.questions else None

    def to_dict(self, *, flagged: bool = True) -> dict[str, Any]:
        record: dict[str, Any] = {
            "questions": self.questions,
            "counts": dict(self.counts),
            "clean": self.clean,
            "per_100": {c: self.per_100(c) for c in (*CHECKS, "clean")},
        }
        if flagged:
            record["flagged"] = [
                {"question": f.label, "text": f.text, "checks": list(f.checks)}
                for f in self.flagged
            ]
        return record


def combine(cards: Sequence[QuestionCard]) -> QuestionCard:
    """Several interviews' cards added up (per 100 over all their questions)."""
    counts = dict.fromkeys(CHECKS, 0)
    for card in cards:
        for check in CHECKS:
            counts[check] += card.counts.get(check, 0)
    return QuestionCard(
        questions=sum(c.questions for c in cards),
        counts=counts,
        clean=sum(c.clean for c in cards),
    )


@dataclass(frozen=True)
class _Asked:
    label: str
    record: QuestionRecord
    before: int  # how many turns were answered before it was asked
    turn: TurnRecord | None = None  # the turn that answered it (none: not answered in a turn)


def _asked(session: SessionFile) -> list[_Asked]:
    asked = [_Asked(f"Q{t.turn_number}", t.question, i, t) for i, t in enumerate(session.turns)]
    pending = session.pending_question
    if pending is not None and pending.text.strip() and session.status != "completed":
        asked.append(_Asked("next", pending, len(session.turns)))
    closing = session.closing
    if closing is not None and closing.question.strip():
        record = QuestionRecord(text=closing.question, kind="closing")
        asked.append(_Asked("closing", record, len(session.turns)))
    return [a for a in asked if a.record.text.strip()]


def _padded(text: str) -> str:
    return f" {normalise(text)} "


def _within(part: str, texts: Sequence[str]) -> bool:
    needle = _padded(part)
    return needle.strip() != "" and any(needle in _padded(t) for t in texts)


def _quotes(text: str) -> list[str]:
    return [(a or b).strip() for a, b in _QUOTED.findall(text) if (a or b).strip()]


def _unquoted(text: str) -> str:
    return _QUOTED.sub(" ", text)


@dataclass(frozen=True)
class _Said:
    """What the respondent had said before a question, sorted by how the reader took it."""

    answers: tuple[str, ...]
    content: tuple[str, ...]  # answers read as answers
    aside: tuple[str, ...]  # answers read as no answer (already said, move on, ...)
    rejected: tuple[str, ...]  # the words of items the extraction rejected


def _no_answer(turn: TurnRecord) -> bool:
    kind = turn.assessment.answer_kind if turn.assessment is not None else "answer"
    nothing = turn.extraction is not None and not turn.extraction.extractable
    return turn.answer.declined or kind in NON_CONTENT_KINDS or nothing


def _rejected_words(turn: TurnRecord) -> list[str]:
    items = (
        [r.item for r in turn.extraction.rejected if r.kind == "node"] if turn.extraction else []
    )
    items += [r.item for r in turn.graph_delta.rejected if r.kind == "node"]
    keys = ("label", "quote", "text", "span")
    return [str(item[k]) for item in items for k in keys if isinstance(item.get(k), str)]


def _said(turns: Sequence[TurnRecord]) -> _Said:
    answers = [t.answer.text for t in turns if t.answer.text.strip()]
    aside = [t.answer.text for t in turns if _no_answer(t) and t.answer.text.strip()]
    return _Said(
        answers=tuple(answers),
        content=tuple(a for a in answers if a not in aside),
        aside=tuple(aside),
        rejected=tuple(w for t in turns for w in _rejected_words(t)),
    )


def not_their_words(text: str, focus_label: str | None, answers: Sequence[str]) -> bool:
    """Whether the question quotes what the respondent never said in ``answers``, or writes
    in a focus label they never said."""
    if any(not _within(quote, answers) for quote in _quotes(text)):
        return True
    label = focus_label or ""
    return _within(label, [text]) and not _within(label, answers)


def cut_off(text: str, focus_label: str | None, answers: Sequence[str]) -> bool:
    """Whether the question says back the respondent's words (a quote, or the focus's label
    written in) where they stop in the middle of what they said."""
    said = [*_quotes(text)]
    label = focus_label or ""
    words = normalise(label).split()
    end = " ".join(words[-2:])
    # (a quote that goes on past the label's end says it whole: "nobody wants it" of the
    # label "nobody wants")
    if len(words) >= 2 and _within(end, [text]) and not _within(end, said):
        said.append(label)
    return any(cut_short(part, answers) for part in said)


def topic_splice(text: str, concept_name: str, answers: Sequence[str]) -> bool:
    """Whether a follow-up holds the concept's name (its leading "your", "the" aside) that
    the respondent had not said."""
    core = _DETERMINER.sub("", normalise(concept_name))
    return _within(core, [text]) and not _within(core, answers)


def double_barrelled(text: str) -> bool:
    """Two questions in one: a second question mark, or ", and what ...". Not a repertory
    grid's triad, one task by design ("which two are similar, and how is the other one
    different?": rounds 283 to 287 each flagged every triad)."""
    if _TRIAD.search(text) and text.count("?") == 1:
        return False
    return text.count("?") > 1 or _SECOND_QUESTION.search(text) is not None


_TRIAD = re.compile(
    r"\b(?:which\s+two|two\s+of\s+them)\b[^?]*\b(?:third|the\s+other\s+one)\b", re.IGNORECASE
)


def method_jargon(text: str, answers: Sequence[str] = ()) -> bool:
    """A word of the method outside quotation marks that the respondent had not used."""
    plain = _padded(_unquoted(text))
    used = [w for w in METHOD_WORDS if _padded(w) in plain]
    return any(not _within(w, answers) for w in used)


# What points at nothing in particular ("any of that", "all this", "think about it"), and the
# words that point at the answer just given ("that", "there", "this"; "What happened next?"
# follows the story on from it).
_POINTS_AT_NOTHING = re.compile(
    r"\b(?:any|all)\s+of\s+(?:that|this|it)\b|\ball\s+this\b|\bthink\s+about\s+it\b",
    re.IGNORECASE,
)
_IS_THERE = re.compile(r"\bis\s+there\b", re.IGNORECASE)
_POINTS_BACK = re.compile(r"\b(?:that|there|this|next)\b", re.IGNORECASE)


def vague(q: QuestionRecord) -> bool:
    """A follow-up about a focus that names none of the focus's words and points at nothing:
    "What else comes to mind when you think about the bike?" of "the other worry was whether
    I would actually use it when its raining" (round 68), "Is there more you'd like to say
    about any of that?"."""
    if q.kind != "follow_up" or not q.focus_label or not q.focus_node_id:
        return False
    if set(label_profile(q.focus_label).content) & set(label_profile(q.text).content):
        return False
    text = _IS_THERE.sub(" ", _OWNED.sub("", q.text))  # "Is there more ...?" points at nothing
    return bool(_POINTS_AT_NOTHING.search(text)) or not _POINTS_BACK.search(text)


def _set_aside(q: QuestionRecord, said: _Said) -> bool:
    label = q.focus_label or ""
    if label and normalise(label) in {normalise(r) for r in said.rejected}:
        return True
    shown = _quotes(q.text) + ([label] if label else [])
    for words in shown:
        if _within(words, said.aside) and not _within(words, said.content):
            return True
    return any(_within(quote, said.rejected) for quote in _quotes(q.text))


# A reply that opens puzzled (``reading.meta.PUZZLED``: "what? what do you mean 'stop
# moaning'?", "huh?", "sorry, what?", "I don't follow"), or says the question's words back in
# disbelief: "makes possible??".
_DISBELIEF = re.compile(r"^\W*[\w ]{1,25}\?\?")


# ... or that pushes back: "I just told you", "mate ive just told you what happened", "i kind of
# just said that?"
# (and "I told you that at the start", "Told you pal", "Been through that", "you asked me that
# a minute ago", "i kinda said already": rounds 100 and 102, where the card counted no repeat)
_TOLD_YOU = re.compile(
    r"^\W*(?:(?:mate|love|well|erm|er|um|i\s+mean|lol|eh|no|yeah|haha|ha|i\s+think|i\s+don'?t\s+know|"
    r"dunno|idk)\W+)*(?:"
    r"i(?:'ve|ve|\s+have)?\s+(?:kind\s+of\s+|kinda\s+)?(?:just|already)\s+(?:said|told\s+you)"
    r"|like\s+i\s+(?:just\s+|already\s+)?(?:said|told\s+you)"
    # (round 126: "Already told you, scared stiff", "Said that just now, back streets")
    r"|(?:already|just)\s+(?:said|told\s+you)\b"
    r"|said\s+(?:that|it)\s+(?:just\s+now|a\s+minute\s+ago)"
    r"|(?:i\s+)?(?:kind\s+of\s+|kinda\s+)?said\s+(?:that\s+|it\s+|this\s+)?already"
    r"|(?:i(?:'ve|ve|\s+have)?\s+)?told\s+you(?:\s+(?:that|this|already|before|at\s+the\s+start))?\b"
    r"(?!\s+(?:a|an|about|how|what|when|where|why|the|my|his|her|they|she|he|we|to|so|everything|all)\b)"
    r"|been\s+through\s+(?:that|this)"
    # (round 128: "Same as before really, ...", "Same answer as the last three questions tbh")
    # (not "It's the same thing again with every brand", from the review)
    r"|(?:it'?s\s+|its\s+)?(?:the\s+)?same\s+"
    r"(?:answer(?:\s+as)?|as\s+before|thing\s+(?:as\s+before|again))"
    r"(?=\s*(?:[,.;!?]|$|really|tbh|honestly|as\s+(?:the|before|last)))"
    r"|you(?:'ve|\s+have)?\s+(?:already\s+|just\s+)?asked\s+(?:me\s+)?(?:that|this)\b)",
    re.IGNORECASE,
)
_FIRST_SENTENCE = re.compile(r"^\W*([^.!?]{1,40})\?")
_WORDS = re.compile(r"[a-z']+")


def _echoed_back(question: str, answer: str) -> bool:
    """The reply opens with the question's words asked back ("Help me? It dont help", "Give
    me? Grey hairs", "Different from what?"), not a word of its own ("Honestly? ...")."""
    found = _FIRST_SENTENCE.match(answer)
    if found is None:
        return False
    said = _WORDS.findall(found.group(1).lower())
    asked = set(_WORDS.findall(question.lower()))
    return 0 < len(said) <= 4 and ("what" in said or bool(set(said) & asked - {"you", "i"}))


def _puzzled(turn: TurnRecord) -> bool:
    """The answer to the turn's question was a remark on the question or the interview,
    opened puzzled ("what? what do you mean ...?") or pushing back (the question's words
    asked back, "I just told you"), denied what it presumed ("it doesn't help me", read as
    the reader reads a denied premise), or took back what it asked about ("that was a joke"):
    the respondent's side of a bad question."""
    if turn.assessment is not None and turn.assessment.answer_kind == "about_interview":
        return True
    if turn.extraction is not None and turn.extraction.retracted:
        return True
    answer, question = turn.answer.text, turn.question.text
    if PUZZLED.match(answer) or _DISBELIEF.match(answer) or _TOLD_YOU.match(answer):
        return True
    return _echoed_back(question, answer) or without_denial(answer, question) != answer


def _families(session: SessionFile) -> dict[str, str]:
    """Each asked strategy's family, as the methodology the session recorded declares it (or
    as the tool read it from the name when the session was recorded: ``legacy_family``)."""
    try:
        declared = {s.name: s.family for s in snapshot_methodology(session).strategies}
    except Exception:  # a session without a readable snapshot: the names alone
        declared = {}
    named = {t.question.strategy for t in session.turns if t.question.strategy}
    return {name: declared.get(name) or legacy_family(name) for name in named}


# An acknowledgement before a question ("Sorry, I put that badly.") is no part of what it asks.
_OWNED = re.compile(r"^(?:sorry|fair enough|ok|okay)\b[^.?!]*[.!]\s+", re.IGNORECASE)


def _repeats(asked: Sequence[_Asked], session: SessionFile) -> set[int]:
    """Indexes of questions on the same focus in substance (:func:`_same_as`) with the same
    family as the last question on it, no element added by the answers between; and of a
    question asked before word for word (round 16: "If a friend asked you about the bike,
    ..." twice, read as clean)."""
    families = _families(session)
    last: list[tuple[frozenset[str], str, int]] = []  # (focus, family, turns answered before)
    found: set[int] = set()
    seen: set[str] = set()
    for i, a in enumerate(asked):
        text = _OWNED.sub("", a.record.text).strip().lower()
        if text and text in seen:
            found.add(i)
        seen.add(text)
        strategy = a.record.strategy
        if not strategy or a.record.kind == "closing":
            continue
        focus = _substance(a.record)
        family = families.get(strategy) or legacy_family(strategy)
        before = next((p for p in reversed(last) if _same_as(p[0], focus)), None)
        if before is not None and before[1] == family:
            between = session.turns[before[2] : a.before]
            if not any(t.graph_delta.nodes_added for t in between):
                found.add(i)
        # (said again after owning it is no repeat: "Sorry, I put that badly. ...")
        if i and focus and not _OWNED.match(a.record.text) and _pushed_back_on(asked[i - 1], focus):
            found.add(i)
        if a.turn is not None and _answered_already(a.turn):
            found.add(i)
        last.append((focus, family, a.before))
    return found


def _answered_already(turn: TurnRecord) -> bool:
    """Its answer says the question asked what they had said: read as "already said", or
    opening "like I said", "I just told you"."""
    kind = turn.assessment.answer_kind if turn.assessment is not None else "answer"
    return kind == "already_said" or _TOLD_YOU.match(turn.answer.text) is not None


def _pushed_back_on(previous: _Asked, focus: frozenset[str]) -> bool:
    """The question before was on the same focus in substance and its answer pushed back
    (:func:`_puzzled`), or said it was answered already or asked to move on: asked again
    straight after, in whatever technique, it asks what they refused ("the pay again?",
    then "What makes that harder than it should be?" of the pay, round 92)."""
    turn = previous.turn
    if turn is None or not _same_as(_substance(previous.record), focus):
        return False
    kind = turn.assessment.answer_kind if turn.assessment is not None else "answer"
    return kind in ("already_said", "move_on") or _puzzled(turn)


def _substance(record: QuestionRecord) -> frozenset[str]:
    """What a question is about, to compare: its focus node and the content words of its
    label; nothing (the topic as a whole) for a question on no node."""
    if not record.focus_node_id:
        return frozenset()
    words = label_profile(record.focus_label or "").content
    return frozenset({f"node:{record.focus_node_id}", *words})


def _same_as(a: frozenset[str], b: frozenset[str]) -> bool:
    """The same focus in substance: the same node, a label whose content words all stand in
    the other's ("battery" and "battery lasts", two nodes of one meaning a testers' round
    heard asked the same way twice), or both the topic as a whole ("What else matters to
    you?" after an answer that added nothing)."""
    if not a or not b:
        return not a and not b
    if a & b and any(w.startswith("node:") for w in a & b):
        return True
    words_a = {w for w in a if not w.startswith("node:")}
    words_b = {w for w in b if not w.startswith("node:")}
    return bool(words_a and words_b) and (words_a <= words_b or words_b <= words_a)


def _shown(session: SessionFile) -> tuple[str, ...]:
    """What a concept test showed the respondent before the first question: the stimulus's
    text and its elements' labels (the concept's words they read); none without a stimulus."""
    if session.stimulus is None:
        return ()
    try:
        labels = [e.label for e in snapshot_concept(session).elements]
    except Exception:  # a session without a readable snapshot: the text alone
        labels = []
    return (session.stimulus.text, *labels)


def question_card(session: SessionFile) -> QuestionCard:
    """The card of one session (a pure function of the file)."""
    asked = _asked(session)
    repeats = _repeats(asked, session)
    shown = _shown(session)
    counts = dict.fromkeys(CHECKS, 0)
    flagged: list[FlaggedQuestion] = []
    for i, a in enumerate(asked):
        said = _said(session.turns[: a.before])
        q = a.record
        failed = {
            "not_their_words": not_their_words(q.text, q.focus_label, [*said.answers, *shown]),
            "cut_off": cut_off(q.text, q.focus_label, said.answers),
            "topic_splice": q.kind != "opening"
            and topic_splice(q.text, session.concept.name, said.answers),
            "double_barrelled": double_barrelled(q.text),
            "jargon": method_jargon(q.text, said.answers),
            "repeat": i in repeats,
            "set_aside": _set_aside(q, said),
            "vague": vague(q),
            "puzzled": a.turn is not None and _puzzled(a.turn),
        }
        checks = tuple(c for c in CHECKS if failed[c])
        for check in checks:
            counts[check] += 1
        if checks:
            flagged.append(FlaggedQuestion(a.label, q.text, checks))
    return QuestionCard(len(asked), counts, len(asked) - len(flagged), tuple(flagged))


# The card as a table row, the same in every format (terminal, Markdown, HTML, batch).
CARD_HEADERS: tuple[str, ...] = ("asked", "clean", *CHECK_NAMES.values())


def card_cells(card: QuestionCard) -> list[str]:
    """Questions asked, then each figure per 100 of them ("—" with no question)."""
    cells = [str(card.questions)]
    for check in ("clean", *CHECKS):
        value = card.per_100(check)
        cells.append("—" if value is None else f"{value:g}")
    return cells


def card_legend() -> list[str]:
    """What each column counts, for the report and the batch summary."""
    names = {**CHECK_NAMES, "clean": "clean"}  # the column headers
    lines = ["Questions per 100 asked (opening, follow-ups, closing), counted without a model:"]
    lines += [f"{names[key]}: {text}" for key, text in CARD_LEGEND.items()]
    return lines
