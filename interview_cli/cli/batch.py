"""`interview batch`: run a study design against simulated respondents, to check the
interviewing against what each persona believes about the topic before real people answer.

Thin by design: options are resolved here; planning, running and evaluation live in
``interview_cli.simulation`` and drawing in ``ui.batch``. Heavy imports happen inside
the command so that `interview --help` stays fast.

Output directory: ``--out DIR``, by default ``<sessions dir>/batch-<concept>-<policy>-s<seed>``
- deterministic on purpose, so re-running the same command continues an interrupted batch
(finished interviews are skipped) instead of starting a new one.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from interview_cli.cli.batch_report import report
from interview_cli.cli.common import (
    DiscourseHintsOption,
    EmbeddingsOption,
    JsonOption,
    LibraryOption,
    open_library,
    optional_models,
    print_json,
    print_warning,
    stderr_console,
    stdout_console,
)
from interview_cli.cli.run import SessionsDirOption
from interview_cli.cli.spending import BaseUrlOption, MaxCostOption, ModelOption

if TYPE_CHECKING:
    from rich.console import Console

    from interview_cli.config.library import Library
    from interview_cli.config.loader import Loaded
    from interview_cli.config.schemas import Persona
    from interview_cli.llm.client_settings import LLMSettings
    from interview_cli.simulation.batch import BatchResult, BatchSpec

POLICY_HELP = (
    "adaptive (the methodology's signals and strategies) | deepen_recent (always ladder the "
    "newest element) | breadth_first (ladder every element once, level by level): the last two "
    "are simple baselines that show whether the adaptive logic earns its keep."
)


def resolve_personas(lib: Library, refs: list[str]) -> list[Loaded[Persona]]:
    """Persona ids, persona files, or directories (every YAML persona file inside)."""
    from interview_cli.cli.common import in_library
    from interview_cli.config.loader import yaml_files
    from interview_cli.errors import UsageError

    personas: list[Loaded[Persona]] = []
    for ref in refs:
        path = in_library(Path(ref), lib)  # `personas/` is the shipped folder anywhere
        if path.is_dir():
            files = yaml_files(path)
            if not files:
                raise UsageError(f"{ref}: no persona files (*.yaml) in this directory")
            personas.extend(lib.persona(f) for f in files)
        else:
            personas.append(lib.persona(str(path) if path.exists() else ref))
    return personas


def batch(
    personas: Annotated[
        list[str],
        typer.Argument(
            metavar="PERSONA...",
            help="Persona ids (see `interview personas`), persona YAML files, or a directory "
            "of them (all of its personas).",
            show_default=False,
        ),
    ],
    concept: Annotated[
        str,
        typer.Option("--concept", "-c", help="Concept id or YAML path: what the study is about."),
    ],
    methodology: Annotated[
        str | None,
        typer.Option(
            "--methodology", "-m", help="Methodology name or YAML path (default: the concept's)."
        ),
    ] = None,
    runs: Annotated[
        int, typer.Option("--runs", "-n", min=1, max=1000, help="Interviews per persona.")
    ] = 1,
    max_turns: Annotated[
        int, typer.Option("--max-turns", min=2, max=200, help="Hard limit of answered turns.")
    ] = 20,
    concurrency: Annotated[
        int,
        typer.Option(
            "--concurrency", "-j", min=1, max=256, help="Interviews in flight at the same time."
        ),
    ] = 4,
    seed: Annotated[
        int,
        typer.Option(help="Batch seed: run R of seed S uses seed S*1000+R-1 (offline choices)."),
    ] = 0,
    provider: Annotated[
        str | None,
        typer.Option(
            "--provider",
            "-p",
            help="The interviewer's provider (extraction, scoring, question writing): offline, "
            "or a provider of the registry (`interview providers` lists them; default: a "
            "provider whose key is set, else offline).",
        ),
    ] = None,
    model: ModelOption = None,
    base_url: BaseUrlOption = None,
    max_cost: MaxCostOption = None,
    respondent_provider: Annotated[
        str,
        typer.Option(
            "--respondent-provider",
            help="Who answers: offline (the seeded ladder simulator) or a provider whose model "
            "plays the persona.",
        ),
    ] = "offline",
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            metavar="DIR",
            # No angle brackets: the app's markdown help would swallow them as HTML.
            help="Where the session files go (default: a folder in the sessions directory named "
            "after the concept, policy, seed and a provider other than offline). Re-running "
            "with the same directory skips finished interviews; it refuses when they ran with "
            "other providers, models, settings or files.",
            show_default=False,
        ),
    ] = None,
    policy: Annotated[str, typer.Option("--policy", help=POLICY_HELP)] = "adaptive",
    canonical_slots: Annotated[
        bool,
        typer.Option(
            "--canonical-slots/--no-canonical-slots",
            help="Dual graph: group paraphrased concepts into canonical slots.",
        ),
    ] = True,
    discourse_hints: DiscourseHintsOption = False,
    embeddings: EmbeddingsOption = False,
    ground_truth: Annotated[
        bool,
        typer.Option(
            "--ground-truth/--no-ground-truth",
            help="Refuse a persona that holds no beliefs about the concept (the default), or "
            "interview it anyway, unscored: its sessions report no recall figures.",
        ),
    ] = True,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run", help="Estimate model calls, tokens and cost; run nothing, write nothing."
        ),
    ] = False,
    sessions_dir: SessionsDirOption = None,
    library: LibraryOption = None,
    as_json: JsonOption = False,
) -> None:
    """Interview simulated respondents: many sessions, concurrently, checked against what
    each persona believes about the concept.

    Each interview is the live pipeline with a persona answering: offline, a seeded simulator
    that follows the persona's traits and beliefs about the topic and talks like people (its
    own sayings, hedges, backstory, a correction now and then); with `--respondent-provider`, a
    model playing the persona. A persona that holds no beliefs about the concept is refused
    (`--no-ground-truth` runs it unscored). Every session file records its ground truth and
    evaluation (rungs elicited, ladder recall, ladders completed, terminal reached, linked
    rungs, strategy mix, repeated questions, cost); the batch ends with a summary per persona
    and a question report card (per 100 questions, counted without a model; the legend says
    what).

    One failing interview is recorded as failed and the others go on (exit 1 lists the
    failures). Same seed, offline providers: the same session files, byte for byte, apart
    from timestamps and timings.

    **Examples**

    * `interview batch cooperative sceptical -c headphones_mec --runs 3`
    * `interview batch personas/ -c headphones_mec --runs 2 --policy deepen_recent -j 8`
    * `interview batch cooperative -c headphones_mec --provider anthropic --dry-run`
    * `interview batch personas/ -c headphones_mec --json > summary.json`
    * `interview batch personas/ -c headphones_mec --provider openai --max-cost 2`
    """
    from interview_cli.config.files import default_sessions_dir
    from interview_cli.errors import UsageError
    from interview_cli.simulation.batch import (
        POLICIES,
        BatchSpec,
        plan_batch,
        refuse_without_truth,
    )
    from interview_cli.simulation.reuse import refuse_stale

    if policy not in POLICIES:
        raise UsageError(f"--policy must be one of {', '.join(POLICIES)} (got {policy!r})")
    lib = open_library(library)
    loaded_personas = resolve_personas(lib, personas)
    concept_loaded = lib.concept(concept)
    methodology_loaded = lib.methodology(methodology or concept_loaded.value.methodology)
    settings = _settings(provider, respondent_provider, base_url, model, dry_run=dry_run)
    name = _default_out_name(concept_loaded.value.id, policy, seed, settings)
    target = out if out is not None else (sessions_dir or default_sessions_dir()) / name
    spec = BatchSpec(
        personas=loaded_personas,
        concept=concept_loaded,
        methodology=methodology_loaded,
        settings=settings,
        out=target,
        runs=runs,
        max_turns=max_turns,
        seed=seed,
        policy=policy,
        canonical_slots=canonical_slots,
        discourse_hints=discourse_hints,
        embeddings=embeddings,
    )
    if ground_truth:
        refuse_without_truth(spec)
    plan = plan_batch(spec)
    if dry_run:  # writes nothing, so sessions run differently are no reason to refuse
        _dry_run(spec, plan, as_json=as_json, max_cost=max_cost)
        return
    spent = refuse_stale(spec, plan)  # before anything is printed or estimated
    _run_within_budget(
        spec, plan, max_cost=max_cost, spent=spent, concurrency=concurrency, as_json=as_json
    )


def _default_out_name(concept: str, policy: str, seed: int, settings: LLMSettings) -> str:
    """The batch's folder in the sessions directory: one per concept, policy and seed, and
    per interviewer provider when it is not offline, so that the same personas run offline
    and with a model land side by side instead of refusing each other's sessions."""
    name = f"batch-{concept}-{policy}-s{seed}"
    providers = sorted(
        {settings.client(c).provider for c in ("extraction", "scoring", "generation")}
    )
    if providers != ["offline"]:
        name += "-" + "+".join(p for p in providers if p != "offline")
    return name


