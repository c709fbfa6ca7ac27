"""The moderator's and the respondent's commands in `interview run`, through the CLI with piped
stdin: what the screen shows, what the session file records, and that `replay --verify` still
reproduces every decision (the moderator's taken as given, the tool's verified)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interview_cli.analysis.replay.verify import verify_session
from interview_cli.cli.app import app
from interview_cli.session.store import SessionStore

FIRST = "I like the sound quality because it helps me focus"
SECOND = "It lets me concentrate at work and feel calm"


def run_cli(args: list[str], lines: list[str], sessions: Path) -> Any:
    return CliRunner().invoke(
        app,
        ["run", "--sessions-dir", str(sessions), *args],
        input="".join(line + "\n" for line in lines),
        catch_exceptions=False,
    )


def start(lines: list[str], sessions: Path) -> tuple[Any, dict[str, Any]]:
    result = run_cli(["-c", "headphones_mec", "-p", "offline"], lines, sessions)
    assert result.exit_code == 0, result.output
    (path,) = sessions.glob("*.json")
    return result, json.loads(path.read_text(encoding="utf-8"))


def verified(sessions: Path) -> None:
    (path,) = sessions.glob("*.json")
    outcome = verify_session(SessionStore(sessions).load(str(path)))
    assert outcome.ok, outcome.to_dict()["mismatches"]


@pytest.fixture
def sessions(tmp_path: Path) -> Path:
    return tmp_path / "sessions"


def test_help_lists_the_moderator_and_respondent_commands(sessions: Path) -> None:
    result, _ = start(["/help", "/quit"], sessions)
    for command in ("/ask TEXT", "/alt", "/skip", "/note TEXT", "/pass"):
        assert command in result.stdout


def test_alt_takes_the_runner_up_and_keeps_the_tools_choice(sessions: Path) -> None:
    result, doc = start([FIRST, "/alt", SECOND, "/quit"], sessions)
    assert "next-best move" in result.stdout
    decision = doc["turns"][0]["decision"]
    assert decision["decided_by"] == "moderator"
    assert decision["moderator"]["action"] == "alt"
    tool = decision["tool_choice"]
    # the moderator's move is not the tool's, and the tool's winner is still on record
    assert (decision["strategy"], decision["node_id"]) != (tool["strategy"], tool["node_id"])
    selected = [c for c in doc["turns"][0]["candidates"] if c["selected"]]
    assert [(c["strategy"], c["node_id"]) for c in selected] == [
        (tool["strategy"], tool["node_id"])
    ]
    # the question asked follows the moderator's move
    question = doc["turns"][1]["question"]
    assert (question["strategy"], question["focus_node_id"]) == (
        decision["strategy"],
        decision["node_id"],
    )
    assert doc["turns"][1]["decision"]["decided_by"] == "tool"
    verified(sessions)


def test_a_second_alt_walks_down_the_ranking(sessions: Path) -> None:
    _, doc = start([FIRST, "/alt", "/alt", "/quit"], sessions)
    pending = doc["pending_question"]
    decision = doc["turns"][0]["decision"]
    assert (pending["strategy"], pending["focus_node_id"]) == (
        decision["strategy"],
        decision["node_id"],
    )
    verified(sessions)


def test_skip_closes_the_focus_node(sessions: Path) -> None:
    _, before = start([FIRST, "/quit"], sessions)
    focus = before["pending_question"]["focus_node_id"]
    assert focus is not None
    result = run_cli(["--resume", before["id"]], ["/skip", SECOND, "/quit"], sessions)
    assert result.exit_code == 0, result.output
    (path,) = sessions.glob("*.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    decision = doc["turns"][0]["decision"]
    assert decision["moderator"] == {
        "action": "skip",
        "strategy": None,
        "node_id": focus,
        "text": "",
    }
    assert decision["node_id"] != focus
    assert doc["turns"][1]["question"]["focus_node_id"] != focus
    probes = doc["tracker"]["states"][focus]["probes"]
    assert [1, "moderator", "skipped"] in probes
    verified(sessions)


def test_ask_replaces_the_wording_and_keeps_the_tools_question(sessions: Path) -> None:
    mine = "What would you miss most without them?"
    result, doc = start([FIRST, f"/ask {mine}", SECOND, "/quit"], sessions)
    assert mine in result.stdout
    question = doc["turns"][1]["question"]
    assert question["text"] == mine and question["asked_by"] == "moderator"
    assert question["tool_text"] and question["tool_text"] != mine
    decision = doc["turns"][0]["decision"]
    assert decision["decided_by"] == "moderator"
    assert decision["moderator"]["action"] == "ask" and decision["moderator"]["text"] == mine
    verified(sessions)


def test_note_is_kept_with_the_turn(sessions: Path) -> None:
    _, doc = start([FIRST, "/note seems keen on audio", SECOND, "/quit"], sessions)
    assert doc["turns"][1]["question"]["notes"] == ["seems keen on audio"]
    assert doc["turns"][1]["answer"]["text"] == SECOND  # a note is not an answer


def test_pass_is_recorded_as_declined_not_as_dont_know(sessions: Path) -> None:
    _, doc = start([FIRST, "/pass", "/quit"], sessions)
    turn = doc["turns"][1]
    assert turn["answer"]["declined"] is True and turn["answer"]["text"] == ""
    assert turn["assessment"]["answer_kind"] == "declined"
    assert turn["assessment"]["knowledge_ceiling"] == "none"
    assert turn["signals"]["llm.answer_kind"] == "declined"
    assert not {c["task"] for c in turn["llm_calls"]} & {"extract", "assess"}
    focus = doc["turns"][1]["question"]["focus_node_id"]
    if focus is not None:  # the declined node is closed, like "can we move on"
        outcomes = [p[2] for p in doc["tracker"]["states"][focus]["probes"]]
        assert "declined" in outcomes
    verified(sessions)


def test_commands_that_cannot_apply_say_why_and_change_nothing(sessions: Path) -> None:
    result, doc = start(["/alt", "/skip", "/ask", FIRST, "/quit"], sessions)
    assert "answer a question first" in result.stdout
    assert "/ask needs a text" in result.stdout
    assert doc["turns"][0]["answer"]["text"] == FIRST
    assert len(doc["turns"]) == 1


def test_what_if_compares_the_tools_choice_not_the_moderators(sessions: Path) -> None:
    from interview_cli.analysis.replay.whatif import what_if
    from interview_cli.analysis.sources import snapshot_methodology

    start([FIRST, "/alt", SECOND, "/quit"], sessions)
    (path,) = sessions.glob("*.json")
    session = SessionStore(sessions).load(str(path))
    result = what_if(session, snapshot_methodology(session))
    assert result.changed == []  # the same weights make the same (tool) decisions
    tool = session.turns[0].decision.tool_choice  # type: ignore[union-attr]
    assert result.rows[0].recorded.strategy == tool.strategy  # type: ignore[union-attr]


def test_the_transcript_shows_the_moderator_the_note_and_the_pass(sessions: Path) -> None:
    _, doc = start([FIRST, "/alt", "/note keen on audio", SECOND, "/pass", "/quit"], sessions)
    shown = CliRunner().invoke(
        app, ["sessions", "show", doc["id"], "--sessions-dir", str(sessions)]
    )
    assert shown.exit_code == 0, shown.output
    assert "moderator: /alt (the tool chose" in shown.stdout
    assert "note: keen on audio" in shown.stdout
    assert "(declined: /pass)" in shown.stdout


def test_a_refused_alt_claims_nothing_was_recorded(sessions: Path) -> None:
    result, _ = start(["/alt", "/skip", FIRST, "/quit"], sessions)
    assert "/alt needs a decision to overrule" in result.stdout
    assert "(recorded)" not in result.stdout


def test_the_moderators_question_is_not_labelled_with_the_tools_strategy(sessions: Path) -> None:
    result, _ = start([FIRST, "/ask What else do you notice?", "/quit"], sessions)
    panel = result.stdout[result.stdout.index("│ What else do you notice?") :]
    subtitle = panel.splitlines()[1]
    assert "asked by the moderator" in subtitle and "strategy:" not in subtitle


def test_no_question_is_shown_after_the_respondent_asks_to_stop(sessions: Path) -> None:
    result, doc = start([FIRST, "I want to stop. Goodbye"], sessions)
    after = result.stdout[result.stdout.index("you › I want to stop") :]
    assert "Question 3" not in after and "next:" not in after
    assert "we'll stop here" in after
    assert doc["status"] == "completed" and doc["pending_question"] is None
