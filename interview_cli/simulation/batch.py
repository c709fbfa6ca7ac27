"""Batch runs: many simulated interviews, concurrently, each isolated, resumable, evaluated.

A batch is planned (:func:`plan_batch`: persona x run, with deterministic
session ids ``<persona>-<concept>-<policy>-s<seed>-r<run>``) and run (:func:`run_batch`) with
at most ``concurrency`` interviews in flight on one asyncio loop. Each interview is the live
pipeline (``pipeline.runner.Interview``) with a
:class:`~simulation.respondents.respondent.Respondent` typing the answers, so a simulated session
file is an ordinary session file plus ``simulation`` (persona, run, seed, ground truth and its
evaluation).

- **Isolation**: an exception in one interview marks that session ``failed`` with the reason
  (in ``errors``) and the batch goes on; the result lists the failures.
- **Resume**: a session file already in the output directory is continued, or skipped when it
  is ``completed``; so re-running the same command finishes an interrupted batch. Only when
  it was started the same way (:func:`stale_reasons`): otherwise the batch refuses to start.
- **Determinism**: interview ``run`` of ``--seed s`` uses seed ``s * 1000 + run - 1`` for the
  interviewer and the respondent; with offline providers two batches write the same files
  except for timestamps and timings.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from interview_cli.config.loader import Loaded
from interview_cli.config.schemas import Concept, Methodology, Persona
from interview_cli.core.discourse import FrameParser
from interview_cli.core.graph.dedup import Embedder
from interview_cli.errors import InterviewError, SessionFileError, UsageError
from interview_cli.llm.client_settings import LLMSettings
from interview_cli.llm.protocol import Exchange, InterviewLLM, PersonaRequest
from interview_cli.llm.spend import SpendCap, SpendCapReached
from interview_cli.safe_text import redact_secrets
from interview_cli.session.schema import SessionFile
from interview_cli.session.store import SessionStore
from interview_cli.simulation.collector import batch_collector
from interview_cli.simulation.evaluation import evaluate_session
from interview_cli.simulation.respondents.respondent import Respondent
from interview_cli.simulation.saving import BackgroundWrites
from interview_cli.simulation.shape_eval import evaluate_shaped, shaped_truth

if TYPE_CHECKING:
    from interview_cli.pipeline.conversation import Reply
    from interview_cli.pipeline.runner import Interview, TurnResult
    from interview_cli.session.schema import QuestionRecord

POLICIES: tuple[str, ...] = ("adaptive", "deepen_recent", "breadth_first")
RUN_SEED_STRIDE = 1000
MAX_RUNS = RUN_SEED_STRIDE
# stopped: by the spend cap (``--max-cost``), paused with its session file, or never started.
Status = Literal["completed", "failed", "skipped", "stopped"]


def run_seed(seed: int, run: int) -> int:
    """The seed of interview ``run`` (1-based) of a batch with ``--seed seed``."""
    return seed * RUN_SEED_STRIDE + run - 1


def interview_id(persona: str, concept: str, policy: str, seed: int, run: int) -> str:
    """``<persona>-<concept>-<policy>-s<seed>-r<run>``, safe as a session id."""
    raw = f"{persona}-{concept}-{policy}-s{seed}-r{run}"
    clean = re.sub(r"[^A-Za-z0-9_.\-]", "-", raw)
    if len(clean) > 120:  # the store's id limit: keep the distinguishing tail
        clean = clean[:60] + "-" + clean[-59:]
    return clean


@dataclass(frozen=True)
class OptionalModels:
    """The optional models a batch shares: the embedding tier and spaCy frames (or None)."""

    embedder: Embedder | None = None
    frame_parser: FrameParser | None = None


@dataclass(frozen=True)
class BatchSpec:
    """Everything a batch needs; what the ``batch`` command's options resolve to."""

    personas: Sequence[Loaded[Persona]]
    concept: Loaded[Concept]
    methodology: Loaded[Methodology]
    settings: LLMSettings
    out: Path
    runs: int = 1
    max_turns: int = 20
    seed: int = 0
    policy: str = "adaptive"
    canonical_slots: bool = True  # dual graph; --no-canonical-slots for an A/B batch
    discourse_hints: bool = False  # new sessions; a resumed one keeps what it started with
    embeddings: bool = False

    def __post_init__(self) -> None:
        if self.policy not in POLICIES:
            raise UsageError(f"unknown policy {self.policy!r}; choose one of {', '.join(POLICIES)}")
        if not 1 <= self.runs <= MAX_RUNS:
            raise UsageError(f"--runs must be between 1 and {MAX_RUNS}")
        if not self.personas:
            raise UsageError("no persona to interview")


