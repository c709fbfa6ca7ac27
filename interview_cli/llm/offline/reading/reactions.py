"""How an answer receives a stimulus element: which element it is about and the reaction.

The offline half of the extraction's ``element_id`` and ``reaction`` fields (seed 000
"extract_graph_elements"). An element is named by its label or one of its aliases; the
reaction is confusion, doubt or curiosity when the respondent's words say so
(``lexicon/en/reactions.yaml``), else liking, disliking or neither by the stance of the words.

An answer to an element question (``ExtractRequest.element_id``: the interviewer raised an
element the respondent had not mentioned) reacts to that element whether or not it names it:
"Sounds good, I'd bin it with the food waste" is about the compostable pot. When no node of
the answer is about the element yet, one is added for it, labelled as the stimulus has it,
quoting the answer, with the reaction; what the answer says the element does for the person
is linked from it. A don't-know, a bare "ok" or a remark about the interview is no reaction.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import yaml

from interview_cli.config.schemas import ConceptElement
from interview_cli.core.models import ExtractedEdge, ExtractedNode, Extraction
from interview_cli.llm.offline.lexicon import ACKNOWLEDGEMENTS, DONT_KNOW
from interview_cli.llm.offline.reading.clauses import WORD
from interview_cli.llm.offline.reading.meta import meta_kind
from interview_cli.llm.offline.reading.ontology import OntologyView
from interview_cli.llm.protocol import ExtractRequest

LEXICON = Path(__file__).parent / "lexicon" / "en" / "reactions.yaml"
# The longest answer quoted whole on the element's node; a longer one gives its first sentence.
QUOTE_LIMIT = 160
Stance = Callable[[str], int]


@cache
def _cues() -> tuple[tuple[str, re.Pattern[str]], ...]:
    data = yaml.safe_load(LEXICON.read_text(encoding="utf-8"))
    assert isinstance(data, dict), "reactions.yaml: a mapping of lists"
    out = []
    for kind, phrases in data.items():
        words = sorted((str(p).lower() for p in phrases), key=len, reverse=True)
        out.append((str(kind), re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b")))
    return tuple(out)


_NEGATED = re.compile(r"\b(?:not|never|no|isn'?t|wasn'?t|aren'?t)\s+(?:\w+\s+)?$")


def reaction_of(text: str, stance: Stance) -> str:
    """The reaction ``text`` shows: the first cue kind that matches (``reactions.yaml``; a
    liking word right after a negation is a dislike), else by its stance."""
    lowered = text.lower().replace("\u2019", "'")
    for kind, pattern in _cues():
        found = pattern.search(lowered)
        if found is None:
            continue
        if kind == "positive" and _NEGATED.search(lowered[: found.start()]):
            return "negative"  # "not that useful"
        return kind
    return {1: "positive", -1: "negative", 0: "neutral"}[stance(text)]


def element_named(
    elements: list[ConceptElement], span: str, stance: Stance, around: tuple[str, ...] = ()
) -> tuple[str | None, str | None]:
    """The stimulus element a clause names (by label or alias) and the reaction to it: the
    clause's own, else (a neutral clause) that of the first of ``around`` (its sentence, the
    whole answer) that is not neutral ("199 quid?? bit steep for a lock": the price is
    received as steep)."""
    text = span.lower()
    for element in elements:
        for name in (element.label, *element.aliases):
            if name.strip() and re.search(r"\b" + re.escape(name.lower()) + r"\b", text):
                reaction = reaction_of(span, stance)
                for wider in around:
                    if reaction != "neutral":
                        break
                    reaction = reaction_of(wider, stance) if wider.strip() else reaction
                return element.id, reaction
    return None, None


def sentence_around(text: str, start: int, end: int) -> str:
    """The sentence of ``text`` that holds ``text[start:end]``."""
    head = max(text.rfind(mark, 0, start) for mark in ".!?")
    tails = [i for i in (text.find(mark, end) for mark in ".!?") if i >= 0]
    return text[head + 1 : min(tails) + 1 if tails else len(text)].strip()


def _no_reaction(answer: str, stance: Stance) -> bool:
    """A don't-know, a remark about the interview, or a bare acknowledgement ("ok", "yeah"):
    nothing said about the element (confusion, doubt and curiosity are reactions: "I don't get
    it", "not sure that'd work")."""
    if reaction_of(answer, stance) in ("confused", "skeptical", "curious", "negative"):
        return False
    kind = meta_kind(answer)
    if kind is not None and kind not in ("hedge", "filler"):
        return True
    words = WORD.findall(answer.lower())
    if not words or all(w in ACKNOWLEDGEMENTS for w in words):
        return True
    return bool(DONT_KNOW.search(answer)) and stance(answer) == 0


def _quote(answer: str) -> str:
    text = answer.strip()
    if len(text) <= QUOTE_LIMIT:
        return text
    first = re.split(r"(?<=[.!?])\s+", text, maxsplit=1)[0]
    return first if len(first) <= QUOTE_LIMIT else text[:QUOTE_LIMIT].rsplit(" ", 1)[0]


def with_raised_element(
    request: ExtractRequest, extraction: Extraction, stance: Stance
) -> Extraction:
    """``extraction`` with the element the question raised, when the answer reacts to it and
    no node of the answer is about it yet (module docstring)."""
    element = next((e for e in request.concept.elements if e.id == request.element_id), None)
    if element is None or any(n.element_id == element.id for n in extraction.nodes):
        return extraction
    answer = request.answer
    if _no_reaction(answer, stance):
        return extraction
    view = OntologyView(request.methodology.ontology)
    kind = request.methodology.ontology.types_by_level[0]
    node = ExtractedNode(
        label=element.label,
        node_type=kind,
        quote=_quote(answer),
        stance=stance(answer),  # type: ignore[arg-type]
        confidence=0.7,
        element_id=element.id,
        reaction=reaction_of(answer, stance),  # type: ignore[arg-type]
    )
    targets = {e.target for e in extraction.edges}
    edges = []
    for other in extraction.nodes:
        relation = view.relation(kind, other.node_type)
        if other.label not in targets and relation is not None:
            edges.append(ExtractedEdge(source=element.label, target=other.label, relation=relation))
    reason = f"{extraction.reason}; " if extraction.extractable else ""
    return extraction.model_copy(
        update={
            "extractable": True,
            "reason": f"{reason}a reaction to the raised element '{element.id}'",
            "nodes": [node, *extraction.nodes],
            "edges": [*edges, *extraction.edges],
        }
    )
