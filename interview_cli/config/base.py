"""What every library schema shares: frozen models that refuse unknown keys (a typo is an
error, not a silently ignored setting), identifiers, numbers between 0 and 1, and whole
library files whose text holds no terminal controls."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from interview_cli.safe_text import clean_strings

Identifier = Annotated[str, Field(min_length=1, pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.\-]*$")]
Unit = Annotated[float, Field(ge=0.0, le=1.0)]


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LibraryDocument(StrictModel):
    """A whole library file (methodology, concept, persona): its names and texts reach the
    terminal (the `run` header), prompts and exports, so none keeps a terminal control a
    foreign or hand-edited file may hold (``safe_text.strip_controls``)."""

    @model_validator(mode="before")
    @classmethod
    def _without_controls(cls, data: Any) -> Any:
        return clean_strings(data)