@dataclass(frozen=True)
class PlannedInterview:
    session_id: str
    persona: Loaded[Persona]
    run: int
    seed: int

    @property
    def persona_id(self) -> str:
        return self.persona.value.id


def holds_truth(persona: Persona, concept_id: str, methodology: Methodology) -> bool:
    """Whether the persona believes anything about the topic, in the study's shape: ladders
    (``beliefs``), a journey or a grid about this concept."""
    if methodology.shape == "journey":
        return bool(persona.journeys.get(concept_id))
    if methodology.shape == "grid":
        return bool(persona.grids.get(concept_id))
    return bool(persona.beliefs.get(concept_id))


def refuse_without_truth(spec: BatchSpec) -> None:
    """A usage error naming the first persona that holds no beliefs about the batch's concept:
    its interviews could not be scored, and a persona answering about another topic (its
    beliefs about headphones in an oat-milk study) is a mistake, not a test."""
    concept = spec.concept.value.id
    methodology = spec.methodology.value
    for loaded in spec.personas:
        persona = loaded.value
        if holds_truth(persona, concept, methodology):
            continue
        topics = sorted({*persona.beliefs, *persona.journeys, *persona.grids})
        held = f"its beliefs are about {', '.join(topics)}" if topics else "it has no beliefs"
        key = {"journey": "journeys", "grid": "grids"}.get(methodology.shape, "beliefs")
        raise UsageError(
            f"persona {persona.id} holds no beliefs about {concept} ({held}): choose personas "
            f"that do, add `{key}: {{{concept}: ...}}` to its file (personas/README.md), or "
            "pass --no-ground-truth to interview it unscored"
        )


def plan_batch(spec: BatchSpec) -> list[PlannedInterview]:
    """Persona x run, in the order the personas were given."""
    plan = []
    seen: set[str] = set()
    for persona in spec.personas:
        if persona.value.id in seen:
            continue
        seen.add(persona.value.id)
        for run in range(1, spec.runs + 1):
            sid = interview_id(persona.value.id, spec.concept.value.id, spec.policy, spec.seed, run)
            plan.append(PlannedInterview(sid, persona, run, run_seed(spec.seed, run)))
    return plan


@dataclass
class InterviewOutcome:
    session_id: str
    persona_id: str
    run: int
    status: Status
    reason: str = ""
    evaluation: dict[str, Any] | None = None
    path: Path | None = None
    resumed: bool = False


@dataclass
class BatchResult:
    outcomes: list[InterviewOutcome] = field(default_factory=list)

    @property
    def failures(self) -> list[InterviewOutcome]:
        return [o for o in self.outcomes if o.status == "failed"]

    @property
    def stopped(self) -> list[InterviewOutcome]:
        return [o for o in self.outcomes if o.status == "stopped"]

    @property
    def finished(self) -> list[InterviewOutcome]:
        return [o for o in self.outcomes if o.status not in ("failed", "stopped")]


class BatchObserver(Protocol):
    """What a progress display is told (every method is called on the event loop)."""

    def started(self, planned: PlannedInterview, *, resumed: bool) -> None: ...

    def turn(self, planned: PlannedInterview, turn_number: int) -> None: ...

    def finished(self, planned: PlannedInterview, outcome: InterviewOutcome) -> None: ...


