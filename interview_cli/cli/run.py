"""`interview run`: conduct a live interview in the terminal (or from piped answers).

Thin by design: options are parsed here, the session is conducted by
``pipeline.runner.Interview`` and drawn by ``ui``. Heavy imports happen inside the command.
"""

from __future__ import annotations

import contextlib
import re
import sys
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
    keep_unrecorded_answer,
    settle,
    signals_as_interrupts,
)
from interview_cli.cli.spending import BaseUrlOption, MaxCostOption, ModelOption

if TYPE_CHECKING:
    from rich.console import Console

    from interview_cli.pipeline.runner import Interview
    from interview_cli.store import SessionStore

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

PAUSE_HINT = "Paused. Resume with: interview run --resume {id}"


def clean_answer(raw: str) -> str:
    """Strip terminal escape sequences and other control characters (NULs, bells) but keep
    tabs, newlines, every script and emoji (with their zero-width joiners): the same cleaning
    as model text gets at the LLM boundary."""
    from interview_cli.llm.boundary import strip_controls

    return strip_controls(raw).strip()


def decode_answer(raw: bytes | str) -> tuple[str, bool]:
    """A line of input as text, and whether it held bytes that are not UTF-8 (each becomes
    U+FFFD). A ``str`` from a text stream carries such bytes as lone surrogates
    (``surrogateescape``), which cleaning would silently drop: they are replaced too."""
    if isinstance(raw, bytes):
        text = raw.decode("utf-8", errors="replace")
        return text, text != raw.decode("utf-8", errors="ignore")
    if any("\udc80" <= ch <= "\udcff" for ch in raw):
        data = raw.encode("utf-8", errors="surrogateescape")
        return data.decode("utf-8", errors="replace"), True
    return raw, False


NOT_UTF8_NOTICE = (
    "your answer held bytes that are not UTF-8 text; each was replaced by \ufffd "
    "(set the terminal or input file to UTF-8)"
)


def _enable_line_editing() -> bool:
    """Load readline, which gives ``input()`` arrow keys, editing and history; without it an
    arrow key types "^[[D" into the answer. It is missing on some platforms (Windows)."""
    try:
        import readline  # noqa: F401
    except ImportError:
        return False
    return True


def _readline_prompt(console: Console, prompt: str) -> str:
    """``prompt`` styled for ``input()``: readline must be told which bytes take no columns
    (``\\001``…``\\002`` around each escape code), or editing redraws over the prompt."""
    with console.capture() as captured:
        console.print(Text(prompt, style="bold green"), end="")
    return re.sub(r"(\x1b\[[0-9;]*m)", "\x01\\1\x02", captured.get())


