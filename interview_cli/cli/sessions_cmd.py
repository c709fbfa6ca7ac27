"""`interview sessions`: list session files; `interview sessions show ID`: a transcript."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from interview_cli.cli.common import JsonOption, print_json, print_warning, stdout_console
from interview_cli.cli.run import SessionsDirOption

sessions_app = typer.Typer(
    help="List interview sessions, or show one as a transcript.",
    no_args_is_help=False,
    invoke_without_command=True,
)


def _summary(session: Any, path: str) -> dict[str, Any]:
    return {
        "id": session.id,
        "concept": session.concept.id,
        "methodology": session.methodology.name,
        "status": session.status,
        "turns": session.turn_count,
        "updated": session.updated_at,
        "cost_usd": round(session.usage.cost_usd, 6),
        "termination_reason": session.termination_reason,
        "participant": session.participant.id if session.participant else None,
        "participant_meta": dict(session.participant.meta) if session.participant else {},
        "path": path,
    }


@sessions_app.callback()
def list_sessions(
    ctx: typer.Context,
    sessions_dir: SessionsDirOption = None,
    as_json: JsonOption = False,
) -> None:
    """List the sessions in the sessions directory (newest first).

    **Examples**

    * `interview sessions`
    * `interview sessions --json | jq '.[] | select(.status == "paused") | .id'`
    * `interview sessions show ID`
    """
    if ctx.invoked_subcommand is not None:
        ctx.obj = sessions_dir
        return
    from interview_cli.errors import SessionFileError
    from interview_cli.store import SessionStore

    store = SessionStore(sessions_dir)
    rows: list[dict[str, Any]] = []
    for path in store.list_paths():
        try:
            session = store.load(str(path))
        except SessionFileError as exc:
            print_warning(f"skipped {exc.message}")
            continue
        rows.append(_summary(session, str(path)))
    rows.sort(key=lambda r: r["updated"] or "", reverse=True)
    if as_json:
        print_json(rows)
        return
    from interview_cli.ui.tables import sessions_table

    console = stdout_console()
    if not rows:
        console.print(
            f"No sessions in {store.directory}. Start one with `interview run -c CONCEPT`.",
            markup=False,
            soft_wrap=True,
        )
        return
    console.print(sessions_table(rows, directory=str(store.directory), width=console.width))


@sessions_app.command("show")
def show(
    ctx: typer.Context,
    session_ref: Annotated[str, typer.Argument(metavar="ID|FILE", help="Session id or file path.")],
    sessions_dir: SessionsDirOption = None,
    as_json: JsonOption = False,
) -> None:
    """Print a session as a transcript: questions, answers, what was extracted."""
    from interview_cli.store import SessionStore
    from interview_cli.ui.interview import transcript

    store = SessionStore(sessions_dir or ctx.obj)
    session = store.load(session_ref)
    if as_json:
        print_json(session.model_dump(mode="json"))
        return
    transcript(session, stdout_console())


def register(app: typer.Typer) -> None:
    app.add_typer(sessions_app, name="sessions")
