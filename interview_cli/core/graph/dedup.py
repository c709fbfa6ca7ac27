"""Surface node de-duplication: exact -> fuzzy -> optional embedding tier.

Implements seed 000 "Node De-duplication" (Complexity Hotspots 4; decision 9 "Why Hybrid
Semantic Deduplication?") and seed 002 Path 12. Only nodes of the same node_type are ever
compared. The caller (``core.graph``) merges into the returned node, keeping every alias and
all provenance.

Tiers, first hit wins:

1. **exact**: the normalised label equals a candidate's normalised label or alias.
2. **fuzzy**: labels reduced to content words (lemmatised, synonyms mapped, ``core.text``);
   a match when rapidfuzz's token-set ratio >= ``fuzzy_threshold`` or the Jaccard index of
   the word sets >= ``jaccard_threshold`` (seed 000 uses Jaccard 0.75, seed 002 0.80).
3. **embedding** (optional): ``Embedder.similarity`` >= ``embedding_threshold``.

Why the blocks: token-set ratio scores a subset as a perfect match ("noise" vs "noise
cancelling" = 100) and Jaccard ignores negation words once they are stop-worded away, so
a fuzzy match is refused when

- one label is negated and the other is not ("not expensive" vs "expensive"),
- a word of one is the other's word with an antonym prefix ("unreliable" vs "reliable"),
- a content word of either label has no counterpart in the other (a different head word or
  an extra qualifier: "noise" vs "noise cancelling", "battery life" vs "battery"). Counterparts
  may differ by a typo in longer words ("cancelation"/"cancellation"), never in numbers.

The embedding tier keeps the negation and antonym blocks (embeddings are notoriously blind to
"not") but not the word-alignment block: catching structural variants is its purpose.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from rapidfuzz import fuzz

from interview_cli.config.tuning import DedupTuning
from interview_cli.core.text import LabelProfile, label_profile, normalise

MatchTier = Literal["exact", "fuzzy", "embedding"]

ANTONYM_PREFIXES: tuple[str, ...] = ("un", "in", "im", "ir", "il", "dis", "non")
# Two different words count as the same word with a typo only when both are this long and
# this similar: below it, one changed letter is a different word ("cost"/"cast", "battery"/
# "buttery" at 0.857).
TYPO_MIN_LENGTH = 5
TYPO_SIMILARITY = 0.88


@runtime_checkable
class Embedder(Protocol):
    """The optional semantic tier: cosine-like similarity of two labels in [0, 1]."""

    def similarity(self, a: str, b: str) -> float: ...


@dataclass(frozen=True)
class DedupCandidate:
    """An existing node of the same type: its id and every label it is known by."""

    node_id: str
    labels: tuple[str, ...]


@dataclass(frozen=True)
class DedupMatch:
    """The existing node a new label duplicates, by which tier and with what score."""

    node_id: str
    tier: MatchTier
    score: float


def same_word(a: str, b: str) -> bool:
    """The same word, or the same long word with a typo; numbers must match exactly."""
    if a == b:
        return True
    if len(a) < TYPO_MIN_LENGTH or len(b) < TYPO_MIN_LENGTH:
        return False
    if any(ch.isdigit() for ch in a + b):
        return False
    return fuzz.ratio(a, b) / 100.0 >= TYPO_SIMILARITY


def polarity_block(a: LabelProfile, b: LabelProfile) -> str | None:
    """Why two labels must never merge whatever their similarity, or None."""
    if a.negated != b.negated:
        return "negation differs"
    for mine, theirs in ((a.content, b.token_set), (b.content, a.token_set)):
        for word in mine:
            for prefix in ANTONYM_PREFIXES:
                if prefix + word in theirs:
                    return f"antonyms '{word}' / '{prefix + word}'"
    return None


def alignment_block(a: LabelProfile, b: LabelProfile) -> str | None:
    """A content word of one label without a counterpart in the other, or None."""
    for mine, theirs in ((a.content, b.content), (b.content, a.content)):
        for word in mine:
            if not any(same_word(word, other) for other in theirs):
                return f"'{word}' has no counterpart"
    return None


def merge_block(a: str, b: str) -> str | None:
    """The reason the fuzzy tier refuses to merge labels ``a`` and ``b``, or None."""
    pa, pb = label_profile(a), label_profile(b)
    return polarity_block(pa, pb) or alignment_block(pa, pb)


def fuzzy_scores(a: str, b: str) -> tuple[float, float]:
    """(token-set ratio, Jaccard) of the two labels' content words, both in [0, 1]."""
    pa, pb = label_profile(a), label_profile(b)
    ratio = fuzz.token_set_ratio(pa.key, pb.key) / 100.0
    union = pa.token_set | pb.token_set
    jaccard = len(pa.token_set & pb.token_set) / len(union) if union else 0.0
    return ratio, jaccard


def fuzzy_match_score(a: str, b: str, tuning: DedupTuning) -> float | None:
    """The fuzzy tier's score when ``a`` and ``b`` merge, else None."""
    ratio, jaccard = fuzzy_scores(a, b)
    if ratio < tuning.fuzzy_threshold and jaccard < tuning.jaccard_threshold:
        return None
    # Blocks are checked only for pairs that pass: most pairs fail the cheap scores first.
    if merge_block(a, b) is not None:
        return None
    return max(ratio, jaccard)


def find_duplicate(
    label: str,
    candidates: Iterable[DedupCandidate],
    *,
    tuning: DedupTuning,
    embedder: Embedder | None = None,
) -> DedupMatch | None:
    """The existing node ``label`` duplicates, or None to create a new node.

    ``candidates`` must already be restricted to the new label's node_type. Within a tier the
    best score wins; ties go to the earlier candidate, so the result is deterministic.
    """
    pool: Sequence[DedupCandidate] = list(candidates)
    key = normalise(label)
    if not key:
        return None
    for candidate in pool:
        for known in candidate.labels:
            if normalise(known) == key:
                return DedupMatch(candidate.node_id, "exact", 1.0)

    best: DedupMatch | None = None
    for candidate in pool:
        for known in candidate.labels:
            score = fuzzy_match_score(label, known, tuning)
            if score is not None and (best is None or score > best.score):
                best = DedupMatch(candidate.node_id, "fuzzy", score)
    if best is not None or embedder is None:
        return best

    mine = label_profile(label)
    for candidate in pool:
        for known in candidate.labels:
            if polarity_block(mine, label_profile(known)) is not None:
                continue
            score = float(embedder.similarity(label, known))
            if score >= tuning.embedding_threshold and (best is None or score > best.score):
                best = DedupMatch(candidate.node_id, "embedding", score)
    return best
