"""Rich rendering for the live interview and for showing recorded turns.

Everything here reads plain recorded values (the session file's dicts), so the live screen,
``/why``, ``replay`` and ``sessions show`` render the same data the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from interview_cli.analysis.report.elements import (
    ELEMENT_COLUMNS,
    SessionCoverage,
    element_cells,
    element_marks,
    shown_coverage,
)
from interview_cli.config.plurals import plural
from interview_cli.core.models import REVERSED_EDGE
from interview_cli.session.schema import (
    CandidateRecord,
    SessionFile,
    StimulusRecord,
    TurnRecord,
)
from interview_cli.ui.why import coverage_lines, ended_because, why_short

HELP_TEXT = """\
Type your answer and press Enter. Commands:
  /why    why the current question: the reasons, the runner-up, any close call
  /why full   the same with every candidate's score arithmetic
  /graph  what has been learned so far, as a tree by level
  /quit   pause the interview (resume later with `interview run --resume ID`)
  /end    close the interview now
  /help   this help
For the respondent:
  /pass   decline this question (recorded as declined, not as "I don't know")
For the moderator (each recorded on the turn as the moderator's decision):
  /ask TEXT   ask TEXT instead of the tool's question (the tool's is kept)
  /alt        take the tool's next-best move instead (again: the one after it)
  /skip       done with the question's focus: the tool picks another move
  /note TEXT  a note on this turn, kept in the session file
