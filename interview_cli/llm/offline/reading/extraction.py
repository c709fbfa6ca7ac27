"""Offline extraction: an answer becomes typed nodes and permitted edges by cue words.

The offline half of the ``extract`` task, so that an interview runs with no model (seed 001
stage contracts: nodes with verbatim quotes, edges along permitted connections; seed 000
"Tier 1": the extractability flag).

``clauses`` cuts the answer at cue phrases and names each clause. Here every clause gets a
node type from the methodology's ontology (``typing``) and clauses are joined by edges:

- a clause after an upward cue ("because", "so that", "lets me", "makes me feel") sits above
  the clause before it; after "that's why", below it;
- the first clause of an answer to a "why" question (a strategy of a climbing family,
  ``CLIMBING_FAMILIES``) on a level-k focus sits above k, and is linked from the focus node
  (a cross-turn edge, seed 002 Path 13);
- a clause whose words or cue name a kind of element (a feeling, a value, "being ...", a
  problem, a situation, a solution, an action) takes the node type that fits that kind by
  name and description (``OntologyView.affinity``); a strategy whose family asks for a kind
  (an attribution, an obstacle: ``FAMILY_KINDS``) sets the kind of the answer's first clause;
- edges use the first linking relation the ontology permits between the two types,
  looking back up to three clauses for a permitted source (``links``); they always climb,
  and a link the ontology forbids is recorded among ``rejected`` with its reason.

Before any of that, remarks about the interview ("I already told you", "can we move on?",
"that's not about headphones") and asides ("like I said", "..., again") are blanked
(``meta``): an answer that is nothing else is not extractable, with the kind of remark as
its reason, like a bare "I don't know". Labels made only of words that name nothing
("again", "being", "not", "sorry") are dropped.

Nothing here names a methodology: node types, levels and connections all come from the
YAML. Deterministic: no randomness, so the request's seed plays no part.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from interview_cli.config.families import StrategyFamily
from interview_cli.core.models import ExtractedEdge, ExtractedNode, Extraction, RejectedItem
from interview_cli.core.text import label_profile
from interview_cli.llm.offline.lexicon import (
    ACKNOWLEDGEMENTS,
    DONT_KNOW,
    EMPTY_LABEL_WORDS,
    EVALUATIVE,
    FEELING_PHRASES,
    FEELING_WORDS,
    HEDGES,
    LEADING_STRIP,
    LIFE_FACT,
    TERMINAL_CEILING,
    TIME_OPENER,
    TRAILING_STRIP,
    VALUE_PHRASES,
    VALUE_WORDS,
    Cue,
)
from interview_cli.llm.offline.lexicon.phrases import phrase_pattern
from interview_cli.llm.offline.reading.clauses import (
    NOW_PART,
    PART,
    WORD,
    Clause,
    blank,
    normal,
    quote,
    quoted_at,
    split_clauses,
    too_short,
)
from interview_cli.llm.offline.reading.content import judge_label
from interview_cli.llm.offline.reading.corrections import apply_correction, renamed
from interview_cli.llm.offline.reading.doubt import (
    DOUBTFUL,
    SIGN,
    confidence_of,
    doubt,
    wished_for,
)
from interview_cli.llm.offline.reading.earlier import said_before
from interview_cli.llm.offline.reading.held import focus_held, framed_against
from interview_cli.llm.offline.reading.labels import make_label
from interview_cli.llm.offline.reading.links import (
    Turn,
    Unit,
    another_things,
    link_unit,
    unique_edges,
    units_of,
)
from interview_cli.llm.offline.reading.meta import (
    PUZZLED,
    REASONS,
    interviewers_words,
    meta_kind,
    naming_words,
    without_echo,
)
from interview_cli.llm.offline.reading.nonanswers import (
    CLAUSE_KINDS,
    blank_spans,
    clause_kind,
    inline_spans,
    kind_at,
)
from interview_cli.llm.offline.reading.nonanswers import REASONS as NONCONTENT_REASONS
from interview_cli.llm.offline.reading.ontology import OntologyView
from interview_cli.llm.offline.reading.reactions import (
    element_named,
    sentence_around,
    with_raised_element,
)
from interview_cli.llm.offline.reading.retractions import taken_back
from interview_cli.llm.offline.reading.stance import stance_of
from interview_cli.llm.offline.reading.steering import (
    opens_elsewhere,
    steer_to,
    steered_edges,
    what_it_came_to,
)
from interview_cli.llm.offline.reading.topic_named import names_topic, topic_heads, topic_rejection
from interview_cli.llm.offline.reading.typing import incident_clause, type_clause
from interview_cli.llm.offline.reading.typos import mend_typos, retyped
from interview_cli.llm.protocol import ExtractRequest

# Families whose answer sits above the focus. "third_person" ("why might someone like you
# care?"), "negative_ladder" ("what would you miss without it?") and "situational" ("the last
# time it mattered") ask for what the focus does for the person as a plain why does, by
# another road; what happened next, what caused it and what else was tried follow from the
# focus too.
CLIMBING_FAMILIES: frozenset[StrategyFamily] = frozenset(
    {
        "deepen",
        "negative_ladder",
        "third_person",
        "situational",
        "narrative",
        "attribution",
        "alternative",
    }
)
# The kind of element a family's question asks for (used where the ontology has a type for
# it): the first clause of its answer is read as that kind when its words name none.
FAMILY_KINDS: dict[StrategyFamily, str] = {
    "incident": "context",
    "explore": "context",
    "deepen": "job",
    "emotion": "emotion",
    "attribution": "attribution",
    "insight": "lesson",
    "obstacle": "pain",
    "alternative": "solution",
}
# A question asking what held them back, whatever its family, is answered by a pain (round 71
# read "honestly the money" as a choice); "how did you get past that?" asks what they did.
_HELD_BACK = re.compile(
    r"\b(?:hesitat\w*|held\s+you\s+back|hold\s+you\s+back|put\s+you\s+off|think\s+twice|"
    r"(?:might|could|would)\s+go\s+wrong)\b",
    re.IGNORECASE,
)
# A scene set in answer to a situational question ("I was on a packed train last Monday")
# is no element where the ontology has no type for situations: it is skipped, and what
# follows it links from the focus.
_SCENE = re.compile(
    r"^(?:(?:i|we)\s+(?:was|were|had been|'d been)\s+(?:on|at|in|out|stuck|sitting|standing|"
    r"walking|riding|driving|cooking|travelling|traveling|commuting)\b|"
    r"(?:it|that)\s+was\s+(?:on|at|in|during|last|a|an|the)\b|(?:the\s+)?last\s+time\b)",
    re.IGNORECASE,
)
# Words that name nothing: pronouns, copulas, intensifiers and bare ratings ("fine", "ok").
# A don't-know or hedge around these alone ("I don't know, they're just fine I guess") says
# the respondent has nothing to add; a node "fine" would only be noise in the graph.
_NAMES_NOTHING = (
    LEADING_STRIP
    | TRAILING_STRIP
    | EVALUATIVE
    | ACKNOWLEDGEMENTS
    | EMPTY_LABEL_WORDS
    | frozenset({"alright", "all", "right", "whatever"})
)


def expected_category(family: StrategyFamily | None, view: OntologyView) -> str | None:
    """The kind of element a strategy's family asks for (an attribution, a pain), where the
    ontology has a type for it. An incident asked for (or the opening question, where the
    methodology is about events) is the event itself where the ontology has a type for
    events, else its context: seven typed Critical Incident interviews (rounds 210-216) made
    no incident node at all, and their closes recapped "late" and "milk" instead."""
    events = view.supports("event")
    if events and (family == "incident" or (family is None and view.about_events)):
        return "event"
    kind = FAMILY_KINDS.get(family) if family else None
    return kind if kind is not None and view.supports(kind) else None


def extract_offline(request: ExtractRequest) -> Extraction:
    """The offline provider's extraction for one answer (with the reaction to the stimulus
    element the question raised, ``reactions``). The typos of small words are mended first
    ("weell", "let me tink": ``typos``)."""
    typed, mended = request.answer, mend_typos(request.answer)
    if mended != typed:
        request = request.model_copy(update={"answer": mended})
        return _as_typed(_extract_mended(request), typed, mended)
    return _extract_mended(request)


def _as_typed(extraction: Extraction, typed: str, mended: str) -> Extraction:
    """The extraction with its quotes in the words the respondent typed (``typos.retyped``)."""
    as_typed = retyped(typed, mended)
    nodes = [n.model_copy(update={"quote": as_typed(n.quote)}) for n in extraction.nodes]
    edges = [e.model_copy(update={"quote": as_typed(e.quote)}) for e in extraction.edges]
    return extraction.model_copy(update={"nodes": nodes, "edges": edges})


def _without_echo(answer: str, question: str) -> str:
    """The answer without its echo of the question (``meta.without_echo``), and without a
    retraction the echo hid: a word of theirs explained is taken back as said, so "Ar just
    means yes bab, it's how we talk round here" is not read without its "Ar" as "how we talk
    round here", which round 231's close read back (nor a remark: "they dont matter, ...")."""
    echoless = without_echo(answer, question)
    if echoless == answer:
        return echoless
    still = {(s.start, s.end) for s in inline_spans(echoless, ("retraction", "remark"))}
    hidden = [
        s
        for s in inline_spans(answer, ("retraction", "remark"))
        if all(s.start >= e or s.end <= b for b, e in still)
    ]
    return blank_spans(echoless, hidden)


