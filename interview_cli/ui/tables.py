"""Rich tables and JSON records for the library listings (`interview methodologies` etc.).

Each listing has a ``*_record`` (a plain dict: what ``--json`` prints and what the table is
drawn from, so both always agree) and a ``*_table`` that lays records out for a terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

from interview_cli.config.loader import Loaded
from interview_cli.config.schemas import Concept, Methodology, Persona


def _source(loaded: Loaded[Any]) -> dict[str, Any]:
    return {
        "path": str(loaded.path.resolve()),
        "root": str(loaded.root.resolve()) if loaded.root is not None else None,
        "sha256": loaded.sha256,
    }


def methodology_record(loaded: Loaded[Methodology]) -> dict[str, Any]:
    m = loaded.value
    return {
        "name": m.method.name,
        "version": m.method.version,
        "shape": m.shape,
        "goal": m.method.goal,
        "description": m.method.description,
        "node_types": m.ontology.types_by_level,
        "node_levels": m.ontology.levels,
        "terminal_types": m.ontology.terminal_types,
        "edge_types": [e.name for e in m.ontology.edges],
        "strategies": [s.name for s in m.strategies],
        "closing_strategies": [s.name for s in m.strategies if s.generates_closing_question],
        "selection": m.selection,
        **_source(loaded),
    }


def concept_record(loaded: Loaded[Concept]) -> dict[str, Any]:
    c = loaded.value
    return {
        "id": c.id,
        "name": c.name,
        "methodology": c.methodology,
        "objective": c.objective,
        "language": c.language,
        "elements": [e.id for e in c.elements],
        **_source(loaded),
    }


def persona_record(loaded: Loaded[Persona]) -> dict[str, Any]:
    p = loaded.value
    return {
        "id": p.id,
        "name": p.name,
        "profile": p.profile,
        "traits": p.traits.model_dump(mode="json"),
        "beliefs": {topic: len(ladders) for topic, ladders in p.beliefs.items()},
        "journeys": {topic: len(stages) for topic, stages in p.journeys.items()},
        "grids": {topic: len(constructs) for topic, constructs in p.grids.items()},
        "voice": p.voice is not None,
        **_source(loaded),
    }


def _shorten(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def methodologies_table(records: Sequence[dict[str, Any]], *, width: int = 120) -> Table:
    """``width``: the terminal's; below 110 columns the goal is left out (it would not fit)."""
    table = Table(title="Methodologies", title_justify="left", box=box.SIMPLE_HEAD, show_lines=True)
    table.add_column("name", style="bold", no_wrap=True)
    table.add_column("levels (concrete → abstract)", no_wrap=True)
    table.add_column("strategies", no_wrap=True)
    show_goal = width >= 110
    if show_goal:
        table.add_column("goal", ratio=1)
    for r in records:
        terminal = set(r["terminal_types"])
        closing = set(r["closing_strategies"])
        # The ontology's own level numbers: several types can share a level, and a row
        # count would renumber them (critical_incident has two level-1 types).
        levels = "\n".join(
            f"{r['node_levels'][t]}. {t}" + (" (terminal)" if t in terminal else "")
            for t in r["node_types"]
        )
        strategies = "\n".join(f"{s} *" if s in closing else s for s in r["strategies"])
        row = [f"{r['name']}\nv{r['version']}\nshape: {r['shape']}", levels, strategies]
        if show_goal:
            row.append(r["goal"])
        # Text cells: names and goals come from YAML files, where "[...]" is not markup.
        table.add_row(*(Text(cell) for cell in row))
    table.caption = "* closes the interview" + ("" if show_goal else "; goals: --json")
    return table


