"""The moderator's decisions over the tool's: ``/ask``, ``/alt`` and ``/skip``.

A moderator watching the interview may overrule the decision behind the question that is
waiting for an answer (the decision of the last turn):

- ``ask``: the moderator's own words replace the question; the core keeps the tool's strategy
  and focus (the answer is read against them), only the wording is the moderator's;
- ``alt``: the next-best admissible candidate of the tool's ranking instead of the winner;
- ``skip``: the focus node is done (recorded on the node as a ``skipped`` probe, so no
  node-bound question returns to it) and the tool decides again without it.

The choice is an input of the turn (``TurnInput.moderator``), recorded in the session, so a
replay takes it as given: the tool's own decision is still computed and verified, and the
moderator's is applied on top of it exactly as it was live. Pure: values in, values out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

from interview_cli.core.decide.decision import Decision, SelectedFocus
from interview_cli.core.decide.scored import ScoredCandidate
from interview_cli.core.tracker import SKIPPED, NodeStateTracker, Probe

ModeratorAction = Literal["ask", "alt", "skip"]
MODERATOR_ACTIONS: tuple[str, ...] = get_args(ModeratorAction)
MODERATOR_STRATEGY = "moderator"  # the strategy name on a probe the moderator closed


@dataclass(frozen=True)
class ModeratorChoice:
    """What the moderator decided instead of the tool. ``strategy``/``node_id``: the candidate
    taken by ``alt``, the node dropped by ``skip``; ``text``: the question asked by ``ask``."""

    action: ModeratorAction
    strategy: str | None = None
    node_id: str | None = None
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "strategy": self.strategy,
            "node_id": self.node_id,
            "text": self.text,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ModeratorChoice:
        action = data.get("action")
        if action not in MODERATOR_ACTIONS:
            raise ValueError(f"unknown moderator action {action!r}")
        return cls(
            action=action,
            strategy=data.get("strategy"),
            node_id=data.get("node_id"),
            text=str(data.get("text") or ""),
        )


def alternatives(decision: Decision) -> list[ScoredCandidate]:
    """The admissible candidates other than the winner, best first."""
    admissible = [
        c
        for c in decision.candidates
        if not c.vetoed_by and not c.selected and c.stage != "strategy"
    ]
    return sorted(admissible, key=lambda c: (c.rank or 1 << 30, -c.final_score))


def next_alternative(
    decision: Decision, current: tuple[str, str | None] | None = None
) -> ScoredCandidate | None:
    """The candidate ``/alt`` takes: the runner-up, or the one after ``current`` (a second
    ``/alt`` walks down the ranking); None when there is none left."""
    ranked = alternatives(decision)
    if current is None:
        return ranked[0] if ranked else None
    keys = [(c.strategy, c.node_id) for c in ranked]
    if current not in keys:
        return ranked[0] if ranked else None
    index = keys.index(current) + 1
    return ranked[index] if index < len(ranked) else None


def take_alternative(decision: Decision, choice: ModeratorChoice) -> Decision:
    """The tool's decision with the moderator's candidate selected instead of the winner.

    Given, not re-judged: a replay under other weights (what-if) may rank or veto it otherwise,
    and the interview still went where the moderator sent it."""
    chosen = next(
        (
            c
            for c in decision.candidates
            if (c.strategy, c.node_id) == (choice.strategy, choice.node_id)
        ),
        None,
    )
    label = chosen.node_label if chosen is not None else None
    focus = f' on "{label}"' if label else ""
    return replace(
        decision,
        selected=SelectedFocus(
            choice.strategy or decision.selected.strategy, choice.node_id, label
        ),
        rationale=(*decision.rationale, f"The moderator chose {choice.strategy}{focus} instead."),
    )


def mark_skipped(tracker: NodeStateTracker, node_id: str, turn: int) -> NodeStateTracker:
    """The node closed by the moderator at decision turn ``turn``."""
    state = tracker.states.get(node_id)
    if state is None:
        return tracker
    probe = Probe(turn, MODERATOR_STRATEGY, SKIPPED)
    states = {**tracker.states, node_id: replace(state, probes=(*state.probes, probe))}
    return replace(tracker, states=states)


def note_skip(decision: Decision, label: str | None) -> Decision:
    said = f' "{label}"' if label else " the focus"
    return replace(
        decision, rationale=(*decision.rationale, f"The moderator skipped{said} (done).")
    )