class SilentObserver:
    def started(self, planned: PlannedInterview, *, resumed: bool) -> None:
        return None

    def turn(self, planned: PlannedInterview, turn_number: int) -> None:
        return None

    def finished(self, planned: PlannedInterview, outcome: InterviewOutcome) -> None:
        return None


def existing_status(store: SessionStore, planned: PlannedInterview) -> str | None:
    """The status of the planned interview's session file in ``store``, None if absent."""
    path = store.path_for(planned.session_id)
    if not path.exists():
        return None
    try:
        return store.load(planned.session_id).status
    except SessionFileError:
        return "unreadable"


def simulation_record(
    spec: BatchSpec, planned: PlannedInterview, respondent: str
) -> dict[str, Any]:
    """What a simulated session keeps about its persona and run (before evaluation)."""
    persona = planned.persona.value
    methodology = spec.methodology.value
    topic = spec.concept.value.id
    return {
        "persona": {
            "id": persona.id,
            "name": persona.name,
            "sha256": planned.persona.sha256,
            "traits": persona.traits.model_dump(mode="json"),
        },
        "respondent": respondent,
        "run": planned.run,
        "batch_seed": spec.seed,
        "seed": planned.seed,
        "policy": spec.policy,
        "ground_truth": {
            "concept": topic,
            "methodology": methodology.name,
            "ladders": [
                [r.model_dump(mode="json", exclude_none=True) for r in ladder]
                for ladder in persona.typed_ladders(topic, methodology)
            ],
            **shaped_truth(persona, topic, methodology),
        },
    }


def new_simulated_session(
    spec: BatchSpec, planned: PlannedInterview, respondent: str
) -> SessionFile:
    """A fresh session of the planned interview, with its simulation record (not saved)."""
    from interview_cli.pipeline.setup import new_session

    session = new_session(
        session_id=planned.session_id,
        concept=spec.concept,
        methodology=spec.methodology,
        settings=spec.settings,
        max_turns=spec.max_turns,
        seed=planned.seed,
        ask_rating=False,
        policy=spec.policy,
        canonical_slots=spec.canonical_slots,
        discourse_hints=spec.discourse_hints,
        embeddings=spec.embeddings,
    )
    session.simulation = simulation_record(spec, planned, respondent)
    return session


async def conduct_simulated(
    session: SessionFile,
    *,
    store: SessionStore,
    llm: InterviewLLM,
    respondent: Respondent,
    persona: Persona,
    on_turn: Callable[[int], None] | None = None,
    methodology: Methodology | None = None,
    concept: Concept | None = None,
    models: OptionalModels | None = None,
) -> None:
    """Run one session to its end with ``respondent`` answering (the caller holds the lock).

    ``methodology``/``concept``: the parsed snapshots when the caller has them (a new
    session), which saves parsing the YAML text again; a resumed session reads its own.
    ``models``: the embedding tier and frame parser, used where the session enabled them."""
    from interview_cli.pipeline.runner import Interview

    models = models or OptionalModels()
    interview = Interview(
        session,
        store=store,
        llm=llm,
        methodology=methodology,
        concept=concept,
        embedder=models.embedder if session.settings.enable_embeddings else None,
        frame_parser=models.frame_parser if session.settings.enable_discourse_hints else None,
    )
    from interview_cli.pipeline.conversation import converse

    seat = PersonaSeat(respondent, persona, on_turn=on_turn)
    outcome = await converse(interview, seat)
    if outcome == "closed":
        await interview.settle_slots()  # the closing's slot call
        interview.complete()  # the closing answer's calls were counted with it
    elif outcome == "safety_pause":
        interview.set_status("paused")  # as a moderator would: resumable, reason on the turn


