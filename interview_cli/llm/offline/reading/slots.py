"""Offline slot proposals: surface labels grouped when they say the same thing.

The offline half of ``propose_slots`` (seed 001 "Dual-Graph Architecture", seed 002 Path 10):
labels whose synonym-aware word overlap (``core.canonical.slots.label_similarity``) reaches the
calibrated fuzzy threshold of the canonical tier ("saves time", "saving time in the morning")
form one canonical slot named by their shared words in snake_case (``save_time``). Sharing one
word is not enough ("good taste" and "good microphone" are two ideas): that is the calibration
``core.canonical`` documents. A label close enough to an existing slot's name reuses it, so
slots stay stable across turns; anything else stands alone, its own slot.
"""

from __future__ import annotations

import re

from interview_cli.config.tuning import CanonicalTuning
from interview_cli.core.canonical.slots import label_similarity
from interview_cli.core.text import STOPWORDS, lemmatise
from interview_cli.llm.protocol import SlotGroup, SlotProposal, SlotProposals, SlotRequest

_WORD = re.compile(r"[a-z0-9]+")
MAX_SLOT_WORDS = 3
# The canonical tier's own fuzzy threshold, so the offline model proposes what core would merge.
SAME_IDEA = CanonicalTuning().fuzzy_threshold


def content_lemmas(label: str) -> list[str]:
    words = _WORD.findall(label.lower().replace("'", ""))
    return [lemmatise(w) for w in words if w not in STOPWORDS] or [lemmatise(w) for w in words]


def snake(words: list[str]) -> str:
    return "_".join(words[:MAX_SLOT_WORDS]) or "slot"


def propose_slots_offline(request: SlotRequest) -> SlotProposals:
    """Proposals for every group of the request, in order."""
    proposals = [p for group in request.all_groups() for p in _propose(group)]
    return SlotProposals(proposals=proposals)


def _propose(request: SlotGroup) -> list[SlotProposal]:
    lemmas = {label: content_lemmas(label) for label in request.labels}
    groups: dict[str, list[str]] = {}  # existing slot name or first label -> labels
    for label in request.labels:
        if not lemmas[label]:
            continue
        # An existing slot this label means, else an earlier group of this batch (single
        # linkage), else a group of its own. Ties go to the first in order: deterministic.
        key = next(
            (n for n in request.existing_slots if label_similarity(label, n) >= SAME_IDEA), None
        )
        if key is None:
            key = next(
                (
                    k
                    for k, members in groups.items()
                    if k not in request.existing_slots
                    and any(label_similarity(label, m) >= SAME_IDEA for m in members)
                ),
                label,
            )
        groups.setdefault(key, []).append(label)
    proposals: list[SlotProposal] = []
    for key, labels in groups.items():
        if key in request.existing_slots:
            name = key
        else:
            common = [w for w in lemmas[labels[0]] if all(w in lemmas[other] for other in labels)]
            name = snake(common or lemmas[labels[0]])
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
    return proposals
