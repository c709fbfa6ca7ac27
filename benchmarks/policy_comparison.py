"""Does the adaptive interviewer earn its keep? (issue 6 "Done when").

Runs `interview batch` over every shipped persona with the adaptive policy and both baselines
(deepen_recent, breadth_first), offline, for several seeds, and prints one row per policy:
ladder and rung recall against the personas' hidden ladders, how often a terminal node was
reached, repeated questions and turns used. "Terminal (reachable)" counts interviews whose
persona can reach a ladder's last rung at all (its knowledge trait may stop it short);
"terminal (full ladder)" counts every persona whose file holds a complete ladder. Then the
adaptive interviews per persona: turns, terminal reached, why they ended.

    python benchmarks/policy_comparison.py [--concept headphones_mec] [--seeds 0 1 2]
                                           [--max-turns 20] [-j 4]

Not a test: it takes about half a minute here (2 cores) and writes to a temporary directory.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

POLICIES = ("adaptive", "deepen_recent", "breadth_first")
ROOT = Path(__file__).resolve().parents[1]


def run_batch(
    out: Path, *, concept: str, policy: str, seed: int, max_turns: int, jobs: int
) -> list[dict[str, Any]]:
    command = [
        sys.executable, "-m", "interview_cli", "batch", str(ROOT / "personas"), "-c", concept,
        "--max-turns", str(max_turns), "--seed", str(seed), "--policy", policy,
        "--out", str(out), "--json", "-j", str(jobs), "-p", "offline",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    if done.returncode != 0:
        sys.exit(f"batch failed ({policy}, seed {seed}):\n{done.stderr[-2000:]}")
    evaluations = []
    for interview in json.loads(done.stdout)["interviews"]:
        session = json.loads(Path(interview["path"]).read_text(encoding="utf-8"))
        evaluation = session["simulation"]["evaluation"]
        evaluation["persona"] = interview["persona"]
        evaluations.append(evaluation)
    return evaluations


def share(evaluations: list[dict[str, Any]]) -> str:
    return f"{sum(bool(e['terminal_reached']) for e in evaluations)}/{len(evaluations)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--concept", default="headphones_mec")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--max-turns", type=int, default=20)
    parser.add_argument("-j", "--jobs", type=int, default=4, help="interviews at once")
    args = parser.parse_args()

    rows = []
    by_persona: dict[str, list[dict[str, Any]]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        for policy in POLICIES:
            evaluations = []
            for seed in args.seeds:
                evaluations += run_batch(
                    Path(tmp) / f"{policy}-s{seed}",
                    concept=args.concept,
                    policy=policy,
                    seed=seed,
                    max_turns=args.max_turns,
                    jobs=args.jobs,
                )
            if policy == "adaptive":
                for e in evaluations:
                    by_persona[e["persona"]].append(e)
            n = len(evaluations)
            full = [e for e in evaluations if any(ladder["full"] for ladder in e["ladders"])]
            reachable = [e for e in evaluations if e["terminal_reachable"]]
            rows.append(
                (
                    policy,
                    n,
                    sum(e["ladder_recall"] for e in evaluations) / n,
                    sum(e["rung_recall"] for e in evaluations) / n,
                    share(full),
                    share(reachable),
                    sum(len(e["repeated_questions"]) for e in evaluations),
                    sum(e["turns"] for e in evaluations) / n,
                )
            )

    print(
        f"{args.concept}, offline, up to {args.max_turns} turns, seeds "
        f"{' '.join(map(str, args.seeds))}\n"
    )
    print(
        "| policy | interviews | ladder recall | rung recall | terminal (full ladder) "
        "| terminal (reachable) | repeated questions | mean turns |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for policy, n, ladder, rung, full, reach, repeats, turns in rows:
        print(
            f"| {policy} | {n} | {ladder:.3f} | {rung:.3f} | {full} | {reach} | {repeats} "
            f"| {turns:.1f} |"
        )
    print("\nadaptive, per persona (turns · terminal reached · why it ended):")
    for persona, evaluations in sorted(by_persona.items()):
        turns = ", ".join(str(e["turns"]) for e in evaluations)
        reached = ", ".join(
            "-" if e["terminal_reached"] is None else ("yes" if e["terminal_reached"] else "no")
            for e in evaluations
        )
        reasons = ", ".join(e["termination_reason"] for e in evaluations)
        print(f"  {persona:28s} {turns:12s} · {reached:13s} · {reasons}")


if __name__ == "__main__":
    main()