class PersonaSeat:
    """A simulated persona in the respondent's seat of the shared conversation loop
    (``pipeline.conversation``): each question becomes a ``PersonaRequest`` with the
    conversation so far, and the persona's model calls go with its answer."""

    def __init__(
        self,
        respondent: Respondent,
        persona: Persona,
        *,
        on_turn: Callable[[int], None] | None = None,
    ) -> None:
        self.respondent = respondent
        self.persona = persona
        self.on_turn = on_turn

    async def reply(self, interview: Interview, question: QuestionRecord) -> Reply:
        session = interview.session
        turn_number = len(session.turns) + 1
        if self.on_turn is not None:
            self.on_turn(turn_number)
        request = PersonaRequest(
            persona=self.persona,
            question=question.text,
            history=[
                Exchange(
                    question=t.question.text,
                    answer=t.answer.text,
                    strategy=t.question.strategy,
                    focus_label=t.question.focus_label,
                )
                for t in session.turns
            ],
            concept=interview.concept,
            methodology=interview.methodology,
            strategy=question.strategy,
            focus_label=question.focus_label,
            stimulus=session.stimulus.text if session.stimulus is not None else "",
            turn_number=turn_number,
            seed=session.settings.seed,
        )
        answer = await self.respondent.answer(request)
        from interview_cli.pipeline.conversation import Reply

        # The respondent's calls belong to the turn they answered, saved with the answer.
        return Reply(answer.value.strip() or "...", calls=list(answer.calls))

    def answered(self, result: TurnResult) -> None:
        pass


async def _run_one(
    spec: BatchSpec,
    planned: PlannedInterview,
    *,
    store: SessionStore,
    llm: InterviewLLM,
    respondent: Respondent,
    observer: BatchObserver,
    models: OptionalModels,
) -> InterviewOutcome:
    persona = planned.persona.value
    outcome = InterviewOutcome(planned.session_id, persona.id, planned.run, "completed")
    session: SessionFile | None = None
    try:
        path = store.path_for(planned.session_id)
        with store.lock(planned.session_id):
            if path.exists():
                session = store.load(planned.session_id)
                if session.status == "completed":
                    outcome.status = "skipped"
                    outcome.evaluation = _evaluation_of(session, persona, spec, store)
                    outcome.path = path
                    return outcome
                session.status = "active"
                outcome.resumed = True
            else:
                session = new_simulated_session(spec, planned, respondent.label)
                store.save(session)
            observer.started(planned, resumed=outcome.resumed)

            def on_turn(number: int) -> None:
                observer.turn(planned, number)

            fresh = not outcome.resumed
            try:
                await conduct_simulated(
                    session,
                    store=store,
                    llm=llm,
                    respondent=respondent,
                    persona=persona,
                    on_turn=on_turn,
                    methodology=spec.methodology.value if fresh else None,
                    concept=spec.concept.value if fresh else None,
                    models=models,
                )
            except (asyncio.CancelledError, KeyboardInterrupt):
                session.status = "paused"  # as `run` does on Ctrl-C; the lock is still held
                store.save(session)
                raise
            except SpendCapReached as exc:  # paused before a call that could pass --max-cost
                session.status = "paused"
                store.save(session)
                await _drain(store, planned.session_id)
                outcome.status, outcome.reason, outcome.path = "stopped", exc.message, path
                return outcome
            _store_evaluation(session, persona, spec.methodology.value)
            store.save(session)
            await _drain(store, planned.session_id)  # on disk before the lock is released
            outcome.evaluation = session.simulation["evaluation"] if session.simulation else None
            outcome.path = path
    except (asyncio.CancelledError, KeyboardInterrupt):
        raise
    except Exception as exc:  # one interview's failure must not stop the batch
        outcome.status = "failed"
        outcome.reason = _describe(exc)
        if session is not None:
            _record_failure(store, session, persona, spec.methodology.value, outcome.reason)
    return outcome


