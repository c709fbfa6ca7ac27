"""The replay engine: re-run the pure core over a session's recorded model outputs.

ARCHITECTURE principle 3 ("every decision is recorded and replayable"): a session file holds,
per turn, the raw extraction and assessment the LLM returned, and the decision the core made
from them. ``core.turn.advance`` is a pure function of those values and of the state before the
turn, so starting from ``CoreState.initial(concept)`` and feeding every complete turn's recorded
outputs in order must reproduce every recorded decision. ``verify`` checks exactly that;
``whatif`` runs the same loop with another methodology.

The loop itself is ``pipeline.inputs.rerun`` (the moderator's commands after a resume rebuild
their state with it too). Each step's input is built by ``pipeline.inputs.recorded_input`` from
the same function the live pipeline builds its input with (methodology and concept: the YAML
snapshots stored in the session; the recent questions, ``max_turns`` and ``policy`` from the
file; with canonical slots on, the turn's recorded ``slot_proposals``), and ``advance`` is the
live turn's two halves in one call, so a replay runs exactly the code the interview ran.

Sessions that used the optional embedding tier (``settings.enable_embeddings``) de-duplicated
with a model replay does not load; their replay runs on fuzzy matching and ``verify`` says so.

An ``answered`` turn (its processing was interrupted) is the last turn of a file by
construction; it has no recorded outputs, so replay stops before it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from interview_cli.analysis.sources import snapshot_concept, snapshot_methodology
from interview_cli.config.schemas import Concept, Methodology
from interview_cli.core.canonical.slots import SlotBatch
from interview_cli.core.graph.dedup import Embedder
from interview_cli.core.graph.update import GraphDelta
from interview_cli.core.turn import (
    CoreState,
    TurnInput,
    TurnOutcome,
    settle_closing,
    take_closing_answer,
)
from interview_cli.errors import SessionFileError
from interview_cli.pipeline.inputs import rerun
from interview_cli.session.schema import SessionFile, TurnRecord


@dataclass(frozen=True)
class ReplayStep:
    """One re-run turn: the recorded turn, its input, the state after it, the outcome."""

    turn: TurnRecord
    inputs: TurnInput
    after: CoreState
    outcome: TurnOutcome


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


def replay(
    session: SessionFile,
    *,
    methodology: Methodology | None = None,
    concept: Concept | None = None,
    embedder: Embedder | None = None,
) -> Iterator[ReplayStep]:
    """Re-run the core over every complete turn (with ``methodology`` instead of the snapshot's
    for a what-if: on every turn, a fork's first turns too). Lazy: a caller may stop early.
    A fork's first turns are replayed with the policy and methodology of its origin that
    decided them (``SessionFile.fork``).

    A session that ran with the embedding tier (``settings.enable_embeddings``) is replayed
    with it (``embedder``, else loaded here); without the extra installed the fuzzy tiers stand
    in and ``verify`` reports any decision that comes out differently."""
    m = methodology or snapshot_methodology(session)
    c = concept or snapshot_concept(session)
    turns = replayable_turns(session)
    if embedder is None and session.settings.enable_embeddings:
        from interview_cli.llm.embeddings import load_embedder

        embedder = load_embedder(True)
    steps = rerun(
        session,
        len(turns),
        methodology=m,
        concept=c,
        embedder=embedder,
        everywhere=methodology is not None,
    )
    for turn, (inputs, after, outcome) in zip(turns, steps, strict=True):
        yield ReplayStep(turn, inputs, after, outcome)


def with_closing(
    session: SessionFile, state: CoreState, *, methodology: Methodology | None = None
) -> tuple[CoreState, GraphDelta | None]:
    """``state`` with the recorded closing answer applied, as the interview applied it
    (``core.turn.take_closing_answer``); unchanged, with no delta, when none was read into
    the graph."""
    closing = session.closing
    if closing is None or closing.extraction is None:
        return state, None
    m = methodology or snapshot_methodology(session)
    after, delta = take_closing_answer(
        state, closing.extraction, methodology=m, utterance_id=closing.utterance_id
    )
    if closing.slot_proposals is not None:  # the closing's slot step, when it had one
        batches = [SlotBatch.model_validate(b) for b in closing.slot_proposals]
        after, _ = settle_closing(after, batches, methodology=m)
    return after, delta


def final_state(session: SessionFile) -> CoreState | None:
    """The core state at the end: after the last complete turn and the closing answer (None
    for a session without a complete turn)."""
    last: CoreState | None = None
    for step in replay(session):
        last = step.after
    return None if last is None else with_closing(session, last)[0]
