"""Counts read as words: ``1 session``, ``9 sessions``, never ``9 session(s)``."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` and ``word``, in the plural unless it is one (``many``: an irregular plural;
    a word ending in a consonant and "y" takes "ies")."""
    if count == 1:
        return f"1 {word}"
    if many is None:
        ends_in_y = word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u")
        many = word[:-1] + "ies" if ends_in_y else word + "s"
    return f"{count} {many}"
