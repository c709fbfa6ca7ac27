"""`interview run`: conduct a live interview in the terminal (or from piped answers).

Thin by design: options are parsed here, the session is conducted by
``pipeline.runner.Interview`` and drawn by ``ui``. Heavy imports happen inside the command.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text  # already loaded by cli.common: free here

from interview_cli.cli.common import (
    DiscourseHintsOption,
    EmbeddingsOption,
    LibraryOption,
    open_library,
    optional_models,
    set_debug,
    stdout_console,
)
from interview_cli.cli.interrupts import exit_code as interrupt_exit_code
from interview_cli.cli.interrupts import (
    signals_as_interrupts,
)
from interview_cli.cli.spending import BaseUrlOption, MaxCostOption, ModelOption

if TYPE_CHECKING:
    from rich.console import Console

    from interview_cli.session.store import SessionStore

SessionsDirOption = Annotated[
    Path | None,
    typer.Option(
        "--sessions-dir",
        metavar="DIR",
        envvar="INTERVIEW_SESSIONS_DIR",
        help="Where session files live (default: ./sessions).",
        show_default=False,
    ),
]


def _per_client(
    extraction: str | None,
    scoring: str | None,
    generation: str | None,
    models: dict[str, str | None],
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, provider in (
        ("extraction", extraction),
        ("scoring", scoring),
        ("generation", generation),
    ):
        entry: dict[str, Any] = {}
        if provider:
            entry["provider"] = provider
        if models.get(name):
            entry["model"] = models[name]
        if entry:
            out[name] = entry
    return out


def run(
    ctx: typer.Context,
    concept: Annotated[
        str | None,
        typer.Option(
            "--concept", "-c", help="Concept id (see `interview concepts`) or a YAML path."
        ),
    ] = None,
    methodology: Annotated[
        str | None,
        typer.Option(
            "--methodology", "-m", help="Methodology name or YAML path (default: the concept's)."
        ),
    ] = None,
    provider: Annotated[
        str | None,
        typer.Option(
            "--provider",
            "-p",
            help="offline, or a provider of the registry (`interview providers` lists them), "
            "for every LLM client (default: a provider whose API key is set, else offline).",
        ),
    ] = None,
    extraction_provider: Annotated[
        str | None, typer.Option(help="Provider for extraction only.", show_default=False)
    ] = None,
    scoring_provider: Annotated[
        str | None, typer.Option(help="Provider for answer scoring only.", show_default=False)
    ] = None,
    generation_provider: Annotated[
        str | None, typer.Option(help="Provider for question writing only.", show_default=False)
    ] = None,
    extraction_model: Annotated[str | None, typer.Option(show_default=False, hidden=True)] = None,
    scoring_model: Annotated[str | None, typer.Option(show_default=False, hidden=True)] = None,
    generation_model: Annotated[str | None, typer.Option(show_default=False, hidden=True)] = None,
    model: ModelOption = None,
    base_url: BaseUrlOption = None,
    max_cost: MaxCostOption = None,
    max_turns: Annotated[
        int, typer.Option("--max-turns", min=2, max=200, help="Hard limit of answered turns.")
    ] = 15,
    language: Annotated[
        str | None,
        typer.Option(
            help="Study language for questions (default: the respondent's).", show_default=False
        ),
    ] = None,
    resume: Annotated[
        str | None,
        typer.Option(
            "--resume", "-r", metavar="ID", help="Continue a paused session.", show_default=False
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed for the offline provider's choices.")] = 0,
    rating: Annotated[
        bool,
        typer.Option(
            "--rating/--no-rating",
            help="At the end, ask the respondent to rate the summary of what was learned (1-4).",
        ),
    ] = True,
    canonical_slots: Annotated[
        bool,
        typer.Option(
            "--canonical-slots/--no-canonical-slots",
            help="Dual graph: group paraphrased concepts into canonical slots (new sessions).",
        ),
    ] = True,
    discourse_hints: DiscourseHintsOption = False,
    embeddings: EmbeddingsOption = False,
    participant: Annotated[
        str | None,
        typer.Option(
            "--participant",
            metavar="ID",
            help="Who is interviewed (your participant id; stored in the session and carried "
            "into sessions, report and exports).",
            show_default=False,
        ),
    ] = None,
    meta: Annotated[
        list[str] | None,
        typer.Option(
            "--meta",
            metavar="KEY=VALUE",
            help="A fact about the participant (repeatable), e.g. --meta age=34 --meta "
            "segment=commuter; `report --where KEY=VALUE` selects by it.",
            show_default=False,
        ),
    ] = None,
    sessions_dir: SessionsDirOption = None,
    library: LibraryOption = None,
    debug: Annotated[
        bool,
        typer.Option(
            "--debug", help="Show the signal and candidate tables every turn, and tracebacks."
        ),
    ] = False,
) -> None:
    """Conduct an interview: the tool asks, the respondent answers, the graph grows.

    Type answers at the prompt. In-interview commands: `/why` (why this question, in
    plain words; `/why full` adds every candidate's scores), `/graph` (what was learned, as
    a tree), `/quit` (pause), `/end` (close now), `/help`; the respondent's `/pass`
    (decline the question); the moderator's `/ask TEXT`, `/alt`, `/skip`, `/note TEXT`.
    Ctrl-C pauses safely; `--resume ID` continues. When stdin is not a terminal, each line is
    one answer and end of input pauses the session.

    **Examples**

    * `interview run --concept headphones_mec --provider offline`
    * `interview run -c coffee_jtbd --max-turns 12 --language de`
    * `interview run -c headphones_mec --participant P07 --meta age=34 --meta segment=commuter`
    * `interview run --resume headphones_mec-20261122-101500-ab12`
    * `printf 'I like the sound\\n/quit\\n' | interview run -c headphones_mec`
    * `interview run -c headphones_mec --provider openai-compatible --base-url
      http://localhost:11434/v1 --model llama3.1:8b` (your own model server: no key, no cost)
    * `interview run -c headphones_mec --provider anthropic --max-cost 0.50` (stop before
      spending more than $0.50)
    """
    if debug:
        set_debug(ctx, True)
    from interview_cli.config.language import check_language
    from interview_cli.session.store import SessionStore

    language = check_language(language, "--language")  # 'zzzzzz' would reach the prompt
    console = stdout_console()
    store = SessionStore(sessions_dir)
    models = {
        "extraction": extraction_model,
        "scoring": scoring_model,
        "generation": generation_model,
    }
    per_client = _per_client(extraction_provider, scoring_provider, generation_provider, models)
    from interview_cli.cli.participants import participant_record

    who = participant_record(participant, meta or [])
    if who is not None and resume:
        from interview_cli.errors import UsageError

        raise UsageError(
            "--participant and --meta are set when a session starts; --resume keeps its own"
        )

    with contextlib.ExitStack() as held, signals_as_interrupts():
        try:
            session, session_id, store = _open_resumed(resume, store, held, concept, methodology)
            conduct(
                console=console,
                store=store,
                lib=open_library(library),
                session=session,
                session_id=session_id,
                concept_ref=concept,
                methodology_ref=methodology,
                provider=provider,
                per_client=per_client,
                max_turns=max_turns,
                language=language,
                seed=seed,
                rating=rating,
                debug=debug,
                canonical_slots=canonical_slots,
                discourse_hints=discourse_hints,
                embeddings=embeddings,
                participant=who,
                base_url=base_url,
                model=model,
                max_cost=max_cost,
            )
        except KeyboardInterrupt:  # before the interview began, or while it was pausing
            raise typer.Exit(interrupt_exit_code()) from None


def _open_resumed(
    resume: str | None,
    store: SessionStore,
    held: contextlib.ExitStack,
    concept: str | None,
    methodology: str | None,
) -> tuple[Any, str, SessionStore]:
    """The session to continue, read after its lock is taken (held until ``held`` closes),
    with the store that saves it; (None, "", store) for a new interview."""
    from interview_cli.errors import SessionFileError, UsageError
    from interview_cli.session.store import ID_PATTERN, SessionStore

    if not resume:
        if not concept:
            raise UsageError(
                "say what to study: --concept ID (see `interview concepts`), or --resume ID"
            )
        return None, "", store
    if concept or methodology:
        raise UsageError("--resume continues a session as it was; drop --concept/--methodology")
    path = store.resolve_for_writing(resume)
    if path.parent.resolve() != store.directory.resolve():
        # A session file named by path is continued where it is: saves and the lock go to
        # its own directory, never to a copy in the sessions directory.
        store = SessionStore(path.parent)
    if path.suffix != ".json" or not ID_PATTERN.match(path.stem):
        raise SessionFileError(
            f"{path}: to be continued, a session file must be named <session id>.json"
        )
    # The lock first, then the file: what another writer saved before is what is read.
    held.enter_context(store.lock(path.stem))
    session = store.load(str(path))
    if session.id != path.stem:
        raise UsageError(
            f"{path} holds session {session.id}, so it must be named {session.id}.json "
            "to be continued (it is saved and locked under its id): rename it"
        )
    return session, session.id, store


def conduct(
    *,
    console: Console,
    store: SessionStore,
    lib: Any,
    session: Any,
    session_id: str,
    concept_ref: str | None,
    methodology_ref: str | None,
    provider: str | None,
    per_client: dict[str, Any],
    max_turns: int,
    language: str | None,
    seed: int,
    rating: bool,
    debug: bool,
    canonical_slots: bool = True,
    discourse_hints: bool = False,
    embeddings: bool = False,
    participant: Any = None,
    base_url: str | None = None,
    model: str | None = None,
    max_cost: float | None = None,
) -> None:
    from interview_cli.cli.spending import open_budget
    from interview_cli.llm.factory import build_llm
    from interview_cli.pipeline.runner import Interview
    from interview_cli.pipeline.setup import new_session
    from interview_cli.session.store import new_session_id

    settings = _llm_settings(session, provider, per_client, base_url=base_url, model=model)
    if session is not None:
        seed = session.settings.seed
    # --max-cost counts what a resumed session spent before.
    budget = open_budget(
        max_cost,
        settings,
        ("extraction", "scoring", "generation"),
        already_spent=session.usage.priced_cost_usd if session is not None else 0.0,
    )
    llm = build_llm(settings, seed=seed, budget=budget)
    # A resumed session keeps the dual-graph settings it started with.
    if session is not None:
        embeddings = session.settings.enable_embeddings
    embedder, parser = optional_models(
        embeddings=embeddings,
        discourse=session.settings.enable_discourse_hints if session else discourse_hints,
    )

    if session is None:
        concept_loaded = lib.concept(concept_ref)
        methodology_loaded = lib.methodology(methodology_ref or concept_loaded.value.methodology)
        session_id = new_session_id(concept_loaded.value.id)
    # A resumed session's lock is held already (taken before it was read).
    with store.lock(session_id) if session is None else contextlib.nullcontext():
        if session is None:
            session = new_session(
                session_id=session_id,
                concept=concept_loaded,
                methodology=methodology_loaded,
                settings=settings,
                max_turns=max_turns,
                language=language,
                seed=seed,
                ask_rating=rating,
                canonical_slots=canonical_slots,
                discourse_hints=discourse_hints,
                embeddings=embedder is not None,
            )
            session.participant = participant
            store.save(session)
        else:
            session.status = "active"
            store.save(session)
        interview = Interview(session, store=store, llm=llm, embedder=embedder, frame_parser=parser)
        _print_header(console, interview, settings)
        from interview_cli.cli.terminal import converse_in_terminal

        hint = _resume_hint(store, base_url)
        converse_in_terminal(
            interview, console=console, store=store, llm=llm, debug=debug, resume=hint
        )


def _llm_settings(
    session: Any,
    provider: str | None,
    per_client: dict[str, Any],
    *,
    base_url: str | None,
    model: str | None,
) -> Any:
    """The LLM settings of a new session, or of a resumed one: the providers and models it
    was recorded with unless flags say otherwise. A completed session is not resumed."""
    from interview_cli.cli.spending import with_server
    from interview_cli.errors import UsageError
    from interview_cli.llm.config_file import CLIENTS
    from interview_cli.llm.settings import resolve_llm_settings

    if session is None:
        chosen = with_server(per_client, CLIENTS, base_url=base_url, model=model)
        return resolve_llm_settings(provider, per_client=chosen)
    if session.status == "completed":
        raise UsageError(
            f"session {session.id} is already completed; see it with "
            f"`interview sessions show {session.id}`"
        )
    # Every client it recorded, the respondent's too: `run` does not use that one, but
    # resolving it without its model fails for a server that has no default model.
    recorded = {
        name: {"provider": choice.provider, "model": choice.model}
        for name, choice in session.settings.clients.items()
        if name in CLIENTS
    }
    for name, override in per_client.items():
        recorded[name] = override
    chosen = with_server({} if provider else recorded, CLIENTS, base_url=base_url, model=model)
    return resolve_llm_settings(provider, per_client=chosen or None)


def _resume_hint(store: SessionStore, base_url: str | None) -> Any:
    """What the printed resume command must add to the id to run as printed."""
    from interview_cli.cli.terminal import ResumeHint
    from interview_cli.config.files import default_sessions_dir

    default = store.directory.resolve() == default_sessions_dir().expanduser().resolve()
    return ResumeHint(sessions_dir=None if default else store.directory, base_url=base_url)


def _print_header(console: Console, interview: Any, settings: Any) -> None:
    """What the interview is, which LLM runs it, the notices about its settings, and the
    session id."""
    session = interview.session
    # Text, not markup: names and ids come from files and may hold "[...]".
    console.print(
        Text.assemble(
            (interview.concept.name, "bold"),
            f" · {interview.methodology.name} · up to {interview.max_turns} turns · "
            f"LLM: {settings.describe()}",
        )
    )
    _print_llm_notices(settings, session.settings.language or interview.concept.language)
    console.print(Text(f"Session {session.id} · type /help for commands", style="dim"))


def _print_llm_notices(settings: Any, language: str | None) -> None:
    """One warning each for LLM settings that were given but cannot apply (offline clients),
    printed as `batch` prints them."""
    from interview_cli.cli.common import print_warning
    from interview_cli.llm.settings import language_notice

    for line in [*settings.notices, language_notice(settings, language)]:
        if line:
            print_warning(line)


def register(app: typer.Typer) -> None:
    app.command("run", no_args_is_help=False)(run)
