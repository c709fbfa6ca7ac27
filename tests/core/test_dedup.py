"""Surface de-duplication tiers and the blocks that prevent false merges (seed 000 Hotspot 4)."""

from __future__ import annotations

import pytest

from interview_cli.config.tuning import DedupTuning
from interview_cli.core.graph.dedup import (
    DedupCandidate,
    Embedder,
    find_duplicate,
    fuzzy_scores,
    merge_block,
)
from interview_cli.core.text import label_profile, lemmatise, normalise

TUNING = DedupTuning()


def match(
    label: str, *existing: str, tuning: DedupTuning = TUNING, embedder: Embedder | None = None
):
    candidates = [DedupCandidate(f"n{i}", (text,)) for i, text in enumerate(existing, start=1)]
    return find_duplicate(label, candidates, tuning=tuning, embedder=embedder)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  Noise-Cancelling,  headphones!! ", "noise cancelling headphones"),
        ("Don\u2019t like it", "dont like it"),
        ("snake_case label", "snake case label"),
    ],
)
def test_normalise(text: str, expected: str) -> None:
    assert normalise(text) == expected


@pytest.mark.parametrize(
    ("word", "lemma"),
    [
        ("batteries", "battery"),
        ("boxes", "box"),
        ("saving", "save"),
        ("running", "run"),
        ("cancelling", "cancel"),
        ("planned", "plan"),
        ("tried", "try"),
        ("speed", "speed"),
        ("thing", "thing"),
        ("glass", "glass"),
        ("children", "child"),
    ],
)
def test_lemmatise(word: str, lemma: str) -> None:
    assert lemmatise(word) == lemma


def test_profile_drops_stop_words_and_remembers_negation() -> None:
    profile = label_profile("It is not the cheapest option")
    assert profile.negated
    assert "not" not in profile.content and "the" not in profile.content


def test_exact_tier_matches_normalised_label_or_alias() -> None:
    candidates = [DedupCandidate("n1", ("comfort", "comfy fit"))]
    found = find_duplicate("Comfy  fit!", candidates, tuning=TUNING)
    assert found is not None and (found.node_id, found.tier, found.score) == ("n1", "exact", 1.0)


@pytest.mark.parametrize(
    ("label", "existing"),
    [
        ("saving time", "saves time"),  # lemmas
        ("proper froth", "proper foam"),  # synonym (seed 000's example)
        ("noise cancelation", "noise cancellation"),  # typo in a long word
        ("the quality of the coffee", "coffee quality"),  # stop words, word order
        ("feel energised", "feel energized"),  # British / American spelling
    ],
)
def test_fuzzy_tier_merges_variants(label: str, existing: str) -> None:
    found = match(label, existing)
    assert found is not None and found.tier == "fuzzy", fuzzy_scores(label, existing)


@pytest.mark.parametrize(
    ("label", "existing", "reason"),
    [
        ("not expensive", "expensive", "negation differs"),
        ("don't like the noise", "like the noise", "negation differs"),
        ("unreliable", "reliable", "antonyms"),
        ("noise cancelling", "noise", "no counterpart"),
        ("battery", "battery life", "no counterpart"),
        ("noise reduction", "noise cancelling", "no counterpart"),
        ("2 hour battery", "3 hour battery", "no counterpart"),
        ("buttery taste", "battery taste", "no counterpart"),
    ],
)
def test_blocks_prevent_false_merges(label: str, existing: str, reason: str) -> None:
    block = merge_block(label, existing)
    assert block is not None and reason in block
    assert match(label, existing) is None


def test_token_set_ratio_alone_would_have_merged_the_subset() -> None:
    # Why the alignment block exists: rapidfuzz scores a subset as a perfect token-set match.
    ratio, _ = fuzzy_scores("noise", "noise cancelling")
    assert ratio == 1.0


def test_thresholds_come_from_tuning() -> None:
    strict = DedupTuning(fuzzy_threshold=1.0, jaccard_threshold=1.0)
    assert match("noise cancelation", "noise cancellation") is not None
    assert match("noise cancelation", "noise cancellation", tuning=strict) is None


def test_best_fuzzy_score_wins_and_ties_go_to_the_earlier_node() -> None:
    found = match("saving time", "saves times", "saves time")
    assert found is not None and found.node_id == "n1"  # both are lemma-identical: first wins
    found = match(
        "noise cancellation",
        "noise cancelation",
        "noise cancellation headphones",
        "noise cancellations",
    )
    assert found is not None and found.node_id == "n3"


class FakeEmbedder:
    def __init__(self, score: float) -> None:
        self.score = score
        self.calls: list[tuple[str, str]] = []

    def similarity(self, a: str, b: str) -> float:
        self.calls.append((a, b))
        return self.score


def test_embedding_tier_is_optional_and_last() -> None:
    assert isinstance(FakeEmbedder(1.0), Embedder)
    assert match("keeps going all day", "long battery life") is None
    found = match("keeps going all day", "long battery life", embedder=FakeEmbedder(0.9))
    assert found is not None and (found.tier, found.score) == ("embedding", 0.9)
    assert match("keeps going all day", "long battery life", embedder=FakeEmbedder(0.79)) is None
    quiet = FakeEmbedder(0.99)
    assert match("saves time", "saves time", embedder=quiet).tier == "exact"  # type: ignore[union-attr]
    assert quiet.calls == []  # cheaper tiers first


def test_embedding_tier_keeps_the_negation_block() -> None:
    assert match("not comfortable", "comfortable", embedder=FakeEmbedder(0.99)) is None
