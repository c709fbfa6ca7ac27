"""The held-out personas (personas/holdout/): valid, shaped for evaluation, kept apart.

They are the respondents no policy is tuned on: another domain (commuting by bike or e-bike)
than the shipped personas and concepts, their own words (no rung shares its wording with a
prompt example of any methodology), and a subdirectory the library does not scan, so
`interview batch personas/` and `interview personas` never mix them into the tuned figures.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from interview_cli.cli.app import app
from interview_cli.cli.batch import resolve_personas
from interview_cli.config.library import Library
from interview_cli.config.schemas import Methodology, Persona

ROOT = Path(__file__).resolve().parents[2]
HOLDOUT = ROOT / "personas" / "holdout"
FILES = sorted(HOLDOUT.glob("*.yaml"))
CONCEPTS = {
    "means_end_chain": "ebike_commute_mec",
    "jobs_to_be_done": "ebike_commute_jtbd",
    "critical_incident": "ebike_commute_ci",
}


def _persona(path: Path) -> Persona:
    return Persona.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library.discover(extra_roots=[ROOT], cwd=ROOT, env={})


@pytest.fixture(scope="module")
def methods(lib: Library) -> dict[str, Methodology]:
    return {name: lib.methodology(name).value for name in CONCEPTS}


def test_at_least_six_holdout_personas_with_the_behaviours_that_matter() -> None:
    personas = {p.stem: _persona(p) for p in FILES}
    assert len(personas) >= 6
    assert all(p.id == stem for stem, p in personas.items())
    traits = [p.traits for p in personas.values()]
    assert any(t.verbosity <= 0.2 and t.knowledge <= 0.5 for t in traits), "little to say"
    assert any(t.repetition_tolerance <= 0.2 for t in traits), "irritated by repetition"
    assert len({t.model_dump_json() for t in traits}) == len(traits), "identical traits"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_holdout_persona_has_ladders_for_every_method(
    path: Path, methods: dict[str, Methodology]
) -> None:
    persona = _persona(path)
    assert len(persona.profile) > 200 and persona.speech_pattern and persona.deflection_patterns
    assert set(persona.ladders) == set(CONCEPTS)
    mec = persona.typed_ladders(methods["means_end_chain"])
    assert 3 <= len(mec) <= 5
    labels: list[str] = []
    for method in methods.values():
        levels = {n.name: n.level for n in method.ontology.nodes}
        for ladder in persona.typed_ladders(method):
            rung_levels = [levels[r.type] for r in ladder if r.type]
            assert rung_levels == sorted(rung_levels), f"not concrete -> abstract: {ladder}"
            labels += [r.label for r in ladder]
    assert len(labels) == len(set(labels)), "a label in two ladders"
    for label, phrasings in persona.aliases.items():
        assert label in labels and 1 <= len(phrasings) <= 3


def test_several_ladders_reach_a_value_and_some_personas_can_state_one(
    methods: dict[str, Methodology],
) -> None:
    mec = methods["means_end_chain"]
    full = statable = 0
    for path in FILES:
        persona = _persona(path)
        ends = [ld for ld in persona.typed_ladders(mec) if ld[-1].type == "terminal_value"]
        full += bool(ends)
        statable += bool(ends) and persona.traits.knowledge == 1.0
    assert full >= len(FILES) - 1 and statable >= 3


def _example_phrases(method: Methodology) -> set[str]:
    ontology = method.ontology
    phrases = {e.lower() for n in ontology.nodes for e in n.examples}
    for examples in ontology.relationship_examples.values():
        for example in examples:
            phrases |= {str(example.get(k, "")).lower() for k in ("source", "target")}
    phrases |= {q.lower() for q in _quoted(ontology.concept_naming_convention)}
    return phrases - {""}


def _quoted(text: str) -> list[str]:
    return [part for i, part in enumerate(text.split('"')) if i % 2 == 1]


def test_no_rung_is_worded_like_a_prompt_example(methods: dict[str, Methodology]) -> None:
    examples = set().union(*(_example_phrases(m) for m in methods.values()))
    for path in FILES:
        persona = _persona(path)
        for ladders in persona.ladders.values():
            for ladder in ladders:
                for rung in ladder:
                    assert rung.label.lower() not in examples, (path.stem, rung.label)


def test_the_cooperative_ladder_is_no_longer_the_extraction_example(
    lib: Library, methods: dict[str, Methodology]
) -> None:
    mec = methods["means_end_chain"]
    chain = {
        str(e.get(k, "")).lower()
        for e in mec.ontology.relationship_examples["leads_to"]
        for k in ("source", "target")
    }
    for persona in lib.personas():
        for ladder in persona.value.typed_ladders(mec):
            assert not chain & {r.label.lower() for r in ladder}, persona.value.id


def test_the_library_and_a_batch_of_personas_dir_leave_the_holdout_out(lib: Library) -> None:
    holdout_ids = {p.stem for p in FILES}
    assert not holdout_ids & set(lib.ids("persona"))
    shipped = resolve_personas(lib, [str(ROOT / "personas")])
    assert {p.value.id for p in shipped} == {p.stem for p in (ROOT / "personas").glob("*.yaml")}
    held = resolve_personas(lib, [str(HOLDOUT)])
    assert {p.value.id for p in held} == holdout_ids


def invoke(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def test_validate_and_a_holdout_batch_from_the_cli(tmp_path: Path) -> None:
    checked = invoke("validate", str(HOLDOUT), *(str(ROOT / "concepts" / f"{c}.yaml")
                                                 for c in CONCEPTS.values()))  # fmt: skip
    assert checked.exit_code == 0, checked.output
    assert f"{len(FILES)} personas valid" in checked.output
    listed = invoke("personas", "--json")
    assert listed.exit_code == 0 and "retired_allotment" not in listed.output
    for concept in CONCEPTS.values():
        out = tmp_path / concept
        result = invoke(
            "batch", str(HOLDOUT), "-c", concept, "--max-turns", "3", "--out", str(out), "--json"
        )
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert {i["persona"] for i in data["interviews"]} == {p.stem for p in FILES}
        assert all(i["status"] == "completed" for i in data["interviews"])
        assert all(i["evaluation"]["rungs_total"] > 0 for i in data["interviews"])
