"""The closing turn with a capable model, through `interview run` over the real SDK against
the fake server: the closing answer is read like a turn's answer (its strategy named, the
earlier concepts typed and quoted), what it adds gets a slot call, `prompts --turn N` shows
it, the summary keeps every stated value and the complaint and shows the respondent's
correction, and the rating is stored with the very summary the respondent rated."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from capable_model import assessment, capable_defaults, edge, extraction, node, slots
from conftest import FAKE_KEYS
from fakeserver import FakeLLMServer, Step
from typer.testing import CliRunner

from interview_cli.cli.app import app

ANSWERS = [
    "I love the noise cancelling, I can focus on the train",
    "It gives me time to myself. They do get warm on the ears though",
    "Mostly right, but it's less the train than my desk at work, where I get my reading done",
]
CLOSING = (
    "Here's what I heard: the noise cancelling lets you focus on the train, which gives you "
    "time to myself.\n\nIs anything important missing or wrong? Thank you for your time."
)


def script(server: FakeLLMServer) -> None:
    capable_defaults(server)
    server.script_task("generate_opening", Step(text="Tell me about the headphones you use."))
    server.script_task(
        "generate_question",
        Step(text="Thanks.\n\nWhat does being able to focus on the train give you?"),
        Step(text=CLOSING),
    )
    server.script_task(
        "extract",
        Step(
            tool_input=extraction(
                [
                    node("noise cancelling", "attribute", "the noise cancelling"),
                    node("focus on the train", "functional_consequence", "focus on the train"),
                ],
                [edge("noise cancelling", "focus on the train", "I can focus on the train")],
            )
        ),
        Step(
            tool_input=extraction(
                [
                    node("time to myself", "terminal_value", "time to myself"),
                    node("get warm on the ears", "attribute", "get warm on the ears", -1),
                ],
                [edge("focus on the train", "time to myself", "It gives me time to myself")],
            )
        ),
        Step(
            tool_input=extraction(
                [
                    node("focus at my desk", "functional_consequence", "my desk at work"),
                    node("get my reading done", "functional_consequence", "get my reading done"),
                ],
                [
                    edge(
                        "focus at my desk",
                        "focus on the train",
                        "less the train than my desk",
                        "revises",
                    ),
                    edge("focus at my desk", "get my reading done", "where I get my reading"),
                ],
            )
        ),
    )
    server.script_task("assess", Step(tool_input=assessment()), Step(tool_input=assessment()))
    server.script_task(
        "propose_slots",
        Step(tool_input=slots(("noise_cancelling", "attribute", ["noise cancelling"]))),
        Step(tool_input={"proposals": []}),
        Step(
            tool_input=slots(
                ("getting_things_done", "functional_consequence", ["get my reading done"])
            )
        ),
    )


@pytest.fixture
def env(fake_server: FakeLLMServer, tmp_path: Path) -> dict[str, str]:
    config = tmp_path / "llm.yaml"
    config.write_text("retry: {base_delay_s: 0, max_delay_s: 0}\n", encoding="utf-8")
    return {
        **FAKE_KEYS,
        "OPENAI_BASE_URL": fake_server.openai_base_url,
        "INTERVIEW_LLM_CONFIG": str(config),
        "INTERVIEW_PRICING": "",
    }


def run_interview(env: dict[str, str], sessions: Path) -> tuple[Any, dict[str, Any]]:
    args = ["run", "-c", "headphones_mec", "--provider", "openai", "--max-turns", "2"]
    result = CliRunner().invoke(
        app, [*args, "--sessions-dir", str(sessions)], input="\n".join([*ANSWERS, "4", ""]), env=env
    )
    assert result.exit_code == 0, result.output
    (path,) = sessions.glob("*.json")
    return result, json.loads(path.read_text(encoding="utf-8"))


def test_the_closing_is_a_whole_turn(
    fake_server: FakeLLMServer, env: dict[str, str], tmp_path: Path
) -> None:
    script(fake_server)
    sessions = tmp_path / "sessions"
    result, doc = run_interview(env, sessions)
    closing = doc["closing"]

    # Read like a turn's answer: the closing strategy, earlier concepts typed and quoted.
    extracts = [r for r in fake_server.requests if "record_extraction" in json.dumps(r.body)]
    read = extracts[-1].body["messages"][-1]["content"]
    assert ANSWERS[2] in read
    assert "strategy: reflect" in read and "strategy: opening" not in read
    assert 'noise cancelling (attribute): "the noise cancelling"' in read

    # What it added got its slot call, recorded on the closing.
    labels = [b["labels"] for b in closing["slot_proposals"]]
    assert ["get my reading done"] in labels or any("get my reading done" in x for x in labels)
    assert {s["slot_name"] for s in closing["slot_discovery"]["slots"]} >= {"getting_things_done"}

    # The summary: every value and the complaint, the correction as corrected.
    summary = closing["summary"]
    assert "time to myself" in summary and "get warm on the ears" in summary
    assert "focus at my desk" in summary and "focus on the train" not in summary
    # ... and it is the summary the respondent rated, as shown.
    shown = " ".join(result.stdout.split())
    for line in summary.splitlines():
        assert " ".join(line.split()) in shown
    assert closing["rating"] == 4

    session_id = doc["id"]
    prompts = CliRunner().invoke(
        app, ["prompts", session_id, "--turn", "3", "--sessions-dir", str(sessions)], env=env
    )
    assert prompts.exit_code == 0, prompts.output
    assert "turn 3 · extract" in prompts.stdout and ANSWERS[2] in prompts.stdout
    verify = CliRunner().invoke(
        app, ["replay", session_id, "--verify", "--sessions-dir", str(sessions)], env=env
    )
    assert verify.exit_code == 0, verify.output
