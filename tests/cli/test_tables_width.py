"""Tables at a fixed terminal width: `sessions`, `report` and `batch` keep ids, dates and
persona names whole, use the width they are given, and `sessions` finds batch sessions."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interview_cli.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
LONG_PERSONA = "cooperative_commuter_persona"
STAMP = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")


def invoke(args: list[str], width: int, **kw: Any) -> Any:
    result = CliRunner().invoke(app, args, env={"COLUMNS": str(width)}, **kw)
    return result


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sessions directory with one interview at the top and a batch in a subfolder."""
    root = tmp_path_factory.mktemp("sessions")
    persona = root.parent / f"{LONG_PERSONA}.yaml"
    text = (ROOT / "personas" / "cooperative.yaml").read_text(encoding="utf-8")
    persona.write_text(text.replace("id: cooperative", f"id: {LONG_PERSONA}"), encoding="utf-8")
    batch = invoke(
        [
            "batch",
            str(persona),
            "verbose_tangential",
            "-c",
            "headphones_mec",
            "--max-turns",
            "8",
            "--sessions-dir",
            str(root),
        ],
        120,
    )
    assert batch.exit_code == 0, batch.output
    (root.parent / "batch-output.txt").write_text(batch.stdout, encoding="utf-8")
    run = invoke(
        ["run", "-c", "headphones_mec", "-p", "offline", "--sessions-dir", str(root)],
        120,
        input="The noise cancelling, because I can focus on the train\n/quit\n",
    )
    assert run.exit_code == 0, run.output
    (root / "batch-headphones_mec-adaptive-s0" / "summary.json").write_text("{}")
    return root


def test_batch_tables_keep_persona_names_whole(sessions: Path) -> None:
    out = (sessions.parent / "batch-output.txt").read_text(encoding="utf-8")
    table = out[out.index("Ground truth") :]
    assert LONG_PERSONA in table and "…" not in table  # persona names whole
    assert max(len(line) for line in table.splitlines()) > 80  # the width is used


def _ids(root: Path) -> list[str]:
    return sorted(p.stem for p in root.rglob("*.json") if p.name != "summary.json")


@pytest.mark.parametrize("width", [120, 80])
def test_sessions_lists_batch_subfolders_with_ids_and_dates_whole(
    sessions: Path, width: int
) -> None:
    # On a terminal (TTY_COMPATIBLE: Rich's switch), columns that do not fit are left out.
    result = CliRunner().invoke(
        app,
        ["sessions", "--sessions-dir", str(sessions)],
        env={"COLUMNS": str(width), "TTY_COMPATIBLE": "1"},
    )
    assert result.exit_code == 0, result.output
    out = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout)  # the terminal's styles
    assert len(_ids(sessions)) == 3
    for sid in _ids(sessions):
        assert sid in out  # whole, on one line
    assert "batch-headphones_mec-adaptive-s0/" in out
    assert max(len(line) for line in out.splitlines()) <= width
    assert "summary.json" not in result.output  # a batch summary is not a session
    if width == 120:
        assert len(STAMP.findall(out)) == 3  # dates whole, on one line
        assert "methodology, concept: --json or a wider terminal" in out


def test_piped_sessions_get_every_column_and_the_folder_whole(sessions: Path) -> None:
    result = invoke(["sessions", "--sessions-dir", str(sessions)], 80)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"Sessions in {sessions}"  # a path is never broken in two
    header = lines[1].split()
    assert header == ["id", "concept", "methodology", "status", "turns", "updated", "cost"]
    assert "wider terminal" not in result.stdout
    assert len(STAMP.findall(result.stdout)) == 3


def test_sessions_status_filter_and_nested_show(sessions: Path) -> None:
    paused = invoke(
        ["sessions", "--sessions-dir", str(sessions), "--status", "paused", "--json"], 120
    )
    assert paused.exit_code == 0, paused.output
    rows = json.loads(paused.stdout)
    assert [r["status"] for r in rows] == ["paused"] and rows[0]["folder"] == ""
    done = json.loads(
        invoke(
            ["sessions", "--sessions-dir", str(sessions), "-s", "completed", "--json"], 120
        ).stdout
    )
    assert len(done) == 2 and {r["folder"] for r in done} == {"batch-headphones_mec-adaptive-s0"}
    bad = invoke(["sessions", "--sessions-dir", str(sessions), "--status", "done"], 120)
    assert bad.exit_code == 2 and "completed" in bad.stderr
    shown = invoke(["sessions", "--sessions-dir", str(sessions), "show", done[0]["id"]], 120)
    assert shown.exit_code == 0, shown.output
    assert done[0]["id"] in shown.stdout
    helped = invoke(["sessions", "--help"], 120)
    assert "interview sessions --status paused" in helped.stdout


@pytest.mark.parametrize("width", [120, 80])
def test_report_keeps_session_ids_whole(sessions: Path, width: int) -> None:
    result = invoke(["report", str(sessions)], width)
    assert result.exit_code == 0, result.output
    head = result.stdout[: result.stdout.index("Surface vs canonical")]
    for sid in _ids(sessions):
        assert sid in head
    assert max(len(line) for line in head.splitlines()) <= width
    if width == 80:
        assert "#1 " in head  # rows keyed, ids listed whole below


def test_report_mean_row_and_ended_because_read_as_figures_and_words(sessions: Path) -> None:
    data = json.loads(invoke(["report", str(sessions), "--json"], 120).stdout)
    chains = [s["chains_completed"] for s in data["sessions"]]
    assert sum(chains) > 0  # else a sum and a mean would look alike
    out = invoke(["report", str(sessions)], 120).stdout
    mean_row = next(line for line in out.splitlines() if "(mean)" in line).split()
    assert float(mean_row[8]) == pytest.approx(sum(chains) / len(chains), abs=0.01)
    how = out[out.index("How each session went") : out.index("Surface vs canonical")]
    flat = " ".join(how.split())
    assert "Closing strategy selected" not in how and "Maximum turns reached" not in how
    assert "— 1" not in flat and "not" in flat  # the paused session: "not ended 1"
    assert "asked" in flat or "turn limit" in flat


def test_a_long_report_on_a_terminal_goes_through_a_pager(
    sessions: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    import rich.console
    from rich.console import Console
    from rich.pager import Pager

    from interview_cli.cli import report as report_cmd

    paged: list[str] = []

    class Recording(Pager):
        def show(self, content: str) -> None:
            paged.append(content)

    screen = io.StringIO()
    monkeypatch.setattr(rich.console, "SystemPager", Recording)
    monkeypatch.setattr(
        report_cmd,
        "stdout_console",
        lambda: Console(file=screen, force_terminal=True, width=120, height=40),
    )
    result = CliRunner().invoke(app, ["report", str(sessions)])
    assert result.exit_code == 0, result.output
    assert len(paged) == 1 and "Metrics per session" in paged[0]
    assert len(paged[0].splitlines()) > 40 and screen.getvalue() == ""
    # Piped (the test runner's stdout is no terminal): printed as it is, no pager.
    monkeypatch.undo()
    piped = invoke(["report", str(sessions)], 120)
    assert "Metrics per session" in piped.stdout and len(paged) == 1
