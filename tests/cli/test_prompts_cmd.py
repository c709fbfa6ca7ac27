"""`interview prompts SESSION --turn N [--task T]`: the messages a recorded turn sent."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interview_cli.cli.app import app

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "analysis"))
from session_factory import MEC_ANSWERS, run_interview  # noqa: E402


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("prompts")
    return run_interview(
        directory, concept="headphones_mec", session_id="mec", answers=MEC_ANSWERS, max_turns=8
    )


def invoke(*args: str) -> Any:
    return CliRunner().invoke(app, ["prompts", *args], catch_exceptions=False)


def doc(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def test_a_turn_shows_every_request_in_the_order_made(session: Path) -> None:
    result = invoke(str(session), "--turn", "3")
    assert result.exit_code == 0, result.output
    out = result.stdout
    heads = [line for line in out.splitlines() if line.startswith("turn 3 · ")]
    tasks = [h.split(" · ")[1] for h in heads]
    assert tasks[:2] == ["extract", "assess"] and tasks[-1] == "generate_question"
    answer = doc(session)["turns"][2]["answer"]["text"]
    assert out.count(answer) >= 3  # extracted, assessed, and the last answer of the brief
    assert "--- system ---" in out and "--- user ---" in out


def test_one_task_as_json_holds_the_exact_messages(session: Path) -> None:
    result = invoke(str(session), "--turn", "2", "--task", "generate_question", "--json")
    assert result.exit_code == 0, result.output
    (record,) = json.loads(result.stdout)
    assert record["task"] == "generate_question" and record["tool"] is None
    system, user = record["messages"]
    assert system["role"] == "system" and "One question, one idea" in system["content"]
    turns = doc(session)["turns"]
    assert turns[1]["answer"]["text"] in user["content"]
    assert "## Technique: " + turns[2]["question"]["strategy"] in user["content"]
    assert "Active Signals" not in user["content"]


def test_turn_one_holds_the_opening(session: Path) -> None:
    result = invoke(str(session), "--turn", "1", "--task", "generate_opening", "--json")
    (record,) = json.loads(result.stdout)
    assert "opening" in record["messages"][0]["content"]


def test_the_persona_request_of_a_simulated_session(session: Path, tmp_path: Path) -> None:
    data = doc(session)
    data["simulation"] = {"persona": {"id": "cooperative"}}
    simulated = tmp_path / "sim.json"
    simulated.write_text(json.dumps(data), encoding="utf-8")
    result = invoke(str(simulated), "--turn", "4", "--task", "respond_as_persona", "--json")
    assert result.exit_code == 0, result.output
    (record,) = json.loads(result.stdout)
    user = record["messages"][1]["content"]
    assert data["turns"][3]["question"]["text"] in user
    assert data["turns"][2]["answer"]["text"] in user  # the conversation so far
    assert data["turns"][3]["answer"]["text"] not in user  # not its own answer


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--turn", "99"), "--turn 99: session mec has turns 1 to"),
        (("--turn", "0"), "--turn 0: session mec has turns 1 to"),
        (("--turn", "2", "--task", "bogus"), "--task bogus: unknown task; use one of"),
        (("--turn", "3", "--task", "generate_opening"), "turn 3 made no such request"),
    ],
)
def test_bad_turn_or_task_is_one_line_and_exit_2(
    session: Path, args: tuple[str, ...], message: str
) -> None:
    result = CliRunner().invoke(app, ["prompts", str(session), *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
