"""`interview export FILE --format ...`: one session's graph or turns for other tools.

Thin: the formats are written by ``analysis.export.formats``; see its docstring for what each holds.
``--format qdpx`` takes several sessions into one REFI-QDA project (``analysis.export.qdpx``).
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from interview_cli.analysis.export import CSV, FORMATS, QDPX
from interview_cli.cli.common import stdout_console
from interview_cli.cli.run import SessionsDirOption
from interview_cli.config.plurals import plural

# The choices of --format: the formats analysis.export lists, in its order.
Format = StrEnum("Format", [(f.name, f.name) for f in FORMATS])  # type: ignore[misc]


class CsvTable(StrEnum):
    nodes = "nodes"
    edges = "edges"


def export(
    session_refs: Annotated[
        list[str],
        typer.Argument(
            metavar="FILE|ID ...",
            help="A session file, or a session id; several for --format qdpx.",
        ),
    ],
    fmt: Annotated[
        Format,
        typer.Option(
            "--format",
            "-f",
            help=", ".join(f"{f.name} ({f.describes})" for f in FORMATS) + ".",
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
    * `interview export s1.json s2.json --format qdpx --out study.qdpx` (QualCoder: Project
      menu, Imports, REFI-QDA project)
    """
    from interview_cli.analysis.export.formats import export as render
    from interview_cli.analysis.sources import load_one, refuse_overwriting_sessions
    from interview_cli.config.files import is_stdout, translate_os_error, write_output
    from interview_cli.errors import UsageError
    from interview_cli.session.store import SessionStore

    name = str(fmt.value)
    if is_stdout(out) and name != QDPX:
        out = None  # `--out -`: the standard output, as without --out
    if table is not None and name != CSV:
        raise UsageError("--table applies to --format csv only")
    if name == QDPX:
        _export_qdpx(session_refs, out, sessions_dir)
        return
    if len(session_refs) != 1:
        raise UsageError(
            f"--format {name} exports one session ({len(session_refs)} given); "
            "--format qdpx takes several"
        )
    source = load_one(session_refs[0], SessionStore(sessions_dir))
    session = source.session
    if out is None:
        typer.echo(render(session, name, table=(table or CsvTable.nodes).value), nl=False)
        return
    if out.is_dir():
        raise UsageError(f"--out {out} is a directory; give a file name")
    targets: list[tuple[Path, str]] = []  # (file, csv table)
    if name == CSV and table is None:
        if out.exists() and not out.is_file():
            raise UsageError(
                f"--out {out} is not a regular file: csv without --table writes two files "
                "named after it (NAME.nodes.csv, NAME.edges.csv); give a name in a folder, "
                "or --table nodes|edges to write one table there"
            )
        stem = out.with_suffix("") if out.suffix.lower() == ".csv" else out
        targets = [(stem.with_name(f"{stem.name}.{name}.csv"), name) for name in ("nodes", "edges")]
    else:
        targets = [(out, (table or CsvTable.nodes).value)]
    # Every target is checked before the first is written, so a refusal modifies nothing.
    refuse_overwriting_sessions([path for path, _ in targets], [source.path])
    for path, csv_table in targets:
        try:
            write_output(path, render(session, name, table=csv_table))
        except OSError as exc:
            raise translate_os_error(exc, path, doing="write the export") from None
    written = [path for path, _ in targets]
    stdout_console().print(
        f"Exported {session.id} ({name}) to " + ", ".join(str(p) for p in written),
        highlight=False,
        soft_wrap=True,  # a path is never broken in two
    )


def _export_qdpx(refs: list[str], out: Path | None, sessions_dir: Path | None) -> None:
    """Several sessions into one REFI-QDA project (a zip, so only to a file)."""
    from interview_cli.analysis.export.qdpx import export_qdpx
    from interview_cli.analysis.sources import load_one, refuse_overwriting_sessions
    from interview_cli.config.files import is_stdout, translate_os_error, write_output
    from interview_cli.errors import UsageError
    from interview_cli.session.store import SessionStore

    if out is None:
        raise UsageError("--format qdpx writes a zip: name the file with --out FILE.qdpx")
    if out.is_dir():
        raise UsageError(f"--out {out} is a directory; give a file name, e.g. {out / 'study.qdpx'}")
    store = SessionStore(sessions_dir)
    sources = [load_one(ref, store) for ref in refs]
    seen: dict[str, Path] = {}
    for source in sources:
        first = seen.setdefault(source.session.id, source.path)
        if first != source.path:
            raise UsageError(
                f"{source.path} and {first} are both session {source.session.id!r}; "
                "a project holds each interview once"
            )
    if is_stdout(out):  # a zip for a pipe: `--out - | ssh host 'cat > study.qdpx'`
        data = export_qdpx([s.session for s in sources], name="interviews")
        typer.get_binary_stream("stdout").write(data)
        return
    refuse_overwriting_sessions([out], [s.path for s in sources])
    data = export_qdpx([s.session for s in sources], name=out.stem)
    try:
        write_output(out, data)
    except OSError as exc:
        raise translate_os_error(exc, out, doing="write the export") from None
    stdout_console().print(
        f"Exported {plural(len(sources), 'session')} (qdpx, REFI-QDA 1.0) to {out}",
        highlight=False,
        soft_wrap=True,
    )


def register(app: typer.Typer) -> None:
    app.command("export")(export)
