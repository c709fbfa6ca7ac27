"""Issue 20 items 4-5 through the CLI, against the fake OpenAI-compatible server on 127.0.0.1:
a server of your own with no key and an unpriced model (cost unknown everywhere, never $0),
prices added in the settings file, and the spend cap stopping `run` and `batch` with their
sessions resumable."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from conftest import FAKE_KEYS, TaskKit
from fakeserver import FakeLLMServer
from typer.testing import CliRunner

from interview_cli.cli.app import app

ANSWERS = (
    "I love the noise cancelling because it lets me focus on the train\n"
    "Focus matters because I get my reading done\n"
    "It makes me feel calm and in control\n"
)
MODEL = "llama3.1:8b"


@pytest.fixture
def server(fake_server: FakeLLMServer, kit: TaskKit) -> FakeLLMServer:
    fake_server.tool_inputs.update(kit.tool_inputs)
    return fake_server


def settings_file(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "llm.yaml"
    path.write_text("retry: {base_delay_s: 0, max_delay_s: 0}\n" + extra, encoding="utf-8")
    return path


def no_keys(tmp_path: Path, extra: str = "") -> dict[str, str]:
    """No provider key at all (empty counts as unset), instant retries."""
    return {
        **{var: "" for var in FAKE_KEYS},
        "OPENAI_COMPATIBLE_API_KEY": "",
        "OPENAI_COMPATIBLE_BASE_URL": "",
        "OPENAI_COMPATIBLE_MODEL": "",
        "INTERVIEW_PRICING": "",
        "INTERVIEW_LLM_CONFIG": str(settings_file(tmp_path, extra)),
    }


def invoke(args: list[str], env: dict[str, str], answers: str = "") -> Any:
    return CliRunner().invoke(app, args, input=answers, env=env)


def the_session(folder: Path) -> dict[str, Any]:
    (path,) = folder.glob("*.json")
    return json.loads(path.read_text(encoding="utf-8"))


def own_server(server: FakeLLMServer, *more: str) -> list[str]:
    """The options that point every client at the fake server as an OpenAI-compatible one."""
    return ["--provider", "openai-compatible", "--base-url", server.openai_base_url, *more]


def test_a_server_without_a_key_and_an_unpriced_model(
    server: FakeLLMServer, tmp_path: Path
) -> None:
    env = no_keys(tmp_path)
    sessions = tmp_path / "sessions"
    own = own_server(server)
    result = invoke(
        ["run", "-c", "headphones_mec", *own, "--model", MODEL, "--sessions-dir", str(sessions)],
        env,
        ANSWERS + "/end\n\n",
    )
    assert result.exit_code == 0, result.output
    assert f"LLM: openai-compatible {MODEL}" in " ".join(result.stdout.split())
    assert server.requests and all(r.body["model"] == MODEL for r in server.requests)
    # No key was set, and none leaves the process: the SDK's placeholder only.
    assert {r.headers.get("authorization") for r in server.requests} == {"Bearer no-key-needed"}
    doc = the_session(sessions)
    assert doc["settings"]["clients"]["extraction"] == {
        "provider": "openai-compatible",
        "model": MODEL,
    }
    calls = [c for t in doc["turns"] for c in t["llm_calls"]]
    assert calls and all(c["cost_usd"] is None for c in calls)  # unknown, not 0
    assert doc["usage"]["unpriced"] == [f"openai-compatible:{MODEL}"]
    # The totals are unknown too, in the file: null, never a 0.0 that reads as free.
    assert doc["usage"]["cost_usd"] is None and doc["usage"]["priced_cost_usd"] == 0.0
    assert all(task["cost_usd"] is None for task in doc["usage"]["by_task"].values())
    end = " ".join(result.stdout.split())
    assert "cost unknown (" in end and f"no price for openai-compatible:{MODEL}" in end
    assert "$0.0000" not in result.stdout

    listed = invoke(["sessions", "--sessions-dir", str(sessions)], env)
    assert listed.exit_code == 0 and "unknown" in listed.stdout and "$0" not in listed.stdout
    as_json = json.loads(
        invoke(["sessions", "--sessions-dir", str(sessions), "--json"], env).stdout
    )
    (row,) = as_json if isinstance(as_json, list) else as_json["sessions"]
    assert row["cost_usd"] is None and row["unpriced"] == [f"openai-compatible:{MODEL}"]
    report = invoke(["report", str(sessions), "--format", "md"], env)
    assert report.exit_code == 0, report.output
    assert "unknown" in report.stdout and "$0.0000" not in report.stdout
    data = json.loads(invoke(["report", str(sessions), "--format", "json"], env).stdout)
    assert data["sessions"][0]["cost_usd"] is None and data["aggregate"]["cost_usd_total"] is None


def test_env_vars_choose_the_server_and_a_key_is_sent_when_set(
    server: FakeLLMServer, tmp_path: Path
) -> None:
    env = {
        **no_keys(tmp_path),
        "OPENAI_COMPATIBLE_BASE_URL": server.openai_base_url,
        "OPENAI_COMPATIBLE_MODEL": "qwen2.5:7b",
        "OPENAI_COMPATIBLE_API_KEY": "sk-test-K3Y-own-server-1c2d3e",
    }
    sessions = tmp_path / "sessions"
    result = invoke(
        ["run", "-c", "headphones_mec", "--sessions-dir", str(sessions)], env, ANSWERS + "/quit\n"
    )
    assert result.exit_code == 0, result.output
    assert "openai-compatible qwen2.5:7b" in " ".join(result.stdout.split())
    assert {r.headers.get("authorization") for r in server.requests} == {
        "Bearer sk-test-K3Y-own-server-1c2d3e"
    }
    assert "sk-test-K3Y" not in (sessions / f"{the_session(sessions)['id']}.json").read_text()


def test_a_missing_url_or_model_is_one_line_exit_2(tmp_path: Path) -> None:
    env = no_keys(tmp_path)
    sessions = tmp_path / "sessions"
    args = ["run", "-c", "headphones_mec", "--sessions-dir", str(sessions)]
    no_url = invoke([*args, "--provider", "openai-compatible", "--model", MODEL], env)
    assert no_url.exit_code == 2
    (line,) = no_url.stderr.strip().splitlines()
    assert "needs your server's URL: --base-url URL or OPENAI_COMPATIBLE_BASE_URL" in line
    no_model = invoke(
        [*args, "--provider", "openai-compatible", "--base-url", "http://127.0.0.1:9/v1"], env
    )
    assert no_model.exit_code == 2
    assert "needs a model name: --model MODEL or OPENAI_COMPATIBLE_MODEL" in no_model.stderr
    capped = invoke(
        [
            *args,
            "--provider",
            "openai-compatible",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--model",
            MODEL,
            "--max-cost",
            "1",
        ],
        env,
    )
    assert capped.exit_code == 2
    assert f"--max-cost needs a price for every model, and openai-compatible:{MODEL}" in (
        capped.stderr
    )
    assert not sessions.exists()  # refused before anything was written


# Prices that make the cap's arithmetic plain: input is free, output costs $1000 per million
# tokens. The fake server bills 35 output tokens per call (12 when streamed), so a call costs
# $0.035 (or $0.012); its bound is the client's whole max_tokens: $2.048 for extraction,
# $0.512 for scoring, $1.024 for questions.
PRICED = f'prices:\n  openai-compatible:\n    "{MODEL}": {{input: 0, output: 1000}}\n'


def test_prices_in_the_settings_file_and_the_cap_stopping_a_run(
    server: FakeLLMServer, tmp_path: Path
) -> None:
    env = no_keys(tmp_path, PRICED)
    sessions = tmp_path / "sessions"
    own = own_server(server, "--model", MODEL)
    args = ["run", "-c", "headphones_mec", *own, "--no-canonical-slots"]
    # Opening, then turn 1 (extract + assess in flight: $2.56 reserved) fit in $2.60; turn 2's
    # assessment could pass it once turn 1 has been spent.
    result = invoke(
        [*args, "--max-cost", "2.6", "--sessions-dir", str(sessions)], env, ANSWERS + "/quit\n"
    )
    assert result.exit_code == 3, result.output
    # (The fake server's thread may log the reading call abandoned in flight: not ours.)
    (line,) = [x for x in result.stderr.splitlines() if x.startswith("error:")]
    doc = the_session(sessions)
    assert re.match(
        r"error: spend cap reached: \$0\.\d+ spent and \$2\.0480 reserved for calls in flight, "
        r"of the \$2\.6000 --max-cost \(the "
        r"next call, assess on openai-compatible:llama3\.1:8b, up to \$0\.5120",
        line,
    )
    (printed,) = re.findall(r"`(interview run --resume [^`]*)`", line)
    assert printed.startswith(f"interview run --resume {doc['id']} --base-url ")
    assert printed.endswith(" --max-cost 5.20")  # a number, so that it runs as printed
    assert doc["status"] == "paused" and doc["usage"]["unpriced"] == []
    assert 0 < doc["usage"]["cost_usd"] <= 2.6
    assert [t["status"] for t in doc["turns"]] == ["complete", "answered"]
    # The same cap again: what the session spent counts, so nothing more is spent.
    again = invoke(
        ["run", "--resume", doc["id"], *own, "--max-cost", "2.6", "--sessions-dir", str(sessions)],
        env,
        "/quit\n",
    )
    assert again.exit_code == 3, again.output
    # The higher cap of the printed command, run as printed, carries on from the answered turn.
    more = invoke(shlex.split(printed)[1:], env, "/quit\n")
    assert more.exit_code == 0, more.output
    resumed = the_session(sessions)
    assert [t["status"] for t in resumed["turns"]] == ["complete", "complete"]
    assert resumed["usage"]["cost_usd"] > doc["usage"]["cost_usd"]


# The cap cancels the other interviews' calls mid-connect; under load, anyio's happy-eyeballs
# connect then leaves a coroutine never awaited, reported at garbage collection (seen twice
# in full runs on 2 busy cores, never alone): the library's, not a fault of the batch.
@pytest.mark.filterwarnings(
    "ignore:coroutine 'connect_tcp.<locals>.try_connect' was never awaited:RuntimeWarning"
)
# A call in flight when the cap stops three interviews at once (-j 3) may leave its socket to
# the garbage collector, which then warns during whichever test runs: a known leak of the
# cancelled call (about one full run in four here), not what this test checks.
@pytest.mark.filterwarnings("ignore:Exception ignored in:pytest.PytestUnraisableExceptionWarning")
def test_the_cap_stops_a_batch_which_resumes_with_a_higher_one(
    server: FakeLLMServer, tmp_path: Path
) -> None:
    env = no_keys(tmp_path, PRICED)
    out = tmp_path / "out"
    own = own_server(server, "--model", MODEL)
    args = [
        "batch",
        "cooperative",
        "-c",
        "headphones_mec",
        *own,
        "--runs",
        "3",
        "-j",
        "1",
        "--max-turns",
        "3",
        "--no-canonical-slots",
        "--out",
        str(out),
        "--json",
    ]
    # One interview costs $0.595 (three turns, then the closing); with $2.56 reserved for each
    # turn's reading, the second interview no longer fits under $3.25 and pauses.
    stopped = invoke([*args, "--max-cost", "3.25"], env)
    assert stopped.exit_code == 3, stopped.output
    record = json.loads(stopped.stdout)
    status = {i["id"].rsplit("-", 1)[1]: i["status"] for i in record["interviews"]}
    assert status == {"r1": "completed", "r2": "stopped", "r3": "stopped"}
    assert record["max_cost"]["reached"] is True and record["max_cost"]["cap_usd"] == 3.25
    assert "1 interview paused, 1 not started" in stopped.stderr
    files = sorted(p.name for p in out.glob("*.json"))
    assert files == [f"cooperative-headphones_mec-adaptive-s0-r{n}.json" for n in (1, 2)]
    docs = [json.loads((out / name).read_text()) for name in files]
    assert [d["status"] for d in docs] == ["completed", "paused"]
    assert sum(d["usage"]["cost_usd"] for d in docs) <= 3.25
    # Concurrency does not let the calls in flight pass the cap together.
    wide = invoke(
        [*args[:-3], "-j", "3", "--out", str(tmp_path / "wide"), "--json", "--max-cost", "3.25"],
        env,
    )
    assert wide.exit_code == 3, wide.output
    spent = sum(
        json.loads(p.read_text())["usage"]["cost_usd"] for p in (tmp_path / "wide").glob("*.json")
    )
    assert 0 < spent <= 3.25
    # A higher cap: the paused interview resumes, the one not started starts.
    done = invoke([*args, "--max-cost", "50"], env)
    assert done.exit_code == 0, done.output
    status = {i["id"].rsplit("-", 1)[1]: i["status"] for i in json.loads(done.stdout)["interviews"]}
    assert status == {"r1": "skipped", "r2": "completed", "r3": "completed"}


def test_a_batch_on_an_unpriced_model_shows_its_cost_as_unknown(
    server: FakeLLMServer, tmp_path: Path
) -> None:
    env = no_keys(tmp_path)
    own = own_server(server)
    result = invoke(
        [
            "batch",
            "cooperative",
            "-c",
            "headphones_mec",
            *own,
            "--model",
            MODEL,
            "--max-turns",
            "2",
            "--no-canonical-slots",
            "--out",
            str(tmp_path / "out"),
        ],
        env,
    )
    assert result.exit_code == 0, result.output
    header = next(line for line in result.stdout.splitlines() if " rungs " in line)
    assert header.split()[-2:] == ["$", "stop"]  # the cost column is there...
    row = next(line for line in result.stdout.splitlines() if line.lstrip().startswith("coop"))
    assert " unknown " in row  # ...and says unknown, not 0.00