def _extract_mended(request: ExtractRequest) -> Extraction:
    extraction = with_raised_element(request, _extract(request), stance_of)
    back = taken_back(request)
    extraction = _without_just_said(request.answer, extraction, back.just_said)
    retracted = back.labels
    update: dict[str, object] = {}
    held = None if retracted else focus_held(request, {n.label.lower() for n in extraction.nodes})
    if held is not None:  # "it just annoys me": how the focus is held, said with a pronoun
        extraction = _without_saying_how(extraction, held)
        # in the order the respondent said them, as every extraction lists its nodes
        nodes = sorted([*extraction.nodes, held], key=lambda n: quoted_at(request.answer, n))
        update |= {"nodes": nodes, "edges": extraction.edges, "extractable": True}
        if not extraction.extractable:
            update["reason"] = f"says how '{held.label}' is held, nothing new to extract"
    if retracted:
        # what the answer says next answers no question about what it takes back
        gone = {normal(label) for label in retracted}
        kept = [e for e in extraction.edges if not {normal(e.source), normal(e.target)} & gone]
        update |= {"retracted": retracted, "edges": kept}
        if not extraction.extractable:
            update["reason"] = f"takes back '{retracted[0]}', nothing new to extract"
    return extraction.model_copy(update=update) if update else extraction


_DEGREE = re.compile(r"\b(?:a\s+)?(?:wee|little|tiny|teeny)(?:\s+bit)?\b")


def _without_saying_how(extraction: Extraction, held: ExtractedNode) -> Extraction:
    """The extraction without a node made of the words that say how the focus is held ("it
    annoys me a wee bit": round 68 made "annoys me a wee" a value above the focus)."""
    said = held.quote.lower()
    gone = {
        normal(n.label)
        for n in extraction.nodes
        if said in n.quote.lower()
        and naming_words(_DEGREE.sub(" ", n.quote.lower().replace(said, " ")), _NAMES_NOTHING) == 0
    }
    if not gone:
        return extraction
    nodes = [n for n in extraction.nodes if normal(n.label) not in gone]
    edges = [e for e in extraction.edges if not {normal(e.source), normal(e.target)} & gone]
    return extraction.model_copy(update={"nodes": nodes, "edges": edges})


