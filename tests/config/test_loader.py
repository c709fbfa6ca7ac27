"""Loading YAML into the schemas: every failure is one `file: key.path: message` line."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from interview_cli.config.loader import (
    Loaded,
    detect_kind,
    format_loc,
    load_concept,
    load_methodology,
    load_persona,
    read_yaml,
    yaml_files,
)
from interview_cli.config.schemas import Concept, Methodology, Persona
from interview_cli.errors import ConfigError

SAMPLE = Path(__file__).parent / "sample_library"


@pytest.fixture
def lib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the sample library in tmp_path, with tmp_path as the working directory."""
    shutil.copytree(SAMPLE, tmp_path / "lib")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "lib"


def problems_of(exc: pytest.ExceptionInfo[ConfigError]) -> list[str]:
    return exc.value.problems


def test_loads_the_sample_files_with_source_and_hash(lib: Path) -> None:
    loaded = load_methodology(lib / "methodologies" / "mini_ladder.yaml", root=lib)
    assert isinstance(loaded, Loaded)
    assert isinstance(loaded.value, Methodology)
    assert loaded.id == "mini_ladder"
    assert loaded.root == lib
    raw = (lib / "methodologies" / "mini_ladder.yaml").read_bytes()
    assert loaded.text == raw.decode("utf-8")
    assert loaded.sha256 == hashlib.sha256(raw).hexdigest()

    concept = load_concept(lib / "concepts" / "mini_study.yaml")
    assert isinstance(concept.value, Concept)
    assert concept.id == "mini_study" and concept.root is None
    assert [e.id for e in concept.value.elements] == ["price", "colour"]

    persona = load_persona(lib / "personas" / "mini_person.yaml")
    assert isinstance(persona.value, Persona)
    assert persona.value.traits.openness == 0.9
    assert persona.value.traits.knowledge == 1.0  # documented default


def test_crlf_text_is_kept_byte_exact_for_the_hash(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_bytes(b"id: c\r\nname: C\r\nmethodology: m\r\nobjective: o\r\n")
    loaded = load_concept(path)
    assert loaded.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()


def test_yaml_syntax_error_names_file_line_and_column(lib: Path) -> None:
    path = lib / "concepts" / "mini_study.yaml"
    path.write_text("id: x\nname: [unclosed\nobjective: y\n")
    with pytest.raises(ConfigError) as exc:
        load_concept(path)
    (line,) = problems_of(exc)
    assert line.startswith("lib/concepts/mini_study.yaml: line 3, column 10: YAML syntax error: ")
    assert "\n" not in line


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "lib/concepts/mini_study.yaml: the file is empty, expected a concept"),
        (
            "# only a comment\n",
            "lib/concepts/mini_study.yaml: the file is empty, expected a concept",
        ),
        (
            "- a\n- b\n",
            "lib/concepts/mini_study.yaml: expected a concept (a mapping of keys at the top "
            "level), found a list",
        ),
        (
            "just words\n",
            "lib/concepts/mini_study.yaml: expected a concept (a mapping of keys at the top "
            "level), found plain text",
        ),
    ],
)
def test_empty_or_non_mapping_file_is_said_clearly(lib: Path, text: str, expected: str) -> None:
    path = lib / "concepts" / "mini_study.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as exc:
        load_concept(path)
    assert problems_of(exc) == [expected]


def test_duplicate_keys_are_problems_not_silently_dropped(lib: Path) -> None:
    path = lib / "concepts" / "mini_study.yaml"
    path.write_text("id: a\nname: A\nid: b\nmethodology: m\nobjective: o\nobjective: p\n")
    with pytest.raises(ConfigError) as exc:
        load_concept(path)
    assert problems_of(exc) == [
        "lib/concepts/mini_study.yaml: line 3: duplicate key 'id' "
        "(only the last value would be used)",
        "lib/concepts/mini_study.yaml: line 6: duplicate key 'objective' (only the last value "
        "would be used)",
    ]


def test_missing_and_unreadable_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match=r"^nope\.yaml: no such file$"):
        load_concept(tmp_path / "nope.yaml")
    (tmp_path / "bin.yaml").write_bytes(b"id: \xff\xfe\n")
    with pytest.raises(ConfigError, match=r"^bin\.yaml: not UTF-8 text"):
        load_concept(tmp_path / "bin.yaml")


