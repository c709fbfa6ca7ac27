"""Start-up time of the CLI: `interview --help` and the listing commands against a bare
`python -c pass`, each the median of several fresh interpreters.

The goal is `--help` at most 8x bare Python: the SDKs (anthropic, openai), networkx, rich's
heavier parts and the YAML library load only when a command needs them.

    python benchmarks/startup.py [--runs 15] [--src DIR]

`--src` times another checkout of the package (e.g. an older commit extracted with
`git archive`), so a before/after comparison runs on the same machine minutes apart.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS: list[tuple[str, list[str]]] = [
    ("python -c pass", ["-c", "pass"]),
    ("interview --help", ["-m", "interview_cli", "--help"]),
    ("interview methodologies", ["-m", "interview_cli", "methodologies"]),
    ("interview personas", ["-m", "interview_cli", "personas"]),
]


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def median_seconds(
    args: list[str], runs: int, env: dict[str, str], cwd: Path
) -> tuple[float, float]:
    """Median wall and median CPU (user + system) seconds of `python ARGS`."""
    walls, cpus = [], []
    for _ in range(runs):
        cpu = _child_cpu()
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, *args], env=env, cwd=cwd, capture_output=True, check=False
        )
        walls.append(time.perf_counter() - start)
        cpus.append(_child_cpu() - cpu)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(args)} failed: {done.stderr.decode()[-400:]}")
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--src", type=Path, default=ROOT, help="directory holding interview_cli")
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(args.src.resolve()), "COLUMNS": "100"}
    # Run from the project root so the listing commands find the shipped library.
    results = [(label, median_seconds(cmd, args.runs, env, ROOT)) for label, cmd in COMMANDS]
    bare_wall, bare_cpu = results[0][1]
    print(f"source: {args.src.resolve()}  (median of {args.runs} runs each)")
    print(f"{'':<26} {'wall':>9} {'ratio':>6}   {'cpu':>9} {'ratio':>6}")
    for label, (wall, cpu) in results:
        print(
            f"{label:<26} {wall * 1000:6.1f} ms {wall / bare_wall:5.1f}x"
            f"   {cpu * 1000:6.1f} ms {cpu / bare_cpu:5.1f}x"
        )
    # CPU time is the steadier figure on a shared machine; wall time is what a person feels.
    help_wall, help_cpu = results[1][1]
    print(
        f"--help / bare python: {help_wall / bare_wall:.1f}x wall, {help_cpu / bare_cpu:.1f}x cpu "
        "(goal at most 8x)"
    )


if __name__ == "__main__":
    main()
