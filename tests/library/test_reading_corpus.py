"""benchmarks/reading.py: the reading corpora load, and the scorer says what it claims.

The benchmark runs every corpus interview through the real turn (too long for the suite), so
here: every corpus file keeps the format (each span a substring of its answer, each code in
its topic's codebook, each type a node type of the concept's methodology), a broken file is
refused naming its file and field, and the scorer's matching and node classes are pinned on a
small hand-made interview.
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from interview_cli.config.library import Library

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("reading", ROOT / "benchmarks" / "reading.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look the module up while built
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def test_every_corpus_file_keeps_the_format(bench: ModuleType) -> None:
    lib = Library.discover(cwd=ROOT)
    for set_name in bench.SETS:
        for topic in bench.load_set(set_name):
            concept = lib.concept(topic.concept_path or topic.concept_id).value
            types = set(lib.methodology(concept.methodology).value.ontology.types_by_level)
            stray = {c.type for c in topic.codes.values()} - types
            assert not stray, f"{topic.path}: types not in {concept.methodology}: {stray}"
            assert topic.interviews, f"{topic.path}: no interviews"


def _write(tmp: Path, answer_span: str) -> Path:
    topic = tmp / "dev" / "hp"
    topic.mkdir(parents=True)
    (topic / "codebook.yaml").write_text(
        "concept: headphones_mec\ncodes:\n"
        "  - {id: battery_week, type: attribute, label: battery lasts the week}\n"
        "  - {id: sound, type: attribute, label: crisp sound}\n"
    )
    (topic / "one.yaml").write_text(
        "voice: test\nturns:\n"
        "  - question: What comes to mind?\n"
        "    answer: To be honest the battery, it goes the whole week, mate\n"
        f"    rungs: [{{code: battery_week, span: {answer_span!r}}}]\n"
        "    not_nodes: [{span: To be honest, kind: hedge}, {span: mate, kind: address}]\n"
        "  - question: And?\n"
        "    answer: The sound is crisp, my wife says I'm obsessed ha\n"
        "    rungs: [{code: sound, span: The sound is crisp}]\n"
        "    not_nodes: [{span: my wife says I'm obsessed, kind: aside}]\n"
    )
    return tmp


def test_a_span_that_is_not_in_its_answer_is_refused_by_file_and_field(
    bench: ModuleType, tmp_path: Path
) -> None:
    root = _write(tmp_path, "it lasts all week")
    with pytest.raises(bench.CorpusError, match=r"one\.yaml: turns\[0\]\.rungs\[0\]\.span"):
        bench.load_set("dev", root)


def test_matching_forgives_typos_and_endings_not_other_words(bench: ModuleType) -> None:
    assert bench.share_in("goes the whole week", "it goes the whole week") == 1.0
    assert bench.share_in("batery lasting", "the battery lasts") == 1.0
    assert bench.share_in("said a week", "it goes the whole week") == 0.5
    assert bench.share_in("m", "coming back at 2 a.m.") == 0.0  # names nothing


def test_a_label_of_function_words_names_a_span_only_said_whole(bench: ModuleType) -> None:
    # "Being there for them" is a rung in its own words, none of them a content word
    assert bench.share_in("being there for them", "Being there for them.") == 1.0
    assert bench.share_in("being there for them", "I was there for the kids") == 0.0
    assert bench.share_in("still more than", "its still more than I pay") == 1.0
    assert bench.share_in("", "anything") == 0.0


def test_nodes_are_classed_as_rung_junk_or_mangled(bench: ModuleType, tmp_path: Path) -> None:
    (topic,) = bench.load_set("dev", _write(tmp_path, "it goes the whole week"))
    interview = topic.interviews[0]
    session = {
        "graph": {
            "nodes": [
                {"id": "n1", "label": "battery", "node_type": "attribute", "created_turn": 1},
                {"id": "n2", "label": "honest", "node_type": "attribute", "created_turn": 1},
                {"id": "n3", "label": "crisp sound", "node_type": "value", "created_turn": 2},
                {"id": "n4", "label": "wife obsessed", "node_type": "value", "created_turn": 2},
                {"id": "n5", "label": "week crisp", "node_type": "value", "created_turn": 2},
            ]
        },
        "canonical": {
            "slots": [{"id": "s1", "slot_name": "battery"}],
            # crisp sound lumped into the battery's slot: a mixed pair, two rungs in one slot
            "mappings": [
                {"surface_node_id": "n1", "slot_id": "s1"},
                {"surface_node_id": "n3", "slot_id": "s1"},
            ],
        },
    }
    asked = [
        bench.Asked(1, None, None, None, "opening"),
        bench.Asked(2, "deepen", "n2", "honest", "What does honest do for you?"),
        bench.Asked(3, "deepen", "n3", "crisp sound", "Why does crisp sound matter?"),
    ]
    run = bench.Run(topic, interview, session, asked, read=2)
    views = bench.classify_nodes(run)
    kinds = {v.label: (v.kind, v.code) for v in views.values()}
    assert kinds == {
        "battery": ("rung", "battery_week"),  # the code's label, every word said in the answer
        "honest": ("junk", None),
        "crisp sound": ("rung", "sound"),
        "wife obsessed": ("junk", None),
        "week crisp": ("mangled", None),
    }
    score = bench.score_run(run, views)
    assert (score.captured, score.rungs) == (2, 2)
    assert (score.rung_nodes, score.junk_nodes, score.nodes) == (2, 2, 5)
    assert (score.junk_focus, score.questions) == (1, 2)
    assert score.right_level == 1  # battery is an attribute; crisp sound was typed a value
    assert (score.pairs_within, score.shared_within, score.mixed_within) == (0, 0, 1)


def test_one_corpus_interview_runs_through_the_real_turn(bench: ModuleType, tmp_path: Path) -> None:
    (topic,) = bench.load_set("dev", _write(tmp_path, "it goes the whole week"))
    lib = Library.discover(cwd=ROOT)
    run = asyncio.run(bench.run_interview(topic, topic.interviews[0], lib))
    assert run.read == 2
    assert run.asked[0].strategy is None  # the opening
    assert run.session["graph"]["nodes"], "the answers made no node at all"
    figures = bench.figures(bench.score_run(run, bench.classify_nodes(run)))
    assert figures["answers"] == 2 and figures["rungs"] == 2


def test_across_interviews_rungs_are_paired_through_the_report_codes(
    bench: ModuleType, tmp_path: Path
) -> None:
    root = _write(tmp_path, "it goes the whole week")
    topic_dir = root / "dev" / "hp"
    (topic_dir / "two.yaml").write_text((topic_dir / "one.yaml").read_text())
    (topic,) = bench.load_set("dev", root)
    lib = Library.discover(cwd=ROOT)
    runs = [asyncio.run(bench.run_interview(topic, iv, lib)) for iv in topic.interviews]
    views = [bench.classify_nodes(r) for r in runs]
    codes = bench.report_codes(runs)
    assert all(codes) and set(codes[0]) == {v["id"] for v in runs[0].session["graph"]["nodes"]}
    score = bench.score_across(runs, views)
    # The same answers twice: every rung node has its twin in the other interview, and the
    # report codes twins alike (same words) while keeping the two rungs apart.
    twins = sum(v.kind == "rung" for v in views[0].values())
    assert twins >= 2 and score.pairs_across >= twins
    assert score.shared_across >= twins
    assert score.mixed_across == 0


def test_embeddings_without_the_extra_stop_in_one_line_before_any_run(
    bench: ModuleType,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from interview_cli.llm import embeddings

    monkeypatch.setattr(embeddings, "available", lambda: False)  # whatever this venv holds
    root = _write(tmp_path, "it goes the whole week")
    assert bench.main(["--sets", "dev", "--corpus", str(root), "--embeddings"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    (line,) = err.splitlines()
    assert line.startswith("--embeddings: ") and embeddings.INSTALL_HINT in line


class _CountingEmbedder:
    """Shared-word share as the similarity; counts the comparisons it was asked for."""

    def __init__(self) -> None:
        self.calls = 0

    def similarity(self, a: str, b: str) -> float:
        self.calls += 1
        left, right = set(a.lower().split()), set(b.lower().split())
        return len(left & right) / max(len(left | right), 1)


def test_an_embedder_reaches_the_interview_and_the_report_grouping(
    bench: ModuleType, tmp_path: Path
) -> None:
    (topic,) = bench.load_set("dev", _write(tmp_path, "it goes the whole week"))
    lib = Library.discover(cwd=ROOT)
    embedder = _CountingEmbedder()
    run = asyncio.run(bench.run_interview(topic, topic.interviews[0], lib, embedder))
    assert run.session["settings"]["enable_embeddings"] is True
    in_interview = embedder.calls
    assert in_interview > 0
    bench.report_codes([run, run], embedder)
    assert embedder.calls > in_interview
