"""Every example in every `--help` runs as written, in a scratch working directory.

The examples are read from the help itself (each bulleted `interview ...` line of a command's
help and epilog), so an example added later is tested too. The working directory holds what a
user following the help would have: a sessions directory with a live interview and a batch,
and the files the examples name (``a.json``, ``codes.yaml``, ``my_tuned_mec.yaml`` ...).

What is not run literally, and why:

* ``ID`` and the sample ids in the help stand for a session id: the workspace's own is used;
* a pipe into ``jq`` or ``dot`` is checked here instead (the output parses, the filter finds
  what it names): neither tool is needed by the project;
* a provider that needs a network (``--provider openai``, ``openai-compatible``) talks to the
  local fake server (``tests.llm.fakeserver``): its base URL replaces ``localhost:11434`` and
  the provider's own, and its keys are fakes. ``--dry-run`` calls nothing and needs no key.
"""

from __future__ import annotations

import codecs
import json
import os
import re
import shlex
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from interview_cli.cli.app import app
from tests.analysis.dot_parser import parse_dot
from tests.llm.fakeserver import FakeLLMServer

ROOT = Path(__file__).resolve().parents[2]
LOCAL_SERVER = "http://localhost:11434/v1"
SAMPLE_IDS = ("headphones_mec-20261122-101500-ab12",)
# Six answers: the examples look at turn 5 and at the fourth turn's decision.
ANSWERS = [
    "I love the noise cancelling because it lets me focus on the train",
    "Focusing on the train means I can get my work done, which makes me feel in control",
    "Feeling in control matters because I value freedom",
    "The battery lasts all day so I never worry about charging",
    "Not worrying lets me relax on long trips",
    "The fit is comfortable so I can wear them for hours",
]
SAMPLE_FILES = ("sessions/headphones_mec-20261122-101500-ab12.json", "sessions/x.json")


