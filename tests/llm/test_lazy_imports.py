"""The SDKs stay out of the process until a real provider makes a call.

Importing anthropic and openai costs about 1.5 s (measured here), which every `interview`
start, `--help` included, would otherwise pay. The same holds, further down, for graphs
(networkx), fuzzy matching, retries, YAML and pydantic: `--help` and the listing commands load
only what they use. Each check runs in a fresh interpreter: the test process itself has long
imported all of them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPORT = """
import json, sys
sdks = sorted(m for m in sys.modules
              if m.split(".")[0] in ("anthropic", "openai", "httpx2", "httpcore2"))
print("SDKS=" + json.dumps(sdks))
"""


def run_python(body: str) -> list[str]:
    code = textwrap.dedent(body) + REPORT
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    line = [ln for ln in done.stdout.splitlines() if ln.startswith("SDKS=")][-1]
    loaded: list[str] = json.loads(line[len("SDKS=") :])
    return loaded


@pytest.mark.slow
def test_importing_the_cli_app_imports_no_sdk() -> None:
    assert run_python("import interview_cli.cli.app") == []


@pytest.mark.slow
def test_interview_help_imports_no_sdk() -> None:
    loaded = run_python("""
        import sys
        from interview_cli.cli.app import main
        sys.argv = ["interview", "--help"]
        try:
            main()
        except SystemExit as stop:
            assert stop.code in (0, None), stop.code
    """)
    assert loaded == []


@pytest.mark.slow
def test_building_the_llm_layer_imports_no_sdk_until_a_call() -> None:
    loaded = run_python("""
        from interview_cli.llm.factory import build_llm
        from interview_cli.llm.settings import resolve_llm_settings
        env = {"ANTHROPIC_API_KEY": "k1", "KIMI_API_KEY": "k2"}
        settings = resolve_llm_settings(env=env)
        llm = build_llm(settings, env=env)           # real providers, constructed
        offline = build_llm(resolve_llm_settings(env={}))
        assert llm.provider_label.startswith("anthropic:"), llm.provider_label
        assert offline.provider_label == "offline"
    """)
    assert loaded == []


@pytest.mark.slow
def test_the_check_can_fail() -> None:
    # The probe must see an SDK when one is imported, or the tests above prove nothing.
    assert "openai" in run_python("import openai")


HEAVY = REPORT.replace(
    '("anthropic", "openai", "httpx2", "httpcore2")',
    '("anthropic", "openai", "networkx", "rapidfuzz", "tenacity", "pydantic", "yaml")',
)


def heavy_after(argv: list[str], cwd: str) -> list[str]:
    """Top-level heavy packages imported by one `interview ARGV` in a fresh interpreter."""
    code = (
        textwrap.dedent(f"""
        import contextlib, io, sys
        from interview_cli.cli.app import main
        sys.argv = ["interview", *{argv!r}]
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                main()
            except SystemExit as stop:
                assert stop.code in (0, None), stop.code
    """)
        + HEAVY
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=cwd,
    )
    assert done.returncode == 0, done.stderr
    line = [ln for ln in done.stdout.splitlines() if ln.startswith("SDKS=")][-1]
    return sorted({m.split(".")[0] for m in json.loads(line[len("SDKS=") :])})


ROOT = str(Path(__file__).resolve().parents[2])


@pytest.mark.slow
def test_help_imports_no_heavy_package() -> None:
    # Typer and rich draw the help; nothing of the interview machinery is needed for it.
    assert heavy_after(["--help"], ROOT) == []
    # A sub-command's options go through typer's own pydantic adapters; nothing else loads.
    assert set(heavy_after(["report", "--help"], ROOT)) <= {"pydantic"}


@pytest.mark.slow
@pytest.mark.parametrize("command", ["methodologies", "concepts", "personas", "validate"])
def test_listing_the_library_loads_only_yaml_and_pydantic(command: str) -> None:
    # Listing parses and validates the library (YAML, pydantic); graphs, fuzzy matching and
    # the SDKs wait for a command that uses them.
    assert heavy_after([command], ROOT) == ["pydantic", "yaml"]


@pytest.mark.slow
def test_the_heavy_probe_can_fail() -> None:
    code = "import interview_cli.core.graph" + HEAVY
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert '"networkx"' in done.stdout
