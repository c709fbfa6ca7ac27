"""Offline handling of repertory-grid methodologies (``shape: grid``).

Questions: a triad ("think of A, B and C: in what way are two of them alike and different
from the third?") chosen by ``core.grid.triad`` from the number of constructs so far (the
covered labels: constructs are a grid's most concrete nodes); a rating of every element on
the focus construct, on the scale set in the YAML; a "why does that matter" laddering up.

A question about a construct (a rating, a why) is asked only with a construct to ask about:
without one (no focus, or a focus of another type) the next triad is shown instead, so no
question ever has an empty slot. A rating question after a partial answer asks for the
elements not rated yet (``QuestionRequest.rated_elements``).

Answers (``grid_answers``): to a triad, the two sides of the answer give the two poles; the
elements named on the pair's side are rated at the bottom of the scale and those on the other
side at the top (the implicit ratings of the triad). To a rating question, each element named
with its number ("car 2, bus 4"), or numbers alone in the order the question listed the
elements. To a laddering question, the answer is what the construct serves. Deterministic:
no randomness.
"""

from __future__ import annotations

import re

from interview_cli.config.families import StrategyFamily
from interview_cli.config.schemas import ConceptElement, Methodology
from interview_cli.config.shapes import GridSpec
from interview_cli.core.grid import POLE_SEPARATOR, triad
from interview_cli.core.models import ExtractedEdge, ExtractedNode, Extraction, RejectedItem
from interview_cli.llm.offline.reading.clauses import blank
from interview_cli.llm.offline.reading.earlier import Earlier, best_match
from interview_cli.llm.offline.reading.labels import make_label
from interview_cli.llm.offline.reading.meta import puzzled
from interview_cli.llm.offline.reading.nonanswers import answer_kind
from interview_cli.llm.offline.reading.steering import find_steer
from interview_cli.llm.offline.shapes.common import clean_label, elements_named, label_list
from interview_cli.llm.offline.shapes.grid_answers import (
    named_ratings,
    numbers_alone,
    one_rating,
    positional_ratings,
    triad_answer,
)
from interview_cli.llm.prompts.templates import topic_name
from interview_cli.llm.protocol import ExtractRequest, OpeningRequest, QuestionRequest

# Families that ask what a construct serves ("why does it matter whether one is ... or
# ...?"): the question and the reading of its answer ladder up instead of rating.
LADDERING_FAMILIES: frozenset[StrategyFamily] = frozenset(
    {"deepen", "negative_ladder", "third_person", "situational"}
)


def _spec(methodology: Methodology) -> GridSpec:
    assert methodology.grid is not None
    return methodology.grid


def triad_elements(elements: list[ConceptElement], constructs_so_far: int) -> list[ConceptElement]:
    return [elements[i] for i in triad(constructs_so_far, len(elements))]


# ---- questions ---------------------------------------------------------------------------


_TRIADS = (
    "Think of {shown}. In what important way are two of them alike, and different from the third?",
    "Here are {shown}. Which two go together in some way that matters to you, and what sets "
    "the third apart?",
    "Of {shown}, which two are similar, and how is the other one different?",
)


def _triad_question(elements: list[ConceptElement], index: int) -> str:
    shown = label_list([e.label for e in triad_elements(elements, index)])
    return _TRIADS[index % len(_TRIADS)].format(shown=shown)


def _next_triad(request: QuestionRequest, elements: list[ConceptElement]) -> str | None:
    """The next triad after the constructs so far; one asked lately that gave nothing is not
    shown again, the one after it is."""
    if len(elements) < 3:
        return None
    index = len(request.covered_labels)
    recent = {q.strip() for q in request.avoid_questions}
    for step in range(len(elements)):
        question = _triad_question(elements, index + step)
        if question not in recent:
            return question
    return _triad_question(elements, index)


def _construct_focus(request: QuestionRequest, spec: GridSpec) -> str:
    """The focus construct's label, or "" when the focus is no construct (a rating or a why
    about nothing is never asked: the triad is)."""
    if request.focus_type not in (None, spec.construct_type):
        return ""
    left, sep, right = f" {request.focus_label or ''} ".partition(POLE_SEPARATOR)
    if sep:
        left, right = " ".join(left.split()), " ".join(right.split())
        return f"{left}{POLE_SEPARATOR}{right}" if left and right else ""
    return " ".join(left.split())


