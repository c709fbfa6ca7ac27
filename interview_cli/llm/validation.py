"""Checking what a model returned: seed 000 "LLM Response Validation Against Schemas".

Three tiers, as in the seed, mapped onto our tasks:

1. **The response as a whole** (seed 000 Tier 1 + the shape of Tier 2). Not an object, not
   JSON, empty, or without the keys of its schema: the whole response is unusable and
   ``UnusableResponse`` is raised with a ``reason``. The caller retries once with
   ``corrective_message(reason)`` and then continues with an empty result (one bad reply must
   not end the interview). An extraction that says ``extractable: false`` is a valid, empty answer.
2. **Each item on its own** (seed 000 Tier 2 "Validation Steps"). Items are dropped ONE BY
   ONE, each with a ``RejectedItem`` saying why, and the rest are kept: an unknown node type,
   an empty label, a missing or empty quote, a quote that is not in the answer, a bad
   ``stance`` or ``reaction`` value, an unknown relation, an edge whose endpoints are not
   known, and an edge not permitted between its endpoint types. A correction (``corrects``)
   or a request to go back (``steer``) that names no earlier node (nor, for a steer, a node
   of this answer) is dropped the same way; the node that carried the correction stays.
3. **Against the ontology** (seed 000 Tier 3) where this layer can decide: an edge between
   two nodes of known type (this extraction's, the focus, the earlier concepts the prompt
   showed with their type) must follow a permitted connection. One stated the other way
   round (a value "because of" an attribute) is turned the way its relation runs, and the
   turn is noted among the rejected items (reason ``reversed: ...``); only one permitted in
   neither direction is dropped. An endpoint that is only an earlier turn's bare label is
   kept: the graph layer resolves it and checks the connection there. A label longer than
   the ontology's ``max_label_words`` is a sentence, not a name: its node is dropped.

Lenient where meaning is clear, strict where it is not: node types and enums are matched
after case and spacing are normalised ("Functional Consequence" -> functional_consequence,
"positive" -> stance 1); confidence from 10 to 100 is read as a percentage and anything
else out of [0, 1] is clamped (not dropped: a confidence is advisory); quotes match when
the casefolded, whitespace-normalised quote is in the answer or fuzzily close to a part of
it (rapidfuzz partial ratio >= 90), because models tidy punctuation and casing. Assessment
scores are integers 1-5 ("4" and 4.0 are accepted, 3.6 rounds to 4); an out-of-range or
unreadable score becomes a neutral 3, and the replacement is recorded in that score's
rationale and in the assessment's rationale.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from rapidfuzz import fuzz

from interview_cli.config.study import REACTIONS
from interview_cli.core.models import (
    ANSWER_KINDS,
    REVERSED_EDGE,
    RUBRIC_SIGNALS,
    UNCHECKED,
    Assessment,
    ExtractedEdge,
    ExtractedNode,
    Extraction,
    RejectedItem,
    RubricScore,
)
from interview_cli.llm.prompts.templates import normalise_text
from interview_cli.llm.protocol import (
    ExtractRequest,
    QuestionRequest,
    SlotProposal,
    SlotProposals,
    SlotRequest,
)


class UnusableResponse(Exception):
    """The whole response cannot be used; ``reason`` says why (it goes into the corrective
    message of the retry and into the turn's recorded failures)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def as_object(data: object, what: str) -> dict[str, Any]:
    """Tier 1: the response must be a JSON object (a JSON string of one is accepted)."""
    if isinstance(data, str):
        text = data.strip()
        fenced = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", text, re.DOTALL)
        if fenced:
            text = fenced.group(1)
        if not text:
            raise UnusableResponse(f"empty {what} response")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UnusableResponse(f"{what} response is not valid JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise UnusableResponse(f"{what} response is a {type(data).__name__}, not a JSON object")
    if not data:
        raise UnusableResponse(f"empty {what} response")
    return data


def one_line(value: object) -> str:
    """A text field with its whitespace collapsed; anything but a string becomes ""."""
    return " ".join(value.split()) if isinstance(value, str) else ""


QUOTE_FUZZY_THRESHOLD = 90
MIN_FUZZY_QUOTE_CHARS = 8
MAX_QUESTION_CHARS = 400
DEFAULT_CONFIDENCE = 0.8

_STANCES: dict[str, int] = {
    "1": 1,
    "+1": 1,
    "positive": 1,
    "pos": 1,
    "for": 1,
    "favourable": 1,
    "favorable": 1,
    "0": 0,
    "neutral": 0,
    "none": 0,
    "mixed": 0,
    "-1": -1,
    "negative": -1,
    "neg": -1,
    "against": -1,
    "unfavourable": -1,
    "unfavorable": -1,
}
# British spelling and near forms a model writes for the reactions (``config.study.REACTIONS``).
_REACTION_SPELLINGS = {"sceptical": "skeptical", "confusion": "confused", "intrigued": "curious"}
_NODE_KEYS = {"label", "node_type", "quote", "stance", "confidence", "element_id", "reaction"}
_ALIASES = {
    "type": "node_type",
    "element_mapping": "element_id",
    "source_label": "source",
    "target_label": "target",
    "relation_type": "relation",
    "type_": "node_type",
}


def _key(text: str) -> str:
    return re.sub(r"[\s\-]+", "_", text.strip().lower())


def _norm(text: str) -> str:
    """Casefolded, quotes unified, punctuation dropped, whitespace collapsed - after the
    normalisation the prompt applied (NFKC, no invisible controls), so a quote copied from the
    prompt's copy of the answer ("12時間") matches the answer as typed ("１２時間")."""
    text = normalise_text(text).casefold().replace("\u2019", "'").replace("\u2018", "'")
    text = re.sub(r"[^\w\s']", " ", text)
    return " ".join(text.split())


def quote_in_answer(quote: str, answer: str) -> bool:
    """Whether a quote is (close to) a verbatim part of the answer."""
    q, a = _norm(quote), _norm(answer)
    if not q:
        return False
    if q in a:
        return True
    if len(q) < MIN_FUZZY_QUOTE_CHARS:
        return False
    return fuzz.partial_ratio(q, a) >= QUOTE_FUZZY_THRESHOLD


def quote_position(quote: str, answer: str) -> int:
    """Where a quote starts in the answer (normalised text; fuzzily for a tidied quote)."""
    q, a = _norm(quote), _norm(answer)
    found = a.find(q)
    if found >= 0 or not q:
        return max(found, 0)
    alignment = fuzz.partial_ratio_alignment(q, a)
    return alignment.dest_start if alignment is not None else 0


def _confidence(value: object) -> float:
    if isinstance(value, bool) or value is None:
        return DEFAULT_CONFIDENCE
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return DEFAULT_CONFIDENCE
    if math.isnan(number):
        return DEFAULT_CONFIDENCE
    if 10.0 <= number <= 100.0:
        number /= 100.0  # a percentage ("85"); smaller overshoots (1.7) are just clamped
    return min(1.0, max(0.0, number))


def _stance(value: object) -> int | None:
    if value is None:
        return 0
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return int(value) if value in (-1, 0, 1) else None
    if isinstance(value, str):
        return _STANCES.get(value.strip().lower())
    return None


def _canonical(item: dict[str, Any]) -> dict[str, Any]:
    return {_ALIASES.get(k, k): v for k, v in item.items()}


def _reject(kind: str, item: object, reason: str) -> RejectedItem:
    payload = item if isinstance(item, dict) else {"value": item}
    return RejectedItem(kind=kind, item=dict(payload), reason=reason)  # type: ignore[arg-type]


# ---- extraction ---------------------------------------------------------------------------


def validate_extraction(data: object, request: ExtractRequest) -> Extraction:
    """A model's extraction, item by item; raises ``UnusableResponse`` for the whole."""
    payload = as_object(data, "extraction")
    if not {"nodes", "edges", "extractable"} & payload.keys():
        raise UnusableResponse("extraction response has none of 'extractable', 'nodes', 'edges'")
    raw_nodes = payload.get("nodes") or []
    raw_edges = payload.get("edges") or []
    if not isinstance(raw_nodes, list) or not isinstance(raw_edges, list):
        raise UnusableResponse("extraction 'nodes' and 'edges' must be lists")
    extractable = payload.get("extractable", True)
    if isinstance(extractable, str):
        extractable = extractable.strip().lower() not in {"false", "no", "0"}
    reason = one_line(payload.get("reason"))
    if extractable is False:
        # Tier 1 said no: keep it empty, but record what the model proposed anyway.
        proposed = [_reject("node", n, "response marked not extractable") for n in raw_nodes]
        proposed += [_reject("edge", e, "response marked not extractable") for e in raw_edges]
        steer = _checked_steer(payload.get("steer"), request, [], proposed)
        retracted = _checked_retracted(payload.get("retracted"), request, proposed)
        return Extraction(
            extractable=False, reason=reason, rejected=proposed, steer=steer, retracted=retracted
        )

    rejected: list[RejectedItem] = []
    nodes, node_types = _checked_nodes(raw_nodes, request, rejected)
    # In the order the respondent said them (a model may list the aside before what they led
    # with): the graph registers them so, and a close call follows what was said first.
    nodes.sort(key=lambda n: quote_position(n.quote, request.answer))
    dropped = {
        _norm(one_line(_canonical(r.item).get("label"))) for r in rejected if r.kind == "node"
    }
    edges = _checked_edges(raw_edges, request, node_types, dropped, rejected)
    nodes = _checked_corrections(nodes, request, rejected)
    steer = _checked_steer(payload.get("steer"), request, nodes, rejected)
    retracted = _checked_retracted(payload.get("retracted"), request, rejected)
    return Extraction(
        extractable=True,
        reason=reason,
        nodes=nodes,
        edges=edges,
        rejected=rejected,
        steer=steer,
        retracted=retracted,
    )


def _earlier_labels(request: ExtractRequest) -> dict[str, str]:
    """The earlier concepts' labels by normalised form (a correction or a steer names one)."""
    labels = [*request.existing_labels, *(n.label for n in request.existing_nodes)]
    if request.focus_label:
        labels.append(request.focus_label)
    found: dict[str, str] = {}
    for label in labels:
        found.setdefault(_norm(label), label)
    return found


def _checked_corrections(
    nodes: list[ExtractedNode], request: ExtractRequest, rejected: list[RejectedItem]
) -> list[ExtractedNode]:
    """A node's ``corrects`` must name an earlier node; one that does not is dropped (the
    node stays), with the reason recorded."""
    earlier = _earlier_labels(request)
    checked = []
    for node in nodes:
        if node.corrects is None:
            checked.append(node)
            continue
        label = earlier.get(_norm(node.corrects))
        if label is None:
            reason = f"corrects '{node.corrects}', which names no earlier node: correction dropped"
            rejected.append(_reject("node", node.model_dump(), reason))
        checked.append(node.model_copy(update={"corrects": label}))
    return checked


def _checked_steer(
    raw: object, request: ExtractRequest, nodes: list[ExtractedNode], rejected: list[RejectedItem]
) -> str | None:
    """The node the respondent asked to talk about: an earlier node or one of this answer's,
    by its label; anything else is dropped with the reason recorded."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    known = _earlier_labels(request) | {_norm(n.label): n.label for n in nodes}
    label = known.get(_norm(raw)) if isinstance(raw, str) else None
    if label is None:
        reason = f"steer {raw!r} names no earlier node and no node of this answer: dropped"
        rejected.append(_reject("response", {"steer": raw}, reason))
    return label


def _checked_retracted(
    raw: object, request: ExtractRequest, rejected: list[RejectedItem]
) -> list[str]:
    """The earlier nodes the respondent takes back ("that was a joke"), by their labels; a
    label naming no earlier node is dropped with the reason recorded."""
    if raw is None:
        return []
    items = raw if isinstance(raw, list) else [raw]
    earlier = _earlier_labels(request)
    kept: list[str] = []
    for item in items:
        label = earlier.get(_norm(item)) if isinstance(item, str) else None
        if label is None:
            reason = f"retracted {item!r} names no earlier node: dropped"
            rejected.append(_reject("response", {"retracted": item}, reason))
        elif label not in kept:
            kept.append(label)
    return kept


def _checked_nodes(
    raw_nodes: list[Any], request: ExtractRequest, rejected: list[RejectedItem]
) -> tuple[list[ExtractedNode], dict[str, str]]:
    """The usable nodes, and each one's type by normalised label (for the edge checks)."""
    ontology = request.methodology.ontology
    types = {_key(n.name): n.name for n in ontology.nodes}
    elements = {e.id: e.id for e in request.concept.elements}
    for element in request.concept.elements:
        for name in (element.label, *element.aliases):
            elements.setdefault(_norm(name), element.id)
    nodes: list[ExtractedNode] = []
    node_types: dict[str, str] = {}  # normalised label -> type, for edge checks
    longest = ontology.max_label_words
    for raw in raw_nodes:
        node, why = _node(raw, request.answer, types, elements)
        if node is not None and len(node.label.split()) > longest:
            words = len(node.label.split())
            node, why = None, f"label of {words} words (at most {longest}): a sentence, not a name"
        if node is None:
            rejected.append(_reject("node", raw, why))
            continue
        key = _norm(node.label)
        if key in node_types:
            rejected.append(
                _reject("node", raw, f"duplicate label '{node.label}' in this extraction")
            )
            continue
        node_types[key] = node.node_type
        nodes.append(node)
    return nodes, node_types


def _checked_edges(
    raw_edges: list[Any],
    request: ExtractRequest,
    node_types: dict[str, str],
    dropped: set[str],
    rejected: list[RejectedItem],
) -> list[ExtractedEdge]:
    """The usable edges: endpoints among this extraction's nodes, the focus or earlier labels."""
    ontology = request.methodology.ontology
    relations = {_key(e.name): e.name for e in ontology.edges}
    earlier = {_norm(label) for label in request.existing_labels}
    known_types = dict(node_types)
    if request.focus_label and request.focus_type and ontology.node_type(request.focus_type):
        known_types.setdefault(_norm(request.focus_label), request.focus_type)
        earlier.add(_norm(request.focus_label))
    for shown in request.existing_nodes:  # earlier concepts the prompt showed with their type
        if shown.node_type and ontology.node_type(shown.node_type):
            known_types.setdefault(_norm(shown.label), shown.node_type)
            earlier.add(_norm(shown.label))
    edges: list[ExtractedEdge] = []
    seen: set[tuple[str, str, str]] = set()
    for raw in raw_edges:
        edge, why = _edge(raw, relations, known_types, earlier, dropped, ontology)
        if edge is not None and why:  # taken, turned the way its relation runs: noted
            rejected.append(_reject("edge", raw, why))
        if edge is None:
            rejected.append(_reject("edge", raw, why))
            continue
        edge_key = (_norm(edge.source), _norm(edge.target), edge.relation)
        if edge_key in seen:
            rejected.append(_reject("edge", raw, "duplicate edge in this extraction"))
            continue
        seen.add(edge_key)
        edges.append(edge)
    return edges


def _node(
    raw: object, answer: str, types: dict[str, str], elements: dict[str, str]
) -> tuple[ExtractedNode | None, str]:
    if not isinstance(raw, dict):
        return None, "node is not an object"
    item = _canonical(raw)
    label = one_line(item.get("label"))
    if not label:
        return None, "empty label"
    raw_type = item.get("node_type")
    node_type = types.get(_key(raw_type)) if isinstance(raw_type, str) else None
    if node_type is None:
        return None, f"unknown node type {raw_type!r}"
    quote = item.get("quote")
    if not isinstance(quote, str) or not quote.strip():
        return None, "missing quote"
    if not quote_in_answer(quote, answer):
        return None, "quote not found in the answer"
    stance_raw = item.get("stance", 0)
    stance = _stance(stance_raw)
    if stance is None:
        return None, f"bad stance {stance_raw!r} (expected -1, 0 or 1)"
    reaction_raw = item.get("reaction")
    reaction = None
    if reaction_raw not in (None, "", "null", "none"):
        reaction = str(reaction_raw).strip().lower() if isinstance(reaction_raw, str) else None
        reaction = _REACTION_SPELLINGS.get(reaction or "", reaction)
        if reaction not in REACTIONS:
            return None, f"bad reaction {reaction_raw!r} (expected {', '.join(REACTIONS)})"
    element_raw = item.get("element_id")
    element_id = None
    if isinstance(element_raw, str) and element_raw.strip():
        # An unknown element is cleared, not fatal (seed 000: "element_mapping = None").
        element_id = elements.get(element_raw.strip()) or elements.get(_norm(element_raw))
    corrects = one_line(item.get("corrects")) if isinstance(item.get("corrects"), str) else ""
    node = ExtractedNode(
        label=label,
        node_type=node_type,
        quote=" ".join(quote.split()),
        stance=stance,  # type: ignore[arg-type]
        confidence=_confidence(item.get("confidence")),
        element_id=element_id,
        reaction=reaction,  # type: ignore[arg-type]
        corrects=corrects or None,
    )
    return node, ""


def _edge(
    raw: object,
    relations: dict[str, str],
    known_types: dict[str, str],
    earlier: set[str],
    dropped: set[str],
    ontology: Any,
) -> tuple[ExtractedEdge | None, str]:
    if not isinstance(raw, dict):
        return None, "edge is not an object"
    item = _canonical(raw)
    source, target = one_line(item.get("source")), one_line(item.get("target"))
    if not source or not target:
        return None, "edge without source or target"
    raw_relation = item.get("relation")
    relation = relations.get(_key(raw_relation)) if isinstance(raw_relation, str) else None
    if relation is None:
        return None, f"unknown relation {raw_relation!r}"
    s_key, t_key = _norm(source), _norm(target)
    if s_key == t_key:
        return None, "edge from a node to itself"
    for label, key in ((source, s_key), (target, t_key)):
        if key in known_types or key in earlier:
            continue
        if key in dropped:
            return None, f"endpoint '{label}' was rejected"
        return None, f"unknown endpoint '{label}' (neither extracted now nor an existing concept)"
    note = ""
    if s_key in known_types and t_key in known_types:
        s_type, t_type = known_types[s_key], known_types[t_key]
        if not ontology.is_edge_permitted(relation, s_type, t_type):
            if not ontology.is_edge_permitted(relation, t_type, s_type):
                return None, f"{relation} not permitted from {s_type} to {t_type}"
            # Stated the other way round ("I want time to myself, that's why the noise
            # cancelling matters"): the link is real, its relation runs the permitted way.
            source, target = target, source
            note = f"{REVERSED_EDGE}: {relation} runs from {t_type} to {s_type}"
    quote = item.get("quote")
    edge = ExtractedEdge(
        source=source,
        target=target,
        relation=relation,
        quote=" ".join(quote.split()) if isinstance(quote, str) else "",
        confidence=_confidence(item.get("confidence")),
        value=_value(item.get("value")),
    )
    return edge, note


def _value(value: object) -> float | None:
    """A journey valence or grid rating: a finite number, or None."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


# ---- slot proposals -----------------------------------------------------------------------


def snake_case(text: str) -> str:
    return re.sub(r"_+", "_", re.sub(r"[^a-z0-9]+", "_", text.strip().lower())).strip("_")


def validate_slots(data: object, request: SlotRequest) -> SlotProposals:
    """Slot proposals: names in snake_case, labels only from the request and of the slot's
    node type, each label once."""
    payload = as_object(data, "slot proposals")
    raw = payload.get("proposals")
    if not isinstance(raw, list):
        raise UnusableResponse("slot proposals response has no 'proposals' list")
    groups = request.all_groups()
    # node type -> normalised label -> the label as offered
    offered: dict[str, dict[str, str]] = {}
    for group in groups:
        offered.setdefault(group.node_type, {}).update({_norm(x): x for x in group.labels})
    taken: set[tuple[str, str]] = set()
    proposals: list[SlotProposal] = []
    rejected: list[RejectedItem] = []
    for item in raw:
        if not isinstance(item, dict):
            rejected.append(_reject("slot", item, "proposal is not an object"))
            continue
        name = snake_case(one_line(item.get("slot_name")) or "")
        if not name:
            rejected.append(_reject("slot", item, "empty slot name"))
            continue
        node_type = item.get("node_type") or (groups[0].node_type if len(groups) == 1 else "")
        if node_type not in offered:
            allowed = " or ".join(repr(t) for t in offered)
            rejected.append(_reject("slot", item, f"node type {node_type!r} is not {allowed}"))
            continue
        labels_raw = item.get("surface_labels")
        labels: list[str] = []
        for label in labels_raw if isinstance(labels_raw, list) else []:
            key = _norm(label) if isinstance(label, str) else ""
            if key in offered[node_type] and (node_type, key) not in taken:
                taken.add((node_type, key))
                labels.append(offered[node_type][key])
        if not labels:
            rejected.append(
                _reject("slot", item, "no surface label from the request (or all already taken)")
            )
            continue
        twin = next(
            (p for p in proposals if p.slot_name == name and p.node_type == node_type), None
        )
        if twin is not None:
            twin.surface_labels.extend(labels)
            continue
        proposals.append(
            SlotProposal(
                slot_name=name,
                description=one_line(item.get("description")),
                node_type=node_type,
                surface_labels=labels,
            )
        )
    return SlotProposals(proposals=proposals, rejected=rejected)


# ---- questions ----------------------------------------------------------------------------

_PREFIX = re.compile(
    r"^(?:\*\*)?(?:question|next question|follow[- ]up(?: question)?|opening(?: question)?|"
    r"interviewer|q)\s*(?:\*\*)?\s*[:\-\u2013]\s*(?:\*\*)?",
    re.IGNORECASE,
)
_QUOTES = "\"'\u201c\u201d\u2018\u2019`"
# "Sure! Here's the question:", "Okay, here is a follow-up question you could ask:": words to
# the person who asked for a question, never to the respondent. A bare "Of course." is not
# one: it may well answer the respondent ("can we talk about the battery?").
_PREAMBLE = re.compile(
    r"^(?:(?:sure|certainly|of course|okay|ok|absolutely|great|alright)\b[!,.]*\s*)*"
    r"here(?:'s|\u2019s| is| are)\b[^.!?:]{0,60}?\b(?:question|follow[- ]?up|line|"
    r"opening|closing)s?\b[^.!?:]{0,40}[:.!]\s*",
    re.IGNORECASE,
)
# A paragraph about the question rather than part of it: "This question builds on ...",
# "(I used their words ...)", "Note: ...", "Rationale: ...".
_COMMENTARY = re.compile(
    r"^\(|^(?:this (?:question|follows|uses|keeps|asks|builds|probes)|note\b|rationale\b|"
    r"why this\b|i (?:chose|used|kept|avoided|went|picked)|i've\b|explanation\b)",
    re.IGNORECASE,
)
MAX_CLOSING_CHARS = 900


def _plain_lines(paragraph: str) -> str:
    lines = [re.sub(r"^\s*(?:#+|[-*>]|\d+[.)])\s+", "", line) for line in paragraph.splitlines()]
    return " ".join(line.strip() for line in lines if line.strip())


def _paragraphs(body: str, *, closing: bool) -> list[str]:
    """The paragraphs that are the interviewer's line: without a preamble, without comments
    about the question, and for a follow-up nothing after the paragraph that asks it."""
    kept: list[str] = []
    for raw in re.split(r"\n\s*\n", body):
        text = _PREAMBLE.sub("", _plain_lines(raw)).strip()
        if not text or (kept and _COMMENTARY.match(text)):
            continue
        kept.append(text)
        if not closing and "?" in text:
            break  # a second paragraph after the question is a second question or a comment
    return kept


def _first_question(body: str) -> str:
    """A follow-up asks one thing: the text up to its first question mark (an acknowledgement
    before it stays), when more follows it."""
    end = body.find("?")
    return body[: end + 1] if 0 <= end < len(body.rstrip()) - 1 else body


def clean_question(text: str, *, closing: bool = False) -> str:
    """The interviewer's line a model wrote, without wrappers; ``UnusableResponse`` when there
    is none.

    Removes code fences, markdown emphasis, headings and list marks, a "Question:" style
    prefix, a preamble to the person who asked ("Sure! Here's the question:"), comments about
    the question, and wrapping quotes; reads ``{"question": ...}`` JSON; keeps every paragraph
    of the line itself (an acknowledgement, then the question; a closing's summary, question
    and thanks). A follow-up (``closing`` False) ends at its first question: a second one is a
    double question. The length is capped at a sentence boundary.
    """
    if not isinstance(text, str):
        raise UnusableResponse("question is not text")
    body = text.strip()
    fenced = re.fullmatch(r"```\w*\s*(.*?)\s*```", body, re.DOTALL)
    if fenced:
        body = fenced.group(1).strip()
    if body.startswith("{"):
        try:
            parsed = json.loads(body)
        except json.JSONDecodeError:
            parsed = None
        if isinstance(parsed, dict) and isinstance(parsed.get("question"), str):
            body = parsed["question"].strip()
    body = " ".join(_paragraphs(body, closing=closing))
    body = _PREAMBLE.sub("", _PREFIX.sub("", body).strip()).strip()
    body = body.replace("**", "").replace("__", "").strip()
    if len(body) >= 2 and body[0] in _QUOTES and body[-1] in _QUOTES:
        body = body[1:-1].strip()
    if not closing:
        body = _first_question(body).strip().strip(_QUOTES).strip()
    limit = MAX_CLOSING_CHARS if closing else MAX_QUESTION_CHARS
    if len(body) > limit:
        cut = max(body.rfind("?", 0, limit), body.rfind(".", 0, limit))
        body = body[: cut + 1] if cut > 0 else body[:limit].rsplit(" ", 1)[0]
    if sum(ch.isalpha() for ch in body) < 3:
        raise UnusableResponse("the reply contains no question")
    return body


def corrective_message(reason: str) -> str:
    """What the retry tells the model about its unusable reply."""
    return (
        f"Your previous reply could not be used: {reason}. Reply again with exactly what was "
        "asked: for a structured task, only the JSON object that matches the schema (through "
        "the tool when one is offered), with every required field; for a question, only the "
        "question text. Do not apologise or explain."
    )


def fallback_question(request: QuestionRequest) -> str:
    """A deterministic question for when a model's question is unusable (the offline one)."""
    from interview_cli.llm.offline.asking.questions import offline_question

    return offline_question(request)


_SAFETY = {
    "": "none",
    "none": "none",
    "no": "none",
    "false": "none",
    "safe": "none",
    "distress": "distress",
    "self-harm": "distress",
    "self_harm": "distress",
    "self harm": "distress",
    "suicide": "distress",
    "suicidal": "distress",
    "crisis": "distress",
    "despair": "distress",
    "abuse": "abuse",
    "harassment": "abuse",
    "threat": "abuse",
    "insult": "abuse",
    "off_topic": "off_topic",
    "off-topic": "off_topic",
    "off topic": "off_topic",
    "stop": "stop",
    "end": "stop",
    "withdraw": "stop",
}
# A safety value the assessor wrote but none of the above: it named a concern, so it is
# read as the one that asks for care (a check-in and a pause), never as no concern.
UNKNOWN_SAFETY = "distress"
_HEDGING = {"none": "none", "low": "low", "medium": "medium", "moderate": "medium", "high": "high"}
_CEILING = {
    "none": "none",
    "no": "none",
    "false": "none",
    "exploratory": "exploratory",
    "productive": "exploratory",
    "open": "exploratory",
    "terminal": "terminal",
    "closed": "terminal",
}


def _score(value: object) -> tuple[int | None, str]:
    """(score, rationale) from {"score": 4, "rationale": ...}, 4, "4" or 4.0; score None when
    unreadable or outside 1-5."""
    rationale = ""
    if isinstance(value, dict):
        rationale = one_line(value.get("rationale"))
        value = value.get("score")
    if isinstance(value, bool):
        return None, rationale
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return None, rationale
    if isinstance(value, int | float) and not math.isnan(value):
        number = int(math.floor(value + 0.5))  # 3.5 -> 4, never banker's rounding
        if 1 <= number <= 5:
            return number, rationale
    return None, rationale


def validate_assessment(data: object) -> Assessment:
    """The assessor's rubric scores; a bad score becomes a neutral 3, recorded as such."""
    payload = as_object(data, "assessment")
    if not any(name in payload for name in RUBRIC_SIGNALS):
        raise UnusableResponse(f"assessment response has none of {', '.join(RUBRIC_SIGNALS)}")
    scores: dict[str, RubricScore] = {}
    notes: list[str] = []
    for name in RUBRIC_SIGNALS:
        raw = payload.get(name)
        score, rationale = _score(raw)
        if score is None:
            shown = raw.get("score") if isinstance(raw, dict) else raw
            why = "missing" if raw is None else f"invalid score {shown!r}"
            notes.append(f"{name}: {why}, neutral 3 used")
            scores[name] = RubricScore(score=3, rationale=f"{why} from the model; neutral 3 used")
        else:
            scores[name] = RubricScore(score=score, rationale=rationale)
    hedging = _category(payload.get("hedging_language"), _HEDGING, "hedging_language", notes)
    ceiling = _category(payload.get("knowledge_ceiling"), _CEILING, "knowledge_ceiling", notes)
    kind = _answer_kind(payload.get("answer_kind"), notes)
    safety = _safety(payload.get("safety"), notes)
    tiring = _flag(payload.get("tiring"), "tiring", notes)
    going = _flag(payload.get("going"), "going", notes)
    puzzled = _flag(payload.get("puzzled"), "puzzled", notes)
    rationale = one_line(payload.get("rationale"))
    if notes:
        rationale = (
            (rationale + " " if rationale else "") + "[validation: " + "; ".join(notes) + "]"
        )
    return Assessment.model_validate(
        {
            **scores,
            "hedging_language": hedging,
            "knowledge_ceiling": ceiling,
            "answer_kind": kind,
            "safety": safety,
            "tiring": tiring,
            "going": going,
            "puzzled": puzzled,
            "rationale": rationale,
        }
    )


def _flag(value: object, name: str, notes: list[str]) -> bool:
    """A yes-or-no reading (``tiring``: they said they are tired; ``going``: leaving now;
    ``puzzled``: they did not know what the question asks);
    missing is no (older prompts and models do not send it), and so is a value that is no yes
    or no, recorded as such."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "false", "no"):
        return value.strip().lower() in ("true", "yes")
    notes.append(f"{name}: invalid value {value!r}, false used")
    return False


def _answer_kind(value: object, notes: list[str]) -> str:
    """A missing answer_kind is an answer (older prompts and models do not send it)."""
    if value is None:
        return "answer"
    if isinstance(value, str):
        key = value.strip().lower().replace(" ", "_").replace("-", "_")
        if key in ANSWER_KINDS:
            return key
    notes.append(f"answer_kind: invalid value {value!r}, 'answer' used")
    return "answer"


def _safety(value: object, notes: list[str]) -> str:
    """The safety reading; fails safe: a value that names something else than none and is
    not one of the kinds is a concern (``UNKNOWN_SAFETY``), and no value at all is no reading
    (``unchecked``), each recorded as such."""
    if isinstance(value, dict):
        value = value.get("value", value.get("category", value.get("kind")))
    if value is None:
        notes.append(f"safety: missing, read as '{UNCHECKED}'")
        return UNCHECKED
    key = str(value).strip().lower()
    if key in _SAFETY:
        return _SAFETY[key]
    notes.append(f"safety: unknown value {value!r}, read as '{UNKNOWN_SAFETY}'")
    return UNKNOWN_SAFETY


def _category(value: object, allowed: dict[str, str], name: str, notes: list[str]) -> str:
    if isinstance(value, dict):  # {"value": "terminal", "rationale": ...}
        value = value.get("value", value.get("category", value.get("level")))
    if value is None:
        return "none"
    if isinstance(value, bool):
        value = str(value).lower()
    if isinstance(value, str) and value.strip().lower() in allowed:
        return allowed[value.strip().lower()]
    notes.append(f"{name}: invalid value {value!r}, 'none' used")
    return "none"