def _without_just_said(
    answer: str, extraction: Extraction, spans: list[tuple[int, int]]
) -> Extraction:
    """The extraction without the nodes the answer took back as soon as it said them ("my
    sister and her pod machine, that has nothing to do with it"): those quoted in a span."""
    if not spans:
        return extraction
    gone = [n for n in extraction.nodes if any(a <= quoted_at(answer, n) < b for a, b in spans)]
    if not gone:
        return extraction
    labels = {normal(n.label) for n in gone}
    nodes = [n for n in extraction.nodes if n not in gone]
    edges = [e for e in extraction.edges if not {normal(e.source), normal(e.target)} & labels]
    dropped = [
        RejectedItem(kind="node", item=n.model_dump(), reason="taken back as soon as it was said")
        for n in gone
    ]
    update: dict[str, object] = {
        "nodes": nodes,
        "edges": edges,
        "rejected": [*extraction.rejected, *dropped],
    }
    if extraction.steer is not None and normal(extraction.steer) in labels:
        update["steer"] = None  # (what it asked to go back to went with it: the review)
    if not nodes and not edges:
        update |= {"extractable": False, "reason": "takes back what it said, nothing to extract"}
    return extraction.model_copy(update=update)


def _extract(request: ExtractRequest) -> Extraction:
    answer = _without_echo(request.answer, request.question)
    view = OntologyView(request.methodology.ontology)
    if naming_words(blank(answer), _NAMES_NOTHING) == 0:
        # What is left after hedges, don't-knows and remarks about the interview names
        # nothing, so a hedge among it is a hedge around nothing ("they're fine, I guess").
        hedged = bool(HEDGES.search(answer))
        return _finished(request, view, _Read(), _why_not(answer, hedged=hedged))
    turn = _turn(request, view)
    # where the ontology has no type for circumstances, the respondent's life is backstory;
    # where it is not about events, so is what happened long ago, and a theft told
    kinds = CLAUSE_KINDS if view.supports("context") else (*CLAUSE_KINDS, "life_story")
    kinds = kinds if view.about_events else (*kinds, "long_ago", "mishap")
    units, dropped = _content_units(
        request.answer, units_of(split_clauses(answer, _cue_filter(view))), kinds
    )
    nodes, edges, placed, rejected = _read_units(request, view, turn, units)
    nodes, edges = _required_for_it(view, nodes, edges, placed)
    read = _Read(nodes, edges, [*dropped, *rejected])
    restated = [c.label for u in placed for c in u.clauses if c.existing]
    if restated and not nodes and not edges:
        # "I mean the physical buttons": said before, nothing new to add to the graph (what
        # it asks to go back to still counts: "The chapel?? Go back to the knee")
        return _finished(
            request, view, _Read(), f'restates "{restated[0]}", nothing new to extract'
        )
    # A hedge around nothing returned above: whatever hedge is left wrapped something.
    return _finished(request, view, read, _why_not(answer, hedged=False))


@dataclass
class _Read:
    """What reading an answer's clauses found: the new nodes, the links and what was refused."""

    nodes: list[ExtractedNode] = field(default_factory=list)
    edges: list[ExtractedEdge] = field(default_factory=list)
    rejected: list[RejectedItem] = field(default_factory=list)


def _finished(request: ExtractRequest, view: OntologyView, read: _Read, empty: str) -> Extraction:
    """The extraction of what was read, with a correction read into its nodes and the node a
    request to go back names as its ``steer`` (``empty``: the reason when nothing was found)."""
    types = {n.name for n in view.nodes}
    nodes, dropped = apply_correction(request, read.nodes, types)
    # what was dropped, as it was read too (before a correction cut it: "tryfan not snowdon")
    quotes = {r.item.get("quote") for r in dropped}
    gone = {normal(n.label) for n in read.nodes if n.quote in quotes} | {
        normal(label) for r in dropped if isinstance(label := r.item.get("label"), str)
    }
    edges = [
        e
        for e in renamed(read.edges, read.nodes, nodes)
        if not {normal(e.source), normal(e.target)} & gone
    ]
    # what they meant does not lead from what it puts right: it is that, said again
    revised = {frozenset((normal(n.label), normal(n.corrects))) for n in nodes if n.corrects}
    edges = [e for e in edges if frozenset((normal(e.source), normal(e.target))) not in revised]
    steer, new = steer_to(request, nodes, view)
    # ... nor, unless they went back to something, from the focus: it takes the place of what
    # it puts right, no rung above the focus ("sorry it wasnt both in first year actually, one
    # pair went in first year", round 256, asked of wasted money)
    putting_right = {normal(n.label) for n in nodes if n.corrects}
    focus = normal(request.focus_label or "")
    if steer is None:
        edges = [
            e
            for e in edges
            if not (normal(e.source) == focus and normal(e.target) in putting_right)
        ]
    edges = steered_edges(request, steer, new, nodes, edges)
    deepen = bool(steer) and _turn(request, view).deepen
    nodes, edges = what_it_came_to(request, view, steer, nodes, edges, deepen=deepen)
    # what they stress or ask to go back to is no doubtful aside ("the actual point is
    # recovering properly"): being pointed at is a sign, so it is asked about and read back
    sure = DOUBTFUL + SIGN
    nodes = [
        n.model_copy(update={"confidence": sure}) if n.label == steer and n.confidence < sure else n
        for n in nodes
    ]
    if new is not None:  # in the order the respondent said them, as every extraction lists them
        nodes = sorted([*nodes, new], key=lambda n: quoted_at(request.answer, n))
    rejected = [*read.rejected, *dropped]
    if not nodes and not edges:
        reason = f"asks to go back to '{steer}', nothing new to extract" if steer else empty
        return Extraction(extractable=False, reason=reason, rejected=rejected, steer=steer)
    return Extraction(
        extractable=True,
        reason=f"{len(nodes)} element(s) and {len(edges)} link(s) found by cue words",
        nodes=nodes,
        edges=unique_edges(edges),
        rejected=rejected,
        steer=steer,
    )