class AnswerSource:
    """One answer per call: the terminal when interactive, else one line of stdin each."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.last: str | None = None  # the last line read
        self.interactive = sys.stdin.isatty() and console.is_terminal
        if self.interactive:
            _enable_line_editing()
            # input() decodes with the stream's error handler; "strict" (most UTF-8 locales)
            # would end the interview on one stray byte. Kept as surrogates, decode_answer
            # turns them into U+FFFD with a notice.
            reconfigure = getattr(sys.stdin, "reconfigure", None)
            if reconfigure is not None:
                try:
                    reconfigure(errors="surrogateescape")
                except (ValueError, OSError):
                    pass

    def read(self, prompt: str = "you › ", *, allow_empty: bool = False) -> str | None:
        """The next non-empty line (or any line with ``allow_empty``), None at end of input."""
        from interview_cli.cli.common import print_warning
        from interview_cli.llm.boundary import answer_notice

        while True:
            if self.interactive:
                try:
                    line = input(_readline_prompt(self.console, prompt))
                except EOFError:
                    self.console.line()  # Ctrl-D leaves the cursor on the prompt line
                    return None
                except KeyboardInterrupt:
                    self.console.line()  # so "Paused…" does not follow "^C" on the prompt line
                    raise
            else:
                # Bytes, not text: a stream decoder would fail or hide bytes that are not UTF-8.
                stream = getattr(sys.stdin, "buffer", sys.stdin)
                line = stream.readline()
                if not line:
                    return None
            line, replaced = decode_answer(line)
            if replaced:
                print_warning(NOT_UTF8_NOTICE)
            text = clean_answer(line)
            self.last = text  # before the echo: an interruption may come while it prints
            notice = answer_notice(len(text))
            if notice:
                print_warning(notice)
            if text or allow_empty:
                if text and not self.interactive:
                    shown = text if len(text) <= 400 else text[:400] + "…"
                    # Text, not markup: an answer like "I like [/] brackets" is kept as typed.
                    self.console.print(Text.assemble((prompt, "bold green"), shown))
                return text


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
            help="offline | anthropic | openai | kimi | deepseek | openai-compatible for every "
            "LLM client (default: a provider whose API key is set, else offline).",
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
      http://localhost:11434/v1 --model llama3.1:8b --max-cost 0.50`
    """
    if debug:
        set_debug(ctx, True)
    from interview_cli.config.language import check_language
    from interview_cli.store import SessionStore

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
    from interview_cli.store import ID_PATTERN, SessionStore

    if not resume:
        if not concept:
            raise UsageError(
                "say what to study: --concept ID (see `interview concepts`), or --resume ID"
            )
        return None, "", store
    if concept or methodology:
        raise UsageError("--resume continues a session as it was; drop --concept/--methodology")
    path = store.resolve(resume)
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
    from interview_cli.cli.spending import open_budget, with_server
    from interview_cli.errors import UsageError
    from interview_cli.llm.factory import build_llm
    from interview_cli.llm.settings import CLIENTS, resolve_llm_settings
    from interview_cli.pipeline.runner import Interview
    from interview_cli.pipeline.setup import new_session
    from interview_cli.store import new_session_id

    if session is not None:
        if session.status == "completed":
            raise UsageError(
                f"session {session.id} is already completed; see it with "
                f"`interview sessions show {session.id}`"
            )
        recorded = {
            name: {"provider": choice.provider, "model": choice.model}
            for name, choice in session.settings.clients.items()
            if name in ("extraction", "scoring", "generation")
        }
        for name, override in per_client.items():
            recorded[name] = override
        chosen = with_server({} if provider else recorded, CLIENTS, base_url=base_url, model=model)
        settings = resolve_llm_settings(provider, per_client=chosen or None)
        seed = session.settings.seed
    else:
        chosen = with_server(per_client, CLIENTS, base_url=base_url, model=model)
        settings = resolve_llm_settings(provider, per_client=chosen)
    # --max-cost counts what a resumed session spent before.
    budget = open_budget(
        max_cost,
        settings,
        ("extraction", "scoring", "generation"),
        already_spent=session.usage.cost_usd if session is not None else 0.0,
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
        _loop(interview, console=console, store=store, llm=llm, debug=debug)


def _print_llm_notices(settings: Any, language: str | None) -> None:
    """One warning each for LLM settings that were given but cannot apply (offline clients),
    printed as `batch` prints them."""
    from interview_cli.cli.common import print_warning
    from interview_cli.llm.settings import language_notice

    for line in [*settings.notices, language_notice(settings, language)]:
        if line:
            print_warning(line)


def _loop(
    interview: Interview, *, console: Console, store: SessionStore, llm: Any, debug: bool
) -> None:
    import asyncio

    from interview_cli.cli import run_commands as commands
    from interview_cli.errors import FileSystemError, LLMError
    from interview_cli.llm.spend import SpendCapReached
    from interview_cli.pipeline.consent import needs_consent
    from interview_cli.pipeline.runner import ENDED_BY_MODERATOR, Hooks
    from interview_cli.ui import interview as views
    from interview_cli.ui.live import Screen

    screen = Screen(console)
    hooks = Hooks(
        on_stage=screen.on_stage,
        on_token=screen.on_token,
        on_question_start=screen.on_question_start,
    )
    source = AnswerSource(console)
    session = interview.session
    levels = {n.name: n.level for n in interview.methodology.ontology.nodes}

    def pause() -> None:
        interview.set_status("paused")  # first: after a SIGHUP the terminal may be gone
        screen.close()
        console.print(PAUSE_HINT.format(id=session.id), markup=False, soft_wrap=True)

    before = len(session.turns)  # turns when the last answer was read
    with asyncio.Runner() as arun:
        try:
            if needs_consent(session, interview.concept.consent):
                agreed = commands.ask_consent(interview, console=console, source=source)
                if agreed is None:
                    pause()
                    return
                if not agreed:
                    console.print("Thank you all the same. Nothing more will be asked.")
                    console.print(views.saved_to(str(store.path_for(session.id))), soft_wrap=True)
                    return
            screen.set_turn(len(session.turns) + 1)
            arun.run(interview.ensure_question(hooks))
            screen.done()
            while not interview.finished:
                question = session.pending_question
                if question is None:
                    interview.complete()
                    break
                screen.set_turn(len(session.turns) + 1)
                if screen.streamed is not question:
                    screen.show_question(question)
                screen.streamed = None
                before = len(session.turns)
                source.last = None
                answer = source.read()
                if answer is None:
                    pause()
                    return
                command = " ".join(answer.strip().lower().split())
                if commands.is_moderator_command(answer):
                    commands.run_moderator_command(
                        answer, interview, console=console, arun=arun, hooks=hooks, screen=screen
                    )
                    continue
                declined = command == commands.PASS
                if (
                    command.startswith("/")
                    and not declined
                    and (" " not in command or command == "/why full")
                ):
                    if command == "/quit":
                        pause()
                        return
                    if command == "/end":
                        _finish(interview, console, source, reason=ENDED_BY_MODERATOR)
                        break
                    if command in ("/why", "/why full"):
                        last = interview.session.completed_turns
                        full = command == "/why full"
                        console.print(views.why_view(last[-1] if last else None, full=full))
                    elif command == "/graph":
                        console.print(views.graph_tree(session.graph, level_of=levels))
                    elif command == "/help":
                        console.print(views.HELP_TEXT, highlight=False, markup=False)
                    else:
                        console.print(
                            f"Unknown command {answer!r}; /help lists them.", markup=False
                        )
                    screen.streamed = question  # do not print the question again
                    continue
                if question.kind == "closing":
                    arun.run(interview.record_closing_answer("" if declined else answer))
                    _finish(interview, console, source, reason=None)
                    break
                screen.set_turn(len(session.turns) + 2)  # the question this answer leads to
                result = arun.run(
                    interview.submit("" if declined else answer, hooks, declined=declined)
                )
                screen.done()
                console.print(views.turn_summary(result.turn, width=console.width))
                if result.turn.safety is not None:
                    commands.show_safety(result.turn.safety, console)
                    if result.turn.safety.action == "pause":
                        pause()
                        return
                if debug:
                    console.print(views.signals_table(result.turn.signals, title="Global signals"))
                    console.print(views.candidates_table(result.turn.candidates))
                    slots = views.slot_discovery_view(result.turn.slot_discovery)
                    if slots is not None:
                        console.print(slots)
        except (KeyboardInterrupt, asyncio.CancelledError):  # Ctrl-C, SIGTERM, SIGHUP
            # (cli.interrupts). CancelledError: asyncio.Runner reports an interruption that
            # way when it lands just as a turn starts (before the runner counts it).
            settle(arun)
            keep_unrecorded_answer(interview, source.last, turns_before=before)
            pause()
            raise typer.Exit(interrupt_exit_code()) from None
        except FileSystemError as exc:
            # The session file still holds the last save (writes are atomic): a runtime
            # failure (exit 1), not bad input.
            screen.close()
            raise FileSystemError(
                f"{exc.message} — session {session.id} is kept as last saved; continue with "
                f"`interview run --resume {session.id}`",
                exit_code=1,
                errno=exc.errno,
            ) from None
        except SpendCapReached as exc:  # before a call that could pass --max-cost
            screen.close()
            interview.set_status("paused")
            raise SpendCapReached(
                f"{exc.message} — session {session.id} is paused; to go on, resume it with a "
                f"higher cap: `interview run --resume {session.id} --max-cost USD`",
                spent=exc.spent,
                cap=exc.cap,
            ) from None
        except LLMError as exc:
            screen.close()
            interview.session.errors.append(str(exc))
            interview.set_status("failed")
            raise LLMError(
                f"{exc.message} — session {session.id} is saved; continue with "
                f"`interview run --resume {session.id}`",
                provider=exc.provider,
                model=exc.model,
                task=exc.task,
                cause=exc.cause,
            ) from None
        finally:
            screen.close()
            closer = getattr(llm, "aclose", None)
            if closer is not None:
                try:
                    arun.run(closer())
                except Exception:  # closing clients must never hide the real outcome
                    pass
    path = store.path_for(session.id)
    console.print(views.end_screen(session, stats=interview.stats()))
    console.print(views.saved_to(str(path)), soft_wrap=True)


def _finish(
    interview: Interview, console: Console, source: AnswerSource, *, reason: str | None
) -> None:
    """Show what was learned, ask for an accuracy rating if enabled, mark completed."""
    from rich.panel import Panel

    summary = interview.learned_summary()
    if summary and interview.session.settings.ask_summary_rating:
        panel = Panel(
            Text(summary), title="What I understood", title_align="left", border_style="magenta"
        )
        console.print(panel)
        console.print("How accurate is this summary? 1 = not at all … 4 = very (Enter to skip)")
        value = source.read(prompt="rating › ", allow_empty=True)
        rating = None
        if value and value.strip() in {"1", "2", "3", "4"}:
            rating = int(value.strip())
        elif value:
            console.print("[dim]No rating recorded (expected 1-4).[/dim]")
        interview.record_rating(rating)
    interview.complete(reason)
    console.print("[bold]Thank you for your time.[/bold]")


def register(app: typer.Typer) -> None:
    app.command("run", no_args_is_help=False)(run)
