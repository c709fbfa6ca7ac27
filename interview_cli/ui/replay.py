"""Rich views for ``interview replay``: a recorded turn, a verification diff, a what-if table.

Drawn from recorded values (``analysis.replay.walk``) and from the analysis results, never
recomputed here; the live screen's pieces (question panel, candidates table) are reused so a
turn looks the same in ``run --debug``, ``/why`` and ``replay``.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from interview_cli.analysis.replay.verify import CHECKS, DECISION_CHECKS, VerifyResult
from interview_cli.analysis.replay.walk import key_signals
from interview_cli.analysis.replay.whatif import WhatIfResult, WhatIfRow
from interview_cli.config.plurals import plural
from interview_cli.session.schema import CandidateRecord, TurnRecord
from interview_cli.ui.interview import question_panel, slot_discovery_view
from interview_cli.ui.why import plain_rationale, why_short


def _short(value: Any, limit: int = 60) -> str:
    text = value if isinstance(value, str) else repr(value)
    if isinstance(value, float):
        text = f"{value:.4g}"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _plain(*cells: str) -> list[Text]:
    """Table cells as plain text: respondents' words may hold [brackets] Rich would parse."""
    return [Text(c) for c in cells]


def _extraction(turn: TurnRecord) -> list[RenderableType]:
    parts: list[RenderableType] = []
    ex = turn.extraction
    if ex is None:
        return parts
    if ex.nodes:
        table = Table(title="Extracted", title_justify="left", expand=True)
        for col in ("label", "type", "stance", "conf."):
            table.add_column(col, justify="right" if col in ("stance", "conf.") else "left")
        table.add_column("quote", overflow="fold", ratio=1)
        for n in ex.nodes:
            table.add_row(
                *_plain(n.label, n.node_type, f"{n.stance:+d}", f"{n.confidence:.2f}", n.quote)
            )
        parts.append(table)
    elif not ex.extractable:
        parts.append(Text(f"Nothing extractable: {ex.reason or 'no reason given'}", style="yellow"))
    if ex.edges:
        lines = [
            f"  {e.source} → {e.target}  ({e.relation}"
            + ("" if e.value is None else f" {e.value:g}")
            + ")"
            for e in ex.edges
        ]
        parts.append(Text("Links:\n" + "\n".join(lines)))
    rows: list[tuple[str, dict[str, object], str]]
    rows = [(r.kind, r.item, r.reason) for r in ex.rejected]
    rows += [(r.kind, r.item, r.reason) for r in turn.graph_delta.rejected]
    if rows:
        table = Table(title="Rejected", title_justify="left", expand=True, style="red")
        table.add_column("kind")
        table.add_column("item", overflow="fold", ratio=1)
        table.add_column("why", overflow="fold", ratio=1)
        for kind, item, reason in rows:
            label = item.get("label") if isinstance(item, dict) else None
            shown = label or ", ".join(f"{k}={v}" for k, v in (item or {}).items())
            table.add_row(*_plain(str(kind), _short(shown, 80), str(reason)))
        parts.append(table)
    return parts


def _delta(turn: TurnRecord) -> Text:
    d = turn.graph_delta
    bits: list[str] = []
    if d.nodes_added:
        bits.append("+ " + ", ".join(f"{n.node_id} {n.label}" for n in d.nodes_added))
    for m in d.nodes_merged:
        bits.append(f"= {m.label} → {m.into_label} ({m.tier} {m.score:.2f})")
    for e in d.edges_added:
        bits.append(f"+ {e.source} → {e.target} {e.relation}")
    if not bits:
        bits.append("no change")
    return Text("Graph: " + " · ".join(bits), style="cyan")


def _signals(turn: TurnRecord) -> Table:
    found = key_signals(turn)
    table = Table(title="Key signals", title_justify="left")
    table.add_column("signal")
    table.add_column("value", justify="right")
    for name, value in found["global"].items():
        table.add_row(*_plain(name, _short(value)))
    focus = turn.decision.label if turn.decision else None
    for name, value in found["node"].items():
        table.add_row(Text.assemble(name, (f" (on '{focus}')", "dim")), Text(_short(value)))
    return table


def candidates_view(candidates: list[CandidateRecord], *, limit: int = 6) -> Table:
    """The top candidates and the vetoed ones, with their score arithmetic and main drivers.

    Narrower than the live ``candidates_table``: the move and its arithmetic share a column,
    so a piped replay (80 columns) stays readable."""
    table = Table(title="Candidates (strategy × focus)", title_justify="left", expand=True)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("move", overflow="fold", ratio=2)
    table.add_column("score = base × phase + bonus", overflow="fold", ratio=2)
    table.add_column("main drivers / veto", overflow="fold", ratio=3)
    admissible = [c for c in candidates if not c.vetoed_by][:limit]
    vetoed = [c for c in candidates if c.vetoed_by][:limit]
    for cand in admissible + vetoed:
        focus = cand.node_label
        move = f"{cand.strategy} on '{focus}'" if focus else cand.strategy
        final, base = float(cand.final_score), float(cand.base_score)
        multiplier, bonus = float(cand.phase_multiplier), float(cand.phase_bonus)
        arithmetic = f"{final:.2f} = {base:.2f} × {multiplier:g} + {bonus:g}"
        parts = sorted(
            (c for c in cand.signal_contributions if float(c.contribution)),
            key=lambda c: -abs(float(c.contribution)),
        )
        why = "\n".join(f"{float(c.contribution):+.2f} {c.key}" for c in parts[:3])
        style = None
        if cand.vetoed_by:
            why = f"vetoed: {cand.vetoed_by}"
            style = "red"
        elif cand.selected:
            style = "bold green"
        table.add_row(*_plain(str(cand.rank), move, arithmetic, why or "—"), style=style)
    return table


