"""A study's guide, stimulus, consent and safety responses (the concept's and methodology's
sections).

- ``Concept.guide``: topics the interview must cover, topics it must avoid, and a tone; read by
  the question prompt and by the ``coverage.guide_*`` signals (``core.guide``).
- ``Concept.stimulus``: what a concept test shows the respondent before the opening question
  (seed 000 "Phase 0: Opening": introduce the stimulus concept): its text and, optionally, the
  path of an image, shown as a path (the terminal cannot show the picture; the moderator hands
  it over). ``stimulus: "text"`` is short for ``stimulus: {text: "text"}``.
- ``Concept.consent``: text shown before the first question; the answer is recorded and a
  "no" ends the session politely.
- ``Methodology.safety``: what the interview does when an answer reads as distress, abuse or
  off-topic talk (``Assessment.safety``): ``redirect`` (say the message, then ask the next
  question), ``pause`` (say the message, pause the session: resumable), ``end`` (say the
  message, end the session with ``code`` as its recorded end reason) or ``continue``; an answer
  the reading could not check (``unchecked``) takes the careful path, never ``continue``.

Pure schemas, no I/O.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import Field, model_validator

from interview_cli.config.base import StrictModel


class Guide(StrictModel):
    must_cover: list[str] = Field(default_factory=list, description="topics to cover")
    avoid: list[str] = Field(default_factory=list, description="topics never to raise")
    tone: str = Field(default="", description="how the questions should sound")


class Stimulus(StrictModel):
    """What the respondent is shown of the concept before the first question."""

    text: str = Field(min_length=1, description="the concept as the respondent reads it")
    image: str | None = Field(
        default=None, description="path of a picture of the concept, shown as a path"
    )

    @model_validator(mode="before")
    @classmethod
    def _text_alone(cls, data: Any) -> Any:
        return {"text": data} if isinstance(data, str) else data


# How a respondent received a stimulus element (seed 000 "extract_graph_elements": positive,
# negative, neutral, skeptical, curious; ``confused``: not understood, a comprehension gap).
Reaction = Literal["positive", "negative", "neutral", "skeptical", "curious", "confused"]
REACTIONS: tuple[str, ...] = get_args(Reaction)
# The reactions that make an element worth laddering: what appeals is asked why it matters.
APPEALING_REACTIONS: frozenset[str] = frozenset({"positive", "curious"})


SafetyAction = Literal["redirect", "pause", "end", "continue"]


class SafetyResponse(StrictModel):
    action: SafetyAction
    message: str = ""
    code: str = Field(
        default="",
        pattern=r"^[a-z0-9_]*$",
        description="the end reason recorded when the action ends the session",
    )


def _off_topic() -> SafetyResponse:
    return SafetyResponse(
        action="redirect",
        message="Thank you. Let's come back to the topic of this interview.",
    )


def _distress() -> SafetyResponse:
    return SafetyResponse(
        action="pause",
        message="It sounds like this is hard right now. We can stop here and continue another "
        "time, or not at all. If you are in distress, please reach out to someone you trust or "
        "to a local support line.",
        code="paused_distress",
    )


def _abuse() -> SafetyResponse:
    return SafetyResponse(
        action="end",
        message="We will end the interview here. Thank you for your time.",
        code="ended_abuse",
    )


def _stop() -> SafetyResponse:
    return SafetyResponse(
        action="end",
        message="Of course, we'll stop here. Thank you for your time.",
        code="stopped_by_respondent",
    )


def _unchecked() -> SafetyResponse:
    return SafetyResponse(
        action="pause",
        message="Let's take a short break here. We can carry on another time, or not at all: "
        "it is entirely up to you.",
        code="paused_unchecked",
    )


class SafetySpec(StrictModel):
    off_topic: SafetyResponse = Field(default_factory=_off_topic)
    distress: SafetyResponse = Field(default_factory=_distress)
    abuse: SafetyResponse = Field(default_factory=_abuse)
    stop: SafetyResponse = Field(default_factory=_stop)
    # The careful path: an answer the safety reading could not check (the assessor failed or
    # wrote no reading) is never taken as safe, so its response may not be ``continue``.
    unchecked: SafetyResponse = Field(default_factory=_unchecked)

    @model_validator(mode="after")
    def _unchecked_is_careful(self) -> SafetySpec:
        if self.unchecked.action == "continue":
            raise ValueError(
                "safety.unchecked.action: 'continue' would take an answer nobody could check "
                "as safe; use pause, end or redirect"
            )
        return self

    def responses(self) -> dict[str, SafetyResponse]:
        """Every configured response by the safety reading it answers."""
        return {
            "off_topic": self.off_topic,
            "distress": self.distress,
            "abuse": self.abuse,
            "stop": self.stop,
            "unchecked": self.unchecked,
        }

    def response(self, kind: str) -> SafetyResponse | None:
        """The response configured for a safety reading (None for ``none``)."""
        return self.responses().get(kind)
