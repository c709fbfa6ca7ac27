"""What every check of a model's reply starts from: the reply must be one JSON object.

``UnusableResponse`` is raised when the whole reply cannot be used (seed 000 "LLM Response
Validation Against Schemas", Tier 1); ``as_object`` applies that rule to a reply that may
arrive as text, fenced JSON or an object. The per-task checks (``llm.validation``,
``llm.validation_assessment``) build on these.
"""

from __future__ import annotations

import json
import re
from typing import Any


class UnusableResponse(Exception):
    """The whole response cannot be used; ``reason`` says why (it goes into the corrective
    message of the retry and into the turn's recorded failures)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def as_object(data: object, what: str) -> dict[str, Any]:
    """Tier 1: the response must be a JSON object (a JSON string of one is accepted)."""
    if isinstance(data, str):
        text = data.strip()
        fenced = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", text, re.DOTALL)
        if fenced:
            text = fenced.group(1)
        if not text:
            raise UnusableResponse(f"empty {what} response")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UnusableResponse(f"{what} response is not valid JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise UnusableResponse(f"{what} response is a {type(data).__name__}, not a JSON object")
    if not data:
        raise UnusableResponse(f"empty {what} response")
    return data


def one_line(value: object) -> str:
    """A text field with its whitespace collapsed; anything but a string becomes ""."""
    return " ".join(value.split()) if isinstance(value, str) else ""
