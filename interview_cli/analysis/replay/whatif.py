"""``replay --methodology OTHER.yaml``: which decisions would other weights have changed?

What-if tuning (ARCHITECTURE principle 3): the replay loop runs with another methodology over the
same recorded model outputs. Up to the first turn whose decision differs, the other methodology
saw exactly the recorded history, so its decisions there are a fair answer to "what would these
weights have done here?". From then on the interview would have gone elsewhere: the respondent
would have been asked another question and answered differently, but the recorded answers are
all there is. The graph therefore keeps following the recorded answers while the what-if run's
own decisions (its strategy and focus history, node tracking, vetoes) drive its state; each of
those later turns is marked **counterfactual**.

Two ends are handled explicitly: when the other methodology would have stopped earlier, the
remaining recorded turns are marked as never reached; when it would have gone on after the
recorded interview stopped, that is noted (there are no answers to replay beyond).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from interview_cli.analysis.replay.engine import replay, replayable_turns
from interview_cli.analysis.sources import snapshot_methodology
from interview_cli.config.schemas import Methodology
from interview_cli.core.decide.decision import Decision
from interview_cli.errors import UsageError
from interview_cli.session.schema import SessionFile, TurnRecord


@dataclass(frozen=True)
class Choice:
    """A decision reduced to what a tuner compares: the move, its score and continue/stop."""

    strategy: str
    node_id: str | None
    label: str | None
    should_continue: bool
    reason: str = ""
    score: float | None = None

    @classmethod
    def from_decision(cls, d: Decision) -> Choice:
        chosen = d.selected_candidate
        return cls(
            strategy=d.selected.strategy,
            node_id=d.selected.node_id,
            label=d.selected.label,
            should_continue=d.continuation.should_continue,
            reason=d.continuation.reason or "",
            score=chosen.final_score if chosen is not None else None,
        )

    @classmethod
    def from_record(cls, turn: TurnRecord) -> Choice:
        d, c = turn.decision, turn.continuation
        selected = next((x for x in turn.candidates if x.selected), None)
        # Under a moderator's decision, the tool's own choice is what another tool compares with.
        tool = d.tool_choice if d else None
        return cls(
            strategy=(tool.strategy if tool else None) or (d.strategy if d else "?"),
            node_id=tool.node_id if tool else (d.node_id if d else None),
            label=tool.label if tool else (d.label if d else None),
            should_continue=c.should_continue if c else True,
            reason=(c.reason if c else "") or "",
            score=float(selected.final_score) if selected else None,
        )

    def same_move(self, other: Choice) -> bool:
        return (self.strategy, self.node_id, self.should_continue) == (
            other.strategy,
            other.node_id,
            other.should_continue,
        )

    def describe(self) -> str:
        move = f"{self.strategy} on '{self.label}'" if self.label else self.strategy
        return move if self.should_continue else f"{move}, then stop ({self.reason or 'stop'})"


@dataclass(frozen=True)
class WhatIfRow:
    turn: int
    recorded: Choice
    alternative: Choice | None  # None: the what-if interview had already ended
    differs: bool  # reached and decided differently (False for a turn never reached)
    counterfactual: bool  # the history before this turn already differs from the recorded one
    recorded_score_under_other: float | None = None
    note: str = ""


@dataclass
class WhatIfResult:
    session_id: str
    recorded_methodology: str
    other_methodology: str
    rows: list[WhatIfRow] = field(default_factory=list)
    first_change: int | None = None
    ended_at: int | None = None  # the turn after which the what-if interview would have stopped

    @property
    def changed(self) -> list[WhatIfRow]:
        """Turns the what-if interview reached and decided differently."""
        return [r for r in self.rows if r.differs]

    @property
    def reached(self) -> list[WhatIfRow]:
        """Recorded turns the what-if interview re-decided."""
        return [r for r in self.rows if r.alternative is not None]

    @property
    def not_reached(self) -> list[WhatIfRow]:
        """Recorded turns after the what-if interview would have stopped."""
        return [r for r in self.rows if r.alternative is None]

    def to_dict(self) -> dict[str, Any]:
        return {
            "session": self.session_id,
            "recorded_methodology": self.recorded_methodology,
            "other_methodology": self.other_methodology,
            "turns": len(self.rows),
            "changed_turns": [r.turn for r in self.changed],
            "not_reached_turns": [r.turn for r in self.not_reached],
            "first_change": self.first_change,
            "what_if_ends_after_turn": self.ended_at,
            "rows": [asdict(r) for r in self.rows],
        }


def _score_of(decision: Decision, choice: Choice) -> float | None:
    for c in decision.candidates:
        if c.strategy == choice.strategy and c.node_id == choice.node_id and c.stage != "strategy":
            return c.final_score
    for c in decision.candidates:  # two-stage: the strategy's own score
        if c.strategy == choice.strategy and c.stage == "strategy":
            return c.final_score
    return None


def ontology_mismatch(session: SessionFile, other: Methodology) -> str | None:
    """Why ``other`` cannot re-decide ``session``'s turns, or None when it can.

    What-if re-weights decisions over the recorded graph; it cannot re-interpret the graph. The
    recorded extractions and graph are typed by the session's ontology, so the other
    methodology must know every node type and every relation (edge type) the graph uses (else
    its strategies and signals read a graph of types they were never written for: a relation it
    does not know is neither a rung of its chains nor anything else, and any "difference" is
    meaningless). A methodology of another name must moreover have the same node and edge
    types: a tuned copy of the same ontology is a what-if, another method is not.
    """
    # The saved graph holds every node and edge ever added (superseded ones too), all of valid
    # types; raw extractions are not used, as they may hold types the graph update rejected.
    used = {str(n["node_type"]) for n in session.graph.get("nodes", []) if n.get("node_type")}
    known = {n.name for n in other.ontology.nodes}
    whose = f"session {session.id} ({session.methodology.name}) uses"
    missing = sorted(used - known)
    if missing:
        return f"its ontology lacks the node type(s) {', '.join(missing)} that {whose}"
    relations = {
        str(r) for link in session.graph.get("links", []) for r in link.get("relations", {})
    }
    known_relations = {e.name for e in other.ontology.edges}
    missing = sorted(relations - known_relations)
    if missing:
        return f"its ontology lacks the relation(s) {', '.join(missing)} that {whose}"
    if other.name == session.methodology.name:
        return None
    recorded = snapshot_methodology(session).ontology
    if {n.name for n in recorded.nodes} != known or {
        e.name for e in recorded.edges
    } != known_relations:
        return (
            f"it is {other.name}, another method with another ontology than the session's "
            f"{session.methodology.name}"
        )
    return None


def what_if(session: SessionFile, other: Methodology, *, other_label: str = "") -> WhatIfResult:
    """Re-decide every recorded turn with ``other``'s strategies, weights and tuning.

    Raises ``UsageError`` when ``other`` is of another ontology (:func:`ontology_mismatch`).
    """
    problem = ontology_mismatch(session, other)
    if problem is not None:
        raise UsageError(
            f"--methodology {other_label or other.name}: {problem}; what-if compares weights "
            "over the same ontology, so pass a variant of "
            f"{session.methodology.name} (e.g. a copy of its YAML with other weights)"
        )
    result = WhatIfResult(
        session_id=session.id,
        recorded_methodology=f"{session.methodology.name} {session.methodology.version}",
        other_methodology=other_label or f"{other.name} {other.method.version}",
    )
    turns: Sequence[TurnRecord] = replayable_turns(session)
    for step in replay(session, methodology=other):
        n = step.turn.turn_number
        recorded = Choice.from_record(step.turn)
        alternative = Choice.from_decision(step.outcome.tool)
        differs = not recorded.same_move(alternative)
        note = ""
        if not alternative.should_continue and recorded.should_continue:
            note = f"would end the interview here: {alternative.reason or 'stop'}"
        elif alternative.should_continue and not recorded.should_continue:
            note = "would go on; the recorded interview ended here, so there are no later answers"
        result.rows.append(
            WhatIfRow(
                turn=n,
                recorded=recorded,
                alternative=alternative,
                differs=differs,
                counterfactual=result.first_change is not None,
                recorded_score_under_other=_score_of(step.outcome.tool, recorded),
                note=note,
            )
        )
        if differs and result.first_change is None:
            result.first_change = n
        if not alternative.should_continue:
            result.ended_at = n
            break
    for turn in turns[len(result.rows) :]:
        result.rows.append(
            WhatIfRow(
                turn=turn.turn_number,
                recorded=Choice.from_record(turn),
                alternative=None,
                # Nothing was decided here, so nothing decided differently: these turns are
                # counted apart (``not_reached``), not as changes.
                differs=False,
                counterfactual=True,
                note=f"not reached: the what-if interview ended after turn {result.ended_at}",
            )
        )
    return result
