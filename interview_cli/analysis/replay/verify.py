"""``replay --verify``: does the pure core reproduce every recorded decision?

For each complete turn the recorded extraction and assessment are fed to ``core.turn.advance``
(see ``replay``) and what comes out is compared with what the session recorded, in this order
(the first three are the decision proper; the rest is the evidence behind it, so an edited
weight or signal shows up even when it happens not to change the winner):

============  ================================================================================
check         compared
============  ================================================================================
snapshot      the methodology and concept texts still hash to the sha256 recorded when the
              interview started (else the weights being replayed are not the ones that ran);
              a fork's also the methodology of its origin that decided its first turns
decision      selected strategy, focus node id and label, raised stimulus element, phase
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
safety        what the interview did about the answer's safety reading (kind, action, message,
              end code), decided by the turn from the recorded assessment
termination   the session's end reason is the one its last turn decided (a safety end's code,
              or the stop's reason), unless the moderator ended it; no stop reason is recorded
              when the last turn went on
closing       the closing answer's graph delta
final_state   after the last turn: graph, node tracker, core state (and the canonical state)
              equal the saved ones
============  ================================================================================

Values are compared exactly after a JSON round trip (the recorded file went through one):
replay promises the *same* decision, so a difference in the last digit of a score is a finding,
not noise. Replay goes on after a mismatch with the replayed state, so later turns may differ
only as a consequence: the first differing turn is the one to read. ``check_turn`` runs the
checks of one turn and returns a ``Mismatch`` per recorded value the replay did not reproduce
(``first_difference`` names the first path where two values part); ``verify`` runs them over a
session and checks the end state.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from interview_cli.analysis.replay.engine import ReplayStep, replay, with_closing
from interview_cli.config.schemas import Methodology
from interview_cli.core.decide.continuation import TERMINATION_REASONS
from interview_cli.core.decide.decision import Decision
from interview_cli.core.decide.scored import candidate_key as scored_key
from interview_cli.core.turn import STOPPED, SafetyDecision, end_code
from interview_cli.pipeline.closing import ENDED_BY_MODERATOR
from interview_cli.session.schema import (
    SessionFile,
    TurnRecord,
    slim_candidates,
    slim_node_signals,
    slim_veto_reasons,
)


@dataclass(frozen=True)
class Mismatch:
    """One recorded value the replay did not reproduce (``turn`` 0: the final state)."""

    turn: int
    check: str
    field: str
    recorded: Any
    replayed: Any
    detail: str = ""


# --------------------------------------------------------------------------------------------
# Comparison helpers
# --------------------------------------------------------------------------------------------


def plain(value: Any) -> Any:
    """``value`` as the session file would hold it (tuples become lists, models dicts)."""
    return json.loads(json.dumps(value, default=_default))


def _default(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, set | frozenset):
        return sorted(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def first_difference(a: Any, b: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first place two JSON values differ, as (path, a part, b part)."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in list(a) + [k for k in b if k not in a]:
            sub = f"{path}.{key}" if path else str(key)
            if key not in b:
                return sub, a[key], "(missing)"
            if key not in a:
                return sub, "(missing)", b[key]
            found = first_difference(a[key], b[key], sub)
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        if len(a) != len(b):
            return f"{path} (length)", len(a), len(b)
        return None
    if a == b and type(a) is type(b):
        return None
    # 1 == 1.0 in Python but not in a JSON file's contract; a bool is never a number here.
    if a == b and not isinstance(a, bool) and not isinstance(b, bool):
        return None
    return path or "(value)", a, b


def candidate_key(c: Mapping[str, Any]) -> str:
    base = scored_key(str(c.get("strategy")), c.get("node_id"))
    stage = c.get("stage", "joint")
    return base if stage == "joint" else f"{stage}:{base}"


def _contribution_diff(
    recorded: Sequence[Mapping[str, Any]], replayed: Sequence[Mapping[str, Any]]
) -> list[str]:
    rec = {c["key"]: c for c in recorded}
    rep = {c["key"]: c for c in replayed}
    lines: list[str] = []
    for key in list(rec) + [k for k in rep if k not in rec]:
        if key not in rep:
            lines.append(f"{key}: weight {rec[key].get('weight')} no longer applies")
            continue
        if key not in rec:
            lines.append(f"{key}: new weight {rep[key].get('weight')}")
            continue
        for part in ("weight", "value", "contribution"):
            if first_difference(rec[key].get(part), rep[key].get(part)):
                lines.append(f"{key} {part} {rec[key].get(part)!r} → {rep[key].get(part)!r}")
    return lines


# --------------------------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------------------------


def _check_decision(turn: TurnRecord, decision: Decision, out: list[Mismatch]) -> None:
    recorded = turn.decision
    n = turn.turn_number
    if recorded is None:
        out.append(
            Mismatch(
                n,
                "decision",
                "decision",
                None,
                decision.selected.strategy,
                "the turn is complete but records no decision",
            )
        )
        return
    pairs = (
        ("strategy", recorded.strategy, decision.selected.strategy),
        ("node_id", recorded.node_id, decision.selected.node_id),
        ("label", recorded.label, decision.selected.label),
        ("element_id", recorded.element_id, decision.selected.element_id),
        ("phase", recorded.phase, decision.phase),
    )
    for name, rec, rep in pairs:
        if rec != rep:
            out.append(Mismatch(n, "decision", f"decision.{name}", rec, rep))


def _check_tool_choice(
    turn: TurnRecord, tool: Decision, overruled: bool, out: list[Mismatch]
) -> None:
    """Under a moderator's decision, the tool's own choice is recorded: it must replay too."""
    choice = turn.decision.tool_choice if turn.decision else None
    recorded = choice.model_dump(mode="json") if choice is not None else None
    if recorded is None and not overruled:
        return
    replayed = tool.selected.to_dict()
    if recorded != replayed:
        out.append(
            Mismatch(turn.turn_number, "decision", "decision.tool_choice", recorded, replayed)
        )


def recorded_candidates(turn: TurnRecord) -> list[dict[str, Any]]:
    """The turn's candidates as written: replay compares them with the replayed ones made
    and slimmed alike (``ScoredCandidate.to_dict``, ``session.schema.slim_candidates``)."""
    return [c.model_dump(mode="json") for c in turn.candidates]


def _vetoes(candidates: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {candidate_key(c): c.get("vetoed_by") for c in candidates if c.get("vetoed_by")}


def _check_vetoes(
    turn: TurnRecord, decision: Decision, replayed: list[dict[str, Any]], out: list[Mismatch]
) -> None:
    rec, rep = _vetoes(recorded_candidates(turn)), _vetoes(replayed)
    for key in sorted(set(rec) | set(rep)):
        if rec.get(key) != rep.get(key):
            out.append(
                Mismatch(
                    turn.turn_number, "vetoes", f"vetoed_by[{key}]", rec.get(key), rep.get(key)
                )
            )
    # The reasons are what /why shows for a veto, so an edited one is a finding even when the
    # veto itself still holds. Files written before the field existed record none: nothing to
    # compare, rather than a difference on every vetoed candidate.
    reasons = turn.decision.veto_reasons if turn.decision else {}
    if not reasons:
        return
    missing = "(missing)"
    replayed_reasons = decision.veto_reasons
    if turn.candidate_summary:  # a slimmed record keeps the reasons of the vetoes it keeps
        replayed_reasons = slim_veto_reasons(dict(replayed_reasons), replayed)
    for key in list(reasons) + [k for k in replayed_reasons if k not in reasons]:
        a, b = reasons.get(key, missing), replayed_reasons.get(key, missing)
        if a != b:
            out.append(Mismatch(turn.turn_number, "vetoes", f"veto_reasons[{key}]", a, b))


def _check_continuation(turn: TurnRecord, decision: Decision, out: list[Mismatch]) -> None:
    rec = turn.continuation
    c = decision.continuation
    n = turn.turn_number
    if rec is None:
        out.append(
            Mismatch(
                n,
                "continuation",
                "continuation",
                None,
                c.should_continue,
                "the turn is complete but records no continuation",
            )
        )
        return
    pairs = (
        ("should_continue", rec.should_continue, c.should_continue),
        ("reason", rec.reason, c.reason or ""),
        ("turns_remaining", rec.turns_remaining, c.turns_remaining),
    )
    for name, r, p in pairs:
        if r != p:
            out.append(Mismatch(n, "continuation", f"continuation.{name}", r, p))


def _next_question(session: SessionFile, index: int) -> Any:
    if index + 1 < len(session.turns):
        return session.turns[index + 1].question
    return session.pending_question


def _check_question(
    session: SessionFile, index: int, decision: Decision, out: list[Mismatch]
) -> None:
    question = _next_question(session, index)
    if question is None:  # ended by the moderator, or the closing question was answered
        return
    n = session.turns[index].turn_number
    if not decision.continuation.should_continue:
        if question.kind != "closing":
            out.append(
                Mismatch(
                    n,
                    "question",
                    "next_question.kind",
                    question.kind,
                    "closing",
                    "the core said stop, so the next question should close",
                )
            )
        return
    pairs = (
        ("kind", question.kind, "follow_up"),
        ("strategy", question.strategy, decision.selected.strategy),
        ("focus_node_id", question.focus_node_id, decision.selected.node_id),
        ("focus_element_id", question.focus_element_id, decision.selected.element_id),
    )
    for name, rec, rep in pairs:
        if rec != rep:
            out.append(Mismatch(n, "question", f"next_question.{name}", rec, rep))


def _check_scores(turn: TurnRecord, replayed: list[dict[str, Any]], out: list[Mismatch]) -> None:
    n = turn.turn_number
    rec = {candidate_key(c): c for c in recorded_candidates(turn)}
    rep = {candidate_key(c): c for c in replayed}
    for key in list(rec) + [k for k in rep if k not in rec]:
        if key not in rep:
            out.append(
                Mismatch(
                    n,
                    "scores",
                    f"candidates[{key}]",
                    "recorded",
                    "(not among the replayed candidates)",
                )
            )
            continue
        if key not in rec:
            out.append(Mismatch(n, "scores", f"candidates[{key}]", "(not recorded)", "replayed"))
            continue
        a, b = rec[key], rep[key]
        parts = [
            f"{name} {a.get(name)!r} → {b.get(name)!r}"
            for name in (
                "final_score",
                "base_score",
                "phase_multiplier",
                "phase_bonus",
                "rank",
                "selected",
                "node_label",
            )
            if first_difference(a.get(name), b.get(name))
        ]
        parts += _contribution_diff(
            a.get("signal_contributions", []), b.get("signal_contributions", [])
        )
        if parts:
            out.append(
                Mismatch(
                    n,
                    "scores",
                    f"candidates[{key}]",
                    a.get("final_score"),
                    b.get("final_score"),
                    "; ".join(parts),
                )
            )


def check_mapping(
    n: int,
    check: str,
    name: str,
    rec: Mapping[str, Any],
    rep: Mapping[str, Any],
    out: list[Mismatch],
) -> None:
    for key in list(rec) + [k for k in rep if k not in rec]:
        a, b = rec.get(key, "(missing)"), rep.get(key, "(missing)")
        diff = first_difference(a, b)
        if diff:
            where = f"{name}[{key}]" + (f".{diff[0]}" if diff[0] != "(value)" else "")
            out.append(Mismatch(n, check, where, diff[1], diff[2]))


@dataclass(frozen=True)
class RecordedSignalNames:
    """The global and per-node signal names the recording tool computed anywhere in a
    session. A signal a later version added is replayed but was never recorded: it is not a
    difference (a recorded one that is missing or changed still is)."""

    global_names: frozenset[str]
    node_names: frozenset[str]

    @classmethod
    def of(cls, session: SessionFile) -> RecordedSignalNames:
        return cls(
            frozenset(k for t in session.turns for k in t.signals),
            frozenset(
                k for t in session.turns for values in t.node_signals.values() for k in values
            ),
        )


def check_turn(
    session: SessionFile,
    index: int,
    step: ReplayStep,
    recorded: RecordedSignalNames | None = None,
) -> list[Mismatch]:
    """Every check of one turn, in ``CHECKS`` order (``recorded``: the session's signal
    names, computed once per session by the caller; derived here when not given)."""
    turn = step.turn
    # The moderator's decision (recorded on the turn) is given: the replay applies it on top of
    # the tool's, and every check of the evidence (candidates, scores, signals, vetoes) reads
    # the tool's own decision, which is still the core's to reproduce.
    decision, tool = step.outcome.decision, step.outcome.tool
    n = turn.turn_number
    out: list[Mismatch] = []
    replayed = plain([c.to_dict() for c in tool.candidates])
    node_signals = plain(tool.node_signals)
    if turn.candidate_summary:  # a slimmed record: compare it with the replay slimmed alike
        replayed, summary = slim_candidates(replayed)
        node_signals = slim_node_signals(node_signals, replayed)
        recorded_summary = turn.candidate_summary.model_dump(mode="json")
        check_mapping(n, "scores", "candidate_summary", recorded_summary, summary, out)
    _check_decision(turn, decision, out)
    _check_tool_choice(turn, tool, step.outcome.tool_decision is not None, out)
    _check_vetoes(turn, tool, replayed, out)
    _check_continuation(turn, decision, out)
    _check_question(session, index, decision, out)
    _check_scores(turn, replayed, out)
    names = recorded if recorded is not None else RecordedSignalNames.of(session)
    _check_signals(turn, plain(tool.global_signals), node_signals, names, out)
    recorded_delta = turn.graph_delta.model_dump(mode="json")
    check_mapping(n, "graph", "graph_delta", recorded_delta, plain(step.outcome.delta), out)
    if step.outcome.slot_discovery is not None:
        recorded_slots = turn.slot_discovery
        check_mapping(
            n,
            "canonical",
            "slot_discovery",
            recorded_slots,
            plain(step.outcome.slot_discovery.model_dump(mode="json")),
            out,
        )
    _check_rationale(turn, decision, out)
    _check_safety(turn, step.outcome.safety, out)
    return out


def _check_safety(turn: TurnRecord, replayed: SafetyDecision | None, out: list[Mismatch]) -> None:
    """The safety response the turn decided, against the one the turn record keeps."""
    recorded = turn.safety.model_dump(mode="json") if turn.safety is not None else None
    decided = plain(asdict(replayed)) if replayed is not None else None
    diff = first_difference(recorded, decided)
    if diff:
        where = "safety" if diff[0] == "(value)" else f"safety.{diff[0]}"
        out.append(
            Mismatch(
                turn.turn_number,
                "safety",
                where,
                diff[1],
                diff[2],
                "the recorded safety response is not the one the turn decides",
            )
        )


def _turn_reasons(methodology: Methodology) -> frozenset[str]:
    """Every end reason a turn may decide: the stops' and the safety ends' codes."""
    responses = methodology.safety.responses().items()
    codes = {end_code(kind, r) for kind, r in responses}
    return frozenset({*TERMINATION_REASONS, STOPPED, *codes})


def _check_termination(session: SessionFile, step: ReplayStep, out: list[Mismatch]) -> None:
    """The session's end reason against the one its last turn decided (module docstring)."""
    recorded, decided = session.termination_reason, step.outcome.termination_reason
    if recorded == ENDED_BY_MODERATOR:
        return  # the moderator's /end decides, whatever the turn decided
    if decided is None and recorded not in _turn_reasons(step.inputs.methodology):
        return  # the turn went on: the session ended (or not) for a reason of the shell's
    if recorded != decided:
        out.append(
            Mismatch(
                step.turn.turn_number,
                "termination",
                "termination_reason",
                recorded,
                decided,
                "the session's end reason is not the one its last turn decided",
            )
        )


