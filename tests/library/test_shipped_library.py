"""The shipped library (methodologies/, concepts/, personas/) loads and is internally consistent.

Checked straight against the pydantic schemas and the signal catalogue (seed 001 "YAML
Configuration Structure" and "Validation"), independently of the loaders, plus the content
the rest of the project relies on: the three methods' node types and strategies, concepts for
every method (one evaluative, with stimulus elements), and personas whose hidden ladders the
offline simulator and the batch evaluation can follow (issue 6). How the weights behave is
tested in test_library_strategy_weights.py.
"""

from __future__ import annotations

import functools
import itertools
from pathlib import Path
from typing import Any

import pytest

from interview_cli.config.schemas import Concept, Methodology, Persona, StrategySpec
from interview_cli.config.signal_catalogue import CATALOGUE_BY_NAME, resolve_weight_key
from interview_cli.config.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[2]
METHOD_FILES = sorted((ROOT / "methodologies").glob("*.yaml"))
CONCEPT_FILES = sorted((ROOT / "concepts").glob("*.yaml"))
PERSONA_FILES = sorted((ROOT / "personas").glob("*.yaml"))


def _load(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as handle:
        data = load_yaml(handle.read())
    assert isinstance(data, dict), f"{path.name}: top level must be a mapping"
    return data


class _Library:
    """The shipped files, validated on first use (a broken file fails the tests that read it,
    and test_every_file_validates names it, instead of breaking collection)."""

    @functools.cached_property
    def methods(self) -> dict[str, Methodology]:
        return {p.stem: Methodology.model_validate(_load(p)) for p in METHOD_FILES}

    @functools.cached_property
    def concepts(self) -> dict[str, Concept]:
        return {p.stem: Concept.model_validate(_load(p)) for p in CONCEPT_FILES}

    @functools.cached_property
    def personas(self) -> dict[str, Persona]:
        return {p.stem: Persona.model_validate(_load(p)) for p in PERSONA_FILES}


LIB = _Library()
METHOD_NAMES = [p.stem for p in METHOD_FILES]


@pytest.mark.parametrize(
    ("path", "model"),
    [(p, Methodology) for p in METHOD_FILES]
    + [(p, Concept) for p in CONCEPT_FILES]
    + [(p, Persona) for p in PERSONA_FILES],
    ids=lambda v: f"{v.parent.name}/{v.name}" if isinstance(v, Path) else "",
)
def test_every_file_validates(path: Path, model: type[Methodology | Concept | Persona]) -> None:
    model.model_validate(_load(path))


# ---------------------------------------------------------------------------------------------
# Methodologies: structure
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", METHOD_FILES, ids=lambda p: p.stem)
def test_methodology_file_is_named_after_its_method(path: Path) -> None:
    assert LIB.methods[path.stem].name == path.stem


def test_the_three_methods_ship() -> None:
    assert set(LIB.methods) >= {"means_end_chain", "jobs_to_be_done", "critical_incident"}


@pytest.mark.parametrize("name", METHOD_NAMES)
def test_every_weight_key_names_a_catalogued_signal_and_qualifier(name: str) -> None:
    method = LIB.methods[name]
    for strategy in method.strategies:
        for key in strategy.signal_weights:
            resolved = resolve_weight_key(key)
            assert resolved is not None, f"{name}: {strategy.name}: unknown weight key {key!r}"
            spec, qualifier = resolved
            # categoricals multiply nothing, so a plain categorical key would silently score 0
            assert qualifier is not None or spec.kind != "categorical", f"{name}: {key}"


@pytest.mark.parametrize("name", METHOD_NAMES)
def test_pool_signals_exist_sit_in_their_pool_and_cover_every_weight(name: str) -> None:
    method = LIB.methods[name]
    listed: set[str] = set()
    for pool, signals in method.signals.items():
        for signal in signals:
            spec = CATALOGUE_BY_NAME.get(signal)
            assert spec is not None, f"{name}: signals.{pool}: unknown signal {signal!r}"
            assert spec.pool == pool, f"{name}: {signal} belongs to pool {spec.pool!r}"
            listed.add(signal)
    for strategy in method.strategies:
        for key in strategy.signal_weights:
            resolved = resolve_weight_key(key)
            assert resolved is not None
            assert resolved[0].name in listed, f"{name}: {key} weighted but not detected"


@pytest.mark.parametrize("name", METHOD_NAMES)
def test_names_are_unique_and_references_resolve(name: str) -> None:
    method = LIB.methods[name]
    strategies = [s.name for s in method.strategies]
    node_types = [n.name for n in method.ontology.nodes]
    edge_types = [e.name for e in method.ontology.edges]
    for names in (strategies, node_types, edge_types):
        assert len(names) == len(set(names)), f"{name}: duplicate names in {names}"
    for phase in ("early", "mid", "late"):
        spec = method.phases.get(phase)
        for key in [*spec.signal_weights, *spec.phase_bonuses]:
            assert key in strategies, f"{name}: phases.{phase} names unknown strategy {key!r}"
    for edge in method.ontology.edges:
        assert edge.permitted_connections, f"{name}: edge {edge.name} permits nothing"
        for source, target in edge.permitted_connections:
            assert {source, target} <= set(node_types), f"{name}: {edge.name} {source}->{target}"


@pytest.mark.parametrize("name", METHOD_NAMES)
def test_exactly_one_closing_strategy_that_summarises_without_a_node(name: str) -> None:
    closing = [s for s in LIB.methods[name].strategies if s.generates_closing_question]
    assert len(closing) == 1, f"{name}: closing strategies {[s.name for s in closing]}"
    assert closing[0].node_binding == "none"
    assert closing[0].focus_mode == "summary"


@pytest.mark.parametrize("name", METHOD_NAMES)
def test_content_is_written_for_real_use(name: str) -> None:
    method = LIB.methods[name]
    assert method.method.goal and method.method.opening_bias and method.method.description
    ontology = method.ontology
    assert ontology.terminal_types, f"{name}: no terminal node type"
    assert len(ontology.extraction_guidelines) >= 5
    assert ontology.relationship_examples and ontology.extractability_criteria
    assert len(ontology.concept_naming_convention) > 100
    for node in ontology.nodes:
        assert len(node.description) > 60 and len(node.examples) >= 3, f"{name}: {node.name}"
    for strategy in method.strategies:
        assert len(strategy.description) > 60 and strategy.signal_weights, strategy.name
    # every edge type has an example the extractor can imitate
    assert set(ontology.relationship_examples) == {e.name for e in ontology.edges}
    assert method.selection == "joint"


def test_means_end_chain_has_the_classic_levels_and_strategies() -> None:
    method = LIB.methods["means_end_chain"]
    levels = {n.name: (n.level, n.terminal) for n in method.ontology.nodes}
    assert levels == {
        "attribute": (1, False),
        "functional_consequence": (2, False),
        "psychosocial_consequence": (3, False),
        "instrumental_value": (4, False),
        "terminal_value": (5, True),
    }
    order = method.ontology.types_by_level
    for low, high in itertools.combinations(order, 2):  # each level up, skips included
        assert method.ontology.is_edge_permitted("leads_to", low, high)
        assert not method.ontology.is_edge_permitted("leads_to", high, low)
    assert {"deepen", "clarify", "explore", "reflect", "revitalize"} <= _strategies(method)
    assert method.strategy("revitalize").node_binding == "none"  # type: ignore[union-attr]
    assert method.strategy("revitalize").focus_mode == "topic"  # type: ignore[union-attr]
    assert _closing(method).name == "reflect"


def test_jobs_to_be_done_types_strategies_and_naming() -> None:
    method = LIB.methods["jobs_to_be_done"]
    types = {n.name for n in method.ontology.nodes}
    assert types == {
        "job_statement",
        "job_context",
        "job_trigger",
        "pain_point",
        "gain_point",
        "solution_approach",
        "emotional_job",
        "social_job",
    }
    assert set(method.ontology.terminal_types) == {"emotional_job", "social_job"}
    assert {
        "explore_situation",
        "probe_alternatives",
        "dig_motivation",
        "uncover_obstacles",
        "clarify_assumption",
        "validate_outcome",
        "revitalize",
    } <= _strategies(method)
    assert _closing(method).name == "validate_outcome"
    assert "VERB-OBJECT" in method.ontology.concept_naming_convention  # seed 002 Path 14


def test_critical_incident_types_and_strategies() -> None:
    method = LIB.methods["critical_incident"]
    types = {n.name for n in method.ontology.nodes}
    assert types == {
        "incident",
        "situation",
        "action",
        "outcome",
        "emotion",
        "attribution",
        "learning",
        "behavior_change",
    }
    assert set(method.ontology.terminal_types) == {"learning", "behavior_change"}
    assert {
        "elicit_incident",
        "deepen_narrative",
        "explore_emotions",
        "probe_attributions",
        "extract_insights",
        "validate",
        "revitalize",
    } <= _strategies(method)
    assert _closing(method).name == "validate"


# ---------------------------------------------------------------------------------------------
# Concepts and personas
# ---------------------------------------------------------------------------------------------


def test_concepts_cover_every_method_and_one_is_an_evaluative_test() -> None:
    assert len(LIB.concepts) >= 5
    assert {"headphones_mec", "coffee_jtbd"} <= set(LIB.concepts)
    assert {c.methodology for c in LIB.concepts.values()} == set(LIB.methods)
    assert any(c.elements for c in LIB.concepts.values())


@pytest.mark.parametrize("path", CONCEPT_FILES, ids=lambda p: p.stem)
def test_concept_is_consistent(path: Path) -> None:
    concept = LIB.concepts[path.stem]
    assert concept.id == path.stem
    assert (ROOT / "methodologies" / f"{concept.methodology}.yaml").is_file()
    assert len(concept.objective) > 120, "an objective a researcher could act on"
    ids = [e.id for e in concept.elements]
    assert len(ids) == len(set(ids))


BEHAVIOURS = {
    "cooperative",
    "brief",
    "verbose_tangential",
    "sceptical",
    "fatiguing",
    "hedging",
    "fixated",
    "retrospective_rationaliser",
}


def test_personas_cover_the_behaviours_with_distinct_traits() -> None:
    assert len(LIB.personas) >= 8
    assert BEHAVIOURS <= set(LIB.personas)
    traits = [p.traits for p in LIB.personas.values()]
    assert len({t.model_dump_json() for t in traits}) == len(traits), "identical traits"
    assert LIB.personas["brief"].traits.verbosity <= 0.2
    assert LIB.personas["verbose_tangential"].traits.verbosity >= 0.8
    assert LIB.personas["verbose_tangential"].off_topic and LIB.personas["fixated"].off_topic
    assert LIB.personas["sceptical"].traits.skepticism >= 0.5
    assert LIB.personas["fatiguing"].traits.patience <= 8
    assert LIB.personas["cooperative"].traits.openness >= 0.8


@pytest.mark.parametrize("path", PERSONA_FILES, ids=lambda p: p.stem)
def test_persona_beliefs_are_consistent_with_their_concepts(path: Path) -> None:
    persona = LIB.personas[path.stem]
    assert persona.id == path.stem
    assert len(persona.profile) > 200 and persona.speech_pattern and persona.deflection_patterns
    assert {"headphones_mec", "coffee_jtbd"} <= set(persona.beliefs)
    assert persona.voice is not None and persona.voice.ceiling, "the shipped ones have a voice"
    for topic, ladders in persona.beliefs.items():
        method = LIB.methods[LIB.concepts[topic].methodology]
        levels = {n.name: n.level for n in method.ontology.nodes}
        for ladder in ladders:
            assert all(r.type is None or r.type in levels for r in ladder), ladder
        codes: list[str] = []
        for ladder in persona.typed_ladders(topic, method):
            rung_levels = [levels[r.type] for r in ladder if r.type]
            assert rung_levels == sorted(rung_levels), f"not concrete -> abstract: {ladder}"
            codes += [r.code for r in ladder]
            # every meaning in the person's own words, several ways
            assert all(3 <= len(r.says) <= 5 for r in ladder), ladder
        # a code in two ladders would leave the simulator unsure which ladder is probed
        assert len(codes) == len(set(codes)), topic


def test_ladders_have_the_shapes_batch_evaluation_needs() -> None:
    mec, jtbd = LIB.methods["means_end_chain"], LIB.methods["jobs_to_be_done"]
    full = []
    for persona in LIB.personas.values():
        ladders = persona.typed_ladders("headphones_mec", mec)
        assert 2 <= len(ladders) <= 3, persona.id
        full.append(any(len(ld) == 5 and ld[-1].type == "terminal_value" for ld in ladders))
        for ladder in persona.typed_ladders("coffee_jtbd", jtbd):
            assert 3 <= len(ladder) <= 5 and all(r.type for r in ladder), persona.id
    assert sum(full) >= len(LIB.personas) - 2, "most personas have a full 5-rung ladder"
    sparse = LIB.personas["low_involvement"]
    assert sparse.traits.knowledge <= 0.5
    assert all(
        ld[-1].type != "terminal_value" for ld in sparse.typed_ladders("headphones_mec", mec)
    )


def _strategies(method: Methodology) -> set[str]:
    return {s.name for s in method.strategies}


def _closing(method: Methodology) -> StrategySpec:
    return next(s for s in method.strategies if s.generates_closing_question)
