"""Batch throughput: is `interview batch --concurrency` latency-bound, as it should be?

Issue 6 "Done when": a batch with a fake interviewer and a fake respondent that each sleep a
fixed latency per model call, run at concurrency 1 and at concurrency 16; the script prints
interviews per second for both and their ratio (goal: at least 12x). Real model calls take
seconds and the pipeline's own work (graph update, scoring, an atomic save per step) takes
milliseconds, so a batch should scale with concurrency until the provider's rate limit, not
the CPU, is the bottleneck.

The fakes are cheap on purpose (a fixed one-element extraction, a neutral assessment, canned
questions and answers), so what is measured is the batch runner and the pipeline around the
calls: asyncio scheduling, the pure core, session writes.

    python benchmarks/batch_throughput.py                 # 0.2 s per call, 8 turns
    python benchmarks/batch_throughput.py --latency 0.5 --serial 3 --parallel 48
    python benchmarks/batch_throughput.py --latency 0.3 --concurrency 64 --parallel 64 \
        --disk-sync-ms 5                                  # a slow (busy, networked) disk

``--disk-sync-ms`` adds that much to every fsync of a session save, as a busy or networked
disk would: a batch writes its saves on a thread per session (``simulation.saving``), so slow
syncs should not hold up the other interviews (issue 17 item 6; measured at concurrency 64
with 5 ms syncs: 12.7 s with the writes on the event loop, 7.8 s off it).

Throughput at concurrency 1 is measured on ``--serial`` interviews and at 16 on ``--parallel``
interviews (a multiple of 16 keeps every slot busy), so the script finishes in well under a
minute while both figures are interviews per second.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

from interview_cli.config.library import Library  # noqa: E402
from interview_cli.core.models import Assessment, ExtractedEdge, ExtractedNode, Extraction  # noqa: E402
from interview_cli.llm.protocol import (  # noqa: E402
    AssessRequest,
    ExtractRequest,
    LLMCall,
    OnToken,
    OpeningRequest,
    PersonaRequest,
    QuestionRequest,
    SlotProposals,
    SlotRequest,
    TaskResult,
)
from interview_cli.llm.settings import offline_settings  # noqa: E402
from interview_cli.simulation.batch import BatchSpec, plan_batch, run_batch  # noqa: E402


def _call(task: str) -> LLMCall:
    return LLMCall(task=task, provider="fake", model="sleep", input_tokens=1000, output_tokens=100)


class SleepingInterviewer:
    """``InterviewLLM`` whose every call waits ``latency`` seconds and returns canned values."""

    provider_label = "fake"

    def __init__(self, latency: float) -> None:
        self.latency = latency

    async def _wait(self) -> None:
        await asyncio.sleep(self.latency)

    async def extract(self, request: ExtractRequest) -> TaskResult[Extraction]:
        await self._wait()
        label = f"element {request.utterance_id}"
        node_type = request.methodology.ontology.types_by_level[0]
        edges = []
        if request.focus_label and request.focus_type:
            edges = [ExtractedEdge(source=request.focus_label, target=label, relation="leads_to")]
            node_type = request.methodology.ontology.types_by_level[1]
        value = Extraction(
            nodes=[ExtractedNode(label=label, node_type=node_type, quote=request.answer)],
            edges=edges,
        )
        return TaskResult[Extraction](value=value, calls=[_call("extract")])

    async def assess(self, request: AssessRequest) -> TaskResult[Assessment]:
        await self._wait()
        read = Assessment.neutral().model_copy(update={"safety": "none"})  # read, no concern
        return TaskResult[Assessment](value=read, calls=[_call("assess")])

    async def generate_opening(
        self, request: OpeningRequest, on_token: OnToken | None = None
    ) -> TaskResult[str]:
        await self._wait()
        return TaskResult[str](value="What matters to you?", calls=[_call("generate_opening")])

    async def generate_question(
        self, request: QuestionRequest, on_token: OnToken | None = None
    ) -> TaskResult[str]:
        await self._wait()
        text = f"Question {request.turn_number}: why does {request.focus_label or 'that'} matter?"
        return TaskResult[str](value=text, calls=[_call("generate_question")])

    async def propose_slots(self, request: SlotRequest) -> TaskResult[SlotProposals]:
        await self._wait()
        return TaskResult[SlotProposals](value=SlotProposals(), calls=[_call("propose_slots")])

    async def respond_as_persona(self, request: PersonaRequest) -> TaskResult[str]:
        await self._wait()
        return TaskResult[str](value="Because it does.", calls=[_call("respond_as_persona")])


class SleepingRespondent:
    label = "fake"

    def __init__(self, latency: float) -> None:
        self.latency = latency

    async def answer(self, request: PersonaRequest) -> TaskResult[str]:
        await asyncio.sleep(self.latency)
        text = f"Because of reason {request.turn_number}, which matters to me."
        return TaskResult[str](value=text, calls=[_call("respond_as_persona")])


def timed_batch(*, interviews: int, concurrency: int, latency: float, max_turns: int) -> float:
    """Seconds to run ``interviews`` fake interviews at ``concurrency``."""
    lib = Library.discover()
    with tempfile.TemporaryDirectory() as out:
        spec = BatchSpec(
            personas=[lib.persona("cooperative")],
            concept=lib.concept("headphones_mec"),
            methodology=lib.methodology("means_end_chain"),
            settings=offline_settings(),
            out=Path(out),
            runs=interviews,
            max_turns=max_turns,
        )
        plan = plan_batch(spec)
        start = time.perf_counter()
        result = asyncio.run(
            run_batch(
                spec,
                llm=SleepingInterviewer(latency),
                respondent=SleepingRespondent(latency),
                concurrency=concurrency,
                plan=plan,
            )
        )
        elapsed = time.perf_counter() - start
    if result.failures:
        raise SystemExit(f"benchmark interviews failed: {result.failures[0].reason}")
    return elapsed


def slow_disk_syncs(seconds: float) -> None:
    """Make every fsync of the session store take ``seconds`` longer (the GIL is released
    while it waits, as in a real sync)."""
    import os

    import interview_cli.session.store as store

    class SlowSyncs:
        def __getattr__(self, name: str) -> object:
            return getattr(os, name)

        @staticmethod
        def fsync(fd: int) -> None:
            os.fsync(fd)
            time.sleep(seconds)

    store.os = SlowSyncs()  # type: ignore[assignment]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per model call")
    parser.add_argument("--max-turns", type=int, default=8)
    parser.add_argument("--serial", type=int, default=3, help="interviews at concurrency 1")
    parser.add_argument("--parallel", type=int, default=32, help="interviews at concurrency 16")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--goal", type=float, default=12.0, help="exit 1 below this ratio")
    parser.add_argument(
        "--disk-sync-ms", type=float, default=0.0, help="added to every fsync of a save"
    )
    args = parser.parse_args(argv)
    if args.disk_sync_ms:
        slow_disk_syncs(args.disk_sync_ms / 1000)

    one = timed_batch(
        interviews=args.serial, concurrency=1, latency=args.latency, max_turns=args.max_turns
    )
    many = timed_batch(
        interviews=args.parallel,
        concurrency=args.concurrency,
        latency=args.latency,
        max_turns=args.max_turns,
    )
    rate_one, rate_many = args.serial / one, args.parallel / many
    ratio = rate_many / rate_one
    print(f"latency {args.latency:.3f} s per call, {args.max_turns} turns per interview")
    print(f"concurrency 1:  {args.serial:3d} interviews in {one:6.2f} s = {rate_one:6.2f}/s")
    print(
        f"concurrency {args.concurrency}: {args.parallel:3d} interviews in {many:6.2f} s = "
        f"{rate_many:6.2f}/s"
    )
    verdict = "ok" if ratio >= args.goal else f"below the goal of {args.goal:g}x"
    print(f"throughput ratio: {ratio:.1f}x ({verdict})")
    return 0 if ratio >= args.goal else 1


if __name__ == "__main__":
    raise SystemExit(main())
