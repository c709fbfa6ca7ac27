"""`interview fork SESSION --at K`: continue a recorded interview from turn K under another
policy or methodology, a simulated persona answering, and compare it with the original.

Thin by design: the options resolve to a ``simulation.fork.ForkSpec``; writing and running
the forks is ``simulation.fork``'s (over the batch runner), checking each with `replay
--verify` is ``analysis.replay.verify``'s, the paired comparison ``simulation.fork_compare``'s
and the drawing ``ui.fork``'s.

The origin is read under its lock, as `run --resume` reads a session: one in progress (a
live interview or a batch still running it) is refused, and nothing is written beside it but
the forks, in their own folder (``--out``, by default ``<sessions dir>/fork-<id>-t<K>-<label>
-s<seed>``: re-running the same command continues interrupted forks and skips finished ones).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from interview_cli.cli.common import (
    JsonOption,
    LibraryOption,
    open_library,
    print_json,
    print_warning,
    stderr_console,
    stdout_console,
)
from interview_cli.cli.run import SessionsDirOption

if TYPE_CHECKING:
    from interview_cli.config.library import Library
    from interview_cli.config.loader import Loaded
    from interview_cli.config.schemas import Methodology, Persona
    from interview_cli.llm.client_settings import LLMSettings
    from interview_cli.session.schema import SessionFile
    from interview_cli.simulation.batch import BatchResult, PlannedInterview
    from interview_cli.simulation.fork import ForkSpec
    from interview_cli.simulation.fork_compare import ForkComparison

POLICY_HELP = (
    "Who decides from turn K+1: adaptive | deepen_recent | breadth_first (default: the "
    "original's policy)."
)


def fork(
    session_ref: Annotated[
        str, typer.Argument(metavar="SESSION", help="A session file, or a session id.")
    ],
    at: Annotated[
        int,
        typer.Option(
            "--at",
            metavar="K",
            help="Keep the original's first K turns (and the question of turn K+1, which "
            "turn K chose); the fork decides from turn K+1 on.",
            show_default=False,
        ),
    ],
    policy: Annotated[
        str | None, typer.Option("--policy", help=POLICY_HELP, show_default=False)
    ] = None,
    methodology: Annotated[
        str | None,
        typer.Option(
            "--methodology",
            "-m",
            metavar="NAME|FILE.yaml",
            help="Decide from turn K+1 with this methodology (a variant of the original's: "
            "the same ontology, other weights).",
            show_default=False,
        ),
    ] = None,
    persona: Annotated[
        str | None,
        typer.Option(
            "--persona",
            metavar="ID|FILE",
            help="Who answers from turn K+1 (default: the persona that answered the "
            "original; needed for a live interview).",
            show_default=False,
        ),
    ] = None,
    runs: Annotated[
        int, typer.Option("--runs", "-n", min=1, max=1000, help="Forks to run (their spread).")
    ] = 1,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Seed of run 1; run R uses seed+R-1 (default: the original's seed, so run 1 "
            "meets the respondent the original met).",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            metavar="DIR",
            help="Where the forks go (default: a folder in the sessions directory named after "
            "the session, turn, policy and seed). Re-running continues unfinished forks.",
            show_default=False,
        ),
    ] = None,
    sessions_dir: SessionsDirOption = None,
    library: LibraryOption = None,
    as_json: JsonOption = False,
) -> None:
    """Continue a recorded interview from turn K with another policy or methodology, a
    simulated persona answering, and compare each fork with the original, paired.

    Each fork is an ordinary session file that repeats the original's first K turns as
    recorded, then goes on with the persona answering and the fork's policy deciding; it
    records its origin (session and turn), and `replay --verify`, `report` and `sessions`
    read it like any other. The comparison measures the original and every fork against the
    persona's ground truth (rungs recalled, terminal value reached, turns, complaints) and,
    over several runs, the spread.

    **Examples**

    * `interview fork runs/cooperative-headphones_mec-adaptive-s0-r1.json --at 2 --policy
      breadth_first --runs 2`
    * `interview fork ID --at 4 --persona cooperative --json`
    * `interview fork sessions/headphones_mec-20261122-101500-ab12.json --at 3 --persona
      cooperative --methodology my_tuned_mec.yaml`
    """
    from interview_cli.session.store import SessionStore

    lib = open_library(library)
    origin = _read_origin(session_ref, SessionStore(sessions_dir))
    spec = _spec(
        lib,
        origin,
        at=at,
        policy=policy,
        methodology_ref=methodology,
        persona_ref=persona,
        runs=runs,
        seed=seed,
        out=out,
        sessions_dir=sessions_dir,
    )
    plan, result = _run(spec, as_json=as_json)
    comparison = _compare(spec, plan, result)
    if as_json:
        print_json(comparison.to_dict())
    else:
        from interview_cli.ui.fork import fork_view

        stdout_console().print(fork_view(comparison, out=str(spec.out)))
    _exit_on_trouble(comparison)


def _read_origin(ref: str, store: Any) -> SessionFile:
    """The session to fork, read under its lock (taken and let go): a session in progress
    is refused (exit 2, naming the process that holds it)."""
    from interview_cli.analysis.sources import read_session
    from interview_cli.errors import UsageError
    from interview_cli.session.store import SessionStore

    path = store.resolve(ref)
    if path.is_dir():
        raise UsageError(f"{ref} is a directory; pass a session file (or a session id)")
    with SessionStore(path.parent).lock(path.stem):
        return read_session(path)


def _spec(
    lib: Library,
    origin: SessionFile,
    *,
    at: int,
    policy: str | None,
    methodology_ref: str | None,
    persona_ref: str | None,
    runs: int,
    seed: int | None,
    out: Path | None,
    sessions_dir: Path | None,
) -> ForkSpec:
    """The fork the options describe, every piece checked (one line and exit 2 otherwise)."""
    from dataclasses import replace

    from interview_cli.config.files import default_sessions_dir
    from interview_cli.errors import UsageError
    from interview_cli.simulation.batch import POLICIES
    from interview_cli.simulation.fork import ForkSpec, fork_question, methodology_of

    fork_question(origin, at)  # --at first: the cheapest check, and the likeliest slip
    chosen = policy or origin.settings.policy
    if chosen not in POLICIES:
        raise UsageError(f"--policy must be one of {', '.join(POLICIES)} (got {chosen!r})")
    spec = ForkSpec(
        origin=origin,
        at=at,
        persona=_persona(lib, origin, persona_ref, at),
        methodology=_methodology(lib, origin, methodology_ref) or methodology_of(origin),
        policy=chosen,
        settings=_settings(origin),
        out=out or Path(),
        runs=runs,
        seed=seed,
    )
    _refuse_without_truth(spec)
    _refuse_unreplayable(origin, at)
    if out is not None:
        return spec
    return replace(spec, out=(sessions_dir or default_sessions_dir()) / spec.folder)


def _persona(lib: Library, origin: SessionFile, ref: str | None, at: int) -> Loaded[Persona]:
    """``--persona``, else the persona that answered the origin, from the library."""
    from interview_cli.errors import UsageError

    if ref:
        return lib.persona(ref)
    recorded = (origin.simulation or {}).get("persona") or {}
    pid = recorded.get("id") if isinstance(recorded, dict) else None
    if not pid:
        raise UsageError(
            f"session {origin.id} is a live interview (no simulated persona answered it): "
            f"pass --persona ID|FILE to have a persona answer from turn {at + 1}"
        )
    if pid not in lib.ids("persona"):
        raise UsageError(
            f"session {origin.id} was answered by persona {pid}, which is not in the library: "
            "pass its file with --persona FILE"
        )
    loaded = lib.persona(pid)
    if recorded.get("sha256") and recorded["sha256"] != loaded.sha256:
        print_warning(
            f"persona {pid}'s file changed since session {origin.id} ran: the forks answer "
            "and are scored as it is now, and so is the original"
        )
    return loaded


def _methodology(lib: Library, origin: SessionFile, ref: str | None) -> Loaded[Methodology] | None:
    """``--methodology`` checked to be a variant of the origin's (None when not given)."""
    if not ref:
        return None
    from interview_cli.analysis.replay.whatif import ontology_mismatch
    from interview_cli.errors import UsageError

    loaded = lib.methodology(ref)
    problem = ontology_mismatch(origin, loaded.value)
    if problem is not None:
        raise UsageError(
            f"--methodology {ref}: {problem}; a fork goes on from the original's graph, so pass "
            f"a variant of {origin.methodology.name} (e.g. a copy of its YAML with other weights)"
        )
    return loaded


