"""Dual graph measurement (issue 8 "Done when"): seed 002's "Optimization Results Summary".

Runs simulated interviews offline through the real pipeline (``pipeline.runner.Interview`` on
the offline provider) for every shipped persona that has ladders for the concept's methodology,
and prints the seed's table - surface nodes, surface edges, edge/node ratio, canonical slots,
unmapped share - for four configurations:

- cross-turn edges off / on. "Off" is benchmark-local: an extraction filter drops every edge
  whose endpoint is not a node extracted from the same answer (what seed 002 Path 13 fixed:
  before it, such edges were skipped). The product never runs without cross-turn edges.
- dual graph off / on (``enable_canonical_slots``): slots proposed by the offline provider,
  merged by ``core.canonical`` (fuzzy tier; add ``--embeddings`` with the extra installed).

Respondents: the batch simulator
(``interview_cli.simulation.respondents.simulator.simulate_answer``: the persona's hidden
ladders, aliases about one time in four) when it is installed, else a small
scripted respondent here that says the persona's rungs, with an alias every third mention.

It also checks the "no third sequential round trip" rule: median turn wall time over a fixed
simulated latency L per LLM call, dual graph on vs off (slot discovery overlaps question
generation, so both should be about 2 L).

    python benchmarks/dual_graph.py [--concept headphones_mec] [--runs 2] [--max-turns 12]
                                    [--latency 0.2] [--embeddings]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from interview_cli.config.library import Library
from interview_cli.config.schemas import Persona, Rung
from interview_cli.core.canonical.slots import dual_graph_comparison
from interview_cli.core.text import normalise
from interview_cli.llm.embeddings import load_embedder
from interview_cli.llm.offline import OfflineLLM
from interview_cli.llm.protocol import Exchange, PersonaRequest, TaskResult
from interview_cli.llm.settings import offline_settings
from interview_cli.pipeline.runner import Interview
from interview_cli.pipeline.setup import new_session

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = (  # (label, cross-turn edges, dual graph)
    ("baseline", False, False),
    ("+cross-turn", True, False),
    ("+dual graph", False, True),
    ("both", True, True),
)


class Client:
    """The offline provider, optionally without cross-turn edges and/or behind a latency."""

    def __init__(self, seed: int, *, cross_turn: bool = True, latency: float = 0.0) -> None:
        self.inner = OfflineLLM(seed)
        self.provider_label = "offline (benchmark)"
        self.cross_turn = cross_turn
        self.latency = latency
        self.dropped_edges = 0

    def __getattr__(self, name: str) -> Any:
        target = getattr(self.inner, name)
        if not callable(target) or name.startswith("_"):
            return target

        async def call(*args: Any, **kwargs: Any) -> Any:
            if self.latency:
                await asyncio.sleep(self.latency)
            result = await target(*args, **kwargs)
            if name == "extract" and not self.cross_turn:
                result = self._same_turn_edges_only(result)
            return result

        return call

    def _same_turn_edges_only(self, result: TaskResult[Any]) -> TaskResult[Any]:
        extraction = result.value
        here = {normalise(n.label) for n in extraction.nodes}
        kept = [e for e in extraction.edges if {normalise(e.source), normalise(e.target)} <= here]
        self.dropped_edges += len(extraction.edges) - len(kept)
        return result.model_copy(update={"value": extraction.model_copy(update={"edges": kept})})


def scripted_answer(request: PersonaRequest) -> str:
    """Fallback respondent: the next rung of the ladder the focus is on (else a new ladder),
    said with one of the persona's sayings every third time."""
    persona, m = request.persona, request.methodology
    topic = request.concept.id if request.concept else ""
    ladders = persona.typed_ladders(topic, m) if m else []
    rng = random.Random(f"{request.seed}:{request.turn_number}:{persona.id}")
    said = " ".join(e.answer.lower() for e in request.history)

    def name(rung: Rung) -> str:
        says = rung.says
        return says[rng.randrange(len(says))] if says and rng.random() < 1 / 3 else rung.code

    focus = normalise(request.focus_label or "")
    for ladder in ladders:
        for i, rung in enumerate(ladder[:-1]):
            if focus and any(normalise(n) in focus or focus in normalise(n) for n in rung.names):
                return f"Because {name(ladder[i + 1])}."
    fresh = [ladder for ladder in ladders if ladder[0].code.lower() not in said]
    if not fresh:
        return "I don't know, I've said what matters."
    ladder = fresh[0]
    return (
        f"I'd say {name(ladder[0])}, because {name(ladder[1])}."
        if len(ladder) > 1
        else ladder[0].code
    )


def respondent() -> tuple[str, Callable[[PersonaRequest], str]]:
    try:
        from interview_cli.simulation.respondents.simulator import simulate_answer
    except ImportError:
        return "scripted (benchmark-local)", scripted_answer
    return "interview_cli.simulation.respondents.simulator", simulate_answer


