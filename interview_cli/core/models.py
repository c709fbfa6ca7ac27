"""Values that cross the seam between the LLM layer and the pure core.

The LLM layer validates a model's output into these (dropping invalid items one by one with a
recorded reason); the core consumes them; the session file records them verbatim so that a
replay can feed the very same values to the core again (ARCHITECTURE principle 3).
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from interview_cli.config.study import Reaction

Stance = Literal[-1, 0, 1]


class CoreModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _without_none(data: dict[str, object], *keys: str) -> dict[str, object]:
    """``data`` without the optional ``keys`` that are None: values recorded before those
    fields existed dump as they did, so a replay compares them equal."""
    for key in keys:
        if data.get(key) is None:
            data.pop(key, None)
    return data


class ExtractedNode(CoreModel):
    label: str = Field(min_length=1)
    node_type: str = Field(min_length=1)
    quote: str = Field(min_length=1, description="verbatim words of the respondent")
    stance: Stance = 0
    confidence: float = Field(default=0.8, ge=0.0, le=1.0)
    element_id: str | None = Field(default=None, description="stimulus element it maps to")
    reaction: Reaction | None = None
    corrects: str | None = Field(
        default=None,
        description="label of an earlier node this one corrects: the respondent said that was "
        "wrong and this is what they meant (the earlier node is superseded by this one)",
    )

    @model_serializer(mode="wrap")
    def _without_empty_correction(
        self, handler: SerializerFunctionWrapHandler
    ) -> dict[str, object]:
        return _without_none(handler(self), "corrects")


class ExtractedEdge(CoreModel):
    source: str = Field(min_length=1, description="label of the source node (this turn or earlier)")
    target: str = Field(min_length=1, description="label of the target node (this turn or earlier)")
    relation: str = Field(min_length=1)
    quote: str = ""
    confidence: float = Field(default=0.8, ge=0.0, le=1.0)
    value: float | None = Field(
        default=None,
        description="a number the relation carries: a grid rating, a journey emotion's valence",
    )

    @model_serializer(mode="wrap")
    def _without_empty_value(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        return _without_none(handler(self), "value")


# The reason an extraction's rejected items give for an edge that was taken, but turned the
# way its relation runs (stated from the abstract end to the concrete one): a note, not a loss.
REVERSED_EDGE = "reversed"


class RejectedItem(CoreModel):
    """An item the model proposed that validation or the graph refused, and why (or, with a
    reason starting ``REVERSED_EDGE``, an edge taken the other way round)."""

    kind: Literal["node", "edge", "response", "slot"]
    item: dict[str, object] = Field(default_factory=dict)
    reason: str


class Extraction(CoreModel):
    extractable: bool = True
    reason: str = ""
    nodes: list[ExtractedNode] = Field(default_factory=list)
    edges: list[ExtractedEdge] = Field(default_factory=list)
    rejected: list[RejectedItem] = Field(default_factory=list)
    steer: str | None = Field(
        default=None,
        description="label of the node the respondent asked to talk about next ('can we go "
        "back to the charging?'): an earlier node, or a node of this answer",
    )
    retracted: list[str] = Field(
        default_factory=list,
        description="labels of earlier nodes the respondent takes back as not meant ('the "
        "brakes thing was a joke', 'that has nothing to do with it'): disowned, not asked about",
    )

    @model_serializer(mode="wrap")
    def _without_empty_steer(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        # an answer that takes nothing back dumps as extractions did before retractions were
        # read, so the recorded extractions of older sessions compare equal on replay
        data = _without_none(handler(self), "steer")
        if not data.get("retracted"):
            data.pop("retracted", None)
        return data


RUBRIC_SIGNALS: tuple[str, ...] = (
    "response_depth",
    "specificity",
    "certainty",
    "valence",
    "engagement",
    "intellectual_engagement",
)


class RubricScore(CoreModel):
    score: int = Field(ge=1, le=5)
    rationale: str = ""


# What kind of reply an answer is (INTERVIEWING.md "When the respondent cannot or will not
# answer"): a real answer, or one of the signals that are not answers. A reply of a non-answer
# kind other than ``dont_know`` never adds to the graph: "I already said that" or "that's not
# about headphones" must not become the next topic.
# ``declined`` is the respondent's ``/pass``: a refusal to answer, never a model's reading of
# an answer (so it is not among the kinds a model may return, ``ANSWER_KINDS``).
AnswerKind = Literal[
    "answer", "dont_know", "already_said", "move_on", "about_interview", "declined"
]
DECLINED = "declined"
ANSWER_KINDS: tuple[str, ...] = tuple(k for k in get_args(AnswerKind) if k != DECLINED)
NON_CONTENT_KINDS: frozenset[str] = frozenset(
    {"already_said", "move_on", "about_interview", DECLINED}
)
# What the safety reading of an answer found (``Assessment.safety``): nothing, a respondent in
# distress, abuse aimed at the interviewer, talk away from the study's topic, or a respondent
# who asks to end the interview (always obeyed: taking part is voluntary). ``unchecked``: no
# reading could be had (the assessor failed, or wrote none); never a model's answer (so it is
# not among ``SAFETY_KINDS``), and never taken as ``none``: safety fails closed.
SafetyKind = Literal["none", "distress", "abuse", "off_topic", "stop", "unchecked"]
UNCHECKED = "unchecked"
SAFETY_KINDS: tuple[str, ...] = tuple(k for k in get_args(SafetyKind) if k != UNCHECKED)


class Assessment(CoreModel):
    """The assessor's batched rubric signals for one answer (seed 001, seed 004)."""

    response_depth: RubricScore
    specificity: RubricScore
    certainty: RubricScore
    valence: RubricScore
    engagement: RubricScore
    intellectual_engagement: RubricScore
    hedging_language: Literal["none", "low", "medium", "high"] = "none"
    knowledge_ceiling: Literal["none", "exploratory", "terminal"] = "none"
    answer_kind: AnswerKind = "answer"
    safety: SafetyKind = "none"
    # the respondent says they are tired or short of time ("I'm flagging now", "I need to sleep
    # soon", "is there much more?"): the trend counts them fatigued (INTERVIEWING.md "Ending")
    tiring: bool = False
    # ... and that they are leaving now ("sorry got to go now, bye", "I'll stop there if you
    # don't mind"; not "is there much more?" nor "I'll have to go soon"): let go at once,
    # whatever the turn (``continuation.check_continuation``)
    going: bool = False
    # ... and that they did not know what the question asks ("sorry what?", "I don't know what
    # you're asking"), and did not answer it: the question was not tried, and is asked again
    # put another way (``vetoes.recent_redundancy``), no ceiling reached
    puzzled: bool = False
    rationale: str = ""

    @classmethod
    def neutral(cls) -> Assessment:
        """What a turn uses when the assessor failed: middle scores, no ceiling, and no safety
        reading (``unchecked``: the turn takes the careful path)."""
        mid = RubricScore(score=3, rationale="assessment unavailable")
        return cls.model_validate({**{name: mid for name in RUBRIC_SIGNALS}, "safety": UNCHECKED})

    @classmethod
    def declined(cls) -> Assessment:
        """The reading of a ``/pass``: no model is asked about a refusal to answer."""
        low = RubricScore(score=1, rationale="the respondent declined to answer")
        mid = RubricScore(score=3, rationale="the respondent declined to answer")
        scores = {name: low for name in RUBRIC_SIGNALS}
        scores["valence"] = scores["certainty"] = mid
        return cls.model_validate(
            {**scores, "answer_kind": DECLINED, "rationale": "declined (/pass)"}
        )
