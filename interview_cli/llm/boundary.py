"""What crosses between the program and a language model, checked at the one crossing.

Outbound, answers are bounded: a respondent may paste 300 KB into one answer, which no model
context holds, and a request that is too long fails on every retry (the session would be
stuck on that turn for good). The session keeps the whole answer; each request carries at
most ``MAX_ANSWER_CHARS`` of it (:func:`bound_answer`), and ``interview run`` says so in one
line (:func:`answer_notice`).

Inbound, model text is cleaned (:func:`clean_model_text`) before anything else sees it: a
model (or a proxy) can return terminal escape sequences (colours, OSC 52 clipboard writes,
title changes), BEL, NUL, C1 controls and bidi overrides. Written to a terminal they act on
it; stored, they reach every export, and XML (GraphML) cannot hold most of them at all.
:class:`~interview_cli.llm.factory.RoutedLLM` passes every task result and every streamed
token of every client, offline and remote alike, through :func:`clean_result` /
:class:`CleanTokens`, so there is exactly one such step.

Kept: tabs, newlines, every script and emoji, and the zero-width joiner inside emoji.
Light to import (``re`` and ``unicodedata``): ``cli.run`` cleans typed answers with it too.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

# About 5,000 tokens: far more than any spoken answer, far less than any model's context.
MAX_ANSWER_CHARS = 20_000

# Whole terminal escape sequences, so "\x1b[31mred\x1b[0m" leaves "red" and not "[31mred[0m":
# CSI (ESC [ or the 8-bit CSI, parameters, intermediates, a final byte), OSC and the other
# string commands (ESC ] P X ^ _ up to BEL or ST), then any other ESC form. An unterminated
# string command loses only its introducer, never the rest of the text.
_ESCAPE_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)"
    r"|\x1b[ -/]*[0-~]?"
)
_ZWJ = "\u200d"


def strip_controls(text: str) -> str:
    """``text`` without terminal escape sequences and control or format characters (C0, C1,
    DEL, bidi overrides and isolates, invisible format marks, lone surrogates, unassigned
    code points), keeping tabs, newlines and the zero-width joiner."""
    if text.isprintable():  # the common case: nothing to remove
        return text
    text = _ESCAPE_SEQUENCE.sub("", text)
    return "".join(
        ch
        for ch in text
        if ch in "\t\n" or ch == _ZWJ or not unicodedata.category(ch).startswith("C")
    )


def clean_model_text(text: str) -> str:
    """Model output as the program may show, store and export it."""
    return strip_controls(text.replace("\r\n", "\n").replace("\r", "\n"))


def _clean(value: Any) -> Any:
    """``value`` with every string inside cleaned; the same object when nothing changed."""
    if type(value) is str:
        return clean_model_text(value)
    if isinstance(value, list | tuple):
        items = [_clean(v) for v in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        return type(value)(items)
    if isinstance(value, dict):
        pairs = [(_clean(k), _clean(v)) for k, v in value.items()]
        if all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(pairs, value.items(), strict=True)):
            return value
        return dict(pairs)
    fields = getattr(type(value), "model_fields", None)
    if fields is not None:  # a pydantic model (not imported: this module stays light)
        update = {}
        for name in fields:
            old = getattr(value, name)
            new = _clean(old)
            if new is not old:
                update[name] = new
        return value.model_copy(update=update) if update else value
    return value


def clean_result(result: Any) -> Any:
    """A ``TaskResult`` whose value holds no control characters (usage records untouched)."""
    value = _clean(result.value)
    return result if value is result.value else result.model_copy(update={"value": value})


class CleanTokens:
    """A streaming ``OnToken`` that cleans each piece before passing it on and forwards
    ``reset()``. A piece holds part of an escape sequence at most: its ESC is removed here,
    and the settled text (``TaskResult.value``) is cleaned whole."""

    def __init__(self, sink: Any) -> None:
        self.sink = sink

    def __call__(self, token: str) -> None:
        cleaned = clean_model_text(token)
        if cleaned:
            self.sink(cleaned)

    def reset(self) -> None:
        reset = getattr(self.sink, "reset", None)
        if callable(reset):
            reset()


def bound_answer(text: str, limit: int = MAX_ANSWER_CHARS) -> str:
    """At most ``limit`` characters of an answer for a prompt, cut at a word boundary. No
    marker is added: the offline extractor would read one as part of the answer."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    cut = head.rfind(" ", limit - 200)
    return (head[:cut] if cut > 0 else head).rstrip()


def answer_notice(length: int, limit: int = MAX_ANSWER_CHARS) -> str | None:
    """The one line ``interview run`` prints for an answer longer than the models read."""
    if length <= limit:
        return None
    return (
        f"your answer is {length:,} characters long: the session keeps all of it, the model "
        f"reads the first {limit:,}"
    )


# Fields of a request that carry a respondent's answer (or a moderator's words) as is.
ANSWER_FIELDS = ("answer", "previous_answer", "previous_question", "question")


def bound_request(request: Any) -> Any:
    """``request`` with every answer it carries (the answer itself, the exchange before it,
    recent answers, history) bounded by :func:`bound_answer`; the same object when none is
    too long. An answer once pasted whole is carried again by the next turn's extraction (as
    the exchange before it): bounded here, it never makes every later request too long."""
    update: dict[str, Any] = {}
    for name in ANSWER_FIELDS:
        text = getattr(request, name, None)
        if isinstance(text, str) and len(text) > MAX_ANSWER_CHARS:
            update[name] = bound_answer(text)
    recent = getattr(request, "recent_answers", None)
    if isinstance(recent, list) and any(len(a) > MAX_ANSWER_CHARS for a in recent):
        update["recent_answers"] = [bound_answer(a) for a in recent]
    for name in ("recent", "history"):
        exchanges = getattr(request, name, None)
        if isinstance(exchanges, list) and any(len(x.answer) > MAX_ANSWER_CHARS for x in exchanges):
            update[name] = [
                x.model_copy(update={"answer": bound_answer(x.answer)}) for x in exchanges
            ]
    return request.model_copy(update=update) if update else request
