"""Batch throughput on the real SDK path: `interview batch --provider openai-compatible`
against a local fake OpenAI-compatible server that answers every request after a fixed
round trip.

`batch_throughput.py` times the batch runner with in-process fakes; this one goes through
what a user runs with a real model: the official `openai` SDK client, HTTP on 127.0.0.1,
output validation, retries' bookkeeping, the pure core and the session writes. The respondent
is the offline persona simulator (no HTTP), so every interviewer call costs one round trip.
It runs the same batch at concurrency 1 and at the given concurrencies and prints turns per
second and the ratio to concurrency 1 (goal: at least 14x at 16 and 40x at 64 with a 0.3 s
round trip).

    python benchmarks/batch_sdk_throughput.py [--latency 0.3] [--concurrency 16 64]
        [--serial 2] [--max-turns 6]

The fake server is the one the provider contract tests use (tests/llm/fakeserver/), with
well-formed answers for every structured task. It runs in a process of its own, so it takes
none of the batch's GIL, and each line says how much of a core it used: a figure near 100%
would mean the benchmark timed the server, not the batch (measured: 3-8%). Its listen backlog
is 1024 (socketserver's default of 5 dropped the SYNs of a batch's burst of connections, which
came again a second later: 11.6x at 16 and 23.4x at 64 measured that, not the client).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import multiprocessing.connection
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "llm")]

from fakeserver import FakeLLMServer, Step  # noqa: E402

from interview_cli.core.models import RUBRIC_SIGNALS  # noqa: E402
from interview_cli.llm.prompts import ASSESSMENT_TOOL, EXTRACTION_TOOL, SLOTS_TOOL  # noqa: E402

NODE = {"stance": 1, "confidence": 0.9, "element_id": None, "reaction": None}
TOOL_INPUTS = {
    EXTRACTION_TOOL: {
        "extractable": True,
        "reason": "an attribute and what it leads to",
        "nodes": [
            {"label": "noise cancelling", "node_type": "attribute", "quote": "noise", **NODE},
            {"label": "can focus", "node_type": "functional_consequence", "quote": "focus", **NODE},
        ],
        "edges": [
            {
                "source": "noise cancelling",
                "target": "can focus",
                "relation": "leads_to",
                "quote": "focus",
                "confidence": 0.8,
            }
        ],
    },
    ASSESSMENT_TOOL: {
        **{name: {"score": 4, "rationale": "gives a reason"} for name in RUBRIC_SIGNALS},
        "hedging_language": "none",
        "knowledge_ceiling": "none",
        "answer_kind": "answer",
        "safety": "none",
        "rationale": "engaged",
    },
    SLOTS_TOOL: {"proposals": []},
}


class SlowServer(FakeLLMServer):
    """Every request answered after ``latency`` seconds, well-formed; each question worded
    apart from the others (a question that repeats a recent one is written again, which
    would time the rephrasing, not the batch)."""

    latency: float = 0.3

    def next_step(self) -> Step:
        return Step("ok", delay_s=self.latency, text=f"What about {uuid.uuid4().hex} matters?")


def server_cpu(pipe: multiprocessing.connection.Connection) -> float:
    """CPU seconds the fake server's process has used so far."""
    pipe.send("cpu")
    return float(pipe.recv())


def run_batch(url: str, *, jobs: int, runs: int, max_turns: int, out: Path) -> float:
    """Turns per second of one batch, run in this process (imports are warm, so start-up
    does not count: what is timed is the batch itself)."""
    from typer.testing import CliRunner

    from interview_cli.cli.app import app

    args = [
        "batch",
        "cooperative",
        "-c",
        "headphones_mec",
        "--provider",
        "openai-compatible",
        "--base-url",
        url,
        "--model",
        "bench",
        "--respondent-provider",
        "offline",
        "--runs",
        str(runs),
        "-j",
        str(jobs),
        "--max-turns",
        str(max_turns),
        "--out",
        str(out),
        "--json",
    ]
    env = {"OPENAI_COMPATIBLE_API_KEY": "", "INTERVIEW_PRICING": ""}
    started = time.perf_counter()
    done = CliRunner().invoke(app, args, env=env)
    took = time.perf_counter() - started
    if done.exit_code != 0:
        sys.exit(f"batch failed at -j {jobs}:\n{done.output[-2000:]}")
    turns = sum(i["evaluation"]["turns"] for i in json.loads(done.stdout)["interviews"])
    return turns / took


def serve(latency: float, port_out: multiprocessing.connection.Connection) -> None:
    """The fake server, in a process of its own: its threads must not take the batch's GIL."""
    server = SlowServer(tool_inputs=dict(TOOL_INPUTS))
    server.latency = latency
    server.start()
    port_out.send(server.openai_base_url)
    while port_out.recv() == "cpu":  # until told to stop
        port_out.send(time.process_time())
    server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.3, help="seconds per model call")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[16, 64])
    parser.add_argument("--serial", type=int, default=2, help="interviews at concurrency 1")
    parser.add_argument("--max-turns", type=int, default=6)
    args = parser.parse_args()
    mine, theirs = multiprocessing.Pipe()
    process = multiprocessing.Process(target=serve, args=(args.latency, theirs), daemon=True)
    process.start()
    url = mine.recv()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            run_batch(url, jobs=1, runs=1, max_turns=2, out=Path(tmp) / "warm")  # imports
            base = run_batch(
                url, jobs=1, runs=args.serial, max_turns=args.max_turns, out=Path(tmp) / "j1"
            )
            print(f"round trip {args.latency:.3f} s, up to {args.max_turns} turns per interview")
            print(f"concurrency  1: {base:6.2f} turns/s")
            for jobs in args.concurrency:
                cpu, started = server_cpu(mine), time.perf_counter()
                rate = run_batch(
                    url, jobs=jobs, runs=jobs, max_turns=args.max_turns, out=Path(tmp) / f"j{jobs}"
                )
                share = (server_cpu(mine) - cpu) / (time.perf_counter() - started)
                print(
                    f"concurrency {jobs:2d}: {rate:6.2f} turns/s = {rate / base:5.1f}x"
                    f"  (fake server: {share:.0%} of a core)"
                )
    finally:
        mine.send("stop")
        process.join(timeout=5)


if __name__ == "__main__":
    main()