def grid_question(request: QuestionRequest) -> str | None:
    strategy = request.strategy
    if request.closing or strategy.generates_closing_question:
        if not request.covered_labels:
            return None
        return (
            "Let me read back the differences you drew: "
            f"{label_list(list(reversed(request.covered_labels)))}. Is that right, and is an "
            "important difference missing?"
        )
    spec = _spec(request.methodology)
    elements = list(request.concept.elements)
    focus = _construct_focus(request, spec) if strategy.node_binding != "none" else ""
    if not focus:
        return _next_triad(request, elements)
    left, sep, right = focus.partition(POLE_SEPARATOR)
    low, high = spec.rating_scale
    # (asked again, put another way, when they did not know what it asked: "sorry what?")
    last = request.recent[-1] if request.recent else None
    again = last is not None and puzzled(last.answer) and left.lower() in last.question.lower()
    if strategy.family in LADDERING_FAMILIES:
        # (the poles as said, set apart: "whether one is don't have to park or parking near
        # shop is nightmare" read as nonsense, round 283)
        if sep and again:
            return f"What difference does that make to you in the end: {left}, or {right}?"
        if sep:
            return f"Why does that difference matter to you: {left}, or {right}?"
        return f"Why does {focus} matter to you?"
    pole_low, pole_high = (left, right) if sep else (focus, f"not {focus}")
    values = {"low": low, "high": high, "a": pole_low, "b": pole_high}
    if again:
        rated = {label.lower() for label in request.rated_elements}
        pending = [e.label for e in elements if e.label.lower() not in rated] or [
            e.label for e in elements
        ]
        return _RATE_PLAINLY.format(
            **values, mid=(low + high) // 2, elements=label_list(pending).capitalize()
        )
    # Asked before on this construct, the rating question asks for the elements still
    # unrated; the first time, for every element (the triad's implicit ratings included).
    if any(p.strategy == strategy.name for p in request.probes):
        rated = {label.lower() for label in request.rated_elements}
        pending = [e.label for e in elements if e.label.lower() not in rated]
        if pending and len(pending) < len(elements):
            return _RATE_REST.format(**values, elements=label_list(pending))
    template = _RATING[max(0, len(request.covered_labels) - 1) % len(_RATING)]
    return template.format(**values, elements=label_list([e.label for e in elements]))


# Not understood: the same rating, said plainly one step at a time, with a middle.
_RATE_PLAINLY = (
    "Take each of these in turn and say whether it's more {a} or more {b}: {low} if it's {a}, "
    "{high} if it's {b}, {mid} if it's in between. {elements}?"
)

# Some elements rated already: the rest, in the order the question lists them.
_RATE_REST = "And the others, from {low} for {a} to {high} for {b}: how would you rate {elements}?"


# The same question for every construct, by design; the wording rotates so that a long grid
# does not read as one question asked again and again.
_RATING = (
    "On a scale from {low} to {high}, where {low} means {a} and {high} means {b}, how would "
    "you rate each of these: {elements}?",
    "Now place each of them between {a} ({low}) and {b} ({high}): {elements}.",
    # (not "How {a} or {b} is each": "How do something or sit there is each of these" was
    # asked, round 283)
    "Where does each of these sit, from {low} for {a} to {high} for {b}? {elements}",
    "Give each a number from {low} ({a}) to {high} ({b}): {elements}.",
)


def grid_opening(request: OpeningRequest) -> str | None:
    elements = list(request.concept.elements)
    if len(elements) < 3:
        return None
    topic = topic_name(request.concept.name)
    return f"We'll compare some {topic}. " + _triad_question(elements, 0)


# ---- extraction --------------------------------------------------------------------------


