"""`interview report` over many sessions: wall time and peak memory of the real command.

Sessions come from `interview batch` run offline into a temporary directory (every shipped
persona, one run each), then copied under new ids until there are `--sessions` of them: the
report reads each copy as a separate session, which is what it costs.

Peak memory is the child's maximum resident set size (`ru_maxrss` of the finished process),
so the figure is the whole command's, interpreter included.

    python benchmarks/report_scale.py [--sessions 200] [--runs 3] [--src DIR] [--keep DIR]

`--src` runs another checkout of the package (e.g. an older commit extracted with
`git archive`) on the same sessions; `--keep DIR` reuses (or leaves) the generated sessions.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONCEPT = "headphones_mec"


def run_cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "interview_cli", *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        check=False,
    )


def generate(target: Path, count: int, env: dict[str, str]) -> None:
    seeds = target / "seed"
    if not seeds.is_dir() or not any(seeds.glob("*.json")):
        done = run_cli(
            ["batch", str(ROOT / "personas"), "-c", CONCEPT, "--runs", "1", "-o", str(seeds)], env
        )
        if done.returncode != 0:
            raise SystemExit(f"interview batch failed: {done.stderr.decode()[-600:]}")
    originals = sorted(seeds.glob("*.json"))
    sessions = target / "sessions"
    shutil.rmtree(sessions, ignore_errors=True)
    sessions.mkdir(parents=True)
    for i in range(count):
        data = json.loads(originals[i % len(originals)].read_text(encoding="utf-8"))
        data["id"] = f"{data['id']}-copy{i:04d}"
        (sessions / f"{data['id']}.json").write_text(json.dumps(data), encoding="utf-8")


def time_report(sessions: Path, env: dict[str, str]) -> dict[str, float]:
    """Wall seconds, CPU seconds and peak RSS (MiB) of one `interview report DIR` run."""
    out = sessions.parent / "report.json"
    start = time.perf_counter()
    done = run_cli(["report", str(sessions), "--format", "json", "--out", str(out)], env)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"interview report failed: {done.stderr.decode()[-600:]}")
    # RUSAGE_CHILDREN covers every finished child, so each run is measured in a helper
    # process of its own (see main) where the report is the only child.
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "seconds": seconds,
        "cpu": usage.ru_utime + usage.ru_stime,
        "mib": usage.ru_maxrss / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--src", type=Path, default=ROOT, help="directory holding interview_cli")
    parser.add_argument("--keep", type=Path, default=None, help="work directory to reuse")
    parser.add_argument("--one", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(args.src.resolve()), "COLUMNS": "100"}
    # Byte code cached as an installed tool's would be, even under PYTHONDONTWRITEBYTECODE.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    # Commands run from the project root; keep `python -m` from importing its package first.
    env["PYTHONSAFEPATH"] = "1"
    env.setdefault("PYTHONPYCACHEPREFIX", str(Path(tempfile.gettempdir()) / "report-scale-pycache"))
    if args.one is not None:  # a helper process: one report run, figures on stdout
        print(json.dumps(time_report(args.one, env)))
        return
    work = args.keep or Path(tempfile.mkdtemp(prefix="report-scale-"))
    try:
        generate(work, args.sessions, env)
        figures = []
        for _ in range(args.runs):
            helper = subprocess.run(
                [sys.executable, __file__, "--src", str(args.src), "--one", str(work / "sessions")],
                capture_output=True,
                text=True,
                check=True,
            )
            figures.append(json.loads(helper.stdout))
        seconds = statistics.median(f["seconds"] for f in figures)
        cpu = statistics.median(f["cpu"] for f in figures)
        mib = max(f["mib"] for f in figures)
        print(f"source: {args.src.resolve()}")
        print(
            f"interview report over {args.sessions} sessions: {seconds:.2f} s wall, {cpu:.2f} s "
            f"CPU (medians of {args.runs}), peak RSS {mib:.0f} MiB "
            "(goal at most 2 s and 150 MB)"
        )
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