Ctrl-C pauses safely at any moment; nothing you typed is lost."""


def question_panel(
    text: str, *, turn: int, strategy: str | None, focus: str | None, asked_by: str = "tool"
) -> Panel:
    """A question in its panel; the subtitle names the tool's strategy and focus, or says the
    moderator asked it (``/ask``: the words are theirs, not the strategy's)."""
    subtitle = " · ".join(
        part for part in (strategy and f"strategy: {strategy}", focus and f"focus: {focus}") if part
    )
    if asked_by == "moderator":
        subtitle = "asked by the moderator"
    return Panel(
        Text(text, style="bold"),
        title=f"Question {turn}",
        title_align="left",
        # Text, not a str: the focus is a respondent's words, and Rich reads "[...]" as markup.
        subtitle=Text(subtitle) if subtitle else None,
        subtitle_align="right",
        border_style="cyan",
    )


def stimulus_panel(stimulus: StimulusRecord) -> Panel:
    """The concept as the respondent is shown it before the first question; an image is
    named by its path (the moderator shows the picture)."""
    body = Text(stimulus.text)
    if stimulus.image:
        body.append(f"\n\nImage: {stimulus.image}", style="dim")
    return Panel(body, title="The concept", title_align="left", border_style="yellow")


def turn_summary(turn: TurnRecord, *, width: int | None = None) -> Text:
    """One dim line of what the turn changed; ``width`` (the console's) breaks it only between
    its parts, so "depth: shallow" is never split across two lines."""
    delta = turn.graph_delta
    added = len(delta.nodes_added)
    merged = len(delta.nodes_merged)
    edges = len(delta.edges_added)
    taken = turn.extraction.rejected if turn.extraction else []
    # An edge turned the way its relation runs was taken, not rejected.
    rejected = len(delta.rejected) + sum(not r.reason.startswith(REVERSED_EDGE) for r in taken)
    parts = ["+" + plural(added, "node"), "+" + plural(edges, "edge")]
    if turn.answer.declined:
        parts.insert(0, "declined")
    if merged:
        parts.append(f"{merged} merged")
    if rejected:
        parts.append(f"{rejected} rejected")
    ended = turn.safety is not None and turn.safety.action == "end"
    closing = turn.continuation is not None and not turn.continuation.should_continue
    if closing and not ended:
        # (the move it would have made is not asked: testers of rounds 215-218 read "next:
        # dig_motivation → habit now" under the closing question)
        parts.append("next: closing")
    elif turn.decision and not ended:  # a safety end withdraws the next question
        focus = f" → {turn.decision.label}" if turn.decision.label else ""
        parts.append(f"next: {turn.decision.strategy}{focus}")
    if turn.assessment:
        depth = turn.signals.get("llm.response_depth")
        if depth:
            parts.append(f"depth: {depth}")
    return Text(_join_within("  ", parts, " · ", width), style="dim")


def _join_within(indent: str, parts: Sequence[str], sep: str, width: int | None) -> str:
    """``parts`` joined by ``sep``, on a new indented line where one would overflow ``width``."""
    lines = [indent]
    for part in parts:
        line = lines[-1]
        joined = part if line == indent else sep + part
        if width and line != indent and len(line) + len(joined) > width:
            lines.append(indent + part)
        else:
            lines[-1] = line + joined
    return "\n".join(lines)


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


def candidates_table(candidates: Sequence[CandidateRecord], *, limit: int = 6) -> Table:
    """The top admissible candidates (and some vetoed ones) with their score arithmetic.

    Each candidate's main drivers sit on their own lines under its move rather than in a
    column of their own: squeezed beside six other columns at 80 characters, a drivers column
    was folded into one- to three-letter fragments."""
    table = Table(
        title="Top candidates (strategy × focus)",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        show_lines=True,
    )
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("strategy → focus; drivers / veto", overflow="fold")
    for name in ("base", "×phase", "+bonus", "final"):
        table.add_column(name, justify="right", no_wrap=True)
    shown = [c for c in candidates if not c.vetoed_by][:limit]
    shown += [c for c in candidates if c.vetoed_by][: max(0, limit - len(shown)) or 3]
    for cand in shown:
        move = Text.assemble((cand.strategy, "bold"), " → ", cand.node_label or "—")
        if cand.vetoed_by:
            move.append(f"\n  vetoed: {cand.vetoed_by}", style="red")
        else:
            contributions = sorted(
                cand.signal_contributions, key=lambda c: -abs(float(c.contribution))
            )
            for c in contributions[:3]:
                if float(c.contribution):
                    move.append(f"\n  {c.key} {float(c.contribution):+.2f}", style="dim")
        table.add_row(
            Text(str(cand.rank)),
            move,
            Text(f"{float(cand.base_score):.3f}"),
            Text(f"{float(cand.phase_multiplier):.2f}"),
            Text(f"{float(cand.phase_bonus):+.2f}"),
            Text(f"{float(cand.final_score):.3f}"),
            style="bold green" if cand.selected else None,
        )
    return table


def signals_table(signals: Mapping[str, Any], *, title: str = "Signals") -> Table:
    table = Table(title=title)
    table.add_column("signal")
    table.add_column("value", justify="right")
    for name in sorted(signals):
        table.add_row(Text(name), Text(_fmt(signals[name])))
    return table


def why_view(
    turn: TurnRecord | None, *, full: bool = False, coverage: SessionCoverage | None = None
) -> Group | Text:
    """``/why``: the decision in plain words (``ui.why``); ``full`` adds every recorded
    candidate's score arithmetic; ``coverage``: a concept test's stimulus elements."""
    if turn is None or turn.decision is None:
        opening = Text(
            "This is the opening question: it comes from the concept's objective and the "
            "methodology's opening guidance, before any answer exists.",
            style="italic",
        )
        return Group(opening, *coverage_lines(coverage)) if coverage is not None else opening
    if not full:
        return why_short(turn, coverage=coverage)
    # The plain-words view, then the arithmetic. The recorded rationale lines are not shown:
    # they quote the signal catalogue's descriptions, which describe a signal, not the
    # qualifier that fired ("has_outgoing.false ... has at least one outgoing edge").
    parts: list[Any] = [
        why_short(turn, footer=False, coverage=coverage),
        candidates_table(turn.candidates),
    ]
    if turn.continuation:
        parts.append(
            Text(
                f"Continuation: {'continue' if turn.continuation.should_continue else 'stop'}"
                + (f" ({turn.continuation.reason})" if turn.continuation.reason else ""),
                style="dim",
            )
        )
    return Group(*parts)


def _edges(graph: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(graph.get("edges", graph.get("links", [])))


def graph_tree(graph: Mapping[str, Any], *, level_of: Mapping[str, int] | None = None) -> Tree:
    """The graph as a tree: roots are nodes nobody points to (lowest level first)."""
    nodes = {n["id"]: n for n in graph.get("nodes", [])}
    children: dict[str, list[tuple[str, str]]] = {nid: [] for nid in nodes}
    has_parent: set[str] = set()
    for edge in _edges(graph):
        src, dst = edge.get("source", ""), edge.get("target", "")
        if src in nodes and dst in nodes and src != dst:
            relations = edge.get("relations")
            rel = (
                ", ".join(sorted(relations))
                if isinstance(relations, Mapping)
                else str(edge.get("relation", edge.get("relations", "")))
            )
            children[src].append((dst, rel))
            has_parent.add(dst)
    levels = level_of or {}

    def key(nid: str) -> tuple[int, str]:
        node = nodes[nid]
        return (levels.get(str(node.get("node_type")), 99), str(node.get("label", "")))

    def label(nid: str) -> Text:
        node = nodes[nid]
        return Text.assemble(
            (str(node.get("label", nid)), "bold"), (f"  [{node.get('node_type', '?')}]", "dim")
        )

    root = Tree(Text(f"Knowledge graph: {len(nodes)} nodes, {len(_edges(graph))} edges", "bold"))
    seen: set[str] = set()

    def grow(branch: Tree, nid: str, depth: int) -> None:
        for child, rel in sorted(children[nid], key=lambda c: key(c[0])):
            if child in seen or depth > 12:
                branch.add(Text.assemble(label(child), (f"  ({rel}, see above)", "dim")))
                continue
            seen.add(child)
            grow(branch.add(Text.assemble(label(child), (f"  ← {rel}", "dim"))), child, depth + 1)

    roots = sorted((nid for nid in nodes if nid not in has_parent), key=key)
    # Nodes only reachable through cycles have a parent but no root above them.
    for nid in roots + sorted(nodes, key=key):
        if nid in seen:
            continue
        seen.add(nid)
        grow(root.add(label(nid)), nid, 1)
    return root


def slot_discovery_view(record: Mapping[str, Any]) -> Text | None:
    """One turn's canonical slot changes (``TurnRecord.slot_discovery``, dual graph): new slots,
    surface concepts mapped to existing ones and how, promotions. None when slots were off."""
    if not record:
        return None
    slots = {s["id"]: s for s in record.get("slots", [])}

    def name(slot_id: str) -> str:
        return f"{slot_id} {slots.get(slot_id, {}).get('slot_name', '')}".strip()

    bits: list[str] = []
    for m in record.get("mappings_created", []):
        via, label = m.get("via", "new"), m.get("surface_label", m.get("surface_node_id", ""))
        if via == "new":
            bits.append(f"+ {name(m['slot_id'])} ← {label}")
        elif via == "grouped":
            bits.append(f"+ {label} → {name(m['slot_id'])} (grouped)")
        else:
            bits.append(
                f"= {label} → {name(m['slot_id'])} ({via} {float(m.get('similarity', 0)):.2f})"
            )
    for slot_id in record.get("slots_promoted", []):
        support = slots.get(slot_id, {}).get("support_count", "?")
        bits.append(f"↑ {name(slot_id)} active (support {support})")
    if record.get("unmapped"):
        bits.append(f"{len(record['unmapped'])} unmapped, asked again next turn")
    state = record.get("graph_state", {})
    active = int(state.get("concept_count", 0))
    total = active + int(state.get("candidate_count", 0))
    summary = f"  [{active} active of {total} slots, {state.get('edge_count', 0)} canonical edges]"
    return Text("Slots: " + (" · ".join(bits) or "no change") + summary, style="magenta")


def dual_graph_table(rows: Sequence[Mapping[str, Any]]) -> Table:
    """Surface vs canonical graph per session (``core.canonical.slots.dual_graph_comparison`` rows
    with an ``id``), seed 002 "Optimization Results Summary" style."""
    table = Table(
        title="Surface vs canonical graph",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column("session", overflow="fold")
    for name in ("nodes", "edges", "e/n", "slots (active)", "canon. edges", "unmapped"):
        table.add_column(name, justify="right", no_wrap=True)
    from interview_cli.analysis.report.to_markdown import (
        dual_graph_row,  # the same cells as md/html
    )

    for r in rows:
        session, *figures = dual_graph_row(r)
        table.add_row(Text(session), *figures)
    return table


def _turns_shown(session: SessionFile) -> str:
    """Completed turns, and the closing answer when there was one: every answer counts."""
    turns = session.turn_count
    if session.answer_count > turns:
        return f"{turns} + the closing answer ({session.answer_count} answers)"
    return str(turns)


def _coverage_rows(coverage: SessionCoverage | None) -> list[tuple[str, Any]]:
    """A concept test's stimulus elements on the end screen: covered, and not covered."""
    if coverage is None:
        return []
    covered, missing = coverage.covered, coverage.missing
    rows: list[tuple[str, Any]] = [
        (
            "elements covered",
            f"{len(covered)} of {len(coverage.elements)} ({coverage.ratio:.0%})"
            + (": " + "; ".join(e.label for e in covered) if covered else ""),
        )
    ]
    if missing:
        rows.append(("not covered", "; ".join(e.label for e in missing)))
    return rows


def end_screen(
    session: SessionFile, *, stats: Mapping[str, Any], coverage: SessionCoverage | None = None
) -> Panel:
    """The closing summary. The session file's path is not in it: see :func:`saved_to`.
    ``coverage``: a concept test's stimulus elements, covered and not."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    # Fold, never "…": a provider label or a reason cut short would read as the whole of it.
    table.add_column(overflow="fold")
    rows: Iterable[tuple[str, Any]] = (
        ("status", session.status),
        ("turns", _turns_shown(session)),
        ("nodes", stats.get("nodes", 0)),
        ("edges", stats.get("edges", 0)),
        ("max depth", stats.get("max_depth", 0)),
        # (not "chains completed": testers read "0" beside a summary of chains as a
        # contradiction; it counts the chains that climb to the ontology's top level)
        ("chains to the top level", stats.get("chains_completed", 0)),
        *(
            [("canonical slots", f"{stats['active_slots']} active of {stats['canonical_slots']}")]
            if "canonical_slots" in stats
            else []
        ),
        ("termination", ended_because(session.termination_reason)),
        *_coverage_rows(coverage),
        ("cost", _cost_cell(session.usage, _all_offline(session.settings.clients))),
        ("provider", session.settings.provider_label),
    )
    for name, value in rows:
        table.add_row(name, Text(str(value)))
    return Panel(table, title="Interview summary", title_align="left", border_style="green")


def _turn_events(turn: TurnRecord) -> list[str]:
    """The moderator's decision and the safety response of a turn, in words."""
    lines: list[str] = []
    decision = turn.decision
    if decision is not None and decision.decided_by == "moderator" and decision.moderator:
        tool = decision.tool_choice
        chose = (tool.strategy if tool else "?") + (
            f" → {tool.label}" if tool and tool.label else ""
        )
        lines.append(f"moderator: /{decision.moderator.action} (the tool chose {chose})")
    if turn.safety is not None:
        lines.append(f"safety: {turn.safety.kind} → {turn.safety.action}")
    return lines


def saved_to(path: str) -> Text:
    """The session file's path, for printing with ``soft_wrap=True``: on a line of its own and
    never broken or cut by Rich, so it can be copied whole from any terminal width."""
    return Text.assemble(("Session file: ", "bold"), path)


def transcript(session: SessionFile, console: Console) -> None:
    """A recorded session as text. Every recorded string goes through :class:`Text`, never
    markup: answers, questions and labels are respondents' and models' words."""
    console.print(
        Text.assemble(
            (session.id, "bold"),
            f" · {session.concept.name} · {session.methodology.name} · {session.status}",
        )
    )
    if session.consent is not None:
        said = "agreed" if session.consent.agreed else "refused"
        console.print(Text(f"consent: {said} ({session.consent.answer!r})", style="dim"))
    fork = session.fork
    if fork is not None:
        console.print(
            Text(
                f"fork of {fork.session_id}: turns 1-{fork.turn} as recorded there, then "
                f"{session.settings.policy} decides and a persona answers",
                style="dim",
            )
        )
    if session.stimulus is not None:
        console.print(stimulus_panel(session.stimulus))
    coverage = shown_coverage(session)
    for turn in session.turns:
        if fork is not None and turn.turn_number == fork.turn + 1:
            console.print(Text(f"\n── the fork goes on from here (run {fork.run}) ──", style="dim"))
        q = turn.question
        meta = " · ".join(x for x in (q.strategy, q.focus_label) if x)
        console.print()
        question = Text.assemble((f"Q{turn.turn_number}", "cyan"), " ", q.text)
        if meta:
            question.append(f"  ({meta})", style="dim")
        if q.asked_by == "moderator":
            question.append("  [asked by the moderator]", style="dim")
        console.print(question)
        for note in q.notes:
            console.print(Text(f"   note: {note}", style="dim"))
        answer = "(declined: /pass)" if turn.answer.declined else turn.answer.text
        console.print(Text.assemble((f"A{turn.turn_number}", "green"), " ", answer))
        if turn.status == "complete" and turn.extraction:
            labels = ", ".join(f"{n.label} [{n.node_type}]" for n in turn.extraction.nodes)
            if labels:
                console.print(Text(f"   extracted: {labels}", style="dim"))
        for line in _turn_events(turn):
            console.print(Text(f"   {line}", style="dim"))
        for line in element_marks(coverage, turn.turn_number):
            console.print(Text(f"   {line}", style="yellow"))
    if session.pending_question and session.status != "completed":
        console.print()
        console.print(Text.assemble(("Next question", "cyan"), " ", session.pending_question.text))
    if session.closing is not None:
        _closing_part(session, console)
    if coverage is not None:
        console.print()
        console.print(elements_table(coverage))
    console.print()
    console.print(question_card_view(session))


def elements_table(coverage: SessionCoverage) -> Table:
    """Each stimulus element: where it came up, who brought it up, the reactions, ladders."""
    table = Table(
        title=f"Stimulus elements: {len(coverage.covered)} of {len(coverage.elements)} covered "
        f"({coverage.ratio:.0%})",
        title_justify="left",
        box=box.SIMPLE_HEAD,
    )
    for name in ELEMENT_COLUMNS:
        table.add_column(name, overflow="fold")
    for e in coverage.elements:
        table.add_row(*(Text(cell) for cell in element_cells(e)))
    return table


def _closing_part(session: SessionFile, console: Console) -> None:
    closing = session.closing
    assert closing is not None
    # Each part is shown whenever it was recorded: /end leaves a summary and a rating but no
    # closing question.
    if closing.question:
        console.print()
        console.print(Text.assemble(("Closing", "cyan"), " ", closing.question))
    if closing.comment:
        if not closing.question:
            console.print()
        console.print(Text.assemble(("A", "green"), " ", closing.comment))
        if closing.extraction is not None and closing.extraction.nodes:
            labels = ", ".join(f"{n.label} [{n.node_type}]" for n in closing.extraction.nodes)
            console.print(Text(f"   extracted: {labels}", style="dim"))
    if closing.summary:
        console.print()
        console.print(Text("What I understood", style="bold"))
        console.print(Text(closing.summary))
    if closing.rating:
        console.print(Text(f"   summary rated {closing.rating}/4 for accuracy"))
    elif closing.summary and session.settings.ask_summary_rating and session.status == "completed":
        console.print(Text("   summary not rated", style="dim"))


def question_card_view(session: SessionFile) -> Text:
    """The session's question report card: the figures, then each question that fell short
    and why (``analysis.report.question_card``)."""
    from interview_cli.analysis.report.question_card import CHECK_NAMES, question_card

    card = question_card(session)
    text = Text("Question report card", style="bold")
    figures = ", ".join(f"{name} {card.counts[check]}" for check, name in CHECK_NAMES.items())
    text.append(f"\n{plural(card.questions, 'question')}, {card.clean} clean; {figures}")
    for flagged in card.flagged:
        why = ", ".join(CHECK_NAMES[c] for c in flagged.checks)
        text.append(f"\n   {flagged.label} ({why}): ", style="dim")
        text.append(flagged.text, style="dim")
    text.append(
        "\n   (interview report shows these per 100 questions, with what each counts)",
        style="dim",
    )
    return text


def _all_offline(clients: dict[str, Any]) -> bool:
    return bool(clients) and all(c.provider == "offline" for c in clients.values())


def _cost_cell(usage: Any, offline: bool = False) -> str:
    """The end screen's cost: unknown (never $0) for calls of models without a price; none
    when no model was called (a tester read "$0.0000 (81 LLM calls)" next to "offline" as a
    contradiction, round 189)."""
    from interview_cli.llm.spend import format_cost

    if offline:
        return f"none: offline, no model called ({usage.calls} offline task calls)"
    unpriced = list(getattr(usage, "unpriced", []) or [])
    text = f"{format_cost(usage.priced_cost_usd, unpriced)} ({usage.calls} LLM calls)"
    if unpriced:
        text += (
            f"; no price for {', '.join(unpriced)} (add one under prices: in INTERVIEW_LLM_CONFIG)"
        )
    return text
