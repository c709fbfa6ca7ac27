"""`interview validate` and the listings, end to end through the Typer app.

Each broken-file case of issue 2 "Done when" must exit 2 with one clear line naming the file
and the key, and no traceback.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner, Result

from interview_cli.cli.app import app
from interview_cli.config.yamlio import load_yaml

SAMPLE = Path(__file__).parents[1] / "config" / "sample_library"


@pytest.fixture
def lib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A valid copy of the sample library at ./lib, with tmp_path as the working directory.

    The bundled library is switched off so these tests see only the sample (the shipped
    content has its own test in tests/config).
    """
    shutil.copytree(SAMPLE, tmp_path / "lib")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("interview_cli.config.library.bundled_root", lambda: None)
    return tmp_path / "lib"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def edit(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    data = load_yaml(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def error_lines(result: Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("error: ")]


def assert_clean_failure(result: Result, expected_line: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)
    assert f"error: {expected_line}" in error_lines(result), result.stderr


def test_valid_library_passes(lib: Path) -> None:
    result = invoke("validate", "lib")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "OK: 1 methodology, 1 concept, 1 persona valid"
    assert result.stderr == ""


def test_validate_without_paths_checks_the_search_path(lib: Path) -> None:
    result = invoke("validate", "--library", "lib")
    assert result.exit_code == 0, result.output
    assert result.stdout == "OK: 1 methodology, 1 concept, 1 persona valid in lib (--library)\n"


# -- the "Done when" cases -----------------------------------------------------------------


def test_bad_yaml_syntax(lib: Path) -> None:
    (lib / "concepts" / "mini_study.yaml").write_text("id: mini_study\nname: [oops\nobjective: x\n")
    result = invoke("validate", "lib")
    assert_clean_failure(
        result,
        "lib/concepts/mini_study.yaml: line 3, column 10: YAML syntax error: expected ',' or ']', "
        "but got ':', while parsing a flow sequence (line 2)",
    )


def test_unknown_signal_in_weights(lib: Path) -> None:
    def change(m: dict[str, Any]) -> None:
        m["strategies"][0]["signal_weights"]["llm.depth_of_answer"] = 0.5

    edit(lib / "methodologies" / "mini_ladder.yaml", change)
    assert_clean_failure(
        invoke("validate", "lib"),
        'lib/methodologies/mini_ladder.yaml: strategies[0].signal_weights["llm.depth_of_answer"]: '
        "unknown signal 'llm.depth_of_answer' (strategy 'deepen')",
    )


def test_a_methodology_still_setting_a_retired_switch_is_told_to_delete_it(lib: Path) -> None:
    # a copy of last release's laddering file: the switch is now how the tool always asks
    def change(m: dict[str, Any]) -> None:
        m.setdefault("tuning", {}).setdefault("vetoes", {})["answered_why"] = True

    edit(lib / "methodologies" / "mini_ladder.yaml", change)
    assert_clean_failure(
        invoke("validate", "lib"),
        "lib/methodologies/mini_ladder.yaml: tuning: vetoes.answered_why is no longer a "
        "setting: it is a habit the interviewer always keeps (docs/how-to/add-a-strategy.md, "
        "'Habits'); delete the line",
    )


def test_phase_referencing_an_undefined_strategy(lib: Path) -> None:
    def change(m: dict[str, Any]) -> None:
        m["phases"]["mid"] = {"phase_bonuses": {"ladder_up": 0.3}}

    edit(lib / "methodologies" / "mini_ladder.yaml", change)
    assert_clean_failure(
        invoke("validate", "lib"),
        "lib/methodologies/mini_ladder.yaml: phases.mid.phase_bonuses.ladder_up: phase 'mid' names "
        "undefined strategy 'ladder_up'; defined: deepen, explore, reflect",
    )


def test_edge_permitting_an_undefined_node_type(lib: Path) -> None:
    def change(m: dict[str, Any]) -> None:
        m["ontology"]["edges"][0]["permitted_connections"][1] = ["benefit", "emotion"]

    edit(lib / "methodologies" / "mini_ladder.yaml", change)
    assert_clean_failure(
        invoke("validate", "lib"),
        "lib/methodologies/mini_ladder.yaml: ontology.edges[0].permitted_connections[1][1]: edge "
        "'leads_to' permits undefined node type 'emotion'; defined: feature, benefit, value",
    )


def test_persona_without_id(lib: Path) -> None:
    edit(lib / "personas" / "mini_person.yaml", lambda p: p.pop("id"))
    assert_clean_failure(
        invoke("validate", "lib/personas/mini_person.yaml"),
        "lib/personas/mini_person.yaml: id: required key is missing",
    )


def test_trait_out_of_range(lib: Path) -> None:
    edit(lib / "personas" / "mini_person.yaml", lambda p: p["traits"].update(skepticism=2))
    assert_clean_failure(
        invoke("validate", "lib"),
        "lib/personas/mini_person.yaml: traits.skepticism: "
        "Input should be less than or equal to 1, got 2",
    )


def test_concept_naming_a_missing_methodology(lib: Path) -> None:
    edit(lib / "concepts" / "mini_study.yaml", lambda c: c.update(methodology="grounded_theory"))
    result = invoke("validate", "--library", "lib")
    assert result.exit_code == 2
    (line,) = error_lines(result)
    assert line == (
        "error: lib/concepts/mini_study.yaml: methodology: 'grounded_theory' is not a methodology "
        "in the library; available: mini_ladder"
    )
    assert "Traceback" not in result.output


def test_every_problem_is_listed_once_per_line(lib: Path) -> None:
    edit(lib / "personas" / "mini_person.yaml", lambda p: p.pop("id"))
    edit(lib / "concepts" / "mini_study.yaml", lambda c: c.update(methodology="nope"))
    (lib / "methodologies" / "extra.yaml").write_text("")
    result = invoke("validate", "lib")
    assert result.exit_code == 2
    assert [line.split(": ")[1] for line in error_lines(result)] == [
        "lib/methodologies/extra.yaml",
        "lib/concepts/mini_study.yaml",
        "lib/personas/mini_person.yaml",
    ]
    # Every file is counted, the broken ones too (the empty methodology, the persona).
    assert result.stderr.splitlines()[-1] == (
        "3 problems; checked 2 methodologies, 1 concept, 1 persona; 3 files with errors"
    )


def test_validate_json(lib: Path) -> None:
    edit(lib / "personas" / "mini_person.yaml", lambda p: p["traits"].update(openness=-1))
    result = invoke("validate", "lib", "--json")
    assert result.exit_code == 2
    payload = json.loads(result.stdout)
    assert payload["ok"] is False
    assert {c["kind"] for c in payload["checked"]} == {"methodology", "concept", "persona"}
    assert payload["problems"] == [
        "lib/personas/mini_person.yaml: traits.openness: "
        "Input should be greater than or equal to 0, got -1"
    ]


# -- listings ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "key", "expected"),
    [
        ("methodologies", "name", "mini_ladder"),
        ("concepts", "id", "mini_study"),
        ("personas", "id", "mini_person"),
    ],
)
def test_listings_print_parseable_json(lib: Path, command: str, key: str, expected: str) -> None:
    result = invoke(command, "--library", "lib", "--json")
    assert result.exit_code == 0, result.output
    records = json.loads(result.stdout)
    assert [r[key] for r in records] == sorted(r[key] for r in records)
    (mine,) = [r for r in records if r[key] == expected]
    assert mine["root"] == str(lib.resolve())
    assert Path(mine["path"]).is_absolute() and len(mine["sha256"]) == 64


def test_listing_records_carry_the_useful_fields(lib: Path) -> None:
    methodologies = json.loads(invoke("methodologies", "-L", "lib", "--json").stdout)
    mini = next(m for m in methodologies if m["name"] == "mini_ladder")
    assert mini["node_types"] == ["feature", "benefit", "value"]
    assert mini["terminal_types"] == ["value"]
    assert mini["closing_strategies"] == ["reflect"]
    personas = json.loads(invoke("personas", "-L", "lib", "--json").stdout)
    person = next(p for p in personas if p["id"] == "mini_person")
    assert person["traits"]["openness"] == 0.9 and person["beliefs"] == {"mini_study": 2}


@pytest.mark.parametrize(
    ("command", "title", "cell"),
    [
        ("methodologies", "Methodologies", "3. value (terminal)"),
        ("concepts", "Concepts", "mini_study"),
        ("personas", "Personas", "mini_person"),
    ],
)
def test_listings_render_tables(lib: Path, command: str, title: str, cell: str) -> None:
    result = invoke(command, "--library", "lib")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(title)
    assert cell in result.stdout


def test_listing_skips_broken_files_with_a_warning(lib: Path) -> None:
    (lib / "concepts" / "zz_broken.yaml").write_text("id: [\n")
    result = invoke("concepts", "--library", "lib", "--json")
    assert result.exit_code == 0
    assert "mini_study" in [c["id"] for c in json.loads(result.stdout)]
    assert result.stderr.splitlines()[0].startswith(
        "warning: skipped: lib/concepts/zz_broken.yaml: line 2, column 1: YAML syntax error"
    )


def test_missing_library_directory_is_a_usage_error(lib: Path) -> None:
    result = invoke("concepts", "--library", "nowhere")
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: --library: nowhere is not a directory"


def test_environment_variable_adds_a_root(lib: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INTERVIEW_LIBRARY", str(lib))
    records = json.loads(invoke("concepts", "--json").stdout)
    (mine,) = [r for r in records if r["id"] == "mini_study"]
    assert mine["root"] == str(lib.resolve())
