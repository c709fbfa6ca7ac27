"""Dispatch of the offline tasks by methodology shape: journeys and grids have heuristics of
their own (``journey``, ``grid``); a ladder returns None and the ladder heuristics run. No
question leaves here with an empty slot (``shaped_common.hollow``)."""

from __future__ import annotations

from collections.abc import Callable

from interview_cli.core.models import Extraction
from interview_cli.llm.offline.asking.acknowledgements import owned_in_a_shape, unacknowledged
from interview_cli.llm.offline.shapes.common import hollow
from interview_cli.llm.offline.shapes.grid import extract_grid, grid_opening, grid_question
from interview_cli.llm.offline.shapes.journey import (
    extract_journey,
    journey_opening,
    journey_question,
)
from interview_cli.llm.protocol import ExtractRequest, OpeningRequest, QuestionRequest


def shaped_extract(request: ExtractRequest) -> Extraction | None:
    shape = request.methodology.shape
    if shape == "journey" and request.methodology.journey is not None:
        return extract_journey(request)
    if shape == "grid" and request.methodology.grid is not None:
        return extract_grid(request)
    return None


def shaped_opening(request: OpeningRequest) -> str | None:
    shape = request.methodology.shape
    if shape == "journey":
        return journey_opening(request)
    if shape == "grid" and request.methodology.grid is not None:
        return grid_opening(request)
    return None


def shaped_question(request: QuestionRequest) -> str | None:
    shape = request.methodology.shape
    if shape == "journey" and request.methodology.journey is not None:
        return _filled(journey_question, request)
    if shape == "grid" and request.methodology.grid is not None:
        return _filled(grid_question, request)
    return None


def _filled(write: Callable[[QuestionRequest], str | None], request: QuestionRequest) -> str | None:
    """The question, never one with an empty slot: a hollow one falls back to the question
    without a focus (the next stage of a journey, the next triad of a grid), else to the
    plain offline question (None). It first owns what the last answer wants owned: a question
    they did not understand, a call away, a question already answered."""
    closing = request.closing or request.strategy.generates_closing_question
    # (the questions asked, without what was said first: "Sorry, I put that badly. What was the
    # best part ...?" is that question, asked again word for word next in round 283)
    asked = [unacknowledged(q) for q in request.avoid_questions]
    request = request.model_copy(update={"avoid_questions": asked})
    text = write(request)
    if text is not None and hollow(text):
        if closing:
            return None
        text = write(request.model_copy(update={"focus_label": None, "focus_type": None}))
        text = text if text is not None and not hollow(text) else None
    # ("Sorry, I put that badly.", "Okay, no rush.", "Sorry, you did say.")
    return owned_in_a_shape(request, text) if text is not None and not closing else text
