"""The SDKs stay out of the process until a real provider makes a call.

Importing anthropic and openai costs about 1.5 s (measured here), which every `interview`
start, `--help` included, would otherwise pay. What `--help` and the listing commands load
beyond the SDKs (graphs, YAML, pydantic, markdown) is checked in tests/cli/test_startup.py.
Each check runs in a fresh interpreter: the test process itself has long imported all of them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

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
