"""Codes that say the same thing across interviews: the report's half of slot discovery.

Each interview finds its own canonical slots (``core.canonical``), and a slot's name is that
interview's identifier: one respondent's ``battery`` and another's ``decent_battery`` are the
same idea under two names, and the words two respondents chose for one idea rarely match
exactly ("the battery", "battery that lasts the whole week"). Before the implication matrix
sums ladders across respondents, ``interview report`` groups the exact codes
(``analysis.report.codes``: slot names, de-duplicated labels, analyst merges) by meaning, with
the same rules an interview groups its slots by (``core.canonical.meaning``; the embedding
tier instead when it is given):

- groups are taken in the order their first node was seen (deterministic);
- a group joins the most similar earlier cluster at the canonical fuzzy threshold (ties: the
  earlier cluster), else starts one;
- one wording holding all of another's words lifts the score only at the cluster's own node
  type, and only against its first name (its slot name, else its first label) or where the
  newcomer says less than the wording it meets, so a bare "save" can join "save money" but
  cannot then bring "save time" in (no chaining through a generic word);
- analyst merges and coding sheets are the analyst's codes: never joined to anything by
  meaning.

Only clusters sharing a word, a stem's first letters or a sense with a group are compared
with it (an index), so a report over hundreds of interviews stays fast; the embedding tier
compares every pair, since it is there for paraphrases that share no word.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from interview_cli.config.tuning import CanonicalTuning
from interview_cli.core.canonical.meaning import (
    meaning_block,
    meaning_similarity,
    read_label,
    sense_of,
    widens,
)
from interview_cli.core.canonical.slots import STEM_MIN_PREFIX, slot_text
from interview_cli.core.graph.dedup import Embedder

SAME_IDEA = CanonicalTuning().fuzzy_threshold
SAME_IDEA_EMBEDDED = CanonicalTuning().similarity_threshold


@dataclass(frozen=True)
class Wording:
    """One exact code's words: ``name`` (its slot name as words, else its first label) and
    every wording its nodes were given; ``node_type``: its nodes' most frequent type.
    ``fixed``: an analyst's code (a merge, a coding sheet), grouped with no other."""

    name: str
    texts: tuple[str, ...]
    fixed: bool = False
    node_type: str = ""


@dataclass
class _Cluster:
    name: str
    node_type: str
    fixed: bool = False
    texts: list[str] = field(default_factory=list)


def _keys(text: str) -> set[str]:
    """What a cluster must share with a text to be compared with it."""
    reading = read_label(text)
    words = reading.heavy or frozenset(reading.words)
    keys = {f"w:{w[:STEM_MIN_PREFIX]}" for w in words}
    keys |= {f"s:{sense}" for w in words if (sense := sense_of(w)) is not None}
    return keys


def _score(
    mine: Sequence[str], node_type: str, cluster: _Cluster, embedder: Embedder | None
) -> float:
    best = 0.0
    for a in mine:
        for b in cluster.texts:
            if embedder is not None:
                if meaning_block(read_label(a), read_label(b)) is None:
                    best = max(best, float(embedder.similarity(a, b)))
                continue
            whole = node_type == cluster.node_type and (b == cluster.name or widens(b, a))
            best = max(best, meaning_similarity(a, b, containment=whole))
    return best


def group_by_meaning(wordings: Sequence[Wording], *, embedder: Embedder | None = None) -> list[int]:
    """The cluster of each wording (indices into a list of clusters, in order of creation)."""
    threshold = SAME_IDEA_EMBEDDED if embedder is not None else SAME_IDEA
    clusters: list[_Cluster] = []
    index: dict[str, set[int]] = {}
    out: list[int] = []
    for wording in wordings:
        mine = [slot_text(t) for t in dict.fromkeys([wording.name, *wording.texts]) if t]
        keys = set().union(*(_keys(t) for t in mine)) if mine else set()
        target: int | None = None
        if not wording.fixed:
            candidates: Sequence[int] = (
                range(len(clusters))
                if embedder is not None
                else sorted(set().union(*(index.get(k, set()) for k in keys)))
            )
            best = 0.0
            for c in candidates:
                if clusters[c].fixed:  # an analyst merge: its own code
                    continue
                score = _score(mine, wording.node_type, clusters[c], embedder)
                if score >= threshold and score > best:
                    target, best = c, score
        if target is None:
            target = len(clusters)
            first = mine[0] if mine else ""
            clusters.append(_Cluster(first, wording.node_type, fixed=wording.fixed))
        cluster = clusters[target]
        cluster.texts.extend(t for t in mine if t not in cluster.texts)
        for key in keys:
            index.setdefault(key, set()).add(target)
        out.append(target)
    return out


__all__ = ["Wording", "group_by_meaning"]
