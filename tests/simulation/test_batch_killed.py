"""A batch killed between saving a completed session and saving its evaluation.

The process is SIGKILLed once the first interview's "completed" save is on disk and before its
evaluation is written: the state a kill (or a SIGTERM that cancels the queued write) leaves.
Re-running the same command must count every interview, the evaluation recomputed and saved.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from typer.testing import CliRunner

from interview_cli.cli.app import app

ROOT = Path(__file__).resolve().parents[2]

# The batch, with the evaluation step replaced by: wait for the completed session on disk,
# then die at once, as SIGKILL does (no cleanup, no flush).
KILLED_BATCH = textwrap.dedent(
    """
    import json, os, signal, sys, time
    from pathlib import Path
    import interview_cli.simulation.batch as batch

    OUT = Path(sys.argv[1])

    def die(session, persona, methodology):
        path = OUT / f"{session.id}.json"
        for _ in range(500):
            if json.loads(path.read_text()).get("status") == "completed":
                break
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGKILL)

    batch._store_evaluation = die
    from interview_cli.cli.app import main
    sys.argv = ["interview", *sys.argv[2:]]
    main()
    """
)


def test_a_batch_killed_before_an_evaluation_is_saved_counts_it_on_the_rerun(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    args = ["batch", "cooperative", "-c", "headphones_mec", "--runs", "2", "--max-turns", "3"]
    args += ["--concurrency", "1", "--out", str(out)]
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_BATCH, str(out), *args],
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr.decode()
    first = out / "cooperative-headphones_mec-adaptive-s0-r1.json"
    doc = json.loads(first.read_text(encoding="utf-8"))
    assert doc["status"] == "completed" and "evaluation" not in doc["simulation"]

    again = CliRunner().invoke(app, [*args, "--json"])
    assert again.exit_code == 0, again.output
    summary = json.loads(again.stdout)
    assert summary["summary"]["overall"]["interviews"] == 2
    assert all(i["evaluation"] for i in summary["interviews"])
    doc = json.loads(first.read_text(encoding="utf-8"))
    assert doc["simulation"]["evaluation"]["turns"] >= 1  # saved, not only counted