class _Found:
    """What one answer yields: nodes, rating edges and refused ratings, each element of the
    concept added once, the first time it is rated."""

    def __init__(self, spec: GridSpec) -> None:
        self.spec = spec
        self.nodes: list[ExtractedNode] = []
        self.edges: list[ExtractedEdge] = []
        self.rejected: list[RejectedItem] = []
        self.seen: set[str] = set()

    def element_node(self, element: ConceptElement, quote: str) -> None:
        if element.label not in self.seen:
            self.seen.add(element.label)
            self.nodes.append(
                ExtractedNode(
                    label=element.label,
                    node_type=self.spec.element_type,
                    quote=quote or element.label,
                    element_id=element.id,
                )
            )

    def rate(self, element: ConceptElement, construct: str, value: int, quote: str) -> None:
        """``element`` rated ``value`` on ``construct``; refused when off the scale."""
        low, high = self.spec.rating_scale
        if not low <= value <= high:
            self.rejected.append(
                RejectedItem(
                    kind="edge",
                    item={"source": element.label, "target": construct, "value": value},
                    reason=f"rating {value} is outside the scale {low}-{high}",
                )
            )
            return
        self.element_node(element, quote)
        self.edges.append(
            ExtractedEdge(
                source=element.label,
                target=construct,
                relation=self.spec.rating_relation,
                quote=quote,
                value=float(value),
            )
        )


def extract_grid(request: ExtractRequest) -> Extraction:
    """A construct from a triad answer (with its implicit ratings), ratings of elements on
    the construct asked about, or the reason behind a construct when laddering up."""
    spec = _spec(request.methodology)
    found = _Found(spec)
    focus, focus_type = request.focus_label, request.focus_type
    if focus and focus_type == spec.construct_type:
        strategy = request.methodology.strategy(request.strategy) if request.strategy else None
        if strategy is not None and strategy.family in LADDERING_FAMILIES:
            refused = _read_reason(request, spec, focus, found)
        else:
            refused = _read_ratings(request, focus, found)
        if refused is not None:
            return refused
    else:
        _read_triad(request, spec, found)
    nodes, edges, rejected = found.nodes, found.edges, found.rejected
    steer = _gone_back_to(request, spec)
    if not nodes and not edges:
        reason = "no construct or rating found" if not rejected else rejected[0].reason
        return Extraction(extractable=False, reason=reason, rejected=rejected, steer=steer)
    return Extraction(
        extractable=True,
        reason=f"{len(nodes)} grid element(s) and {len(edges)} rating(s)/link(s) by cue words",
        nodes=nodes,
        edges=edges,
        rejected=rejected,
        steer=steer,
    )


def _gone_back_to(request: ExtractRequest, spec: GridSpec) -> str | None:
    """The construct a request to go back names ("Can we go back to the parking thing though,
    it's not really the money": round 283's grid showed the next triad), by the words of its
    label and of what was said of it; None when it names none."""
    steer = find_steer(request.answer)
    if steer is None or steer.asked:
        return None  # (a question of theirs is no going back: "What happens when the trains
        # break down, do I count that?", review rv66)
    constructs = [
        Earlier(n.label, n.node_type)
        for n in request.existing_nodes
        if n.node_type == spec.construct_type
    ]
    chosen = best_match(steer.target, constructs)
    return chosen.label if chosen is not None else None


def _read_reason(
    request: ExtractRequest, spec: GridSpec, focus: str, found: _Found
) -> Extraction | None:
    """Laddering up from the construct asked about: the reason given, linked above it (an
    unextractable result when there is none)."""
    answer = request.answer
    if answer_kind(answer) == "dont_know":  # "it just matters", "no idea": no reason
        return Extraction(extractable=False, reason="no reason given")
    label = _reason_label(_the_reason(answer))
    if not label:
        return Extraction(extractable=False, reason="no reason given")
    kind, relation = _ladder_target(request.methodology, spec)
    if not kind:
        return Extraction(extractable=False, reason="the grid has no type to ladder up to")
    found.nodes.append(ExtractedNode(label=label, node_type=kind, quote=answer.strip()))
    found.edges.append(
        ExtractedEdge(source=focus, target=label, relation=relation, quote=answer.strip())
    )
    return None


def _reason_label(reason: str) -> str:
    """The reason as said; where blanking left holes in it, named as a label is (``make_label``:
    "cycling with arjun only time feel" of "I'm [...] but [...] and cycling with Arjun is ...",
    round 283), unless that cuts it to a stub."""
    said = clean_label(re.sub(r"\s+", " ", reason))
    if not said or not re.search(r"\w\W*\s{3,}\W*\w", reason):
        return said
    made = make_label(reason, None, None)
    return made if made and len(made.split()) >= 2 else said


