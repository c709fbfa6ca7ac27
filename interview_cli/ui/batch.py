"""What `interview batch` shows: live progress, the summary table and the dry-run estimate.

Rendering only (Rich); the numbers come from ``batch``, ``evaluation`` and ``llm.pricing``.
Every table is drawn from the same plain records that ``--json`` prints, so both agree.

Progress: on a terminal, one overall bar with ETA and one line per running
interview (persona, run, turn); elsewhere (a pipe, a CI log) one plain line per finished
interview, so logs stay readable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from interview_cli.analysis.report.question_card import CARD_HEADERS, CHECKS
from interview_cli.config.plurals import plural
from interview_cli.simulation.batch import InterviewOutcome, PlannedInterview
from interview_cli.simulation.evaluation import SummaryRow


class ProgressView:
    """A ``BatchObserver`` drawing the batch's progress on ``console``."""

    def __init__(self, console: Console, *, total: int, max_turns: int) -> None:
        self.console = console
        self.max_turns = max_turns
        self.live = console.is_terminal
        self.progress: Progress | None = None
        self.lines: dict[str, TaskID] = {}
        if self.live:
            self.progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(bar_width=24),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=console,
                transient=False,
            )
            self.overall = self.progress.add_task("[bold]interviews", total=total)

    def __enter__(self) -> ProgressView:
        if self.progress is not None:
            self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()

    @staticmethod
    def _name(planned: PlannedInterview) -> str:
        return f"  {planned.persona_id} #{planned.run}"

    def started(self, planned: PlannedInterview, *, resumed: bool) -> None:
        if self.progress is None:
            return
        label = self._name(planned) + (" (resumed)" if resumed else "")
        self.lines[planned.session_id] = self.progress.add_task(label, total=self.max_turns)

    def turn(self, planned: PlannedInterview, turn_number: int) -> None:
        if self.progress is None or planned.session_id not in self.lines:
            return
        self.progress.update(self.lines[planned.session_id], completed=turn_number - 1)

    def finished(self, planned: PlannedInterview, outcome: InterviewOutcome) -> None:
        if self.progress is not None:
            line = self.lines.pop(planned.session_id, None)
            if line is not None:
                self.progress.remove_task(line)
            self.progress.advance(self.overall)
            if outcome.status == "failed":
                self.progress.console.print(
                    f"[red]✗[/red] {outcome.session_id}: {outcome.reason}",
                    highlight=False,
                    markup=True,
                )
            return
        self.console.print(outcome_line(outcome), highlight=False, markup=False, soft_wrap=True)


def _summary_table(title: str) -> Table:
    """The batch summary's table style: a left title, a rule under the header, tight cells."""
    return Table(
        title=title,
        box=box.SIMPLE_HEAD,
        title_justify="left",
        pad_edge=False,
        padding=(0, 1),
        collapse_padding=True,
    )


def outcome_line(outcome: InterviewOutcome) -> str:
    """One plain line per finished interview (non-terminal output)."""
    if outcome.status == "failed":
        return f"failed   {outcome.session_id}: {outcome.reason}"
    if outcome.status == "stopped":
        state = "paused" if outcome.path is not None else "not started"
        return f"stopped  {outcome.session_id}: {state} (spend cap reached)"
    e = outcome.evaluation or {}
    verb = "skipped " if outcome.status == "skipped" else "done    "
    scored = (
        f"rung recall {_pct(e.get('rung_recall'))}"
        if e.get("ground_truth", True)
        else "no ground truth"
    )
    return (
        f"{verb} {outcome.session_id}: {e.get('turns', '?')} turns, {scored}, "
        f"{e.get('termination_reason') or ''}"
    ).rstrip(", ")


def _cost(row: SummaryRow) -> str:
    """Dollars; "unknown" (never 0) when models without a price were called, "0.12+?" when
    some calls were priced and some not."""
    known = f"{row.cost_usd:.2f}" if row.cost_usd >= 0.01 else f"{row.cost_usd:.3f}"
    if row.unpriced:
        return f"{known}+?" if row.cost_usd else "unknown"
    return known


def _pct(value: Any) -> str:
    return "-" if value is None else f"{100 * float(value):.0f}%"


def _num(value: Any, digits: int = 1) -> str:
    return "-" if value is None else f"{float(value):.{digits}f}"


STOP_NAMES = {
    "Closing strategy selected": "closing",
    "Maximum turns reached": "max turns",
    "graph_saturated": "saturated",
    "quality_degraded": "degraded",
    "depth_plateau": "plateau",
    "all_nodes_exhausted": "exhausted",
    "respondent_fatigued": "fatigued",
    "little_to_say": "little to say",
}


