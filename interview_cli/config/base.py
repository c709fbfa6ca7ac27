"""What every library schema shares: frozen models that refuse unknown keys (a typo is an
error, not a silently ignored setting), identifiers, and numbers between 0 and 1."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

Identifier = Annotated[str, Field(min_length=1, pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.\-]*$")]
Unit = Annotated[float, Field(ge=0.0, le=1.0)]


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