def _settings(
    provider: str | None,
    respondent_provider: str,
    base_url: str | None,
    model: str | None,
    *,
    dry_run: bool,
) -> LLMSettings:
    """The batch's LLM settings, each notice about a setting that cannot apply shown once."""
    from interview_cli.llm.settings import resolve_llm_settings

    settings = resolve_llm_settings(
        provider,
        per_client=_per_client(provider, respondent_provider, base_url=base_url, model=model),
        env=_dry_run_env(provider, respondent_provider) if dry_run else None,
    )
    for line in settings.notices:  # e.g. an LLM_<CLIENT>_MODEL that an offline client ignores
        print_warning(line)
    return settings


def _run_within_budget(
    spec: BatchSpec,
    plan: list[Any],
    *,
    max_cost: float | None,
    spent: float,
    concurrency: int,
    as_json: bool,
) -> None:
    """Run the batch under its spend cap (what earlier runs spent counts), pause it cleanly
    on Ctrl-C or a signal, and report the outcome."""
    import asyncio

    from interview_cli.cli.interrupts import exit_code, signals_as_interrupts
    from interview_cli.cli.spending import open_budget

    budget = open_budget(
        max_cost,
        spec.settings,
        ("extraction", "scoring", "generation", "respondent"),
        already_spent=spent if max_cost is not None else 0.0,
    )
    try:
        with signals_as_interrupts():
            result = _run(spec, plan, concurrency=concurrency, as_json=as_json, budget=budget)
    except (KeyboardInterrupt, asyncio.CancelledError):  # Ctrl-C, SIGTERM, SIGHUP: the
        # running sessions were paused (asyncio reports an early interruption as a cancel)
        print_warning("interrupted: re-running the same command resumes the batch")
        raise typer.Exit(exit_code()) from None
    report(spec, result, as_json=as_json, budget=budget)


