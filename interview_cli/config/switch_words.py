"""The words that tell of a switch between two ways of getting something done, read once.

``graph.node.rival`` (``core.signals.node_signals``) takes two things of one kind said in one
answer as alternatives set side by side only when one of their quotes has one of these
phrases, and one told alone with them as set beside the last way of doing it asked about: "I
used to buy one at the station, then I switched to a machine" is a switch; "before the train,
and the stand-up at nine" is two things said together. ``NEAR_SWITCH`` holds the switches
thought about and not made ("I nearly went for a bean-to-cup"). The lists are data
(``words/en/switch.yaml``, STYLE habit 20): a phrase that is not lower-case words is a
``ConfigError`` naming the file.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

from interview_cli.config.yamlio import load_yaml
from interview_cli.errors import ConfigError

SWITCH_FILE = "words/en/switch.yaml"
_PHRASE = re.compile(r"[a-z]+( [a-z]+)*")


def parse_switch_words(data: Any, *, source: str, key: str = "switch") -> re.Pattern[str]:
    """One pattern that finds any of the file's phrases (under ``key``) as whole words."""
    phrases = data.get(key) if isinstance(data, dict) else None
    if not isinstance(phrases, list) or not phrases:
        raise ConfigError(f"{source}: {key}: expected a list of phrases")
    for phrase in phrases:
        if not isinstance(phrase, str) or not _PHRASE.fullmatch(phrase):
            raise ConfigError(f"{source}: {key}: {phrase!r} is not lower-case words")
    alternatives = "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
    return re.compile(rf"\b(?:{alternatives})\b", re.IGNORECASE)


def load_switch_words(key: str = "switch") -> re.Pattern[str]:
    """The shipped list (``near``: the switches thought about and not made)."""
    text = resources.files("interview_cli.config").joinpath(SWITCH_FILE).read_text("utf-8")
    source = f"interview_cli/config/{SWITCH_FILE}"
    return parse_switch_words(load_yaml(text), source=source, key=key)


SWITCH_WORDS = load_switch_words()
NEAR_SWITCH = load_switch_words("near")
