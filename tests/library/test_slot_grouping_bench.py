"""benchmarks/slot_grouping.py: slot sharing measured on an analyst's spans, apart from how
the reader cut the answers, on a small hand-made corpus."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from interview_cli.config.library import Library

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("slot_grouping", BENCH / "slot_grouping.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
        sys.modules.pop("reading", None)
    return module


def _interview(path: Path, *turns: tuple[str, list[tuple[str, str]]]) -> None:
    lines = ["voice: test", "turns:"]
    for answer, rungs in turns:
        lines += [f"  - question: Why?\n    answer: {answer}", "    rungs:"]
        lines += [f"      - {{code: {code}, span: {span}}}" for code, span in rungs]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_spans_of_one_rung_share_a_slot_and_a_code_other_rungs_do_not(
    bench: ModuleType, tmp_path: Path
) -> None:
    topic = tmp_path / "dev" / "hp"
    topic.mkdir(parents=True)
    (topic / "codebook.yaml").write_text(
        "concept: headphones_mec\ncodes:\n"
        "  - {id: battery, type: attribute, label: battery life}\n"
        "  - {id: calm, type: psychosocial_consequence, label: feel calm}\n"
        "  - {id: price, type: attribute, label: cheap}\n",
        encoding="utf-8",
    )
    _interview(
        topic / "one.yaml",
        ("The battery, mostly", [("battery", "The battery")]),
        (
            "Battery life is decent and I feel calm",
            [("battery", "Battery life is decent"), ("calm", "I feel calm")],
        ),
    )
    _interview(
        topic / "two.yaml",
        (
            "Decent battery and it was cheap",
            [("battery", "Decent battery"), ("price", "it was cheap")],
        ),
        ("Not stressed at all", [("calm", "Not stressed at all")]),
    )
    (loaded,) = bench.reading.load_set("dev", tmp_path)
    pairs = bench.score_topic(loaded, Library.discover(cwd=ROOT))
    assert (pairs.within, pairs.shared_within, pairs.mixed_within) == (1, 1, 0)
    # across: battery 2x1 pairs, calm 1x1; all shared, and nothing of another rung lumped
    assert (pairs.across, pairs.shared_across, pairs.mixed_across) == (3, 3, 0)
    figures = bench.figures(pairs)
    assert figures["same_slot_within"] == 1.0 and figures["mixed_across"] == 0.0
