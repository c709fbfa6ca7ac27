"""benchmarks/policy_comparison.py: which persona sets it reports and who has little to say.

The benchmark itself runs minutes of interviews, so only its set-up is tested here: by
default it adds the second held-out set next to the tuned and first held-out ones, and each
held-out set's "closed within 10 turns" target is about that set's quiet respondent.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "policy_comparison", ROOT / "benchmarks" / "policy_comparison.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    # Its dataclass looks its module up by name while the class is built.
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def _args(**given: object) -> argparse.Namespace:
    defaults = {
        "concept": "headphones_mec",
        "holdout_concept": "ebike_commute_mec",
        "holdout2_dir": None,
        "holdout2_concept": "home_broadband_mec",
        "holdout3_concept": "dental_practice_mec",
        "holdout4_concept": "hairdresser_mec",
        "holdout5_concept": "mattress_mec",
        "holdout6_concept": "gym_membership_mec",
        "holdout7_concept": "robot_vacuum_mec",
        "holdout8_concept": "language_app_mec",
        "dev_concept": "pet_food_mec",
        "dev2_concept": "walking_boots_mec",
        "dev3_concept": "washing_machine_mec",
        "dev4_concept": "phone_plan_mec",
        "dev5_concept": "lawnmower_mec",
        "dev6_concept": "family_car_mec",
        "dev7_concept": "meal_kit_mec",
        "dev8_concept": "oat_milk_mec",
        "sets": None,
    }
    return argparse.Namespace(**{**defaults, **given})


def test_by_default_the_second_held_out_set_is_reported_after_the_others(
    bench: ModuleType,
) -> None:
    sets = bench.persona_sets(_args())
    assert list(sets) == [
        "tuned",
        "held-out",
        "held-out 2",
        "held-out 3",
        "held-out 4",
        "held-out 5",
        "held-out 6",
        "held-out 7",
        "held-out 8",
        "dev",
        "dev 2",
        "dev 3",
        "dev 4",
        "dev 5",
        "dev 6",
        "dev 7",
        "dev 8",
    ]
    assert sets["held-out 3"][1:] == ("personas/holdout3/", "dental_practice_mec")
    assert sets["held-out 4"][1:] == ("personas/holdout4/", "hairdresser_mec")
    assert sets["held-out 5"][1:] == ("personas/holdout5/", "mattress_mec")
    assert sets["held-out 6"][1:] == ("personas/holdout6/", "gym_membership_mec")
    assert sets["held-out 7"][1:] == ("personas/holdout7/", "robot_vacuum_mec")
    assert sets["held-out 8"][1:] == ("personas/holdout8/", "language_app_mec")
    assert sets["dev 7"][1:] == ("personas/dev7/", "meal_kit_mec")
    assert sets["dev 8"][1:] == ("personas/dev8/", "oat_milk_mec")
    assert {"held-out 7", "held-out 8", "dev 7"} <= set(bench.WITH_TARGETS)
    directory, shown, concept = sets["held-out 2"]
    assert directory == ROOT / "personas" / "holdout2"
    assert (shown, concept) == ("personas/holdout2/", "home_broadband_mec")
    assert sets["held-out"][2] == "ebike_commute_mec"


def test_sets_picks_some_and_names_the_choices_when_wrong(bench: ModuleType) -> None:
    assert list(bench.persona_sets(_args(sets=["held-out 3", "tuned"]))) == ["tuned", "held-out 3"]
    with pytest.raises(SystemExit, match="no set named held-out 9; choose from tuned, held-out"):
        bench.persona_sets(_args(sets=["held-out 9"]))
    assert list(bench.persona_sets(_args(sets=["dev 7", "held-out 8"]))) == [
        "held-out 8",
        "dev 7",
    ]


def test_another_directory_can_stand_in_for_the_second_set(
    bench: ModuleType, tmp_path: Path
) -> None:
    sets = bench.persona_sets(_args(holdout2_dir=tmp_path, holdout2_concept="x_mec"))
    assert sets["held-out 2"] == (tmp_path.resolve(), f"{tmp_path}/", "x_mec")


def test_each_held_out_set_names_its_own_respondent_with_little_to_say(
    bench: ModuleType,
) -> None:
    assert bench.little_to_say(ROOT / "personas" / "holdout") == ["retired_allotment"]
    assert bench.little_to_say(ROOT / "personas" / "holdout2") == ["gran_video_calls"]
    assert bench.little_to_say(ROOT / "personas" / "holdout5") == ["nights_picker_box_mattress"]
    assert bench.little_to_say(ROOT / "personas" / "holdout6") == ["scaffolder_lifts_after_work"]


def test_the_fourth_dev_set_is_reported_with_targets_for_its_four_quiet_respondents(
    bench: ModuleType,
) -> None:
    assert bench.persona_sets(_args())["dev 4"][1:] == ("personas/dev4/", "phone_plan_mec")
    assert "dev 4" in bench.WITH_TARGETS
    assert bench.little_to_say(ROOT / "personas" / "dev4") == [
        "i_guess_sixth_former",
        "polite_vague_church_warden",
        "short_fuse_night_nurse",
        "two_words_lorry_driver",
    ]


def test_the_fifth_dev_set_is_reported_with_targets_for_its_two_quiet_respondents(
    bench: ModuleType,
) -> None:
    assert bench.persona_sets(_args())["dev 5"][1:] == ("personas/dev5/", "lawnmower_mec")
    assert "dev 5" in bench.WITH_TARGETS
    assert bench.little_to_say(ROOT / "personas" / "dev5") == [
        "hard_to_say_renter",
        "plain_facts_dads_petrol",
    ]


def test_the_sixth_dev_set_is_reported_with_targets_for_its_one_quiet_respondent(
    bench: ModuleType,
) -> None:
    assert bench.persona_sets(_args())["dev 6"][1:] == ("personas/dev6/", "family_car_mec")
    assert "dev 6" in bench.WITH_TARGETS
    assert bench.little_to_say(ROOT / "personas" / "dev6") == ["its_grand_apprentice"]


def _evaluation(turns: int, persona: str = "quiet") -> dict[str, object]:
    return {
        "persona": persona,
        "terminal_reachable": True,
        "terminal_reached": True,
        "rung_recall": 0.5,
        "same_node_reasks": [],
        "complaints": [],
        "ended_early": False,
        "ladders_unopened": [],
        "turns": turns,
        "strategy_mix": {"deepen": turns},
    }


def test_the_quiet_respondent_target_reads_that_respondents_turns(bench: ModuleType) -> None:
    row = bench.Row.of([_evaluation(8), _evaluation(12)])
    rows = {policy: row for policy in bench.POLICIES}
    by_persona = {"quiet": [_evaluation(8), _evaluation(12)]}
    late = bench.targets(rows, by_persona, ["quiet"])[-1]
    assert late.startswith("  [ ] quiet closed within 10 turns (turns: 8, 12)")
    met = bench.targets(rows, {"quiet": [_evaluation(8), _evaluation(10)]}, ["quiet"])[-1]
    assert met.startswith("  [x] quiet closed within 10 turns (turns: 8, 10)")
    none = bench.targets(rows, by_persona, [])[-1]
    assert none.startswith("  [ ]") and "no respondent with little to say" in none


def test_early_ends_say_how_many_were_the_quiet_respondent_closed_on_purpose(
    bench: ModuleType,
) -> None:
    quiet = {**_evaluation(9), "ended_early": True, "ladders_unopened": 2}
    other = {**_evaluation(14, "talker"), "ended_early": True, "ladders_unopened": 1}
    rows = {policy: bench.Row.of([quiet, other]) for policy in bench.POLICIES}
    early = bench.targets(rows, {"quiet": [quiet], "talker": [other]}, ["quiet"])[-2]
    # both count against the target; the line says which one was the closing asked for
    assert early == (
        "  [ ] early ends with a ladder never opened 2 of 2 <= 10% "
        "(1 of them the respondent with little to say)"
    )
