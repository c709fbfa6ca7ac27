"""The turn's context object and its stage contracts (seed 001 "Pipeline Context and Contracts").

A stage whose output a later stage reads writes it here as one typed contract; later stages
read it through ``ctx.get(...)``, which raises when the stage has not run yet (premature
access is a bug, not a None to tolerate). A contract holds only what is read: utterance saving
has none (the answer is on the turn record, saved before any model call), and switched-off
discourse hints write an explicit empty output so that downstream code never guesses. Stage
timings are kept on the context. The pure core's stage (4-7) has no contract here: its result
is a typed value of its own (``core.turn.DecidedTurn``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field

from interview_cli.core.models import Assessment, Extraction
from interview_cli.llm.protocol import LLMCall

T = TypeVar("T", bound=BaseModel)


class Contract(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True)


class DiscourseOutput(Contract):
    hints: list[str] = Field(default_factory=list)


class ExtractionOutput(Contract):
    extraction: Extraction
    assessment: Assessment
    calls: list[LLMCall] = Field(default_factory=list)
    failures: list[str] = Field(default_factory=list)


class QuestionGenerationOutput(Contract):
    calls: list[LLMCall] = Field(default_factory=list)
    failures: list[str] = Field(default_factory=list)


STAGES: tuple[tuple[str, type[Contract]], ...] = (
    ("discourse", DiscourseOutput),
    ("extraction", ExtractionOutput),
    ("question_generation", QuestionGenerationOutput),
)
_STAGE_OF: dict[type[Contract], str] = {cls: name for name, cls in STAGES}


class PipelineContext:
    def __init__(self) -> None:
        self._outputs: dict[str, Contract] = {}
        self.timings_ms: dict[str, float] = {}

    def set(self, output: Contract) -> None:
        stage = _STAGE_OF[type(output)]
        if stage in self._outputs:
            raise RuntimeError(f"stage {stage} already produced its output")
        self._outputs[stage] = output

    def get(self, cls: type[T]) -> T:
        stage = _STAGE_OF[cls]  # type: ignore[index]
        try:
            return self._outputs[stage]  # type: ignore[return-value]
        except KeyError:
            raise RuntimeError(
                f"stage {stage} has not run yet; its output is not available"
            ) from None

    def has(self, cls: type[Contract]) -> bool:
        return _STAGE_OF[cls] in self._outputs

    @contextmanager
    def timed(self, stage: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.timings_ms[stage] = round((time.perf_counter() - start) * 1000, 2)
