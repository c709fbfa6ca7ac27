"""Forks of a recorded interview: the same interview continued from turn K under another
policy or methodology, a simulated persona answering from there (`interview fork`).

A fork is an ordinary session file whose ``fork`` record names its origin and turn K:

- its first K turns are the origin's, copied from the record (questions, answers, model
  outputs, decisions, the calls and what they cost); the core state after them is rebuilt by
  replaying them (``pipeline.inputs.rerun``, the loop `replay --verify` runs), so the fork
  verifies like any session, its first turns under the rules that decided them
  (``ForkRecord.earlier``);
- turn K's decision chose the question of turn K+1, so that question is the origin's too. The
  persona answers it and every later question, and from turn K+1 on the fork's own policy and
  methodology decide;
- it starts paused, and is continued as `batch` continues a paused simulated session
  (``batch.run_batch`` over the forks' plan: the live pipeline with the persona in the
  respondent's seat, one failure isolated, resume on re-running, the spend cap, and the
  evaluation against the persona's ground truth).

Run R of a fork answers and words with seed S+R-1, S being ``--seed`` or the origin's own
seed: run 1 meets the respondent draws the origin met, so it differs from the origin only
by what the fork changed, and further runs show the spread. The interviewer's offline model
keeps the origin's seed (a batch's seed, else the session's), as `run --resume` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from interview_cli.config.loader import Loaded
from interview_cli.config.plurals import plural
from interview_cli.config.schemas import Concept, Methodology, Persona
from interview_cli.core.graph.dedup import Embedder
from interview_cli.core.turn import CoreState
from interview_cli.errors import UsageError
from interview_cli.llm.client_settings import LLMSettings
from interview_cli.llm.protocol import InterviewLLM
from interview_cli.llm.spend import SpendCap
from interview_cli.pipeline.inputs import keep_state, parse_snapshot, state_before
from interview_cli.session.schema import (
    ForkRecord,
    MethodologySnapshot,
    QuestionRecord,
    RulesRecord,
    SessionFile,
    Usage,
)
from interview_cli.session.store import SessionStore
from interview_cli.simulation.batch import (
    BatchObserver,
    BatchResult,
    BatchSpec,
    InterviewOutcome,
    OptionalModels,
    PlannedInterview,
    SilentObserver,
    interview_id,
    new_simulated_session,
    run_batch,
)
from interview_cli.simulation.respondents.respondent import Respondent


@dataclass(frozen=True)
class ForkSpec:
    """Everything a fork needs; what the ``fork`` command's options resolve to.

    ``methodology``: the fork's (the origin's snapshot unless another was asked for);
    ``seed``: run 1's seed (None: the origin's)."""

    origin: SessionFile
    at: int
    persona: Loaded[Persona]
    methodology: Loaded[Methodology]
    policy: str
    settings: LLMSettings
    out: Path
    runs: int = 1
    seed: int | None = None

    @property
    def base_seed(self) -> int:
        return self.origin.settings.seed if self.seed is None else self.seed

    @property
    def methodology_changed(self) -> bool:
        return self.methodology.sha256 != self.origin.methodology.sha256

    @property
    def label(self) -> str:
        """What the fork changed, for its ids: the policy, and the methodology if another."""
        if not self.methodology_changed:
            return self.policy
        return f"{self.policy}-{self.methodology.value.name}-{self.methodology.sha256[:8]}"

    @property
    def folder(self) -> str:
        """The forks' folder when no ``--out`` is given: one per origin, turn, change, seed."""
        return f"fork-{self.origin.id}-t{self.at}-{self.label}-s{self.base_seed}"


def forkable_turns(origin: SessionFile) -> list[int]:
    """The turns K a fork may start after: complete and replayable, and followed by another
    question than the closing one (turn K's decision chose it, and the fork asks it)."""
    found = []
    for index, turn in enumerate(origin.turns):
        if turn.status != "complete" or turn.extraction is None:
            break
        nxt = _question_after(origin, index)
        if nxt is not None and nxt.kind != "closing":
            found.append(turn.turn_number)
    return found


def _question_after(origin: SessionFile, index: int) -> QuestionRecord | None:
    if index + 1 < len(origin.turns):
        return origin.turns[index + 1].question
    return origin.pending_question