def _commands(command: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield path, command
    for name, sub in sorted((getattr(command, "commands", None) or {}).items()):
        yield from _commands(sub, (*path, name))


def help_examples() -> list[tuple[str, str]]:
    """(command, example) for every bulleted `interview ...` example of every help page."""
    found: list[tuple[str, str]] = []
    for path, command in _commands(typer.main.get_command(app), ("interview",)):
        text = f"{command.help or ''}\n{command.epilog or ''}"
        for match in re.finditer(r"^\s*\* `([^`]+)`", text, re.M):
            example = " ".join(match.group(1).split())
            if example.startswith(("interview ", "printf ")):
                found.append((" ".join(path), example))
    return found


EXAMPLES = help_examples()


@dataclass
class Workspace:
    root: Path
    session_id: str
    env: dict[str, str | None]
    server: FakeLLMServer

    def provider_env(self, words: list[str]) -> dict[str, str | None]:
        """The environment for an example: a provider it names that needs a network gets a
        fake key and the fake server's address."""
        provider = words[words.index("--provider") + 1] if "--provider" in words else "offline"
        extra: dict[str, str] = {}
        if provider == "anthropic":
            extra = {"ANTHROPIC_BASE_URL": self.server.anthropic_base_url}
            extra["ANTHROPIC_API_KEY"] = "sk-ant-test-examples"
        elif provider == "openai":
            extra = {"OPENAI_BASE_URL": self.server.openai_base_url}
            extra["OPENAI_API_KEY"] = "sk-test-examples"
        return {**self.env, **extra}


def _cli(args: list[str], env: dict[str, str | None], stdin: str | None = None) -> Any:
    return CliRunner().invoke(app, args, input=stdin, env=env, catch_exceptions=False)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    root = tmp_path_factory.mktemp("examples")
    server = FakeLLMServer().start()
    saved_cwd = Path.cwd()
    os.chdir(root)
    # No key or server of the machine's: a provider is only what an example names.
    env: dict[str, str | None] = {
        name: None
        for name in os.environ
        if name.endswith(("_API_KEY", "_BASE_URL")) or name.startswith(("LLM_", "INTERVIEW_"))
    }
    env |= {
        "HOME": str(root),
        "COLUMNS": "120",
        "INTERVIEW_SESSIONS_DIR": str(root / "sessions"),  # what ./sessions is here
    }
    try:
        live = _cli(
            ["run", "-c", "headphones_mec", "--participant", "P01", "--meta", "segment=commuter"],
            env,
            "".join(f"{answer}\n" for answer in ANSWERS),
        )
        assert live.exit_code == 0, live.output
        (session_file,) = (root / "sessions").glob("*.json")
        batch = ["batch", "cooperative", "-c", "headphones_mec", "--max-turns", "4"]
        made = _cli([*batch, "--out", "sessions/batch-1"], env)
        assert made.exit_code == 0, made.output
        shutil.copytree(root / "sessions" / "batch-1", root / "runs")
        for name in ("a.json", "s1.json"):
            shutil.copy(session_file, root / name)
        for name in ("b.json", "s2.json"):
            shutil.copy(next((root / "runs").glob("*.json")), root / name)
        (root / "codes.yaml").write_text("sound: [sound quality, the sound]\n", encoding="utf-8")
        shutil.copy(ROOT / "ladders" / "headphones_sample.csv", root / "coded.csv")
        mec = (ROOT / "methodologies" / "means_end_chain.yaml").read_text(encoding="utf-8")
        (root / "my_tuned_mec.yaml").write_text(mec, encoding="utf-8")
        for library in (root / "research" / "library", root / "my_library"):
            (library / "personas").mkdir(parents=True)
            shutil.copy(ROOT / "personas" / "cooperative.yaml", library / "personas")
        _own_method_and_concept(root / "validate")
        yield Workspace(root, session_file.stem, env, server)
    finally:
        os.chdir(saved_cwd)
        server.stop()


def _own_method_and_concept(folder: Path) -> None:
    """A methodology and a concept of the user's own, to be validated by path (kept out of
    the working directory's library, where they would stand beside the shipped ones)."""
    (folder / "methodologies").mkdir(parents=True)
    (folder / "concepts").mkdir()
    mec = (ROOT / "methodologies" / "means_end_chain.yaml").read_text(encoding="utf-8")
    mec = mec.replace("name: means_end_chain", "name: my_method", 1)
    (folder / "methodologies" / "my_method.yaml").write_text(mec, encoding="utf-8")
    concept = (ROOT / "concepts" / "headphones_mec.yaml").read_text(encoding="utf-8")
    concept = concept.replace("id: headphones_mec", "id: my_study", 1)
    (folder / "concepts" / "my_study.yaml").write_text(concept, encoding="utf-8")


def _words(example: str, ws: Workspace) -> list[str]:
    """The example's words, with the stand-ins for a session and a server replaced."""
    out = []
    for word in shlex.split(example, posix=True):
        if word == "ID" or word in SAMPLE_IDS:
            word = ws.session_id
        elif word in SAMPLE_FILES:
            word = f"sessions/{ws.session_id}.json"
        elif word == LOCAL_SERVER:
            word = ws.server.openai_base_url
        elif word.startswith(("methodologies/my_", "concepts/my_")):
            word = f"validate/{word}"
        out.append(str(ws.root / word[2:]) if word.startswith("~/") else word)  # HOME
    return out


def _pipeline(words: list[str]) -> list[list[str]]:
    stages: list[list[str]] = [[]]
    for word in words:
        if word == "|":
            stages.append([])
        else:
            stages[-1].append(word)
    return stages


def _jq(data: Any, expression: str) -> list[Any]:
    """The few jq paths the examples use: ``.a``, ``.[3]``, ``.[]`` in sequence."""
    values = [data]
    for step in re.findall(r"\.\w+|\[\d*\]|\.(?=\[)", expression):
        if step == ".":
            continue
        out: list[Any] = []
        for value in values:
            if step == "[]":
                out += list(value.values() if isinstance(value, dict) else value)
            elif step.startswith("["):
                out.append(value[int(step[1:-1])])
            else:
                out.append(value[step[1:]])
        values = out
    return values


def _consume(stage: list[str], output: str) -> None:
    """Check what a pipe's reader would get: jq finds its path, dot reads a graph."""
    tool, *args = stage
    if tool == "jq":
        expression = [a for a in args if not a.startswith("-")][0]
        lines = output.splitlines()
        docs = [json.loads(line) for line in lines] if _is_jsonl(lines) else [json.loads(output)]
        for doc in docs:
            assert _jq(doc, expression), f"jq {expression} finds nothing"
    elif tool == "dot":
        assert parse_dot(output).nodes
    else:
        raise AssertionError(f"no check for piping into {tool}")


def _is_jsonl(lines: list[str]) -> bool:
    return len(lines) > 1 and all(line.startswith("{") and line.endswith("}") for line in lines)


def _run(example: str, ws: Workspace) -> None:
    stages = _pipeline(_words(example, ws))
    stdin = None
    if stages[0][0] == "printf":
        stdin = codecs.decode(stages.pop(0)[1], "unicode_escape")
    command, *readers = stages
    target = None
    if ">" in command:
        command, target = command[: command.index(">")], command[command.index(">") + 1]
    reader_target = None
    if readers and ">" in readers[-1]:
        reader_target = readers[-1][readers[-1].index(">") + 1]
        readers[-1] = readers[-1][: readers[-1].index(">")]
    assert command[0] == "interview", example
    result = _cli(command[1:], ws.provider_env(command), stdin)
    assert result.exit_code == 0, f"{example}\n{result.output}"
    if target is not None:
        (ws.root / target).write_text(result.stdout, encoding="utf-8")
        assert (ws.root / target).stat().st_size > 0
    for reader in readers:
        _consume(reader, result.stdout)
    if reader_target is not None:
        assert reader_target  # the reader's own output file (dot's svg) is dot's to write


def test_the_help_has_examples_to_run() -> None:
    commands = {command for command, _ in EXAMPLES}
    assert len(EXAMPLES) > 40
    for name in ("run", "batch", "replay", "report", "export", "sessions", "validate"):
        assert f"interview {name}" in commands


@pytest.mark.parametrize(("command", "example"), EXAMPLES, ids=[e for _, e in EXAMPLES])
def test_every_help_example_runs(workspace: Workspace, command: str, example: str) -> None:
    _run(example, workspace)
