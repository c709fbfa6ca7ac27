"""`interview export FILE --format ...`: one session's graph or turns for other tools.

Thin: the formats are written by ``analysis.export``; see its docstring for what each holds.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from interview_cli.cli.common import stdout_console
from interview_cli.cli.run import SessionsDirOption


class ExportFormat(StrEnum):
    graphml = "graphml"
    dot = "dot"
    mermaid = "mermaid"
    csv = "csv"
    jsonl = "jsonl"
    md = "md"


class CsvTable(StrEnum):
    nodes = "nodes"
    edges = "edges"


def export(
    session_ref: Annotated[
        str, typer.Argument(metavar="FILE|ID", help="A session file, or a session id.")
    ],
    fmt: Annotated[
        ExportFormat,
        typer.Option(
            "--format",
            "-f",
            help="graphml (Gephi, yEd), dot (Graphviz), mermaid, csv (nodes and edges), "
            "jsonl (one line per turn), md (transcript with what each answer yielded).",
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            metavar="FILE",
            help="Write here instead of stdout. csv without --table writes FILE.nodes.csv and "
            "FILE.edges.csv.",
            show_default=False,
        ),
    ] = None,
    table: Annotated[
        CsvTable | None,
        typer.Option(
            "--table", help="csv: which table (default on stdout: nodes).", show_default=False
        ),
    ] = None,
    sessions_dir: SessionsDirOption = None,
) -> None:
    """Export a session's knowledge graph or its turns.

    **Examples**

    * `interview export ID --format graphml --out interview.graphml`
    * `interview export ID -f dot | dot -Tsvg > graph.svg`
    * `interview export ID -f csv --out graph` (graph.nodes.csv and graph.edges.csv)
    * `interview export ID -f csv --table edges > edges.csv`
    * `interview export ID -f jsonl | jq .decision.strategy`
    """
    from interview_cli.analysis.export import export as render
    from interview_cli.analysis.sources import load_one, refuse_overwriting_sessions
    from interview_cli.errors import UsageError
    from interview_cli.files import translate_os_error
    from interview_cli.store import SessionStore, write_atomic

    if table is not None and fmt is not ExportFormat.csv:
        raise UsageError("--table applies to --format csv only")
    source = load_one(session_ref, SessionStore(sessions_dir))
    session = source.session
    if out is None:
        typer.echo(render(session, fmt.value, table=(table or CsvTable.nodes).value), nl=False)
        return
    if out.is_dir():
        raise UsageError(f"--out {out} is a directory; give a file name")
    targets: list[tuple[Path, str]] = []  # (file, csv table)
    if fmt is ExportFormat.csv and table is None:
        stem = out.with_suffix("") if out.suffix.lower() == ".csv" else out
        targets = [(stem.with_name(f"{stem.name}.{name}.csv"), name) for name in ("nodes", "edges")]
    else:
        targets = [(out, (table or CsvTable.nodes).value)]
    # Every target is checked before the first is written, so a refusal modifies nothing.
    refuse_overwriting_sessions([path for path, _ in targets], [source.path])
    for path, name in targets:
        try:
            write_atomic(path, render(session, fmt.value, table=name))
        except OSError as exc:
            raise translate_os_error(exc, path, doing="write the export") from None
    written = [path for path, _ in targets]
    stdout_console().print(
        f"Exported {session.id} ({fmt.value}) to " + ", ".join(str(p) for p in written),
        highlight=False,
    )


def register(app: typer.Typer) -> None:
    app.command("export")(export)
