"""Offline questions: per-strategy templates that name the focus and avoid repeats.

The offline half of ``generate_opening`` and ``generate_question`` (seed 001 "Opening vs
Follow-Up Questions", "Topic Anchoring"; seed 000 "Question Deduplication"). It is also the
fallback a real provider uses when its reply is unusable (``validation.fallback_question``).

A strategy maps to a *family* of templates by the words of its name, then of its YAML
description ("probe_attributions" -> attribution, "dig_motivation" -> deepen); a strategy
no family fits gets a generic question built on the focus. The template is chosen by a
seeded shuffle of (seed, turn, strategy, focus), so runs repeat exactly while questions
vary across turns, and the first candidate not too similar to a recent question wins. The
template of the previous question is never used again right after it, so a run of "why"
questions changes its wording. Deep in a conversation (depth >= 2) the topic is named to
keep the ladder anchored. The redirection families (``negative_ladder``: what if it were
missing; ``third_person``: why might someone like you care; ``situational``: the last time
it mattered; ``breadth_check``: what else matters about the topic) come first in the
family order, so their strategies are never read as a plain why or explore.
Templates are English; with a non-English study language a real provider is needed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

from interview_cli.llm.offline.asking.wording import (
    FAMILY_WORDS,
    OPENING_TEMPLATES,
    TEMPLATES,
    TOPIC_TEMPLATES,
)
from interview_cli.llm.offline.shapes.common import label_list
from interview_cli.llm.prompts.templates import topic_name
from interview_cli.llm.protocol import OpeningRequest, QuestionRequest

try:  # the core's order-aware similarity (seed 000 "Question Deduplication")
    from interview_cli.core.questions import question_similarity as _similarity
except ImportError:  # pragma: no cover - only before the core module exists
    from rapidfuzz import fuzz

    def _similarity(a: str, b: str) -> float:
        return fuzz.ratio(a.casefold(), b.casefold()) / 100.0


Similarity = Callable[[str, str], float]
DEFAULT_THRESHOLD = 0.85


def family_for(name: str, description: str = "") -> str:
    """The template family of a strategy, from its name and then its description."""
    for text in (name.lower().replace("_", " ") + " ", description.lower()):
        for family, words in FAMILY_WORDS:
            # word starts only: "cause" must not fire on "because"
            if any(re.search(r"\b" + re.escape(word), text) for word in words):
                return family
    return "generic"


def _order(candidates: Sequence[str], key: str) -> list[str]:
    ordered = list(candidates)
    random.Random(key).shuffle(ordered)
    return ordered


def pick(
    candidates: Sequence[str],
    avoid: Sequence[str],
    key: str,
    threshold: float = DEFAULT_THRESHOLD,
    similarity: Similarity = _similarity,
) -> str:
    """The first candidate (in a seeded order) not too similar to any question in ``avoid``;
    when all are, the least similar one."""
    ordered = _order(candidates, key)
    best, best_score = ordered[0], 2.0
    for candidate in ordered:
        score = max((similarity(candidate, q) for q in avoid), default=0.0)
        if score < threshold:
            return candidate
        if score < best_score:
            best, best_score = candidate, score
    return best


def _summary(labels: Sequence[str]) -> str:
    return label_list(f'"{label}"' for label in list(labels)[:4])


def _chains(chains: Sequence[Sequence[str]]) -> str:
    """The ladders learned, each from where it starts to where it leads, in the respondent's
    words ('"quiet" leading to "family time"'): the closing restates the chains
    (INTERVIEWING.md "Ending"), not the last few things said. Empty without a two-step one."""
    told = [f'"{chain[0]}" leading to "{chain[-1]}"' for chain in chains if len(chain) >= 2]
    return label_list(told[:3])


# Topic-level questions that bring in one of the guide's must-cover topics not yet covered.
GUIDE_TEMPLATES: tuple[str, ...] = (
    "What about {item}: how does that come into {topic} for you?",
    "How does {item} figure in your experience of {topic}?",
    "Tell me about {item}, when it comes to {topic}.",
)


def offline_question(request: QuestionRequest) -> str:
    """A follow-up question for the strategy and focus of the request."""
    strategy = request.strategy
    topic = topic_name(request.concept.name)
    threshold = request.methodology.tuning.vetoes.question_similarity_threshold
    key = f"{request.seed}:{request.turn_number}:{strategy.name}:{request.focus_label or ''}"
    values = {
        "topic": topic,
        "focus": request.focus_label or topic,
        "summary": _chains(request.summary_chains) or _summary(request.summary_labels),
    }
    if request.closing or strategy.generates_closing_question:
        family = "summary" if request.summary_labels else "closing"
    else:
        family = family_for(strategy.name, strategy.description)
        if family == "summary" and not request.summary_labels:
            family = "closing"
    has_focus = bool(request.focus_label) and strategy.focus_mode == "recent_node"
    if has_focus and request.focus_stance < 0 and family in ("deepen", "negative_ladder"):
        family = "dislike"  # not "what do you get out of 'blisters'?"
    if request.guide_remaining and not has_focus and family not in ("summary", "closing"):
        # A topic-level question is where the guide's uncovered topics come in.
        item = request.guide_remaining[0]
        texts = [t.format(item=item, topic=topic) for t in GUIDE_TEMPLATES]
        return pick(texts, request.avoid_questions, key, threshold)
    candidates = list(TEMPLATES.get(family, TEMPLATES["generic"]))
    if family == "deepen" and request.depth >= 2:  # (a dislike keeps its own wording)
        candidates = list(TEMPLATES["deepen_anchored"]) + candidates[:3]
    if "{focus}" in " ".join(candidates) and not has_focus:
        # A node-bound family without a node: ask about the topic instead.
        candidates = [c for c in candidates if "{focus}" not in c] or list(
            TOPIC_TEMPLATES.get(family, TEMPLATES["generic_topic"])
        )
    candidates = _not_the_last_one(candidates, _previous_question(request))
    # Compare what would be asked, not the templates: the focus changes the similarity.
    texts = [c.format(**values) for c in candidates]
    return pick(texts, request.avoid_questions, key, threshold)


def _previous_question(request: QuestionRequest) -> str:
    if request.avoid_questions:
        return request.avoid_questions[-1]
    return request.recent[-1].question if request.recent else ""


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{\w+\})", template)
    body = "".join(".+?" if re.fullmatch(r"\{\w+\}", p) else re.escape(p) for p in parts)
    return re.compile(body, re.IGNORECASE | re.DOTALL)


_PATTERNS: dict[str, re.Pattern[str]] = {}


def template_of(question: str) -> str | None:
    """Which template a question was written from (None: not one of ours)."""
    for family in (*TEMPLATES.values(), *TOPIC_TEMPLATES.values()):
        for template in family:
            pattern = _PATTERNS.setdefault(template, _pattern(template))
            if pattern.fullmatch(question.strip()):
                return template
    return None


def _not_the_last_one(candidates: list[str], previous: str) -> list[str]:
    """Never the same wording twice in a row: "Why does X matter?" then "Why does Y matter?"
    reads as a machine, whatever the labels. Kept when it is the only template left."""
    last = template_of(previous) if previous else None
    rest = [c for c in candidates if c != last]
    return rest or candidates


def opening_family(request: OpeningRequest) -> str:
    """Which opening suits the methodology, read from its goal and opening guidance."""
    text = f"{request.methodology.method.opening_bias} {request.methodology.method.goal}".lower()
    if any(
        w in text for w in ("incident", "went really well", "well or badly", "stood out", "episode")
    ):
        return "incident"
    if any(w in text for w in ("occasion", "walk me through", " job")):
        return "occasion"
    return "attribute"


def offline_opening(request: OpeningRequest) -> str:
    topic = topic_name(request.concept.name)
    candidates = [t.format(topic=topic) for t in OPENING_TEMPLATES[opening_family(request)]]
    return pick(candidates, [], f"{request.seed}:opening")
