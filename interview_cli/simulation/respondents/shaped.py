"""The offline simulated respondent for journey and grid methodologies.

A persona's hidden journey (``journeys``: stages with actions, touchpoints, an emotion, pain
points and what would have helped) or grid (``grids``: bipolar constructs with a rating of
every element), both keyed by the study's concept, is the truth the interview tries to
uncover. The answer follows the question:

journey
    a question naming a stage (or, naming none, the next stage not told yet) gets what the
    persona did there and where, and (unless brief, verbosity < 0.4) how it felt and what went
    wrong; a question about a stage the persona already told gets what is still untold of it
    (steps, or the feeling); a question about a pain point gets what would have helped.
grid
    a triad question gets the unused construct that best splits the three shown (two alike,
    one different), poles oriented so the two alike come first; a rating question on a
    construct gets the persona's ratings of every element (flipped when the construct was
    said the other way round); a laddering question gets the construct's value.

Deterministic: a function of the request alone.
"""

from __future__ import annotations

import itertools

from interview_cli.config.shapes import ConstructTruth, StageTruth
from interview_cli.llm.offline.shapes.common import phrase_in, words
from interview_cli.llm.protocol import PersonaRequest

CLOSING = "Yes, that's about right."
NOTHING = "I don't think there's more to say about that."


def _said(request: PersonaRequest) -> str:
    return " ".join(e.answer for e in request.history).lower()


def _overlap(a: str, b: str) -> float:
    wa, wb = set(words(a)), set(words(b))
    return len(wa & wb) / len(wa) if wa else 0.0


# ---- journey -----------------------------------------------------------------------------


def _stage_sentences(stage: StageTruth, *, feelings: bool, pains: bool) -> list[str]:
    out = []
    for i, action in enumerate(stage.actions):
        where = f" on {stage.touchpoints[i]}" if i < len(stage.touchpoints) else ""
        out.append(f"I {action}{where}.")
    for touch in stage.touchpoints[len(stage.actions) :]:
        out.append(f"I used {touch}.")
    if pains:
        out += [f"The problem was that {pain}." for pain in stage.pains]
    if feelings and stage.emotion:
        out.append(f"I felt {stage.emotion}.")
    return out


def _journey_answer(request: PersonaRequest, stages: list[StageTruth]) -> str:
    question = request.question.lower()
    said = _said(request)
    brief = request.persona.traits.verbosity < 0.4
    focus = (request.focus_label or "").lower()
    if any(
        w in question for w in ("check i have", "accurate", "anything missing", "is that right")
    ):
        return CLOSING
    for stage in stages:
        for pain, fix in itertools.zip_longest(stage.pains, stage.fixes):
            if pain and fix and focus and _overlap(pain, focus) >= 0.6:
                return f"It would have helped if they would {fix}."
    named = [s for s in stages if phrase_in(s.stage, question) >= 0]
    if not named:
        named = [s for s in stages if phrase_in(s.stage, said) < 0][:1]
    if not named:
        return NOTHING
    stage = named[0]
    told = phrase_in(stage.stage, said) >= 0 or (focus and focus == stage.stage.lower())
    if told and ("feel" in question or "felt" in question):
        return f"I felt {stage.emotion}." if stage.emotion else "Nothing special, really."
    if told and focus:
        text = " ".join(_stage_sentences(stage, feelings=False, pains=not brief))
        return text or NOTHING
    text = " ".join(_stage_sentences(stage, feelings=not brief, pains=not brief))
    if not text:
        return NOTHING
    return f"At {stage.stage}, {text[0].lower()}{text[1:]}"


# ---- grid --------------------------------------------------------------------------------


def _rating(construct: ConstructTruth, element: str) -> int | None:
    for key, value in construct.ratings.items():
        if key.lower() == element.lower():
            return value
    return None


def _used(construct: ConstructTruth, said: str) -> bool:
    return phrase_in(construct.like, said) >= 0 or phrase_in(construct.contrast, said) >= 0


def _triad_answer(
    request: PersonaRequest, constructs: list[ConstructTruth], scale: tuple[int, int]
) -> str:
    question = request.question.lower()
    shown = [e for e in {k for c in constructs for k in c.ratings} if phrase_in(e, question) >= 0]
    shown.sort(key=lambda e: phrase_in(e, question))
    said = _said(request)
    best: tuple[float, ConstructTruth, list[str], str] | None = None
    for construct in constructs:
        if _used(construct, said):
            continue
        for odd in shown:
            pair = [e for e in shown if e != odd]
            ratings = [_rating(construct, e) for e in (*pair, odd)]
            if len(pair) != 2 or any(r is None for r in ratings):
                continue
            a, b, c = (float(r) for r in ratings if r is not None)
            split = abs(c - (a + b) / 2) - abs(a - b)
            if best is None or split > best[0]:
                best = (split, construct, pair, odd)
    if best is None or best[0] <= 0:
        return "I can't really see a difference between those three."
    _, construct, pair, odd = best
    low_side = (_rating(construct, pair[0]) or 0) < (_rating(construct, odd) or 0)
    same, other = (
        (construct.like, construct.contrast) if low_side else (construct.contrast, construct.like)
    )
    return f"{pair[0].capitalize()} and {pair[1]} are both {same}, while {odd} is {other}."


def _grid_answer(request: PersonaRequest, constructs: list[ConstructTruth]) -> str:
    methodology = request.methodology
    scale = tuple(methodology.grid.rating_scale) if methodology and methodology.grid else (1, 5)
    question = request.question.lower()
    if any(w in question for w in ("read back", "is that right", "anything missing")):
        return CLOSING
    focus = (request.focus_label or "").lower()
    if not focus:
        return _triad_answer(request, constructs, (scale[0], scale[1]))
    left, _, right = focus.partition(" vs ")
    match: tuple[ConstructTruth, bool] | None = None
    for construct in constructs:
        if _overlap(construct.like, left) >= 0.5 and _overlap(construct.contrast, right) >= 0.5:
            match = (construct, False)
        elif _overlap(construct.contrast, left) >= 0.5 and _overlap(construct.like, right) >= 0.5:
            match = (construct, True)
        if match:
            break
    if match is None:
        return "I'm not sure how to rate them on that."
    construct, flipped = match
    if "why" in question or "matter" in question:
        return f"Because {construct.value}." if construct.value else "It just matters to me."
    parts = []
    for element, value in construct.ratings.items():
        shown = scale[0] + scale[1] - value if flipped else value
        parts.append(f"{element} {shown}")
    return ", ".join(parts) + "."


def shaped_persona_answer(request: PersonaRequest) -> str | None:
    """The answer for a journey or grid study; None for a ladder (or no truth about it)."""
    methodology = request.methodology
    if methodology is None or request.concept is None:
        return None
    persona, topic = request.persona, request.concept.id
    if methodology.shape == "journey":
        stages = persona.journeys.get(topic)
        return _journey_answer(request, stages) if stages else None
    if methodology.shape == "grid":
        constructs = persona.grids.get(topic)
        return _grid_answer(request, constructs) if constructs else None
    return None


__all__ = ["shaped_persona_answer"]
