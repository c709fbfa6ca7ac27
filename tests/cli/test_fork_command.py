"""`interview fork` end to end (in-process): a batch session forked at turn 4 with
breadth_first over two runs, the paired comparison as JSON and as tables, the forks in
`replay --verify`, `sessions` and `report`, a live session with --persona, and bad input."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interview_cli.cli.app import app
from interview_cli.session.store import SessionStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "analysis"))
from session_factory import MEC_ANSWERS, run_interview  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ORIGIN = "cooperative-headphones_mec-adaptive-s0-r1"
FORKS = f"fork-{ORIGIN}-t4-breadth_first-s0"


def cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sessions directory holding one batch interview (in its batch's folder)."""
    root = tmp_path_factory.mktemp("sessions")
    result = cli(
        "batch", "cooperative", "-c", "headphones_mec", "--provider", "offline",
        "--max-turns", "8", "--out", str(root / "batch"),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return root


@pytest.fixture(scope="module")
def forked(sessions: Path) -> dict[str, Any]:
    """The task's own case: fork the batch session at turn 4 with breadth_first, two runs."""
    result = cli(
        "fork", ORIGIN, "--at", "4", "--policy", "breadth_first", "--runs", "2",
        "--sessions-dir", str(sessions), "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_both_forks_repeat_the_first_turns_go_on_and_verify(
    sessions: Path, forked: dict[str, Any]
) -> None:
    assert (forked["origin"], forked["at"], forked["policy"]) == (ORIGIN, 4, "breadth_first")
    assert forked["origin_policy"] == "adaptive" and forked["persona"] == "cooperative"
    assert [f["run"] for f in forked["forks"]] == [1, 2]
    origin = SessionStore(sessions / "batch").load(ORIGIN)
    for f in forked["forks"]:
        assert f["status"] == "completed" and f["repeats_origin"] and f["verified"]
        assert f["figures"]["turns"] > 4
        fork = SessionStore(sessions / FORKS).load(f["session"])
        assert [t.model_dump() for t in fork.turns[:4]] == [
            t.model_dump() for t in origin.turns[:4]
        ]
        verified = cli("replay", f["path"], "--verify")
        assert verified.exit_code == 0, verified.output


def test_the_json_compares_each_fork_with_the_original_on_ground_truth(
    sessions: Path, forked: dict[str, Any]
) -> None:
    origin = json.loads((sessions / "batch" / f"{ORIGIN}.json").read_text())
    truth = origin["simulation"]["evaluation"]
    original = forked["original"]
    assert original["rungs_elicited"] == truth["rungs_elicited"]
    assert original["terminal_reached"] == (1.0 if truth["terminal_reached"] else 0.0)
    assert original["turns"] == truth["turns"]
    assert original["complaints"] == len(truth["complaints"])
    for name in ("rungs_elicited", "terminal_reached", "turns", "complaints"):
        figure = forked["figures"][name]
        runs = [f["figures"][name] for f in forked["forks"]]
        assert figure["forks"] == runs and figure["original"] == original[name]
        assert figure["changes"] == [round(v - original[name], 4) for v in runs]
        assert set(figure["change_spread"]) == {"mean", "sd", "min", "max"}


def test_re_running_the_same_fork_prints_the_tables_and_skips_finished_forks(
    sessions: Path, forked: dict[str, Any]
) -> None:
    result = CliRunner().invoke(
        app,
        ["fork", ORIGIN, "--at", "4", "--policy", "breadth_first", "--runs", "2",
         "--sessions-dir", str(sessions)],
        env={"COLUMNS": "80"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    screen = out[out.index("Forks of") :]  # after the progress lines, one per fork
    assert "…" not in screen and max(len(line) for line in screen.splitlines()) <= 80
    assert f"Forks of {ORIGIN} after turn 4" in out and "Paired with the original" in out
    for words in ("rungs recalled", "terminal reached", "complaints", "repeats 1-4"):
        assert words in out
    assert "completed earlier" in out and "verifies" in out


def test_sessions_and_report_show_a_fork_with_its_origin(
    sessions: Path, forked: dict[str, Any]
) -> None:
    listed = json.loads(cli("sessions", "--sessions-dir", str(sessions), "--json").stdout)
    origins = {row["id"]: row["fork_of"] for row in listed}
    assert origins[ORIGIN] is None
    for f in forked["forks"]:
        assert origins[f["session"]] == {"session": ORIGIN, "turn": 4}
    wide = CliRunner().invoke(
        app, ["sessions", "--sessions-dir", str(sessions)], env={"COLUMNS": "250"}
    )
    assert f"{ORIGIN}@4" in wide.stdout
    report = json.loads(cli("report", str(sessions / FORKS), "--json").stdout)
    assert {(s["fork_of"], s["fork_turn"]) for s in report["sessions"]} == {(ORIGIN, 4)}
    text = cli("report", str(sessions / FORKS), "--format", "md").stdout
    assert f"fork of {ORIGIN} at turn 4" in text
    shown = cli("sessions", "show", forked["forks"][0]["path"]).stdout
    assert f"fork of {ORIGIN}: turns 1-4 as recorded there" in shown


def test_a_live_interview_is_forked_with_a_persona(tmp_path: Path) -> None:
    live = run_interview(tmp_path, concept="headphones_mec", session_id="live", answers=MEC_ANSWERS)
    refused = cli("fork", str(live), "--at", "3")
    assert refused.exit_code == 2
    assert refused.stderr.strip().splitlines() == [
        "error: session live is a live interview (no simulated persona answered it): pass "
        "--persona ID|FILE to have a persona answer from turn 4"
    ]
    result = cli("fork", str(live), "--at", "3", "--persona", "cooperative", "--json")
    assert result.exit_code == 0, result.output
    (f,) = json.loads(result.stdout)["forks"]
    assert f["repeats_origin"] and f["verified"] and f["figures"]["turns"] > 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--at", "0"], "error: --at 0: session "),
        (["--at", "99"], "(it has 8 complete turns); use 1 to 7"),
        (["--at", "8"], "turn 8 was followed by the closing question"),
        (["--at", "4", "--policy", "widest"], "error: --policy must be one of"),
        (["--at", "4", "--methodology", "jobs_to_be_done"], "pass a variant of means_end_chain"),
        (["--at", "4", "--persona", "nobody.yaml"], "nobody.yaml: no such persona file"),
        (
            ["--at", "4", "--persona", str(ROOT / "personas/dev/greyhound_storyteller.yaml")],
            "holds no beliefs about headphones_mec, so its forks could not be compared",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2_with_nothing_written(
    sessions: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "forks"
    result = cli("fork", ORIGIN, "--sessions-dir", str(sessions), "--out", str(out), *args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], lines
    assert "Traceback" not in result.output and not out.exists()


def test_a_session_in_progress_is_refused(sessions: Path, tmp_path: Path) -> None:
    with SessionStore(sessions / "batch").lock(ORIGIN):
        result = cli(
            "fork",
            ORIGIN,
            "--at",
            "4",
            "--sessions-dir",
            str(sessions),
            "--out",
            str(tmp_path / "f"),
        )
    assert result.exit_code == 2
    assert f"session {ORIGIN} is in use by process" in result.stderr
    assert not (tmp_path / "f").exists()
