"""YAML through libyaml when PyYAML has it: the same data as the pure-Python safe loader and
dumper, the strict library loader's duplicate keys and error wording unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from interview_cli.config import loader as strict
from interview_cli.config.loader import parse_yaml
from interview_cli.config.yamlio import HAS_LIBYAML, SafeDumper, SafeLoader, dump_yaml, load_yaml
from interview_cli.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = sorted(
    p for kind in ("methodologies", "concepts", "personas") for p in (ROOT / kind).glob("*.yaml")
)
needs_libyaml = pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML built without C")


@needs_libyaml
def test_the_c_loader_and_dumper_are_used_when_libyaml_is_there() -> None:
    assert HAS_LIBYAML
    assert SafeLoader is yaml.CSafeLoader
    assert SafeDumper is yaml.CSafeDumper
    assert strict._FastStrictSafeLoader.__mro__[1:3] == (strict._DuplicateKeys, yaml.CSafeLoader)


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shipped_file_loads_to_the_same_data(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert load_yaml(text) == yaml.safe_load(text)
    assert parse_yaml(path, text).data == yaml.safe_load(text)


PROMPT_OPTIONS = {"sort_keys": False, "allow_unicode": True, "width": 100}


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shipped_value_dumps_to_yaml_that_reads_back_the_same(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for value in [data, *data.values(), *(data.get("ontology") or {}).values()]:
        assert yaml.safe_load(dump_yaml(value, **PROMPT_OPTIONS)) == value


@pytest.mark.parametrize("path", sorted((ROOT / "methodologies").glob("*.yaml")), ids=str)
def test_prompt_parts_of_shipped_methodologies_read_as_before(path: Path) -> None:
    # libyaml folds long quoted strings at other places than PyYAML (same data, other text).
    # The free-form values the extraction prompt dumps must come out as they always did, or
    # the prompts (and the token estimates sessions record) of the shipped library change.
    ontology = yaml.safe_load(path.read_text(encoding="utf-8"))["ontology"]
    for key in ("relationship_examples", "extractability_criteria"):
        value = ontology.get(key)
        if value is not None and not isinstance(value, str):
            assert dump_yaml(value, **PROMPT_OPTIONS) == yaml.safe_dump(value, **PROMPT_OPTIONS)


def test_duplicate_keys_are_found_by_the_fast_loader_too() -> None:
    text = "id: a\nname: A\nid: b\nnested:\n  x: 1\n  x: 2\n"
    for loader_class in (strict._FastStrictSafeLoader, strict._StrictSafeLoader):
        data, duplicates = strict._run(loader_class, text)
        assert data == {"id": "b", "name": "A", "nested": {"x": 2}}
        assert duplicates == [("x", 6), ("id", 3)] or duplicates == [("id", 3), ("x", 6)]


@pytest.mark.parametrize(
    "text",
    ["id: a\nobjective: x: y\n", "id: x\nname: [unclosed\nobjective: y\n", "a: 'open\n"],
)
def test_a_broken_file_is_worded_as_the_python_loader_words_it(text: str) -> None:
    with pytest.raises(yaml.YAMLError) as python:
        yaml.load(text, Loader=yaml.SafeLoader)  # noqa: S506
    expected = strict.yaml_error_line("f.yaml", python.value)
    with pytest.raises(ConfigError) as exc:
        parse_yaml(Path("f.yaml"), text)
    assert str(exc.value) == expected


@needs_libyaml
def test_libyaml_words_errors_otherwise_so_the_reparse_matters() -> None:
    text = "id: a\nobjective: x: y\n"
    with pytest.raises(yaml.YAMLError) as fast:
        yaml.load(text, Loader=yaml.CSafeLoader)  # noqa: S506
    assert "mapping values are not allowed here" not in str(fast.value)
    with pytest.raises(ConfigError) as exc:
        parse_yaml(Path("f.yaml"), text)
    assert "mapping values are not allowed here" in str(exc.value)
