"""The phrase lists are data (``llm/offline/lexicon/<language>/<phenomenon>.yaml``): every
shipped file reads and compiles, a phrase matches as people type it, and a broken file is
named with what is wrong."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interview_cli.llm.offline.lexicon import phrases
from interview_cli.llm.offline.lexicon.phrases import (
    LexiconError,
    kinds,
    literal_regex,
    load_file,
    phrase_pattern,
    phrase_regex,
)


@pytest.mark.parametrize("kind", kinds("en"))
def test_every_shipped_phrase_file_reads_and_compiles(kind: str) -> None:
    spec = load_file(phrases.HERE / "en" / f"{kind}.yaml")
    assert spec.about.strip() and (spec.phrases or spec.patterns)
    assert phrase_pattern(kind).pattern


@pytest.mark.parametrize(
    ("phrase", "text", "found"),
    [
        ("i don't know", "Hmm, I don’t know really", True),  # a curly apostrophe
        ("i don't know", "i dont know tbh", True),  # none at all, typed on a phone
        ("i don't know", "I   don't\nknow", True),  # any whitespace
        ("ha", "that was harsh", False),  # whole words only
        ("tbh", "tbh it's fine", True),
    ],
)
def test_a_phrase_matches_as_people_type_it(phrase: str, text: str, found: bool) -> None:
    assert bool(re.search(phrase_regex(phrase), text, re.IGNORECASE)) is found


def test_the_languages_are_tried_together(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for language, phrase in (("en", "no idea"), ("de", "keine ahnung")):
        (tmp_path / language).mkdir()
        (tmp_path / language / "x.yaml").write_text(f"about: test\nphrases: ['{phrase}']\n")
    monkeypatch.setattr(phrases, "HERE", tmp_path)
    pattern = phrases.phrase_pattern.__wrapped__("x", ("en", "de"))
    assert pattern.search("Keine Ahnung.") and pattern.search("No idea.")


def test_a_part_is_written_once_and_stands_in_every_pattern_that_names_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "x.yaml"
    text = (
        "about: x\npatterns: ['^{{kettle}}', ', {{kettle}}$']\nparts: {kettle: 'kettle.s? boil'}\n"
    )
    path.write_text(text, encoding="utf-8")
    assert load_file(path).patterns == ["^kettle.s? boil", ", kettle.s? boil$"]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("phrases: [a]\n", "about"),
        ("about: x\nphrases: [yes]\n", "phrases"),  # YAML reads a bare yes as a boolean
        ("about: x\npatterns: ['(unclosed']\n", "patterns[0]"),
        ("about: x\npatterns: [a]\npatterns: [b]\n", "key said twice"),
        ("about: x\npatterns: ['{{nowhere}} b']\n", "no part named 'nowhere'"),
    ],
)
def test_a_broken_phrase_file_is_named_with_what_is_wrong(
    tmp_path: Path, text: str, named: str
) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LexiconError, match=re.escape(named)) as raised:
        load_file(path)
    assert str(path) in str(raised.value)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Oh wait, it's the bus", "Oh wait"),  # the longer phrase wins over its start
        ("oh, the bus", "oh"),
        ("i dont know why", "i dont know why"),
        ("I don’t know.", "I don’t know"),
        ("oh ha, harsh", "oh"),
        ("harsh", None),  # whole words only, at either end
    ],
)
def test_a_list_of_phrases_is_searched_as_one_trie(text: str, found: str | None) -> None:
    regex = literal_regex(["oh", "oh wait", "ha", "i don't know", "i don't know why"])
    match = re.search(regex, text, re.IGNORECASE)
    assert (match.group(0) if match else None) == found


def test_a_phrase_file_is_read_once_and_again_when_it_changes(tmp_path: Path) -> None:
    path = tmp_path / "kind.yaml"
    path.write_text("about: x\nphrases: [oh well]\n", encoding="utf-8")
    first = load_file(path)
    assert load_file(path) is first  # every phenomenon reads the same files: once each
    path.write_text("about: x\nphrases: [oh well, never mind]\n", encoding="utf-8")
    assert load_file(path).phrases == ["oh well", "never mind"]
