"""Shared fixtures: every test runs isolated from the user's environment and the network."""

from __future__ import annotations

import itertools
import os
import sys
from pathlib import Path

import pytest
import typecheck
from hypothesis import settings as hypothesis_settings

# The suite writes bytecode where the environment says not to (PYTHONDONTWRITEBYTECODE, set on
# this machine): without it every xdist worker and every `interview` process the CLI tests
# start compiles the package from source again (collection 7.8 s a worker, 3.3 s with it; the
# process tests 34 s, 29 s). It goes to the __pycache__ folders .gitignore leaves out.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# Property tests draw the same examples on every run, as every other test is deterministic: a
# random draw made a fresh clone's CI fail on a graph with a cycle that no run before had met
# (core.graph.depth counts every member of a cycle as a rung, which the longest simple chain
# through it may not visit: a known gap, written up in the closing note of the stop that met
# it), and CI must not pass or fail by chance.
hypothesis_settings.register_profile("deterministic", derandomize=True, database=None)
hypothesis_settings.load_profile("deterministic")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The type check runs beside the rest of the suite when it is part of the run (last: after
    # `-k` and `-m` have deselected what they leave out).
    if any(item.nodeid == typecheck.TEST_ID for item in items):
        typecheck.start()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    stopped_early = bool(session.shouldfail or session.shouldstop)
    typecheck.stop(stopped_early or exitstatus == pytest.ExitCode.INTERRUPTED)


@pytest.fixture(scope="session")
def _sessions_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder under which a test that has no ``tmp_path`` gets its sessions directory."""
    return tmp_path_factory.mktemp("sessions")


_numbers = itertools.count()


@pytest.fixture(autouse=True)
def _isolated_environment(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, _sessions_root: Path
) -> None:
    """No keys, no base URLs, no provider overrides; sessions go to a temporary directory.

    That directory is ``tmp_path / "sessions"`` where the test has a ``tmp_path``, else a
    folder of its own under one made once per worker, named but not made: whatever writes a
    session makes it, as it would ``tmp_path / "sessions"``. A ``tmp_path`` for every test
    cost half a millisecond to a millisecond each (pytest lists the folders made so far to
    number the next, and removes them all again three runs later): several seconds of the
    suite, for the nine in ten tests that never look at one.
    """
    for name in list(os.environ):
        if name.endswith(("_API_KEY", "_BASE_URL")) or name.startswith(("LLM_", "INTERVIEW_")):
            monkeypatch.delenv(name, raising=False)
    if "tmp_path" in request.fixturenames:
        sessions = request.getfixturevalue("tmp_path") / "sessions"
    else:
        sessions = _sessions_root / f"sessions-{next(_numbers)}"
    monkeypatch.setenv("INTERVIEW_SESSIONS_DIR", str(sessions))
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("NO_COLOR", "1")
