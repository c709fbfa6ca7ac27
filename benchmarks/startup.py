"""Start-up time of the CLI: `interview --help` and the listing commands against a bare
`python -c pass`, each the median of several fresh interpreters.

The goal is `--help` at most 8x bare Python: the SDKs (anthropic, openai), networkx, YAML,
pydantic and the rest load only when a command needs them.

    python benchmarks/startup.py [--runs 15] [--src DIR ...]

`--src` times another checkout of the package (e.g. an older commit extracted with
`git archive`); given several times, the checkouts are timed in turns, run by run, so a
before/after comparison sees the same machine load (the CPU figure is the steadier one on a
shared machine; wall time is what a person feels).

Byte code is cached as an installed tool's would be (in a temporary PYTHONPYCACHEPREFIX, after
one warm-up run), even where the environment sets PYTHONDONTWRITEBYTECODE.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS: list[tuple[str, list[str]]] = [
    ("python -c pass", ["-c", "pass"]),
    ("interview --help", ["-m", "interview_cli", "--help"]),
    ("interview methodologies", ["-m", "interview_cli", "methodologies"]),
    ("interview personas", ["-m", "interview_cli", "personas"]),
    ("interview sessions", ["-m", "interview_cli", "sessions"]),
]


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


PYCACHE = tempfile.mkdtemp(prefix="startup-pycache-")


def child_env(src: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(src), "COLUMNS": "100", "PYTHONPYCACHEPREFIX": PYCACHE}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    # The commands run from the project root (for its library); without this, `python -m`
    # would put that directory first on sys.path and import its package whatever `src` says.
    env["PYTHONSAFEPATH"] = "1"
    return env


def run_once(args: list[str], src: Path) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one `python ARGS` with `src` on the path."""
    env = child_env(src)
    cpu = _child_cpu()
    start = time.perf_counter()
    # From the project root, so the listing commands find the shipped library.
    done = subprocess.run(
        [sys.executable, *args], env=env, cwd=ROOT, capture_output=True, check=False
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {done.stderr.decode()[-400:]}")
    return wall, _child_cpu() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument(
        "--src", type=Path, action="append", help="directory holding interview_cli (repeatable)"
    )
    args = parser.parse_args()
    sources = [s.resolve() for s in (args.src or [ROOT])]
    samples: dict[tuple[Path, str], list[tuple[float, float]]] = {}
    for src in sources:  # warm-up: writes the byte code
        for _, cmd in COMMANDS:
            run_once(cmd, src)
    for _ in range(args.runs):
        for src in sources:
            for label, cmd in COMMANDS:
                samples.setdefault((src, label), []).append(run_once(cmd, src))
    for src in sources:
        medians = {
            label: (
                statistics.median(w for w, _ in samples[(src, label)]),
                statistics.median(c for _, c in samples[(src, label)]),
            )
            for label, _ in COMMANDS
        }
        bare_wall, bare_cpu = medians["python -c pass"]
        print(f"\nsource: {src}  (median of {args.runs} runs each)")
        print(f"{'':<26} {'wall':>9} {'ratio':>6}   {'cpu':>9} {'ratio':>6}")
        for label, (wall, cpu) in medians.items():
            print(
                f"{label:<26} {wall * 1000:6.1f} ms {wall / bare_wall:5.1f}x"
                f"   {cpu * 1000:6.1f} ms {cpu / bare_cpu:5.1f}x"
            )
        help_wall, help_cpu = medians["interview --help"]
        print(
            f"--help / bare python: {help_wall / bare_wall:.1f}x wall, "
            f"{help_cpu / bare_cpu:.1f}x cpu (goal at most 8x)"
        )


if __name__ == "__main__":
    main()
