"""Shared fixtures: every test runs isolated from the user's environment and the network."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import typecheck


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The type check runs beside the rest of the suite when it is part of the run (last: after
    # `-k` and `-m` have deselected what they leave out).
    if any(item.nodeid == typecheck.TEST_ID for item in items):
        typecheck.start()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    stopped_early = bool(session.shouldfail or session.shouldstop)
    typecheck.stop(stopped_early or exitstatus == pytest.ExitCode.INTERRUPTED)


@pytest.fixture(autouse=True)
def _isolated_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No keys, no base URLs, no provider overrides; sessions go to a temporary directory."""
    for name in list(os.environ):
        if name.endswith(("_API_KEY", "_BASE_URL")) or name.startswith(("LLM_", "INTERVIEW_")):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("INTERVIEW_SESSIONS_DIR", str(tmp_path / "sessions"))
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("NO_COLOR", "1")