async def interview(
    lib: Library,
    concept_id: str,
    persona: Persona,
    *,
    seed: int,
    max_turns: int,
    cross_turn: bool,
    dual: bool,
    answer: Callable[[PersonaRequest], str],
    embedder: Any = None,
    latency: float = 0.0,
) -> tuple[dict[str, Any], list[float], int]:
    concept = lib.concept(concept_id)
    session = new_session(
        session_id=f"bench-{persona.id}-{seed}",
        concept=concept,
        methodology=lib.methodology(concept.value.methodology),
        settings=offline_settings(),
        max_turns=max_turns,
        seed=seed,
        ask_rating=False,
        timestamps=False,
        canonical_slots=dual,
        embeddings=embedder is not None,
    )
    client = Client(seed, cross_turn=cross_turn, latency=latency)
    run = Interview(session, store=None, llm=client, embedder=embedder)  # type: ignore[arg-type]
    await run.ensure_question()
    times: list[float] = []
    while not run.finished and session.pending_question is not None:
        question = session.pending_question
        request = PersonaRequest(
            persona=persona,
            question=question.text,
            history=[
                Exchange(question=t.question.text, answer=t.answer.text) for t in session.turns
            ],
            concept=run.concept,
            methodology=run.methodology,
            strategy=question.strategy,
            focus_label=question.focus_label,
            turn_number=len(session.turns) + 1,
            seed=seed,
        )
        reply = answer(request) or "..."
        if question.kind == "closing":
            run.record_closing_answer(reply)
            run.complete()
            break
        start = time.perf_counter()
        await run.submit(reply)
        times.append(time.perf_counter() - start)
    return dual_graph_comparison(run.core.graph, run.canonical), times, client.dropped_edges


def personas_for(lib: Library, concept_id: str) -> list[Persona]:
    return [p.value for p in lib.personas() if p.value.beliefs.get(concept_id)]


def table(rows: dict[str, list[dict[str, Any]]]) -> str:
    def total(label: str, key: str) -> int:
        return sum(r[key] for r in rows[label])

    header = "| metric | " + " | ".join(label for label, _, _ in CONFIGS) + " |"
    lines = [header, "|---" * (len(CONFIGS) + 1) + "|"]

    def line(name: str, cell: Callable[[str, bool], str]) -> None:
        lines.append(
            f"| {name} | " + " | ".join(cell(lbl, dual) for lbl, _, dual in CONFIGS) + " |"
        )

    line("surface nodes", lambda lbl, d: str(total(lbl, "surface_nodes")))
    line("surface edges", lambda lbl, d: str(total(lbl, "surface_edges")))
    line(
        "edge/node",
        lambda lbl, d: f"{total(lbl, 'surface_edges') / max(total(lbl, 'surface_nodes'), 1):.2f}",
    )
    line(
        "canonical slots (active)",
        lambda lbl, d: (
            f"{total(lbl, 'canonical_slots')} ({total(lbl, 'active_slots')})" if d else "—"
        ),
    )
    line(
        "canonical edges (active)",
        lambda lbl, d: (
            f"{total(lbl, 'canonical_edges')} ({total(lbl, 'active_canonical_edges')})"
            if d
            else "—"
        ),
    )

    def unmapped(lbl: str, d: bool) -> str:
        if not d:
            return "100% (no slots)"
        share = total(lbl, "unmapped") / max(total(lbl, "surface_nodes"), 1)
        return f"{total(lbl, 'unmapped')} ({share:.1%})"

    line("unmapped", unmapped)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--concept", default="headphones_mec")
    parser.add_argument("--runs", type=int, default=2, help="interviews per persona")
    parser.add_argument("--max-turns", type=int, default=12)
    parser.add_argument("--latency", type=float, default=0.2, help="0 skips the latency check")
    parser.add_argument("--embeddings", action="store_true", help="use the embedding tier")
    args = parser.parse_args()

    lib = Library.discover(extra_roots=[ROOT], cwd=ROOT, env={})
    methodology = lib.methodology(lib.concept(args.concept).value.methodology).value
    personas = personas_for(lib, args.concept)
    source, answer = respondent()
    embedder = load_embedder(args.embeddings, notice=print)
    print(
        f"{args.concept} ({methodology.name}): {len(personas)} personas x {args.runs} runs, "
        f"up to {args.max_turns} turns; respondent: {source}; "
        f"similarity: {'embeddings' if embedder else 'fuzzy'}"
    )
    rows: dict[str, list[dict[str, Any]]] = {label: [] for label, _, _ in CONFIGS}
    dropped: dict[str, int] = {label: 0 for label, _, _ in CONFIGS}
    for label, cross_turn, dual in CONFIGS:
        for persona in personas:
            for run in range(args.runs):
                figures, _, lost = asyncio.run(
                    interview(
                        lib,
                        args.concept,
                        persona,
                        seed=run,
                        max_turns=args.max_turns,
                        cross_turn=cross_turn,
                        dual=dual,
                        answer=answer,
                        embedder=embedder,
                    )
                )
                rows[label].append(figures)
                dropped[label] += lost
    print()
    print(table(rows))
    print(
        f"\ncross-turn edges dropped by the 'off' filter: {dropped['baseline']} (baseline), "
        f"{dropped['+dual graph']} (+dual graph)"
    )
    print("seed 002 reports: edge/node 0.54 -> 1.18, unmapped 49% -> 1.4%")

    if args.latency > 0:
        print(f"\nturn wall time / L at L = {args.latency * 1000:.0f} ms per LLM call:")
        for dual in (False, True):
            times: list[float] = []
            for persona in personas[:2]:
                _, t, _ = asyncio.run(
                    interview(
                        lib,
                        args.concept,
                        persona,
                        seed=0,
                        max_turns=8,
                        cross_turn=True,
                        dual=dual,
                        answer=answer,
                        latency=args.latency,
                    )
                )
                times += t
            median = statistics.median(times)
            print(
                f"  dual graph {'on ' if dual else 'off'}: median {median * 1000:.0f} ms "
                f"= {median / args.latency:.2f} L over {len(times)} turns"
            )


if __name__ == "__main__":
    main()
