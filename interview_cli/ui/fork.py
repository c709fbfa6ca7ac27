"""What `interview fork` shows: the original and its forks paired on the persona's ground
truth, and each fork's session, drawn from the record ``--json`` prints
(``simulation.fork_compare.ForkComparison``)."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from interview_cli.simulation.fork_compare import FigureComparison, ForkComparison, ForkRun

LABELS: dict[str, str] = {
    "rungs_elicited": "rungs recalled",
    "rung_recall": "rung recall",
    "ladders_completed": "ladders completed",
    "terminal_reached": "terminal reached",
    "turns": "turns",
    "complaints": "complaints",
}
# Runs shown one column each, as many as an 80-column terminal holds; more runs are summed
# up by their spread alone (``--json`` has every run's figures).
MAX_RUN_COLUMNS = 2


def _value(name: str, value: float | None) -> str:
    if value is None:
        return "—"
    if name == "rung_recall":
        return f"{value:.0%}"
    if name == "terminal_reached":
        return "yes" if value >= 1 else "no"
    return f"{value:g}"


def _mean(name: str, value: float) -> str:
    if name in ("rung_recall", "terminal_reached"):  # a share over runs
        return f"{value:.0%}"
    return f"{value:.1f}".removesuffix(".0")


def _signed(value: float, digits: int) -> str:
    text = f"{value:+.{digits}f}".removesuffix(".0")
    return "0" if text in ("+0", "-0") else text


def _change_cell(f: FigureComparison) -> str:
    """The paired change: its mean, and over several runs the lowest and highest in
    brackets; shares in percentage points."""
    change = f.change
    if change is None:
        return "—"
    share = f.name in ("rung_recall", "terminal_reached")
    scale, digits, unit = (100.0, 0, " pts") if share else (1.0, 1, "")
    mean = _signed(change.mean * scale, digits) + unit
    if change.low == change.high:
        return mean
    low, high = _signed(change.low * scale, digits), _signed(change.high * scale, digits)
    return f"{mean} [{low}, {high}]"


def _spread_cell(f: FigureComparison) -> str:
    spread = f.spread
    if spread is None:
        return "—"
    if spread.sd is None:  # one run: its own value
        return _value(f.name, spread.mean)
    return f"{_mean(f.name, spread.mean)} ± {_mean(f.name, spread.sd).removesuffix('%')}"


def figures_table(comparison: ForkComparison) -> Table:
    """Each figure: the original's, each run's, the forks' mean ± sd and the paired change."""
    figures = comparison.figures
    runs = len(figures[0].runs) if figures else 0
    table = Table(
        title=f"Paired with the original (persona {comparison.persona})",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        padding=(0, 1),
        collapse_padding=True,
    )
    table.add_column("figure", no_wrap=True)
    table.add_column("original", justify="right", no_wrap=True)
    shown = runs if 1 < runs <= MAX_RUN_COLUMNS else 0
    for run in range(1, shown + 1):
        table.add_column(f"run {run}", justify="right", no_wrap=True)
    table.add_column("mean ± sd" if runs > 1 else "fork", justify="right", no_wrap=True)
    table.add_column("change" + (" (range)" if runs > 1 else ""), justify="right", no_wrap=True)
    for f in figures:
        cells = [LABELS.get(f.name, f.name), _value(f.name, f.original)]
        cells += [_value(f.name, v) for v in f.runs[:shown]]
        cells += [_spread_cell(f), _change_cell(f)]
        table.add_row(*(Text(c) for c in cells))
    return table


def _yes(value: bool | None) -> str:
    return "—" if value is None else ("yes" if value else "NO")


def _run_row(run: ForkRun) -> list[str]:
    # A fork finished by an earlier run of the same command is skipped by the batch runner.
    status = "completed earlier" if run.status == "skipped" else run.status
    status += f": {run.reason}" if run.reason else ""
    return [
        str(run.run),
        str(run.seed),
        status,
        _yes(run.repeats_origin),
        str(run.diverged_at) if run.diverged_at is not None else "—",
        _yes(run.verified),
    ]


def runs_table(comparison: ForkComparison) -> Table:
    """One row per fork: whether it repeats the original's first turns, the first turn
    whose move (strategy, focus) differs from the original's, whether `replay --verify`
    holds (the session ids: ``fork_view``'s last line)."""
    table = Table(title="Forks", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("run", justify="right")
    table.add_column("seed", justify="right")
    table.add_column("status")
    table.add_column(f"repeats 1-{comparison.at}")
    table.add_column("moves differ from", justify="right")
    table.add_column("verifies")
    for run in comparison.runs:
        table.add_row(*(Text(c) for c in _run_row(run)))
    return table


def fork_view(comparison: ForkComparison, *, out: str) -> RenderableType:
    """The whole screen: what was forked, the paired figures, the forks."""
    changed = f"policy {comparison.policy}" + (
        "" if comparison.policy != comparison.origin_policy else " (the original's)"
    )
    head = Text.assemble(
        "Forks of ",
        (comparison.origin, "bold"),
        f" after turn {comparison.at}: from turn {comparison.at + 1}, {changed} with "
        f"{comparison.methodology}",
    )
    return Group(
        head,
        figures_table(comparison),
        runs_table(comparison),
        Text(f"Saved in {out} as {_id_pattern(comparison)}", style="dim"),
    )


def _id_pattern(comparison: ForkComparison) -> str:
    """The forks' file names, run by run: ``<id up to -r>N.json`` for N in the runs."""
    ids = [r.session_id for r in comparison.runs]
    if len(ids) == 1:
        return f"{ids[0]}.json"
    stem = ids[0].rpartition("-r")[0]
    if all(i == f"{stem}-r{r.run}" for i, r in zip(ids, comparison.runs, strict=True)):
        runs = [r.run for r in comparison.runs]
        return f"{stem}-rN.json (N = {runs[0]} to {runs[-1]})"
    return ", ".join(f"{i}.json" for i in ids)
