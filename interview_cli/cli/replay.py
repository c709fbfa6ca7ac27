"""`interview replay FILE`: walk a session's turns, verify its decisions, or try other weights.

Thin: options are parsed here; the work is in ``analysis`` (walk, verify, whatif) and the
drawing in ``ui.replay``. Read-only: a session file is never written or locked by a replay.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from interview_cli.cli.common import (
    JsonOption,
    LibraryOption,
    open_library,
    print_json,
    stdout_console,
)
from interview_cli.cli.run import SessionsDirOption

if TYPE_CHECKING:
    from rich.console import Console

    from interview_cli.session.schema import SessionFile, TurnRecord

PAGER_HELP = "Enter/n next · p previous · d details · a number jumps to that turn · q quits"


def page_turns(
    console: Console,
    turns: Sequence[TurnRecord],
    read: Callable[[str], str],
    *,
    start: int = 0,
) -> None:
    """Show one turn at a time, each page within the screen's height, and move with keys (a
    line of input each: n, p, N, q); d shows the turn in full (signals, every candidate)."""
    from interview_cli.ui.replay import turn_page, turn_view

    numbers = [t.turn_number for t in turns]
    index = min(max(start, 0), len(turns) - 1)
    details = False
    while True:
        console.clear()
        if details:
            console.print(turn_view(turns[index], total=len(turns)))
        else:
            print_within_height(console, turn_page(turns[index], total=len(turns)))
        details = False
        try:
            key = read(f"[dim]{PAGER_HELP}[/] › ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            console.line()  # else the shell's prompt follows on the pager's prompt line
            return
        if key in ("q", "quit", "exit"):
            return
        if key == "d":
            details = True
        elif key in ("", "n", "j", " "):
            if index == len(turns) - 1:
                return
            index += 1
        elif key in ("p", "k", "b"):
            index = max(index - 1, 0)
        elif key.isdigit() and int(key) in numbers:
            index = numbers.index(int(key))


def print_within_height(console: Console, view: Any) -> None:
    """Print ``view``, cut to the screen's height less the prompt's line (the rest is one key
    away: d), so that the top of a page never scrolls out of sight."""
    from rich.segment import Segments

    lines = console.render_lines(view, console.options, pad=False, new_lines=True)
    room = console.height - 1
    if len(lines) <= room:
        console.print(view)
        return
    for line in lines[: room - 1]:
        console.print(Segments(line), end="")
    console.print(f"… {len(lines) - room + 1} more lines: d shows the whole turn", style="dim")


def replay(
    session_ref: Annotated[
        str, typer.Argument(metavar="FILE|ID", help="A session file, or a session id.")
    ],
    turn: Annotated[
        int | None,
        typer.Option("--turn", "-t", min=1, help="Show only this turn.", show_default=False),
    ] = None,
    verify: Annotated[
        bool,
        typer.Option(
            "--verify",
            help="Re-run the core over the recorded model outputs and check every decision; "
            "exit 1 with the first differences if any.",
        ),
    ] = False,
    methodology: Annotated[
        str | None,
        typer.Option(
            "--methodology",
            "-m",
            metavar="NAME|FILE.yaml",
            help="What-if: re-decide every turn with this methodology's weights.",
            show_default=False,
        ),
    ] = None,
    all_rows: Annotated[
        bool, typer.Option("--all", help="What-if: list every turn, not only the changed ones.")
    ] = False,
    max_diffs: Annotated[
        int, typer.Option("--max-diffs", min=1, help="Verify: how many differences to show.")
    ] = 12,
    no_pager: Annotated[
        bool, typer.Option("--no-pager", help="Print every turn at once, even in a terminal.")
    ] = False,
    as_json: JsonOption = False,
    sessions_dir: SessionsDirOption = None,
    library: LibraryOption = None,
) -> None:
    """Walk a recorded interview turn by turn; check it (--verify) or try other weights.

    Each turn shows the question and why it was asked, the answer, what was extracted or
    rejected, the graph change, the key signals, the scored candidates and vetoes, the
    decision and whether to go on.

    In a terminal the turns page one at a time (Enter/n, p, a turn number, q); piped, every
    turn is printed. `--verify` proves the recorded decisions come out of the recorded model
    outputs; `--methodology` shows which decisions other weights would have changed.

    **Examples**

    * `interview replay sessions/headphones_mec-20261122-101500-ab12.json`
    * `interview replay ID --turn 4`
    * `interview replay ID --verify`
    * `interview replay ID --methodology my_tuned_mec.yaml`
    * `interview replay ID --json | jq '.[3].decision'`
    """
    from interview_cli.analysis.replay.walk import pick_turn, walk_record
    from interview_cli.analysis.sources import load_one
    from interview_cli.errors import UsageError
    from interview_cli.session.store import SessionStore

    if verify and methodology:
        raise UsageError("use --verify or --methodology, not both (verify first, then try weights)")
    source = load_one(session_ref, SessionStore(sessions_dir))
    session = source.session
    console = stdout_console()

    if verify:
        _verify(session, as_json=as_json, max_diffs=max_diffs, console=console)
        return
    if methodology:
        _what_if(session, methodology, library, as_json=as_json, all_rows=all_rows, console=console)
        return

    turns = [pick_turn(session, turn)] if turn is not None else list(session.turns)
    if as_json:
        records = [walk_record(t) for t in turns]
        print_json(records[0] if turn is not None else records)
        return
    if not turns:
        console.print(f"Session {session.id} has no answered turn yet.", markup=False)
        return
    from rich.text import Text

    from interview_cli.config.plurals import plural
    from interview_cli.ui.replay import turn_view

    # Text, not markup: a concept named "Headphones [beta]" must print as written.
    console.print(
        Text.assemble(
            (session.id, "bold"),
            f" · {session.concept.name} · {session.methodology.name} "
            f"{session.methodology.version} · {session.status} · "
            + plural(len(session.turns), "turn"),
        ),
        highlight=False,
    )
    interactive = console.is_terminal and sys.stdin.isatty() and not no_pager and turn is None
    if interactive and len(turns) > 1:
        page_turns(console, turns, lambda prompt: console.input(prompt))
        return
    for t in turns:
        console.print(turn_view(t, total=len(session.turns)))


def _verify(session: SessionFile, *, as_json: bool, max_diffs: int, console: Console) -> None:
    from interview_cli.analysis.replay.verify import verify_session
    from interview_cli.ui.replay import verify_view

    result = verify_session(session)
    if as_json:
        print_json(result.to_dict())
    else:
        console.print(verify_view(result, limit=max_diffs))
    if not result.ok:
        raise typer.Exit(1)


def _what_if(
    session: SessionFile,
    ref: str,
    library: list[Path] | None,
    *,
    as_json: bool,
    all_rows: bool,
    console: Console,
) -> None:
    from interview_cli.analysis.replay.whatif import what_if
    from interview_cli.ui.replay import whatif_view

    loaded = open_library(library).methodology(ref)
    label = f"{loaded.value.name} {loaded.value.method.version} ({loaded.path})"
    result = what_if(session, loaded.value, other_label=label)
    if as_json:
        print_json(result.to_dict())
        return
    console.print(whatif_view(result, show_all=all_rows))


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
