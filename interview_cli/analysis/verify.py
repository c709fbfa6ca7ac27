"""``replay --verify``: does the pure core reproduce every recorded decision?

For each complete turn the recorded extraction and assessment are fed to ``core.turn.advance``
(see ``replay``) and what comes out is compared with what the session recorded, in this order
(the first three are the decision proper; the rest is the evidence behind it, so an edited
weight or signal shows up even when it happens not to change the winner):

============  ================================================================================
check         compared
============  ================================================================================
snapshot      the methodology and concept texts still hash to the sha256 recorded when the
              interview started (else the weights being replayed are not the ones that ran)
decision      selected strategy, focus node id and label, interview phase
vetoes        which (strategy, node) candidates were vetoed, by which veto, and the reason
              recorded for each (``decision.veto_reasons``; skipped when the file has none)
continuation  continue or stop, the stop reason, turns remaining
question      the next recorded question asks with the decided strategy and focus (closing
              question when the core said stop)
scores        every recorded candidate's score decomposition: base, phase multiplier, bonus,
              final score, rank, and each signal contribution (key, value, weight)
signals       global signals, and node signals of the recorded nodes
graph         the turn's graph delta (nodes and edges added, merged, rejected)
canonical     dual graph: what applying the turn's recorded slot proposals did (slots created,
              promoted, mappings), when the session ran with canonical slots
rationale     the human-readable lines shown by /why
final_state   after the last turn: graph, node tracker, core state (and the canonical state)
              equal the saved ones
============  ================================================================================

Values are compared exactly after a JSON round trip (the recorded file went through one):
replay promises the *same* decision, so a difference in the last digit of a score is a finding,
not noise. Replay goes on after a mismatch with the replayed state, so later turns may differ
only as a consequence: the first differing turn is the one to read. The per-turn checks live
in ``analysis.verify_checks``; this module runs them over a session and checks the end state.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from typing import Any

from interview_cli.analysis.replay import ReplayStep, replay, with_closing
from interview_cli.analysis.verify_checks import (
    Mismatch,
    RecordedSignalNames,
    check_mapping,
    check_turn,
    first_difference,
    plain,
)
from interview_cli.session.schema import (
    SessionFile,
)

CHECKS: tuple[str, ...] = (
    "snapshot",
    "decision",
    "vetoes",
    "continuation",
    "question",
    "scores",
    "signals",
    "graph",
    "canonical",
    "rationale",
    "final_state",
)
DECISION_CHECKS = frozenset({"decision", "vetoes", "continuation"})


@dataclass
class VerifyResult:
    session_id: str
    turns_total: int
    turns_checked: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches

    @property
    def first_turn(self) -> int | None:
        turns = [m.turn for m in self.mismatches if m.turn > 0]
        return min(turns) if turns else (0 if self.mismatches else None)

    @property
    def differing_turns(self) -> list[int]:
        return sorted({m.turn for m in self.mismatches if m.turn > 0})

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for m in self.mismatches:
            out[m.check] = out.get(m.check, 0) + 1
        return out

    def to_dict(self, *, limit: int = 200) -> dict[str, Any]:
        return {
            "session": self.session_id,
            "ok": self.ok,
            "turns_total": self.turns_total,
            "turns_checked": self.turns_checked,
            "first_differing_turn": self.first_turn,
            "differing_turns": self.differing_turns,
            "mismatch_counts": self.counts(),
            "mismatches": [asdict(m) for m in self.mismatches[:limit]],
            "notes": list(self.notes),
        }


def _check_final(session: SessionFile, step: ReplayStep, out: list[Mismatch]) -> None:
    final, delta = with_closing(session, step.after, methodology=step.inputs.methodology)
    if delta is not None and session.closing is not None:
        recorded = session.closing.graph_delta.model_dump(mode="json")
        check_mapping(0, "closing", "graph_delta", recorded, plain(delta), out)
    dumped = plain(final.to_dict())
    for name in ("graph", "tracker", "state", "canonical"):
        if name not in dumped:
            continue
        replayed = dumped[name]
        if name == "tracker":
            replayed = _tracker_as_recorded(session.tracker, replayed)
        elif name == "state":
            replayed = _state_as_recorded(session.state, replayed)
        diff = first_difference(getattr(session, name), replayed)
        if diff:
            out.append(
                Mismatch(
                    0,
                    "final_state",
                    f"{name}.{diff[0]}",
                    diff[1],
                    diff[2],
                    f"the saved {name} differs from the replayed one",
                )
            )


def _check_snapshots(session: SessionFile, out: list[Mismatch]) -> None:
    for name, snap in (("methodology", session.methodology), ("concept", session.concept)):
        if not snap.sha256 or not snap.source:
            continue
        actual = hashlib.sha256(snap.source.encode("utf-8")).hexdigest()
        if actual != snap.sha256:
            out.append(
                Mismatch(
                    0,
                    "snapshot",
                    f"{name}.source",
                    snap.sha256[:12],
                    actual[:12],
                    f"the {name} YAML in the file was changed after the interview ran "
                    "(its sha256 no longer matches)",
                )
            )


def verify_session(session: SessionFile) -> VerifyResult:
    """Replay every complete turn and compare; see the module docstring for what is checked."""
    result = VerifyResult(session_id=session.id, turns_total=len(session.turns))
    _check_snapshots(session, result.mismatches)
    last: ReplayStep | None = None
    recorded = RecordedSignalNames.of(session)
    for index, step in enumerate(replay(session)):
        result.mismatches += check_turn(session, index, step, recorded)
        result.turns_checked += 1
        last = step
    if getattr(session.settings, "enable_embeddings", False):
        result.notes.append(
            "the interview used the embedding tier for de-duplication; replay matches labels "
            "without it, so a merge only embeddings found would show up as a difference"
        )
    if result.turns_checked < len(session.turns):
        result.notes.append(
            f"turn {session.turns[-1].turn_number} was answered but not processed "
            "(an interrupted turn): nothing to verify there"
        )
    if last is not None:
        _check_final(session, last, result.mismatches)
    elif session.graph.get("nodes"):
        out = result.mismatches
        out.append(
            Mismatch(
                0,
                "final_state",
                "graph.nodes",
                len(session.graph["nodes"]),
                0,
                "no turn was processed, yet the saved graph has nodes",
            )
        )
    if result.mismatches:
        note = version_note(session)
        if note:
            result.notes.append(note)
    return result


def version_note(session: SessionFile) -> str | None:
    """On a mismatch: whether the core that replayed is the one that recorded.

    A difference has two causes that look alike in the diff: the file was edited, or the core
    changed since the interview ran (a new weight rule, a fixed signal). The recorded
    ``tool_version`` tells them apart when it differs from the running one.
    """
    from interview_cli import __version__

    recorded = session.tool_version
    if recorded is None:
        return (
            "the session records no tool version, so a change in interview-cli since it was "
            "recorded cannot be told apart from an edited file"
        )
    if recorded != __version__:
        return (
            f"recorded with interview-cli {recorded}, replayed with {__version__}: the "
            "differences may come from a change in the core since, not from an edited file"
        )
    return None


def _state_as_recorded(recorded: Any, replayed: Any) -> Any:
    """The replayed core state without saturation counters the recorded one never had (a
    counter a later version added, such as the recent answers' depths, is not a difference)."""
    rec = (recorded or {}).get("saturation")
    rep = (replayed or {}).get("saturation")
    if not isinstance(rec, dict) or not isinstance(rep, dict):
        return replayed
    return {**replayed, "saturation": {k: v for k, v in rep.items() if k in rec}}


def _tracker_as_recorded(recorded: Any, replayed: Any) -> Any:
    """The replayed tracker without node-state fields the recorded one never had (a field a
    later version added, such as the memory of asking, is not a difference)."""
    rec_states = (recorded or {}).get("states") or {}
    rep_states = (replayed or {}).get("states") or {}
    if not rec_states or not rep_states:
        return replayed
    fields = {f for state in rec_states.values() for f in state}
    states = {
        node: {k: v for k, v in state.items() if k in fields} for node, state in rep_states.items()
    }
    return {**replayed, "states": states}
