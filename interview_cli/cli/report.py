"""`interview report FILE|DIR ...`: metrics and laddering analysis across sessions.

Thin: sessions are collected by ``analysis.sources``, the report is computed once by
``analysis.report.build.build_report`` and drawn by the chosen format (terminal, md, html, json).
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from interview_cli.cli.common import (
    EmbeddingsOption,
    LibraryOption,
    in_library,
    open_library,
    optional_models,
    print_warning,
    stdout_console,
)
from interview_cli.cli.run import SessionsDirOption
from interview_cli.config.plurals import plural

if TYPE_CHECKING:
    from collections.abc import Sequence

    from interview_cli.analysis.report.build import Report
    from interview_cli.config.schemas import Methodology


class Counting(StrEnum):
    ladder = "ladder"
    respondent = "respondent"


FORMATS = ("md", "html", "json")  # json: the hidden, deprecated spelling of --json


SUFFIX_FORMATS = {".md": "md", ".markdown": "md", ".html": "html", ".htm": "html", ".json": "json"}


def report(
    refs: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="FILE|DIR|ID ...",
            help="Session files, ids, or directories (every *.json below). "
            "Default: the sessions directory.",
            show_default=False,
        ),
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            metavar="md|html",
            help="md or html (one self-contained file); JSON is --json. Default: a terminal "
            "view, or the --out file's suffix (.md, .html, .json).",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", metavar="FILE", help="Write the report here.", show_default=False
        ),
    ] = None,
    merges: Annotated[
        Path | None,
        typer.Option(
            "--merges",
            metavar="FILE.yaml",
            help="Analyst merges for content codes: 'code name: [labels that mean the same]'.",
            show_default=False,
        ),
    ] = None,
    keep_share: Annotated[
        float,
        typer.Option(
            "--keep-share",
            min=0.01,
            max=1.0,
            help="HVM cut-off: the highest one that keeps at least this share of all links.",
        ),
    ] = 2 / 3,
    cutoff: Annotated[
        int | None,
        typer.Option(
            "--cutoff",
            min=1,
            help="HVM cut-off to use instead (relations with at least N).",
            show_default=False,
        ),
    ] = None,
    top: Annotated[int, typer.Option("--top", min=1, help="Rows in the frequency tables.")] = 12,
    slots: Annotated[
        bool,
        typer.Option(
            "--slots/--no-slots",
            help="Code by the sessions' canonical slots where recorded (else by labels only).",
        ),
    ] = True,
    group: Annotated[
        bool,
        typer.Option(
            "--group/--no-group",
            help="Group codes that say the same thing in other words across interviews (word "
            "senses and fuzzy matching; sentence embeddings with --embeddings), else exact "
            "labels and slot names only. Analyst merges and coding sheets are kept as coded.",
        ),
    ] = True,
    embeddings: EmbeddingsOption = False,
    ladders: Annotated[
        list[Path] | None,
        typer.Option(
            "--ladders",
            metavar="FILE.csv",
            help="A coding sheet of ladders coded by hand (repeatable): columns respondent, "
            "ladder, position, code, level; one row per rung, lowest first. Pooled with any "
            "Means-End Chain sessions given.",
            show_default=False,
        ),
    ] = None,
    where: Annotated[
        list[str] | None,
        typer.Option(
            "--where",
            metavar="KEY=VALUE",
            help="Only sessions whose participant has this fact (repeatable, all must hold; "
            "participant=ID names the person). See `run --participant --meta`.",
            show_default=False,
        ),
    ] = None,
    status: Annotated[
        list[str] | None,
        typer.Option(
            "--status",
            "-s",
            metavar="STATUS",
            help="Only sessions with this status (repeatable): completed, paused, active, "
            "failed, or all. Default: completed and paused, with at least one answer; a session "
            "file or id named on its own is reported as it is.",
            show_default=False,
        ),
    ] = None,
    origin: Annotated[
        str | None,
        typer.Option(
            "--origin",
            metavar="live|batch|all",
            help="live: interviews with people (`run`); batch: simulated personas (`batch`). "
            "Default: live for the sessions directory, all for the files and folders named.",
            show_default=False,
        ),
    ] = None,
    counting: Annotated[
        Counting,
        typer.Option(
            "--count",
            help="Implication matrix counts: 'ladder' (every ladder holding a relation, "
            "Reynolds & Gutman) or 'respondent' (each relation once per respondent). Either way "
            "relations are counted within a ladder, never across ladders.",
        ),
    ] = Counting.ladder,
    full_matrix: Annotated[
        bool,
        typer.Option(
            "--full-matrix",
            help="Show every code in the implication matrix; by default only the codes with "
            "a relation at or above the cut-off, saying how many were hidden (--json always "
            "has every cell).",
        ),
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="The report as JSON, on stdout or into --out (as --json does for sessions, "
            "batch and replay).",
        ),
    ] = False,
    sessions_dir: SessionsDirOption = None,
    library: LibraryOption = None,
) -> None:
    """Metrics and analysis across sessions: implication matrix and value map for laddering.

    Metrics per session and overall, with a question report card counted without a model
    (per 100 questions: quotes not in the respondent's words, topic-name splices,
    double-barrelled questions, method jargon, repeats in substance, questions about a remark
    the reader set aside; the legend under the table says what each counts); for Means-End
    Chain interviews the content codes, the
    implication matrix (direct and indirect counts), a cut-off and the hierarchical value map
    (Reynolds & Gutman 1988); for other methods the most frequent node types, codes and
    connections. Formats: a terminal view, `--format md`, `--format html` (one self-contained
    file), `--json`; a large implication matrix shows the codes at the cut-off (`--full-matrix`:
    all).

    Ladders coded by hand come in as a CSV coding sheet (`--ladders`), alone or with sessions:

    ```
    respondent,ladder,position,code,level
    R1,1,1,noise cancelling,A
    R1,1,2,can focus,C
    R1,1,3,freedom,V
    ```

    `level` is a node type of means_end_chain (attribute, functional_consequence, ...) or
    A/C/V. A sample ships with the library, found from any directory: `--ladders
    ladders/headphones_sample.csv`. Relations are
    counted within each ladder, never across ladders (`--count ladder` by default, Reynolds &
    Gutman; `--count respondent` counts each relation once per respondent); for sessions the
    ladders are the chains the interview recorded.

    **Examples**

    * `interview report` (the live interviews in ./sessions, completed or paused)
    * `interview report --status completed --origin all` (with the batch sessions)
    * `interview report sessions/batch-1/ --format html --out report.html`
    * `interview report a.json b.json --merges codes.yaml --keep-share 0.7 -f md`
    * `interview report runs/ --json | jq .aggregate`
    * `interview report runs/ --full-matrix -f html -o all.html` (every code in the matrix)
    * `interview report --ladders ladders/headphones_sample.csv --count respondent -f md`
    * `interview report sessions/ --ladders coded.csv --format html --out both.html`
    * `interview report sessions/ --where segment=commuter -f md` (see `run --meta`)
    """
    from interview_cli.analysis.report.build import ReportOptions, build_report
    from interview_cli.analysis.report.codes import load_merges
    from interview_cli.analysis.sources import Collected, collect
    from interview_cli.errors import UsageError
    from interview_cli.session.store import SessionStore

    store = SessionStore(sessions_dir)
    chosen, out = _format_and_out(fmt, as_json, out)
    targets = list(refs or [])
    if not targets and not ladders:
        if not store.directory.is_dir():
            raise UsageError(f"no sessions directory {store.directory}; name files or directories")
        targets = [str(store.directory)]

    options = ReportOptions(
        keep_share=keep_share,
        cutoff=cutoff,
        merges=load_merges(merges) if merges else None,
        top=top,
        use_slots=slots,
        group_by_meaning=group,
        counting=counting.value,
        full_matrix=full_matrix,
    )
    collected = collect(targets, store, for_report=True) if targets else Collected()
    if out is not None:
        _check_out(out, collected.files, ladders or [])
    sheets, sheet_method = _sheets(ladders or [], library)
    for skipped in collected.skipped:
        print_warning(f"skipped {skipped}")
    selection = None
    if collected.sources:
        collected.sources, selection = _select(collected.sources, status, origin, refs, store)
        if not collected.sources and not sheets:
            raise UsageError(f"no session to report: {selection.describe()}")
    conditions = _where(where or [])
    collected.sources = _matching(collected.sources, conditions, where, bool(sheets))
    result = build_report(
        collected.sources,
        options,
        skipped=collected.skipped,
        sheets=sheets,
        sheet_methodology=sheet_method,
        embedder=optional_models(embeddings=embeddings and group, discourse=False)[0],
    )
    result.where = conditions
    result.selection = selection
    for code, label in result.unmatched_merges:
        print_warning(
            f"{merges}: '{label}' (code '{code}') matches no label in these sessions; "
            "check its spelling"
        )

    _emit(result, chosen, out)


def _check_out(out: Path, session_files: Sequence[Path], sheets: Sequence[Path]) -> None:
    """Refuse an --out that is a directory, a session being read or a coding sheet."""
    from interview_cli.analysis.sources import refuse_overwriting_sessions
    from interview_cli.errors import UsageError

    if out.is_dir():
        raise UsageError(f"--out {out} is a directory; name a file, e.g. {out / 'report.md'}")
    # Before any work is shown: a report written over a session would destroy it.
    refuse_overwriting_sessions([out], session_files)
    for sheet_path in sheets:
        if out.resolve() == sheet_path.resolve():
            raise UsageError(
                f"--out {out} is the coding sheet {sheet_path}; choose another output file"
            )


def _emit(result: Report, chosen: str | None, out: Path | None) -> None:
    """Show the report on the terminal, or print it or write it to ``out`` in ``chosen``."""
    from interview_cli.analysis.report.to_json import report_to_dict
    from interview_cli.config.files import translate_os_error, write_output

    if chosen is None:
        from interview_cli.ui.report import show_report

        show_report(stdout_console(), result)
        return
    if chosen == "json":
        import json

        text = json.dumps(report_to_dict(result), indent=2, ensure_ascii=False) + "\n"
    elif chosen == "md":
        from interview_cli.analysis.report.to_markdown import report_markdown

        text = report_markdown(result)
    else:
        from interview_cli.analysis.report.to_html import report_html

        text = report_html(result)
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        write_output(out, text)
    except OSError as exc:
        raise translate_os_error(exc, out, doing="write the report") from None
    stdout_console().print(
        f"Report ({chosen}, {plural(len(result.sessions), 'session')}) written to {out}",
        highlight=False,
        soft_wrap=True,
    )
    if result.selection is not None and result.selection.left_out:
        stdout_console().print(
            f"Sessions: {result.selection.describe()}", highlight=False, soft_wrap=True
        )


def _format_and_out(
    fmt: str | None, as_json: bool, out: Path | None
) -> tuple[str | None, Path | None]:
    """The format asked for (else the --out file's suffix says it) and the file to write
    (None for the standard output: no --out, or `--out -`)."""
    from interview_cli.config.files import is_stdout
    from interview_cli.errors import UsageError

    chosen = _chosen_format(fmt, as_json)
    if is_stdout(out):
        return chosen, None
    if chosen is None and out is not None:
        chosen = SUFFIX_FORMATS.get(out.suffix.lower())
        if chosen is None:
            raise UsageError(f"--out {out}: unknown suffix; say --format md or html, or --json")
    return chosen, out


def _chosen_format(fmt: str | None, as_json: bool) -> str | None:
    """The one format asked for. JSON is ``--json``, as in every other command; ``--format
    json`` was its second spelling and still works, but is no longer shown (deprecated)."""
    from interview_cli.errors import UsageError

    if fmt is not None and fmt.lower() not in FORMATS:
        raise UsageError(f"--format {fmt!r} is not one of 'md', 'html'; for JSON use --json")
    chosen = fmt.lower() if fmt is not None else None
    if as_json and chosen not in (None, "json"):
        raise UsageError(f"--json and --format {chosen}: choose one")
    return "json" if as_json else chosen


def _select(
    sources: list[Any],
    status: list[str] | None,
    origin: str | None,
    refs: list[str] | None,
    store: Any,
) -> tuple[list[Any], Any]:
    """The sessions of the statuses and origin asked for (``analysis.report.selection``);
    without --status and --origin, a session file or id named on its own is kept as it is."""
    from interview_cli.analysis.report.selection import (
        DEFAULT_STATUSES,
        ORIGINS,
        STATUSES,
        select_sessions,
    )
    from interview_cli.errors import UsageError

    statuses = [s.strip().lower() for s in status or DEFAULT_STATUSES]
    if "all" in statuses:
        statuses = list(STATUSES)
    unknown = sorted(set(statuses) - set(STATUSES))
    if unknown:
        raise UsageError(
            f"--status {unknown[0]!r} is not a session status; choose from "
            f"{', '.join(STATUSES)} or all"
        )
    chosen = (origin or ("all" if refs else "live")).strip().lower()
    if chosen not in (*ORIGINS, "all"):
        raise UsageError(f"--origin {origin!r}: choose live, batch or all")
    origins = ORIGINS if chosen == "all" else (chosen,)
    named = set()
    if status is None and origin is None:
        named = {store.resolve(r).resolve() for r in refs or [] if not Path(r).is_dir()}
    return select_sessions(sources, statuses=statuses, origins=origins, named=named)


def _matching(
    sources: list[Any], conditions: list[tuple[str, str]], where: list[str] | None, sheets: bool
) -> list[Any]:
    """The sessions whose participant has every --where fact (all of them without one)."""
    from interview_cli.errors import UsageError

    if not conditions:
        return sources
    from interview_cli.analysis.report.participants import matches_where

    kept = [s for s in sources if matches_where(s.session, conditions)]
    if not kept and not sheets:
        raise UsageError(
            f"no session matches --where {' '.join(where or [])}; see the participants "
            "with `interview report --json | jq .participants`"
        )
    return kept


def _where(items: list[str]) -> list[tuple[str, str]]:
    from interview_cli.errors import UsageError

    out = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise UsageError(
                f"--where {item!r}: expected KEY=VALUE, e.g. --where segment=commuter or "
                "--where participant=P07"
            )
        out.append((key.strip(), value.strip()))
    return out


def _sheets(paths: list[Path], library: list[Path] | None) -> tuple[list[Any], Methodology | None]:
    """The coding sheets, read against the library's means_end_chain (none: nothing loaded)."""
    if not paths:
        return [], None
    from interview_cli.analysis.report.build import LADDER_METHOD
    from interview_cli.analysis.report.ladder_sheet import read_ladder_sheet

    lib = open_library(library)
    methodology = lib.methodology(LADDER_METHOD).value
    return [read_ladder_sheet(in_library(p, lib), methodology) for p in paths], methodology


def register(app: typer.Typer) -> None:
    app.command("report")(report)
