"""`interview prompts SESSION --turn N [--task T]`: the messages a turn sent to the model.

For auditing what a model was told. The session is re-driven from its record through the real
pipeline (``pipeline.prompt_replay``): the recorded extractions, assessments, slot proposals
and questions stand in for the model, so the core takes the same decisions and every request
is rendered exactly as a provider renders it. Nothing is sent and nothing is written.

Turn N holds: the opening question's request (turn 1), the respondent's answer to question N
(simulated sessions, when the persona is in the library), the extraction and assessment of
answer N, the slot proposals of that turn and the request for the next question. The turn
after the last is the closing answer's: its extraction and slot proposals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from interview_cli.cli.common import JsonOption, LibraryOption, open_library, print_json
from interview_cli.cli.run import SessionsDirOption

if TYPE_CHECKING:
    from pathlib import Path

    from interview_cli.pipeline.prompt_replay import RecordedPrompt
    from interview_cli.session.schema import SessionFile

PERSONA_TASK = "respond_as_persona"
# The order requests are made in a turn: the question is asked, answered, then processed.
ORDER = (
    "generate_opening",
    PERSONA_TASK,
    "extract",
    "assess",
    "propose_slots",
    "generate_question",
)


def prompts(
    session_ref: Annotated[
        str, typer.Argument(metavar="FILE|ID", help="A session file, or a session id.")
    ],
    turn: Annotated[
        int, typer.Option("--turn", "-t", help="The recorded turn whose requests to show.")
    ],
    task: Annotated[
        str | None,
        typer.Option(
            "--task",
            metavar="TASK",
            help="Only this task: generate_opening, extract, assess, propose_slots, "
            "generate_question or respond_as_persona.",
            show_default=False,
        ),
    ] = None,
    as_json: JsonOption = False,
    sessions_dir: SessionsDirOption = None,
    library: LibraryOption = None,
) -> None:
    """Print the exact messages a recorded turn sent (or would send) to the model.

    Each request shows its system and user message and, for structured tasks, the tool the
    model is made to call. Rephrasings after a repeated question and corrective rounds after
    an unusable reply are not shown: the first request of each task is.

    **Examples**

    * `interview prompts ID --turn 5`
    * `interview prompts ID --turn 5 --task generate_question`
    * `interview prompts sessions/x.json --turn 1 --json | jq '.[0].messages[0].content'`
    """
    import asyncio

    from interview_cli.analysis.sources import load_one
    from interview_cli.errors import UsageError
    from interview_cli.pipeline.prompt_replay import TASKS, session_prompts
    from interview_cli.session.store import SessionStore

    if task is not None and task not in TASKS:
        raise UsageError(f"--task {task}: unknown task; use one of {', '.join(TASKS)}")
    session = load_one(session_ref, SessionStore(sessions_dir)).session
    numbers = [t.turn_number for t in session.turns]
    closing = session.closing
    if closing is not None and closing.comment.strip():
        numbers.append(len(session.turns) + 1)  # the closing answer's reading
    if turn not in numbers:
        span = f"turns 1 to {max(numbers)}" if numbers else "no recorded turns"
        raise UsageError(f"--turn {turn}: session {session.id} has {span}")
    records = [r for r in asyncio.run(session_prompts(session, upto_turn=turn)) if r.turn == turn]
    if task in (None, PERSONA_TASK):
        records += _persona(session, turn, library)
    records = sorted(_first_per_task(records), key=lambda r: ORDER.index(r.task))
    if task is not None:
        chosen = [r for r in records if r.task == task]
        if not chosen:
            made = ", ".join(r.task for r in records) or "none"
            raise UsageError(f"--task {task}: turn {turn} made no such request (it made: {made})")
        records = chosen
    if as_json:
        print_json([_as_json(r) for r in records])
        return
    for record in records:
        typer.echo(_as_text(record))


def _persona(session: SessionFile, turn: int, library: list[Path] | None) -> list[RecordedPrompt]:
    """The simulated respondent's request, when the session names a persona in the library."""
    from interview_cli.errors import InterviewError
    from interview_cli.pipeline.inputs import recorded_methodology
    from interview_cli.pipeline.prompt_replay import persona_prompt

    persona_id = ((session.simulation or {}).get("persona") or {}).get("id")
    if not persona_id:
        return []
    try:
        persona = open_library(library).persona(persona_id).value
    except InterviewError:
        return []  # a persona no longer in the library: its request cannot be rendered
    methodology = recorded_methodology(session.methodology, "methodology", session.id)
    record = persona_prompt(session, persona, methodology, turn)
    return [record] if record is not None else []


def _first_per_task(records: list[RecordedPrompt]) -> list[RecordedPrompt]:
    """The first request of each task (later ones are rephrasings or corrections)."""
    seen: set[str] = set()
    first = []
    for record in records:
        if record.task not in seen:
            seen.add(record.task)
            first.append(record)
    return first


def _as_json(record: RecordedPrompt) -> dict[str, Any]:
    return {
        "turn": record.turn,
        "task": record.task,
        "tool": record.prompt.tool_name,
        "schema": record.prompt.schema,
        "messages": record.messages(),
    }


def _as_text(record: RecordedPrompt) -> str:
    tool = f" · tool {record.prompt.tool_name}" if record.prompt.tool_name else ""
    rule = "=" * 78
    return (
        f"{rule}\nturn {record.turn} · {record.task}{tool}\n{rule}\n"
        f"--- system ---\n{record.prompt.system.rstrip()}\n"
        f"--- user ---\n{record.prompt.user.rstrip()}\n"
    )


def register(app: typer.Typer) -> None:
    app.command("prompts")(prompts)
