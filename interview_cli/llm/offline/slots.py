"""Offline slot proposals: surface labels grouped by their lemmatised head words.

The offline half of ``propose_slots`` (seed 001 "Dual-Graph Architecture", seed 002 Path 10):
labels that share a content word after lemmatisation ("saves time", "saving time in the
morning") form one canonical slot named by the shared words in snake_case (``save_time``).
Labels that share nothing stay alone, each its own slot. An existing slot whose name
matches a group's words is reused, so slots stay stable across turns.
"""

from __future__ import annotations

import re
from collections import Counter

from interview_cli.llm.protocol import SlotProposal, SlotProposals, SlotRequest

try:
    from interview_cli.core.text import STOPWORDS, lemmatise
except ImportError:  # pragma: no cover - only before the core module exists
    STOPWORDS = frozenset(
        "a an the of to for in on at by with my your our i me it is are and or".split()
    )

    def lemmatise(token: str) -> str:  # type: ignore[misc]
        for suffix in ("ing", "ed", "es", "s"):
            if token.endswith(suffix) and len(token) > len(suffix) + 2:
                return token[: -len(suffix)]
        return token


_WORD = re.compile(r"[a-z0-9]+")
MAX_SLOT_WORDS = 3


def content_lemmas(label: str) -> list[str]:
    words = _WORD.findall(label.lower().replace("'", ""))
    return [lemmatise(w) for w in words if w not in STOPWORDS] or [lemmatise(w) for w in words]


def snake(words: list[str]) -> str:
    return "_".join(words[:MAX_SLOT_WORDS]) or "slot"


def propose_slots_offline(request: SlotRequest) -> SlotProposals:
    lemmas = {label: content_lemmas(label) for label in request.labels}
    counts = Counter(lemma for words in lemmas.values() for lemma in set(words))
    existing = {name: set(name.split("_")) for name in request.existing_slots}
    groups: dict[str, list[str]] = {}
    for label in request.labels:
        words = lemmas[label]
        if not words:
            continue
        # Reuse an existing slot that shares a content word; else group under the label's
        # most shared word (ties: the earlier word), so "save time" and "saving time in the
        # morning" meet under "save".
        reuse = next((name for name, parts in existing.items() if parts & set(words)), None)
        key = reuse or max(words, key=lambda w: (counts[w], -words.index(w)))
        groups.setdefault(key, []).append(label)
    proposals: list[SlotProposal] = []
    for key, labels in groups.items():
        if key in existing:
            name = key
        else:
            common = [w for w in lemmas[labels[0]] if all(w in lemmas[other] for other in labels)]
            name = snake(common) if len(labels) > 1 else snake(lemmas[labels[0]])
        twin = next((p for p in proposals if p.slot_name == name), None)
        if twin is not None:  # two groups that reduce to the same name are one slot
            twin.surface_labels.extend(labels)
            continue
        proposals.append(
            SlotProposal(
                slot_name=name,
                description=f"labels about '{name.replace('_', ' ')}'",
                node_type=request.node_type,
                surface_labels=labels,
            )
        )
    return SlotProposals(proposals=proposals)