def _check_signals(
    turn: TurnRecord,
    global_signals: Mapping[str, Any],
    node_signals: Mapping[str, Mapping[str, Any]],
    names: RecordedSignalNames,
    out: list[Mismatch],
) -> None:
    """Global and node signals, leaving out names the recording tool never computed."""
    known, known_node = names.global_names, names.node_names
    global_kept = {k: v for k, v in global_signals.items() if k in turn.signals or k in known}
    node_kept = {
        node: {
            k: v
            for k, v in values.items()
            if k in known_node or k in turn.node_signals.get(node, {})
        }
        for node, values in node_signals.items()
    }
    n = turn.turn_number
    check_mapping(n, "signals", "signals", turn.signals, global_kept, out)
    check_mapping(n, "signals", "node_signals", turn.node_signals, node_kept, out)


def _check_rationale(turn: TurnRecord, decision: Decision, out: list[Mismatch]) -> None:
    recorded_rationale = turn.decision.rationale if turn.decision else []
    diff = first_difference(list(recorded_rationale), list(decision.rationale))
    if diff:
        out.append(
            Mismatch(
                turn.turn_number,
                "rationale",
                f"rationale{diff[0] if diff[0] != '(value)' else ''}",
                diff[1],
                diff[2],
            )
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
    "safety",
    "termination",
    "closing",
    "final_state",
)
DECISION_CHECKS = frozenset({"decision", "vetoes", "continuation", "safety", "termination"})


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
    snapshots: list[tuple[str, Any]] = [
        ("methodology", session.methodology),
        ("concept", session.concept),
    ]
    for rules in session.fork.earlier if session.fork is not None else []:
        if rules.methodology is not None:  # what decided the fork's first turns
            snapshots.append((f"fork.earlier[{rules.until_turn}].methodology", rules.methodology))
    for name, snap in snapshots:
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
    without = session.methodology.tuning.get("ran_without") or []
    if without:
        result.notes.append(
            "recorded before these were habits of the interviewer, so replayed without them: "
            + ", ".join(str(h) for h in without)
        )
    if result.turns_checked < len(session.turns):
        result.notes.append(
            f"turn {session.turns[-1].turn_number} was answered but not processed "
            "(an interrupted turn): nothing to verify there"
        )
    if last is not None:
        _check_termination(session, last, result.mismatches)
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