def _evaluation_of(
    session: SessionFile, persona: Persona, spec: BatchSpec, store: SessionStore
) -> dict[str, Any] | None:
    """A completed session's evaluation, computed and saved now when it has none: a batch
    stopped between saving the completed session and saving its evaluation (SIGKILL, or a
    SIGTERM that cancelled the second write) must not leave it out of every later summary.
    The evaluation is a pure function of the session, so computing it later gives the same."""
    evaluation = (session.simulation or {}).get("evaluation")
    if evaluation is None and session.simulation is not None:
        _store_evaluation(session, persona, spec.methodology.value)
        store.save(session)  # made durable before the lock is released, as every save
        evaluation = session.simulation["evaluation"]
    return evaluation


async def _drain(store: SessionStore, session_id: str) -> None:
    """Wait for the session's background writes (``saving``) without blocking the loop."""
    await store.writes.drain(session_id)


def evaluate_simulated(
    session: SessionFile, persona: Persona, methodology: Methodology
) -> dict[str, Any]:
    """The session against what ``persona`` holds (a journey's or grid's truth, else its
    ladders): the evaluation every simulated session stores."""
    return evaluate_shaped(session, persona, methodology) or evaluate_session(
        session, persona, methodology
    )


def _store_evaluation(session: SessionFile, persona: Persona, methodology: Methodology) -> None:
    record = dict(session.simulation or {})
    record["evaluation"] = evaluate_simulated(session, persona, methodology)
    session.simulation = record


def _record_failure(
    store: SessionStore,
    session: SessionFile,
    persona: Persona,
    methodology: Methodology,
    reason: str,
) -> None:
    session.status = "failed"
    session.errors.append(reason)
    try:
        _store_evaluation(session, persona, methodology)
        with store.lock(session.id):
            store.save(session)
    except Exception:  # the failure is reported either way; a second one must not hide it
        pass


def _describe(exc: BaseException) -> str:
    if isinstance(exc, InterviewError):
        return exc.message.replace("\n", " ")
    detail = redact_secrets(str(exc).replace("\n", " ").strip())  # an SDK's may quote a URL
    return f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__


async def run_batch(
    spec: BatchSpec,
    *,
    llm: InterviewLLM,
    respondent: Respondent,
    concurrency: int = 4,
    observer: BatchObserver | None = None,
    plan: Sequence[PlannedInterview] | None = None,
    models: OptionalModels | None = None,
    budget: SpendCap | None = None,
) -> BatchResult:
    """Run every planned interview, at most ``concurrency`` at a time; outcomes in plan order.

    ``models``: the embedding tier and frame parser (loaded once, shared by all interviews).
    ``budget``: the ``--max-cost`` cap the llm's clients share; once it has stopped a call,
    interviews not yet started are not started (``stopped``, no session file)."""
    models = models or OptionalModels()
    if concurrency < 1:
        raise UsageError("--concurrency must be at least 1")
    # Disk syncs of saves run off the loop, in order per session (``saving``).
    store = SessionStore(spec.out, writes=BackgroundWrites())
    observer = observer or SilentObserver()
    planned = list(plan) if plan is not None else plan_batch(spec)
    from interview_cli.simulation.reuse import refuse_stale

    refuse_stale(spec, planned)
    for item in planned:  # ids are predictable: a link planted at one is refused up front
        store.refuse_links(item.session_id)
    gate = asyncio.Semaphore(concurrency)

    async def worker(item: PlannedInterview) -> InterviewOutcome:
        async with gate:
            if (
                budget is not None
                and budget.closed
                and not store.path_for(item.session_id).exists()
            ):
                outcome = InterviewOutcome(
                    item.session_id, item.persona_id, item.run, "stopped", budget.describe()
                )
                observer.finished(item, outcome)
                return outcome
            outcome = await _run_one(
                spec,
                item,
                store=store,
                llm=llm,
                respondent=respondent,
                observer=observer,
                models=models,
            )
        observer.finished(item, outcome)
        return outcome

    with batch_collector():  # fewer, shorter collector pauses for the whole batch
        outcomes = await asyncio.gather(*(worker(item) for item in planned))
    return BatchResult(list(outcomes))
