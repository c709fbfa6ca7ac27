"""Core time per turn of the real ``interview_cli.core.turn.advance`` at 50, 500 and 2000 nodes.

Each session is grown through ``advance`` itself with the shipped means-end chain methodology
and the ``headphones_mec`` concept: every turn adds laddered chains (attribute -> ... ->
terminal value) with fresh labels, half of them hooked onto an existing attribute, so the node
tracker, saturation, coverage and focus histories are those of a real run (one chain per turn
up to 200 nodes, one per 200 nodes of the target beyond, to keep growing quick). Then one more
turn (three new nodes hooked onto an existing attribute) is timed on each grown state,
``--repeats`` times, the sizes taking turns; ``advance`` leaves its input state untouched, so
every repeat starts from the same one. Each grown state is first saved and loaded back as
JSON, so that it is laid out in memory as a resumed session's is, not scattered among the
garbage of its growth.

Prints the median and the fastest CPU milliseconds per turn at each size, and the ratios the
issue sets as goals: 500 at most 10x 50, 2000 at most 4.5x 500, judged on the fastest turns
(other processes only ever add time, so on a shared machine the minimum is the steadiest
figure) with the medians' ratios beside. Not a test: timings depend on the machine.

    python benchmarks/core_scaling.py [--repeats 21] [--sizes 50 500 2000] [--no-freeze]

The grown states are frozen (``gc.freeze()``) before timing, as a loaded session is
long-lived; ``--no-freeze`` measures without it.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from pathlib import Path

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.config.yamlio import load_yaml
from interview_cli.core.models import Assessment, ExtractedEdge, ExtractedNode, Extraction
from interview_cli.core.turn import CoreState, TurnInput, advance

ROOT = Path(__file__).resolve().parents[1]
METHODOLOGY_PATH = ROOT / "methodologies" / "means_end_chain.yaml"
CONCEPT_PATH = ROOT / "concepts" / "headphones_mec.yaml"
MAX_TURNS = 100_000  # keeps every timed turn in the mid phase, away from the hard stop
GOALS = {(50, 500): 10.0, (500, 2000): 4.5}

# Distinct words so that synthetic labels do not fuzzy-merge into each other.
WORDS = (
    "amber basil cedar delta ember fable garnet harbor indigo juniper kelp lotus mango nectar "
    "onyx pepper quartz raven saffron tundra umber velvet willow xenon yarrow zephyr anchor "
    "breeze canyon dune estuary fjord glacier hollow island jungle knoll lagoon meadow nebula "
    "oasis prairie quarry ridge savanna thicket upland valley wetland"
).split()
RUBRIC = (
    "response_depth",
    "specificity",
    "certainty",
    "valence",
    "engagement",
    "intellectual_engagement",
)


def assessment(rng: random.Random) -> Assessment:
    return Assessment.model_validate({name: {"score": rng.randint(2, 5)} for name in RUBRIC})


def ladder(
    methodology: Methodology, rng: random.Random, anchor: str | None, levels: int | None = None
) -> Extraction:
    """A chain over the ontology's levels with fresh labels; linked to ``anchor`` if given."""
    types = methodology.ontology.types_by_level[:levels]
    labels = [f"{rng.choice(WORDS)} {rng.choice(WORDS)} {rng.choice(WORDS)}" for _ in types]
    nodes = [
        ExtractedNode(label=label, node_type=kind, quote=label)
        for label, kind in zip(labels, types, strict=True)
    ]
    edges = [
        ExtractedEdge(source=a, target=b, relation="leads_to")
        for a, b in zip(labels, labels[1:], strict=False)
    ]
    if anchor is not None:
        edges.append(ExtractedEdge(source=anchor, target=labels[1], relation="leads_to"))
    return Extraction(nodes=nodes, edges=edges)


def step(
    state: CoreState,
    methodology: Methodology,
    concept: Concept,
    extraction: Extraction,
    rng: random.Random,
) -> CoreState:
    inputs = TurnInput(
        methodology=methodology,
        concept=concept,
        extraction=extraction,
        assessment=assessment(rng),
        utterance_id=f"u{state.turn_count + 1}",
        max_turns=MAX_TURNS,
    )
    new_state, _ = advance(state, inputs)
    return new_state


def attribute_label(state: CoreState, methodology: Methodology, rng: random.Random) -> str | None:
    attributes = state.graph.nodes(methodology.ontology.types_by_level[0])
    return rng.choice(attributes).label if attributes else None


