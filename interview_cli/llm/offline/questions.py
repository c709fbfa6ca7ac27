"""Offline questions: per-strategy templates that name the focus and avoid repeats.

The offline half of ``generate_opening`` and ``generate_question`` (seed 001 "Opening vs
Follow-Up Questions", "Topic Anchoring"; seed 000 "Question Deduplication"). It is also the
fallback a real provider uses when its reply is unusable (``validation.fallback_question``).

A strategy maps to a *family* of templates by the words of its name, then of its YAML
description ("probe_attributions" -> attribution, "dig_motivation" -> deepen); a strategy
no family fits gets a generic question built on the focus. The template is chosen by a
seeded shuffle of (seed, turn, strategy, focus), so runs repeat exactly while questions
vary across turns, and the first candidate not too similar to a recent question wins.
Deep in a conversation (depth >= 2) the topic is named to keep the ladder anchored.
Templates are English; with a non-English study language a real provider is needed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

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

# Checked in order: the first family any of whose words appears in the strategy's name wins;
# then the same over its description.
FAMILY_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("summary", ("reflect", "validate", "summar", "synthes", "recap", "playback")),
    ("attribution", ("attribution", "cause", "blame", "responsib")),
    ("insight", ("insight", "learning", "lesson", "takeaway", "conclu")),
    ("obstacle", ("obstacle", "pain", "struggle", "barrier", "problem", "friction")),
    ("alternative", ("alternative", "compet", "switch", "substitut")),
    ("emotion", ("emotion", "feeling")),
    ("narrative", ("narrative", "story", "sequence", "timeline")),
    ("incident", ("incident", "episode", "elicit")),
    ("clarify", ("clarif", "assumption", "specif", "example", "concret")),
    ("revitalize", ("revitali", "ease", "rapport", "energi", "re-engage")),
    ("bridge", ("bridge", "lateral", "connect")),
    ("contrast", ("contrast", "compar", "versus")),
    ("explore", ("explore", "broaden", "breadth", "new ", "another", "situation")),
    ("deepen", ("deepen", "ladder", "dig", "motivation", "why", "deeper", "climb")),
)

TEMPLATES: dict[str, tuple[str, ...]] = {
    "deepen": (
        'You mentioned "{focus}". Why is that important to you?',
        'What does "{focus}" do for you, personally?',
        'Why does "{focus}" matter to you?',
        'If you didn\'t have "{focus}", what would be missing for you?',
        'And what does "{focus}" give you in the end?',
    ),
    "deepen_anchored": (
        'Thinking about {topic}, why does "{focus}" matter so much to you?',
        'When it comes to {topic}, what does "{focus}" ultimately mean for you?',
        'In your experience with {topic}, what does "{focus}" make possible for you?',
        'Suppose {topic} no longer gave you "{focus}". What would you lose?',
        'Why is "{focus}" worth something to you when you choose {topic}?',
    ),
    "clarify": (
        'When you say "{focus}", what exactly do you mean?',
        'Could you give me an example of "{focus}" from the last time it came up with {topic}?',
        'What does "{focus}" look like in practice for you?',
        'How would you describe "{focus}" to someone who has never tried {topic}?',
        'Can you walk me through a moment when "{focus}" really showed?',
    ),
    "explore": (
        "Apart from what we've talked about, what else matters to you about {topic}?",
        "What else do you pay attention to when it comes to {topic}?",
        "Is there anything else about {topic} that is important to you?",
        "Can you think of another occasion with {topic} that was different? What happened?",
        "Which other features or qualities of {topic} do you notice?",
        "When you compare different {topic}, what else makes a difference for you?",
    ),
    "revitalize": (
        "Let's look at it from another angle: picture the last time you dealt with {topic}. What "
        "stands out?",
        "What was the best or the worst moment you've had with {topic} recently?",
        "Thanks, that's really helpful. What is one small thing about {topic} you'd change if you "
        "could?",
        "If a friend asked you about {topic}, what would you tell them first?",
        "Where and when do you use {topic} most? Tell me about a typical day.",
        "What would you miss first if you had to do without {topic} for a week?",
    ),
    "incident": (
        "Can you think of a specific time when {topic} went really well or really badly? What "
        "happened?",
        "Tell me about another occasion with {topic} that stood out for you. What happened?",
    ),
    "narrative": (
        'What happened next, after "{focus}"?',
        'Could you walk me through "{focus}" step by step: who did what, and how did it end?',
        'Tell me more about "{focus}": what exactly happened?',
    ),
    "emotion": (
        'You mentioned "{focus}". How did that feel in the moment, and afterwards?',
        'What was it about "{focus}" that made you feel the way you did?',
    ),
    "attribution": (
        'Why do you think "{focus}" happened the way it did?',
        'Who or what do you think was behind "{focus}"?',
    ),
    "insight": (
        'Looking back, what did you take away from "{focus}"?',
        'Do you do anything differently since "{focus}"?',
    ),
    "obstacle": (
        'What gets in the way when it comes to "{focus}"?',
        'When did "{focus}" last go wrong, and what did you do about it?',
    ),
    "alternative": (
        'Before "{focus}", what did you use, and what else have you tried?',
        'What do you do when "{focus}" isn\'t an option?',
    ),
    "bridge": (
        'You mentioned "{focus}". Is there something related to that we haven\'t talked about yet?',
        'Building on "{focus}", what else comes to mind about {topic}?',
    ),
    "contrast": (
        'How does "{focus}" compare with other options you know?',
        'What would be the opposite of "{focus}" for you, and how would that feel?',
    ),
    "generic": (
        'You mentioned "{focus}". Could you tell me more about that?',
        'I\'d like to understand "{focus}" better. What more can you tell me about it?',
    ),
    "generic_topic": (
        "Could you tell me more about your experience with {topic}?",
        "What else comes to mind when you think about {topic}?",
    ),
    "summary": (
        "So far I've heard about {summary}. Did I get that right, and is there anything important "
        "we haven't covered?",
        "Let me check I understood: you talked about {summary}. Is that accurate, and is anything "
        "missing?",
    ),
    "closing": (
        "Before we finish, is there anything else about {topic} that matters to you that we "
        "haven't touched on?",
        "Thank you, this has been very helpful. Is there anything about {topic} you'd like to add "
        "before we wrap up?",
    ),
}

OPENING_TEMPLATES: dict[str, tuple[str, ...]] = {
    "incident": (
        "Think of one specific time when {topic} went really well or really badly for you. What "
        "happened?",
        "Could you tell me about a particular occasion with {topic} that stood out, good or bad? "
        "What happened?",
    ),
    "occasion": (
        "Think about the last time {topic} was part of your day. Walk me through it from the "
        "beginning: when was it, and what set it off?",
        "Let's start with your most recent {topic}. Where were you, and how did it begin?",
    ),
    "attribute": (
        "To start, think about the last time you chose or used {topic}. What mattered most to you "
        "about it?",
        "What comes to mind first when you think about {topic}? What do you like, and what "
        "annoys you?",
        "When you think about {topic}, what are the things you notice or pay attention to?",
    ),
}


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
    quoted = [f'"{label}"' for label in list(labels)[:4]]
    if len(quoted) <= 1:
        return "".join(quoted)
    return ", ".join(quoted[:-1]) + " and " + quoted[-1]


def offline_question(request: QuestionRequest) -> str:
    """A follow-up question for the strategy and focus of the request."""
    strategy = request.strategy
    topic = topic_name(request.concept.name)
    threshold = request.methodology.tuning.vetoes.question_similarity_threshold
    key = f"{request.seed}:{request.turn_number}:{strategy.name}:{request.focus_label or ''}"
    values = {
        "topic": topic,
        "focus": request.focus_label or topic,
        "summary": _summary(request.summary_labels),
    }
    if request.closing or strategy.generates_closing_question:
        family = "summary" if request.summary_labels else "closing"
    else:
        family = family_for(strategy.name, strategy.description)
        if family == "summary" and not request.summary_labels:
            family = "closing"
    has_focus = bool(request.focus_label) and strategy.focus_mode == "recent_node"
    candidates = list(TEMPLATES.get(family, TEMPLATES["generic"]))
    if family == "deepen" and request.depth >= 2:
        candidates = list(TEMPLATES["deepen_anchored"]) + candidates[:2]
    if "{focus}" in " ".join(candidates) and not has_focus:
        # A node-bound family without a node: ask about the topic instead.
        candidates = [c for c in candidates if "{focus}" not in c] or list(
            TEMPLATES["generic_topic"]
        )
    # Compare what would be asked, not the templates: the focus changes the similarity.
    texts = [c.format(**values) for c in candidates]
    return pick(texts, request.avoid_questions, key, threshold)


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
