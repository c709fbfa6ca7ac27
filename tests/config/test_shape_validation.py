"""`shape: ladder | journey | grid`: what each shape requires, with the file and key named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from typer.testing import CliRunner

from interview_cli.cli.app import app
from interview_cli.config.schemas import Methodology
from interview_cli.config.validation import methodology_issues
from interview_cli.config.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str) -> dict[str, Any]:
    return load_yaml((ROOT / "methodologies" / f"{name}.yaml").read_text(encoding="utf-8"))


def _messages(data: dict[str, Any]) -> dict[str, str]:
    issues = methodology_issues(Methodology.model_validate(data))
    return {".".join(map(str, loc)): message for loc, message in issues}


def test_the_shipped_shapes_are_valid() -> None:
    assert _messages(_load("customer_journey")) == {}
    assert _messages(_load("repertory_grid")) == {}
    assert Methodology.model_validate(_load("means_end_chain")).shape == "ladder"


def test_journey_needs_its_section_and_real_types() -> None:
    data = _load("customer_journey")
    del data["journey"]
    assert "needs a `journey:` section" in _messages(data)["journey"]
    data = _load("customer_journey")
    data["journey"]["emotion_type"] = "feeling"
    assert "'feeling' is not a node type" in _messages(data)["journey.emotion_type"]
    data = _load("customer_journey")
    data["journey"]["sequence_relation"] = "felt"
    assert "must permit [stage, stage]" in _messages(data)["journey.sequence_relation"]
    data["journey"]["valence_scale"] = [0, 2]
    assert "negative to a positive" in _messages(data)["journey.valence_scale"]


def test_grid_scale_elements_and_rating_relation() -> None:
    data = _load("repertory_grid")
    data["grid"]["rating_scale"] = [1, 6]
    data["grid"]["min_elements"] = 4
    data["grid"]["rating_relation"] = "matters_because"
    messages = _messages(data)
    assert "[1, 5] or [1, 7], got [1, 6]" in messages["grid.rating_scale"]
    assert "at least 6 elements" in messages["grid.min_elements"]
    assert "must permit [element, construct]" in messages["grid.rating_relation"]


def test_a_section_without_its_shape_and_a_ladder_without_terminal() -> None:
    data = _load("means_end_chain")
    data["grid"] = {}
    assert "needs `shape: grid`" in _messages(data)["grid"]
    journey = _load("customer_journey")
    for node in journey["ontology"]["nodes"]:
        node["terminal"] = False
    assert _messages(journey) == {}  # a journey needs no terminal type; a ladder does
    journey["shape"] = "ladder"
    del journey["journey"]
    assert "no node type is terminal" in _messages(journey)["ontology.nodes"]


def test_an_unknown_shape_and_a_small_grid_concept_fail_validate(tmp_path: Path) -> None:
    (tmp_path / "methodologies").mkdir()
    (tmp_path / "concepts").mkdir()
    method = _load("repertory_grid")
    method["shape"] = "spiral"
    bad = tmp_path / "methodologies" / "repertory_grid.yaml"
    bad.write_text(yaml.safe_dump(method, sort_keys=False), encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(bad)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "repertory_grid.yaml: shape:" in result.stderr

    method["shape"] = "grid"
    bad.write_text(yaml.safe_dump(method, sort_keys=False), encoding="utf-8")
    concept = load_yaml((ROOT / "concepts" / "transport_modes_grid.yaml").read_text())
    concept["elements"] = concept["elements"][:4]
    small = tmp_path / "concepts" / "transport_modes_grid.yaml"
    small.write_text(yaml.safe_dump(concept, sort_keys=False), encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(bad), str(small)])
    assert result.exit_code == 2
    assert "transport_modes_grid.yaml: elements: a repertory grid" in result.stderr
    assert "needs at least 6 elements, this concept lists 4" in result.stderr


def test_methodologies_listing_shows_the_shape() -> None:
    result = CliRunner().invoke(app, ["methodologies", "--json"])
    shapes = {r["name"]: r["shape"] for r in json.loads(result.stdout)}
    assert shapes["customer_journey"] == "journey" and shapes["repertory_grid"] == "grid"
    assert shapes["means_end_chain"] == "ladder"


def test_focus_types_name_node_types_of_the_ontology(tmp_path: Path) -> None:
    data = _load("repertory_grid")
    data["strategies"][1]["focus_types"] = ["constuct"]
    message = _messages(data)["strategies.1.focus_types.0"]
    assert "'constuct', which the ontology does not define (did you mean 'construct'?)" in message
    path = tmp_path / "my_grid.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    assert "my_grid.yaml" in result.output and "focus_types" in result.output


def test_the_recap_reads_back_node_types_of_the_ontology() -> None:
    data = _load("jobs_to_be_done")
    assert _messages(data) == {}
    data["recap_first"] = ["job_statment"]
    assert "'job_statment' is not a node type" in _messages(data)["recap_first.0"]
