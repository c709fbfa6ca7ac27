"""How long the pure core takes per turn, by graph size.

Builds sessions whose graphs hold about 25, 50, 100 and 500 nodes with the shipped
``methodologies/means_end_chain.yaml`` (laddered chains attribute -> ... -> terminal value, built
through ``core.turn.advance`` so that the node tracker, saturation, focus history and canonical
state are realistic), then times one more turn on each: the real ``advance()``, the function
the interview, replay and verify run, split into its two halves:

    decide_turn   graph update, tracker, state, signals, candidates, vetoes, scoring, continuation
    settle        the canonical slot step (the turn's slot proposals; none here, so every new
                  node waits for a slot and canonical edges follow the surface graph)

It prints the median milliseconds per turn and per half for each size, and the 500/50 ratio
(goal: at most 12x, i.e. near-linear growth). ``--no-slots``: the surface-only core (canonical
slots off). Not a test: timings depend on the machine.

    python benchmarks/core_overhead.py [--repeats 15] [--sizes 25 50 100 500] [--no-slots]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import yaml

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.core.models import Assessment, ExtractedEdge, ExtractedNode, Extraction
from interview_cli.core.turn import CoreState, TurnInput, advance, decide_turn

ROOT = Path(__file__).resolve().parents[1]
METHODOLOGY_PATH = ROOT / "methodologies" / "means_end_chain.yaml"
GOAL_RATIO = 12.0
MAX_TURNS = 10_000  # keeps every timed turn in the mid phase, away from the hard stop

# Distinct words so that synthetic labels do not fuzzy-merge into each other.
WORDS = (
    "amber basil cedar delta ember fable garnet harbor indigo juniper kelp lotus mango nectar "
    "onyx pepper quartz raven saffron tundra umber velvet willow xenon yarrow zephyr anchor "
    "breeze canyon dune estuary fjord glacier hollow island jungle knoll lagoon meadow nebula "
    "oasis prairie quarry ridge savanna thicket upland valley wetland"
).split()


def _assessment(rng: random.Random) -> Assessment:
    scores = {name: rng.randint(2, 5) for name in _RUBRIC}
    return Assessment.model_validate({k: {"score": v} for k, v in scores.items()})


_RUBRIC = (
    "response_depth",
    "specificity",
    "certainty",
    "valence",
    "engagement",
    "intellectual_engagement",
)


def _ladder(methodology: Methodology, rng: random.Random, anchor: str | None) -> Extraction:
    """A chain over the ontology's levels with fresh labels; linked to ``anchor`` if given."""
    types = methodology.ontology.types_by_level
    relation = "leads_to"
    labels = [f"{rng.choice(WORDS)} {rng.choice(WORDS)} {rng.choice(WORDS)}" for _ in types]
    nodes = [
        ExtractedNode(label=label, node_type=kind, quote=label)
        for label, kind in zip(labels, types, strict=True)
    ]
    edges = [
        ExtractedEdge(source=a, target=b, relation=relation)
        for a, b in zip(labels, labels[1:], strict=False)
    ]
    if anchor is not None:
        edges.append(ExtractedEdge(source=anchor, target=labels[1], relation=relation))
    return Extraction(nodes=nodes, edges=edges)


CONCEPT = Concept.model_validate(
    {"id": "bench", "name": "Bench", "methodology": "means_end_chain", "objective": "why"}
)


def turn_input(
    methodology: Methodology, state: CoreState, extraction: Extraction, assessment: Assessment
) -> TurnInput:
    return TurnInput(
        methodology=methodology,
        concept=CONCEPT,
        extraction=extraction,
        assessment=assessment,
        utterance_id=f"u{state.turn_count + 1}",
        max_turns=MAX_TURNS,
    )


def build_session(
    methodology: Methodology, size: int, *, slots: bool = True, seed: int = 7
) -> CoreState:
    """A core state whose graph holds at least ``size`` nodes, grown one ladder per turn."""
    rng = random.Random(seed)
    state = CoreState.initial(CONCEPT, slots=slots)
    while state.graph.node_count < size:
        attributes = state.graph.nodes(methodology.ontology.types_by_level[0])
        anchor = rng.choice(attributes).label if attributes and rng.random() < 0.5 else None
        inputs = turn_input(methodology, state, _ladder(methodology, rng, anchor), _assessment(rng))
        state, _ = advance(state, inputs)
    return state


def _next_extraction(methodology: Methodology, state: CoreState, rng: random.Random) -> Extraction:
    """Three new nodes, linked to an existing attribute."""
    anchor = rng.choice(state.graph.nodes(methodology.ontology.types_by_level[0]))
    extraction = _ladder(methodology, rng, anchor.label)
    nodes = extraction.nodes[:3]
    labels = {x.label for x in nodes}
    edges = [
        e for e in extraction.edges if e.target in labels and e.source in labels | {anchor.label}
    ]
    return Extraction(nodes=nodes, edges=edges)


def time_turns(
    methodology: Methodology, base: CoreState, repeats: int, seed: int = 11
) -> tuple[float, dict[str, float], int]:
    """Median ms of ``advance()`` from ``base`` (a frozen state: every repeat starts from it),
    and of its two halves."""
    rng = random.Random(seed)
    totals: list[float] = []
    halves: dict[str, list[float]] = {"decide_turn": [], "settle": []}
    candidates = 0
    for _ in range(repeats):
        inputs = turn_input(
            methodology, base, _next_extraction(methodology, base, rng), _assessment(rng)
        )
        start = time.perf_counter()
        decided = decide_turn(base, inputs)
        middle = time.perf_counter()
        _, outcome = decided.settle(inputs.slot_proposals)
        end = time.perf_counter()
        totals.append((end - start) * 1000)
        halves["decide_turn"].append((middle - start) * 1000)
        halves["settle"].append((end - middle) * 1000)
        candidates = len(outcome.decision.candidates)
    return (
        statistics.median(totals),
        {k: statistics.median(v) for k, v in halves.items()},
        candidates,
    )


def load_methodology(path: Path = METHODOLOGY_PATH) -> Methodology:
    return Methodology.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[25, 50, 100, 500])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--no-slots", action="store_true", help="canonical slots off")
    args = parser.parse_args(argv)
    methodology = load_methodology()
    n_strategies = len(methodology.strategies)
    print(f"methodology: {METHODOLOGY_PATH.relative_to(ROOT)} ({n_strategies} strategies)")
    slots = "off" if args.no_slots else "on"
    print(
        f"python {sys.version.split()[0]}, median of {args.repeats} turns per size, "
        f"canonical slots {slots}\n"
    )
    header = f"{'size':>5} {'nodes':>6} {'pairs':>6} {'ms/turn':>9}  halves (ms)"
    print(header)
    print("-" * len(header))
    results: dict[int, float] = {}
    for size in args.sizes:
        state = build_session(methodology, size, slots=not args.no_slots)
        total, stages, _ = time_turns(methodology, state, args.repeats)
        results[size] = total
        nodes = state.graph.node_count
        pairs = sum(nodes if s.node_binding == "required" else 1 for s in methodology.strategies)
        breakdown = ", ".join(f"{k} {v:.2f}" for k, v in stages.items())
        print(f"{size:>5} {nodes:>6} {pairs:>6} {total:>9.2f}  {breakdown}")
    if 50 in results and 500 in results:
        ratio = results[500] / results[50]
        verdict = "OK" if ratio <= GOAL_RATIO else "ABOVE GOAL"
        print(f"\n500/50 ratio: {ratio:.1f}x (goal <= {GOAL_RATIO:g}x): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
