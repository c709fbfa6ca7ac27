"""The replay engine: re-run the pure core over a session's recorded model outputs.

ARCHITECTURE principle 3 ("every decision is recorded and replayable"): a session file holds,
per turn, the raw extraction and assessment the LLM returned, and the decision the core made
from them. ``core.turn.advance`` is a pure function of those values and of the state before the
turn, so starting from ``CoreState.initial(concept)`` and feeding every complete turn's recorded
outputs in order must reproduce every recorded decision. ``verify`` checks exactly that;
``whatif`` runs the same loop with another methodology.

The inputs of each step are taken the way the live pipeline (``pipeline.runner.Interview``)
takes them:

- methodology and concept: the YAML snapshots stored in the session (not the library's files);
- ``utterance_id``: the turn's recorded answer id; ``max_turns``: the session's setting;
- ``recent_questions``: the question texts of the turns up to and including this one, last 6
  (the pipeline appends the turn, then reads ``asked_questions[-6:]``);
- ``policy`` (batch baselines): the session's ``settings.policy``, when the core supports it;
- canonical slots (dual graph, ``settings.enable_canonical_slots``): the canonical state as of
  the end of the previous turn is passed as ``slots=``; after each step the turn's recorded
  ``slot_proposals`` are applied with ``core.canonical.apply_slot_proposals``, exactly where the
  pipeline applies them (end of turn, so they inform the next turn's scoring).

Sessions that used the optional embedding tier (``settings.enable_embeddings``) de-duplicated
with a model replay does not load; their replay runs on fuzzy matching and ``verify`` says so.

An ``answered`` turn (its processing was interrupted) is the last turn of a file by
construction; it has no recorded outputs, so replay stops before it.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.core.turn import CoreState, TurnOutcome, advance
from interview_cli.errors import SessionFileError
from interview_cli.session import SessionFile, TurnRecord

from .sources import snapshot_concept, snapshot_methodology

RECENT_QUESTIONS = 6  # the pipeline passes asked_questions[-6:] to advance()

# Batch runs record a baseline policy in settings.policy; the core learns a ``policy`` keyword
# for it. Replay passes it on when (and only when) advance() accepts it, so a replay of an
# adaptive session calls advance() exactly as the pipeline does.
_ADVANCE_PARAMETERS = inspect.signature(advance).parameters
_ADVANCE_TAKES_POLICY = "policy" in _ADVANCE_PARAMETERS
# Likewise the dual graph (issue 8): advance(slots=...) and core.canonical.
_ADVANCE_TAKES_SLOTS = "slots" in _ADVANCE_PARAMETERS


@dataclass(frozen=True)
class ReplayStep:
    """One re-run turn: the recorded turn, the state before and after, and the outcome."""

    turn: TurnRecord
    before: CoreState
    after: CoreState
    outcome: TurnOutcome
    recent_questions: tuple[str, ...]
    canonical: Any = None  # core.canonical.CanonicalState after the turn (slots on)
    slot_discovery: Any = None  # core.canonical.SlotDiscoveryRecord of the turn (slots on)


def replayable_turns(session: SessionFile) -> list[TurnRecord]:
    """The complete turns, in order; an interrupted (answered) turn can only be the last."""
    turns: list[TurnRecord] = []
    for index, turn in enumerate(session.turns):
        if turn.status != "complete":
            if index != len(session.turns) - 1:
                raise SessionFileError(
                    f"session {session.id}: turn {turn.turn_number} is not complete but later "
                    "turns are; the file was edited by hand?"
                )
            break
        if turn.extraction is None:
            raise SessionFileError(
                f"session {session.id}: turn {turn.turn_number} is complete but records no "
                "extraction, so it cannot be replayed"
            )
        turns.append(turn)
    return turns


def advance_kwargs(session: SessionFile) -> dict[str, Any]:
    """Keyword arguments of advance() that come from the session's settings."""
    kwargs: dict[str, Any] = {"max_turns": session.settings.max_turns}
    if _ADVANCE_TAKES_POLICY:
        kwargs["policy"] = session.settings.policy
    return kwargs


def uses_slots(session: SessionFile) -> bool:
    """Whether the session ran with canonical slots and this core can replay them."""
    return bool(session.settings.enable_canonical_slots) and _ADVANCE_TAKES_SLOTS


class _Slots:
    """The canonical half of the dual graph during a replay (None-safe when slots are off)."""

    def __init__(self, session: SessionFile, methodology: Methodology) -> None:
        self.on = uses_slots(session)
        self.state: Any = None
        self.tuning: Any = getattr(methodology.tuning, "canonical", None)
        if self.on:
            from interview_cli.core.canonical import CanonicalState

            self.state = CanonicalState()

    def kwargs(self) -> dict[str, Any]:
        return {"slots": self.state} if self.on else {}

    def apply(self, turn: TurnRecord, after: CoreState, number: int, embedder: Any = None) -> Any:
        if not self.on:
            return None
        from interview_cli.core.canonical import SlotBatch, apply_slot_proposals

        try:
            batches = [SlotBatch.model_validate(b) for b in turn.slot_proposals]
        except ValueError:
            raise SessionFileError(
                f"turn {turn.turn_number}: its recorded slot proposals do not load; "
                "the file was edited by hand?"
            ) from None
        self.state, record = apply_slot_proposals(
            self.state,
            batches,
            graph=after.graph,
            turn=number,
            tuning=self.tuning,
            embedder=embedder,
        )
        return record


def replay(
    session: SessionFile,
    *,
    methodology: Methodology | None = None,
    concept: Concept | None = None,
    embedder: Any = None,
) -> Iterator[ReplayStep]:
    """Re-run the core over every complete turn (with ``methodology`` instead of the snapshot's
    for a what-if). Lazy: a caller may stop early.

    A session that ran with the embedding tier (``settings.enable_embeddings``) is replayed
    with it (``embedder``, else loaded here); without the extra installed the fuzzy tiers stand
    in and ``verify`` reports any decision that comes out differently."""
    m = methodology or snapshot_methodology(session)
    c = concept or snapshot_concept(session)
    kwargs = advance_kwargs(session)
    turns = replayable_turns(session)
    slots = _Slots(session, m)
    if embedder is None and session.settings.enable_embeddings:
        from interview_cli.llm.embeddings import load_embedder

        embedder = load_embedder(True)
    similarity = {"embedder": embedder} if embedder is not None else {}
    state = CoreState.initial(c)
    asked = [t.question.text for t in session.turns]
    for index, turn in enumerate(turns):
        recent = tuple(asked[: index + 1][-RECENT_QUESTIONS:])
        assert turn.extraction is not None  # replayable_turns checked it
        after, outcome = advance(
            state,
            methodology=m,
            concept=c,
            extraction=turn.extraction,
            assessment=turn.assessment,
            utterance_id=turn.answer.utterance_id,
            recent_questions=recent,
            **kwargs,
            **slots.kwargs(),
            **similarity,
        )
        record = slots.apply(turn, after, outcome.turn_number, embedder)
        yield ReplayStep(turn, state, after, outcome, recent, slots.state, record)
        state = after


def final_state(session: SessionFile) -> CoreState | None:
    """The core state after the last complete turn (None for a session without one)."""
    last: CoreState | None = None
    for step in replay(session):
        last = step.after
    return last
