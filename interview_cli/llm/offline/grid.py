"""Offline handling of repertory-grid methodologies (``shape: grid``).

Questions: a triad ("think of A, B and C: in what way are two of them alike and different
from the third?") chosen by ``core.grid.triad`` from the number of constructs so far (the
covered labels: constructs are a grid's most concrete nodes); a rating of every element on
the focus construct, on the scale set in the YAML; a "why does that matter" laddering up.

Answers: to a triad, the two halves around "while", "whereas", "but", "vs" ... give the two
poles; the elements named in the first half are rated at the bottom of the scale and those
in the second at the top (the implicit ratings of the triad). To a rating question, each
element named is followed by its number ("car 2, bus 4"). To a laddering question, the
answer is what the construct serves. Deterministic: no randomness.
"""

from __future__ import annotations

import re

from interview_cli.config.schemas import ConceptElement, Methodology
from interview_cli.config.shapes import GridSpec
from interview_cli.core.grid import POLE_SEPARATOR, triad
from interview_cli.core.models import ExtractedEdge, ExtractedNode, Extraction, RejectedItem
from interview_cli.llm.offline.shaped_common import (
    clean_label,
    element_names,
    elements_named,
    label_list,
    phrase_in,
    words,
)
from interview_cli.llm.prompts.templates import topic_name
from interview_cli.llm.protocol import ExtractRequest, OpeningRequest, QuestionRequest

NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
_NUMBER = re.compile(r"\b([1-9])\b|\b(one|two|three|four|five|six|seven)\b", re.IGNORECASE)
_POLE_SPLIT = re.compile(
    r"\s*(?:,\s*)?\b(?:while|whereas|but|versus|vs\.?|rather than|unlike|compared to|"
    r"and the third|the third|the other one|the other)\b\s*",
    re.IGNORECASE,
)
_POLE_NOISE = frozenset(
    "are is both they they're them it it's its and the a an of these those two one third "
    "other alike same similar different differs because quite more much very really just "
    "kind sort can be being".split()
)