def _exchange(turn: TurnRecord, total: int) -> list[RenderableType]:
    """The turn's heading, its question and the answer."""
    q = turn.question
    return [
        Rule(f"Turn {turn.turn_number} of {total}", align="left"),
        question_panel(
            q.text,
            turn=turn.turn_number,
            strategy=q.strategy,
            focus=q.focus_label,
            asked_by=q.asked_by,
        ),
        Text.assemble(("Answer: ", "bold green"), turn.answer.text),
    ]


def turn_page(turn: TurnRecord, *, total: int) -> Group:
    """A turn on one screen (``replay`` paging in a terminal): the exchange, what was read
    from the answer a line per item, the graph change, and the decision in plain words as
    ``/why`` gives it. The signals and every candidate's arithmetic are ``turn_view``'s."""
    parts = _exchange(turn, total)
    if turn.status != "complete":
        parts.append(
            Text("Answered but not processed: the interview was interrupted here.", "yellow")
        )
        return Group(*parts)
    ex = turn.extraction
    if ex is not None and ex.nodes:
        parts.append(Text("Read:", style="bold"))
        for n in ex.nodes:
            parts.append(
                Text.assemble(
                    f"  {n.label} ",
                    (f"({n.node_type}, {n.confidence:.2f})", "dim"),
                    f" “{n.quote}”",
                )
            )
    elif ex is not None and not ex.extractable:
        parts.append(Text(f"Nothing extractable: {ex.reason or 'no reason given'}", style="yellow"))
    rejected = len(ex.rejected if ex else []) + len(turn.graph_delta.rejected)
    if rejected:
        parts.append(Text(f"{plural(rejected, 'item')} rejected (d: details)", style="red"))
    parts.append(_delta(turn))
    if turn.decision is not None:
        parts.append(why_short(turn, footer=False))
    return Group(*parts)


def turn_view(turn: TurnRecord, *, total: int) -> Group:
    """A turn in full: the extraction, graph change, signals, candidates with their score
    arithmetic, the recorded rationale and continuation."""
    parts = _exchange(turn, total)
    if turn.status != "complete":
        parts.append(
            Text("Answered but not processed: the interview was interrupted here.", "yellow")
        )
        return Group(*parts)
    parts += _extraction(turn)
    parts.append(_delta(turn))
    slots = slot_discovery_view(turn.slot_discovery)  # dual graph: slots and mappings
    if slots is not None:
        parts.append(slots)
    parts.append(_signals(turn))
    parts.append(candidates_view(turn.candidates))
    d = turn.decision
    if d is not None:
        focus = f" on '{d.label}'" if d.label else ""
        parts.append(
            Text.assemble(
                ("Decision: ", "bold"),
                (f"{d.strategy}{focus}", "bold green"),
                (f"   phase {d.phase}" if d.phase else "", "dim"),
            )
        )
        parts += [Text(f"  • {plain_rationale(line)}") for line in d.rationale]
    c = turn.continuation
    if c is not None:
        verdict = "continue" if c.should_continue else "stop"
        remaining = f", {c.turns_remaining} turns left" if c.turns_remaining is not None else ""
        parts.append(
            Text(
                f"Continuation: {verdict}{remaining}" + (f" ({c.reason})" if c.reason else ""),
                style="dim",
            )
        )
    if turn.failures:
        parts.append(Text("Failures: " + "; ".join(turn.failures), style="yellow"))
    return Group(*parts)


# --------------------------------------------------------------------------------------------
# --verify
# --------------------------------------------------------------------------------------------


def verify_view(result: VerifyResult, *, limit: int = 12) -> Group:
    head = (
        f"session {result.session_id}: {result.turns_checked} of {result.turns_total} "
        "turns replayed"
    )
    parts: list[RenderableType] = []
    if result.ok:
        parts.append(
            Text.assemble(
                ("✓ ", "bold green"),
                head,
                "; every decision, veto, continuation, score and signal reproduced exactly",
            )
        )
    else:
        parts += _differences(result, head, limit)
    parts += [Text(f"note: {n}", style="dim") for n in result.notes]
    return Group(*parts)


