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

Kept: tabs, newlines, every script and emoji, and the zero-width joiner inside emoji (the
cleaning itself is ``safe_text.strip_controls``, which ``cli.run`` applies to typed answers).

Into a prompt, interview text is data between tags (``<respondent_answer>``): every piece
goes through :func:`escape_data`, which escapes every ``<`` rather than looking for our tag
names, so no spelling of a closing tag (look-alike letters, joiners, variation
selectors, fillers) gets through, and drops what no reader sees.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from interview_cli.safe_text import drop_default_ignorable, strip_controls

# About 5,000 tokens: far more than any spoken answer, far less than any model's context.
MAX_ANSWER_CHARS = 20_000


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


def normalise_data(text: str) -> str:
    """Interview text as a model reads it: NFKC (fullwidth and compatibility forms of ``<``
    and of letters fold to the plain ones) without default-ignorable code points (joiners,
    variation selectors, fillers, bidi controls: nothing a reader sees)."""
    return drop_default_ignorable(unicodedata.normalize("NFKC", text))


def escape_data(text: str) -> str:
    """Interview text made safe to quote between the prompt's tags: :func:`normalise_data`,
    then every ``<`` escaped (``&lt;``). Every tag starts with ``<``, so none at all can be
    written from it, whatever look-alike letters its name is spelled with; a ``>`` alone
    opens nothing, and stays (the ``->`` of a ladder, an answer's "A > B")."""
    return normalise_data(text).replace("<", "&lt;")


def unescape_data(text: str) -> str:
    """A quote a model copied from escaped data, as the respondent typed it."""
    return text.replace("&lt;", "<")


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
