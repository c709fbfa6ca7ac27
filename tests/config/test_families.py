"""Strategy families: every strategy declares one, a library file without it (or with an
unknown one) is refused with one line naming the strategy and the families, and a session
recorded before families were declared reads its strategies' families from their names as
the tool did then (so its replay behaves as the interview did)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, get_args

import pytest
import yaml
from pydantic import ValidationError
from typer.testing import CliRunner

from interview_cli.cli.app import app
from interview_cli.config.families import (
    FAMILIES,
    FAMILY_NAMES,
    StrategyFamily,
    family_named,
    legacy_family,
)
from interview_cli.config.schemas import RECORDED, Methodology, StrategySpec
from interview_cli.config.yamlio import load_yaml
from interview_cli.llm.offline.asking.wording import WORDINGS
from interview_cli.pipeline.inputs import parse_snapshot

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = Path(__file__).parent / "sample_library"
RECORDED_SESSION = ROOT / "tests" / "analysis" / "data" / "recorded_before_memory_of_asking.json"


def test_the_families_are_one_list_and_each_says_what_it_asks() -> None:
    assert tuple(f.name for f in FAMILIES) == FAMILY_NAMES == get_args(StrategyFamily)
    assert all(f.asks.strip() for f in FAMILIES)
    assert family_named("deepen") is FAMILIES[0] and family_named("deepn") is None


def test_every_family_has_its_offline_wording() -> None:
    # a summary is worded as the closing recap, an element by the stimulus's own words
    worded_elsewhere = {"summary", "element"}
    assert set(FAMILY_NAMES) - worded_elsewhere <= set(WORDINGS)


def test_the_strategy_how_to_lists_every_family_with_what_it_asks() -> None:
    page = (ROOT / "docs" / "how-to" / "add-a-strategy.md").read_text("utf-8")
    for family in FAMILIES:
        assert f"| `{family.name}` | {family.asks} |" in page, family.name


# Strategies that arrived after families were declared: no session holds them without one.
ADDED_WITH_A_FAMILY = {"probe_switch", "probe_anxieties"}


def test_every_shipped_strategy_declares_the_family_its_recorded_sessions_read() -> None:
    """A session recorded before families were declared gets them from the names
    (``legacy_family``): the shipped files declare the same, so an old session and a new
    one of the same methodology are worded, read and answered alike."""
    seen = 0
    for path in sorted((ROOT / "methodologies").glob("*.yaml")):
        methodology = Methodology.model_validate(load_yaml(path.read_text("utf-8")))
        for s in methodology.strategies:
            if s.name in ADDED_WITH_A_FAMILY:
                continue
            assert s.family == legacy_family(s.name, s.description), (path.name, s.name)
            seen += 1
    assert seen >= 30


def _strategy(**fields: Any) -> dict[str, Any]:
    return {"name": "probe_things", "description": "Ask about things.", **fields}


def test_a_strategy_without_family_is_refused_naming_it_and_the_families() -> None:
    with pytest.raises(ValidationError) as exc:
        StrategySpec.model_validate(_strategy())
    message = exc.value.errors()[0]["msg"]
    assert "strategy 'probe_things' declares no family" in message
    assert ", ".join(FAMILY_NAMES) in message and "docs/how-to/add-a-strategy.md" in message


def test_an_unknown_family_suggests_the_closest_one() -> None:
    with pytest.raises(ValidationError) as exc:
        StrategySpec.model_validate(_strategy(family="deepn"))
    message = exc.value.errors()[0]["msg"]
    assert message.startswith(
        "strategy 'probe_things': 'deepn' is no family (did you mean 'deepen'?); one of deepen, "
    )


@pytest.mark.parametrize(("family", "line"), [(None, "declares no family"), ("why", "no family")])
def test_validate_refuses_a_library_file_with_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, family: str | None, line: str
) -> None:
    shutil.copytree(SAMPLE, tmp_path / "lib")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("interview_cli.config.library.bundled_root", lambda: None)
    path = tmp_path / "lib" / "methodologies" / "mini_ladder.yaml"
    data = load_yaml(path.read_text())
    if family is None:
        del data["strategies"][1]["family"]
    else:
        data["strategies"][1]["family"] = family
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    result = CliRunner().invoke(app, ["validate", "lib"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    # the first line is the strategy's; its concept's line follows (no valid methodology)
    error = next(x for x in result.stderr.splitlines() if x.startswith("error: "))
    assert error.startswith("error: lib/methodologies/mini_ladder.yaml: strategies[1]")
    assert line in error and "'explore'" in error and "breadth_check" in error, error


def test_a_recorded_snapshot_without_families_reads_them_from_the_names() -> None:
    session = json.loads(RECORDED_SESSION.read_text("utf-8"))
    text = session["methodology"]["source"]
    assert "family:" not in text  # recorded before strategies declared one
    methodology = parse_snapshot(text, Methodology, "methodology", session["id"])
    families = {s.name: s.family for s in methodology.strategies}
    assert families == {
        "deepen": "deepen",
        "clarify": "clarify",
        "explore": "explore",
        "revitalize": "revitalize",
        "reflect": "summary",
    }


def test_a_declared_family_wins_over_the_name_in_a_snapshot_too() -> None:
    data = {"name": "deepen", "family": "clarify"}
    assert StrategySpec.model_validate(data, context=RECORDED).family == "clarify"


@pytest.mark.parametrize(
    ("name", "description", "family"),
    [
        ("negative_ladder", "", "negative_ladder"),
        ("third_person", "", "third_person"),
        ("situational", "", "situational"),
        ("breadth_check", "", "breadth_check"),
        # a description that would have matched an older family does not win over the name
        ("situational", "Explore the situation: ask why it matters", "situational"),
        ("negative_ladder", "Ladder down: why would its absence matter", "negative_ladder"),
        ("breadth_check", "Explore breadth before moving on", "breadth_check"),
        # the names the shipped methodologies use keep their families
        ("deepen", "", "deepen"),
        ("explore", "", "explore"),
        ("explore_situation", "", "explore"),
        ("dig_motivation", "", "deepen"),
        ("clarify", "", "clarify"),
        ("revitalize", "", "revitalize"),
        ("probe_attributions", "", "attribution"),
        # an unnamed family is found from the description
        ("ask_differently", "Negative laddering: the absence of the thing", "negative_ladder"),
        ("ask_others", "Third-person projection", "third_person"),
        ("ask_anything", "", "generic"),
    ],
)
def test_recorded_strategies_read_their_family_by_name_first(
    name: str, description: str, family: StrategyFamily
) -> None:
    assert legacy_family(name, description) == family
