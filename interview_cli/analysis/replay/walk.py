"""``interview replay FILE``: one recorded turn as a plain record (what ``--json`` prints).

The walk shows what the session recorded - it does not recompute anything (``--verify`` does):
the question with the strategy and focus that chose it, the answer, what was extracted and what
was rejected and why, the graph delta, the canonical slots it created or mapped (dual graph),
the key signals, the top candidates with their score
decomposition and vetoes, the decision and the continuation. The terminal view
(``ui.replay``) is drawn from the same records.

"Key signals" are the ones that moved the decision - every signal behind a non-zero
contribution to the selected candidate's score - plus a few that always matter for reading a
turn (depth of the answer, knowledge ceiling, response trend, phase, saturation).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interview_cli.errors import UsageError
from interview_cli.session.schema import CandidateRecord, SessionFile, TurnRecord

ALWAYS_SHOWN: tuple[str, ...] = (
    "llm.response_depth",
    "llm.knowledge_ceiling",
    "llm.global_response_trend",
    "meta.interview.phase",
    "meta.conversation.saturation",
)
TOP_CANDIDATES = 6


def _signal_for_key(key: str, known: Mapping[str, Any]) -> str | None:
    """The signal a weight key reads ("llm.response_depth.deep" -> "llm.response_depth")."""
    if key in known:
        return key
    head = key.rsplit(".", 1)[0]
    return head if head in known else None


def selected_candidate(turn: TurnRecord) -> CandidateRecord | None:
    return next((c for c in turn.candidates if c.selected), None)


def key_signals(turn: TurnRecord) -> dict[str, dict[str, Any]]:
    """``{"global": {...}, "node": {...}}``: the signals worth reading for this turn."""
    chosen = selected_candidate(turn)
    node_id = turn.decision.node_id if turn.decision else None
    node_values = turn.node_signals.get(node_id, {}) if node_id else {}
    global_out: dict[str, Any] = {}
    node_out: dict[str, Any] = {}
    for part in chosen.signal_contributions if chosen else []:
        if not part.contribution:
            continue
        name = _signal_for_key(part.key, node_values)
        if name is not None:
            node_out[name] = node_values[name]
            continue
        name = _signal_for_key(part.key, turn.signals)
        if name is not None:
            global_out[name] = turn.signals[name]
    for name in ALWAYS_SHOWN:
        if name in turn.signals:
            global_out.setdefault(name, turn.signals[name])
    return {
        "global": dict(sorted(global_out.items())),
        "node": dict(sorted(node_out.items())),
    }


def walk_record(turn: TurnRecord, *, top: int = TOP_CANDIDATES) -> dict[str, Any]:
    q = turn.question
    record: dict[str, Any] = {
        "turn": turn.turn_number,
        "status": turn.status,
        "question": {
            "text": q.text,
            "kind": q.kind,
            "strategy": q.strategy,
            "focus_node_id": q.focus_node_id,
            "focus_label": q.focus_label,
        },
        "answer": {"utterance_id": turn.answer.utterance_id, "text": turn.answer.text},
    }
    if turn.status != "complete":
        record["note"] = "answered but not processed (the interview was interrupted here)"
        return record
    extraction = turn.extraction.model_dump(mode="json") if turn.extraction else None
    admissible = [c.model_dump(mode="json") for c in turn.candidates if not c.vetoed_by]
    vetoed = [c.model_dump(mode="json") for c in turn.candidates if c.vetoed_by]
    record.update(
        {
            "extraction": extraction,
            "graph_delta": turn.graph_delta.model_dump(mode="json"),
            # Dual graph: the slots this turn created or promoted and the surface
            # concepts it mapped to slots, as the terminal replay shows; {} when slots were off.
            "slot_discovery": turn.slot_discovery,
            "key_signals": key_signals(turn),
            "candidates": admissible[:top],
            "vetoed": vetoed,
            "decision": turn.decision.model_dump(mode="json") if turn.decision else None,
            "continuation": (
                turn.continuation.model_dump(mode="json") if turn.continuation else None
            ),
            "failures": list(turn.failures),
        }
    )
    return record


def pick_turn(session: SessionFile, number: int) -> TurnRecord:
    for turn in session.turns:
        if turn.turn_number == number:
            return turn
    last = session.turns[-1].turn_number if session.turns else 0
    span = f"1..{last}" if last else "none: the session has no answered turn yet"
    raise UsageError(f"--turn {number}: no such turn in session {session.id} (turns: {span})")