def _differences(result: VerifyResult, head: str, limit: int) -> list[RenderableType]:
    """The failed verification: the summary line, the first differences and how to read them."""
    parts: list[RenderableType] = []
    turns = result.differing_turns
    where = f"turns {', '.join(map(str, turns))}" if turns else "the final state"
    decisive = sum(1 for m in result.mismatches if m.check in DECISION_CHECKS)
    parts.append(
        Text.assemble(
            ("✗ ", "bold red"),
            head,
            f"; {plural(len(result.mismatches), 'difference')} in {where}"
            f" ({decisive} in the decision itself)",
        )
    )
    order = {c: i for i, c in enumerate(CHECKS)}
    # The snapshot check explains everything after it; the final state comes last.
    first = sorted(
        result.mismatches,
        key=lambda m: (
            -1 if m.check == "snapshot" else m.turn or 10**9,
            order.get(m.check, 99),
        ),
    )
    shown = first[:limit]
    total = plural(len(result.mismatches), "difference")
    parts.append(Text(f"First {len(shown)} of {total}:", "bold"))
    for m in shown:
        where = f"turn {m.turn}" if m.turn else "file" if m.check == "snapshot" else "end"
        parts.append(Text.assemble((f"{where} · {m.check} · ", "bold"), (m.field, "bold yellow")))
        parts.append(Text.assemble(("  - recorded: ", "red"), _short(m.recorded, 200)))
        parts.append(Text.assemble(("  + replayed: ", "green"), _short(m.replayed, 200)))
        for line in m.detail.split("; ") if m.detail else []:
            parts.append(Text(f"      {line}", style="dim"))
    counts = ", ".join(
        f"{k} {v}" for k, v in sorted(result.counts().items(), key=lambda kv: order.get(kv[0], 99))
    )
    parts.append(Text(f"By check: {counts}.", style="dim"))
    if len(turns) > 1:
        parts.append(
            Text(
                f"Read turn {turns[0]} first: replay continues from its own state, so later "
                "turns may differ only as a consequence.",
                style="dim",
            )
        )
    return parts


# --------------------------------------------------------------------------------------------
# --methodology (what-if)
# --------------------------------------------------------------------------------------------


def _choice_text(row: WhatIfRow, *, alternative: bool) -> str:
    choice = row.alternative if alternative else row.recorded
    if choice is None:
        return "—"
    if choice.score is None:
        return choice.describe()
    if alternative:
        return f"{choice.describe()} [{choice.score:.2f}]"
    # The recorded move's score as recorded, then under the other weights.
    under = row.recorded_score_under_other
    new = "not scored" if under is None else f"{under:.2f}"
    return f"{choice.describe()} [{choice.score:.2f} → {new}]"


def whatif_view(result: WhatIfResult, *, show_all: bool = False) -> Group:
    changed = result.changed
    parts: list[RenderableType] = [
        Text.assemble(
            ("What-if ", "bold"),
            f"session {result.session_id}: recorded with ",
            (result.recorded_methodology, "bold"),
            ", re-decided with ",
            (result.other_methodology, "bold"),
        )
    ]
    reached = len(result.reached)
    if not changed and not result.not_reached:
        parts.append(Text(f"✓ no decision changes over {reached} turns.", style="green"))
        return Group(*parts)
    # Only turns the what-if interview reached can "decide differently"; the recorded turns
    # after its end are counted apart, not as changes.
    summary = f"{len(changed)} of {reached} reached turns decide differently"
    if result.first_change is not None:
        summary += f"; first change at turn {result.first_change}"
    if result.not_reached:
        summary += (
            f"; {plural(len(result.not_reached), 'recorded turn')} not reached (the what-if "
            "interview "
            f"ends after turn {result.ended_at})"
        )
    parts.append(
        Text(
            summary + ". Turns after the first change are counterfactual: the respondent would "
            "have been asked something else, but only the recorded answers exist."
        )
    )
    parts.append(_whatif_table(result, show_all))
    return Group(*parts)


def _whatif_table(result: WhatIfResult, show_all: bool) -> Table:
    """One row per changed turn (every reached turn with ``show_all``), and one for the
    recorded turns the what-if interview never reached."""
    changed = result.changed
    table = Table(expand=True, show_lines=False)
    table.add_column("turn", justify="right", no_wrap=True)
    # Text headers: as a str, Rich would read "[score]" as a style tag and drop it.
    table.add_column(Text("recorded [score → under new weights]"), overflow="fold", ratio=3)
    table.add_column(Text("what-if [score]"), overflow="fold", ratio=3)
    table.add_column("note", overflow="fold", ratio=2)
    # The turns never reached are one summary row below, not a row each.
    rows = result.reached if show_all else changed
    unreached = result.not_reached
    for row in rows:
        mark = "counterfactual" if row.counterfactual else ("first change" if row.differs else "")
        note = "; ".join(x for x in (mark, row.note) if x)
        table.add_row(
            *_plain(
                str(row.turn),
                _choice_text(row, alternative=False),
                _choice_text(row, alternative=True),
                note,
            ),
            style="bold" if row.differs else "dim",
        )
    if unreached:
        first, last = unreached[0].turn, unreached[-1].turn
        table.add_row(
            *_plain(
                f"{first}-{last}" if last != first else str(first),
                "(recorded turns)",
                "—",
                f"not reached: the what-if interview ended after turn {result.ended_at}",
            ),
            style="dim",
        )
    return table
