"""Journey and grid interviews end to end: piped offline runs, report sections, replay
--verify, and batch recall against the personas' hidden journeys and grids."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interview_cli.cli.app import app

JOURNEY_ANSWERS = [
    "First I opened the supermarket app and looked for a delivery slot, but all the evening "
    "slots were gone and I felt stressed.",
    "It would have helped to see the slots for the whole week at once.",
    "I added everything from my favourites list on the app, which was quick, and I felt relieved.",
    "The website crashed twice when I typed in my card, and I was annoyed.",
    "They should save my card properly so I don't have to type it again.",
    "I paid with my card on the website in the end.",
    "The driver arrived on time and sent a text message before, I felt happy.",
    "I found two substitutions I didn't want, and I was disappointed.",
    "I wish they would ask before substituting anything.",
    "Yes, that's right.",
    "4",
]
GRID_ANSWERS = [
    "The car and the bus are both motorised, while the bicycle is human powered.",
    "car 1, bus 1, bicycle 5, train 2, walking 5, e-scooter 3, taxi 1",
    "The train and walking are relaxing, whereas the e-scooter is stressful.",
    "car 4, bus 3, bicycle 3, train 1, walking 1, e-scooter 5, taxi 2",
    "Taxi and car are door to door but the bus has fixed stops.",
    "car 1, bus 4, bicycle 2, train 5, walking 1, e-scooter 2, taxi 1",
    "Bicycle and walking keep me fit, while the taxi is just sitting.",
    "car 5, bus 4, bicycle 1, train 4, walking 1, e-scooter 3, taxi 5",
    "Yes, that covers it.",
    "4",
]


def cli(*args: str, text: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=text, catch_exceptions=False)


def _run(directory: Path, concept: str, answers: list[str], max_turns: int) -> Path:
    result = cli(
        "run",
        "-c",
        concept,
        "--provider",
        "offline",
        "--max-turns",
        str(max_turns),
        "--sessions-dir",
        str(directory),
        text="".join(a + "\n" for a in answers),
    )
    assert result.exit_code == 0, result.output
    (path,) = directory.glob("*.json")
    return path


@pytest.fixture(scope="module")
def journey(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory.mktemp("journey"), "grocery_delivery_journey", JOURNEY_ANSWERS, 12)


@pytest.fixture(scope="module")
def grid(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory.mktemp("grid"), "transport_modes_grid", GRID_ANSWERS, 8)


def _relations(doc: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [r[name] for link in doc["graph"]["links"] for r in [link["relations"]] if name in r]


def test_piped_journey_interview_walks_the_stages_and_completes(journey: Path) -> None:
    doc = json.loads(journey.read_text(encoding="utf-8"))
    assert doc["status"] == "completed"
    stages = {n["element_id"] for n in doc["graph"]["nodes"] if n["node_type"] == "stage"}
    assert stages == {"slot", "basket", "checkout", "delivery", "unpacking"}
    strategies = [t["question"]["strategy"] for t in doc["turns"][1:]]
    assert {"walk_journey", "probe_pain", "map_steps"} <= set(strategies)
    valences = [r["value"] for r in _relations(doc, "felt")]
    assert -1.0 in valences and 1.0 in valences
    assert doc["turns"][-1]["signals"]["journey.stages_pending"] is False


def test_piped_grid_interview_elicits_constructs_and_stores_ratings_on_edges(grid: Path) -> None:
    doc = json.loads(grid.read_text(encoding="utf-8"))
    assert doc["status"] == "completed"
    constructs = [n["label"] for n in doc["graph"]["nodes"] if n["node_type"] == "construct"]
    assert constructs[:2] == ["motorised vs human powered", "relaxing vs stressful"]
    assert len(constructs) == 4
    ratings = [r["value"] for r in _relations(doc, "rated")]
    assert len(ratings) == 4 * 7 and set(ratings) <= {1.0, 2.0, 3.0, 4.0, 5.0}
    assert doc["turns"][1]["question"]["text"].startswith("On a scale from 1 to 5")


def test_report_has_the_journey_map_and_emotion_curve(journey: Path, tmp_path: Path) -> None:
    data = json.loads(cli("report", str(journey), "--json").stdout)
    (section,) = data["methodologies"]
    curve = section["journey"]["emotion_curve"]
    assert [p["stage"] for p in curve][0] == "choosing a delivery slot"
    assert [p["valence"] for p in curve] == [-1.0, 1.0, -1.0, 1.0, -1.0]
    first = section["journey"]["sessions"][0]["stages"][0]
    assert first["touchpoints"] == ["the supermarket app"] and first["pain_points"][0]["explored"]
    md = cli("report", str(journey), "--format", "md").stdout
    assert "### Journey: emotion curve" in md and "| choosing a delivery slot | -1.0 |" in md
    html = tmp_path / "r.html"
    assert cli("report", str(journey), "--out", str(html)).exit_code == 0
    assert "<polyline" in html.read_text(encoding="utf-8")


def test_report_has_the_grid_analysis(grid: Path) -> None:
    data = json.loads(cli("report", str(grid), "--json").stdout)
    result = data["methodologies"][0]["grid"]["sessions"][0]
    assert result["elements"][0] == "car" and len(result["constructs"]) == 4
    assert result["constructs"][0]["ratings"]["bicycle"] == 5.0
    assert 0.5 < result["first_two_components_variance"] <= 1.0
    sims = result["construct_similarity"]
    assert all(sims[i][i] == 1.0 for i in range(4))
    md = cli("report", str(grid), "--format", "md").stdout
    assert "Element similarity" in md and "First two principal components" in md


@pytest.mark.parametrize("which", ["journey", "grid"])
def test_replay_verify_holds(which: str, request: pytest.FixtureRequest) -> None:
    path: Path = request.getfixturevalue(which)
    result = cli("replay", "--verify", str(path))
    assert result.exit_code == 0, result.output
    assert "reproduced exactly" in result.stdout.replace("\n", " ")


@pytest.mark.parametrize(
    ("concept", "max_turns"), [("grocery_delivery_journey", "10"), ("transport_modes_grid", "9")]
)
def test_batch_scores_recall_against_hidden_journeys_and_grids(
    concept: str, max_turns: str, tmp_path: Path
) -> None:
    result = cli(
        "batch",
        "cooperative",
        "brief",
        "-c",
        concept,
        "--max-turns",
        max_turns,
        "--out",
        str(tmp_path),
        "--provider",
        "offline",
        "--json",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rows = {r["name"]: r for r in data["summary"]["personas"]}
    assert rows["cooperative"]["rung_recall"] >= 0.8
    assert 0.3 <= rows["brief"]["rung_recall"] <= 1.0
    doc = json.loads((tmp_path / f"cooperative-{concept}-adaptive-s0-r1.json").read_text())
    evaluation = doc["simulation"]["evaluation"]
    assert evaluation["shape"] in ("journey", "grid")
    truth = doc["simulation"]["ground_truth"]
    assert truth.get("journey") or truth.get("grid")
