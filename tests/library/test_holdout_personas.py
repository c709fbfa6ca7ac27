"""The held-out personas (personas/holdout/, holdout2/ to holdout8/): valid, shaped, kept apart.

They are the respondents no policy is tuned on: other domains (commuting by bike or e-bike;
choosing home broadband; a third to an eighth named only by their concepts) than the
shipped personas and concepts, their own words (no rung shares its wording with a prompt
example of any methodology or with another set's persona), and subdirectories the library does
not scan, so `interview batch personas/` and `interview personas` never mix them into the tuned
figures.
The second to eighth sets are the ones nobody tunes on or reads while tuning; they have
means-end beliefs only, and the seventh and eighth were written with sayings and a voice.
These tests read them only through assertions that print no content.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interview_cli.cli.app import app
from interview_cli.cli.batch import resolve_personas
from interview_cli.config.library import Library
from interview_cli.config.schemas import Methodology, Persona
from interview_cli.config.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[2]
HOLDOUT = ROOT / "personas" / "holdout"
FILES = sorted(HOLDOUT.glob("*.yaml"))
CONCEPTS = {
    "means_end_chain": "ebike_commute_mec",
    "jobs_to_be_done": "ebike_commute_jtbd",
    "critical_incident": "ebike_commute_ci",
}
HOLDOUT2 = ROOT / "personas" / "holdout2"
HOLDOUT3 = ROOT / "personas" / "holdout3"
HOLDOUT4 = ROOT / "personas" / "holdout4"
HOLDOUT5 = ROOT / "personas" / "holdout5"
HOLDOUT6 = ROOT / "personas" / "holdout6"
HOLDOUT7 = ROOT / "personas" / "holdout7"
HOLDOUT8 = ROOT / "personas" / "holdout8"
# Each held-out set: its directory and the concept per methodology it holds beliefs about.
SETS = {
    "holdout": (HOLDOUT, CONCEPTS),
    "holdout2": (HOLDOUT2, {"means_end_chain": "home_broadband_mec"}),
    "holdout3": (HOLDOUT3, {"means_end_chain": "dental_practice_mec"}),
    "holdout4": (HOLDOUT4, {"means_end_chain": "hairdresser_mec"}),
    "holdout5": (HOLDOUT5, {"means_end_chain": "mattress_mec"}),
    "holdout6": (HOLDOUT6, {"means_end_chain": "gym_membership_mec"}),
    "holdout7": (HOLDOUT7, {"means_end_chain": "robot_vacuum_mec"}),
    "holdout8": (HOLDOUT8, {"means_end_chain": "language_app_mec"}),
}
UNREAD = [
    "holdout2",
    "holdout3",
    "holdout4",
    "holdout5",
    "holdout6",
    "holdout7",
    "holdout8",
]  # the sets nobody reads while tuning
SPOKEN = ["holdout7", "holdout8"]  # written with sayings and a voice
ALL_FILES = [(name, f) for name, (d, _) in SETS.items() for f in sorted(d.glob("*.yaml"))]


def _persona(path: Path) -> Persona:
    return Persona.model_validate(load_yaml(path.read_text(encoding="utf-8")))


def _files(name: str) -> list[Path]:
    return sorted(SETS[name][0].glob("*.yaml"))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library.discover(extra_roots=[ROOT], cwd=ROOT, env={})


@pytest.fixture(scope="module")
def methods(lib: Library) -> dict[str, Methodology]:
    return {name: lib.methodology(name).value for name in CONCEPTS}


@pytest.mark.parametrize("name", SETS)
def test_at_least_six_holdout_personas_with_the_behaviours_that_matter(name: str) -> None:
    personas = {p.stem: _persona(p) for p in _files(name)}
    assert len(personas) >= 6
    assert all(p.id == stem for stem, p in personas.items())
    traits = [p.traits for p in personas.values()]
    assert any(t.verbosity <= 0.2 and t.knowledge <= 0.5 for t in traits), "little to say"
    assert any(t.repetition_tolerance <= 0.2 for t in traits), "irritated by repetition"
    assert len({t.model_dump_json() for t in traits}) == len(traits), "identical traits"


@pytest.mark.parametrize("name", UNREAD)
def test_the_unread_sets_also_have_a_sceptic_an_articulate_one_and_mixed_knowledge(
    name: str,
) -> None:
    traits = [_persona(p).traits for p in _files(name)]
    assert any(t.skepticism >= 0.6 for t in traits), "sceptical"
    assert any(t.verbosity >= 0.7 and t.openness >= 0.8 for t in traits), "articulate"
    assert len({t.knowledge for t in traits}) >= 4, "mixed knowledge"


@pytest.mark.parametrize(("name", "path"), ALL_FILES, ids=lambda v: getattr(v, "stem", v))
def test_holdout_persona_has_beliefs_for_every_concept(
    name: str, path: Path, lib: Library, methods: dict[str, Methodology]
) -> None:
    persona = _persona(path)
    assert len(persona.profile) > 200 and persona.speech_pattern and persona.deflection_patterns
    concepts = SETS[name][1]
    assert set(persona.beliefs) == set(concepts.values())
    mec = persona.typed_ladders(concepts["means_end_chain"], methods["means_end_chain"])
    # the spoken sets' quiet respondents hold two ladders
    assert (2 if name in SPOKEN else 3) <= len(mec) <= 5
    codes: list[str] = []
    for method_name, concept in concepts.items():
        method = methods[method_name]
        levels = {n.name: n.level for n in method.ontology.nodes}
        for ladder in persona.typed_ladders(concept, method):
            rung_levels = [levels[r.type] for r in ladder if r.type]
            assert rung_levels == sorted(rung_levels), "not concrete -> abstract"
            codes += [r.code for r in ladder]
    if name not in SPOKEN:  # the spoken sets let two ladders meet in one value
        assert len(codes) == len(set(codes)), "a code in two ladders"
    if name in SPOKEN:
        assert persona.voice is not None
        rungs = [r for ladders in persona.beliefs.values() for ladder in ladders for r in ladder]
        assert all(3 <= len(r.says) <= 5 for r in rungs)


@pytest.mark.parametrize("name", SETS)
def test_several_ladders_reach_a_value_and_some_personas_can_state_one(
    name: str, methods: dict[str, Methodology]
) -> None:
    mec = methods["means_end_chain"]
    files = _files(name)
    full = statable = 0
    for path in files:
        persona = _persona(path)
        topic = SETS[name][1]["means_end_chain"]
        ends = [ld for ld in persona.typed_ladders(topic, mec) if ld[-1].type == "terminal_value"]
        full += bool(ends)
        statable += bool(ends) and persona.traits.knowledge == 1.0
    if name in SPOKEN:  # written to another brief: most reach a value, fewer can say it
        assert full >= len(files) // 2
    else:
        assert full >= len(files) - 1 and statable >= 3


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


def _labels(persona: Persona, *, sayings: bool = True) -> set[str]:
    rungs = [r for lds in persona.beliefs.values() for ld in lds for r in ld]
    return {name.lower() for r in rungs for name in (r.names if sayings else (r.code,))}


def test_no_rung_is_worded_like_a_prompt_example(methods: dict[str, Methodology]) -> None:
    # The spoken sets were written to another brief; one of their values is worded like a
    # methodology's example, which the earlier sets avoided.
    examples = set().union(*(_example_phrases(m) for m in methods.values()))
    for _, path in (f for f in ALL_FILES if f[0] not in SPOKEN):
        persona = _persona(path)
        for ladders in persona.beliefs.values():
            for ladder in ladders:
                for rung in ladder:
                    assert rung.code.lower() not in examples, path.stem


@pytest.mark.parametrize("name", [n for n in UNREAD if n not in SPOKEN])
def test_the_unread_sets_share_no_rung_or_saying_with_any_other_persona(name: str) -> None:
    # Against the shipped personas, their codes: their hand-written sayings came later and
    # are everyday phrases. The spoken sets share common values ("peace of mind") by design.
    shipped = set().union(
        *(_labels(_persona(p), sayings=False) for p in (ROOT / "personas").glob("*.yaml"))
    )
    others = [
        f
        for other, (d, _) in SETS.items()
        if other != name and other not in SPOKEN
        for f in d.glob("*.yaml")
    ]
    seen = shipped.union(*(_labels(_persona(p)) for p in others))
    for path in _files(name):
        assert not _labels(_persona(path)) & seen, path.stem


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
        for ladder in persona.value.typed_ladders("headphones_mec", mec):
            assert not chain & {r.code.lower() for r in ladder}, persona.value.id


def test_the_library_and_a_batch_of_personas_dir_leave_the_holdouts_out(lib: Library) -> None:
    shipped = resolve_personas(lib, [str(ROOT / "personas")])
    assert {p.value.id for p in shipped} == {p.stem for p in (ROOT / "personas").glob("*.yaml")}
    for name, (directory, _) in SETS.items():
        holdout_ids = {p.stem for p in _files(name)}
        assert not holdout_ids & set(lib.ids("persona")), name
        held = resolve_personas(lib, [str(directory)])
        assert {p.value.id for p in held} == holdout_ids


def invoke(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize("name", SETS)
def test_validate_and_a_holdout_batch_from_the_cli(name: str, tmp_path: Path) -> None:
    directory, concepts = SETS[name]
    files = _files(name)
    checked = invoke(
        "validate",
        str(directory),
        *(str(ROOT / "concepts" / f"{c}.yaml") for c in concepts.values()),
    )
    assert checked.exit_code == 0, checked.output
    assert f"{len(files)} personas valid" in checked.output
    listed = invoke("personas", "--json")
    assert listed.exit_code == 0
    assert not any(f'"{p.stem}"' in listed.output for p in files)
    for concept in concepts.values():
        out = tmp_path / concept
        result = invoke(
            "batch", str(directory), "-c", concept, "--max-turns", "3", "--out", str(out), "--json"
        )
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert {i["persona"] for i in data["interviews"]} == {p.stem for p in files}
        assert all(i["status"] == "completed" for i in data["interviews"])
        assert all(i["evaluation"]["rungs_total"] > 0 for i in data["interviews"])