def fork_question(origin: SessionFile, at: int) -> QuestionRecord:
    """The question of turn ``at + 1`` that every fork asks first; a usage error naming the
    turns that can be forked when ``at`` is not one of them."""
    turns = forkable_turns(origin)
    if at in turns:
        question = _question_after(origin, at - 1)
        assert question is not None
        return question
    if not turns:
        raise UsageError(
            f"session {origin.id} has no turn to fork after: it needs a complete turn "
            "followed by a question other than the closing one"
        )
    span = (
        f"{turns[0]} to {turns[-1]}"
        if turns == list(range(turns[0], turns[-1] + 1))
        else (", ".join(map(str, turns)))
    )
    why = (
        f"turn {at} was followed by the closing question"
        if 1 <= at <= origin.turn_count
        else f"it has {plural(origin.turn_count, 'complete turn')}"
    )
    raise UsageError(f"--at {at}: session {origin.id} cannot be forked there ({why}); use {span}")


def origin_rules(origin: SessionFile, at: int, own: MethodologySnapshot) -> list[RulesRecord]:
    """Who decided the origin's first ``at`` turns, earliest first: the stretches its own
    origin decided (a fork of a fork), then the origin's policy and methodology. A stretch
    decided by the fork's own methodology (``own``: the same YAML, resolved to the same
    tuning) records none (``RulesRecord.methodology``): an origin recorded before a habit
    existed ran its YAML without it, and its stretch records so."""
    stretches: list[tuple[int, str, MethodologySnapshot]] = []
    start = 1
    for rules in origin.fork.earlier if origin.fork is not None else []:
        if start > at:
            break
        snapshot = rules.methodology or origin.methodology
        stretches.append((min(rules.until_turn, at), rules.policy, snapshot))
        start = rules.until_turn + 1
    if start <= at:
        stretches.append((at, origin.settings.policy, origin.methodology))
    return [
        RulesRecord(
            until_turn=until,
            policy=policy,
            methodology=None if _same_rules(snapshot, own) else snapshot.model_copy(),
        )
        for until, policy, snapshot in stretches
    ]


def _same_rules(recorded: MethodologySnapshot, own: MethodologySnapshot) -> bool:
    # A snapshot without a resolved tuning (a hand-made file) is compared by its YAML alone.
    tunings = (recorded.tuning, own.tuning)
    return recorded.sha256 == own.sha256 and (not all(tunings) or tunings[0] == tunings[1])


def interviewer_seed(origin: SessionFile) -> int:
    """The seed the origin's interviewer model was built with: its batch's, else its own."""
    batch_seed = (origin.simulation or {}).get("batch_seed")
    return batch_seed if isinstance(batch_seed, int) else origin.settings.seed


def concept_of(origin: SessionFile) -> Loaded[Concept]:
    """The origin's concept, from its snapshot (the text it ran with)."""
    snap = origin.concept
    value = parse_snapshot(snap.source, Concept, "concept", origin.id)
    return Loaded(value=value, path=Path(f"{snap.id}.yaml"), text=snap.source)


def methodology_of(origin: SessionFile) -> Loaded[Methodology]:
    """The origin's methodology, from its snapshot."""
    snap = origin.methodology
    value = parse_snapshot(snap.source, Methodology, "methodology", origin.id)
    return Loaded(value=value, path=Path(snap.path or f"{snap.name}.yaml"), text=snap.source)


def plan_forks(spec: ForkSpec) -> tuple[BatchSpec, list[PlannedInterview]]:
    """The forks as a batch of one persona: the batch's spec and one planned interview a run
    (ids ``<origin>-fork-t<K>-<label>-s<seed>-r<run>``)."""
    origin = spec.origin
    batch = BatchSpec(
        personas=[spec.persona],
        concept=concept_of(origin),
        methodology=spec.methodology,
        settings=spec.settings,
        out=spec.out,
        runs=spec.runs,
        max_turns=origin.settings.max_turns,
        seed=interviewer_seed(origin),
        policy=spec.policy,
        canonical_slots=origin.settings.enable_canonical_slots,
        discourse_hints=origin.settings.enable_discourse_hints,
        embeddings=origin.settings.enable_embeddings,
    )
    plan = [
        PlannedInterview(
            interview_id(origin.id, f"fork-t{spec.at}", spec.label, spec.base_seed, run),
            spec.persona,
            run,
            spec.base_seed + run - 1,
        )
        for run in range(1, spec.runs + 1)
    ]
    return batch, plan