def test_persona_without_id_and_trait_out_of_range_are_all_reported(lib: Path) -> None:
    path = lib / "personas" / "mini_person.yaml"
    text = (
        path.read_text().replace("id: mini_person\n", "").replace("openness: 0.9", "openness: 1.5")
    )
    path.write_text(text)
    with pytest.raises(ConfigError) as exc:
        load_persona(path)
    assert problems_of(exc) == [
        "lib/personas/mini_person.yaml: id: required key is missing",
        "lib/personas/mini_person.yaml: traits.openness: Input should be less than or equal to 1, "
        "got 1.5",
    ]
    assert exc.value.message == "2 problems in 1 file"


def test_unknown_key_suggests_the_closest_field(lib: Path) -> None:
    path = lib / "methodologies" / "mini_ladder.yaml"
    path.write_text(
        path.read_text().replace("  - name: explore\n", "  - name: explore\n    focus: x\n")
    )
    with pytest.raises(ConfigError) as exc:
        load_methodology(path)
    (line,) = problems_of(exc)
    assert line.startswith(
        "lib/methodologies/mini_ladder.yaml: strategies[1].focus: unknown key "
        "(did you mean 'focus_mode'?); allowed: breadth_check, climbs, description, focus_mode,"
    )


def test_enum_values_are_enforced_with_the_allowed_values(lib: Path) -> None:
    path = lib / "methodologies" / "mini_ladder.yaml"
    path.write_text(path.read_text().replace("node_binding: none", "node_binding: optional"))
    with pytest.raises(ConfigError) as exc:
        load_methodology(path)
    assert problems_of(exc) == [
        "lib/methodologies/mini_ladder.yaml: strategies[2].node_binding: Input should be "
        "'required' or 'none', got 'optional'"
    ]


def test_nested_rung_location_uses_indexes(lib: Path) -> None:
    path = lib / "personas" / "mini_person.yaml"
    path.write_text(path.read_text().replace("type: benefit", "type: [benefit]"))
    with pytest.raises(ConfigError) as exc:
        load_persona(path)
    (line,) = problems_of(exc)
    assert line.startswith("lib/personas/mini_person.yaml: beliefs.mini_study[1][1].type: ")


def test_format_loc() -> None:
    assert format_loc(()) == ""
    assert format_loc(("method", "name")) == "method.name"
    assert format_loc(("strategies", 0, "signal_weights", "llm.response_depth.low")) == (
        'strategies[0].signal_weights["llm.response_depth.low"]'
    )
    assert format_loc(("aliases", "long battery")) == 'aliases["long battery"]'


def test_detect_kind_from_directory_then_keys(tmp_path: Path) -> None:
    assert detect_kind(tmp_path / "personas" / "x.yaml") == "persona"
    assert detect_kind(tmp_path / "x.yaml", {"method": {}, "ontology": {}}) == "methodology"
    assert detect_kind(tmp_path / "x.yaml", {"id": "p", "profile": "..."}) == "persona"
    assert detect_kind(tmp_path / "x.yaml", {"id": "c", "methodology": "m"}) == "concept"
    assert detect_kind(tmp_path / "x.yaml", {"hello": 1}) is None


def test_yaml_files_lists_only_visible_yaml(tmp_path: Path) -> None:
    for name in ("b.yaml", "a.yml", ".hidden.yaml", "notes.txt", ".gitkeep"):
        (tmp_path / name).write_text("x: 1\n")
    assert [p.name for p in yaml_files(tmp_path)] == ["a.yml", "b.yaml"]
    assert yaml_files(tmp_path / "missing") == []


def test_read_yaml_rejects_non_text_top_level_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.yaml").write_text("yes: 1\n")
    with pytest.raises(ConfigError, match="top-level key True is not text; quote it"):
        read_yaml(tmp_path / "x.yaml")


def test_an_override_file_may_be_empty_where_asked(tmp_path: Path) -> None:
    # Override files (INTERVIEW_LLM_CONFIG, INTERVIEW_PRICING) have only optional keys.
    path = tmp_path / "x.yaml"
    path.write_text("# nothing set yet\n")
    assert read_yaml(path, allow_empty=True).data == {}
    with pytest.raises(ConfigError, match="the file is empty, expected a library file"):
        read_yaml(path)