def _content_units(
    answer: str, units: list[Unit], kinds: tuple[str, ...]
) -> tuple[list[Unit], list[RejectedItem]]:
    """The units with only the clauses that may name content, and why the others were
    dropped: a clause holding backstory, an aside or a passing contrast is context or
    rapport, never a rung (``nonanswers.clause_kind``)."""
    kept: list[Unit] = []
    dropped: list[RejectedItem] = []
    # a request to go back is no scene ("going back to your question, ..."): read without it
    said = blank_spans(answer, inline_spans(answer, ("steer",)))
    for unit in units:
        clauses = []
        # a list said as what it is not ("not just obrigado and thumbs up") goes whole
        contrast = kind_at(said, unit.clauses[0].raw_start, unit.clauses[-1].raw_end, ("contrast",))
        for clause in unit.clauses:
            kind = contrast or kind_at(said, clause.raw_start, clause.raw_end, kinds)
            if kind is None:
                clauses.append(clause)
                continue
            parts = [] if contrast else _parts_without(clause, said, kinds)
            if parts:
                # "I've got a bad back, slipped disc in 2019, so pushing the Dyson was
                # killing me": the date makes its own part backstory, not the whole sentence
                clauses.extend(parts)
            item: dict[str, object] = {"quote": quote(answer, clause.raw_start, clause.raw_end)}
            dropped.append(RejectedItem(kind="node", item=item, reason=NONCONTENT_REASONS[kind]))
        if clauses:
            kept.append(Unit(clauses, unit.link))
    return kept, dropped


def _parts_without(clause: Clause, said: str, kinds: tuple[str, ...]) -> list[Clause]:
    """The comma-separated parts of a clause of several that hold none of ``kinds``, each a
    clause of its own (``clauses.too_short`` for a part: not); [] when the clause has one part."""
    text = clause.text
    parts = [m for m in PART.finditer(text) if m.group(0).strip()]
    if len(parts) < 2:
        # (nor a "now" they are somebody, said after it: "It makes you feel you're still some
        # use now im retired", round 269 lost the whole clause to "im retired")
        parts = [m for m in NOW_PART.finditer(text) if m.group(0).strip()]
    if len(parts) < 2:
        return []
    kept: list[Clause] = []
    for part in parts:
        start = clause.start + part.start() + (len(part.group(0)) - len(part.group(0).lstrip()))
        end = clause.start + part.end()
        words = said[start:end].split()
        # (the first part from where the clause was said: "I live on my own since Ann passed
        # so if I go down ..." is read from "Ann passed", and its backstory is before it;
        # round 194 read "ann passed" back as why a boot that holds the ankle matters)
        said_from = clause.raw_start if part is parts[0] else start
        if too_short(words) or clause_kind(said[said_from:end], kinds) is not None:
            continue
        kept.append(
            replace(
                clause,
                text=text[start - clause.start : end - clause.start],
                start=start,
                end=end,
                quote_start=start,
                cue=clause.cue if not kept and part is parts[0] else None,
                raw_start=start,
                raw_end=end,
            )
        )
    return kept


def _cue_filter(view: OntologyView) -> Callable[[Cue], bool]:
    """Which cues open a clause: a frame cue ("when I", "then I", "I felt") only where the
    ontology has a node type for what it introduces (laddering has no "situation" type, so
    "when I get things done" stays inside its clause there)."""

    def active(cue: Cue) -> bool:
        if cue.link not in ("assoc", "sequence") or cue.category is None:
            return True
        return view.supports(cue.category)

    return active


@dataclass(frozen=True)
class _Study:
    """What the study says about which words are its topic: the topic's head nouns and name
    (a label of only these is the topic itself), the words of its name, objective,
    description and elements (what a one-word label may name), and whether the ontology has
    a type for circumstances (where a place is content)."""

    name: str
    heads: frozenset[str]
    topic_words: frozenset[str]
    vocabulary: frozenset[str]
    circumstances: bool
    story: bool  # the ontology is about events: a story of the past is its matter
    asked: frozenset[str] = frozenset()  # the content words of the question answered

    @classmethod
    def of(cls, request: ExtractRequest, view: OntologyView) -> _Study:
        concept = request.concept
        texts = [concept.name, concept.objective, concept.description]
        texts += [f"{e.label} {' '.join(e.aliases)}" for e in concept.elements]
        vocabulary = frozenset(w for t in texts for w in label_profile(t or "").content)
        return cls(
            name=concept.name,
            heads=topic_heads(concept.name),
            topic_words=frozenset(label_profile(concept.name).content),
            vocabulary=vocabulary
            | frozenset(w.lower() for t in texts for w in WORD.findall(t or "")),
            circumstances=view.supports("context"),
            story=view.about_events,
            asked=interviewers_words(
                request.question,
                [
                    request.focus_label or "",
                    *request.existing_labels,
                    request.previous_answer,
                    concept.name,
                ],
            ),
        )

    @property
    def features(self) -> frozenset[str]:
        """The study's own things: its vocabulary without the topic's name."""
        return self.vocabulary - self.topic_words - self.heads

    def refuse(self, clause: Clause, answer: str, *, named: bool = False) -> RejectedItem | None:
        """Why a new label is no node: the topic itself, or not content (``content``);
        ``named``: the first thing said to a question asking what they notice."""
        if names_topic(clause.label, self.heads, self.topic_words):
            return topic_rejection(clause.label, self.name)
        content = set(label_profile(clause.label).content)
        if content and content <= self.asked:
            # the question's words said back: "best moment is every evening ..." to "what was
            # your best moment?", "not sure theres steps" to "step by step?" (round 62 asked
            # 'How does "best moment" help you?' and 'You said there's steps.' twice)
            return RejectedItem(
                kind="node", item={"label": clause.label}, reason="the question's own words"
            )
        judged = judge_label(
            clause.label,
            quote=answer[clause.quote_start : clause.end],
            clause_text=clause.text,
            topic_words=self.topic_words | self.heads,
            vocabulary=self.vocabulary,
            circumstances=self.circumstances,
            named=named,
        )
        if judged is None:
            return None
        return RejectedItem(kind="node", item={"label": clause.label}, reason=judged.reason)


