"""`mypy --strict interview_cli` in the background while the rest of the suite runs.

A cold check (CI's: a fresh clone has no cache) takes about 20 s on one core, most of the
suite's headroom if it ran in line. When the type test is among the collected tests, the
root conftest starts the check as soon as collection ends, and tests/test_types.py waits for
its result; mypy's cache (.mypy_cache, git-ignored) makes a local rerun take about a second.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEST_ID = "tests/test_types.py::test_the_package_passes_mypy_strict"
COMMAND = (sys.executable, "-m", "mypy", "--strict", "interview_cli")
# A check that has not finished by then is broken, not slow.
TIMEOUT_S = 600

_running: subprocess.Popen[str] | None = None


def start() -> None:
    """Start the check once (later calls keep the first)."""
    global _running
    if _running is None:
        _running = subprocess.Popen(
            COMMAND, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )


def result() -> tuple[int, str]:
    """The check's exit code and output, starting it if nobody has."""
    start()
    assert _running is not None
    output, _ = _running.communicate(timeout=TIMEOUT_S)
    return _running.returncode, output


def stop() -> None:
    """End a check the session no longer waits for (a run stopped at its first failure)."""
    if _running is not None and _running.poll() is None:
        _running.kill()
        _running.communicate()