def short_stop(reason: str | None) -> str:
    return STOP_NAMES.get(reason or "", reason or "")


def _persona_column(table: Table, rows: Sequence[SummaryRow]) -> None:
    """Persona names whole (they are ids, typed back as arguments): at most 30 columns are
    kept for them, a longer one folds rather than losing its end to an ellipsis."""
    longest = max((len(row.name) for row in rows), default=7)
    table.add_column("persona", overflow="fold", min_width=min(max(longest, 7), 30))


def summary_table(rows: Sequence[SummaryRow], *, title: str = "Ground truth") -> Table:
    """Per persona and overall (the last row). Fits 80 columns: the failure and cost
    columns appear only when some interview failed or cost something."""
    show_failed = any(row.failed for row in rows)
    show_cost = any(row.cost_usd or row.unpriced for row in rows)
    table = _summary_table(title)
    _persona_column(table, rows)
    numeric = [
        "n",
        *(["fail"] if show_failed else []),
        "rungs",
        "ladder",
        "done",
        "term",
        "links",
        "turns",
        "rep",
        *(["$"] if show_cost else []),
    ]
    for name in numeric:
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("stop", no_wrap=True, overflow="ellipsis", min_width=9, max_width=10)
    for i, row in enumerate(rows):
        terminal = (
            "-"
            if row.terminal_rate is None
            else f"{_pct(row.terminal_rate)}/{row.terminal_eligible}"
        )
        cells = [row.name, str(row.interviews)]
        if show_failed:
            cells.append(str(row.failed) if row.failed else "")
        # A persona with no beliefs about the topic has no recall to show: said so, not 0.
        unscored = bool(row.interviews) and row.unscored == row.interviews
        cells += [
            "no truth" if unscored else _pct(row.rung_recall),
            _pct(row.ladder_recall),
            _num(row.ladders_completed),
            terminal,
            _pct(row.link_rate),
            _num(row.mean_turns),
            str(row.repeated_questions),
        ]
        if show_cost:
            cells.append(_cost(row))
        cells.append(short_stop(next(iter(row.termination), "")))
        table.add_row(
            *cells,
            end_section=i == len(rows) - 2,
            style="bold" if i == len(rows) - 1 else None,
        )
    table.caption = (
        "rungs: persona rungs found in the graph · ladder: mean per-ladder recall · done: "
        "ladders elicited to their end · terminal: reached a full ladder's end / could · "
        "links: consecutive rungs joined · rep: repeated questions · stop: most common reason"
    )
    no_truth = rows[-1].unscored if rows else 0
    if no_truth:
        table.caption += (
            f" · no truth: {no_truth} interviews of personas with no beliefs about this "
            "concept (--no-ground-truth), left out of the recall figures"
        )
    table.caption_justify = "left"
    return table


def asking_table(rows: Sequence[SummaryRow]) -> Table:
    """How the interviews asked, next to the wording repeats: what a respondent notices."""
    table = _summary_table("Asking")
    _persona_column(table, rows)
    for name in ("n", "rep", "re-ask", "/int", "complain", "term full", "unopened", "early"):
        table.add_column(name, justify="right", no_wrap=True)
    for i, row in enumerate(rows):
        terminal = (
            "-"
            if row.terminal_full_rate is None
            else f"{_pct(row.terminal_full_rate)}/{row.terminal_full}"
        )
        table.add_row(
            row.name,
            str(row.interviews),
            str(row.repeated_questions),
            str(row.same_node_reasks),
            _num(row.reasks_per_interview),
            str(row.complaints),
            terminal,
            _num(row.unopened_at_stop),
            str(row.early_unopened),
            end_section=i == len(rows) - 2,
            style="bold" if i == len(rows) - 1 else None,
        )
    table.caption = (
        "rep: questions worded like an earlier one · re-ask: same node and strategy again, no "
        "new rung between (/int: per interview) · complain: answers saying it was asked "
        "before · term full: a full ladder's end reached / personas with one · unopened: "
        "ladders never opened at the stop (mean) · early: stopped before the turn limit with "
        "a ladder never opened"
    )
    table.caption_justify = "left"
    return table


