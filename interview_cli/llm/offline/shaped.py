"""Dispatch of the offline tasks by methodology shape: journeys and grids have heuristics of
their own (``journey``, ``grid``); a ladder returns None and the ladder heuristics run."""

from __future__ import annotations

from interview_cli.core.models import Extraction
from interview_cli.llm.offline.grid import extract_grid, grid_opening, grid_question
from interview_cli.llm.offline.journey import extract_journey, journey_opening, journey_question
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
        return journey_question(request)
    if shape == "grid" and request.methodology.grid is not None:
        return grid_question(request)
    return None
