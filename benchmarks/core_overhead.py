"""How long the pure core takes per turn, by graph size (issue 3 "Done when").

Builds sessions whose graphs hold about 25, 50, 100 and 500 nodes with the shipped
``methodologies/means_end_chain.yaml`` (laddered chains attribute -> ... -> terminal value, built
through the real turn loop so that the node tracker, saturation and focus history are
realistic), then times one full core turn on a copy of each:

    advance_turn -> apply_extraction -> tracker (register, edges, yield, response depth)
    -> compute_graph_state -> saturation, velocity, response trend
    -> decide (signals, candidates, vetoes, scoring, continuation) -> update_focus

It prints the median milliseconds per turn and per stage for each size, and the 500/50 ratio
(goal: at most 12x, i.e. near-linear growth). Not a test: timings depend on the machine.

    python benchmarks/core_overhead.py [--repeats 15] [--sizes 25 50 100 500]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from interview_cli.config.schemas import Methodology
from interview_cli.core.decide import Decision, DecisionInputs, decide, focus_entry
from interview_cli.core.graph import KnowledgeGraph
from interview_cli.core.graph_update import apply_extraction
from interview_cli.core.models import Assessment, ExtractedEdge, ExtractedNode, Extraction
from interview_cli.core.signals import TrendState, update_response_trend
from interview_cli.core.signals.llm_signals import response_depth_category
from interview_cli.core.state import (
    SaturationMetrics,
    VelocityState,
    compute_graph_state,
    update_saturation,
    update_velocity,
)
from interview_cli.core.tracker import (
    NodeStateTracker,
    advance_turn,
    append_response_signal,
    apply_graph_delta,
    update_focus,
)
from interview_cli.core.vetoes import FocusEntry

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


@dataclass
class CoreSession:
    """The state the pipeline carries between turns, and one core turn over it."""

    methodology: Methodology
    graph: KnowledgeGraph = field(default_factory=KnowledgeGraph)
    tracker: NodeStateTracker = field(default_factory=NodeStateTracker)
    saturation: SaturationMetrics = field(default_factory=SaturationMetrics)
    velocity: VelocityState = field(default_factory=VelocityState)
    trend: TrendState = field(default_factory=TrendState)
    strategies: list[str] = field(default_factory=list)
    focuses: list[FocusEntry] = field(default_factory=list)
    turn: int = 0

    def copy(self) -> CoreSession:
        return CoreSession(
            self.methodology,
            self.graph.copy(),
            self.tracker,
            self.saturation,
            self.velocity,
            self.trend,
            list(self.strategies),
            list(self.focuses),
            self.turn,
        )

    def turn_once(
        self, extraction: Extraction, assessment: Assessment, timings: dict[str, float] | None
    ) -> Decision:
        clock = _Clock(timings)
        m = self.methodology
        sat = m.tuning.saturation
        self.turn += 1
        n = self.turn
        with clock("graph update"):
            delta = apply_extraction(
                self.graph, extraction, methodology=m, utterance_id=f"u{n}", turn=n
            )
        with clock("tracker"):
            depth = response_depth_category(assessment.response_depth.score)
            tracker = advance_turn(self.tracker, n)
            tracker = apply_graph_delta(tracker, self.graph, delta, methodology=m, turn=n)
            tracker = append_response_signal(tracker, depth, assessment.knowledge_ceiling)
        with clock("state"):
            state = compute_graph_state(self.graph, m, n)
            self.saturation = update_saturation(
                self.saturation,
                nodes_added=len(delta.nodes_added),
                edges_added=len(delta.edges_added),
                response_depth=depth,
                max_depth=state.max_depth,
                mention_counts=self.graph.mention_counts(),
                tuning=sat,
            )
            self.velocity = update_velocity(
                self.velocity,
                surface_node_count=self.graph.node_count,
                canonical_node_count=0,
                alpha=sat.ewma_alpha,
            )
            self.trend = update_response_trend(
                self.trend, assessment, sat.fatigue_alpha, fatigue_threshold=sat.fatigue_threshold
            )
        with clock("decide"):
            decision = decide(
                DecisionInputs(
                    methodology=m,
                    tracker=tracker,
                    turn_number=n,
                    max_turns=MAX_TURNS,
                    graph=self.graph,
                    graph_state=state,
                    saturation=self.saturation,
                    velocity=self.velocity,
                    trend=self.trend,
                    assessment=assessment,
                    strategy_history=tuple(self.strategies[-30:]),
                    focus_history=tuple(self.focuses[-30:]),
                )
            )
        with clock("focus update"):
            s = decision.selected
            self.tracker = update_focus(tracker, s.node_id, n, s.strategy)
            self.strategies.append(s.strategy)
            self.focuses.append(focus_entry(decision, n))
        return decision


class _Clock:
    def __init__(self, sink: dict[str, float] | None) -> None:
        self.sink = sink
        self.stage = ""
        self.start = 0.0

    def __call__(self, stage: str) -> _Clock:
        self.stage = stage
        return self

    def __enter__(self) -> None:
        self.start = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        if self.sink is not None:
            elapsed = (time.perf_counter() - self.start) * 1000
            self.sink[self.stage] = self.sink.get(self.stage, 0.0) + elapsed


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


def build_session(methodology: Methodology, size: int, seed: int = 7) -> CoreSession:
    """A session whose graph holds at least ``size`` nodes, grown one ladder per turn."""
    rng = random.Random(seed)
    session = CoreSession(methodology)
    while session.graph.node_count < size:
        attributes = session.graph.nodes(methodology.ontology.types_by_level[0])
        anchor = rng.choice(attributes).label if attributes and rng.random() < 0.5 else None
        session.turn_once(_ladder(methodology, rng, anchor), _assessment(rng), None)
    return session


def time_turns(
    base: CoreSession, repeats: int, seed: int = 11
) -> tuple[float, dict[str, float], int]:
    """Median ms of one full core turn on fresh copies of ``base``; per-stage medians."""
    rng = random.Random(seed)
    totals: list[float] = []
    stages: dict[str, list[float]] = {}
    candidates = 0
    for _ in range(repeats):
        session = base.copy()
        anchor = rng.choice(session.graph.nodes(base.methodology.ontology.types_by_level[0]))
        extraction = _ladder(base.methodology, rng, anchor.label)
        extraction = extraction.model_copy(update={"nodes": extraction.nodes[:3]})
        extraction = extraction.model_copy(
            update={
                "edges": [
                    e
                    for e in extraction.edges
                    if e.target in {x.label for x in extraction.nodes}
                    and e.source in {x.label for x in extraction.nodes} | {anchor.label}
                ]
            }
        )
        timings: dict[str, float] = {}
        start = time.perf_counter()
        decision = session.turn_once(extraction, _assessment(rng), timings)
        totals.append((time.perf_counter() - start) * 1000)
        for stage, ms in timings.items():
            stages.setdefault(stage, []).append(ms)
        candidates = len(decision.candidates)
    return (
        statistics.median(totals),
        {k: statistics.median(v) for k, v in stages.items()},
        candidates,
    )


def load_methodology(path: Path = METHODOLOGY_PATH) -> Methodology:
    return Methodology.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[25, 50, 100, 500])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args(argv)
    methodology = load_methodology()
    n_strategies = len(methodology.strategies)
    print(f"methodology: {METHODOLOGY_PATH.relative_to(ROOT)} ({n_strategies} strategies)")
    print(f"python {sys.version.split()[0]}, median of {args.repeats} turns per size\n")
    header = f"{'size':>5} {'nodes':>6} {'pairs':>6} {'ms/turn':>9}  stages (ms)"
    print(header)
    print("-" * len(header))
    results: dict[int, float] = {}
    run: Callable[[int], CoreSession] = lambda size: build_session(methodology, size)  # noqa: E731
    for size in args.sizes:
        session = run(size)
        total, stages, _ = time_turns(session, args.repeats)
        results[size] = total
        nodes = session.graph.node_count
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
