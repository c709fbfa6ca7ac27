"""Turn records keep the candidates that explain the decision and counts for the rest; the
decision stays explainable (/why) and verifiable (replay --verify), also for older records
that hold every candidate."""

from __future__ import annotations

import io
import json
import statistics
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from interview_cli.analysis.replay.verify import verify_session
from interview_cli.session.read import read_session_file
from interview_cli.session.schema import RUNNERS_UP, slim_candidates
from interview_cli.ui.interview import why_view

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "analysis"))
from session_factory import run_interview  # noqa: E402


def candidate(strategy: str, rank: int, *, vetoed: str | None = None) -> dict[str, Any]:
    terms = [
        {"key": f"{strategy}.moves", "value": 1.0, "weight": 0.5, "contribution": 0.5},
        {"key": f"{strategy}.idle", "value": 0.0, "weight": 0.7, "contribution": 0.0},
    ]
    return {
        "strategy": strategy,
        "node_id": f"n{rank}",
        "node_label": f"node {rank}",
        "signal_contributions": terms,
        "base_score": 1.0 / rank,
        "phase_multiplier": 1.0,
        "phase_bonus": 0.0,
        "final_score": 1.0 / rank,
        "rank": 0 if vetoed else rank,
        "selected": rank == 1 and not vetoed,
        "vetoed_by": vetoed,
        "stage": "joint",
    }


def test_the_winner_runners_up_best_per_strategy_and_vetoes_are_kept() -> None:
    full = [candidate("deepen", r) for r in range(1, 9)]
    full += [candidate("clarify", 9), candidate("clarify", 10), candidate("reflect", 11)]
    full += [candidate("deepen", 12, vetoed="recent_redundancy")]
    # a vetoed move that would have won explains the decision; one that would have lost not
    full[-1] = {**full[-1], "final_score": 2.0}
    full += [candidate("clarify", 13, vetoed="repeated_probe")]
    kept, summary = slim_candidates(full)
    ranks = {c["rank"] for c in kept if not c.get("vetoed_by")}
    assert ranks == {*range(1, 2 + RUNNERS_UP), 9, 11}  # winner, runners-up, each strategy's best
    vetoed = [c for c in kept if c.get("vetoed_by")]
    assert vetoed and "signal_contributions" not in vetoed[0]
    assert vetoed[0]["node_id"] == "n12"
    for c in kept:  # every term that moved the score, and only those
        if not c.get("vetoed_by"):
            assert [t["key"] for t in c["signal_contributions"]] == [f"{c['strategy']}.moves"]
    assert len(vetoed) == 1
    assert summary == {
        "scored": 13,
        "admissible": 11,
        "vetoed": 2,
        "not_kept": 8 - (1 + RUNNERS_UP) + 1,
        "not_kept_by_strategy": {"clarify": 1, "deepen": 8 - (1 + RUNNERS_UP)},
        "vetoed_not_kept": 1,
    }
    assert slim_candidates(full) == (kept, summary)  # pure: verify recomputes it


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("records")


def test_typical_turn_record_is_small_and_the_session_verifies(sessions: Path) -> None:
    path = run_interview(
        sessions, concept="headphones_mec", session_id="slim", persona="cooperative", max_turns=14
    )
    session = read_session_file(path)
    # As the journal writes it (compact JSON, UTF-8).
    sizes = [
        len(json.dumps(t.model_dump(mode="json"), separators=(",", ":"), ensure_ascii=False))
        for t in session.completed_turns
    ]
    # under 12 KB before the ladder signals (where ladders start and end, a node's stance,
    # rivals and last answer: some 500 bytes a record for the nodes it keeps signals of); a
    # fragment the respondent disowns no longer stalls the interview, which reaches more nodes
    assert statistics.median(sizes) < 14_000, sizes
    for turn in session.completed_turns:
        assert any(c.selected for c in turn.candidates)
        assert turn.candidate_summary.scored >= len(turn.candidates)
    result = verify_session(session)
    assert result.ok, result.mismatches[:3]
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(why_view(session.completed_turns[-2], full=True))
    shown = console.export_text()
    assert "Top candidates" in shown and session.completed_turns[-2].decision.strategy in shown


def test_older_records_with_every_candidate_still_verify(
    sessions: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from interview_cli.pipeline import record

    # What versions before slimming wrote: every candidate, no summary.
    monkeypatch.setattr(record, "slim_candidates", lambda full: (full, {}))
    monkeypatch.setattr(record, "slim_node_signals", lambda signals, kept: signals)
    path = run_interview(
        sessions, concept="headphones_mec", session_id="full", persona="cooperative", max_turns=8
    )
    session = read_session_file(path)
    assert all(not t.candidate_summary for t in session.completed_turns)
    assert max(len(t.candidates) for t in session.completed_turns) > 6
    result = verify_session(session)
    assert result.ok, result.mismatches[:3]


def test_read_commands_see_what_only_the_journal_holds(sessions: Path) -> None:
    from typer.testing import CliRunner

    from interview_cli.cli.app import app
    from interview_cli.session.store import SessionStore

    path = run_interview(
        sessions, concept="headphones_mec", session_id="live", persona="cooperative", max_turns=6
    )
    store = SessionStore(sessions)
    with store.lock("live"):  # a writer that is still running: its last save is a journal line
        session = store.load("live")
        session.status = "active"
        store.save(session)
    assert json.loads(path.read_text(encoding="utf-8"))["status"] == "completed"  # the snapshot
    runner = CliRunner()
    listed = runner.invoke(app, ["sessions", "--sessions-dir", str(sessions), "--json"])
    assert listed.exit_code == 0, listed.output
    assert {row["id"]: row["status"] for row in json.loads(listed.output)}["live"] == "active"
    verified = runner.invoke(app, ["replay", str(path), "--verify"])
    assert verified.exit_code == 0, verified.output
    exported = runner.invoke(app, ["export", str(path), "--format", "jsonl"])
    assert exported.exit_code == 0, exported.output
    report = runner.invoke(app, ["report", str(path), "--json"])
    assert report.exit_code == 0, report.output
