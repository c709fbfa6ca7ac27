"""`mypy --strict interview_cli` in the background while the rest of the suite runs.

A cold check (CI's: a fresh clone has no cache) takes about 20 s on one core, most of the
suite's headroom if it ran in line. When the type test is among the collected tests, the
root conftest starts the check as soon as collection ends, and tests/test_types.py waits for
its result; mypy's cache (.mypy_cache, git-ignored) makes a local rerun take about a second.

Under pytest-xdist every worker collects every test, so every worker would start a check:
two mypy processes writing one cold cache, one of them killed when its worker ends, which
once crashed the other ("INTERNAL ERROR") on CI. So the workers of a run share a folder, the
first to claim it runs the one check (`python tests/typecheck.py FOLDER` writes the output
and exit code there), and whichever worker runs the test reads the result from it.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEST_ID = "tests/test_types.py::test_the_package_passes_mypy_strict"
COMMAND = (sys.executable, "-m", "mypy", "--strict", "interview_cli")
# A check that has not finished by then is broken, not slow.
TIMEOUT_S = 600
_POLL_S = 0.2

_running: subprocess.Popen[bytes] | None = None
_folder: Path | None = None


def folder() -> Path:
    """Where this run's check leaves its result: shared by the workers of one xdist run."""
    global _folder
    if _folder is None:
        run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
        _clear_stale()
        if run is None:
            _folder = Path(tempfile.mkdtemp(prefix=_PREFIX))
        else:
            _folder = Path(tempfile.gettempdir()) / f"{_PREFIX}{run}"
            _folder.mkdir(exist_ok=True)
    return _folder


_PREFIX = "interview-cli-typecheck-"


def _clear_stale() -> None:
    """Folders of runs whose check nobody read (a run stopped early, a worker gone): those
    older than any check may take are removed."""
    for old in Path(tempfile.gettempdir()).glob(f"{_PREFIX}*"):
        try:
            if time.time() - old.stat().st_mtime > TIMEOUT_S:
                shutil.rmtree(old, ignore_errors=True)
        except OSError:
            pass


def start() -> None:
    """Start the check unless this process or another worker of the run already has."""
    global _running
    if _running is not None:
        return
    try:
        claim = (folder() / "claim").open("x")
    except FileExistsError:
        return
    with claim:
        _running = subprocess.Popen(
            (sys.executable, __file__, str(folder())), cwd=ROOT, start_new_session=True
        )
        claim.write(str(_running.pid))


def result() -> tuple[int | None, str]:
    """The check's exit code and output, starting it if nobody has (None: a run stopped early
    ended it before it finished)."""
    start()
    done = folder() / "code"
    deadline = time.monotonic() + TIMEOUT_S
    while not done.exists():
        if _checker_gone():
            return None, "the type check was stopped before it finished (the run stopped early)"
        if time.monotonic() > deadline:
            return 1, f"the type check did not finish in {TIMEOUT_S} s"
        time.sleep(_POLL_S)
    code, output = int(done.read_text()), (folder() / "output").read_text()
    shutil.rmtree(folder(), ignore_errors=True)
    return code, output


def _checker_gone() -> bool:
    try:
        pid = int((folder() / "claim").read_text())
    except FileNotFoundError:
        return True  # a worker stopped early ended the check and cleared its folder
    except ValueError:
        return False  # claimed, the pid not yet written
    if _running is not None and _running.pid == pid:
        return _running.poll() is not None and not (folder() / "code").exists()
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return not (folder() / "code").exists()
    except PermissionError:
        pass
    return False


def stop(stopped_early: bool) -> None:
    """At the end of this process's share of the run: the check runs on in its own session
    (another worker may be waiting for it), unless this process's run stopped early (`-x`,
    Ctrl-C), which ends it. Under xdist a worker that did not fail does not know the run
    stopped: its check finishes, and its folder is cleared by a later run."""
    if _running is None or not stopped_early or _running.poll() is not None:
        return
    os.killpg(_running.pid, signal.SIGKILL)  # the wrapper and its mypy
    _running.wait(timeout=TIMEOUT_S)
    shutil.rmtree(folder(), ignore_errors=True)


def _check(into: Path) -> int:
    """Run mypy, then leave its output and exit code in `into`, the code written last."""
    finished = subprocess.run(
        COMMAND, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    for name, text in (("output", finished.stdout), ("code", str(finished.returncode))):
        partial = into / f"{name}.partial"
        partial.write_text(text)
        partial.replace(into / name)
    return 0


if __name__ == "__main__":
    sys.exit(_check(Path(sys.argv[1])))
