"""`interview batch` end to end (in-process): options, output directory, summary, exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interview_cli.cli.app import app

ROOT = Path(__file__).resolve().parents[2]


def batch(*args: str) -> Any:
    return CliRunner().invoke(app, ["batch", *args])


def test_a_small_batch_writes_sessions_and_prints_the_summary(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = batch(
        "cooperative",
        "low_involvement",
        "-c",
        "headphones_mec",
        "--runs",
        "2",
        "--max-turns",
        "4",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in out.glob("*.json"))
    assert files == [
        "cooperative-headphones_mec-adaptive-s0-r1.json",
        "cooperative-headphones_mec-adaptive-s0-r2.json",
        "low_involvement-headphones_mec-adaptive-s0-r1.json",
        "low_involvement-headphones_mec-adaptive-s0-r2.json",
    ]
    doc = json.loads((out / files[0]).read_text())
    assert doc["status"] == "completed" and doc["simulation"]["evaluation"]["turns"] >= 1
    assert "Ground truth" in result.output and "Strategy mix" in result.output
    assert "Questions (per 100 asked)" in result.output and "topic splice:" in result.output
    assert "cooperative" in result.output and "low_involvement" in result.output
    lines = result.output.splitlines()
    assert sum(line.startswith("done ") for line in lines) == 4  # one per interview (no tty)

    again = batch(
        "cooperative",
        "low_involvement",
        "-c",
        "headphones_mec",
        "--runs",
        "2",
        "--max-turns",
        "4",
        "--out",
        str(out),
    )
    assert again.exit_code == 0
    assert sum(line.startswith("skipped ") for line in again.output.splitlines()) == 4


def test_json_output_and_a_directory_of_personas(tmp_path: Path) -> None:
    personas = tmp_path / "team"
    personas.mkdir()
    for name in ("brief", "sceptical"):
        (personas / f"{name}.yaml").write_text(
            (ROOT / "personas" / f"{name}.yaml").read_text(encoding="utf-8"), encoding="utf-8"
        )
    result = batch(
        str(personas),
        "-c",
        "headphones_mec",
        "--max-turns",
        "3",
        "--policy",
        "deepen_recent",
        "--out",
        str(tmp_path / "out"),
        "--json",
        "--seed",
        "2",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["policy"] == "deepen_recent" and data["seed"] == 2
    assert [i["id"] for i in data["interviews"]] == [
        "brief-headphones_mec-deepen_recent-s2-r1",
        "sceptical-headphones_mec-deepen_recent-s2-r1",
    ]
    assert {r["name"] for r in data["summary"]["personas"]} == {"brief", "sceptical"}
    overall = data["summary"]["overall"]
    assert overall["interviews"] == 2 and 0.0 <= overall["rung_recall"] <= 1.0
    assert data["failures"] == []
    questions = data["questions"]
    assert [r["name"] for r in questions["personas"]] == ["brief", "sceptical"]
    total = sum(r["questions"] for r in questions["personas"])
    assert questions["overall"]["questions"] == total > 0
    assert set(questions["overall"]["per_100"]) == {
        "clean",
        "not_their_words",
        "cut_off",
        "topic_splice",
        "double_barrelled",
        "jargon",
        "repeat",
        "set_aside",
        "vague",
        "puzzled",
    }


def test_dry_run_estimates_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = batch(
        "cooperative",
        "brief",
        "-c",
        "headphones_mec",
        "--runs",
        "3",
        "--max-turns",
        "10",
        "--out",
        str(out),
        "--dry-run",
        "--json",
        "--provider",
        "anthropic",
        "--respondent-provider",
        "openai",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["dry_run"] is True and data["to_run"] == 6 and data["skipped"] == 0
    tasks = {t["task"]: t for t in data["tasks"]}
    assert tasks["extract"]["calls"] == 60 and tasks["generate_opening"]["calls"] == 6
    assert tasks["respond_as_persona"]["client"].startswith("openai:")
    assert tasks["extract"]["client"].startswith("anthropic:")
    assert data["total"]["calls"] == sum(t["calls"] for t in data["tasks"])
    assert data["total"]["cost_usd"] > 0
    # A persona answers every question, the closing one included; its cost is for as many.
    assert tasks["respond_as_persona"]["calls"] == 66
    assert set(tasks["respond_as_persona"]) == {
        "task",
        "client",
        "calls",
        "input_tokens",
        "output_tokens",
        "cost_usd",
        "input_tokens_high",
        "output_tokens_high",
        "cost_high_usd",
    }
    # The high estimate: every call writes its client's whole max_tokens (600 for the
    # respondent), prompts 1.5x typical; the assumptions are stated with the figures.
    assert tasks["respond_as_persona"]["output_tokens_high"] == 66 * 600
    assert data["total"]["cost_high_usd"] > 2 * data["total"]["cost_usd"]
    assert any("reasoning models" in line for line in data["assumptions"])
    # Canonical slots are on by default: slot discovery is counted and priced too.
    assert tasks["propose_slots"]["calls"] == 60 and tasks["propose_slots"]["cost_usd"] > 0
    assert not out.exists()
    no_slots = batch(
        "cooperative",
        "-c",
        "headphones_mec",
        "--out",
        str(out),
        "--dry-run",
        "--json",
        "--no-canonical-slots",
    )
    assert "propose_slots" not in {t["task"] for t in json.loads(no_slots.stdout)["tasks"]}

    table = batch("cooperative", "-c", "headphones_mec", "--out", str(out), "--dry-run")
    assert table.exit_code == 0 and "Dry run: 1 interview to run" in table.output
    assert not out.exists()


def test_a_failed_interview_exits_1_and_is_listed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "brief-headphones_mec-adaptive-s0-r1.json").write_text("{broken")
    result = batch(
        "cooperative", "brief", "-c", "headphones_mec", "--max-turns", "3", "--out", str(out)
    )
    assert result.exit_code == 1
    assert "1 of 2 interviews failed" in result.stderr
    assert "brief-headphones_mec-adaptive-s0-r1" in result.stderr
    assert (out / "cooperative-headphones_mec-adaptive-s0-r1.json").exists()


def test_default_output_directory_is_under_the_sessions_directory(tmp_path: Path) -> None:
    result = batch(
        "cooperative",
        "-c",
        "headphones_mec",
        "--max-turns",
        "2",
        "--sessions-dir",
        str(tmp_path / "s"),
        "--policy",
        "breadth_first",
    )
    assert result.exit_code == 0, result.output
    assert list((tmp_path / "s" / "batch-headphones_mec-breadth_first-s0").glob("*.json"))


def test_bad_usage_is_exit_2_with_one_line(tmp_path: Path) -> None:
    bad_policy = batch(
        "cooperative", "-c", "headphones_mec", "--policy", "random", "--out", str(tmp_path)
    )
    assert bad_policy.exit_code == 2 and "--policy must be one of" in bad_policy.stderr
    unknown = batch("nobody", "-c", "headphones_mec", "--out", str(tmp_path))
    assert unknown.exit_code == 2 and "nobody" in unknown.stderr
    assert batch("--help").exit_code == 0
    assert batch().exit_code == 2  # no persona: usage


def test_discourse_hints_and_embeddings_flags_reach_the_sessions(
    tmp_path: Path, monkeypatch
) -> None:
    from interview_cli.llm import embeddings

    monkeypatch.setattr(embeddings, "available", lambda: False)  # the extra is never needed
    out = tmp_path / "out"
    result = batch(
        "cooperative",
        "-c",
        "headphones_mec",
        "--max-turns",
        "3",
        "--out",
        str(out),
        "--discourse-hints",
        "--embeddings",
    )
    assert result.exit_code == 0, result.output
    # The missing extra is a warning like every other (the same format in run and batch).
    assert any(
        line.startswith("warning: Embeddings requested but not installed")
        for line in result.stderr.splitlines()
    )
    (path,) = out.glob("*.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["settings"]["enable_discourse_hints"] is True
    assert doc["settings"]["enable_embeddings"] is True
    # Hints were computed and passed on with the answers ("because", "so" ...).
    assert any(t["discourse_hints"] for t in doc["turns"])


def test_the_summary_reports_how_the_interviews_asked(tmp_path: Path) -> None:
    args = ["sceptical", "fixated", "-c", "headphones_mec", "--max-turns", "12"]
    result = batch(*args, "--out", str(tmp_path / "out"), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    evaluations = [i["evaluation"] for i in data["interviews"]]
    overall = data["summary"]["overall"]
    assert overall["same_node_reasks"] == sum(len(e["same_node_reasks"]) for e in evaluations)
    assert overall["complaints"] == sum(len(e["complaints"]) for e in evaluations)
    assert overall["terminal_full"] == 2  # both personas hold a full ladder
    assert overall["early_unopened"] == sum(
        1 for e in evaluations if e["ended_early"] and e["ladders_unopened"]
    )
    assert sum(overall["strategy_share"].values()) == pytest.approx(1.0, abs=1e-3)
    shown = batch(*args, "--out", str(tmp_path / "out"))  # the same interviews, rendered
    assert shown.exit_code == 0
    assert "Asking" in shown.output and "re-ask" in shown.output and "complain" in shown.output


def test_finished_interviews_are_reused_only_when_started_the_same_way(tmp_path: Path) -> None:
    out = tmp_path / "out"
    base = ["cooperative", "-c", "headphones_mec", "--max-turns", "4", "--out", str(out)]
    env = {"COLUMNS": "120"}
    first = CliRunner().invoke(app, ["batch", *base], env=env)
    assert first.exit_code == 0, first.output
    before = (out / "cooperative-headphones_mec-adaptive-s0-r1.json").read_text()

    fewer = ["cooperative", "-c", "headphones_mec", "--max-turns", "3", "--out", str(out)]
    shorter = CliRunner().invoke(app, ["batch", *fewer], env=env)
    assert shorter.exit_code == 2
    assert "max turns 4 -> 3" in shorter.stderr and "use another --out" in shorter.stderr
    assert str(tmp_path / "out-2") in shorter.stderr
    assert "skipped" not in shorter.output and "Interviewer" not in shorter.output

    # Another provider: a dry run writes nothing, so it estimates (exit 0) and says the run
    # itself needs another directory; the interviews it could not reuse are estimated as new,
    # not at $0.
    other = CliRunner().invoke(
        app, ["batch", *base, "--provider", "anthropic", "--dry-run", "--json"], env=env
    )
    assert other.exit_code == 0, other.output
    assert "generation model offline/" in other.stderr and "-> anthropic/" in other.stderr
    assert "needs another output directory" in other.stderr
    estimate = json.loads(other.stdout)
    assert estimate["to_run"] == 1 and estimate["skipped"] == 0
    assert estimate["total"]["cost_usd"] > 0

    seed = CliRunner().invoke(app, ["batch", *base, "--seed", "0", "--no-canonical-slots"])
    assert seed.exit_code == 2 and "canonical slots True -> False" in seed.stderr

    # A changed persona file is a different respondent.
    persona = tmp_path / "cooperative.yaml"
    text = (ROOT / "personas" / "cooperative.yaml").read_text(encoding="utf-8")
    persona.write_text(text + "\n# edited\n", encoding="utf-8")
    edited = CliRunner().invoke(app, ["batch", str(persona), *base[1:]], env=env)
    assert edited.exit_code == 2 and "persona file" in edited.stderr

    same = CliRunner().invoke(app, ["batch", *base], env=env)
    assert same.exit_code == 0 and "skipped " in same.output
    assert (out / "cooperative-headphones_mec-adaptive-s0-r1.json").read_text() == before
    elsewhere = CliRunner().invoke(app, ["batch", *fewer[:-1], str(tmp_path / "out-2")], env=env)
    assert elsewhere.exit_code == 0, elsewhere.output


def test_a_persona_with_no_beliefs_about_the_concept_is_refused_in_one_line(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    result = batch("cooperative", "brief", "-c", "oat_milk_mec", "--out", str(out))
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert "persona cooperative holds no beliefs about oat_milk_mec" in line
    assert "coffee_jtbd" in line and "headphones_mec" in line  # what it does believe
    assert "--no-ground-truth" in line and "Traceback" not in result.output
    assert not out.exists()  # nothing written


def test_no_ground_truth_runs_it_unscored_and_the_summary_says_so(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["cooperative", "-c", "oat_milk_mec", "--max-turns", "3", "--out", str(out)]
    result = batch(*args, "--no-ground-truth", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    (interview,) = data["interviews"]
    evaluation = interview["evaluation"]
    assert evaluation["ground_truth"] is False and "rung_recall" not in evaluation
    overall = data["summary"]["overall"]
    assert overall["unscored"] == 1 and overall["rung_recall"] is None  # none, not 0
    session = json.loads(Path(interview["path"]).read_text())
    assert session["simulation"]["ground_truth"]["ladders"] == []
    table = batch(*args, "--no-ground-truth", "--out", str(tmp_path / "again"))
    assert table.exit_code == 0, table.output
    assert "no ground truth" in table.output  # the interview's line
    assert "no truth" in table.output  # the summary's recall cell and its caption


def test_an_old_format_persona_file_says_how_to_convert_it(tmp_path: Path) -> None:
    old = tmp_path / "old_style.yaml"
    old.write_text(
        "id: old_style\nname: Old Style\nprofile: Someone written before beliefs by topic.\n"
        "ladders:\n  means_end_chain:\n    - [noise cancelling, can focus on the train]\n"
        "aliases:\n  noise cancelling: [the ANC]\n",
        encoding="utf-8",
    )
    result = batch(str(old), "-c", "headphones_mec", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: ") and "old_style.yaml: the old persona format" in line
    assert "beliefs: {<concept id>: [...]}" in line and "says: [<its aliases>]" in line
