"""Offline extraction, step 3: linking the clauses of an answer (and the focus) by edges.

Clauses in the same role form a ``Unit`` (``units_of``: a cue's link, or another thing begun,
a list or a verdict split into siblings); each unit links to the unit before it (or, the
first one, to the focus node of a "why"-like question) by the first relation the ontology
permits between their types. A link always climbs: from the more concrete element to the
more abstract one, never downward, whatever order the words came in. A link the answer
implies but the ontology forbids in both directions is dropped and recorded, with its
reason, among the extraction's rejected items.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from interview_cli.core.models import ExtractedEdge, RejectedItem
from interview_cli.core.text import label_profile
from interview_cli.llm.offline.lexicon import IS_FOR
from interview_cli.llm.offline.lexicon.phrases import phrase_pattern
from interview_cli.llm.offline.reading.clauses import (
    Clause,
    content_words,
    list_parts,
    normal,
    quote,
)
from interview_cli.llm.offline.reading.meta import PUZZLED
from interview_cli.llm.offline.reading.ontology import OntologyView

LOOKBACK_UNITS = 3

Parent = Clause | tuple[str, str]  # a clause of this answer, or (label, type) of the focus


@dataclass
class Unit:
    """Clauses in the same role: one clause, or siblings ("light and comfortable")."""

    clauses: list[Clause]
    link: str
    parents: list[Parent] = field(default_factory=list)


@dataclass(frozen=True)
class Turn:
    """What the extractor knows about the question this answer responds to."""

    focus_label: str | None
    focus_type: str | None
    deepen: bool
    expected: str | None  # the kind of element the strategy asks for, if its name says
    skip_scenes: bool = False  # a situational question where the ontology has no situations
    clarifying: bool = False  # "what exactly do you mean by X?": the answer restates X
    # "what do you notice?", "what else matters?": the answer names a feature
    eliciting: bool = False
    another_things: tuple[tuple[int, int], ...] = ()  # ``another_things`` of the answer
    # "like i said nothin else really, its price, data and the signal. thats it": asked what
    # else, they name again what they named before (``extraction._said_before``)
    recapping: bool = False
    # "It's not important, it's just what happens", "I wasnae trying to get anything done": the
    # question's premise denied as the answer opens (``extraction._NOT_IMPORTANT``)
    denied: bool = False
    # "Back to X. What would you like to say about that?" (``extraction.OPEN_QUESTION``): no
    # reason asked for, but what they say X does is still what X leads to
    told_more: bool = False


# What a thing does, said as such: "(Just that) I can go to work ...", "it means ...", "it
# keeps ..." (not a reason for it, "I walk in the Lakes a lot so I need them waterproof", nor a
# remark, "I just wanted to say I'm happy with them", the review)
_DOES = re.compile(
    r"\W*(?:(?:just|only|well|oh)\W+)*(?:that\s+)?(?:i\s+(?:can|don'?t\s+have\s+to|"
    r"never\s+have\s+to|(?:can\s+)?stop|get\s+to)|(?:it|they|that)\s+(?:means|mean|"
    r"lets|let|keeps|keep|gives|give|saves|save|stops|stop|makes|make|helps|help)|"
    # (its subject left off: "Keeps me upright on wet rock", the review)
    r"(?:means|lets|keeps|gives|saves|stops|helps)\s+(?:me|us|my|our|it))\b",
    re.IGNORECASE,
)


def _above(view: OntologyView, clause: Clause, focus_type: str | None) -> bool:
    """The clause is of a higher level than the focus."""
    mine, focus = view.level(clause.node_type), view.level(focus_type or "")
    return mine is not None and focus is not None and mine > focus


def _parent_of(p: Parent) -> tuple[str, str, Clause | None]:
    if isinstance(p, Clause):
        return p.label, p.node_type, p
    return p[0], p[1], None


def _edge(
    view: OntologyView, answer: str, source: Parent, target: Parent, confidence: float
) -> ExtractedEdge | None:
    s_label, s_type, s_clause = _parent_of(source)
    t_label, t_type, t_clause = _parent_of(target)
    relation = view.relation(s_type, t_type)
    if relation is None or normal(s_label) == normal(t_label) or denies(s_label, t_label):
        return None
    s_level, t_level = view.level(s_type), view.level(t_type)
    if s_level is not None and t_level is not None and s_level > t_level:
        return None  # a link climbs the ladder: from the more concrete to the more abstract
    clauses = [c for c in (s_clause, t_clause) if c is not None]
    span = quote(answer, min(c.quote_start for c in clauses), max(c.end for c in clauses))
    return ExtractedEdge(
        source=s_label, target=t_label, relation=relation, quote=span, confidence=confidence
    )


def _either_way(
    view: OntologyView, answer: str, lower: Parent, upper: Parent, confidence: float
) -> ExtractedEdge | None:
    """The link the answer implies, upward as said or, when only that is permitted, the
    other way round (the ontology's direction wins over the order of the words)."""
    return _edge(view, answer, lower, upper, confidence) or _edge(
        view, answer, upper, lower, confidence
    )


def denies(a: str, b: str) -> bool:
    """The same words, one of them negated: a thing and its denial ("she cannot call", "she
    CAN call"), never a link between means and ends."""
    one, other = label_profile(a), label_profile(b)
    return one.content == other.content and one.negated != other.negated


def _refuse(view: OntologyView, source: Parent, target: Parent) -> RejectedItem | None:
    """Why the link the answer implies between two elements was dropped (None: same one)."""
    s_label, s_type, _ = _parent_of(source)
    t_label, t_type, _ = _parent_of(target)
    if normal(s_label) == normal(t_label):
        return None
    item: dict[str, object] = {
        "source": s_label,
        "target": t_label,
        "source_type": s_type,
        "target_type": t_type,
    }
    if denies(s_label, t_label):
        return RejectedItem(kind="edge", item=item, reason="a thing and its own denial")
    if view.relation(s_type, t_type) is not None or view.relation(t_type, s_type) is not None:
        return RejectedItem(
            kind="edge",
            item=item,
            reason=f"said to lead from {s_type} to {t_type}, which runs down the ladder; "
            "not turned round against what was said",
        )
    return RejectedItem(
        kind="edge",
        item=item,
        reason=f"the ontology permits no link between {s_type} and {t_type} in either direction",
    )


@dataclass
class _Linker:
    """Edges for one unit, and the links it had to refuse."""

    view: OntologyView
    answer: str
    rejected: list[RejectedItem]
    found: list[ExtractedEdge] = field(default_factory=list)

    def edge(self, source: Parent, target: Parent, confidence: float) -> ExtractedEdge | None:
        return _edge(self.view, self.answer, source, target, confidence)

    def join(self, source: Parent, target: Parent, confidence: float, *, flip: bool = True) -> None:
        edge = (
            _either_way(self.view, self.answer, source, target, confidence)
            if flip
            else self.edge(source, target, confidence)
        )
        if edge is not None:
            self.found.append(edge)
        elif (refusal := _refuse(self.view, source, target)) is not None:
            self.rejected.append(refusal)


def names_another(clause: Clause) -> bool:
    """ "I also like the cushions", asked why the battery matters: one more beside the focus."""
    return clause.cue is not None and "also" in clause.cue.phrase


def another_things(answer: str) -> tuple[tuple[int, int], ...]:
    """Where the answer says it turns to another thing ("the other big thing is my stomach",
    ``lexicon/en/another.yaml``), as (start, end) of each frame."""
    return tuple(m.span() for m in phrase_pattern("another").finditer(answer))


def opens_another(clause: Clause, turn: Turn) -> bool:
    """The clause is what an "another thing" frame turns to: the frame opens it (after an
    opener such as "well") or stands just before it, however long ("Can I say the other thing I
    notice though, it gets stuck on her toys", round 284)."""
    return any(
        (clause.start - 40 <= start or clause.start - 3 <= end <= clause.start)
        and end < clause.end
        and len(clause.text[: max(0, start - clause.start)].split()) <= 1
        for start, end in turn.another_things
    )


def _gives_a_reason(clause: Clause) -> bool:
    """The clause opens with a cue that says why or what for ("because ...", "so ...")."""
    return clause.cue is not None and clause.cue.link in ("up", "down")


_WRAPPED_UP = re.compile(
    r"\W*(?:(?:no|nah|yeah|yes|ok|okay|um|erm|hmm|honestly|well|so)\W+)*(?:i\s+think\s+)?"
    r"(?:(?:that'?s|thats)\s+(?:about\s+|pretty\s+much\s+|basically\s+)?(?:it|all)\b|"
    r"(?:i'?ve|ive|i\s+have)\s+(?:pretty\s+much\s+)?covered\s+it\b|not\s+much\s+else\b)",
    re.IGNORECASE,
)


def link_unit(
    view: OntologyView,
    answer: str,
    unit: Unit,
    placed: list[Unit],
    turn: Turn,
    rejected: list[RejectedItem],
) -> list[ExtractedEdge]:
    """The edges that join ``unit`` to what came before it (``placed``, or the focus)."""
    linker = _Linker(view, answer, rejected)
    if not placed:
        # The answer's first clause responds to the question: link it to the focus node when
        # the question asked about it (why, what next, what kind) and the ontology permits.
        asked = turn.deepen or turn.expected is not None or unit.link in ("up", "sequence", "assoc")
        # (told more of what they went back to: "Just that I can go to work and not be
        # worrying the kitchens under water", round 226 left it unlinked and the value after it
        # unasked; another thing of its level is no rung above it, round 37's "its 20 minutes
        # from my house")
        asked = asked or (
            turn.told_more
            and _DOES.match(unit.clauses[0].text) is not None
            and _above(view, unit.clauses[0], turn.focus_type)
        )
        # (nor after a wrap-up: "thats about it really, froth and taste" recaps what was said,
        # it is no answer to "How does feeling like a treat help you?")
        recap = _WRAPPED_UP.match(answer) is not None
        if (
            turn.focus_label
            and turn.focus_type
            and asked
            and not recap
            and not turn.denied
            # (nor after "what do you mean?": "sorry what do you mean by what did that let me
            # do? I only said ...", round 185's summary read "no train from mine → the bus";
            # unless it goes on to say why: "what? because I commute two hours a day")
            and not (PUZZLED.match(answer) and not _gives_a_reason(unit.clauses[0]))
            and not names_another(unit.clauses[0])
            and not opens_another(unit.clauses[0], turn)
        ):
            focus = (turn.focus_label, turn.focus_type)
            unit.parents = [focus]
            for clause in unit.clauses:
                # what they say it leads to ("It means I don't feel I'm wasting money", asked
                # what the freeze option leads to) is never turned round to lead to the focus:
                # a link the types refuse that way is left out (round 22: "It's backwards")
                onward = clause.cue is not None and clause.cue.link == "up"
                linker.join(focus, clause, 0.6, flip=clause.strong and not onward)
        return linker.found

    previous = placed[-1]
    if unit.link == "sibling":
        unit.parents = previous.parents
        for p in previous.parents:
            for c in unit.clauses:
                edge = linker.edge(p, c, 0.7)
                linker.found.extend([edge] if edge else [])
    elif unit.link == "down":  # "X, that's why Y": Y leads to X
        for p in previous.clauses:
            for c in unit.clauses:
                linker.join(c, p, 0.7)
    elif unit.link != "none":
        _link_forward(linker, unit, placed)
    return linker.found


def _link_forward(linker: _Linker, unit: Unit, placed: list[Unit]) -> None:
    """An upward or associated unit: from the nearest earlier unit the ontology permits."""
    previous = placed[-1]
    for clause in unit.clauses:
        linked = False
        for candidate in reversed(placed[-LOOKBACK_UNITS:]):
            edges = [linker.edge(p, clause, 0.7) for p in candidate.clauses]
            if any(edges):
                linker.found.extend(e for e in edges if e is not None)
                unit.parents = [p for p, e in zip(candidate.clauses, edges, strict=True) if e]
                linked = True
                break
        if linked:
            continue
        if unit.link != "up" or clause.strong:
            # The ontology may only permit the other direction (a solution is hired for the
            # job it was just said to serve): link that way rather than not at all.
            for p in previous.clauses:
                linker.join(clause, p, 0.6, flip=False)
        else:
            linker.rejected.extend(
                r for p in previous.clauses if (r := _refuse(linker.view, p, clause))
            )


_SUBJECT = re.compile(r"(?:i|we|you|they|he|she|it)(?:'\w+)?\b", re.IGNORECASE)


def _verdict_and_what(clause: Clause) -> list[Clause]:
    """A verdict and, after its comma, what it is said of, as two clauses: "thats like the
    best bit of the job, sitting with them on the carpet for story time" (round 49 lost the
    carpet with the verdict); [] when the clause is no such verdict."""
    verdict = _VERDICT_ON_NEXT.match(clause.text)
    comma = clause.text.find(",", verdict.end()) if verdict else -1
    what = clause.text[comma + 1 :] if comma >= 0 else ""
    if not content_words(what):
        return []
    at = comma + 1 + len(what) - len(what.lstrip())
    first = replace(clause, text=clause.text[:comma], end=clause.start + comma)
    first.raw_end = first.end
    second = Clause(
        clause.text[at:],
        clause.start + at,
        clause.end,
        clause.start + at,
        clause.cue,
        clause.sentence,
        raw_start=clause.start + at,
        raw_end=clause.raw_end,
    )
    return [first, second]


_VERDICT_ON_NEXT = re.compile(
    r"^\W*(?:that'?s|it'?s|this\s+is)\s+(?:like\s+|just\s+|really\s+|honestly\s+)*the\s+"
    r"(?:best|worst|nicest|hardest|main|favourite|favorite|only\s+good|good)\s+"
    r"(?:bit|part|thing)\b",
    re.IGNORECASE,
)


def units_of(clauses: list[Clause]) -> list[Unit]:
    """The answer's clauses as units: each with its link to the unit before (its cue's, or
    another thing's: ``_another_item``, a pair of its own before an "is for"), a plain list
    or a verdict and what it is of split into sibling clauses."""
    units: list[Unit] = []
    for at, clause in enumerate(clauses):
        link = clause.cue.link if clause.cue else "none"
        if clause.cue is None and units and units[-1].clauses[-1].sentence == clause.sentence:
            link = "assoc"  # a cue-less clause mid-sentence (after a comma-less frame)
        following = clauses[at + 1].cue if at + 1 < len(clauses) else None
        pair = following is not None and following.link == "up"
        if link == "sibling" and units and _another_item(clause, units[-1], starts_a_pair=pair):
            link = "none"
        if link == "sibling" and following is not None and following.phrase in IS_FOR:
            # "..., the quick wash is for the kits": a thing and what it is for, a pair of
            # its own, not one more thing the last reason leads to
            link = "none"
        # "because scrubs washed and dry in one go": what a why brought is one consequence
        # said in two breaths, not two to ask about; a list of features is split
        parts = list_parts(clause)
        if link == "up" and not any(_SUBJECT.match(p.text) for p in parts[1:]):
            parts = []  # ... unless each part has its own subject: "I stay fit and I save"
        units.append(Unit(parts or _verdict_and_what(clause) or [clause], link))
    return units


def _another_item(clause: Clause, before: Unit, *, starts_a_pair: bool = False) -> bool:
    """Another thing, a chain of its own, not a sibling of the last reason: a sentence that
    opens "also ..." ("... so they need to last like 12 hours. also comfort bc i wear glasses"
    had the comfort lead from forgetting to charge them, round 175's check-back), or what it
    is "too" said after a reason, where a reason of its own follows (``starts_a_pair``)."""
    if before.link == "up" and starts_a_pair and _ANOTHER_TOO.search(clause.text):
        # "light as anything so I can carry it down the steps and its quiet too so I dont
        # upset next door": the quiet is another thing it is, not what carrying it leads to
        # (round 184's check-back read back "light as anything" because "I dont upset next
        # door"); not "... so I can sleep on the train, and it's relaxing too", another of
        # what it leads to
        return True
    return (
        clause.cue is not None
        and clause.cue.phrase == "also"
        and before.clauses[-1].sentence != clause.sentence
    )


_ANOTHER_TOO = re.compile(
    r"^\W*(?:and\s+)?(?:it'?s|it\s+is|its|they'?re|they\s+are|theyre)\s+[^,;]*\b(?:too|as\s+well)\W*$",
    re.IGNORECASE,
)


def unique_edges(edges: list[ExtractedEdge]) -> list[ExtractedEdge]:
    seen: set[tuple[str, str, str]] = set()
    result = []
    for edge in edges:
        key = (normal(edge.source), normal(edge.target), edge.relation)
        if key not in seen:
            seen.add(key)
            result.append(edge)
    return result
