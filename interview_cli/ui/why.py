"""``/why`` in plain words: the move, the reasons that decided it, the runner-up, the rules.

The short view answers a moderator's question ("why this question now?") on a few lines that
fit a 40-line screen: the chosen strategy and focus, the two or three contributions that
carried it (as sentences, not signal names), the runner-up and what held it back, a close
call and how it was settled, a stop that was put off, a higher score passed over by such a
rule, and in a concept test the stimulus elements covered and not yet. When the moderator
overruled the tool (``/alt``, ``/skip``) or asked in their own words (``/ask``), it says so
first, then what the tool had chosen and why. ``/why full`` adds the score arithmetic of
every recorded candidate (``ui.interview.why_view``).

Everything is read from the recorded turn, so an old session explains itself the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from interview_cli.analysis.report.elements import SessionCoverage, reactions_text
from interview_cli.config.signal_catalogue import resolve_weight_key
from interview_cli.session.schema import (
    CandidateRecord,
    ContributionRecord,
    FocusRecord,
    ModeratorRecord,
    TurnRecord,
)

REASONS_SHOWN = 3
# Contributions smaller than this did not decide anything worth a line.
MIN_REASON = 0.05

# What a weight key means, said as a reason about the focus node or the conversation.
PLAIN: dict[str, str] = {
    "graph.node.has_outgoing.false": "nothing leads on from it yet: its 'why' is still open",
    "graph.node.has_outgoing.true": "it already leads on to something else",
    "graph.node.is_terminal.false": "it is not yet a core value, so the ladder can climb",
    "graph.node.is_terminal.true": "it is already a core value: the top of a ladder",
    "graph.node.recency_score.high": "it came up just now",
    "graph.node.recency_score.mid": "it came up a few turns ago",
    "graph.node.recency_score.low": "it has not come up for a while",
    "graph.node.exhaustion_score.low": "it is far from worn out",
    "graph.node.exhaustion_score.mid": "it is partly worn out",
    "graph.node.exhaustion_score.high": "it is nearly worn out",
    "graph.node.exhausted.true": "it is worn out: no new answers on it for a while",
    "graph.node.exhausted.false": "it is not worn out",
    "graph.node.yield_stagnation.true": "it has brought nothing new for 3 or more turns",
    "graph.node.is_current_focus.true": "the last question was about it",
    "graph.node.is_current_focus.false": "the last question was about something else",
    "graph.node.is_orphan.true": "it is not connected to anything yet",
    "graph.node.is_orphan.false": "it is connected to something already",
    "graph.node.yield_stagnation.false": "it brought something new lately",
    "graph.node.level_ratio.high": "it sits high on the ladder (abstract)",
    "graph.node.level_ratio.mid": "it sits midway up the ladder",
    "graph.node.level_ratio.low": "it is concrete, low on the ladder",
    "graph.chain_completion.ratio.high": "most ladders already reach a core value",
    "graph.chain_completion.ratio.low": "few ladders reach a core value yet",
    "graph.chain_completion.has_complete.true": "at least one ladder reaches a core value",
    "graph.chain_completion.has_complete.false": "no ladder reaches a core value yet",
    "llm.specificity.low": "the last answer was vague",
    "llm.specificity.high": "the last answer was concrete",
    "llm.engagement.low": "the respondent seems disengaged",
    "llm.engagement.mid": "the respondent is moderately engaged",
    "llm.engagement.high": "the respondent is engaged",
    "meta.node.opportunity.fresh": "it is fresh ground",
    "meta.node.opportunity.probe_deeper": "answers on it are deep but brought nothing new",
    "meta.node.opportunity.exhausted": "it is exhausted: time to move away",
    "technique.node.probe_history.unprobed": "it has not been asked about yet",
    "technique.node.probe_history.productive": "questions on it brought new rungs",
    "technique.node.probe_history.fruitless": "the last question on it brought nothing new",
    "technique.node.probe_history.exhausted": (
        "it is closed: asked twice in vain, or left on request"
    ),
    "technique.node.probe_history.returnable": (
        "it was left unfinished a while ago: time to come back to it another way"
    ),
    "meta.conversation.saturation.high": "little new is coming in",
    "meta.conversation.saturation.low": "new things are still coming in",
    "coverage.has_gaps.true": "some stimulus elements still have gaps",
    "coverage.has_gaps.false": "every stimulus element is covered",
    "coverage.node.has_gap.true": "its stimulus element still has a gap",
    "coverage.node.has_gap.false": "its stimulus element has no gap left",
    "coverage.ratio.low": "few of the concept's elements have come up yet",
    "coverage.raise_pressure": "elements left to raise for the turns left",
}

# Categorical signals whose value reads well after a fixed phrase.
CATEGORY_PHRASES: dict[str, str] = {
    "llm.response_depth": "the last answer was {}",
    "llm.hedging_language": "hedging in the last answer: {}",
    "llm.knowledge_ceiling": "don't-know in the last answer: {}",
    "llm.answer_kind": "the last reply was {}",
    "llm.global_response_trend": "answers over the interview are {}",
    "meta.interview.phase": "the interview is in its {} phase",
    "graph.node.focus_streak": "asked about several turns running ({})",
    "technique.node.strategy_repetition": "the same strategy on it repeatedly ({})",
    "coverage.node.reaction": "the respondent's reaction to its element: {}",
}
ANSWER_KINDS = {
    "dont_know": "a don't-know",
    "already_said": "'I already said that'",
    "move_on": "'can we move on'",
    "about_interview": "a remark about the interview",
    "answer": "an answer",
}
COUNT_PHRASES: dict[str, str] = {
    "temporal.strategy_repetition_count": "this strategy ran in {} of the last 5 turns",
    "temporal.turns_since_strategy_change": "the strategy has not changed for {} turns",
}
# Why an interview ended, in words: the recorded reasons are stable codes (files, reports
# and tests match on them), and two of them read like sentences while the others do not.
ENDED_WORDS: dict[str, str] = {
    "Maximum turns reached": "turn limit reached",
    "Closing strategy selected": "closing question asked",
    "graph_saturated": "nothing new for several turns",
    "quality_degraded": "answers stayed shallow",
    "depth_plateau": "ladders stopped getting deeper",
    "all_nodes_exhausted": "every topic exhausted",
    "respondent_fatigued": "respondent tiring",
    "little_to_say": "respondent had little to say",
    "saturated": "saturated",
    "ended by moderator": "ended by the moderator",
}


# Plain keys whose contribution is weight x value: the value is part of the reason.
COUNTED = frozenset({"coverage.raise_pressure"})


def ended_because(reason: str | None) -> str:
    """A termination reason in words; "—" when the interview has not ended."""
    if not reason or reason == "—":
        return "—"
    return ENDED_WORDS.get(reason, reason.replace("_", " "))


_TIE = re.compile(r"^tie-break \(within ([^)]*)\): '(.*)' over (.*): ([^:]*)$")
# A stop or a closing question put off by a rule (``core.decide.continuation.decide_stopping``).
_DEFERRED = re.compile(r"^(stop|closing) deferred(?: \(([^)]*)\))?: (.*); asking (\S+) first$")


def plain_reason(key: str, value: Any = None) -> str:
    """A weight key (``graph.node.has_outgoing.false``) as a reason in plain words."""
    if key in PLAIN:
        # a plain key weighs by its value: say the value too
        return PLAIN[key] + (f" ({_value(value)})" if key in COUNTED and value is not None else "")
    resolved = resolve_weight_key(key)
    if resolved is None:
        return key
    spec, qualifier = resolved
    if spec.name in CATEGORY_PHRASES and qualifier:
        shown = ANSWER_KINDS.get(qualifier, qualifier.replace("_", " "))
        return CATEGORY_PHRASES[spec.name].format(shown)
    if spec.name in COUNT_PHRASES and value is not None:
        return COUNT_PHRASES[spec.name].format(value)
    description = spec.description.rstrip(".")
    description = description[:1].lower() + description[1:]
    if spec.kind == "bool" and qualifier:
        # The catalogue describes the true case: asked as a question, the answer is the value
        # ("a stage with no touchpoint told? no"), never a sentence that says the opposite.
        return f"{description}? {'yes' if qualifier == 'true' else 'no'}"
    if qualifier:
        return f"{description}: {qualifier}"
    return f"{description} ({_value(value)})" if value is not None else description


# A recorded rationale line of a signal's contribution (``core.decide.decision``):
# "+1.00 graph.node.has_outgoing.false (value false): The node has at least one outgoing edge."
_CONTRIBUTION = re.compile(r"^([+-]\d+(?:\.\d+)?) (\S+) \(value ([^)]*)\)(?:: .*)?$")


def plain_rationale(line: str) -> str:
    """A recorded rationale line as a reader takes it: a signal's contribution in plain
    words ("+1.00 nothing leads on from it yet: its 'why' is still open"), since the catalogue
    description recorded after it says what the signal is, not what its value means; any
    other line as it is."""
    found = _CONTRIBUTION.match(line)
    if found is None:
        return line
    points, key, value = found.groups()
    return f"{points} {plain_reason(key, value)}"


def _value(value: Any) -> str:
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def _focus(cand: CandidateRecord) -> str:
    label = cand.node_label
    return f"{cand.strategy} on “{label}”" if label else cand.strategy


def _contributions(cand: CandidateRecord) -> list[ContributionRecord]:
    return sorted(cand.signal_contributions, key=lambda c: (-float(c.contribution), c.key))


def deciding_reasons(cand: CandidateRecord, limit: int = REASONS_SHOWN) -> list[tuple[str, float]]:
    """The largest positive contributions of a candidate, in plain words, with their points."""
    out: list[tuple[str, float]] = []
    for c in _contributions(cand):
        points = float(c.contribution)
        if points < MIN_REASON or len(out) >= limit:
            break
        out.append((plain_reason(c.key, c.value), points))
    return out


def _rivals(turn: TurnRecord, chosen: CandidateRecord) -> list[CandidateRecord]:
    """The admissible candidates the chosen one was ranked against, best first."""
    return sorted(
        (
            c
            for c in turn.candidates
            if not c.selected and not c.vetoed_by and c.stage == chosen.stage
        ),
        key=lambda c: -float(c.final_score),
    )


def _runner_up(turn: TurnRecord, chosen: CandidateRecord) -> CandidateRecord | None:
    """The best candidate that scored no more than the chosen one."""
    best = float(chosen.final_score)
    return next((c for c in _rivals(turn, chosen) if float(c.final_score) <= best), None)


def _passed_over(turn: TurnRecord, chosen: CandidateRecord) -> list[Text]:
    """Candidates that scored more than the chosen one: a rule (a close call, a deferred stop
    or closing question) chose below the top score, and says why in its own line."""
    best = float(chosen.final_score)
    higher = [c for c in _rivals(turn, chosen) if float(c.final_score) > best]
    return [
        Text.assemble(
            ("Passed over: ", "bold"),
            f"{_focus(c)} at {float(c.final_score):.2f} "
            f"({float(c.final_score) - best:.2f} more), set aside by the rule below",
        )
        for c in higher[:2]
    ]


def lost_because(winner: CandidateRecord, runner: CandidateRecord) -> str:
    """Why the runner-up lost, in words: what held it back, or what it lacked."""
    gap = float(winner.final_score) - float(runner.final_score)
    negatives = [c for c in reversed(_contributions(runner)) if float(c.contribution) < 0]
    own = {c.key for c in runner.signal_contributions}
    missing = [r for r in _contributions(winner) if r.key not in own]
    lacking = float(missing[0].contribution) if missing else 0.0
    # Say whichever explains more of the gap: a penalty it got, or a reason it lacks.
    if negatives and -float(negatives[0].contribution) >= lacking:
        worst = negatives[0]
        return (
            f"{gap:.2f} behind; held back because "
            f"{plain_reason(worst.key, worst.value)} "
            f"({float(worst.contribution):+.2f})"
        )
    if lacking > 0:
        return f"{gap:.2f} behind; it lacks: {plain_reason(missing[0].key)}"
    return f"{gap:.2f} behind on the same kind of reasons"


def rule_notes(turn: TurnRecord) -> list[str]:
    """The moderation rules that fired (a close call, a deferred stop), in plain words."""
    decision = turn.decision
    if decision is None:
        return []
    recorded = [getattr(decision, "tie_break", None), getattr(decision, "stop_deferred", None)]
    lines = [x for x in recorded if isinstance(x, str)] or list(decision.rationale)
    notes = []
    for line in lines:
        tie = _TIE.match(line)
        deferred = _DEFERRED.match(line)
        if tie:
            margin, chosen, others, rule = tie.groups()
            count = others.count("', '") + 1
            notes.append(
                f"Close call: “{chosen}” and {count} other{'s' if count != 1 else ''} ({others}) "
                f"scored within {margin}; “{chosen}” went first: {rule}."
            )
        elif deferred:
            what, reason, why, strategy = deferred.groups()
            if what == "closing":
                notes.append(f"Not closing yet: {why}; asking {strategy} first.")
            else:
                notes.append(f"Not stopping yet ({reason}): {why}; asking {strategy} first.")
    return notes


def _target(decision: Any, coverage: SessionCoverage | None) -> str:
    if decision.element_id is not None:
        element = coverage.of(decision.element_id) if coverage is not None else None
        return f" raising “{element.label if element else decision.element_id}”"
    return f" on “{decision.label}”" if decision.label else " (no node focus)"


def coverage_lines(coverage: SessionCoverage) -> list[Text]:
    """The concept's stimulus elements: which came up (with the reactions), which not yet."""
    covered, missing = coverage.covered, coverage.missing
    head = Text.assemble(
        ("Stimulus elements: ", "bold"),
        f"{len(covered)} of {len(coverage.elements)} covered ({coverage.ratio:.0%}; "
        f"the methodology wants {coverage.threshold:.0%} before an early stop)",
    )
    lines = [head]
    if covered:
        said = [
            e.label + (f" ({reactions_text(e.reactions)})" if e.reactions else "") for e in covered
        ]
        lines.append(Text("  covered: " + "; ".join(said)))
    if missing:
        raised = [e.label + _raised_note(e, coverage.answered) for e in missing]
        lines.append(Text("  not yet: " + "; ".join(raised)))
    return lines