def _refuse_without_truth(spec: ForkSpec) -> None:
    """A persona with no beliefs about the study's topic gives nothing to compare on."""
    from interview_cli.errors import UsageError
    from interview_cli.simulation.batch import holds_truth

    persona, concept = spec.persona.value, spec.origin.concept.id
    if not holds_truth(persona, concept, spec.methodology.value):
        raise UsageError(
            f"persona {persona.id} holds no beliefs about {concept}, so its forks could not "
            "be compared with the original on ground truth: pass --persona with one that does "
            "(personas/README.md)"
        )


def _refuse_unreplayable(origin: SessionFile, at: int) -> None:
    """A fork starts from the state replaying the origin's first turns gives: when this
    interview-cli does not reproduce those turns, it would not start where the origin was."""
    from interview_cli.analysis.replay.verify import verify_session
    from interview_cli.errors import UsageError

    result = verify_session(origin)
    early = [m for m in result.mismatches if m.check == "snapshot" or 0 < m.turn <= at]
    if early:
        first = early[0]
        where = f"turn {first.turn}" if first.turn else "its snapshot"
        raise UsageError(
            f"session {origin.id} does not replay as recorded up to turn {at} ({where}: "
            f"{first.check} {first.field}), so a fork would not start where it stopped; see "
            f"`interview replay {origin.id} --verify`"
        )


