"""Offline slot proposals: surface labels grouped when they say the same thing.

The offline half of ``propose_slots`` (seed 001 "Dual-Graph Architecture", seed 002 Path 10).
Labels are compared by what they mean (``core.canonical.meaning``: the words that name the
idea, light words weighed lightly, senses and their poles), at the canonical tier's fuzzy
threshold, so "decent battery", "the battery" and "battery that lasts the whole week" are
one slot while "good sound" and "good battery" are two, and "no battery panic" is not the
battery. A label close enough to an existing slot's name reuses it, so slots stay stable
across turns; within the batch a label joins the first group whose first label it matches
(one label's words all in the other's count there) or whose other labels say the same; else
it stands alone, its own slot.

A slot is named by the words that name its idea, shared by all its labels (else the first
label's), at most ``MAX_SLOT_WORDS`` in snake_case (``battery``, ``save_time``): the same idea
gets the same name in every interview, which is what lets ``interview report`` line slots
up across respondents.
"""

from __future__ import annotations

from interview_cli.config.tuning import CanonicalTuning
from interview_cli.core.canonical.meaning import (
    key_words,
    meaning_similarity,
    name_words,
    read_label,
    widens,
)
from interview_cli.llm.protocol import SlotGroup, SlotProposal, SlotProposals, SlotRequest

MAX_SLOT_WORDS = 4  # the prompt's "1-4 words"
# The canonical tier's own fuzzy threshold, so the offline model proposes what core would merge.
SAME_IDEA = CanonicalTuning().fuzzy_threshold


def snake(words: list[str]) -> str:
    return "_".join(words[:MAX_SLOT_WORDS]) or "slot"


def _lemma(word: str) -> str:
    spelled = read_label(word).spelled
    return spelled[0] if spelled else word


def _said_in(word: str, label: str) -> bool:
    reading = read_label(label)
    return reading.negated if word == "not" else _lemma(word) in reading.spelled


def slot_name(labels: list[str]) -> str:
    """The first label's name words (``core.canonical.meaning.name_words``) that all
    ``labels`` say, when one of them names the idea; else all of the first label's."""
    first = name_words(labels[0])
    shared = [w for w in first if all(_said_in(w, other) for other in labels[1:])]
    names_idea = any(_lemma(w) in key_words(labels[0]) for w in shared)
    return snake(shared if names_idea else first)


def propose_slots_offline(request: SlotRequest) -> SlotProposals:
    """Proposals for every group of the request, in order."""
    proposals = [p for group in request.all_groups() for p in _propose(group)]
    return SlotProposals(proposals=proposals)


def _joins(label: str, members: list[str]) -> bool:
    """``label`` says what the group of ``members`` says: its first label (either holding the
    other's words), or another label that says as much or more."""
    anchor, rest = members[0], members[1:]
    if meaning_similarity(label, anchor) >= SAME_IDEA:
        return True
    return any(
        meaning_similarity(label, m, containment=widens(m, label)) >= SAME_IDEA for m in rest
    )


def _propose(request: SlotGroup) -> list[SlotProposal]:
    groups: dict[str, list[str]] = {}  # existing slot name or first label -> labels
    for label in request.labels:
        if not read_label(label).words:
            continue
        # An existing slot this label means, else an earlier group of this batch, else a
        # group of its own. Ties go to the first in order: deterministic.
        key = next(
            (n for n in request.existing_slots if meaning_similarity(label, n) >= SAME_IDEA), None
        )
        if key is None:
            key = next(
                (
                    k
                    for k, members in groups.items()
                    if k not in request.existing_slots and _joins(label, members)
                ),
                label,
            )
        groups.setdefault(key, []).append(label)
    proposals: list[SlotProposal] = []
    for key, labels in groups.items():
        name = key if key in request.existing_slots else slot_name(labels)
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