def _raised_note(element: Any, answered: int) -> str:
    if not element.raised:
        return ""
    if max(element.raised) > answered:
        return " (raised by the question now)"
    return " (raised, no answer on it)"


def why_short(
    turn: TurnRecord, *, footer: bool = True, coverage: SessionCoverage | None = None
) -> Group:
    """The decision behind the turn's question on a few lines (see the module docstring);
    ``coverage``: a concept test's stimulus elements, listed covered and missing."""
    decision = turn.decision
    assert decision is not None
    chosen = next((c for c in turn.candidates if c.selected), None)
    if decision.decided_by == "moderator" and decision.moderator is not None:
        parts = _moderator_decided(turn, decision.moderator, chosen, coverage)
    else:
        parts = _tool_decided(turn, chosen, coverage)
    if turn.continuation and not turn.continuation.should_continue:
        ended = ended_because(turn.continuation.reason)
        parts.append(Text(f"The interview ends: {ended}", style="bold"))
    if coverage is not None:
        parts += coverage_lines(coverage)
    if footer:
        parts.append(Text("/why full: every candidate's score arithmetic", style="dim"))
    return Group(*parts)


def _tool_decided(
    turn: TurnRecord, chosen: CandidateRecord | None, coverage: SessionCoverage | None
) -> list[Any]:
    """The tool's own decision: its move, the reasons, the runner-up and the rules."""
    decision = turn.decision
    assert decision is not None
    head = Text.assemble(
        ("Chosen: ", "bold"),
        (decision.strategy, "bold green"),
        (_target(decision, coverage), "green"),
        (f"   phase: {decision.phase}" if decision.phase else "", "dim"),
    )
    if chosen is None:
        return [head, *(Text(note) for note in rule_notes(turn))]
    head.append(f"   score {float(chosen.final_score):.2f}", style="dim")
    parts: list[Any] = [head, *_because(chosen)]
    if float(chosen.phase_multiplier) != 1.0:
        parts.append(
            Text(
                f"The {decision.phase or 'current'} phase weighs {decision.strategy} "
                f"x{float(chosen.phase_multiplier):g}"
                + (f" +{float(chosen.phase_bonus):g}" if chosen.phase_bonus else ""),
                style="dim",
            )
        )
    runner = _runner_up(turn, chosen)
    if runner is not None:
        parts.append(
            Text.assemble(
                ("Runner-up: ", "bold"),
                f"{_focus(runner)} at {float(runner.final_score):.2f}, ",
                lost_because(chosen, runner),
            )
        )
    parts += _passed_over(turn, chosen)
    parts += [Text(note) for note in rule_notes(turn)]
    parts += _vetoed_winners(turn, chosen)
    return parts


