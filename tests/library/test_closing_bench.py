"""benchmarks/closing.py: what it parses of a check-back and a summary, and how it scores them.

The benchmark runs corpus interviews to their close (too long for the suite); here its parsing
of the read-back and the summary, and its scoring, are pinned on hand-made text.
"""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    sys.path.insert(0, str(ROOT / "benchmarks"))  # (it imports reading.py as a sibling)
    try:
        spec = importlib.util.spec_from_file_location("closing", ROOT / "benchmarks" / "closing.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
        sys.modules.pop("closing", None)
        sys.modules.pop("reading", None)  # (as test_reading_corpus leaves it: not imported)
    return module


def test_the_reasons_read_back_are_each_step_of_each_ladder(bench: ModuleType) -> None:
    question = (
        'Let me check I\'ve understood: "the quick wash" matters to you because "the kits get '
        'done", which in the end matters because "I feel useful"; and "the price" bothers you '
        'because of "the pension". Is that right?'
    )
    assert bench.read_back_links(question) == [
        ("the quick wash", "the kits get done"),
        ("the kits get done", "I feel useful"),
        ("the price", "the pension"),
    ]


def test_a_summary_is_read_as_its_lines_and_their_concepts(bench: ModuleType) -> None:
    summary = "- the quiet \u2192 next door\n- the kettle\n- also: the price; the kits"
    assert bench.summary_items(summary) == [
        ["the quiet", "next door"],
        ["the kettle"],
        ["the price", "the kits"],
    ]


def test_a_close_is_scored_against_the_coded_rungs(bench: ModuleType, tmp_path: Path) -> None:
    topic_dir = tmp_path / "dev" / "wm_mec"
    topic_dir.mkdir(parents=True)
    (topic_dir / "codebook.yaml").write_text(
        "concept: headphones_mec\ncodes:\n"
        "  - {id: quiet, type: attribute, label: quiet spin}\n"
        "  - {id: telly, type: functional_consequence, label: can hear the telly}\n"
    )
    (topic_dir / "one.yaml").write_text(
        "voice: test\nturns:\n"
        "  - question: What comes to mind?\n"
        "    answer: the quiet spin so i can hear the telly, and the kettle is boiling\n"
        "    rungs:\n"
        "      - {span: the quiet spin, code: quiet}\n"
        "      - {span: i can hear the telly, code: telly}\n"
    )
    topic = bench.load_set("dev", tmp_path)[0]
    tally: Counter[str] = Counter()
    question = 'Let me check: "the quiet spin" matters to you because "I can hear the telly".'
    summary = "- the quiet spin \u2192 I can hear the telly\n- also: the kettle"
    bench.score(tally, topic, topic.interviews[0], question, summary)
    assert (tally["rung_phrases"], tally["phrases"]) == (2, 2)
    assert (tally["sound"], tally["links"]) == (1, 1)
    assert (tally["rung_items"], tally["items"]) == (2, 3)
    assert (tally["clean_lines"], tally["lines"]) == (1, 2)
    assert (tally["covered"], tally["codes"]) == (2, 2)
