"""Hostile text across the model boundary, through `interview run` against the fake provider.

Each test is a whole CLI run on temporary directories: an answer far longer than any model's
context, a model that answers with terminal escapes and controls, a malformed base URL and a
base URL where nothing listens.
"""

from __future__ import annotations

import io
import json
import socket
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from conftest import TaskKit
from fakeserver import FakeLLMServer
from typer.testing import CliRunner

from interview_cli.cli.app import app
from interview_cli.llm.prompts import ASSESSMENT_TOOL, EXTRACTION_TOOL

ANSWER = "I love the noise cancelling because it lets me focus on the train"


@pytest.fixture
def env(provider_env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    """The fake provider for every client, with retries that do not wait."""
    config = tmp_path / "llm.yaml"
    config.write_text("retry:\n  base_delay_s: 0\n  max_delay_s: 0\n", encoding="utf-8")
    return {**provider_env, "INTERVIEW_LLM_CONFIG": str(config)}


def run(args: list[str], answers: str, env: dict[str, str], sessions: Path) -> Any:
    return CliRunner().invoke(
        app, ["run", "--sessions-dir", str(sessions), *args], input=answers, env=env
    )


def the_session(sessions: Path) -> dict[str, Any]:
    (path,) = sessions.glob("*.json")
    return json.loads(path.read_text(encoding="utf-8"))


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings(k) + strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def test_an_answer_longer_than_the_context_is_kept_whole_and_sent_bounded(
    fake_server: FakeLLMServer, env: dict[str, str], kit: TaskKit, tmp_path: Path
) -> None:
    fake_server.tool_inputs.update(kit.tool_inputs)
    fake_server.context_chars = 120_000  # a 300 KB answer cannot fit, a bounded one can
    pasted = " ".join(f"{ANSWER} (part {i})." for i in range(4000))
    assert len(pasted) > 290_000
    sessions = tmp_path / "sessions"
    result = run(["-c", "headphones_mec", "-p", "anthropic"], f"{pasted}\n/quit\n", env, sessions)
    assert result.exit_code == 0, result.output
    notices = [line for line in result.stderr.splitlines() if "characters long" in line]
    assert notices == [
        f"warning: your answer is {len(pasted):,} characters long: the session keeps all of "
        "it, the model reads the first 20,000"
    ]
    assert "Question 2" in result.stdout  # the interview went on to a next question
    doc = the_session(sessions)
    assert doc["status"] == "paused"
    (turn,) = doc["turns"]
    assert turn["answer"]["text"] == pasted and turn["status"] == "complete"
    tasks = [json.dumps(r.body) for r in fake_server.requests]
    assert all(len(body) <= 120_000 for body in tasks)
    assert any("part 0" in body for body in tasks) and not any("part 3999" in b for b in tasks)


HOSTILE = (
    "\x1b]52;c;ZXZpbA==\x07"  # OSC 52: write the clipboard
    "\x1b[2J\x1b[31m"  # clear the screen, red
    "\u202e"  # right-to-left override
    "\x00\x07\x9b0m"  # NUL, BEL, an 8-bit CSI sequence
)


def hostile_tool_inputs(kit: TaskKit) -> dict[str, Any]:
    extraction = json.loads(json.dumps(kit.tool_inputs[EXTRACTION_TOOL]))
    extraction["nodes"] = [
        {
            "label": f"noise {HOSTILE}cancelling",
            "node_type": "attribute",
            "quote": "the noise cancelling",
            "stance": 1,
            "confidence": 0.9,
        },
        {
            "label": f"focus{HOSTILE} on the train",
            "node_type": "functional_consequence",
            "quote": "lets me focus on the train",
            "stance": 1,
            "confidence": 0.9,
        },
    ]
    extraction["edges"] = [
        {
            "source": f"noise {HOSTILE}cancelling",
            "target": f"focus{HOSTILE} on the train",
            "relation": "leads_to",
            "quote": "because it lets me focus",
            "confidence": 0.8,
        },
    ]
    extraction["reason"] = f"clear {HOSTILE}"
    assessment = dict(kit.tool_inputs[ASSESSMENT_TOOL], rationale=f"engaged {HOSTILE}")
    return {**kit.tool_inputs, EXTRACTION_TOOL: extraction, ASSESSMENT_TOOL: assessment}


def is_control(ch: str) -> bool:
    return ch not in "\t\n" and unicodedata.category(ch).startswith("C") and ch != "\u200d"


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_model_text_with_terminal_controls_is_cleaned_before_it_is_shown_stored_or_exported(
    provider: str, fake_server: FakeLLMServer, env: dict[str, str], kit: TaskKit, tmp_path: Path
) -> None:
    fake_server.tool_inputs.update(hostile_tool_inputs(kit))
    fake_server.text_reply = f"What does {HOSTILE}the quiet give you on the {HOSTILE}train?"
    sessions = tmp_path / "sessions"
    result = run(["-c", "headphones_mec", "-p", provider], f"{ANSWER}\n/quit\n", env, sessions)
    assert result.exit_code == 0, result.output
    shown = [ch for ch in result.stdout + result.stderr if is_control(ch) and ch != "\r"]
    assert shown == [], shown
    assert "What does the quiet give you on the train?" in " ".join(result.stdout.split()), (
        result.stdout
    )
    doc = the_session(sessions)
    stored = {ch for s in strings(doc) for ch in s if is_control(ch)}
    assert stored == set(), stored
    labels = sorted(n["label"] for n in doc["graph"]["nodes"])
    assert labels == ["focus on the train", "noise cancelling"]
    exported = CliRunner().invoke(
        app, ["export", doc["id"], "-f", "graphml", "--sessions-dir", str(sessions)]
    )
    assert exported.exit_code == 0, exported.output
    ET.fromstring(exported.stdout.encode("utf-8"))  # well-formed XML
    graph = nx.read_graphml(io.BytesIO(exported.stdout.encode("utf-8")))
    assert sorted(d["label"] for _, d in graph.nodes(data=True)) == labels


def test_a_malformed_base_url_is_exit_2_naming_the_variable(
    env: dict[str, str], tmp_path: Path
) -> None:
    for bad in ("http//127.0.0.1:8080/v1", "127.0.0.1:8080", "http://127.0.0.1:99999/v1"):
        result = run(
            ["-c", "headphones_mec", "-p", "openai"],
            f"{ANSWER}\n",
            {**env, "OPENAI_BASE_URL": bad},
            tmp_path / "sessions",
        )
        assert result.exit_code == 2, (bad, result.output)
        (line,) = result.stderr.strip().splitlines()
        assert line.startswith(f"error: OPENAI_BASE_URL='{bad}' is not a valid base URL"), line
        assert not (tmp_path / "sessions").exists()  # refused before anything was written


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again: nothing listens there


def test_a_refused_connection_is_exit_1_naming_the_url_and_the_session_is_kept(
    env: dict[str, str], tmp_path: Path
) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    sessions = tmp_path / "sessions"
    result = run(
        ["-c", "headphones_mec", "-p", "openai"],
        f"{ANSWER}\n",
        {**env, "OPENAI_BASE_URL": url},
        sessions,
    )
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.strip().splitlines()
    assert "connection failed" in line and url in line, line
    doc = the_session(sessions)
    assert doc["status"] == "failed"
    assert f"interview run --resume {doc['id']}" in line