def _per_client(
    provider: str | None, respondent: str, *, base_url: str | None, model: str | None
) -> dict[str, Any]:
    """The respondent's provider, and ``--base-url``/``--model`` for the interviewer's
    clients (and for the respondent when it uses the interviewer's provider)."""
    from interview_cli.cli.spending import with_server

    clients = ["extraction", "scoring", "generation"]
    if provider and respondent.strip().lower() == provider.strip().lower():
        clients.append("respondent")
    return with_server(
        {"respondent": {"provider": respondent}}, clients, base_url=base_url, model=model
    )


def _dry_run_env(*providers: str | None) -> dict[str, str]:
    """The environment for resolving a dry run's settings: a provider named on the command
    line counts as configured, so its cost can be estimated before its key is set (nothing
    is called, and the placeholder never leaves this process)."""
    import os

    from interview_cli.errors import ConfigError
    from interview_cli.llm.client_settings import key_env_var, provider_info

    env = dict(os.environ)
    for name in providers:
        try:
            var = key_env_var(name.strip().lower()) if name else None
        except ConfigError:
            continue  # an unknown provider is reported by the real resolution
        if var and not env.get(var):
            env[var] = "dry-run-placeholder"
        if name and var:
            info = provider_info(name.strip().lower())
            if info.own_server and not env.get(info.base_url_env):
                # A server of your own: its address does not change what the batch costs.
                env[info.base_url_env] = "http://dry-run.invalid/v1"
    return env


