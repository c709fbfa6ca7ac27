"""Cross-field checks (seed 001 "Validation") on plain models: no files involved."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from interview_cli.config.schemas import RECORDED, Concept, Methodology, Persona
from interview_cli.config.tuning import Habit, VetoTuning
from interview_cli.config.validation import (
    concept_issues,
    methodology_issues,
    persona_issues,
    persona_warnings,
    weight_key_problem,
)
from interview_cli.config.yamlio import load_yaml

SAMPLE = Path(__file__).parent / "sample_library"


def sample(kind_dir: str, name: str) -> dict[str, Any]:
    return load_yaml((SAMPLE / kind_dir / f"{name}.yaml").read_text())


@pytest.fixture
def mdata() -> dict[str, Any]:
    return copy.deepcopy(sample("methodologies", "mini_ladder"))


def issues_of(data: dict[str, Any]) -> list[tuple[tuple[str | int, ...], str]]:
    return methodology_issues(Methodology.model_validate(data))


def test_the_sample_methodology_is_clean(mdata: dict[str, Any]) -> None:
    assert issues_of(mdata) == []


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("llm.response_depth.surface", None),
        ("graph.node.exhausted.false", None),
        ("graph.max_depth", None),
        ("meta.interview.phase.late", None),
        (
            "llm.respnse_depth",
            "unknown signal 'llm.respnse_depth' (did you mean 'llm.response_depth'?)",
        ),
        ("totally.made_up", "unknown signal 'totally.made_up'"),
        (
            "llm.response_depth.medium",
            "'medium' is not a qualifier of signal 'llm.response_depth'; allowed: surface, "
            "shallow, moderate, deep",
        ),
        (
            "graph.node.exhausted.maybe",
            "'maybe' is not a qualifier of signal 'graph.node.exhausted'; allowed: true, false",
        ),
    ],
)
def test_weight_keys_resolve_through_the_catalogue(key: str, expected: str | None) -> None:
    assert weight_key_problem(key) == expected


def test_int_signals_take_no_qualifier() -> None:
    problem = weight_key_problem("graph.node_count.high")
    assert problem is not None and "takes no qualifier" in problem


def test_unknown_signal_in_weights_names_strategy_and_key(mdata: dict[str, Any]) -> None:
    mdata["strategies"][1]["signal_weights"]["llm.engagment.high"] = 0.4
    assert issues_of(mdata) == [
        (
            ("strategies", 1, "signal_weights", "llm.engagment.high"),
            "unknown signal 'llm.engagment.high' (did you mean 'llm.engagement'?) "
            "(strategy 'explore')",
        )
    ]


def test_signals_section_names_and_pools(mdata: dict[str, Any]) -> None:
    mdata["signals"]["graph"].append("graph.nonsense")
    mdata["signals"]["llm"].append("graph.max_depth")
    mdata["signals"]["vibes"] = ["llm.valence"]
    locs = {loc: msg for loc, msg in issues_of(mdata)}
    assert locs[("signals", "graph", 2)] == "unknown signal 'graph.nonsense'"
    assert (
        locs[("signals", "llm", 1)] == "signal 'graph.max_depth' belongs to pool 'graph', not 'llm'"
    )
    assert locs[("signals", "vibes")].startswith(
        "unknown signal pool 'vibes'; pools: coverage, graph"
    )


def test_duplicate_strategy_names(mdata: dict[str, Any]) -> None:
    mdata["strategies"].append({"name": "explore", "family": "explore", "signal_weights": {}})
    assert issues_of(mdata) == [(("strategies", 3, "name"), "duplicate strategy name 'explore'")]


def test_a_breadth_check_is_node_less(
    mdata: dict[str, Any],
) -> None:
    mdata["strategies"][0]["breadth_check"] = True
    mdata["strategies"][0]["node_binding"] = "required"
    name = mdata["strategies"][0]["name"]
    (problem,) = issues_of(mdata)
    assert problem[0] == ("strategies", 0, "breadth_check")
    assert f"strategy '{name}' is a breadth check" in problem[1]
    assert "node_binding: none" in problem[1]
    # a methodology without a breadth check is fine: the stop guard then waits for none
    del mdata["strategies"][0]["breadth_check"]
    assert issues_of(mdata) == []


@pytest.mark.parametrize(
    ("section", "switch", "value"),
    [
        ("saturation", "breadth_check_before_stop", True),
        ("vetoes", "answered_why", False),
        ("saturation", "little_to_say_hesitation_empty", True),
        ("vetoes", "doubtful_focus", True),
    ],
)
def test_a_retired_switch_is_refused_with_its_name_and_what_to_do(
    mdata: dict[str, Any], section: str, switch: str, value: bool
) -> None:
    mdata.setdefault("tuning", {}).setdefault(section, {})[switch] = value
    with pytest.raises(ValidationError) as caught:
        Methodology.model_validate(mdata)
    message = str(caught.value)
    name = f"{section}.{switch}"
    assert f"{name} is no longer a setting: it is a habit the interviewer always keeps" in message
    assert "delete the line" in message


def test_only_a_recorded_snapshot_may_say_which_habits_it_ran_without(
    mdata: dict[str, Any],
) -> None:
    mdata.setdefault("tuning", {})["ran_without"] = ["answered_why"]
    with pytest.raises(ValidationError, match="a methodology cannot set it"):
        Methodology.model_validate(mdata)
    recorded = Methodology.model_validate(mdata, context=RECORDED)
    assert not recorded.tuning.follows(Habit.ANSWERED_WHY)
    assert recorded.tuning.follows(Habit.DOUBTFUL_FOCUS)
    # ... and a recorded snapshot's old switches are read, not refused
    mdata["tuning"]["vetoes"] = {"answered_why": True, "fruitless_probe_limit": 3}
    assert Methodology.model_validate(mdata, context=RECORDED).tuning.vetoes == VetoTuning(
        fruitless_probe_limit=3
    )


def test_a_closing_strategy_cannot_be_the_breadth_check(mdata: dict[str, Any]) -> None:
    closing = next(
        i for i, s in enumerate(mdata["strategies"]) if s.get("generates_closing_question")
    )
    mdata["strategies"][closing].update(breadth_check=True, node_binding="none")
    (problem,) = issues_of(mdata)
    assert problem[0] == ("strategies", closing, "breadth_check")
    assert "closes the interview" in problem[1]


def test_phase_weights_and_bonuses_must_name_defined_strategies(mdata: dict[str, Any]) -> None:
    mdata["phases"]["mid"] = {"signal_weights": {"deepn": 1.2}, "phase_bonuses": {"ladder": 0.1}}
    assert issues_of(mdata) == [
        (
            ("phases", "mid", "signal_weights", "deepn"),
            "phase 'mid' names undefined strategy 'deepn' (did you mean 'deepen'?); "
            "defined: deepen, explore, reflect",
        ),
        (
            ("phases", "mid", "phase_bonuses", "ladder"),
            "phase 'mid' names undefined strategy 'ladder'; defined: deepen, explore, reflect",
        ),
    ]


def test_knowledge_ceiling_strategies_must_be_defined(mdata: dict[str, Any]) -> None:
    mdata["tuning"]["vetoes"]["knowledge_ceiling_strategies"] = ["deepen", "probe"]
    ((loc, message),) = issues_of(mdata)
    assert loc == ("tuning", "vetoes", "knowledge_ceiling_strategies", 1)
    assert message.startswith("the knowledge-ceiling veto names undefined strategy 'probe'")


def test_edges_must_permit_defined_node_types(mdata: dict[str, Any]) -> None:
    mdata["ontology"]["edges"][0]["permitted_connections"].append(["benefit", "emotion"])
    assert issues_of(mdata) == [
        (
            ("ontology", "edges", 0, "permitted_connections", 2, 1),
            "edge 'leads_to' permits undefined node type 'emotion'; "
            "defined: feature, benefit, value",
        )
    ]


def test_node_and_edge_names_unique_and_a_terminal_type_required(mdata: dict[str, Any]) -> None:
    mdata["ontology"]["nodes"][2]["terminal"] = False
    mdata["ontology"]["nodes"].append({"name": "benefit", "level": 4})
    mdata["ontology"]["edges"].append({"name": "leads_to"})
    messages = [message for _, message in issues_of(mdata)]
    assert "duplicate node type 'benefit'" in messages
    assert "duplicate edge type 'leads_to'" in messages
    assert any(m.startswith("no node type is terminal") for m in messages)


def test_tuning_consistency(mdata: dict[str, Any]) -> None:
    mdata["tuning"]["saturation"] = {"velocity_weight": 0.7}
    mdata["tuning"]["bin_low"] = 0.8
    messages = [message for _, message in issues_of(mdata)]
    assert messages == [
        "velocity_weight + edge_density_weight + turn_floor_weight must sum to 1, got 1.1",
        "bin_low (0.8) must be below bin_high (0.75)",
    ]


def test_all_problems_are_collected_not_just_the_first(mdata: dict[str, Any]) -> None:
    mdata["strategies"][0]["signal_weights"]["nope.one"] = 1.0
    mdata["strategies"][2]["signal_weights"]["nope.two"] = 1.0
    mdata["phases"]["late"]["phase_bonuses"] = {"close": 0.3}
    assert len(issues_of(mdata)) == 3


def test_concept_methodology_must_exist_and_element_ids_be_unique() -> None:
    data = sample("concepts", "mini_study")
    assert concept_issues(Concept.model_validate(data), {"mini_ladder"}) == []
    data["methodology"] = "mini_ladr"
    data["elements"].append({"id": "price", "label": "Price again"})
    assert concept_issues(Concept.model_validate(data), {"mini_ladder", "other"}) == [
        (
            ("methodology",),
            "'mini_ladr' is not a methodology in the library (did you mean 'mini_ladder'?); "
            "available: mini_ladder, other",
        ),
        (("elements", 2, "id"), "duplicate element id 'price'"),
    ]


def test_persona_rung_types_and_empty_ladders(mdata: dict[str, Any]) -> None:
    methodology = Methodology.model_validate(mdata)
    data = sample("personas", "mini_person")

    def lookup(concept_id: str) -> Methodology | None:
        return methodology if concept_id == "mini_study" else None

    assert persona_issues(Persona.model_validate(data), lookup) == []
    data["beliefs"]["mini_study"][1][0]["type"] = "feeture"
    data["beliefs"]["mini_study"].append([])
    data["beliefs"]["unknown_study"] = [[{"code": "x", "type": "anything"}]]
    assert persona_issues(Persona.model_validate(data), lookup) == [
        (
            ("beliefs", "mini_study", 1, 0, "type"),
            "rung type 'feeture' is not a node type of 'mini_ladder' (did you mean 'feature'?); "
            "types: feature, benefit, value",
        ),
        (("beliefs", "mini_study", 2), "empty ladder; give at least one rung"),
    ]


def test_beliefs_about_a_journey_study_belong_under_journeys(mdata: dict[str, Any]) -> None:
    journey = Methodology.model_validate(
        {**mdata, "shape": "journey"} if "shape" not in mdata else mdata
    ).model_copy(update={"shape": "journey"})
    data = sample("personas", "mini_person")
    issues = persona_issues(Persona.model_validate(data), lambda concept_id: journey)
    assert issues == [
        (
            ("beliefs", "mini_study"),
            "'mini_study' is a journey study; its ground truth goes under journeys, not beliefs",
        )
    ]


def test_phase_multipliers_must_not_be_negative_but_bonuses_may(mdata: dict[str, Any]) -> None:
    mdata["phases"]["mid"] = {
        "signal_weights": {"explore": -5, "deepen": 0},
        "phase_bonuses": {"explore": -0.3},
    }
    assert issues_of(mdata) == [
        (
            ("phases", "mid", "signal_weights", "explore"),
            "phase multiplier must be >= 0 (0 switches 'explore' off in phase 'mid'), got -5; "
            "to push a strategy down, use a negative phase_bonuses entry",
        )
    ]


@pytest.mark.parametrize("code", ["en", "de", "pt-BR", "pt_BR", "zh-Hant", "es-419", "yue"])
def test_a_concept_language_is_a_language_code(code: str) -> None:
    data = sample("concepts", "mini_study") | {"language": code}
    assert concept_issues(Concept.model_validate(data), {"mini_ladder"}) == []


@pytest.mark.parametrize("code", ["zzzzzz", "english", "e", "en-", "de-DEU1", ""])
def test_a_concept_language_that_is_no_code_is_refused(code: str) -> None:
    data = sample("concepts", "mini_study") | {"language": code}
    ((loc, message),) = concept_issues(Concept.model_validate(data), {"mini_ladder"})
    assert loc == ("language",)
    assert message == (
        f"{code!r} is not a language code; use a 2-3 letter ISO 639 code, "
        "optionally with a region, e.g. en, de or pt-BR; or remove it to follow "
        "the respondent"
    )


def test_the_available_hint_lists_only_what_is_given_as_valid() -> None:
    data = sample("concepts", "mini_study") | {"methodology": "nope"}
    ((_, message),) = concept_issues(
        Concept.model_validate(data), {"mini_ladder", "bad_syntax"}, available={"mini_ladder"}
    )
    assert message.endswith("available: mini_ladder")


KNOWN = {"headphones_mec", "coffee_jtbd", "customer_support_ci"}


def test_a_topic_close_to_a_concept_is_a_typo() -> None:
    data = sample("personas", "mini_person")
    data["beliefs"] = {"headphone_mec": data["beliefs"]["mini_study"]}
    persona = Persona.model_validate(data)
    assert persona_issues(persona, lambda name: None, known=KNOWN) == [
        (
            ("beliefs", "headphone_mec"),
            "no concept 'headphone_mec' in the library; did you mean headphones_mec? "
            "(ground truth under a misspelt topic is never used)",
        )
    ]
    assert persona_warnings(persona, KNOWN) == []  # an error, not also a warning


def test_a_topic_far_from_every_concept_is_a_warning_only() -> None:
    data = sample("personas", "mini_person")
    data["beliefs"] = {"oat_milk_mec": data["beliefs"]["mini_study"], "coffee_jtbd": [["x"]]}
    persona = Persona.model_validate(data)
    assert persona_issues(persona, lambda name: None, known=KNOWN) == []
    assert persona_warnings(persona, KNOWN) == [
        (
            ("beliefs", "oat_milk_mec"),
            "no concept 'oat_milk_mec' in the library (known: coffee_jtbd, customer_support_ci, "
            "headphones_mec); its beliefs are kept but not checked",
        )
    ]
