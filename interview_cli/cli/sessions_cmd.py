"""`interview sessions`: list session files; `interview sessions show ID`: a transcript;
`interview sessions rate ID N`: the respondent's rating of the closing summary, given later."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from interview_cli.cli.common import JsonOption, print_json, print_warning, stdout_console
from interview_cli.cli.run import SessionsDirOption

# No help= here: the callback's docstring (with its examples) is the group's help.
sessions_app = typer.Typer(
    no_args_is_help=False,
    invoke_without_command=True,
)


STATUSES = ("active", "paused", "completed", "failed")
# Wide enough for every column of any session listing: piped output is never cut to fit.
PIPED_WIDTH = 1000


def _summary(session: Any, path: str, folder: str = "") -> dict[str, Any]:
    return {
        "id": session.id,
        "folder": folder,
        "concept": session.concept.id,
        "methodology": session.methodology.name,
        "status": session.status,
        "turns": session.turn_count,
        "updated": session.updated_at,
        # None when a model without a price was called: unknown, not 0 (``unpriced`` says
        # which; ``priced_cost_usd`` is what the priced calls cost).
        "cost_usd": None if session.usage.cost_usd is None else round(session.usage.cost_usd, 6),
        **(
            {
                "priced_cost_usd": round(session.usage.priced_cost_usd, 6),
                "unpriced": list(session.usage.unpriced),
            }
            if session.usage.unpriced
            else {}
        ),
        "termination_reason": session.termination_reason,
        "phase": _phase(session),
        "coverage": _coverage(session),
        "participant": session.participant.id if session.participant else None,
        "participant_meta": dict(session.participant.meta) if session.participant else {},
        # A fork (`interview fork`): the session it repeats and the turn it leaves it after.
        "fork_of": (
            {"session": session.fork.session_id, "turn": session.fork.turn}
            if session.fork
            else None
        ),
        "path": path,
    }


def _phase(session: Any) -> str:
    """The interview's phase: that of its last decision (early, mid, late), "opening" before
    any answer was processed."""
    decided = [t.decision for t in session.completed_turns if t.decision is not None]
    return decided[-1].phase if decided and decided[-1].phase else "opening"


def _coverage(session: Any) -> dict[str, Any] | None:
    """A concept test's stimulus elements: the share covered, which ones and which not
    (None: the concept has no stimulus elements)."""
    from interview_cli.analysis.report.elements import shown_coverage

    coverage = shown_coverage(session)
    if coverage is None:
        return None
    record = coverage.to_dict()
    return {k: record[k] for k in ("ratio", "threshold", "covered", "missing")}


@sessions_app.callback()
def list_sessions(
    ctx: typer.Context,
    status: Annotated[
        list[str] | None,
        typer.Option(
            "--status",
            "-s",
            metavar="STATUS",
            help="Only sessions with this status: active, paused, completed or failed "
            "(repeat the option for several).",
            show_default=False,
        ),
    ] = None,
    sessions_dir: SessionsDirOption = None,
    as_json: JsonOption = False,
) -> None:
    """List interview sessions (subfolders such as a batch's included), newest first; `show`
    prints one as a transcript.

    **Examples**

    * `interview sessions`
    * `interview sessions --status paused` (what is left to resume)
    * `interview sessions -s completed -s failed --json | jq '.[].path'`
    * `interview sessions show ID`
    """
    if ctx.invoked_subcommand is not None:
        ctx.obj = sessions_dir
        return
    from interview_cli.config.files import default_sessions_dir, session_files
    from interview_cli.errors import UsageError

    wanted = set(status or STATUSES)
    unknown = sorted(wanted - set(STATUSES))
    if unknown:
        raise UsageError(
            f"--status {unknown[0]!r} is not a session status; choose from {', '.join(STATUSES)}"
        )
    # As SessionStore(sessions_dir).directory; the store (and the session model, the core and
    # networkx behind it) is loaded only when there are files to read.
    directory = (sessions_dir or default_sessions_dir()).expanduser()
    if directory.exists() and not directory.is_dir():
        raise UsageError(
            f"{directory}: is a file, not a folder of sessions; name the folder that holds "
            "them (--sessions-dir or INTERVIEW_SESSIONS_DIR)"
        )
    files = session_files(directory) if directory.is_dir() else []
    rows = [r for r in _discover(directory, files) if r["status"] in wanted]
    rows.sort(key=lambda r: r["updated"] or "", reverse=True)
    if as_json:
        print_json(rows)
        return
    console = stdout_console()
    if not rows:
        which = "" if status is None else f" with status {', '.join(sorted(wanted))}"
        console.print(
            f"No sessions{which} in {directory}. Start one with `interview run -c CONCEPT`.",
            markup=False,
            soft_wrap=True,
        )
        return
    from interview_cli.ui.tables import sessions_table

    if console.is_terminal:
        console.print(sessions_table(rows, directory=str(directory), width=console.width))
        return
    # A pipe or a file has no width to fit: it gets every column, each line as long as it
    # needs, and the folder on a line of its own.
    table = sessions_table(rows, directory=str(directory), width=PIPED_WIDTH)
    console.print(table.title, soft_wrap=True)
    table.title = None
    wide = Console(width=PIPED_WIDTH, highlight=False)
    Console(width=wide.measure(table).maximum, highlight=False).print(table)


def _discover(directory: Path, files: list[Path]) -> list[dict[str, Any]]:
    """The session ``files`` under the sessions directory, as ``report DIR`` finds them. A file
    in a subfolder that is not a session (a batch's summary JSON) is passed over quietly."""
    if not files:
        return []
    from interview_cli.analysis.sources import looks_like_session_file, read_session
    from interview_cli.errors import SessionFileError

    rows: list[dict[str, Any]] = []
    for path in files:
        folder = str(path.parent.relative_to(directory))
        folder = "" if folder == "." else folder
        try:
            session = read_session(path)
        except SessionFileError as exc:
            try:
                quiet = bool(folder) and not looks_like_session_file(path)
            except OSError:
                quiet = False
            if not quiet:
                print_warning(f"skipped {exc.message}")
            continue
        rows.append(_summary(session, str(path), folder))
    return rows


def _store(ctx: typer.Context, sessions_dir: Path | None) -> Any:
    """The sessions directory a subcommand reads: `interview sessions --sessions-dir D show
    ID` puts D first, over the environment variable this command's own option would read."""
    from interview_cli.session.store import SessionStore

    source = ctx.get_parameter_source("sessions_dir")
    typed = source is not None and source.name == "COMMANDLINE"
    return SessionStore(sessions_dir if typed or ctx.obj is None else ctx.obj)


@sessions_app.command("show")
def show(
    ctx: typer.Context,
    session_ref: Annotated[str, typer.Argument(metavar="ID|FILE", help="Session id or file path.")],
    sessions_dir: SessionsDirOption = None,
    as_json: JsonOption = False,
) -> None:
    """Print a session as a transcript: questions, answers, what was extracted, and the
    question report card (each question that fell short, and why)."""
    from interview_cli.ui.interview import transcript

    session = _store(ctx, sessions_dir).load(session_ref)
    if as_json:
        print_json(session.model_dump(mode="json"))
        return
    transcript(session, stdout_console())


@sessions_app.command("rate")
def rate(
    ctx: typer.Context,
    session_ref: Annotated[str, typer.Argument(metavar="ID|FILE", help="Session id or file path.")],
    rating: Annotated[
        int,
        typer.Argument(
            min=1, max=4, metavar="N", help="1 = not at all accurate ... 4 = very accurate."
        ),
    ],
    sessions_dir: SessionsDirOption = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace a rating the respondent already gave.")
    ] = False,
) -> None:
    """Record the respondent's rating (1-4) of a finished interview's closing summary ("What I
    understood"), when it was not given at the close: answers typed through a pipe or a
    script end before that prompt, and the summary is kept unrated.

    Example: interview sessions rate coffee_jtbd-20261204-160323-4b80 3
    """
    from interview_cli.errors import UsageError
    from interview_cli.session.store import SessionStore

    path = _store(ctx, sessions_dir).resolve_for_writing(session_ref)
    store = SessionStore(path.parent)
    with store.lock(path.stem):
        session = store.load(str(path))
        closing = session.closing
        if path.stem != session.id:
            raise UsageError(f"{path}: the file name is not its session's id ({session.id})")
        if session.status != "completed" or closing is None or not closing.summary:
            raise UsageError(
                f"session {session.id} has no closing summary to rate (status: "
                f"{session.status}); a summary is rated once the interview has closed"
            )
        if closing.rating is not None and not force:
            raise UsageError(
                f"session {session.id}'s summary is already rated {closing.rating}; add --force "
                "to replace that rating"
            )
        closing.rating = rating
        store.save(session)
    stdout_console().print(f"Recorded: the summary of {session.id} rated {rating} of 4.")


def register(app: typer.Typer) -> None:
    app.add_typer(sessions_app, name="sessions")
