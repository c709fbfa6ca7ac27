"""Turn latency against a simulated LLM latency (issue 5 "Done when").

Runs interviews through the real pipeline (``pipeline.runner.Interview``) with a scripted
client that answers every task like the offline provider but first sleeps a fixed latency L
per call. A turn makes three calls (extract, assess, generate_question); the pipeline runs
extract and assess concurrently, so its critical path is two round trips: turn wall time / L
should be close to 2 (goal <= 2.2), where a sequential pipeline would be 3 or more (4 with
the seed's separate slot-discovery call).

It also prints the start-up time of `interview --help` next to `python -c pass`.

    python benchmarks/turn_latency.py [--latency 0.2] [--turns 6] [--interviews 2]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from interview_cli.config.library import Library
from interview_cli.llm.offline import OfflineLLM
from interview_cli.llm.settings import offline_settings
from interview_cli.pipeline.runner import Interview
from interview_cli.pipeline.setup import new_session

ROOT = Path(__file__).resolve().parents[1]
ANSWERS = [
    "I love the noise cancelling because it lets me focus on the train",
    "Focusing means I can get my work done, which makes me feel in control",
    "Feeling in control matters because I value freedom",
    "The battery lasts all day so I never worry about charging",
    "Not worrying lets me relax on long trips",
    "The fit is comfortable so I can wear them for hours",
    "Wearing them for hours helps me concentrate",
    "Concentration makes me productive, which gives me self-respect",
]


class SlowClient:
    """The offline provider behind a fixed per-call latency (a stand-in for a remote model)."""

    def __init__(self, latency: float) -> None:
        self.inner = OfflineLLM(seed=0)
        self.latency = latency
        self.provider_label = f"offline + {latency:.3f}s per call"
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        target = getattr(self.inner, name)
        if not callable(target) or name.startswith("_"):
            return target

        async def slow(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            await asyncio.sleep(self.latency)
            return await target(*args, **kwargs)

        return slow


async def one_interview(latency: float, turns: int) -> list[float]:
    lib = Library.discover(cwd=ROOT)
    concept = lib.concept("headphones_mec")
    methodology = lib.methodology(concept.value.methodology)
    session = new_session(
        session_id="bench",
        concept=concept,
        methodology=methodology,
        settings=offline_settings(),
        max_turns=turns + 5,
    )
    interview = Interview(session, store=None, llm=SlowClient(latency))  # type: ignore[arg-type]
    await interview.ensure_question()
    times = []
    for answer in ANSWERS[:turns]:
        start = time.perf_counter()
        result = await interview.submit(answer)
        times.append(time.perf_counter() - start)
        if result.finished:
            break
    return times


def startup(command: list[str], repeats: int = 5) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=True)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per LLM call")
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--interviews", type=int, default=2)
    args = parser.parse_args()

    samples: list[float] = []
    for _ in range(args.interviews):
        samples += asyncio.run(one_interview(args.latency, args.turns))
    median = statistics.median(samples)
    print(f"simulated latency L = {args.latency * 1000:.0f} ms per call, {len(samples)} turns")
    print(f"turn wall time: median {median * 1000:.0f} ms, max {max(samples) * 1000:.0f} ms")
    print(f"turn / L = {median / args.latency:.2f}  (goal <= 2.2; sequential calls would be >= 3)")

    py = startup([sys.executable, "-c", "pass"])
    help_ = startup([sys.executable, "-m", "interview_cli", "--help"])
    print(f"start-up: python -c pass {py * 1000:.0f} ms; interview --help {help_ * 1000:.0f} ms")


if __name__ == "__main__":
    main()