def state_at(origin: SessionFile, at: int, *, embedder: Embedder | None = None) -> CoreState:
    """The core state after the origin's turn ``at``, replayed from its record."""
    return state_before(
        origin,
        at,
        methodology=methodology_of(origin).value,
        concept=concept_of(origin).value,
        embedder=embedder,
    )


def fork_session(
    spec: ForkSpec,
    batch: BatchSpec,
    planned: PlannedInterview,
    state: CoreState,
    respondent: str,
) -> SessionFile:
    """The fork of one run before its persona answers: paused, with the origin's first
    turns, the state after them and the origin's next question waiting."""
    origin, at = spec.origin, spec.at
    session = new_simulated_session(batch, planned, respondent)
    session.status = "paused"
    session.settings.language = origin.settings.language
    session.consent = origin.consent.model_copy(deep=True) if origin.consent else None
    # the respondent of the fork read what the origin's respondent read before turn 1
    session.stimulus = origin.stimulus.model_copy(deep=True) if origin.stimulus else None
    session.opening_calls = [c.model_copy(deep=True) for c in origin.opening_calls]
    session.turns = [t.model_copy(deep=True) for t in origin.turns[:at]]
    session.pending_question = fork_question(origin, at).model_copy(deep=True)
    keep_state(session, state)
    session.usage = _usage(session)
    session.fork = ForkRecord(
        session_id=origin.id,
        turn=at,
        run=planned.run,
        earlier=origin_rules(origin, at, session.methodology),
    )
    return session


def _usage(session: SessionFile) -> Usage:
    """What the calls the session holds used and cost."""
    usage = Usage()
    for call in session.opening_calls:
        usage.add(call)
    for turn in session.turns:
        for call in turn.llm_calls:
            usage.add(call)
    return usage


def prepare_forks(
    spec: ForkSpec,
    batch: BatchSpec,
    plan: Sequence[PlannedInterview],
    *,
    respondent: str,
    embedder: Embedder | None = None,
) -> list[str]:
    """Write each planned fork that is not in the output directory yet (one there already is
    continued or skipped by the run, as a batch's); the ids written."""
    from interview_cli.simulation.reuse import refuse_stale

    refuse_stale(batch, plan)
    store = SessionStore(batch.out)
    missing = [p for p in plan if not store.path_for(p.session_id).exists()]
    if not missing:
        return []
    state = state_at(spec.origin, spec.at, embedder=embedder)
    for planned in missing:
        with store.lock(planned.session_id):
            if not store.path_for(planned.session_id).exists():
                store.save(fork_session(spec, batch, planned, state, respondent))
    return [p.session_id for p in missing]


async def run_forks(
    spec: ForkSpec,
    *,
    llm: InterviewLLM,
    respondent: Respondent,
    concurrency: int = 4,
    observer: BatchObserver | None = None,
    models: OptionalModels | None = None,
    budget: SpendCap | None = None,
) -> tuple[list[PlannedInterview], BatchResult]:
    """Write the forks and have the persona answer them to their end (``batch.run_batch``)."""
    batch, plan = plan_forks(spec)
    models = models or OptionalModels()
    written = prepare_forks(
        spec, batch, plan, respondent=respondent.label, embedder=models.embedder
    )
    result = await run_batch(
        batch,
        llm=llm,
        respondent=respondent,
        concurrency=concurrency,
        observer=_FreshForks(observer or SilentObserver(), set(written)),
        plan=plan,
        models=models,
        budget=budget,
    )
    return plan, result


class _FreshForks:
    """The observer told that a fork written just now starts (the batch resumes every file
    it finds, and a fork's is written paused) rather than resumes."""

    def __init__(self, observer: BatchObserver, written: set[str]) -> None:
        self.observer = observer
        self.written = written

    def started(self, planned: PlannedInterview, *, resumed: bool) -> None:
        self.observer.started(planned, resumed=resumed and planned.session_id not in self.written)

    def turn(self, planned: PlannedInterview, turn_number: int) -> None:
        self.observer.turn(planned, turn_number)

    def finished(self, planned: PlannedInterview, outcome: InterviewOutcome) -> None:
        self.observer.finished(planned, outcome)
