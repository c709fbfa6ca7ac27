"""The JSON object inside a model's text, for a structured task answered in words.

A model asked for a tool call sometimes writes the JSON as text instead: fenced as a markdown
code block (```` ```json ```` and a newline, then the object, then the closing fence), or with
a sentence before or after it ("Here is the extraction: {...} Let me know if ..."). The object
is there and the schema check downstream decides whether it is usable, so it is taken; a
corrective round would cost a model call and show the model nothing it did not know.
"""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\r?\n?(.*?)```", re.DOTALL)
_DECODER = json.JSONDecoder()


def json_object_in(text: str) -> dict[str, Any] | None:
    """The first JSON object in ``text`` (inside a code fence first), None when there is none."""
    if not isinstance(text, str) or "{" not in text:
        return None
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    for candidate in candidates:
        found = _first_object(candidate)
        if found is not None:
            return found
    return None


def _first_object(text: str) -> dict[str, Any] | None:
    start = text.find("{")
    while start != -1:
        try:
            value, _ = _DECODER.raw_decode(text, start)
        except json.JSONDecodeError:
            value = None
        if isinstance(value, dict):
            return value
        start = text.find("{", start + 1)
    return None
