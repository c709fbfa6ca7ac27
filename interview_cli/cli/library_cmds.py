"""Library commands: `interview validate`, `methodologies`, `concepts`, `personas`, and
`providers` (the models an interview can use).

Thin by design: parse options, call ``config.library``, render with ``ui.tables``. Errors are
raised and printed by the root group (``cli.common``). Heavy modules (pydantic, yaml, rich
tables) are imported inside the commands so `interview --help` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from interview_cli.cli.common import (
    JsonOption,
    LibraryOption,
    open_library,
    print_json,
    print_warning,
    stdout_console,
)


def validate(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Files or directories to check. None: every file the library search path "
            "resolves to.",
            show_default=False,
        ),
    ] = None,
    library: LibraryOption = None,
    as_json: JsonOption = False,
) -> None:
    """Check methodologies, concepts and personas: schema, signals, strategies, references.

    Every problem is printed on its own line as `file: key.path: message`; the exit code is 0
    when all is valid and 2 otherwise. A file's kind comes from its directory (methodologies/,
    concepts/, personas/) or else from its keys.

    **Examples**

    * `interview validate` checks the whole library search path
    * `interview validate methodologies/my_method.yaml concepts/my_study.yaml`
    * `interview validate --library ~/research/library`
    """
    from interview_cli.config.library import ValidationReport, check_paths
    from interview_cli.config.loader import config_error, display_path

    lib = open_library(library)
    report: ValidationReport = check_paths(paths, lib) if paths else lib.validate_report()
    summary = report.summary()
    if as_json:
        print_json(
            {
                "ok": not report.problems,
                "checked": [
                    {"kind": kind, "id": ref, "path": str(path)}
                    for kind, ref, path in report.checked
                ],
                "problems": report.problems,
                "warnings": report.warnings,
            }
        )
        if report.problems:
            raise typer.Exit(2)
        return
    if not report.checked and not report.problems:
        from interview_cli.errors import ConfigError

        searched = ", ".join(display_path(r.path) for r in lib.roots) or "nothing"
        raise ConfigError(f"nothing to validate: no library files found (searched {searched})")
    for warning in report.warnings:
        print_warning(warning)
    if report.problems:
        error = config_error(report.problems)
        if len(report.problems) > 1:
            error.message = report.error_summary()
        raise error
    where = (
        ""
        if paths
        else " in " + ", ".join(f"{display_path(r.path)} ({r.origin})" for r in lib.roots)
    )
    from rich.text import Text

    # Text, not markup: a path like "lib[v2]" must print as it is.
    stdout_console().print(
        Text.assemble(("OK", "green"), f": {summary} valid{where}"), soft_wrap=True
    )


def _listing(kind: str, library: list[Path] | None, as_json: bool) -> None:
    from interview_cli.config.loader import display_path
    from interview_cli.ui import tables

    lib = open_library(library)
    items, problems = lib.load_all(kind)  # type: ignore[arg-type]
    record = getattr(tables, f"{kind}_record")
    records: list[dict[str, Any]] = [record(item) for item in items]
    for problem in problems:
        print_warning(f"skipped: {problem}")
    if problems:
        print_warning("run `interview validate` for details")
    if as_json:
        print_json(records)
        return
    console = stdout_console()
    if not records and not problems:
        searched = ", ".join(display_path(r.path) for r in lib.roots) or "no library directories"
        console.print(f"No {kind} files found (searched {searched}).", soft_wrap=True, markup=False)
        return
    if kind == "persona":
        console.print(tables.personas_table(records, width=console.width))
    elif kind == "concept":
        console.print(tables.concepts_table(records, width=console.width))
    else:
        console.print(tables.methodologies_table(records, width=console.width))


def methodologies(library: LibraryOption = None, as_json: JsonOption = False) -> None:
    """List the methodologies: levels of the ontology, strategies, goal and file.

    **Examples**

    * `interview methodologies`
    * `interview methodologies --json`
    """
    _listing("methodology", library, as_json)


def concepts(library: LibraryOption = None, as_json: JsonOption = False) -> None:
    """List the research concepts (topics) an interview can be run on.

    **Examples**

    * `interview concepts`
    * `interview concepts --json | jq -r '.[].id'`
    """
    _listing("concept", library, as_json)


def personas(library: LibraryOption = None, as_json: JsonOption = False) -> None:
    """List the synthetic respondents used by `interview batch`, with their traits.

    **Examples**

    * `interview personas`
    * `interview personas --library ./my_library --json`
    """
    _listing("persona", library, as_json)


def providers(as_json: JsonOption = False) -> None:
    """List the providers an interview can use (`--provider`): offline and the registry.

    The registry is the `providers:` section of the LLM defaults (interview_cli/llm/
    defaults.yaml, with the file named by INTERVIEW_LLM_CONFIG laid over it): which SDK
    speaks to each provider, the variable its API key is read from, its default model.
    **ready** says whether this environment has what the provider needs (its key, or for a
    server of your own its base URL).

    **Examples**

    * `interview providers`
    * `interview providers --json | jq -r '.[].name'`
    """
    from interview_cli.llm.settings import provider_rows
    from interview_cli.ui import tables

    records = [row.to_dict() for row in provider_rows()]
    if as_json:
        print_json(records)
        return
    stdout_console().print(tables.providers_table(records))


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    panel = "Library"
    app.command(rich_help_panel=panel)(validate)
    app.command(rich_help_panel=panel)(methodologies)
    app.command(rich_help_panel=panel)(concepts)
    app.command(rich_help_panel=panel)(personas)
    app.command(rich_help_panel=panel)(providers)
