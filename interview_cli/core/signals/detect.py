"""Signal detection: walk the catalogue in dependency order and run every detector.

Implements seed 001 "Signal Pools Architecture" (dependency-ordered detection, namespaced
output: ``{name: value}`` and ``{node_id: {name: value}}``) and seed 002 Path 2.

The order is a topological sort of the catalogue's ``depends_on`` graph that keeps catalogue
order among independent signals (Kahn's algorithm, always taking the earliest ready entry), so
it is the same on every run. Global signals are computed once; node signals once per tracked
node. A dependency cycle or a dependency on an unknown signal is a programming error and fails
at import, as does a catalogue entry without a detector.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from interview_cli.config.signal_catalogue import CATALOGUE, SignalSpec

# Importing the detector modules registers their detectors.
from interview_cli.core.signals import (  # noqa: F401
    graph_signals,
    llm_signals,
    node_signals,
    session_signals,
    shape_signals,
    study_signals,
)
from interview_cli.core.signals.base import (
    DETECTORS,
    DetectedSignals,
    SignalContext,
    SignalValue,
)

_EMPTY: Mapping[str, SignalValue] = {}


def dependency_order(specs: Iterable[SignalSpec] = CATALOGUE) -> tuple[SignalSpec, ...]:
    """The catalogue in dependency order, stable with respect to catalogue order."""
    specs = tuple(specs)
    by_name = {s.name: s for s in specs}
    for spec in specs:
        missing = [d for d in spec.depends_on if d not in by_name]
        if missing:
            raise ValueError(f"signal {spec.name!r} depends on unknown {', '.join(missing)}")
    position = {s.name: i for i, s in enumerate(specs)}
    remaining = {s.name: set(s.depends_on) for s in specs}
    ordered: list[SignalSpec] = []
    while remaining:
        ready = [name for name, deps in remaining.items() if not deps]
        if not ready:
            raise ValueError(f"signal dependency cycle among: {', '.join(sorted(remaining))}")
        name = min(ready, key=position.__getitem__)
        ordered.append(by_name[name])
        del remaining[name]
        for deps in remaining.values():
            deps.discard(name)
    return tuple(ordered)


def missing_detectors() -> list[str]:
    """Catalogue entries without a detector (should always be empty)."""
    return [s.name for s in CATALOGUE if s.name not in DETECTORS]


ORDER: tuple[SignalSpec, ...] = dependency_order()
if missing_detectors():  # pragma: no cover - guarded by tests, fails loudly at import
    raise ImportError(f"signals without a detector: {', '.join(missing_detectors())}")


def detect_signals(ctx: SignalContext) -> DetectedSignals:
    """Every signal of the catalogue for this turn: global values and per-node values.

    Node signals are produced for every node in the tracker. Signals whose detector returns
    None (not available this turn) are left out.
    """
    global_values: dict[str, SignalValue] = {}
    states = ctx.tracker.states
    node_values: dict[str, dict[str, SignalValue]] = {node_id: {} for node_id in states}
    for spec in ORDER:
        detector = DETECTORS[spec.name]
        if detector.scope == "global":
            deps = {d: global_values[d] for d in spec.depends_on if d in global_values}
            value = detector.fn(ctx, deps or _EMPTY)
            if value is not None:
                global_values[spec.name] = value
            continue
        global_deps = {d: global_values[d] for d in spec.depends_on if d in global_values}
        node_dep_names = [d for d in spec.depends_on if d not in global_values]
        for node_id, state in states.items():
            values = node_values[node_id]
            if node_dep_names:
                deps = dict(global_deps)
                deps.update({d: values[d] for d in node_dep_names if d in values})
            else:
                deps = global_deps
            value = detector.fn(ctx, state, deps or _EMPTY)
            if value is not None:
                values[spec.name] = value
    return DetectedSignals(global_signals=global_values, node_signals=node_values)
