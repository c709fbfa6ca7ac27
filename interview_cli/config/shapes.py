"""Schemas of the non-ladder methodology shapes: customer journeys and repertory grids.

A methodology declares ``shape: ladder | journey | grid`` (ladder, the default, is the
chain-shaped interview of the three original methodologies). A journey or grid methodology
carries a section of the same name that says which of its node and edge types play which
part; ``config.shape_validation`` checks that they exist and connect as the shape needs.
Concepts list a journey's ordered stages or a grid's elements as ``elements``;
personas carry hidden ground truth for both (``journeys``, ``grids``).

Pure: no I/O.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from interview_cli.config.base import StrictModel

Shape = Literal["ladder", "journey", "grid"]
# A grid needs enough elements for distinct triads and a meaningful principal components
# analysis; the customary minimum in repertory grid practice is six.
MIN_GRID_ELEMENTS = 6
GRID_SCALES: tuple[tuple[int, int], ...] = ((1, 5), (1, 7))


class JourneySpec(StrictModel):
    """Which node and edge types make up a customer journey map."""

    stage_type: str = "stage"
    touchpoint_type: str = "touchpoint"
    action_type: str = "action"
    emotion_type: str = "emotion"
    pain_type: str = "pain_point"
    sequence_relation: str = Field(
        default="next_stage", description="stage -> the stage that follows it"
    )
    emotion_relation: str = Field(
        default="felt", description="stage/touchpoint/action -> emotion; carries the valence"
    )
    valence_scale: tuple[int, int] = Field(
        default=(-2, 2), description="valence of an emotion, stored as the felt edge's value"
    )

    @property
    def step_types(self) -> tuple[str, str]:
        return (self.touchpoint_type, self.action_type)


class GridSpec(StrictModel):
    """Which node and edge types make up a repertory grid, and its rating scale."""

    element_type: str = "element"
    construct_type: str = "construct"
    rating_relation: str = Field(
        default="rated", description="element -> construct; the rating is the edge's value"
    )
    rating_scale: tuple[int, int] = Field(
        default=(1, 5), description="1 to 5 or 1 to 7; 1 = the construct's first pole"
    )
    min_elements: int = Field(default=MIN_GRID_ELEMENTS, description="at least six")


# --------------------------------------------------------------------------------------------
# Persona ground truth
# --------------------------------------------------------------------------------------------


class StageTruth(StrictModel):
    """One stage of a persona's hidden journey."""

    stage: str = Field(min_length=1, description="the concept's stage label (or id)")
    touchpoints: list[str] = Field(default_factory=list)
    actions: list[str] = Field(default_factory=list)
    emotion: str = ""
    valence: int = Field(default=0, ge=-2, le=2)
    pains: list[str] = Field(default_factory=list)
    fixes: list[str] = Field(default_factory=list, description="what would have helped")


class ConstructTruth(StrictModel):
    """One bipolar construct of a persona's hidden grid and its ratings of the elements."""

    like: str = Field(min_length=1, description="the pole rated 1 (the 'two alike' side)")
    contrast: str = Field(min_length=1, description="the pole rated at the top of the scale")
    ratings: dict[str, int] = Field(default_factory=dict, description="element id -> rating")
    value: str = Field(default="", description="why the construct matters (laddered up)")

    @property
    def label(self) -> str:
        return f"{self.like} vs {self.contrast}"
