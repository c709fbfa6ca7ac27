"""Start-up: `--help` and the listing commands load only what they draw.

Commands are deferred (cli.deferred): listing them reads no signatures, and a deferred command
is, once used, the command Typer builds. Which modules a command loads is checked in a fresh
interpreter (this one has long imported everything); no timings here: benchmarks/startup.py
measures them.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import typer

from interview_cli import __version__
from interview_cli.cli.app import app
from interview_cli.cli.deferred import DeferredCommand

ROOT = Path(__file__).resolve().parents[2]
HEAVY = (
    "networkx",
    "yaml",
    "pydantic",
    "anthropic",
    "openai",
    "rapidfuzz",
    "markdown_it",
    "pygments",
    "rich.markdown",
    "rich.traceback",
    "rich.syntax",
)


def _deferred(group: Any) -> list[DeferredCommand]:
    found: list[DeferredCommand] = []
    for command in group.commands.values():
        if isinstance(command, DeferredCommand):
            found.append(command)
        if hasattr(command, "commands"):
            found += _deferred(command)
    return found


def _main(group: Any, *argv: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        group.main(list(argv), prog_name="interview", standalone_mode=False)


def test_a_deferred_command_is_the_command_typer_builds() -> None:
    commands = _deferred(typer.main.get_command(app))
    assert len(commands) >= 11  # every command of the app, `sessions show` included
    for command in commands:
        assert not command.built
        before = {k: v for k, v in vars(command).items() if k != "_build"}
        real = command.__dict__["_build"]()
        assert type(real).__mro__[0] in type(command).__mro__
        assert before == {k: v for k, v in vars(real).items() if k not in ("params", "callback")}
        assert [p.name for p in command.params] == [p.name for p in real.params]  # builds it
        assert command.built and command.callback is not None
        assert vars(command).keys() == vars(real).keys()


def test_listing_the_commands_builds_none_and_running_one_builds_it() -> None:
    group = typer.main.get_command(app)
    _main(group, "--help")
    assert not any(command.built for command in _deferred(group))
    _main(group, "concepts", "--help")
    assert [c.name for c in _deferred(group) if c.built] == ["concepts"]
    with pytest.raises(AttributeError):
        _deferred(group)[0].no_such_attribute  # noqa: B018


def _loaded_after(argv: list[str], cwd: Path) -> list[str]:
    """Which of HEAVY one `interview ARGV` imports, in a fresh interpreter."""
    code = textwrap.dedent(f"""
        import contextlib, io, json, sys
        from interview_cli.cli.app import main
        sys.argv = ["interview", *{argv!r}]
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                main()
            except SystemExit as stop:
                assert stop.code in (0, None), stop.code
        print("LOADED=" + json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))
    """)
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "100"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=cwd, env=env
    )
    assert done.returncode == 0, done.stderr
    line = [ln for ln in done.stdout.splitlines() if ln.startswith("LOADED=")][-1]
    return json.loads(line[len("LOADED=") :])  # type: ignore[no-any-return]


@pytest.mark.slow
def test_help_loads_no_heavy_module(tmp_path: Path) -> None:
    assert _loaded_after(["--help"], tmp_path) == []
    assert _loaded_after(["batch", "--help"], tmp_path) == ["pydantic"]  # Typer's adapters


@pytest.mark.slow
def test_listing_commands_load_only_what_they_use(tmp_path: Path) -> None:
    # No sessions to read: no session model, core or networkx.
    assert _loaded_after(["sessions"], tmp_path) == ["pydantic"]
    # Listing parses and validates the library (YAML, pydantic); graphs, fuzzy matching and
    # the SDKs wait for a command that uses them.
    for command in ("methodologies", "concepts", "personas", "validate"):
        assert _loaded_after([command], ROOT) == ["pydantic", "yaml"], command


@pytest.mark.slow
def test_the_probe_can_fail(tmp_path: Path) -> None:
    # report's help has a fenced code block, which only Rich's Markdown (markdown-it) draws:
    # the probe must see it, or the checks above prove nothing.
    assert "markdown_it" in _loaded_after(["report", "--help"], tmp_path)


@pytest.mark.slow
def test_debug_still_shows_the_traceback(tmp_path: Path) -> None:
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "100"}
    done = subprocess.run(
        [sys.executable, "-m", "interview_cli", "--debug", "replay", str(tmp_path / "x.json")],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env=env,
    )
    assert done.returncode == 1
    assert "Traceback" in done.stderr and "no such session file" in done.stderr


@pytest.mark.slow
def test_the_entry_point_freezes_what_start_up_made_and_keeps_collecting() -> None:
    code = textwrap.dedent("""
        import gc, sys
        from interview_cli.__main__ import main
        sys.argv = ["interview", "--version"]
        try:
            main()
        except SystemExit as stop:
            assert stop.code in (0, None), stop.code
        print("GC", gc.isenabled(), gc.get_freeze_count() > 10000)
    """)
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"interview-cli {__version__}", "GC True True"]