def grow(methodology: Methodology, concept: Concept, size: int, seed: int = 7) -> CoreState:
    """A core state whose graph holds ``size`` nodes (the last chain is cut to fit).

    One ladder per turn up to 200 nodes, more per turn beyond (one per 200 nodes of the target),
    so that a 2000-node state is grown in about 40 turns rather than 400.
    """
    rng = random.Random(seed)
    state = CoreState.initial(concept)
    per_turn = max(1, size // 200)
    levels = len(methodology.ontology.types_by_level)
    while (missing := size - state.graph.node_count) > 0:
        chains = []
        for _ in range(per_turn):
            if missing <= 0:
                break
            take = min(levels, missing)
            hook = take > 1 and rng.random() < 0.5
            anchor = attribute_label(state, methodology, rng) if hook else None
            chains.append(ladder(methodology, rng, anchor, levels=take))
            missing -= take
        extraction = Extraction(
            nodes=[n for c in chains for n in c.nodes], edges=[e for c in chains for e in c.edges]
        )
        state = step(state, methodology, concept, extraction, rng)
    return state


def reload(state: CoreState, concept: Concept) -> CoreState:
    """``state`` as a session file gives it back (JSON and back), as the pipeline resumes it."""
    return CoreState.from_dict(**json.loads(json.dumps(state.to_dict())), concept=concept)


def one_turn(
    state: CoreState, methodology: Methodology, concept: Concept, rng: random.Random
) -> float:
    """CPU milliseconds of one ``advance`` on ``state`` (three new nodes, one hook).

    CPU time of this process, not wall time: the core is pure computation, and on a shared
    machine wall time mostly measures the neighbours.
    """
    anchor = attribute_label(state, methodology, rng)
    extraction = ladder(methodology, rng, anchor, levels=3)
    start = time.process_time()
    step(state, methodology, concept, extraction, rng)
    return (time.process_time() - start) * 1000


def time_turns(
    states: dict[int, CoreState],
    methodology: Methodology,
    concept: Concept,
    repeats: int,
    seed: int = 11,
) -> dict[int, list[float]]:
    """CPU milliseconds of each timed turn, by size.

    Sizes take turns round by round, so that a change in the machine's load during the run
    weighs on every size alike instead of skewing the ratios.
    """
    rngs = {size: random.Random(seed) for size in states}
    totals: dict[int, list[float]] = {size: [] for size in states}
    for _ in range(repeats):
        for size, state in states.items():
            totals[size].append(one_turn(state, methodology, concept, rngs[size]))
    return totals


def load(path: Path, model: type[Methodology] | type[Concept]) -> Methodology | Concept:
    return model.model_validate(load_yaml(path.read_text(encoding="utf-8")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 500, 2000])
    parser.add_argument("--repeats", type=int, default=21)
    parser.add_argument("--no-freeze", action="store_true", help="time without gc.freeze()")
    args = parser.parse_args(argv)
    methodology = load(METHODOLOGY_PATH, Methodology)
    concept = load(CONCEPT_PATH, Concept)
    assert isinstance(methodology, Methodology) and isinstance(concept, Concept)
    print(f"advance() with {METHODOLOGY_PATH.name} and {CONCEPT_PATH.name}")
    freeze = "without" if args.no_freeze else "with"
    print(f"python {sys.version.split()[0]}, {args.repeats} turns per size, {freeze} gc.freeze()")
    states: dict[int, CoreState] = {}
    grown: dict[int, float] = {}
    for size in args.sizes:
        start = time.perf_counter()
        states[size] = reload(grow(methodology, concept, size), concept)
        grown[size] = time.perf_counter() - start
    gc.collect()
    if not args.no_freeze:
        gc.freeze()  # what the grown states hold is long-lived, as a loaded session's is
    timings = time_turns(states, methodology, concept, args.repeats)
    if not args.no_freeze:
        gc.unfreeze()
    medians = {size: statistics.median(values) for size, values in timings.items()}
    fastest = {size: min(values) for size, values in timings.items()}
    header = ("size", 5), ("nodes", 6), ("edges", 6), ("median ms", 10), ("fastest", 8)
    print("\n" + " ".join(f"{name:>{width}}" for name, width in header) + f" {'grown in':>9}")
    for size, state in states.items():
        graph = state.graph
        print(
            f"{size:>5} {graph.node_count:>6} {graph.edge_count:>6} "
            f"{medians[size]:>10.2f} {fastest[size]:>8.2f} {grown[size]:>8.1f}s"
        )
    print("\nratios of the fastest turns (on a shared machine the steadiest figure), medians:")
    for (small, large), goal in GOALS.items():
        if small in timings and large in timings:
            ratio = fastest[large] / fastest[small]
            verdict = "OK" if ratio <= goal else "ABOVE GOAL"
            print(
                f"{large}/{small}: {ratio:.1f}x (goal <= {goal:g}x): {verdict}; "
                f"medians {medians[large] / medians[small]:.1f}x"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