# What the thing must be, said after "so": "I've got a bad lower back ... so it's got to be firm
# enough", "I work nights so it has to be quiet"
_REQUIRED_OF_IT = re.compile(
    r"^\W*(?:(?:it|they|them|the\s+[\w-]+|that|this|mine|one)\s*)?(?:'s|'ve\s+got|\bis|\bhas|\bhave|"
    r"\bneeds?|\bmust|\bshould|'s\s+got|\bhas\s+got|\bhave\s+got)\s+(?:got\s+)?(?:to\s+)?(?:be|have)\b|"
    # ... or what they need of it: "he uses my hotspot for homework ... So I need big data"
    # (round 218 read back '"he uses my hotspot for homework" matters to you because of "big
    # data"': "It is other way")
    r"^\W*(?:(?:i|we)\s+)?(?:really\s+)?need\s+(?:a\s+|an\s+|lots\s+of\s+|loads\s+of\s+|plenty\s+of\s+)?"
    r"(?:big|good|decent|strong|fast|proper|unlimited|enough)\b",
    re.IGNORECASE,
)
# ... after something of theirs ("I've got a bad back", "I work nights", "my knees are shot"),
# not an inference from the thing ("It's memory foam so it's got to be warm") nor others' duty
_THEIRS = re.compile(
    r"^\W*(?:(?:well|and|but|honestly)\W+)*(?:i|i've|i'm|ive|im|we|we're|my|our)\b", re.I
)


def _required_for_it(
    view: OntologyView, nodes: list[ExtractedNode], edges: list[ExtractedEdge], placed: list[Unit]
) -> tuple[list[ExtractedNode], list[ExtractedEdge]]:
    """The links and types of a requirement said after "so" the right way round: what the thing
    must be is the means, what they live with the end it serves. "I've got a bad lower back ...
    so it's got to be firm enough" was read as the back leading to the firmness, and round
    217's check-back said '"I've got a bad lower back" bothers you because "it's got to be
    firm enough"' (the respondent: "you've got it backwards")."""
    for before, unit in itertools.pairwise(placed):
        said = unit.clauses[0]
        if not (said.cue and said.cue.phrase.strip(" ,").lower().split()[:1] == ["so"]):
            continue
        if not _REQUIRED_OF_IT.match(said.text):
            continue
        mine = _THEIRS.match(said.text) or said.cue.phrase.lower().endswith((" i", " we"))
        if not (_THEIRS.match(before.clauses[-1].text) or mine):
            continue  # (what they need is theirs, whoever's the reason: "he uses my hotspot")
        need, must = before.clauses[-1].label, said.label
        typed = {n.label: n.node_type for n in nodes}
        low, high = typed.get(need), typed.get(must)
        if low is None or high is None or (view.level(low) or 0) >= (view.level(high) or 0):
            continue
        relation = view.relation(low, high)
        if relation is None:
            continue
        swap = {need: high, must: low}
        nodes = [
            n.model_copy(update={"node_type": swap[n.label]}) if n.label in swap else n
            for n in nodes
        ]
        edges = [
            e.model_copy(update={"source": must, "target": need, "relation": relation})
            if (e.source, e.target) == (need, must)
            else e
            for e in edges
        ]
    return nodes, edges


def _read_units(
    request: ExtractRequest, view: OntologyView, turn: Turn, units: list[Unit]
) -> tuple[list[ExtractedNode], list[ExtractedEdge], list[Unit], list[RejectedItem]]:
    """The answer's units in order: each clause typed and named (a new label once, the topic
    itself and what is not content refused), each unit linked to those placed before it.
    Returns the new nodes, the edges, the units placed and what was refused."""
    existing = {normal(label): label for label in request.existing_labels}
    if request.focus_label:
        existing.setdefault(normal(request.focus_label), request.focus_label)
    nodes: list[ExtractedNode] = []
    edges: list[ExtractedEdge] = []
    seen: set[str] = set()
    placed: list[Unit] = []
    rejected: list[RejectedItem] = []
    study = _Study.of(request, view)
    incident = incident_clause(
        [c for u in units for c in u.clauses], story=turn.expected == "event"
    )
    for unit in units:
        if turn.skip_scenes:
            unit.clauses = [c for c in map(_without_scene, unit.clauses) if c is not None]
            if not unit.clauses:
                continue
        previous = placed[-1] if placed else None
        if previous is not None and unit.link == "none" and _climbs_on(unit, previous, turn):
            unit.link = "up"
        for clause in unit.clauses:
            type_clause(
                view,
                clause,
                unit.link,
                previous,
                turn,
                study.features,
                event_open=clause is incident,
            )
            _name(clause, existing, turn, first=previous is None)
            named = turn.eliciting and previous is None and clause is unit.clauses[0]
            refused = None if clause.existing else study.refuse(clause, request.answer, named=named)
            if refused is not None:
                rejected.append(refused)
                clause.label = ""
        unit.clauses = [c for c in unit.clauses if c.label]
        if not unit.clauses:
            continue
        for clause in unit.clauses:
            key = normal(clause.label)
            if clause.existing or key in seen:
                continue
            seen.add(key)
            # (in a story, what follows who they are answers: "I'm the office manager ... and
            # our broadband provider cut the whole school off")
            scene = study.story and all(LIFE_FACT.search(c.text) for u in placed for c in u.clauses)
            node = _node(request, view, clause, answers=previous is None or scene, study=study)
            if not nodes and previous is None and _restates(request, turn, clause):
                node = _restating(node, request)
            nodes.append(node)
        edges.extend(link_unit(view, request.answer, unit, placed, turn, rejected))
        placed.append(unit)
    return nodes, edges, placed, rejected


def _climbs_on(unit: Unit, previous: Unit, turn: Turn) -> bool:
    """A sentence with no cue of its own is still the next step of the climb before it: a
    goal of theirs mid-climb (a want after a statement of its own is no step of a chain), or
    what the climb comes to said in a few words ("... not be worrying the kitchens under
    water. Peace of mind I spose.": round 226 made it a node of its own, and asked about an
    old one next)."""
    text = unit.clauses[0].text
    goal = turn.deepen and previous.link == "up" and _GOAL_OF_THEIRS.match(text) is not None
    climbing = turn.deepen or turn.told_more
    return goal or (climbing and bool(previous.parents) and _sums_up(text))


