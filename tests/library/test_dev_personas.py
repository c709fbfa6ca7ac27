"""The development persona sets: valid, shaped, kept apart.

personas/dev/ (concept pet_food_mec), personas/dev2/ (concept walking_boots_mec),
personas/dev3/ (concept washing_machine_mec), personas/dev4/ (concept phone_plan_mec),
personas/dev5/ (concept lawnmower_mec), personas/dev6/ (concept family_car_mec) and
personas/dev7/ (concept meal_kit_mec, written with sayings and a voice from the start) and
personas/dev8/ (concept oat_milk_mec: two who tire with more ladders than they get to tell,
written by a helper who never read the interviewer).
Unlike the held-out sets, their transcripts are read while tuning; they still must load, carry
the behaviours each set exists for, stay out of the tuned library listing, and run in a batch.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from interview_cli.cli.app import app
from interview_cli.config.library import Library
from interview_cli.config.schemas import Persona
from interview_cli.config.yamlio import load_yaml
from interview_cli.simulation.respondents.simulator import known_rungs

ROOT = Path(__file__).resolve().parents[2]
SETS = {
    "dev": "pet_food_mec",
    "dev2": "walking_boots_mec",
    "dev3": "washing_machine_mec",
    "dev4": "phone_plan_mec",
    "dev5": "lawnmower_mec",
    "dev6": "family_car_mec",
    "dev7": "meal_kit_mec",
    "dev8": "oat_milk_mec",
}
FILES = [p for name in SETS for p in sorted((ROOT / "personas" / name).glob("*.yaml"))]


def _persona(path: Path) -> Persona:
    return Persona.model_validate(load_yaml(path.read_text(encoding="utf-8")))


def _set(name: str) -> dict[str, Persona]:
    return {p.stem: _persona(p) for p in sorted((ROOT / "personas" / name).glob("*.yaml"))}


@pytest.mark.parametrize("name", SETS)
def test_eight_dev_personas_with_the_behaviours_the_set_is_for(name: str) -> None:
    personas = _set(name)
    assert len(personas) == 8
    assert all(p.id == stem for stem, p in personas.items())
    traits = [p.traits for p in personas.values()]
    assert any(t.verbosity <= 0.2 and t.knowledge <= 0.5 for t in traits), "little to say"
    assert any(t.repetition_tolerance <= 0.2 and t.patience <= 8 for t in traits), "irritated"
    assert any(t.verbosity >= 0.8 for t in traits), "verbose"
    assert any(t.skepticism >= 0.6 for t in traits), "sceptical"
    assert len({t.model_dump_json() for t in traits}) == len(traits), "identical traits"


def test_dev2_has_two_quiet_respondents_who_differ_and_one_without_a_terminal_value() -> None:
    personas = _set("dev2")
    quiet = [
        p for p in personas.values() if p.traits.verbosity <= 0.2 and p.traits.knowledge <= 0.5
    ]
    assert len(quiet) == 2
    dunno = ("dunno", "don't know", "not sure", "no idea")

    def says_dunno(p: Persona) -> int:
        return sum(any(d in line.lower() for d in dunno) for line in p.deflection_patterns)

    assert sorted(says_dunno(p) > 0 for p in quiet) == [False, True], "one dunno, one plain"
    ladders = [p.beliefs["walking_boots_mec"] for p in personas.values()]
    assert any(max(len(ladder) for ladder in own) <= 4 for own in ladders), "no value to state"
    assert any(len(ladder) == 5 for own in ladders for ladder in own), "values reached too"


def test_dev3_has_a_respondent_without_a_terminal_value_and_ladders_that_reach_one() -> None:
    ladders = [p.beliefs["washing_machine_mec"] for p in _set("dev3").values()]
    assert any(max(len(ladder) for ladder in own) <= 4 for own in ladders), "no value to state"
    assert sum(len(ladder) == 5 for own in ladders for ladder in own) >= 3, "values reached too"
    assert any(len(ladder) == 3 for own in ladders for ladder in own), "short ladders too"


def test_dev4_has_four_quiet_respondents_of_four_kinds_none_with_a_value_to_state() -> None:
    personas = _set("dev4")
    quiet = {
        stem: p
        for stem, p in personas.items()
        if p.traits.verbosity <= 0.2 and p.traits.knowledge <= 0.5
    }
    assert len(quiet) == 4
    # plain few words, polite hedges, impatience, a teen's "I guess": four kinds, not one
    patterns = [p.speech_pattern.lower() for p in quiet.values()]
    assert sum('"i guess"' in s for s in patterns) == 1
    assert sum("tentative" in s for s in patterns) == 1
    assert sum(p.traits.patience <= 4 for p in quiet.values()) == 1
    assert sum(p.traits.openness >= 0.7 for p in quiet.values()) == 1
    for stem, persona in personas.items():
        lengths = [len(ladder) for ladder in persona.beliefs["phone_plan_mec"]]
        statable = any(known_rungs(n, persona.traits.knowledge) == n for n in lengths)
        assert statable != (stem in quiet), f"{stem}: a top value to state unless quiet"


def test_dev5_quiet_in_two_ways_a_hedger_who_gets_there_and_a_sceptic_of_why() -> None:
    personas = _set("dev5")
    traits = {stem: p.traits for stem, p in personas.items()}
    quiet = sorted(stem for stem, t in traits.items() if t.verbosity <= 0.2 and t.knowledge <= 0.5)
    assert quiet == ["hard_to_say_renter", "plain_facts_dads_petrol"]
    unsure = ("not sure", "hard to say", "don't know", "dunno")

    def unsure_lines(stem: str) -> int:
        lines = personas[stem].deflection_patterns
        return sum(any(u in line.lower() for u in unsure) for line in lines)

    assert unsure_lines("plain_facts_dads_petrol") == 0, "plain facts, no don't-knows"
    assert unsure_lines("hard_to_say_renter") >= 3, "mostly unsure"

    def statable(stem: str) -> bool:
        persona = personas[stem]
        lengths = [len(ladder) for ladder in persona.beliefs["lawnmower_mec"]]
        return any(known_rungs(n, persona.traits.knowledge) == n for n in lengths)

    assert not any(statable(stem) for stem in quiet)
    assert all(statable(stem) for stem in personas if stem not in quiet)
    hedger = personas["let_me_think_librarian"]
    assert hedger.traits.openness <= 0.4 and "let me think" in hedger.speech_pattern.lower()
    sceptic = personas["sensible_choice_fitter"]
    assert sceptic.traits.skepticism >= 0.6
    assert any("why does it matter why" in line.lower() for line in sceptic.deflection_patterns)
    for stem in ("nap_time_cordless_mum", "mums_lawn_in_the_boot"):
        assert 3 <= len(personas[stem].beliefs["lawnmower_mec"]) <= 5
        assert traits[stem].skepticism <= 0.2 and traits[stem].openness >= 0.7


def test_dev6_one_quiet_a_reserved_one_who_knows_his_values_and_three_ordinary() -> None:
    personas = _set("dev6")
    traits = {stem: p.traits for stem, p in personas.items()}
    quiet = sorted(stem for stem, t in traits.items() if t.verbosity <= 0.2 and t.knowledge <= 0.5)
    assert quiet == ["its_grand_apprentice"]

    def statable(stem: str) -> bool:
        persona = personas[stem]
        lengths = [len(ladder) for ladder in persona.beliefs["family_car_mec"]]
        return any(known_rungs(n, persona.traits.knowledge) == n for n in lengths)

    assert not statable("its_grand_apprentice")
    assert all(statable(stem) for stem in personas if stem not in quiet)
    reserved = traits["tomasz_says_little_estate"]
    assert reserved.openness <= 0.35 and reserved.knowledge == 1.0
    assert traits["owt_to_do_with_it_cash_buyer"].skepticism >= 0.6
    assert personas["cork_jazz_nana_rambles"].off_topic
    for stem in ("brummie_midwife_electric", "geordie_estate_dad", "hounslow_nights_first_car"):
        ladders = personas[stem].beliefs["family_car_mec"]
        assert 3 <= len(ladders) <= 5 and all(4 <= len(ladder) <= 5 for ladder in ladders)
        assert traits[stem].skepticism <= 0.2 and traits[stem].openness >= 0.7


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_dev_persona_beliefs_are_about_their_topic_only_and_well_formed(path: Path) -> None:
    persona = _persona(path)
    assert len(persona.profile) > 200 and persona.speech_pattern and persona.deflection_patterns
    assert set(persona.beliefs) == {SETS[path.parent.name]}
    ladders = persona.beliefs[SETS[path.parent.name]]
    # (dev8's respondent with little to say has one short ladder: all there is to tell)
    assert (1 if path.parent.name == "dev8" else 2) <= len(ladders) <= 4
    shortest = 2 if path.parent.name == "dev7" else 3
    assert all(shortest <= len(ladder) <= 5 for ladder in ladders), "one rung per level at most"
    codes = [r.code for ladder in ladders for r in ladder]
    assert len(codes) == len(set(codes)), "a code in two ladders"
    for rung in (r for ladder in ladders for r in ladder):
        assert len(rung.says) <= 5, rung.code


def test_dev7_talks_like_people_every_rung_with_sayings_and_some_misspoken() -> None:
    personas = _set("dev7")
    for stem, persona in personas.items():
        assert persona.voice is not None and persona.voice.ceiling, stem
        rungs = [r for ladder in persona.beliefs["meal_kit_mec"] for r in ladder]
        assert all(3 <= len(r.says) <= 5 for r in rungs), stem
        assert any(r.misspoken for r in rungs), stem
    traits = {stem: p.traits for stem, p in personas.items()}
    assert sum(t.verbosity <= 0.2 and t.knowledge <= 0.5 for t in traits.values()) == 1
    assert any(t.skepticism >= 0.6 for t in traits.values()), "a sceptic"
    assert any(t.verbosity >= 0.9 for t in traits.values()), "a rambler"


@pytest.mark.parametrize("name", SETS)
def test_validate_list_apart_and_a_short_batch_from_the_cli(name: str, tmp_path: Path) -> None:
    folder, concept = ROOT / "personas" / name, SETS[name]
    runner = CliRunner()
    checked = runner.invoke(
        app, ["validate", str(folder), str(ROOT / "concepts" / f"{concept}.yaml")]
    )
    assert checked.exit_code == 0, checked.output
    assert "8 personas valid" in checked.output
    stems = {p.stem for p in folder.glob("*.yaml")}
    lib = Library.discover(extra_roots=[ROOT], cwd=ROOT, env={})
    assert not stems & set(lib.ids("persona"))
    out = tmp_path / "sessions"
    result = runner.invoke(
        app, ["batch", str(folder), "-c", concept, "--max-turns", "3", "--out", str(out), "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {i["persona"] for i in data["interviews"]} == stems
    assert all(i["status"] == "completed" for i in data["interviews"])
