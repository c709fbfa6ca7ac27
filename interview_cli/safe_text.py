"""Text that may reach a terminal, an export or a prompt without acting on it.

Answers, labels, names and error bodies come from people, models and files the tool did not
write (a hand-edited session, a foreign library file). Four cleanings, each done where text
leaves for one of those places, whatever its source:

- :func:`strip_controls`: no terminal escape sequence (colours, clear-screen, OSC 52 clipboard
  writes, title changes), no C0/C1 control, DEL, bidi override or isolate, invisible format
  mark, lone surrogate or unassigned code point. Kept: tabs, newlines, every script and emoji
  (with the zero-width joiner and variation selectors that draw them).
- :func:`drop_default_ignorable`: without every Unicode *default-ignorable* code point (the
  characters a renderer shows as nothing: joiners, variation selectors, fillers, tags), for
  text a model reads, where an invisible character can hide inside a tag name.
- :func:`redact_secrets`: credentials a URL or an error carries (userinfo, ``api_key=``,
  ``sk-...``) replaced by ``***``.
- :func:`clean_strings`: every string inside a JSON value passed through :func:`strip_controls`
  (keys too), the value returned unchanged when there was nothing to clean;
  :func:`json_may_hold_controls` tells from a JSON text whether there may be anything.

At the bottom of the layers (``re`` and ``unicodedata`` only): the configuration, the session
reader, the LLM boundary and the CLI all use it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any

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

# Unicode's Default_Ignorable_Code_Point property (DerivedCoreProperties.txt), which
# ``unicodedata`` does not expose; the reserved code points of its ranges are included, so
# a character assigned there later is covered already.
_DEFAULT_IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)


def strip_controls(text: str) -> str:
    """``text`` without terminal escape sequences and control or format characters (C0, C1,
    DEL, bidi overrides and isolates, invisible format marks, lone surrogates, unassigned
    code points), keeping tabs, newlines and the zero-width joiner."""
    if text.isprintable():  # the common case: nothing to remove
        return text
    kept = "".join(
        ch
        for ch in _ESCAPE_SEQUENCE.sub("", text)
        if ch in "\t\n" or ch == _ZWJ or not unicodedata.category(ch).startswith("C")
    )
    return text if kept == text else kept  # the same object: callers test for a change


def drop_default_ignorable(text: str) -> str:
    """``text`` without default-ignorable code points (invisible wherever it is shown)."""
    return _DEFAULT_IGNORABLE.sub("", text)


# In JSON text: an escape (``\u001b``, ``\r``...) or a character that is not plain ASCII.
_JSON_ESCAPE = re.compile(r"\\[ubfr]")
_NOT_PLAIN_ASCII = re.compile(r"[^\x20-\x7e\n\t\r]")


def json_may_hold_controls(text: str) -> bool:
    """Whether a string inside the JSON ``text`` may hold what :func:`strip_controls` takes
    out; False only when none can (most files, checked at the speed of a regex, so that a
    reader walks a document only when there is something to clean)."""
    if _JSON_ESCAPE.search(text):
        return True  # \u escapes can spell anything; files this tool writes hold few
    return any(
        unicodedata.category(ch).startswith("C") for ch in set(_NOT_PLAIN_ASCII.findall(text))
    )


# Credentials written into text: a URL's userinfo (``http://user:sk-...@host``), a query
# parameter named like a secret (``?api_key=...``, ``&token=...``), and values shaped like the
# providers' keys (``sk-...``) wherever they stand.
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)[^/\s@'\"<>]+@")
_SECRET_PARAM = re.compile(
    r"(?i)([?&;][\w.\-]*?(?:key|token|secret|passw(?:or)?d|pwd|auth|sig(?:nature)?|credential)"
    r"[\w.\-]*=)[^&#\s'\"<>]+"
)
_KEY_LIKE = re.compile(r"\b((?:sk|pk|rk)-)[A-Za-z0-9_\-]{8,}")
REDACTED = "***"


def redact_secrets(text: str) -> str:
    """``text`` with credentials replaced by ``***``: the userinfo of every URL in it, the
    values of secret-named query parameters and key-shaped tokens. For every message a user
    sees or a session keeps (a base URL may carry a key, and errors quote it)."""
    if "://" not in text and "=" not in text and "-" not in text:
        return text
    text = _USERINFO.sub(rf"\1{REDACTED}@", text)
    text = _SECRET_PARAM.sub(rf"\1{REDACTED}", text)
    return _KEY_LIKE.sub(rf"\1{REDACTED}", text)


def clean_strings(value: Any, clean: Callable[[str], str] = strip_controls) -> Any:
    """``value`` (JSON: dicts, lists, strings, numbers) with ``clean`` applied to every string
    in it, keys included; the same object, untouched, when no string changed."""
    if type(value) is str:
        return clean(value)
    if type(value) is list:
        items = [clean_strings(v, clean) for v in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        return items
    if type(value) is dict:
        pairs = [(clean(k), clean_strings(v, clean)) for k, v in value.items()]
        if all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(pairs, value.items(), strict=True)):
            return value
        return dict(pairs)
    return value
