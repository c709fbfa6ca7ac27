"""Prompts for every LLM task, rendered from markdown templates shipped in this package.

One ``render_*`` function per task turns a request (``llm.protocol``) into a ``Prompt``:
system and user text, the JSON schema and tool name of a structured output, and whether
the text streams. Providers send it; ``llm.validation`` checks what comes back.

Templates are ``*.md`` files here (``string.Template`` placeholders); the assessor's rubrics
live in ``signals.md`` (seed 001 "Rubric-Based LLM Detection").
"""

from interview_cli.llm.prompts.analysis import render_assess, render_extract, render_slots
from interview_cli.llm.prompts.generation import render_opening, render_persona, render_question
from interview_cli.llm.prompts.output_schemas import (
    ASSESSMENT_TOOL,
    EXTRACTION_TOOL,
    SLOTS_TOOL,
    assessment_schema,
    extraction_schema,
    slots_schema,
)
from interview_cli.llm.prompts.rubric import Rubric, load_rubrics, parse_rubrics
from interview_cli.llm.prompts.templates import Prompt, delimit, escape_tags, language_rule

__all__ = [
    "ASSESSMENT_TOOL",
    "EXTRACTION_TOOL",
    "SLOTS_TOOL",
    "Prompt",
    "Rubric",
    "assessment_schema",
    "delimit",
    "escape_tags",
    "extraction_schema",
    "language_rule",
    "load_rubrics",
    "parse_rubrics",
    "render_assess",
    "render_extract",
    "render_opening",
    "render_persona",
    "render_question",
    "render_slots",
    "slots_schema",
]