def _dry_run(
    spec: BatchSpec, plan: list[Any], *, as_json: bool, max_cost: float | None = None
) -> None:
    from interview_cli.session.store import SessionStore
    from interview_cli.simulation.batch import existing_status
    from interview_cli.simulation.estimate import estimate_batch
    from interview_cli.simulation.reuse import free_dir_hint, stale_sessions, stale_text
    from interview_cli.ui.batch import estimate_table

    store = SessionStore(spec.out)
    stale, _ = stale_sessions(spec, plan)
    if stale:
        # Estimated as a run elsewhere would go: those interviews are run again, not reused.
        print_warning(
            f"{stale_text(spec, stale)}: estimated as new interviews; the run itself needs "
            f"another output directory ({free_dir_hint(spec)})"
        )
    rerun = {sid for sid, _ in stale}
    skipped = sum(
        1 for p in plan if p.session_id not in rerun and existing_status(store, p) == "completed"
    )
    record = estimate_batch(
        spec.settings,
        to_run=len(plan) - skipped,
        skipped=skipped,
        max_turns=spec.max_turns,
        canonical_slots=spec.canonical_slots,
    )
    record = {
        "dry_run": True,
        "out": str(spec.out),
        "policy": spec.policy,
        "interviews": [p.session_id for p in plan],
        "interviewer": spec.settings.describe(),
        "respondent": spec.settings.respondent.label,
        **record,
        **({"max_cost_usd": max_cost} if max_cost is not None else {}),
    }
    if as_json:
        print_json(record)
        return
    console = stdout_console()
    console.print(estimate_table(record))
    console.print(
        f"Interviewer: {record['interviewer']} · respondent: {record['respondent']} · "
        f"output: {spec.out}",
        highlight=False,
        markup=False,
        soft_wrap=True,  # a path is never broken in two
    )


def _run(
    spec: BatchSpec, plan: list[Any], *, concurrency: int, as_json: bool, budget: Any = None
) -> BatchResult:
    import asyncio

    from rich.markup import escape

    from interview_cli.config.plurals import plural
    from interview_cli.llm.factory import build_llm
    from interview_cli.simulation.batch import OptionalModels, run_batch
    from interview_cli.simulation.respondents.respondent import make_respondent
    from interview_cli.ui.batch import ProgressView

    llm = build_llm(spec.settings, seed=spec.seed, budget=budget)
    respondent = make_respondent(spec.settings, llm, seed=spec.seed)
    embedder, parser = optional_models(embeddings=spec.embeddings, discourse=spec.discourse_hints)
    models = OptionalModels(embedder=embedder, frame_parser=parser)
    # With --json, stdout is for the JSON document: progress goes to stderr.
    console = stderr_console() if as_json else stdout_console()
    if not as_json:
        console.print(
            f"[bold]{plural(len(plan), 'interview')}[/bold] · {escape(spec.concept.value.name)} · "
            f"{escape(spec.methodology.value.name)} · policy {spec.policy} · up to "
            f"{spec.max_turns} turns · {concurrency} at a time\n"
            f"Interviewer: {escape(spec.settings.describe())} · respondent: "
            f"{escape(respondent.label)} · output: {escape(str(spec.out))}",
            highlight=False,
            soft_wrap=True,  # a path is never broken in two
        )

    async def go() -> BatchResult:
        try:
            with ProgressView(
                _progress_console(console), total=len(plan), max_turns=spec.max_turns
            ) as view:
                return await run_batch(
                    spec,
                    llm=llm,
                    respondent=respondent,
                    concurrency=concurrency,
                    observer=view,
                    plan=plan,
                    models=models,
                    budget=budget,
                )
        finally:
            closer = getattr(llm, "aclose", None)
            if closer is not None:
                try:
                    await closer()
                except Exception:  # closing clients must never hide the batch's outcome
                    pass

    return asyncio.run(go())


def _progress_console(console: Console) -> Console:
    """Where the progress is drawn: where a person watches. When stdout goes to a file or a
    pipe and stderr is a terminal, the bars go there (as with --json), and the file gets the
    header and the summary."""
    if console.is_terminal:
        return console
    watched = stderr_console()
    return watched if watched.is_terminal else console


def register(app: typer.Typer) -> None:
    app.command("batch", no_args_is_help=True)(batch)
