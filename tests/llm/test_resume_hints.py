"""Every resume command `run` prints runs as printed, and no key in a base URL is shown or kept.

Against the fake OpenAI-compatible server: the server named by OPENAI_COMPATIBLE_BASE_URL or
by --base-url, sessions in a folder of their own, a pause and a refused call. Each printed
command is then run exactly as printed (split as a shell would). A base URL carrying a key in
its userinfo or its query is redacted in the error line and in the session file.
"""

from __future__ import annotations

import json
import re
import shlex
import socket
from pathlib import Path
from typing import Any

import pytest
from conftest import FAKE_KEYS, TaskKit
from fakeserver import FakeLLMServer, Step
from typer.testing import CliRunner

from interview_cli.cli.app import app

ANSWER = "I love the noise cancelling because it lets me focus on the train\n"
MODEL = "llama3.1:8b"


@pytest.fixture
def server(fake_server: FakeLLMServer, kit: TaskKit) -> FakeLLMServer:
    fake_server.tool_inputs.update(kit.tool_inputs)
    return fake_server


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """No provider key, instant retries."""
    config = tmp_path / "llm.yaml"
    config.write_text("retry: {base_delay_s: 0, max_delay_s: 0}\n", encoding="utf-8")
    return {
        **{var: "" for var in FAKE_KEYS},
        "OPENAI_COMPATIBLE_API_KEY": "",
        "OPENAI_COMPATIBLE_BASE_URL": "",
        "OPENAI_COMPATIBLE_MODEL": "",
        "INTERVIEW_LLM_CONFIG": str(config),
    }


def invoke(args: list[str], env: dict[str, str], answers: str = "") -> Any:
    return CliRunner().invoke(app, args, input=answers, env=env)


def printed_command(output: str) -> list[str]:
    """The resume command in ``output`` (after "Resume with:" or in backticks), split."""
    found = re.findall(r"Resume with: (.+)$", output, flags=re.M)
    found += re.findall(r"`(interview run --resume [^`]*)`", output)
    assert len(found) == 1, output
    words = shlex.split(found[0])
    assert words[:3] == ["interview", "run", "--resume"], words
    return words[1:]


def test_the_pause_hint_runs_as_printed_with_the_server_from_the_environment(
    server: FakeLLMServer, env: dict[str, str], tmp_path: Path
) -> None:
    env = {**env, "OPENAI_COMPATIBLE_BASE_URL": server.openai_base_url}
    args = ["run", "-c", "headphones_mec", "-p", "openai-compatible", "--model", MODEL]
    first = invoke(args, env, ANSWER + "/quit\n")
    assert first.exit_code == 0, first.output
    again = invoke(printed_command(first.stdout), env, "/quit\n")
    assert again.exit_code == 0, again.output


def test_the_pause_hint_carries_the_base_url_flag_and_the_sessions_folder(
    server: FakeLLMServer, env: dict[str, str], tmp_path: Path
) -> None:
    folder = tmp_path / "study" / "sessions"
    args = ["run", "-c", "headphones_mec", "-p", "openai-compatible", "--model", MODEL]
    args += ["--base-url", server.openai_base_url, "--sessions-dir", str(folder)]
    first = invoke(args, env, ANSWER + "/quit\n")
    assert first.exit_code == 0, first.output
    command = printed_command(first.stdout)
    assert command[command.index("--sessions-dir") + 1] == str(folder)
    again = invoke(command, env, "the battery lasts all day\n/quit\n")
    assert again.exit_code == 0, again.output
    (path,) = folder.glob("*.json")
    assert len(json.loads(path.read_text(encoding="utf-8"))["turns"]) == 2


def test_the_hint_after_a_refused_call_runs_as_printed(
    server: FakeLLMServer, env: dict[str, str], tmp_path: Path
) -> None:
    server.script(Step("status", status=401, message="invalid key"))
    args = ["run", "-c", "headphones_mec", "-p", "openai-compatible", "--model", MODEL]
    args += ["--base-url", server.openai_base_url, "--sessions-dir", str(tmp_path / "elsewhere")]
    first = invoke(args, env, ANSWER)
    assert first.exit_code == 1, first.output
    again = invoke(printed_command(first.stderr), env, ANSWER + "/quit\n")
    assert again.exit_code == 0, again.output


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("through", ["flag", "environment"])
def test_a_key_inside_the_base_url_is_neither_printed_nor_saved(
    env: dict[str, str], tmp_path: Path, through: str
) -> None:
    url = f"http://user:sk-userinfo12345@127.0.0.1:{closed_port()}/v1?api_key=sk-query67890&x=1"
    sessions = tmp_path / "sessions"
    args = ["run", "-c", "headphones_mec", "-p", "openai-compatible", "--model", MODEL]
    args += ["--sessions-dir", str(sessions)]
    if through == "flag":
        args += ["--base-url", url]
    else:
        env = {**env, "OPENAI_COMPATIBLE_BASE_URL": url}
    result = invoke(args, env, ANSWER)
    assert result.exit_code == 1, result.output
    (path,) = sessions.glob("*.json")
    for where, text in (("output", result.output), ("session", path.read_text("utf-8"))):
        assert "userinfo12345" not in text and "query67890" not in text, (where, text)
    assert "http://***@127.0.0.1" in result.stderr and "api_key=***" in result.stderr
    assert json.loads(path.read_text(encoding="utf-8"))["errors"], "the failure is recorded"