def _sums_up(text: str) -> bool:
    """A few words, no subject, that name a feeling or a value ("Peace of mind I spose.",
    "Security really."); the hedge after them aside."""
    words = [w.lower() for w in WORD.findall(text)]
    while words and words[-1] in _SUMMING_HEDGE:
        words.pop()
    said = " ".join(words)
    # (a phrase of a feeling or a value, not a word of one: "Feels a bit heavy mind", "Nice
    # feel to them", "Nervous on ice though" are afterthoughts, the review)
    named = any(p in said for p in _SUMMING_PHRASES) or bool(set(words) & VALUE_WORDS)
    # ... or a feeling said in a word or two ("Pride, I suppose.", "Relief really.", the review)
    # (not the verb: "Feels a bit heavy mind" is of the boots)
    # (the feeling leads: "Dishwasher safe", "Heat control" are features, the review)
    feeling = FEELING_WORDS - _FEEL
    named = named or (
        0 < len(words) <= 2
        and (words[0] in feeling or (words[0] in _FEELING_LEAD and bool(set(words[1:]) & feeling)))
    )
    afterthought = set(words) & _RESERVATION
    return 0 < len(words) <= 4 and named and not set(words) & _SUBJECTS and not afterthought


_SUMMING_HEDGE = frozenset(
    "i spose suppose guess think really basically tbh like mostly honestly".split()
)
_SUMMING_PHRASES = (*FEELING_PHRASES, *VALUE_PHRASES)
_FEEL = frozenset("feel feels felt feeling".split())
_FEELING_LEAD = frozenset("feeling so really very quite".split())
_RESERVATION = frozenset("though tho but shame except apart still".split())
_SUBJECTS = frozenset("i we you they he she it i'm it's its".split())


# A goal of theirs said in a sentence of its own, after a why: "... i'm done by dinner time. i
# want to keep going till i'm 60" is where the reason leads, not a new thing at the bottom
# (round 189 typed it an attribute and asked about something else)
_GOAL_OF_THEIRS = re.compile(
    r"^\W*(?:(?:and|but|so|well|just)\W+)?i\s+(?:really\s+|just\s+|still\s+)?"
    r"(?:want|wanna|need|would\s+like|'d\s+like|d\s+like|hope|refuse)\s+to\s+"
    # (not a chore or an aside tacked on: "I want to get a new oven", "I want to say it's for
    # the family but ...", "I need to get the boiler fixed", from the reviews)
    r"(?!(?:say|buy|ask|tell|mention|add)\b|(?:get|buy)\s+(?:a|an|some)\b)"
    r"(?![^.!?]*\b(?:though|anyway|another\s+thing|fixed|sorted|repaired)\b)"
    r"|^\W*(?:(?:and|but|so)\W+)?i(?:'m|m|\s+am)\s+not\s+(?:ready|going|about)\s+to\b"
    # "i guess its about being the one who holds it down for the family" (round 190)
    r"|^\W*(?:(?:and|but|so|i\s+guess|i\s+suppose|i\s+think)\W+)*(?:it'?s|it\s+is|that'?s|thats)"
    r"\s+(?:all\s+|really\s+|just\s+)?about\s+being\b",
    re.IGNORECASE,
)


def _restates(request: ExtractRequest, turn: Turn, clause: Clause) -> bool:
    """The first thing said to "what do you mean by X?" is X in other words ("I mean feeling
    connected to her"), unless a cue says it follows from X ("so I can relax")."""
    if not turn.focus_label or not turn.focus_type:
        return False
    # "If you mean being able to follow the conversation, ...": what they take the question
    # to be about, whatever it asked (round 23)
    taken = _IF_YOU_MEAN.search(request.answer[: clause.quote_start]) or _IF_YOU_MEAN_LEAD.match(
        clause.text
    )
    # (asked back what the question meant, they say what they did: "sorry what do you mean by
    # the bother? ... i meant i dinnae want to be a burden", round 185)
    puzzled = PUZZLED.match(request.answer) is not None
    if not turn.clarifying and not taken and not puzzled:
        return False
    if clause.cue is not None and clause.cue.link in ("up", "down"):
        return False
    focus = normal(turn.focus_label)
    if not any(normal(label) == focus for label in request.existing_labels):
        return False
    if taken:
        return True
    if _ASKS_INSTANCE.search(request.question):
        # asked for an example, they give one: "Can you walk me through a moment when that
        # really showed?" - "i mean i just told you lol, spain" (round 43: Spain revised
        # roaming, and every "can we go back to the roaming thing?" after it asked about Spain)
        return False
    # said as a restatement ("I mean ...", "like, ...", "..., I mean"), or only a few words
    # that stand alone ("The subtitles."): not another thing ("It charges in ten minutes")
    sentence = sentence_around(request.answer, clause.quote_start, clause.end)
    short = len(WORD.findall(sentence)) <= _SHORT_RESTATEMENT
    return bool(_RESTATING.search(sentence) or _RESTATING_LEAD.match(sentence) or short)


_RESTATING = re.compile(
    r"\b(?:i\s+mean|i\s+meant|what\s+i\s+mean\s+is|as\s+in|in\s+other\s+words)\b", re.I
)
# "if you mean ...": just before the clause, or leading it
_TAKEN_AS = r"if\s+(?:you\s+mean|you'?re\s+asking\s+about|by\s+that\s+you\s+mean)"
_IF_YOU_MEAN = re.compile(rf"\b{_TAKEN_AS}\W*$", re.I)
_IF_YOU_MEAN_LEAD = re.compile(rf"\W*{_TAKEN_AS}\b", re.I)
_ASKS_INSTANCE = re.compile(
    r"\b(?:an?\s+example|walk\s+me\s+through|a\s+(?:moment|time)\s+when|the\s+last\s+time)\b", re.I
)
_RESTATING_LEAD = re.compile(r"\W*(?:like|basically|so\s+basically)\b", re.IGNORECASE)
_SHORT_RESTATEMENT = 4


