"""The slot matcher's word lists (config.meaning_words): the shipped files load, and a broken
list is refused naming its file and the word."""

from __future__ import annotations

import pytest

from interview_cli.config.meaning_words import MEANING_WORDS, parse_meaning_words
from interview_cli.errors import ConfigError

LIGHT = {"evaluative": ["good", "decent"], "numbers": ["two"], "time_units": ["day"]}
SENSES = {
    "senses": {"calm": {"plus": ["calm"], "minus": ["stressed"]}, "kin": {"words": ["kid"]}},
    "inverters": ["less"],
    "forms": {"seen": "see"},
    "phrases": {"in charge": "control"},
}


def parse(light: object = None, senses: object = None):
    return parse_meaning_words(
        LIGHT if light is None else light,
        SENSES if senses is None else senses,
        light_source="light.yaml",
        senses_source="senses.yaml",
    )


def test_the_shipped_lists_load() -> None:
    assert {"decent", "proper", "thing"} <= MEANING_WORDS.light
    assert "four" in MEANING_WORDS.numbers and "four" not in MEANING_WORDS.light
    assert "day" in MEANING_WORDS.units
    assert {"calm", "money", "noise"} <= {s.name for s in MEANING_WORDS.senses}
    assert "cancelling" in MEANING_WORDS.inverters
    assert MEANING_WORDS.forms["seen"] == "see"


def test_a_small_pair_of_files_parses() -> None:
    words = parse()
    assert words.light == {"good", "decent", "day"} and words.numbers == {"two"}
    assert words.units == {"day"}
    assert [(s.name, s.plus, s.minus, s.words) for s in words.senses] == [
        ("calm", ("calm",), ("stressed",), ()),
        ("kin", (), (), ("kid",)),
    ]
    assert words.phrases == (("in charge", "control"),)


@pytest.mark.parametrize(
    ("light", "senses", "message"),
    [
        (
            None,
            {"senses": {"a": {"words": ["kid"]}, "b": {"plus": ["kid"]}}},
            "'kid' is in both a and b",
        ),
        ({"evaluative": ["calm"]}, None, "light.yaml: 'calm' is light but names calm"),
        ({"evaluative": ["two words"]}, None, "light.yaml: evaluative: 'two words' is not one"),
        (None, {"senses": {"a": {"pole": ["x"]}}}, "senses.yaml: senses.a: expected"),
        (None, {"senses": {}}, "senses.yaml: senses: expected a mapping"),
        (None, {**SENSES, "phrases": {"charge": "x"}}, "phrases: 'charge' is not two or more"),
        (None, {**SENSES, "forms": {"seen": 3}}, "forms: 'seen': 3: expected one lower-case"),
        ([], None, "light.yaml: expected a mapping"),
    ],
)
def test_a_broken_list_names_the_file_and_the_word(
    light: object, senses: object, message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        parse(light, senses)
