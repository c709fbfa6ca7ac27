"""How a session file maps onto the pure turn: its state and each turn's ``TurnInput``.

The live pipeline (``runner``) and replay (``analysis.replay.engine``) both build a turn's input
here, so the window of recent questions, the settings that shape a decision and the recorded slot
proposals are read one way only: a replay calls ``core.turn.advance`` on exactly the input the
live turn decided from. ``rerun`` is that replay loop, the one place a session's recorded turns
are run again: ``analysis.replay.engine`` (verify, what-if, reports), the moderator's ``/alt``
and ``/skip`` after a resume (the state before the last turn) and a fork's start
(``simulation.fork``: the state after turn K) all take it. A fork's first turns were decided
by its origin's policy and methodology (``SessionFile.fork``): ``turn_input`` and
``Deciders`` give each turn the rules that decided it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from interview_cli.config.schemas import RECORDED, Concept, Methodology
from interview_cli.config.tuning import Tuning
from interview_cli.config.yamlio import load_yaml
from interview_cli.core.canonical.slots import (
    CANONICAL_STATE_VERSION,
    CANONICAL_STATE_VERSIONS,
    SlotBatch,
)
from interview_cli.core.decide.moderator import ModeratorChoice
from interview_cli.core.graph.dedup import Embedder
from interview_cli.core.models import Assessment, Extraction
from interview_cli.core.turn import CoreState, TurnInput, TurnOutcome, advance, recent_questions
from interview_cli.errors import SessionFileError
from interview_cli.session.schema import MethodologySnapshot, SessionFile, TurnRecord

M = TypeVar("M", bound=BaseModel)


def parse_snapshot(text: str, model: type[M], what: str, session_id: str) -> M:
    try:
        return model.model_validate(load_yaml(text), context=RECORDED)
    except Exception as exc:  # a hand-edited snapshot: say which, do not crash
        raise SessionFileError(
            f"session {session_id}: its {what} snapshot no longer loads ({type(exc).__name__}); "
            "the file was edited by hand?"
        ) from None


def recorded_methodology(
    snapshot: MethodologySnapshot, what: str, session_id: str, parsed: Methodology | None = None
) -> Methodology:
    """The methodology a session ran with: its recorded YAML (``parsed``: already read) with
    the tuning the session recorded, which says which habits an old session ran without."""
    methodology = parsed or parse_snapshot(snapshot.source, Methodology, what, session_id)
    if not snapshot.tuning:
        return methodology
    try:
        tuning = Tuning.model_validate(snapshot.tuning, context=RECORDED)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(root)"
        raise SessionFileError(
            f"session {session_id}: its {what} snapshot's tuning.{where}: {first['msg']}; "
            "the file was edited by hand?"
        ) from None
    return methodology.model_copy(update={"tuning": tuning})


def saved_state(session: SessionFile, concept: Concept) -> CoreState:
    """The core state the session file holds (after its last complete turn); one
    ``SessionFileError`` line when a hand edit left it unreadable."""
    try:
        return CoreState.from_dict(
            graph=session.graph,
            tracker=session.tracker,
            state=session.state,
            concept=concept,
            canonical=session.canonical if session.settings.enable_canonical_slots else None,
        )
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise SessionFileError(
            f"session {session.id}: its graph or state cannot be read ({exc}); was the file "
            "edited by hand?"
        ) from None


def keep_state(session: SessionFile, core: CoreState) -> None:
    """``core`` into the session file: its graph, tracker, state (and canonical slots), as
    ``saved_state`` reads them back."""
    for name, value in core.to_dict().items():
        setattr(session, name, value)


def initial_state(session: SessionFile, concept: Concept) -> CoreState:
    """The core state before the session's first turn (where a replay starts), with the slot
    rules the session's canonical state was built by (a file from before the current rules
    keeps its own)."""
    rules = session.canonical.get("version", CANONICAL_STATE_VERSION)
    return CoreState.initial(
        concept,
        slots=bool(session.settings.enable_canonical_slots),
        slot_rules=rules if rules in CANONICAL_STATE_VERSIONS else CANONICAL_STATE_VERSION,
    )


def position(session: SessionFile, turn: TurnRecord) -> int:
    """Where ``turn`` (this very record) is in ``session.turns``."""
    return next(i for i, t in enumerate(session.turns) if t is turn)


def recorded_slot_proposals(turn: TurnRecord) -> tuple[SlotBatch, ...]:
    try:
        return tuple(SlotBatch.model_validate(b) for b in turn.slot_proposals)
    except ValueError:
        raise SessionFileError(
            f"turn {turn.turn_number}: its recorded slot proposals do not load; "
            "the file was edited by hand?"
        ) from None


def recorded_moderator(turn: TurnRecord) -> ModeratorChoice | None:
    """The moderator's decision over the tool's on this turn, as recorded (None: the tool's)."""
    if turn.decision is None or turn.decision.moderator is None:
        return None
    try:
        return turn.decision.moderator.choice()
    except ValueError as exc:
        raise SessionFileError(
            f"turn {turn.turn_number}: its recorded moderator decision does not load ({exc}); "
            "the file was edited by hand?"
        ) from None


def turn_input(
    session: SessionFile,
    index: int,
    *,
    methodology: Methodology,
    concept: Concept,
    extraction: Extraction,
    assessment: Assessment | None,
    slot_proposals: Sequence[SlotBatch] = (),
    moderator: ModeratorChoice | None = None,
) -> TurnInput:
    """The input of ``session.turns[index]``: its answer's model outputs and the settings."""
    settings = session.settings
    asked = [t.question.text for t in session.turns[: index + 1]]
    return TurnInput(
        methodology=methodology,
        concept=concept,
        extraction=extraction,
        assessment=assessment,
        utterance_id=session.turns[index].answer.utterance_id,
        max_turns=settings.max_turns,
        recent_questions=recent_questions(asked),
        policy=session.policy_at(index + 1),
        slot_proposals=tuple(slot_proposals),
        moderator=moderator,
    )


def recorded_input(
    session: SessionFile, index: int, *, methodology: Methodology, concept: Concept
) -> TurnInput:
    """A complete turn's input as the file recorded it (replay, verify, what-if)."""
    turn = session.turns[index]
    assert turn.extraction is not None  # replay takes complete turns only
    proposals = recorded_slot_proposals(turn) if session.settings.enable_canonical_slots else ()
    return turn_input(
        session,
        index,
        methodology=methodology,
        concept=concept,
        extraction=turn.extraction,
        assessment=turn.assessment,
        slot_proposals=proposals,
        moderator=recorded_moderator(turn),
    )


class Deciders:
    """The methodology that decided each turn: the session's own (``own``), except on the
    first turns of a fork, which its origin decided with its own methodology when the fork
    runs another (``SessionFile.fork``). Each snapshot is parsed once."""

    def __init__(self, session: SessionFile, own: Methodology) -> None:
        self.session = session
        self.own = own
        self._parsed: dict[int, Methodology] = {}

    def at(self, index: int) -> Methodology:
        """The methodology of ``session.turns[index]``."""
        fork = self.session.fork
        rules = fork.rules_at(index + 1) if fork is not None else None
        if rules is None or rules.methodology is None:
            return self.own
        if rules.until_turn not in self._parsed:
            self._parsed[rules.until_turn] = recorded_methodology(
                rules.methodology, "fork origin's methodology", self.session.id
            )
        return self._parsed[rules.until_turn]


def rerun(
    session: SessionFile,
    count: int,
    *,
    methodology: Methodology,
    concept: Concept,
    embedder: Embedder | None = None,
    everywhere: bool = False,
) -> Iterator[tuple[TurnInput, CoreState, TurnOutcome]]:
    """The core run again over the first ``count`` (complete) turns of ``session``, from the
    state before its first turn: each turn's recorded input, the state after it and its
    outcome. Lazy: a caller may stop early. ``methodology`` is the session's own (a fork's
    first turns take their origin's, ``Deciders``), or with ``everywhere`` the one every
    turn is decided by (a what-if)."""
    deciders = Deciders(session, methodology)
    state = initial_state(session, concept)
    for index in range(count):
        m = methodology if everywhere else deciders.at(index)
        inputs = recorded_input(session, index, methodology=m, concept=concept)
        state, outcome = advance(state, inputs, embedder=embedder)
        yield inputs, state, outcome


def state_before(
    session: SessionFile,
    index: int,
    *,
    methodology: Methodology,
    concept: Concept,
    embedder: Embedder | None = None,
) -> CoreState:
    """The core state before ``session.turns[index]``, rebuilt from the recorded turns."""
    state = initial_state(session, concept)
    for _, after, _ in rerun(
        session, index, methodology=methodology, concept=concept, embedder=embedder
    ):
        state = after
    return state
