"""Does the adaptive interviewer earn its keep, on respondents it was not tuned to?

Runs `interview batch` with the adaptive policy and both baselines (deepen_recent,
breadth_first), offline, for several seeds, over two sets of personas, and reports them
apart:

- **tuned**: the shipped personas (personas/*.yaml) on --concept; the policy was tuned on
  them, so these figures flatter it;
- **held-out**: personas/holdout/ (another domain, never tuned on) on --holdout-concept.

One row per set and policy:

| column | meaning |
| --- | --- |
| rung recall | persona rungs found in the graph (mean per interview) |
| terminal (can state) | a full ladder's end reached / interviews whose persona can state one |
| re-asks/int | same focus node and strategy asked again, no new rung between, per interview |
| complaints | answers saying "again", "like I said", "already told you" ... (all interviews) |
| early, unopened | interviews that stopped before the turn limit with a ladder never opened |
| turns | mean turns used |

Then the adaptive policy's strategy mix (share of turns) per set, its held-out interviews per
persona, and the held-out targets of the "done when" list, each met or not.

    python benchmarks/policy_comparison.py [--concept headphones_mec]
        [--holdout-concept ebike_commute_mec] [--seeds 0 1 2] [--max-turns 20] [-j 4]

Not a test: it takes a minute or two here (2 cores) and writes to a temporary directory.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

POLICIES = ("adaptive", "deepen_recent", "breadth_first")
ROOT = Path(__file__).resolve().parents[1]
SETS = {"tuned": ROOT / "personas", "held-out": ROOT / "personas" / "holdout"}
LITTLE_TO_SAY = "retired_allotment"  # the held-out respondent with little to say


def run_batch(
    out: Path, personas: Path, *, concept: str, policy: str, seed: int, max_turns: int, jobs: int
) -> list[dict[str, Any]]:
    command = [
        sys.executable, "-m", "interview_cli", "batch", str(personas), "-c", concept,
        "--max-turns", str(max_turns), "--seed", str(seed), "--policy", policy,
        "--out", str(out), "--json", "-j", str(jobs), "-p", "offline",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    if done.returncode != 0:
        sys.exit(f"batch failed ({personas.name}, {policy}, seed {seed}):\n{done.stderr[-2000:]}")
    evaluations = []
    for interview in json.loads(done.stdout)["interviews"]:
        evaluation = dict(interview["evaluation"])
        evaluation["persona"] = interview["persona"]
        evaluations.append(evaluation)
    return evaluations


@dataclass
class Row:
    """The figures of one policy on one set of personas."""

    n: int
    rung_recall: float
    terminal_reached: int
    terminal_can: int
    reasks: float
    complaints: int
    early_unopened: int
    turns: float
    mix: dict[str, float]

    @classmethod
    def of(cls, evaluations: list[dict[str, Any]]) -> Row:
        n = len(evaluations)
        can = [e for e in evaluations if e["terminal_reachable"]]
        mix: Counter[str] = Counter()
        for e in evaluations:
            mix.update(e["strategy_mix"])
        total = sum(mix.values()) or 1
        return cls(
            n=n,
            rung_recall=sum(e["rung_recall"] for e in evaluations) / n,
            terminal_reached=sum(bool(e["terminal_reached"]) for e in can),
            terminal_can=len(can),
            reasks=sum(len(e["same_node_reasks"]) for e in evaluations) / n,
            complaints=sum(len(e["complaints"]) for e in evaluations),
            early_unopened=sum(
                1 for e in evaluations if e["ended_early"] and e["ladders_unopened"]
            ),
            turns=sum(e["turns"] for e in evaluations) / n,
            mix={k: v / total for k, v in sorted(mix.items())},
        )

    def cells(self) -> list[str]:
        return [
            str(self.n),
            f"{100 * self.rung_recall:.0f}%",
            f"{self.terminal_reached} of {self.terminal_can}",
            f"{self.reasks:.2f}",
            str(self.complaints),
            f"{self.early_unopened} of {self.n}",
            f"{self.turns:.1f}",
        ]


def targets(rows: dict[str, Row], by_persona: dict[str, list[dict[str, Any]]]) -> list[str]:
    """The held-out "done when" targets, each with what was measured."""
    adaptive = rows["adaptive"]
    baselines = [rows[p] for p in POLICIES if p != "adaptive"]
    best_recall = max(b.rung_recall for b in baselines)
    fewest = min(b.complaints for b in baselines)
    terminal = adaptive.terminal_reached / adaptive.terminal_can if adaptive.terminal_can else 0
    little = [e["turns"] for e in by_persona.get(LITTLE_TO_SAY, [])]
    checks = [
        (adaptive.rung_recall >= best_recall + 0.10,
         f"rung recall {100 * adaptive.rung_recall:.0f}% >= better baseline "
         f"{100 * best_recall:.0f}% + 10 points"),
        (terminal >= 0.8, f"terminal reached {100 * terminal:.0f}% >= 80% (where statable)"),
        (adaptive.reasks <= 0.5, f"same-node re-asks {adaptive.reasks:.2f} per interview <= 0.5"),
        (adaptive.complaints <= fewest,
         f"complaints {adaptive.complaints} <= better baseline's {fewest}"),
        (adaptive.early_unopened <= 0.1 * adaptive.n,
         f"early ends with a ladder never opened {adaptive.early_unopened} of {adaptive.n} "
         "<= 10%"),
        (bool(little) and max(little) <= 10,
         f"{LITTLE_TO_SAY} closed within 10 turns (turns: {', '.join(map(str, little))})"),
    ]  # fmt: skip
    return [f"  [{'x' if ok else ' '}] {text}" for ok, text in checks]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--concept", default="headphones_mec", help="for the tuned personas")
    parser.add_argument("--holdout-concept", default="ebike_commute_mec")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--max-turns", type=int, default=20)
    parser.add_argument("-j", "--jobs", type=int, default=4, help="interviews at once")
    args = parser.parse_args()
    concepts = {"tuned": args.concept, "held-out": args.holdout_concept}

    rows: dict[str, dict[str, Row]] = defaultdict(dict)
    holdout_adaptive: dict[str, list[dict[str, Any]]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        for name, personas in SETS.items():
            for policy in POLICIES:
                evaluations = []
                for seed in args.seeds:
                    evaluations += run_batch(
                        Path(tmp) / f"{name}-{policy}-s{seed}",
                        personas,
                        concept=concepts[name],
                        policy=policy,
                        seed=seed,
                        max_turns=args.max_turns,
                        jobs=args.jobs,
                    )
                rows[name][policy] = Row.of(evaluations)
                if name == "held-out" and policy == "adaptive":
                    for e in evaluations:
                        holdout_adaptive[e["persona"]].append(e)

    print(
        f"offline, up to {args.max_turns} turns, seeds {' '.join(map(str, args.seeds))}; "
        f"tuned: personas/*.yaml on {args.concept}; held-out: personas/holdout/ on "
        f"{args.holdout_concept}\n"
    )
    print(
        "| set | policy | interviews | rung recall | terminal (can state) | re-asks/int "
        "| complaints | early, unopened | turns |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, by_policy in rows.items():
        for policy, row in by_policy.items():
            print(f"| {name} | {policy} | " + " | ".join(row.cells()) + " |")
    print("\nadaptive strategy mix (share of turns):")
    for name, by_policy in rows.items():
        mix = ", ".join(f"{k} {100 * v:.0f}%" for k, v in by_policy["adaptive"].mix.items())
        print(f"  {name:9s} {mix}")
    print("\nadaptive, held-out, per persona (turns · terminal reached · re-asks · complaints):")
    for persona, evaluations in sorted(holdout_adaptive.items()):
        turns = ",".join(str(e["turns"]) for e in evaluations)
        reached = ",".join(
            "-" if e["terminal_reached"] is None else ("y" if e["terminal_reached"] else "n")
            for e in evaluations
        )
        reasks = ",".join(str(len(e["same_node_reasks"])) for e in evaluations)
        moans = ",".join(str(len(e["complaints"])) for e in evaluations)
        print(f"  {persona:20s} {turns:10s} · {reached:7s} · {reasks:8s} · {moans}")
    print("\nheld-out targets:")
    print("\n".join(targets(rows["held-out"], holdout_adaptive)))


if __name__ == "__main__":
    main()