_NO_REASON = re.compile(
    r"^\W*(?:it\s+)?(?:just\s+(?:does|matters|is)|i\s+(?:don't|do not)\s+know|not sure|"
    r"no idea|it\s+just\s+matters)",
    re.IGNORECASE,
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
    if strategy.node_binding == "none":
        if len(elements) < 3:
            return None
        # The next triad after the constructs so far; one asked lately that gave nothing is
        # not shown again, the one after it is.
        index = len(request.covered_labels)
        recent = {q.strip() for q in request.avoid_questions}
        for step in range(len(elements)):
            question = _triad_question(elements, index + step)
            if question not in recent:
                return question
        return _triad_question(elements, index)
    focus = request.focus_label or ""
    left, sep, right = focus.partition(POLE_SEPARATOR)
    low, high = spec.rating_scale
    if "ladder" in strategy.name or "why" in strategy.name:
        if sep:
            return f"Why does it matter to you whether one is {left} or {right}?"
        return f"Why does {focus} matter to you?"
    pole_low, pole_high = (left, right) if sep else (focus, f"not {focus}")
    template = _RATING[max(0, len(request.covered_labels) - 1) % len(_RATING)]
    return template.format(
        low=low,
        high=high,
        a=pole_low,
        b=pole_high,
        elements=label_list([e.label for e in elements]),
    )


# The same question for every construct, by design; the wording rotates so that a long grid
# does not read as one question asked again and again.
_RATING = (
    "On a scale from {low} to {high}, where {low} means {a} and {high} means {b}, how would "
    "you rate each of these: {elements}?",
    "Now place each of them between {a} ({low}) and {b} ({high}): {elements}.",
    "How {a} or {b} is each of these, from {low} for {a} to {high} for {b}? {elements}",
    "Give each a number from {low} ({a}) to {high} ({b}): {elements}.",
)


def grid_opening(request: OpeningRequest) -> str | None:
    elements = list(request.concept.elements)
    if len(elements) < 3:
        return None
    topic = topic_name(request.concept.name)
    return f"We'll compare some {topic}. " + _triad_question(elements, 0)


# ---- extraction --------------------------------------------------------------------------


def _pole(text: str, elements: list[ConceptElement]) -> str:
    for element in elements:
        for name in element_names(element):
            text = re.sub(r"\b" + re.escape(name) + r"s?\b", " ", text, flags=re.IGNORECASE)
    kept = [w for w in words(text) if w not in _POLE_NOISE]
    return " ".join(kept[:5])


def _construct(answer: str, elements: list[ConceptElement]) -> tuple[str, str, str, str] | None:
    """(left pole, right pole, left text, right text) of a triad answer, or None."""
    parts = _POLE_SPLIT.split(answer, maxsplit=1)
    if len(parts) != 2:
        return None
    left_text, right_text = parts
    left, right = _pole(left_text, elements), _pole(right_text, elements)
    if not left or not right or left == right:
        return None
    return left, right, left_text, right_text


def _number_after(text: str, start: int) -> int | None:
    match = _NUMBER.search(text, start)
    if match is None or match.start() - start > 40:
        return None
    return int(match.group(1)) if match.group(1) else NUMBER_WORDS[match.group(2).lower()]


def _ratings(answer: str, elements: list[ConceptElement]) -> list[tuple[ConceptElement, int, str]]:
    found = []
    named = elements_named(elements, answer)
    for i, (position, element) in enumerate(named):
        end_of_name = position + max(
            (len(n) for n in element_names(element) if phrase_in(n, answer[position:]) == 0),
            default=0,
        )
        limit = named[i + 1][0] if i + 1 < len(named) else len(answer)
        number = _number_after(answer[:limit], end_of_name)
        if number is not None:
            found.append((element, number, answer[position:limit].strip(" ,;.")))
    return found


def extract_grid(request: ExtractRequest) -> Extraction:
    spec = _spec(request.methodology)
    elements = list(request.concept.elements)
    answer = request.answer
    nodes: list[ExtractedNode] = []
    edges: list[ExtractedEdge] = []
    rejected: list[RejectedItem] = []
    low, high = spec.rating_scale
    seen: set[str] = set()

    def element_node(element: ConceptElement, quote: str) -> None:
        if element.label not in seen:
            seen.add(element.label)
            nodes.append(
                ExtractedNode(
                    label=element.label,
                    node_type=spec.element_type,
                    quote=quote or element.label,
                    element_id=element.id,
                )
            )

    def rate(element: ConceptElement, construct: str, value: int, quote: str) -> None:
        if not low <= value <= high:
            rejected.append(
                RejectedItem(
                    kind="edge",
                    item={"source": element.label, "target": construct, "value": value},
                    reason=f"rating {value} is outside the scale {low}-{high}",
                )
            )
            return
        element_node(element, quote)
        edges.append(
            ExtractedEdge(
                source=element.label,
                target=construct,
                relation=spec.rating_relation,
                quote=quote,
                value=float(value),
            )
        )

    focus, focus_type = request.focus_label, request.focus_type
    if focus and focus_type == spec.construct_type:
        strategy = (request.strategy or "").lower()
        if "ladder" in strategy or "why" in strategy:
            if _NO_REASON.search(answer):
                return Extraction(extractable=False, reason="no reason given")
            label = clean_label(
                re.sub(r"^(?:because|it's because|well)\s+", "", answer.strip(), flags=re.I)
            )
            if not label:
                return Extraction(extractable=False, reason="no reason given")
            kind, relation = _ladder_target(request.methodology, spec)
            if not kind:
                return Extraction(extractable=False, reason="the grid has no type to ladder up to")
            nodes.append(ExtractedNode(label=label, node_type=kind, quote=answer.strip()))
            edges.append(
                ExtractedEdge(source=focus, target=label, relation=relation, quote=answer.strip())
            )
        else:
            for element, value, quote in _ratings(answer, elements):
                rate(element, focus, value, quote)
    else:
        shown = [e for _, e in elements_named(elements, request.question)] or elements
        found = _construct(answer, elements)
        if found is not None:
            left, right, left_text, right_text = found
            label = f"{left}{POLE_SEPARATOR}{right}"
            nodes.append(
                ExtractedNode(label=label, node_type=spec.construct_type, quote=answer.strip())
            )
            for text, value in ((left_text, low), (right_text, high)):
                for _, element in elements_named(shown, text):
                    rate(element, label, value, text.strip())
    if not nodes and not edges:
        reason = "no construct or rating found" if not rejected else rejected[0].reason
        return Extraction(extractable=False, reason=reason, rejected=rejected)
    return Extraction(
        extractable=True,
        reason=f"{len(nodes)} grid element(s) and {len(edges)} rating(s)/link(s) by cue words",
        nodes=nodes,
        edges=edges,
        rejected=rejected,
    )


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