def _because(cand: CandidateRecord) -> list[Any]:
    reasons = deciding_reasons(cand)
    if not reasons:
        return []
    bullets = _bullets([f"{text} ({points:+.2f})" for text, points in reasons])
    return [Text("Because:", style="bold"), bullets]


def _moderator_decided(
    turn: TurnRecord,
    moderator: ModeratorRecord,
    tool_pick: CandidateRecord | None,
    coverage: SessionCoverage | None,
) -> list[Any]:
    """A decision the moderator overruled (/alt, /skip) or reworded (/ask): what the
    moderator did, then what the tool had chosen and why (its candidates are the tool's)."""
    decision = turn.decision
    assert decision is not None
    move = Text.assemble((decision.strategy, "bold green"), (_target(decision, coverage), "green"))
    tool = decision.tool_choice
    if moderator.action == "alt":
        head = Text.assemble(("Chosen by the moderator", "bold"), " (/alt): ", move)
        taken = next(
            (
                c
                for c in turn.candidates
                if (c.strategy, c.node_id) == (decision.strategy, decision.node_id)
            ),
            None,
        )
        if taken is not None and tool_pick is not None:
            gap = float(tool_pick.final_score) - float(taken.final_score)
            head.append(
                f", the tool's next-best move (score {float(taken.final_score):.2f}, "
                f"{gap:.2f} behind its choice)"
            )
        else:
            head.append(", the tool's next-best move")
    elif moderator.action == "skip":
        dropped = _label_of(turn, moderator.node_id, tool)
        head = Text.assemble(
            ("The moderator closed ", "bold"),
            (f"“{dropped}”", "bold"),
            " (/skip); the tool then chose ",
            move,
        )
    else:
        head = Text.assemble(("Asked by the moderator", "bold"), " (/ask), in their own words")
    parts: list[Any] = [head]
    if moderator.text and moderator.action != "ask":
        parts.append(Text("The moderator then worded the question (/ask)."))
    if tool is not None:
        kept = moderator.action == "ask"
        tool_move = f"{tool.strategy} on “{tool.label}”" if tool.label else tool.strategy
        line = Text.assemble(
            ("The tool's move, kept: " if kept else "The tool had chosen: ", "bold"), tool_move
        )
        if tool_pick is not None:
            line.append(f"   score {float(tool_pick.final_score):.2f}", style="dim")
        parts.append(line)
        if tool_pick is not None:
            parts += _because(tool_pick)
    return parts


def _label_of(turn: TurnRecord, node_id: str | None, tool: FocusRecord | None) -> str:
    if tool is not None and tool.node_id == node_id and tool.label:
        return tool.label
    labels = (c.node_label for c in turn.candidates if c.node_id == node_id and c.node_label)
    return next(labels, node_id or "the focus")


def _vetoed_winners(turn: TurnRecord, chosen: CandidateRecord | None) -> list[Text]:
    """Vetoed moves that would have scored higher: a moderator's habit overrode the scores."""
    if chosen is None or turn.decision is None:
        return []
    best = float(chosen.final_score)
    out: list[Text] = []
    for c in turn.candidates:
        if c.vetoed_by and float(c.final_score) > best and len(out) < 2:
            reason = turn.decision.veto_reasons.get(c.key, c.vetoed_by)
            out.append(Text(f"Set aside: {_focus(c)} would have scored more, but {reason}"))
    return out


def _bullets(lines: Sequence[str]) -> Table:
    # A grid gives each bullet a hanging indent: a long reason wraps under its own text.
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for line in lines:
        grid.add_row("  • ", Text(line))
    return grid
