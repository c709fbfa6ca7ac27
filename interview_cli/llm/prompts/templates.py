"""Template loading, filling and the delimiting of interview text inside prompts.

Templates are markdown files next to this module (shipped as package data) with
``string.Template`` placeholders (``$name``). ``string.Template`` is used instead of
``str.format`` so the braces of JSON examples need no escaping, and because substitution is
a single pass: a respondent who types ``$objective`` gets those characters back verbatim,
never the objective.

Respondent text is data, never instructions (a reply must not steer the model): every piece
of interview text goes through ``delimit``, which wraps it in a named tag and neutralises any
``<`` inside it, so an answer cannot close its own delimiter and "speak" outside it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from string import Template
from typing import Any, TypeVar

from interview_cli.llm.boundary import escape_data, normalise_data, unescape_data

# Tags the prompts use around interview text.
RESERVED_TAGS: tuple[str, ...] = (
    "respondent_answer",
    "interviewer_question",
    "existing_concepts",
    "discourse_hints",
    "earlier_answers",
    "conversation",
    "surface_labels",
    "existing_slots",
    "respondent_quotes",
    "ladder_so_far",
    "asked_on_focus",
    "asked_recently",
    "focus",
    "summary",
    "asked_ladders",
    "earlier_summary",
    "stimulus",
    "element",
)

LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "de": "German",
    "fr": "French",
    "es": "Spanish",
    "it": "Italian",
    "nl": "Dutch",
    "pt": "Portuguese",
    "pl": "Polish",
    "sv": "Swedish",
    "da": "Danish",
    "no": "Norwegian",
    "fi": "Finnish",
    "ru": "Russian",
    "uk": "Ukrainian",
    "tr": "Turkish",
    "ja": "Japanese",
    "zh": "Chinese",
    "ko": "Korean",
    "ar": "Arabic",
    "hi": "Hindi",
}


@dataclass(frozen=True)
class Prompt:
    """One rendered request for a model.

    ``schema`` is the JSON schema of a structured output (None for free text); ``tool_name``
    names the tool or schema that carries it; ``stream`` says whether the text is streamed
    to the screen as it arrives (questions are, structured outputs are not).
    """

    system: str
    user: str
    schema: dict[str, Any] | None = None
    tool_name: str | None = None
    stream: bool = False

    @property
    def text(self) -> str:
        """Everything the model reads, for token estimates."""
        return f"{self.system}\n\n{self.user}"


@cache
def load_template(name: str) -> Template:
    """The template ``<name>.md`` shipped in this package."""
    source = resources.files(__package__).joinpath(f"{name}.md").read_text(encoding="utf-8")
    return Template(source)


def fill(template: str, /, **values: str) -> str:
    """Render a template; a missing placeholder is a bug, so it raises ``KeyError``."""
    text = load_template(template).substitute(**values)
    # Optional sections render as empty strings; don't leave runs of blank lines behind.
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


# Prompt parts that depend on the methodology alone, by (part, methodology object). Entries
# keep their methodology alive, so an id is never reused while its entry exists; methodologies
# are frozen models, so a rendered part stays true for the object it was rendered from.
_PARTS: dict[tuple[str, int], tuple[object, str]] = {}
_PARTS_MAX = 64
M = TypeVar("M")


def rendered_once(part: str, methodology: M, render: Callable[[M], str]) -> str:
    """``render(methodology)``, computed once per methodology object and part name."""
    key = (part, id(methodology))
    hit = _PARTS.get(key)
    if hit is not None and hit[0] is methodology:
        return hit[1]
    text = render(methodology)
    if len(_PARTS) >= _PARTS_MAX:
        _PARTS.pop(next(iter(_PARTS)), None)
    _PARTS[key] = (methodology, text)
    return text


def normalise_text(text: str) -> str:
    """Interview text as a prompt carries it (``boundary.normalise_data``), with what a model
    copies of our escaping read back, so that a quote matches the answer as typed."""
    return normalise_data(unescape_data(text))


def escape_tags(text: str) -> str:
    """Interview text made safe to quote (``boundary.escape_data``: no ``<`` left).
    The one helper every respondent-derived string of a prompt goes through."""
    return escape_data(text)


def delimit(tag: str, text: str) -> str:
    """Wrap interview text in ``<tag> ... </tag>`` after escaping any delimiter inside it."""
    assert tag in RESERVED_TAGS, tag
    return f"<{tag}>\n{escape_tags(text.strip())}\n</{tag}>"


def bullets(items: list[str], empty: str = "(none)") -> str:
    return "\n".join(f"- {item}" for item in items) if items else empty


def language_name(code: str) -> str:
    base = code.strip().lower().replace("_", "-").split("-")[0]
    name = LANGUAGE_NAMES.get(base)
    return f"{name} ({code})" if name else code


def language_rule(language: str | None) -> str:
    """The language instruction: the study language when one is set, else the respondent's."""
    if language:
        return (
            f"Ask in the study language, {language_name(language)}, whatever language "
            "the respondent answers in."
        )
    return (
        "Ask in the language the respondent uses in their answers; before they have "
        "answered, use the language of the topic description."
    )


def topic_name(name: str) -> str:
    """A concept name as it reads mid-sentence: 'Wireless headphones' -> 'wireless headphones'
    (acronyms and proper names with a second capital are left alone)."""
    if len(name) > 1 and name[0].isupper() and not name[1].isupper():
        return name[0].lower() + name[1:]
    return name