def _restating(node: ExtractedNode, request: ExtractRequest) -> ExtractedNode:
    """``node`` as the focus said again in the respondent's clearer words: the same kind of
    element, revising the focus (seed 001 ``superseded_by``), so the next question climbs
    from what was already said about the focus instead of asking it again ("What does
    feeling connected to her give you?" after they had said)."""
    return node.model_copy(
        update={"corrects": request.focus_label, "node_type": request.focus_type}
    )


def _turn(request: ExtractRequest, view: OntologyView) -> Turn:
    strategy = request.methodology.strategy(request.strategy) if request.strategy else None
    family = strategy.family if strategy else None
    eliciting = family in _ELICITING or not request.strategy
    denied = _NOT_IMPORTANT.match(request.answer) is not None
    climbing = family in CLIMBING_FAMILIES
    opened = OPEN_QUESTION.search(request.question) is not None
    elsewhere = opens_elsewhere(request)
    return Turn(
        focus_label=request.focus_label,
        focus_type=request.focus_type if view.level(request.focus_type) else None,
        deepen=climbing and not opened and not denied and not elsewhere,
        denied=denied,
        told_more=climbing and opened and not elsewhere,
        expected=(
            "pain"
            if _HELD_BACK.search(request.question) and view.supports("pain")
            else expected_category(family, view)
        ),
        skip_scenes=family == "situational" and not view.supports("context"),
        clarifying=family == "clarify",
        eliciting=eliciting,
        another_things=another_things(request.answer),
        # (a reply to "what else?" that says there is no more, or that it was said before)
        recapping=eliciting
        and bool(TERMINAL_CEILING.search(request.answer) or _SAID_AGAIN.search(request.answer)),
    )


# The open question after "can we go back to X?" ("Back to X. What did you want to say about
# it?", asking/wording.py "steer"): whatever the strategy, it asked for no reason, and what
# they say next is no rung above X ('"price" matters to you because of "its 20 minutes from my
# house"', round 37)
OPEN_QUESTION = re.compile(
    r"\bwhat\s+(?:did|would)\s+you\s+(?:want|like)\s+to\s+say\s+about\s+(?:it|that)\?",
    re.IGNORECASE,
)

# The why's premise denied as the answer opens: "it's not important, it's just what happens lol.
# i'm in and out the van 120 times a day" (round 205's check-back read the van back as why going
# through earbuds mattered), "It's not important, it's the opposite mun", "None really" (of what
# difference a guess made, my typed interview); not a concession that goes on to say why ("It
# doesn't matter how late I get in, dinner is ready", "not a big deal, it just saves me time")
_NOT_IMPORTANT = re.compile(
    r"^\W*(?:(?:well|erm|um|ha|haha|lol|no|nah|oh)\W+)*(?:(?:the\s+)?[\w'-]+\s*\?+\s*)?"
    r"(?:(?:(?:it'?s|its|it\s+is|that'?s|thats)\s+"
    r"(?:not|no)\s+(?:really\s+)?important\W+(?:(?:it'?s|its|it\s+is)\s+)?(?:just\s+)?(?:what\s+happens|"
    r"what\s+i\s+(?:don'?t|do\s+not)\s+want|the\s+opposite|how\s+it\s+is|life|the\s+past|"
    # ("It is not important, it is the past :) I just learn from it", round 218)
    r"history|over|done|gone)|(?:none|nothing)\s+really|no\s+difference|"
    # ("It's not important love, it was a flippin nuisance!", "It doesn't matter, it's a
    # cartoon bird haha": round 253's summary read the nuisance back as why the box mattered)
    r"(?:it'?s|its|it\s+is|that'?s|thats)\s+not\s+(?:really\s+)?(?:important|a\s+big\s+deal)"
    r"(?:\s+(?:love|mate|pet|really|at\s+all|to\s+me))*(?=\s*[,.;!-])|"
    r"(?:(?:it|that)\s+(?:doesn'?t|doesnt|does\s+not)|(?:they|those)\s+(?:don'?t|dont|do\s+not))"
    r"\s+(?:really\s+)?matter"
    r"(?:\s+(?:love|mate|pet|really|at\s+all|to\s+me))*(?=\s*[,.;!-])|"
    # ("I wasnae trying to get anything done, that's what happens if ye're NOT out there",
    # round 209: a job's premise denied)
    r"i(?:\s+wasn'?t|\s+was\s+not|\s+wasnae|'?m\s+not|\s+am\s+not|\s+wasnt)\s+trying\s+to\s+"
    r"(?:get\s+|do\s+)?(?:anything|owt|nothing)(?:\s+done)?(?=\s*(?:[,.;!?]|$)))\b)",
    re.IGNORECASE,
)
# The families whose questions ask what they notice or what else matters (and the opening
# question, which has no strategy): the first thing said names a feature.
_ELICITING: frozenset[str] = frozenset({"explore", "breadth_check", "revitalize", "element"})
# Said to be said before ("like I said", "I already said"): the aside's own phrase file
_SAID_AGAIN = phrase_pattern("meta/aside_repeat")


