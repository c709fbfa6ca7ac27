"""Study language codes: ``--language`` and a concept's ``language``.

A study language is written as an ISO 639 style code: two or three letters (``en``, ``de``,
``yue``), optionally with a script and/or a region (``zh-Hant``, ``pt-BR``, ``es-419``).
Anything else (``english``, ``zzzzzz``) is refused with one line saying what to write, since
a mistyped code would otherwise reach the question prompt as "Ask in the study language,
zzzzzz" and the model would guess. Pure: no I/O.
"""

from __future__ import annotations

import re

from interview_cli.errors import UsageError

# language[-Script][-REGION]; "_" is accepted for the POSIX habit (pt_BR) and normalised to "-".
_CODE = re.compile(
    r"^(?P<lang>[A-Za-z]{2,3})"
    r"(?:[-_](?P<script>[A-Za-z]{4}))?"
    r"(?:[-_](?P<region>[A-Za-z]{2}|\d{3}))?$"
)
HINT = "use a 2-3 letter ISO 639 code, optionally with a region, e.g. en, de or pt-BR"


def normalise_language(code: str) -> str | None:
    """The canonical spelling of ``code`` (``PT_br`` -> ``pt-BR``), or None when it is not a
    language code."""
    match = _CODE.match(code.strip())
    if match is None:
        return None
    parts = [match["lang"].lower()]
    if match["script"]:
        parts.append(match["script"].title())
    if match["region"]:
        parts.append(match["region"].upper())
    return "-".join(parts)


def language_problem(code: str) -> str | None:
    """Why ``code`` is not a language code (one line), or None when it is one."""
    if normalise_language(code) is not None:
        return None
    return f"{code!r} is not a language code; {HINT}"


def check_language(code: str | None, where: str = "--language") -> str | None:
    """``code`` normalised, None for None; a ``UsageError`` naming ``where`` when invalid."""
    if code is None:
        return None
    normal = normalise_language(code)
    if normal is None:
        raise UsageError(f"{where}: {language_problem(code)}")
    return normal


def is_english(code: str | None) -> bool:
    """Whether ``code`` (already valid) names English; None (the respondent's) is not."""
    base = (code or "").strip().lower().replace("_", "-").split("-")[0]
    return base in ("en", "eng")
