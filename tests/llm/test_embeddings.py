"""The optional embedding tier (llm.embeddings): switch, lazy load once, per-label cache, the
core.graph.dedup.Embedder protocol, fallback with a notice, and use in dedup and slot merging.

The real model is exercised by one optional test, skipped unless the extra is installed."""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from typing import Any

import pytest

from interview_cli.config.tuning import CanonicalTuning, DedupTuning
from interview_cli.core.graph.dedup import DedupCandidate, Embedder, find_duplicate
from interview_cli.llm import embeddings
from interview_cli.llm.embeddings import SentenceEmbedder, load_embedder, requested

# Toy vectors: "concentrate" and "focus" point the same way, "price" elsewhere.
VECTORS = {
    "focus on the train": (1.0, 0.1, 0.0),
    "concentrate on the train": (0.9, 0.3, 0.0),
    "price": (0.0, 0.0, 1.0),
}


class CountingEncoder:
    def __init__(self) -> None:
        self.batches: list[list[str]] = []

    def __call__(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        self.batches.append(list(texts))
        return [VECTORS.get(t, (0.1, 0.1, 0.1)) for t in texts]


@pytest.fixture(autouse=True)
def _fresh_shared_embedder() -> Any:
    embeddings.reset_shared()
    yield
    embeddings.reset_shared()


def test_switch_by_flag_or_environment() -> None:
    assert requested(True, environ={}) is True
    assert requested(False, environ={}) is False
    assert requested(None, environ={"INTERVIEW_EMBEDDINGS": "1"}) is True
    assert requested(None, environ={"INTERVIEW_EMBEDDINGS": "yes"}) is True
    assert requested(None, environ={"INTERVIEW_EMBEDDINGS": "0"}) is False


def test_cosine_similarity_with_one_encode_per_label() -> None:
    encoder = CountingEncoder()
    embedder = SentenceEmbedder(encoder)
    assert isinstance(embedder, Embedder)
    score = embedder.similarity("focus on the train", "Concentrate on the  train")
    a, b = VECTORS["focus on the train"], VECTORS["concentrate on the train"]
    expected = sum(x * y for x, y in zip(a, b, strict=True)) / (math.hypot(*a) * math.hypot(*b))
    assert score == pytest.approx(expected)
    assert embedder.similarity("price", "focus on the train") == 0.0  # clipped at 0
    assert embedder.similarity("focus on the train", "concentrate on the train") == score
    assert embedder.similarity("Price", "price") == 1.0
    assert embedder.encoded == 3  # each distinct label once, whatever the casing
    embedder.warm(["price", "new label", "another", "new label"])
    assert encoder.batches[-1] == ["new label", "another"]  # one batch, uncached only


def test_the_model_loads_once_per_process() -> None:
    loads: list[int] = []

    def loader() -> CountingEncoder:
        loads.append(1)
        return CountingEncoder()

    first = load_embedder(True, loader=loader)
    second = load_embedder(True, loader=loader)
    assert first is second and first is not None and loads == [1]


def test_disabled_means_no_model_and_no_notice() -> None:
    notices: list[str] = []
    assert load_embedder(False, notice=notices.append) is None
    assert notices == []


def test_missing_extra_falls_back_with_a_one_line_notice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embeddings, "available", lambda: False)
    notices: list[str] = []
    assert load_embedder(True, notice=notices.append) is None
    assert len(notices) == 1 and "\n" not in notices[0]
    assert "interview-cli[embeddings]" in notices[0] and "fuzzy" in notices[0]


def test_a_broken_model_falls_back_with_a_notice() -> None:
    def loader() -> Any:
        raise OSError("weights missing")

    notices: list[str] = []
    assert load_embedder(True, notice=notices.append, loader=loader) is None
    assert notices and "OSError: weights missing" in notices[0]


def test_importing_the_module_imports_no_model_library() -> None:
    assert "sentence_transformers" not in sys.modules and "torch" not in sys.modules


def test_used_by_surface_dedup_at_its_threshold() -> None:
    embedder = SentenceEmbedder(CountingEncoder())
    pool = [DedupCandidate("n1", ("focus on the train",))]
    tuning = DedupTuning()
    assert find_duplicate("concentrate on the train", pool, tuning=tuning) is None
    match = find_duplicate("concentrate on the train", pool, tuning=tuning, embedder=embedder)
    assert match is not None and match.tier == "embedding" and match.score >= 0.80
    assert CanonicalTuning().similarity_threshold == 0.60


@pytest.mark.skipif(not embeddings.available(), reason="the embeddings extra is not installed")
def test_the_packaged_model_loads_offline_and_ranks_paraphrases(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    embedder = load_embedder(True)
    assert embedder is not None
    assert (
        embedder.similarity("fast car", "quick vehicle") >= CanonicalTuning().similarity_threshold
    )
    assert embedder.similarity("fast car", "quick vehicle") > embedder.similarity(
        "fast car", "cheap coffee"
    )