def read_back_table(rows: Sequence[SummaryRow]) -> Table:
    """How true the closing summaries are to what the personas hold: what the respondent
    would be told "What I understood", measured against their beliefs."""
    table = _summary_table("Read back at the close")
    _persona_column(table, rows)
    for name in ("n", "concepts", "true", "links", "sound", "asked", "sound"):
        table.add_column(name, justify="right", no_wrap=True)
    for i, row in enumerate(rows):
        table.add_row(
            row.name,
            str(row.interviews),
            str(row.summary_concepts),
            _share(row.summary_true, row.summary_concepts),
            str(row.summary_links),
            _share(row.summary_links_sound, row.summary_links),
            str(row.check_back_links),
            _share(row.check_back_links_sound, row.check_back_links),
            end_section=i == len(rows) - 2,
            style="bold" if i == len(rows) - 1 else None,
        )
    table.caption = (
        "concepts: in the closing summaries · true: of those, naming a rung the persona holds "
        '· links: their "a → b" steps · sound: steps joining two rungs of one ladder of the '
        "persona's, the lower first · asked: the reasons the closing question reads back "
        '("X" matters to you because "Y"), and those sound'
    )
    table.caption_justify = "left"
    return table


def _share(part: int, whole: int) -> str:
    return _pct(part / whole) if whole else "-"


def questions_table(record: Mapping[str, Any]) -> Table:
    """The question report card per persona and over all (``batch_report.question_cards``),
    each figure per 100 questions asked; the legend says what each counts."""
    rows = [*record["personas"], record["overall"]]
    table = _summary_table("Questions (per 100 asked)")
    longest = max((len(str(row["name"])) for row in rows), default=7)
    table.add_column("persona", overflow="fold", min_width=min(max(longest, 7), 30))
    for name in CARD_HEADERS:
        table.add_column(name, justify="right")
    for i, row in enumerate(rows):
        per_100 = row["per_100"]
        cells = [str(row["questions"])]
        cells += ["-" if per_100[c] is None else f"{per_100[c]:g}" for c in ("clean", *CHECKS)]
        table.add_row(
            str(row["name"]),
            *cells,
            end_section=i == len(rows) - 2,
            style="bold" if i == len(rows) - 1 else None,
        )
    table.caption = "\n".join(record["legend"])
    table.caption_justify = "left"
    return table


def strategy_mix_table(rows: Sequence[SummaryRow]) -> Table:
    strategies = sorted({s for row in rows for s in row.strategy_mix})
    table = _summary_table("Strategy mix (share of turns)")
    _persona_column(table, rows)
    for s in strategies:
        table.add_column(s, justify="right")
    for i, row in enumerate(rows):
        table.add_row(
            row.name,
            *[_pct(row.strategy_share.get(s, 0.0)) for s in strategies],
            end_section=i == len(rows) - 2,
        )
    return table


def estimate_table(estimate: Mapping[str, Any]) -> Table:
    """The dry run: what the batch would do and roughly cost, low and high, with the
    assumptions of both under the table."""
    table = _summary_table(
        f"Dry run: {plural(estimate['to_run'], 'interview')} to run, {estimate['skipped']} "
        f"finished already, up to {estimate['max_turns']} turns each"
    )
    # Task names are kept whole; the model (its provider is in the line under the table)
    # folds when long. Tokens are the low estimate's.
    table.add_column("task", no_wrap=True)
    table.add_column("model", overflow="fold")
    for name in ("calls", "tokens in / out", "low $", "high $"):
        table.add_column(name, justify="right")
    for task in estimate["tasks"]:
        table.add_row(
            task["task"],
            task["client"].partition(":")[2] or task["client"],
            f"{task['calls']:,}",
            f"{task['input_tokens']:,} / {task['output_tokens']:,}",
            _dollars(task["cost_usd"]),
            _dollars(task.get("cost_high_usd")),
        )
    total = estimate["total"]
    table.add_row(
        "total",
        "",
        f"{total['calls']:,}",
        f"{total['input_tokens']:,} / {total['output_tokens']:,}",
        _dollars(total["cost_usd"]),
        _dollars(total.get("cost_high_usd")),
        style="bold",
        end_section=True,
    )
    notes = [f"- {line}" for line in estimate.get("assumptions", [])]
    if estimate.get("unpriced"):
        notes.append(
            f"- no price, so the cost is unknown: {', '.join(estimate['unpriced'])} (add "
            "prices under `prices:` in your INTERVIEW_LLM_CONFIG file)"
        )
    cap = estimate.get("max_cost_usd")
    if cap is not None:
        high = total.get("cost_high_usd")
        verdict = (
            "the high estimate fits"
            if high is not None and high <= cap
            else "the batch may stop part-way (sessions stay resumable)"
        )
        notes.append(f"- --max-cost ${cap:g}: {verdict}")
    if notes:
        table.caption = "Assumptions:\n" + "\n".join(notes)
        table.caption_justify = "left"
    return table


def _dollars(value: float | None) -> str:
    return "unknown" if value is None else f"{value:.4f}"
