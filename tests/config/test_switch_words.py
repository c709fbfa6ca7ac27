"""The words that tell of a switch (``config.switch_words``): shipped, checked as read."""

from __future__ import annotations

import pytest

from interview_cli.config.switch_words import SWITCH_WORDS, parse_switch_words
from interview_cli.errors import ConfigError


@pytest.mark.parametrize(
    ("quote", "switch"),
    [
        ("I used to buy a flat white at the station every day", True),
        ("then I switched to a machine at home", True),
        ("the bus instead of the car", True),
        ("weekday mornings before the train", False),
        ("stand-up at nine then more", False),
        ("a refused nightswitch", False),  # whole words only
    ],
)
def test_the_shipped_list_finds_a_switch_in_the_respondents_words(quote: str, switch: bool) -> None:
    assert bool(SWITCH_WORDS.search(quote)) is switch


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "switch: expected a list of phrases"),
        ({"switch": ["used to", "Switched!"]}, "switch: 'Switched!' is not lower-case words"),
    ],
)
def test_a_bad_list_is_one_line_naming_the_file(data: object, message: str) -> None:
    with pytest.raises(ConfigError, match="words/en/switch.yaml: " + message):
        parse_switch_words(data, source="words/en/switch.yaml")