def _name(clause: Clause, existing: dict[str, str], turn: Turn, *, first: bool) -> None:
    """The clause's label, and whether it names an element said before (the focus too)."""
    clause.label = make_label(clause.text, clause.cue, clause.category)
    key = normal(clause.label)
    if key in existing:
        clause.existing = True
        clause.label = existing[key]
        if turn.focus_label and key == normal(turn.focus_label) and turn.focus_type:
            clause.node_type = turn.focus_type
    elif turn.recapping and (before := said_before(clause.label, existing)) is not None:
        # "nothin else really, its price, data and the signal. thats it ar": "price" is the
        # "price its 12 quid a month" said before, nothing new (round 187 was asked "what
        # else?" four times running, the reply adding "price" and "data" each time)
        clause.existing = True
        clause.label = before
    elif (first and (turn.deepen or turn.clarifying) and _restates_focus(clause.label, turn)) or (
        _THE_X_THING.match(clause.text) and _restates_focus(clause.label, turn, either=True)
    ):
        # "Focusing helps me get my work done" asked about "can focus on the train", "I
        # mean the data" asked what "data's unlimited" means: the answer starts from the
        # focus itself, so what follows builds on it instead of the restatement being
        # placed a level above it (or beside it, as a second name for the same thing).
        assert turn.focus_label is not None and turn.focus_type is not None
        clause.existing = True
        clause.label = turn.focus_label
        clause.node_type = turn.focus_type


# The focus named back as a topic: "Time flies lol. The kennel thing, I dunno, I just feel ..."
# (round 270 made "kennel" a node and asked why a kennel mattered)
_THE_X_THING = re.compile(r"\W*the\s+(?:[\w'-]+\s+){1,3}(?:thing|bit|part|side)\b", re.IGNORECASE)


def _without_scene(clause: Clause) -> Clause | None:
    """The clause without the scene it opens with ("Last time was at the gym, they stayed
    in" -> "they stayed in"); None when it is all scene."""
    text = clause.text
    if not (_SCENE.match(text.strip()) or TIME_OPENER.match(text.strip())):
        return clause
    comma = text.find(",")
    rest = text[comma + 1 :] if comma >= 0 else ""
    if not rest.strip():
        return None
    shift = comma + 1 + (len(rest) - len(rest.lstrip()))
    start = clause.start + shift
    return replace(clause, text=text[shift:], start=start, quote_start=start)


def _restates_focus(label: str, turn: Turn, *, either: bool = False) -> bool:
    """The clause names nothing but words of the focus label (lemmatised, synonyms mapped), said
    the same way up (``either``: or not, a topic named back: "the kennel thing" of "dont want
    the house looking like a kennel")."""
    if not turn.focus_label or not turn.focus_type:
        return False
    mine, focus = label_profile(label), label_profile(turn.focus_label)
    words = set(mine.content)
    same_way = either or mine.negated == focus.negated
    return bool(words) and same_way and words <= set(focus.content)


# ... a good word in a wish is no praise: "the fit could be better", "I wish the battery was
# better" (the review)
_WANTS_BETTER = re.compile(
    r"\b(?:could|should|would|might|needs?\s+to)\s+be\s+(?:a\s+(?:bit|lot)\s+|much\s+|way\s+)?"
    r"(?:better|nicer|improved|cheaper|bigger|smaller|longer|easier|quicker|faster)\b|\bwish\b|"
    r"\bif\s+only\b|\bmore\s+\w+\s+would\b",
    re.IGNORECASE,
)


def _a_name(clause: Clause, study: _Study, answer: str) -> bool:
    """The clause names only someone or something by a name of its own, written with a capital
    mid-sentence and not the study's: "Grace", "Bernadette", "BritBox" (round 264 asked 'Why does
    "Grace" matter to you?' of his wife): who or what it is, not yet what it does for them."""
    words = label_profile(clause.label).content
    if len(words) != 1 or words[0] in study.features:
        return False
    name = re.compile(r"(?<=[a-z,;:] )" + re.escape(clause.label.strip()) + r"\b", re.IGNORECASE)
    found = name.search(answer)
    return found is not None and found.group()[:1].isupper()


def _node(
    request: ExtractRequest, view: OntologyView, clause: Clause, *, answers: bool, study: _Study
) -> ExtractedNode:
    answer = request.answer
    span = answer[clause.quote_start : clause.end]
    confidence = confidence_of(clause, answers=answers, features=study.features, answer=answer)
    wished = wished_for(request.question, clause.text)
    if (
        doubt(answer, clause, story=study.story, named=answers)
        or wished
        or _a_name(clause, study, answer)
    ):
        # a node still, but not one to ask about until it is said more clearly (``doubt``);
        # nor is what they say would have helped, which never happened ("an engineer actually
        # turning up": "What did that teach you?" asks about it as done)
        confidence = min(confidence, DOUBTFUL)
    around = (sentence_around(answer, clause.quote_start, clause.end), answer)
    element_id, reaction = element_named(list(request.concept.elements), span, stance_of, around)
    # "what annoys me is the price": the frame around the clause says how it is held; so
    # does a question asking what they would change ("the price probably")
    held_against = framed_against(request, clause.quote_start, clause.end, answers=answers)
    said = stance_of(span)
    if held_against and said > 0 and answers and not _WANTS_BETTER.search(span):
        # (a question asking what they would change does not hold against what they say is
        # good: "the coffee itself is good now" was asked "Why does the coffee itself bother
        # you?", round 261; a frame of their own does: "I hate that the good ones sell out")
        held_against = framed_against(request, clause.quote_start, clause.end, answers=False)
    stance = -1 if held_against else said
    return ExtractedNode(
        label=clause.label,
        node_type=view.held_as_said(clause.node_type, stance),
        quote=quote(answer, clause.quote_start, clause.end),
        stance=stance,  # type: ignore[arg-type]
        confidence=confidence,
        element_id=element_id,
        reaction=reaction,  # type: ignore[arg-type]
    )


def _why_not(answer: str, *, hedged: bool) -> str:
    """Why nothing was extracted; ``hedged``: the caller found a hedge around nothing."""
    words = WORD.findall(answer.lower())
    if not words:
        return "empty answer"
    kind = meta_kind(answer)
    if kind is not None and kind not in ("hedge", "filler"):
        return REASONS[kind]
    if DONT_KNOW.search(answer) or TERMINAL_CEILING.search(answer):
        return "a don't-know with nothing to extract"
    if all(w in ACKNOWLEDGEMENTS for w in words):
        return "an acknowledgement only"
    if hedged or kind is not None:
        return REASONS[kind or "hedge"]
    return "no element of the ontology found in the answer"