def _settings(origin: SessionFile) -> LLMSettings:
    """The origin's interviewer clients as recorded (as `run --resume` takes them) and its
    respondent client: the offline simulator for a live interview."""
    from interview_cli.llm.settings import resolve_llm_settings

    recorded = {
        name: {"provider": choice.provider, "model": choice.model}
        for name, choice in origin.settings.clients.items()
        if name in ("extraction", "scoring", "generation", "respondent")
    }
    if origin.simulation is None or "respondent" not in recorded:
        recorded["respondent"] = {"provider": "offline"}
    settings = resolve_llm_settings(None, per_client=recorded)
    for line in settings.notices:
        print_warning(line)
    return settings


def _run(spec: ForkSpec, *, as_json: bool) -> tuple[list[PlannedInterview], BatchResult]:
    """Write the forks and run them, with the batch's progress bar (on stderr for --json)."""
    import asyncio

    from interview_cli.cli.common import optional_models
    from interview_cli.llm.factory import build_llm
    from interview_cli.simulation.batch import OptionalModels
    from interview_cli.simulation.fork import interviewer_seed, run_forks
    from interview_cli.simulation.respondents.respondent import make_respondent
    from interview_cli.ui.batch import ProgressView

    seed = interviewer_seed(spec.origin)
    llm = build_llm(spec.settings, seed=seed)
    respondent = make_respondent(spec.settings, llm, seed=seed)
    embedder, parser = optional_models(
        embeddings=spec.origin.settings.enable_embeddings,
        discourse=spec.origin.settings.enable_discourse_hints,
    )
    console = stderr_console() if as_json else stdout_console()
    max_turns = spec.origin.settings.max_turns

    async def go() -> tuple[list[PlannedInterview], BatchResult]:
        try:
            with ProgressView(console, total=spec.runs, max_turns=max_turns) as view:
                return await run_forks(
                    spec,
                    llm=llm,
                    respondent=respondent,
                    concurrency=min(spec.runs, 4),
                    observer=view,
                    models=OptionalModels(embedder=embedder, frame_parser=parser),
                )
        finally:
            closer = getattr(llm, "aclose", None)
            if closer is not None:
                await closer()

    return asyncio.run(go())


def _compare(spec: ForkSpec, plan: list[PlannedInterview], result: BatchResult) -> ForkComparison:
    """The original and each fork, paired; each fork read back and verified."""
    from interview_cli.analysis.replay.verify import verify_session
    from interview_cli.analysis.sources import read_session
    from interview_cli.simulation.batch import evaluate_simulated
    from interview_cli.simulation.fork import methodology_of
    from interview_cli.simulation.fork_compare import ForkComparison, ForkRun

    origin = spec.origin
    comparison = ForkComparison(
        origin=origin.id,
        at=spec.at,
        policy=spec.policy,
        origin_policy=origin.settings.policy,
        methodology=_methodology_label(spec),
        persona=spec.persona.value.id,
        original=evaluate_simulated(origin, spec.persona.value, methodology_of(origin).value),
    )
    for planned, outcome in zip(plan, result.outcomes, strict=True):
        run = ForkRun(
            run=planned.run,
            session_id=planned.session_id,
            status=outcome.status,
            seed=planned.seed,
            path=str(outcome.path) if outcome.path else None,
            reason=outcome.reason,
            evaluation=outcome.evaluation if outcome.status != "failed" else None,
        )
        if outcome.path is not None and outcome.status != "failed":
            session = read_session(outcome.path)
            run = _with_checks(run, origin, session, spec.at, verify_session(session).ok)
        comparison.runs.append(run)
    return comparison


def _methodology_label(spec: ForkSpec) -> str:
    """The fork's methodology: name and version, and which file when it is not the
    original's."""
    m = spec.methodology
    name = f"{m.value.name} {m.value.method.version}"
    return f"{name} from {m.path} ({m.sha256[:8]})" if spec.methodology_changed else name


def _with_checks(run: Any, origin: SessionFile, fork: SessionFile, at: int, ok: bool) -> Any:
    from dataclasses import replace

    from interview_cli.simulation.fork_compare import diverged_at, repeats_origin

    return replace(
        run,
        repeats_origin=repeats_origin(origin, fork, at),
        diverged_at=diverged_at(origin, fork),
        verified=ok,
    )


def _exit_on_trouble(comparison: ForkComparison) -> None:
    """Exit 1, naming what went wrong, when a fork failed, strayed from the original's first
    turns or does not verify."""
    troubles = []
    for run in comparison.runs:
        if run.evaluation is None:
            troubles.append(f"{run.session_id}: {run.status} {run.reason}".rstrip())
        elif not run.repeats_origin:
            troubles.append(f"{run.session_id}: does not repeat the first {comparison.at} turns")
        elif run.verified is False:
            troubles.append(
                f"{run.session_id}: does not verify (`interview replay {run.path} --verify`)"
            )
    for line in troubles:
        print_warning(line)
    if troubles:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("fork", no_args_is_help=True)(fork)