def concepts_table(records: Sequence[dict[str, Any]], *, width: int = 120) -> Table:
    table = Table(title="Concepts", title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("id", style="bold", no_wrap=True)
    table.add_column("methodology", no_wrap=True)
    table.add_column("elements", justify="right")
    table.add_column("objective", ratio=1)
    # About two lines of objective per row, whatever the terminal's width.
    limit = max(50, 2 * (width - 60))
    for r in records:
        table.add_row(
            *(
                Text(cell)
                for cell in (
                    r["id"],
                    r["methodology"],
                    str(len(r["elements"])) if r["elements"] else "-",
                    _shorten(r["objective"], limit),
                )
            )
        )
    return table


def providers_table(records: Sequence[dict[str, Any]]) -> Table:
    """`interview providers`: the registry, with what each provider needs and has here."""
    table = Table(title="Providers", title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("provider", style="bold", no_wrap=True)
    table.add_column("ready", no_wrap=True)
    table.add_column("key", no_wrap=True)
    table.add_column("default model", no_wrap=True)
    table.add_column("about", ratio=1)
    for r in records:
        ready = Text("yes", "green") if r["usable"] else Text("no", "yellow")
        table.add_row(
            Text(r["name"]),
            ready,
            Text(r["key_env"] or "-"),
            Text(r["default_model"] or "-"),
            Text(r["about"]),
        )
    return table


def personas_table(records: Sequence[dict[str, Any]], *, width: int = 120) -> Table:
    """``width``: the terminal's; below 110 columns the free-text "who" column is left out."""
    table = Table(title="Personas", title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("id", style="bold", no_wrap=True)
    # One column of aligned numbers: five separate columns do not fit 80 characters.
    table.add_column("verb open know pat skep", no_wrap=True)
    table.add_column("beliefs about", no_wrap=True)
    show_who = width >= 110
    if show_who:
        table.add_column("who", ratio=1)
    for r in records:
        t = r["traits"]
        traits = (
            f"{t['verbosity']:>4.1f} {t['openness']:>4.1f} {t['knowledge']:>4.1f} "
            f"{t['patience']:>3} {t['skepticism']:>4.1f}"
        )
        truth = [
            *(f"{m} ×{n}" for m, n in r["beliefs"].items()),
            *(f"{m} ×{n}" for m, n in r.get("journeys", {}).items()),
            *(f"{m} ×{n}" for m, n in r.get("grids", {}).items()),
        ]
        ladders = "\n".join(truth) or "-"
        row = [r["id"], traits, ladders]
        if show_who:
            row.append(f"{r['name']}: {_shorten(r['profile'], 80)}")
        table.add_row(*(Text(cell) for cell in row))
    table.caption = "verbosity, openness, knowledge 0-1; patience in turns; skepticism 0-1" + (
        "" if show_who else "; profiles: --json"
    )
    return table


def sessions_table(rows: Sequence[dict[str, Any]], *, directory: str, width: int = 120) -> Table:
    """``interview sessions`` rows (``cli.sessions_cmd._summary``). No cell is broken inside
    a word: ids are typed back into `sessions show` and `run --resume`, and "methodol/ogy" or
    a date over two lines reads badly. Columns that do not fit ``width`` (the terminal's) are
    left out, least needed first (methodology, then concept: the id starts with the concept),
    and the caption says so. Sessions in a subfolder (a batch's) are listed under its name."""
    columns: list[tuple[str, Any]] = [
        ("id", lambda r: r["id"]),
        ("concept", lambda r: r["concept"]),
        ("methodology", lambda r: r["methodology"]),
        ("status", lambda r: r["status"]),
        ("turns", lambda r: str(r["turns"])),
        ("updated", lambda r: (r["updated"] or "")[:19].replace("T", " ")),
        ("cost", _cost_cell),
    ]

    if any(r.get("participant") for r in rows):
        columns.insert(1, ("participant", lambda r: r.get("participant") or "—"))
    if any(r.get("fork_of") for r in rows):
        columns.insert(-3, ("fork of", _fork_cell))
    nested = any(r.get("folder") for r in rows)

    def widest(title: str, cell: Any) -> int:
        indent = 2 if nested and title == "id" else 0
        return max([len(title), *(len(cell(r)) + indent for r in rows)])

    columns, dropped = _fit_columns(columns, widest, width)
    table = Table(
        title=Text(f"Sessions in {directory}"),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
    )
    for title, cell in columns:
        if title == "id":  # ids have no spaces: only a terminal too narrow for one folds it
            others = sum(widest(*c) for c in columns if c[0] != "id") + 3 * (len(columns) - 1)
            room = max(12, width - others)
            table.add_column(title, overflow="fold", min_width=min(widest(title, cell), room))
        else:
            table.add_column(
                title,
                no_wrap=True,
                min_width=widest(title, cell),
                justify="right" if title in ("turns", "cost") else "left",
            )
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:  # newest first within a folder; folders in the order of their newest
        groups.setdefault(r.get("folder") or "", []).append(r)
    for folder, members in groups.items():
        if folder:
            table.add_row(Text(f"{folder}/", style="dim"), end_section=False)
        for r in members:
            indent = "  " if folder else ""
            cells = [indent + cell(r) if t == "id" else cell(r) for t, cell in columns]
            table.add_row(*(Text(c) for c in cells))
    if dropped:
        table.caption = f"{', '.join(dropped)}: --json or a wider terminal"
    return table


def _fork_cell(row: dict[str, Any]) -> str:
    """A fork's origin, "ID@K" (it repeats session ID up to turn K); "—" for any other."""
    fork = row.get("fork_of")
    return f"{fork['session']}@{fork['turn']}" if fork else "—"


def _cost_cell(row: dict[str, Any]) -> str:
    """A session's cost: unknown when it called a model without a price, never $0."""
    from interview_cli.llm.spend import format_cost

    unpriced = row.get("unpriced") or []
    return format_cost(row.get("priced_cost_usd", row["cost_usd"]), unpriced)


_Column = tuple[str, Any]


def _fit_columns(
    columns: list[_Column], widest: Callable[[str, Any], int], width: int
) -> tuple[list[_Column], list[str]]:
    """The columns that fit ``width`` (the least needed left out first) and those left out."""
    dropped: list[str] = []
    # Least needed first; "updated" shrinks to the date before it goes.
    for name in ("methodology", "concept", "participant", "cost", "time", "updated", "fork of"):
        if sum(widest(*c) for c in columns) + 3 * (len(columns) - 1) <= width:  # " " rules
            break
        if name == "time":
            columns = [
                ("updated", lambda r: (r["updated"] or "")[:10]) if t == "updated" else (t, c)
                for t, c in columns
            ]
            continue
        if any(c[0] == name for c in columns):
            columns = [c for c in columns if c[0] != name]
            dropped.append(name)
    return columns, dropped