def _the_reason(answer: str) -> str:
    """What a laddering answer gives as the reason: asides and remarks blanked, and what follows
    its "because" where it says one ("Again, Bletchley is where I live, not a category! But
    fine, it matters because whatever I use has to get me 5 miles to the office by 9", "Sorry,
    that last one was a double send. Control matters because I'm the one the kids are waiting
    for": round 251 made "again, bletchley is where i live, not" and "sorry, that last one was
    a double send" values), else its first sentence with words in it."""
    said = blank(answer)
    because = _BECAUSE.search(said)
    if because is not None and re.search(r"\w", said[because.end() :]):
        said = said[because.end() :]
    sentences = [s for s in re.findall(r"[^.!?]+(?:[.!?]+|$)", said) if re.search(r"[^\W\d_]", s)]
    text = sentences[0] if sentences else said
    return re.sub(r"^\W*(?:because|it's because|well)\s+", "", text.strip(), flags=re.I)


_BECAUSE = re.compile(r"\b(?:because|cos|cause)\b", re.IGNORECASE)


def _the_one_asked(
    answer: str, listed: list[ConceptElement]
) -> list[tuple[ConceptElement, int, str]]:
    """One element asked about, and one rating said (``one_rating``: round 286 asked "how
    would you rate e-scooter?" a third time after "I said 2ish! so 2. ...")."""
    value = one_rating(answer) if len(listed) == 1 else None
    return [(listed[0], value, answer.strip())] if value is not None else []


def _read_ratings(request: ExtractRequest, focus: str, found: _Found) -> Extraction | None:
    """Ratings on the construct asked about: by element named, or numbers alone in the
    order the question listed the elements (unextractable when it cannot be told whose
    number is which)."""
    answer = request.answer
    elements = list(request.concept.elements)
    ratings = named_ratings(answer, elements)
    numbers = numbers_alone(answer) if not ratings else None
    if numbers is not None:
        # Numbers alone: in the order the question listed the elements (or one for
        # every element of the concept, in its order).
        listed = [e for _, e in elements_named(elements, request.question)] or elements
        ratings = (
            positional_ratings(answer, listed)
            or positional_ratings(answer, elements, exactly=True)
            or []
        )
        if not ratings:
            return Extraction(
                extractable=False,
                reason=f"{len(numbers)} numbers for {len(listed)} elements: whose is which?",
            )
    if not ratings:
        ratings = _the_one_asked(answer, [e for _, e in elements_named(elements, request.question)])
    for element, value, quote in ratings:
        found.rate(element, focus, value, quote)
    return None


def _read_triad(request: ExtractRequest, spec: GridSpec, found: _Found) -> None:
    """A triad's answer: the construct (its two poles) and the ratings it implies."""
    answer = request.answer
    elements = list(request.concept.elements)
    low, high = spec.rating_scale
    triad_found = triad_answer(answer, elements)
    if triad_found is None:
        return
    label = f"{triad_found.left}{POLE_SEPARATOR}{triad_found.right}"
    found.nodes.append(
        ExtractedNode(label=label, node_type=spec.construct_type, quote=answer.strip())
    )
    # The implicit ratings: the pair at the bottom of the scale, the third at the top;
    # any element of the concept named counts, shown in the triad or not.
    for text, value in ((triad_found.left_text, low), (triad_found.right_text, high)):
        for _, element in elements_named(elements, text):
            found.rate(element, label, value, text)
    # "The car and the bike are private, the third is shared": the one element of the
    # triad shown that the answer leaves unnamed is the third.
    shown = [e for _, e in elements_named(elements, request.question)]
    unnamed = [e for e in shown if e.label not in found.seen]
    if (
        len(shown) == 3
        and len(unnamed) == 1
        and not elements_named(elements, triad_found.right_text)
    ):
        found.rate(unnamed[0], label, high, triad_found.right_text)


def _ladder_target(methodology: Methodology, spec: GridSpec) -> tuple[str, str]:
    """The node type and relation a construct is laddered up to."""
    for edge in methodology.ontology.edges:
        for source, target in edge.permitted_connections:
            if source == spec.construct_type and target not in (
                spec.element_type,
                spec.construct_type,
            ):
                return target, edge.name
    return "", ""
